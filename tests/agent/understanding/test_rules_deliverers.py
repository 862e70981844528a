"""Who delivers an intervention, and the purpose an intervention serves, in the rules fallback.

The people who deliver an intervention are part of it (the setting, requirements 4.1.2), not who is
studied: people "by" whom a programme is delivered or run, people trained "to" deliver or counsel,
people who visit or screen others. A purpose clause ("in order to X", "so as to X") names the outcome,
and one that opens a sentence ends at its comma. Sentences written for these tests, not taken from the
evaluation cases: each checks one mechanism.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.rules import extract_slots


def _all(slots: Slots) -> list[str]:
    return [t for name in LIST_SLOT_NAMES for t in getattr(slots, name)]


def test_people_by_whom_an_intervention_is_delivered_are_its_setting() -> None:
    slots = extract_slots(
        "We evaluate a home exercise programme delivered by physiotherapists to prevent falls in frail "
        "older adults."
    )
    assert "physiotherapists" in slots.context
    assert "frail older adults" in slots.subject_population
    assert "physiotherapists" not in slots.subject_population
    assert "physiotherapists" not in slots.method_measurement
    run = extract_slots("We study whether youth clubs run by volunteers reduce loneliness among teenagers.")
    assert "volunteers" in run.context
    assert run.subject_population == ["teenagers"]


def test_people_trained_to_deliver_or_counsel_deliver_and_whom_they_serve_are_studied() -> None:
    slots = extract_slots(
        "We are training school teachers to deliver a mindfulness curriculum to reduce anxiety in adolescents."
    )
    assert "school teachers" in slots.context
    assert "mindfulness curriculum" in slots.context
    assert slots.subject_population == ["adolescents"]
    assert "anxiety" in slots.output_target
    counsel = extract_slots(
        "Does coaching dietitians to counsel pregnant women improve gestational weight gain?"
    )
    assert "dietitians" in counsel.context
    assert "pregnant women" in counsel.subject_population
    assert not any("counsel" in t or "coaching" in t for t in _all(counsel))


def test_people_who_visit_or_screen_others_deliver_and_the_others_are_studied() -> None:
    slots = extract_slots(
        "Community pharmacists visit housebound patients with heart failure after discharge."
    )
    assert "Community pharmacists" in slots.context
    assert any(t.startswith("housebound patients") for t in slots.subject_population)
    assert not any("visit" in t for t in _all(slots))
    # a plural noun before a noun compound stays one phrase: no verb of delivering follows it
    kept = extract_slots("We survey nurses about support groups for caregivers.")
    assert not any(t == "nurses" for t in kept.context)


def test_in_order_to_and_so_as_to_are_purpose_cues_not_terms() -> None:
    slots = extract_slots(
        "Wearable sensors are used in order to reduce freezing of gait in Parkinson's disease."
    )
    assert not any("order" in t.lower() for t in _all(slots))
    opening = extract_slots(
        "So as to reduce readmissions, pharmacists visit older patients with heart failure after discharge."
    )
    assert "readmissions" in opening.output_target
    assert "pharmacists" in opening.context
    assert not any("pharmacists" in t for t in opening.output_target)
    assert not any(t == "as" or "order" in t for t in _all(opening))


def test_the_verb_alone_after_who_is_no_term() -> None:
    slots = extract_slots("We survey adolescents who vape.")
    assert slots.subject_population == ["adolescents"]
    assert not any("vape" in t for t in _all(slots))


def test_a_bare_verb_right_after_an_effect_verb_modifies_the_plural_noun_after_it() -> None:
    slots = extract_slots("Do cash incentives raise quit rates in young smokers?")
    assert "quit rates" in slots.output_target
    assert "rates" not in _all(slots)


def test_a_short_verb_in_ing_after_a_plural_subject_in_a_question_is_the_verb() -> None:
    slots = extract_slots("Do humpback whales sing at lower frequencies near shipping lanes?")
    assert not any("sing" in t.split() for t in _all(slots))
    assert any(t == "humpback whales" for t in _all(slots))


def test_what_a_purpose_clause_avoids_is_the_outcome() -> None:
    slots = extract_slots("Farmers plant hedgerows along field margins to avoid soil erosion.")
    assert "soil erosion" in slots.output_target
    assert not any("avoid" in t for t in _all(slots))


def test_people_whose_effect_on_other_people_is_asked_about_deliver_it() -> None:
    slots = extract_slots("Do hospital pharmacists lower anxiety among first-time fathers?")
    assert "hospital pharmacists" in slots.context
    assert slots.subject_population == ["first-time fathers"]
    assert "anxiety" in slots.output_target
    volunteers = extract_slots("Do peer volunteers reduce loneliness among older migrants?")
    assert volunteers.context == ["peer volunteers"]
    assert volunteers.subject_population == ["older migrants"]
    # with no other people acted on, people who are the subject stay those studied
    alone = extract_slots("Do shift workers reduce sleep quality over time?")
    assert "shift workers" in alone.subject_population
