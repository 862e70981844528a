"""MeSH lookups: E-utilities db=mesh, the NLM MeSH RDF lookup API as the alternative, and the offline file.

MeSH has almost no real recording in ../shared/fixtures: only an XML esummary of a supplementary
concept record (mesh/eutilsjson_esummary_mesh_uid_67414177_v2_xml.json) and one RDF
lookup/descriptor answer (mesh/diseaseweb_mesh_lookup_descriptor_diabetes_mellitus_exact.json).
Both are replayed as recorded. Every other response below is BUILT by hand from the shapes in
../shared/fixtures/API_NOTES.md section 2 (esearch/esummary JSON, lookup/details), not recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.paths import DATA, FIXTURES
from tools.errors import BadQuery, BadResponse, EmptyQuery, NotFound, SourceUnavailable
from tools.http import HttpPolicy, SourceConfig
from tools.mesh import MeshClient, MeshFile, normalize_ui, parse_esummary_xml, uid_to_ui

EUTILS = "https://eutils.test/entrez/eutils"
RDF = "https://id.test/mesh"
MESH_FIXTURES = FIXTURES / "mesh"
MESH_FILE = DATA / "mesh" / "mesh2024_descriptors.jsonl.gz"


def wrapped(name: str) -> httpx.Response:
    """Replay a wrapped recording ({"status", "headers", "body_format", "body"}, see SOURCES.md)."""
    record = json.loads((MESH_FIXTURES / name).read_text())
    content = (
        json.dumps(record["body"]).encode() if record["body_format"] == "json" else record["body"].encode()
    )
    return httpx.Response(record["status"], content=content)


# -- built from API_NOTES.md (not recorded) ------------------------------------------------------

HYPERTENSION = {
    "uid": "68006973",
    "ds_meshui": "D006973",
    "ds_meshterms": ["Hypertension", "High Blood Pressure", "Blood Pressure, High", "hypertension"],
    "ds_scopenote": "Persistently high systemic arterial BLOOD PRESSURE.",
    "ds_idxlinks": [{"parent": 68014652, "treenum": "C14.907.489", "children": [68006974, 68006977]}],
    "ds_recordtype": "",
}
PREHYPERTENSION = {
    "uid": "68058666",
    "ds_meshui": "D058666",
    "ds_meshterms": ["Prehypertension", "Pre-hypertension"],
    "ds_scopenote": "A condition in which blood pressure is elevated above normal.",
    "ds_idxlinks": [{"parent": 68006973, "treenum": "C14.907.489.631", "children": []}],
}
SCR = {  # a supplementary concept record: numeric uid 67…, not a descriptor
    "uid": "67414177",
    "ds_meshui": "C414177",
    "ds_meshterms": ["SLC7A2 protein, human"],
    "ds_idxlinks": [{"parent": 1000048, "treenum": "@3065", "children": []}],
}
DOCS = {doc["uid"]: doc for doc in (HYPERTENSION, PREHYPERTENSION, SCR)}


def esearch(ids: list[str]) -> httpx.Response:
    return httpx.Response(
        200,
        json={
            "header": {"type": "esearch", "version": "0.3"},
            "esearchresult": {
                "count": str(len(ids)),
                "retmax": str(len(ids)),
                "retstart": "0",
                "idlist": ids,
            },
        },
    )


def esummary(uids: list[str]) -> httpx.Response:
    result: dict[str, object] = {"uids": uids}
    for uid in uids:
        result[uid] = DOCS.get(uid, {"uid": uid, "error": "cannot get document summary"})
    return httpx.Response(200, json={"header": {"type": "esummary", "version": "0.3"}, "result": result})


DIABETES_DETAILS = {
    "descriptor": "http://id.nlm.nih.gov/mesh/D003920",
    "qualifiers": [{"resource": "http://id.nlm.nih.gov/mesh/Q000097", "label": "blood"}],
    "terms": [
        {"resource": "http://id.nlm.nih.gov/mesh/T011877", "label": "Diabetes Mellitus", "preferred": True},
    ],
    "seealso": [],
}
APOPTOSIS_DETAILS = {
    "descriptor": "http://id.nlm.nih.gov/mesh/D017209",
    "qualifiers": [],
    "terms": [
        {
            "resource": "http://id.nlm.nih.gov/mesh/T000001",
            "label": "Programmed Cell Death, Type I",
            "preferred": False,
        },
        {"resource": "http://id.nlm.nih.gov/mesh/T000002", "label": "Apoptosis", "preferred": True},
        {"resource": "http://id.nlm.nih.gov/mesh/T000003", "label": "Classic Apoptosis", "preferred": False},
    ],
    "seealso": [],
}


# -- plumbing --------------------------------------------------------------------------------------


class Server:
    """Routes requests to handlers by path suffix and records them."""

    def __init__(self, routes: dict[str, Callable[[httpx.Request], httpx.Response]]) -> None:
        self.routes = routes
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        for suffix, handler in self.routes.items():
            if request.url.path.endswith(suffix):
                return handler(request)
        return httpx.Response(404, json={"error": f"no route for {request.url.path}"})

    def paths(self) -> list[str]:
        return [r.url.path.rsplit("/", 1)[-1] for r in self.requests]


def policy(server: Server, service: str, base_url: str) -> HttpPolicy:
    client = httpx.AsyncClient(transport=httpx.MockTransport(server))
    return HttpPolicy(
        client, SourceConfig(service=service, base_url=base_url, rate=1000, backoff=0.01, retries=1)
    )


def eutils_server(ids: list[str]) -> Server:
    return Server(
        {
            "esearch.fcgi": lambda request: esearch(ids),
            "esummary.fcgi": lambda request: esummary(request.url.params["id"].split(",")),
        }
    )


def rdf_server() -> Server:
    def descriptor(request: httpx.Request) -> httpx.Response:
        label, match = request.url.params["label"], request.url.params["match"]
        if label.lower() == "diabetes mellitus" and match == "exact":
            return wrapped(
                "diseaseweb_mesh_lookup_descriptor_diabetes_mellitus_exact.json"
            )  # the real recording
        if label.lower() == "cell suicide" and match == "contains":
            return httpx.Response(
                200, json=[{"resource": "http://id.nlm.nih.gov/mesh/D017209", "label": "Apoptosis"}]
            )
        return httpx.Response(200, json=[])

    def details(request: httpx.Request) -> httpx.Response:
        found = {"D003920": DIABETES_DETAILS, "D017209": APOPTOSIS_DETAILS}.get(
            request.url.params["descriptor"]
        )
        return httpx.Response(200, json=found) if found else httpx.Response(404, text="Not Found")

    return Server({"lookup/descriptor": descriptor, "lookup/details": details})


# ----------------------------------------------------------------------------------------------
# E-utilities
# ----------------------------------------------------------------------------------------------


def test_uid_and_ui_conversions() -> None:
    assert uid_to_ui("68003920") == "D003920" and uid_to_ui("67414177") == "C414177"
    assert uid_to_ui("68000086382") == "D000086382" and uid_to_ui("12345") is None
    assert normalize_ui("d003920") == "D003920" and normalize_ui("68003920") == "D003920"
    assert normalize_ui("http://id.nlm.nih.gov/mesh/D017209") == "D017209"
    assert normalize_ui("C414177") is None and normalize_ui("diabetes") is None


async def test_lookup_through_eutils_maps_the_esummary_record() -> None:
    server = eutils_server(["67414177", "68058666", "68006973"])
    client = MeshClient(policy(server, "mesh", EUTILS), api_key="K3Y")
    (found,) = await client.lookup("High Blood Pressure", limit=1)
    # the exact entry-term match wins over esearch's first descriptor; the SCR is never summarised
    assert found.ui == "D006973" and found.heading == "Hypertension"
    assert found.entry_terms == ["High Blood Pressure", "Blood Pressure, High"]  # heading repeat dropped
    assert found.tree_numbers == ["C14.907.489"]
    assert found.scope_note == "Persistently high systemic arterial BLOOD PRESSURE."
    search, summary = server.requests
    assert search.url.params["db"] == "mesh" and search.url.params["term"] == "High Blood Pressure"
    assert search.url.params["retmode"] == "json" and search.url.params["api_key"] == "K3Y"
    assert summary.url.params["id"] == "68058666,68006973"

    both = await client.lookup("hypertension", limit=3)
    assert [d.ui for d in both] == ["D006973", "D058666"]


async def test_lookup_without_descriptors_is_empty_and_empty_terms_are_refused() -> None:
    server = eutils_server(["67414177"])
    client = MeshClient(policy(server, "mesh", EUTILS))
    assert await client.lookup("SLC7A2 protein, human") == []
    assert server.paths() == ["esearch.fcgi"]
    with pytest.raises(EmptyQuery):
        await client.lookup("  ")
    assert len(server.requests) == 1


def test_recorded_xml_esummary_of_a_supplementary_record() -> None:
    docs = parse_esummary_xml(wrapped("eutilsjson_esummary_mesh_uid_67414177_v2_xml.json").content, "mesh")
    (doc,) = docs
    assert doc["uid"] == "67414177" and doc["ds_scopenote"] == "RefSeq NM_003046"
    assert doc["ds_meshterms"][0] == "SLC7A2 protein, human" and len(doc["ds_meshterms"]) == 5
    assert doc["ds_idxlinks"] == [{"treenum": "@3065"}]


async def test_recorded_xml_esummary_through_the_client_yields_no_descriptor() -> None:
    server = Server(
        {
            "esearch.fcgi": lambda request: esearch(["68026923"]),
            "esummary.fcgi": lambda request: wrapped("eutilsjson_esummary_mesh_uid_67414177_v2_xml.json"),
        }
    )
    client = MeshClient(policy(server, "mesh", EUTILS))
    assert await client.lookup("CAT-2 transporter, human") == []  # an SCR is not a descriptor


async def test_descriptor_by_ui() -> None:
    server = eutils_server([])
    client = MeshClient(policy(server, "mesh", EUTILS))
    hypertension = await client.descriptor("D006973")
    assert hypertension.heading == "Hypertension"
    assert server.requests[0].url.params["id"] == "68006973"
    with pytest.raises(NotFound, match="MeSH has no descriptor D999999"):
        await client.descriptor("68999999")
    with pytest.raises(BadQuery):
        await client.descriptor("hypertension")


async def test_malformed_esummary_is_a_bad_response() -> None:
    server = Server(
        {
            "esearch.fcgi": lambda request: esearch(["68006973"]),
            "esummary.fcgi": lambda request: httpx.Response(200, json={"header": {}}),
        }
    )
    with pytest.raises(BadResponse, match="no 'result'"):
        await MeshClient(policy(server, "mesh", EUTILS)).lookup("hypertension")


# ----------------------------------------------------------------------------------------------
# the RDF lookup API as the alternative
# ----------------------------------------------------------------------------------------------


async def test_rdf_api_answers_when_eutils_fails() -> None:
    broken = Server({"": lambda request: httpx.Response(503, text="Service Unavailable")})
    rdf = rdf_server()
    client = MeshClient(policy(broken, "mesh", EUTILS), rdf=policy(rdf, "mesh_rdf", RDF))
    (found,) = await client.lookup("Diabetes Mellitus")
    assert found.ui == "D003920" and found.heading == "Diabetes Mellitus" and found.entry_terms == []
    assert found.tree_numbers == [] and found.scope_note == ""  # the RDF lookup API carries neither
    assert rdf.paths() == ["descriptor", "details"]
    assert rdf.requests[0].url.params["match"] == "exact"
    assert rdf.requests[1].url.params["descriptor"] == "D003920"


async def test_rdf_api_answers_when_eutils_finds_nothing_and_falls_back_to_contains() -> None:
    rdf = rdf_server()
    client = MeshClient(policy(eutils_server([]), "mesh", EUTILS), rdf=policy(rdf, "mesh_rdf", RDF))
    (found,) = await client.lookup("cell suicide")
    assert found.ui == "D017209" and found.heading == "Apoptosis"
    assert found.entry_terms == ["Programmed Cell Death, Type I", "Classic Apoptosis"]
    assert [r.url.params.get("match") for r in rdf.requests] == ["exact", "contains", None]
    assert await client.lookup("no such thing at all") == []


async def test_without_rdf_an_eutils_failure_is_raised_and_with_both_failing_the_first_error() -> None:
    broken = Server({"": lambda request: httpx.Response(503, text="Service Unavailable")})
    with pytest.raises(SourceUnavailable, match="mesh: HTTP 503"):
        await MeshClient(policy(broken, "mesh", EUTILS)).lookup("diabetes")
    rdf_down = Server({"": lambda request: httpx.Response(500, text="oops")})
    client = MeshClient(policy(broken, "mesh", EUTILS), rdf=policy(rdf_down, "mesh_rdf", RDF))
    with pytest.raises(SourceUnavailable) as caught:
        await client.lookup("diabetes")
    assert caught.value.service == "mesh" and caught.value.__cause__ is not None


async def test_descriptor_falls_back_to_rdf_when_eutils_fails() -> None:
    broken = Server({"": lambda request: httpx.Response(502, text="Bad Gateway")})
    client = MeshClient(policy(broken, "mesh", EUTILS), rdf=policy(rdf_server(), "mesh_rdf", RDF))
    apoptosis = await client.descriptor("D017209")
    assert apoptosis.heading == "Apoptosis" and "Classic Apoptosis" in apoptosis.entry_terms
    with pytest.raises(NotFound):
        await client.descriptor("D000001")


# ----------------------------------------------------------------------------------------------
# the offline file
# ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mesh_file() -> MeshFile:
    if not MESH_FILE.is_file():
        pytest.skip(f"MeSH descriptor file {MESH_FILE} is missing")
    table = MeshFile(MESH_FILE)
    table.load()
    return table


async def test_mesh_file_exact_case_insensitive_lookup(mesh_file: MeshFile) -> None:
    assert len(mesh_file) == 30_764
    (diabetes,) = await mesh_file.lookup("diabetes MELLITUS")
    assert diabetes.ui == "D003920" and diabetes.heading == "Diabetes Mellitus" and diabetes.entry_terms == []
    assert "C19.246" in diabetes.tree_numbers

    (bci,) = await mesh_file.lookup("brain machine interface")  # an entry term
    assert (
        bci.ui == "D062207"
        and bci.heading == "Brain-Computer Interfaces"
        and bci.tree_numbers == ["E07.305.076"]
    )
    assert "Brain Machine Interface" in bci.entry_terms
    assert [d.ui for d in await mesh_file.lookup("Interfaces, Brain-Computer")] == [
        "D062207"
    ]  # a permuted term
    (calcimycin,) = await mesh_file.lookup("a23187")
    assert calcimycin.ui == "D000001" and calcimycin.heading == "Calcimycin"

    assert await mesh_file.lookup("brain computer") == []  # exact, not contains
    with pytest.raises(EmptyQuery):
        await mesh_file.lookup(" ")


async def test_mesh_file_descriptor_by_ui(mesh_file: MeshFile) -> None:
    assert (await mesh_file.descriptor("68062207")).heading == "Brain-Computer Interfaces"
    with pytest.raises(NotFound):
        await mesh_file.descriptor("D999999")


async def test_mesh_file_missing_or_malformed(tmp_path: Path) -> None:
    with pytest.raises(SourceUnavailable, match="does not exist"):
        await MeshFile(tmp_path / "absent.jsonl.gz").lookup("x")
    bad = tmp_path / "mesh.jsonl"
    bad.write_text(
        '{"ui": "D000001", "heading": "Calcimycin", "entry_terms": ["A23187"], "tree_numbers": ["D02.355"]}\n'
        '{"ui": "D000002", "entry_terms": []}\n'
    )
    with pytest.raises(BadResponse, match="line 2"):
        await MeshFile(bad).lookup("Calcimycin")
    good = tmp_path / "small.jsonl"
    good.write_text(bad.read_text().splitlines()[0] + "\n")
    (calcimycin,) = await MeshFile(good).lookup("a23187")
    assert calcimycin.tree_numbers == ["D02.355"] and calcimycin.scope_note == ""
