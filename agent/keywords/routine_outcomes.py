"""Outcomes every trial in a condition reports, which a searcher leaves out beside the condition.

A question written "does X improve Y in people with Z" names Y as what X acts on, and an outcome so
named is usually what the review is about (`concept_roles.is_acted_on`). But when Y is a measure every
study of Z reports, a searcher does not AND it: papers on X in Z report it in the full text, not in the
title and abstract a database searches, and requiring it loses them. Two kinds are such measures:

- the generic measures of health and of a treatment's result, which MeSH files under Health Status
  (Quality of Life, Functional Status), Mortality and Survival Rate, life expectancy and the
  life-years of a health economic evaluation, and Outcome Assessment (Treatment Outcome,
  Progression-Free Survival): "early palliative care ... improves quality of life in heart failure",
  "can vitamin C lower 28-day mortality in sepsis";
- the condition's own measure, which MeSH names inside the condition's heading or entry terms
  ("blood pressure control in adults with hypertension": Hypertension's entry term "Blood Pressure,
  High").

- a measure written with no heading whose head is the noun English names a treatment's result with
  ("functional outcome", "good neurological outcome", "survival": `RESULT_NOUNS`), which MeSH files as
  Treatment Outcome and Survival Rate.

An outcome of another domain than the condition (infections in rheumatoid arthritis treated with TNF
inhibitors, cognition after cochlear implants for hearing loss) makes the question specific, and
stays required.
"""

from __future__ import annotations

import re

from agent.language.mesh_recognition import DEATH_TREE
from agent.models import Concept, ConceptRole, MeshDescriptor, Term

# MeSH branches of measures every trial reports: Health Status (N06.850.505.400.425), Mortality
# (N06.850.505.400.975.550, E05.318.308.985.550), life expectancy and life-years
# (N06.850.505.400.975.450, E05.318.308.985.450), Outcome Assessment, Health Care (N04.761.559.590).
# Not Incidence, Prevalence, Morbidity or rates of birth and pregnancy, which a question names as
# the event it studies.
GENERIC_OUTCOME_TREES = (
    "N06.850.505.400.425",
    "N06.850.505.400.975.550",
    "N06.850.505.400.975.450",
    "E05.318.308.985.550",
    "E05.318.308.985.450",
    "N04.761.559.590",
)


# the nouns English names the result of a treatment with, as the head of an outcome phrase MeSH has no
# heading for ("functional outcome", "survival"); a closed class of English, as "outcome" is by definition
RESULT_NOUNS = frozenset({"outcome", "outcomes", "survival"})


def is_generic_outcome(descriptor: MeshDescriptor) -> bool:
    """Whether MeSH files the descriptor among the measures every trial reports
    (`GENERIC_OUTCOME_TREES`): Quality of Life (also filed under Philosophy and Social Sciences),
    Mortality, Survival Rate, Treatment Outcome; or it is Death itself (`DEATH_TREE`), the event
    Mortality counts ("rabies deaths" beside rabies)."""
    return DEATH_TREE in descriptor.tree_numbers or any(
        n == tree or n.startswith(tree + ".")
        for tree in GENERIC_OUTCOME_TREES
        for n in descriptor.tree_numbers
    )


def names_a_result(term: Term) -> bool:
    """Whether a term with no heading is a generic measure by its head noun (`RESULT_NOUNS`)."""
    words = re.findall(r"[A-Za-z]+", term.canonical.lower())
    return term.mesh is None and bool(words) and words[-1] in RESULT_NOUNS


def _names_of(descriptor: MeshDescriptor) -> list[str]:
    return [descriptor.heading, *descriptor.entry_terms]


def _contains_words(name: str, words: str) -> bool:
    return bool(re.search(rf"\b{re.escape(words)}\b", name, re.IGNORECASE))


def is_own_measure(descriptor: MeshDescriptor, conditions: list[MeshDescriptor]) -> bool:
    """Whether a condition's heading or entry terms name the outcome's heading as a part of it, as
    the measure the condition is defined by ("Blood Pressure" in Hypertension's "Blood Pressure,
    High"); a condition of the same name is no measure of itself."""
    return any(
        condition.ui != descriptor.ui
        and any(_contains_words(name, descriptor.heading) for name in _names_of(condition))
        for condition in conditions
    )


def routine_outcomes(concepts: list[Concept], terms: list[Term], pathogens: set[str]) -> set[str]:
    """The outcome concepts every trial in the named condition reports: each of its terms has a
    heading that is a generic measure (`is_generic_outcome`) or the condition's own measure
    (`is_own_measure`). Empty when no condition is named (`pathogens`, conditions that name only
    organisms, do not count), for then the outcome is what the search is about."""
    named = {c.id for c in concepts if c.role is ConceptRole.CONDITION and c.id not in pathogens}
    if not named:
        return set()
    conditions = [t.mesh for t in terms if t.concept in named and t.mesh is not None]
    return {
        c.id
        for c in concepts
        if c.role is ConceptRole.OUTCOME
        and (members := [t for t in terms if t.concept == c.id])
        and all(
            names_a_result(t)
            or (t.mesh is not None and (is_generic_outcome(t.mesh) or is_own_measure(t.mesh, conditions)))
            for t in members
        )
    }
