"""Export a Run's merged paper list as CSV, RIS, BibTeX or JSON.

RIS and BibTeX are what reference managers import (Zotero, EndNote, Mendeley, JabRef), so both are
written to the formats' rules rather than "close enough": RIS one `TAG  - value` per line with CRLF
line ends and a closing `ER`, values kept on one line; BibTeX with braces, LaTeX special characters
escaped and unique citation keys. Both stay UTF-8 (titles in Chinese are kept as Chinese; every
current importer reads UTF-8). The tests round-trip both through real parsers (rispy, bibtexparser).

CSV is for spreadsheets: UTF-8 with a byte-order mark (so Excel shows Chinese correctly), one row
per paper, and cells that a spreadsheet would run as a formula defused with a leading apostrophe
(titles and abstracts come from outside services). JSON is the `AggregatedPaper` list itself.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Literal, get_args

from agent.errors import InputError
from agent.models import AggregatedPaper, Author, Paper

ExportFormat = Literal["csv", "ris", "bibtex", "json"]
EXPORT_FORMATS: tuple[str, ...] = get_args(ExportFormat)
CONTENT_TYPES: dict[str, str] = {
    "csv": "text/csv; charset=utf-8",
    "ris": "application/x-research-info-systems; charset=utf-8",
    "bibtex": "application/x-bibtex; charset=utf-8",
    "json": "application/json",
}
EXTENSIONS: dict[str, str] = {"csv": ".csv", "ris": ".ris", "bibtex": ".bib", "json": ".json"}

CSV_COLUMNS: tuple[str, ...] = (
    "rank",
    "key",
    "title",
    "authors",
    "year",
    "venue",
    "doi",
    "pmid",
    "pmcid",
    "semantic_scholar_id",
    "openalex_id",
    "arxiv_id",
    "sources",
    "score",
    "citation_count",
    "oa_url",
    "keywords",
    "abstract",
)


class ExportError(InputError):
    """An unknown export format; the message lists the known ones."""


def check_format(fmt: str) -> ExportFormat:
    value = (fmt or "").strip().lower()
    if value == "bib":
        value = "bibtex"
    if value not in EXPORT_FORMATS:
        raise ExportError(f"unknown export format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
    return value  # type: ignore[return-value]


def export_filename(stem: str, fmt: str) -> str:
    return f"{stem}{EXTENSIONS[check_format(fmt)]}"


def export_papers(papers: Sequence[AggregatedPaper], fmt: ExportFormat | str) -> bytes:
    """The papers in the given format, as bytes ready to write or send (UTF-8)."""
    writer: dict[str, Callable[[Sequence[AggregatedPaper]], bytes]] = {
        "csv": to_csv,
        "ris": to_ris,
        "bibtex": to_bibtex,
        "json": to_json,
    }
    return writer[check_format(fmt)](papers)


# ----------------------------------------------------------------------------------------------
# shared helpers
# ----------------------------------------------------------------------------------------------


def _one_line(text: str | None) -> str:
    """Collapse whitespace (incl. newlines) so a value can never break a line-based format."""
    return re.sub(r"\s+", " ", text or "").strip()


def _keywords(paper: Paper) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for word in [*paper.keywords, *(h.descriptor for h in paper.mesh_headings)]:
        word = _one_line(word)
        if word and word.casefold() not in seen:
            seen.add(word.casefold())
            out.append(word)
    return out


def _abstract(paper: Paper) -> str:
    if paper.abstract:
        return _one_line(paper.abstract)
    return _one_line(" ".join(f"{s.label}: {s.text}" if s.label else s.text for s in paper.abstract_sections))


def _url(paper: Paper) -> str | None:
    if paper.doi:
        return f"https://doi.org/{paper.doi}"
    if paper.pmid:
        return f"https://pubmed.ncbi.nlm.nih.gov/{paper.pmid}/"
    return paper.oa_url


def _author_name(author: Author) -> str:
    """'Family, Given' when the parts are known (what RIS and BibTeX expect), else the name as printed."""
    if author.collective:
        return _one_line(author.name)
    if author.family:
        return _one_line(f"{author.family}, {author.given}" if author.given else author.family)
    return _one_line(author.name)


# ----------------------------------------------------------------------------------------------
# CSV
# ----------------------------------------------------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> str:
    if value is None:
        return ""
    text = str(value)
    # a cell beginning like a formula is defused, except plain negative numbers
    if text.startswith(_FORMULA_START) and not re.fullmatch(r"-?\d+(\.\d+)?", text):
        return "'" + text
    return text


def to_csv(papers: Sequence[AggregatedPaper]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for item in papers:
        p = item.paper
        row = {
            "rank": item.rank,
            "key": item.key,
            "title": _one_line(p.title),
            "authors": "; ".join(_one_line(a.name) for a in p.authors),
            "year": p.year,
            "venue": p.venue,
            "doi": p.doi,
            "pmid": p.pmid,
            "pmcid": p.pmcid,
            "semantic_scholar_id": p.semantic_scholar_id,
            "openalex_id": p.openalex_id,
            "arxiv_id": p.arxiv_id,
            "sources": ";".join(s.value for s in item.sources),
            "score": f"{item.score.total:.4f}",
            "citation_count": p.citation_count,
            "oa_url": p.oa_url,
            "keywords": "; ".join(_keywords(p)),
            "abstract": _abstract(p),
        }
        writer.writerow([_cell(row[column]) for column in CSV_COLUMNS])
    return buffer.getvalue().encode("utf-8-sig")


# ----------------------------------------------------------------------------------------------
# RIS
# ----------------------------------------------------------------------------------------------


def _ris_type(paper: Paper) -> str:
    if paper.is_book:
        return "BOOK"
    types = {t.lower() for t in paper.publication_types}
    if types & {"preprint", "posted-content"}:
        return "UNPB"
    if types & {"conference", "proceedings-article", "conference paper"}:
        return "CONF"
    return "JOUR"


def to_ris(papers: Sequence[AggregatedPaper]) -> bytes:
    lines: list[str] = []

    def tag(name: str, value: object) -> None:
        text = _one_line(str(value)) if value is not None else ""
        if text:
            lines.append(f"{name}  - {text}")

    for item in papers:
        p = item.paper
        tag("TY", _ris_type(p))
        tag("ID", item.key)
        tag("TI", p.title)
        if p.vernacular_title:
            tag("TT", p.vernacular_title)
        for author in p.authors:
            tag("AU", _author_name(author))
        tag("PY", p.year)
        if p.publication_date:
            tag("DA", p.publication_date.replace("-", "/"))
        tag("T2", p.venue)
        tag("DO", p.doi)
        tag("AB", _abstract(p))
        for word in _keywords(p):
            tag("KW", word)
        for language in p.languages:
            tag("LA", language)
        tag("UR", _url(p))
        if p.oa_url and p.oa_url != _url(p):
            tag("L1", p.oa_url)
        if p.pmid:
            tag("AN", f"PMID:{p.pmid}")
        ids = [
            f"{label}: {value}"
            for label, value in (
                ("PMID", p.pmid),
                ("PMCID", p.pmcid),
                ("Semantic Scholar", p.semantic_scholar_id),
                ("OpenAlex", p.openalex_id),
                ("arXiv", p.arxiv_id),
            )
            if value
        ]
        sources = ", ".join(s.value for s in item.sources)
        tag(
            "N1",
            "; ".join(
                [
                    *ids,
                    f"found in: {sources}" if sources else "",
                    f"ScholarMap rank {item.rank}" if item.rank else "",
                ]
            ).strip("; "),
        )
        lines.append("ER  - ")
        lines.append("")
    return "\r\n".join(lines).encode("utf-8")


# ----------------------------------------------------------------------------------------------
# BibTeX
# ----------------------------------------------------------------------------------------------

_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_LATEX_PATTERN = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIALS))


def bibtex_escape(text: str) -> str:
    """Escape LaTeX's special characters; other Unicode (Chinese, accents) stays as UTF-8."""
    return _LATEX_PATTERN.sub(lambda m: _LATEX_SPECIALS[m.group(0)], _one_line(text))


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]", "", folded)


def _cite_key(paper: Paper, fallback: str, used: set[str]) -> str:
    """'lovelace2020deep': first author's family name, year, first title word; ASCII, unique in the file."""
    family = ""
    if paper.authors:
        first = paper.authors[0]
        family = first.family or (
            first.name.split(",")[0] if "," in first.name else first.name.split(" ")[-1]
        )
    words = [w for w in (_ascii_word(w) for w in paper.title.split()) if len(w) > 3]
    base = (_ascii_word(family).lower() + str(paper.year or "") + (words[0].lower() if words else "")) or ""
    if not _ascii_word(family) or not words:  # e.g. a Chinese byline and title: use the stable key instead
        base = re.sub(r"[^A-Za-z0-9]+", "_", fallback).strip("_")[:40] or "paper"
    key, suffix = base, ord("a")
    while key in used:
        key, suffix = f"{base}{chr(suffix)}", suffix + 1
    used.add(key)
    return key


def _bibtex_type(paper: Paper) -> str:
    if paper.is_book:
        return "book"
    types = {t.lower() for t in paper.publication_types}
    if types & {"preprint", "posted-content"}:
        return "misc"
    if types & {"conference", "proceedings-article", "conference paper"}:
        return "inproceedings"
    return "article"


def to_bibtex(papers: Sequence[AggregatedPaper]) -> bytes:
    used: set[str] = set()
    entries: list[str] = []
    for item in papers:
        p = item.paper
        kind = _bibtex_type(p)
        venue_field = {"article": "journal", "inproceedings": "booktitle"}.get(kind, "howpublished")
        # a collective author is wrapped in braces so BibTeX does not split it into given/family names
        authors = " and ".join(
            f"{{{bibtex_escape(a.name)}}}" if a.collective else bibtex_escape(_author_name(a))
            for a in p.authors
        )
        fields: list[tuple[str, str | None]] = [
            ("title", p.title),
            ("year", str(p.year) if p.year else None),
            (venue_field, p.venue),
            ("doi", p.doi),
            ("url", _url(p)),
            ("abstract", _abstract(p) or None),
            ("keywords", ", ".join(_keywords(p)) or None),
            ("pmid", p.pmid),
            ("pmcid", p.pmcid),
            ("eprint", p.arxiv_id),
            ("language", ", ".join(p.languages) or None),
            (
                "note",
                f"ScholarMap key {item.key}; found in {', '.join(s.value for s in item.sources)}"
                if item.sources
                else None,
            ),
        ]
        body = [f"  author = {{{authors}}}"] if authors else []
        body += [f"  {name} = {{{bibtex_escape(value)}}}" for name, value in fields if value]
        entries.append(f"@{kind}{{{_cite_key(p, item.key, used)},\n" + ",\n".join(body) + "\n}\n")
    return "\n".join(entries).encode("utf-8")


# ----------------------------------------------------------------------------------------------
# JSON
# ----------------------------------------------------------------------------------------------


def to_json(papers: Sequence[AggregatedPaper]) -> bytes:
    data = [item.model_dump(mode="json") for item in papers]
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
