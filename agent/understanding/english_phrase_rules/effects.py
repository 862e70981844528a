"""Rules of the English phrase cutter for effects and relations: which phrase is the exposure, which the outcome.

"the effect of X on Y", "X reduces Y", "the association between X and Y", "relate X to Y", "the risk of
Y", "changes in Y", "rates differ by X": grammar, not vocabulary, names the two sides (a rule returns
True when it took the token; `english_phrases.RULES` gives the order).
"""

from __future__ import annotations

from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.english_phrase_rules.phrase_roles import (
    conjuncts,
    cue_unmarked,
    verb_subject,
)
from agent.understanding.english_phrase_rules.reading import PhraseReading
from agent.understanding.english_phrase_rules.word_context import (
    modifies_next,
    named_by_mesh,
)
from agent.understanding.english_word_forms import (
    adjective_shaped,
    mesh_compound,
)
from agent.understanding.phrase import Phrase

# "what happens to X": X is what changes (the outcome)
_HAPPENING = frozenset({"happen", "happens", "happened", "happening"})

# modifiers of a change noun that only say how it is measured ("annual change", "mean difference")
_CHANGE_MODIFIERS = frozenset(
    {"annual", "mean", "average", "median", "relative", "absolute", "net", "overall"}
)
# what follows an effect verb used without an object ("X increases when ...", "X improves in Y")
_CLAUSE_AFTER_VERB = frozenset({"when", "if", "whenever", "because", "while", "as", "after", "once"}) | (
    lex.EN_PREPOSITIONS - {"by", "with", "using", "via", "through"}
)


def kind_of_effect(r: PhraseReading) -> bool:
    """ "the causal effect of X on Y": the kind of effect is no term."""
    if (
        r.lower in lex.EFFECT_WORDS
        and r.following in {"of", "on"}
        and r.current
        and all(w.lower() in lex.EFFECT_ADJECTIVES for w in r.current)
    ):
        r.current = []  # "the causal effect of X on Y", "long-term effects on Y": the kind of effect
    return False


def effect_of(r: PhraseReading) -> bool:
    """ "the effect of X on Y": X is the exposure (a setting), Y the outcome."""
    if r.lower in lex.EFFECT_WORDS and not r.current and not modifies_next(r.lower, r.following):
        r.flush()
        r.effect_mode, r.last_break = True, r.lower
        return True
    return False


def effects_on_after_noun(r: PhraseReading) -> bool:
    """ "ocean acidification effects on X": the noun before the effect word is the exposure."""
    if r.lower in lex.EFFECT_WORDS and r.current and r.following == "on":
        r.phrases.append(
            Phrase(" ".join(r.current), "exposure", list(r.current), after=r.last_break, stop=r.index)
        )
        r.current = []
        r.effect_mode, r.last_break = True, r.lower
        return True
    return False


def in_terms_of(r: PhraseReading) -> bool:
    """ "better in terms of delirium": what follows is the outcome."""
    if r.skip_of and r.lower == "of":
        r.skip_of = False
        return True
    if r.lower == "terms" and r.last_break == "in" and r.following == "of":
        r.flush()
        r.cue, r.last_break, r.skip_of = "outcome", "of", True
        return True
    return False


def relates_to(r: PhraseReading) -> bool:
    """ "How does bilingualism relate to dementia onset?", "how neighbourhood diversity relates to
    trust": used without an object, "relate to" joins its subject, what acts (the exposure, as before
    any verb of effect), to what follows "to", the response (the outcome)."""
    if (
        r.lower in {"relate", "relates"}
        and r.following == "to"
        and r.after_next[:1].isalnum()
        and (r.current or r.phrases)
    ):
        _exposure_then_outcome(r)
        return True
    return False


def _exposure_then_outcome(r: PhraseReading) -> None:
    """At a verb of effect with its preposition: the subject read so far is the exposure, and what
    follows the preposition (skipped) the outcome."""
    r.flush()
    subject = verb_subject(r.phrases, r.clause_first)
    cue_unmarked(conjuncts(r.phrases, subject, r.clause_first), "exposure")
    r.cue, r.last_break, r.skip_to = "outcome", r.lower, r.index + 2


def relate_opens(r: PhraseReading) -> bool:
    """ "relate X to Y": X is what is related (a predictor), Y (after "to") the response."""
    if r.lower in {"relate", "relates", "relating"} and not r.current:
        r.cue, r.last_break, r.relating = "predictor", r.lower, True
        return True
    return False


def relate_to(r: PhraseReading) -> bool:
    """ "relate workload to emotional exhaustion": the response follows "to"."""
    if r.lower == "to" and r.relating and r.current:
        r.flush()
        r.cue = r.last_break = "outcome"
        r.relating = False
        return True
    return False


def effect_of_on(r: PhraseReading) -> bool:
    """ "the effect of peer tutoring on achievement": the phrase before "on" is the exposure."""
    if r.effect_mode and r.lower in {"of", "on"} and (not r.current or r.lower == "on"):
        r.flush()
        r.cue = "exposure" if r.lower == "of" else "outcome"
        r.last_break = r.lower
        return True
    return False


def association_with(r: PhraseReading) -> bool:
    """ "its association with salt intake": what it goes with is the exposure."""
    if r.effect_mode and r.lower == "with" and not r.current and r.last_break in lex.RELATION_NOUNS:
        r.cue = r.last_break = "exposure"
        return True
    return False


def looking_at(r: PhraseReading) -> bool:
    """ ", looking at haemoglobin and fatigue": what is observed is the outcome."""
    if (
        r.lower == "at"
        and r.previous_token == "looking"
        and r.index > 1
        and r.tokens[r.index - 2] == ","
        and not r.current
    ):
        # ", looking at haemoglobin and fatigue": a participle clause adds what is observed (the topic
        # of "my project looks at X" keeps the roles its own words give)
        r.cue = r.last_break = "outcome"
        return True
    return False


def association_between(r: PhraseReading) -> bool:
    """ "the association between X and Y": X the exposure (and Y, after "and", the outcome)."""
    if r.effect_mode and r.lower == "between" and not r.current:
        r.cue = r.last_break = "exposure"
        r.between = True
        return True
    return False


def between_and(r: PhraseReading) -> bool:
    """ "the association between X and Y": the "and" after X, and Y the outcome."""
    if r.between and r.lower == "and" and r.current:
        r.flush()
        r.cue = r.last_break = "outcome"
        r.between = False
        return True
    return False


def change_in(r: PhraseReading) -> bool:
    """ "the annual change in eGFR", "trends in obesity": what changes is the outcome."""
    if (
        r.lower == "in"
        and r.current
        and singular(r.current[-1].lower()) in lex.CHANGE_NOUNS
        and all(adjective_shaped(w.lower()) or w.lower() in _CHANGE_MODIFIERS for w in r.current[:-1])
        and r.following[:1].isalnum()
        and not named_by_mesh(r.current)
    ):
        r.current = []
        r.cue, r.last_break = "outcome", r.lower
        return True
    return False


def quantity_of(r: PhraseReading) -> bool:
    """ "the number of falls", "the rates of X": the quantity alone is no term."""
    if r.lower == "of" and r.current and all(w.lower() in lex.QUANTITY_NOUNS for w in r.current):
        r.current = []
        r.cue, r.last_break = "outcome", r.lower
        return True
    return False


def risk_of(r: PhraseReading) -> bool:
    """ "the risk of X", "risk factors for X": X is the outcome ("risk" alone is no term)."""
    if r.lower in {"of", "for"} and r.current and r.current[-1].lower() in lex.OUTCOME_MEASURES:
        r.flush()
        r.cue, r.last_break = "outcome", r.lower
        return True
    return False


def effect_verb(r: PhraseReading) -> bool:
    """ "X reduces Y": X is the exposure, Y the outcome; without an object X is the outcome."""
    if r.lower in lex.EFFECT_VERBS or (
        r.lower in lex.CHANGE_VERBS
        and r.current
        and r.following not in lex.EN_PREPOSITIONS
        and r.following[:1].isalnum()  # "land use change.": the noun
        and not mesh_compound(r.current[-1], r.lower)  # "climate change scenarios": a noun
    ):
        # "X reduces Y", "X changes Y" (not "changes in Y"): X (the phrase just read, if nothing
        # cued it) is the exposure, Y the outcome; with no object ("X increases when Y", "X
        # improves in Z") the verb is intransitive and X is what changes: the outcome
        r.flush()
        intransitive = not r.following[:1].isalnum() or r.following in _CLAUSE_AFTER_VERB
        subject = verb_subject(r.phrases, r.clause_first)
        cue_unmarked(conjuncts(r.phrases, subject, r.clause_first), "outcome" if intransitive else "exposure")
        r.cue, r.last_break = (None if intransitive else "outcome"), r.lower
        return True
    return False


# verbs of effect written with their preposition ("X leads to Y", "X contributes to Y", "X brings on
# Y"); alone, the word is as often a noun ("blood lead", "ECG leads") or no verb of effect ("bring")
_EFFECT_WITH_PREPOSITION = {
    **dict.fromkeys(("lead", "leads", "led", "leading"), "to"),
    **dict.fromkeys(("contribute", "contributes", "contributed", "contributing"), "to"),
    **dict.fromkeys(("bring", "brings", "brought", "bringing"), "on"),  # "X brings on Y": X causes Y
}


def leads_to(r: PhraseReading) -> bool:
    """ "whether screen time leads to myopia", "X contributes to Y": the phrase before the verb is the
    exposure and the one after its preposition the outcome, as after any verb of effect."""
    if r.current and _EFFECT_WITH_PREPOSITION.get(r.lower) == r.following and r.after_next[:1].isalnum():
        _exposure_then_outcome(r)
        return True
    return False


def happened_to(r: PhraseReading) -> bool:
    """ "What happened to beverage purchases after X?": what something happens to changes."""
    if r.lower == "to" and r.previous_token in _HAPPENING and r.following[:1].isalnum():
        r.flush()
        r.cue = r.last_break = "outcome"
        return True
    return False


def varying_by(r: PhraseReading) -> bool:
    """ "rates differ by city size": what they vary with is the exposure."""
    if r.lower in {"by", "across"} and r.last_break in lex.VARYING_VERBS and not r.current:
        r.cue = r.last_break = "exposure"
        return True
    return False
