"""Kinds a description gives as examples of a class: one block, not one required block each.

"adverse birth outcomes such as preterm birth and low birth weight", "biologics, including adalimumab
and infliximab", "mind-body exercise (e.g. tai chi or yoga)", and a list in brackets with no cue at all,
"fluoroquinolones (ciprofloxacin, levofloxacin)" after a plural class: the examples are kinds of the
class written right before them (one name alone in brackets is the class's other name,
`bracketed_aliases`). A searcher ORs them into the class's block (the class alone misses the papers that
name only a kind, each kind alone misses the papers that name the class), where read apart each kind
would be a concept of its own, AND'ed, and a paper would have to name the class and every example. A
title's colon does the same for a class of outcomes (`outcome_lists.kinds_listed_after_the_colon`).
"""

from __future__ import annotations

import re

from agent.keywords.phrase_words import GENERIC_WORDS
from agent.keywords.title_template import subtitle, written_as_the_user_wrote, written_in
from agent.models import Concept, Term
from agent.understanding.lexicon import EFFECT_VERBS

# what introduces examples of the phrase right before it; "like" only right after a noun phrase
# (the term before it), never the verb ("we would like to")
_EXAMPLES_CUE = r"\s*,?\s*\(?\s*(?:such\s+as|including|e\.\s?g\.?,?|for\s+(?:example|instance),?|like)\s+"
# with no cue, an opening bracket after a plural class that holds a list (a comma, "or", "and" before
# its closing one; not a slash, which joins the parts of one name as often as it lists: "PET/CT"); after
# a singular noun the list is more often of modifiers ("cancer screening (cervical, breast and bowel)")
_BRACKETED_LIST = r"\s*\((?=[^()]*(?:,|\s(?:or|and)\s)[^()]*\))"
_PLURAL = re.compile(r"[a-z](?<![su])s$", re.IGNORECASE)
# the examples end with their clause, or where the people or place of the sentence start, or where a
# new noun phrase (a determiner after "and") or the other side of a comparison starts, or at the verb
# the examples are the subject of ("exercise such as tai chi or balance training prevent falls")
_KINDS = re.compile(r"(?P<kinds>[^.;:!?()。；：！？（）]+)")
# the same cues in Chinese, after the class as the user wrote it ("非药物干预，比如早期活动和睡眠改善");
# not 如何 ("how"), 如果 ("if")
_EXAMPLES_CUE_ZH = r"\s*[，,]?\s*[（(]?\s*(?:比如|例如|譬如|诸如|包括|如(?![何果此今]))\s*"
# with no cue, a bracket right after the class that holds a list (a 、 or a comma before its closing one):
# "SGLT2抑制剂（dapagliflozin、empagliflozin）" names the class's members, as the English plural does
_BRACKETED_LIST_ZH = r"\s*[（(](?=[^（）()]*[、,，][^（）()]*[）)])"
_WHO_OR_WHERE = re.compile(
    r"\s(?:in|among|amongst|for|with|after|during|at|from|to|on|versus|vs|compared)\s"
    r"|\s(?:and|or)\s+(?:the|a|an|its|their|whether)\s"
    rf"|\s(?:{'|'.join(sorted(EFFECT_VERBS, key=len, reverse=True))})\s",
    re.IGNORECASE,
)


# the prepositional phrases a class of things done may carry before its examples ("non-pharmacological
# interventions for delirium in ICU patients, such as early mobilisation and sleep promotion")
_POST_MODIFIERS = r"(?:\s+(?:for|in|among|amongst|of|with|after|during|at|to)\s+[^.;:!?(),]+?){1,3}"


def _examples_after(term: Term, description: str) -> list[tuple[str, str]]:
    """Each example list the description writes right after `term` ("X such as ..."), or after the
    prepositional phrases of a class named by a generic plural head ("interventions for X in Y, such
    as ..."): its text, and the description without it."""
    found = []
    cue = f"(?:{_EXAMPLES_CUE}|{_BRACKETED_LIST})" if _PLURAL.search(term.canonical) else _EXAMPLES_CUE
    words = term.canonical.split()
    if _PLURAL.search(term.canonical) and words and words[-1].lower() in GENERIC_WORDS:
        cue = f"(?:{_POST_MODIFIERS})?{cue}"
    for match in re.finditer(
        r"(?<!\w)" + re.escape(term.canonical) + r"(?!\w)" + cue, description, re.IGNORECASE
    ):
        if kinds := _KINDS.match(description, match.end()):
            text = _WHO_OR_WHERE.split(" " + kinds.group("kinds") + " ")[0]
            found.append((text, description[: match.end()] + description[match.end() + len(text) - 1 :]))
    if term.original:
        cue_zh = f"(?:{_EXAMPLES_CUE_ZH}|{_BRACKETED_LIST_ZH})"
        for match in re.finditer(re.escape(term.original) + cue_zh, description):
            if kinds := _KINDS.match(description, match.end()):
                found.append((kinds.group("kinds"), description[: match.end()] + description[kinds.end() :]))
    return found


def _written(term: Term, text: str) -> bool:
    """Whether `text` writes the term, in English or as the user wrote it in Chinese."""
    return written_in(term.canonical, text) or written_as_the_user_wrote(term, text)


def _only_among(members: list[Term], lists: list[tuple[str, str]]) -> bool:
    """Whether every term is written in one of the example lists and nowhere else: "taxes on
    sugar-sweetened beverages (soda taxes, ...)" names the taxes before the drinks, so they are no kind
    of drink."""
    return any(all(_written(t, text) and not _written(t, rest) for t in members) for text, rest in lists)


def kinds_given_as_examples(
    concepts: list[Concept], terms: list[Term], description: str, left_out: set[str], listed: set[str]
) -> dict[str, list[str]]:
    """For each concept whose term the description follows with examples ("X such as A and B"), the
    other concepts every term of which is written among those examples: the kinds to OR into its
    block. A concept `left_out` of the query for another reason (a comparator, a detail) is neither a
    class nor a kind; one `listed` among the outcomes a searcher leaves out is no class, but may be a
    kind (a class searched is searched with its examples); a kind joins one class, and the kinds of a
    kind join the class above it ("water pills (thiazides e.g. bendroflumethiazide ...)")."""
    members = {c.id: [t for t in terms if t.concept == c.id] for c in concepts}
    classes: dict[str, list[str]] = {}
    taken: set[str] = set()
    for concept in reversed(concepts):  # an inner list first, so that its class can join the outer one
        if concept.id in left_out or concept.id in listed or concept.id in taken:
            continue
        lists = [found for t in members[concept.id] for found in _examples_after(t, description)]
        kinds = [
            other.id
            for other in concepts
            if other.id != concept.id
            and other.id not in left_out
            and other.id not in taken
            and members[other.id]
            and _only_among(members[other.id], lists)
        ]
        if kinds:
            classes[concept.id] = kinds + [k for kind in kinds for k in classes.pop(kind, [])]
            taken.update(classes[concept.id])
    return classes


# examples of a class the description leaves unnamed ("what interventions ...? I'm thinking of things like
# A, B and C"; "- A, B, that kind of thing"): a cue before the list that names no class, or one after it
_UNNAMED_CLASS_BEFORE = re.compile(
    r"\b(?:things|stuff|something|anything)\s+like\s+(?P<kinds>[^.;:!?()]+)", re.I
)
_UNNAMED_CLASS_AFTER = re.compile(
    r"(?P<kinds>[^.;:!?()\-–—]+?),?\s+(?:(?:that|this)\s+(?:kind|sort)\s+of\s+thing|and\s+(?:so\s+on|the\s+like)"
    r"|or\s+similar|etc\b)",
    re.I,
)


# a title opened by a generic class of what is done ("Interventions to improve ...", "Strategies for
# ..."): the list its colon introduces names the kinds meant ("...: mobile apps, text reminders and
# family-based programmes"); a list needs a comma or "and"/"or" between two items
_GENERIC_CLASS_OPENING = re.compile(
    r"^\W*(?:(?:non-?pharmacological|behaviou?ral|psychological|educational|digital|other)\s+)?"
    r"(?:interventions|strategies|approaches|treatments|therapies|programmes|programs|options|methods)\b",
    re.I,
)
_A_LIST = re.compile(r",|\s(?:and|or)\s", re.I)


def kinds_of_an_unnamed_class(
    concepts: list[Concept], terms: list[Term], description: str, left_out: set[str]
) -> dict[str, list[str]]:
    """The concepts written only in one list of examples of a class the description does not name
    (`_UNNAMED_CLASS_BEFORE`, `_UNNAMED_CLASS_AFTER`): the first concept of the list, and the others to
    OR into its block. They are alternatives the user would take any of, so a searcher writes one block
    of them, where read apart each would be AND'ed and a paper would have to name them all."""
    lists = [m.group("kinds") for m in _UNNAMED_CLASS_BEFORE.finditer(description)]
    lists += [m.group("kinds") for m in _UNNAMED_CLASS_AFTER.finditer(description)]
    classes: dict[str, list[str]] = {}
    for text in lists:
        kinds = _written_only_in(text, concepts, terms, description, left_out)
        if len(kinds) > 1:
            classes[kinds[0]] = kinds[1:]
    return classes


def kinds_after_a_generic_class(
    concepts: list[Concept], terms: list[Term], description: str, left_out: set[str]
) -> list[str]:
    """The concepts written only in the list after the colon of a title opened by a generic class of
    what is done (`_GENERIC_CLASS_OPENING`: "Interventions to improve medication adherence in ...:
    mobile apps, text reminders and family-based programmes"), in the order written; [] when there is
    no such list. They are the kinds of what is done, one block of alternatives (read apart, each was
    a block AND'ed, and a paper had to name them all)."""
    if not _GENERIC_CLASS_OPENING.match(description) or not _A_LIST.search(tail := subtitle(description)):
        return []
    kinds = _written_only_in(tail, concepts, terms, description, left_out)
    where = {
        t.concept: written_at
        for t in terms
        if (written_at := tail.casefold().find(t.canonical.casefold())) >= 0
    }
    return sorted(kinds, key=lambda cid: where.get(cid, len(tail))) if len(kinds) > 1 else []


def _written_only_in(
    text: str, concepts: list[Concept], terms: list[Term], description: str, left_out: set[str]
) -> list[str]:
    """The concepts (not `left_out`) every term of which is written in `text` and nowhere else."""
    text = _WHO_OR_WHERE.split(f" {text} ")[0]
    rest = description.replace(text.strip(), " ")
    return [
        c.id
        for c in concepts
        if c.id not in left_out
        and (written := [t for t in terms if t.concept == c.id])
        and all(written_in(t.canonical, text) and not written_in(t.canonical, rest) for t in written)
    ]
