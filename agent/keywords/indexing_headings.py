"""MeSH headings from indexing: what PubMed's indexers assign to the records a concept's block finds.

An information specialist who does not know a concept's heading looks it up in the records: search the
words, open the first records, read their MeSH headings. A heading that NLM's indexers gave most of
them, and that names the same thing as the words, is the concept's heading ("kidney transplant*" finds
records indexed with Kidney Transplantation, a heading the words do not spell). Offline recognition
(`agent.language.mesh_recognition`) only finds headings the text spells; this step, run where PubMed
answers (the execution check of `agent.keywords.query_check`), adds what the indexing attests.

For each required concept block: `esearch` the block alone (relevance order, `SAMPLE` records),
`efetch` them, count each descriptor over the records that carry MeSH headings. A descriptor is added
to the block (a term with its heading, searched as `"Heading"[Mesh]`) when

- at least `MIN_INDEXED` records are indexed and it is assigned to at least `MIN_SHARE` of them;
- it shares a word stem with one of the block's terms (its heading or an entry term): the share says
  "these records are about it", the shared word says "and it is what the words name", which keeps a
  topic the records also discuss (a disease beside its test) out of the block;
- it is no check tag or study design (Humans, Male, age groups, Retrospective Studies: on most records
  of anything), no heading the plan already searches, and no ancestor of a heading the block has (a
  broader heading would widen the block beyond the concept).

Each addition is written in the plan's notes with its evidence ("assigned to 17 of 20 records"), and
the user sees and can remove the term in the review like any other. Without PubMed nothing is added.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from agent.keywords.concept_roles import is_study_type
from agent.keywords.synonyms import Session
from agent.language.mesh_tails import is_below
from agent.models import Concept, KeywordPlan, MeshDescriptor, Paper, Term

SAMPLE = 20  # records read per block: a searcher's first page
MIN_INDEXED = 5  # fewer indexed records say too little
MIN_SHARE = 0.5  # assigned to at least half of the indexed records

_HUMANS_OR_ANIMALS = ("B01.050.150.900.649.313.988.400.112.400.400", "B01.050")  # check tags
_AGE_GROUPS = "M01.060"  # Aged, Child, Adult...: check tags too


@runtime_checkable
class IndexedRecords(Protocol):
    """What is asked of PubMed here: `tools.pubmed.PubMedClient` has both."""

    async def esearch(self, query: str, *, retmax: int = 20, sort: str | None = None) -> Any: ...

    async def efetch(self, pmids: Sequence[str]) -> list[Paper]: ...


@runtime_checkable
class DescriptorSource(Protocol):
    """A MeSH table by descriptor id (`tools.mesh.MeshFile`)."""

    def get(self, ui: str) -> MeshDescriptor: ...


@dataclass(frozen=True)
class IndexingEvidence:
    """One heading the indexing of a block's records attests for the block's concept."""

    concept: str
    descriptor: MeshDescriptor
    assigned: int  # records the heading is assigned to
    indexed: int  # records of the sample that carry MeSH headings


def _stems(texts: Iterable[str]) -> set[str]:
    return {word.casefold()[:5] for text in texts for word in re.findall(r"[A-Za-z]{4,}", text)}


def _is_check_tag_or_design(descriptor: MeshDescriptor) -> bool:
    trees = descriptor.tree_numbers
    if not trees:  # Male, Female: check tags without a tree
        return True
    if is_study_type(descriptor):
        return True
    return all(t in _HUMANS_OR_ANIMALS or t.startswith(_AGE_GROUPS) for t in trees)


def _is_ancestor_of(candidate: MeshDescriptor, headings: Iterable[MeshDescriptor]) -> bool:
    return any(is_below(heading, candidate) for heading in headings)


def attested_headings(
    concept: Concept,
    terms: Sequence[Term],
    records: Sequence[Paper],
    searched: set[str],
    mesh: DescriptorSource,
) -> list[IndexingEvidence]:
    """The headings the records' indexing attests for `concept` (rules in the module docstring);
    `searched` holds the descriptor ids the plan already searches."""
    indexed = [r for r in records if r.mesh_headings]
    if len(indexed) < MIN_INDEXED:
        return []
    assigned = Counter(ui for r in indexed for ui in {h.ui for h in r.mesh_headings if h.ui})
    words = _stems(text for t in terms for text in (t.canonical, *(s.text for s in t.kept_synonyms())))
    own = [t.mesh for t in terms if t.mesh is not None]
    found: list[IndexingEvidence] = []
    for ui, count in assigned.most_common():
        if count < MIN_SHARE * len(indexed):
            break
        if ui in searched:
            continue
        try:
            descriptor = mesh.get(ui)
        except Exception:  # a heading newer than the table, or a malformed id: nothing to add
            continue
        if _is_check_tag_or_design(descriptor) or _is_ancestor_of(descriptor, own):
            continue
        if not words & _stems([descriptor.heading, *descriptor.entry_terms]):
            continue
        found.append(IndexingEvidence(concept.id, descriptor, count, len(indexed)))
    return found


async def sample_records(session: Session, query: str) -> list[Paper]:
    """The first `SAMPLE` records PubMed finds for `query` (relevance order); [] when it cannot answer."""
    pubmed = session.sources.pubmed
    if not isinstance(pubmed, IndexedRecords):
        return []

    async def first_records() -> list[Paper]:
        found = await pubmed.esearch(query, retmax=SAMPLE, sort="relevance")
        return await pubmed.efetch(list(found.ids)) if found.ids else []

    return await session.call("pubmed", first_records, [])


def add_headings(plan: KeywordPlan, evidence: Sequence[IndexingEvidence]) -> None:
    """Each attested heading as a term of its concept (in place), and a note saying why."""
    for item in evidence:
        concept = plan.concept(item.concept)
        first = next(iter(plan.terms_of(item.concept)), None)
        if concept is None or first is None:
            continue
        plan.terms.append(
            Term(canonical=item.descriptor.heading, slot=first.slot, mesh=item.descriptor, concept=concept.id)
        )
        plan.notes.append(
            f"MeSH from indexing: '{item.descriptor.heading}' is assigned to {item.assigned} of "
            f"{item.indexed} PubMed records '{concept.label}' finds; added to its block"
        )


def searched_headings(plan: KeywordPlan) -> set[str]:
    return {d.ui for t in plan.terms for d in (t.mesh, *t.broader) if d is not None}
