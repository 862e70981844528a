"""Where an English phrase starts and ends, and the roles sentence structure gives it (rules fallback).

No domain dictionary: a description is cut into noun phrases at function words, verbs and punctuation,
and that is grammar, not vocabulary: a participle after people opens a relative clause ("children
receiving ECMO"), a past participle before a preposition is a verb ("isolated from"), an adverb before a
modifier stays in its noun phrase ("critically ill"), "use" after a noun is a noun ("social media use"),
a MeSH term holding a function word stays whole ("quality of life"); sentence structure names roles
("the effect of X on Y", "X can be used to", "such as", "in terms of"), and a sentence about the user
("I'm a nurse") names no concept. A stance adverb ("ideally") is never part of a noun phrase; "with"
after a participle of giving ("treated with") names what is given, after one of measuring ("measured
with") the method; what is used "as a biomarker" is the feature. A gerund that opens a phrase is a task
on its object ("decoding speech" -> "speech decoding"). What something is compared with ("compare X
with Y", "X compared with Y", "instead of Y", "rather than Y", "better than Y") gets the cue
"comparator" (`agent.understanding.rules` gives it X's role); a verb after the subject of a whether/if
clause or a question ends the subject and, as an effect verb does, makes it the exposure and its
object the outcome; an effect verb with no object makes its subject the outcome; the word after a
modal or after "want to" is a verb; the unit after a number or "per" is no concept. Tokens come from
`english_tokens`; `english_clauses` then reads the roles whole clauses give, and
`english_phrase_merges` joins and re-reads neighbouring phrases. Whether a word that may be a noun or a
verb ("cover", "transport", "healing") is a verb in its place is `english_pos.verb_here`'s decision.
Each phrase leaves with its cue; `slot_roles` puts it in a slot.
"""

from __future__ import annotations

import re

from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.english_clauses import clause_roles, is_clause_verb
from agent.understanding.english_phrase_merges import merge_phrases
from agent.understanding.english_pos import no_agreement, verb_here
from agent.understanding.english_tokens import NUMBER, description_tokens, starts_phrase
from agent.understanding.english_word_forms import (
    OBJECT_OPENERS,
    adjective_shaped,
    counted_place,
    gerund_of_verb,
    ing_bases,
    is_adverb,
    is_comparative,
    is_contraction,
    is_modifier,
    is_participle,
    is_past_participle,
    is_plural_noun,
    mesh_compound,
    premodifying_participle,
    question_opener,
    second_verb,
    verb_base,
    verb_ending_subject,
    verb_not_term,
)
from agent.understanding.phrase import Phrase
from agent.understanding.slot_evidence import (
    LEARNED_ON,
    agent_plural,
    cue_slot,
    en_head_slot,
    ending_trees,
    is_population,
    mesh_kind,
)
from agent.understanding.slot_translation import embedded_vocabulary

_VERSUS = frozenset({"versus", "vs", "vs."})


def english_phrases(text: str) -> list[Phrase]:
    phrases: list[Phrase] = []
    current: list[str] = []
    cue: str | None = None
    last_break: str | None = None
    effect_mode = False

    delivered_by = False  # "by" after a participle of delivering was read: people after it deliver

    def flush() -> None:
        nonlocal current, delivered_by
        # "X testing versus repeat Y" cut at its verbs: a "versus" at an edge lost its other side
        while current and current[0].lower() in _VERSUS:
            current.pop(0)
        while current and current[-1].lower() in _VERSUS:
            current.pop()
        if current and delivered_by:
            delivered_by = False
            if _people(current):
                # "a programme delivered by lay counsellors": who delivers is part of the intervention
                phrases.append(
                    Phrase(" ".join(current), cue, list(current), "context", after=last_break, stop=index)
                )
                current = []
        if current:
            said = "self" if about_user else cue
            judged = judged_after_how and said in lex.BE_FORMS
            if judged and judged_after_how not in lex.TEST_JUDGING_ADJECTIVES:
                # "How effective is exercise for X?": the subject judged effective is the intervention
                said = "exposure"
            phrases.append(Phrase(" ".join(current), said, list(current), after=last_break, stop=index))
            if judged and judged_after_how in lex.TEST_JUDGING_ADJECTIVES:
                _judged_test(phrases[-1])  # "How accurate is point-of-care ultrasound for X?"
        current = []

    tokens = description_tokens(text)
    skip_of = False
    skip_to = 0  # tokens before this index were read with the one before them ("as effective as")
    judged_after_how = ""  # "How effective is X": the adjective, whose subject follows the copula
    between = False
    purpose_opening = False  # the sentence opens with a purpose clause ("To reduce X, ..."): a comma ends it
    compare_open = False  # a verb of comparing was read in this sentence, its "with" not yet
    about_user = False  # the sentence is about the user ("I'm a PhD student in hydrology")
    relating = False  # "relate X to Y" was read up to X
    per_unit = False  # "per" was read: the unit after it is no concept
    clause_open = ""  # "clause" after whether/if/that, "question" after an opening auxiliary
    clause_first = 0  # the index (in `phrases`) of the first phrase of the sentence or clause
    for index, token in enumerate(tokens):
        lower = token.lower()
        previous_token = tokens[index - 1].lower() if index else ""
        following = tokens[index + 1].lower() if index + 1 < len(tokens) else "."
        after_next = tokens[index + 2].lower() if index + 2 < len(tokens) else "."
        if per_unit and token.isalnum():
            per_unit = False
            continue  # the unit after "per" ("injuries per ward", "deaths per 1,000 births")
        if index < skip_to:
            continue  # the rest of "as effective as"
        if lower == "aged" and current and (_age_number(following) or following in _AGE_OPENERS):
            # "adolescents aged 13 to 17", "adults aged 65 and over": the age range says who is
            # sampled (a size of the sample, as neutral as one), no part of the people's term
            flush()
            skip_to = _age_span_end(tokens, index + 1)
            continue
        if lower in {"in", "so"} and following in {"order", "as"} and after_next == "to":
            # "in order to improve adherence", "so as to reduce X": the purpose's "to", no phrase "order"
            flush()
            purpose_opening = previous_token in _SENTENCE_STARTS
            skip_to = index + 2
            continue
        if lower == "to" and previous_token in _SENTENCE_STARTS:
            purpose_opening = True  # "To reduce falls, we ...": the purpose ends at its comma
        if (
            lower == "by"
            and not current
            and previous_token in lex.DELIVERING_PARTICIPLES
            and following[:1].isalnum()
        ):
            flush()
            cue = last_break = lower
            delivered_by = True  # "delivered by X", "run by X": X, if people, deliver
            continue
        if (
            lower == "to"
            and current
            and _people(current)
            and following in lex.DELIVERING_VERBS
            and (after_next[:1].isalnum() or after_next in lex.DETERMINERS)
        ):
            # "training community pharmacists to deliver brief advice", "volunteers to visit older
            # adults": the people named deliver the intervention (the setting); what they deliver is
            # the intervention, whom they serve are studied
            _deliverers(phrases, current, cue, last_break, index)
            current = []
            cue = "exposure" if following in lex.HANDING_VERBS else following
            last_break, skip_to = following, index + 2
            continue
        if (
            current
            and lower in lex.DELIVERING_VERBS
            and is_plural_noun(current[-1])
            and _people(current)
            and (following[:1].isalnum() or following in lex.DETERMINERS)
            and following not in lex.EN_PREPOSITIONS
            and following not in lex.EN_FUNCTION - lex.DETERMINERS
        ):
            # "peer counsellors visit first-time mothers", "community health workers screen
            # children": people who do this to others deliver the intervention
            _deliverers(phrases, current, cue, last_break, index)
            current = []
            cue = "exposure" if lower in lex.HANDING_VERBS else lower
            last_break = lower
            continue
        if (
            not current
            and last_break in lex.EFFECT_VERBS
            and (lower in lex.EN_VERBS or lower in lex.EN_COMMON_VERBS)
            and not _inflected_form(lower)
            and is_plural_noun(following)
            and following not in lex.EN_FUNCTION
            and following not in lex.PLURAL_NOUN_OR_VERB
        ):
            # "increase quit rates", "reduce return visits": an effect verb takes a noun phrase as its
            # object, so a bare verb right after it, before a plural noun, is that noun's modifier
            current.append(token)
            continue
        if (
            not current
            and previous_token == "who"
            and tokens[index - 1] != "WHO"
            and _bare_verb(lower, following)
        ):
            cue = last_break = lower  # "adults who smoke": a relative pronoun's verb, no term
            continue
        if _inside_a_title(
            token, current, following=tokens[index + 1] if index + 1 < len(tokens) else "."
        ) and not _title_case_sentence(tokens, index):
            current.append(token)  # "the Glasgow Composite Measure Pain Scale": a verb inside a name
            continue
        if lower in lex.FREQUENCY_ADVERBS and not current and last_break and is_past_participle(last_break):
            continue  # "assessed daily with the NPIAP staging system": how often, and the verb's "with" follows
        if lower == "as" and following in lex.PREDICATE_ADJECTIVES and after_next == "as":
            # "Is meloxicam as effective as firocoxib for X": the subject is judged against what follows
            flush()
            if phrases and phrases[-1].stop == index:
                for part in _conjuncts(phrases, phrases[-1], clause_first):
                    if following in lex.TEST_JUDGING_ADJECTIVES:
                        _judged_test(part)
                    elif part.slot is None and cue_slot(part.cue, False) is None:
                        part.cue = "exposure"
            cue, last_break, skip_to = "comparator", following, index + 3
            continue
        if (
            lower in lex.PREDICATE_ADJECTIVES
            and not current
            and previous_token == "how"
            and (following in lex.BE_FORMS or following in {"do", "does"})
        ):
            # "How accurate is point-of-care ultrasound for X?", "How effective are apps?": the
            # adjective the question asks about is its predicate, no term
            judged_after_how = lower
            continue
        if lower in {"better", "worse"} and not current and following[:1].isalpha() and following != "than":
            continue  # "better language outcomes than X": the judgement is no part of the outcome
        if previous_token == "how" and _degree_word(lower, following, after_next):
            continue  # "how common is Y", "how much does X cost": any other degree asked about, no term
        if lower in lex.SCOPE_WORDS and current:
            flush()  # "medical students worldwide": how far the study reaches, not part of the phrase
            continue
        if lower == "per" and current:
            flush()
            per_unit = True
            continue
        if lower == "based" and current and following[:1].isalpha() and starts_phrase(following):
            # "camera-trap based occupancy models": "X-based" written apart; X is the method used
            cue = "using"
            flush()
            cue, last_break = None, None
            continue
        if lower.startswith("compar") and lower.isalpha():
            compare_open = True  # "compare X with Y", "compared to Y", "a comparison of X with Y"
        elif lower == "and" and compare_open and current and last_break is not None:
            # "compare the accuracy of X and Y for ...": both sides are named, so a later "to" or
            # "with" ("children presenting to emergency departments") opens no comparator
            compare_open = False
        if not any(ch.isalnum() for ch in token):  # punctuation
            flush()
            if token == "." and previous_token in _ABBREVIATIONS:
                continue  # "e.g. young age": the cue of the list goes on
            if token in ".;:!?|":
                cue, last_break, effect_mode, skip_of, between = None, None, False, False, False
                judged_after_how = ""
                compare_open, clause_open, about_user, relating = False, "", False, False
                clause_first, purpose_opening = len(phrases), False
            if token == "," and purpose_opening:
                # "In order to raise X, peer counsellors visit ...": the main clause begins
                cue, last_break, effect_mode, purpose_opening = None, None, False, False
                clause_open, clause_first = "", len(phrases)
            # a comma keeps the cue of a list ("using ECoG, sEEG and EEG")
            continue
        if lower in _ADJUSTING_VERBS and following == "for":
            flush()  # "controlling for age": no task, its "for" names the covariates
            cue = last_break = lower
            continue
        task_noun = lex.EN_TASK_GERUNDS.get(lower) or (
            lex.EN_TASK_VERBS.get(lower)
            if last_break in lex.TASK_VERB_SUBJECTS or second_verb(tokens, index, last_break, following)
            else lex.EN_TASK_VERBS_THIRD.get(lower)
            if last_break in {"that", "which", "it"}
            else None
        )
        if (
            lower in {"for", "of"}
            and not current
            and cue is not None
            and cue.startswith("task:")
            and last_break in lex.EN_TASK_GERUNDS
            and following[:1].isalnum()
        ):
            continue  # "screening for retinopathy", "monitoring of glucose": the task's object follows
        if task_noun and not current and last_break not in lex.UNDERGOING_CUES:
            # a gerund (or "to" + verb) opening a phrase is a verb on the phrase that follows
            if last_break in lex.MODALS and phrases and _subject_before(phrases[-1], index - 1):
                _task_subject(phrases[-1], task_noun)  # "Lung ultrasound may diagnose heart failure"
            cue, last_break = f"task:{task_noun}", lower
            continue
        if (
            current
            and lower in lex.EN_TASK_VERBS
            and question_opener(tokens, index)
            and following[:1].isalnum()
        ):
            # "Can machine learning predict crop yield?": in a question the verb follows its subject;
            # what predicts, when its head word does not say it is a method, is a predictor
            flush()
            if (
                lex.EN_TASK_VERBS[lower] in {"prediction", "forecasting"}
                and phrases[-1].slot is None
                and cue_slot(phrases[-1].cue, False) is None
            ):
                phrases[-1].cue = "predictor"
            cue, last_break, clause_open = f"task:{lex.EN_TASK_VERBS[lower]}", lower, ""
            continue
        if (
            lower in lex.EFFECT_WORDS
            and following in {"of", "on"}
            and current
            and all(w.lower() in lex.EFFECT_ADJECTIVES for w in current)
        ):
            current = []  # "the causal effect of X on Y", "long-term effects on Y": the kind of effect
        if lower in lex.EFFECT_WORDS and not current and not _modifies_next(lower, following):
            # "the effect of X on Y": X is the exposure (a setting), Y the outcome
            flush()
            effect_mode, last_break = True, lower
            continue
        if lower in lex.EFFECT_WORDS and current and following == "on":
            # "ocean acidification effects on X": the noun before the effect word is the exposure
            phrases.append(Phrase(" ".join(current), "exposure", list(current), after=last_break, stop=index))
            current = []
            effect_mode, last_break = True, lower
            continue
        if skip_of and lower == "of":
            skip_of = False
            continue
        if lower == "terms" and last_break == "in" and following == "of":
            flush()  # "better in terms of delirium": what follows is the outcome
            cue, last_break, skip_of = "outcome", "of", True
            continue
        if (
            (lower == "as" and last_break == "such")
            or lower in {"e.g", "including"}
            or (lower == "like" and current)
        ):
            # "like" after a noun is the preposition ("scales like the PSQI"), not the verb ("I'd like")
            flush()  # "biomarkers such as NGAL": an example of the phrase before
            cue = "example"
            last_break = lower
            continue
        if lower in {"a", "an"} and previous_token in {"i'm", "am"} and not current:
            cue = last_break = "self"  # "I'm a dermatology resident": who the user is, no concept
            about_user = True
            continue
        if about_user and lower in {"i", "we"}:
            about_user = False  # "I'm a nurse and we want to study X": the research begins
        if not current and is_adverb(lower, following, after_next) and last_break in _SUBJECTS_AND_MODALS:
            continue  # "we also measure", "we would ideally pool": the verb after them is still to come
        if (
            not current
            and last_break in lex.MODALS
            and lower.isalpha()
            and lower not in lex.EN_FUNCTION
            and not question_opener(tokens, index)  # "Can wearable cameras ...?": the subject follows
            and verb_here(tokens, index, current) is not False  # "How will climate change ...?"
        ):
            cue = last_break = lower  # "we would pool the trials", "data would come from X": a verb
            continue
        if lower in {"relate", "relates", "relating"} and not current:
            cue, last_break, relating = "predictor", lower, True
            continue  # "relate X to Y": X is what is related (a predictor), Y (after "to") the response
        if (
            not current
            and last_break in {"for", "by", "in", "without"}
            and lower.endswith("ing")
            and lower not in lex.EN_TASK_GERUNDS
            and following[:1].isalnum()
            and gerund_of_verb(lower)
            and verb_here(tokens, index, current) is not False  # "for healing time": a noun
        ):
            cue = last_break = lower  # "for arresting dentine caries": a verb on what follows
            continue
        # ", drawing on X": a participle clause's verb, even one MeSH knows as a noun
        if (
            not current
            and following in _GERUND_PREPOSITIONS
            and (verb_not_term(lower) or _relying_gerund(lower))
        ):
            continue  # ", adjusting for age", "accounting for clustering": a participle clause's verb
        if not current and following in lex.DETERMINERS and is_participle(lower):
            # ", reporting the F1 score", "sampling the sediment": an "-ing" word with an article
            # after it is a verb on its object, no noun of its own
            cue = last_break = lower
            continue
        if (
            not current
            and last_break == "to"
            and index >= 2
            # "we want to pool", and after a copula "the plan is to run X" (the aim, plan or task
            # named before the copula is done by the verb)
            and (tokens[index - 2].lower() in _WANTING or tokens[index - 2].lower() in lex.BE_FORMS)
            and lower.isalpha()
            and lower not in lex.EN_FUNCTION
            and following not in {"-"}
        ):
            cue = last_break = lower  # "we want to pool the trials", "an issue we need to handle"
            continue
        if lower == "to" and relating and current:
            flush()  # "relate workload to emotional exhaustion": the response follows "to"
            cue = last_break = "outcome"
            relating = False
            continue
        if lower in lex.BEFORE_TO_PREPOSITIONS and following == "to" and current:
            flush()  # "flower strips next to orchards", "deaths due to X": a preposition, not a modifier
            cue = last_break = lower
            continue
        if lower in {"versus", "vs"} and (following in lex.EN_FUNCTION or not following[:1].isalnum()):
            flush()  # "by the operator versus by households": the two sides are separate phrases
            cue = last_break = "comparator"
            continue
        if lower in lex.PASSIVE_USE and last_break in lex.BE_FORMS and phrases and phrases[-1].slot is None:
            phrases[-1].cue = "using"  # "smartphone photos can be used to ...": the method
        if (lower in lex.COMPARATIVES and following in {"than", "to"}) or (
            following == "than" and lower.endswith(("er", "ier")) and len(lower) > 4
        ):
            flush()  # "dexmedetomidine better than propofol", "stones smaller than 10 mm"
            last_break = lower
            continue
        if _comparator(lower, last_break, compare_open):
            # "compare X with Y", "X compared with Y", "X instead of Y", "X rather than Y": Y is what
            # X is compared with, and takes X's role (`agent.understanding.rules` resolves it)
            flush()
            cue = last_break = "comparator"
            compare_open = False
            continue
        part_of_speech = verb_here(tokens, index, current, clause_open)
        if (
            # an object right after the verb is read below, as after any verb before an article
            (part_of_speech is True and bool(clause_open) and following not in OBJECT_OPENERS)
            or (part_of_speech is not False and verb_ending_subject(current, lower, following, clause_open))
        ) or _verb_after_modifier(
            current,
            lower,
            following,
            bool(clause_open) and cue in _MODIFIER_CUES and len(phrases) > clause_first,
        ):
            # "whether e-scooter schemes replace car trips", "Does hot-spot policing displace crime":
            # the verb after the subject of a subordinate clause or question ends the subject; as
            # after an effect verb, the subject is the exposure and the object the outcome
            flush()
            subject = _verb_subject(phrases, clause_first)
            task_done = lex.EN_TASK_VERBS_THIRD.get(lower) or lex.EN_TASK_VERBS.get(lower)
            if task_done and subject is not None and subject.cue != "example":
                # "whether PSMA PET detects recurrence": the subject does a task on the object, as in
                # "PSMA PET detects recurrence"
                if subject.slot is None and cue_slot(subject.cue, False) is None:
                    _task_subject(subject, task_done)
                cue, last_break, clause_open = f"task:{task_done}", lower, ""
                continue
            if (
                subject is not None and subject.cue != "example"
            ):  # "models such as X fix Y": X keeps the list's role
                for part in _conjuncts(phrases, subject, clause_first):
                    if part.slot is None and cue_slot(part.cue, False) is None:
                        part.cue = "exposure"
            cue, last_break = "outcome", lower
            clause_open = ""
            continue
        if not current and last_break == "who" and is_clause_verb(lower):
            cue = last_break = lower  # "children who speak Spanish": the relative clause's verb
            clause_open = ""
            continue
        if effect_mode and lower in {"of", "on"} and (not current or lower == "on"):
            flush()  # "the effect of peer tutoring on achievement": the phrase before "on" is the exposure
            cue = "exposure" if lower == "of" else "outcome"
            last_break = lower
            continue
        if effect_mode and lower == "with" and not current and last_break in lex.RELATION_NOUNS:
            cue = last_break = "exposure"  # "its association with salt intake": what it goes with
            continue
        if (
            lower == "at"
            and previous_token == "looking"
            and index > 1
            and tokens[index - 2] == ","
            and not current
        ):
            # ", looking at haemoglobin and fatigue": a participle clause adds what is observed (the topic
            # of "my project looks at X" keeps the roles its own words give)
            cue = last_break = "outcome"
            continue
        if effect_mode and lower == "between" and not current:
            cue = last_break = "exposure"  # "the association between X and Y": X the exposure ...
            between = True
            continue
        if between and lower == "and" and current:
            flush()  # ... and Y the outcome
            cue = last_break = "outcome"
            between = False
            continue
        if not current and last_break in {"i", "we", "they", "you"} and lower.isalpha():
            last_break = cue = lower  # right after a subject pronoun comes its verb ("we measure X")
            if lower in {"have", "had"} and following not in {"to", "been"}:
                cue = "data"  # "we have carcass searches and GPS tracks": what a study has is its data
            continue
        if (
            lower in {"to", "in"}
            and current
            and current[-1].lower() in lex.MEASURE_TO_NOUNS
            and following.isalpha()
            and starts_phrase(following)
            and following not in lex.EN_COMMON_VERBS
        ):
            current.append(token)  # "time to repair", "distance to roads", "time in range": one measure
            continue
        if (
            lower == "of"
            and len(current) == 1
            and current[0].lower() in lex.TIME_SPAN_UNITS
            and following.isalpha()
            and starts_phrase(following)
            and following not in lex.EN_COMMON_VERBS
        ):
            current.append(token)  # "days of antibiotic therapy", "hours of sleep": a duration, one measure
            continue
        if lower == "to" and [w.lower() for w in current] == ["access"] and following[:1].isalnum():
            current = []  # "access to mobile money": what is reached is the concept, with the same cue
            continue
        if lower == "at" and following == "home" and _care_given(current):
            current.append(token)  # "hospital at home", "palliative care at home": one name of a service
            continue
        if lower == "of" and [w.lower() for w in current] == ["sense"] and following[:1].isalnum():
            current = []  # "their sense of autonomy": what is felt is the concept, with the same cue
            continue
        if (
            lower == "in"
            and current
            and singular(current[-1].lower()) in lex.CHANGE_NOUNS
            and all(adjective_shaped(w.lower()) or w.lower() in _CHANGE_MODIFIERS for w in current[:-1])
            and following[:1].isalnum()
            and not _named_by_mesh(current)
        ):
            current = []  # "the annual change in eGFR", "trends in obesity": what changes is the outcome
            cue, last_break = "outcome", lower
            continue
        if lower == "of" and current and all(w.lower() in lex.QUANTITY_NOUNS for w in current):
            current = []  # "the number of falls", "the rates of X": the quantity alone is no term
            cue, last_break = "outcome", lower
            continue
        if lower in {"of", "for"} and current and current[-1].lower() in lex.OUTCOME_MEASURES:
            flush()  # "the risk of X", "risk factors for X": X is the outcome ("risk" alone is no term)
            cue, last_break = "outcome", lower
            continue
        if (
            lower in lex.EFFECT_VERBS
            and lower.endswith("ed")
            and following.isalpha()
            and starts_phrase(following)
            and following not in lex.EN_COMMON_VERBS
            and current
            and len(current) == 1
            and gerund_of_verb(current[-1].lower())
        ):
            current.append(token)  # "suppressing stimulated Brillouin scattering": a gerund's object
            continue
        if (
            lower in lex.EFFECT_VERBS
            and not current
            and lower.endswith("ed")
            and last_break in _BEFORE_A_NOUN_PHRASE
            and following.isalpha()
            and starts_phrase(following)
            and following not in lex.EN_COMMON_VERBS
        ):
            current.append(token)  # "whether protected bike lanes", "improved maize varieties": an adjective
            continue
        if _comparative_inside_a_noun_phrase(current, lower, following, clause_open):
            current.append(token)  # "acute lower respiratory infections": no verb without a subject
            continue
        if lower in lex.EFFECT_VERBS or (
            lower in lex.CHANGE_VERBS
            and current
            and following not in lex.EN_PREPOSITIONS
            and following[:1].isalnum()  # "land use change.": the noun
            and not mesh_compound(current[-1], lower)  # "climate change scenarios": a noun
        ):
            # "X reduces Y", "X changes Y" (not "changes in Y"): X (the phrase just read, if nothing
            # cued it) is the exposure, Y the outcome; with no object ("X increases when Y", "X
            # improves in Z") the verb is intransitive and X is what changes: the outcome
            flush()
            intransitive = not following[:1].isalnum() or following in _CLAUSE_AFTER_VERB
            subject = _verb_subject(phrases, clause_first)
            for part in _conjuncts(phrases, subject, clause_first):
                if part.slot is None and cue_slot(part.cue, False) is None:
                    part.cue = "outcome" if intransitive else "exposure"
            cue, last_break = (None if intransitive else "outcome"), lower
            continue
        if lower == "to" and previous_token in _HAPPENING and following[:1].isalnum():
            flush()  # "What happened to beverage purchases after X?": what something happens to changes
            cue = last_break = "outcome"
            continue
        if lower in {"by", "across"} and last_break in lex.VARYING_VERBS and not current:
            cue = last_break = "exposure"  # "rates differ by city size": what they vary with
            continue
        if NUMBER.match(token) and current and following in lex.UNITS:
            if all(word.lower() in lex.TIME_SPAN_ORDINALS for word in current):
                current = []  # "over the last 400 years": "last" belongs to the span, no concept
            flush()  # "prevalence 12 months after treatment": a time or size ends the phrase
            continue
        if (
            NUMBER.match(token)
            and not current
            and singular(following) in lex.SAMPLE_NOUNS
            and after_next != "with"
            and not (after_next[:1].isalpha() and starts_phrase(after_next))
        ):
            per_unit = True  # "about 2,000 respondents", "40 participants": a sample size, no concept
            continue
        if (
            NUMBER.match(token)
            and not current
            and counted_place(following)
            and (not after_next[:1].isalnum() or after_next in lex.EN_FUNCTION)
        ):
            per_unit = True  # "across 30 villages", "at 40 locations": where the samples come from
            continue
        if (
            lower in {"each", "every"}
            and not current
            and singular(following) in lex.SAMPLING_PLACES
            and (not after_next[:1].isalnum() or after_next in lex.EN_FUNCTION)
        ):
            per_unit = True  # "measured at each site", "in every plot": where samples are taken
            continue
        if NUMBER.match(token) and not current:
            if last_break in _SPAN_WORDS and phrases and phrases[-1].stop >= index - 4:
                cue = phrases[-1].cue  # "panel data from 2019 to 2023 and a VAR": the list goes on
            continue  # a count before its noun ("10,000 patients"): the noun is the concept
        if lower in lex.UNITS and not current and NUMBER.match(previous_token):
            continue  # "at 12 and 30 months", "smaller than 10 mm": a size or a time, not a concept
        if current and lower in lex.STUDY_NOUNS and following in {"of", "in", "on", "among", "with"}:
            # "eye-tracking study of ...", "an fMRI study in ...": what the study is of names the method
            method = "method_measurement" if en_head_slot(current) in {None, "task"} else None
            phrases.append(
                Phrase(" ".join(current), cue, list(current), method, after=last_break, stop=index)
            )
            current = []
            cue, last_break = lower, lower
            continue
        if (
            current
            and all(premodifying_participle(w) for w in current)
            and lower.isalpha()
            and lower not in lex.EN_FUNCTION
            and not lower.endswith("ed")
            and following[:1].isalnum()
            and following not in lex.EN_FUNCTION
        ):
            # "standardized test scores", "targeted sequencing panels": a phrase of participles has no
            # head yet, so the word after them is a noun of it, not a verb
            current.append(token)
            continue
        if (
            lower == "test"
            and not current
            and last_break not in {"i", "we", "they", "to"}
            and is_modifier(following)
        ):
            current.append(token)  # "on test scores": a noun before a noun, not the verb
            continue
        if current and lower in lex.NOUN_OR_VERB and not is_population(current):
            current.append(token)  # "social media use and ...", "test scores": a noun here (people use)
            continue
        if (
            current
            and lower in lex.PLURAL_NOUN_OR_VERB
            and (following in _LIST_ENDS or not following[:1].isalnum())
            and not is_population(current)
        ):
            # "cyclic loading tests and ...", "outcome measures.": a verb takes an object or a clause,
            # so with a joiner, a preposition or punctuation after it the word is the plural noun
            current.append(token)
            continue
        if (
            current
            and is_population(current)
            and singular(current[-1].lower()) not in lex.EN_CONDITION_HEADS
            # a singular noun before an "-ing" noun is a modifier ("child schooling outcomes"), unless
            # the "-ing" word is a known verb ("concrete containing fly ash")
            and (
                singular(current[-1].lower()) != current[-1].lower()
                or current[-1].lower() == "elderly"
                or verb_base(lower) is not None
            )
            and is_participle(lower)
            and any(ch.isalnum() for ch in following)
        ):
            # "children receiving ECMO", "adults living alone": a reduced relative clause after people
            flush()
            cue = last_break = lower
            continue
        if current and last_break == "with" and lower in lex.UNDERGOING_CUES | lex.CONDITION_PARTICIPLES:
            # "people with dementia living at home", "patients with diabetes receiving insulin": the
            # participle of what people with a condition live or go through opens a reduced relative clause
            flush()
            cue = last_break = lower
            continue
        if (
            current
            and is_plural_noun(current[-1])
            and is_participle(lower)
            and gerund_of_verb(lower)
            and following in lex.EN_PREPOSITIONS
        ):
            flush()  # "quadruped robots walking on ice", "trees growing in peat": a reduced relative clause
            cue = last_break = lower
            continue
        if (
            current
            and current[-1].lower().split(" ")[-1] in lex.RECORD_NOUNS
            and is_participle(lower)
            and following[:1].isalnum()
        ):
            flush()  # "cohort studies reporting aphasia", "trials comparing X": a relative clause
            cue = last_break = lower
            continue
        if (
            current
            and lower in lex.PREDICATE_ADJECTIVES
            and (following in lex.EN_PREPOSITIONS | {"than", "and", "or"} or not following[:1].isalnum())
        ):
            # "Is vitamin D supplementation effective for preventing X", "is exercise safe in pregnancy":
            # an English noun phrase ends with its noun, so a judging adjective after it, before a
            # preposition or the clause's end, is the predicate, no word of the term
            flush()
            phrases[-1].before = lower
            for part in _conjuncts(phrases, phrases[-1], clause_first):
                if lower in lex.TEST_JUDGING_ADJECTIVES:
                    _judged_test(part)  # "Is ultrasound accurate for X": what is judged accurate is a test
                elif part.slot is None and cue_slot(part.cue, False) is None:
                    # "Is exercise safe for pregnant women", "Are diet and exercise effective": what is
                    # judged safe or effective is the intervention or exposure
                    part.cue = "exposure"
            cue = last_break = lower
            continue
        if _gerund_head(current, lower, following):
            current.append(token)  # "by tensile testing and DSC", "after damp-heat testing.": the head noun
            continue
        common_verb = lower in lex.EN_COMMON_VERBS and (bool(current) or lower not in lex.EN_PAST_FORMS)
        if (
            not current
            and (lower in lex.EN_VERBS or lower in lex.EN_COMMON_VERBS)
            and verb_here(tokens, index, current) is False
        ):
            current.append(token)  # "with repeat sales", "the study area": no verb after an article
            continue
        # a listed verb's "-s" form that is a plural noun in its place ("Klebsiella isolates from X")
        listed_verb = (lower in lex.EN_VERBS or common_verb) and not (
            lower.endswith("s") and verb_here(tokens, index, current) is False
        )
        if (
            listed_verb
            and current
            and not clause_open
            and no_agreement(tokens, index, current[-1], lower, following)
        ):
            current.append(token)  # "blood lead levels": a bare verb after a singular noun is a noun here
            continue
        # a past participle followed by a preposition is a verb ("characterised by", "isolated from")
        participle = is_past_participle(lower) and (
            following in lex.EN_PREPOSITIONS
            or (bool(current) and not any(ch.isalnum() for ch in following))  # "X preferred."
            # "delivered digitally", "administered orally": a participle before its adverb is a verb
            or (
                bool(current)
                and is_adverb(following, after_next, ".")
                and following not in lex.SENTENCE_ADVERBS
            )
        )
        adverb = lower in lex.SENTENCE_ADVERBS or (
            lower.endswith("ly")
            and len(lower) > 5
            and lower not in lex.LY_NOT_ADVERBS
            # an adverb inside a noun phrase ("critically ill children") is kept with it
            and not (is_modifier(following) and starts_phrase(after_next))
        )
        if lower in lex.EN_FUNCTION or listed_verb or participle or adverb or is_contraction(lower):
            task_object = None
            if current:
                flush()
                phrases[-1].before = lower
                if lower in lex.EN_TASK_VERBS_THIRD and _subject_before(phrases[-1], index):
                    # "Heart rate variability predicts X", "whether CYP2D6 status predicts X": the
                    # subject is the predictor or the test, and X what the task is done on
                    _task_subject(phrases[-1], lex.EN_TASK_VERBS_THIRD[lower])
                    task_object = lex.EN_TASK_VERBS_THIRD[lower]
            if lower in {"whether", "if", "that"} or (lower == "how" and following not in _AUXILIARIES):
                clause_open, clause_first = "clause", len(phrases)
            elif lower in _QUESTION_OPENERS and _opens_question(tokens, index, phrases[clause_first:]):
                clause_open, clause_first = "question", len(phrases)
            elif (
                lower in lex.EN_VERBS
                or lower in lex.EN_COMMON_VERBS
                or lower in lex.EFFECT_VERBS | lex.BE_FORMS
            ):
                clause_open = ""
            transparent = lower in lex.TRANSPARENT or (lower == "on" and last_break == "based")
            if not transparent:
                cue = f"task:{task_object}" if task_object else lower
            if (
                lower == "on"
                and previous_token in lex.DATA_ON_NOUNS
                and phrases
                and phrases[-1].stop == index
            ):
                cue = "data-on"  # "panel data on hotels": the units the data describe are studied
            if lower in {"on", "about"} and last_break in lex.TOPIC_BEFORE_ON:
                cue = "studied"  # "I am working on X", "we care about X": X is the topic studied
            if lower == "against" and last_break in lex.VALIDATING_PARTICIPLES:
                cue = "reference"  # "validated against chart review": the reference standard, a method
            if lower == "on" and last_break in lex.RELYING_BEFORE_ON:
                cue = "using"  # "we rely on registry data": what is relied on is the method
            if lower == "for" and last_break in _ADJUSTING_VERBS:
                cue = "predictor"  # "adjusting for air pollution": a covariate the model takes in
            if lower == "on" and last_break in _LEARNING_PARTICIPLES:
                cue = LEARNED_ON  # "a random forest trained on slope": what the model learns from
            if lower == "to" and last_break in lex.RELATING_PARTICIPLES:
                cue = "outcome"  # "X is related to Y": Y is what X is related to, the outcome
            judged_for = last_break in lex.PREDICATE_ADJECTIVES or (
                bool(judged_after_how) and bool(phrases) and phrases[-1].stop == index
            )
            if (
                lower == "for"
                and judged_for
                and (judged_after_how or last_break) not in lex.TEST_JUDGING_ADJECTIVES
            ):
                # "Is melatonin effective for jet lag", "How effective is exercise for depression": what
                # the intervention is judged effective for is the outcome
                cue = "outcome"
            if lower == "for" and last_break in lex.UNDERGOING_CUES:
                cue = "undergoing"  # "children scheduled for tonsillectomy": the procedure they go through
            if (
                lower == "with"
                and last_break is not None
                and last_break.endswith("ed")
                and last_break not in lex.MEASURING_VERBS
                and last_break not in lex.CONDITION_PARTICIPLES
            ):
                # "treated with ketamine", "supplemented with zinc", "associated with X": what is given
                # or related, not the method (that follows verbs of measuring: "measured with")
                cue = "given"
            # "I'd like ...": after a pronoun with a clitic, as after the pronoun, comes its verb
            last_break = lower.split("'")[0] if is_contraction(lower) else lower
            continue
        if (current or last_break == "and") and verb_here(tokens, index, current) is True:
            # "whether SGLT2 inhibitors slow the decline", "how doping levels tune the overpotential": a
            # noun phrase does not go on past an article, so the word before one is the verb; in a
            # whether-clause or question its subject is the exposure and its object the outcome
            flush()
            phrases[-1].before = lower
            if clause_open:
                for part in _conjuncts(phrases, phrases[-1], clause_first):
                    if part.slot is None and cue_slot(part.cue, False) is None:
                        part.cue = "exposure"
            cue = "outcome" if clause_open else lower
            last_break, clause_open = lower, ""
            continue
        current.append(token)
    index = len(tokens)
    flush()
    _people_acting_on_people(phrases, tokens)
    phrases = clause_roles(phrases, tokens)
    return merge_phrases(phrases)


def _people(words: list[str]) -> bool:
    """A phrase naming people or other living beings: a population head or a plural agent noun."""
    return is_population(words) or agent_plural(words[-1])


def _deliverers(
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


def _people_acting_on_people(phrases: list[Phrase], tokens: list[str]) -> None:
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
            and _people(phrase.words)
            and sentence(phrase) in acted_on
            and singular(phrase.words[-1].lower()) not in lex.EN_CONDITION_HEADS
        ):
            phrase.slot = "context"


# "what happens to X": X is what changes (the outcome)
_HAPPENING = frozenset({"happen", "happens", "happened", "happening"})
# words that open an age range after "aged" ("aged between 5 and 11", "aged over 65")
_AGE_OPENERS = frozenset({"between", "over", "under", "from", "above", "below", "at", "up"})
# words inside an age range ("13 to 17 years", "65 and over", "18 or older", "6-11 months")
_AGE_SPAN_WORDS = _AGE_OPENERS | frozenset(
    {"to", "and", "or", "-", "–", "years", "year", "months", "month", "weeks", "old", "older", "younger"}
)


def _age_number(word: str) -> bool:
    """ "13", "6-11", "65+": a number or a numeric range."""
    return bool(re.fullmatch(r"\d[\d.,]*(?:[-–]\d[\d.,]*)?\+?", word))


def _age_span_end(tokens: list[str], start: int) -> int:
    """The index right after the age range that starts at `start` ("13 to 17", "between 5 and 11 years")."""
    end = start
    while end < len(tokens) and (_age_number(tokens[end]) or tokens[end].lower() in _AGE_SPAN_WORDS):
        end += 1
    while end > start and tokens[end - 1].lower() in {"and", "or", "to", "at"}:
        end -= 1  # "aged 65 and over and women": a joiner after the range joins what follows
    return end


def _inflected_form(word: str) -> bool:
    """An "-ing", "-ed" or "-s" form of a verb (not the bare form an effect verb's object could hold)."""
    return word.endswith(("ing", "ed", "s")) and len(word) > 4


def _bare_verb(word: str, following: str) -> bool:
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


def _inside_a_title(token: str, current: list[str], following: str) -> bool:
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


def _title_case_sentence(tokens: list[str], index: int) -> bool:
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
_SENTENCE_STARTS = _SENTENCE_ENDS | {""}  # the token before a sentence's first ("" at the text's start)


def _judged_test(phrase: Phrase) -> None:
    """What a question judges accurate, reliable or valid is a test or a measure, when neither its head
    word nor MeSH names its kind ("Is lung ultrasound accurate for X"; "Is the PHQ-9 valid in X" keeps
    the slot its own words give)."""
    if phrase.slot is None and en_head_slot(phrase.words) is None and mesh_kind(phrase.text) is None:
        phrase.slot = "method_measurement"


def _modifies_next(word: str, following: str) -> bool:
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


def _care_given(current: list[str]) -> bool:
    """The words read so far name care or a treatment: MeSH files them under health care services and
    facilities (N02: "hospital", "palliative care") or therapeutics (E02: "rehabilitation"), so "at
    home" after them names where that care is given as one service ("hospital at home")."""
    if not current:
        return False
    return any(t.startswith(("N02", "E02")) for t in ending_trees(" ".join(current)))


def _gerund_head(current: list[str], word: str, following: str) -> bool:
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


def _verb_subject(phrases: list[Phrase], clause_first: int) -> Phrase | None:
    """The head of the subject of a verb just read: the phrase before it, or, when the phrases after
    the first of its clause are all modifiers of it (a preposition or a participle before each: "cover
    crops grown between maize seasons increase X"), that first phrase."""
    if not phrases:
        return None
    first = clause_first if 0 <= clause_first < len(phrases) - 1 else len(phrases) - 1
    modifiers = phrases[first + 1 :]
    if modifiers and all(
        p.cue is not None and (p.cue in _MODIFIER_CUES or is_past_participle(p.cue)) for p in modifiers
    ):
        return phrases[first]
    return phrases[-1]


def _verb_after_modifier(current: list[str], word: str, following: str, in_modifier: bool) -> bool:
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


def _conjuncts(phrases: list[Phrase], subject: Phrase | None, clause_first: int) -> list[Phrase]:
    """The subject of a verb with the phrases coordinated with it before it in its clause ("how
    protected and painted bike lanes affect X", "whether diet and exercise reduce X": each acts on X)."""
    if subject is None:
        return []
    index = next(i for i, p in enumerate(phrases) if p is subject)
    parts = [subject]
    # "how fatigue and time on duty affect X": a modifier ("on duty") leads back to its head ("time")
    while index > max(clause_first, 0) and (
        phrases[index].after in {"and", "or"} or phrases[index].after in _MODIFIER_CUES
    ):
        index -= 1
        parts.append(phrases[index])
    return parts


# modifiers of a change noun that only say how it is measured ("annual change", "mean difference")
def _named_by_mesh(words: list[str]) -> bool:
    """Whether MeSH names the phrase as a whole ("cognitive decline": an entry term of Cognitive
    Dysfunction): then it is a concept, not a change of what follows "in" ("in older adults")."""
    vocabulary = embedded_vocabulary()
    return len(words) > 1 and vocabulary is not None and vocabulary.knows(" ".join(words))


_CHANGE_MODIFIERS = frozenset(
    {"annual", "mean", "average", "median", "relative", "absolute", "net", "overall"}
)
# prepositions that attach a phrase to the noun before it ("walls along coasts", "the diet of farmers")
_MODIFIER_CUES = lex.EN_PREPOSITIONS | {
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


def _opens_question(tokens: list[str], index: int, clause: list[Phrase]) -> bool:
    """ "Does X ...?", "Can X ...?", "How do X ...?", "How will X ...?": an auxiliary or modal before
    the subject of a question (no phrase of the clause read yet), whose verb follows the subject."""
    before = tokens[index - 1].lower() if index else ""
    return not clause and (question_opener(tokens, index) or before == "how")


def _degree_word(word: str, following: str, after_next: str) -> bool:
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


def _relying_gerund(word: str) -> bool:
    return word.endswith("ing") and word in lex.RELYING_BEFORE_ON


def _comparator(word: str, last_break: str | None, compare_open: bool) -> bool:
    """The word that opens what something is compared with: "with"/"to"/"against" after a verb of
    comparing ("compare X with Y", "compared to Y"), "of" after "instead", "than" after "rather"."""
    return (
        (word in {"with", "to", "against"} and compare_open)
        or (word == "of" and last_break == "instead")
        or (word == "than" and last_break is not None and is_comparative(last_break))
    )


# what may follow a plural noun and not a verb's object ("loading tests and", "outcome measures in")
_LIST_ENDS = frozenset({"and", "or", "in", "at", "of", "for", "on", "during", "across", "from", "with"})
# words after which a noun phrase starts, so an "-ed" form right after them is its adjective
_BEFORE_A_NOUN_PHRASE = frozenset(
    {None, "whether", "if", "that", "how", "of", "in", "on", "for", "with", "from", "by"}
)
# "Does X ...?", "Can X pick Y?": the auxiliary or modal a question opens with, its verb after the subject
_QUESTION_OPENERS = frozenset({"does", "do", "did"}) | lex.MODALS
# "how farmers adapt X" is a clause whose verb follows its subject; "how have X ...", "how X was framed"
# are not read so ("how" before an auxiliary)
_AUXILIARIES = _QUESTION_OPENERS | lex.BE_FORMS | {"have", "has", "had"}
_SUBJECTS_AND_MODALS = frozenset({"i", "we", "they", "you"}) | lex.MODALS
# verbs whose "for" names the covariates a model is adjusted for ("adjusting for X", "controlling for X")
_ADJUSTING_VERBS = frozenset(
    {"adjust", "adjusts", "adjusted", "adjusting", "control", "controls", "controlled", "controlling"}
    | {"account", "accounts", "accounted", "accounting"}
)
# participles whose "on" names what a model learns from ("trained on", "fitted on")
_LEARNING_PARTICIPLES = frozenset({"trained", "pretrained", "fitted", "calibrated"})
# words of a span of numbers ("from 2019 to 2023", "between 10 and 20")
_SPAN_WORDS = frozenset({"from", "to", "between", "and", "since", "until", "in", "during", "through"})
# abbreviations whose full stop ends no sentence ("e.g.", "i.e.", "et al.")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "al", "cf", "approx"})
# verbs after which "to" + a word is an infinitive ("we want to pool the trials")
_WANTING = frozenset(
    {"want", "wants", "need", "needs", "wish", "hope", "plan", "plans", "try", "like", "aim"}
)
# what follows an effect verb used without an object ("X increases when ...", "X improves in Y")
_CLAUSE_AFTER_VERB = frozenset({"when", "if", "whenever", "because", "while", "as", "after", "once"}) | (
    lex.EN_PREPOSITIONS - {"by", "with", "using", "via", "through"}
)


# prepositions a verb in "-ing" takes right after it ("adjusting for", "relying on", "looking at")
_GERUND_PREPOSITIONS = frozenset({"for", "on", "at", "upon"})


def _subject_before(phrase: Phrase, verb_start: int) -> bool:
    """True when `phrase` ends right where the verb (or its modal) starts and nothing gave it a role:
    it is the verb's subject ("Lung ultrasound may diagnose X", not "we may diagnose X")."""
    return phrase.stop == verb_start and phrase.cue in _NO_ROLE_CUES and phrase.slot is None


# what may stand before a verb's subject without giving it a role ("whether X predicts Y")
_NO_ROLE_CUES = frozenset({None, "whether", "if", "that"})


# tasks whose subject, when a modal joins them, is the test that does the task ("Lung ultrasound may
# diagnose heart failure", "Serum ferritin could identify X") or what it predicts from ("Step counts
# might predict falls", as in the question "Can X predict Y?")
_TESTING_TASKS = frozenset({"detection", "diagnosis", "screening", "identification", "classification"})
_PREDICTING_TASKS = frozenset({"prediction", "forecasting"})


def _task_subject(phrase: Phrase, task_noun: str) -> None:
    """Give the subject of a task verb the role that task gives it: a predictor (whose own head word
    still decides, as after the question "Can X predict Y?"), or a test when its own words say nothing
    else."""
    if task_noun in _PREDICTING_TASKS:
        phrase.cue = "predictor"
    elif (
        task_noun in _TESTING_TASKS and en_head_slot(phrase.words) is None and mesh_kind(phrase.text) is None
    ):
        phrase.slot = "method_measurement"


def _comparative_inside_a_noun_phrase(
    current: list[str], word: str, following: str, clause_open: str
) -> bool:
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
