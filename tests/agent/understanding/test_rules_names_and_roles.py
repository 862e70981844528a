"""The English rules fallback on names a function word or punctuation used to cut, and on roles a verb
gives: each mechanism tested on sentences of its own (not evaluation cases).

Names: a slash between capitals or digits ("PET/CT"), a suspended hyphen ("short- and long-term"), a
disease name holding "with" or "of the" that MeSH knows whole, scope words after a population. Roles:
the procedure people undergo or receive is the setting; what the researchers build is their method.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.english_tokens import description_tokens
from agent.understanding.rules import extract_slots


def _all_terms(slots: Slots) -> list[str]:
    return [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]


# --- names kept whole ---------------------------------------------------------------------------


def test_a_slash_between_capitals_or_digits_joins_one_name() -> None:
    tokens = description_tokens("Staging with PET/CT in HIV/AIDS and the COVID-19/SARS-CoV-2 era.")
    assert "PET/CT" in tokens
    assert "HIV/AIDS" in tokens
    assert "COVID-19/SARS-CoV-2" in tokens


def test_a_slash_between_lower_case_words_still_lists() -> None:
    tokens = description_tokens("Burnout in nurses/midwives and/or physicians.")
    assert "nurses/midwives" not in tokens
    assert "and/or" not in tokens


def test_a_named_assay_with_a_slash_stays_one_method() -> None:
    slots = extract_slots("Diagnostic yield of the GeneXpert MTB/RIF Ultra assay in people living with HIV.")
    assert any("MTB/RIF" in term for term in slots.method_measurement)
    assert not any(term.endswith("MTB") or term.startswith("RIF") for term in _all_terms(slots))


def test_a_suspended_hyphen_distributes_the_compound() -> None:
    slots = extract_slots("Caesarean section rates in upper- and lower-middle-income countries.")
    terms = _all_terms(slots)
    assert "upper-middle-income countries" in terms
    assert "lower-middle-income countries" in terms
    assert "upper" not in " ".join(t for t in terms if "upper-" not in t)


def test_a_suspended_hyphen_before_an_outcome_keeps_both_outcomes() -> None:
    slots = extract_slots("Short- and long-term mortality after hip arthroplasty.")
    assert {"Short-term mortality", "long-term mortality"} <= set(slots.output_target)


def test_with_inside_a_disease_name_mesh_knows_whole_does_not_cut_it() -> None:
    slots = extract_slots("Falls and fractures in people with dementia with Lewy bodies.")
    terms = _all_terms(slots)
    assert any("dementia with Lewy bodies" in term for term in terms)
    assert "Lewy bodies" not in terms


def test_of_the_inside_a_fracture_name_mesh_knows_whole_does_not_cut_it() -> None:
    slots = extract_slots("Early mobilisation after fractures of the femoral neck in nursing home residents.")
    terms = _all_terms(slots)
    assert "fractures of the femoral neck" in terms
    assert "femoral neck" not in terms


def test_people_with_a_condition_are_still_cut_at_with() -> None:
    slots = extract_slots("Exercise for adults with asthma.")
    assert "adults with asthma" in slots.subject_population


def test_scope_words_after_a_population_are_not_part_of_it() -> None:
    slots = extract_slots("Burnout among resident physicians nationwide.")
    assert "resident physicians" in slots.subject_population
    assert not any("nationwide" in term for term in _all_terms(slots))


# --- roles a verb gives -------------------------------------------------------------------------


def test_the_procedure_people_undergo_is_the_setting_not_a_method() -> None:
    slots = extract_slots("Does virtual reality distraction reduce pain in children undergoing venipuncture?")
    assert "venipuncture" in slots.context
    assert "children" in slots.subject_population


def test_the_procedure_people_are_scheduled_for_is_the_setting() -> None:
    slots = extract_slots("Preoperative anxiety in adults scheduled for cardiac catheterization.")
    assert "cardiac catheterization" in slots.context


def test_what_people_receive_stays_the_intervention() -> None:
    slots = extract_slots("Nausea in women receiving cisplatin chemotherapy.")
    assert "cisplatin chemotherapy" in slots.context


def test_what_the_researchers_build_is_their_method() -> None:
    slots = extract_slots(
        "Our team is building a conversational agent for smoking cessation and will test whether it "
        "improves quit rates."
    )
    assert "conversational agent" in slots.method_algorithm
    assert "conversational agent" not in slots.context


def test_a_drug_the_researchers_develop_stays_the_intervention() -> None:
    slots = extract_slots("We develop a vaccine against dengue.")
    assert "vaccine" in slots.context
