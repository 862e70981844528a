"""Deterministic clean-up of descriptions and terms, applied whatever produced them (LLM or rules).

- `to_half_width`: full-width Latin letters, digits and punctuation (common in Chinese input) become
  their ASCII forms, so "ＥＣｏＧ，ｓＥＥＧ" and "ECoG, sEEG" are one spelling;
- `without_accents`: a Latin letter with a diacritic is its base letter ("Māori", "Sjögren", "Ménière"),
  as MeSH writes its terms and PubMed searches them, so an English reader's tokens keep the word whole;
- `clean_term`: whitespace, dashes, stray quotes and the non-essential modifiers the normalisation
  prompt removes ("based on", "using", "approach to", "method for") — the model usually drops them, the
  rules fallback never does, and a model that forgets must not leak them into queries;
- `restore_acronym_casing`: an acronym keeps the casing the user wrote ("ECoG", "sEEG", "fMRI"), since
  models often re-case them ("Ecog", "SEEG");
- `dedupe_terms`: one entry per concept, treating case, hyphen/space, singular/plural and "term (ACRONYM)"
  against the bare term or acronym as the same;
- `detect_language`: a script- and stop-word-based guess ("en", "zh", "mixed", or another language code),
  enough to tell English and Chinese from the rest without a model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from agent.language.morphology import is_acronym, singular

# Chinese punctuation that NFKC leaves alone but that means the same as an ASCII mark.
_CJK_PUNCT = str.maketrans(
    {
        "。": ".",
        "、": ",",
        "《": '"',
        "》": '"',
        "「": '"',
        "」": '"',
        "『": '"',
        "』": '"',
        "【": "(",
        "】": ")",
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "–": "-",  # en dash: Wikipedia writes "brain–computer interface"
        "—": "-",
        "‐": "-",
        "‑": "-",
        "−": "-",
    }
)


# A full stop after a capital initial, before a lower-case word, abbreviates a genus ("E. coli", "S.
# aureus"): it ends no sentence. Written right after the pattern of a sentence's full stop.
NOT_A_GENUS_INITIAL = r"(?!(?<=\b[A-Z]\.)\s+[a-z])"


def word_set(text: str) -> frozenset[str]:
    """A word list written as one string (whitespace-separated), as a set."""
    return frozenset(text.split())


def unique_casefold(items: Iterable[str]) -> list[str]:
    """The non-empty items in order, each spelling once whatever its case."""
    seen: set[str] = set()
    out = []
    for item in items:
        if item and item.casefold() not in seen:
            seen.add(item.casefold())
            out.append(item)
    return out


# Trademark signs belong to no word: "Xpert® MTB/RIF" is searched as "Xpert MTB/RIF" (before NFKC, which
# would spell ™ as "TM")
_TRADEMARK_BEFORE_WORD = re.compile(r"[®™](?=\w)")


def to_half_width(text: str) -> str:
    """Full-width ASCII forms and ideographic spaces to ASCII (NFKC), Chinese quotes and dashes to ASCII,
    trademark signs dropped."""
    text = _TRADEMARK_BEFORE_WORD.sub(" ", text).replace("®", "").replace("™", "")
    return unicodedata.normalize("NFKC", text).translate(_CJK_PUNCT)


def without_accents(text: str) -> str:
    """Each Latin letter with diacritics as its base letter ("Māori" -> "Maori", "Sjögren" -> "Sjogren"):
    MeSH spells its terms so, and PubMed ignores the marks. Only marks on an ASCII letter go; other
    scripts (Chinese, kana with their voicing marks) are left as written."""
    if text.isascii():
        return text
    out: list[str] = []
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char) and out and out[-1].isascii() and out[-1].isalpha():
            continue
        out.append(char)
    return unicodedata.normalize("NFC", "".join(out))


def normalize_whitespace(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def has_content(text: str) -> bool:
    """True when the text holds at least one letter or digit (any script); emoji and punctuation do not count."""
    return any(ch.isalnum() for ch in text)


# Modifiers that carry no searchable meaning at the start or end of a phrase (normalisation rule 2).
_LEADING_MODIFIERS = re.compile(
    r"^(?:based on|approach(?:es)? (?:to|for)|methods? (?:for|of)|using|use of|with|via|by means of|"
    r"through|applying|application of|study of|studies of|research on|an?|the)\s+",
    re.IGNORECASE,
)
# "ECoG based", "a decoding approach": the head is the rest. ("Bayesian methods" keeps its head noun.)
_TRAILING_MODIFIERS = re.compile(r"(?<=\S)[\s-]+(?:approach(?:es)?|based)$", re.IGNORECASE)


def clean_term(text: str) -> str:
    """One phrase, tidied: half-width, single spaces, no wrapping quotes or punctuation, no empty modifiers."""
    text = normalize_whitespace(to_half_width(text))
    previous = None
    while previous != text:  # "using the ECoG based approach" needs more than one pass
        previous = text
        text = text.strip(" \t\"'`.,;:!?")
        text = _LEADING_MODIFIERS.sub("", text)
        text = _TRAILING_MODIFIERS.sub("", text)
    if text.count("(") != text.count(")"):
        text = normalize_whitespace(text.replace("(", " ").replace(")", " "))
    return text


_PAREN = re.compile(r"^(?P<main>.+?)\s*\((?P<inner>[^()]+)\)$")


def split_parenthetical(term: str) -> tuple[str, str | None]:
    """ "Electrocorticography (ECoG)" -> ("Electrocorticography", "ECoG"); a plain term -> (term, None)."""
    match = _PAREN.match(term.strip())
    if not match:
        return term.strip(), None
    return match.group("main").strip(), match.group("inner").strip()


def term_key(term: str) -> str:
    """Comparison key: case-folded, hyphens and dashes as spaces, last word singular, no punctuation."""
    text = to_half_width(term).casefold()
    text = re.sub(r"[-_/]+", " ", text)
    text = re.sub(r"[^\w\s+.]", " ", text)
    words = text.split()
    if words and not any(ch.isdigit() for ch in words[-1]):
        words[-1] = singular(words[-1])
    return " ".join(words)


def acronym_casings(text: str) -> dict[str, str]:
    """Acronyms as the user wrote them, keyed by their case-folded form."""
    out: dict[str, str] = {}
    for token in re.findall(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*", to_half_width(text)):
        if is_acronym(token):
            out.setdefault(token.casefold(), token)
    return out


def restore_acronym_casing(term: str, casings: dict[str, str]) -> str:
    """Re-case every token of `term` that is an acronym of the description, as the description writes it."""
    if not casings:
        return term

    def fix(match: re.Match[str]) -> str:
        token = match.group(0)
        return casings.get(token.casefold(), token)

    return re.sub(r"[A-Za-z][A-Za-z0-9]*", fix, term)


def concept_keys(term: str) -> set[str]:
    """The keys one phrase stands for: itself, and for "X (Y)" also X and Y separately."""
    main, inner = split_parenthetical(term)
    keys = {term_key(term), term_key(main)}
    if inner:
        keys.add(term_key(inner))
    return {k for k in keys if k}


def dedupe_terms(terms: Iterable[str]) -> list[str]:
    """One phrase per concept, in first-seen order; "X (Y)" absorbs a separate "X" or "Y" (and wins)."""
    kept: list[tuple[str, set[str]]] = []
    for term in terms:
        keys = concept_keys(term)
        if not keys:
            continue
        for index, (existing, existing_keys) in enumerate(kept):
            if keys & existing_keys:
                # prefer the more informative spelling: the one carrying both the term and its acronym
                if len(keys) > len(existing_keys):
                    kept[index] = (term, keys | existing_keys)
                else:
                    kept[index] = (existing, keys | existing_keys)
                break
        else:
            kept.append((term, keys))
    return [term for term, _ in kept]


# ----------------------------------------------------------------------------------------------
# Language
# ----------------------------------------------------------------------------------------------

_SCRIPTS: tuple[tuple[str, str], ...] = (
    ("ja", r"[\u3040-\u30ff]"),  # kana: checked before Han, since Japanese also uses Han characters
    ("ko", r"[\uac00-\ud7af\u1100-\u11ff]"),
    ("zh", r"[\u4e00-\u9fff\u3400-\u4dbf]"),
    ("ru", r"[\u0400-\u04ff]"),
    ("ar", r"[\u0600-\u06ff]"),
    ("el", r"[\u0370-\u03ff]"),
    ("hi", r"[\u0900-\u097f]"),
    ("th", r"[\u0e00-\u0e7f]"),
    ("he", r"[\u0590-\u05ff]"),
)

# A handful of the most frequent function words per Latin-script language: enough to tell a German or
# Spanish description from an English one, which is all the note needs.
_STOPWORDS: dict[str, frozenset[str]] = {
    "en": word_set(
        """
        the of and in to a is for on with we are this that using by from as an be our i am my
        how do does did what why when which whether can could among during between into at or not
        their its it they how versus vs after before under over than these those was were has have
        """
    ),
    "de": word_set(
        """
        der die das und ist mit von für ein eine wir ich zu den dem bei auf nicht sich
        """
    ),
    "fr": word_set(
        """
        le la les et des est une un du dans pour avec nous je sur par au aux
        """
    ),
    "es": word_set(
        """
        el la los las y de del es una un en para con por que nosotros yo sobre
        """
    ),
    "pt": word_set(
        """
        o a os as e de do da é uma um em para com por que nós eu sobre
        """
    ),
    "it": word_set(
        """
        il lo la gli le e di del della è una un in per con che noi io sulla
        """
    ),
    "nl": word_set("de het een en van is in met voor wij ik op dat bij"),
}

LANGUAGE_NAMES = {
    "en": "English",
    "zh": "Chinese",
    "mixed": "Chinese and English",
    "ja": "Japanese",
    "ko": "Korean",
    "ru": "Russian",
    "ar": "Arabic",
    "el": "Greek",
    "hi": "Hindi",
    "th": "Thai",
    "he": "Hebrew",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "pt": "Portuguese",
    "it": "Italian",
    "nl": "Dutch",
    "unknown": "an unrecognised language",
}


# "e.g.", "i.e.", "et al.": Latin abbreviations English writes, whose letters are no words of any
# language ("e" is Italian "and": "sedatives (e.g. benzodiazepines)" is English)
_LATIN_ABBREVIATIONS = re.compile(r"\b(?:e\.\s?g|i\.\s?e|et\s+al)\.", re.IGNORECASE)


def detect_language(text: str) -> str:
    """'en', 'zh', 'mixed' (Chinese with English words), another ISO code, or 'unknown'."""
    text = to_half_width(text)
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return "unknown"
    counts = {code: len(re.findall(pattern, text)) for code, pattern in _SCRIPTS}
    latin_words = re.findall(r"[A-Za-zÀ-ÿ]+", _LATIN_ABBREVIATIONS.sub(" ", text))
    latin_letters = sum(len(w) for w in latin_words)
    if counts["ja"]:
        return "ja"
    script, script_count = max(((c, n) for c, n in counts.items() if c != "ja"), key=lambda item: item[1])
    if script == "zh" and script_count:
        # Chinese descriptions routinely carry English terms (ECoG, BCI); call it mixed when English
        # carries real weight: whole English sentences, not only a few acronyms
        english_words = [w for w in latin_words if w.lower() in _STOPWORDS["en"]]
        return "mixed" if len(english_words) >= 3 else "zh"
    if script_count > latin_letters:
        return script
    words = [w.lower() for w in latin_words]
    if not words:
        return "unknown"
    scores = {lang: sum(w in stops for w in words) for lang, stops in _STOPWORDS.items()}
    best = max(scores, key=lambda lang: scores[lang])
    if scores[best] == 0:
        # a bare list of technical words ("ECoG sEEG speech decoding") reads as English
        return "en" if all(w.isascii() for w in words) else "unknown"
    if best != "en" and (
        scores[best] <= scores["en"] or (scores[best] == 1 and all(w.isascii() for w in words))
    ):
        return "en"  # one shared short word ("do", "a") does not make an ASCII sentence foreign
    return best
