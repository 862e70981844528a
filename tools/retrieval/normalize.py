"""Step 1: query normalisation, and the one tokeniser that indexing and querying share.

`Segmenter` is jieba with a Run's own Chinese terms in its dictionary. Each Run gets its own jieba
dictionary (a 10 ms copy of the default one) instead of adding words to jieba's global tokenizer,
because a word added for one Run would change how another Run's questions are cut while its index
was cut without it — BM25 would then silently stop matching.

`Normalizer` turns a question into a `NormalizationTrace`: every step as the 001 design shows it
(width, punctuation, whitespace, synonyms → canonical terms of the Run's keyword plan, stop words,
jieba tokens with the Run's terms kept whole), plus the BM25 tokens the lexical leg searches for.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import jieba

from agent.models import KeywordPlan

from .text import (
    STOPWORDS,
    detect_language,
    english_tokens,
    has_cjk,
    split_scripts,
    standardize_punctuation,
    standardize_whitespace,
    to_half_width,
)
from .types import NormalizationTrace, Replacement

jieba.setLogLevel(logging.WARNING)  # jieba prints "Building prefix dict..." on first use otherwise

TOKENIZER_VERSION = "v1-snowball-en+jieba-search"  # bump when index tokens change (stored per Run)


class Segmenter:
    """jieba for one set of user words; `index_tokens` is the BM25 tokeniser for documents and queries."""

    def __init__(self, user_words: Iterable[str] = ()) -> None:
        words = sorted({w.strip() for w in user_words if w and w.strip() and has_cjk(w)})
        self.user_words = tuple(words)
        if not words:
            self._jieba: Any = jieba.dt  # never modified by us, so sharing it is safe
        else:
            base = jieba.dt
            base.check_initialized()
            tokenizer = jieba.Tokenizer()
            tokenizer.FREQ = dict(base.FREQ)
            tokenizer.total = base.total
            tokenizer.initialized = True
            for word in words:
                tokenizer.add_word(word)  # frequency suggested so the word is never split
            self._jieba = tokenizer

    def cut(self, text: str) -> list[str]:
        """Precise-mode jieba tokens, whitespace and punctuation included (for the trace)."""
        return list(self._jieba.cut(text))

    def index_tokens(self, text: str) -> list[str]:
        """BM25 tokens: stemmed English words and jieba search-mode Chinese words, stop words dropped.

        Search mode adds the dictionary sub-words of long words (中华人民共和国 → 中华, 人民, 共和国, ...),
        so a question that says 共和国 still meets a document that wrote the whole name.
        """
        text = to_half_width(text)
        out: list[str] = []
        latin: list[str] = []
        for kind, piece in split_scripts(text):
            if kind == "latin":
                latin.append(piece)
                continue
            if latin:
                out.extend(english_tokens(" ".join(latin)))
                latin = []
            out.extend(w for w in self._jieba.cut_for_search(piece) if w.strip() and w not in STOPWORDS)
        if latin:
            out.extend(english_tokens(" ".join(latin)))
        return out


_segmenters: OrderedDict[tuple[str, ...], Segmenter] = OrderedDict()
_segmenters_lock = threading.Lock()


def get_segmenter(user_words: Iterable[str] = (), *, cache_size: int = 8) -> Segmenter:
    """A shared Segmenter per set of Chinese user words (a few Runs' dictionaries stay in memory)."""
    key = tuple(sorted({w.strip() for w in user_words if w and w.strip() and has_cjk(w)}))
    with _segmenters_lock:
        segmenter = _segmenters.get(key)
        if segmenter is not None:
            _segmenters.move_to_end(key)
            return segmenter
    segmenter = Segmenter(key)
    with _segmenters_lock:
        _segmenters[key] = segmenter
        while len(_segmenters) > cache_size:
            _segmenters.popitem(last=False)
    return segmenter


# ----------------------------------------------------------------------------------------------
# The Run's vocabulary
# ----------------------------------------------------------------------------------------------


@dataclass
class TermVocabulary:
    """Surface forms of the Run's terms: each synonym (and the canonical itself) → the canonical term."""

    canonical_of: dict[str, str] = field(default_factory=dict)  # casefolded surface → canonical
    pattern: re.Pattern[str] | None = None
    surfaces: list[str] = field(default_factory=list)  # as written (jieba's dictionary is case-sensitive)

    @classmethod
    def from_plan(cls, plan: KeywordPlan | None) -> TermVocabulary:
        canonical_of: dict[str, str] = {}
        written: list[str] = []
        for term in plan.terms if plan else []:
            canonical = standardize_whitespace(to_half_width(term.canonical))
            if not canonical:
                continue
            surfaces = [canonical] + [s.text for s in term.kept_synonyms()]
            if term.mesh:
                surfaces.append(term.mesh.heading)
            for surface in surfaces:
                surface = standardize_whitespace(to_half_width(surface))
                # a surface already claimed by an earlier term keeps its first owner: plans list
                # the more important terms first, and one surface must map to one canonical
                if surface and surface.casefold() not in canonical_of:
                    canonical_of[surface.casefold()] = canonical
                    written.append(surface)
        return cls(canonical_of, compile_surfaces(written), written)

    @property
    def words(self) -> list[str]:
        """Every surface and canonical form (what jieba must keep whole)."""
        return sorted(set(self.surfaces) | set(self.canonical_of.values()))

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """Non-overlapping (start, end, surface) matches, longest surface first at each position."""
        if self.pattern is None:
            return []
        return [(m.start(), m.end(), m.group(0)) for m in self.pattern.finditer(text)]


def compile_surfaces(surfaces: Iterable[str]) -> re.Pattern[str] | None:
    """One case-insensitive alternation; Latin edges must sit on word boundaries, CJK edges need not."""
    parts = []
    for surface in sorted(set(surfaces), key=lambda s: (-len(s), s)):
        body = re.escape(surface)
        if re.match(r"[0-9A-Za-z]", surface):
            body = r"(?<![0-9A-Za-z])" + body
        if re.search(r"[0-9A-Za-z]$", surface):
            body += r"(?![0-9A-Za-z])"
        parts.append(body)
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


# ----------------------------------------------------------------------------------------------
# The normaliser
# ----------------------------------------------------------------------------------------------


def _is_word(token: str) -> bool:
    return any(ch.isalnum() for ch in token)


class Normalizer:
    """Normalises questions for one Run (its terms, its jieba dictionary)."""

    def __init__(self, vocabulary: TermVocabulary | None = None, segmenter: Segmenter | None = None) -> None:
        self.vocabulary = vocabulary or TermVocabulary()
        self.segmenter = segmenter or get_segmenter(self.vocabulary.words)

    @classmethod
    def for_plan(cls, plan: KeywordPlan | None) -> Normalizer:
        return cls(TermVocabulary.from_plan(plan))

    def canonicalize(self, text: str) -> tuple[str, list[Replacement]]:
        """Replace each synonym of a Run term by its canonical form."""
        replacements: list[Replacement] = []
        pattern = self.vocabulary.pattern
        if pattern is None:
            return text, replacements

        def swap(match: re.Match[str]) -> str:
            surface = match.group(0)
            canonical = self.vocabulary.canonical_of.get(surface.casefold(), surface)
            if canonical.casefold() != surface.casefold():
                replacements.append(Replacement(surface=surface, canonical=canonical))
                return canonical
            return surface

        return pattern.sub(swap, text), replacements

    def segment(self, text: str) -> list[str]:
        """jieba tokens with the Run's terms as single tokens (English phrases included)."""
        tokens: list[str] = []
        cursor = 0
        for start, end, surface in self.vocabulary.find(text):
            tokens.extend(self.segmenter.cut(text[cursor:start]))
            tokens.append(surface)
            cursor = end
        tokens.extend(self.segmenter.cut(text[cursor:]))
        return tokens

    def normalize(self, question: str) -> NormalizationTrace:
        width = to_half_width(question)
        punct = standardize_punctuation(width)
        spaced = standardize_whitespace(punct)
        canonical_text, replacements = self.canonicalize(spaced)

        kept: list[str] = []
        removed: list[str] = []
        for token in self.segment(canonical_text):
            if _is_word(token) and token.lower() in STOPWORDS:
                removed.append(token)
            else:
                kept.append(token)
        without_stop = standardize_whitespace("".join(kept))
        if not without_stop:  # a question made only of stop words: keep it rather than search for nothing
            without_stop = canonical_text

        tokens = [t.strip() for t in self.segment(without_stop) if _is_word(t)]
        term_surfaces = {s.casefold() for _, _, s in self.vocabulary.find(without_stop)}
        keywords: list[str] = []
        seen: set[str] = set()
        for token in [t for t in tokens if t.casefold() in term_surfaces] + tokens:
            # single characters and digits rarely help as keywords ("的", "3")
            if token.casefold() in seen or len(token) < 2 or token.isdigit():
                continue
            seen.add(token.casefold())
            keywords.append(token)

        bm25 = self.segmenter.index_tokens(without_stop)
        bm25 += self.segmenter.index_tokens(" ".join(r.surface for r in replacements))
        bm25_unique = list(dict.fromkeys(bm25))
        return NormalizationTrace(
            original=question,
            width_normalized=width,
            punctuation_normalized=punct,
            whitespace_normalized=spaced,
            synonyms_canonicalized=canonical_text,
            replacements=replacements,
            stopwords_removed=without_stop,
            removed_words=removed,
            tokens=tokens,
            keywords=keywords,
            bm25_tokens=bm25_unique,
            language=detect_language(spaced),
            normalized_text=spaced,
        )
