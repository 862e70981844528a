"""Rules of the English phrase cutter for words and spans that make no term of their own.

A sample size, an age range, a unit, a year, how often or how far, the user speaking of themselves, and
the verbs that come after a subject, a modal, "who" or "want to": each is taken here and makes no
phrase (a rule returns True when it took the token; `english_phrases.RULES` gives the order).
"""

from __future__ import annotations

import re

from agent.language.english_forms import gerund
from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.english_clauses import is_clause_verb
from agent.understanding.english_phrase_rules.reading import PhraseReading
from agent.understanding.english_phrase_rules.word_context import (
    AGE_OPENERS,
    SENTENCE_STARTS,
    age_number,
    age_span_end,
    bare_verb,
    degree_word,
    relying_gerund,
)
from agent.understanding.english_pos import verb_here
from agent.understanding.english_tokens import NUMBER, starts_phrase
from agent.understanding.english_word_forms import (
    counted_place,
    gerund_of_verb,
    is_adverb,
    is_participle,
    is_past_participle,
    question_opener,
    verb_not_term,
)
from agent.understanding.phrase import Phrase
from agent.understanding.slot_translation import embedded_vocabulary

_SUBJECTS_AND_MODALS = frozenset({"i", "we", "they", "you"}) | lex.MODALS
# words of a span of numbers ("from 2019 to 2023", "between 10 and 20")
_SPAN_WORDS = frozenset({"from", "to", "between", "and", "since", "until", "in", "during", "through"})
# verbs after which "to" + a word is an infinitive ("we want to pool the trials")
_WANTING = frozenset(
    {"want", "wants", "need", "needs", "wish", "hope", "plan", "plans", "try", "like", "aim"}
)


# adverbs of time a passive verb takes right after it ("digested overnight", "recorded twice")
_TIME_ADVERBS = frozenset({"overnight", "again", "later", "first", "once", "twice"})

# prepositions a verb in "-ing" takes right after it ("adjusting for", "relying on", "looking at")
_GERUND_PREPOSITIONS = frozenset({"for", "on", "at", "upon"})


def unit_after_per(r: PhraseReading) -> bool:
    """The unit after "per" ("injuries per ward", "deaths per 1,000 births") is no concept."""
    if r.per_unit and r.token.isalnum():
        r.per_unit = False
        return True
    return False


def rest_of_a_read_span(r: PhraseReading) -> bool:
    """Tokens read with the one before them ("as effective as") are passed."""
    return r.index < r.skip_to


# A request to the assistant for papers, opening a sentence ("Can you find papers about X", "Please search
# for studies on X", "Give me recent literature on X"): how the papers are to be found, no concept. Design
# words ("trials", "reviews") are not passed: a wish for a design is read where it stands.
_REQUEST_OPENERS = frozenset({"please", "kindly", "can", "could", "would", "will", "you"})
# (not "identify", "collect" or "retrieve": "Identify biomarkers of sepsis" may be the research's own task)
_REQUEST_VERBS = frozenset(
    {"find", "search", "look", "give", "show", "get", "send", "list", "recommend", "suggest", "locate"}
)
_REQUEST_FILLERS = frozenset(
    {"for", "up", "me", "us", "all", "any", "some", "the", "recent", "relevant", "published", "key"}
    | {"latest", "new", "existing", "available", "good", "a", "few", "more"}
)
_PAPER_NOUNS = frozenset(
    {"paper", "papers", "study", "studies", "article", "articles", "literature", "evidence", "research"}
    | {"publication", "publications", "work"}
)
_TOPIC_WORDS = frozenset({"about", "on", "of", "regarding", "concerning", "into", "covering", "addressing"})


def _request_end(tokens: list[str], index: int) -> int:
    """The index after a request for papers opening the sentence at `index` (`_REQUEST_VERBS`), or
    `index` when none opens there: "Can you find papers about" X, "Search for" X, "Give me recent
    literature on" X."""
    at = index
    while at < len(tokens) and tokens[at].lower() in _REQUEST_OPENERS:
        at += 1
    if at >= len(tokens) or tokens[at].lower() not in _REQUEST_VERBS:
        return index
    at += 1
    while at < len(tokens) and tokens[at].lower() in _REQUEST_FILLERS:
        at += 1
    if at < len(tokens) and tokens[at].lower() in _PAPER_NOUNS:
        at += 1
        if at < len(tokens) and tokens[at].lower() in _TOPIC_WORDS:
            at += 1
    return at


def request_for_papers(r: PhraseReading) -> bool:
    """ "Can you find papers about mindfulness apps for anxiety?", "Please search for studies of
    exercise for depression": the request names no concept ("search" had been one); what follows is the
    topic, read as after "about"."""
    if r.current or r.previous_token not in SENTENCE_STARTS:
        return False
    end = _request_end(r.tokens, r.index)
    if end == r.index:
        return False
    r.skip_to = end
    r.cue = r.last_break = "about"
    return True


def age_range(r: PhraseReading) -> bool:
    """ "adolescents aged 13 to 17": the age range says who is sampled, no word of the people's term."""
    if r.lower == "aged" and r.current and (age_number(r.following) or r.following in AGE_OPENERS):
        # "adolescents aged 13 to 17", "adults aged 65 and over": the age range says who is
        # sampled (a size of the sample, as neutral as one), no part of the people's term
        r.flush()
        r.skip_to = age_span_end(r.tokens, r.index + 1)
        return True
    return False


def purpose_in_order_to(r: PhraseReading) -> bool:
    """ "in order to improve adherence", "so as to reduce X": the purpose's "to", no phrase "order"."""
    if r.lower in {"in", "so"} and r.following in {"order", "as"} and r.after_next == "to":
        r.flush()
        r.purpose_opening = r.previous_token in SENTENCE_STARTS
        r.skip_to = r.index + 2
        return True
    return False


def purpose_opens_sentence(r: PhraseReading) -> bool:
    """ "To reduce falls, we ...": a purpose that opens a sentence ends at its comma."""
    if r.lower == "to" and r.previous_token in SENTENCE_STARTS:
        r.purpose_opening = True
    return False


# the prepositions a verb takes its complement with ("people who care for X", "who worry about X"): the
# verb then names a relation to X, not a condition of the people
_VERB_COMPLEMENTS = frozenset({"for", "about", "to", "with", "on", "of", "from"})


def condition_verb_after_who(r: PhraseReading) -> bool:
    """ "children who stammer", "adults who smoke", "older people who fall": a relative clause's verb
    whose gerund MeSH names (stammering -> Stuttering, smoking, falling -> Accidental Falls) is what the
    people do or have, their condition: the gerund is a phrase under the cue "who" (the condition of
    the people before it), and the verb is taken. A verb with an object ("who swallow button
    batteries": the object is the concept), with its complement preposition after it ("who care for")
    or whose gerund MeSH has no term for ("who live", "who attend") is left to the rules after it, unless
    the gerund and the word after it are a term MeSH names ("who live alone": living alone)."""
    if r.current or r.previous_token != "who" or r.tokens[r.index - 1] == "WHO":
        return False
    word = r.lower
    if not (r.token.isalpha() and r.token.islower()) or r.following in _VERB_COMPLEMENTS:
        return False
    if word in lex.EN_FUNCTION or word in lex.BE_FORMS or word in lex.MODALS or word.endswith("ly"):
        return False
    if word in {"do", "does", "did", "have", "has", "had"}:
        return False
    noun = gerund(word)
    vocabulary = embedded_vocabulary()
    if noun == word or vocabulary is None:
        return False
    pair = f"{noun} {r.following}"
    if r.following.isalpha() and vocabulary.knows(pair):
        # "who live alone": the gerund with the word after it is a term MeSH names (Living Alone, an entry
        # term of Home Environment), what the people do, a phrase of its own
        r.phrases.append(Phrase(pair, "who", pair.split(), after="who", stop=r.index + 2))
        r.cue = r.last_break = word
        r.skip_to = r.index + 2
        return True
    if r.following[:1].isalnum() and r.following not in lex.EN_FUNCTION:
        return False  # "who swallow button batteries", "who lift weights": the verb has an object
    if not vocabulary.knows(noun):
        return False
    r.phrases.append(Phrase(noun, "who", [noun], after="who", stop=r.index + 1))
    r.cue = r.last_break = word
    return True


def verb_after_who(r: PhraseReading) -> bool:
    """ "adults who smoke": a relative pronoun's bare verb, no term."""
    if (
        not r.current
        and r.previous_token == "who"
        and r.tokens[r.index - 1] != "WHO"
        and bare_verb(r.lower, r.following)
    ):
        r.cue = r.last_break = r.lower
        return True
    return False


def frequency_adverb(r: PhraseReading) -> bool:
    """ "assessed daily with X", "digested overnight in X": how often or when, and the verb's
    preposition follows."""
    return bool(
        (r.lower in lex.FREQUENCY_ADVERBS or r.lower in _TIME_ADVERBS)
        and not r.current
        and r.last_break
        and is_past_participle(r.last_break)
    )


def judgement_before_outcome(r: PhraseReading) -> bool:
    """ "better language outcomes than X": the judgement is no part of the outcome."""
    return bool(
        r.lower in {"better", "worse"}
        and not r.current
        and r.following[:1].isalpha()
        and r.following != "than"
    )


def degree_after_how(r: PhraseReading) -> bool:
    """ "how common is Y", "how much does X cost": the degree asked about, no term."""
    return bool(r.previous_token == "how" and degree_word(r.lower, r.following, r.after_next))


def scope_word(r: PhraseReading) -> bool:
    """ "medical students worldwide": how far the study reaches, not part of the phrase."""
    if r.lower in lex.SCOPE_WORDS and r.current:
        r.flush()
        return True
    return False


def note_interjection(r: PhraseReading) -> bool:
    """ "Cohort studies ok, any language fine. RCTs pls, thanks!": what a hurried note says to its
    reader (an interjection, a politeness word, "fine" after what it allows) ends the phrase before it
    and is no term; so is the language of the papers ("any language"), a limit of the search."""
    allowing = r.lower in lex.NOTE_ALLOWING and not r.following[:1].isalnum()
    language = (
        singular(r.lower) == "language"
        and r.previous_token in lex.PAPER_LANGUAGE_QUANTIFIERS
        and (not r.following[:1].isalnum() or r.following in lex.NOTE_ALLOWING)
    )
    if r.lower in lex.NOTE_INTERJECTIONS or allowing or language:
        if language and r.current and r.current[-1].lower() == r.previous_token:
            r.current.pop()
        r.flush()
        return True
    return False


_ALTERNATIVES = frozenset({"versus", "vs", "vs.", "or", "and"})


def manner_of_delivery(r: PhraseReading) -> bool:
    """ "CBT delivered online versus face-to-face", "interventions given remotely": a participle of
    delivering and the manner after it (with the manners it is compared with) are passed: the mode of
    an intervention, not a concept to search for nor a part of the intervention's name."""
    tokens = r.tokens
    if not (r.current and r.lower in lex.DELIVERING_PARTICIPLES and r.following in lex.DELIVERY_MANNERS):
        return False
    end = r.index + 2
    while (
        end + 1 < len(tokens)
        and tokens[end].lower() in _ALTERNATIVES
        and tokens[end + 1].lower() in lex.DELIVERY_MANNERS
    ):
        end += 2
    r.skip_to = end  # the phrase read goes on to what follows the manner (a verb ends it there)
    return True


def per_ends_phrase(r: PhraseReading) -> bool:
    """ "injuries per ward": "per" ends the phrase; its unit is passed."""
    if r.lower == "per" and r.current:
        r.flush()
        r.per_unit = True
        return True
    return False


# the copula after the user as its subject, written with it ("I'm", "we're") or apart ("I am", "we are")
_USER_COPULAS = {"i'm": "", "we're": "", "am": "i", "are": "we"}
# verbs of where the user works, with the prepositions that name a field, a post or a place ("I work in
# health services research", "we work as midwives"); "work on X" names the research, not the user
_USER_WORK = frozenset({"work", "works"})
_USER_FIELD_PREPOSITIONS = frozenset({"in", "as", "at", "for", "from"})


def _user_verb(tokens: list[str], index: int) -> str:
    """The verb at `index` when the user is its subject at the start of a sentence ("I'm", "We are",
    "I work"): the verb, lower-case, else ""."""
    verb = tokens[index].lower() if 0 <= index < len(tokens) else ""
    if verb in _USER_COPULAS and not _USER_COPULAS[verb]:
        subject_at = index
    elif verb in _USER_COPULAS or verb in _USER_WORK:
        if index < 1 or tokens[index - 1].lower() not in {"i", "we"}:
            return ""
        if verb in _USER_COPULAS and tokens[index - 1].lower() != _USER_COPULAS[verb]:
            return ""
        subject_at = index - 1
    else:
        return ""
    opens = subject_at == 0 or not any(ch.isalnum() for ch in tokens[subject_at - 1])
    return verb if opens else ""


def user_about_themselves(r: PhraseReading) -> bool:
    """ "I'm a dermatology resident", "We are occupational therapists", "I'm in public health policy", "I
    work in health services research": who the user is, the field or the place they work in, names no
    concept. The user is the subject of a copula or of "work" at the start of a sentence, and what
    follows is a role (after an article, or a noun that is no participle, adverb or adjective of
    interest: "we are studying X" and "we are interested in X" name the research) or a field (after a
    preposition of place or post)."""
    if r.current:
        return False
    verb = _user_verb(r.tokens, r.index - 1)
    if not verb:
        return False
    copula = verb in _USER_COPULAS
    role = r.lower in {"a", "an"} and copula
    plural_role = (
        copula
        and verb in {"we're", "are"}
        and r.token.isalpha()
        and r.lower not in lex.EN_FUNCTION
        and r.lower not in _INTERESTED
        and not r.lower.endswith("ing")  # "we are training teachers": a progressive, the research
        and not is_participle(r.lower)
        and not is_past_participle(r.lower)
        and not is_adverb(r.lower, r.following, r.after_next)
    )
    field = r.lower in _USER_FIELD_PREPOSITIONS and (copula or verb in _USER_WORK)
    if not (role or plural_role or field):
        return False
    r.cue = r.last_break = "self"
    r.about_user = True
    if plural_role:
        r.current.append(r.token)  # "we are nurses": the role's first word is in hand
    return True


# the user as the subject that follows a role opening the sentence ("As a midwife I'd like ...")
_USER_SUBJECTS = frozenset({"i", "we", "i'm", "i'd", "we're", "we'd", "we've", "i've", "our", "my"})
# how many words a role may take before its subject ("As a consultant paediatric anaesthetist, we ...")
_ROLE_WORDS = 5


def role_opens_sentence(r: PhraseReading) -> bool:
    """ "As an oral surgeon I want to know ...", "As a public health researcher, I am evaluating ...",
    "As midwives, we want ...": a role after the "as" that opens a sentence, followed within a few
    words by the user as subject, is who the user is and names no concept (an idiom's noun, "As a
    result, we ...", is passed alike and names none either)."""
    if r.current or r.lower != "as" or r.previous_token not in SENTENCE_STARTS:
        return False
    start = r.index + 2 if r.following in {"a", "an"} else r.index + 1
    if not _user_follows(r.tokens, start):
        return False
    r.cue = r.last_break = "self"
    r.about_user = True
    return True


def _user_follows(tokens: list[str], start: int) -> bool:
    """Whether the user's pronoun comes within `_ROLE_WORDS` words after `start`, after at least one
    word and with no punctuation but a comma and no function word between."""
    for offset, token in enumerate(tokens[start : start + _ROLE_WORDS + 1]):
        lower = token.lower()
        if lower in _USER_SUBJECTS:
            return offset > 1 or (offset == 1 and tokens[start] != ",")
        if (not any(ch.isalnum() for ch in token) and token != ",") or lower in lex.EN_FUNCTION:
            return False  # "As a proxy for frailty we ...": a preposition, no role
    return False


def research_after_user(r: PhraseReading) -> bool:
    """ "I'm a nurse and we want to study X": the research begins; so it does at a clause the user's
    interest opens ("I'm a sports physician curious whether X prevents Y", "... keen to know how X")."""
    if r.about_user and r.lower in {"i", "we"}:
        r.flush()  # "As a midwife I'd like ...": the role ends at the user's pronoun
        r.about_user = False
    if r.about_user and r.lower == "and" and (r.following in _WANTING or r.following == "would"):
        r.flush()  # "I work as a midwife and want to compare X with Y": the user's wish is the research
        r.about_user = False
    if r.about_user and r.lower in _CLAUSE_OPENERS:
        r.flush()
        r.about_user = False
    return False


# words that open the clause of what the user asks ("curious whether", "wondering if", "keen to know how")
_CLAUSE_OPENERS = frozenset({"whether", "if", "how", "why", "what", "which"})


# adjectives of a person's interest after their role ("I'm a dietitian interested in X")
_INTERESTED = frozenset({"interested", "keen", "focused", "focussed", "involved", "engaged"})


def research_after_the_role(r: PhraseReading) -> bool:
    """ "I'm a pharmacist studying adherence to X", "I'm a dietitian interested in whether X": the role
    the user names ends at a participle or an adjective of interest, and the research begins; an
    adjective of interest ends it after a conjunction too ("I'm in health policy and interested in X")."""
    if r.about_user and (r.lower in _INTERESTED or (r.current and is_participle(r.lower))):
        r.flush()
        r.about_user = False
        r.cue = r.last_break = r.lower
        return True
    if r.about_user and r.current and r.lower in lex.EN_TASK_GERUNDS and _names_a_role(r):
        # "I'm a hydrologist modelling groundwater recharge": a verb of the research's task ends the
        # role too, and is a cue on its object as it is opening a sentence (`clause_cues.task_verb`)
        r.flush()
        r.about_user = False
        r.cue, r.last_break = f"task:{lex.EN_TASK_GERUNDS[r.lower]}", r.lower
        return True
    return False


def _names_a_role(r: PhraseReading) -> bool:
    """The words in hand name a person's role ("I'm a hydrologist", "we're a team of engineers"), which a
    verb may follow; after a field's preposition ("a PhD student in disease mapping") they name the
    field, whose last word may be a task's."""
    before = r.index - len(r.current) - 1
    return before >= 0 and r.tokens[before].lower() not in _USER_FIELD_PREPOSITIONS


def adverb_after_subject(r: PhraseReading) -> bool:
    """ "we also measure", "we would ideally pool": the verb is still to come."""
    return bool(
        not r.current
        and is_adverb(r.lower, r.following, r.after_next)
        and r.last_break in _SUBJECTS_AND_MODALS
    )


def verb_after_modal(r: PhraseReading) -> bool:
    """ "we would pool the trials": the word after a modal is a verb."""
    if (
        not r.current
        and r.last_break in lex.MODALS
        and r.lower.isalpha()
        and r.lower not in lex.EN_FUNCTION
        and not question_opener(r.tokens, r.index)  # "Can wearable cameras ...?": the subject follows
        and verb_here(r.tokens, r.index, r.current) is not False  # "How will climate change ...?"
    ):
        r.cue = r.last_break = r.lower  # "we would pool the trials", "data would come from X": a verb
        return True
    return False


def passive_participle_after_be(r: PhraseReading) -> bool:
    """ "Delirium is screened daily with the 4AT", "samples were digested overnight in acid": a past
    participle right after a form of "be" and before an adverb or the end of the clause is the passive
    verb, not a word of a noun phrase; it gives the next phrase its cue ("screened ... with": the
    method), and how often it is done is no term (`frequency_adverb`)."""
    if (
        r.current
        or r.previous_token not in lex.BE_FORMS
        or not is_past_participle(r.lower)
        or not (
            r.following in lex.FREQUENCY_ADVERBS
            or r.following in _TIME_ADVERBS
            or is_adverb(r.following, r.after_next, ".")
            or not any(ch.isalnum() for ch in r.following)
        )
    ):
        return False
    r.cue = r.last_break = r.lower
    r.clause_open = ""
    return True


def gerund_after_preposition(r: PhraseReading) -> bool:
    """ "for arresting dentine caries": a gerund is a verb on what follows."""
    if (
        not r.current
        and r.last_break in {"for", "by", "in", "without"}
        and r.lower.endswith("ing")
        and r.lower not in lex.EN_TASK_GERUNDS
        and r.following[:1].isalnum()
        and gerund_of_verb(r.lower)
        and verb_here(r.tokens, r.index, r.current) is not False  # "for healing time": a noun
    ):
        after_for = r.last_break == "for"
        r.cue = r.last_break = r.lower
        if after_for and _purpose_of_an_intervention(r):
            # "Is X as effective as Y for arresting dentine caries", "X for halting bone loss": what
            # an intervention is for doing something to is its outcome, whatever the verb
            r.cue = "outcome"
        return True
    return False


def _purpose_of_an_intervention(r: PhraseReading) -> bool:
    """The "for" before the gerund in hand follows an intervention or what it is judged ("X as
    effective as Y for", "effective for"), not a study's method or task ("a model for")."""
    before_for = r.tokens[r.index - 2].lower() if r.index >= 2 else ""
    if before_for in lex.PREDICATE_ADJECTIVES:
        return True
    last = r.phrases[-1] if r.phrases else None
    return last is not None and last.stop == r.index - 1 and last.cue in {"exposure", "comparator"}


def participle_clause_verb(r: PhraseReading) -> bool:
    """ ", adjusting for age", ", drawing on X": a participle clause's verb."""
    # ", drawing on X": a participle clause's verb, even one MeSH knows as a noun
    return (
        not r.current
        and r.following in _GERUND_PREPOSITIONS
        and (verb_not_term(r.lower) or relying_gerund(r.lower))
    )


# prepositions that open the complement of a participle modifying the noun before it ("clarithromycin
# interacting with statins", "bacteria adhering to implants"); not those of place and time, after which
# an "-ing" word is as often a noun of its own compound ("electric vehicle charging in", "protein
# folding in")
_COMPLEMENT_PREPOSITIONS = frozenset({"with", "to"})


def participle_after_noun(r: PhraseReading) -> bool:
    """ "clarithromycin interacting with statins": an "-ing" verb that names no term (`verb_not_term`),
    after a noun and before a preposition, starts a clause about the noun; the noun's term ends there."""
    if r.current and r.following in _COMPLEMENT_PREPOSITIONS and verb_not_term(r.lower):
        r.flush()
        r.last_break = r.lower
        return True
    return False


def participle_before_article(r: PhraseReading) -> bool:
    """ ", reporting the F1 score": an "-ing" word before an article is a verb."""
    if not r.current and r.following in lex.DETERMINERS and is_participle(r.lower):
        # ", reporting the F1 score", "sampling the sediment": an "-ing" word with an article
        # after it is a verb on its object, no noun of its own
        r.cue = r.last_break = r.lower
        return True
    return False


def infinitive_after_wanting(r: PhraseReading) -> bool:
    """ "we want to pool the trials", "the plan is to run X": the infinitive is a verb."""
    if (
        not r.current
        and r.last_break == "to"
        and r.index >= 2
        # "we want to pool", and after a copula "the plan is to run X" (the aim, plan or task
        # named before the copula is done by the verb)
        and (r.tokens[r.index - 2].lower() in _WANTING or r.tokens[r.index - 2].lower() in lex.BE_FORMS)
        and r.lower.isalpha()
        and r.lower not in lex.EN_FUNCTION
        and r.following not in {"-"}
    ):
        r.cue = r.last_break = r.lower  # "we want to pool the trials", "an issue we need to handle"
        return True
    return False


def relative_clause_verb(r: PhraseReading) -> bool:
    """ "children who speak Spanish": the relative clause's verb."""
    if not r.current and r.last_break == "who" and is_clause_verb(r.lower):
        r.cue = r.last_break = r.lower
        r.clause_open = ""
        return True
    return False


def verb_after_pronoun(r: PhraseReading) -> bool:
    """ "we measure X": right after a subject pronoun comes its verb."""
    if not r.current and r.last_break in {"i", "we", "they", "you"} and r.lower.isalpha():
        r.last_break = r.cue = r.lower  # right after a subject pronoun comes its verb ("we measure X")
        if r.lower in {"have", "had"} and r.following not in {"to", "been"}:
            r.cue = "data"  # "we have carcass searches and GPS tracks": what a study has is its data
        return True
    return False


def number_before_unit(r: PhraseReading) -> bool:
    """ "prevalence 12 months after treatment": a time or size ends the phrase."""
    if NUMBER.match(r.token) and r.current and r.following in lex.UNITS:
        if all(word.lower() in lex.TIME_SPAN_ORDINALS for word in r.current):
            r.current = []  # "over the last 400 years": "last" belongs to the span, no concept
        r.flush()
        return True
    return False


def sample_size(r: PhraseReading) -> bool:
    """ "about 2,000 respondents", "40 participants": a sample size, no concept."""
    if (
        NUMBER.match(r.token)
        and not r.current
        and singular(r.following) in lex.SAMPLE_NOUNS
        and r.after_next != "with"
        and not (r.after_next[:1].isalpha() and starts_phrase(r.after_next))
    ):
        r.per_unit = True
        return True
    return False


def counted_places(r: PhraseReading) -> bool:
    """ "across 30 villages", "at 40 locations": where the samples come from."""
    if (
        NUMBER.match(r.token)
        and not r.current
        and counted_place(r.following)
        and (not r.after_next[:1].isalnum() or r.after_next in lex.EN_FUNCTION)
    ):
        r.per_unit = True
        return True
    return False


def each_sampling_place(r: PhraseReading) -> bool:
    """ "measured at each site", "in every plot": where samples are taken."""
    if (
        r.lower in {"each", "every"}
        and not r.current
        and singular(r.following) in lex.SAMPLING_PLACES
        and (not r.after_next[:1].isalnum() or r.after_next in lex.EN_FUNCTION)
    ):
        r.per_unit = True
        return True
    return False


# a calendar year, or a span of them ("2015-2022", "2010/11")
_YEARS = re.compile(r"^(?:1[5-9]|20)\d\d(?:[-–/](?:(?:1[5-9]|20)\d\d|\d\d))?$")


def years_after_noun(r: PhraseReading) -> bool:
    """ "panel data 2015-2022, diff-in-diff": a year or span of years written right after a noun phrase,
    where the phrase ends, is when its data are from (a time span, no concept), not a word of the term.
    A single year after a capitalised word may be part of a name ("Horizon 2020") and is left alone."""
    if not (r.current and _YEARS.match(r.token)):
        return False
    if r.following[:1].isalnum() and r.following not in lex.EN_FUNCTION:
        return False
    if not any(dash in r.token for dash in "-–/") and not r.previous_token.islower():
        return False
    r.flush()
    return True


def bare_number(r: PhraseReading) -> bool:
    """A count before its noun ("10,000 patients") or a year of a span is no concept."""
    if NUMBER.match(r.token) and not r.current:
        if r.last_break in _SPAN_WORDS and r.phrases and r.phrases[-1].stop >= r.index - 4:
            r.cue = r.phrases[-1].cue  # "panel data from 2019 to 2023 and a VAR": the list goes on
        return True
    return False


def unit_after_number(r: PhraseReading) -> bool:
    """ "at 12 and 30 months", "smaller than 10 mm": a size or a time, not a concept."""
    return bool(r.lower in lex.UNITS and not r.current and NUMBER.match(r.previous_token))


def age_after_unit(r: PhraseReading) -> bool:
    """ "4-7 year olds", "children 5 years old": "old(s)" after a number and its unit of time says an
    age (as neutral as "aged 4 to 7"), no concept of its own."""
    before_unit = r.tokens[r.index - 2] if r.index >= 2 else ""
    return bool(
        r.lower in {"old", "olds"}
        and not r.current
        and r.previous_token in lex.UNITS
        and NUMBER.match(before_unit)
    )
