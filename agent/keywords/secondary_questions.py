"""Concepts written only in a second, lesser wish of the description: kept, but the query does not AND them.

Users add a second interest after their question: "Does take-home naloxone reduce overdose deaths? I'm
also curious about pharmacy-based programs.", "... 的关系，以及减少免疫抑制剂的效果" (and also the effect
of reducing immunosuppressants). A librarian searches the first question and lets the second widen
nothing it needs: a paper on naloxone and overdose deaths is relevant whether or not it names pharmacies.
When the added wish asks the same of another thing of one role ("Is tonsillectomy better than watchful
waiting for recurrent sore throats? And does it help children with sleep-disordered breathing?"), the
librarian ORs that thing into the first question's block of the role (sore throat OR sleep-disordered
breathing): `joins_of_the_same_role`.
AND'ing the second wish's concepts in would drop every paper of the first question that does not also
answer the second. So a concept whose every term is written only in such an added wish is optional (it
is kept: cutting it before reading lost real topics, see the reverted 'also' aside).

An added wish is a sentence whose subject says "also" ("I'm also curious", "we would also like"), a
sentence opened by a word of adding ("Also, ...", "And does it help ...?", "Additionally"), a second
question coordinated after a comma or semicolon and "and", opened by an auxiliary, a question word or
"any" ("..., and is there a preterm birth signal?", "..., and what about resistance?", "..., and does
closing it help?", "Looking at milk volume, and any cardiac side effects."), or in Chinese the clause
after a comma and a word of adding (，以及 / 另外 / 此外 / 还有): closed classes of the two languages' grammar
of adding, not topics.
"""

from __future__ import annotations

import re

from agent.keywords.phrase_words import content_words
from agent.models import Concept, Term

_ALSO_SUBJECT = re.compile(
    r"\b(?:i|we)(?:'m|'d|'re|'ll|\s+am|\s+are|\s+would|\s+will|\s+'d)?\s+(?:\w+\s+)?also\b", re.IGNORECASE
)
_ADDING_OPENER = re.compile(r"^\s*(?:also|and|additionally|in\s+addition|plus|secondly)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.?!。？！]+[.?!。？！]?")
# "..., and is there X?", "...; and what about Y?": a second question coordinated inside a sentence, to
# the sentence's end (an auxiliary or question word right after "and" opens a clause, not a noun phrase)
_COORDINATED_QUESTION = re.compile(
    r"[,;]\s*and\s+(?:is|are|was|were|does|do|did|can|could|should|will|would|has|have|what|how|which|"
    r"whether|any)\b[^.?!]*[.?!]?",
    re.IGNORECASE,
)
_CHINESE_ADDED_CLAUSE = re.compile(r"[，,；;]\s*(?:以及|另外|此外|还有)[^。？！.?!]*")

REASON = "written only in a second, added wish: it narrows nothing the first question needs"


def added_wishes(description: str) -> tuple[list[str], str]:
    """The spans of the description that add a second wish, and the rest of the text."""
    added: list[str] = []
    rest: list[str] = []
    for sentence in _SENTENCE.findall(description):
        if _ALSO_SUBJECT.search(sentence) or _ADDING_OPENER.match(sentence):
            added.append(sentence)
            continue
        clauses = [m.group(0) for m in _CHINESE_ADDED_CLAUSE.finditer(sentence)]
        clauses += [m.group(0) for m in _COORDINATED_QUESTION.finditer(sentence)]
        added += clauses
        rest.append(_COORDINATED_QUESTION.sub(" ", _CHINESE_ADDED_CLAUSE.sub(" ", sentence)))
    return added, " ".join(rest)


def asked_only_secondarily(concepts: list[Concept], terms: list[Term], description: str) -> dict[str, str]:
    """The concepts every term of which is written in an added wish and nowhere else, with the reason;
    none when the whole description is added wishes (then the first question is one of them)."""
    added, rest = added_wishes(description)
    if not added or not rest.strip():
        return {}
    found: dict[str, str] = {}
    for concept in concepts:
        members = [t for t in terms if t.concept == concept.id]
        if members and all(_written_in(t, " ".join(added)) and not _written_in(t, rest) for t in members):
            found[concept.id] = REASON
    return found


def _written_in(term: Term, text: str) -> bool:
    """Whether the term's words (or the non-English words it was read from) are written in `text`; a
    word counts by its first five letters ("pharmacy programs" in "pharmacy-based programs")."""
    if term.original:
        return term.original in text
    words = content_words(term.canonical) or term.canonical.split()
    return bool(words) and all(re.search(rf"\b{re.escape(w[:5])}", text, re.IGNORECASE) for w in words)


def joins_of_the_same_role(
    concepts: list[Concept], secondary: dict[str, str], set_aside: set[str]
) -> dict[str, str]:
    """The added wish's concepts that ask the same of another thing of a role the first question has one
    concept of (not one `set_aside`): each with the first question's concept it joins."""
    first = [c for c in concepts if c.id not in secondary and c.id not in set_aside]
    joins: dict[str, str] = {}
    for concept in concepts:
        if concept.id not in secondary:
            continue
        same = [c for c in first if c.role is concept.role]
        if len(same) == 1:
            joins[concept.id] = same[0].id
    return joins
