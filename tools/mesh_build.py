"""Build the compact MeSH vocabulary ScholarMap ships, from NLM's descriptor XML (or a JSONL copy).

The product recognises MeSH descriptors offline (`agent.language.mesh_recognition`), so it carries a compact
table of every descriptor: its UI, heading, entry terms and tree numbers, one JSON object per line,
gzipped, with a first line that names the MeSH year and the source (`{"meta": {...}}`).

Sources it reads:
- NLM's official descriptor file `desc<YEAR>.xml` (or `.xml.gz`), from
  https://www.nlm.nih.gov/databases/download/mesh.html: `DescriptorRecord` elements with
  `DescriptorUI`, `DescriptorName/String`, `TreeNumberList/TreeNumber` and
  `ConceptList/Concept/TermList/Term/String`. The preferred concept's terms come first, then the other
  concepts' (narrower or related) terms, as NLM lists them; the heading is not repeated;
- a JSON Lines table with `ui`, `heading`, `entry_terms`, `tree_numbers` (such as
  ../shared/data/mesh/mesh2024_descriptors.jsonl.gz), whose NLM-generated `permuted_terms` are left
  out: recognition normalises word order and number itself.

MeSH is produced by the U.S. National Library of Medicine; see tools/data/MESH_NOTICE.md.
"""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from agent.errors import InputError

EMBEDDED_MESH = Path(__file__).parent / "data" / "mesh_descriptors.jsonl.gz"


class MeshBuildError(InputError):
    """The source cannot be read as MeSH descriptors; the message says what is wrong."""


@dataclass
class BuildReport:
    descriptors: int
    terms: int
    year: int | None
    path: Path


def _open(path: Path) -> IO[bytes]:
    return cast(IO[bytes], gzip.open(path, "rb")) if path.suffix == ".gz" else path.open("rb")


def _text(element: ET.Element | None, path: str) -> str:
    found = element.find(path) if element is not None else None
    return (found.text or "").strip() if found is not None else ""


def records_from_xml(path: Path) -> Iterator[dict[str, Any]]:
    """Descriptor records of NLM's XML, streamed (the 2024 file is about 300 MB)."""
    with _open(path) as handle:
        try:
            for _, element in ET.iterparse(handle, events=("end",)):
                if element.tag != "DescriptorRecord":
                    continue
                ui, heading = _text(element, "DescriptorUI"), _text(element, "DescriptorName/String")
                trees = [t.text.strip() for t in element.iterfind("TreeNumberList/TreeNumber") if t.text]
                concepts = sorted(
                    element.iterfind("ConceptList/Concept"), key=lambda c: c.get("PreferredConceptYN") != "Y"
                )
                terms = [
                    s.text.strip()
                    for concept in concepts
                    for s in concept.iterfind("TermList/Term/String")
                    if s.text and s.text.strip() != heading
                ]
                element.clear()
                if ui and heading:
                    yield {
                        "ui": ui,
                        "heading": heading,
                        "entry_terms": list(dict.fromkeys(terms)),
                        "tree_numbers": trees,
                    }
        except ET.ParseError as error:
            raise MeshBuildError(f"{path.name} is not well-formed XML: {error}") from None


def records_from_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with _open(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise MeshBuildError(f"{path.name} line {number} is not JSON: {error}") from None
            if "meta" in row:
                continue
            if not isinstance(row.get("ui"), str) or not isinstance(row.get("heading"), str):
                raise MeshBuildError(f"{path.name} line {number} has no 'ui' and 'heading'")
            yield {
                "ui": row["ui"],
                "heading": row["heading"],
                "entry_terms": [t for t in row.get("entry_terms") or [] if isinstance(t, str)],
                "tree_numbers": [t for t in row.get("tree_numbers") or [] if isinstance(t, str)],
            }


def build(source: Path, out: Path = EMBEDDED_MESH, year: int | None = None) -> BuildReport:
    """Write the compact table from `source` (NLM XML or JSONL); the year is read from a `desc2024.xml`
    name when not given. Raises MeshBuildError for a missing or unreadable source."""
    if not source.is_file():
        raise MeshBuildError(f"{source} does not exist")
    name = source.name.lower()
    is_xml = name.endswith((".xml", ".xml.gz"))
    if year is None and (match := re.search(r"(?:desc|mesh)(\d{4})", name)):
        year = int(match.group(1))
    rows = sorted(records_from_xml(source) if is_xml else records_from_jsonl(source), key=lambda r: r["ui"])
    if not rows:
        raise MeshBuildError(f"{source.name} holds no MeSH descriptor records")
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"meta": {"mesh_year": year, "built_from": source.name, "descriptors": len(rows)}}
    temporary = out.with_suffix(".tmp")
    with gzip.open(temporary, "wt", encoding="utf-8", compresslevel=9) as handle:
        handle.write(json.dumps(meta) + "\n")
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    temporary.replace(out)
    return BuildReport(len(rows), sum(1 + len(r["entry_terms"]) for r in rows), year, out)


def embedded_year(path: Path = EMBEDDED_MESH) -> int | None:
    """The MeSH year written in a compact table's first line (None when unknown)."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        first = json.loads(handle.readline() or "{}")
    year = first.get("meta", {}).get("mesh_year")
    return year if isinstance(year, int) else None
