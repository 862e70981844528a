"""The reference standard of a test's accuracy question is left out; the test and the target condition stay."""

from __future__ import annotations

from agent.keywords.concepts import build_concepts
from agent.keywords.reference_standards import reference_standard_clauses
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding


def summary(vocabulary: MeshVocabulary, description: str, **slots: list[str]) -> dict[str, bool]:
    result = build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)
    return {c.label: c.required for c in result.concepts}


def test_the_clauses_that_name_a_reference_standard() -> None:
    assert reference_standard_clauses(
        "How accurate is D-dimer in pregnant women, with CT pulmonary angiography as the reference standard?"
    ) == ["with CT pulmonary angiography as the reference standard"]
    assert reference_standard_clauses("Ultrasound against the gold standard of surgery in children") == [
        "against the gold standard of surgery"
    ]
    assert reference_standard_clauses("NIPT 筛查的诊断准确性，以羊水穿刺核型分析为金标准。") == [
        "以羊水穿刺核型分析为金标准"
    ]
    # "可以" is "can", not the "以" of "以X为金标准"
    assert reference_standard_clauses("Ultrasound in children with appendicitis") == []


def test_a_reference_standard_is_no_required_block(vocabulary: MeshVocabulary) -> None:
    """The test named as the reference standard, and the words "reference standard", had each been a
    required block; the index test, the target condition and the people stay required."""
    found = summary(
        vocabulary,
        "How accurate is D-dimer testing for ruling out pulmonary embolism in pregnant women, with CT "
        "angiography as the reference standard?",
        context=["D-dimer testing", "CT angiography", "reference standard"],
        subject_population=["pregnant women"],
        output_target=["pulmonary embolism"],
    )
    assert found.get("pulmonary embolism") is True
    assert any(required for label, required in found.items() if "pregnan" in label)
    assert not any(
        required for label, required in found.items() if "angiography" in label or "standard" in label
    )
