"""Heads that name a method or a data source in the rules fallback.

Sentences written for these tests, not taken from the evaluation cases: each checks one mechanism.
"""

from __future__ import annotations

from agent.understanding.rules import extract_slots
from agent.understanding.slot_evidence import en_head_slot


def test_reports_are_a_source_of_data() -> None:
    slots = extract_slots(
        "We analyse hospital discharge reports to describe readmissions of stroke survivors."
    )
    assert "hospital discharge reports" in slots.method_measurement
    assert "hospital discharge reports" not in slots.output_target


def test_a_technique_before_an_analysing_head_makes_a_method_not_a_task() -> None:
    assert en_head_slot(["time", "series", "analysis"]) == "method_algorithm"
    assert en_head_slot(["difference-in-differences", "estimation"]) == "method_algorithm"
    assert en_head_slot(["Bayesian", "modelling"]) == "method_algorithm"
    assert en_head_slot(["snow", "depth", "estimation"]) == "task"
    slots = extract_slots("We relate air pollution to asthma admissions using a time series analysis.")
    assert "time series analysis" in slots.method_algorithm
    assert not slots.task


def test_a_bare_task_noun_after_in_is_where_it_happens() -> None:
    slots = extract_slots(
        "We train grasping policies for robot arms in simulation with reinforcement learning."
    )
    assert "simulation" in slots.context
    assert "simulation" not in slots.task


def test_a_decomposition_is_an_analysis() -> None:
    slots = extract_slots(
        "We use payroll records from Chile and a Blinder-Oaxaca decomposition of the gender pay gap."
    )
    assert "Blinder-Oaxaca decomposition" in slots.method_algorithm
    assert "Blinder-Oaxaca decomposition" not in slots.method_measurement


def test_injuries_falls_and_errors_are_events_observed() -> None:
    slots = extract_slots(
        "Dispensing errors and patient falls in community pharmacies, recorded with incident logs."
    )
    assert {"Dispensing errors", "patient falls"} <= set(slots.output_target)


def test_a_named_training_or_treatment_is_an_intervention_and_model_training_a_task() -> None:
    assert en_head_slot(["balance", "training"]) == "context"
    assert en_head_slot(["laser", "treatment"]) == "context"
    assert en_head_slot(["neural", "network", "training"]) == "task"
    slots = extract_slots("Does inspiratory muscle training improve exercise capacity in adults with COPD?")
    assert "inspiratory muscle training" in slots.context
    assert not slots.task


def test_an_analysis_of_matter_measures_and_an_analysis_of_text_analyses() -> None:
    clay = extract_slots("We measure water uptake of the clay by thermogravimetric analysis.")
    assert "thermogravimetric analysis" in clay.method_measurement
    bones = extract_slots("We study diet in medieval skeletons using stable isotope analysis.")
    assert "stable isotope analysis" in bones.method_measurement
    notes = extract_slots("We interview nurses and code the transcripts with thematic analysis.")
    assert "thematic analysis" in notes.method_algorithm


def test_a_term_bound_to_based_by_its_last_word_is_the_method() -> None:
    # "Deep learning-based": the hyphen binds "based" to the last word of "deep learning", which is the
    # method, as when "based" is written apart ("Deep channel" was the task's cut)
    slots = extract_slots("Deep learning-based channel estimation for massive MIMO systems")
    assert slots.method_algorithm == ["Deep learning"]
    assert slots.task == ["channel estimation"]
    # a word that makes no term with it leaves the adjective whole
    assert "nickel" not in " ".join(extract_slots("Creep of nickel-based superalloys").method_algorithm)


def test_imagery_logs_traces_swabs_tags_and_cores_are_sources_of_data() -> None:
    for words in (
        ["aerial", "imagery"],
        ["server", "logs"],
        ["packet", "traces"],
        ["nasal", "swabs"],
        ["acoustic", "tags"],
        ["ice", "cores"],
        ["video", "footage"],
        ["interview", "transcripts"],
    ):
        assert en_head_slot(words) == "method_measurement", words
    slots = extract_slots("We map mangrove loss along the Niger Delta with drone imagery and soil cores.")
    assert "drone imagery" in slots.method_measurement
    assert "soil cores" in slots.method_measurement


def test_named_baselines_are_methods_compared_with() -> None:
    assert en_head_slot(["LightGBM", "baselines"]) == "method_algorithm"
    assert en_head_slot(["baselines"]) is None
    slots = extract_slots("We test a new scheduler against first-come-first-served and lottery baselines.")
    assert "lottery baselines" in slots.method_algorithm
