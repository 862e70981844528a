"""The tokens of an English description, as the rules fallback's phrase cutter reads them.

Why a module of its own: what counts as one token is decided before any phrase is cut — a number with
thousands separators or a span of years ("10,000", "2015-2022"), an acronym in parentheses (a boundary
after its long form, left out inside a noun phrase: "anterior cruciate ligament (ACL) injuries"), a MeSH
term holding a function word ("quality of life"), a Latin modifier ("in situ"), a capitalised name with
"of" ("the Strait of Gibraltar"); Chinese runs and line ends become boundaries.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from agent.language.text import without_accents
from agent.understanding import lexicon as lex
from agent.understanding.phrase import CJK
from agent.understanding.slot_translation import embedded_vocabulary

if TYPE_CHECKING:
    from agent.language.mesh_recognition import MeshVocabulary

# A number with thousands separators ("10,000") is one token, so a count is not cut into "10" and "000";
# a slash between two capitals or digits joins one name ("MTB/RIF", "PET/CT", "HIV/AIDS"), while a slash
# between lower-case words lists ("and/or", "nurses/midwives").
_TOKEN = re.compile(
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"
    r"|(?:[A-Za-z0-9][A-Za-z0-9'+.\-]*)?[A-Z0-9]/[A-Z0-9](?:[A-Za-z0-9'+.\-]*[A-Za-z0-9+])?"
    r"|[A-Za-z0-9][A-Za-z0-9'+.\-]*[A-Za-z0-9+]|[A-Za-z0-9]|[^\sA-Za-z0-9]"
)
# "low- and middle-income countries": a modifier whose hyphen is left hanging shares the second word's
# last part ("low-income and middle-income countries")
_SUSPENDED_HYPHEN = re.compile(
    r"\b([A-Za-z0-9]+)-\s+(and|or|to)\s+([A-Za-z0-9]+)-([A-Za-z](?:[A-Za-z\-]*[A-Za-z])?)\b"
)
NUMBER = re.compile(r"^\d[\d,.]*(?:[-–/]\d[\d,.]*)?$")  # "10,000", "2.5", "2015-2022"


# the short forms clinical and hurried notes write for common nouns ("older pts", "aged 65+ yrs"), read
# as the nouns they stand for; only in lower case ("PTS" is an acronym of its own)
_NOTE_SHORT_FORMS = {"pts": "patients", "yrs": "years", "wks": "weeks", "hrs": "hours", "mths": "months"}
# "w/" written apart in notes: "pts w/ diabetes" ("w/o" is left alone: water-in-oil emulsions)
_NOTE_WITH = re.compile(r"(?<![A-Za-z0-9/])w/(?=\s)")


def en_tokens(text: str) -> list[str]:
    text = _NOTE_WITH.sub("with", without_accents(text))  # "Māori" is one word, written as MeSH writes it
    return [_NOTE_SHORT_FORMS.get(token, token) for token in _TOKEN.findall(text)]


def description_tokens(text: str) -> list[str]:
    """The tokens of `text`'s Latin-script runs, with the boundaries and the glued terms above."""
    # keep only the Latin-script runs; Chinese text is handled by `chinese_phrases`
    text = CJK.sub(" | ", text) if CJK.search(text) else text
    text = text.replace("\n", " | ")  # a line ends a phrase even without a full stop
    text = _SUSPENDED_HYPHEN.sub(r"\1-\4 \2 \3-\4", text)
    # "(ECoG)" after its long form: a boundary, since the acronym is re-attached later; inside a noun
    # phrase ("anterior cruciate ligament (ACL) injuries") it is left out and the phrase goes on
    text = _ACRONYM_IN_PARENTHESES.sub(_acronym_boundary, text)
    tokens = _glue_mesh_terms(_based_written_apart(en_tokens(text)), text)
    tokens = _glue_windows(_glue_windows(_glue_latin(tokens), 3, _place_name), 5, _language_role)
    return _capital_names(tokens)


class CapitalName(str):
    """A word written in capitals that English also spells as a function word or verb: "in the US",
    "LED lighting", "WHO guidelines", "children with ALL", "DO concentrations", "NO synthesis". It is
    an acronym, a name, so its lower-case form is itself: no word list of the phrase rules (which all
    compare lower-case forms) reads it as the pronoun, preposition or verb ("in the US" had lost its
    place, "LED" had been "led", a verb that cut "LED lighting" to "lighting")."""

    __slots__ = ()

    def lower(self) -> str:
        return str(self)


# the words of the phrase rules' lists a capitalised acronym may collide with
_WORDS_NAMES_MAY_SPELL = lex.EN_FUNCTION | lex.EN_VERBS | lex.EN_COMMON_VERBS | lex.SENTENCE_ADVERBS
# Boolean operators keep their sense in capitals ("sepsis OR septicaemia")
_OPERATORS = frozenset({"AND", "OR", "NOT"})


def _capital_names(tokens: list[str]) -> list[str]:
    """The tokens, with each acronym that spells a listed English word made a `CapitalName`; a
    description written all in capitals shouts its words rather than naming acronyms, and is left
    alone."""
    words = [t for t in tokens if t.isalpha()]
    if sum(t.isupper() for t in words) * 2 > len(words):
        return tokens
    return [
        CapitalName(t)
        if len(t) > 1
        and t.isalpha()
        and t.isupper()
        and t not in _OPERATORS
        and t.lower() in _WORDS_NAMES_MAY_SPELL
        else t
        for t in tokens
    ]


_BASED = re.compile(r"^(?P<inner>[^\W\d_]+)-based$", re.IGNORECASE)


def _based_written_apart(tokens: list[str]) -> list[str]:
    """ "Deep learning-based channel estimation": the hyphen binds "-based" to the last word of a term
    MeSH names ("deep learning"), so the method is that term, as when "based" is written apart; a word
    before it that makes no term with it ("nickel-based superalloys") leaves the token whole."""
    vocabulary = embedded_vocabulary() if any(_BASED.match(t) for t in tokens) else None
    if vocabulary is None:
        return tokens
    out: list[str] = []
    for token in tokens:
        based = _BASED.match(token)
        if based and out and vocabulary.knows(f"{out[-1]} {based.group('inner')}"):
            out += [based.group("inner"), "based"]
        else:
            out.append(token)
    return out


_ACRONYM_IN_PARENTHESES = re.compile(r"\(\s*([A-Za-z][A-Za-z0-9\-]*)\s*\)(?=\s*([A-Za-z][\w\-]*)?)")


def _acronym_boundary(match: re.Match[str]) -> str:
    after = (match.group(2) or "").lower()
    inside = after.isalpha() and after == match.group(2) and starts_phrase(after)
    return " " if inside and after not in lex.EN_COMMON_VERBS else " , "


def starts_phrase(word: str) -> bool:
    """A content word that can begin or continue a noun phrase (not punctuation, function word or verb)."""
    return (
        any(ch.isalnum() for ch in word)
        and word not in lex.EN_FUNCTION
        and word not in lex.EN_VERBS
        and word not in lex.EFFECT_VERBS
    )


def _glue_mesh_terms(tokens: list[str], text: str) -> list[str]:
    """Tokens with MeSH terms that hold a function word or verb kept as one token ("quality of life",
    "activities of daily living", "cohort study"), so the phrase cutting does not split them."""
    if not any(_breaks(t) for t in tokens):
        return tokens
    vocabulary = embedded_vocabulary()
    if vocabulary is None:
        return tokens
    out: list[str] = []
    index = 0
    while index < len(tokens):
        glued = None
        for length in range(min(6, len(tokens) - index), 1, -1):
            window = tokens[index : index + length]
            if not all(any(ch.isalnum() for ch in w) for w in window):
                continue
            if not any(_breaks(w) for w in window):
                continue
            ends_in_a_function_word = window[-1].lower() in lex.EN_FUNCTION and not _a_letter_of_a_name(
                window[-1]
            )
            if ends_in_a_function_word or window[0].lower() in lex.EN_PREPOSITIONS:
                continue  # "after treatment", "with", "of the": a preposition opens no name
            text = " ".join(window)
            if vocabulary.knows(text) or _one_condition(vocabulary, text):
                glued = text
                break
        if glued is not None:
            out.append(glued)
            index += len(glued.split(" "))
        else:
            out.append(tokens[index])
            index += 1
    return out


def _a_letter_of_a_name(word: str) -> bool:
    """ "Vitamin A", "hepatitis A", "group A": a capital letter after a word is the letter of a name,
    not the article "a" (which a sentence writes in lower case after its first word)."""
    return len(word) == 1 and word.isupper()


def _one_condition(vocabulary: MeshVocabulary, text: str) -> bool:
    """ "dementia with Lewy bodies", "fracture of the hip": a disease name holding "with" or "of the"
    that MeSH recognises whole (one descriptor over the whole text, under C: Diseases), so "with" or "of"
    does not cut it into two concepts. People with a condition ("patients with asthma") are two matches."""
    words = text.split(" ")
    if words[0].lower() in lex.EN_FUNCTION or not any(w.lower() in _NAME_JOINERS for w in words[1:-1]):
        return False
    matches = vocabulary.recognize(text)
    return (
        len(matches) == 1
        and matches[0].start == 0
        and matches[0].end == len(text)
        and any(t.startswith("C") for t in matches[0].descriptor.tree_numbers)
    )


_NAME_JOINERS = frozenset({"with", "of", "the"})


def _glue_windows(
    tokens: list[str], size: int, is_one_name: Callable[[list[str], list[str]], bool]
) -> list[str]:
    """The tokens with each run of `size` that `is_one_name(run, tokens kept before it)` joined into one."""
    out: list[str] = []
    index = 0
    while index < len(tokens):
        window = tokens[index : index + size]
        if len(window) == size and is_one_name(window, out):
            out.append(" ".join(window))
            index += size
        else:
            out.append(tokens[index])
            index += 1
    return out


def _place_name(window: list[str], before: list[str]) -> bool:
    """ "the Strait of Gibraltar", "the Gulf of Mexico": a capitalised word, "of" and a capitalised word
    after a lower-case word (so not a title in title case, nor a sentence's first word) are one name."""
    return (
        window[1] == "of"
        and all(w[:1].isupper() and w[1:].islower() and w.isalpha() for w in (window[0], window[2]))
        and bool(before)
        and before[-1].isalpha()
        and before[-1].islower()
    )


# "English as a foreign language", "Spanish as a heritage language": the role a language has for its
# learners, one name (EFL, ESL, EAL), not a language followed by a second concept "foreign language"
_LANGUAGE_ROLES = frozenset({"first", "second", "foreign", "additional", "native", "heritage", "target"})


def _language_role(window: list[str], before: list[str]) -> bool:
    """ "English as a second language learners": a capitalised word, "as a(n)", a word of the role a
    language has (`_LANGUAGE_ROLES`) and "language" are one token, so the phrase goes on through it."""
    return (
        window[0][:1].isupper()
        and window[0].isalpha()
        and window[1].lower() == "as"
        and window[2].lower() in {"a", "an"}
        and window[3].lower() in _LANGUAGE_ROLES
        and window[4].lower() == "language"
    )


def _glue_latin(tokens: list[str]) -> list[str]:
    """ "in situ", "in vivo", "ex vivo", "in silico": one modifier, not a preposition and a noun; "E.
    coli", "S. aureus": a species named with its genus's initial is one name, and the full stop after the
    initial no sentence end."""
    out: list[str] = []
    for token in tokens:
        if out and out[-1].lower() in {"in", "ex"} and token.lower() in lex.LATIN_AFTER_IN:
            out[-1] = f"{out[-1]} {token}"
        elif (
            len(out) > 1
            and out[-1] == "."
            and _GENUS_INITIAL.fullmatch(out[-2])
            and _EPITHET.fullmatch(token)
        ):
            out[-2:] = [f"{out[-2]}. {token}"]
        else:
            out.append(token)
    return out


_GENUS_INITIAL = re.compile(r"[A-Z]")
_EPITHET = re.compile(r"[a-z]{3,}")


def _breaks(word: str) -> bool:
    lower = word.lower()
    # common verbs too: a MeSH term holding one stays whole ("X-ray computed tomography")
    return lower in lex.EN_FUNCTION or lower in lex.EN_VERBS or lower in lex.EN_COMMON_VERBS
