"""Query-expansion probes (requirements 003): the LLM rewrites a question into up to N−1 probes —
definitional, contextual, associative — which are searched in parallel with the question itself; the
hits are merged and de-duplicated by section.

Time limits (defaults from 003 §4.2): the LLM 10 s, each probe search 5 s, the whole expansion 30 s.
The original question's search starts at once, in parallel with the LLM, and is never cut by those
limits: probes may only add to what a plain search finds, never make it fail. Every failure — no LLM,
invalid output, a timeout, a probe search error — is recorded in the metadata and the search falls back
to what the original question found.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from agent.llm import LLM, LLMError
from agent.models import Produced
from tools.retrieval.types import RetrievalResult, SectionHit

log = logging.getLogger(__name__)

ProbeType = Literal["definitional", "contextual", "associative"]
PROBE_TYPES: tuple[str, ...] = ("definitional", "contextual", "associative")
MAX_PROBE_CHARS = 300
RRF_K = 60  # the usual reciprocal-rank constant: ranks matter, raw scores of different queries do not
ORIGINAL_WEIGHT = 1.0
PROBE_WEIGHT = 0.5  # a probe is a guess at the question; the question itself counts double


# ----------------------------------------------------------------------------------------------
# Models
# ----------------------------------------------------------------------------------------------


class Probe(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: ProbeType = "associative"
    label: str = ""
    text: str

    @field_validator("type", mode="before")
    @classmethod
    def _known_type(cls, value: Any) -> str:
        # a model that invents a fourth kind still gave a usable probe; keep it as associative
        text = str(value or "").strip().lower()
        return text if text in PROBE_TYPES else "associative"


class ProbeSet(BaseModel):
    """The LLM's reply (003's `ExpandedProbes`)."""

    model_config = ConfigDict(extra="ignore")

    original_query: str = ""
    expanded_probes: list[Probe] = Field(default_factory=list)


@dataclass(frozen=True)
class ProbeLimits:
    """How many queries in all (the question plus N−1 probes) and the time limits, in seconds."""

    max_queries: int = 4
    llm_timeout: float = 10.0
    search_timeout: float = 5.0
    total_timeout: float = 30.0

    def __post_init__(self) -> None:
        if self.max_queries < 1:
            raise ValueError("max_queries must be at least 1 (the question itself)")
        for name in ("llm_timeout", "search_timeout", "total_timeout"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")

    @property
    def max_probes(self) -> int:
        return self.max_queries - 1


class ProbeRun(BaseModel):
    """One query as searched: the question itself (`type` "original") or a probe."""

    type: Literal["original", "definitional", "contextual", "associative"]
    label: str = ""
    text: str
    hits: int = 0
    seconds: float = 0.0
    error: str | None = None


class DedupStats(BaseModel):
    original_count: int = 0  # hits summed over every query
    final_count: int = 0  # distinct sections among them
    returned: int = 0  # after cutting to top_k


class ProbeTimings(BaseModel):
    expansion: float = 0.0
    search: float = 0.0
    total: float = 0.0


class ProbeMetadata(BaseModel):
    """What 003 asks the response to carry: the probes, the de-duplication counts, the timings."""

    enabled: bool = False
    original_query: str = ""
    expanded_queries: list[str] = Field(default_factory=list)
    probes: list[ProbeRun] = Field(default_factory=list)
    dedup: DedupStats = Field(default_factory=DedupStats)
    timings: ProbeTimings = Field(default_factory=ProbeTimings)
    failures: list[str] = Field(default_factory=list)
    fell_back: bool = False  # True when only the original question's hits were used
    produced_by: Produced | None = None


@dataclass
class ProbeSearch:
    """The original question's retrieval result, the merged hits, and for each hit the queries that found it."""

    result: RetrievalResult
    hits: list[SectionHit]
    metadata: ProbeMetadata
    found_by: dict[str, list[int]] = field(default_factory=dict)  # section_id -> indexes into metadata.probes


class SearchEngine(Protocol):
    async def search(self, run_id: str, question: str, **options: Any) -> RetrievalResult: ...


# ----------------------------------------------------------------------------------------------
# Expansion
# ----------------------------------------------------------------------------------------------


def _key(text: str) -> str:
    return re.sub(r"[\W_]+", " ", text.casefold()).strip()


def clean_probes(question: str, probes: Sequence[Probe], max_probes: int) -> list[Probe]:
    """Usable probes: non-empty, trimmed, not the question again, no duplicates, at most `max_probes`."""
    seen = {_key(question)}
    out: list[Probe] = []
    for probe in probes:
        text = re.sub(r"\s+", " ", probe.text or "").strip()[:MAX_PROBE_CHARS]
        key = _key(text)
        if not key or key in seen:
            continue
        seen.add(key)
        out.append(probe.model_copy(update={"text": text, "label": probe.label.strip()[:60]}))
        if len(out) >= max_probes:
            break
    return out


async def expand_question(question: str, llm: LLM, *, max_probes: int) -> list[Probe]:
    """The LLM's probes for a question (validated); raises `LLMError` when there is no usable model."""
    if max_probes <= 0:
        return []
    reply = await llm.structured("probes", {"question": question, "max_probes": max_probes}, ProbeSet)
    return clean_probes(question, reply.expanded_probes, max_probes)


# ----------------------------------------------------------------------------------------------
# Search with probes
# ----------------------------------------------------------------------------------------------


def merge_hits(
    lists: Sequence[tuple[float, Sequence[SectionHit]]],
) -> tuple[list[SectionHit], dict[str, list[int]], int]:
    """Weighted reciprocal-rank fusion of per-query hit lists, de-duplicated by `section_id`.

    `lists` holds (weight, hits) per query in query order. Scores of different queries are not
    comparable (each is normalised or reranked within its own query), so ranks decide. The hit object
    kept for a section is the one from the query that ranked it best. Returns (merged hits, the
    queries that found each section, the total number of hits before de-duplication).
    """
    fused: dict[str, float] = {}
    best: dict[str, tuple[int, SectionHit]] = {}
    found_by: dict[str, list[int]] = {}
    total = 0
    for query_index, (weight, hits) in enumerate(lists):
        for rank, hit in enumerate(hits, start=1):
            total += 1
            fused[hit.section_id] = fused.get(hit.section_id, 0.0) + weight / (RRF_K + rank)
            if hit.section_id not in best or rank < best[hit.section_id][0]:
                best[hit.section_id] = (rank, hit)
            queries = found_by.setdefault(hit.section_id, [])
            if query_index not in queries:
                queries.append(query_index)
    order = sorted(fused, key=lambda section_id: (-fused[section_id], best[section_id][0]))
    return [best[section_id][1] for section_id in order], found_by, total


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


async def search_with_probes(
    engine: SearchEngine,
    run_id: str,
    question: str,
    *,
    llm: LLM,
    limits: ProbeLimits | None = None,
    top_k: int = 8,
    **search_options: Any,
) -> ProbeSearch:
    """Search the question and its probes in parallel and merge the hits (see the module docstring).

    Exceptions of the original question's search propagate (exactly as without probes); everything
    else degrades to the original question's hits, recorded in `metadata.failures`.
    """
    limits = limits or ProbeLimits()
    started = time.perf_counter()
    deadline = started + limits.total_timeout
    metadata = ProbeMetadata(enabled=True, original_query=question)

    def remaining() -> float:
        return max(0.0, deadline - time.perf_counter())

    async def timed_search(text: str) -> tuple[RetrievalResult, float]:
        began = time.perf_counter()
        result = await engine.search(run_id, text, top_k=top_k, **search_options)
        return result, time.perf_counter() - began

    original_task = asyncio.create_task(timed_search(question))
    try:
        # 1. the probes, while the original search runs
        probes: list[Probe] = []
        began = time.perf_counter()
        try:
            probes = await asyncio.wait_for(
                expand_question(question, llm, max_probes=limits.max_probes),
                timeout=min(limits.llm_timeout, remaining()),
            )
            metadata.produced_by = llm.kind
            if not probes and limits.max_probes > 0:
                metadata.failures.append("expansion: the model wrote no usable probe")
        except TimeoutError:
            metadata.failures.append(
                f"expansion: no answer within {min(limits.llm_timeout, limits.total_timeout):g} s"
            )
        except LLMError as exc:
            metadata.produced_by = Produced.RULES
            metadata.failures.append(f"expansion: {_describe(exc)}")
        except Exception as exc:  # whatever else the model client raised: fall back, loudly
            log.exception("query expansion failed")
            metadata.failures.append(f"expansion: {type(exc).__name__}: {_describe(exc)}")
        metadata.timings.expansion = round(time.perf_counter() - began, 3)

        # 2. the probe searches, in parallel, each with its own limit inside the whole budget
        began = time.perf_counter()
        probe_results: list[RetrievalResult | None] = []
        if probes:
            outcomes = await asyncio.gather(
                *(
                    asyncio.wait_for(timed_search(p.text), timeout=min(limits.search_timeout, remaining()))
                    for p in probes
                ),
                return_exceptions=True,
            )
            for probe, outcome in zip(probes, outcomes, strict=True):
                run = ProbeRun(type=probe.type, label=probe.label, text=probe.text)
                if isinstance(outcome, BaseException):
                    if isinstance(outcome, asyncio.CancelledError):
                        raise outcome
                    reason = (
                        f"no answer within {limits.search_timeout:g} s"
                        if isinstance(outcome, TimeoutError)
                        else _describe(outcome)
                    )
                    run.error = reason
                    metadata.failures.append(f"probe '{probe.text[:60]}': {reason}")
                    probe_results.append(None)
                else:
                    result, seconds = outcome
                    run.hits, run.seconds = len(result.hits), round(seconds, 3)
                    probe_results.append(result)
                metadata.probes.append(run)

        # 3. the original question, whatever happened above
        original, seconds = await original_task
        metadata.timings.search = round(time.perf_counter() - began, 3)
    finally:
        if not original_task.done():
            original_task.cancel()

    metadata.probes.insert(
        0, ProbeRun(type="original", text=question, hits=len(original.hits), seconds=round(seconds, 3))
    )
    metadata.expanded_queries = [p.text for p in probes]
    lists: list[tuple[float, Sequence[SectionHit]]] = [(ORIGINAL_WEIGHT, original.hits)]
    lists += [(PROBE_WEIGHT, r.hits if r is not None else []) for r in probe_results]
    merged, found_by, total = merge_hits(lists)
    metadata.fell_back = not any(r is not None for r in probe_results)
    metadata.dedup = DedupStats(
        original_count=total, final_count=len(merged), returned=min(top_k, len(merged))
    )
    metadata.timings.total = round(time.perf_counter() - started, 3)
    if metadata.failures:
        log.warning("probes for %r: %s", question[:80], "; ".join(metadata.failures))
    hits = merged[:top_k]
    return ProbeSearch(
        result=original,
        hits=hits,
        metadata=metadata,
        found_by={hit.section_id: found_by[hit.section_id] for hit in hits},
    )
