"""Phrase cutting around moving somewhere, kinds of care and measures taken in people: each mechanism
tested on sentences of its own (not evaluation cases).

The "to" after a gerund of moving names where, inside the phrase ("returning to work"); a generic head
after a kind of care (model, approach, programme) is left out ("midwifery care models" -> "midwifery
care"), and a noun of how care is organised keeps the care its "of" names ("continuity of midwifery
care"); people after the "in" of a measure are whom it is measured in, not part of it ("screen time in
children"), while "time in range" stays one measure; a list in brackets after the pronoun a
question of prediction ends with ("which factors predict it (A, B)") names the factors, not the outcome.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.rules import extract_slots


def _all_terms(slots: Slots) -> list[str]:
    return [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]


def test_the_to_of_a_gerund_of_moving_stays_in_the_phrase() -> None:
    assert "returning to work" in _all_terms(extract_slots("Predictors of returning to work after stroke."))
    terms = _all_terms(extract_slots("Going back to school after cancer treatment in adolescents."))
    assert "Going back to school" in terms
    assert "school" not in terms
    assert "Transitioning to adult care" in _all_terms(
        extract_slots("Transitioning to adult care in young people with type 1 diabetes.")
    )


def test_a_to_after_other_gerunds_still_ends_the_phrase() -> None:
    terms = _all_terms(extract_slots("Patients returning to the emergency department within 72 hours."))
    assert "emergency department" in terms


def test_a_generic_head_after_a_kind_of_care_is_left_out() -> None:
    slots = extract_slots("Integrated care programmes for COPD in primary care.")
    assert "Integrated care" in _all_terms(slots)
    assert "Integrated care programmes" not in _all_terms(slots)
    assert "Collaborative care" in _all_terms(
        extract_slots("Collaborative care approach for depression in older adults.")
    )


def test_continuity_of_care_keeps_the_care_it_is_said_of() -> None:
    terms = _all_terms(extract_slots("Continuity of midwifery care models and preterm birth."))
    assert "Continuity of midwifery care" in terms
    assert "Continuity" not in terms
    assert "Coordination of care" in _all_terms(
        extract_slots("Coordination of care for children with medical complexity.")
    )


def test_people_after_the_in_of_a_measure_are_the_population() -> None:
    slots = extract_slots("Screen time in preschool children and language development.")
    assert "preschool children" in slots.subject_population
    assert "Screen time" in _all_terms(slots)
    assert "Time in range" in _all_terms(extract_slots("Time in range in adults with type 1 diabetes."))


def test_brackets_after_the_pronoun_a_predicting_question_asks_about_name_the_predictors() -> None:
    slots = extract_slots(
        "Delirium after hip fracture surgery in older adults: which markers predict it (IL-6, CRP, cortisol)?"
    )
    assert {"IL-6", "CRP", "cortisol"} <= set(slots.signal_feature)
    assert "Delirium" in slots.output_target
