"""The sides of a comparison and the roles a clause gives people and things, in the rules fallback.

Sentences written for these tests, not taken from the evaluation cases: each checks one mechanism.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES
from agent.understanding.rules import extract_slots


def test_the_second_object_of_compare_takes_the_first_ones_role_whatever_its_head_word() -> None:
    slots = extract_slots("We compare yoga classes and balance training for preventing falls in older women.")
    assert {"yoga classes", "balance training"} <= set(slots.context)
    assert not slots.task


def test_what_follows_than_after_a_qualified_outcome_is_the_other_exposure() -> None:
    slots = extract_slots(
        "Does laser therapy cause less scarring than surgical treatment in adults with keloids?"
    )
    assert {"laser therapy", "surgical treatment"} <= set(slots.context)
    assert "scarring" in slots.output_target
    assert not slots.task


def test_a_with_phrase_of_another_clause_is_no_part_of_the_people_before_it() -> None:
    slots = extract_slots("Fatigue in nurses, assessed with the Chalder Fatigue Scale.")
    assert slots.subject_population == ["nurses"]
    assert "Chalder Fatigue Scale" in slots.method_measurement
    people = extract_slots("We follow patients with psoriasis for two years.")
    assert "patients with psoriasis" in people.subject_population


def test_people_who_do_what_the_clause_says_are_those_studied() -> None:
    slots = extract_slots("I ask how older listeners perceive speech in noisy restaurants.")
    assert "older listeners" in slots.subject_population
    assert "older listeners" not in slots.context
    things = extract_slots("Whether cash transfers improve school attendance in Malawi.")
    assert "cash transfers" in things.context


def test_the_bare_phrase_a_title_opens_with_before_in_is_what_is_observed() -> None:
    slots = extract_slots("Pothole formation in rural roads: we count potholes from dashcam videos.")
    assert "Pothole formation" in slots.output_target
    assert "Pothole formation" not in slots.context


def test_what_follows_as_effective_as_is_compared_with_the_subject() -> None:
    slots = extract_slots("Is meloxicam as effective as firocoxib for postoperative pain in dogs?")
    assert {"meloxicam", "firocoxib"} <= set(slots.context)
    assert not any("effective" in t for slot in LIST_SLOT_NAMES for t in getattr(slots, slot))


def test_a_clause_with_its_own_verb_ends_the_comparison() -> None:
    slots = extract_slots(
        "We compare wards before and after the bundle was introduced, and pain is rated with the "
        "Numeric Rating Scale."
    )
    assert "Numeric Rating Scale" in slots.method_measurement
    assert "Numeric Rating Scale" not in slots.context


def test_on_right_after_the_sides_of_a_comparison_names_the_outcome() -> None:
    slots = extract_slots(
        "We compare a new scheduler with two round-robin baselines on job latency and energy use."
    )
    assert {"job latency", "energy use"} <= set(slots.output_target)
    assert not {"job latency", "energy use"} & set(slots.context)


def test_what_an_intervention_is_judged_effective_at_is_the_outcome() -> None:
    slots = extract_slots("How effective are green roofs at retaining stormwater runoff in dense cities?")
    assert any("stormwater runoff" in t for t in slots.output_target)
    assert not any("stormwater runoff" in t for t in slots.context)
