"""A range of grades is one modifier; a study statement's colon list names what is measured."""

from agent.understanding.rules import extract_slots


def test_a_range_of_grades_stays_with_its_noun():
    slots = extract_slots("Inhaled corticosteroids for children with mild to moderate asthma.")
    assert slots.subject_population == ["children with mild to moderate asthma", "mild to moderate asthma"]
    assert slots.output_target == []


def test_a_list_after_a_study_statement_colon_is_measured():
    slots = extract_slots(
        "We study CO2 absorption into aqueous monoethanolamine in packed columns: mass transfer "
        "coefficients, solvent degradation and the reboiler heat duty."
    )
    for term in ("mass transfer coefficients", "solvent degradation", "reboiler heat duty"):
        assert term in slots.output_target
    assert "mass transfer coefficients" not in slots.context


def test_a_list_after_another_verb_keeps_its_own_slot():
    slots = extract_slots("We use three datasets: MIMIC-IV, eICU and HiRID.")
    assert "MIMIC-IV" not in slots.output_target
