"""Query-expansion probes: expansion, parallel searches under time limits, merging, and every fallback."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from agent.ask.probes import (
    Probe,
    ProbeLimits,
    clean_probes,
    expand_question,
    merge_hits,
    search_with_probes,
)
from agent.llm import RulesLLM, ScriptedLLM
from agent.models import Produced
from tools.retrieval.types import (
    FusionTrace,
    Intent,
    NormalizationTrace,
    RerankTrace,
    RetrievalResult,
    SectionHit,
)

QUESTION = "Which papers decode speech from high-gamma activity?"
PROBES = {
    "original_query": QUESTION,
    "expanded_probes": [
        {"type": "definitional", "label": "high gamma", "text": "high-gamma band power 70-150 Hz ECoG"},
        {
            "type": "contextual",
            "label": "decoding setup",
            "text": "speech decoding from intracranial recordings",
        },
        {
            "type": "associative",
            "label": "related",
            "text": "brain-computer interface speech neuroprosthesis",
        },
    ],
}


def hit(section_id: str) -> SectionHit:
    return SectionHit(
        section_id=section_id,
        paper_key=section_id.split("#")[0],
        section="abstract",
        ordinal=0,
        text=section_id,
        score=1.0,
    )


def result(question: str, ids: list[str]) -> RetrievalResult:
    trace = NormalizationTrace(
        original=question,
        width_normalized=question,
        punctuation_normalized=question,
        whitespace_normalized=question,
        synonyms_canonicalized=question,
        stopwords_removed=question,
        normalized_text=question,
    )
    return RetrievalResult(
        run_id="r",
        question=question,
        normalization=trace,
        intent=Intent(kind="content", confidence=0.7),
        hits=[hit(i) for i in ids],
        fusion=FusionTrace(method="weighted", weights={}, candidates=len(ids), multi_leg=0, per_leg={}),
        rerank=RerankTrace(status="skipped"),
    )


class FakeEngine:
    """Answers by query text; can be slow or fail per query; records what it was asked and how many ran at once."""

    def __init__(
        self,
        answers: dict[str, list[str]],
        *,
        delays: dict[str, float] | None = None,
        errors: dict[str, Exception] | None = None,
    ):
        self.answers = answers
        self.delays = delays or {}
        self.errors = errors or {}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.in_flight = 0
        self.max_in_flight = 0

    async def search(self, run_id: str, question: str, **options: Any) -> RetrievalResult:
        self.calls.append((question, options))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delays.get(question, 0.01))
            if question in self.errors:
                raise self.errors[question]
            return result(question, self.answers.get(question, []))
        finally:
            self.in_flight -= 1


ANSWERS = {
    QUESTION: ["p1#abstract#0", "p2#abstract#0", "p3#abstract#0"],
    "high-gamma band power 70-150 Hz ECoG": ["p2#abstract#0", "p4#methods#0"],
    "speech decoding from intracranial recordings": ["p4#methods#0", "p1#abstract#0"],
    "brain-computer interface speech neuroprosthesis": ["p5#abstract#0"],
}


async def test_probes_run_in_parallel_and_merge_by_section():
    engine = FakeEngine(ANSWERS)
    llm = ScriptedLLM(replies={"probes": PROBES})
    found = await search_with_probes(engine, "r", QUESTION, llm=llm, top_k=10, rerank=False)

    # the question and its three probes, all searched, all at once
    assert [q for q, _ in engine.calls][0] == QUESTION and len(engine.calls) == 4
    assert engine.max_in_flight >= 3
    assert all(opts == {"top_k": 10, "rerank": False} for _, opts in engine.calls)
    assert llm.calls[0].values == {"question": QUESTION, "max_probes": 3}

    meta = found.metadata
    assert (
        meta.enabled and not meta.fell_back and meta.failures == [] and meta.produced_by is Produced.SCRIPTED
    )
    assert [p.type for p in meta.probes] == ["original", "definitional", "contextual", "associative"]
    assert [p.hits for p in meta.probes] == [3, 2, 2, 1]
    assert meta.expanded_queries == [p["text"] for p in PROBES["expanded_probes"]]
    assert meta.dedup.original_count == 8 and meta.dedup.final_count == 5 and meta.dedup.returned == 5
    assert meta.timings.total >= meta.timings.search > 0

    ids = [h.section_id for h in found.hits]
    assert sorted(ids) == sorted({i for v in ANSWERS.values() for i in v})  # each section once
    assert ids[0] == "p1#abstract#0"  # first for the question and found again by a probe
    assert found.found_by["p4#methods#0"] == [1, 2] and found.found_by["p1#abstract#0"] == [0, 2]
    assert found.result.question == QUESTION  # the trace and intent shown are the question's own


async def test_top_k_cuts_the_merged_list():
    found = await search_with_probes(
        FakeEngine(ANSWERS), "r", QUESTION, llm=ScriptedLLM(replies={"probes": PROBES}), top_k=2
    )
    assert (
        len(found.hits) == 2 and found.metadata.dedup.final_count == 5 and found.metadata.dedup.returned == 2
    )
    assert set(found.found_by) == {h.section_id for h in found.hits}


async def test_no_llm_falls_back_to_the_question():
    engine = FakeEngine(ANSWERS)
    found = await search_with_probes(engine, "r", QUESTION, llm=RulesLLM())
    meta = found.metadata
    assert meta.fell_back and meta.produced_by is Produced.RULES
    assert meta.failures and meta.failures[0].startswith("expansion:")
    assert [q for q, _ in engine.calls] == [QUESTION]
    assert [h.section_id for h in found.hits] == ANSWERS[QUESTION]


async def test_invalid_model_output_falls_back():
    found = await search_with_probes(
        FakeEngine(ANSWERS), "r", QUESTION, llm=ScriptedLLM(replies={"probes": "not json"})
    )
    assert found.metadata.fell_back and "no JSON object" in found.metadata.failures[0]


class SlowLLM(ScriptedLLM):
    async def structured(self, prompt, values, schema):  # type: ignore[override]
        await asyncio.sleep(5)
        return await super().structured(prompt, values, schema)


async def test_llm_time_limit():
    engine = FakeEngine(ANSWERS)
    began = time.perf_counter()
    found = await search_with_probes(
        engine, "r", QUESTION, llm=SlowLLM(replies={"probes": PROBES}), limits=ProbeLimits(llm_timeout=0.05)
    )
    assert time.perf_counter() - began < 1.0
    assert found.metadata.fell_back and "no answer within 0.05 s" in found.metadata.failures[0]
    assert [h.section_id for h in found.hits] == ANSWERS[QUESTION]


async def test_slow_and_failing_probes_are_dropped_not_fatal():
    slow, broken = PROBES["expanded_probes"][0]["text"], PROBES["expanded_probes"][1]["text"]
    engine = FakeEngine(ANSWERS, delays={slow: 2.0}, errors={broken: RuntimeError("index busy")})
    began = time.perf_counter()
    found = await search_with_probes(
        engine,
        "r",
        QUESTION,
        llm=ScriptedLLM(replies={"probes": PROBES}),
        limits=ProbeLimits(search_timeout=0.1),
    )
    assert time.perf_counter() - began < 1.5
    runs = {p.text: p for p in found.metadata.probes}
    assert runs[slow].error == "no answer within 0.1 s" and runs[broken].error == "index busy"
    assert runs[PROBES["expanded_probes"][2]["text"]].hits == 1
    assert not found.metadata.fell_back and len(found.metadata.failures) == 2
    assert "p5#abstract#0" in {h.section_id for h in found.hits}


async def test_the_question_itself_is_not_cut_by_the_probe_limits():
    engine = FakeEngine(ANSWERS, delays={QUESTION: 0.3})
    found = await search_with_probes(
        engine,
        "r",
        QUESTION,
        llm=ScriptedLLM(replies={"probes": PROBES}),
        limits=ProbeLimits(search_timeout=0.1, total_timeout=0.2),
    )
    assert found.metadata.probes[0].hits == 3 and found.metadata.probes[0].seconds >= 0.3


async def test_the_whole_budget_cuts_pending_probes():
    probe_texts = [p["text"] for p in PROBES["expanded_probes"]]
    engine = FakeEngine(ANSWERS, delays=dict.fromkeys(probe_texts, 2.0))
    began = time.perf_counter()
    found = await search_with_probes(
        engine,
        "r",
        QUESTION,
        llm=ScriptedLLM(replies={"probes": PROBES}),
        limits=ProbeLimits(search_timeout=5, total_timeout=0.2),
    )
    assert time.perf_counter() - began < 1.0
    assert found.metadata.fell_back and all(p.error for p in found.metadata.probes[1:])


async def test_an_error_of_the_question_search_propagates():
    engine = FakeEngine(ANSWERS, errors={QUESTION: LookupError("run not indexed")})
    with pytest.raises(LookupError, match="not indexed"):
        await search_with_probes(engine, "r", QUESTION, llm=ScriptedLLM(replies={"probes": PROBES}))


async def test_a_single_query_needs_no_model():
    llm = ScriptedLLM(replies={"probes": PROBES})
    found = await search_with_probes(
        FakeEngine(ANSWERS), "r", QUESTION, llm=llm, limits=ProbeLimits(max_queries=1)
    )
    assert llm.calls == [] and found.metadata.probes[0].type == "original" and len(found.metadata.probes) == 1


def test_clean_probes():
    probes = [
        Probe(
            type="definitional", text="  Which papers decode speech from HIGH-GAMMA activity  "
        ),  # the question again
        Probe(type="contextual", text=""),
        Probe(type="contextual", label=" setup ", text="speech   decoding"),
        Probe(type="associative", text="Speech decoding!"),  # a duplicate once punctuation and case go
        Probe(type="associative", text="x" * 500),
        Probe(type="associative", text="one too many"),
    ]
    cleaned = clean_probes(QUESTION, probes, max_probes=2)
    assert [p.text for p in cleaned] == ["speech decoding", "x" * 300]
    assert cleaned[0].label == "setup"


def test_unknown_probe_types_become_associative():
    assert Probe.model_validate({"type": "lateral", "text": "t"}).type == "associative"
    assert Probe.model_validate({"type": "Definitional", "text": "t"}).type == "definitional"


async def test_expand_question_validates_the_reply():
    reply = {"expanded_probes": [{"type": "definitional", "text": "a"}, {"type": "contextual", "text": "a"}]}
    probes = await expand_question("q", ScriptedLLM(replies={"probes": reply}), max_probes=3)
    assert [p.text for p in probes] == ["a"]
    assert await expand_question("q", RulesLLM(), max_probes=0) == []


def test_merge_hits_is_weighted_reciprocal_rank_fusion():
    a, b, c = hit("a#x#0"), hit("b#x#0"), hit("c#x#0")
    merged, found_by, total = merge_hits([(1.0, [a, b]), (0.5, [c, b]), (0.5, [c])])
    # b: 1/62 + 0.5/62 = 0.0242; c: 0.5/61 * 2 = 0.0164; a: 1/61 = 0.0164 -> c and a tie, a ranked better
    assert [h.section_id for h in merged] == ["b#x#0", "a#x#0", "c#x#0"]
    assert found_by == {"a#x#0": [0], "b#x#0": [0, 1], "c#x#0": [1, 2]}
    assert total == 5


def test_limits_are_validated():
    with pytest.raises(ValueError):
        ProbeLimits(max_queries=0)
    with pytest.raises(ValueError):
        ProbeLimits(llm_timeout=0)
    assert ProbeLimits().max_probes == 3
