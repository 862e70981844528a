"""An act of patient care named without the patient, and a stay named by its place and a noun of entry."""

from __future__ import annotations

import pytest

from agent.keywords.care_acts import act_of_patient_care
from agent.language.mesh_recognition import MeshVocabulary


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("readmissions", "Patient Readmission"),
        ("discharge", "Patient Discharge"),
        ("hospital discharge", "Patient Discharge"),
        ("hospital admissions", "Hospitalization"),
    ],
)
def test_an_act_of_care_named_without_the_patient_is_the_patient_heading(
    vocabulary: MeshVocabulary, text: str, heading: str
) -> None:
    (match,) = act_of_patient_care(text, vocabulary)
    assert (match.descriptor.heading, match.text) == (heading, text)


@pytest.mark.parametrize("text", ["isolation", "emergency admissions", "river discharge", "safety"])
def test_words_mesh_writes_apart_or_after_another_modifier_name_no_act_of_care(
    vocabulary: MeshVocabulary, text: str
) -> None:
    """ "isolation" is a term of its own (Patient Isolation is outside Patient Care); "emergency" and
    "river" are no places of care."""
    assert act_of_patient_care(text, vocabulary) == []
