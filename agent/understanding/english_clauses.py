"""Roles an English clause gives its noun phrases: copulas, lists, and the verbs that end a subject.

Researchers write several sentences, not a title, and the sentence around a phrase often says its role
better than its own words (rules fallback, after `english_phrases` has cut the phrases):

- a copula with a role noun names the slot of the other side: "Outcomes are X, Y and Z", "The setting
  is X", "X and Y are secondary endpoints", "X is a potential confounder"; so does a role noun that
  lists with "include" or through a phrase of time ("Secondary outcomes will include X and Y",
  "Outcomes at 12 months are X"); the role noun itself is no concept, nor is a complement that only
  judges ("X is a major problem", "an open question");
- what is named as a marker or in a role ("X as a prognostic biomarker", "Y as a secondary outcome",
  "Z as a covariate") takes the slot the marker or role noun names;
- a one-word complement that is no noun ("X is protective", "which are common") is no concept;
- "X would be assessed by Y", "X is measured with Y": what is assessed is an outcome (Y the method);
- the items of a list ("X, Y and Z") share a slot: when the head words of some items name one slot and
  the others have no evidence of their own (no telling head word, no MeSH descriptor), the others take it;
- a verb after the subject of a subordinate clause or question ends the subject ("whether e-scooter
  schemes replace car trips", "does X displace Y", "children who speak Spanish"): the verbs are those
  CC-CEDICT glosses mainly as verbs ("to replace"), so no list is written for them here.
"""

from __future__ import annotations

from functools import cache

from agent.language.cedict import lexicon as cedict_lexicon
from agent.language.morphology import is_acronym, singular
from agent.understanding import lexicon as lex
from agent.understanding.phrase import Phrase
from agent.understanding.slot_evidence import (
    cue_slot,
    en_head_slot,
    head_forms,
    is_place,
    mesh_kind,
)
from agent.understanding.slot_translation import embedded_vocabulary

SENTENCE_END = frozenset(".;:!?|")
# slots a complement's head word gives its subject ("X is a biomarker", "X and Y are adverse events")
_KINDS_A_COMPLEMENT_GIVES = frozenset(
    {"output_target", "signal_feature", "method_measurement", "method_algorithm", "subject_population"}
)
# words between a subject and its complement in a copula ("would be", "is not a")
_COPULA_FILLERS = frozenset({"would", "will", "should", "could", "may", "might", "can", "must", "not"})
_LIST_JOINERS = frozenset({",", "and", "or", "plus"})
# the preposition that names what an effect is on: every item of a list after it is an outcome
_OUTCOME_PREPOSITIONS = frozenset({"on"})
_ARTICLES = frozenset({"a", "an", "the"})


def clause_roles(phrases: list[Phrase], tokens: list[str]) -> list[Phrase]:
    """The phrases with the roles their clauses give them (see the module docstring)."""
    lower = [t.lower() for t in tokens]
    for phrase, sentence in zip(phrases, _sentence_of(phrases, lower), strict=True):
        phrase.sentence = sentence
    _title_outcomes(phrases, lower)
    _title_topic(phrases, lower)
    _role_lists(phrases, lower)
    _label_lists(phrases, lower)
    _copula_roles(phrases, lower)
    _as_roles(phrases, lower)
    _as_adjectives(phrases, lower)
    _graded_adjectives(phrases, lower)
    _verb_forms(phrases, lower)
    _place_lists(phrases, lower)
    _list_slots(phrases, lower)
    return phrases


def _start(phrase: Phrase) -> int:
    return phrase.stop - len(phrase.words)


def _gap(phrases: list[Phrase], index: int, tokens: list[str]) -> list[str]:
    """The tokens between a phrase and the next one (to the end of the text after the last)."""
    end = _start(phrases[index + 1]) if index + 1 < len(phrases) else len(tokens)
    return tokens[phrases[index].stop : max(end, phrases[index].stop)]


def _sentence_of(phrases: list[Phrase], tokens: list[str]) -> list[int]:
    """The sentence number of each phrase (a full stop, semicolon, colon or line between two)."""
    out: list[int] = []
    sentence = 0
    for index in range(len(phrases)):
        out.append(sentence)
        if any(t in SENTENCE_END for t in _gap(phrases, index, tokens)):
            sentence += 1
    return out


def _copula(gap: list[str]) -> str | None:
    """The be-form of a gap that is only a copula ("is", "would be", "are the"), else None."""
    be = next((t for t in gap if t in lex.BE_FORMS), None)
    if be is None:
        return None
    rest = [t for t in gap if t not in lex.BE_FORMS and t not in _COPULA_FILLERS]
    if rest[-1:] == ["of"] and all(t in lex.QUANTITY_NOUNS or t in lex.DETERMINERS for t in rest[:-1]):
        rest = []  # "the outcome is the number of X": X is the complement
    # ", who are", "which is": a relative clause's copula about the phrase before
    rest = rest[2:] if rest[:2] in ([",", "who"], [",", "which"]) else rest
    rest = rest[1:] if rest[:1] in (["who"], ["which"]) else rest
    if all(t in lex.DETERMINERS for t in rest):
        return be
    return None


def _passive_measure(gap: list[str]) -> bool:
    """ "would be assessed by", "is measured with", "are judged by": a passive of measuring; without
    the copula only a participle of judging or measuring a quantity ("X measured with Y"). A passive
    that ends its clause or takes a place after it says the same ("X and Y are compared.", "severity
    would be scored in field trials")."""
    if _ended_passive(gap):
        return True
    gap = _before_determiners(gap)
    if gap[-1:] == [] or gap[-1] not in _MEASURE_PREPOSITIONS | _WHEN_WORDS:
        return False
    if any(t in lex.BE_FORMS for t in gap):
        return any(t in lex.MEASURING_VERBS or t in lex.JUDGING_PARTICIPLES for t in gap)
    return gap[:-1] != [] and all(t in lex.JUDGING_PARTICIPLES or t in _QUANTIFYING for t in gap[:-1])


def _before_determiners(gap: list[str]) -> list[str]:
    """A gap without the determiners that open the next phrase after its preposition ("is measured
    with the", "is driven by their"): the verb's preposition ends it."""
    end = len(gap)
    while end > 1 and gap[end - 1] in lex.DETERMINERS:
        end -= 1
    if end < len(gap) and gap[end - 1] in _MEASURE_PREPOSITIONS | _WHEN_WORDS | {"to"}:
        return gap[:end]
    return gap


def _ended_passive(gap: list[str]) -> bool:
    """A copula and a participle of measuring that ends the clause ("are compared.") or is followed
    only by a preposition of place ("would be scored in")."""
    end = len(gap)
    while end and (gap[end - 1] in SENTENCE_END or gap[end - 1] == ","):
        end -= 1  # the clause ends after the participle
    while end > 1 and gap[end - 1] in lex.FREQUENCY_ADVERBS and end < len(gap):
        end -= 1  # "offspring are counted daily.": how often, after the participle
    if end == len(gap) and gap[-1:] and gap[-1] in _PLACE_PREPOSITIONS:
        end -= 1
    if end == len(gap) or end == 0:
        return False
    words = gap[:end]
    return any(t in lex.BE_FORMS for t in words) and (
        words[-1] in lex.MEASURING_VERBS or words[-1] in lex.JUDGING_PARTICIPLES
    )


_INSTRUMENT_CUES = frozenset({"with", "using", "via", "through", "by"})
# the prepositions after a passive of measuring that name how ("measured with", "assessed by")
_MEASURE_PREPOSITIONS = frozenset({"by", "with", "using", "through", "via", "from"})
_PLACE_PREPOSITIONS = frozenset({"in", "on", "across", "within", "among"})
# what follows a passive of measuring when it says when, not how ("was measured at baseline")
_WHEN_WORDS = frozenset({"at", "every", "during", "before", "after", "over"})
_QUANTIFYING = frozenset({"measured", "assessed", "quantified", "evaluated", "scored", "graded", "monitored"})


def _passive_cause(gap: list[str]) -> bool:
    """ "can be attributed to", "is driven by", "are explained by": a passive of causing."""
    gap = _before_determiners(gap)
    return (
        any(t in lex.BE_FORMS for t in gap)
        and any(t in lex.CAUSAL_PARTICIPLES for t in gap)
        and gap[-1:] != []
        and gap[-1] in {"by", "to"}
    )


def _role(phrase: Phrase, complement: bool = False) -> str | None:
    """The slot a role phrase names ("secondary outcomes" -> the outcome), "" for a phrase that only
    judges ("a major problem", "an open question"), None for a phrase with a concept of its own. As the
    complement of a copula a role noun names a role whatever qualifies it ("Bleeding is the main safety
    outcome", "F1 is the evaluation metric"): the subject is the concept."""
    words = [w.lower() for w in phrase.words]
    if len(words) > 3 or (not complement and any(w not in lex.EVALUATIVE_ADJECTIVES for w in words[:-1])):
        return None
    for head in head_forms(words[-1]):
        if head in lex.ROLE_NOUNS:
            return lex.ROLE_NOUNS[head]
        if head in lex.META_NOUNS:
            return ""
    return None


def _not_a_noun(phrase: Phrase) -> bool:
    """A one-word complement that is an adjective ("protective", "common"): no head word, plural,
    acronym or descriptor says it is a noun."""
    if len(phrase.words) != 1:
        return False
    word = phrase.words[0]
    if not word.isalpha() or is_acronym(word) or word != word.lower():
        return False
    lower = word.lower()
    if singular(lower) != lower or en_head_slot([word]) is not None:
        return False
    vocabulary = embedded_vocabulary()
    return vocabulary is None or not vocabulary.knows(lower)


def _title_outcomes(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "Robotic versus laparoscopic colectomy: complications, conversion and length of stay": after the
    colon of a title (a first sentence with no verb before its colon, or only a verb of studying: "We
    study X: A, B and C") a list of bare noun phrases names
    what is measured, unless a phrase names the kind of study ("a prospective cohort analysis") or
    only generic words ("results")."""
    if not phrases or phrases[0].sentence != 0:
        return
    colon = next((i for i, t in enumerate(tokens) if t in SENTENCE_END), None)
    if colon is None or tokens[colon] != ":":
        return
    verbs = [t for t in tokens[:colon] if t in lex.EN_VERBS or t in lex.EN_COMMON_VERBS or t in lex.BE_FORMS]
    # "We study CO2 absorption in packed columns: mass transfer coefficients and solvent degradation":
    # a sentence whose only verb is one of studying names the topic as a title does
    if any(t not in lex.STUDYING_CUES for t in verbs):
        return
    after = [i for i, p in enumerate(phrases) if _start(p) > colon]
    if not after or _start(phrases[after[0]]) != colon + 1 + _leading_determiners(tokens, colon + 1):
        return
    for item in _list_from(phrases, after[0], tokens):
        words = [w.lower() for w in item.words]
        # a generic head with a modifier is measured ("operative time", "recurrence risk"); a generic
        # word alone ("results", "data") names nothing
        if (
            item.cue is None
            and not any(w in lex.STUDY_DESIGN_WORDS or w in lex.STUDY_KIND_WORDS for w in words)
            and not all(w in lex.GENERIC_WORDS for w in words)
        ):
            item.cue = "outcome"


def _title_topic(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "Lameness in dairy goats: we ...", "Noise-induced hearing loss among musicians: ...": the bare
    noun phrase a title (a first sentence with no verb before its colon) opens with, before "in" or
    "among" whom or where it is seen, names what the study observes, when no head word, descriptor or
    place names it otherwise."""
    colon = next((i for i, t in enumerate(tokens) if t in SENTENCE_END), None)
    if len(phrases) < 2 or colon is None or tokens[colon] != ":":
        return
    if any(
        t in lex.EN_VERBS or t in lex.EN_COMMON_VERBS or t in lex.BE_FORMS or t in _VERSUS
        for t in tokens[:colon]
    ):
        return
    first, following = phrases[0], phrases[1]
    if (
        _start(first) == _leading_determiners(tokens, 0)
        and first.cue is None
        and first.slot is None
        and following.cue in lex.PEOPLE_CUES
        and _gap(phrases, 0, tokens) == [following.cue]
        and en_head_slot(first.words) is None
        and mesh_kind(first.text) in {None, "output_target", "condition"}
    ):
        first.cue = "outcome"


_VERSUS = frozenset({"versus", "vs", "vs."})


def _leading_determiners(tokens: list[str], start: int) -> int:
    count = 0
    while start + count < len(tokens) and tokens[start + count] in lex.DETERMINERS:
        count += 1
    return count


def _as_adjectives(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "classified as benign or malignant": one-word adjectives after "as" that end the clause are what
    a thing is judged to be, no concept."""
    index = 0
    while index < len(phrases):
        items = _list_from(phrases, index, tokens)
        index += len(items)
        end = _gap(phrases, index - 1, tokens)[:1]
        if (
            items[0].cue == "as"
            and all(_not_a_noun(p) for p in items)
            and (not end or end[0] in SENTENCE_END or end[0] in lex.EN_FUNCTION)
        ):
            for item in items:
                item.cue = "self"


def _as_roles(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "circulating tumour cells as a prognostic biomarker", "HRV as an indicator of stress": what is
    used *as* a marker is the measured feature, whatever its head word names; "salivary cortisol as a
    secondary outcome", "age as a covariate": what is named before "as" and a role noun (with at most
    judging adjectives: the noun is no concept) takes the role's slot. What is named is the head of the
    noun phrase before "as", not its modifiers ("ctDNA after surgery as a marker": ctDNA)."""
    for index, phrase in enumerate(phrases[1:], start=1):
        if phrase.cue != "as":
            continue
        head = singular(phrase.words[-1].lower())
        gap = _gap(phrases, index - 1, tokens)
        judged = all(w.lower() in lex.EVALUATIVE_ADJECTIVES for w in phrase.words[:-1])
        if head in lex.MARKER_NOUNS:
            slot = "signal_feature"
        elif head in lex.ROLE_NOUNS and judged:
            slot = lex.ROLE_NOUNS[head]
        else:
            continue
        if gap[:1] != ["as"] or any(t not in _ARTICLES for t in gap[1:]):
            continue
        named = _head_of_modified(phrases, index - 1, tokens)
        if named.slot is None and named.sentence == phrase.sentence:
            named.slot = slot


# prepositions that attach a phrase to the noun phrase before it ("ctDNA after surgery", "levels in
# plasma"), so that the two name one thing
_POSTMODIFYING = frozenset({"after", "before", "following", "in", "at", "during", "of", "from", "on"})


def _head_of_modified(phrases: list[Phrase], index: int, tokens: list[str]) -> Phrase:
    """The phrase a chain of prepositional modifiers ending at `index` belongs to."""
    while index > 0 and phrases[index].cue in _POSTMODIFYING:
        gap = _gap(phrases, index - 1, tokens)
        if phrases[index - 1].sentence != phrases[index].sentence or len(gap) > 2 or not gap:
            break
        if gap[0] != phrases[index].cue or any(t not in _ARTICLES for t in gap[1:]):
            break
        index -= 1
    return phrases[index]


def _graded_adjectives(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "reefs were more resistant in later heatwaves", "is less stable than X": a one-word complement
    after a word of degree that ends its clause or takes a preposition is an adjective, no concept."""
    for phrase in phrases:
        start = _start(phrase)
        after = tokens[phrase.stop] if 0 <= phrase.stop < len(tokens) else "."
        if (
            start > 0
            and tokens[start - 1] in _DEGREE_WORDS
            and _not_a_noun(phrase)
            and (after in SENTENCE_END or after == "," or after in lex.EN_PREPOSITIONS or after == "than")
        ):
            phrase.cue = "self"


_DEGREE_WORDS = frozenset({"more", "less", "most", "least", "very", "too", "so", "highly", "equally"})


def _verb_forms(phrases: list[Phrase], tokens: list[str]) -> None:
    """A one-word phrase that grammar makes a verb is no concept: right after "to" a word that is mainly
    a verb is an infinitive ("and to feed it into X"), and right after a be-form a lower-case "-ing"
    word is a progressive ("we are considering X"). A noun after "to" takes a determiner or is no
    verb ("relate it to the retreat of X", "access to care"). A progressive with no object makes its
    subject what changes, the outcome ("Stripe rust is spreading into new regions", "Antibiotic
    resistance is rising.")."""
    for index, phrase in enumerate(phrases):
        start = _start(phrase)
        if len(phrase.words) != 1 or start < 1 or phrase.slot is not None:
            continue
        word = phrase.words[0]
        if not word.isalpha() or not word.islower():
            continue
        before = tokens[start - 1]
        progressive = before in lex.BE_FORMS and word.endswith("ing")
        if (before == "to" and is_clause_verb(word)) or progressive:
            phrase.cue = "self"
        after = tokens[phrase.stop] if phrase.stop < len(tokens) else "."
        if progressive and index and (after in SENTENCE_END or after in lex.EN_PREPOSITIONS):
            subject = phrases[index - 1]
            if (
                subject.stop == start - 1
                and subject.slot is None
                and subject.cue is None
                and en_head_slot(subject.words) is None
                and mesh_kind(subject.text) != "subject_population"
            ):
                subject.slot = "output_target"


# verbs by which a role noun lists its members ("Outcomes include X, Y and Z")
_LISTING_VERBS = frozenset(
    {"include", "includes", "included", "including", "comprise", "comprises", "are", "is"}
)


def _role_lists(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "Outcomes over six months are X, Y and Z", "The primary outcomes at 12 months are X and Y",
    "Secondary outcomes will include X and Y": a role noun that is the subject names the slot of the
    list its verb (a copula or "include", "comprise") introduces. A prepositional phrase of time after
    the role noun ("over six months", "at 12 months") modifies it and does not change the subject."""
    sentences = _sentence_of(phrases, tokens)
    for index, phrase in enumerate(phrases):
        role = _role(phrase)
        if not role or phrase.cue is not None:
            continue
        last = index
        gap = _gap(phrases, index, tokens)
        following = index + 1
        if (
            following < len(phrases)
            and sentences[following] == sentences[index]
            and phrases[following].cue in _WHEN_WORDS
            and gap == [phrases[following].cue]
            and _time_words([w.lower() for w in phrases[following].words])
        ):
            last = following  # "Outcomes over six months are": the time phrase is no subject
            gap = _gap(phrases, last, tokens)
        gap = _without_time(gap)
        verbs = [t for t in gap if t not in _COPULA_FILLERS and t not in lex.DETERMINERS]
        if len(verbs) != 1 or verbs[0] not in _LISTING_VERBS:
            continue
        if last + 1 >= len(phrases) or sentences[last + 1] != sentences[index]:
            continue
        phrase.cue = "self"
        for item in _list_from(phrases, last + 1, tokens):
            item.slot = item.slot or role


def _label_lists(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "Outcomes: X, Y and Z", "Objectives: levelized cost and loss of load", "Aims: to ...": a role or
    meta noun that opens its sentence and ends at a colon is a label, no concept; a role noun's label
    gives its slot to the list of noun phrases right after the colon (not to a clause: "Aim: to ...")."""
    for index, phrase in enumerate(phrases):
        first = _start(phrase) - _determiners_before(tokens, _start(phrase))
        opens = first == 0 or tokens[first - 1] in SENTENCE_END
        role = _role(phrase)
        if role is None or phrase.cue is not None or not opens or _gap(phrases, index, tokens) != [":"]:
            continue
        phrase.cue = "self"
        following = index + 1
        if role and following < len(phrases) and _start(phrases[following]) == phrase.stop + 1:
            for item in _list_from(phrases, following, tokens):
                item.slot = item.slot or role


def _determiners_before(tokens: list[str], start: int) -> int:
    """How many determiners stand right before `start` ("The primary outcomes:" -> 1)."""
    count = 0
    while start - count - 1 >= 0 and tokens[start - count - 1] in lex.DETERMINERS:
        count += 1
    return count


def _time_words(words: list[str]) -> bool:
    """ "six months", "12 weeks", "the first year": a count or an ordinal of time units."""
    return (
        bool(words)
        and singular(words[-1]) in lex.TIME_UNITS
        and all(
            w.isdigit() or w in lex.NUMBER_WORDS or w in lex.DETERMINERS or w in lex.TIME_SPAN_ORDINALS
            for w in words[:-1]
        )
    )


def _without_time(gap: list[str]) -> list[str]:
    """The gap without a leading prepositional phrase of time ("at 12 months are" -> "are")."""
    if gap[:1] and gap[0] in _WHEN_WORDS:
        end = 1
        while end < len(gap) and (
            gap[end].isdigit()
            or gap[end] in lex.NUMBER_WORDS
            or gap[end] in lex.DETERMINERS
            or singular(gap[end]) in lex.TIME_UNITS
        ):
            end += 1
        if end > 1 and singular(gap[end - 1]) in lex.TIME_UNITS:
            return gap[end:]
    return gap


def _copula_roles(phrases: list[Phrase], tokens: list[str]) -> None:
    sentences = _sentence_of(phrases, tokens)
    for index, phrase in enumerate(phrases):
        gap = _gap(phrases, index, tokens)
        start = _clause_start(phrases, index, tokens)
        subjects = [
            p
            for j, p in enumerate(phrases[: index + 1])
            if sentences[j] == sentences[index] and j >= start and p.slot is None and p.cue != "self"
        ]
        if _passive_cause(gap):
            # "herd breakdowns can be attributed to wildlife", "X is driven by Y": X the outcome,
            # Y the exposure
            for subject in subjects:
                if en_head_slot(subject.words) is None and _role(subject) is None:
                    subject.slot = "output_target"
            if index + 1 < len(phrases) and phrases[index + 1].cue not in {"self"}:
                phrases[index + 1].cue = "exposure"
            continue
        if _passive_measure(gap):
            # "caries arrest would be assessed by examiners": what is assessed is the outcome (not who
            # or what it is assessed in: "gait asymmetry in lame horses measured with sensors")
            for subject in subjects:
                cue = _own_cue(subject, phrases, start, tokens)
                if (
                    # a head word of outcomes agrees ("falls are counted from records")
                    en_head_slot(subject.words) in {None, "output_target"}
                    and _role(subject) is None
                    and mesh_kind(subject.text) != "subject_population"
                    and cue not in lex.PEOPLE_CUES
                    # "hearing loss in Faisalabad, Pakistan, is measured", "recharge in the Kalahari of
                    # Botswana was estimated": a place MeSH files under geography is where, never what
                    and not is_place(subject.text)
                    # "pain is scored with the X scale and Y is recorded": what an earlier verb is done
                    # with is its instrument, no subject of this passive (right before the passive it
                    # is: "with caries arrest checked by examination")
                    and (subject is phrase or cue not in _INSTRUMENT_CUES)
                    # "motor evoked potentials from TMS will be collected": where it comes from
                    and cue != "from"
                ):
                    subject.slot = "output_target"
            continue
        if _copula(gap) is None:
            continue
        following = phrases[index + 1] if index + 1 < len(phrases) else None
        same = following is not None and sentences[index + 1] == sentences[index]
        role = _role(phrase)
        if role is not None and phrase.cue is None:
            # "Outcomes are X, Y and Z", "The setting is X": the role noun names the slot of what follows
            phrase.cue = "self"
            if role and same:
                for item in _list_from(phrases, index + 1, tokens):
                    item.slot = role
            continue
        if not same or following is None:
            continue
        complement_end = _gap(phrases, index + 1, tokens)[:1]
        complement_role = _role(following, complement=True)
        if complement_role is not None:
            # "X and Y are secondary endpoints", "X is a potential confounder", "X is a concern"
            following.cue = "self"
            if complement_role:
                for subject in subjects:
                    subject.slot = subject.slot or complement_role
        elif (kind := en_head_slot(following.words)) in _KINDS_A_COMPLEMENT_GIVES and following.cue in {
            None,
            *lex.BE_FORMS,
        }:
            # "X and Y are the adverse events of interest": the subjects are what the complement names
            for subject in subjects:
                if subject.slot is None and en_head_slot(subject.words) is None:
                    subject.slot = kind
        elif _not_a_noun(following) and (
            not complement_end or complement_end[0] in SENTENCE_END or complement_end[0] in lex.EN_FUNCTION
        ):
            if "who" in gap and en_head_slot(phrase.words) == "subject_population":
                # "people who are homeless", "women who are pregnant": the adjective a relative clause
                # gives people says who they are, as the adjective before them does ("homeless
                # people", "pregnant women"): one population phrase, not a complement to drop
                following.text = f"{following.text} {phrase.text}"
                following.words = [*following.words, *phrase.words]
                following.cue, following.after = phrase.cue, phrase.after
                phrase.cue = "self"
            else:
                following.cue = "self"  # "whether earplug use is protective", "which are common in X"


def _own_cue(phrase: Phrase, phrases: list[Phrase], start: int, tokens: list[str]) -> str | None:
    """The phrase's cue, unless it opens a clause after a comma: the cue the reading carried over the
    comma ("kept in tanks, and survival is recorded": "in") belongs to the clause before."""
    if start > 0 and phrase is phrases[start] and "," in _gap(phrases, start - 1, tokens):
        return None
    return phrase.cue


def _clause_start(phrases: list[Phrase], index: int, tokens: list[str]) -> int:
    """The first phrase of the clause that phrase `index` ends, within its sentence. A comma with
    other words after it opens another clause (", analysed with an X", ", and we"), and once one has
    been opened a comma before "and" closes it: in "Our data are surveys, analysed with an X, and BMI
    z-scores are the outcome" only the z-scores are the copula's subject. A be-form between two phrases
    ends the earlier one's clause ("Students in 12 sections were assigned to X, and anxiety was
    measured with Z": the sections are not measured). Prepositions and list words stay inside a clause ("The number of falls
    in residents is ...")."""
    gaps = [_gap(phrases, j, tokens) for j in range(index)]
    opened = [
        j
        for j, gap in enumerate(gaps)
        if phrases[j].sentence == phrases[index].sentence
        and "," in gap
        and any(t not in _LIST_JOINERS for t in gap)
    ]
    start = index
    after_comma = None  # the phrase after the last list comma crossed
    while start > 0:
        gap = gaps[start - 1]
        if (
            after_comma is not None
            and not any(t in SENTENCE_END for t in gap)
            and any(t not in _LIST_JOINERS for t in gap)
        ):
            # "kept in warmed tanks, and survival is recorded", "exposed to particles at three
            # concentrations, and offspring are counted": a list's items are joined by commas and
            # "and" only, so other words before the comma put it between two clauses
            return after_comma
        if any(t in SENTENCE_END or t in lex.BE_FORMS for t in gap):
            break  # "Students were assigned to X or Y, and anxiety was measured": a verb's own clause
        if "," in gap and (any(t not in _LIST_JOINERS for t in gap) or any(j < start - 1 for j in opened)):
            break
        if "," in gap:
            after_comma = start
        start -= 1
    return start


def _list_from(phrases: list[Phrase], start: int, tokens: list[str]) -> list[Phrase]:
    """The phrase at `start` and those joined to it by commas, "and", "or", "plus" (an article after
    the joiner opens the next item: "GraphSAGE and a graph attention network")."""
    out = [phrases[start]]
    index = start
    while index + 1 < len(phrases):
        gap = _gap(phrases, index, tokens)
        if gap[:1] == ["per"]:
            gap = gap[2:]  # "lice counts per fish, salmon mortality and ...": the unit is left out
        if gap[-1:] and gap[-1] in _ARTICLES and len(gap) > 1:
            gap = gap[:-1]
        if not gap or any(t not in _LIST_JOINERS for t in gap):
            break
        index += 1
        out.append(phrases[index])
    return out


def _names_a_condition(phrase: Phrase) -> bool:
    """Whether the phrase names a disease or disorder, by its head word or by MeSH."""
    head = singular(phrase.words[-1].lower())
    return head in lex.EN_CONDITION_HEADS or mesh_kind(phrase.text) == "condition"


def _place_lists(phrases: list[Phrase], tokens: list[str]) -> None:
    """ "case histories from Basel, Pohang and Soultz-sous-Forets", "pre/post tests, UK and Australia": in
    a list that names a place MeSH knows, the places are where the study is (the setting, whatever the
    phrase before the list measures with), and so are the proper names listed with them that no head
    word or descriptor names otherwise (a town or site MeSH does not list: "Pohang")."""
    index = 0
    while index < len(phrases):
        items = _list_from(phrases, index, tokens)
        index += len(items)
        if len(items) < 2 or len({p.cue for p in items}) > 1:
            continue
        places = [p for p in items if p.slot is None and is_place(p.text)]
        if not places:
            continue
        for item in items:
            if item.slot is None and (item in places or _unknown_proper_name(item)):
                item.slot = "context"


def _unknown_proper_name(phrase: Phrase) -> bool:
    """A capitalised name (not an acronym) no head word or MeSH descriptor gives a slot: "Pohang"."""
    return (
        all(w[:1].isupper() for w in phrase.words)
        and not any(is_acronym(w) for w in phrase.words)
        and en_head_slot(phrase.words) is None
        and mesh_kind(phrase.text) is None
    )


def _list_slots(phrases: list[Phrase], tokens: list[str]) -> None:
    index = 0
    while index < len(phrases):
        items = _list_from(phrases, index, tokens)
        index += len(items)
        cues = {p.cue for p in items}
        if len(items) < 2 or len(cues) > 1 or cue_slot(items[0].cue, False) is not None:
            continue  # under a cue ("with X and Y") each item says its own slot: instrument or analysis
        evidence = {
            p.slot or en_head_slot(p.words): p
            for p in items
            if p.cue != "self" and (p.slot or en_head_slot(p.words)) not in {None, "task"}
        }
        if len(evidence) != 1:
            continue
        ((slot, named),) = evidence.items()
        if slot == "output_target" and len(items) < 3 and items[0].cue not in _OUTCOME_PREPOSITIONS:
            # "microfinance access and household consumption": an exposure and its outcome; but after
            # "on" ("on opioid consumption and pain scores") both are what an effect is on
            continue
        if slot == "subject_population" and len(items) == 2 and _names_a_condition(named):
            # "long working hours and cardiovascular disease": an exposure beside the condition it is
            # studied for; people ("farmers and herders") share who is studied
            continue
        for item in items:
            if (
                item.slot is None
                and item.cue != "self"
                and en_head_slot(item.words) is None
                and mesh_kind(item.text) is None
            ):
                item.slot = slot  # "URL lexical features, HTML content and screenshots"


@cache
def _verbs() -> frozenset[str]:
    """English words CC-CEDICT glosses mainly as verbs ("to replace", "to speak"): at least three
    verb senses and more verb senses than bare noun senses."""
    verb: dict[str, int] = {}
    noun: dict[str, int] = {}
    for raw in cedict_lexicon().entries.values():
        for line in raw.split("\n"):
            for definition in line.split("/")[1:-1]:
                text = definition.split("(")[0].strip()
                if text.startswith("to ") and text[3:].isalpha() and text[3:].islower():
                    verb[text[3:]] = verb.get(text[3:], 0) + 1
                else:
                    bare = text.removeprefix("a ").removeprefix("an ").removeprefix("the ")
                    if bare.isalpha() and bare.islower():
                        noun[bare] = noun.get(bare, 0) + 1
    return frozenset(w for w, n in verb.items() if n >= 3 and n > noun.get(w, 0))


def is_clause_verb(word: str) -> bool:
    """A finite verb form (base or third person) of a word that is mainly a verb."""
    if not word.isalpha() or not word.islower() or word.endswith(("ing", "ed")):
        return False
    if word in lex.EN_VERBS or word in lex.EN_COMMON_VERBS or word in lex.EFFECT_VERBS:
        return True
    verbs = _verbs()
    if word in verbs:
        return True
    if word.endswith("es") and (word[:-2] in verbs or word[:-1] in verbs):
        return True
    return word.endswith("s") and not word.endswith("ss") and word[:-1] in verbs
