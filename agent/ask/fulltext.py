"""Tiered full-text acquisition for a Run's papers (requirements 002), and the JATS parser behind tier 1.

The tiers, tried per paper until one gives something:

1. **PMC open access** — the paper has a PMCID (its own, one Europe PMC resolves from its PMID/DOI, or
   a PubMed Central copy Unpaywall lists): Europe PMC's JATS XML, parsed into sections, tables and
   figure captions. This is the only tier that yields text.
2. **Open PDF** — Unpaywall knows an open PDF: it is downloaded (bounded) and parsed with pypdf
   (`tools.pdftext`: sections at their headings, table and figure captions) when a PDF fetcher is given.
3. **Open-access location** — an OA copy is known but gave no text (a landing page, or a PDF that is
   corrupt, too large or a scan): its URL and licence are recorded so a user can read it.
4. **Abstract only** — nothing better; the retrieval index already holds the title and abstract.

"Papers the user names always get full text" (002, Phase 1) maps onto `required`: those keys are
fetched whatever the `limit`; the rest are taken by Run rank up to `limit`. Every failure degrades that
one paper to the next tier with a logged warning; nothing here raises for a single paper.
"""

from __future__ import annotations

import asyncio
import html.entities
import logging
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, Field

from agent.models import AggregatedPaper, normalize_doi, normalize_pmcid, normalize_pmid
from tools.retrieval.types import FullTextSection, SectionKind

log = logging.getLogger(__name__)

__all__ = [
    "FullTextOutcome",
    "FullTextResult",
    "FullTextSection",
    "FullTextTier",
    "canonical_section",
    "fetch_fulltext",
    "parse_jats",
]

# ----------------------------------------------------------------------------------------------
# JATS parsing
# ----------------------------------------------------------------------------------------------

MATHML = "{http://www.w3.org/1998/Math/MathML}"
_FLOATS = frozenset({"fig", "table-wrap"})
# elements whose text is never prose: floats become their own blocks; formulas and supplementary
# links would only add noise to lexical and dense retrieval
_SKIP_IN_TEXT = _FLOATS | {"fig-group", "table-wrap-group", "tex-math", "supplementary-material", "media", "graphic", "disp-formula"}  # fmt: skip
# block-level elements must not run into their neighbours ("a</p><p>b" is "a b", not "ab")
_BLOCKS = frozenset({"p", "title", "label", "list-item", "td", "th", "tr", "def-item", "term", "def", "disp-quote", "caption", "boxed-text"})  # fmt: skip
# sections that carry no findings: left out of the index rather than diluting it
_DROP_TITLES = re.compile(
    r"^(funding|financial support|acknowledg|supplementary|supporting information|conflicts? of interest|"
    r"competing interests?|declaration of (competing )?interest|disclosure|author(s')? contributions?|"
    r"data availability|abbreviations|references)",
    re.IGNORECASE,
)
_DROP_SEC_TYPES = frozenset({"supplementary-material", "display-objects", "COI-statement", "funding", "ack", "data-availability"})  # fmt: skip

# (kind, title pattern); the first match wins, so "Results and discussion" is results
_TITLE_RULES: tuple[tuple[SectionKind, re.Pattern[str]], ...] = (
    ("introduction", re.compile(r"^(introduction|background|overview)\b")),
    (
        "methods",
        re.compile(
            r"\b(methods?|methodology|materials|experimental (procedures|section|design)|study design|patients and|participants|subjects|measures|procedures?|data collection|statistical analys[ie]s|sample)\b"
        ),
    ),  # fmt: skip
    ("results", re.compile(r"\b(results?|findings|case (report|presentation))\b")),
    ("discussion", re.compile(r"\b(discussion|limitations)\b")),
    ("conclusion", re.compile(r"\b(conclusions?|concluding remarks|summary)\b")),
)
_SEC_TYPE_RULES: tuple[tuple[str, SectionKind], ...] = (
    ("intro", "introduction"),
    ("method", "methods"),
    ("materials", "methods"),
    ("subjects", "methods"),
    ("results", "results"),
    ("cases", "results"),
    ("discussion", "discussion"),
    ("conclusion", "conclusion"),
)


def canonical_section(title: str | None, sec_type: str | None = None) -> SectionKind:
    """A section's kind from its `sec-type` or heading: introduction/methods/results/discussion/conclusion, else other."""
    if sec_type:
        # "materials|methods", "results|discussion": the first named part decides
        for part in sec_type.lower().split("|"):
            for needle, kind in _SEC_TYPE_RULES:
                if needle in part:
                    return kind
    # drop numbering ("2.1 ", "IV. ") but not the I of "INTRODUCTION"
    text = re.sub(r"^(?:(?:\d+(?:\.\d+)*|[IVX]+)[.)]?\s+)", "", (title or "").strip()).lower()
    for kind, pattern in _TITLE_RULES:
        if pattern.search(text):
            return kind
    return "other"


def _with_numeric_entities(xml: str) -> str:
    """Drop the DOCTYPE (a DTD is never fetched) and turn HTML named entities into character references,
    since without the DTD expat knows only the five XML entities."""
    xml = re.sub(r"<!DOCTYPE[^>\[]*(\[[^\]]*\])?\s*>", "", xml, count=1)

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in {"amp", "lt", "gt", "quot", "apos"}:
            return match.group(0)
        codepoint = html.entities.name2codepoint.get(name)
        return f"&#{codepoint};" if codepoint else ""

    return re.sub(r"&([A-Za-z][A-Za-z0-9]*);", replace, xml)


def _text(element: ET.Element | None) -> str:
    """The prose of an element without floats, formulas or MathML, whitespace collapsed."""
    if element is None:
        return ""
    parts: list[str] = []

    def walk(node: ET.Element) -> None:
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag in _SKIP_IN_TEXT or tag.startswith(MATHML):
            return
        if node.text:
            parts.append(node.text)
        for child in node:
            walk(child)
            if child.tail:
                parts.append(child.tail)
        if tag in _BLOCKS:
            parts.append(" ")

    walk(element)
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def _floats_in(element: ET.Element) -> list[ET.Element]:
    """Figures and tables inside an element (typically a `<p>`), outermost only, in document order."""
    found: list[ET.Element] = []
    for child in element:
        if child.tag in _FLOATS:
            found.append(child)
        elif child.tag != "sec":
            found.extend(_floats_in(child))
    return found


def _cited_floats(element: ET.Element) -> list[str]:
    return [
        rid
        for xref in element.iter("xref")
        if xref.get("ref-type") in {"fig", "table"}
        for rid in (xref.get("rid") or "").split()
    ]


@dataclass
class _Builder:
    """Collects blocks in reading order."""

    include_tables: bool = True
    blocks: list[FullTextSection] = field(default_factory=list)
    cites: dict[int, list[str]] = field(default_factory=dict)  # text block index -> float ids it cites
    emitted: set[str] = field(default_factory=set)

    def add_text(self, kind: SectionKind, title: str, paragraphs: list[str], cited: list[str]) -> None:
        if text := "\n\n".join(p for p in paragraphs if p):
            self.cites[len(self.blocks)] = cited
            self.blocks.append(FullTextSection(kind=kind, title=title, text=text))

    def float_block(self, node: ET.Element) -> FullTextSection | None:
        key = node.get("id") or f"@{id(node)}"
        if key in self.emitted:
            return None
        self.emitted.add(key)
        label = _text(node.find("label")).rstrip(".:")
        caption = _text(node.find("caption"))
        if node.tag == "fig":
            return (
                FullTextSection(kind="figure", title=label or "Figure", text="", caption=caption or None)
                if caption
                else None
            )
        if not self.include_tables:
            return None
        rows = [
            " | ".join(cells)
            for row in node.iter("tr")
            if any(cells := [_text(cell) for cell in row if cell.tag in {"td", "th"}])
        ]
        text = "\n".join(filter(None, ["\n".join(rows), _text(node.find("table-wrap-foot"))]))
        if not (text or caption):
            return None
        return FullTextSection(kind="table", title=label or "Table", text=text, caption=caption or None)

    def add_float(self, node: ET.Element) -> None:
        if block := self.float_block(node):
            self.blocks.append(block)


def _walk_section(builder: _Builder, sec: ET.Element, parent_kind: SectionKind, path: list[str]) -> None:
    own_title = _text(sec.find("title"))
    if _DROP_TITLES.match(own_title) or (sec.get("sec-type") or "") in _DROP_SEC_TYPES:
        return
    # A top-level heading is authoritative ("RESULTS" > "Statistic analysis"); subsections name
    # themselves only under a generic parent ("Study 1" > "Participants and Procedure" = methods).
    kind = parent_kind if parent_kind != "other" else canonical_section(own_title, sec.get("sec-type"))
    label = _text(sec.find("label"))
    heading = f"{label} {own_title}".strip() if label and not own_title.startswith(label) else own_title
    here = [*path, heading] if heading else path
    title = " › ".join(here)

    paragraphs: list[str] = []
    cited: list[str] = []
    floats: list[ET.Element] = []

    def flush() -> None:
        # a (sub)section's text, then the tables and figures it holds: reading order at section grain
        builder.add_text(kind, title, paragraphs, list(cited))
        for node in floats:
            builder.add_float(node)
        paragraphs.clear()
        cited.clear()
        floats.clear()

    for child in sec:
        if child.tag in {"title", "label"}:
            continue
        if child.tag == "sec":
            flush()  # text before a subsection stays before it
            _walk_section(builder, child, kind, here)
        elif child.tag in _FLOATS:
            floats.append(child)
        else:
            paragraphs.append(_text(child))
            cited.extend(_cited_floats(child))
            floats.extend(_floats_in(child))
    flush()


def parse_jats(
    xml: str, *, include_abstract: bool = False, include_tables: bool = True
) -> list[FullTextSection]:
    """Blocks of a JATS article (Europe PMC / PMC full text) in reading order, for the retrieval engine.

    Each (sub)section becomes one text block (paragraphs joined by blank lines; `kind` from its
    sec-type or heading, `title` the heading path "2 Study 1 › 2.1 Participants"); each table becomes a
    block with its caption and its rows as "a | b | c" (plus footnotes), each figure a block with its
    caption — right after the text of the section that holds them, or, for floats gathered at the end
    of the article, after the first section that cites them. Funding, acknowledgements, conflicts of
    interest, supplementary links and the reference list are left out; the abstract only on request
    (the index already holds the Run's abstract). Raises `ValueError` when the text is not JATS.
    """
    try:
        root = ET.fromstring(_with_numeric_entities(xml))
    except ET.ParseError as exc:
        raise ValueError(f"not well-formed XML: {exc}") from exc
    article = root if root.tag == "article" else root.find(".//article")
    if article is None:
        raise ValueError("no <article> element: not a JATS document")

    builder = _Builder(include_tables=include_tables)
    if include_abstract:
        for abstract in article.findall("./front/article-meta/abstract"):
            if abstract.get("abstract-type") in {"graphical", "teaser", "toc"}:
                continue
            parts = [_text(child) for child in abstract if child.tag != "title"]
            builder.add_text("abstract", _text(abstract.find("title")) or "Abstract", parts, [])

    body = article.find("body")
    if body is not None:
        loose: list[str] = []
        cited: list[str] = []
        for child in body:
            if child.tag == "sec":
                builder.add_text("other", "", loose, list(cited))
                loose.clear()
                cited.clear()
                _walk_section(builder, child, "other", [])
            elif child.tag in _FLOATS:
                builder.add_float(child)
            else:
                loose.append(_text(child))
                cited.extend(_cited_floats(child))
                for node in _floats_in(child):
                    builder.add_float(node)
        builder.add_text("other", "", loose, cited)

    # floats kept outside the body (JATS <floats-group>, or in <back>): after the first block citing them
    late = [
        node
        for container in (article.find("floats-group"), article.find("back"))
        if container is not None
        for node in container.iter()
        if node.tag in _FLOATS and (node.get("id") or f"@{id(node)}") not in builder.emitted
    ]
    if not late:
        return builder.blocks
    by_id = {node.get("id"): node for node in late if node.get("id")}
    ordered: list[FullTextSection] = []
    for index, block in enumerate(builder.blocks):
        ordered.append(block)
        for rid in builder.cites.get(index, []):
            if rid in by_id and (extra := builder.float_block(by_id[rid])):
                ordered.append(extra)
    ordered.extend(extra for node in late if (extra := builder.float_block(node)))
    return ordered


# ----------------------------------------------------------------------------------------------
# The tiers
# ----------------------------------------------------------------------------------------------


class FullTextTier(StrEnum):
    ZOTERO = "zotero"  # the user's own library: Zotero's full-text index or the attached PDF
    PMC = "pmc_oa"  # structured text from Europe PMC
    PDF = "oa_pdf"  # text parsed from the open-access PDF Unpaywall lists
    OA_LOCATION = "oa_location"  # an OA copy is known (URL recorded); its PDF is not parsed
    ABSTRACT = "abstract"  # nothing better than the abstract already indexed


class FullTextOutcome(BaseModel):
    """What happened for one paper: the tier reached, where the text (or OA copy) is, and why not better."""

    paper_key: str
    tier: FullTextTier = FullTextTier.ABSTRACT
    required: bool = False  # named by the user: fetched whatever the limit
    pmcid: str | None = None
    sections: int = 0
    tables: int = 0
    figures: int = 0
    oa_url: str | None = None
    pdf_url: str | None = None
    license: str | None = None
    oa_status: str | None = None
    notes: list[str] = Field(default_factory=list)  # each fallback with its reason, in order
    seconds: float = 0.0


class FullTextResult(dict[str, list[FullTextSection]]):
    """`{paper_key: blocks}` for the papers that got text (ready for the retrieval engine's ingest),
    plus `outcomes`: the tier and reasons for every paper considered."""

    def __init__(self) -> None:
        super().__init__()
        self.outcomes: dict[str, FullTextOutcome] = {}

    def counts(self) -> dict[str, int]:
        out = {tier.value: 0 for tier in FullTextTier}
        for outcome in self.outcomes.values():
            out[outcome.tier.value] += 1
        return out

    def summary(self) -> str:
        counts = self.counts()
        return (
            f"full text: {counts['pmc_oa']} from PMC, {counts['oa_pdf']} from open PDFs, {counts['zotero']} from Zotero, "
            f"{counts['oa_location']} with an OA link only, {counts['abstract']} abstract only"
        )


class EuropePMCPort(Protocol):
    """What tier 1 needs of `tools.europepmc.EuropePMCClient`."""

    async def fulltext_xml(self, pmcid: str) -> str: ...

    async def lookup(
        self, *, pmids: Sequence[str] = (), pmcids: Sequence[str] = (), dois: Sequence[str] = ()
    ) -> list[Any]: ...


class UnpaywallPort(Protocol):
    """What tier 2 needs of `tools.unpaywall.UnpaywallClient`."""

    async def lookup(self, doi: str) -> Any: ...


class ZoteroPort(Protocol):
    """What the library tier needs of `tools.zotero.ZoteroClient`."""

    async def find(self, *, doi: str | None = None, title: str | None = None) -> Any: ...

    async def item_fulltext(self, key: str) -> tuple[list[FullTextSection], str]: ...


class PdfPort(Protocol):
    """What the PDF tier needs of `tools.pdftext.PdfFetcher`."""

    async def sections(self, url: str, *, include_abstract: bool = False) -> list[FullTextSection]: ...


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def select_papers(
    papers: Sequence[AggregatedPaper], *, limit: int | None, required: Iterable[str] = ()
) -> tuple[list[AggregatedPaper], list[AggregatedPaper]]:
    """(papers to fetch, papers left at the abstract): required keys first, then by Run rank up to `limit`."""
    required_keys = set(required)
    named = [paper for paper in papers if paper.key in required_keys]
    others = sorted(
        (paper for paper in papers if paper.key not in required_keys),
        key=lambda paper: paper.rank if paper.rank is not None else 10**9,  # stable: ties keep Run order
    )
    count = len(others) if limit is None else max(0, limit)
    chosen, rest = named + others[:count], others[count:]
    return chosen, rest


async def _resolve_pmcids(papers: Sequence[AggregatedPaper], europepmc: EuropePMCPort) -> dict[str, str]:
    """PMCIDs, by paper key, for papers that lack one but have a PMID or DOI Europe PMC can match."""
    wanted = [p for p in papers if not p.paper.pmcid and (p.paper.pmid or p.paper.doi)]
    if not wanted:
        return {}
    records = await europepmc.lookup(
        pmids=[p.paper.pmid for p in wanted if p.paper.pmid],
        dois=[p.paper.doi for p in wanted if p.paper.doi],
    )
    by_pmid: dict[str, str] = {}
    by_doi: dict[str, str] = {}
    for record in records:
        pmcid = normalize_pmcid(getattr(record, "pmcid", None))
        if not pmcid or not getattr(record, "fulltext_available", True):
            continue
        if pmid := normalize_pmid(getattr(record, "pmid", None)):
            by_pmid.setdefault(pmid, pmcid)
        if doi := normalize_doi(getattr(record, "doi", None)):
            by_doi.setdefault(doi, pmcid)
    found: dict[str, str] = {}
    for paper in wanted:
        pmcid = by_pmid.get(paper.paper.pmid or "") or by_doi.get(paper.paper.doi or "")
        if pmcid:
            found[paper.key] = pmcid
    return found


async def _from_pmc(
    europepmc: EuropePMCPort, pmcid: str, outcome: FullTextOutcome, *, include_abstract: bool
) -> list[FullTextSection]:
    """Tier 1 for one PMCID; an empty list (with a note) when it gives nothing."""
    try:
        xml = await europepmc.fulltext_xml(pmcid)
        blocks = parse_jats(xml, include_abstract=include_abstract)
    except Exception as exc:  # any failure degrades this one paper; it is logged and recorded
        outcome.notes.append(f"Europe PMC {pmcid}: {_describe(exc)}")
        log.warning(
            "[fulltext] %s: no PMC full text for %s (%s); trying the next tier",
            outcome.paper_key,
            pmcid,
            _describe(exc),
        )
        return []
    if not any(block.kind != "abstract" for block in blocks):
        outcome.notes.append(f"Europe PMC {pmcid}: the article has no body text")
        log.warning("[fulltext] %s: %s has no body text; trying the next tier", outcome.paper_key, pmcid)
        return []
    return blocks


async def _from_zotero(
    zotero: ZoteroPort, paper: AggregatedPaper, outcome: FullTextOutcome
) -> list[FullTextSection]:
    """The user's library first (002 Phase 1): its index or PDF; a note and [] when it has nothing."""
    try:
        item = await zotero.find(doi=paper.paper.doi, title=paper.paper.title)
        if item is None:
            outcome.notes.append("Zotero: not in the library")
            return []
        blocks, how = await zotero.item_fulltext(item.key)
    except Exception as exc:  # a refused key, the desktop app closed: this tier is skipped, visibly
        outcome.notes.append(f"Zotero: {_describe(exc)}")
        log.warning("[fulltext] %s: Zotero skipped (%s)", paper.key, _describe(exc))
        return []
    outcome.notes.append(f"Zotero: {how}")
    return blocks


async def _from_pdf(
    pdf_fetcher: PdfPort, url: str, outcome: FullTextOutcome, include_abstract: bool
) -> list[FullTextSection]:
    """The open PDF tier for one paper; an empty list (with a warning) when the PDF gives nothing."""
    try:
        return await pdf_fetcher.sections(url, include_abstract=include_abstract)
    except Exception as exc:  # corrupt, too large, a scan, a dead link: this paper falls back
        outcome.notes.append(f"open PDF skipped: {_describe(exc)}")
        log.warning("[fulltext] %s: open PDF %s skipped (%s)", outcome.paper_key, url, _describe(exc))
        return []


async def _fetch_one(
    paper: AggregatedPaper,
    outcome: FullTextOutcome,
    pmcid: str | None,
    europepmc: EuropePMCPort | None,
    unpaywall: UnpaywallPort | None,
    pdf_fetcher: PdfPort | None = None,
    zotero: ZoteroPort | None = None,
) -> list[FullTextSection]:
    started = time.perf_counter()
    include_abstract = not (paper.paper.abstract or "").strip()
    blocks: list[FullTextSection] = []
    pdf_blocks = False
    tried: set[str] = set()
    try:
        if zotero is not None:
            blocks = await _from_zotero(zotero, paper, outcome)
            if blocks:
                outcome.tier = FullTextTier.ZOTERO
                outcome.sections = sum(1 for b in blocks if b.kind not in ("table", "figure"))
                log.info(
                    "[fulltext] %s: full text ✓ (%s)",
                    paper.key,
                    outcome.notes[-1] if outcome.notes else "Zotero",
                )
                return blocks
        if pmcid and europepmc is not None:
            tried.add(pmcid)
            blocks = await _from_pmc(europepmc, pmcid, outcome, include_abstract=include_abstract)
            if blocks:
                outcome.pmcid = pmcid
        elif pmcid:
            outcome.notes.append("no Europe PMC client configured")

        if not blocks and paper.paper.doi and unpaywall is not None:
            try:
                info = await unpaywall.lookup(paper.paper.doi)
            except Exception as exc:  # degrade to the abstract; recorded and logged
                outcome.notes.append(f"Unpaywall: {_describe(exc)}")
                log.warning("[fulltext] %s: Unpaywall lookup failed (%s)", paper.key, _describe(exc))
                info = None
            if info is not None:
                outcome.oa_status = getattr(info, "oa_status", None)
                # an OA copy in PubMed Central can still be read as JATS: back to tier 1 with it
                upw_pmcid = getattr(info, "pmcid", None)
                if upw_pmcid and upw_pmcid not in tried and europepmc is not None:
                    tried.add(upw_pmcid)
                    blocks = await _from_pmc(europepmc, upw_pmcid, outcome, include_abstract=include_abstract)
                    if blocks:
                        outcome.pmcid = upw_pmcid
                if getattr(info, "is_oa", False) and getattr(info, "url", None):
                    outcome.oa_url = info.url
                    outcome.pdf_url = getattr(info, "pdf_url", None)
                    outcome.license = getattr(info, "license", None)
                    if not blocks and outcome.pdf_url and pdf_fetcher is not None:
                        blocks = await _from_pdf(pdf_fetcher, outcome.pdf_url, outcome, include_abstract)
                        pdf_blocks = bool(blocks)
                elif not blocks:
                    outcome.notes.append(f"Unpaywall: no open-access copy ({outcome.oa_status or 'closed'})")
        elif not blocks and not paper.paper.doi:
            outcome.notes.append("no DOI to look up an open-access copy")
    finally:
        outcome.seconds = round(time.perf_counter() - started, 3)

    if blocks:
        outcome.tier = FullTextTier.PDF if pdf_blocks else FullTextTier.PMC
        outcome.sections = sum(1 for b in blocks if b.kind not in ("table", "figure"))
        outcome.tables = sum(1 for b in blocks if b.kind == "table")
        outcome.figures = sum(1 for b in blocks if b.kind == "figure")
        log.info(
            "[fulltext] %s: full text ✓ (%s, %d sections, %d tables, %d figures)",
            paper.key, f"open PDF {outcome.pdf_url}" if pdf_blocks else f"Europe PMC {outcome.pmcid}",
            outcome.sections, outcome.tables, outcome.figures,
        )  # fmt: skip
    elif outcome.oa_url:
        outcome.tier = FullTextTier.OA_LOCATION
        outcome.notes.append("open-access copy recorded but no text was read from it; abstract used")
        log.info(
            "[fulltext] %s: OA copy at %s (not parsed), falling back to the abstract",
            paper.key,
            outcome.oa_url,
        )
    else:
        outcome.tier = FullTextTier.ABSTRACT
        log.info("[fulltext] %s: abstract only (%s)", paper.key, "; ".join(outcome.notes) or "no source")
    return blocks


async def fetch_fulltext(
    papers: Sequence[AggregatedPaper],
    *,
    europepmc: EuropePMCPort | None,
    unpaywall: UnpaywallPort | None,
    limit: int | None = 20,
    concurrency: int = 4,
    required: Iterable[str] = (),
    resolve_ids: bool = True,
    pdf_fetcher: PdfPort | None = None,
    zotero: ZoteroPort | None = None,
) -> FullTextResult:
    """Full text for a Run's papers, tier by tier; see the module docstring.

    `limit` caps how many papers (by Run rank) are fetched besides the `required` keys (None = all);
    `concurrency` caps papers in flight. With `resolve_ids`, papers lacking a PMCID get one from a
    batched Europe PMC id lookup first. Returns `{paper_key: blocks}` for papers with text, and
    `.outcomes` for every paper (those beyond the limit are recorded as abstract only).
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    required_keys = set(required)
    chosen, rest = select_papers(papers, limit=limit, required=required_keys)
    result = FullTextResult()
    for paper in rest:
        result.outcomes[paper.key] = FullTextOutcome(
            paper_key=paper.key, notes=[f"beyond the full-text limit of {limit} papers"]
        )

    resolved: dict[str, str] = {}
    if resolve_ids and europepmc is not None and chosen:
        try:
            resolved = await _resolve_pmcids(chosen, europepmc)
        except Exception as exc:  # the per-paper tiers still run with the ids the papers carry
            log.warning(
                "[fulltext] Europe PMC id lookup failed (%s); using the PMCIDs the papers carry",
                _describe(exc),
            )

    semaphore = asyncio.Semaphore(concurrency)

    async def run(paper: AggregatedPaper) -> None:
        outcome = FullTextOutcome(paper_key=paper.key, required=paper.key in required_keys)
        result.outcomes[paper.key] = outcome
        pmcid = paper.paper.pmcid or resolved.get(paper.key)
        async with semaphore:
            blocks = await _fetch_one(paper, outcome, pmcid, europepmc, unpaywall, pdf_fetcher, zotero)
        if blocks:
            result[paper.key] = blocks

    await asyncio.gather(*(run(paper) for paper in chosen))
    # outcomes in the papers' own order, for stable reports
    order = {paper.key: index for index, paper in enumerate(papers)}
    result.outcomes = dict(sorted(result.outcomes.items(), key=lambda item: order.get(item[0], 0)))
    log.info("[fulltext] %s", result.summary())
    return result
