"""The two sides of "X relates to Y" and where samples and records were taken ("from"), in the rules
fallback.

Sentences written for these tests, not taken from the evaluation cases: each checks one mechanism.
"""

from __future__ import annotations

from agent.understanding.rules import extract_slots


def test_what_relates_to_something_is_the_exposure_and_that_thing_the_outcome() -> None:
    slots = extract_slots("How does shift work relate to sleep quality in nurses?")
    assert "shift work" in slots.context
    assert "sleep quality" in slots.output_target
    slots = extract_slots("We examine how job strain relates to burnout among teachers.")
    assert "job strain" in slots.context  # the rules had read it as people studied
    assert "job strain" not in slots.subject_population
    assert "burnout" in slots.output_target
    # "relate X to Y" (with an object) still makes X the predictor
    slots = extract_slots("We relate rainfall to landslide frequency.")
    assert "rainfall" in slots.signal_feature


def test_the_body_site_samples_were_taken_from_is_the_setting() -> None:
    slots = extract_slots("We collected nasal swabs from the nasal cavity of 50 infants.")
    assert "nasal swabs" in slots.method_measurement
    assert "nasal cavity" in slots.context
    assert "nasal cavity" not in slots.method_measurement


def test_the_organisation_or_named_place_records_come_from_is_the_setting() -> None:
    slots = extract_slots("We analyse incident records from a regional airline.")
    assert "incident records" in slots.method_measurement
    assert "regional airline" in slots.context
    slots = extract_slots("Seismic tremor records from Stromboli and Vulcano are available.")
    assert {"Stromboli", "Vulcano"} <= set(slots.context)


def test_a_data_source_after_from_stays_a_method() -> None:
    slots = extract_slots("We use panel data from the Health and Retirement Study.")
    assert not any("Health and Retirement" in t for t in slots.context)
    slots = extract_slots("We use data from Compustat Global.")
    assert "Compustat Global" not in slots.context
