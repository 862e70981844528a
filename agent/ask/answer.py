"""Asking a Run: retrieval, section expansion, assembly and the streamed, cited answer (001 steps 6–8).

    question ─▶ search (optionally with query-expansion probes) ─▶ hits
             ─▶ expand each hit to its whole section ─▶ assemble numbered sources, paper by paper
             ─▶ stream the answer: an LLM writes it from the sources with [n] markers, each marker
                followed by a citation chunk; with no LLM, the best sentences, each cited

The stream is a sequence of typed chunks discriminated by `type`: one `start` (what retrieval did),
`text` deltas, `citation`s, one `end`. The graph's `ask` node and the CLI both consume it. Retrieval is
reached through the `AskEngine` protocol (the methods of `tools.retrieval.engine.RetrievalEngine`), so
this module is tested with a small fake and runs unchanged on the real engine.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncIterator, Sequence
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, Field

from agent.ask.answerability import Answerability, ModelFile, decide, evidence_features, load_model
from agent.ask.citation_check import CitationChecker
from agent.ask.probes import ProbeLimits, ProbeMetadata
from agent.ask.search import QuestionSearch, search_question
from agent.ask.text import EXTRACTIVE_SENTENCES as EXTRACTIVE_SENTENCES
from agent.ask.text import (
    _terms,
    _trim,
    extractive_answer,
    is_chinese,
    quotable,
    split_sentences,
)
from agent.ask.text import match_terms as match_terms
from agent.ask.trace import build_trace
from agent.llm import LLM, LLMError, LLMUnavailable
from agent.models import Produced
from tools.retrieval.types import (
    ExpandedSection,
    Intent,
    NormalizationTrace,
    RerankTrace,
    RetrievalResult,
    SectionHit,
)

log = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 2000
MAX_SOURCE_CHARS = 3500  # one source in the prompt: a long discussion is cut around its hit
MAX_CONTEXT_CHARS = 24000  # all sources together: ~6k tokens, inside any current model's window
RELATED_PASSAGES = 3  # offered, as "related, not an answer", when the Run cannot answer
QUOTE_CHARS = 300

# [1] [1, 2] [1-3] [1][2], and the full-width brackets Chinese models often write: 【1】［2］
_MARKER = re.compile(r"[\[【［]\s*(\d{1,3}(?:\s*[,，;；、–—-]\s*\d{1,3})*)\s*[\]】］]")
_OPENERS = "[【［"
# the start of a marker that may still be arriving: "[", "[1", "[1, ", "[2-"
_OPEN_MARKER = re.compile(r"[\[【［]\s*(?:\d{1,3}(?:\s*[,，;；、–—-]\s*\d{0,3})*)?")


# ----------------------------------------------------------------------------------------------
# Stream chunks
# ----------------------------------------------------------------------------------------------


class AskStart(BaseModel):
    """What retrieval did: the normalisation trace, the intent, the probes, and how much was found."""

    type: Literal["start"] = "start"
    run_id: str
    question: str
    normalization: NormalizationTrace | None = None
    steps: dict[str, Any] = Field(default_factory=dict)  # the trace under the design documents' step names
    intent: Intent | None = None
    probes: ProbeMetadata | None = None
    hits: int = 0
    sources: int = 0
    papers: int = 0
    answerable: bool | None = None  # None only when there was nothing to decide on (no index, no hits)
    answerability: Answerability | None = None
    translation: str | None = None  # the English query terms a Chinese question was also searched with
    evidence_language: str | None = None  # "en" / "zh": the language of the cited passages
    rerank: RerankTrace | None = None
    trace: dict[str, Any] | None = None  # each retrieval step's output (requirement 001), when asked for


class AskText(BaseModel):
    type: Literal["text"] = "text"
    delta: str


class AskCitation(BaseModel):
    """The source behind one `[n]` marker: which paper and section, and the passage that supports it.

    `n` is the number the answer shows: citations are numbered 1, 2, 3 … in the order the answer first
    cites them. `source_rank` is the source's number in retrieval order (the trace's `section_rank`).
    """

    type: Literal["citation"] = "citation"
    n: int
    source_rank: int | None = None
    paper_key: str
    section_id: str
    section: str
    heading: str = ""
    kind: str = ""
    title: str = ""
    year: int | None = None
    doi: str | None = None
    quote: str = ""
    related: bool = False  # offered as related reading, not as support for an answer (the Run cannot answer)
    supported: bool | None = None  # the citation check of a model's sentence (None: not checked)
    support: dict[str, float] = Field(default_factory=dict)  # overlap, cross_encoder
    claim: str = ""  # the sentence of the answer that cites this source (model answers)


class AskEnd(BaseModel):
    type: Literal["end"] = "end"
    produced_by: Produced
    answerable: bool | None = None
    timings: dict[str, float] = Field(default_factory=dict)
    counts: dict[str, int] = Field(default_factory=dict)
    note: str | None = None  # why the answer is extractive, cut short, or empty


AskChunk = Annotated[AskStart | AskText | AskCitation | AskEnd, Field(discriminator="type")]


class AskEngine(Protocol):
    """The retrieval engine as this module uses it (`tools.retrieval.engine.RetrievalEngine`)."""

    async def search(self, run_id: str, question: str, **options: Any) -> RetrievalResult: ...

    async def expand_sections(self, run_id: str, hits: Sequence[SectionHit]) -> list[ExpandedSection]: ...

    async def run_has_index(self, run_id: str) -> bool: ...


# ----------------------------------------------------------------------------------------------
# Language and text helpers
# ----------------------------------------------------------------------------------------------


def validate_question(question: str) -> str:
    """The question trimmed; `ValueError` saying what to fix when it is empty or too long."""
    text = (question or "").strip()
    if not text:
        raise ValueError("the question is empty; ask something about the Run's papers")
    if len(text) > MAX_QUESTION_CHARS:
        raise ValueError(
            f"the question is {len(text)} characters long; keep it under {MAX_QUESTION_CHARS} characters"
        )
    return text


# ----------------------------------------------------------------------------------------------
# Steps 6–7: expansion and assembly
# ----------------------------------------------------------------------------------------------


class AssembledSource(BaseModel):
    """One numbered source the answer may cite: a whole section (or table, or figure caption) of a paper."""

    n: int
    paper_key: str
    section_id: str  # the indexed unit the citation points at (the best hit inside the section)
    section: str
    kind: str
    heading: str = ""
    title: str = ""
    year: int | None = None
    doi: str | None = None
    text: str
    caption: str | None = None
    score: float = 0.0
    hit_texts: list[str] = Field(default_factory=list)  # the chunks retrieval matched, for quotes

    @property
    def is_table(self) -> bool:
        return self.kind == "table"

    @property
    def is_figure(self) -> bool:
        return self.kind in {"figure", "figure_caption"}


def _window(text: str, anchor: str, limit: int) -> str:
    """At most `limit` characters of `text`, centred on where `anchor` (a hit chunk) starts."""
    if len(text) <= limit:
        return text
    start = text.find(anchor[:80]) if anchor else -1
    if start < 0:
        return _trim(text, limit)
    begin = max(0, min(start - limit // 4, len(text) - limit))
    piece = text[begin : begin + limit]
    return ("…" if begin > 0 else "") + piece.strip() + ("…" if begin + limit < len(text) else "")


# Where a section sits in a paper when the engine does not say: the usual order of a research article.
_KIND_ORDER = {
    kind: index
    for index, kind in enumerate(
        (
            "title",
            "abstract",
            "introduction",
            "methods",
            "results",
            "discussion",
            "conclusion",
            "other",
            "table",
            "figure",
        )
    )
}


def reading_order(section: ExpandedSection) -> tuple[int, int, int]:
    """A sort key for a section's place in its paper: the stored position when the engine passes it on
    (as an attribute or in metadata), else the article's usual order of kinds and the name's number
    ("methods-2", "table-3")."""
    position = getattr(section, "position", None)
    if position is None and isinstance(section.metadata, dict):
        position = section.metadata.get("position")
    if isinstance(position, int):
        return (0, position, 0)
    match = re.search(r"-(\d+)$", section.section)
    # a structured abstract's parts carry content kinds ("abstract-methods" is methods) but come first
    part = 0 if section.kind == "title" else 1 if section.section.startswith("abstract") else 2
    return (
        1,
        part * 100 + _KIND_ORDER.get(section.kind, len(_KIND_ORDER)),
        int(match.group(1)) if match else 1,
    )


def assemble(
    sections: Sequence[ExpandedSection],
    hits: Sequence[SectionHit],
    *,
    max_source_chars: int = MAX_SOURCE_CHARS,
    max_context_chars: int = MAX_CONTEXT_CHARS,
) -> list[AssembledSource]:
    """Number the expanded sections for citation, grouped by paper, papers in order of their best hit.

    Within a paper the engine's order (reading order) is kept, so a paper's text blocks, tables and
    figure captions read as the paper does. Long sections are cut around their hit; sources past the
    context budget are dropped (the lowest-ranked papers go first).
    """
    hit_rank = {hit.section_id: rank for rank, hit in enumerate(hits)}
    hit_text = {hit.section_id: hit.text for hit in hits}

    def best_rank(section: ExpandedSection) -> int:
        ranks = [hit_rank[h] for h in section.hit_ids if h in hit_rank]
        return min(ranks) if ranks else len(hit_rank)

    paper_rank: dict[str, int] = {}
    for section in sections:
        paper_rank[section.paper_key] = min(paper_rank.get(section.paper_key, 10**9), best_rank(section))
    # papers by their best hit; inside a paper, reading order
    ordered = sorted(sections, key=lambda s: (paper_rank[s.paper_key], *reading_order(s)))

    # a paper's title is in the header of its sources; as a source of its own it only repeats it
    with_body = {s.paper_key for s in sections if s.kind != "title"}
    ordered = [s for s in ordered if s.kind != "title" or s.paper_key not in with_body]

    sources: list[AssembledSource] = []
    used = 0
    for section in ordered:
        matched = [hit_text[h] for h in section.hit_ids if h in hit_text]
        text = _window(section.text, matched[0] if matched else "", max_source_chars)
        caption = section.metadata.get("caption") if isinstance(section.metadata, dict) else None
        if used + len(text) > max_context_chars and sources:
            continue
        used += len(text)
        sources.append(
            AssembledSource(
                n=len(sources) + 1,
                paper_key=section.paper_key,
                section_id=next((h for h in section.hit_ids if h in hit_rank), None)
                or (section.chunk_ids[0] if section.chunk_ids else f"{section.paper_key}#{section.section}"),
                section=section.section,
                kind=section.kind,
                heading=section.heading,
                title=section.title,
                year=section.year,
                doi=section.doi,
                text=text,
                caption=str(caption) if caption else None,
                score=section.rerank_score if section.rerank_score is not None else section.score,
                hit_texts=matched,
            )
        )
    return sources


def format_sources(sources: Sequence[AssembledSource]) -> str:
    """The sources as the answer prompt shows them: a header per paper, then its numbered blocks."""
    lines: list[str] = []
    current: str | None = None
    for source in sources:
        if source.paper_key != current:
            current = source.paper_key
            meta = ", ".join(
                x
                for x in (str(source.year) if source.year else "", f"doi:{source.doi}" if source.doi else "")
                if x
            )
            lines.append(f"### Paper: {source.title or source.paper_key}" + (f" ({meta})" if meta else ""))
        label = source.heading or source.section
        if source.is_table:
            lines.append(f"[{source.n}] Table — {label}")
        elif source.is_figure:
            lines.append(f"[{source.n}] Figure caption — {label}")
        else:
            lines.append(f"[{source.n}] {label}")
        lines.append(source.text.strip())
        lines.append("")
    return "\n".join(lines).strip()


# ----------------------------------------------------------------------------------------------
# Step 8: the answer
# ----------------------------------------------------------------------------------------------


def best_quote(source: AssembledSource, claim: str = "") -> str:
    """The source sentence that best supports `claim` (by shared terms); else the start of its hit."""
    sentences = split_sentences(source.text) or [source.text]
    wanted = _terms(claim)
    if wanted:
        scored = [(len(wanted & _terms(s)), -i, s) for i, s in enumerate(sentences)]
        overlap, _, sentence = max(scored)
        if overlap > 0:
            return quotable(sentence, QUOTE_CHARS)
    anchor = source.hit_texts[0] if source.hit_texts else source.text
    first = split_sentences(anchor)
    return quotable(first[0] if first else anchor.strip(), QUOTE_CHARS)


def citation_for(source: AssembledSource, claim: str = "") -> AskCitation:
    return AskCitation(
        claim=" ".join(claim.split())[:QUOTE_CHARS],
        n=source.n,
        paper_key=source.paper_key,
        section_id=source.section_id,
        section=source.section,
        heading=source.heading,
        kind=source.kind,
        title=source.title,
        year=source.year,
        doi=source.doi,
        quote=best_quote(source, claim),
    )


def _marker_numbers(body: str) -> list[int]:
    numbers: list[int] = []
    for part in re.split(r"\s*[,，;；、]\s*", body):
        if range_match := re.fullmatch(r"(\d+)\s*[–—-]\s*(\d+)", part):
            low, high = int(range_match.group(1)), int(range_match.group(2))
            if 0 < high - low < 20:
                numbers.extend(range(low, high + 1))
                continue
        if part.strip().isdigit():
            numbers.append(int(part))
    return numbers


class CitationTracker:
    """Numbers citations as a reader meets them and keeps the text, the events and the sources in step.

    Sources are numbered in retrieval order (the prompt's `[n]`, the trace's ranks), but an answer
    that cites `[2]`, `[5]`, `[6]` reads as if sources were missing. So the answer's citations are
    renumbered 1..k in the order they first appear: `write` takes the model's text as it streams,
    holds back a marker that may still be arriving (`[1` …), and returns the text with every known
    marker rewritten to the reader's numbers, plus one `AskCitation` per source cited for the first
    time (`n` the reader's number, `source_rank` the retrieval number). Markers naming no source are
    left as written and listed in `unknown`. `cite` numbers a source directly (the extractive answer,
    whose quoted sentences may contain bracketed numbers of their own).
    """

    HOLD = 40  # an opening bracket this far back without its closing one is plain text, not a marker

    def __init__(self, sources: Sequence[AssembledSource]) -> None:
        self.by_n = {source.n: source for source in sources}
        self.text = ""  # everything received, as written (claims are read from it)
        self.pending = ""  # received but not yet returned: a marker that may be incomplete
        self.display: dict[int, int] = {}  # source number -> the number the reader sees
        self.unknown: list[int] = []

    @property
    def cited(self) -> list[int]:
        """The cited sources' retrieval numbers, in the reader's order."""
        return list(self.display)

    def source(self, citation: AskCitation) -> AssembledSource:
        return self.by_n[citation.source_rank or citation.n]

    def cite(self, n: int, claim: str = "") -> tuple[int, AskCitation | None]:
        """The reader's number for source `n`, and its citation the first time it is cited."""
        if n in self.display:
            return self.display[n], None
        self.display[n] = len(self.display) + 1
        citation = citation_for(self.by_n[n], claim)
        return self.display[n], citation.model_copy(update={"n": self.display[n], "source_rank": n})

    def write(self, delta: str) -> tuple[str, list[AskCitation]]:
        """Text that can be shown now (markers renumbered) and the sources cited for the first time."""
        self.text += delta
        self.pending += delta
        cut = len(self.pending)
        opener = max(self.pending.rfind(ch) for ch in _OPENERS)
        tail = self.pending[opener:] if opener >= 0 else ""
        if tail and len(tail) <= self.HOLD and _OPEN_MARKER.fullmatch(tail):
            cut = opener
        ready, self.pending = self.pending[:cut], self.pending[cut:]
        return self._renumber(ready, len(self.text) - len(self.pending) - len(ready))

    def close(self) -> tuple[str, list[AskCitation]]:
        """Whatever is still held back (an opening bracket that never became a marker)."""
        ready, self.pending = self.pending, ""
        return self._renumber(ready, len(self.text) - len(ready))

    def _renumber(self, ready: str, offset: int) -> tuple[str, list[AskCitation]]:
        found: list[AskCitation] = []
        out: list[str] = []
        last = 0
        for match in _MARKER.finditer(ready):
            start = offset + match.start()
            claim_start = max(self.text.rfind(ch, 0, start) for ch in ".!?。！？\n") + 1
            claim = _MARKER.sub(" ", self.text[claim_start:start])
            shown: list[int] = []
            kept: list[int] = []
            for n in _marker_numbers(match.group(1)):
                if n not in self.by_n:
                    if n not in self.unknown:
                        self.unknown.append(n)
                    if n not in kept:
                        kept.append(n)
                    continue
                number, citation = self.cite(n, claim)
                if citation is not None:
                    found.append(citation)
                if number not in shown:
                    shown.append(number)
            if not shown:  # nothing known inside: leave the marker as the model wrote it
                continue
            text = match.group(0)
            body = ", ".join(str(x) for x in [*sorted(shown), *kept])
            out.append(ready[last : match.start()] + text[0] + body + text[-1])
            last = match.end()
        out.append(ready[last:])
        return "".join(out), found


MESSAGES = {
    "no_index": {
        "en": "This Run has nothing to search yet: no paper of it is indexed (the Run may have no papers).",
        "zh": "这个 Run 还没有可检索的内容：没有任何论文被索引（该 Run 可能没有论文）。",
    },
    "nothing_found": {
        "en": "No passage in this Run's papers matches the question. Try other words, or a broader question.",
        "zh": "这个 Run 的论文中没有与该问题匹配的段落。请换一种说法，或提一个更宽泛的问题。",
    },
    "extractive": {
        "en": "No language model answered ({reason}), so here are the most relevant sentences from the papers:\n\n",
        "zh": "语言模型不可用（{reason}），以下是论文中与问题最相关的句子：\n\n",
    },
    "cut": {
        "en": "\n\n(The model's answer was cut off: {reason}.)",
        "zh": "\n\n（模型的回答中断：{reason}。）",
    },
    "abstain": {
        "en": "The papers in this Run do not answer this question. "
        "The closest passages follow as related reading, not as an answer:\n\n",
        "zh": "这个 Run 的论文无法回答这个问题。以下是最接近的段落，仅供参考，并非答案：\n\n",
    },
    "evidence_language": {
        "en": "\n(The evidence is in {language}; no language model is configured to answer in the question's language.)\n",
        "zh": "\n（证据为{language}原文；未配置语言模型，无法用问题的语言作答。）\n",
    },
    "rerank_skipped": {
        "en": "\n(Rerank skipped: {reason}; passages are in fused order.)\n",
        "zh": "\n（未重排：{reason}；段落按融合分数排序。）\n",
    },
    "unsupported": {
        "en": "\n\nCitation check: not supported by the cited passage: {items}.",
        "zh": "\n\n引用核查：以下句子未得到所引段落支持：{items}。",
    },
}
LANGUAGE_NAMES = {"en": {"en": "English", "zh": "英文"}, "zh": {"en": "Chinese", "zh": "中文"}}


def _message(name: str, chinese: bool, **values: str) -> str:
    return MESSAGES[name]["zh" if chinese else "en"].format(**values)


# ----------------------------------------------------------------------------------------------
# The pipeline
# ----------------------------------------------------------------------------------------------


def evidence_language(sources: Sequence[AssembledSource]) -> str:
    """The language most of the cited passages are written in ("en" or "zh")."""
    text = " ".join(source.text[:400] for source in sources[:5])
    return "zh" if is_chinese(text) else "en"


def judge_answerability(
    searched: QuestionSearch,
    sections: Sequence[ExpandedSection],
    model: ModelFile | None,
    embed_model: str | None = None,
) -> Answerability:
    """The decision over every search made for the question (as written, and its English terms):
    the most answerable reading wins, so a Chinese question is judged on its English evidence."""
    titles = {s.paper_key: s.title for s in sections}
    texts: dict[str, list[str]] = {}
    for section in sections:
        texts.setdefault(section.paper_key, [section.title]).append(section.text)
    joined = {key: " ".join(parts) for key, parts in texts.items()}
    decisions = [
        decide(evidence_features(result, titles, joined), model, embed_model=embed_model)
        for result in searched.results
        if result.hits
    ]
    if not decisions:
        return Answerability(answerable=False, reason="nothing found")
    return max(decisions, key=lambda d: (d.answerable, d.probability or 0.0))


async def ask(
    run_id: str,
    question: str,
    *,
    engine: AskEngine,
    llm: LLM,
    top_k: int = 8,
    rerank: bool = True,
    probes: bool = False,
    limits: ProbeLimits | None = None,
    trace: bool = False,
    answerability_model: ModelFile | None | Literal["default"] = "default",
    translate: bool = True,
) -> AsyncIterator[AskChunk]:
    """Answer a question about a Run as a stream of chunks: start, text…, citation…, end.

    Raises `ValueError` (on first iteration) for an empty or over-long question. An empty Run or a
    question that matches nothing yields a clear message, not an error; errors of the retrieval engine
    itself propagate. When the evidence does not answer the question (`agent.ask.answerability`), the
    answer says so in one sentence and lists the closest passages as related reading.
    """
    question = validate_question(question)
    if top_k < 1:
        raise ValueError("top_k must be at least 1")
    chinese = is_chinese(question)
    model = load_model() if answerability_model == "default" else answerability_model
    started = time.perf_counter()
    timings: dict[str, float] = {}

    def lap(name: str, since: float) -> float:
        now = time.perf_counter()
        timings[name] = round(now - since, 3)
        return now

    if not await engine.run_has_index(run_id):
        yield AskStart(run_id=run_id, question=question)
        yield AskText(delta=_message("no_index", chinese))
        lap("total", started)
        yield AskEnd(
            produced_by=Produced.RULES, timings=timings, counts={"hits": 0}, note="the Run is not indexed"
        )
        return

    # steps 1–5: retrieval (the engine), with or without probes, and in English for a Chinese question
    mark = time.perf_counter()
    searched = await search_question(
        engine,
        run_id,
        question,
        llm=llm,
        top_k=top_k,
        rerank=rerank,
        probes=probes,
        limits=limits,
        translate=translate,
    )
    result, hits = searched.result, searched.hits
    for step, seconds in result.timings.items():
        timings[f"retrieval.{step}"] = round(seconds, 3)
    mark = lap("retrieval", mark)

    # step 6: whole sections; step 7: numbered sources
    sections = await engine.expand_sections(run_id, hits) if hits else []
    sources = assemble(sections, hits)
    mark = lap("assembly", mark)
    embed_model = getattr(getattr(engine, "embedder", None), "name", None)
    verdict = judge_answerability(searched, sections, model, embed_model) if sources else None
    norm = result.normalization
    rerank_trace = (searched.translated or result).rerank
    yield AskStart(
        run_id=run_id,
        question=question,
        normalization=norm,
        steps=norm.steps(),
        intent=result.intent,
        probes=searched.probes,
        hits=len(hits),
        sources=len(sources),
        papers=len({s.paper_key for s in sources}),
        answerable=verdict.answerable if verdict else None,
        answerability=verdict,
        translation=searched.translation,
        evidence_language=evidence_language(sources) if sources else None,
        rerank=rerank_trace,
        trace=build_trace(searched, sections, sources, verdict) if trace else None,
    )
    counts = {
        "hits": len(hits),
        "sections": len(sections),
        "sources": len(sources),
        "papers": len({s.paper_key for s in sources}),
        "tables": sum(1 for s in sources if s.is_table),
        "figures": sum(1 for s in sources if s.is_figure),
    }
    notes = list(searched.notes)
    rerank_missing = rerank_skip_reason(rerank_trace) if rerank else None
    if rerank_missing:
        notes.append(f"rerank skipped: {rerank_missing}")

    def end_note(extra: str | None = None) -> str | None:
        parts = [*notes, *([extra] if extra else [])]
        return "; ".join(parts) if parts else None

    if not sources or verdict is None:
        yield AskText(delta=_message("nothing_found", chinese))
        lap("total", started)
        yield AskEnd(
            produced_by=Produced.RULES,
            answerable=False,
            timings=timings,
            counts={**counts, "citations": 0},
            note=end_note("nothing found"),
        )
        return

    tracker = CitationTracker(sources)
    if not verdict.answerable:
        # one sentence that the Run cannot answer, then the closest passages as related reading
        yield AskText(delta=_message("abstain", chinese))
        query_terms = _query_terms(searched)
        for sentence, source in extractive_answer(sources, query_terms, _cue_text(searched))[
            :RELATED_PASSAGES
        ]:
            number, citation = tracker.cite(source.n)
            yield AskText(delta=f"- {sentence} [{number}]\n")
            if citation is not None:
                yield citation.model_copy(update={"quote": quotable(sentence, QUOTE_CHARS), "related": True})
        if language_note := _language_note(sources, chinese):
            yield AskText(delta=language_note)
        lap("total", started)
        yield AskEnd(
            produced_by=Produced.RULES,
            answerable=False,
            timings=timings,
            counts={**counts, "citations": len(tracker.cited)},
            note=end_note(f"abstained: {verdict.reason}"),
        )
        return

    # step 8: the streamed answer
    produced_by: Produced = llm.kind
    note: str | None = None
    checker = CitationChecker(getattr(engine, "reranker", None))
    try:
        stream = llm.stream(
            "answer",
            {
                "question": question,
                "sources": format_sources(sources),
                "language": "in Chinese (简体中文), the language of the question"
                if chinese
                else "in the language of the question",
            },
        )
        async for delta in stream:
            if not delta:
                continue
            async for chunk in _checked(tracker.write(delta), tracker, checker):
                yield chunk
        async for chunk in _checked(tracker.close(), tracker, checker):
            yield chunk
    except LLMError as exc:
        async for chunk in _checked(tracker.close(), tracker, checker):  # what arrived before the error
            yield chunk
        if tracker.text.strip():
            note = f"the model stopped mid-answer: {exc}"
            log.warning("ask %s: %s", run_id, note)
            yield AskText(delta=_message("cut", chinese, reason=str(exc) or type(exc).__name__))
        else:
            note = (
                f"extractive answer: {exc}"
                if isinstance(exc, LLMUnavailable)
                else f"extractive answer after a model error: {exc}"
            )
            log.info("ask %s: %s", run_id, note)
            produced_by = Produced.RULES
            yield AskText(delta=_message("extractive", chinese, reason=str(exc) or type(exc).__name__))
            for sentence, source in extractive_answer(sources, _query_terms(searched), _cue_text(searched)):
                number, citation = tracker.cite(source.n)
                yield AskText(delta=f"- {sentence} [{number}]\n")
                if citation is not None:
                    yield citation.model_copy(update={"quote": quotable(sentence, QUOTE_CHARS)})
            if language_note := _language_note(sources, chinese):
                yield AskText(delta=language_note)
            if rerank_missing:
                yield AskText(delta=_message("rerank_skipped", chinese, reason=rerank_missing))
    if checker.unsupported:
        items = "; ".join(f"[{n}] “{_trim(claim, 120)}”" for n, claim in checker.unsupported)
        yield AskText(delta=_message("unsupported", chinese, items=items))
        note = (
            f"{note}; {len(checker.unsupported)} unsupported citation(s)"
            if note
            else (f"{len(checker.unsupported)} unsupported citation(s)")
        )
    if tracker.unknown:
        extra = f"the answer cites sources that do not exist: {', '.join(map(str, tracker.unknown))}"
        note = f"{note}; {extra}" if note else extra
    if produced_by is not Produced.RULES and not tracker.cited:
        note = f"{note}; the model cited no source" if note else "the model cited no source"
    lap("generation", mark)
    lap("total", started)
    yield AskEnd(
        produced_by=produced_by,
        answerable=True,
        timings=timings,
        counts={**counts, "citations": len(tracker.cited)},
        note=end_note(note),
    )


async def _checked(
    written: tuple[str, list[AskCitation]], tracker: CitationTracker, checker: CitationChecker
) -> AsyncIterator[AskText | AskCitation]:
    """A piece of the model's answer as the reader sees it, then its new citations, each checked."""
    shown, cited = written
    if shown:
        yield AskText(delta=shown)
    for citation in cited:
        yield await checker.check(citation, tracker.source(citation))


def _language_note(sources: Sequence[AssembledSource], chinese: bool) -> str | None:
    """Without a model the passages are quoted as written: say so when that is not the question's language."""
    language = evidence_language(sources)
    if language == ("zh" if chinese else "en"):
        return None
    return _message(
        "evidence_language", chinese, language=LANGUAGE_NAMES[language]["zh" if chinese else "en"]
    )


def rerank_skip_reason(trace: RerankTrace) -> str | None:
    """Why a requested rerank did not happen (None when it ran, or when the engine gave no reason)."""
    if trace.status == "done" or (trace.status == "skipped" and not trace.message):
        return None
    if trace.message == "no reranker":
        return "no cross-encoder model is available on this machine"
    return f"{trace.status}: {trace.message}" if trace.message else trace.status


def _query_terms(searched: QuestionSearch) -> list[str]:
    terms: list[str] = []
    for result in searched.results:
        trace = result.normalization
        terms += [*trace.keywords, *trace.bm25_tokens, *trace.tokens]
    return terms


def _cue_text(searched: QuestionSearch) -> str:
    return " ".join(x for x in (searched.result.question, searched.translation) if x)
