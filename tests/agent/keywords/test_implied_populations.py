"""A population the condition's MeSH category names is left out (agent/keywords/implied_populations.py)."""

from agent.keywords.concepts import build_concepts
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding


def required(vocabulary: MeshVocabulary, description: str, **slots: list[str]) -> dict[str, bool]:
    result = build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)
    return {c.label: c.required for c in result.concepts}


def test_people_a_conditions_category_names_are_not_anded(vocabulary: MeshVocabulary) -> None:
    """Diabetes, Gestational sits under Pregnancy Complications: every paper on it is about pregnancy."""
    found = required(
        vocabulary,
        "Effect of metformin on neonatal hypoglycaemia in pregnant women with gestational diabetes",
        subject_population=["pregnant women with gestational diabetes"],
        output_target=["neonatal hypoglycaemia"],
        context=["metformin"],
    )
    assert found["pregnant women"] is False
    assert found["gestational diabetes"] is True
    # Retinopathy of Prematurity sits under "Infant, Premature, Diseases"
    assert (
        required(
            vocabulary,
            "Retinopathy of prematurity screening in preterm infants",
            subject_population=["preterm infants"],
            output_target=["retinopathy of prematurity"],
        )["preterm infants"]
        is False
    )


def test_people_the_condition_does_not_name_stay(vocabulary: MeshVocabulary) -> None:
    """Hypertension is no disease of pregnancy in MeSH's trees: pregnant women are who is studied."""
    found = required(
        vocabulary,
        "Exercise for hypertension in pregnant women",
        subject_population=["pregnant women"],
        output_target=["hypertension"],
        context=["exercise"],
    )
    assert found["pregnant women"] is True
