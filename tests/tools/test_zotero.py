"""The Zotero client against responses in the Zotero API's recorded shapes (pyzotero's captures of
api.zotero.org in /work/shared/fixtures/zotero); full-text records in the documented shape."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.paths import FIXTURES
from tests.tools.test_pdftext import BODY, make_pdf
from tools.zotero import ZoteroAuthError, ZoteroClient, ZoteroError, ZoteroItem, ZoteroLibrary

Z = FIXTURES / "zotero"
TOP = json.loads((Z / "pyzotero_items_top_user475425.json").read_text(encoding="utf-8"))
SINGLE = json.loads((Z / "pyzotero_item_single.json").read_text(encoding="utf-8"))
ATTACHMENT = json.loads((Z / "pyzotero_attachment_item.json").read_text(encoding="utf-8"))
KEY = "secret-key-123"


def pdf_attachment(key: str, parent: str) -> dict[str, Any]:
    record = json.loads(json.dumps(ATTACHMENT))
    record["key"] = key
    record["data"].update(key=key, parentItem=parent, contentType="application/pdf", linkMode="imported_file")
    return record


def transport(seen: list[httpx.Request], *, fulltext: bool = True) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        path = request.url.path
        if request.headers.get("Zotero-API-Key") not in (None, KEY):
            return httpx.Response(403, text="Invalid key")
        if path == "/users/475425/items/top":
            start = int(request.url.params.get("start", 0))
            return httpx.Response(200, json=TOP[start : start + int(request.url.params["limit"])])
        if path == "/users/475425/items/X42A7DEE":
            return httpx.Response(200, json=SINGLE)
        if path == "/users/475425/items/X42A7DEE/children":
            return httpx.Response(200, json=[ATTACHMENT, pdf_attachment("PDF00001", "X42A7DEE")])
        if path.endswith("/children"):  # an item without attachments
            return httpx.Response(200, json=[])
        if path == "/users/475425/items/PDF00001/fulltext" and fulltext:
            text = "\n".join(BODY)
            return httpx.Response(200, json={"content": text, "indexedPages": 1, "totalPages": 1})
        if path == "/users/475425/items/PDF00001/file":
            return httpx.Response(200, content=make_pdf(BODY), headers={"content-type": "application/pdf"})
        return httpx.Response(404, text="Not found")

    return httpx.MockTransport(handler)


def client(http: httpx.AsyncClient, key: str | None = KEY) -> ZoteroClient:
    return ZoteroClient(http, library=ZoteroLibrary.parse("users/475425"), api_key=key)


async def test_items_children_and_headers():
    seen: list[httpx.Request] = []
    async with httpx.AsyncClient(transport=transport(seen)) as http:
        items = await client(http).items()
        assert len(items) == len(TOP) and items[0].key == "NM66T6EF" and items[0].children == 2
        book = await client(http).item("X42A7DEE")
        assert book.item_type == "book" and book.title.startswith("Electron Microscopy and Analysis 1993")
        assert "Institute of Physics (Great Britain)" in book.creators
        children = await client(http).children("X42A7DEE")
        assert [c.key for c in children] == ["TM8QRS36", "PDF00001"] and children[1].is_pdf
    assert seen[0].headers["Zotero-API-Version"] == "3" and seen[0].headers["Zotero-API-Key"] == KEY
    assert seen[0].url.params["format"] == "json"


async def test_item_fulltext_prefers_the_index_then_the_pdf():
    async with httpx.AsyncClient(transport=transport([])) as http:
        blocks, how = await client(http).item_fulltext("X42A7DEE")
        assert how == "Zotero full-text index (PDF00001)" and [b.kind for b in blocks][:2] == [
            "introduction",
            "methods",
        ]
    async with httpx.AsyncClient(transport=transport([], fulltext=False)) as http:
        blocks, how = await client(http).item_fulltext("X42A7DEE")
        assert how == "Zotero PDF attachment (PDF00001)" and any(b.kind == "results" for b in blocks)
        assert await client(http).item_fulltext("NM66T6EF") == ([], "No attachment")


async def test_a_wrong_key_names_the_setting_never_the_key():
    async with httpx.AsyncClient(transport=transport([])) as http:
        with pytest.raises(ZoteroAuthError) as caught:
            await client(http, key="wrong").items()
    message = str(caught.value)
    assert "zotero_api_key" in message and "users/475425" in message and "wrong" not in message


def test_library_setting_is_checked():
    assert ZoteroLibrary.parse("groups/123").prefix == "/groups/123"
    with pytest.raises(ZoteroError, match="users/<id>"):
        ZoteroLibrary.parse("475425")


def test_doi_comes_from_the_field_or_from_extra():
    record = {
        "key": "A",
        "data": {"key": "A", "itemType": "journalArticle", "title": "T", "extra": "DOI: 10.1000/XYZ"},
    }
    assert ZoteroItem.from_json(record).doi == "10.1000/xyz"


async def test_local_api_uses_user_0_and_no_key():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=TOP[:2])

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        items = await ZoteroClient.local_api(http).items()
    assert (
        len(items) == 2 and seen[0].url.host == "localhost" and seen[0].url.path == "/api/users/0/items/top"
    )
    assert "Zotero-API-Key" not in seen[0].headers
