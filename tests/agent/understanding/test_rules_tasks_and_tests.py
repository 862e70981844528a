"""The English rules fallback on tasks and tests: each mechanism tested on sentences of its own (not
evaluation cases).

A task noun with a manner adjective after a copula names its object ("Our aim is early detection of
X"); a task gerund keeps its object across "for"/"of" ("screening for X"); a model named by its task
("a risk prediction model") is a model and names the task; what a test measure is "of" is the test
("the diagnostic accuracy of point-of-care ultrasound"); what a task of care after "for" prevents or
treats is studied ("Lithium for the prevention of suicide").
"""

from __future__ import annotations

from agent.understanding.rules import extract_slots


def test_a_task_after_a_copula_names_its_object() -> None:
    slots = extract_slots("Our aim is early detection of sepsis in neonatal units.")
    assert "sepsis detection" in slots.task


def test_a_task_gerund_keeps_its_object_across_for() -> None:
    slots = extract_slots("Screening for hearing loss with a tablet app in primary care.")
    assert "hearing loss screening" in slots.task


def test_a_model_named_by_its_task_names_the_task() -> None:
    slots = extract_slots("We are building a falls prediction model for care homes.")
    assert "falls prediction model" in slots.method_algorithm
    assert "falls prediction" in slots.task


def test_what_a_test_measure_is_of_is_the_test() -> None:
    slots = extract_slots("We estimate the sensitivity of bedside ultrasound for appendicitis in adults.")
    assert "bedside ultrasound" in slots.method_measurement
    assert "bedside ultrasound" not in slots.subject_population


def test_what_is_compared_with_nothing_named_is_the_measure() -> None:
    slots = extract_slots("We are comparing sediment transport in braided rivers.")
    assert "sediment transport" in slots.output_target
    # two things compared with each other stay the alternatives
    pair = extract_slots("We compare cryoablation and radiofrequency ablation in small renal masses.")
    assert "cryoablation" not in pair.output_target


def test_a_task_verb_in_a_whether_clause_names_the_task() -> None:
    slots = extract_slots("We ask whether wrist-worn sensors detect freezing of gait in older adults.")
    assert any(term.endswith("detection") and "freezing" in term for term in slots.task)


def test_a_third_person_task_verb_in_a_whether_clause_makes_its_subject_the_predictor() -> None:
    slots = extract_slots("We ask whether baseline frailty status predicts delirium after hip surgery.")
    assert "baseline frailty status" in slots.signal_feature
    assert any(term.startswith("delirium") and term.endswith("prediction") for term in slots.task)


def test_a_task_verb_on_a_signal_or_a_setting_still_names_the_task() -> None:
    # the object keeps the slot its head word gives it; the verb names the task done on it, once for
    # coordinated objects, and what a measuring task predicts is the outcome
    slots = extract_slots("Predicting seismic tremor activity at Icelandic volcanoes with a random forest.")
    assert "seismic tremor activity" in slots.output_target
    assert any("prediction" in t for t in slots.task)
    pair = extract_slots("We classify alpha and theta rhythms in sleep EEG with a convolutional network.")
    assert len([t for t in pair.task if "classification" in t]) == 1


def test_what_a_task_of_care_acts_on_after_for_is_studied() -> None:
    # "X for the prevention of Y": Y is what the study observes, besides the task
    for text, studied, task in (
        (
            "Magnesium sulfate for the prevention of eclampsia in pregnant women",
            "eclampsia",
            "eclampsia prevention",
        ),
        ("Ketamine for the treatment of depression in adolescents", "depression", "depression treatment"),
        ("Nurse-led clinics for the management of asthma in primary care", "asthma", "asthma management"),
    ):
        slots = extract_slots(text)
        assert studied in slots.output_target, text
        assert task in slots.task, text


def test_a_task_that_is_no_care_after_for_keeps_its_reading() -> None:
    slots = extract_slots("HPV testing for triage of low-grade cervical lesions")
    assert not any("triage" in term for term in slots.output_target)
