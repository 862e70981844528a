"""Rules of the English phrase cutter that decide whether a noun phrase goes on or ends at a word.

A word that may be a verb is a noun inside a noun phrase ("blood lead levels", "social media use", "the
study area"); a few function words join one measure ("time to repair", "hours of sleep", "hospital at
home"); a participle after people or things opens a reduced relative clause ("children receiving
ECMO") and ends the phrase (a rule returns True when it took the token; `english_phrases.RULES` gives
the order).
"""

from __future__ import annotations

from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.english_phrase_rules.reading import PhraseReading
from agent.understanding.english_phrase_rules.word_context import (
    care_given,
    comparative_inside_a_noun_phrase,
    gerund_head,
    inflected_form,
    inside_a_title,
    listed_verb_here,
    title_case_sentence,
)
from agent.understanding.english_pos import no_agreement, verb_here
from agent.understanding.english_tokens import starts_phrase
from agent.understanding.english_word_forms import (
    gerund_of_verb,
    is_modifier,
    is_participle,
    is_plural_noun,
    premodifying_participle,
    verb_base,
)
from agent.understanding.slot_evidence import (
    is_population,
)

# what may follow a plural noun and not a verb's object ("loading tests and", "outcome measures in")
_LIST_ENDS = frozenset({"and", "or", "in", "at", "of", "for", "on", "during", "across", "from", "with"})
# words after which a noun phrase starts, so an "-ed" form right after them is its adjective: a
# preposition takes a noun phrase, never a verb ("at enhanced geothermal systems", "at increased
# altitude", "exposure to reduced oxygen")
_BEFORE_A_NOUN_PHRASE = frozenset({None, "whether", "if", "that", "how", *lex.EN_PREPOSITIONS})


def _noun_phrase_follows(r: PhraseReading) -> bool:
    """The next word opens a noun phrase: a word that starts one and is no common verb ("time to
    repair", "days of antibiotic therapy", "improved maize varieties")."""
    return r.following.isalpha() and starts_phrase(r.following) and r.following not in lex.EN_COMMON_VERBS


def _noun_phrase_after(r: PhraseReading) -> list[str]:
    """The words of the noun phrase that starts after the token in hand (up to a function word, verb
    or punctuation)."""
    words: list[str] = []
    for token in r.tokens[r.index + 1 :]:
        if (not token.isalpha() and "-" not in token) or not starts_phrase(token.lower()):
            break
        words.append(token)
    return words


def effect_verb_object_modifier(r: PhraseReading) -> bool:
    """ "increase quit rates": a bare verb after an effect verb modifies the plural noun."""
    if (
        not r.current
        and r.last_break in lex.EFFECT_VERBS
        and (r.lower in lex.EN_VERBS or r.lower in lex.EN_COMMON_VERBS)
        and not inflected_form(r.lower)
        and is_plural_noun(r.following)
        and r.following not in lex.EN_FUNCTION
        and r.following not in lex.PLURAL_NOUN_OR_VERB
    ):
        # "increase quit rates", "reduce return visits": an effect verb takes a noun phrase as its
        # object, so a bare verb right after it, before a plural noun, is that noun's modifier
        r.current.append(r.token)
        return True
    return False


def word_inside_a_title(r: PhraseReading) -> bool:
    """ "the Glasgow Composite Measure Pain Scale": a verb inside a name."""
    if inside_a_title(
        r.token, r.current, following=r.tokens[r.index + 1] if r.index + 1 < len(r.tokens) else "."
    ) and not title_case_sentence(r.tokens, r.index):
        r.current.append(r.token)
        return True
    return False


def preposition_before_to(r: PhraseReading) -> bool:
    """ "flower strips next to orchards", "deaths due to X": a preposition, not a modifier."""
    if r.lower in lex.BEFORE_TO_PREPOSITIONS and r.following == "to" and r.current:
        r.flush()
        r.cue = r.last_break = r.lower
        return True
    return False


def graded_range(r: PhraseReading) -> bool:
    """ "moderate to severe dementia", "mild to moderate asthma": a range of grades, one modifier."""
    if (
        r.lower == "to"
        and r.current
        and r.current[-1].lower() in lex.GRADE_ADJECTIVES
        and r.following in lex.GRADE_ADJECTIVES
    ):
        r.current.append(r.token)
        return True
    return False


def measure_to(r: PhraseReading) -> bool:
    """ "time to repair", "distance to roads", "time in range": one measure; but people after "in"
    are whom it is measured in ("screen time in children", "time in bed in older adults")."""
    if (
        r.lower in {"to", "in"}
        and r.current
        and r.current[-1].lower() in lex.MEASURE_TO_NOUNS
        and _noun_phrase_follows(r)
        and not (r.lower == "in" and is_population(_noun_phrase_after(r)))
    ):
        r.current.append(r.token)
        return True
    return False


def generic_head_after_care(r: PhraseReading) -> bool:
    """ "midwifery care models", "integrated care programmes": the care is the concept; the generic
    head after it (model, approach, programme) is left out."""
    # the token is taken (left out) only when the phrase ends with it: "care model development" goes on
    return (
        r.lower in lex.CARE_GENERIC_HEADS
        and bool(r.current)
        and r.current[-1].lower().split()[-1] in lex.CARE_HEADS
        and not (r.following.isalpha() and starts_phrase(r.following))
    )


def care_property_of(r: PhraseReading) -> bool:
    """ "continuity of midwifery care", "coordination of care": how care is organised, with the care
    it is said of, one concept (cut at "of", the property alone names no topic)."""
    if (
        r.lower == "of"
        and r.current
        and r.current[-1].lower() in lex.CARE_PROPERTY_NOUNS
        and any(w.lower() in lex.CARE_HEADS for w in _noun_phrase_after(r))
    ):
        r.current.append(r.token)
        return True
    return False


def movement_to(r: PhraseReading) -> bool:
    """ "returning to work", "going back to school": the "to" of a gerund of moving names where, so
    the place stays in the gerund's phrase (a verb-like noun after it, "work", is that place)."""
    if r.lower != "to" or not r.current:
        return False
    last = [w.lower() for w in r.current[-2:]]
    if last[-1] == "back" and len(last) == 2:
        last = last[:1]
    if (
        last[-1] in lex.MOVEMENT_GERUNDS
        and r.following.isalpha()
        and r.following.lower() not in lex.EN_FUNCTION
    ):
        r.current.append(r.token)
        return True
    return False


def duration_of(r: PhraseReading) -> bool:
    """ "days of antibiotic therapy", "hours of sleep": a duration, one measure."""
    if (
        r.lower == "of"
        and len(r.current) == 1
        and r.current[0].lower() in lex.TIME_SPAN_UNITS
        and _noun_phrase_follows(r)
    ):
        r.current.append(r.token)
        return True
    return False


# nouns whose object, after the preposition given, is the concept ("access to X", "a sense of X")
_CONCEPT_AFTER = {"access": "to", "sense": "of"}


def noun_before_its_concept(r: PhraseReading) -> bool:
    """ "access to mobile money", "their sense of autonomy": what is reached or felt is the concept,
    with the cue the noun had."""
    if (
        len(r.current) == 1
        and _CONCEPT_AFTER.get(r.current[0].lower()) == r.lower
        and r.following[:1].isalnum()
    ):
        r.current = []
        return True
    return False


def care_at_home(r: PhraseReading) -> bool:
    """ "hospital at home", "palliative care at home": one name of a service."""
    if r.lower == "at" and r.following == "home" and care_given(r.current):
        r.current.append(r.token)
        return True
    return False


def gerund_object_participle(r: PhraseReading) -> bool:
    """ "suppressing stimulated Brillouin scattering": a gerund's object."""
    if (
        r.lower in lex.EFFECT_VERBS
        and r.lower.endswith("ed")
        and _noun_phrase_follows(r)
        and r.current
        and len(r.current) == 1
        and gerund_of_verb(r.current[-1].lower())
    ):
        r.current.append(r.token)
        return True
    return False


def participle_adjective(r: PhraseReading) -> bool:
    """ "improved maize varieties": an effect verb's participle before a noun is its adjective."""
    if (
        r.lower in lex.EFFECT_VERBS
        and not r.current
        and r.lower.endswith("ed")
        and r.last_break in _BEFORE_A_NOUN_PHRASE
        and _noun_phrase_follows(r)
    ):
        r.current.append(r.token)  # "whether protected bike lanes", "improved maize varieties": an adjective
        return True
    return False


def comparative_adjective(r: PhraseReading) -> bool:
    """ "acute lower respiratory infections": no verb without a subject."""
    if comparative_inside_a_noun_phrase(r.current, r.lower, r.following, r.clause_open):
        r.current.append(r.token)
        return True
    return False


def noun_after_participles(r: PhraseReading) -> bool:
    """ "standardized test scores": a phrase of participles has no head yet."""
    if (
        r.current
        and all(premodifying_participle(w) for w in r.current)
        and r.lower.isalpha()
        and r.lower not in lex.EN_FUNCTION
        and not r.lower.endswith("ed")
        and r.following[:1].isalnum()
        and r.following not in lex.EN_FUNCTION
    ):
        # "standardized test scores", "targeted sequencing panels": a phrase of participles has no
        # head yet, so the word after them is a noun of it, not a verb
        r.current.append(r.token)
        return True
    return False


def test_as_noun(r: PhraseReading) -> bool:
    """ "on test scores": "test" before a noun is a noun."""
    if (
        r.lower == "test"
        and not r.current
        and r.last_break not in {"i", "we", "they", "to"}
        and is_modifier(r.following)
    ):
        r.current.append(r.token)  # "on test scores": a noun before a noun, not the verb
        return True
    return False


def noun_or_verb_as_noun(r: PhraseReading) -> bool:
    """ "social media use", "test scores": a noun here, after a noun that is not people."""
    if r.current and r.lower in lex.NOUN_OR_VERB and not is_population(r.current):
        r.current.append(r.token)  # "social media use and ...", "test scores": a noun here (people use)
        return True
    return False


def plural_noun_not_verb(r: PhraseReading) -> bool:
    """ "cyclic loading tests and ...": a verb form before a joiner is the plural noun."""
    if (
        r.current
        and r.lower in lex.PLURAL_NOUN_OR_VERB
        and (r.following in _LIST_ENDS or not r.following[:1].isalnum())
        and not is_population(r.current)
    ):
        # "cyclic loading tests and ...", "outcome measures.": a verb takes an object or a clause,
        # so with a joiner, a preposition or punctuation after it the word is the plural noun
        r.current.append(r.token)
        return True
    return False


def reduced_relative_after_people(r: PhraseReading) -> bool:
    """ "children receiving ECMO", "adults living alone": a reduced relative clause after people."""
    if (
        r.current
        and is_population(r.current)
        and singular(r.current[-1].lower()) not in lex.EN_CONDITION_HEADS
        # a singular noun before an "-ing" noun is a modifier ("child schooling outcomes"), unless
        # the "-ing" word is a known verb ("concrete containing fly ash")
        and (
            singular(r.current[-1].lower()) != r.current[-1].lower()
            or r.current[-1].lower() == "elderly"
            or verb_base(r.lower) is not None
        )
        and is_participle(r.lower)
        and any(ch.isalnum() for ch in r.following)
    ):
        r.flush()
        r.cue = r.last_break = r.lower
        return True
    return False


def participle_after_condition(r: PhraseReading) -> bool:
    """ "people with dementia living at home": a reduced relative clause."""
    if r.current and r.last_break == "with" and r.lower in lex.UNDERGOING_CUES | lex.CONDITION_PARTICIPLES:
        # "people with dementia living at home", "patients with diabetes receiving insulin": the
        # participle of what people with a condition live or go through opens a reduced relative clause
        r.flush()
        r.cue = r.last_break = r.lower
        return True
    return False


def reduced_relative_after_things(r: PhraseReading) -> bool:
    """ "trees growing in peat": a reduced relative clause after a plural noun."""
    if (
        r.current
        and is_plural_noun(r.current[-1])
        and is_participle(r.lower)
        and gerund_of_verb(r.lower)
        and r.following in lex.EN_PREPOSITIONS
    ):
        r.flush()  # "quadruped robots walking on ice", "trees growing in peat": a reduced relative clause
        r.cue = r.last_break = r.lower
        return True
    return False


def relative_after_record_noun(r: PhraseReading) -> bool:
    """ "cohort studies reporting aphasia", "trials comparing X": a relative clause."""
    if (
        r.current
        and r.current[-1].lower().split(" ")[-1] in lex.RECORD_NOUNS
        and is_participle(r.lower)
        and r.following[:1].isalnum()
    ):
        r.flush()
        r.cue = r.last_break = r.lower
        return True
    return False


def gerund_head_noun(r: PhraseReading) -> bool:
    """ "by tensile testing and DSC": the "-ing" word is the head noun."""
    if gerund_head(r.current, r.lower, r.following):
        r.current.append(r.token)  # "by tensile testing and DSC", "after damp-heat testing.": the head noun
        return True
    return False


def no_verb_after_article(r: PhraseReading) -> bool:
    """ "with repeat sales", "the study area": no verb after an article."""
    if (
        not r.current
        and (r.lower in lex.EN_VERBS or r.lower in lex.EN_COMMON_VERBS)
        and verb_here(r.tokens, r.index, r.current) is False
    ):
        r.current.append(r.token)
        return True
    return False


def bare_verb_as_noun(r: PhraseReading) -> bool:
    """ "blood lead levels": a bare verb after a singular noun is a noun here."""
    if (
        listed_verb_here(r.tokens, r.index, r.current)
        and r.current
        and not r.clause_open
        and no_agreement(r.tokens, r.index, r.current[-1], r.lower, r.following)
    ):
        r.current.append(r.token)
        return True
    return False
