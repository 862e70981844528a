"""Is this English token a verb here? One part-of-speech decision for the phrase cutter.

Why a module of its own: many English words are nouns and verbs ("cover", "change", "transport",
"healing", "use"), and word lists alone cut noun phrases at them ("continuous cover forestry", "public
transport", "healing time") or miss verbs they do not hold ("communities colonise X", "amendments
immobilise X"). No part-of-speech model can ship with the product, so the decision is made from what it
holds and from the token's place:
- MeSH's vocabulary: a word MeSH writes as a modifier (an adjective: "public") or the pair MeSH writes as
  one term ("climate change", "wound healing"); a gerund MeSH ends terms with ("healing") is a noun;
- the context: no finite verb stands right after an article, a possessive or a preposition other than
  "to" ("with repeat sales", "the study area": the word modifies the next noun); a noun phrase goes on
  after an adjective and stops before an article ("inhibitors slow the decline"); the verb of a question or clause whose subject ends in a plural noun is a bare form after it
  ("eye drops slow myopia progression"); a word whose clause verb follows it, with only nouns between, is
  a noun of the subject ("online review ratings affect X"); after "How will" the subject comes; a
  listed verb's "-s" form with no object after it, that MeSH writes in its terms, is a plural noun
  ("Klebsiella pneumoniae isolates from ICUs").
The answer is three-valued: `True` (a verb here), `False` (a noun here), `None` (the context does not
tell; callers keep their own reading).
"""

from __future__ import annotations

from agent.understanding import lexicon as lex
from agent.understanding.english_clauses import SENTENCE_END, is_clause_verb
from agent.understanding.english_tokens import starts_phrase
from agent.understanding.english_word_forms import (
    OBJECT_OPENERS,
    adjective_shaped,
    is_past_participle,
    is_plural_noun,
    mesh_compound,
)
from agent.understanding.slot_translation import embedded_vocabulary

# words that open a question whose subject comes right after them or after their auxiliary
_WH_WORDS = frozenset({"how", "which", "what", "why", "when", "where"})
# verb endings no noun has ("colonise", "immobilize", "quantify")
_VERB_ENDINGS = ("ise", "ize", "ify")
# words after which a noun phrase begins and no finite verb can stand: articles, possessives and the
# prepositions that take a noun phrase ("to" takes a verb too: "to study X"; "as" and "than" a clause)
_DETERMINERS = frozenset({"a", "an", "the", "our", "my", "their", "its", "his", "her", "your"})
_NOUN_PHRASE_OPENERS = _DETERMINERS | (lex.EN_PREPOSITIONS - {"to", "as", "using", "toward", "towards"})


def verb_here(tokens: list[str], index: int, current: list[str], clause_open: str = "") -> bool | None:
    """Whether `tokens[index]` is a verb in its place: True, False (a noun), None (not told).

    `current` holds the words of the noun phrase read so far; `clause_open` is "clause" or "question"
    while the subject of a subordinate clause or question is being read (its verb not yet found)."""
    word = tokens[index]
    lower = word.lower()
    if not (word.isalpha() and word.islower()):
        return None  # capitalised words and symbols are names, no verbs
    following = tokens[index + 1].lower() if index + 1 < len(tokens) else "."
    previous = current[-1] if current else ""
    if not current and _modifier_after_opener(tokens, index, following):
        return False  # "a hedonic model with repeat sales", "the study area": no verb after "with", "the"
    if not current and _subject_follows(tokens, index):
        return False  # "How will climate change alter X": after "How will" the subject comes
    if len(current) == 1 and _opens_sentence(tokens, index - 1) and _adjective_before_plural(previous, lower):
        return False  # "Qualitative studies welcome.": an adjective alone is no subject, so "studies" is its noun
    if len(current) == 1 and _opens_sentence(tokens, index - 1):
        previous = previous.lower()  # "Long working hours ...": a sentence's first word is capitalised
    if previous and _noun_after(previous, lower):
        return False  # "continuous cover forestry", "fare-free public transport", "climate change"
    if current and not clause_open and no_agreement(tokens, index, previous, lower, following):
        return False  # "we measure blood lead levels": a bare verb does not agree with a singular noun
    if current and _verb_ahead(tokens, index):
        return False  # "how do online review ratings affect X": the clause's verb is still ahead
    if current and _plural_head(lower, following):
        return False  # "Klebsiella pneumoniae isolates from ICUs": a verb in "-s" would take an object
    if lower.endswith("ing") and following[:1].isalpha() and _gerund_noun(lower):
        return False  # "for healing time of ulcers": a gerund MeSH writes as a noun modifies the next
    if following in OBJECT_OPENERS and (current or tokens[index - 1].lower() == "and"):
        return True  # "inhibitors slow the decline", "and fit a hedonic model": no noun before an article
    if clause_open and current and _bare_verb_after_plural(previous, lower, following):
        return True  # "Do eye drops slow myopia progression?", "Which communities colonise X?"
    return None


def no_agreement(tokens: list[str], index: int, previous: str, word: str, following: str) -> bool:
    """ "blood lead levels", "soil test results": a verb in its bare form agrees with a plural subject
    ("statins lower cholesterol"), or follows an auxiliary, a modal or "to"; after a singular count noun
    and before a content word it is a noun of the phrase. Nouns that take a plural verb though singular
    in form ("data", "staff", "cattle") and verbs after a causative ("help the patient manage pain") keep
    their reading."""
    before_noun = {t.lower() for t in tokens[max(index - 3, 0) : index - 1]}
    return (
        previous.isalpha()
        and previous.islower()
        and not is_plural_noun(previous)
        and previous not in _PLURAL_IN_SENSE
        and previous not in lex.EN_FUNCTION
        and not previous.endswith(("ing", "ed", "ly"))
        and word.isalpha()
        and not word.endswith(("s", "ed", "ing"))
        and word not in lex.EN_PAST_FORMS
        and following[:1].isalpha()
        and starts_phrase(following)
        and following not in lex.EN_COMMON_VERBS
        and not before_noun & _CAUSATIVES
    )


# nouns singular in form that take a plural verb ("the data show", "staff use")
_PLURAL_IN_SENSE = frozenset(
    {"data", "staff", "police", "cattle", "livestock", "poultry", "personnel", "media", "people", "public"}
)
# verbs whose object is followed by a bare infinitive ("help the patient manage pain")
_CAUSATIVES = frozenset(
    {"help", "helps", "helped", "helping", "let", "lets", "make", "makes", "made", "making"}
)


def _modifier_after_opener(tokens: list[str], index: int, following: str) -> bool:
    """ "with repeat sales", "the study area", "a plan view": a word right after an article, a possessive or
    a preposition and before a content word is no verb (a finite verb never follows them, and a bare
    infinitive only after "to") but a noun modifying the next noun. Its "-ing" and "-ed" forms are left to
    the verb readings after a preposition ("by measuring X", "with measured values")."""
    word = tokens[index].lower()
    opener = tokens[index - 1].lower() if index > 0 else ""
    return (
        opener in _NOUN_PHRASE_OPENERS
        and word not in lex.EN_FUNCTION
        # after an article or a possessive no verb form stands at all: "their working hours", "the
        # measured values"
        and (opener in _DETERMINERS or not word.endswith(("ing", "ed")))
        and following.isalpha()
        and starts_phrase(following)
    )


def _subject_follows(tokens: list[str], index: int) -> bool:
    """ "How will climate change ...", "What do farmers ...": a wh-word and an auxiliary or modal open
    the question, so the word after them begins its subject. A past participle after a form of "be" and
    before a function word is the question's passive verb ("What is known about X", "What was reported
    in Y"), not its subject."""
    if index < 2:
        return False
    previous = tokens[index - 1].lower()
    if previous in lex.BE_FORMS and _passive_participle(tokens, index):
        return False
    return previous in lex.QUESTION_AUXILIARIES and tokens[index - 2].lower() in _WH_WORDS


def _passive_participle(tokens: list[str], index: int) -> bool:
    """A past participle followed by a function word or the end of the clause ("known about", "needed.")."""
    following = tokens[index + 1].lower() if index + 1 < len(tokens) else "."
    return is_past_participle(tokens[index].lower()) and (
        following in lex.EN_FUNCTION or not any(ch.isalnum() for ch in following)
    )


def _noun_after(previous: str, word: str) -> bool:
    """A word after an adjective ("public", "continuous") or as the head of a pair MeSH writes as one
    term ("climate change") heads the noun phrase: an adjective modifies a noun, not a verb."""
    # an adjective before a verb's "-s" or "-ed" form is a noun's ("the pandemic changed X")
    noun_shaped = not is_plural_noun(word) and not word.endswith("ed")
    return (noun_shaped and is_adjective(previous)) or mesh_compound(previous, word)


def _opens_sentence(tokens: list[str], index: int) -> bool:
    return index == 0 or tokens[index - 1] in SENTENCE_END


def _adjective_before_plural(adjective: str, word: str) -> bool:
    """An adjective opening a sentence and a plural "-s" form after it ("Qualitative studies", "Randomised
    trials"): the plural is the noun the adjective modifies (a sentence's subject is no bare adjective)."""
    return is_plural_noun(word) and is_adjective(adjective.lower())


def is_adjective(word: str) -> bool:
    """A lower-case word shaped like an adjective ("continuous") or one MeSH writes only as a modifier
    ("public")."""
    if not (word.isalpha() and word.islower()):
        return False
    vocabulary = embedded_vocabulary()
    return adjective_shaped(word) or (vocabulary is not None and vocabulary.is_modifier(word))


def _verb_ahead(tokens: list[str], index: int) -> bool:
    """An effect verb a word or two ahead, with only nouns between, is the clause's verb, so the word
    read now ("review", which may be a verb) is a noun of its subject."""
    for ahead in tokens[index + 1 : index + 4]:
        lower = ahead.lower()
        if lower in lex.EFFECT_VERBS:
            return True
        if not lower.isalpha() or lower in lex.EN_FUNCTION:
            return False
    return False


def _gerund_noun(word: str) -> bool:
    """An "-ing" word MeSH ends terms with ("healing" in "Wound Healing", "smoking"): a noun."""
    vocabulary = embedded_vocabulary()
    return vocabulary is not None and vocabulary.is_head_word(word)


def _plural_head(word: str, following: str) -> bool:
    """ "isolates", "concentrates", "approaches" after a noun and before a preposition, "and" or the end:
    a transitive verb's third person takes its object right after it, so with none the "-s" form that
    MeSH writes inside its terms is a plural noun heading the phrase (a verb of change may stand alone:
    "X increases in winter")."""
    no_object = not following[:1].isalnum() or following in lex.EN_PREPOSITIONS or following in {"and", "or"}
    vocabulary = embedded_vocabulary()
    return (
        no_object
        and following != "at"  # "my project looks at X": a verb's own preposition
        and vocabulary is not None
        and vocabulary.knows_word(word)  # MeSH writes it in a term: "isolates", not "responds"
        and word.endswith("s")
        and is_plural_noun(word)
        and word not in lex.EFFECT_VERBS
        and word not in lex.CHANGE_VERBS
        and word not in lex.EN_TASK_VERBS_THIRD
    )


def _bare_verb_after_plural(previous: str, word: str, following: str) -> bool:
    """ "amendments immobilise cadmium", "drops slow myopia progression": in a clause whose verb is
    still to come, a lower-case bare word after a plural noun, with a noun after it, is the verb (a
    plural noun rarely modifies the next noun, unless MeSH writes the pair: "sports medicine")."""
    return (
        is_plural_noun(previous)
        and previous[:1].islower()
        and not is_plural_noun(word)
        and not word.endswith(("ing", "ed", "ly"))
        and word not in lex.EN_FUNCTION
        and following[:1].isalpha()
        and following not in lex.EN_FUNCTION
        and not mesh_compound(previous, word)
        and (word.endswith(_VERB_ENDINGS) or not _names_a_term(previous, word))
    )


# bare verbs that follow a plural noun as the head of a compound far more often than as its verb
# ("health services use", "public services change"): their reading is left to the other rules
_COMPOUND_HEADS_AFTER_PLURALS = frozenset({"use", "change"})


def main_verb_after_plural(tokens: list[str], index: int, current: list[str]) -> bool:
    """ "Dental examinations follow ICDAS criteria", "nurses in district hospitals report X", "children
    in rural schools learn to read": in a main clause as in a question, a bare verb after a plural noun
    agrees with it as its subject (a verb in "-s" would not), and a plural noun rarely modifies the next
    word unless MeSH writes the pair ("sales tax"). The word must be mainly a verb (CC-CEDICT glosses it
    so: `is_clause_verb`) and have something after it, a preposition or the start of its object."""
    if not current or index + 1 >= len(tokens):
        return False
    previous, word, following = current[-1].lower(), tokens[index], tokens[index + 1].lower()
    return (
        word.isalpha()
        and word.islower()
        and not word.endswith(("s", "ed", "ing", "ly"))
        and word not in lex.EN_FUNCTION
        and word not in _COMPOUND_HEADS_AFTER_PLURALS
        # a verb of effect or change has its own rule, which makes its subject the exposure
        and word not in lex.EFFECT_VERBS
        and word not in lex.CHANGE_VERBS
        and is_clause_verb(word)
        and is_plural_noun(previous)
        and not mesh_compound(previous, word)
        and not _names_a_term(previous, word)
        and following.isalpha()
        and following != "of"
        and (following in lex.EN_PREPOSITIONS or following not in lex.EN_FUNCTION)
    )


def _names_a_term(previous: str, word: str) -> bool:
    """MeSH knows `word` as a term's head or writes the pair: "patients ... care" stays a noun."""
    vocabulary = embedded_vocabulary()
    return vocabulary is not None and (vocabulary.knows(f"{previous} {word}") or vocabulary.knows(word))
