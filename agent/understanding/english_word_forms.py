"""Which English word is a verb, a participle, an adverb or an adjective by its form and place.

The phrase cutter (`english_phrases`) asks these questions of each token before it decides where a noun
phrase ends; they need only the word, its neighbours and the word classes of `lexicon` (and CC-CEDICT's
verbs through `english_clauses.is_clause_verb`, MeSH through the embedded vocabulary), never a domain
dictionary: "-ed" and "-ing" forms, the verb after plural people, a second verb after "and", a question's
opening auxiliary, contractions. Whether a word is a verb in its place, from all of these and MeSH, is
`english_pos.verb_here`.
"""

from __future__ import annotations

import re

from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.english_clauses import is_clause_verb
from agent.understanding.english_tokens import starts_phrase
from agent.understanding.slot_evidence import is_population
from agent.understanding.slot_translation import embedded_vocabulary


def premodifying_participle(word: str) -> bool:
    """A lower-case past participle ("standardized", "controlled") that can stand before a noun."""
    return word.isalpha() and word.islower() and word.endswith("ed") and len(word) > 5


def after_people(current: list[str], word: str) -> bool:
    """ "whether bilingual children process X": people in the plural modify no noun after them, so
    the lower-case singular word that follows them is their verb."""
    return (
        is_population(current)
        and is_plural_noun(current[-1])
        and singular(current[-1].lower()) not in lex.EN_CONDITION_HEADS
        and not not_people_head(current[-1])
        and word.isalpha()
        and word.islower()
        and singular(word) == word
        and not word.endswith(("ing", "ed"))
        and word not in lex.EN_FUNCTION
    )


def not_people_head(word: str) -> bool:
    return singular(word.lower()) in lex.EN_NOT_PEOPLE


def second_verb(tokens: list[str], index: int, last_break: str | None, following: str) -> bool:
    """True for "classify" in "We will record hits and classify crack growth stages": after "and", in
    a sentence whose subject and verb came before it (a subject pronoun, a modal or "to"), a task verb's
    base form is a second verb of that subject. One that is as often a noun ("map", "count",
    "estimate") is a verb only before an article ("and map the flooded area")."""
    if last_break != "and" or not following[:1].isalnum():
        return False
    word = tokens[index].lower()
    if word in lex.NOUN_TASK_VERBS and following not in OBJECT_OPENERS:
        return False
    start = index
    while start > 0 and tokens[start - 1] not in {".", "?", "!", ";", ":", "|"}:
        start -= 1
    return any(t.lower() in lex.TASK_VERB_SUBJECTS for t in tokens[start:index])


# what opens a verb's object: a noun phrase holds no article after its first word, so a word with
# one of these right after it ("inhibitors slow the decline") is a verb (`english_pos.verb_here`)
OBJECT_OPENERS = frozenset({"the", "a", "an", "it", "them", "its", "their", "this", "these"})


def is_comparative(word: str) -> bool:
    """ "rather", "better", "smaller", "cheaper": a comparative before "than"."""
    return word == "rather" or word in lex.COMPARATIVES or (word.endswith("er") and len(word) > 4)


def is_adverb(word: str, following: str, after_next: str) -> bool:
    """A sentence adverb or an "-ly" adverb that does not modify the noun phrase after it."""
    return word in lex.SENTENCE_ADVERBS or (
        word.endswith("ly")
        and len(word) > 5
        and word not in lex.LY_NOT_ADVERBS
        and not (is_modifier(following) and starts_phrase(after_next))
    )


ADJECTIVE_SUFFIXES = ("ible", "able", "ous", "ive", "ful", "less", "ic", "ical", "al", "ary", "ory")


def adjective_shaped(word: str) -> bool:
    """A lower-case word with an adjective's suffix ("plausible", "renal", "genetic") that MeSH does not
    know as a term of its own."""
    if not (word.isalpha() and word.islower() and len(word) > 4 and word.endswith(ADJECTIVE_SUFFIXES)):
        return False
    vocabulary = embedded_vocabulary()
    return vocabulary is None or not vocabulary.knows(word)


def ing_bases(word: str) -> tuple[str, ...]:
    """The base forms an "-ing" word may have: "containing" -> contain, "living" -> live, "running" ->
    run (a doubled last consonant dropped)."""
    stem = word[:-3]
    doubled = (stem[:-1],) if len(stem) > 2 and stem[-1] == stem[-2] else ()
    return (stem, stem + "e", *doubled)


def gerund_of_verb(word: str) -> bool:
    """ "arresting", "lowering", "shading": an "-ing" form of a word that is mainly a verb."""
    return len(word) > 5 and any(is_clause_verb(b) for b in ing_bases(word))


def is_plural_noun(word: str) -> bool:
    """A plural noun ("schemes", "reefs"): the subject of a verb in its base form."""
    lower = word.lower()
    return lower.isalpha() and singular(lower) != lower


def is_modifier(word: str) -> bool:
    """A content word that is no verb of the lists (what an adverb before a noun phrase modifies)."""
    return word.isalpha() and starts_phrase(word) and word not in lex.EN_COMMON_VERBS


def counted_place(word: str) -> bool:
    """A plural noun of where samples are taken ("villages", "locations", "sites"): after a count it
    gives the size of the sample, not a concept (people and organisms stay: "40 mice")."""
    return word.isalpha() and singular(word) != word and singular(word) in lex.SAMPLING_PLACES


def is_past_participle(word: str) -> bool:
    """ "isolated", "added", "mixed": an "-ed" word (of five letters or more; "-eed" words of five are
    nouns: "breed", "speed"); of four letters only when it opens with a vowel, the "-d" of a verb of three
    ("aged", "owed", "iced", "eyed"), since the others are as often nouns ("shed", "sled", "seed")."""
    return word in lex.IRREGULAR_PARTICIPLES or (
        word.isalpha()
        and (
            len(word) > 5
            or (len(word) == 5 and not word.endswith("eed"))
            or (len(word) == 4 and word[0] in "aeiou" and not word.endswith("eed"))
        )
        and word.endswith("ed")
        and word not in lex.ED_NOT_PARTICIPLES
    )


def verb_not_term(word: str) -> bool:
    """An "-ing" form of a verb ("adjusting", "accounting", "relying") that names no term: no task or
    measurement gerund, and no MeSH term ("smoking", "bleeding" are terms)."""
    if word in lex.EN_VERBS or word in lex.EN_COMMON_VERBS:
        return False  # read as verbs below, with the cues they give ("working on X": the topic)
    if not is_participle(word) or not gerund_of_verb(word):
        return False
    vocabulary = embedded_vocabulary()
    return vocabulary is None or not vocabulary.knows(word)


def verb_base(word: str) -> str | None:
    """The base form of an "-ing" word when it is one of the verb lists ("containing" -> "contain",
    "living" -> "live", "running" -> "run"), else None."""
    if not word.endswith("ing") or len(word) < 6:
        return None
    for base in ing_bases(word):
        if base in lex.EN_COMMON_VERBS or base in lex.EN_VERBS or base in lex.EFFECT_VERBS:
            return base
    return None


def is_participle(word: str) -> bool:
    """A present participle of a verb ("receiving", "living"): a gerund that heads no term here."""
    return (
        word.isalpha()
        and len(word) > 5
        and word.endswith("ing")
        and word not in lex.EN_TASK_GERUNDS
        and word not in lex.EN_TASK_HEADS
        and word not in lex.EN_MEASUREMENT_HEADS
        and not word.endswith(lex.EN_MEASUREMENT_SUFFIXES)
    )


def question_opener(tokens: list[str], index: int) -> bool:
    """True when the sentence holding `tokens[index]` opens with an auxiliary ("Can", "Does"): a
    question, whose main verb comes after its subject."""
    start = index
    while start > 0 and tokens[start - 1] not in {".", "?", "!", ";", ":", "|"}:
        start -= 1
    return tokens[start].lower() in lex.QUESTION_AUXILIARIES


def is_contraction(word: str) -> bool:
    """ "I'm", "we're", "don't", "it's": pronouns and auxiliaries with a clitic are never terms."""
    return bool(re.fullmatch(r"(?:i|we|you|they|he|she|it|that|there|what)'(?:m|re|s|ve|ll|d)|\w+n't", word))


def verb_ending_subject(current: list[str], word: str, following: str, clause_open: str) -> bool:
    """True for the verb after the subject of a subordinate clause or question ("whether e-scooter
    schemes replace car trips", "Does hot-spot policing displace crime", "whether the microbiome
    predicts sepsis"). A plural subject or a question's "do" takes the base form ("schemes replace"),
    a singular one the third person ("Code Llama fixes"), so a plural noun is no verb after them; a
    task verb in the third person ("predicts", "detects") that is no plural noun ("maps", "counts")
    is the verb after a singular subject."""
    if not (clause_open and current and following[:1].isalnum()) or word in lex.NOUN_OR_VERB:
        return False
    plural_subject = is_plural_noun(current[-1])
    if not plural_subject and _third_person_task_verb(word):
        return True
    if not (clause_open == "question" or plural_subject or current[-1][:1].isupper()):
        return False
    if clause_open == "question" and _inflected(word):
        return False  # after "Does"/"Can" the verb is bare ("Can machine learning predict X")
    # "Do urban great tits sing at ...": in a question, a word after a plural subject and before a
    # preposition is the bare verb (a noun after a plural noun would head a compound, and be plural)
    bare_in_question = (
        clause_open == "question"
        and plural_subject
        and following in lex.EN_PREPOSITIONS
        and word.isalpha()
        and word.islower()
        and len(word) > 2
        and not is_plural_noun(word)
        and not mesh_compound(current[-1], word)
    )
    if not (is_clause_verb(word) or after_people(current, word) or bare_in_question):
        return False
    # "replaces" or "trips", not "process"
    return not (
        (clause_open == "question" or plural_subject)
        and is_plural_noun(word)
        and word not in lex.EFFECT_VERBS
    )


def _inflected(word: str) -> bool:
    """An "-ing" or "-ed" form: its stem has a vowel ("using", "sampled"; not "sing", "bring", "shed")."""
    for ending in ("ing", "ed"):
        if word.endswith(ending) and any(v in word[: -len(ending)] for v in "aeiouy"):
            return True
    return False


def _third_person_task_verb(word: str) -> bool:
    """ "predicts", "detects", "classifies": a task verb's third person that is no plural noun ("maps",
    "forecasts", "estimates" name things too)."""
    if word not in lex.EN_TASK_VERBS_THIRD:
        return False
    return not any(word in {base + "s", base + "es"} for base in lex.NOUN_TASK_VERBS)


def mesh_compound(previous: str, word: str) -> bool:
    """True when MeSH writes the two words as one term ("climate change", "weight gain"): the second
    is then the compound's head noun, not a verb ("climate change scenarios")."""
    vocabulary = embedded_vocabulary()
    text = f"{previous} {word}"
    matches = vocabulary.recognize(text) if vocabulary is not None else []
    return bool(matches) and matches[-1].text.lower() == text.lower()
