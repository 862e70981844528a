"""NCBI E-utilities for PubMed: esearch (JSON or XML, with the history server), efetch XML, esummary.

Shapes follow the recordings in fixtures/pubmed and API_NOTES.md §1: esearch numbers are strings,
query problems come back as HTTP 200 with ERROR / errorlist / warninglist, an unknown PMID is simply
left out of an efetch answer. Recorded PMIDs are replayed verbatim inside any efetch answer.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from xml.sax.saxutils import escape

from starlette.responses import Response

from evals.fake_sources import mesh
from evals.fake_sources.context import Ctx, json_response, text_response, xml_response
from evals.fake_sources.universe import FakePaper, query_key, stable_hash

RATE_HEADERS = {
    "X-RateLimit-Limit": "3",
    "X-RateLimit-Remaining": "2",
    "Access-Control-Expose-Headers": "X-RateLimit-Limit,X-RateLimit-Remaining",
    "NCBI-SID": "FAKE0000000000_0000SID",
}

FIELD_NAMES = {
    "tiab": "Title/Abstract",
    "title/abstract": "Title/Abstract",
    "ti": "Title",
    "title": "Title",
    "ab": "Abstract",
    "mh": "MeSH Terms",
    "mesh": "MeSH Terms",
    "mesh terms": "MeSH Terms",
    "majr": "MeSH Major Topic",
    "au": "Author",
    "author": "Author",
    "pt": "Publication Type",
    "dp": "Publication Date",
    "pdat": "Publication Date",
    "la": "Language",
    "tw": "Text Word",
    "ot": "Other Term",
    "ad": "Affiliation",
    "affiliation": "Affiliation",
    "ta": "Journal",
    "journal": "Journal",
    "all fields": "All Fields",
    "all": "All Fields",
    "sh": "MeSH Subheading",
    "doi": "DOI",
    "pmid": "PMID",
    "uid": "UID",
    "sb": "Filter",
    "filter": "Filter",
    "nm": "Supplementary Concept",
}
_TOKEN = re.compile(r'\s*(?:(\()|(\))|\b(AND|OR|NOT)\b|("[^"]*"|[^\s()"\[\]]+)(\[[^\]]*\])?)', re.I)
_EMPTY_TERM = "Empty term and query_key - nothing todo"
DOCTYPE = (
    '<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" '
    '"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">'
)


async def handle(ctx: Ctx) -> Response:
    endpoint = ctx.path.strip("/").lower()
    db = ctx.get("db", "pubmed").lower()
    if endpoint == "esearch.fcgi":
        return mesh.esearch(ctx) if db == "mesh" else esearch(ctx)
    if endpoint == "efetch.fcgi":
        return efetch(ctx)
    if endpoint == "esummary.fcgi":
        return mesh.esummary(ctx) if db == "mesh" else esummary(ctx)
    return text_response("<html><body><h1>404 Not Found</h1></body></html>", 404, "text/html")


# ------------------------------------------------------------------------------------------------
# esearch
# ------------------------------------------------------------------------------------------------


def webenv_for(ctx: Ctx, term: str) -> str:
    webenv = "MCID_" + hashlib.blake2b(f"{ctx.universe.seed}\x1f{term}".encode(), digest_size=12).hexdigest()
    ctx.state.webenvs[webenv] = term
    return webenv


def esearch(ctx: Ctx) -> Response:
    term = ctx.get("term").strip()
    as_xml = ctx.get("retmode", "xml").lower() != "json"
    if not term:
        return _esearch_error(_EMPTY_TERM, as_xml)
    stack, translation, unknown_fields = translate(term, ctx)
    total = ctx.universe.total(term, "pubmed", ctx.fake_total)
    retstart = max(0, ctx.get_int("retstart", 0))
    retmax = min(max(0, ctx.get_int("retmax", 20)), 10_000)
    if ctx.get("rettype").lower() == "count":
        if as_xml:
            return xml_response(
                f'<?xml version="1.0" encoding="UTF-8" ?>\n<eSearchResult><Count>{total}</Count></eSearchResult>\n',
                headers=RATE_HEADERS,
            )
        return json_response(
            {"header": _header("esearch"), "esearchresult": {"count": str(total)}}, headers=RATE_HEADERS
        )
    ids = [
        ctx.universe.ids(query_key(term), k)["pmid"]
        for k in ctx.universe.ranked(term, "pubmed", retstart, retstart + retmax, ctx.fake_total)
    ]
    result: dict[str, object] = {
        "count": str(total),
        "retmax": str(len(ids)),
        "retstart": str(retstart),
    }
    if ctx.get("usehistory").lower() == "y":
        result["querykey"] = "1"
        result["webenv"] = webenv_for(ctx, term)
    result["idlist"] = ids
    result["translationset"] = [
        {"from": t["term"].split("[")[0].strip('"'), "to": t["term"]} for t in stack if isinstance(t, dict)
    ][:3]
    result["translationstack"] = stack
    result["querytranslation"] = translation
    if unknown_fields:
        result["errorlist"] = {"phrasesnotfound": [], "fieldsnotfound": unknown_fields}
    if total == 0:
        result["errorlist"] = {"phrasesnotfound": [term], "fieldsnotfound": unknown_fields}
        result["warninglist"] = {
            "phrasesignored": [],
            "quotedphrasesnotfound": [],
            "outputmessages": ["No items found."],
        }
    if as_xml:
        return xml_response(_esearch_xml(result), headers=RATE_HEADERS)
    return json_response({"header": _header("esearch"), "esearchresult": result}, headers=RATE_HEADERS)


def _header(kind: str) -> dict[str, str]:
    return {"type": kind, "version": "0.3"}


def _esearch_error(message: str, as_xml: bool) -> Response:
    if as_xml:
        return xml_response(
            f'<?xml version="1.0" encoding="UTF-8" ?>\n<eSearchResult><ERROR>{escape(message)}</ERROR></eSearchResult>\n'
        )
    return json_response({"header": _header("esearch"), "esearchresult": {"ERROR": message}})


def translate(term: str, ctx: Ctx) -> tuple[list[object], str, list[str]]:
    """PubMed's translation stack (terms in RPN, operators as bare strings), query translation, bad fields."""
    tokens: list[str | dict[str, str]] = []
    unknown: list[str] = []
    for match in _TOKEN.finditer(term):
        lpar, rpar, op, text, tag = match.groups()
        if lpar:
            tokens.append("(")
        elif rpar:
            tokens.append(")")
        elif op:
            tokens.append(op.upper())
        elif text:
            field = "All Fields"
            if tag:
                name = tag.strip("[]").strip().lower()
                if name in FIELD_NAMES:
                    field = FIELD_NAMES[name]
                else:
                    unknown.append(tag.strip("[]"))
            count = str(stable_hash(ctx.universe.seed, text.lower(), field) % 200_000 + 1)
            tokens.append({"term": f"{text}[{field}]", "field": field, "count": count, "explode": "N"})
    stack: list[object] = []
    pos = 0

    def expr() -> str:
        nonlocal pos
        text = atom()
        while pos < len(tokens) and tokens[pos] in ("AND", "OR", "NOT"):
            op = str(tokens[pos])
            pos += 1
            right = atom()
            stack.append(op)
            text = f"{text} {op} {right}"
        return text

    def atom() -> str:
        nonlocal pos
        if pos >= len(tokens):
            return ""
        token = tokens[pos]
        pos += 1
        if token == "(":
            inner = expr()
            if pos < len(tokens) and tokens[pos] == ")":
                pos += 1
            stack.append("GROUP")
            return f"({inner})"
        if isinstance(token, dict):
            stack.append(token)
            # a bare word after another word means AND in PubMed
            while pos < len(tokens) and isinstance(nxt := tokens[pos], dict):
                pos += 1
                stack.append(nxt)
                stack.append("AND")
                token = {"term": f"{token['term']} AND {nxt['term']}"}
            return str(token["term"])
        return atom() if token != ")" else ""

    translation = expr()
    while pos < len(tokens):  # stray closing parentheses: skip them like PubMed does
        pos += 1
        if pos < len(tokens):
            translation = f"{translation} AND {expr()}"
    return stack, translation, unknown


def _esearch_xml(result: dict[str, Any]) -> str:
    ids = "".join(f"\n<Id>{i}</Id>" for i in result["idlist"])
    history = ""
    if "webenv" in result:
        history = f"<QueryKey>{result['querykey']}</QueryKey><WebEnv>{result['webenv']}</WebEnv>"
    translations = "".join(
        f"<Translation>     <From>{escape(t['from'])}</From>     <To>{escape(t['to'])}</To>    </Translation>"
        for t in result["translationset"]
    )
    stack = ""
    for item in result["translationstack"]:
        if isinstance(item, dict):
            stack += (
                f"<TermSet>    <Term>{escape(item['term'])}</Term>    <Field>{escape(item['field'])}</Field>"
                f"    <Count>{item['count']}</Count>    <Explode>N</Explode>   </TermSet>"
            )
        else:
            stack += f"<OP>{item}</OP>"
    return (
        '<?xml version="1.0" encoding="UTF-8" ?>\n'
        '<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" '
        '"https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd">\n'
        f"<eSearchResult><Count>{result['count']}</Count><RetMax>{result['retmax']}</RetMax>"
        f"<RetStart>{result['retstart']}</RetStart>{history}<IdList>{ids}\n</IdList>"
        f"<TranslationSet>{translations}</TranslationSet><TranslationStack>{stack}</TranslationStack>"
        f"<QueryTranslation>{escape(str(result['querytranslation']))}</QueryTranslation></eSearchResult>\n"
    )


# ------------------------------------------------------------------------------------------------
# efetch
# ------------------------------------------------------------------------------------------------


def requested_ids(ctx: Ctx) -> list[str] | str:
    """The PMIDs an efetch/esummary asks for, or an error message."""
    raw_ids = ctx.get("id")
    if raw_ids.strip():
        return [i for i in re.split(r"[\s,]+", raw_ids) if i]
    webenv = ctx.get("WebEnv")
    if not webenv:
        return "Empty id list - nothing todo"
    term = ctx.state.webenvs.get(webenv)
    if term is None or ctx.get("query_key", "1") != "1":
        return f"Unable to obtain query #{ctx.get('query_key', '1')}"
    retstart = max(0, ctx.get_int("retstart", 0))
    retmax = min(max(0, ctx.get_int("retmax", 20)), 10_000)
    key = query_key(term)
    ranks = ctx.universe.ranked(term, "pubmed", retstart, retstart + retmax, ctx.fake_total)
    return [str(ctx.universe.ids(key, k)["pmid"]) for k in ranks]


def efetch(ctx: Ctx) -> Response:
    ids = requested_ids(ctx)
    if isinstance(ids, str):
        return xml_response(
            f'<?xml version="1.0" encoding="UTF-8" ?>\n<eFetchResult>\n\t<ERROR>{escape(ids)}</ERROR>\n</eFetchResult>\n'
        )
    parts = []
    for pmid in ids:
        recorded = ctx.recordings.pubmed_articles.get(pmid) if ctx.config.replay else None
        if recorded:
            parts.append(recorded)
            continue
        paper = ctx.universe.lookup("pmid", pmid)
        if paper is not None:
            parts.append(article_xml(paper))
    body = "\n".join(parts)
    return xml_response(
        f'<?xml version="1.0" ?>\n{DOCTYPE}\n<PubmedArticleSet>\n{body}\n</PubmedArticleSet>',
        headers=RATE_HEADERS,
    )


def _markup(title: str) -> str:
    """Escape a title but keep the inline tags PubMed really sends."""
    text = escape(title)
    for tag in ("i", "b", "sub", "sup"):
        text = text.replace(f"&lt;{tag}&gt;", f"<{tag}>").replace(f"&lt;/{tag}&gt;", f"</{tag}>")
    return text


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def article_xml(p: FakePaper) -> str:
    journal_title, iso, issn, country = p.journal
    if p.medline_date:
        pub_date = f"<PubDate><MedlineDate>{p.medline_date}</MedlineDate></PubDate>"
    else:
        pub_date = f"<PubDate><Year>{p.year}</Year><Month>{_MONTHS[p.month - 1]}</Month><Day>{p.day:02d}</Day></PubDate>"
    elocation = (
        f'<ELocationID EIdType="doi" ValidYN="Y">{escape(p.doi)}</ELocationID>' if p.doi and p.k % 5 else ""
    )
    abstract = ""
    if p.abstract_sections:
        texts = "".join(
            f'<AbstractText Label="{label}" NlmCategory="{label}">{escape(text)}</AbstractText>'
            if label
            else f"<AbstractText>{escape(text)}</AbstractText>"
            for label, text in p.abstract_sections
        )
        abstract = f"<Abstract>{texts}</Abstract>"
    authors = []
    for author in p.authors:
        if author.collective:
            authors.append(
                f'<Author ValidYN="Y"><CollectiveName>{escape(author.collective)}</CollectiveName></Author>'
            )
            continue
        person = author.researcher
        assert person is not None
        orcid = f'<Identifier Source="ORCID">{person.orcid}</Identifier>' if person.orcid else ""
        affs = "".join(
            f"<AffiliationInfo><Affiliation>{escape(a.text)}</Affiliation></AffiliationInfo>"
            for a in author.affiliations
        )
        authors.append(
            f'<Author ValidYN="Y"><LastName>{escape(person.family)}</LastName><ForeName>{escape(person.given)}</ForeName>'
            f"<Initials>{person.initials}</Initials>{orcid}{affs}</Author>"
        )
    author_list = f'<AuthorList CompleteYN="Y">{"".join(authors)}</AuthorList>' if authors else ""
    pub_types = "".join(
        f'<PublicationType UI="{"D016428" if t == "Journal Article" else "D016454"}">{t}</PublicationType>'
        for t in p.publication_types
    )
    vernacular = (
        f"<VernacularTitle>{escape(p.vernacular_title)}</VernacularTitle>" if p.vernacular_title else ""
    )
    mesh_list = ""
    if p.mesh:
        headings = ""
        for ui, heading, major, quals in p.mesh:
            q = "".join(
                f'<QualifierName UI="{qui}" MajorTopicYN="N">{qname}</QualifierName>' for qui, qname in quals
            )
            headings += (
                f'<MeshHeading><DescriptorName UI="{ui}" MajorTopicYN="{"Y" if major else "N"}">{escape(heading)}'
                f"</DescriptorName>{q}</MeshHeading>"
            )
        mesh_list = f"<MeshHeadingList>{headings}</MeshHeadingList>"
    keywords = "".join(f'<Keyword MajorTopicYN="N">{escape(k)}</Keyword>' for k in p.keywords)
    ids = f'<ArticleId IdType="pubmed">{p.pmid}</ArticleId>'
    if p.doi:
        ids += f'<ArticleId IdType="doi">{escape(p.doi)}</ArticleId>'
    if p.pmcid:
        ids += f'<ArticleId IdType="pmc">{p.pmcid}</ArticleId>'
    status = "MEDLINE" if p.mesh else "PubMed-not-MEDLINE"
    return (
        f'<PubmedArticle><MedlineCitation Status="{status}" Owner="NLM"><PMID Version="1">{p.pmid}</PMID>'
        f"<DateRevised><Year>{min(p.year + 1, 2025)}</Year><Month>01</Month><Day>15</Day></DateRevised>"
        f'<Article PubModel="Print-Electronic"><Journal><ISSN IssnType="Electronic">{issn}</ISSN>'
        f'<JournalIssue CitedMedium="Internet"><Volume>{p.volume}</Volume><Issue>{p.issue}</Issue>{pub_date}</JournalIssue>'
        f"<Title>{escape(journal_title)}</Title><ISOAbbreviation>{escape(iso)}</ISOAbbreviation></Journal>"
        f"<ArticleTitle>{_markup(p.title_markup)}</ArticleTitle><Pagination><MedlinePgn>{p.pages}</MedlinePgn></Pagination>"
        f"{elocation}{abstract}{author_list}<Language>{p.language}</Language>"
        f"<PublicationTypeList>{pub_types}</PublicationTypeList>{vernacular}"
        f'<ArticleDate DateType="Electronic"><Year>{p.year}</Year><Month>{p.month:02d}</Month><Day>{p.day:02d}</Day></ArticleDate>'
        f"</Article><MedlineJournalInfo><Country>{country}</Country><MedlineTA>{escape(iso)}</MedlineTA>"
        f"<ISSNLinking>{issn}</ISSNLinking></MedlineJournalInfo>{mesh_list}"
        f'<KeywordList Owner="NOTNLM">{keywords}</KeywordList></MedlineCitation>'
        f'<PubmedData><History><PubMedPubDate PubStatus="pubmed"><Year>{p.year}</Year><Month>{p.month}</Month>'
        f"<Day>{p.day}</Day></PubMedPubDate></History><PublicationStatus>ppublish</PublicationStatus>"
        f"<ArticleIdList>{ids}</ArticleIdList></PubmedData></PubmedArticle>"
    )


# ------------------------------------------------------------------------------------------------
# esummary (JSON, the fields clients use)
# ------------------------------------------------------------------------------------------------


def esummary(ctx: Ctx) -> Response:
    ids = requested_ids(ctx)
    if isinstance(ids, str):
        return json_response({"header": _header("esummary"), "error": ids})
    result: dict[str, object] = {"uids": []}
    for pmid in ids:
        paper = ctx.universe.lookup("pmid", pmid)
        if paper is None:
            result[pmid] = {"uid": pmid, "error": "cannot get document summary"}
            result["uids"].append(pmid)  # type: ignore[attr-defined]
            continue
        article_ids = [{"idtype": "pubmed", "idtypen": 1, "value": pmid}]
        if paper.doi:
            article_ids.append({"idtype": "doi", "idtypen": 3, "value": paper.doi})
        result["uids"].append(pmid)  # type: ignore[attr-defined]
        result[pmid] = {
            "uid": pmid,
            "pubdate": f"{paper.year} {_MONTHS[paper.month - 1]} {paper.day}",
            "source": paper.journal[1],
            "authors": [
                {"name": a.name, "authtype": "CollectiveName" if a.collective else "Author"}
                for a in paper.authors
            ],
            "lastauthor": paper.authors[-1].name if paper.authors else "",
            "title": paper.title,
            "fulljournalname": paper.journal[0],
            "elocationid": f"doi: {paper.doi}" if paper.doi else "",
            "articleids": article_ids,
            "lang": [paper.language],
        }
    return json_response({"header": _header("esummary"), "result": result}, headers=RATE_HEADERS)
