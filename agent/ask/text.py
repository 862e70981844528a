"""The text side of an answer: language, sentences, matching terms, and the extractive answer.

Without a language model the answer is the best sentence of each retrieved paper for the question's
information need (`agent.ask.cues`), quoted as written and cited. These helpers are shared with
the streamed answer (quotes, the language of the question) in `agent.ask.answer`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agent.ask.cues import cue_matches, cues_for

if TYPE_CHECKING:
    from agent.ask.answer import AssembledSource

EXTRACTIVE_SENTENCES = 5  # at most one per paper

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_LATIN_WORD = re.compile(f"[^\\W_{_CJK}]+")

_SENTENCE_SPLIT = re.compile(f"(?<=[.!?])\\s+(?=[A-Z0-9(\\[{_CJK}])|(?<=[。！？；])|\\n+")
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "by",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "what",
        "which",
        "who",
        "whom",
        "how",
        "why",
        "when",
        "where",
        "do",
        "does",
        "did",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "their",
        "there",
        "than",
        "then",
        "into",
        "about",
        "over",
        "under",
        "not",
        "no",
        "can",
        "could",
        "may",
        "might",
        "should",
        "would",
        "will",
        "shall",
    ]
)


def is_chinese(text: str) -> bool:
    """Whether a (possibly mixed) text is mainly Chinese: as many CJK characters as Latin words."""
    cjk = len(_CJK_CHAR.findall(text))
    return cjk > 0 and cjk >= len(_LATIN_WORD.findall(_CJK_CHAR.sub(" ", text)))


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if s and s.strip()]


def _terms(text: str) -> set[str]:
    """Matching units: Latin words (no stop words, ≥ 2 letters) and CJK character bigrams."""
    lowered = text.lower()
    words = {w for w in _LATIN_WORD.findall(_CJK_CHAR.sub(" ", lowered)) if len(w) > 1 and w not in _STOP}
    for run in re.findall(f"[{_CJK}]+", lowered):
        words.update(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    return words


# a paper's own numeric references ("[12]", "[3, 4]", "[5–7]"): quoted, they would read as our citations
_PAPER_REFERENCES = re.compile(r"\s*\[\d+(?:\s*[,;\u2013\u2014-]\s*\d+)*\]")


def _trim(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def quotable(text: str, limit: int = 500) -> str:
    """A sentence as an answer quotes it: without the paper's own reference numbers, at most `limit` chars."""
    return _trim(_PAPER_REFERENCES.sub("", text).strip(), limit)


def extractive_answer(
    sources: Sequence[AssembledSource], query_terms: Sequence[str], question: str = ""
) -> list[tuple[str, AssembledSource]]:
    """The best sentence of each paper, for the question's information need, strongest evidence first.

    A sentence with the answer shape the question wants (`agent.ask.cues`: a number of participants
    for a sample-size question, a percentage for an accuracy question) comes first, then the question
    terms a sentence contains (longer terms weigh more). Each paper gives at most one
    sentence; papers keep their retrieval order (the fused or reranked evidence), so the first
    citation is the retrieval's best paper that has a sentence for the question.
    """
    terms = match_terms(query_terms)
    cues = cues_for(question)
    best: dict[str, tuple[tuple[int, float, int], str, AssembledSource]] = {}
    paper_order: list[str] = []
    for source in sources:
        if source.paper_key not in paper_order:
            paper_order.append(source.paper_key)
        texts = [source.caption or ""] if source.is_figure else [source.text]
        for index, sentence in enumerate(s for text in texts for s in split_sentences(text)):
            size = len(sentence) if _CJK_CHAR.search(sentence) else len(sentence.split())
            if size < (8 if _CJK_CHAR.search(sentence) else 5) or "|" in sentence:  # fragments, table rows
                continue
            lowered = sentence.lower()
            matched = [t for t in terms if _contains(lowered, t)]
            shapes = cue_matches(sentence, cues)
            if not matched and not shapes:
                continue
            # the wanted answer shape first, then the question's terms, then the earlier sentence
            score = (min(1, len(shapes)), sum(min(len(t), 12) ** 0.5 for t in matched), -index)
            current = best.get(source.paper_key)
            if current is None or score > current[0]:
                best[source.paper_key] = (score, sentence, source)
    picked = [(quotable(best[key][1]), best[key][2]) for key in paper_order if key in best]
    picked = picked[:EXTRACTIVE_SENTENCES]
    if not picked:
        # nothing shares a word with the question (a dense-only match, or another language):
        # the opening of each top paper's matched passage is still the best evidence there is
        picked = [(_opening(source), source) for source in _one_per_paper(sources)[:3]]
    return picked


def _opening(source: AssembledSource) -> str:
    anchor = source.hit_texts[0] if source.hit_texts else source.text
    first = split_sentences(anchor)
    return quotable(first[0] if first else anchor)


def _one_per_paper(sources: Sequence[AssembledSource]) -> list[AssembledSource]:
    seen: set[str] = set()
    out: list[AssembledSource] = []
    for source in sources:
        if source.paper_key not in seen:
            seen.add(source.paper_key)
            out.append(source)
    return out


def match_terms(query_terms: Sequence[str]) -> list[str]:
    """The question's terms for sentence matching: lower-cased, no stop words, and a word and its stem
    ("decode", "decod") counted once, as the shorter form."""
    kept: list[str] = []
    for term in sorted(
        {t.strip().lower() for t in query_terms if t and t.strip()}, key=lambda t: (len(t), t)
    ):
        if term in _STOP or (len(term) < 2 and not _CJK_CHAR.search(term)):
            continue
        if not _CJK_CHAR.search(term) and any(term.startswith(k) for k in kept if len(k) >= 4):
            continue
        kept.append(term)
    return kept


def _contains(lowered: str, term: str) -> bool:
    if _CJK_CHAR.search(term):
        return term in lowered
    # a term of four letters or more matches as a word start, so the stem "decod" finds "decoding"
    end = "" if len(term) >= 4 else r"(?!\w)"
    return re.search(rf"(?<!\w){re.escape(term)}{end}", lowered) is not None
