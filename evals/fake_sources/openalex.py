"""OpenAlex: works (search, filter, cursor and page paging, select), single works, institutions,
authors, concepts, topics and keywords.

Shapes follow fixtures/openalex and API_NOTES.md §3: the DOI in URL form, `abstract_inverted_index`,
authorships with institutions, countries and raw affiliation strings; cursor paging ends with an
empty page whose `next_cursor` is null; an unknown work is an HTML 404 page.
"""

from __future__ import annotations

import base64
import re
from functools import lru_cache
from typing import Any

from starlette.responses import Response

from evals.fake_sources import vocab
from evals.fake_sources.context import Ctx, json_response
from evals.fake_sources.universe import FakePaper, Researcher, stable_hash
from evals.fake_sources.vocab import Institution

OA = "https://openalex.org/"
SEARCH_FILTERS = {
    "title_and_abstract.search",
    "title.search",
    "abstract.search",
    "default.search",
    "fulltext.search",
    "display_name.search",
    "keyword.search",
}
ID_FILTERS = {"doi", "ids.pmid", "pmid", "openalex", "ids.openalex", "openalex_id"}
OTHER_FILTERS = {
    "publication_year", "from_publication_date", "to_publication_date", "type", "is_oa", "open_access.is_oa",
    "language", "has_abstract", "has_doi", "is_retracted", "is_paratext", "cites", "cited_by_count",
    "authorships.institutions.country_code", "institutions.country_code", "authorships.author.id",
    "authorships.institutions.id", "primary_location.source.id", "concepts.id", "topics.id", "has_pmid",
    "keywords.id", "primary_topic.id", "mesh.descriptor_ui",
}  # fmt: skip
WORK_FIELDS = {
    "id", "doi", "title", "display_name", "publication_year", "publication_date", "ids", "language",
    "primary_location", "type", "type_crossref", "open_access", "authorships", "countries_distinct_count",
    "institutions_distinct_count", "corresponding_author_ids", "corresponding_institution_ids", "cited_by_count",
    "biblio", "is_retracted", "is_paratext", "primary_topic", "topics", "keywords", "concepts", "mesh",
    "locations_count", "best_oa_location", "referenced_works_count", "referenced_works", "related_works",
    "abstract_inverted_index", "updated_date", "created_date", "has_fulltext", "fwci",
}  # fmt: skip


def _bad_request(message: str) -> Response:
    return json_response({"error": "Invalid query parameters error.", "message": message}, status=400)


async def handle(ctx: Ctx) -> Response:
    path = ctx.path.strip("/")
    entity, _, rest = path.partition("/")
    entity = entity.lower()
    if entity == "works":
        return single_work(ctx, rest) if rest else works(ctx)
    if entity in ("institutions", "concepts", "topics", "keywords", "authors"):
        return single_entity(ctx, entity, rest) if rest else entity_list(ctx, entity)
    return _not_found(ctx)


def _not_found(ctx: Ctx) -> Response:
    recorded = ctx.recordings.openalex_not_found
    if recorded is not None:
        return Response(recorded.body, status_code=404, headers=dict(recorded.headers))
    return Response(
        b"<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>",
        404,
        media_type="text/html",
    )


# ------------------------------------------------------------------------------------------------
# works
# ------------------------------------------------------------------------------------------------


def parse_filter(text: str) -> tuple[list[tuple[str, str]], str | None]:
    """`name:value,name:value` into pairs, or an error naming the unknown field."""
    pairs = []
    for part in (p for p in text.split(",") if p.strip()):
        name, sep, value = part.partition(":")
        name = name.strip().lower()
        if not sep:
            return [], f"{part} is not a valid filter; write field:value"
        if name not in SEARCH_FILTERS | ID_FILTERS | OTHER_FILTERS:
            return (
                [],
                f"{name} is not a valid field. Valid fields are underscore or hyphenated versions of the following fields: {', '.join(sorted(SEARCH_FILTERS | ID_FILTERS | OTHER_FILTERS))}",
            )
        pairs.append((name, value.strip()))
    return pairs, None


def encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"['offset', {offset}]".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int | None:
    if cursor == "*":
        return 0
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    match = re.fullmatch(r"\['offset', (\d+)\]", text)
    return int(match.group(1)) if match else None


def works(ctx: Ctx) -> Response:
    per_page_text = ctx.get("per_page") or ctx.get("per-page") or "25"
    try:
        per_page = int(per_page_text)
    except ValueError:
        return _bad_request(f"per-page parameter must be an integer, got {per_page_text}")
    if not 1 <= per_page <= 200:
        return _bad_request(f"per-page parameter must be between 1 and 200, got {per_page}")
    pairs, error = parse_filter(ctx.get("filter"))
    if error:
        return _bad_request(error)
    select = [s.strip() for s in ctx.get("select").split(",") if s.strip()]
    bad = [s for s in select if s not in WORK_FIELDS]
    if bad:
        return _bad_request(
            f"{bad[0]} is not a valid select field. Valid fields for select are: {', '.join(sorted(WORK_FIELDS))}"
        )

    text_parts = [ctx.get("search")] + [v for n, v in pairs if n in SEARCH_FILTERS]
    text = " ".join(p for p in text_parts if p).strip()
    id_filters = [(n, v) for n, v in pairs if n in ID_FILTERS]
    cites = [v for n, v in pairs if n == "cites"]
    if cites:
        listed = _citing_works(ctx, cites)
        total = len(listed)
    elif id_filters:
        listed = _works_by_ids(ctx, id_filters)
        total = len(listed)
    else:
        total = ctx.universe.total(text, "openalex", ctx.fake_total)
        listed = []

    cursor = ctx.get("cursor")
    if cursor:
        offset = decode_cursor(cursor)
        if offset is None:
            return _bad_request(f"Invalid cursor: {cursor}")
        page = None
    else:
        page = max(1, ctx.get_int("page", 1))
        offset = (page - 1) * per_page
        if offset + per_page > 10_000:
            return _bad_request(
                "Maximum results size of 10,000 records is exceeded. Cursor pagination is required for records beyond 10,000."
            )
    if id_filters or cites:
        results = list(listed[offset : offset + per_page])
    else:
        results = [work(p) for p in ctx.universe.page(text, "openalex", offset, per_page, ctx.fake_total)]
    if select:
        results = [{k: w.get(k) for k in select} for w in results]
    if "referenced_works" in select or "referenced_works_count" in select:
        _fill_references(ctx, results)
    meta: dict[str, Any] = {
        "count": total,
        "db_response_time_ms": 12 + stable_hash(text, offset) % 80,
        "page": page,
        "per_page": per_page,
    }
    if cursor:
        meta["next_cursor"] = encode_cursor(offset + per_page) if results else None
    meta["groups_count"] = None
    headers = {"ratelimit-limit": "100", "ratelimit-remaining": "99", "ratelimit-reset": "1"}
    return json_response({"meta": meta, "results": results, "group_by": []}, headers=headers)


def _works_by_ids(ctx: Ctx, filters: list[tuple[str, str]]) -> list[dict[str, Any]]:
    out = []
    for name, value in filters:
        for item in value.split("|"):
            item = item.strip()
            if name == "doi":
                found = _find_work(ctx, "doi:" + _bare_doi(item))
            elif name in ("pmid", "ids.pmid"):
                found = _find_work(ctx, "pmid:" + item.rsplit("/", 1)[-1])
            else:
                found = _find_work(ctx, item.rsplit("/", 1)[-1])
            if found is not None:
                out.append(found)
    return out


def _citing_works(ctx: Ctx, values: list[str]) -> list[dict[str, Any]]:
    """`cites:W1|W2`: the works citing any of them (evals/fake_sources/citations.py), each once."""
    from evals.fake_sources.citations import graph_for

    graph = graph_for(ctx.universe)
    out: dict[str, dict[str, Any]] = {}
    for value in values:
        for item in value.split("|"):
            cited = ctx.universe.lookup("openalex", item.strip().rsplit("/", 1)[-1])
            if cited is None or "openalex" not in cited.services:
                continue
            for paper in graph.citing(cited, "openalex"):
                out.setdefault(paper.openalex_id, work(paper))
    return list(out.values())


def _fill_references(ctx: Ctx, results: list[dict[str, Any]]) -> None:
    """`referenced_works` of generated works, filled only when a request selects them."""
    from evals.fake_sources.citations import graph_for

    graph = graph_for(ctx.universe)
    for result in results:
        paper = ctx.universe.lookup("openalex", str(result.get("id") or ""))
        if paper is None:
            continue
        cited = [OA + p.openalex_id for p in graph.cited_by(paper, "openalex")]
        if "referenced_works" in result:
            result["referenced_works"] = cited
        if "referenced_works_count" in result:
            result["referenced_works_count"] = len(cited)


def _bare_doi(text: str) -> str:
    return re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", text.strip(), flags=re.I).lower()


def _find_work(ctx: Ctx, ident: str) -> dict[str, Any] | None:
    """A work by "W…", "doi:…" or "pmid:…": recorded first, then generated."""
    ident = ident.strip()
    low = ident.lower()
    if ctx.config.replay:
        recorded = ctx.recordings.openalex_works.get(low)
        if recorded is not None:
            return recorded
    if low.startswith("doi:"):
        paper = ctx.universe.lookup("doi", low[4:])
    elif low.startswith("pmid:"):
        paper = ctx.universe.lookup("pmid", low[5:])
    else:
        paper = ctx.universe.lookup("openalex", ident)
    return work(paper) if paper is not None and "openalex" in paper.services else None


def single_work(ctx: Ctx, rest: str) -> Response:
    ident = rest
    if re.match(r"^(https?://(dx\.)?doi\.org/|doi:|10\.)", ident, re.I):
        ident = "doi:" + _bare_doi(ident)
    elif ident.lower().startswith("pmid:"):
        ident = "pmid:" + ident[5:]
    else:
        ident = ident.rsplit("/", 1)[-1]
    found = _find_work(ctx, ident)
    if found is None:
        return _not_found(ctx)
    select = [s.strip() for s in ctx.get("select").split(",") if s.strip()]
    if select:
        found = {k: found.get(k) for k in select}
        if "referenced_works" in select or "referenced_works_count" in select:
            _fill_references(ctx, [found])
    return json_response(found)


def inverted_index(text: str) -> dict[str, list[int]]:
    index: dict[str, list[int]] = {}
    for position, word in enumerate(text.split()):
        index.setdefault(word, []).append(position)
    return index


@lru_cache(maxsize=256)
def institution_object(inst: Institution, *, full: bool = False) -> dict[str, Any]:
    """An institution as OpenAlex shows it (shared between works: never mutate the answer)."""
    short = {
        "id": OA + inst.openalex_id,
        "display_name": inst.name,
        "ror": f"https://ror.org/{inst.ror}",
        "country_code": inst.country_code,
        "type": inst.kind,
        "lineage": [OA + inst.openalex_id],
    }
    if not full:
        return short
    alternatives = [inst.name_zh] if inst.name_zh else []
    international = {"en": inst.name}
    if inst.name_zh:
        international["zh"] = inst.name_zh
    return {
        "id": OA + inst.openalex_id,
        "ror": f"https://ror.org/{inst.ror}",
        "display_name": inst.name,
        "country_code": inst.country_code,
        "type": inst.kind,
        "homepage_url": f"https://www.{inst.email_domain}",
        "display_name_acronyms": [],
        "display_name_alternatives": alternatives,
        "international": {"display_name": international},
        "geo": {
            "city": inst.city,
            "geonames_city_id": str(stable_hash(inst.city) % 9_000_000 + 1_000_000),
            "region": inst.region,
            "country_code": inst.country_code,
            "country": inst.country,
            "latitude": inst.latitude,
            "longitude": inst.longitude,
        },
        "works_count": 40_000 + stable_hash(inst.ror) % 200_000,
        "cited_by_count": 1_000_000 + stable_hash(inst.ror, "c") % 9_000_000,
        "associated_institutions": [],
    }


def work(p: FakePaper) -> dict[str, Any]:
    doi_url = f"https://doi.org/{p.doi}" if p.doi else None
    source = {
        "id": OA + f"S{stable_hash(p.journal[0]) % 10**10}",
        "display_name": p.journal[0].split(" (")[0].title() if p.journal[0].islower() else p.journal[0],
        "issn_l": p.journal[2],
        "issn": [p.journal[2]],
        "is_oa": p.oa_status == "gold",
        "host_organization_name": None,
        "type": "journal",
    }
    location = {
        "is_oa": p.oa_url is not None,
        "landing_page_url": doi_url or (f"https://pubmed.ncbi.nlm.nih.gov/{p.pmid}" if p.pmid else None),
        "pdf_url": p.oa_url,
        "source": source,
        "license": "cc-by" if p.oa_status == "gold" else None,
        "version": "publishedVersion",
    }
    people = [a for a in p.authors if a.researcher is not None]
    authorships: list[dict[str, Any]] = []
    for i, author in enumerate(people):
        person: Researcher = author.researcher  # type: ignore[assignment]
        # About one authorship in ten is not matched to an institution: only the raw string is kept.
        matched = stable_hash(p.key, i, "matched") % 10 != 0
        institutions = [institution_object(a.institution) for a in author.affiliations] if matched else []
        position = "first" if i == 0 else "last" if i == len(people) - 1 else "middle"
        authorships.append(
            {
                "author_position": position,
                "author": {
                    "id": OA + person.openalex_id,
                    "display_name": person.name,
                    "orcid": f"https://orcid.org/{person.orcid}" if person.orcid else None,
                },
                "institutions": institutions,
                "countries": sorted({inst["country_code"] for inst in institutions}),
                "is_corresponding": author.corresponding,
                "raw_author_name": person.name,
                "raw_affiliation_strings": [a.text for a in author.affiliations],
                "affiliations": [
                    {
                        "raw_affiliation_string": a.text,
                        "institution_ids": [OA + a.institution.openalex_id] if matched else [],
                    }
                    for a in author.affiliations
                ],
            }
        )
    countries = {c for a in authorships for c in a["countries"]}
    institutions_ids = {inst["id"] for a in authorships for inst in a["institutions"]}
    language = {"chi": "zh", "ger": "de"}.get(p.language, "en")
    topic_name = p.query_key.title() or "Research"
    topic = {
        "id": OA + f"T{10000 + stable_hash(p.query_key, 'topic') % 90000}",
        "display_name": topic_name,
        "score": 0.99,
        "subfield": {"id": OA + "subfields/1702", "display_name": "Artificial Intelligence"},
        "field": {"id": OA + "fields/17", "display_name": "Computer Science"},
        "domain": {"id": OA + "domains/3", "display_name": "Physical Sciences"},
    }
    ids: dict[str, Any] = {"openalex": OA + p.openalex_id}
    if doi_url:
        ids["doi"] = doi_url
    if p.pmid:
        ids["pmid"] = f"https://pubmed.ncbi.nlm.nih.gov/{p.pmid}"
    if p.pmcid:
        ids["pmcid"] = f"https://www.ncbi.nlm.nih.gov/pmc/articles/{p.pmcid[3:]}"
    first_page, _, last_page = p.pages.partition("-")
    return {
        "id": OA + p.openalex_id,
        "doi": doi_url,
        "title": p.title,
        "display_name": p.title,
        "publication_year": p.year,
        "publication_date": p.publication_date,
        "ids": ids,
        "language": language,
        "primary_location": location,
        "type": "review" if "Review" in p.publication_types else "article",
        "type_crossref": "journal-article",
        "open_access": {
            "is_oa": p.oa_url is not None,
            "oa_status": p.oa_status,
            "oa_url": p.oa_url,
            "any_repository_has_fulltext": bool(p.pmcid),
        },
        "authorships": authorships,
        "countries_distinct_count": len(countries),
        "institutions_distinct_count": len(institutions_ids),
        "corresponding_author_ids": [a["author"]["id"] for a in authorships if a["is_corresponding"]],
        "corresponding_institution_ids": [],
        "cited_by_count": p.citation_count,
        "biblio": {"volume": p.volume, "issue": p.issue, "first_page": first_page, "last_page": last_page},
        "is_retracted": False,
        "is_paratext": False,
        "primary_topic": topic,
        "topics": [topic],
        "keywords": [
            {"id": OA + "keywords/" + re.sub(r"\W+", "-", k.lower()), "display_name": k, "score": 0.5}
            for k in p.keywords[:3]
        ],
        "concepts": [
            {
                "id": OA + "C71924100",
                "wikidata": "https://www.wikidata.org/wiki/Q11190",
                "display_name": "Medicine",
                "level": 0,
                "score": 0.6,
            }
        ],
        "mesh": [
            {
                "descriptor_ui": ui,
                "descriptor_name": heading,
                "qualifier_ui": quals[0][0] if quals else "",
                "qualifier_name": quals[0][1] if quals else None,
                "is_major_topic": major,
            }
            for ui, heading, major, quals in p.mesh
        ],
        "locations_count": 1,
        "best_oa_location": location if p.oa_url else None,
        "referenced_works_count": 0,
        "referenced_works": [],
        "related_works": [],
        "abstract_inverted_index": inverted_index(p.abstract) if p.abstract_in_openalex else None,
        "updated_date": "2025-01-15T00:00:00.000000",
        "created_date": f"{p.year}-{p.month:02d}-{p.day:02d}",
    }


# ------------------------------------------------------------------------------------------------
# other entities
# ------------------------------------------------------------------------------------------------


def _institution_by_id(ident: str) -> Institution | None:
    ident = ident.rsplit("/", 1)[-1].lower()
    for inst in vocab.INSTITUTIONS:
        if ident in (inst.openalex_id.lower(), inst.ror.lower()):
            return inst
    return None


def _author_object(ctx: Ctx, ident: str) -> dict[str, Any] | None:
    match = re.fullmatch(r"A5(\d\d)(\d{7})", ident.rsplit("/", 1)[-1].upper())
    if not match:
        return None
    person = ctx.universe.researcher(int(match.group(2)))
    if person.openalex_id != ident.rsplit("/", 1)[-1].upper():
        return None
    first_year = 1995 + stable_hash(person.index, "career") % 25
    works_count = 5 + stable_hash(person.index, "works") % 300
    return {
        "id": OA + person.openalex_id,
        "orcid": f"https://orcid.org/{person.orcid}" if person.orcid else None,
        "display_name": person.name,
        "display_name_alternatives": [f"{person.given[0]}. {person.family}"],
        "works_count": works_count,
        "cited_by_count": works_count * (3 + stable_hash(person.index, "c") % 40),
        "summary_stats": {"h_index": min(works_count, 5 + stable_hash(person.index, "h") % 60)},
        "affiliations": [
            {
                "institution": institution_object(person.institution),
                "years": list(range(2025, first_year - 1, -1)),
            }
        ],
        "last_known_institutions": [institution_object(person.institution)],
        "counts_by_year": [
            {
                "year": y,
                "works_count": 1 + stable_hash(person.index, y) % 8,
                "cited_by_count": stable_hash(person.index, y, "c") % 200,
            }
            for y in range(2025, max(first_year, 2012) - 1, -1)
        ],
        "created_date": f"{first_year}-01-01",
    }


def _generated_entity(kind: str, name: str, n: int) -> dict[str, Any]:
    digits = stable_hash(kind, name.lower(), n) % 10**9
    display = name if n == 0 else f"{name} {['analysis', 'methods', 'applications'][n % 3]}"
    if kind == "concepts":
        return {
            "id": OA + f"C{digits}",
            "wikidata": f"https://www.wikidata.org/wiki/Q{digits % 10**7}",
            "display_name": display,
            "level": 1 + n % 3,
            "description": f"study of {display.lower()}",
            "works_count": 1000 + digits % 500_000,
            "international": {"display_name": {"en": display}},
        }
    if kind == "topics":
        return {
            "id": OA + f"T{10000 + digits % 90000}",
            "display_name": display.title(),
            "description": f"This cluster of papers explores {display.lower()}.",
            "keywords": [display.lower(), f"{display.lower()} methods", f"automated {display.lower()}"],
            "subfield": {"id": OA + "subfields/1702", "display_name": "Artificial Intelligence"},
            "field": {"id": OA + "fields/17", "display_name": "Computer Science"},
            "domain": {"id": OA + "domains/3", "display_name": "Physical Sciences"},
            "works_count": 1000 + digits % 90_000,
        }
    slug = re.sub(r"\W+", "-", display.lower()).strip("-")
    return {
        "id": OA + f"keywords/{slug}",
        "display_name": display.title(),
        "works_count": 500 + digits % 50_000,
        "cited_by_count": digits % 900_000,
    }


def single_entity(ctx: Ctx, kind: str, rest: str) -> Response:
    ident = rest.rsplit("/", 1)[-1]
    if ctx.config.replay:
        recorded = ctx.recordings.openalex_entities.get((kind, ident.lower()))
        if recorded is not None:
            return json_response(recorded)
    if kind == "institutions":
        inst = _institution_by_id(rest)
        return json_response(institution_object(inst, full=True)) if inst else _not_found(ctx)
    if kind == "authors":
        author = _author_object(ctx, ident)
        return json_response(author) if author else _not_found(ctx)
    return _not_found(ctx)


def entity_list(ctx: Ctx, kind: str) -> Response:
    search = ctx.get("search").strip()
    for name, value in (p.split(":", 1) for p in ctx.get("filter").split(",") if ":" in p):
        if name.strip() in ("display_name.search", "default.search"):
            search = value.strip()
    per_page = min(200, max(1, ctx.get_int("per_page", ctx.get_int("per-page", 25))))
    results: list[dict[str, Any]]
    if kind == "institutions":
        ror_filter = re.search(r"ror:([^,]+)", ctx.get("filter"))
        if ror_filter:
            inst = _institution_by_id(ror_filter.group(1))
            results = [institution_object(inst, full=True)] if inst else []
        else:
            low = search.lower()
            results = [
                institution_object(i, full=True)
                for i in vocab.INSTITUTIONS
                if low and (low in i.name.lower() or (i.name_zh and search in i.name_zh))
            ]
    elif kind == "authors":
        results = []
    else:
        results = [_generated_entity(kind, search, n) for n in range(3)] if search else []
        recorded = [
            entity
            for (k, _), entity in (ctx.recordings.openalex_entities.items() if ctx.config.replay else [])
            if k == kind and search and search.lower() in str(entity.get("display_name", "")).lower()
        ]
        results = recorded + results
    meta = {
        "count": len(results),
        "db_response_time_ms": 9,
        "page": 1,
        "per_page": per_page,
        "groups_count": None,
    }
    return json_response({"meta": meta, "results": results[:per_page], "group_by": []})
