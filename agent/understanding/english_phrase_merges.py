"""Passes over the English phrases once they are cut (rules fallback): the roles and merges that
depend on a phrase's neighbours, not on the words being read.

`english_phrases` cuts a description into phrases and gives each its cue; this module then

- reads a title of two noun phrases joined by "and" as an exposure and an outcome ("Cash transfers and
  child schooling outcomes");
- joins a task noun and its "of" object into one task ("prediction of protein structure" -> "protein
  structure prediction"), leaving a method before it apart, and leaving whole an action MeSH names
  with its modifiers ("mass drug administration of azithromycin": Mass Drug Administration);
- joins a population with its "with" phrase ("patients with sepsis");
- shares a head written once between coordinated modifiers ("mu and beta rhythms"), but not with a
  lone "-ing" noun MeSH names before a phrase MeSH names whole ("Flooding and post-traumatic stress
  disorder": floods, not a kind of stress disorder).
"""

from __future__ import annotations

from agent.language.mesh_recognition import MeshVocabulary, is_anatomy
from agent.language.morphology import is_acronym, singular
from agent.understanding import lexicon as lex
from agent.understanding.english_pos import is_adjective
from agent.understanding.english_word_forms import adjective_shaped, ing_bases
from agent.understanding.phrase import Phrase
from agent.understanding.slot_evidence import en_head_slot, is_population, mesh_kind
from agent.understanding.slot_translation import embedded_vocabulary

_NOMINAL_SUFFIXES = ("tion", "sion", "ment", "ness", "ity", "ance", "ence", "ism", "ship")


def merge_phrases(phrases: list[Phrase]) -> list[Phrase]:
    """The phrases after the title-pair roles and the three merges, in that order."""
    return _share_heads(_merge_population_with(_merge_bare_task_heads(_title_pair_roles(phrases))))


def _title_pair_roles(phrases: list[Phrase]) -> list[Phrase]:
    """ "Cash transfers and child schooling outcomes", "Teacher feedback and student motivation": two
    noun phrases joined by "and" at the start of a sentence, the second an outcome, relate an exposure
    to that outcome, so the first (when its own head word names no slot) is the exposure."""
    for first, second in zip(phrases, phrases[1:], strict=False):
        if (
            first.cue is None
            and first.after is None
            and first.slot is None
            and second.after == "and"
            and second.cue is None
            # "X and Y are the adverse events of interest": the subject of a clause, not a title
            and second.before not in lex.BE_FORMS | lex.MODALS
            and (
                en_head_slot(first.words) is None
                # "Ultra-processed food consumption and risk of depression": before "and the risk of
                # Y", even an outcome-shaped phrase is the exposure
                or (
                    en_head_slot(first.words) == "output_target"
                    and len(second.words) == 1
                    and second.words[0].lower() in {"risk", "risks", "odds", "incidence"}
                )
            )
            # "short- and long-term outcomes": one modifier of the second phrase, not a phrase of its own
            and not (len(first.words) == 1 and _same_hyphen_ending(first.words[0], second.words[0]))
            and (
                (en_head_slot(second.words) or mesh_kind(second.text)) in {"output_target", "condition"}
                or (len(second.words) == 1 and second.words[0].lower() in lex.OUTCOME_MEASURES)
            )
        ):
            first.cue = "exposure"
    return phrases


def _share_heads(phrases: list[Phrase]) -> list[Phrase]:
    """Elliptic coordination: "mu and beta rhythms" is "mu rhythms" and "beta rhythms". ("X versus Y"
    stays one phrase: `agent.keywords.concepts` cuts it into the two sides of a comparison.)"""
    for index, phrase in enumerate(phrases[:-1]):
        following = phrases[index + 1]
        if (
            following.after in {"and", "or", "to"}
            and len(phrase.words) == 1
            and len(following.words) >= 2
            and _same_hyphen_ending(phrase.words[0], following.words[0])
        ):
            # "low- and middle-income countries" (read as "low-income and middle-income countries"):
            # two modifiers made alike share the noun after the second
            phrase.words = [phrase.words[0], *following.words[1:]]
            phrase.text = " ".join(phrase.words)
            continue
        if (
            following.after in {"and", "or"}
            and len(phrase.words) == 1
            and len(following.words) >= 2
            # only the conjunction between them: "crime incidents from Chicago for 2015-2022 and
            # police patrol GPS logs" shares nothing
            and phrase.stop + 1 == following.stop - len(following.words)
            and not is_acronym(phrase.words[0])
            # the condition a relative clause's verb names is a term of its own ("adults who smoke and
            # lung function": smoking, not "smoking function")
            and phrase.cue != "who"
            # a name written with a digit is a noun of its own ("PM2.5 and cognitive decline")
            and not any(ch.isdigit() for ch in phrase.words[0])
            # a plural noun is a head of its own ("remittances and household investment")
            and singular(phrase.words[0].lower()) == phrase.words[0].lower()
            # a noun made from a verb or adjective is a head too ("migration or low income")
            and not phrase.words[0].lower().endswith(_NOMINAL_SUFFIXES)
            and en_head_slot(phrase.words) is None
            and not _gerund_of_its_own(phrase.words[0], following.words)
            and not _noun_of_its_own(phrase.words[0], following.words)
            # the head word names a slot, or the lone word is an adjective ("plausible and correct patches")
            and (en_head_slot(following.words) is not None or adjective_shaped(phrase.words[0]))
        ):
            # the words the second phrase adds after its own modifier are shared ("legume and grass
            # cover crops" -> "legume cover crops", "plausible and correct patch rates")
            phrase.words = [phrase.words[0], *following.words[1:]]
            phrase.text = " ".join(phrase.words)
    return phrases


def _names_a_substance(word: str) -> bool:
    """A word MeSH names a term with on its own ("alcohol", "sugar", "antibiotic"), not a modifier
    ("early", "daily") nor only a part of longer terms ("oral")."""
    vocabulary = embedded_vocabulary()
    return vocabulary is not None and vocabulary.knows(word.lower()) and not is_adjective(word.lower())


def _named_whole(text: str) -> bool:
    """Whether one MeSH descriptor's term spans the whole phrase ("mass drug administration")."""
    vocabulary = embedded_vocabulary()
    if vocabulary is None:
        return False
    matches = vocabulary.recognize(text)
    return len(matches) == 1 and matches[0].start == 0 and matches[0].end >= len(text.rstrip())


def _gerund_of_its_own(word: str, following: list[str]) -> bool:
    """ "Flooding and post-traumatic stress disorder": an "-ing" noun that MeSH names by itself or by
    its stem ("flood": Floods; "screening": Mass Screening) before a phrase MeSH names whole is a head
    of its own: sharing would cut that name ("Flooding stress disorder"). Before a phrase MeSH does
    not name whole, the words after its modifier stay shared ("housing and hoof-trimming risk
    factors")."""
    lower = word.lower()
    if not lower.endswith("ing") or len(lower) < 6 or not _named_whole(" ".join(following)):
        return False
    return any(_named_whole(form) for form in (lower, *ing_bases(lower)))


def _noun_of_its_own(word: str, following: list[str]) -> bool:
    """ "diarrhoea and weight gain": a word MeSH names alone before a phrase MeSH names whole is a head
    of its own when the shared reading is no term MeSH knows ("diarrhoea gain"); "breast and ovarian
    cancer" shares ("breast cancer" is one), and so does a modifier MeSH never names alone ("systolic
    and diastolic blood pressure"). So is a noun MeSH names (not a body part) before an adjective and
    its head ("pain and physical function": no "pain function"), and a name of several words read as
    one ("night shift work and breast cancer risk": its own head is a noun). Nor does a noun MeSH names
    share a head that would cut a name the second phrase opens with ("smoking and lung cancer risk":
    "lung cancer" is a name and "smoking cancer" none, so not "smoking cancer risk"; "breast and ovarian
    cancer risk" shares, "breast cancer" is one)."""
    vocabulary = embedded_vocabulary()
    if vocabulary is None or not vocabulary.knows(word):
        return False
    if vocabulary.knows(" ".join([word, *following[1:]])):
        return False
    return (
        " " in word
        or _named_whole(" ".join(following))
        or (is_adjective(following[0]) and not _body_part(word, vocabulary))
        or _cuts_an_opening_name(word, following, vocabulary)
    )


def _cuts_an_opening_name(word: str, following: list[str], vocabulary: MeshVocabulary) -> bool:
    """Whether the second phrase opens with a name of several words MeSH knows, shorter than the phrase
    ("lung cancer" of "lung cancer risk"), that `word` in place of its first word names nothing."""
    for size in range(len(following) - 1, 1, -1):
        if vocabulary.knows(" ".join(following[:size])):
            return not vocabulary.knows(" ".join([word, *following[1:size]]))
    return False


def _body_part(word: str, vocabulary: MeshVocabulary) -> bool:
    """ "kidney", "breast": a word MeSH names as a part of the body, which modifies the head after it."""
    matches = vocabulary.recognize(word)
    return len(matches) == 1 and is_anatomy(matches[0].descriptor)


def _same_hyphen_ending(first: str, second: str) -> bool:
    """ "low-income" and "middle-income": two hyphenated words alike after their first part."""
    return (
        "-" in first
        and "-" in second
        and first.split("-", 1)[1].lower() == second.split("-", 1)[1].lower()
        and first.split("-", 1)[1][:1].isalpha()
    )


def _merge_population_with(phrases: list[Phrase]) -> list[Phrase]:
    """ "patients with epilepsy" is one population, not "patients" and a method "epilepsy"; so are
    "students with depressive symptoms" (what people have, a condition or its symptoms, describes
    them) and "patients with kidney disease without diabetes" (what they do not have too)."""
    out: list[Phrase] = []
    for phrase in phrases:
        if (
            phrase.cue in {"with", "without"}
            and out
            and (
                is_population(out[-1].words)
                or (phrase.cue == "without" and out[-1].slot == "subject_population")
            )
            # "patients with X and randomise them": one "with" phrase
            and (phrase.cue == "without" or "with" not in out[-1].words)
            # "workers, measured with the X": a "with" of another clause describes no one
            and _right_after(out[-1], phrase)
            # "women with social risk factors": what the people have describes them
            and (
                en_head_slot(phrase.words) in {None, "subject_population", "signal_feature"}
                or _names_a_condition(phrase.words)
            )
        ):
            previous = out.pop()
            words = [*previous.words, phrase.cue, *phrase.words]
            out.append(Phrase(" ".join(words), previous.cue, words, "subject_population"))
            continue
        out.append(phrase)
    return out


def _right_after(previous: Phrase, phrase: Phrase) -> bool:
    """At most the preposition and an article between two phrases (when both know where they stop)."""
    if previous.stop < 0 or phrase.stop < 0:
        return True
    return phrase.stop - len(phrase.words) - previous.stop <= 2


def _names_a_condition(words: list[str]) -> bool:
    """A condition or its signs by the head word ("symptoms", "disease") or MeSH (diseases, mental
    disorders)."""
    head = singular(words[-1].lower())
    return (
        head in lex.EN_CONDITION_HEADS or head in lex.SIGN_HEADS or mesh_kind(" ".join(words)) == "condition"
    )


def _inner_case(word: str) -> str:
    """A capitalised first word moved inside a phrase ("Design of X" -> "X design") loses its capital;
    an acronym or a name with inner capitals keeps it."""
    return word.lower() if word[:1].isupper() and word[1:].islower() else word


def _manner_adjective(word: str) -> bool:
    """An adjective of how a task is done ("automatic", "automated", "real-time", "early")."""
    lower = word.lower()
    return lower in lex.EN_CONTEXT_ADJECTIVES or lower in _MANNER_ADJECTIVES


_MANNER_ADJECTIVES = frozenset({"automatic", "automated", "early", "rapid", "accurate", "robust", "fast"})


def _merge_bare_task_heads(phrases: list[Phrase]) -> list[Phrase]:
    """ "prediction of protein structure" -> "protein structure prediction" (one phrase), and
    "deep learning segmentation of tumours" -> method "deep learning", task "tumour segmentation"."""
    out: list[Phrase] = []
    index = 0
    while index < len(phrases):
        phrase = phrases[index]
        following = phrases[index + 1] if index + 1 < len(phrases) else None
        head = singular(phrase.words[-1].lower())
        if (
            head in lex.EN_ACTION_HEADS
            and following is not None
            and following.cue == "of"
            # "mass drug administration of azithromycin": the action MeSH names stays whole
            and not (len(phrase.words) > 1 and _named_whole(phrase.text))
            # "alcohol consumption of adolescents", "antibiotic use of farms": a substance MeSH names
            # before the action is already what it acts on, and "of" names whose action it is
            and not (len(phrase.words) > 1 and _names_a_substance(phrase.words[-2]))
        ):
            # "early introduction of peanut" -> "early peanut introduction": one action on one thing
            words = [*phrase.words[:-1], *following.words, _inner_case(phrase.words[-1])]
            out.append(Phrase(" ".join(words), phrase.cue, words, after=phrase.after))
            index += 2
            continue
        if (
            head in lex.EN_TASK_HEADS
            and following is not None
            and following.cue in {"of", "for"}
            # "a difference-in-differences analysis of panel data": a technique, applied to what follows
            and en_head_slot(phrase.words) != "method_algorithm"
        ):
            modifiers = phrase.words[:-1]
            if modifiers and en_head_slot(modifiers) == "method_algorithm":
                out.append(Phrase(" ".join(modifiers), phrase.cue, modifiers, "method_algorithm"))
                modifiers = []
            if (
                all(_manner_adjective(w) for w in modifiers)
                # "Our aim is early detection of sepsis": after a copula too the task names its object
                and (
                    phrase.cue is None
                    or phrase.cue in lex.BE_FORMS
                    # "Lithium for the prevention of suicide": what a purpose of care acts on is studied
                    or (phrase.cue == "for" and head in lex.EN_CARE_TASKS)
                )
                and en_head_slot(following.words) in {None, "output_target"}
            ):
                # "(automatic) detection of X" says what "detecting X" says: X under the task's cue
                # (how it is done, "automatic", "real-time", names no concept of its own)
                out.append(
                    Phrase(
                        following.text,
                        f"task:{head}",
                        following.words,
                        after=phrase.after,
                        stop=following.stop,
                        sentence=following.sentence,
                    )
                )
                index += 2
                continue
            if not modifiers:
                words = [*following.words, _inner_case(phrase.words[-1])]
                out.append(Phrase(" ".join(words), phrase.cue, words, after=phrase.after))
                index += 2
                continue
        out.append(phrase)
        index += 1
    return out


__all__ = ["merge_phrases"]
