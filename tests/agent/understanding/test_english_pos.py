"""Is this token a verb here? The phrase cutter's part-of-speech decision, on sentences of its own
(not evaluation cases): a word after an adjective or as the head of a pair MeSH writes is a noun, a
gerund MeSH ends terms with is a noun, the subject follows "How will", a word before an article is a
verb, in a question a bare word after a plural noun, with a noun after it, is the verb, and an "-s" form
with no object after a noun ("isolates from X") is a plural noun.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES
from agent.understanding.english_phrases import english_phrases
from agent.understanding.english_pos import main_verb_after_plural, verb_here
from agent.understanding.english_tokens import description_tokens
from agent.understanding.rules import extract_slots


def _terms(text: str) -> list[str]:
    slots = extract_slots(text)
    return [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]


def _verb_here(text: str, word: str, current: list[str], clause_open: str = "") -> bool | None:
    tokens = description_tokens(text)
    return verb_here(tokens, tokens.index(word), current, clause_open)


def test_a_word_after_an_adjective_is_a_noun() -> None:
    assert (
        _verb_here("Does urban transport in Lagos reduce smog?", "transport", ["urban"], "question") is False
    )
    assert "urban transport" in _terms("Does urban transport in Lagos reduce air pollution?")


def test_the_subject_follows_a_wh_word_and_a_modal() -> None:
    assert _verb_here("How will climate change shift X?", "climate", []) is False
    assert "climate change" in _terms("How will climate change shift bird migration in Europe?")


def test_a_past_participle_after_be_in_a_question_is_its_passive_verb() -> None:
    # "What is known about X": "known" had been read as the question's subject and kept as a term
    assert _verb_here("What is known about exercise for depression?", "known", []) is not False
    assert "known" not in _terms("What is known about exercise for depression?")
    assert "reported outcomes" in _terms("What are reported outcomes of exercise for depression?")


def test_a_plural_after_an_adjective_opening_a_sentence_is_its_noun() -> None:
    # "Qualitative studies welcome.": "studies" had been read as a verb, leaving "Qualitative" and "welcome"
    assert _verb_here("Qualitative studies welcome.", "studies", ["Qualitative"]) is False
    assert "welcome" not in _terms("Peer support for new mothers. Qualitative studies welcome.")


def test_a_gerund_mesh_ends_terms_with_is_a_noun() -> None:
    assert _verb_here("for healing rate of burns", "healing", []) is False
    assert "healing rate" in _terms("We compare two dressings for healing rate of burns in children.")


def test_a_word_before_an_article_after_and_is_a_verb() -> None:
    assert _verb_here("We collect records and fit a mixed model.", "fit", []) is True
    assert "fit" not in _terms("We collect growth records from farms and fit a mixed model.")


def test_a_bare_word_after_a_plural_subject_in_a_question_is_its_verb() -> None:
    text = "Do mussel larvae colonise artificial reefs in the Baltic Sea?"
    assert _verb_here(text, "colonise", ["mussel", "larvae"], "question") is True
    terms = _terms(text)
    assert "mussel larvae" in terms and "artificial reefs" in terms
    terms = _terms("Do vitamin D supplements slow bone loss in older women?")
    assert "vitamin D supplements" in terms and "bone loss" in terms


def test_a_plural_modifier_of_a_pair_mesh_writes_is_no_subject_before_a_verb() -> None:
    assert _verb_here("Do sports medicine clinics help?", "medicine", ["sports"], "question") is False


def test_an_s_form_with_no_object_after_a_noun_is_a_plural_head() -> None:
    text = "We sequence Salmonella enterica isolates from poultry farms in Brazil."
    assert _verb_here(text, "isolates", ["Salmonella", "enterica"]) is False
    assert "Salmonella enterica isolates" in _terms(text)
    # a verb's own preposition, or a verb MeSH writes in no term, keeps the verb reading
    assert _verb_here("My project looks at soil erosion.", "looks", ["project"]) is None
    assert _verb_here("The microclimate responds to visits.", "responds", ["microclimate"]) is None


def test_a_word_after_an_article_or_a_preposition_is_no_verb() -> None:
    # no finite verb follows an article or a preposition other than "to": the word modifies the next noun
    assert _verb_here("We fit a model with repeat sales of homes.", "repeat", []) is False
    assert _verb_here("We mapped the study area by drone.", "study", []) is False
    # after "to" it may be the verb of an infinitive, and an "-ing" form is left to the verb readings
    assert _verb_here("We want to study soil erosion.", "study", []) is None
    assert _verb_here("We estimate yield by measuring canopy cover.", "measuring", []) is None


def test_a_bare_verb_after_a_plural_subject_of_a_main_clause_ends_it() -> None:
    # sentences of their own, not evaluation cases: a plural noun then a word CC-CEDICT glosses mainly as
    # a verb, with its object or a preposition after it, is the subject and its verb
    tokens = description_tokens("Dental examinations follow ICDAS criteria at 12 months.")
    assert main_verb_after_plural(tokens, tokens.index("follow"), ["Dental", "examinations"])
    texts = [p.text for p in english_phrases("Dental examinations follow ICDAS criteria at 12 months.")]
    assert texts == ["Dental examinations", "ICDAS criteria"]
    texts = [p.text for p in english_phrases("Children in rural schools learn to read later.")]
    assert "rural schools" in texts
    # a pair MeSH writes ("outcomes research") and a compound head after a plural ("services use") stay
    tokens = description_tokens("We fund outcomes research in Ohio.")
    assert not main_verb_after_plural(tokens, tokens.index("research"), ["outcomes"])
    texts = [p.text for p in english_phrases("We measure health services use in rural areas.")]
    assert "health services use" in texts
    # a verb's "-s" form does not agree with a plural noun: "blood samples" is no clause
    tokens = description_tokens("We store blood samples at -80 C.")
    assert not main_verb_after_plural(tokens, tokens.index("samples"), ["blood"])


def test_quantifiers_opening_a_sentence_are_no_terms() -> None:
    # "Little is known about X", "Few studies have examined X": "Little" and "Few" had been kept as terms
    assert "Little" not in _terms("Little is known about the effect of loneliness on cognitive decline.")
    assert "Few" not in _terms("Few studies have examined loneliness in family carers.")


def test_an_ing_form_after_an_adjective_is_a_noun_modifier_not_a_verb() -> None:
    # also when the adjective opens the sentence, written with a capital
    for text in ("Long working hours and stroke in nurses.", "Do long working hours raise stroke risk?"):
        texts = [p.text.lower() for p in english_phrases(text)]
        assert "long working hours" in texts
    assert "night shifts" in [p.text for p in english_phrases("Nurses working night shifts.")]
