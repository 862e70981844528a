"""The recorded real responses in the shared fixtures, indexed for replay.

Two kinds of index:
- whole interactions, matched by service, path and the parameters that select the answer (secrets,
  `fields`/`select`-like and page-size parameters are ignored, so a client that asks for other fields
  still gets the recording). Several recordings of one exact request replay in order (Semantic
  Scholar's 429, 429, 200) and then repeat the last;
- records by id (PubMed articles by PMID, OpenAlex works by W-id and DOI, Semantic Scholar papers by
  paperId and DOI, Unpaywall records by DOI, Wikidata entities by id), so a service can mix recorded
  and generated records in one answer (an efetch of one recorded and one generated PMID).

The files are read once per process, never copied.
"""

from __future__ import annotations

import json
import re
import threading
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from agent.settings import DEFAULT_BASE_URLS

# parameters that never change which recording answers a request
IGNORED_PARAMS = frozenset(
    {
        "tool", "email", "api_key", "mailto", "key", "fields", "retmax", "usehistory", "limit",
        "per_page", "per-page", "pagesize", "fake_fault", "fake_total", "formatversion", "rdlimit", "languages",
        "props", "redirects", "exintro", "inprop", "pithumbsize", "pllimit", "ppprop", "rnlimit", "rnnamespace",
        "list", "prop", "format",
    }
)  # fmt: skip
# ... except for these services, where the format really changes the body
FORMAT_MATTERS = frozenset({"europepmc", "zotero"})
_HOP_HEADERS = frozenset(
    {"content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"}
)


BODY_PARAM = "__json_body__"  # a JSON request body takes part in matching as this pseudo-parameter


def canonical_body(body: Any) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Recorded:
    file: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


def normalise_path(path: str) -> str:
    path = unquote(path).rstrip("/") or "/"
    path = re.sub(r"/(users|groups)/[^/]+", r"/\1/ID", path)
    return path.lower()


def selecting(service: str, params: Mapping[str, str], *, loose: bool) -> tuple[tuple[str, str], ...]:
    """The parameters that decide the answer (all but secrets when `loose` is False)."""
    out = []
    for name, value in params.items():
        lname = name.lower()
        if lname in {"api_key", "email", "mailto", "tool", "key", "fake_fault", "fake_total"}:
            continue
        if loose and lname in IGNORED_PARAMS and not (lname == "format" and service in FORMAT_MATTERS):
            continue
        if lname == "fields":
            value = ",".join(sorted(v.strip() for v in value.split(",")))
        out.append((lname, value.strip()))
    return tuple(sorted(out))


def _headers(raw: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    out = []
    for name, value in raw.items():
        if name.lower() in _HOP_HEADERS:
            continue
        out.append((name.lower(), ", ".join(value) if isinstance(value, list) else str(value)))
    return tuple(out)


def _services_for_url(url: str) -> list[tuple[str, str]]:
    """(service, path below the service's base URL) for every service whose base URL prefixes `url`."""
    parts = urlsplit(url)
    found = []
    for service, base in DEFAULT_BASE_URLS.items():
        b = urlsplit(base)
        if parts.netloc == b.netloc and parts.path.startswith(b.path):
            found.append((service, parts.path[len(b.path) :] or "/"))
    if any(s == "pubmed" for s, _ in found):  # E-utilities serve db=mesh too
        found.append(("mesh", dict(found)["pubmed"]))
    return found


_ENTRY = re.compile(
    r"- \*\*`(?P<file>[^`]+)`\*\*.*?- request: `(?P<method>GET|POST) (?P<url>https?://\S+?)[`\s]", re.S
)


class Recordings:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.exact: dict[tuple[str, str, tuple[tuple[str, str], ...]], list[Recorded]] = defaultdict(list)
        self.loose: dict[tuple[str, str, tuple[tuple[str, str], ...]], list[Recorded]] = defaultdict(list)
        self.pubmed_articles: dict[str, str] = {}
        self.openalex_works: dict[str, dict[str, Any]] = {}
        self.openalex_entities: dict[tuple[str, str], dict[str, Any]] = {}
        self.s2_papers: dict[str, dict[str, Any]] = {}
        self.unpaywall: dict[str, dict[str, Any]] = {}
        self.wikidata_entities: dict[str, dict[str, Any]] = {}
        self.openalex_not_found: Recorded | None = None
        self._lock = threading.Lock()
        if root.is_dir():
            self._load()

    # -- matching ----------------------------------------------------------------------------------

    def match(
        self, service: str, path: str, params: Mapping[str, str], played: dict[Any, int]
    ) -> Recorded | None:
        """The recording answering this request; `played` counts replays per exact request (per server)."""
        npath = normalise_path(path)
        key = (service, npath, selecting(service, params, loose=False))
        sequence = self.exact.get(key)
        if sequence:
            with self._lock:
                index = min(played.get(key, 0), len(sequence) - 1)
                played[key] = played.get(key, 0) + 1
            return sequence[index]
        candidates = self.loose.get((service, npath, selecting(service, params, loose=True)))
        if not candidates:
            return None
        return next((c for c in candidates if c.status < 300), candidates[-1])

    # -- loading ------------------------------------------------------------------------------------

    def _load(self) -> None:
        requests_of_bodies = self._requests_from_sources_md()
        for path in sorted(self.root.glob("*/*")):
            if path.suffix not in (".json", ".xml") or path.parent.name == "crossref":
                continue
            rel = f"{path.parent.name}/{path.name}"
            if path.suffix == ".xml":
                text = path.read_text(encoding="utf-8")
                self._index_records(path.parent.name, text)
                request = requests_of_bodies.get(rel)
                if request:
                    self._add(
                        rel, request[1], 200, (("content-type", "text/xml; charset=UTF-8"),), text.encode()
                    )
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and "body_format" in data:
                body = data["body"]
                raw = (
                    json.dumps(body, ensure_ascii=False).encode()
                    if data["body_format"] == "json"
                    else body.encode()
                )
                headers = _headers(data.get("headers") or {})
                if data["body_format"] == "json" and not any(k == "content-type" for k, _ in headers):
                    headers += (("content-type", "application/json"),)
                url = data["request"]["url"]
                form = data["request"].get("body")
                extra: dict[str, str] = {}
                if isinstance(form, str) and form.lstrip().startswith("{"):
                    extra[BODY_PARAM] = canonical_body(json.loads(form))
                elif isinstance(form, str) and "=" in form:
                    url = url + ("&" if "?" in url else "?") + form
                self._add(rel, url, int(data["status"]), headers, raw, extra)
                self._index_records(path.parent.name, body, file=path.name)
                if rel == "openalex/pqa_openalex_404_html.json":
                    self.openalex_not_found = Recorded(rel, int(data["status"]), headers, raw)
            else:
                self._index_records(path.parent.name, data, file=path.name)
                request = requests_of_bodies.get(rel)
                if request:
                    raw = json.dumps(data, ensure_ascii=False).encode()
                    self._add(rel, request[1], 200, (("content-type", "application/json"),), raw)

    def _requests_from_sources_md(self) -> dict[str, tuple[str, str]]:
        sources = self.root / "SOURCES.md"
        if not sources.is_file():
            return {}
        text = sources.read_text(encoding="utf-8")
        out = {}
        for entry in re.split(r"\n(?=- \*\*`)", text):
            match = _ENTRY.search(entry + " ")
            if match:
                out[match["file"]] = (match["method"], match["url"])
        return out

    def _add(
        self,
        rel: str,
        url: str,
        status: int,
        headers: tuple[tuple[str, str], ...],
        body: bytes,
        extra: dict[str, str] | None = None,
    ) -> None:
        query = urlsplit(url).query
        params = {**dict(parse_qsl(query, keep_blank_values=True)), **(extra or {})}
        record = Recorded(rel, status, headers, body)
        for service, path in _services_for_url(url):
            npath = normalise_path(path)
            self.exact[(service, npath, selecting(service, params, loose=False))].append(record)
            self.loose[(service, npath, selecting(service, params, loose=True))].append(record)

    def _index_records(self, folder: str, body: Any, *, file: str = "") -> None:
        if folder == "pubmed" and isinstance(body, str):
            for match in re.finditer(r"<(PubmedArticle|PubmedBookArticle)>.*?</\1>", body, re.S):
                pmid = re.search(r"<PMID[^>]*>(\d+)</PMID>", match.group(0))
                if pmid:
                    self.pubmed_articles[pmid.group(1)] = match.group(0)
        elif folder == "openalex" and isinstance(body, dict):
            for work in _openalex_works(body):
                self.openalex_works[work["id"].rsplit("/", 1)[-1].lower()] = work
                if work.get("doi"):
                    self.openalex_works["doi:" + work["doi"].lower().removeprefix("https://doi.org/")] = work
            entity_id = str(body.get("id", ""))
            for kind in ("institutions", "concepts", "topics", "keywords"):
                if (
                    f"/{kind}/" in entity_id
                    or (kind == "institutions" and "/I" in entity_id)
                    or (kind == "concepts" and "/C" in entity_id)
                    or (kind == "topics" and "/T" in entity_id)
                ):
                    self.openalex_entities[(kind, entity_id.rsplit("/", 1)[-1].lower())] = body
                    break
        elif (
            folder == "semantic_scholar"
            and isinstance(body, dict)
            and body.get("paperId")
            and "_doi_" in file
        ):
            self.s2_papers[body["paperId"].lower()] = body
            doi = (body.get("externalIds") or {}).get("DOI")
            if doi:
                self.s2_papers["doi:" + doi.lower()] = body
        elif folder == "unpaywall" and isinstance(body, dict) and body.get("doi"):
            self.unpaywall[body["doi"].lower()] = body
        elif folder == "wikidata" and isinstance(body, dict):
            entities = body.get("entities") if "entities" in body else {body.get("id", ""): body}
            for entity_id, entity in (entities or {}).items():
                if entity_id and isinstance(entity, dict) and "missing" not in entity:
                    self.wikidata_entities[entity_id.upper()] = entity


def _openalex_works(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if str(body.get("id", "")).startswith("https://openalex.org/W") and "title" in body:
        yield body
    for work in body.get("results") or []:
        if isinstance(work, dict) and str(work.get("id", "")).startswith("https://openalex.org/W"):
            yield work


@lru_cache(maxsize=4)
def recordings(root: Path) -> Recordings:
    return Recordings(root)
