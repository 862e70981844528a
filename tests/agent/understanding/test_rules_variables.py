"""The English rules fallback on variables and the kinds examples are of: each mechanism tested on
sentences of its own (not evaluation cases).

A measured quantity named by what it measures ("soil temperature", "sap flow density") is a variable,
never the setting; one named by its value ("at high temperatures") is a condition of the study. Examples
after "such as" take the slot their kind's head word names ("factors such as X", "models such as X").
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.rules import extract_slots


def _all_terms(slots: Slots) -> list[str]:
    return [term.lower() for name in LIST_SLOT_NAMES for term in getattr(slots, name)]


def test_a_quantity_with_no_role_cue_is_a_feature_not_the_setting() -> None:
    slots = extract_slots("We log soil temperature and sap flow density in each greenhouse.")
    assert slots.signal_feature == ["soil temperature", "sap flow density"]
    assert slots.context == ["greenhouse"]


def test_a_quantity_named_by_its_value_is_a_condition() -> None:
    slots = extract_slots("We compare seed germination at high temperatures.")
    assert "high temperatures" in slots.context
    assert "high temperatures" not in slots.signal_feature


def test_examples_take_the_slot_their_kind_names() -> None:
    slots = extract_slots(
        "Climatic factors such as altitude and grazing intensity are mapped for each valley."
    )
    assert slots.signal_feature == ["Climatic factors", "altitude", "grazing intensity"]


def test_people_with_a_feature_are_one_population() -> None:
    slots = extract_slots("We recruit adults with genetic risk factors for glaucoma.")
    assert any(term.startswith("adults with") for term in slots.subject_population)


def test_what_is_measured_is_the_outcome_not_a_measurement_task() -> None:
    slots = extract_slots("Panels are aged outdoors for a year, measuring gloss retention and chalking.")
    assert not any(term.endswith("measurement") for term in slots.task)
    assert "gloss retention" in slots.output_target


def test_a_count_of_time_units_is_no_concept() -> None:
    slots = extract_slots("Nest boxes are checked over three seasons, and chicks weighed for two weeks.")
    terms = _all_terms(slots)
    assert "three seasons" not in terms
    assert "two weeks" not in terms


def test_a_lone_adjective_or_short_participle_is_no_concept() -> None:
    slots = extract_slots("Soil cores will be logged and, where available, compared with older surveys.")
    terms = _all_terms(slots)
    assert "logged" not in terms
    assert "available" not in terms


def test_livestock_and_plant_material_are_what_is_studied() -> None:
    slots = extract_slots("We compare two feeding regimes in dairy calves.")
    assert "dairy calves" in slots.subject_population
    slots = extract_slots("Drought tolerance was scored in a panel of sorghum landraces.")
    assert "sorghum landraces" in slots.subject_population


def test_a_measured_quantity_an_effect_acts_on_is_the_outcome() -> None:
    # MeSH files Heart Rate and Blood Pressure beside their measuring (E01) and "weight" under Weights
    # and Measures: as what an effect acts on they are outcomes, not instruments
    slots = extract_slots(
        "The effect of resistance training on resting heart rate and weight in firefighters."
    )
    assert "resting heart rate" in slots.output_target
    assert "weight" in slots.output_target
    assert not slots.method_measurement


def test_trouble_with_a_function_of_body_or_mind_is_a_condition() -> None:
    # "sleep", "behaviour", "swallowing" are functions MeSH files (F, G); a noun of trouble after one
    # names its disorder, the outcome a title relates an exposure to
    slots = extract_slots("Shift work and sleep problems in paramedics")
    assert "sleep problems" in slots.output_target
    assert "Shift work" in slots.context


def test_a_quantity_a_clause_makes_act_on_an_outcome_is_a_feature() -> None:
    slots = extract_slots(
        "In grain silos, how do airflow rate and kernel moisture content relate to mould growth?"
    )
    assert {"airflow rate", "kernel moisture content"} <= set(slots.signal_feature)
    assert not {"airflow rate", "kernel moisture content"} & set(slots.context)
    assert "mould growth" in slots.output_target


def test_a_quantity_given_by_its_value_still_acts_as_the_setting() -> None:
    slots = extract_slots("Does high temperature affect pollen viability in tomato?")
    assert "high temperature" in slots.context
    assert "high temperature" not in slots.signal_feature


def test_an_intervention_acting_on_an_outcome_stays_the_setting() -> None:
    slots = extract_slots("How do cover crops affect nitrate leaching?")
    assert "cover crops" in slots.context
    assert not slots.signal_feature
