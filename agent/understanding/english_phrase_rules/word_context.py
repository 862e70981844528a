"""Tests of one English word in its place, asked by the phrase cutter's rules (`english_phrases`).

Each says what a word is *here* from its neighbours: an age range after "aged", a verb inside a title-case
name, a degree word after "how", a comparative that is an adjective inside a noun phrase. They read
words, never the cutter's state, so each can be tested alone.
"""

from __future__ import annotations

import re

from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.english_clauses import is_clause_verb
from agent.understanding.english_pos import verb_here
from agent.understanding.english_tokens import starts_phrase
from agent.understanding.english_word_forms import (
    is_comparative,
    is_participle,
    is_past_participle,
    is_plural_noun,
    question_opener,
)
from agent.understanding.phrase import Phrase
from agent.understanding.slot_evidence import (
    ending_trees,
    is_population,
)
from agent.understanding.slot_translation import embedded_vocabulary

# words that open an age range after "aged" ("aged between 5 and 11", "aged over 65")
AGE_OPENERS = frozenset({"between", "over", "under", "from", "above", "below", "at", "up"})
# words inside an age range ("13 to 17 years", "65 and over", "18 or older", "6-11 months")
_AGE_SPAN_WORDS = AGE_OPENERS | frozenset(
    {"to", "and", "or", "-", "–", "years", "year", "months", "month", "weeks", "old", "older", "younger"}
)


def age_number(word: str) -> bool:
    """ "13", "6-11", "65+": a number or a numeric range."""
    return bool(re.fullmatch(r"\d[\d.,]*(?:[-–]\d[\d.,]*)?\+?", word))


def age_span_end(tokens: list[str], start: int) -> int:
    """The index right after the age range that starts at `start` ("13 to 17", "between 5 and 11 years")."""
    end = start
    while end < len(tokens) and (age_number(tokens[end]) or tokens[end].lower() in _AGE_SPAN_WORDS):
        end += 1
    while end > start and tokens[end - 1].lower() in {"and", "or", "to", "at"}:
        end -= 1  # "aged 65 and over and women": a joiner after the range joins what follows
    return end


def inflected_form(word: str) -> bool:
    """An "-ing", "-ed" or "-s" form of a verb (not the bare form an effect verb's object could hold)."""
    return word.endswith(("ing", "ed", "s")) and len(word) > 4


def bare_verb(word: str, following: str) -> bool:
    """A word alone between a relative "who" and the clause's end is its verb ("adults who smoke?",
    "children who stutter."), unless it is a function word, an adverb or an auxiliary."""
    return (
        word.isalpha()
        and word not in lex.EN_FUNCTION
        and word not in lex.BE_FORMS
        and word not in lex.MODALS
        and word not in {"do", "does", "did", "have", "has", "had"}
        and not word.endswith("ly")
        and not following[:1].isalnum()
    )


def inside_a_title(token: str, current: list[str], following: str) -> bool:
    """ "Glasgow Composite Measure Pain Scale", "Patient Health Questionnaire": a capitalised word between
    capitalised words of a phrase is a word of a name written in title case, even a verb of the lists."""
    return (
        token.isalpha()
        and token.istitle()
        and bool(current)
        and current[-1][:1].isupper()
        and current[-1][:1].isalpha()
        and following.isalpha()
        and following.istitle()
        and token.lower() not in lex.EN_FUNCTION
    )


def title_case_sentence(tokens: list[str], index: int) -> bool:
    """The sentence around `tokens[index]` is written in title case (a review title: "Exercise Training
    Improves Pain in Older Adults"), where capitals mark no name: most of its content words are
    capitalised."""
    start = index
    while start > 0 and tokens[start - 1] not in _SENTENCE_ENDS:
        start -= 1
    end = index
    while end < len(tokens) and tokens[end] not in _SENTENCE_ENDS:
        end += 1
    words = [t for t in tokens[start:end] if t.isalpha() and t.lower() not in lex.EN_FUNCTION]
    return bool(words) and sum(w[:1].isupper() for w in words) * 2 > len(words)


_SENTENCE_ENDS = frozenset({".", "?", "!", ";", ":"})
SENTENCE_STARTS = _SENTENCE_ENDS | {""}  # the token before a sentence's first ("" at the text's start)


def modifies_next(word: str, following: str) -> bool:
    """ "link workers", "effect sizes", "impact assessment": an effect noun takes what it is of or on
    after a preposition ("the link between X and Y", "effects on X"), so one with a content word right
    after it is a noun modifying that word, and the two are one noun phrase. A singular effect noun
    before a plural one is the modifier ("link workers"); "effects sizes" is no English compound, so a
    plural effect noun keeps its reading ("impacts" before a noun is the verb)."""
    return (
        singular(word) == word
        and following[:1].isalpha()
        and starts_phrase(following)
        and following not in lex.EFFECT_WORDS
        and following not in lex.EN_COMMON_VERBS
    )


def care_given(current: list[str]) -> bool:
    """The words read so far name care or a treatment: MeSH files them under health care services and
    facilities (N02: "hospital", "palliative care") or therapeutics (E02: "rehabilitation"), so "at
    home" after them names where that care is given as one service ("hospital at home")."""
    if not current:
        return False
    return any(t.startswith(("N02", "E02")) for t in ending_trees(" ".join(current)))


def gerund_head(current: list[str], word: str, following: str) -> bool:
    """ "tensile testing and X", "damp-heat testing.", "tensile testing will quantify": an "-ing" word
    after a singular modifier with the phrase's end right after it (punctuation, "and", "or", a modal)
    has no object, so it is no verb but the noun the modifier modifies (people doing something are
    plural: "children walking and ...")."""
    return (
        bool(current)
        and word.endswith("ing")
        and len(word) > 5
        and word.isalpha()
        and word not in lex.EN_FUNCTION
        and (not following[:1].isalnum() or following in {"and", "or"} or following in lex.MODALS)
        and not is_plural_noun(current[-1])
        and not is_population(current)
    )


def verb_after_modifier(current: list[str], word: str, following: str, in_modifier: bool) -> bool:
    """ "whether irrigation scheduling with soil moisture probes saves water": in a clause whose subject
    was read before a preposition, the plural noun just read ends a modifier of that subject, not the
    subject, so the word in "-s" after it that is a verb (followed by a noun phrase, not a preposition)
    agrees with the subject and ends it."""
    return (
        in_modifier
        and bool(current)
        and is_plural_noun(current[-1])
        and word.endswith("s")
        and is_clause_verb(word)
        and word not in lex.NOUN_OR_VERB
        and following[:1].isalnum()
        and following not in lex.EN_PREPOSITIONS
    )


def named_by_mesh(words: list[str]) -> bool:
    """Whether MeSH names the phrase as a whole ("cognitive decline": an entry term of Cognitive
    Dysfunction): then it is a concept, not a change of what follows "in" ("in older adults")."""
    vocabulary = embedded_vocabulary()
    return len(words) > 1 and vocabulary is not None and vocabulary.knows(" ".join(words))


def opens_question(tokens: list[str], index: int, clause: list[Phrase]) -> bool:
    """ "Does X ...?", "Can X ...?", "How do X ...?", "How will X ...?", "What role do X play?": an
    auxiliary or modal before the subject of a question (no phrase of the clause read yet), whose verb
    follows the subject."""
    before = tokens[index - 1].lower() if index else ""
    return not clause and (
        question_opener(tokens, index) or before == "how" or _after_question_word(tokens, index)
    )


# question words that open a sentence and, with the noun they ask about, come before its auxiliary
_QUESTION_WORDS = frozenset({"what", "which", "why", "where", "when"})
_SENTENCE_BREAKS = frozenset({".", "?", "!", ";", ":"})


def _after_question_word(tokens: list[str], index: int) -> bool:
    """ "Why do X ...", "What role do X play", "Which factors did X ...": the auxiliary comes right after
    the question word that opens the sentence, or after it and the one noun it asks about."""
    for at in (index - 1, index - 2):
        if at < 0 or not tokens[at].isalpha():
            return False
        if tokens[at].lower() in _QUESTION_WORDS:
            return at == 0 or tokens[at - 1] in _SENTENCE_BREAKS
    return False


# the auxiliary of a question with "do": its subject follows, then the verb in its base form
_DO_FORMS = frozenset({"do", "does", "did"})


def degree_word(word: str, following: str, after_next: str) -> bool:
    """After "how", the adjective or adverb of a degree question ("How accurate are smartphone apps",
    "how common is burnout", "how much does X cost"): a form of "be" or "do" follows it, then the
    subject. Not the subject of a clause ("how farmers are adapting", "how health is perceived", "how AI
    can improve X"): a plural noun, a word whose auxiliary is followed by a participle, a modal's subject."""
    return (
        word.isalpha()
        and word.islower()
        and following in lex.BE_FORMS | {"do", "does", "did"}
        and not is_plural_noun(word)
        and not (is_past_participle(after_next) or is_participle(after_next))
    )


def relying_gerund(word: str) -> bool:
    return word.endswith("ing") and word in lex.RELYING_BEFORE_ON


def comparator(word: str, last_break: str | None, compare_open: bool) -> bool:
    """The word that opens what something is compared with: "with"/"to"/"against" after a verb of
    comparing ("compare X with Y", "compared to Y"), "of" after "instead", "than" after "rather"."""
    return (
        (word in {"with", "to", "against"} and compare_open)
        or (word == "of" and last_break == "instead")
        or (word == "than" and last_break is not None and is_comparative(last_break))
    )


def comparative_inside_a_noun_phrase(current: list[str], word: str, following: str, clause_open: str) -> bool:
    """ "acute lower respiratory infections": an effect verb shaped like a comparative ("lower") between
    a singular word of the noun phrase and another content word is the adjective, for a bare verb there
    would need a plural subject ("statins lower cholesterol") or a question ("Does X lower the risk")."""
    return (
        word in lex.EFFECT_VERBS
        and word.endswith("er")
        and bool(current)
        and not clause_open
        and current[-1].isalpha()
        and current[-1].islower()
        and not is_plural_noun(current[-1])
        and following.isalpha()
        and following not in lex.EN_FUNCTION
        and starts_phrase(following)
    )


def listed_verb_here(tokens: list[str], index: int, current: list[str]) -> bool:
    """A verb of the lexicon's lists, in its place: a common verb's past form opens no phrase (it may be
    an adjective: "improved maize"), and a listed verb's "-s" form that is a plural noun in its place
    ("Klebsiella isolates from X") or "-ing" form after an adjective ("long working hours") is no verb."""
    lower = tokens[index].lower()
    if (
        index
        and not current
        and tokens[index - 1].lower() in _DO_FORMS
        and opens_question(tokens, index - 1, [])
    ):
        # "What role do thought experiments play": the word after a question's "do" opens its subject
        return False
    if _plural_in_do_question(tokens, index, current):
        return False
    if lower in lex.PREPOSITIONAL_PAST_FORMS and _content_word_after(tokens, index):
        # "MRI-guided focused ultrasound", "focused attention": a verb that takes its topic after a
        # preposition ("focused on X") has no object, so before a noun its past form is an adjective
        return False
    common_verb = lower in lex.EN_COMMON_VERBS and (bool(current) or lower not in lex.EN_PAST_FORMS)
    return (lower in lex.EN_VERBS or common_verb) and not (
        (lower.endswith("s") or _gerund_before_noun(tokens, index))
        and verb_here(tokens, index, current) is False
    )


def _content_word_after(tokens: list[str], index: int) -> bool:
    """The token after `index` is a content word that may go on a noun phrase (no function word, verb
    or punctuation)."""
    following = tokens[index + 1] if index + 1 < len(tokens) else "."
    return following.isalpha() and starts_phrase(following.lower())


def _plural_in_do_question(tokens: list[str], index: int, current: list[str]) -> bool:
    """ "What do dispersion measures tell us", "Do crop rotations affect yield": after a question's
    "do", "does" or "did" and the words of its subject read so far, the verb comes in its base form, so
    a word in "-s" (not "-ss") is the plural noun that ends the subject, never a verb's third person."""
    lower = tokens[index].lower()
    do_at = index - len(current) - 1
    return (
        bool(current)
        and lower.endswith("s")
        and not lower.endswith("ss")
        and do_at >= 0
        and tokens[do_at].lower() in _DO_FORMS
        and opens_question(tokens, do_at, [])
    )


def _gerund_before_noun(tokens: list[str], index: int) -> bool:
    """An "-ing" form followed by a content word ("long working hours"), which `verb_here` may then
    read as a noun modifier after an adjective; before a number or a function word ("a trial comparing
    10 weeks of X") it stays a verb."""
    following = tokens[index + 1] if index + 1 < len(tokens) else "."
    return (
        tokens[index].lower().endswith("ing")
        and following.isalpha()
        and following.lower() not in lex.EN_FUNCTION
    )
