"""Step 4 of `agent.keywords.concepts`: from drafts (the terms one phrase gave, with their role) to the
concepts a searcher ANDs, each one OR block.

Apart from the recognition that makes the drafts because grouping is its own judgement, with its own
reasons to change: which drafts are one concept (one role from one slot and one side of a "versus";
phrases the description lists together; free-text phrases that share a word), which stay apart (the two
sides of "versus", phrases written apart, a condition an adjective names ("obese children with asthma"),
headings of no common MeSH category in one slot (who is studied and where), the descriptors of one
compound phrase from different trees, a measurement beside the analysis of it), one term per descriptor or spelling across the plan, and a
prediction of a concept folded into that concept's block. It knows nothing of MeSH recognition or of
which concepts are required.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.keywords.phrase_words import TASK_NAMES, content_words
from agent.language.mesh_recognition import word_key
from agent.language.morphology import is_acronym, singular
from agent.models import Concept, ConceptRole, Synonym, SynonymOrigin, Term


@dataclass
class Draft:
    """A concept under construction: terms of one role from one slot (and one side of a "versus")."""

    role: ConceptRole
    slot: str
    group: int
    terms: list[Term] = field(default_factory=list)
    series: int = 0  # phrases listed together in the description ("X, Y or Z") share a series
    # the phrases that name several descriptors of different trees this draft stands in ("sugar-sweetened
    # beverage taxes", `apart_in_mesh`): they are different concepts, AND'ed, never OR'ed in one block
    compounds: set[str] = field(default_factory=set)
    # what the studies compare with: the later side of "compared with", or of a "versus" named by a generic
    # head ("usual care")
    comparator: bool = False
    # terms MeSH adds to the block without the user naming them (the organism an infection is named
    # after, the infection an organism names): searched, never the concept's label
    companions: list[Term] = field(default_factory=list)
    # a condition an adjective names beside the thing it qualifies ("obese children with asthma",
    # "recurrent colorectal cancer"): a concept of its own, never OR'ed with another of its role
    apart: bool = False


# what the data are measured with and what they are analysed with are two concepts even listed together
# ("using vital signs and machine learning": the understanding put them in these two slots)
_MEASURED_AND_ANALYSED = frozenset({"method_measurement", "method_algorithm"})


def group_drafts(drafts: list[Draft], shared: set[int], related: set[int]) -> list[Draft]:
    """One concept per (versus-side, slot, role), except that phrases the description writes apart
    (both found in it, not listed together) are different concepts, phrases it lists together are one
    whichever slots hold them when they are alike (`_alike`: "hip and knee osteoarthritis"; not a
    measurement beside an analysis: "vital signs and machine learning") and, in a `shared` series, whichever
    roles ("patient and public involvement"), and the descriptors of one compound phrase ("sugar-sweetened
    beverage taxes") are different concepts, as are headings of one slot MeSH files in no common category
    when they are not listed together (`_other_kinds`: "children in low-income countries"), and so are
    the two phrases of a `related` pair of one slot unless they are alike ("universal basic income and
    mental health" relates two things, "anxiety and depression in cancer survivors" lists two of a
    kind); the same descriptor twice is one term."""
    grouped: list[Draft] = []
    for draft in drafts:
        same = next(
            (
                g
                for g in grouped
                if g.group == draft.group
                and (g.role == draft.role or g.series == draft.series in shared)
                and (
                    g.slot == draft.slot
                    and (g.series == draft.series or -1 in (g.series, draft.series))
                    and (g.series == draft.series != -1 or not _other_kinds(g, draft))
                    and (g.series != draft.series or draft.series not in related or _alike(g, draft))
                    or g.series == draft.series != -1
                    and _alike(g, draft)
                )
                and not g.compounds & draft.compounds
                and not (g.apart or draft.apart)
                and {g.slot, draft.slot} != _MEASURED_AND_ANALYSED
            ),
            None,
        )
        if same is None:
            grouped.append(draft)
        else:
            same.terms += draft.terms
            same.companions += draft.companions
            same.compounds |= draft.compounds
    return _join_shared_words(grouped)


def _other_kinds(a: Draft, b: Draft) -> bool:
    """Whether MeSH files every term of two drafts, and in no common category ("children" M, "low-income
    countries" I: who is studied and where are two blocks, however one slot holds them)."""
    kinds = [{n[0] for t in d.terms if t.mesh for n in t.mesh.tree_numbers} for d in (a, b)]
    named = all(t.mesh is not None and t.mesh.tree_numbers for t in a.terms + b.terms)
    return named and not kinds[0] & kinds[1]


def _alike(a: Draft, b: Draft) -> bool:
    """Whether two phrases listed together in different slots are alternatives of one concept: both
    named by MeSH in one subcategory ("hip and knee osteoarthritis", C05), or sharing a word. "Social
    media use and political polarization" lists an exposure and what it acts on, which the understanding
    put in two slots, and "after hip fracture surgery and delirium" a condition (C26) and an outcome
    (C10): two concepts, whatever role their slots give them."""
    named = all(t.mesh is not None for t in a.terms + b.terms)
    if named and _branches(a) & _branches(b):
        return True
    return bool(_content_keys(a) & _content_keys(b))


def _branches(draft: Draft) -> set[str]:
    """The MeSH subcategories ("C05" musculoskeletal diseases, "C10" nervous system) of a draft's terms,
    with the ones MeSH adds (the infection an organism names: "HIV" is also C01, as "hepatitis C" is)."""
    return {n[:3] for t in draft.terms + draft.companions if t.mesh for n in t.mesh.tree_numbers}


def _content_keys(draft: Draft) -> set[str]:
    return {word_key(w) for term in draft.terms for w in content_words(term.canonical)}


def _join_shared_words(drafts: list[Draft]) -> list[Draft]:
    """Free-text concepts of one role that share a word are one block ("perovskite solar cells" and
    "perovskite films" where MeSH names neither): AND'ed, each would require the other's words too. The
    word is shared where it opens both phrases or is the head of one of them ("total contact casts" and
    "removable cast walkers", "noise control" and "active noise control"); a word that heads neither and
    opens at most one is part of two compounds ("heat transfer enhancement" and "microchannel heat
    sinks": what is improved and the device, two blocks)."""
    joined: list[Draft] = []
    for draft in drafts:
        words = _free_words(draft)
        same = next(
            (j for j in joined if words and j.role is draft.role and _share_a_word(_free_words(j), words)),
            None,
        )
        if same is None:
            joined.append(draft)
        else:
            same.terms += draft.terms
            same.companions += draft.companions
    return joined


def _free_words(draft: Draft) -> set[str]:
    """The content words of a draft made only of free-text terms, and its opening and head words marked
    as such (empty when MeSH names a term)."""
    if any(term.mesh is not None for term in draft.terms):
        return set()
    marked: set[str] = set()
    for term in draft.terms:
        words = content_words(term.canonical)
        if words:
            marked |= {"word:" + word_key(w) for w in words}
            marked |= {"open:" + word_key(words[0]), "head:" + word_key(words[-1])}
    return marked


def _share_a_word(a: set[str], b: set[str]) -> bool:
    """Whether two drafts' marked words (`_free_words`) share an opening word, or a word that heads one."""
    if {w for w in a if w.startswith("open:")} & b:
        return True
    heads = {"word:" + w[5:] for w in a | b if w.startswith("head:")}
    return bool(a & b & heads)


def merge_drafts(drafts: list[Draft]) -> tuple[list[Concept], list[Term], set[str]]:
    """Concept ids, and one term per descriptor or spelling across the whole plan: the concepts, their
    terms, and the ids of the concepts that are generic comparators."""
    concepts: list[Concept] = []
    all_terms: list[Term] = []
    comparators: set[str] = set()
    seen: dict[str, Term] = {}  # descriptor UIs and spellings already placed, and their terms
    labels: set[str] = set()
    for draft in drafts:
        terms = []
        for term in [*draft.terms, *draft.companions]:
            keys = {term.canonical.casefold(), *([term.mesh.ui] if term.mesh else [])}
            if placed := next((seen[k] for k in keys if k in seen), None):
                _keep_the_users_words(term, placed, named=not any(term is c for c in draft.companions))
                continue
            terms.append(term)
            seen |= dict.fromkeys(keys, term)
        named = [t for t in terms if not any(t is c for c in draft.companions)]
        if not named:
            continue
        label = " / ".join(t.canonical for t in named) if len(named) <= 3 else named[0].canonical
        new_id = concept_id(label, labels)
        for term in terms:
            term.concept = new_id
        all_terms += terms
        concepts.append(Concept(id=new_id, label=label, role=draft.role))
        if draft.comparator:
            comparators.add(new_id)
    return concepts, all_terms, comparators


def _keep_the_users_words(duplicate: Term, placed: Term, *, named: bool) -> None:
    """What the user wrote for a term placed twice joins the term kept. Its acronyms ("rotational
    thromboelastometry (ROTEM)" read as Thrombelastography, already placed for "thromboelastography
    (TEG)"): papers write the acronym alone, and the user attests it. And the English words of a term
    the user named (not a companion the plan added), with their other number: "relapse" beside
    "recurrent depression" is Recurrence too, and papers on it write "relapse", which the heading's
    [tiab] words need not hold."""
    known = {placed.canonical.casefold(), *(s.text.casefold() for s in placed.synonyms)}
    written = named and not duplicate.original
    words = [Synonym(text=duplicate.canonical, origins=[SynonymOrigin.USER])] if written else []
    morphology = [s for s in duplicate.synonyms if SynonymOrigin.MORPHOLOGY in s.origins] if written else []
    acronyms = [s for s in duplicate.synonyms if SynonymOrigin.USER in s.origins and is_acronym(s.text)]
    for synonym in [*words, *morphology, *acronyms]:
        if synonym.kept and synonym.text.casefold() not in known:
            placed.synonyms.append(synonym)
            known.add(synonym.text.casefold())


def concept_id(label: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", label.casefold()).strip("-")[:40] or "concept"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate)
    return candidate


def fold_predictions_into_what_they_predict(concepts: list[Concept], terms: list[Term]) -> None:
    """A task named as another concept's term and a task name ("formation energy prediction" beside the
    outcome "formation energy") is that concept predicted: its terms join that concept's block, where
    the shorter term finds the papers the longer one does ("predicting formation energies" too), instead
    of a second required block that repeats the first."""

    def key(words: list[str]) -> str:
        return " ".join([*words[:-1], singular(words[-1])]).casefold() if words else ""

    def predicted(term: Term) -> list[str] | None:
        words = term.canonical.split()
        return words[:-1] if len(words) > 1 and words[-1].casefold() in TASK_NAMES else None

    owner = {key(t.canonical.split()): t.concept for t in terms}
    for concept in list(concepts):
        members = [t for t in terms if t.concept == concept.id]
        objects = [predicted(t) for t in members]
        targets = {owner.get(key(words)) for words in objects if words is not None}
        if not members or None in objects or len(targets) != 1 or concept.id in targets:
            continue
        (target,) = targets
        if target is None:
            continue
        for term in members:
            term.concept = target
        concepts.remove(concept)
