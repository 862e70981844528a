"""Acronyms spelt like English words are names; a participle after a preposition is an adjective; a
substance before an action keeps its "of" apart."""

from agent.understanding.english_phrases import english_phrases
from agent.understanding.english_tokens import CapitalName, description_tokens
from agent.understanding.rules import extract_slots


def test_an_acronym_spelt_like_a_function_word_is_a_place():
    slots = extract_slots("Obesity among adults in the US, 2000-2020.")
    assert "US" in slots.context


def test_an_acronym_spelt_like_a_verb_stays_in_its_noun_phrase():
    slots = extract_slots("Effects of LED lighting on sleep in nursing home residents.")
    assert slots.context == ["LED lighting"]


def test_an_acronym_of_a_condition_stays_with_the_people_who_have_it():
    slots = extract_slots("Relapse in children with ALL treated in Germany.")
    assert slots.subject_population == ["children with ALL"]


def test_an_organisation_acronym_stays_with_its_noun():
    texts = [p.text for p in english_phrases("Adherence to WHO guidelines in Kenya.")]
    assert "WHO guidelines" in texts


def test_words_in_lower_case_and_a_shouted_description_keep_their_reading():
    assert not any(isinstance(t, CapitalName) for t in description_tokens("it led us to the US"[:16]))
    shouted = description_tokens("EFFECT OF EXERCISE ON SLEEP IN THE US")
    assert not any(isinstance(t, CapitalName) for t in shouted)
    assert not isinstance(description_tokens("sepsis OR septicaemia in adults")[1], CapitalName)


def test_an_effect_participle_after_a_preposition_is_an_adjective():
    phrases = english_phrases("Induced seismicity at enhanced geothermal systems in Korea.")
    texts = {p.text: p.cue for p in phrases}
    assert "enhanced geothermal systems" in texts
    # "enhanced" is no verb, so the title's first phrase is no exposure
    assert texts["Induced seismicity"] is None


def test_a_substance_before_an_action_keeps_whose_action_apart():
    slots = extract_slots("Alcohol consumption of adolescents in Scotland.")
    assert "adolescents" in slots.subject_population
    assert "Alcohol consumption" in slots.output_target + slots.context


def test_an_adjective_before_an_action_still_takes_its_object():
    slots = extract_slots("Early introduction of peanut in infants.")
    assert "Early peanut introduction" in slots.context
