"""An open-access PDF as full-text sections: a bounded download and pypdf's text, cut at the headings.

Unpaywall often knows only a PDF. pypdf (pure Python, maintained by the py-pdf organisation) extracts
each page's text; the text is then cut into sections at lines that are a known heading ("2. Methods",
"RESULTS", "Materials and methods"), and lines starting "Table n" or "Figure n" become caption blocks.
Reference lists, acknowledgements and funding statements are dropped, as for JATS.

Bounds: the download stops at `max_bytes` (a 200 MB file is refused, not read) and at most
`max_pages` pages are parsed; a corrupt or encrypted file raises `PdfError` with the reason, which
the caller turns into a warning and an abstract-only fallback.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

from agent.errors import ServiceError
from tools.retrieval.types import FullTextSection, SectionKind

log = logging.getLogger(__name__)

MAX_PDF_BYTES = 30 * 1024 * 1024
MAX_PAGES = 80

_HEADING = re.compile(
    r"^(?:(?:\d+(?:\.\d+)*|[IVX]+)[.)]?\s+)?"
    r"(abstract|introduction|background|methods?|materials and methods|methods and materials|"
    r"patients and methods|experimental(?: procedures| section)?|study design|participants|"
    r"statistical analysis|results(?: and discussion)?|findings|discussion|conclusions?|"
    r"limitations|references|bibliography|acknowledge?ments?|funding|conflicts? of interest|"
    r"competing interests|supplementary (?:material|information)|data availability)\s*:?$",
    re.IGNORECASE,
)
_DROP = re.compile(
    r"^(references|bibliography|acknowledge?ments?|funding|conflicts? of interest|competing interests|"
    r"supplementary|data availability)",
    re.IGNORECASE,
)
_CAPTION = re.compile(r"^(table|fig(?:ure)?\.?)\s*(\d+|[IVX]+)\b[.:]?\s*(.*)$", re.IGNORECASE)
_KINDS: tuple[tuple[SectionKind, re.Pattern[str]], ...] = (
    ("abstract", re.compile(r"abstract", re.I)),
    ("introduction", re.compile(r"introduction|background", re.I)),
    ("methods", re.compile(r"method|material|experimental|design|participants|statistical", re.I)),
    ("results", re.compile(r"result|finding", re.I)),
    ("discussion", re.compile(r"discussion|limitation", re.I)),
    ("conclusion", re.compile(r"conclusion", re.I)),
)


class PdfError(ServiceError):
    """The PDF could not be used: too large, corrupt, encrypted, or without extractable text."""


def _kind(heading: str) -> SectionKind:
    for kind, pattern in _KINDS:
        if pattern.search(heading):
            return kind
    return "other"


def pdf_text(data: bytes, *, max_pages: int = MAX_PAGES) -> list[str]:
    """The text of each page (at most `max_pages`); `PdfError` for a file pypdf cannot read."""
    # pypdf is imported when the first PDF is read (tier 2 of full text)
    from pypdf import PdfReader

    # pypdf is imported when the first PDF is read (tier 2 of full text)
    from pypdf.errors import PyPdfError

    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise PdfError("not a PDF file (no %PDF header)")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise PdfError("the PDF is encrypted")
        return [page.extract_text() or "" for page in reader.pages[:max_pages]]
    except PdfError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError, RecursionError) as exc:
        raise PdfError(f"corrupt PDF: {exc or type(exc).__name__}") from exc


def parse_pdf(
    data: bytes, *, max_pages: int = MAX_PAGES, include_abstract: bool = False
) -> list[FullTextSection]:
    """Sections, table and figure captions of a PDF's text layer, in reading order."""
    pages = pdf_text(data, max_pages=max_pages)
    lines = [line for page in pages for line in page.splitlines()]
    if sum(len(line.strip()) for line in lines) < 200:
        raise PdfError("the PDF has no text layer to read (a scan?)")
    return sections_from_lines(lines, include_abstract=include_abstract)


def sections_from_lines(raw_lines: list[str], *, include_abstract: bool = False) -> list[FullTextSection]:
    """A paper's plain text (a PDF's text layer, a reference manager's full-text index) as sections:
    cut at heading lines, captions apart, reference lists and acknowledgements dropped."""
    lines = [" ".join(line.split()) for line in raw_lines]
    blocks: list[FullTextSection] = []
    # text before the first heading is front matter (title, authors, affiliations): kept only when
    # the PDF has no heading at all
    heading, kind, dropping = "", "other", False
    front: list[str] = []
    seen_heading = False
    paragraph: list[str] = []
    caption: list[str] | None = None
    caption_kind: SectionKind = "table"
    label = ""

    def flush() -> None:
        nonlocal paragraph
        text = " ".join(paragraph).strip()
        paragraph = []
        if not seen_heading:
            front.append(text)
            return
        if text and not dropping and (kind != "abstract" or include_abstract):
            if (
                blocks
                and blocks[-1].kind == kind
                and blocks[-1].title == heading
                and blocks[-1].kind not in ("table", "figure")
            ):
                blocks[-1] = blocks[-1].model_copy(update={"text": f"{blocks[-1].text} {text}"})
            else:
                blocks.append(FullTextSection(kind=kind, title=heading, text=text))

    def end_caption() -> None:
        nonlocal caption
        if caption and not dropping:
            text = " ".join(caption).strip()
            blocks.append(FullTextSection(kind=caption_kind, title=label, text=text, caption=text))
        caption = None

    for line in lines:
        if not line:
            end_caption()
            continue
        if _HEADING.match(line) and len(line.split()) <= 6:
            end_caption()
            flush()
            seen_heading = True
            heading = line.rstrip(":")
            dropping = bool(_DROP.search(re.sub(r"^[\dIVX.)\s]+", "", heading)))
            kind = _kind(heading)
            continue
        match = _CAPTION.match(line)
        if match:
            end_caption()
            flush()  # the caption comes after the text before it
            caption_kind = "table" if match.group(1).lower().startswith("tab") else "figure"
            label = f"{'Table' if caption_kind == 'table' else 'Figure'} {match.group(2)}"
            caption = [line]
            continue
        # a caption runs on until a line ends a sentence (at most four lines)
        if caption is not None and len(caption) < 4 and not caption[-1].endswith((".", ":", ";")):
            caption.append(line)
            continue
        end_caption()
        paragraph.append(line)
    end_caption()
    flush()
    if not seen_heading and any(front):
        blocks.insert(0, FullTextSection(kind="other", title="", text=" ".join(t for t in front if t)))
    if not any(b.kind not in ("abstract", "table", "figure") for b in blocks):
        raise PdfError("no body text found in the PDF")
    return blocks


def _mb(size: int) -> str:
    return f"{size / 2**20:.3g} MB"


class PdfFetcher:
    """Downloads an open-access PDF over a shared httpx client, refusing anything over `max_bytes`."""

    def __init__(self, client: Any, *, max_bytes: int = MAX_PDF_BYTES, timeout: float = 60.0) -> None:
        self.client = client
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def fetch(self, url: str) -> bytes:
        async with self.client.stream("GET", url, timeout=self.timeout, follow_redirects=True) as response:
            if response.status_code >= 400:
                raise PdfError(f"HTTP {response.status_code} for the PDF")
            declared = response.headers.get("content-length")
            if declared and declared.isdigit() and int(declared) > self.max_bytes:
                raise PdfError(f"the PDF is {_mb(int(declared))}, over the {_mb(self.max_bytes)} limit")
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > self.max_bytes:
                    raise PdfError(f"the PDF is over the {_mb(self.max_bytes)} limit; download stopped")
                chunks.append(chunk)
        return b"".join(chunks)

    async def sections(self, url: str, *, include_abstract: bool = False) -> list[FullTextSection]:
        data = await self.fetch(url)
        return await asyncio.to_thread(parse_pdf, data, include_abstract=include_abstract)
