"""A second, added wish of a description: its concepts are kept but not AND'ed, or join the first
question's block of their role when they ask the same of another thing."""

from __future__ import annotations

from agent.keywords.concepts import build_concepts
from agent.keywords.secondary_questions import REASON, added_wishes
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding


def concepts_of(vocabulary: MeshVocabulary, description: str, **slots: list[str]):
    return build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)


def test_a_concept_only_of_an_added_wish_is_optional(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Does vitamin D supplementation prevent falls in older women? We are also curious about osteoporosis.",
        method_measurement=["vitamin D supplementation"],
        output_target=["falls"],
        subject_population=["older women"],
        context=["osteoporosis"],
    )
    osteoporosis = next(c for c in result.concepts if c.label == "osteoporosis")
    assert (osteoporosis.required, osteoporosis.reason) == (False, REASON)
    assert any(c.required and "vitamin" in c.label.lower() for c in result.concepts)


def test_an_added_wish_asking_the_same_of_another_thing_joins_its_block(vocabulary: MeshVocabulary) -> None:
    """ "Does X help A? And does it help B?": the librarian searches X AND (A OR B)."""
    result = concepts_of(
        vocabulary,
        "Is exercise therapy better than rest for knee osteoarthritis? And does it help hip osteoarthritis?",
        method_measurement=["exercise therapy", "rest"],
        context=["knee osteoarthritis", "hip osteoarthritis"],
    )
    knee = next(t.concept for t in result.terms if "knee" in t.canonical.lower())
    hip = next(t.concept for t in result.terms if "hip" in t.canonical.lower())
    assert knee == hip and next(c for c in result.concepts if c.id == knee).required


def test_added_wishes_are_read_by_the_grammar_of_adding() -> None:
    added, rest = added_wishes("Is X safe? I'd also like to know about Y. Plus Z.")
    assert [a.strip() for a in added] == [
        "I'd also like to know about Y.",
        "Plus Z.",
    ] and rest == "Is X safe?"
    # a clause after a comma and 以及 adds a wish; 以及 between two nouns only coordinates them
    assert added_wishes("肾结石与饮水量的关系，以及柠檬酸钾的效果。")[0] == ["，以及柠檬酸钾的效果"]
    assert added_wishes("二甲双胍以及阿司匹林对结直肠癌的影响")[0] == []


def test_a_second_question_coordinated_after_a_comma_is_an_added_wish() -> None:
    """ "X, and is there Y?": the clause after ", and" opened by an auxiliary, a question word or "any"
    asks a second, lesser question; "and" between two nouns only coordinates them."""
    added, rest = added_wishes(
        "Maternal RSV vaccination in pregnancy - does it prevent infant hospitalisation, and is there a "
        "preterm birth signal?"
    )
    assert [a.strip() for a in added] == [", and is there a preterm birth signal?"]
    assert "preterm" not in rest and "hospitalisation" in rest
    assert added_wishes("Doxy-PEP: does it cut syphilis, and what about resistance?")[0] == [
        ", and what about resistance?"
    ]
    assert added_wishes("Looking at milk volume, and any cardiac side effects.")[0] == [
        ", and any cardiac side effects."
    ]
    assert (
        added_wishes("Syphilis, chlamydia and gonorrhoea in men, and women who have sex with men.")[0] == []
    )


def test_a_concept_only_of_a_coordinated_second_question_is_optional(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Clear aligners versus fixed braces: which gives more predictable tooth movement, and is root "
        "resorption different?",
        method_measurement=["clear aligners", "fixed braces"],
        output_target=["tooth movement", "root resorption"],
    )
    resorption = next(c for c in result.concepts if "resorption" in c.label.lower())
    assert (resorption.required, resorption.reason) == (False, REASON)
