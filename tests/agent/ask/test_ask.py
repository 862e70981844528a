"""The ask pipeline (001 steps 6–8): assembly, streamed answers with citations, the extractive fallback.

Most tests run on `FakeEngine`, a small in-memory implementation of the engine protocol whose question
normalisation is the real one; the last test runs the whole chain on the real engine and PostgreSQL.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import TypeAdapter

from agent.ask.answer import (
    MAX_QUESTION_CHARS,
    AskChunk,
    AskCitation,
    AskEnd,
    AskStart,
    AskText,
    AssembledSource,
    CitationTracker,
    ask,
    assemble,
    best_quote,
    extractive_answer,
    format_sources,
    is_chinese,
    match_terms,
    reading_order,
)
from agent.ask.probes import ProbeLimits
from agent.llm import LLMUnavailable, RulesLLM, ScriptedLLM
from agent.models import AggregatedPaper, Paper, Produced
from tools.retrieval.normalize import Normalizer
from tools.retrieval.types import (
    ExpandedSection,
    FusionTrace,
    Intent,
    RerankTrace,
    RetrievalResult,
    SectionHit,
)

ENGINE_FILE = Path(__file__).resolve().parents[3] / "tools" / "retrieval" / "engine.py"

# (paper key, title, year, doi, [(section, kind, heading, [chunk texts])]) in reading order
CORPUS: list[tuple[str, str, int, str | None, list[tuple[str, str, str, list[str]]]]] = [
    (
        "doi:10.1000/ecog",
        "Speech decoding from high-gamma ECoG activity",
        2020,
        "10.1000/ecog",
        [
            ("title", "title", "Title", ["Speech decoding from high-gamma ECoG activity"]),
            ("abstract", "abstract", "Abstract", [
                "We decoded speech from high-gamma activity recorded with ECoG in five patients. "
                "Decoding accuracy reached 80 percent for single words."
            ]),
            ("methods", "methods", "Methods › Participants", [
                "Five epilepsy patients were implanted with subdural grids for clinical monitoring.",
                "High-gamma power between 70 and 150 Hz was extracted from every electrode.",
            ]),
            ("table-1", "table", "Table 1", ["Participants. Patient | Age | Electrodes P1 | 34 | 128"]),
            ("figure-1", "figure", "Figure 1", ["Decoding accuracy of high-gamma features across patients."]),
        ],
    ),
    (
        "pmid:2",
        "Motor imagery BCI with scalp EEG",
        2018,
        None,
        [
            ("title", "title", "Title", ["Motor imagery BCI with scalp EEG"]),
            ("abstract", "abstract", "Abstract", [
                "Mu rhythm desynchronisation during motor imagery drove a cursor in twelve healthy volunteers."
            ]),
        ],
    ),
    (
        "doi:10.1000/zh",
        "基于高伽马活动的语音解码",
        2022,
        "10.1000/zh",
        [
            ("abstract", "abstract", "摘要", ["我们利用皮层脑电的高伽马活动解码语音。十名患者参与了实验，准确率达到百分之七十。"]),
        ],
    ),
]  # fmt: skip


def _trace_result(run_id: str, question: str, hits: list[SectionHit]) -> RetrievalResult:
    trace = NORMALIZER.normalize(question)
    return RetrievalResult(
        run_id=run_id,
        question=question,
        normalization=trace,
        intent=Intent(kind="content", confidence=0.8),
        hits=hits,
        fusion=FusionTrace(
            method="weighted",
            weights={"bm25": 1.0},
            candidates=len(hits),
            multi_leg=0,
            per_leg={"bm25": len(hits)},
        ),
        rerank=RerankTrace(status="skipped"),
        timings={"bm25": 0.001},
    )


NORMALIZER = Normalizer.for_plan(None)


class FakeEngine:
    """The engine protocol over CORPUS: BM25-ish term matching with the real question normaliser."""

    def __init__(self, corpus=CORPUS, *, indexed: bool = True) -> None:
        self.indexed = indexed
        self.chunks: list[dict[str, Any]] = []
        for key, title, year, doi, sections in corpus:
            for position, (name, kind, heading, texts) in enumerate(sections):
                for ordinal, text in enumerate(texts):
                    self.chunks.append(
                        {"section_id": f"{key}#{name}#{ordinal}", "paper_key": key, "section": name, "kind": kind,
                         "heading": heading, "ordinal": ordinal, "position": position, "text": text,
                         "title": title, "year": year, "doi": doi}
                    )  # fmt: skip
        self.searches: list[tuple[str, dict[str, Any]]] = []

    async def run_has_index(self, run_id: str) -> bool:
        return self.indexed

    async def search(self, run_id: str, question: str, **options: Any) -> RetrievalResult:
        self.searches.append((question, options))
        trace = NORMALIZER.normalize(question)
        terms = match_terms([*trace.keywords, *trace.bm25_tokens])
        scored = []
        for chunk in self.chunks:
            text = chunk["text"].lower()
            score = sum(1 for t in terms if t in text)
            if score:
                scored.append((score, chunk))
        scored.sort(key=lambda item: -item[0])
        hits = [
            SectionHit(section_id=c["section_id"], paper_key=c["paper_key"], section=c["section"], ordinal=c["ordinal"],
                       text=c["text"], score=float(s), legs=["bm25"], leg_scores={"bm25": float(s)}, kind=c["kind"], heading=c["heading"])
            for s, c in scored[: options.get("top_k", 10)]
        ]  # fmt: skip
        return _trace_result(run_id, question, hits)

    async def expand_sections(self, run_id: str, hits: Sequence[SectionHit]) -> list[ExpandedSection]:
        # like the real engine: one entry per (paper, section), in hit order
        out: list[ExpandedSection] = []
        seen: dict[tuple[str, str], ExpandedSection] = {}
        for hit in hits:
            key = (hit.paper_key, hit.section)
            if key in seen:
                seen[key].hit_ids.append(hit.section_id)
                continue
            parts = [c for c in self.chunks if (c["paper_key"], c["section"]) == key]
            first = parts[0]
            section = ExpandedSection(
                paper_key=key[0], section=key[1], kind=first["kind"], heading=first["heading"],
                text=" ".join(p["text"] for p in parts), chunk_ids=[p["section_id"] for p in parts],
                hit_ids=[hit.section_id], score=hit.score, title=first["title"], year=first["year"], doi=first["doi"],
                metadata={"caption": first["text"]} if first["kind"] in ("table", "figure") else {},
            )  # fmt: skip
            seen[key] = section
            out.append(section)
        return out


async def collect(stream: AsyncIterator[Any]) -> list[Any]:
    return [chunk async for chunk in stream]


def text_of(chunks: list[Any]) -> str:
    return "".join(c.delta for c in chunks if isinstance(c, AskText))


def numbered(prompt_sources: str) -> dict[int, str]:
    """`[n] heading` lines of the sources block, by n."""
    return {
        int(m.group(1)): m.group(2) for m in re.finditer(r"^\[(\d+)\] (.*)$", prompt_sources, re.MULTILINE)
    }


QUESTION = "How was speech decoded from high-gamma activity?"


# -- the LLM answer ------------------------------------------------------------------------------


async def test_llm_answer_streams_text_then_each_citation_once():
    answer = (
        "Speech was decoded from high-gamma activity recorded with ECoG in five patients [1]. "
        "High-gamma power between 70 and 150 Hz was extracted [2], and accuracy reached 80 percent [1][2]."
    )
    llm = ScriptedLLM(replies={"answer": answer})
    engine = FakeEngine()
    chunks = await collect(ask("run-1", QUESTION, engine=engine, llm=llm, top_k=6, rerank=False))

    assert isinstance(chunks[0], AskStart) and isinstance(chunks[-1], AskEnd)
    start, end = chunks[0], chunks[-1]
    assert start.question == QUESTION and start.normalization.original == QUESTION
    assert start.steps["jieba_segmentation"] and start.intent.kind == "content" and start.probes is None
    assert engine.searches == [(QUESTION, {"top_k": 6, "rerank": False})]
    assert text_of(chunks) == answer

    citations = [c for c in chunks if isinstance(c, AskCitation)]
    assert [c.n for c in citations] == [1, 2]
    # each citation comes right after the text that completed its marker
    first = chunks.index(citations[0])
    assert isinstance(chunks[first - 1], AskText) and chunks[first - 1].delta.startswith("[1]")
    # the numbers point at the sources the model was shown
    call = llm.calls[0]
    assert call.prompt == "answer" and set(call.values) == {"question", "sources", "language"}
    shown = numbered(call.values["sources"])
    assert shown[1] == "Abstract" and shown[2] == "Methods › Participants"
    assert citations[0].paper_key == "doi:10.1000/ecog" and citations[0].section == "abstract"
    assert citations[0].section_id == "doi:10.1000/ecog#abstract#0"
    assert citations[0].title == "Speech decoding from high-gamma ECoG activity" and citations[0].year == 2020
    assert citations[0].doi == "10.1000/ecog"
    assert citations[0].quote.startswith("We decoded speech from high-gamma activity")
    assert "70 and 150 Hz" in citations[1].quote  # the sentence that supports the claim, not the first one

    assert end.produced_by is Produced.SCRIPTED and end.note is None
    assert end.counts["citations"] == 2 and end.counts["papers"] == start.papers == 1
    assert {"retrieval", "assembly", "generation", "total", "retrieval.bm25"} <= set(end.timings)


async def test_sources_are_grouped_by_paper_in_reading_order():
    llm = ScriptedLLM(replies={"answer": "Nothing to add [1]."})
    await collect(
        ask(
            "r", "high-gamma decoding accuracy patients electrodes table figure", engine=FakeEngine(), llm=llm
        )
    )
    prompt = llm.calls[0].values["sources"]
    headers = [line for line in prompt.splitlines() if line.startswith("### Paper:")]
    assert headers[0] == "### Paper: Speech decoding from high-gamma ECoG activity (2020, doi:10.1000/ecog)"
    ecog = prompt.split("### Paper:")[1]
    order = [
        ecog.index(label)
        for label in (
            "[1] Abstract",
            "[2] Methods › Participants",
            "[3] Table — Table 1",
            "[4] Figure caption — Figure 1",
        )
    ]
    assert order == sorted(order)
    assert "[5]" not in ecog  # the title is the header, not a source of its own
    # the whole methods section, not only the chunk that matched
    assert "subdural grids" in ecog and "70 and 150 Hz" in ecog


async def test_a_chinese_question_asks_for_a_chinese_answer():
    llm = ScriptedLLM(replies={"answer": "研究者利用高伽马活动解码语音【1】。"})
    chunks = await collect(ask("r", "哪些研究用高伽马活动解码语音？", engine=FakeEngine(), llm=llm))
    assert "Chinese" in llm.calls[0].values["language"]
    citations = [c for c in chunks if isinstance(c, AskCitation)]
    assert [c.n for c in citations] == [1]  # full-width brackets are markers too
    # the question was searched as written and in English; both papers answer it, in two languages
    assert {c.paper_key for c in citations} <= {"doi:10.1000/zh", "doi:10.1000/ecog"}
    assert citations[0].quote


async def test_invented_numbers_and_uncited_answers_are_noted():
    chunks = await collect(
        ask("r", QUESTION, engine=FakeEngine(), llm=ScriptedLLM(replies={"answer": "See [1] and [42]."}))
    )
    assert [c.n for c in chunks if isinstance(c, AskCitation)] == [1]
    assert "do not exist: 42" in chunks[-1].note
    chunks = await collect(
        ask(
            "r", QUESTION, engine=FakeEngine(), llm=ScriptedLLM(replies={"answer": "The sources do not say."})
        )
    )
    assert chunks[-1].note == "the model cited no source" and chunks[-1].counts["citations"] == 0


class BreakingLLM(ScriptedLLM):
    """Streams two pieces, then the endpoint goes away."""

    async def stream(self, prompt: Any, values: Mapping[str, Any]) -> AsyncIterator[str]:
        yield "Speech was decoded [1]"
        yield "."
        raise LLMUnavailable("the LLM endpoint could not be reached (ReadTimeout)")


async def test_a_model_that_stops_mid_answer_keeps_what_it_wrote():
    chunks = await collect(ask("r", QUESTION, engine=FakeEngine(), llm=BreakingLLM()))
    assert text_of(chunks).startswith("Speech was decoded [1].")
    assert "cut off" in text_of(chunks)
    assert chunks[-1].produced_by is Produced.SCRIPTED and "stopped mid-answer" in chunks[-1].note
    assert [c.n for c in chunks if isinstance(c, AskCitation)] == [1]


# -- without a model -----------------------------------------------------------------------------


async def test_extractive_answer_cites_every_sentence():
    chunks = await collect(ask("r", QUESTION, engine=FakeEngine(), llm=RulesLLM()))
    text = text_of(chunks)
    assert text.startswith("No language model answered (no LLM is configured)")
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert 1 <= len(lines) <= 5
    assert all(re.search(r" \[\d+\]$", line) for line in lines)
    assert "We decoded speech from high-gamma activity recorded with ECoG in five patients." in lines[0]
    citations = [c for c in chunks if isinstance(c, AskCitation)]
    cited_in_text = list(dict.fromkeys(int(n) for n in re.findall(r"\[(\d+)\]", text)))
    assert [c.n for c in citations] == cited_in_text
    # the quote of an extractive citation is the sentence it follows
    assert citations[0].quote in lines[0]
    end = chunks[-1]
    assert end.produced_by is Produced.RULES and end.note.startswith("extractive answer")


async def test_extractive_citations_read_1_2_3_whatever_the_retrieval_ranks():
    """The best sentences come from sources 1 and 4 of the retrieval; the answer cites [1], [2]."""
    question = "Which volunteers drove a cursor with motor imagery, and how accurate was high-gamma decoding?"
    chunks = await collect(ask("r", question, engine=FakeEngine(), llm=RulesLLM(), answerability_model=None))
    text = text_of(chunks)
    shown = [int(n) for n in re.findall(r"\[(\d+)\]$", text, re.MULTILINE)]
    citations = [c for c in chunks if isinstance(c, AskCitation)]
    assert shown == [1, 2] and [c.n for c in citations] == [1, 2]
    assert [c.source_rank for c in citations] == [1, 4]  # the retrieval's numbers, as the trace ranks them
    assert citations[0].paper_key == "pmid:2" and "drove a cursor" in citations[0].quote
    assert citations[1].section == "figure-1" and citations[1].quote in text


async def test_extractive_answer_in_chinese():
    chunks = await collect(
        ask("r", "高伽马活动解码语音的准确率是多少？", engine=FakeEngine(), llm=RulesLLM())
    )
    text = text_of(chunks)
    assert text.startswith("语言模型不可用")
    assert "准确率达到百分之七十" in text


def test_extractive_answer_prefers_sentences_with_more_question_terms():
    sources = [
        AssembledSource(n=1, paper_key="a", section_id="a#abstract#0", section="abstract", kind="abstract",
                        text="Cats are fine animals overall. Speech decoding used high-gamma power in ECoG. Weather was nice today."),
        AssembledSource(n=2, paper_key="b", section_id="b#table-1#0", section="table-1", kind="table",
                        text="Speech | gamma | decoding"),
    ]  # fmt: skip
    picked = extractive_answer(sources, ["speech", "decod", "decoding", "gamma"])
    assert [(s, src.n) for s, src in picked] == [("Speech decoding used high-gamma power in ECoG.", 1)]
    # nothing shares a word: the opening of the best source is still returned, cited
    fallback = extractive_answer(sources, ["quantum"])
    assert fallback[0] == ("Cats are fine animals overall.", sources[0])


def test_match_terms_keeps_stems_once():
    assert match_terms(["decode", "decod", "the", "Speech", "speech", "x", "高伽马"]) == [
        "高伽马",
        "decod",
        "speech",
    ]


# -- clear messages instead of crashes ----------------------------------------------------------


async def test_an_unindexed_run_gets_a_message():
    chunks = await collect(ask("r", QUESTION, engine=FakeEngine(indexed=False), llm=RulesLLM()))
    assert [type(c) for c in chunks] == [AskStart, AskText, AskEnd]
    assert "no paper of it is indexed" in chunks[1].delta and chunks[2].note == "the Run is not indexed"


async def test_a_question_nothing_matches_gets_a_message():
    llm = ScriptedLLM(replies={"answer": "never used"})
    chunks = await collect(ask("r", "quantum chromodynamics on the lattice", engine=FakeEngine(), llm=llm))
    assert "No passage in this Run's papers matches" in text_of(chunks)
    assert chunks[-1].counts["hits"] == 0 and chunks[-1].note == "nothing found" and llm.calls == []
    empty = FakeEngine(corpus=[])
    chunks = await collect(ask("r", "语音解码", engine=empty, llm=llm))
    assert "没有与该问题匹配的段落" in text_of(chunks)


@pytest.mark.parametrize(
    ("question", "message"),
    [("", "empty"), ("   \n ", "empty"), ("x" * (MAX_QUESTION_CHARS + 1), "under 2000 characters")],
)
async def test_bad_questions_are_value_errors(question, message):
    with pytest.raises(ValueError, match=message):
        await collect(ask("r", question, engine=FakeEngine(), llm=RulesLLM()))


async def test_top_k_must_be_positive():
    with pytest.raises(ValueError, match="top_k"):
        await collect(ask("r", QUESTION, engine=FakeEngine(), llm=RulesLLM(), top_k=0))


# -- probes ---------------------------------------------------------------------------------------


async def test_probes_are_reported_in_the_start_chunk():
    def cite_methods(call) -> str:
        shown = numbered(call.values["sources"])
        methods = [n for n, heading in shown.items() if heading.startswith("Methods")]
        return f"Grids were implanted [{methods[0]}]." if methods else "Not in the sources."

    question = "What was recorded?"
    alone = ScriptedLLM(replies={"answer": cite_methods})
    await collect(ask("r", question, engine=FakeEngine(), llm=alone))
    assert "Methods" not in alone.calls[0].values["sources"]  # the question alone misses the methods

    llm = ScriptedLLM(
        replies={
            "probes": {
                "expanded_probes": [
                    {"type": "contextual", "label": "setup", "text": "subdural grids epilepsy patients"}
                ]
            },
            "answer": cite_methods,
        }
    )
    engine = FakeEngine()
    chunks = await collect(
        ask("r", question, engine=engine, llm=llm, probes=True, limits=ProbeLimits(max_queries=2))
    )
    start = chunks[0]
    assert start.probes is not None and start.probes.expanded_queries == ["subdural grids epilepsy patients"]
    assert llm.calls[0].values["max_probes"] == 1
    assert [q for q, _ in engine.searches] == [question, "subdural grids epilepsy patients"]
    # the probe found the methods section the question alone did not
    assert [c.section for c in chunks if isinstance(c, AskCitation)] == ["methods"]


async def test_probes_without_a_model_fall_back_and_still_answer():
    chunks = await collect(ask("r", QUESTION, engine=FakeEngine(), llm=RulesLLM(), probes=True))
    assert chunks[0].probes.fell_back and chunks[0].probes.produced_by is Produced.RULES
    assert chunks[-1].produced_by is Produced.RULES and any(isinstance(c, AskCitation) for c in chunks)


# -- pieces ---------------------------------------------------------------------------------------


def source(n: int, text: str = "Some text.", **extra: Any) -> AssembledSource:
    return AssembledSource(
        n=n, paper_key="p", section_id=f"p#s{n}#0", section=f"s{n}", kind="abstract", text=text, **extra
    )


def test_citation_tracker_handles_markers_split_across_deltas():
    tracker = CitationTracker([source(1), source(2), source(3)])
    assert tracker.write("Claim one [") == ("Claim one ", [])  # a marker may be arriving: held back
    assert tracker.write("1") == ("", [])
    shown, cited = tracker.write("]. Claim two [2, 3")
    assert shown == "[1]. Claim two " and [c.n for c in cited] == [1]
    shown, cited = tracker.write("]. Again [1-3] and [７]")
    assert shown == "[2, 3]. Again [1, 2, 3] and [７]" and [c.n for c in cited] == [2, 3]
    assert tracker.cited == [1, 2, 3]
    assert tracker.write("A bracket [that is prose") == ("A bracket [that is prose", [])
    assert tracker.write(" [") == (" ", []) and tracker.close() == ("[", [])


def test_citation_tracker_ranges_and_unknown_numbers():
    tracker = CitationTracker([source(1), source(2)])
    shown, cited = tracker.write("A [2–1] B [1–2] C [5] D [1,2,9]")
    assert [c.n for c in cited] == [1, 2] and [c.source_rank for c in cited] == [1, 2]
    assert shown == "A [2–1] B [1, 2] C [5] D [1, 2, 9]"  # an unknown number is left as written
    assert tracker.unknown == [5, 9]


def test_citations_are_numbered_in_the_order_the_answer_cites_them():
    """Sources are numbered by retrieval rank; the reader sees 1, 2, 3 in reading order."""
    tracker = CitationTracker([source(n) for n in range(1, 7)])
    shown, cited = tracker.write("First claim [5]. Second [2][6]. First again [5], and 【2，6】.")
    assert shown == "First claim [1]. Second [2][3]. First again [1], and 【2, 3】."
    assert [(c.n, c.source_rank, c.section) for c in cited] == [(1, 5, "s5"), (2, 2, "s2"), (3, 6, "s6")]
    assert tracker.source(cited[0]).n == 5 and tracker.cited == [5, 2, 6]
    assert tracker.cite(2) == (2, None) and tracker.cite(4)[0] == 4


def test_best_quote_follows_the_claim():
    src = source(1, "Twelve volunteers took part. Accuracy was 91 percent with high-gamma features. The end.")
    assert (
        best_quote(src, "accuracy reached 91 percent") == "Accuracy was 91 percent with high-gamma features."
    )
    assert best_quote(src, "") == "Twelve volunteers took part."


def expanded(
    key: str, section: str, kind: str, text: str, hit: str, score: float = 1.0, **extra: Any
) -> ExpandedSection:
    return ExpandedSection(
        paper_key=key,
        section=section,
        kind=kind,
        text=text,
        chunk_ids=[hit],
        hit_ids=[hit],
        score=score,
        title=f"T{key}",
        **extra,
    )


def test_assemble_orders_papers_by_best_hit_and_sections_by_position():
    hits = [
        SectionHit(
            section_id=i, paper_key=i.split("#")[0], section=i.split("#")[1], ordinal=0, text="x", score=1.0
        )
        for i in ("b#results#0", "a#abstract#0", "b#methods#0", "b#table-1#0")
    ]
    sections = [
        expanded("b", "results", "results", "R", "b#results#0"),
        expanded("a", "abstract", "abstract", "A", "a#abstract#0"),
        expanded("b", "methods", "methods", "M", "b#methods#0"),
        expanded("b", "table-1", "table", "T", "b#table-1#0", metadata={"caption": "Cohort"}),
    ]
    sources = assemble(sections, hits)
    assert [(s.n, s.paper_key, s.section) for s in sources] == [
        (1, "b", "methods"), (2, "b", "results"), (3, "b", "table-1"), (4, "a", "abstract"),
    ]  # fmt: skip
    assert sources[2].is_table and sources[2].caption == "Cohort"
    prompt = format_sources(sources)
    assert prompt.index("### Paper: Tb") < prompt.index("[1] methods") < prompt.index("### Paper: Ta")


def test_reading_order_uses_a_position_when_given():
    positioned = expanded("a", "other-2", "other", "x", "a#other-2#0", metadata={"position": 7})
    assert reading_order(positioned) == (0, 7, 0)
    assert reading_order(expanded("a", "abstract-methods", "methods", "x", "h")) < reading_order(
        expanded("a", "introduction", "introduction", "x", "h")
    )
    assert reading_order(expanded("a", "methods-2", "methods", "x", "h")) > reading_order(
        expanded("a", "methods", "methods", "x", "h")
    )


def test_long_sections_are_cut_around_their_hit_and_the_context_is_bounded():
    long_text = (
        " ".join(f"Sentence {i} of filler." for i in range(400))
        + " The key finding is here. "
        + "Tail. " * 200
    )
    hit = SectionHit(
        section_id="a#discussion#3",
        paper_key="a",
        section="discussion",
        ordinal=3,
        text="The key finding is here.",
        score=1.0,
    )
    section = expanded("a", "discussion", "discussion", long_text, "a#discussion#3")
    [only] = assemble([section], [hit], max_source_chars=500)
    assert len(only.text) <= 502 and "The key finding is here." in only.text and only.text.startswith("…")
    many = [expanded(f"p{i}", "abstract", "abstract", "y" * 400, f"p{i}#abstract#0") for i in range(10)]
    hits = [
        SectionHit(
            section_id=f"p{i}#abstract#0",
            paper_key=f"p{i}",
            section="abstract",
            ordinal=0,
            text="y",
            score=1.0,
        )
        for i in range(10)
    ]
    assert len(assemble(many, hits, max_context_chars=1000)) == 2


def test_language_detection():
    assert is_chinese("高伽马活动解码语音的准确率") and is_chinese(
        "CHO细胞宿主蛋白检测试剂盒的产品特点是什么"
    )
    assert not is_chinese("How accurate is ECoG speech decoding?") and not is_chinese(
        "ECoG 解码 speech accuracy in patients"
    )


def test_chunks_are_one_discriminated_union():
    adapter = TypeAdapter(AskChunk)
    citation = AskCitation(n=1, paper_key="p", section_id="p#abstract#0", section="abstract", quote="q")
    assert isinstance(adapter.validate_python(citation.model_dump(mode="json")), AskCitation)
    assert isinstance(adapter.validate_json('{"type": "text", "delta": "hi"}'), AskText)
    end = adapter.validate_python({"type": "end", "produced_by": "rules"})
    assert isinstance(end, AskEnd) and end.produced_by is Produced.RULES


# -- the real engine, end to end -------------------------------------------------------------------


class HashEmbedder:
    """A deterministic bag-of-words embedder (384 dimensions like MiniLM), so the test needs no model."""

    name = "test-hash-384"
    dimension = 384

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, zlib.crc32(word.encode()) % self.dimension] += 1.0  # stable across processes
            norm = np.linalg.norm(out[row])
            if norm:
                out[row] /= norm
        return out


@pytest.mark.slow
@pytest.mark.skipif(not ENGINE_FILE.exists(), reason="tools/retrieval/engine.py is not there yet")
async def test_real_engine_end_to_end(database):
    from agent.ask.fulltext import parse_jats
    from tests.paths import FIXTURES
    from tools.retrieval.engine import RetrievalEngine

    nar = AggregatedPaper(
        key="doi:10.1093/nar/gkr715",
        rank=1,
        paper=Paper(
            title="Hepato-specific microRNA-122 facilitates accumulation of newly synthesized miRNA through regulating PRKRA",
            year=2012,
            doi="10.1093/nar/gkr715",
            pmcid="PMC3258128",
            abstract="miR-122 is specifically and abundantly expressed in human liver. PRKRA is a new target of miR-122.",
        ),
    )
    other = AggregatedPaper(
        key="pmid:2",
        rank=2,
        paper=Paper(
            title="Motor imagery BCI with scalp EEG", year=2018, abstract="Mu rhythm drove a cursor."
        ),
    )
    blocks = parse_jats((FIXTURES / "europepmc" / "epmc_fulltext_PMC3258128.xml").read_text(encoding="utf-8"))
    engine = RetrievalEngine(database.pool, HashEmbedder())
    run_id = "20260101T000000-abcdef"

    assert not await engine.run_has_index(run_id)
    chunks = await collect(ask(run_id, "What is PRKRA?", engine=engine, llm=RulesLLM()))
    assert "no paper of it is indexed" in text_of(chunks)

    report = await engine.ingest(run_id, [nar, other], fulltext={nar.key: blocks})
    assert report.papers == 2 and report.sections > len(blocks)

    question = "How was PRKRA shown to be a target of miR-122 luciferase reporter?"
    chunks = await collect(ask(run_id, question, engine=engine, llm=RulesLLM(), top_k=6, rerank=False))
    citations = [c for c in chunks if isinstance(c, AskCitation)]
    assert citations and all(c.paper_key == nar.key for c in citations)
    assert any(
        c.section in {"methods", "results"} or c.section.startswith(("methods", "results")) for c in citations
    )
    assert chunks[0].normalization.original == question and chunks[-1].produced_by is Produced.RULES

    # with a model: the numbers it writes map onto real indexed sections
    llm = ScriptedLLM(
        replies={"answer": "PRKRA 3'-UTR reporters responded to miR-122 [1], as the figures show [2]."}
    )
    chunks = await collect(ask(run_id, question, engine=engine, llm=llm, top_k=6, rerank=False))
    cited = [c for c in chunks if isinstance(c, AskCitation)]
    assert [c.n for c in cited] == [1, 2]
    shown = numbered(llm.calls[0].values["sources"])
    assert len(shown) >= 2
    async with database.pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT count(*) AS n FROM retrieval_sections WHERE run_id = %s AND section_id = ANY(%s)",
            (run_id, [c.section_id for c in cited]),
        )
        assert (await cursor.fetchone())["n"] == 2

    # probes on the real engine: merged and de-duplicated by section
    llm = ScriptedLLM(
        replies={
            "probes": {"expanded_probes": [{"type": "definitional", "text": "PRKRA protein activator of PKR"},
                                            {"type": "contextual", "text": "luciferase reporter assay 3'-UTR"}]},
            "answer": "Reporter assays [1].",
        }
    )  # fmt: skip
    chunks = await collect(ask(run_id, question, engine=engine, llm=llm, probes=True, rerank=False))
    meta = chunks[0].probes
    assert meta.failures == [] and len(meta.probes) == 3
    assert meta.dedup.final_count <= meta.dedup.original_count
