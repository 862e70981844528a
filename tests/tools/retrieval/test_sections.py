"""Ingest: papers → sections with stable ids, structured abstracts, full text, chunking."""

from __future__ import annotations

from agent.models import AbstractSection, AggregatedPaper, Paper
from tools.retrieval.sections import build_sections, chunk_text, label_kind, slug, text_units
from tools.retrieval.types import FullTextSection


def test_sections_and_ids(papers: list[AggregatedPaper], fulltext: dict[str, list[FullTextSection]]) -> None:
    records = build_sections(papers[0], fulltext["doi:10.1000/ecog"])
    names = list(dict.fromkeys(r.section for r in records))
    assert names == [
        "title",
        "abstract-background",
        "abstract-methods",
        "abstract-results",
        "methods",
        "table-1",
        "figure-1",
    ]
    assert records[0].section_id == "doi:10.1000/ecog#title#0"
    assert all(r.section_id == f"{r.paper_key}#{r.section}#{r.ordinal}" for r in records)
    assert len({r.section_id for r in records}) == len(records)
    kinds = {r.section: r.kind for r in records}
    assert kinds["abstract-methods"] == "methods" and kinds["abstract-results"] == "results"
    assert kinds["table-1"] == "table" and kinds["figure-1"] == "figure"
    # the figure has only a caption; the table keeps caption and body
    figure = next(r for r in records if r.section == "figure-1")
    assert figure.text == "Figure 2. Electrode locations"
    assert figure.metadata["caption"] == "Figure 2. Electrode locations"
    # positions follow reading order, and the title rides along for the embedding model
    assert [r.position for r in records] == sorted(r.position for r in records)
    methods = [r for r in records if r.section == "abstract-methods"][0]
    assert methods.embed_text.startswith("Speech decoding from high-gamma ECoG activity. ")
    assert records[0].embed_text == records[0].text
    assert not records[0].searchable and all(r.searchable for r in records[1:])


def test_long_sections_are_chunked_without_losing_text(fulltext: dict[str, list[FullTextSection]]) -> None:
    paper = AggregatedPaper(key="k", paper=Paper(title="T"))
    records = [r for r in build_sections(paper, fulltext["doi:10.1000/ecog"]) if r.section == "methods"]
    assert len(records) >= 2
    assert [r.ordinal for r in records] == list(range(len(records)))
    assert " ".join(r.text for r in records) == fulltext["doi:10.1000/ecog"][0].text
    assert all(text_units(r.text) <= 190 for r in records)
    # re-building gives the same ids: what makes re-ingest idempotent
    assert [r.section_id for r in build_sections(paper, fulltext["doi:10.1000/ecog"])] == [
        r.section_id for r in build_sections(paper, fulltext["doi:10.1000/ecog"])
    ]


def test_chunking_chinese_and_overlong_sentences() -> None:
    chinese = "。".join(["脑机接口将神经信号解码为语音"] * 40) + "。"
    chunks = chunk_text(chinese, 60)
    assert len(chunks) > 1 and "".join(chunks) == chinese
    assert all(text_units(c) <= 60 for c in chunks)
    run_on = " ".join(["word"] * 500)  # no sentence end at all
    pieces = chunk_text(run_on, 100)
    assert all(text_units(p) <= 100 for p in pieces) and " ".join(pieces) == run_on
    assert chunk_text("   ") == []


def test_plain_abstract_labels_and_slugs() -> None:
    paper = AggregatedPaper(key="pmid:1", paper=Paper(title="A title", abstract="Plain abstract."))
    records = build_sections(paper)
    assert [r.section for r in records] == ["title", "abstract"]
    assert records[1].metadata == {"part": "abstract"}
    assert label_kind("MATERIALS AND METHODS") == "methods"
    assert label_kind("Conclusions") == "conclusion"
    assert label_kind("Funding") == "abstract"
    assert slug("Results & Discussion #2") == "results-discussion-2"
    assert "#" not in slug("a#b")
    assert build_sections(AggregatedPaper(key="x", paper=Paper())) == []
    unlabelled = Paper(
        title="T", abstract_sections=[AbstractSection(text="One."), AbstractSection(text="Two.")]
    )
    assert [r.text for r in build_sections(AggregatedPaper(key="u", paper=unlabelled))][1] == "One. Two."
    assert build_sections(AggregatedPaper(key="y", paper=Paper(title="Only a title")))[0].searchable
