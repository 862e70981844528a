"""Semantic Scholar Graph API: relevance search (offset paging), bulk search (token paging), title
match, single papers, paper batch, paper authors, author batch and single authors.

Shapes follow fixtures/semantic_scholar and API_NOTES.md §4: only the requested `fields` (plus the
id) are returned; a search without hits has no `data` key; the last bulk page has `"token": null`;
unknown ids are 404 `{"error": "Paper with id … not found"}`, and null inside a batch.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from starlette.responses import Response

from evals.fake_sources.context import Ctx, json_response
from evals.fake_sources.universe import FakePaper, Researcher, stable_hash
from evals.fake_sources.vocab import Institution

SERVICE = "semantic_scholar"
BULK_PAGE = 1000
SEARCH_WINDOW = 1000  # /paper/search serves at most offset + limit <= 1000
PAPER_FIELDS = {
    "paperId", "corpusId", "externalIds", "url", "title", "abstract", "venue", "publicationVenue", "year",
    "referenceCount", "citationCount", "influentialCitationCount", "isOpenAccess", "openAccessPdf",
    "fieldsOfStudy", "s2FieldsOfStudy", "publicationTypes", "publicationDate", "journal", "citationStyles",
    "authors", "tldr", "embedding",
}  # fmt: skip
AUTHOR_FIELDS = {
    "authorId", "externalIds", "url", "name", "affiliations", "homepage", "paperCount", "citationCount", "hIndex",
}  # fmt: skip


async def handle(ctx: Ctx) -> Response:
    path = ctx.path.strip("/")
    lower = path.lower()
    if lower == "paper/search":
        return search(ctx)
    if lower == "paper/search/bulk":
        return bulk(ctx)
    if lower == "paper/search/match":
        return match(ctx)
    if lower == "paper/batch":
        return paper_batch(ctx)
    if lower == "author/batch":
        return author_batch(ctx)
    if lower.startswith("paper/"):
        ident, sub = _split_paper_path(path[len("paper/") :])
        return paper_sub(ctx, ident, sub) if sub else single_paper(ctx, ident)
    if lower.startswith("author/"):
        ident, _, sub = path[len("author/") :].partition("/")
        return author_papers(ctx, ident) if sub == "papers" else single_author(ctx, ident)
    return json_response({"message": "Missing Authentication Token"}, status=403)


def _split_paper_path(rest: str) -> tuple[str, str]:
    # DOIs contain slashes: the sub-resource is only a known trailing word
    for sub in ("authors", "citations", "references"):
        if rest.endswith("/" + sub):
            return rest[: -len(sub) - 1], sub
    return rest, ""


def _fields(ctx: Ctx, allowed: set[str], default: tuple[str, ...]) -> list[str] | Response:
    raw = [f.strip() for f in ctx.get("fields").split(",") if f.strip()]
    if not raw:
        return list(default)
    unknown = [f for f in raw if f.split(".")[0] not in allowed]
    if unknown:
        return json_response(
            {"error": f"Unrecognized or unsupported fields: [{', '.join(unknown)}]"}, status=400
        )
    return raw


def _query(ctx: Ctx) -> str | Response:
    query = ctx.get("query").strip()
    if not query:
        return json_response({"error": "Missing required parameter: 'query'"}, status=400)
    return query


def search(ctx: Ctx) -> Response:
    query = _query(ctx)
    if isinstance(query, Response):
        return query
    fields = _fields(ctx, PAPER_FIELDS, ("title",))
    if isinstance(fields, Response):
        return fields
    offset, limit = max(0, ctx.get_int("offset", 0)), ctx.get_int("limit", 10)
    if not 1 <= limit <= 100:
        return json_response({"error": "Limit must be between 1 and 100"}, status=400)
    if offset + limit > SEARCH_WINDOW:
        return json_response(
            {"error": "Requested data for this limit and/or offset is not available"}, status=400
        )
    total = ctx.universe.total(query, "semantic_scholar", ctx.fake_total)
    if total == 0:
        return json_response({"total": 0, "offset": 0})
    papers = ctx.universe.page(query, "semantic_scholar", offset, limit, ctx.fake_total)
    body: dict[str, Any] = {"total": total, "offset": offset}
    if offset + len(papers) < min(total, SEARCH_WINDOW):
        body["next"] = offset + len(papers)
    body["data"] = [paper_object(p, fields) for p in papers]
    return json_response(body)


def encode_token(offset: int) -> str:
    return base64.b32encode(f"PCO{offset:08d}".encode()).decode().rstrip("=")


def decode_token(token: str) -> int | None:
    try:
        text = base64.b32decode(token + "=" * (-len(token) % 8)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    return int(text[3:]) if re.fullmatch(r"PCO\d{8}", text) else None


def bulk(ctx: Ctx) -> Response:
    query = ctx.get("query").strip()
    fields = _fields(ctx, PAPER_FIELDS, ("title",))
    if isinstance(fields, Response):
        return fields
    token = ctx.get("token")
    offset = decode_token(token) if token else 0
    if offset is None:
        return json_response({"error": "Invalid token"}, status=400)
    total = ctx.universe.total(query, "semantic_scholar", ctx.fake_total) if query else 0
    papers = ctx.universe.page(query, "semantic_scholar", offset, BULK_PAGE, ctx.fake_total) if query else []
    following = offset + len(papers)
    return json_response(
        {
            "total": total,
            "token": encode_token(following) if following < total else None,
            "data": [paper_object(p, fields) for p in papers],
        }
    )


def match(ctx: Ctx) -> Response:
    query = _query(ctx)
    if isinstance(query, Response):
        return query
    fields = _fields(ctx, PAPER_FIELDS, ("title",))
    if isinstance(fields, Response):
        return fields
    # A generated paper's title is found once some search has listed it (the server has met it).
    paper = ctx.universe.find_title(query)
    if paper is not None and "semantic_scholar" in paper.services:
        return json_response({"data": [{**paper_object(paper, fields), "matchScore": 187.5}]})
    return json_response({"error": "Title match not found"}, status=404)


def find_paper(ctx: Ctx, ident: str) -> FakePaper | dict[str, Any] | None:
    """A paper by any id form Semantic Scholar accepts: recorded first, then generated."""
    ident = ident.strip()
    prefix, sep, value = ident.partition(":")
    kind = prefix.upper() if sep else ""
    if not sep and ident.startswith("10."):
        kind, value = "DOI", ident
    if not sep and not kind:
        value = ident
    if kind == "URL":
        value = value.rstrip("/").rsplit("/", 1)[-1]
        kind = ""
    if ctx.config.replay:
        key = "doi:" + value.lower() if kind == "DOI" else value.lower()
        recorded = ctx.recordings.s2_papers.get(key)
        if recorded is not None:
            return recorded
    lookup = {
        "DOI": "doi",
        "PMID": "pmid",
        "PMCID": "pmcid",
        "CORPUSID": "corpus",
        "ARXIV": "arxiv",
        "": "s2",
    }
    id_kind = lookup.get(kind)
    if id_kind is None:
        return None
    if id_kind == "pmcid" and not value.upper().startswith("PMC"):
        value = "PMC" + value
    paper = ctx.universe.lookup(id_kind, value)
    return paper if paper is not None and "semantic_scholar" in paper.services else None


def _render(found: FakePaper | dict[str, Any], fields: list[str]) -> dict[str, Any]:
    if isinstance(found, dict):
        wanted = {f.split(".")[0] for f in fields} | {"paperId"}
        return {k: v for k, v in found.items() if k in wanted}
    return paper_object(found, fields)


def single_paper(ctx: Ctx, ident: str) -> Response:
    fields = _fields(ctx, PAPER_FIELDS, ("paperId", "title"))
    if isinstance(fields, Response):
        return fields
    found = find_paper(ctx, ident)
    if found is None:
        return json_response({"error": f"Paper with id {ident} not found"}, status=404)
    return json_response(_render(found, fields))


def paper_batch(ctx: Ctx) -> Response:
    ids = (ctx.json_body or {}).get("ids") if isinstance(ctx.json_body, dict) else None
    if not isinstance(ids, list):
        return json_response({"error": 'Unacceptable request body: expected {"ids": [...]}'}, status=400)
    if len(ids) > 500:
        return json_response({"error": "Cannot process more than 500 ids in a single request"}, status=400)
    fields = _fields(ctx, PAPER_FIELDS | NESTED_LINKS, ("paperId", "title"))
    if isinstance(fields, Response):
        return fields
    out = []
    for ident in ids:
        found = find_paper(ctx, str(ident))
        out.append(_render_with_links(ctx, found, fields) if found is not None else None)
    return json_response(out)


NESTED_LINKS = {"references", "citations"}


def _render_with_links(ctx: Ctx, found: FakePaper | dict[str, Any], fields: list[str]) -> dict[str, Any]:
    """A batch record; `references.<field>` / `citations.<field>` add the linked papers (citation graph)."""
    record = _render(found, [f for f in fields if f.split(".")[0] not in NESTED_LINKS])
    for name in NESTED_LINKS:
        wanted = [f.split(".", 1)[1] for f in fields if f.startswith(name + ".")] or (
            ["paperId", "title"] if name in fields else []
        )
        if not wanted:
            continue
        if isinstance(found, dict):
            record[name] = []
            continue
        from evals.fake_sources.citations import graph_for

        graph = graph_for(ctx.universe)
        linked = graph.cited_by(found, SERVICE) if name == "references" else graph.citing(found, SERVICE)
        record[name] = [paper_object(other, wanted) for other in linked[:1000]]
    return record


def paper_sub(ctx: Ctx, ident: str, sub: str) -> Response:
    found = find_paper(ctx, ident)
    if found is None:
        return json_response({"error": f"Paper with id {ident} not found"}, status=404)
    if sub in ("references", "citations") and not isinstance(found, dict):
        return citation_links(ctx, found, sub)
    if sub != "authors" or isinstance(found, dict):
        return json_response({"offset": 0, "data": []})
    fields = _fields(ctx, AUTHOR_FIELDS, ("authorId", "name"))
    if isinstance(fields, Response):
        return fields
    people = [a.researcher for a in found.authors if a.researcher is not None]
    return json_response({"offset": 0, "data": [author_object(p, fields) for p in people]})


LINK_FIELDS = {"contexts", "intents", "isInfluential"}


def citation_links(ctx: Ctx, paper: FakePaper, sub: str) -> Response:
    """`/paper/{id}/references` (`citedPaper`) and `/citations` (`citingPaper`), offset-paged like S2."""
    from evals.fake_sources.citations import graph_for

    fields = _fields(ctx, PAPER_FIELDS | LINK_FIELDS, ("paperId", "title"))
    if isinstance(fields, Response):
        return fields
    graph = graph_for(ctx.universe)
    linked = (
        graph.cited_by(paper, "semantic_scholar")
        if sub == "references"
        else graph.citing(paper, "semantic_scholar")
    )
    offset, limit = max(0, ctx.get_int("offset", 0)), ctx.get_int("limit", 100)
    if not 1 <= limit <= 1000:
        return json_response({"error": "Limit must be between 1 and 1000"}, status=400)
    paper_fields = [f for f in fields if f not in LINK_FIELDS]
    role = "citedPaper" if sub == "references" else "citingPaper"
    data = []
    for other in linked[offset : offset + limit]:
        item: dict[str, Any] = {role: paper_object(other, paper_fields)}
        if "contexts" in fields:
            item["contexts"] = []
        if "intents" in fields:
            item["intents"] = []
        if "isInfluential" in fields:
            item["isInfluential"] = False
        data.append(item)
    body: dict[str, Any] = {"offset": offset, "data": data}
    if offset + limit < len(linked):
        body["next"] = offset + limit
    return json_response(body)


def author_batch(ctx: Ctx) -> Response:
    ids = (ctx.json_body or {}).get("ids") if isinstance(ctx.json_body, dict) else None
    if not isinstance(ids, list):
        return json_response({"error": 'Unacceptable request body: expected {"ids": [...]}'}, status=400)
    if len(ids) > 1000:
        return json_response({"error": "Cannot process more than 1000 ids in a single request"}, status=400)
    fields = _fields(ctx, AUTHOR_FIELDS, ("authorId", "name"))
    if isinstance(fields, Response):
        return fields
    out = []
    for ident in ids:
        person = ctx.universe.researcher_by_s2_id(str(ident))
        out.append(author_object(person, fields) if person else None)
    return json_response(out)


def single_author(ctx: Ctx, ident: str) -> Response:
    fields = _fields(ctx, AUTHOR_FIELDS, ("authorId", "name"))
    if isinstance(fields, Response):
        return fields
    person = ctx.universe.researcher_by_s2_id(ident)
    if person is None:
        return json_response({"error": f"Author with id {ident} not found"}, status=404)
    return json_response(author_object(person, fields))


def author_papers(ctx: Ctx, ident: str) -> Response:
    if ctx.universe.researcher_by_s2_id(ident) is None:
        return json_response({"error": f"Author with id {ident} not found"}, status=404)
    return json_response({"offset": 0, "data": []})


# ------------------------------------------------------------------------------------------------
# records
# ------------------------------------------------------------------------------------------------


def _affiliation_names(person: Researcher) -> list[str]:
    # Semantic Scholar's author affiliations are often empty; about half of the invented ones are not.
    inst: Institution = person.institution
    return [inst.name] if stable_hash(person.index, "s2aff") % 2 else []


def author_object(person: Researcher, fields: list[str]) -> dict[str, Any]:
    papers = 5 + stable_hash(person.index, "works") % 300
    full: dict[str, Any] = {
        "authorId": person.s2_id,
        "externalIds": {"ORCID": person.orcid} if person.orcid else {},
        "url": f"https://www.semanticscholar.org/author/{person.s2_id}",
        "name": person.name,
        "affiliations": _affiliation_names(person),
        "homepage": None,
        "paperCount": papers,
        "citationCount": papers * (3 + stable_hash(person.index, "c") % 40),
        "hIndex": min(papers, 5 + stable_hash(person.index, "h") % 60),
    }
    wanted = {f.split(".")[0] for f in fields} | {"authorId"}
    return {k: v for k, v in full.items() if k in wanted}


def paper_object(p: FakePaper, fields: list[str]) -> dict[str, Any]:
    wanted = {f.split(".")[0] for f in fields}
    external: dict[str, Any] = {"MAG": str(3_000_000_000 + p.corpus_id), "CorpusId": p.corpus_id}
    if p.s2_doi:
        external["DOI"] = p.s2_doi
    if p.pmid and stable_hash(p.key, "s2pmid") % 100 < 85:
        external["PubMed"] = p.pmid
    if p.pmcid:
        external["PubMedCentral"] = p.pmcid[3:]
    if p.arxiv_id:
        external["ArXiv"] = p.arxiv_id
    journal_name = p.journal[0]

    authors = []
    for author in p.authors:
        if author.researcher is None:
            authors.append({"authorId": None, "name": author.collective})
            continue
        entry: dict[str, Any] = {"authorId": author.researcher.s2_id, "name": author.researcher.name}
        if any(f.startswith("authors.") for f in fields):
            entry.update(
                author_object(
                    author.researcher, [f.split(".", 1)[1] for f in fields if f.startswith("authors.")]
                )
            )
        authors.append(entry)
    oa_pdf: dict[str, Any] = (
        {
            "url": p.oa_url,
            "status": p.oa_status.upper(),
            "license": "CCBY" if p.oa_status == "gold" else None,
            "disclaimer": "",
        }
        if p.oa_url
        else {
            "url": "",
            "status": None,
            "license": None,
            "disclaimer": "Paper or abstract available at the publisher.",
        }
    )
    venue_id = f"{stable_hash(journal_name):032x}"
    full: dict[str, Any] = {
        "paperId": p.s2_id,
        "corpusId": p.corpus_id,
        "externalIds": external,
        "url": f"https://www.semanticscholar.org/paper/{p.s2_id}",
        "title": p.title,
        "abstract": p.abstract if p.abstract_in_s2 else None,
        "venue": journal_name if stable_hash(p.key, "venue") % 10 else "",
        "publicationVenue": {
            "id": f"{venue_id[:8]}-{venue_id[8:12]}-{venue_id[12:16]}-{venue_id[16:20]}-{venue_id[20:32]}",
            "name": journal_name,
            "type": "journal",
            "alternate_names": [p.journal[1]],
            "issn": p.journal[2],
        },
        "year": p.year,
        "referenceCount": 20 + stable_hash(p.key, "refs") % 60,
        "citationCount": p.citation_count,
        "influentialCitationCount": p.citation_count // 10,
        "isOpenAccess": p.oa_url is not None,
        "openAccessPdf": oa_pdf,
        "fieldsOfStudy": p.fields_of_study or None,
        "s2FieldsOfStudy": [{"category": f, "source": "s2-fos-model"} for f in p.fields_of_study],
        "publicationTypes": ["JournalArticle"] + (["Review"] if "Review" in p.publication_types else []),
        "publicationDate": p.publication_date if stable_hash(p.key, "date") % 10 else None,
        "journal": {"name": journal_name, "volume": p.volume, "pages": p.pages},
        "citationStyles": {
            "bibtex": f"@Article{{{p.s2_id[:8]},\n title = {{{p.title}}},\n year = {{{p.year}}}\n}}\n"
        },
        "authors": authors,
        "tldr": None,
    }
    return {k: v for k, v in full.items() if k in wanted or k == "paperId"}
