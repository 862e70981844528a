"""Roles given to phrases already cut, when a later word shows what they were (English phrase cutter).

A verb shows its subject (`verb_subject`, with the phrases coordinated with it: `conjuncts`); a task verb
makes its subject a predictor or a test (`task_subject`); what a question judges accurate is a test
(`judged_test`); people who act on other people deliver the intervention (`deliverers`,
`people_acting_on_people`).
"""

from __future__ import annotations

from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.english_word_forms import (
    gerund_of_verb,
    ing_bases,
    is_past_participle,
)
from agent.understanding.phrase import Phrase
from agent.understanding.slot_evidence import (
    agent_plural,
    cue_slot,
    en_head_slot,
    is_population,
    mesh_kind,
)


def people(words: list[str]) -> bool:
    """A phrase naming people or other living beings: a population head or a plural agent noun."""
    return is_population(words) or agent_plural(words[-1])


def deliverers(
    phrases: list[Phrase], words: list[str], cue: str | None, after: str | None, stop: int
) -> None:
    """The people who deliver an intervention, as a setting phrase; a gerund before them ("training
    community pharmacists to ...") is what is done to them, no word of who they are."""
    first = words[0].lower()
    if (
        len(words) > 1
        and first.endswith("ing")
        and (gerund_of_verb(first) or any(b in lex.DELIVERING_VERBS for b in ing_bases(first)))
    ):
        words = words[1:]
    phrases.append(Phrase(" ".join(words), cue, list(words), "context", after=after, stop=stop))


def people_acting_on_people(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "Do school nurses reduce absenteeism among pupils with asthma?": people who are the subject of
    an effect verb (the exposure) while other people in the same sentence are those it acts on deliver
    the intervention; they are its setting, and the others are studied."""
    ends = [i for i, t in enumerate(tokens) if t in {".", "?", "!", ";"}]

    def sentence(phrase: Phrase) -> int:
        return sum(1 for end in ends if end < phrase.stop)

    acted_on = {
        sentence(p)
        for p in phrases
        if (p.slot == "subject_population" or p.cue in lex.PEOPLE_CUES)
        and is_population(p.words)
        and singular(p.words[-1].lower()) not in lex.EN_NOT_PEOPLE  # "in noisy restaurants", "in schools"
    }
    for phrase in phrases:
        if (
            phrase.cue == "exposure"
            and phrase.slot is None
            and people(phrase.words)
            and sentence(phrase) in acted_on
            and singular(phrase.words[-1].lower()) not in lex.EN_CONDITION_HEADS
        ):
            phrase.slot = "context"


def judged_test(phrase: Phrase) -> None:
    """What a question judges accurate, reliable or valid is a test or a measure, when neither its head
    word nor MeSH names its kind ("Is lung ultrasound accurate for X"; "Is the PHQ-9 valid in X" keeps
    the slot its own words give)."""
    if phrase.slot is None and en_head_slot(phrase.words) is None and mesh_kind(phrase.text) is None:
        phrase.slot = "method_measurement"


# prepositions that attach a phrase to the noun before it ("walls along coasts", "the diet of farmers")
MODIFIER_CUES = lex.EN_PREPOSITIONS | {
    "of",
    "along",
    "around",
    "near",
    "beside",
    "alongside",
    "beneath",
    "below",
    "above",
}


def verb_subject(phrases: list[Phrase], clause_first: int) -> Phrase | None:
    """The head of the subject of a verb just read: the phrase before it, or, when the phrases after
    the first of its clause are all modifiers of it (a preposition or a participle before each: "cover
    crops grown between maize seasons increase X"), that first phrase."""
    if not phrases:
        return None
    first = clause_first if 0 <= clause_first < len(phrases) - 1 else len(phrases) - 1
    modifiers = phrases[first + 1 :]
    if modifiers and all(
        p.cue is not None and (p.cue in MODIFIER_CUES or is_past_participle(p.cue)) for p in modifiers
    ):
        return phrases[first]
    return phrases[-1]


def conjuncts(phrases: list[Phrase], subject: Phrase | None, clause_first: int) -> list[Phrase]:
    """The subject of a verb with the phrases coordinated with it before it in its clause ("how
    protected and painted bike lanes affect X", "whether diet and exercise reduce X": each acts on X)."""
    if subject is None:
        return []
    index = next(i for i, p in enumerate(phrases) if p is subject)
    parts = [subject]
    # "how fatigue and time on duty affect X": a modifier ("on duty") leads back to its head ("time")
    while index > max(clause_first, 0) and (
        phrases[index].after in {"and", "or"} or phrases[index].after in MODIFIER_CUES
    ):
        index -= 1
        parts.append(phrases[index])
    return parts


def subject_before(phrase: Phrase, verb_start: int) -> bool:
    """True when `phrase` ends right where the verb (or its modal) starts and nothing gave it a role:
    it is the verb's subject ("Lung ultrasound may diagnose X", not "we may diagnose X")."""
    return phrase.stop == verb_start and phrase.cue in _NO_ROLE_CUES and phrase.slot is None


# what may stand before a verb's subject without giving it a role ("whether X predicts Y")
_NO_ROLE_CUES = frozenset({None, "whether", "if", "that"})


# tasks whose subject, when a modal joins them, is the test that does the task ("Lung ultrasound may
# diagnose heart failure", "Serum ferritin could identify X") or what it predicts from ("Step counts
# might predict falls", as in the question "Can X predict Y?")
_TESTING_TASKS = frozenset({"detection", "diagnosis", "screening", "identification", "classification"})
PREDICTING_TASKS = frozenset({"prediction", "forecasting"})


def task_subject(phrase: Phrase, task_noun: str) -> None:
    """Give the subject of a task verb the role that task gives it: a predictor (whose own head word
    still decides, as after the question "Can X predict Y?"), or a test when its own words say nothing
    else."""
    if task_noun in PREDICTING_TASKS:
        phrase.cue = "predictor"
    elif (
        task_noun in _TESTING_TASKS and en_head_slot(phrase.words) is None and mesh_kind(phrase.text) is None
    ):
        phrase.slot = "method_measurement"


def cue_unmarked(parts: list[Phrase], cue: str) -> None:
    """Give `cue` to each of `parts` that nothing has given a role yet (no slot, no cue that names one):
    the subject a verb shows to be the exposure or the outcome ("whether diet and exercise reduce X")."""
    for part in parts:
        if part.slot is None and cue_slot(part.cue, False) is None:
            part.cue = cue
