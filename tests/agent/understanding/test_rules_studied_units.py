"""The English rules fallback on the things a study is about: each mechanism tested on sentences of
its own (not evaluation cases).

What a task acts on or an outcome is measured "in" names, in the plural, the units studied ("leaks in
buried water pipes"); a named place or a condition after "in" stays the setting ("obesity in Brazil",
"speech perception in noise").
"""

from __future__ import annotations

from agent.understanding.english_phrases import english_phrases
from agent.understanding.rules import extract_slots
from agent.understanding.slot_evidence import mesh_kind
from agent.understanding.slot_roles import _part_of_organism


def test_plural_units_right_after_an_outcome_and_in_are_studied() -> None:
    slots = extract_slots("We want to detect leaks in buried water pipes.")
    assert "buried water pipes" in slots.subject_population
    assert "buried water pipes" not in slots.context


def test_a_place_or_a_mass_noun_after_in_stays_the_setting() -> None:
    assert "Brazil" in extract_slots("We measure childhood obesity in Brazil.").context
    slots = extract_slots("We test speech perception in noise.")
    assert "noise" not in slots.subject_population
    names = extract_slots("We count coral bleaching in the Coral Triangle Reefs.")
    assert not any("Triangle" in term for term in names.subject_population)


def test_a_thing_or_organism_that_acts_on_the_outcome_is_the_exposure() -> None:
    slots = extract_slots("We ask whether hedgerow trees reduce soil erosion.")
    assert "hedgerow trees" in slots.context
    assert "hedgerow trees" not in slots.subject_population
    # people who act stay those studied
    people = extract_slots("We ask whether community health workers improve vaccine uptake.")
    assert "community health workers" in people.subject_population


def test_the_subject_of_an_effect_verb_is_the_head_before_its_modifiers() -> None:
    cues = {p.text: p.cue for p in english_phrases("Sea walls built along sandy coasts reduce dune erosion.")}
    assert cues["Sea walls"] == "exposure"
    assert cues["sandy coasts"] != "exposure"
    assert cues["dune erosion"] == "outcome"


def test_what_an_intervention_comes_with_or_from_is_part_of_it() -> None:
    slots = extract_slots("We ask whether shade netting with misting nozzles reduces heat stress in goats.")
    assert "misting nozzles" in slots.context
    assert "misting nozzles" not in slots.method_measurement
    # after a verb or a place, "with" names how the study observes
    observed = extract_slots("We sample tide pools with hand nets.")
    assert "hand nets" in observed.method_measurement


def test_the_units_an_outcome_or_an_intervention_is_for_are_studied() -> None:
    forecast = extract_slots("We forecast the demand for electric scooters in Lisbon.")
    assert "electric scooters" in forecast.subject_population
    assert "electric scooters" not in forecast.context
    contracts = extract_slots("We ask whether maintenance contracts for delivery vans lower repair costs.")
    assert "delivery vans" in contracts.subject_population
    assert "maintenance contracts" in contracts.context
    # a named place after "for" stays the setting
    assert "Germany" in extract_slots("We ask whether subsidies for Germany raise exports.").context


def test_a_place_named_by_its_geography_is_the_setting_an_unnamed_kind_is_studied() -> None:
    slots = extract_slots("Do protected bike lanes reduce cyclist injuries in five Canadian cities?")
    assert any("Canadian cities" in term for term in slots.context)
    assert not any("Canadian cities" in term for term in slots.subject_population)
    states = extract_slots("Did minimum wage increases in German states reduce employment in small firms?")
    assert "German states" in states.context
    assert "small firms" in states.subject_population
    # a grouping written as an acronym names its members, the units studied
    oecd = extract_slots("Forecasting inflation with machine learning in OECD countries.")
    assert "OECD countries" not in oecd.context


def test_a_land_or_water_unit_is_studied_when_nothing_else_is() -> None:
    lakes = extract_slots("We want to predict ice-off dates in boreal lakes with a gradient boosting model.")
    assert "boreal lakes" in lakes.subject_population
    assert "boreal lakes" not in lakes.context
    # beside organisms studied the unit is the setting
    fish = extract_slots("We survey brown trout abundance in boreal lakes with gill nets.")
    assert "boreal lakes" not in fish.subject_population


def test_a_part_or_stage_of_organisms_mesh_names_is_studied_not_the_setting() -> None:
    slots = extract_slots("We follow insect succession on pig carcasses in a temperate forest.")
    assert "pig carcasses" in slots.subject_population
    assert "pig carcasses" not in slots.context
    embryos = extract_slots("Are microplastics more toxic to zebrafish embryos than to adults?")
    assert "zebrafish embryos" in embryos.subject_population


def test_an_activity_a_period_or_a_proper_name_after_an_organism_word_is_not_a_part_of_it() -> None:
    assert _part_of_organism(["pig", "carcasses"])
    for words in (["maize", "seasons"], ["fish", "released"], ["cattle", "grazing"], ["Raven", "Pro"]):
        assert not _part_of_organism(words), words


def test_an_outcome_at_land_units_spelt_in_oes_names_them_studied() -> None:
    slots = extract_slots("I forecast eruptions at basaltic volcanoes from seismicity.")
    assert "basaltic volcanoes" in slots.subject_population


def test_a_vertebrate_or_plant_mesh_names_only_inside_longer_terms_is_studied() -> None:
    # "frogs" and "pine" end MeSH organism terms ("Poison Frogs", "Pine Tree") but are no term alone
    assert mesh_kind("lowland frogs") == "subject_population"
    assert mesh_kind("Aleppo pine") == "subject_population"
    slots = extract_slots("We measure growth rings of Aleppo pine on limestone slopes in Spain.")
    assert "Aleppo pine" in slots.subject_population
    assert "Aleppo pine" not in slots.context


def test_an_invertebrate_common_noun_english_uses_in_other_senses_is_no_organism() -> None:
    # "Bed Bugs" and "Kissing Bugs" end in "bugs", but software bugs are no organism
    assert mesh_kind("concurrency bugs") is None
