"""The regular English forms a Chinese word's senses take inside a composed term (no dictionary lists them).

Why a module of its own: `agent.language.bilingual` cuts and composes Chinese phrases; which English
form a sense takes where it lands is English word formation, one job apart: a verb at the head is its
action noun or gerund (migrate -> migration, decode -> decoding), a discipline before a head its adjective
(biology -> biological), a people word at the head is plural (patients, but "personnel"), 者 after a verb
its agent noun (learn -> learner), 性/度 closing a phrase the quality noun of an adjective (fair ->
fairness). Only regular derivations are made; CC-CEDICT's own definitions tell a real word from a guess
where that matters (`english_word`).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from agent.language.cedict import dictionary_senses, lexicon
from agent.language.morphology import plural, singular
from agent.language.word_formation import action_noun_guesses

_FORMS = 3  # forms returned per word: a composition combines three candidates per part


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# verbs whose "-ate" or "-ect" ending makes no regular "-ion" noun or "-ive" adjective (expect, update)
NO_REGULAR_DERIVATION = _words(
    "expect inspect respect suspect reflect neglect elect address update debate mandate commit"
)


# nouns for groups, never plural ("personnels" is malformed)
_COLLECTIVE = _words("personnel staff people police cattle livestock poultry offspring folk public youth")


# "-ics" disciplines whose adjective ends in "-ical" (physics -> physical); the others take "-ic" (genetic)
_ICAL_STEMS = ("tistics", "matics", "ysics", "itics", "anics", "ptics", "thics")


def discipline_adjectives(noun: str) -> list[str]:
    """The adjective a discipline's name takes before a head: electrochemistry -> electrochemical,
    biology -> biological, genetics -> genetic, physics -> physical (regular derivations only; "ministry"
    or "registry" are no disciplines)."""
    if " " in noun or not noun.isalpha() or not noun.islower():
        return []
    if noun.endswith("chemistry"):
        return [noun[:-5] + "ical"]
    if noun.endswith("ology") and len(noun) > 6 and noun not in ("anthology", "apology"):
        return [noun[:-1] + "ical"]
    if noun.endswith("ics") and len(noun) > 6:
        return [noun[:-1] + "al"] if noun.endswith(_ICAL_STEMS) else [noun[:-1]]
    return []


# "-ize" verbs whose "-ization" noun is regular (stabilize, organize, optimize; not "apologization")
_IZE_ENDINGS = ("alize", "ilize", "anize", "icize", "orize", "imize", "rdize", "erize", "unize")
# verbs stressed on the last syllable double their final consonant ("controlling", "transferring")
_FINAL_STRESS = _words(
    """control patrol compel expel propel refer prefer occur recur confer defer deter infer transfer admit commit
    emit omit permit submit transmit regret forget begin equip acquit"""
)


def gerund(verb: str) -> str:
    """'decode' -> 'decoding', 'cut down' -> 'cutting down' (the noun a verb head takes in a term)."""
    first, _, rest = verb.partition(" ")
    word = first.lower()
    if not word.isalpha() or word.endswith("ing"):
        return verb
    if word.endswith("ie"):
        stem = first[:-2] + "y"
    elif word.endswith("e") and not word.endswith(("ee", "oe", "ye")) and len(word) > 2:
        stem = first[:-1]
    elif word in _FINAL_STRESS or (
        len(word) <= 4
        and re.search(r"[^aeiou][aeiou][^aeiouwxy]$", word)
        and not re.search(r"[aeiou]{2}", word)
    ):
        stem = first + first[-1]
    else:
        stem = first
    return f"{stem}ing" + (f" {rest}" if rest else "")


def gerund_bases(word: str) -> list[str]:
    """The verbs whose gerund `word` is, as `gerund` writes it: 'bathing' -> ['bath', 'bathe'],
    'visiting' -> ['visit', 'visite'], 'swimming' -> ['swim', 'swimm', 'swimme'] (the caller's vocabulary
    tells which is a word); none for a word that is no "-ing" form of a
    verb of three letters or more."""
    lower = word.lower()
    stem = lower[:-3]
    if not lower.endswith("ing") or len(stem) < 3 or not stem.isalpha():
        return []
    # a doubled consonant is most often the verb's single one ("swimming", "controlling")
    candidates = [stem[:-1], stem, stem + "e"] if stem[-1] == stem[-2] else [stem, stem + "e"]
    return [verb for verb in dict.fromkeys(candidates) if gerund(verb) == lower]


def participle_bases(word: str) -> list[str]:
    """The verbs whose regular past participle `word` may be: 'ventilated' -> ['ventilat', 'ventilate'],
    'admitted' -> ['admitt', 'admit'] (the caller's vocabulary tells which is a word); none for a word
    that is no "-ed" form of a verb of three letters or more."""
    lower = word.lower()
    stem = lower[:-2]
    if not lower.endswith("ed") or len(stem) < 3 or not stem.isalpha():
        return []
    candidates = [stem, stem + "e"] + ([stem[:-1]] if stem[-1] == stem[-2] else [])
    if stem.endswith("i"):
        candidates.append(stem[:-1] + "y")  # "modified" -> "modify"
    return list(dict.fromkeys(candidates))


def adjective_of_adverb(word: str) -> str | None:
    """The adjective an "-ly" adverb is made from: 'mechanically' -> 'mechanical', 'intravenously' ->
    'intravenous', 'easily' -> 'easy', 'possibly' -> 'possible'; None for a word too short to be one.
    By the form alone ("family" gives "fami"): the caller's vocabulary tells a real adjective."""
    lower = word.lower()
    if not lower.endswith("ly") or len(lower) < 6 or not lower.isalpha():
        return None
    if lower.endswith("ily"):
        return lower[:-3] + "y"
    if lower.endswith("bly"):
        return lower[:-1] + "e"
    return lower[:-2]


def action_nouns(verb: str) -> list[str]:
    """The regular action noun of a one-word verb (migrate -> migration, optimize -> optimization,
    measure -> measurement), none when English has no regular one; a light verb's noun ("do a follow-up")."""
    nouns = verb_nouns(verb)
    return nouns[:1] if len(nouns) == 3 and nouns[0] != gerund(verb) else []


def verb_nouns(verb: str) -> list[str]:
    """Nouns for a verb at the head of a term, best first: the regular "-ation" noun of "-ate", "-ize" and
    "-ify" verbs (migrate -> migration), the gerund (decode -> decoding), the bare verb (control, rise)."""
    out = []
    light, _, thing = verb.partition(" ")
    thing = re.sub(r"^(?:a|an|the) ", "", thing)
    affliction = _AFFLICTION.match(verb)
    if affliction:  # "suffer from insomnia" at the head or before one: the condition ("chronic insomnia")
        return [affliction.group("condition"), gerund(verb), verb]
    cessation = _CESSATION.match(verb)
    if cessation:  # "give up smoking" before a head or at it: "smoking cessation"
        return [f"{cessation.group('habit')} cessation", gerund(verb), verb]
    if light.lower() in _LIGHT_VERBS and _light_object(thing):
        # "do a follow-up", "make progress", "commit suicide", "have a premature birth" at the head: the noun
        return [thing, gerund(verb), verb]
    if light.lower() in _CHANGE_OF_STATE and thing.isalpha() and english_word(gerund(thing)):
        # "become warm" at the head: the process noun of the state, where English has it ("warming",
        # "drying"; no "olding")
        return [gerund(thing), gerund(verb), verb]
    if _object_compound(light, thing):
        # a verb and its object at the head ("donate blood", "lose weight"): English puts the object
        # before the verb's action noun, singular ("blood donation", "weight loss"; "drug injection")
        return [f"{singular(thing)} {action_nouns(light)[0]}", gerund(verb), verb]
    if verb.lower() in _IRREGULAR_ACTION_NOUNS:  # grow -> "growth", not "growing"
        return [_IRREGULAR_ACTION_NOUNS[verb.lower()], gerund(verb), verb]
    if " " not in verb and verb.isalpha():
        word = verb.lower()
        if word.endswith("ate") and len(word) > 5 and word not in NO_REGULAR_DERIVATION:
            out.append(verb[:-1] + "ion")
        elif word.endswith(_IZE_ENDINGS):
            out.append(verb[:-1] + "ation")
        elif word.endswith("ify") and len(word) > 5:
            out.append(verb[:-1] + "ication")
        elif word.endswith("ine") and len(word) > 6:
            out.append(verb[:-1] + "ation")  # determine -> determination, examine -> examination
        elif word.endswith(_MENT_ENDINGS) and len(word) > 5:
            out.append(verb + "ment")  # develop -> development, measure -> measurement
        elif word not in NO_REGULAR_DERIVATION:
            # the other regular endings (inhibit -> inhibition, accept -> acceptance, detect -> detection),
            # kept where English uses the word: CC-CEDICT's definitions do (no "exceptance")
            out += [noun for noun in action_noun_guesses(verb) if english_word(noun)][:1]
    return [*out, gerund(verb), verb]


def _object_compound(verb: str, thing: str) -> bool:
    """A one-word verb with a regular action noun and a one-word object ("donate blood")."""
    return bool(thing) and thing.isalpha() and thing.islower() and verb.isalpha() and bool(action_nouns(verb))


# verbs that say someone has a condition ("suffer from insomnia", "be afflicted with asthma"): in a term the
# condition is what is named, the verb is the clause around it ("chronic insomnia", not "chronic suffer from
# insomnia")
_AFFLICTION = re.compile(
    r"^(?:suffer|be afflicted|be ill|be sick|be infected|be diagnosed) (?:from|with) (?P<condition>[a-z][a-z -]+)$"
)

# verbs of a change of state whose adjective names the process ("become warm": "warming")
_CHANGE_OF_STATE = _words("become get turn grow")


@cache
def _definitions() -> str:
    """CC-CEDICT's definitions as one lower-case text, read once when first needed."""
    return "\n".join(raw.partition("]")[2] for raw in lexicon().entries.values()).lower()


@cache
def _definition_words() -> frozenset[str]:
    """Every run of word characters in CC-CEDICT's definitions: what `\\b<word>\\b` finds, as a set."""
    return frozenset(re.findall(r"\w+", _definitions()))


@lru_cache(maxsize=1024)
def english_word(word: str) -> bool:
    """True when CC-CEDICT's definitions use `word`: a check that a derived form ("warming") is a word
    English uses (no "olding")."""
    lower = word.lower()
    if re.fullmatch(r"\w+", lower):
        return lower in _definition_words()  # the same answer as the search below, without it
    return re.search(rf"\b{re.escape(lower)}\b", _definitions()) is not None


# verbs that only carry the noun after them ("do a follow-up", "make progress")
_LIGHT_VERBS = _words("do make take have give conduct perform undergo commit")
_PREPOSITIONS = _words("of to with from on in for at by about into")


def _light_object(thing: str) -> bool:
    """The object of a light verb names the act ("make progress", "commit suicide", "have a premature
    birth"): one or two words, no preposition last ("take note of" names no act)."""
    words = thing.split()
    plain = thing.replace("-", "").replace(" ", "").isalpha()
    return 0 < len(words) <= 2 and plain and words[-1] not in _PREPOSITIONS


# English verbs whose action noun is irregular (no "-ation", "-ment" or gerund rule makes it): a closed class
_IRREGULAR_ACTION_NOUNS = {
    "grow": "growth",
    "die": "death",
    "lose": "loss",
    "fail": "failure",
    "choose": "choice",
    "succeed": "success",
    "behave": "behavior",
    "weigh": "weight",
    "give birth": "birth",
    "fly": "flight",
    "think": "thought",
    "respond": "response",
    "expand": "expansion",
    "decide": "decision",
    "analyze": "analysis",
    "analyse": "analysis",
    "diagnose": "diagnosis",
    "intervene": "intervention",
    "pollute": "pollution",
    "emit": "emission",
    "absorb": "absorption",
    "comply": "compliance",
    "adhere": "adherence",
    "resist": "resistance",
    "perform": "performance",
    "occur": "occurrence",
    "survive": "survival",
    "recover": "recovery",
    "discover": "discovery",
    "deliver": "delivery",
    "injure": "injury",
}

# verbs of giving up a habit: English names the act "<habit> cessation" (smoking cessation)
_CESSATION = re.compile(r"^(?:give up|quit|stop) (?P<habit>[a-z]+ing)$")
# verb endings whose "-ment" noun is regular (development, measurement, assessment, improvement, treatment,
# management, settlement, achievement, government, equipment, employment)
_MENT_ENDINGS = ("elop", "sure", "ssess", "prove", "eat", "nage", "ttle", "ieve", "vern", "uip", "ploy")


# prepositions after the head noun of an English phrase ("woman in childbirth", "person with a disability")
_POSTMODIFIER_PREPOSITIONS = _words("in of with without on at from for under after before during")


def people_plural(phrase: str) -> str:
    words = phrase.split(" ")
    split = next((i for i, w in enumerate(words) if i > 0 and w.lower() in _POSTMODIFIER_PREPOSITIONS), None)
    if split is not None:
        # the head noun stands before the preposition: "women in childbirth", not "woman in childbirths"
        return " ".join([people_plural(" ".join(words[:split])), *words[split:]])
    head, _, last = phrase.rpartition(" ")
    if phrase.lower().startswith("the ") or last.lower().endswith("ly") or last.lower() in _COLLECTIVE:
        return phrase  # "the elderly", "medical personnel": already a group
    many = plural(last)
    if many is None and last.isalpha() and last.lower().endswith(("ant", "ent")) and last.islower():
        many = last + "s"
    if many is None:
        return phrase
    return f"{head} {many}" if head else many


def agent_nouns(word: str) -> tuple[str, ...]:
    """The regular "-er" nouns of a word's one-word verb senses (learn -> learner, drive -> driver), for
    the suffix 者 "the one who"; none when the word has no verb sense (then 者 keeps its own sense)."""
    out = []
    for sense in dictionary_senses(word):
        text = sense.text
        if not (sense.verb and text.isalpha() and text.islower() and len(text) > 2):
            continue
        if text.endswith("e"):
            out.append(text + "r")
        elif text.endswith("y") and text[-2] not in "aeiou":
            out.append(text[:-1] + "ier")  # study -> studier
        elif re.search(r"[^aeiou][aeiou][bdgmnpt]$", text) and len(text) <= 4:
            out.append(text + text[-1] + "er")  # run -> runner, swim -> swimmer
        else:
            out.append(text + "er")
    return tuple(out[:_FORMS])


# adjective endings and the regular ending of their quality noun (reliable -> reliability)
_QUALITY_ENDINGS = (
    ("ble", "bility"),
    ("ive", "ivity"),
    ("al", "ality"),
    ("ic", "icity"),
    ("ous", "ousness"),
    ("ent", "ence"),
    ("ant", "ance"),
)


_QUALITY_NOUN_ENDINGS = ("ity", "ness", "ance", "ence", "ancy", "ency")


def quality_nouns(word: str) -> tuple[str, ...]:
    """The quality nouns of a word's one-word adjective senses, for 性 closing a phrase (公平 "fair;
    impartial": "fairness", "impartiality"); none when the word has no such sense."""
    senses = [s for s in dictionary_senses(word) if not s.verb and s.text.isalpha() and s.text.islower()]
    # a sense that already is a quality noun is the quality itself (活动 "activity": 活动度 "activity", not
    # the "looseness" of its adjective sense "loose")
    out = [s.text for s in senses if s.text.endswith(_QUALITY_NOUN_ENDINGS)]
    for sense in senses:
        text = sense.text
        if len(text) <= 2 or text in out:
            continue
        ending = next(((a, b) for a, b in _QUALITY_ENDINGS if text.endswith(a)), None)
        if ending:
            out.append(text[: -len(ending[0])] + ending[1])
        elif len(text) <= 6 and not text.endswith(("ion", "ity", "ment", "ness", "er", "or", "s")):
            out.append(text[:-1] + "iness" if text.endswith("y") else text + "ness")  # fair -> fairness
    return tuple(out[:_FORMS])
