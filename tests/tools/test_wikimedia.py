"""Wikidata and Wikipedia clients against the recorded responses in the shared fixtures (MockTransport).

There is no recording of `wbsearchentities`, of a MediaWiki error body, of `list=search`, or of a
redirect list long enough to need `rdcontinue`; those answers are built here from the shapes in the
fixtures' API_NOTES.md (or by splitting a recorded answer), and each such test says so.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.paths import FIXTURES
from tools.errors import BadQuery, EmptyQuery, NotFound, RateLimited
from tools.http import USER_AGENT, HttpPolicy, SourceConfig
from tools.wikidata import WikidataClient, entity_from_wikidata, guess_language
from tools.wikipedia import WikipediaClient, check_mediawiki, language_url

WIKIDATA = FIXTURES / "wikidata"
WIKIPEDIA = FIXTURES / "wikipedia"
WIKIDATA_BASE = "https://www.wikidata.test/w/api.php"
WIKIPEDIA_BASE = "https://en.wikipedia.org/w/api.php"  # the default: its language subdomain is swapped
AGENT = USER_AGENT.format(email="team@example.org")
Handler = Callable[[httpx.Request], httpx.Response]


def load(path: Any) -> tuple[int, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict) and "body_format" in data:
        return data["status"], data["body"]
    return 200, data


def body_of(path: Any) -> Any:
    return load(path)[1]


def entities_envelope(*entities: dict[str, Any]) -> dict[str, Any]:
    """A wbgetentities answer around entity objects (the wbsdk fixtures hold the entity alone)."""
    return {"entities": {e["id"]: e for e in entities}, "success": 1}


class Server:
    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.clients: list[httpx.AsyncClient] = []

    def policy(self, handler: Handler, service: str, base_url: str) -> HttpPolicy:
        def record(request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            return handler(request)

        http_client = httpx.AsyncClient(transport=httpx.MockTransport(record))
        self.clients.append(http_client)
        config = SourceConfig(
            service=service,
            base_url=base_url,
            rate=1000,
            backoff=0.01,
            retries=1,
            headers={"User-Agent": AGENT},
        )
        return HttpPolicy(http_client, config)

    def wikidata(self, handler: Handler) -> WikidataClient:
        return WikidataClient(self.policy(handler, "wikidata", WIKIDATA_BASE))

    def wikipedia(self, handler: Handler, base_url: str = WIKIPEDIA_BASE) -> WikipediaClient:
        return WikipediaClient(self.policy(handler, "wikipedia", base_url))


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    srv = Server()
    yield srv
    for client in srv.clients:
        await client.aclose()


def json_answer(body: Any) -> Handler:
    return lambda request: httpx.Response(200, json=body)


BOOK = body_of(WIKIDATA / "wbsdk_entity_Q571_book.json")
VERLA = body_of(WIKIDATA / "wbsdk_entity_Q217447_aliases_fi_fr_nb.json")


def search_answer(term: str, hits: list[tuple[str, str, str]]) -> dict[str, Any]:
    """A wbsearchentities answer in the documented shape (API_NOTES.md §8; no recording exists)."""
    return {
        "searchinfo": {"search": term},
        "search": [
            {
                "id": qid,
                "title": qid,
                "concepturi": f"http://www.wikidata.org/entity/{qid}",
                "label": label,
                "match": {"type": match, "language": "en", "text": label},
            }
            for qid, label, match in hits
        ],
        "success": 1,
    }


def wikidata_handler(term: str, hits: list[tuple[str, str, str]], *entities: dict[str, Any]) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        action = request.url.params["action"]
        if action == "wbsearchentities":
            return httpx.Response(200, json=search_answer(term, hits))
        asked = request.url.params["ids"].split("|")
        return httpx.Response(200, json=entities_envelope(*(e for e in entities if e["id"] in asked)))

    return handler


# ----------------------------------------------------------------------------------------------
# Wikidata
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in WIKIDATA.glob("*.json")))
async def test_every_wikidata_fixture_parses(server: Server, name: str) -> None:
    body = body_of(WIKIDATA / name)
    envelope = body if "entities" in body else entities_envelope(body)
    client = server.wikidata(json_answer(envelope))
    ids = list(envelope["entities"])
    entities = await client.get_entities(ids)
    present = [i for i, e in envelope["entities"].items() if "missing" not in e]
    assert [e.id for e in entities] == present


def test_entity_labels_and_aliases_in_english_and_chinese() -> None:
    book = entity_from_wikidata(BOOK)
    assert book is not None
    assert (book.id, book.label) == ("Q571", "book")
    assert book.description.startswith("medium for a collection of words")
    assert book.labels == {"en": "book", "zh": "图书"}
    assert book.aliases["en"] == ["books"]
    # zh aliases plus the labels of the other Chinese variants (traditional script)
    assert {"书", "书籍", "書籍"} <= set(book.aliases["zh"]) and "图书" not in book.aliases["zh"]
    assert book.names() == ["book", "图书", *book.aliases["en"], *book.aliases["zh"]]

    verla = entity_from_wikidata(VERLA)
    assert verla is not None and verla.aliases == {}  # aliases only in fi/fr/nb: none asked for
    assert verla.labels["zh"] == "韦尔拉磨木纸板厂"
    assert entity_from_wikidata({"id": "Q10908976", "missing": ""}) is None


async def test_search_entities_then_labels(server: Server) -> None:
    client = server.wikidata(
        wikidata_handler("book", [("Q571", "book", "label"), ("Q217447", "Verla", "alias")], BOOK, VERLA)
    )
    entities = await client.search_entities("book", limit=2)
    assert [(e.id, e.label, e.matched) for e in entities] == [
        ("Q571", "book", "label"),
        ("Q217447", "Verla", "alias"),
    ]
    search, get = server.requests
    assert search.url.params["action"] == "wbsearchentities"
    assert (search.url.params["search"], search.url.params["language"], search.url.params["type"]) == (
        "book",
        "en",
        "item",
    )
    assert get.url.params["ids"] == "Q571|Q217447"
    assert get.url.params["props"] == "labels|aliases|descriptions"
    assert {"en", "zh", "zh-hans", "zh-hant"} <= set(get.url.params["languages"].split("|"))
    assert all(r.headers["user-agent"] == AGENT for r in server.requests)


async def test_chinese_term_is_searched_in_chinese(server: Server) -> None:
    assert guess_language("书籍") == "zh" and guess_language("book") == "en"
    client = server.wikidata(wikidata_handler("书籍", [("Q571", "书籍", "alias")], BOOK))
    [book] = await client.search_entities("书籍")
    assert server.requests[0].url.params["language"] == "zh"
    assert book.label == "图书" and book.labels["en"] == "book"


async def test_aliases_of_the_best_match(server: Server) -> None:
    client = server.wikidata(wikidata_handler("Book", [("Q571", "book", "label")], BOOK))
    names = await client.aliases("Book")
    book = entity_from_wikidata(BOOK)
    assert book is not None
    # labels first, then aliases; the term itself (any case) is not its own alias
    assert names == ["图书", "books", *book.aliases["zh"]]
    assert {"书", "书籍"} <= set(names)
    assert server.requests[0].url.params["limit"] == "1"


async def test_no_hits_no_aliases(server: Server) -> None:
    client = server.wikidata(wikidata_handler("xyzzy", []))
    assert await client.aliases("xyzzy") == []
    assert len(server.requests) == 1  # nothing to fetch after an empty search


async def test_wikidata_empty_term_refused_before_any_request(server: Server) -> None:
    client = server.wikidata(json_answer({}))
    with pytest.raises(EmptyQuery, match="wikidata"):
        await client.search_entities("  ")
    with pytest.raises(EmptyQuery):
        await client.aliases("")
    assert server.requests == []


async def test_mediawiki_errors_arrive_as_http_200(server: Server) -> None:
    # error bodies in the documented shape (API_NOTES.md §8/§9); no recording exists
    bad = {"error": {"code": "param-missing", "info": "The parameter search is required."}, "servedby": "mw1"}
    client = server.wikidata(json_answer(bad))
    with pytest.raises(BadQuery, match=r"wikidata: rejected the request \(param-missing\)"):
        await client.search_entities("x")
    slow = {"error": {"code": "ratelimited", "info": "You've exceeded your rate limit."}}
    with pytest.raises(RateLimited, match="wikipedia"):
        check_mediawiki("wikipedia", slow)


# ----------------------------------------------------------------------------------------------
# Wikipedia
# ----------------------------------------------------------------------------------------------

DOUGLAS = WIKIPEDIA / "wptools_query_redirects_douglas_adams.json"
FOLLOWED = WIKIPEDIA / "wptools_query_redirect_followed_adams_comma_douglas.json"
DISAMBIGUATION = WIKIPEDIA / "wptools_query_disambiguation.json"


@pytest.mark.parametrize("name", sorted(p.name for p in WIKIPEDIA.glob("*.json")))
async def test_every_wikipedia_fixture_parses(server: Server, name: str) -> None:
    body = body_of(WIKIPEDIA / name)
    client = server.wikipedia(json_answer(body))
    page = await client.page(body["query"]["pages"][0]["title"])
    assert page.title == body["query"]["pages"][0]["title"]
    assert page.redirects == [r["title"] for r in body["query"]["pages"][0].get("redirects", [])]


async def test_redirects_to_a_page(server: Server) -> None:
    client = server.wikipedia(json_answer(body_of(DOUGLAS)))
    page = await client.page("Douglas Adams")
    assert (page.title, page.pageid, page.wikidata_id, page.disambiguation) == (
        "Douglas Adams",
        8091,
        "Q42",
        False,
    )
    assert page.resolved_from is None
    assert len(page.redirects) == 12
    assert {"Douglas Noël Adams", "Douglas Noel Adams", "Adams, Douglas"} <= set(page.redirects)
    params = server.requests[0].url.params
    assert (params["action"], params["titles"], params["redirects"], params["formatversion"]) == (
        "query",
        "Douglas Adams",
        "1",
        "2",
    )
    assert (
        "redirects" in params["prop"].split("|")
        and params["rdlimit"] == "max"
        and params["rdnamespace"] == "0"
    )
    # the recorded answer carries another module's continuation (list=random); it is not ours to follow
    assert len(server.requests) == 1
    assert server.requests[0].headers["user-agent"] == AGENT


async def test_input_title_that_is_itself_a_redirect(server: Server) -> None:
    client = server.wikipedia(json_answer(body_of(FOLLOWED)))
    page = await client.page("Adams, Douglas")
    assert page.title == "Douglas Adams" and page.resolved_from == "Adams, Douglas"
    assert "Adams, Douglas" in page.redirects and "Douglas Adams" not in page.redirects
    assert await client.redirects("Adams, Douglas") == page.redirects


async def test_disambiguation_page_is_flagged(server: Server) -> None:
    client = server.wikipedia(json_answer(body_of(DISAMBIGUATION)))
    page = await client.page("Douglas Adams (disambiguation)")
    assert page.disambiguation and page.redirects == []


async def test_redirect_list_continues(server: Server) -> None:
    # The recorded list fits one answer; split it in two, joined by an `rdcontinue` token.
    body = body_of(DOUGLAS)
    page = body["query"]["pages"][0]
    first = {**body, "continue": {"rdcontinue": "8091|742979", "continue": "||"}}
    first["query"] = {"pages": [{**page, "redirects": page["redirects"][:5]}]}
    second = {"batchcomplete": True, "query": {"pages": [{**page, "redirects": page["redirects"][5:]}]}}

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=second if "rdcontinue" in request.url.params else first)

    client = server.wikipedia(handler)
    titles = await client.redirects("Douglas Adams")
    assert titles == [r["title"] for r in page["redirects"]]
    assert len(server.requests) == 2
    assert server.requests[1].url.params["rdcontinue"] == "8091|742979"
    assert server.requests[1].url.params["titles"] == "Douglas Adams"


async def test_missing_page_is_not_found(server: Server) -> None:
    missing = {
        "batchcomplete": True,
        "query": {"pages": [{"ns": 0, "title": "Xyzzy Plugh", "missing": True}]},
    }
    client = server.wikipedia(json_answer(missing))
    with pytest.raises(NotFound, match="wikipedia: no en Wikipedia page titled 'Xyzzy Plugh'"):
        await client.redirects("Xyzzy Plugh")


async def test_language_picks_the_wiki(server: Server) -> None:
    assert language_url(WIKIPEDIA_BASE, "zh") == "https://zh.wikipedia.org/w/api.php"
    assert (
        language_url("https://{lang}.wikipedia.test/w/api.php", "de") == "https://de.wikipedia.test/w/api.php"
    )
    assert language_url("http://127.0.0.1:8765/wikipedia", "zh") == "http://127.0.0.1:8765/wikipedia"
    with pytest.raises(BadQuery):
        language_url(WIKIPEDIA_BASE, "zh/../evil")

    client = server.wikipedia(json_answer(body_of(DOUGLAS)))
    page = await client.page("道格拉斯·亚当斯", language="zh")
    assert server.requests[0].url.host == "zh.wikipedia.org" and page.language == "zh"


async def test_title_search(server: Server) -> None:
    # a list=search answer in the documented MediaWiki shape (no recording exists)
    answer = {
        "batchcomplete": True,
        "query": {"search": [{"ns": 0, "title": "Douglas Adams"}, {"ns": 0, "title": "Douglas"}]},
    }
    client = server.wikipedia(json_answer(answer))
    assert await client.search("douglas adams", limit=1) == ["Douglas Adams"]
    assert server.requests[0].url.params["srsearch"] == "douglas adams"


async def test_wikipedia_empty_title_refused_before_any_request(server: Server) -> None:
    client = server.wikipedia(json_answer({}))
    with pytest.raises(EmptyQuery, match="wikipedia"):
        await client.redirects(" ")
    with pytest.raises(EmptyQuery):
        await client.search("")
    with pytest.raises(BadQuery, match="cannot contain"):
        await client.redirects("Douglas Adams|Main Page")
    assert server.requests == []
