"""The rules fallback on wording the fresh English batches (en-dev11) showed it misread: each mechanism
tested on a sentence of its own, not on an evaluation case.
"""

from __future__ import annotations

from agent.understanding.rules import extract_slots
from agent.understanding.slot_evidence import en_head_slot, other_spellings


def test_a_head_word_is_read_in_either_spelling_of_english() -> None:
    assert other_spellings("randomisation") == ["randomization"]
    assert "behaviour" in other_spellings("behavior")
    assert other_spellings("hour") == []  # a short word is left alone
    assert en_head_slot(["Mendelian", "randomisation"]) == en_head_slot(["Mendelian", "randomization"])
    slots = extract_slots("We estimate the effect of alcohol on blood pressure by Mendelian randomisation.")
    assert "Mendelian randomisation" in slots.method_algorithm


def test_what_is_named_as_an_outcome_or_covariate_takes_that_role() -> None:
    slots = extract_slots("A crossover trial of yoga with blood lactate as a secondary outcome.")
    assert "blood lactate" in slots.output_target
    assert not any("outcome" in term for term in slots.output_target)
    slots = extract_slots("We fit survival models with household income as a covariate.")
    assert "household income" in slots.context
    # a marker still names the measured feature
    slots = extract_slots("Serum ferritin as a prognostic biomarker in sepsis.")
    assert "Serum ferritin" in slots.signal_feature


def test_the_marker_is_the_head_of_the_phrase_before_as_not_its_modifier() -> None:
    slots = extract_slots("Urinary NGAL after cardiac surgery as an early marker of acute kidney injury.")
    assert "Urinary NGAL" in slots.signal_feature
    assert "cardiac surgery" not in slots.signal_feature


def test_what_an_outcome_is_of_is_observed_unless_it_is_given() -> None:
    slots = extract_slots(
        "We ask whether hospital mergers raise the price of health insurance for small employers."
    )
    assert "health insurance" in slots.output_target
    # a drug or a therapy the outcome is of stays what is given
    slots = extract_slots("We study the efficacy of azithromycin in children with trachoma.")
    assert "azithromycin" in slots.context


def test_a_third_person_task_verb_ends_a_singular_subject_and_makes_it_the_predictor() -> None:
    slots = extract_slots(
        "We ask whether the salivary proteome of pregnant women in rural clinics predicts preeclampsia."
    )
    # the subject is the head before its "of" and "in" modifiers, and what predicts is the feature
    assert "salivary proteome" in slots.signal_feature
    assert "preeclampsia" in slots.output_target
    assert any("prediction" in term for term in slots.task)


def test_a_change_word_that_mesh_writes_with_the_noun_before_it_is_no_verb() -> None:
    from agent.understanding.english_word_forms import mesh_compound

    assert mesh_compound("climate", "change")
    assert not mesh_compound("online", "change")
    slots = extract_slots("Habitat suitability of alpine butterflies under climate change scenarios.")
    assert "climate change scenarios" in slots.context


def test_a_question_opened_by_a_modal_ends_its_subject_at_the_verb() -> None:
    slots = extract_slots("Can satellite altimetry resolve mesoscale eddies in the Labrador Sea?")
    terms = [
        t for name in ("task", "method_measurement", "context", "output_target") for t in getattr(slots, name)
    ]
    assert "satellite altimetry" in terms
    assert not any("resolve" in t for t in terms)
    assert "mesoscale eddies" in slots.output_target


def test_what_the_researchers_train_is_their_model() -> None:
    slots = extract_slots("We will train a SegFormer-B2 on drone images of vineyards.")
    assert "SegFormer-B2" in slots.method_algorithm


def test_organisms_something_is_compared_with_are_studied_too() -> None:
    slots = extract_slots(
        "We use hair cortisol assays to track stress in captive cheetahs, comparing them with wild lions."
    )
    assert "wild lions" in slots.subject_population


def test_what_is_derived_from_a_method_is_a_feature() -> None:
    slots = extract_slots("We relate MRI-derived liver fat fraction to insulin resistance in adolescents.")
    assert "MRI" in slots.method_measurement
    assert "liver fat fraction" in slots.signal_feature


def test_what_a_model_is_trained_on_is_its_data() -> None:
    slots = extract_slots(
        "We predict sepsis with a transformer trained on nursing flowsheets from three hospitals."
    )
    assert "nursing flowsheets" in slots.method_measurement


def test_a_how_clause_ends_its_subject_at_the_verb_and_its_object_is_observed() -> None:
    slots = extract_slots("We ask how dairy farmers adjust grazing schedules to heat waves.")
    assert "dairy farmers" in slots.subject_population
    assert "grazing schedules" in slots.output_target
    # "how" before an auxiliary or a passive opens no such clause
    slots = extract_slots("I want to trace how obesity was framed in Danish and Swedish press coverage.")
    assert "obesity" in slots.output_target


def test_a_participle_clause_of_relying_names_no_concept() -> None:
    slots = extract_slots(
        "We describe how fishers in Ghana respond to fuel subsidies, drawing on household surveys."
    )
    assert not any("drawing" in t for name in ("context", "task") for t in getattr(slots, name))
    assert "household surveys" in slots.method_measurement


def test_what_the_researchers_conduct_run_or_plan_is_their_method() -> None:
    slots = extract_slots("We will conduct transect walks in three coastal wetlands to count shorebirds.")
    assert "transect walks" in slots.method_measurement


def test_a_latin_binomial_of_a_genus_mesh_knows_is_an_organism() -> None:
    from agent.understanding.slot_evidence import mesh_kind

    assert mesh_kind("Anopheles notoscriptus") == "subject_population"  # no such species: the form says it
    assert mesh_kind("Google Spain") != "subject_population"  # a capitalised second word is no epithet
    slots = extract_slots("We measure indoor biting by Anopheles arabiensis in Malawi.")
    assert "Anopheles arabiensis" in slots.subject_population


def test_statistical_methods_and_models_mesh_files_are_analyses() -> None:
    from agent.understanding.slot_evidence import mesh_kind

    assert mesh_kind("cluster analysis") == "method_algorithm"
    slots = extract_slots("We estimate infection risk from swab results using Bayes theorem.")
    assert "Bayes theorem" in slots.method_algorithm


def test_what_a_marker_is_of_is_the_outcome() -> None:
    slots = extract_slots(
        "Serum lactate at admission as a marker of tissue hypoperfusion in emergency patients."
    )
    assert "tissue hypoperfusion" in slots.output_target
