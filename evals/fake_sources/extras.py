"""Europe PMC, Unpaywall and Zotero in their minimal real shapes (API_NOTES.md §5, §7, §10).

Recorded responses are replayed first (by the app); these handlers answer everything else from the
generated universe: Europe PMC searches list the PubMed side of a query's universe, Unpaywall knows
every DOI the server has handed out, Zotero libraries other than the recorded one are empty.
"""

from __future__ import annotations

import base64
import re
from typing import Any
from xml.sax.saxutils import escape

from starlette.responses import Response

from evals.fake_sources.context import Ctx, json_response, text_response, xml_response
from evals.fake_sources.universe import FakePaper

# ------------------------------------------------------------------------------------------------
# Europe PMC
# ------------------------------------------------------------------------------------------------


async def handle_europepmc(ctx: Ctx) -> Response:
    path = ctx.path.strip("/")
    if path.lower() in ("search", "searchpost"):
        return epmc_search(ctx)
    match = re.fullmatch(r"(PMC\d+)/fullTextXML", path, re.I)
    if match:
        return epmc_fulltext(ctx, match.group(1).upper())
    return text_response("Not Found", 404)


def _epmc_cursor(offset: int) -> str:
    return base64.b64encode(f"AoII{offset}".encode()).decode()


def _epmc_offset(cursor: str) -> int:
    if cursor in ("", "*", "%2A"):
        return 0
    try:
        text = base64.b64decode(cursor).decode()
    except (ValueError, UnicodeDecodeError):
        return 0
    return int(text[4:]) if text.startswith("AoII") and text[4:].isdigit() else 0


def _epmc_record(p: FakePaper, core: bool) -> dict[str, Any]:
    record: dict[str, Any] = {"id": p.pmid, "source": "MED", "pmid": p.pmid}
    if p.pmcid:
        record["pmcid"] = p.pmcid
    if p.doi:
        record["doi"] = p.doi
    record.update(
        {
            "title": p.title,
            "authorString": ", ".join(
                f"{a.researcher.family} {a.researcher.initials}" if a.researcher else (a.collective or "")
                for a in p.authors
                if a.researcher or a.collective
            )
            + ".",
            "journalTitle": p.journal[1],
            "pubYear": str(p.year),
            "journalIssn": p.journal[2],
            "pageInfo": p.pages,
            "pubType": "journal article",
            "isOpenAccess": "Y" if p.oa_url else "N",
            "inEPMC": "Y" if p.pmcid else "N",
            "inPMC": "Y" if p.pmcid else "N",
            "citedByCount": p.citation_count,
            "firstPublicationDate": p.publication_date,
        }
    )
    if core:
        record["abstractText"] = p.abstract
        record["language"] = p.language
        record["authorList"] = {
            "author": [
                {
                    "fullName": f"{a.researcher.family} {a.researcher.initials}",
                    "firstName": a.researcher.given,
                    "lastName": a.researcher.family,
                    "initials": a.researcher.initials,
                    **(
                        {"authorId": {"type": "ORCID", "value": a.researcher.orcid}}
                        if a.researcher.orcid
                        else {}
                    ),
                    "authorAffiliationDetailsList": {
                        "authorAffiliation": [{"affiliation": x.text} for x in a.affiliations]
                    },
                }
                for a in p.authors
                if a.researcher is not None
            ]
        }
    return record


def epmc_search(ctx: Ctx) -> Response:
    query = ctx.get("query").strip()
    result_type = ctx.get("resultType", "lite").lower()
    page_size = min(1000, max(1, ctx.get_int("pageSize", 25)))
    cursor = ctx.get("cursorMark", "*")
    offset = _epmc_offset(cursor)
    total = ctx.universe.total(query, "pubmed", ctx.fake_total) if query else 0
    papers = ctx.universe.page(query, "pubmed", offset, page_size, ctx.fake_total) if query else []
    if result_type == "idlist":
        results = [
            {"id": p.pmid, "source": "MED", "pmid": p.pmid, **({"pmcid": p.pmcid} if p.pmcid else {})}
            for p in papers
        ]
    else:
        results = [_epmc_record(p, result_type == "core") for p in papers]
    body: dict[str, Any] = {"version": "6.9", "hitCount": total}
    if offset + len(papers) < total:
        body["nextCursorMark"] = _epmc_cursor(offset + len(papers))
    body["request"] = {
        "queryString": query,
        "resultType": result_type,
        "cursorMark": cursor,
        "pageSize": page_size,
        "sort": ctx.get("sort"),
        "synonym": ctx.get("synonym").lower() == "true",
    }
    body["resultList"] = {"result": results}
    return json_response(body)


def epmc_fulltext(ctx: Ctx, pmcid: str) -> Response:
    paper = ctx.universe.lookup("pmcid", pmcid)
    if paper is None:
        return text_response("", 404)
    affs = "".join(
        f'<aff id="aff{i}">{escape(a.text)}</aff>'
        for i, a in enumerate({x.text: x for au in paper.authors for x in au.affiliations}.values())
    )
    contribs = "".join(
        f'<contrib contrib-type="author"><name><surname>{escape(a.researcher.family)}</surname>'
        f"<given-names>{escape(a.researcher.given)}</given-names></name></contrib>"
        for a in paper.authors
        if a.researcher is not None
    )
    sections = "".join(
        f"<sec><title>{escape(label.title() if label else 'Introduction')}</title><p>{escape(text)}</p></sec>"
        for label, text in paper.abstract_sections
    )
    doi = f'<article-id pub-id-type="doi">{escape(paper.doi)}</article-id>' if paper.doi else ""
    return xml_response(
        '<?xml version="1.0" encoding="UTF-8"?>\n<article article-type="research-article"><front><article-meta>'
        f'<article-id pub-id-type="pmcid">{pmcid}</article-id><article-id pub-id-type="pmid">{paper.pmid}</article-id>{doi}'
        f"<title-group><article-title>{escape(paper.title)}</article-title></title-group>"
        f"<contrib-group>{contribs}</contrib-group>{affs}<abstract><p>{escape(paper.abstract)}</p></abstract>"
        f"</article-meta></front><body>{sections}</body><back><ref-list/></back></article>"
    )


# ------------------------------------------------------------------------------------------------
# Unpaywall
# ------------------------------------------------------------------------------------------------


def unpaywall_precheck(ctx: Ctx) -> Response | None:
    """Unpaywall refuses any request without an e-mail, before looking anything up."""
    if ctx.get("email"):
        return None
    return json_response(
        {
            "HTTP_status_code": 422,
            "error": True,
            "message": "Please provide your email in the form ?email=you@example.com",
        },
        status=422,
    )


async def handle_unpaywall(ctx: Ctx) -> Response:
    path = ctx.path.strip("/")
    if path.lower() == "search":
        return json_response({"results": [], "elapsed_seconds": 0.012})
    doi = path.lower()
    if ctx.config.replay and doi in ctx.recordings.unpaywall:
        return json_response(ctx.recordings.unpaywall[doi])
    paper = ctx.universe.lookup("doi", doi)
    if paper is None:
        return json_response(
            {
                "HTTP_status_code": 404,
                "error": True,
                "message": f"'{doi}' is an invalid doi. See https://doi.org/{doi}",
            },
            status=404,
        )
    return json_response(unpaywall_record(paper))


def unpaywall_record(p: FakePaper) -> dict[str, Any]:
    location = None
    if p.oa_url:
        location = {
            "url": p.oa_url,
            "url_for_pdf": p.oa_url if p.oa_url.endswith("pdf") else None,
            "url_for_landing_page": f"https://doi.org/{p.doi}",
            "evidence": "open (via page says license)",
            "license": "cc-by" if p.oa_status == "gold" else None,
            "version": "publishedVersion",
            "host_type": "repository" if p.oa_status == "green" else "publisher",
            "is_best": True,
            "pmh_id": None,
            "endpoint_id": None,
            "repository_institution": None,
            "oa_date": p.publication_date,
            "updated": "2025-01-15T00:00:00",
        }
    people = [a for a in p.authors if a.researcher is not None]
    return {
        "doi": p.doi,
        "doi_url": f"https://doi.org/{p.doi}",
        "title": p.title,
        "genre": "journal-article",
        "is_paratext": False,
        "published_date": p.publication_date,
        "year": p.year,
        "journal_name": p.journal[0],
        "journal_issns": p.journal[2],
        "journal_issn_l": p.journal[2],
        "journal_is_oa": p.oa_status == "gold",
        "journal_is_in_doaj": p.oa_status == "gold",
        "publisher": "Fake Publisher",
        "is_oa": p.oa_url is not None,
        "oa_status": p.oa_status,
        "has_repository_copy": bool(p.pmcid),
        "best_oa_location": location,
        "first_oa_location": location,
        "oa_locations": [location] if location else [],
        "oa_locations_embargoed": [],
        "data_standard": 2,
        "z_authors": [
            {
                "author_position": "first" if i == 0 else "additional",
                "raw_author_name": a.researcher.name,  # type: ignore[union-attr]
                "is_corresponding": a.corresponding,
                "raw_affiliation_strings": [x.text for x in a.affiliations],
            }
            for i, a in enumerate(people)
        ]
        or None,
        "updated": "2025-01-15T00:00:00",
    }


# ------------------------------------------------------------------------------------------------
# Zotero
# ------------------------------------------------------------------------------------------------


async def handle_zotero(ctx: Ctx) -> Response:
    # Everything the recordings hold was replayed already; other libraries exist but are empty.
    path = ctx.path.strip("/")
    if re.fullmatch(r"(users|groups)/[^/]+/(items(/top)?|collections|tags)", path):
        return json_response(
            [], headers={"Total-Results": "0", "Last-Modified-Version": "1", "Zotero-API-Version": "3"}
        )
    return text_response("Not found", 404)
