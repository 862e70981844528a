"""Facets: which understood slots a query ANDs, before any concept is built (the slot rule).

**Facets.** Each list slot with terms is one facet: its terms and their kept synonyms are OR'ed, and the
*required* facets are AND'ed. The rule (`decide_facets`):

- `task`, `method_measurement`, `subject_population` and `context` are required: they name what is done,
  how it is observed, in whom, and where — the concepts a relevant paper must mention;
- a population made only of generic words ("humans", "patients", "participants") is optional: nearly every
  paper of the field has one, and AND'ing it only loses papers that do not say so in the abstract;
- `method_algorithm`, `output_target` and `signal_feature` are optional (they only narrow); but while fewer
  than two facets are required, they are promoted in that order, so that a description such as "graph
  neural networks for molecular property prediction" still ANDs its two concepts;
- optional facets are kept in the plan (shown in the review, used for ranking) but not AND'ed; the user
  switches a facet on, off, or to required in the review.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from agent.language.text import term_key, word_set
from agent.models import LIST_SLOT_NAMES, Facet, KeywordPlan, Slots, Term

CORE_FACETS: tuple[str, ...] = ("task", "method_measurement", "subject_population", "context")
NARROWING_FACETS: tuple[str, ...] = ("method_algorithm", "output_target", "signal_feature")
MIN_REQUIRED_FACETS = 2
GENERIC_POPULATIONS = frozenset(
    term_key(t)
    for t in word_set(
        """
        human humans patient patients participant participants subject subjects people person
        persons individual individuals adult adults volunteer volunteers case cases
        """
    )
) | {"healthy subject", "healthy volunteer", "healthy participant", "human subject", "human participant"}


def decide_facets(slot_terms: Mapping[str, Sequence[str]]) -> list[Facet]:
    """Facets for the slots that have terms, in slot order, by the rule in the module docstring."""
    facets: list[Facet] = []
    for slot in LIST_SLOT_NAMES:
        terms = [t for t in slot_terms.get(slot) or [] if t.strip()]
        if not terms:
            continue
        required = slot in CORE_FACETS
        if slot == "subject_population" and all(term_key(t) in GENERIC_POPULATIONS for t in terms):
            required = False
        facets.append(Facet(slot=slot, required=required))
    by_slot = {f.slot: f for f in facets}
    count = sum(f.required for f in facets)
    for slot in NARROWING_FACETS:
        if count >= MIN_REQUIRED_FACETS:
            break
        if slot in by_slot and not by_slot[slot].required:
            by_slot[slot].required = True
            count += 1
    if count == 0 and facets:
        facets[0].required = True  # only generic words: search them rather than nothing
    return facets


def facets_for_slots(slots: Slots) -> list[Facet]:
    return decide_facets({name: getattr(slots, name) for name in LIST_SLOT_NAMES})


def facets_for_terms(terms: Iterable[Term]) -> list[Facet]:
    grouped: dict[str, list[str]] = {}
    for term in terms:
        grouped.setdefault(term.slot, []).append(term.canonical)
    return decide_facets(grouped)


def effective_facets(plan: KeywordPlan) -> list[Facet]:
    """The plan's facets, plus the rule's facet for any slot with terms that the plan has none for."""
    known = {f.slot for f in plan.facets}
    extra = [f for f in facets_for_terms(plan.terms) if f.slot not in known]
    ordered = sorted([*plan.facets, *extra], key=lambda f: _slot_index(f.slot))
    return ordered


def _slot_index(slot: str) -> int:
    return LIST_SLOT_NAMES.index(slot) if slot in LIST_SLOT_NAMES else len(LIST_SLOT_NAMES)
