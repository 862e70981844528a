"""MeSH descriptors for a term: online through E-utilities (db=mesh) or the NLM MeSH RDF lookup API,
offline from a MeSH descriptor file.

- E-utilities: `esearch db=mesh` finds record uids (numeric: descriptor D003920 is uid 68003920,
  supplementary concept C414177 is 67414177), `esummary` gives the terms (first = heading, the
  rest = entry terms), the scope note and the tree numbers. Answers may be JSON (asked for) or the
  XML DocumentSummary layout (the only real recording we have).
- RDF lookup API (https://id.nlm.nih.gov/mesh): `lookup/descriptor?label=&match=exact|contains`
  then `lookup/details?descriptor=D…` for the terms. It carries no tree numbers or scope notes.
  Used when E-utilities fails or finds nothing, if the caller provides it.
- `MeshFile`: the JSON Lines descriptor table described in ../shared/data/mesh/SOURCE.md, for
  machines without access to NLM.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import re
import threading
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from agent.models import MeshDescriptor
from tools.errors import BadQuery, BadResponse, EmptyQuery, NotFound, ServiceCallError, SourceUnavailable
from tools.http import HttpPolicy
from tools.pubmed_xml import parse_root, text_of
from tools.values import unique_strings

log = logging.getLogger(__name__)

_TREE_NUMBER = re.compile(r"^[A-Z]\d{2}(?:\.\d{3})*$")
_DESCRIPTOR_UI = re.compile(r"^D\d{6,9}$")
CANDIDATES = 20  # most descriptor uids we summarise per lookup, to find exact matches among them


class MeshSource(Protocol):
    """What the keyword step needs from any MeSH source, online or offline."""

    async def lookup(self, term: str, *, limit: int = 3) -> list[MeshDescriptor]: ...

    async def descriptor(self, ui: str) -> MeshDescriptor: ...


# ----------------------------------------------------------------------------------------------
# identifiers and matching
# ----------------------------------------------------------------------------------------------


def uid_to_ui(uid: str | int) -> str | None:
    """E-utilities mesh uid -> MeSH UI: 68003920 -> D003920, 67414177 -> C414177; else None."""
    text = str(uid).strip()
    if not text.isdigit() or len(text) < 8:
        return None
    prefix = {"68": "D", "67": "C"}.get(text[:2])
    return f"{prefix}{text[2:]}" if prefix else None


def normalize_ui(value: str) -> str | None:
    """A descriptor UI from "D003920", "d003920", "68003920" or an id.nlm.nih.gov URI; else None."""
    text = str(value).strip().rstrip("/").rsplit("/", 1)[-1].upper()
    if text.endswith(".JSON"):
        text = text[: -len(".JSON")]
    if text.isdigit():
        text = uid_to_ui(text) or ""
    return text if _DESCRIPTOR_UI.match(text) else None


def term_key(text: str) -> str:
    """How terms are compared: NFKC, case-folded, single spaces."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().casefold()


def matches(descriptor: MeshDescriptor, term: str) -> bool:
    key = term_key(term)
    return key == term_key(descriptor.heading) or any(key == term_key(t) for t in descriptor.entry_terms)


def _exact_first(found: list[MeshDescriptor], term: str) -> list[MeshDescriptor]:
    """Descriptors whose heading or entry term is the term itself come first; order is kept otherwise."""
    return sorted(
        found, key=lambda d: 0 if term_key(d.heading) == term_key(term) else 1 if matches(d, term) else 2
    )


# ----------------------------------------------------------------------------------------------
# E-utilities esummary, JSON and XML, to one shape
# ----------------------------------------------------------------------------------------------


def descriptor_from_summary(doc: Mapping[str, Any]) -> MeshDescriptor | None:
    """One esummary document (JSON shape) as a descriptor; None for non-descriptor or error records."""
    if doc.get("error"):
        return None
    ui = str(doc.get("ds_meshui") or "").strip().upper() or uid_to_ui(doc.get("uid", "")) or ""
    if not _DESCRIPTOR_UI.match(ui):
        return None  # supplementary concepts (C…) and qualifiers (Q…) are not descriptors
    terms = [str(t) for t in doc.get("ds_meshterms") or [] if t]
    if not terms:
        return None
    links = doc.get("ds_idxlinks") or []
    tree_numbers = [
        str(link.get("treenum")).strip()
        for link in links
        if isinstance(link, Mapping) and _TREE_NUMBER.match(str(link.get("treenum") or "").strip())
    ]
    return MeshDescriptor(
        ui=ui,
        heading=terms[0].strip(),
        entry_terms=unique_strings(terms[1:], exclude=[terms[0]], key=term_key),
        tree_numbers=sorted(set(tree_numbers)),
        scope_note=str(doc.get("ds_scopenote") or "").strip(),
    )


def parse_esummary_xml(body: str | bytes, service: str) -> list[dict[str, Any]]:
    """esummary XML (DocumentSummary v2.0, or the older DocSum layout) as JSON-shaped documents."""
    root = parse_root(body, service, "MeSH esummary")
    if root.tag != "eSummaryResult":
        raise BadResponse(
            service, f"MeSH esummary returned <{root.tag}> where an eSummaryResult was expected"
        )
    if root.find("ERROR") is not None:
        raise BadQuery(service, f"MeSH esummary refused the request: {text_of(root.find('ERROR'))}")
    docs: list[dict[str, Any]] = []
    for summary in root.iter("DocumentSummary"):
        docs.append(
            {
                "uid": summary.get("uid", ""),
                "ds_meshui": text_of(summary.find("DS_MeshUI")),
                "ds_meshterms": [text_of(s) for s in summary.findall("DS_MeshTerms/string")],
                "ds_scopenote": text_of(summary.find("DS_ScopeNote")),
                "ds_idxlinks": [
                    {"treenum": text_of(t)} for t in summary.findall("DS_IdxLinks/LinksType/TreeNum")
                ],
                "error": text_of(summary.find("error")),
            }
        )
    for summary in root.iter("DocSum"):
        items = {item.get("Name"): item for item in summary.findall("Item")}

        def strings(name: str, items: dict[str | None, ET.Element] = items) -> list[str]:
            item = items.get(name)
            return [text_of(i) for i in item.iter("Item") if i is not item] if item is not None else []

        links = items.get("DS_IdxLinks")
        docs.append(
            {
                "uid": text_of(summary.find("Id")),
                "ds_meshui": text_of(items.get("DS_MeshUI")),
                "ds_meshterms": strings("DS_MeshTerms"),
                "ds_scopenote": text_of(items.get("DS_ScopeNote")),
                "ds_idxlinks": [
                    {"treenum": text_of(i)}
                    for i in (links.iter("Item") if links is not None else [])
                    if i.get("Name") == "TreeNum"
                ],
            }
        )
    return docs


# ----------------------------------------------------------------------------------------------
# the online client
# ----------------------------------------------------------------------------------------------


class MeshClient:
    """MeSH descriptors from E-utilities (`http`, the eutils root) with the RDF API (`rdf`, the
    https://id.nlm.nih.gov/mesh root) as the alternative when E-utilities fails or finds nothing."""

    def __init__(
        self,
        http: HttpPolicy,
        *,
        rdf: HttpPolicy | None = None,
        api_key: str | None = None,
        email: str | None = None,
        tool: str = "scholarmap",
    ) -> None:
        self.http = http
        self.rdf = rdf
        self.service = http.service
        self.api_key = api_key or None
        self.email = email or None
        self.tool = tool
        if self.api_key and self.api_key not in http.config.secrets:
            http.config.secrets = (*http.config.secrets, self.api_key)

    async def lookup(self, term: str, *, limit: int = 3) -> list[MeshDescriptor]:
        """Up to `limit` descriptors for a term; those whose heading or entry term *is* the term first.

        [] means MeSH has no descriptor for it. Errors of E-utilities are raised unless the RDF API is
        configured, in which case it is asked instead (and its error raised if it fails too).
        """
        term = (term or "").strip()
        if not term:
            raise EmptyQuery(self.service)
        limit = max(1, limit)
        primary_error: ServiceCallError | None = None
        try:
            found = await self._lookup_eutils(term, limit)
        except BadQuery as error:  # E-utilities could not search the term at all: nothing found
            log.info("%s: MeSH esearch could not search %r: %s", self.service, term, error.message)
            found = []
        except ServiceCallError as error:
            if self.rdf is None:
                raise
            log.warning("%s: E-utilities failed (%s); asking the MeSH RDF API", self.service, error.message)
            primary_error, found = error, []
        if found or self.rdf is None:
            return found
        try:
            return await self._lookup_rdf(term, limit)
        except ServiceCallError as error:
            if primary_error is not None:
                raise primary_error from error
            raise

    async def descriptor(self, ui: str) -> MeshDescriptor:
        """One descriptor by UI ("D003920", "68003920" or its URI). Raises NotFound if MeSH has none."""
        normalized = normalize_ui(ui)
        if normalized is None:
            raise BadQuery(self.service, f"{str(ui)[:40]!r} is not a MeSH descriptor UI (like D003920)")
        try:
            found = await self._summaries(["68" + normalized[1:]])
        except ServiceCallError as error:
            if self.rdf is None or isinstance(error, NotFound):
                raise
            log.warning("%s: E-utilities failed (%s); asking the MeSH RDF API", self.service, error.message)
            return await self._rdf_descriptor(normalized, heading=None)
        if not found:
            raise NotFound(self.service, f"MeSH has no descriptor {normalized}")
        return found[0]

    # -- E-utilities -----------------------------------------------------------------------------

    def _params(self, **values: Any) -> dict[str, Any]:
        params: dict[str, Any] = {"db": "mesh", **{k: v for k, v in values.items() if v is not None}}
        params.update({k: v for k, v in (("tool", self.tool), ("email", self.email)) if v})
        if self.api_key:
            params["api_key"] = self.api_key
        return params

    async def _lookup_eutils(self, term: str, limit: int) -> list[MeshDescriptor]:
        data = await self.http.get_json(
            "esearch.fcgi", self._params(term=term, retmode="json", retmax=CANDIDATES)
        )
        result = data.get("esearchresult") if isinstance(data, dict) else None
        if not isinstance(result, dict):
            raise BadResponse(self.service, "MeSH esearch answer has no 'esearchresult' object")
        if result.get("ERROR"):
            raise BadQuery(self.service, f"MeSH esearch rejected the term: {result['ERROR']}")
        uids = [str(u) for u in result.get("idlist") or [] if uid_to_ui(str(u)) and str(u).startswith("68")]
        if not uids:
            return []
        found = await self._summaries(uids[: max(limit, min(CANDIDATES, 5))])
        return _exact_first(found, term)[:limit]

    async def _summaries(self, uids: list[str]) -> list[MeshDescriptor]:
        """Descriptors for esummary uids, in the order asked; records that are not descriptors dropped."""
        response = await self.http.request(
            "GET", "esummary.fcgi", params=self._params(id=",".join(uids), retmode="json")
        )
        text = response.text.lstrip()
        if text.startswith("<") and "<eSummaryResult" in text[:2000]:
            docs = parse_esummary_xml(response.content, self.service)
        else:
            data = self.http.parse_json(response)
            result = data.get("result") if isinstance(data, dict) else None
            if not isinstance(result, dict):
                message = data.get("error") if isinstance(data, dict) else None
                if message:
                    raise BadQuery(self.service, f"MeSH esummary refused the request: {message}")
                raise BadResponse(self.service, "MeSH esummary answer has no 'result' object")
            docs = [result[uid] for uid in result.get("uids") or [] if isinstance(result.get(uid), dict)]
        by_uid = {str(doc.get("uid")): doc for doc in docs}
        ordered = [by_uid[uid] for uid in uids if uid in by_uid] + [
            d for d in docs if str(d.get("uid")) not in uids
        ]
        descriptors = []
        for doc in ordered:
            try:
                descriptor = descriptor_from_summary(doc)
            except (TypeError, ValueError, AttributeError) as error:
                raise BadResponse(
                    self.service, f"MeSH esummary record has an unexpected shape: {error}"
                ) from None
            if descriptor is not None:
                descriptors.append(descriptor)
        return descriptors

    # -- RDF lookup API --------------------------------------------------------------------------

    async def _lookup_rdf(self, term: str, limit: int) -> list[MeshDescriptor]:
        assert self.rdf is not None
        hits: list[Any] = []
        for match in ("exact", "contains"):
            hits = await self.rdf.get_json(
                "lookup/descriptor", {"label": term, "match": match, "limit": limit}
            )
            if not isinstance(hits, list):
                raise BadResponse(self.rdf.service, "MeSH RDF lookup/descriptor did not return a JSON array")
            if hits:
                break
        pairs: list[tuple[str, str | None]] = []
        for hit in hits:
            ui = normalize_ui(str(hit.get("resource") or "")) if isinstance(hit, dict) else None
            if ui and ui not in {p[0] for p in pairs}:
                pairs.append((ui, str(hit.get("label") or "").strip() or None))
        found = await asyncio.gather(*(self._rdf_descriptor(ui, heading) for ui, heading in pairs[:limit]))
        return _exact_first(list(found), term)

    async def _rdf_descriptor(self, ui: str, heading: str | None) -> MeshDescriptor:
        assert self.rdf is not None
        details = await self.rdf.get_json("lookup/details", {"descriptor": ui})
        if not isinstance(details, dict):
            raise BadResponse(self.rdf.service, f"MeSH RDF lookup/details for {ui} is not a JSON object")
        terms = [t for t in details.get("terms") or [] if isinstance(t, dict) and t.get("label")]
        preferred = next((str(t["label"]) for t in terms if t.get("preferred") in (True, "true")), None)
        heading = heading or preferred or (str(terms[0]["label"]) if terms else None)
        if not heading:
            raise NotFound(self.rdf.service, f"MeSH has no descriptor {ui}")
        return MeshDescriptor(
            ui=ui,
            heading=heading,
            entry_terms=unique_strings((str(t["label"]) for t in terms), exclude=[heading], key=term_key),
        )


# ----------------------------------------------------------------------------------------------
# the offline file
# ----------------------------------------------------------------------------------------------


class MeshFile:
    """MeSH descriptors from a JSON Lines file (optionally gzipped), one descriptor per line:
    `{"ui", "heading", "entry_terms", "permuted_terms", "tree_numbers", "scope_note"?}`.

    Matching is exact but case-insensitive, on the heading, an entry term or a permuted term (NLM's
    inverted variants such as "Interfaces, Brain-Computer"); `entry_terms` in the result are the
    non-permuted ones, which are the useful synonyms. The file is read on first use, off the event loop.
    """

    service = "mesh-file"

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._rows: dict[str, dict[str, Any]] | None = None
        # term key -> [(rank, ui)]: rank 0 heading, 1 entry term, 2 permuted term
        self._index: dict[str, list[tuple[int, str]]] = {}
        self._trees: dict[str, str] | None = None  # tree number -> ui, built on first use
        self._lock = threading.Lock()

    def load(self) -> None:
        with self._lock:
            if self._rows is not None:
                return
            if not self.path.is_file():
                raise SourceUnavailable(self.service, f"MeSH file {self.path} does not exist")
            rows: dict[str, dict[str, Any]] = {}
            index: dict[str, list[tuple[int, str]]] = {}
            opener = gzip.open if self.path.suffix == ".gz" else open
            with opener(self.path, "rt", encoding="utf-8") as handle:
                for number, line in enumerate(handle, start=1):
                    if not line.strip():
                        continue
                    try:
                        row = json.loads(line)
                        if "meta" in row and number == 1:
                            continue  # the compact table's header (year, source)
                        ui, heading = row["ui"], row["heading"]
                        if not isinstance(ui, str) or not isinstance(heading, str) or not ui or not heading:
                            raise ValueError("'ui' and 'heading' must be non-empty strings")
                        groups = ([heading], row.get("entry_terms") or [], row.get("permuted_terms") or [])
                        if not all(isinstance(t, str) for group in groups for t in group):
                            raise ValueError("terms must be strings")
                    except (ValueError, KeyError, TypeError) as error:
                        raise BadResponse(
                            self.service,
                            f"MeSH file {self.path.name} line {number} is not a descriptor: {error}",
                        ) from None
                    rows[ui] = row
                    # Descriptor models are built per lookup, not here: 30,000 validations would
                    # double the load time for records that are mostly never asked for.
                    for rank, group in enumerate(groups):
                        for text in group:
                            entries = index.setdefault(term_key(text), [])
                            if (rank, ui) not in entries:
                                entries.append((rank, ui))
            self._index = index
            self._rows = rows

    def _descriptor(self, ui: str) -> MeshDescriptor:
        assert self._rows is not None
        row = self._rows[ui]
        try:
            return MeshDescriptor(
                ui=ui,
                heading=row["heading"],
                entry_terms=list(row.get("entry_terms") or []),
                tree_numbers=list(row.get("tree_numbers") or []),
                scope_note=row.get("scope_note") or "",
            )
        except ValueError as error:
            raise BadResponse(self.service, f"MeSH file record {ui} is not a descriptor: {error}") from None

    def find(self, term: str, *, limit: int = 3) -> list[MeshDescriptor]:
        """Synchronous lookup (loads the file if needed)."""
        if not (term or "").strip():
            raise EmptyQuery(self.service)
        self.load()
        hits = sorted(self._index.get(term_key(term), []))
        uis = list(dict.fromkeys(ui for _, ui in hits))
        return [self._descriptor(ui) for ui in uis[: max(1, limit)]]

    def get(self, ui: str) -> MeshDescriptor:
        normalized = normalize_ui(ui)
        self.load()
        assert self._rows is not None
        if normalized is None or normalized not in self._rows:
            raise NotFound(self.service, f"the MeSH file has no descriptor {str(ui)[:40]}")
        return self._descriptor(normalized)

    async def lookup(self, term: str, *, limit: int = 3) -> list[MeshDescriptor]:
        if self._rows is None:
            await asyncio.to_thread(self.load)
        return self.find(term, limit=limit)

    async def descriptor(self, ui: str) -> MeshDescriptor:
        if self._rows is None:
            await asyncio.to_thread(self.load)
        return self.get(ui)

    def records(self) -> dict[str, dict[str, Any]]:
        """Every record of the file by descriptor UI, as read (loads the file if needed)."""
        self.load()
        assert self._rows is not None
        return self._rows

    def by_tree_number(self, number: str) -> MeshDescriptor | None:
        """The descriptor at a tree number ("C10.228.140.490"), or None."""
        self.load()
        if self._trees is None:
            self._trees = {t: ui for ui, row in self.records().items() for t in row.get("tree_numbers") or []}
        ui = self._trees.get(number)
        return self._descriptor(ui) if ui else None

    def __len__(self) -> int:
        self.load()
        return len(self._rows or {})


__all__ = [
    "MeshClient",
    "MeshFile",
    "MeshSource",
    "descriptor_from_summary",
    "normalize_ui",
    "parse_esummary_xml",
    "uid_to_ui",
]
