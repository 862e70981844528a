"""MeSH: E-utilities `db=mesh` (esearch + esummary JSON) and the NLM MeSH RDF lookup API.

There is no real recording of these JSON answers (fixtures/SOURCES.md, "Gaps"), so they are built
from the shapes in API_NOTES.md §2 over the real MeSH 2024 descriptor table in the shared data
(headings, entry terms, tree numbers). Descriptor UI D006973 has the E-utilities UID 68006973.
Scope notes are not in that table; the fake says so in the note it returns.
"""

from __future__ import annotations

import gzip
import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from starlette.responses import Response

from evals.fake_sources.context import Ctx, json_response, text_response
from evals.fake_sources.universe import stable_hash
from evals.paths import DATA

MESH_FILE = DATA / "mesh" / "mesh2024_descriptors.jsonl.gz"
RDF = "http://id.nlm.nih.gov/mesh/"


@dataclass
class MeshTable:
    records: dict[str, dict[str, Any]] = field(default_factory=dict)  # ui -> record
    by_term: dict[str, list[str]] = field(default_factory=dict)  # casefolded term -> uis
    by_tree: dict[str, str] = field(default_factory=dict)  # tree number -> ui

    def search(self, term: str) -> list[str]:
        """UIs for a term: exact heading/entry-term matches first, else descriptors containing every word."""
        text = re.sub(r"\[[^\]]*\]", " ", term).replace('"', " ")
        text = re.sub(r"\s+", " ", text).strip().casefold()
        if not text:
            return []
        exact = self.by_term.get(text)
        if exact:
            return list(dict.fromkeys(exact))
        words = text.split()
        hits = [
            ui for ui, record in self.records.items() if all(w in record["heading"].casefold() for w in words)
        ]
        hits.sort(key=lambda ui: (len(self.records[ui]["heading"]), ui))
        return hits[:20]


_table: MeshTable | None = None
_table_lock = threading.Lock()


def table() -> MeshTable:
    """The MeSH table, read on first use (half a second) and then kept for the process."""
    global _table
    with _table_lock:
        if _table is None:
            loaded = MeshTable()
            if MESH_FILE.is_file():
                with gzip.open(MESH_FILE, "rt", encoding="utf-8") as handle:
                    for line in handle:
                        record = json.loads(line)
                        ui = record["ui"]
                        loaded.records[ui] = record
                        for term in [
                            record["heading"],
                            *record.get("entry_terms", []),
                            *record.get("permuted_terms", []),
                        ]:
                            loaded.by_term.setdefault(term.casefold(), []).append(ui)
                        for tree in record.get("tree_numbers", []):
                            loaded.by_tree[tree] = ui
            _table = loaded
        return _table


def uid_of(ui: str) -> str:
    return "68" + ui[1:]


def ui_of(uid: str) -> str | None:
    return "D" + uid[2:] if uid.startswith("68") else None


async def handle(ctx: Ctx) -> Response:
    path = ctx.path.strip("/")
    lower = path.lower()
    if lower == "esearch.fcgi":
        return esearch(ctx)
    if lower == "esummary.fcgi":
        return esummary(ctx)
    if lower == "lookup/descriptor":
        return lookup_descriptor(ctx)
    if lower == "lookup/details":
        return lookup_details(ctx)
    match = re.fullmatch(r"(D\d+)(?:\.json)?", path)
    if match:
        return descriptor_jsonld(match.group(1))
    return text_response("Not Found", 404)


def esearch(ctx: Ctx) -> Response:
    term = ctx.get("term").strip()
    if not term:
        return json_response(
            {
                "header": {"type": "esearch", "version": "0.3"},
                "esearchresult": {"ERROR": "Empty term and query_key - nothing todo"},
            }
        )
    uis = table().search(term)
    retstart = max(0, ctx.get_int("retstart", 0))
    retmax = ctx.get_int("retmax", 20)
    uids = [uid_of(ui) for ui in uis]
    result: dict[str, Any] = {
        "count": str(len(uids)),
        "retmax": str(len(uids[retstart : retstart + retmax])),
        "retstart": str(retstart),
        "idlist": uids[retstart : retstart + retmax],
        "translationset": [],
        "querytranslation": f"{term}[All Fields]",
    }
    if not uids:
        phrase = term.strip('"')
        result["errorlist"] = {"phrasesnotfound": [phrase], "fieldsnotfound": []}
        result["warninglist"] = {
            "phrasesignored": [],
            "quotedphrasesnotfound": [],
            "outputmessages": ["No items found."],
        }
    return json_response({"header": {"type": "esearch", "version": "0.3"}, "esearchresult": result})


def esummary(ctx: Ctx) -> Response:
    ids = [i for i in re.split(r"[\s,]+", ctx.get("id")) if i]
    if not ids:
        return json_response(
            {"header": {"type": "esummary", "version": "0.3"}, "error": "Empty id list - nothing todo"}
        )
    mesh = table()
    result: dict[str, Any] = {"uids": []}
    for uid in ids:
        ui = ui_of(uid)
        record = mesh.records.get(ui) if ui else None
        result["uids"].append(uid)
        if record is None:
            result[uid] = {"uid": uid, "error": "cannot get document summary"}
            continue
        links = []
        for tree in record.get("tree_numbers", []):
            parent_tree = tree.rsplit(".", 1)[0] if "." in tree else None
            parent = mesh.by_tree.get(parent_tree) if parent_tree else None
            links.append({"parent": uid_of(parent) if parent else "", "treenum": tree, "children": []})
        result[uid] = {
            "uid": uid,
            "ds_meshui": record["ui"],
            "ds_meshterms": [record["heading"], *record.get("entry_terms", [])],
            "ds_scopenote": f"{record['heading']}: scope note not available offline (generated by the fake server).",
            "ds_idxlinks": links,
            "ds_recordtype": "",
            "ds_yearintroduced": "",
            "ds_subheading": [],
        }
    return json_response({"header": {"type": "esummary", "version": "0.3"}, "result": result})


def lookup_descriptor(ctx: Ctx) -> Response:
    label = ctx.get("label").strip()
    match = ctx.get("match", "exact").lower()
    limit = max(1, ctx.get_int("limit", 10))
    mesh = table()
    wanted = label.casefold()
    if not wanted:
        return json_response([])
    if match == "exact":
        uis = [ui for ui, r in mesh.records.items() if r["heading"].casefold() == wanted]
    elif match == "startswith":
        uis = [ui for ui, r in mesh.records.items() if r["heading"].casefold().startswith(wanted)]
    else:
        uis = [ui for ui, r in mesh.records.items() if wanted in r["heading"].casefold()]
    return json_response([{"resource": RDF + ui, "label": mesh.records[ui]["heading"]} for ui in uis[:limit]])


def lookup_details(ctx: Ctx) -> Response:
    ui = ctx.get("descriptor").rsplit("/", 1)[-1]
    record = table().records.get(ui)
    if record is None:
        return json_response({"descriptor": RDF + ui, "qualifiers": [], "terms": [], "seealso": []})
    terms = [
        {"resource": RDF + _term_ui(ui, record["heading"]), "label": record["heading"], "preferred": True}
    ]
    terms += [
        {"resource": RDF + _term_ui(ui, t), "label": t, "preferred": False}
        for t in record.get("entry_terms", [])
    ]
    return json_response({"descriptor": RDF + ui, "qualifiers": [], "terms": terms, "seealso": []})


def descriptor_jsonld(ui: str) -> Response:
    record = table().records.get(ui)
    if record is None:
        return text_response("Not Found", 404)
    return json_response(
        {
            "@context": "http://id.nlm.nih.gov/mesh/jsonld-context.json",
            "@id": RDF + ui,
            "@type": "TopicalDescriptor",
            "identifier": ui,
            "label": {"@language": "en", "@value": record["heading"]},
            "treeNumber": [RDF + t for t in record.get("tree_numbers", [])],
        }
    )


def _term_ui(ui: str, term: str) -> str:
    # Term UIs are not in the shared table; a stable invented one keeps the shape.
    return f"T{stable_hash(ui, term) % 1_000_000:06d}"
