"""Exports: RIS and BibTeX round-trip through real parsers (rispy, bibtexparser v2); CSV and JSON read back."""

from __future__ import annotations

import csv
import io
import json

import bibtexparser
import pytest
import rispy
from bibtexparser.middlewares import LatexDecodingMiddleware

from agent.models import (
    AbstractSection,
    AggregatedPaper,
    Author,
    MeshHeading,
    Paper,
    ScoreBreakdown,
    Source,
    SourceEvidence,
)
from agent.runs.exports import (
    CONTENT_TYPES,
    EXTENSIONS,
    ExportError,
    check_format,
    export_filename,
    export_papers,
)

TRICKY_TITLE = "Costs & benefits of 50% {dropout} for C# users: $x_i^2$ ~ a \\study"


def papers() -> list[AggregatedPaper]:
    english = AggregatedPaper(
        key="doi:10.1234/abc.1",
        rank=1,
        score=ScoreBreakdown(total=0.8123),
        paper=Paper(
            title=TRICKY_TITLE,
            authors=[
                Author(name="Ada Lovelace", given="Ada", family="Lovelace"),
                Author(name="José Müller-Łukasz", given="José", family="Müller-Łukasz", position=2),
                Author(name="The Analytical Engine Consortium", collective=True, position=3),
            ],
            year=2021,
            publication_date="2021-03-04",
            venue="Journal of Hard Cases",
            doi="10.1234/ABC.1",
            pmid="12345",
            pmcid="PMC999",
            abstract="Line one.\nLine two, with a newline\r\nand 100% more {braces}.",
            keywords=["dropout", "C#"],
            mesh_headings=[MeshHeading(descriptor="Neural Networks, Computer")],
            citation_count=7,
        ),
        evidence=[
            SourceEvidence(source=Source.PUBMED, rank=1),
            SourceEvidence(source=Source.OPENALEX, rank=3),
        ],
    )
    chinese = AggregatedPaper(
        key="title:0123456789abcdef",
        rank=2,
        paper=Paper(
            title="基于深度学习的脑电信号情绪识别研究",
            authors=[Author(name="张伟"), Author(name="李娜", position=2)],
            year=2019,
            venue="中国生物医学工程学报",
            abstract_sections=[
                AbstractSection(label="目的", text="研究脑电。"),
                AbstractSection(text="结论。"),
            ],
            languages=["chi"],
        ),
        evidence=[SourceEvidence(source=Source.OPENALEX, rank=2)],
    )
    bare = AggregatedPaper(
        key="pmid:42", rank=3, paper=Paper(title='=HYPERLINK("http://evil")', is_book=True)
    )
    return [english, chinese, bare]


def test_ris_round_trips_through_rispy() -> None:
    data = export_papers(papers(), "ris")
    assert b"\r\n" in data
    entries = rispy.loads(data.decode("utf-8"))
    assert len(entries) == 3
    first, second, third = entries
    assert first["type_of_reference"] == "JOUR"
    assert first["title"] == TRICKY_TITLE
    assert first["authors"] == ["Lovelace, Ada", "Müller-Łukasz, José", "The Analytical Engine Consortium"]
    assert first["year"] == "2021"
    assert first["doi"] == "10.1234/abc.1"
    assert first["secondary_title"] == "Journal of Hard Cases"
    assert first["abstract"] == "Line one. Line two, with a newline and 100% more {braces}."
    assert first["keywords"] == ["dropout", "C#", "Neural Networks, Computer"]
    assert first["urls"] == ["https://doi.org/10.1234/abc.1"]
    assert "PMCID: PMC999" in first["notes"][0]
    assert second["title"] == "基于深度学习的脑电信号情绪识别研究"
    assert second["authors"] == ["张伟", "李娜"]
    assert second["secondary_title"] == "中国生物医学工程学报"
    assert second["abstract"] == "目的: 研究脑电。 结论。"
    assert third["type_of_reference"] == "BOOK"
    assert third["title"] == '=HYPERLINK("http://evil")'  # RIS is not a spreadsheet: kept verbatim


def bib_entries(data: bytes):
    library = bibtexparser.parse_string(data.decode("utf-8"), append_middleware=[LatexDecodingMiddleware()])
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    return library.entries


def test_bibtex_round_trips_through_bibtexparser() -> None:
    entries = bib_entries(export_papers(papers(), "bibtex"))
    assert len(entries) == 3
    first, second, third = entries
    assert first.entry_type == "article"
    assert first.key == "lovelace2021costs"
    # pylatexenc decodes the standard \textasciicircum{} to U+02C6 rather than "^"; everything else is exact
    assert first["title"].replace("\u02c6", "^") == TRICKY_TITLE
    assert first["author"] == "Lovelace, Ada and Müller-Łukasz, José and The Analytical Engine Consortium"
    assert first["journal"] == "Journal of Hard Cases"
    assert first["doi"] == "10.1234/abc.1"
    assert first["year"] == "2021"
    assert first["abstract"] == "Line one. Line two, with a newline and 100% more {braces}."
    assert second["title"] == "基于深度学习的脑电信号情绪识别研究"
    assert second["author"] == "张伟 and 李娜"
    assert second.key == "title_0123456789abcdef"  # no ASCII name/title: the stable key
    assert third.entry_type == "book"
    assert len({e.key for e in entries}) == 3


def test_bibtex_keys_are_unique_for_lookalike_papers() -> None:
    same = [
        AggregatedPaper(
            key=f"doi:10.1234/{i}",
            paper=Paper(title="Deep learning", year=2020, authors=[Author(name="Ada Lovelace")]),
        )
        for i in range(3)
    ]
    keys = [e.key for e in bib_entries(export_papers(same, "bibtex"))]
    assert keys == ["lovelace2020deep", "lovelace2020deepa", "lovelace2020deepb"]


def test_csv_reads_back_with_utf8_and_defused_formulas() -> None:
    data = export_papers(papers(), "csv")
    assert data.startswith(b"\xef\xbb\xbf")  # BOM: Excel opens UTF-8 correctly
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [r["key"] for r in rows] == ["doi:10.1234/abc.1", "title:0123456789abcdef", "pmid:42"]
    assert rows[0]["title"] == TRICKY_TITLE
    assert rows[0]["authors"] == "Ada Lovelace; José Müller-Łukasz; The Analytical Engine Consortium"
    assert rows[0]["sources"] == "pubmed;openalex"
    assert rows[0]["score"] == "0.8123"
    assert "\n" not in rows[0]["abstract"]
    assert rows[1]["title"] == "基于深度学习的脑电信号情绪识别研究"
    assert rows[2]["title"].startswith("'=")


def test_json_is_the_aggregated_model() -> None:
    original = papers()
    loaded = json.loads(export_papers(original, "json"))
    assert [AggregatedPaper.model_validate(item) for item in loaded] == original
    assert "基于深度学习" in export_papers(original, "json").decode("utf-8")  # not \u-escaped


def test_formats_metadata_and_errors() -> None:
    assert set(CONTENT_TYPES) == set(EXTENSIONS) == {"csv", "ris", "bibtex", "json"}
    assert check_format("BIB") == "bibtex"
    assert export_filename("run_x", "ris") == "run_x.ris"
    with pytest.raises(ExportError, match="csv, ris, bibtex, json"):
        export_papers([], "docx")
    for fmt in ("csv", "ris", "bibtex", "json"):
        assert isinstance(export_papers([], fmt), bytes)
