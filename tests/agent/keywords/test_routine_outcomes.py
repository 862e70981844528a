"""Outcomes every trial in a condition reports are left out beside the condition; others stay."""

from __future__ import annotations

from agent.keywords.concepts import build_concepts
from agent.keywords.routine_outcomes import is_generic_outcome, is_own_measure
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import MeshDescriptor, Slots, Understanding


def required_of(vocabulary: MeshVocabulary, description: str, **slots: list[str]) -> dict[str, bool]:
    result = build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)
    return {c.label: c.required for c in result.concepts}


def test_a_generic_measure_beside_a_condition_only_narrows(vocabulary: MeshVocabulary) -> None:
    required = required_of(
        vocabulary,
        "Does cardiac rehabilitation improve quality of life in patients with atrial fibrillation?",
        context=["cardiac rehabilitation"],
        output_target=["quality of life"],
        subject_population=["patients with atrial fibrillation"],
    )
    assert required["quality of life"] is False
    assert required["atrial fibrillation"]
    mortality = required_of(
        vocabulary,
        "Does early mobilisation reduce mortality in patients with pneumonia?",
        context=["early mobilisation"],
        output_target=["mortality"],
        subject_population=["patients with pneumonia"],
    )
    assert mortality["mortality"] is False


def test_deaths_beside_the_condition_that_causes_them_only_narrow(vocabulary: MeshVocabulary) -> None:
    """ "human rabies deaths": Death is the event Mortality counts, a measure every study of rabies
    reports; it had been a required condition block ("Death"[Mesh] OR death*[tiab])."""
    required = required_of(
        vocabulary,
        "Mass dog vaccination campaigns for preventing human rabies deaths",
        context=["mass dog vaccination campaigns"],
        output_target=["human rabies deaths"],
    )
    assert required.get("deaths") is False
    assert required["rabies"]


def test_a_result_named_without_a_heading_beside_a_condition_only_narrows(vocabulary: MeshVocabulary) -> None:
    """ "functional outcome" and "survival" have no heading the search takes, but they are the
    result every trial in the condition reports: they had been required blocks."""
    required = required_of(
        vocabulary,
        "Does intensive blood pressure lowering improve functional outcome in intracerebral haemorrhage?",
        context=["intensive blood pressure lowering"],
        output_target=["functional outcome"],
        subject_population=["intracerebral haemorrhage"],
    )
    assert required["functional outcome"] is False
    survival = required_of(
        vocabulary,
        "Does mechanical CPR improve survival in out-of-hospital cardiac arrest?",
        context=["mechanical CPR"],
        output_target=["survival"],
        subject_population=["out-of-hospital cardiac arrest"],
    )
    assert survival["survival"] is False


def test_the_conditions_own_measure_only_narrows(vocabulary: MeshVocabulary) -> None:
    required = required_of(
        vocabulary,
        "Does yoga lower blood pressure in older adults with hypertension?",
        context=["yoga"],
        output_target=["blood pressure"],
        subject_population=["older adults with hypertension"],
    )
    assert required["blood pressure"] is False


def test_an_outcome_of_another_domain_stays_required(vocabulary: MeshVocabulary) -> None:
    required = required_of(
        vocabulary,
        "Does yoga improve cognitive function in older adults with hypertension?",
        context=["yoga"],
        output_target=["cognitive function"],
        subject_population=["older adults with hypertension"],
    )
    assert required["cognitive function"]


def test_with_no_condition_a_generic_measure_is_the_topic(vocabulary: MeshVocabulary) -> None:
    required = required_of(
        vocabulary,
        "Does volunteering improve quality of life in older adults?",
        context=["volunteering"],
        output_target=["quality of life"],
        subject_population=["older adults"],
    )
    assert required["quality of life"]


def test_which_headings_are_routine_measures() -> None:
    quality = MeshDescriptor(
        ui="D011788", heading="Quality of Life", tree_numbers=["I01.800", "N06.850.505.400.425.837"]
    )
    incidence = MeshDescriptor(
        ui="D015994", heading="Incidence", tree_numbers=["N06.850.505.400.975.525.375"]
    )
    assert is_generic_outcome(quality)
    assert not is_generic_outcome(incidence)
    pressure = MeshDescriptor(ui="D001794", heading="Blood Pressure", tree_numbers=["G09.330.380.076"])
    hypertension = MeshDescriptor(
        ui="D006973",
        heading="Hypertension",
        entry_terms=["Blood Pressure, High"],
        tree_numbers=["C14.907.489"],
    )
    arthritis = MeshDescriptor(
        ui="D001172", heading="Arthritis, Rheumatoid", tree_numbers=["C05.550.114.154"]
    )
    assert is_own_measure(pressure, [hypertension])
    assert not is_own_measure(pressure, [arthritis])
    assert not is_own_measure(hypertension, [hypertension])


def test_what_a_prognostic_factor_predicts_is_named_after_the_question_words() -> None:
    from agent.keywords.title_template import named_as_predicted

    title = "Frailty as a prognostic factor for postoperative mortality in older adults undergoing surgery"
    assert named_as_predicted("mortality", title)
    assert named_as_predicted("death", "Predictors of in-hospital death after hip fracture")
    assert not named_as_predicted("older adults", title)
    assert not named_as_predicted("mortality", "Does early mobilisation reduce mortality in pneumonia?")


def test_a_generic_measure_a_prognostic_factor_predicts_is_required(vocabulary: MeshVocabulary) -> None:
    """ "Frailty as a prognostic factor for postoperative mortality": what is predicted is what the review
    is about, though every study of surgery reports mortality (it had been left optional)."""
    required = required_of(
        vocabulary,
        "Frailty as a prognostic factor for postoperative mortality in older adults undergoing emergency surgery",
        subject_population=["older adults undergoing emergency surgery"],
        context=["frailty", "prognostic factor"],
        output_target=["postoperative mortality"],
    )
    assert required["mortality"] is True
