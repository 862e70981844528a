from __future__ import annotations

from agent.keywords.example_lists import kinds_given_as_examples
from agent.models import Concept, ConceptRole, Term


def _concepts(*labels: str) -> tuple[list[Concept], list[Term]]:
    concepts = [
        Concept(id=f"c{i}", label=label, role=ConceptRole.CONDITION) for i, label in enumerate(labels)
    ]
    terms = [Term(canonical=label, slot="output_target", concept=f"c{i}") for i, label in enumerate(labels)]
    return concepts, terms


def test_the_examples_written_after_a_class_are_its_kinds() -> None:
    """'adverse birth outcomes such as preterm birth and low birth weight': both examples join the class;
    the exposure before it does not."""
    concepts, terms = _concepts("fracking", "adverse birth outcomes", "preterm birth", "low birth weight")
    text = "Living near fracking sites and adverse birth outcomes such as preterm birth and low birth weight."
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c1": ["c2", "c3"]}


def test_examples_end_where_the_people_of_the_sentence_start() -> None:
    """'biologics, including adalimumab, in children with Crohn's disease': the children are no example."""
    concepts, terms = _concepts("biologics", "adalimumab", "children", "Crohn's disease")
    text = "Biologics, including adalimumab, in children with Crohn's disease"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c0": ["c1"]}
    text = "Mind-body exercise (e.g. adalimumab) for children"
    concepts, terms = _concepts("mind-body exercise", "adalimumab", "children")
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c0": ["c1"]}


def test_no_examples_without_a_cue_right_after_the_class() -> None:
    """'we would like to study X' (the verb 'like') and a list after another word name no kinds."""
    concepts, terms = _concepts("nurses", "burnout", "depression")
    text = "Nurses would like to know about burnout and depression"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {}


def test_a_concept_left_out_is_neither_class_nor_kind_and_a_listed_one_no_class() -> None:
    concepts, terms = _concepts("outcomes of care", "mortality", "falls")
    text = "outcomes of care such as mortality and falls"
    assert kinds_given_as_examples(concepts, terms, text, {"c1"}, set()) == {"c0": ["c2"]}
    assert kinds_given_as_examples(concepts, terms, text, set(), {"c0"}) == {}
    assert kinds_given_as_examples(concepts, terms, text, set(), {"c1", "c2"}) == {"c0": ["c1", "c2"]}
