"""Rules of the English phrase cutter for the cues clauses give the next phrase.

Who delivers an intervention, what is compared with what, what a question judges, the task a verb names
("to predict X", "screening for X"), examples ("such as"), the verb that ends a clause's subject, and
the function word that gives the phrase after it its cue ("treated with X", "trained on X"); punctuation
ends phrases and sentences (a rule returns True when it took the token; `english_phrases.RULES` gives
the order).
"""

from __future__ import annotations

from agent.understanding import lexicon as lex
from agent.understanding.english_phrase_rules.phrase_roles import (
    MODIFIER_CUES,
    PREDICTING_TASKS,
    conjuncts,
    cue_unmarked,
    deliverers,
    judged_test,
    people,
    subject_before,
    task_subject,
    verb_subject,
)
from agent.understanding.english_phrase_rules.reading import PhraseReading
from agent.understanding.english_phrase_rules.word_context import (
    comparator,
    listed_verb_here,
    opens_question,
    verb_after_modifier,
)
from agent.understanding.english_pos import main_verb_after_plural, verb_here
from agent.understanding.english_tokens import starts_phrase
from agent.understanding.english_word_forms import (
    OBJECT_OPENERS,
    is_adverb,
    is_contraction,
    is_modifier,
    is_past_participle,
    is_plural_noun,
    question_opener,
    second_verb,
    verb_ending_subject,
)
from agent.understanding.phrase import Phrase
from agent.understanding.slot_evidence import (
    LEARNED_ON,
    cue_slot,
    en_head_slot,
)

# "Does X ...?", "Can X pick Y?": the auxiliary or modal a question opens with, its verb after the subject
_QUESTION_OPENERS = frozenset({"does", "do", "did"}) | lex.MODALS
# "how farmers adapt X" is a clause whose verb follows its subject; "how have X ...", "how X was framed"
# are not read so ("how" before an auxiliary)
_AUXILIARIES = _QUESTION_OPENERS | lex.BE_FORMS | {"have", "has", "had"}
# verbs whose "for" names the covariates a model is adjusted for ("adjusting for X", "controlling for X")
_ADJUSTING_VERBS = frozenset(
    {"adjust", "adjusts", "adjusted", "adjusting", "control", "controls", "controlled", "controlling"}
    | {"account", "accounts", "accounted", "accounting"}
)
# participles whose "on" names what a model learns from ("trained on", "fitted on")
_LEARNING_PARTICIPLES = frozenset({"trained", "pretrained", "fitted", "calibrated"})
# abbreviations whose full stop ends no sentence ("e.g.", "i.e.", "et al.")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "al", "cf", "approx"})


def delivered_by(r: PhraseReading) -> bool:
    """ "delivered by X", "run by X": X, if people, deliver the intervention."""
    if (
        r.lower == "by"
        and not r.current
        and r.previous_token in lex.DELIVERING_PARTICIPLES
        and r.following[:1].isalnum()
    ):
        r.flush()
        r.cue = r.last_break = r.lower
        r.delivered_by = True
        return True
    return False


def people_to_deliver(r: PhraseReading) -> bool:
    """ "training community pharmacists to deliver brief advice": the people deliver it."""
    if (
        r.lower == "to"
        and r.current
        and people(r.current)
        and r.following in lex.DELIVERING_VERBS
        and (r.after_next[:1].isalnum() or r.after_next in lex.DETERMINERS)
    ):
        # "training community pharmacists to deliver brief advice", "volunteers to visit older
        # adults": the people named deliver the intervention (the setting); what they deliver is
        # the intervention, whom they serve are studied
        deliverers(r.phrases, r.current, r.cue, r.last_break, r.index)
        r.current = []
        r.cue = "exposure" if r.following in lex.HANDING_VERBS else r.following
        r.last_break, r.skip_to = r.following, r.index + 2
        return True
    return False


def people_delivering(r: PhraseReading) -> bool:
    """ "peer counsellors visit first-time mothers": people who do this to others deliver it."""
    if (
        r.current
        and r.lower in lex.DELIVERING_VERBS
        and is_plural_noun(r.current[-1])
        and people(r.current)
        and (r.following[:1].isalnum() or r.following in lex.DETERMINERS)
        and r.following not in lex.EN_PREPOSITIONS
        and r.following not in lex.EN_FUNCTION - lex.DETERMINERS
    ):
        # "peer counsellors visit first-time mothers", "community health workers screen
        # children": people who do this to others deliver the intervention
        deliverers(r.phrases, r.current, r.cue, r.last_break, r.index)
        r.current = []
        r.cue = "exposure" if r.lower in lex.HANDING_VERBS else r.lower
        r.last_break = r.lower
        return True
    return False


def as_adjective_as(r: PhraseReading) -> bool:
    """ "Is X as effective as Y for Z": X is judged against Y."""
    if r.lower == "as" and r.following in lex.PREDICATE_ADJECTIVES and r.after_next == "as":
        # "Is meloxicam as effective as firocoxib for X": the subject is judged against what follows
        r.flush()
        if r.phrases and r.phrases[-1].stop == r.index:
            for part in conjuncts(r.phrases, r.phrases[-1], r.clause_first):
                if r.following in lex.TEST_JUDGING_ADJECTIVES:
                    judged_test(part)
                elif part.slot is None and cue_slot(part.cue, False) is None:
                    part.cue = "exposure"
        r.cue, r.last_break, r.skip_to = "comparator", r.following, r.index + 3
        return True
    return False


def adjective_after_how(r: PhraseReading) -> bool:
    """ "How accurate is X?": the adjective asked about is the predicate, no term."""
    if (
        r.lower in lex.PREDICATE_ADJECTIVES
        and not r.current
        and r.previous_token == "how"
        and (r.following in lex.BE_FORMS or r.following in {"do", "does"})
    ):
        # "How accurate is point-of-care ultrasound for X?", "How effective are apps?": the
        # adjective the question asks about is its predicate, no term
        r.judged_after_how = r.lower
        return True
    return False


def x_based_method(r: PhraseReading) -> bool:
    """ "camera-trap based occupancy models": "X-based" written apart; X is the method used."""
    if r.lower == "based" and r.current and r.following[:1].isalpha() and starts_phrase(r.following):
        r.cue = "using"
        r.flush()
        r.cue, r.last_break = None, None
        return True
    return False


def comparing_opened(r: PhraseReading) -> bool:
    """A verb of comparing opens a comparator; "X and Y" after it names both sides."""
    if r.lower.startswith("compar") and r.lower.isalpha():
        r.compare_open = True  # "compare X with Y", "compared to Y", "a comparison of X with Y"
    elif r.lower == "and" and r.compare_open and r.current and r.last_break is not None:
        # "compare the accuracy of X and Y for ...": both sides are named, so a later "to" or
        # "with" ("children presenting to emergency departments") opens no comparator
        r.compare_open = False
    elif (
        r.lower in lex.BE_FORMS
        and r.compare_open
        and r.last_break is not None
        and not r.last_break.startswith("compar")
        and r.previous_token not in {"which", "that", "who"}  # a relative clause inside the comparison
    ):
        # "we compare patients before and after the protocol was introduced, and delirium is screened
        # with the 4AT": a clause with its own verb has begun, and its "with" is no comparator
        r.compare_open = False
    return False


def punctuation(r: PhraseReading) -> bool:
    """Punctuation ends the phrase; a sentence's end (or a purpose's comma) resets the cues."""
    if not any(ch.isalnum() for ch in r.token):  # punctuation
        r.flush()
        if r.token == "." and r.previous_token in _ABBREVIATIONS:
            return True  # "e.g. young age": the cue of the list goes on
        if r.token in ".;:!?|":
            r.cue, r.last_break, r.effect_mode, r.skip_of, r.between = None, None, False, False, False
            r.judged_after_how = ""
            r.compare_open, r.clause_open, r.about_user, r.relating = False, "", False, False
            r.clause_first, r.purpose_opening = len(r.phrases), False
        if r.token == "," and r.purpose_opening:
            # "In order to raise X, peer counsellors visit ...": the main clause begins
            r.cue, r.last_break, r.effect_mode, r.purpose_opening = None, None, False, False
            r.clause_open, r.clause_first = "", len(r.phrases)
        # a comma keeps the cue of a list ("using ECoG, sEEG and EEG")
        return True
    return False


def adjusting_for(r: PhraseReading) -> bool:
    """ "controlling for age": no task; its "for" names the covariates."""
    if r.lower in _ADJUSTING_VERBS and r.following == "for":
        r.flush()
        r.cue = r.last_break = r.lower
        return True
    return False


def task_verb(r: PhraseReading) -> bool:
    """ "screening for X", "to predict X": a task's gerund or verb is a cue on its object."""
    task_noun = lex.EN_TASK_GERUNDS.get(r.lower) or (
        lex.EN_TASK_VERBS.get(r.lower)
        if r.last_break in lex.TASK_VERB_SUBJECTS or second_verb(r.tokens, r.index, r.last_break, r.following)
        else lex.EN_TASK_VERBS_THIRD.get(r.lower)
        if r.last_break in {"that", "which", "it"}
        else None
    )
    if (
        r.lower in {"for", "of"}
        and not r.current
        and r.cue is not None
        and r.cue.startswith("task:")
        and r.last_break in lex.EN_TASK_GERUNDS
        and r.following[:1].isalnum()
    ):
        return True  # "screening for retinopathy", "monitoring of glucose": the task's object follows
    if task_noun and not r.current and r.last_break not in lex.UNDERGOING_CUES:
        # a gerund (or "to" + verb) opening a phrase is a verb on the phrase that follows
        if r.last_break in lex.MODALS and r.phrases and subject_before(r.phrases[-1], r.index - 1):
            task_subject(r.phrases[-1], task_noun)  # "Lung ultrasound may diagnose heart failure"
        r.cue, r.last_break = f"task:{task_noun}", r.lower
        return True
    return False


def place_left(r: PhraseReading) -> bool:
    """ "young people released from youth custody", "patients discharged from hospital": after a participle
    of leaving, "from" names the place or institution those studied were in (the setting); the cue
    "from" alone names where data come from (`lex.METHOD_CUES`)."""
    if r.lower == "from" and r.previous_token in lex.LEAVING_PARTICIPLES and not r.current:
        r.cue, r.last_break = "left", r.lower
        return True
    return False


# question words that, opening a sentence, ask about the noun right after them ("Which factors ...")
_WH_DETERMINERS = frozenset({"which", "what"})
_OBJECT_PRONOUNS = frozenset({"it", "them", "this", "these"})
_SENTENCE_BREAKS = frozenset({".", "?", "!", ";", ":", "|"})


def predictor_asked_about(r: PhraseReading) -> bool:
    """ "Which risk factors predict reoffending?", "What markers predict delirium?": the noun a question
    opens by asking about is the subject of the verb after it; a predicting verb makes it a predictor
    (as in "Can X predict Y?") and what it predicts the outcome, with no task of prediction named."""
    if not (r.current and lex.EN_TASK_VERBS.get(r.lower) in PREDICTING_TASKS and r.following[:1].isalnum()):
        return False
    start = r.index - len(r.current)
    if start < 1 or r.tokens[start - 1].lower() not in _WH_DETERMINERS:
        return False
    if start > 1 and r.tokens[start - 2] not in _SENTENCE_BREAKS:
        return False
    r.flush()
    subject = r.phrases[-1]
    if subject.slot is None:
        subject.cue = "predictor"
    r.cue, r.last_break, r.clause_open = "outcome", r.lower, ""
    if r.following in _OBJECT_PRONOUNS and r.after_next == "(":
        # "which factors predict it (fatigue, job type)?": the outcome is the pronoun, named before; a
        # pronoun needs no examples, so the list in brackets names the factors asked about
        r.cue, r.skip_to = "predictor", r.index + 3
    return True


def task_verb_in_question(r: PhraseReading) -> bool:
    """ "Can machine learning predict crop yield?": the verb follows its subject."""
    if (
        r.current
        and r.lower in lex.EN_TASK_VERBS
        and question_opener(r.tokens, r.index)
        and r.following[:1].isalnum()
    ):
        # "Can machine learning predict crop yield?": in a question the verb follows its subject;
        # what predicts, when its head word does not say it is a method, is a predictor
        r.flush()
        if (
            lex.EN_TASK_VERBS[r.lower] in {"prediction", "forecasting"}
            and r.phrases[-1].slot is None
            and cue_slot(r.phrases[-1].cue, False) is None
        ):
            r.phrases[-1].cue = "predictor"
        r.cue, r.last_break, r.clause_open = f"task:{lex.EN_TASK_VERBS[r.lower]}", r.lower, ""
        return True
    return False


def example_list(r: PhraseReading) -> bool:
    """ "biomarkers such as NGAL", "scales like the PSQI": examples of the phrase before."""
    if (
        (r.lower == "as" and r.last_break == "such")
        or r.lower in {"e.g", "including"}
        or (r.lower == "like" and r.current)
    ):
        # "like" after a noun is the preposition ("scales like the PSQI"), not the verb ("I'd like")
        r.flush()
        r.cue = "example"
        r.last_break = r.lower
        return True
    return False


def versus_between_phrases(r: PhraseReading) -> bool:
    """ "by the operator versus by households": the two sides are separate phrases."""
    if r.lower in {"versus", "vs"} and (r.following in lex.EN_FUNCTION or not r.following[:1].isalnum()):
        r.flush()
        r.cue = r.last_break = "comparator"
        return True
    return False


def passive_use(r: PhraseReading) -> bool:
    """ "smartphone photos can be used to ...": what is used is the method."""
    if (
        r.lower in lex.PASSIVE_USE
        and r.last_break in lex.BE_FORMS
        and r.phrases
        and r.phrases[-1].slot is None
    ):
        r.phrases[-1].cue = "using"
    return False


def comparative_than(r: PhraseReading) -> bool:
    """ "X better than Y", "stones smaller than 10 mm": the comparative ends the phrase."""
    if (r.lower in lex.COMPARATIVES and r.following in {"than", "to"}) or (
        r.following == "than" and r.lower.endswith(("er", "ier")) and len(r.lower) > 4
    ):
        r.flush()  # "dexmedetomidine better than propofol", "stones smaller than 10 mm"
        r.last_break = r.lower
        return True
    return False


def compared_with(r: PhraseReading) -> bool:
    """ "compare X with Y", "X instead of Y": Y is what X is compared with."""
    if comparator(r.lower, r.last_break, r.compare_open):
        # "compare X with Y", "X compared with Y", "X instead of Y", "X rather than Y": Y is what
        # X is compared with, and takes X's role (`agent.understanding.rules` resolves it)
        r.flush()
        r.cue = r.last_break = "comparator"
        r.compare_open = False
        return True
    return False


def verb_ends_subject(r: PhraseReading) -> bool:
    """ "whether X replaces Y": the verb after a clause's subject ends it."""
    part_of_speech = verb_here(r.tokens, r.index, r.current, r.clause_open)
    if (
        # an object right after the verb is read below, as after any verb before an article
        (part_of_speech is True and bool(r.clause_open) and r.following not in OBJECT_OPENERS)
        or (
            part_of_speech is not False
            and verb_ending_subject(r.current, r.lower, r.following, r.clause_open)
        )
    ) or verb_after_modifier(
        r.current,
        r.lower,
        r.following,
        bool(r.clause_open) and r.cue in MODIFIER_CUES and len(r.phrases) > r.clause_first,
    ):
        # "whether e-scooter schemes replace car trips", "Does hot-spot policing displace crime":
        # the verb after the subject of a subordinate clause or question ends the subject; as
        # after an effect verb, the subject is the exposure and the object the outcome
        r.flush()
        subject = verb_subject(r.phrases, r.clause_first)
        task_done = lex.EN_TASK_VERBS_THIRD.get(r.lower) or lex.EN_TASK_VERBS.get(r.lower)
        if task_done and subject is not None and subject.cue != "example":
            # "whether PSMA PET detects recurrence": the subject does a task on the object, as in
            # "PSMA PET detects recurrence"
            if subject.slot is None and cue_slot(subject.cue, False) is None:
                task_subject(subject, task_done)
            r.cue, r.last_break, r.clause_open = f"task:{task_done}", r.lower, ""
            return True
        if (
            subject is not None and subject.cue != "example"
        ):  # "models such as X fix Y": X keeps the list's role
            cue_unmarked(conjuncts(r.phrases, subject, r.clause_first), "exposure")
        r.cue, r.last_break = "outcome", r.lower
        r.clause_open = ""
        return True
    return False


def verb_after_plural_subject(r: PhraseReading) -> bool:
    """ "Dental examinations follow ICDAS criteria": a bare verb after a plural noun ends the subject of a
    main clause too (`english_pos.main_verb_after_plural`); the phrase after it takes the verb as its cue."""
    if r.clause_open or not main_verb_after_plural(r.tokens, r.index, r.current):
        return False  # a question's or clause's verb is `verb_ends_subject`'s
    r.flush()
    r.phrases[-1].before = r.lower
    r.cue = r.last_break = r.lower
    return True


def study_of_method(r: PhraseReading) -> bool:
    """ "eye-tracking study of ...", "an fMRI study in ...": what the study is of names the method."""
    if r.current and r.lower in lex.STUDY_NOUNS and r.following in {"of", "in", "on", "among", "with"}:
        method = "method_measurement" if en_head_slot(r.current) in {None, "task"} else None
        r.phrases.append(
            Phrase(" ".join(r.current), r.cue, list(r.current), method, after=r.last_break, stop=r.index)
        )
        r.current = []
        r.cue, r.last_break = r.lower, r.lower
        return True
    return False


def judging_adjective_after_subject(r: PhraseReading) -> bool:
    """ "Is X effective for Y", "is X safe in Z": the adjective is the predicate."""
    if (
        r.current
        and r.lower in lex.PREDICATE_ADJECTIVES
        and (r.following in lex.EN_PREPOSITIONS | {"than", "and", "or"} or not r.following[:1].isalnum())
    ):
        # "Is vitamin D supplementation effective for preventing X", "is exercise safe in pregnancy":
        # an English noun phrase ends with its noun, so a judging adjective after it, before a
        # preposition or the clause's end, is the predicate, no word of the term
        r.flush()
        r.phrases[-1].before = r.lower
        for part in conjuncts(r.phrases, r.phrases[-1], r.clause_first):
            if r.lower in lex.TEST_JUDGING_ADJECTIVES:
                judged_test(part)  # "Is ultrasound accurate for X": what is judged accurate is a test
            elif part.slot is None and cue_slot(part.cue, False) is None:
                # "Is exercise safe for pregnant women", "Are diet and exercise effective": what is
                # judged safe or effective is the intervention or exposure
                part.cue = "exposure"
        r.cue = r.last_break = r.lower
        return True
    return False


def gerund_of_use_opens_subject(r: PhraseReading) -> bool:
    """ "Does applying fluoride varnish prevent X?", "whether using a weighted blanket reduces X": a
    gerund of using right after the auxiliary of a question or after "whether"/"if" heads the subject
    of the clause's verb, so what it uses acts on the outcome (the exposure or intervention), not the
    method of the study ("Using X, we measure Y" opens no clause and keeps its method reading)."""
    if (
        r.current
        or r.lower not in lex.METHOD_CUES
        or not r.lower.endswith("ing")
        or not r.clause_open
        or r.previous_token not in _QUESTION_OPENERS | {"whether", "if"}
    ):
        return False
    r.cue = "exposure"
    r.last_break = r.lower
    return True


def function_word_or_verb(r: PhraseReading) -> bool:
    """A function word, verb, participle or adverb ends the phrase and gives the next its cue."""
    listed_verb = listed_verb_here(r.tokens, r.index, r.current)
    # a past participle followed by a preposition is a verb ("characterised by", "isolated from"); after
    # "the" it names the people it describes ("the aged in nursing homes", "the injured in road crashes")
    participle = (
        is_past_participle(r.lower)
        and r.previous_token.lower() != "the"
        and (
            r.following in lex.EN_PREPOSITIONS
            or (bool(r.current) and not any(ch.isalnum() for ch in r.following))  # "X preferred."
            # "delivered digitally", "administered orally": a participle before its adverb is a verb
            or (
                bool(r.current)
                and is_adverb(r.following, r.after_next, ".")
                and r.following not in lex.SENTENCE_ADVERBS
            )
        )
    )
    adverb = r.lower in lex.SENTENCE_ADVERBS or (
        r.lower.endswith("ly")
        and len(r.lower) > 5
        and r.lower not in lex.LY_NOT_ADVERBS
        # an adverb inside a noun phrase ("critically ill children") is kept with it
        and not (is_modifier(r.following) and starts_phrase(r.after_next))
    )
    if (
        adverb
        and not r.current
        and not (r.lower in lex.EN_FUNCTION or listed_verb or participle)
        and r.following[:1].isalpha()
    ):
        # "reduce potentially inappropriate prescribing", "measured directly with X": an adverb
        # between a cue and what follows it leaves the cue as it was
        return True
    if r.lower in lex.EN_FUNCTION or listed_verb or participle or adverb or is_contraction(r.lower):
        task_object = None
        if r.current:
            r.flush()
            r.phrases[-1].before = r.lower
            if r.lower in lex.EN_TASK_VERBS_THIRD and subject_before(r.phrases[-1], r.index):
                # "Heart rate variability predicts X", "whether CYP2D6 status predicts X": the
                # subject is the predictor or the test, and X what the task is done on
                task_subject(r.phrases[-1], lex.EN_TASK_VERBS_THIRD[r.lower])
                task_object = lex.EN_TASK_VERBS_THIRD[r.lower]
        if r.lower in {"whether", "if", "that"} or (r.lower == "how" and r.following not in _AUXILIARIES):
            r.clause_open, r.clause_first = "clause", len(r.phrases)
        elif r.lower in _QUESTION_OPENERS and opens_question(r.tokens, r.index, r.phrases[r.clause_first :]):
            r.clause_open, r.clause_first = "question", len(r.phrases)
        elif (
            r.lower in lex.EN_VERBS
            or r.lower in lex.EN_COMMON_VERBS
            or r.lower in lex.EFFECT_VERBS | lex.BE_FORMS
        ):
            r.clause_open = ""
        transparent = r.lower in lex.TRANSPARENT or (r.lower == "on" and r.last_break == "based")
        criterion = _comparison_criterion(r)
        if not transparent:
            r.cue = f"task:{task_object}" if task_object else r.lower
        if criterion:
            r.cue = "outcome"  # "compare X with Y on throughput": what they are compared on
        if (
            r.lower == "on"
            and r.previous_token in lex.DATA_ON_NOUNS
            and r.phrases
            and r.phrases[-1].stop == r.index
        ):
            r.cue = "data-on"  # "panel data on hotels": the units the data describe are studied
        if r.lower in {"on", "about"} and r.last_break in lex.TOPIC_BEFORE_ON:
            r.cue = "studied"  # "I am working on X", "we care about X": X is the topic studied
        if r.lower == "against" and r.last_break in lex.VALIDATING_PARTICIPLES:
            r.cue = "reference"  # "validated against chart review": the reference standard, a method
        if r.lower == "on" and r.last_break in lex.RELYING_BEFORE_ON:
            r.cue = "using"  # "we rely on registry data": what is relied on is the method
        if r.lower == "for" and r.last_break in _ADJUSTING_VERBS:
            r.cue = "predictor"  # "adjusting for air pollution": a covariate the model takes in
        if r.lower == "on" and r.last_break in _LEARNING_PARTICIPLES:
            r.cue = LEARNED_ON  # "a random forest trained on slope": what the model learns from
        if r.lower == "to" and r.last_break in lex.RELATING_PARTICIPLES:
            r.cue = "outcome"  # "X is related to Y": Y is what X is related to, the outcome
        judged_for = r.last_break in lex.PREDICATE_ADJECTIVES or (
            bool(r.judged_after_how) and bool(r.phrases) and r.phrases[-1].stop == r.index
        )
        if (
            r.lower in {"for", "at"}
            and judged_for
            and (r.judged_after_how or r.last_break) not in lex.TEST_JUDGING_ADJECTIVES
        ):
            # "Is melatonin effective for jet lag", "How effective is exercise for depression", "How
            # effective are wetlands at removing X": what the intervention is judged effective for
            # is the outcome
            r.cue = "outcome"
        if r.lower == "for" and r.last_break in lex.UNDERGOING_CUES:
            r.cue = "undergoing"  # "children scheduled for tonsillectomy": the procedure they go through
        if (
            r.lower == "with"
            and r.last_break is not None
            and r.last_break.endswith("ed")
            and r.last_break not in lex.MEASURING_VERBS
            and r.last_break not in lex.CONDITION_PARTICIPLES
        ):
            # "treated with ketamine", "supplemented with zinc", "associated with X": what is given
            # or related, not the method (that follows verbs of measuring: "measured with")
            r.cue = "given"
        # "I'd like ...": after a pronoun with a clitic, as after the pronoun, comes its verb
        r.last_break = r.lower.split("'")[0] if is_contraction(r.lower) else r.lower
        return True
    return False


def _comparison_criterion(r: PhraseReading) -> bool:
    """ "compare X with Y on throughput and delay", "X versus Y on fall rates": an "on" right after
    the sides of a comparison names what they are compared on, the outcome (read before the "on"
    replaces the comparison's cue)."""
    return (
        r.lower == "on"
        and (r.cue == "comparator" or (r.cue or "").startswith("compar"))
        and bool(r.phrases)
        and r.phrases[-1].stop == r.index
    )


def verb_before_article(r: PhraseReading) -> bool:
    """ "whether SGLT2 inhibitors slow the decline": the word before an article is a verb."""
    if (r.current or r.last_break == "and") and verb_here(r.tokens, r.index, r.current) is True:
        # "whether SGLT2 inhibitors slow the decline", "how doping levels tune the overpotential": a
        # noun phrase does not go on past an article, so the word before one is the verb; in a
        # whether-clause or question its subject is the exposure and its object the outcome
        r.flush()
        r.phrases[-1].before = r.lower
        if r.clause_open:
            cue_unmarked(conjuncts(r.phrases, r.phrases[-1], r.clause_first), "exposure")
        r.cue = "outcome" if r.clause_open else r.lower
        r.last_break, r.clause_open = r.lower, ""
        return True
    return False
