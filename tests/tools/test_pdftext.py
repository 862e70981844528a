"""The open-PDF tier: pypdf text cut into sections and captions, bounded downloads, corrupt files."""

from __future__ import annotations

import httpx
import pytest

from tools.pdftext import PdfError, PdfFetcher, parse_pdf

BODY = [
    "Decoding speech from cortical activity",
    "Abstract",
    "We decoded speech from ECoG recordings of five patients.",
    "1. Introduction",
    "Speech neuroprostheses could restore communication to people with paralysis after stroke.",
    "2. Methods",
    "Five patients with epilepsy were implanted with subdural electrode grids for monitoring.",
    "High-gamma power between 70 and 150 Hz was extracted from every electrode channel.",
    "Table 1. Participants and electrode counts per patient.",
    "",
    "3. Results",
    "Decoding accuracy reached 80 percent for single words across all five participants.",
    "Figure 2: Accuracy of the decoder over sessions.",
    "",
    "4. Discussion",
    "High-gamma features carry most of the information needed for decoding words.",
    "References",
    "1. Smith J. A paper that should not be indexed. Journal 2019.",
]


def make_pdf(lines: list[str]) -> bytes:
    """A one-page PDF whose text layer holds `lines` (built by hand: no PDF writer is needed)."""
    escaped = [line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for line in lines]
    stream = "BT /F1 10 Tf 50 780 Td 14 TL " + " ".join(f"({line}) Tj T*" for line in escaped) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def test_sections_captions_and_no_references():
    blocks = parse_pdf(make_pdf(BODY))
    kinds = [b.kind for b in blocks]
    assert kinds == ["introduction", "methods", "table", "results", "figure", "discussion"]
    methods = blocks[1]
    assert methods.title == "2. Methods" and "70 and 150 Hz" in methods.text
    assert blocks[2].caption.startswith("Table 1. Participants")
    assert blocks[4].caption.startswith("Figure 2: Accuracy")
    assert not any("should not be indexed" in b.text for b in blocks)  # the reference list is dropped
    with_abstract = parse_pdf(make_pdf(BODY), include_abstract=True)
    assert with_abstract[0].kind == "abstract"


def test_corrupt_and_textless_pdfs_are_pdf_errors():
    with pytest.raises(PdfError, match="not a PDF"):
        parse_pdf(b"<html>a landing page</html>")
    with pytest.raises(PdfError, match="corrupt PDF"):
        parse_pdf(b"%PDF-1.4\n" + bytes(range(256)) * 20)
    with pytest.raises(PdfError, match="no text layer"):
        parse_pdf(make_pdf(["Figure"]))


async def test_downloads_are_bounded():
    pdf = make_pdf(BODY)

    async def pieces():
        for _ in range(10):
            yield b"%PDF-1.4\n" + b"0" * 4096

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/big.pdf":  # declares 200 MB: refused before reading
            return httpx.Response(200, headers={"content-length": str(200 * 1024 * 1024)}, content=b"%PDF")
        if request.url.path == "/stream.pdf":  # no length, more bytes than allowed: stopped mid-way
            return httpx.Response(200, content=pieces())
        if request.url.path == "/gone.pdf":
            return httpx.Response(404)
        return httpx.Response(200, content=pdf)

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        fetcher = PdfFetcher(client, max_bytes=16 * 1024)
        with pytest.raises(PdfError, match="200 MB"):
            await fetcher.fetch("https://oa.example/big.pdf")
        with pytest.raises(PdfError, match="download stopped"):
            await fetcher.fetch("https://oa.example/stream.pdf")
        with pytest.raises(PdfError, match="HTTP 404"):
            await fetcher.fetch("https://oa.example/gone.pdf")
        blocks = await fetcher.sections("https://oa.example/paper.pdf")
        assert blocks[1].kind == "methods"
