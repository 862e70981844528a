"""Parsing of E-utilities XML: PubMed efetch records into `Paper`, and esearch results.

Kept apart from the HTTP client so it can be tested against recorded bodies alone. The standard
library parser is enough: PubMed XML uses numeric character references only, and expat never
fetches the external DTD named in the DOCTYPE.

What the PubMed XML teaches (see ../shared/fixtures/API_NOTES.md):
- titles and abstracts carry inline markup (<i>, <sup>, <sub>, MathML); only the text is kept;
- a non-English article's ArticleTitle is an English translation in square brackets, the original
  is in VernacularTitle;
- ReferenceList and CommentsCorrections hold ids (PMIDs, DOIs) of *other* works, so ids are read
  only from the record's own paths, never with a descendant search;
- books (GeneReviews chapters) come as PubmedBookArticle with a different layout.
"""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from agent.models import AbstractSection, Affiliation, Author, MeshHeading, Paper, Source
from tools.errors import BadQuery, BadResponse
from tools.values import unique_strings

log = logging.getLogger(__name__)

MONTHS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1
    )
}
_YEAR = re.compile(r"\b(1[5-9]\d{2}|2\d{3})\b")


# ----------------------------------------------------------------------------------------------
# small helpers
# ----------------------------------------------------------------------------------------------


def text_of(element: ET.Element | None) -> str:
    """All the text inside an element, inline markup dropped, whitespace collapsed."""
    if element is None:
        return ""
    # str.split() collapses the same (Unicode) whitespace as `\s+`, at a fraction of a regex's cost:
    # this runs ~70 times per record
    if len(element):
        return " ".join("".join(element.itertext()).split())
    return " ".join(element.text.split()) if element.text else ""


def _texts(elements: Iterable[ET.Element]) -> list[str]:
    return [t for t in (text_of(e) for e in elements) if t]


_FEED_CHUNK = 64 * 1024


def parse_root(body: str | bytes, service: str, what: str) -> ET.Element:
    """Parse an XML body or raise BadResponse naming the service and the call (`what`)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    if not data.strip():
        raise BadResponse(service, f"{what} returned an empty body")
    try:
        # Fed in pieces: one call on a 1 MB page holds the GIL for ~15 ms, and a page is parsed in a
        # worker thread while the event loop must keep the sources' request slots on time.
        parser = ET.XMLParser()
        for start in range(0, len(data), _FEED_CHUNK):
            parser.feed(data[start : start + _FEED_CHUNK])
        return parser.close()
    except ET.ParseError as error:
        head = data.lstrip()[:15].lower()
        kind = "an HTML page" if head.startswith((b"<!doctype html", b"<html")) else "malformed XML"
        raise BadResponse(service, f"{what} returned {kind} ({error})") from None


def year_from_text(text: str | None) -> int | None:
    """First plausible year in a date string: "1998 Dec-1999 Jan" -> 1998, "2019 Nov-Dec" -> 2019."""
    if not text:
        return None
    match = _YEAR.search(text)
    return int(match.group(1)) if match else None


def _month_number(text: str) -> int | None:
    text = text.strip().lower()
    if text.isdigit():
        number = int(text)
        return number if 1 <= number <= 12 else None
    return MONTHS.get(text[:3])


def parse_date(element: ET.Element | None) -> tuple[int | None, str | None]:
    """(year, ISO-ish date) from a PubDate/ArticleDate-like element.

    The date is as precise as the record: "2022-02-04", "2022-09" or "2022". MedlineDate gives a
    year only, since its free text ("2019 Nov-Dec", "Spring 2001") names no single day.
    """
    if element is None:
        return None, None
    year_text = (element.findtext("Year") or "").strip()
    if not year_text:
        year = year_from_text(element.findtext("MedlineDate"))
        return year, (str(year) if year else None)
    year = year_from_text(year_text)
    if year is None:
        return None, None
    month = _month_number(element.findtext("Month") or "")
    if month is None:
        return year, str(year)
    day_text = (element.findtext("Day") or "").strip()
    day = int(day_text) if day_text.isdigit() and 1 <= int(day_text) <= 31 else None
    return year, f"{year}-{month:02d}" + (f"-{day:02d}" if day else "")


def clean_title(title: str) -> str:
    """Drop the square brackets PubMed puts around an English translation of a foreign title."""
    match = re.fullmatch(r"\[(.+)\](\.?)", title)
    if match and "[" not in match.group(1):
        return match.group(1) + match.group(2)
    return title


# ----------------------------------------------------------------------------------------------
# parts of a record
# ----------------------------------------------------------------------------------------------


def parse_authors(author_list: ET.Element | None) -> list[Author]:
    """Authors in byline order: personal names, group authors, every affiliation, ORCID."""
    if author_list is None:
        return []
    authors: list[Author] = []
    for element in author_list.findall("Author"):
        if element.get("ValidYN") == "N":  # an author removed by an erratum, still listed
            continue
        affiliations = []
        for info in element.findall("AffiliationInfo"):
            raw = text_of(info.find("Affiliation"))
            if not raw:
                continue
            ror = next(
                (text_of(i) for i in info.findall("Identifier") if (i.get("Source") or "").upper() == "ROR"),
                None,
            )
            affiliations.append(Affiliation(raw=raw, ror=ror or None))
        orcid = next(
            (text_of(i) for i in element.findall("Identifier") if (i.get("Source") or "").upper() == "ORCID"),
            None,
        )
        collective = text_of(element.find("CollectiveName"))
        if collective:
            author = Author(
                name=collective,
                position=len(authors) + 1,
                collective=True,
                affiliations=affiliations,
            )
        else:
            family = text_of(element.find("LastName"))
            given = text_of(element.find("ForeName")) or text_of(element.find("Initials"))
            suffix = text_of(element.find("Suffix"))
            name = " ".join(part for part in (given, family, suffix) if part)
            if not name:
                continue
            author = Author(
                name=name,
                given=given or None,
                family=family or None,
                position=len(authors) + 1,
                orcid=orcid,
                affiliations=affiliations,
            )
        authors.append(author)
    return authors


def parse_abstract(abstract: ET.Element | None) -> tuple[str | None, list[AbstractSection]]:
    """Joined abstract text plus its labelled sections (sections only for a structured abstract)."""
    if abstract is None:
        return None, []
    sections = [
        AbstractSection(label=(part.get("Label") or "").strip() or None, text=text)
        for part in abstract.findall("AbstractText")
        if (text := text_of(part))
    ]
    if not sections:
        return None, []
    joined = "\n".join(f"{s.label}: {s.text}" if s.label else s.text for s in sections)
    structured = any(s.label for s in sections)
    return joined, (sections if structured else [])


def parse_mesh(mesh_list: ET.Element | None) -> list[MeshHeading]:
    headings: list[MeshHeading] = []
    if mesh_list is None:
        return headings
    for heading in mesh_list.findall("MeshHeading"):
        descriptor = heading.find("DescriptorName")
        name = text_of(descriptor)
        if descriptor is None or not name:
            continue
        qualifiers = heading.findall("QualifierName")
        # A heading is a major topic when the descriptor or any of its qualifiers is starred.
        major = descriptor.get("MajorTopicYN") == "Y" or any(q.get("MajorTopicYN") == "Y" for q in qualifiers)
        headings.append(
            MeshHeading(
                descriptor=name, ui=descriptor.get("UI") or None, major=major, qualifiers=_texts(qualifiers)
            )
        )
    return headings


def _article_ids(*id_lists: ET.Element | None) -> dict[str, str]:
    """First value of each IdType across the record's own ArticleIdLists."""
    ids: dict[str, str] = {}
    for id_list in id_lists:
        if id_list is None:
            continue
        for article_id in id_list.findall("ArticleId"):
            kind = (article_id.get("IdType") or "").lower()
            value = text_of(article_id)
            if kind and value and kind not in ids:
                ids[kind] = value
    return ids


def _keywords(record: ET.Element) -> list[str]:
    return unique_strings(_texts(k for kl in record.findall("KeywordList") for k in kl.findall("Keyword")))


def _build(fields: dict[str, Any], service: str) -> Paper:
    try:
        return Paper(source=Source.PUBMED, **fields)
    except ValidationError as error:
        raise BadResponse(
            service, f"PubMed record {fields.get('pmid')} could not be mapped: {error.errors()[0]['msg']}"
        ) from None


# ----------------------------------------------------------------------------------------------
# records
# ----------------------------------------------------------------------------------------------


def parse_article(record: ET.Element, service: str = "pubmed") -> Paper | None:
    """One PubmedArticle. Returns None (and logs) for a record with no PMID."""
    citation = record.find("MedlineCitation")
    article = citation.find("Article") if citation is not None else None
    if citation is None or article is None:
        log.warning("%s: skipped a PubmedArticle without MedlineCitation/Article", service)
        return None
    pmid = text_of(citation.find("PMID"))
    if not pmid:
        log.warning("%s: skipped a PubmedArticle without a PMID", service)
        return None
    journal = article.find("Journal")
    year, date = parse_date(journal.find("JournalIssue/PubDate") if journal is not None else None)
    if year is None:  # no issue date at all: fall back to the electronic date, then to entry in PubMed
        year, date = parse_date(article.find("ArticleDate"))
    if year is None:
        year, _ = parse_date(record.find("PubmedData/History/PubMedPubDate[@PubStatus='pubmed']"))
    venue = None
    if journal is not None:
        venue = text_of(journal.find("Title")) or text_of(journal.find("ISOAbbreviation")) or None
    venue = venue or text_of(citation.find("MedlineJournalInfo/MedlineTA")) or None

    ids = _article_ids(record.find("PubmedData/ArticleIdList"))
    doi = next(
        (
            text_of(e)
            for e in article.findall("ELocationID")
            if (e.get("EIdType") or "").lower() == "doi" and e.get("ValidYN") != "N" and text_of(e)
        ),
        None,
    ) or ids.get("doi")

    abstract, sections = parse_abstract(article.find("Abstract"))
    if abstract is None:  # some records carry only an OtherAbstract (e.g. from the publisher)
        for other in citation.findall("OtherAbstract"):
            if (other.get("Language") or "eng") == "eng":
                abstract, sections = parse_abstract(other)
                if abstract:
                    break

    return _build(
        {
            "pmid": pmid,
            "title": clean_title(text_of(article.find("ArticleTitle")))
            or text_of(article.find("VernacularTitle")),
            "vernacular_title": text_of(article.find("VernacularTitle")) or None,
            "authors": parse_authors(article.find("AuthorList")),
            "year": year,
            "publication_date": date,
            "venue": venue,
            "doi": doi,
            "pmcid": ids.get("pmc"),
            "abstract": abstract,
            "abstract_sections": sections,
            "mesh_headings": parse_mesh(citation.find("MeshHeadingList")),
            "keywords": _keywords(citation),
            "publication_types": unique_strings(
                _texts(article.findall("PublicationTypeList/PublicationType"))
            ),
            "languages": _texts(article.findall("Language")),
        },
        service,
    )


def parse_book_article(record: ET.Element, service: str = "pubmed") -> Paper | None:
    """One PubmedBookArticle (a book or a chapter such as a GeneReviews entry)."""
    document = record.find("BookDocument")
    if document is None:
        log.warning("%s: skipped a PubmedBookArticle without BookDocument", service)
        return None
    pmid = text_of(document.find("PMID"))
    if not pmid:
        log.warning("%s: skipped a PubmedBookArticle without a PMID", service)
        return None
    book = document.find("Book")
    book_title = text_of(book.find("BookTitle")) if book is not None else ""
    year, date = parse_date(book.find("PubDate") if book is not None else None)
    if year is None:
        year, date = parse_date(document.find("ContributionDate"))

    # The chapter's authors are the authors; the book's editors stand in only when there are none.
    authors = parse_authors(
        next((a for a in document.findall("AuthorList") if a.get("Type", "authors") == "authors"), None)
    )
    if not authors and book is not None:
        authors = parse_authors(book.find("AuthorList"))

    ids = _article_ids(document.find("ArticleIdList"), record.find("PubmedBookData/ArticleIdList"))
    abstract, sections = parse_abstract(document.find("Abstract"))
    publication_types = document.findall("PublicationType") + document.findall(
        "PublicationTypeList/PublicationType"
    )
    return _build(
        {
            "pmid": pmid,
            "title": clean_title(text_of(document.find("ArticleTitle"))) or book_title,
            "vernacular_title": text_of(document.find("VernacularTitle")) or None,
            "authors": authors,
            "year": year,
            "publication_date": date,
            "venue": book_title or None,
            "doi": ids.get("doi"),
            "pmcid": ids.get("pmc"),
            "abstract": abstract,
            "abstract_sections": sections,
            "keywords": _keywords(document),
            "publication_types": unique_strings(_texts(publication_types)),
            "languages": _texts(document.findall("Language")),
            "is_book": True,
        },
        service,
    )


def parse_pubmed_xml(body: str | bytes, service: str = "pubmed") -> list[Paper]:
    """Every record of an efetch `PubmedArticleSet`, in document order.

    An empty set is a valid answer (unknown or withdrawn PMIDs). An `eFetchResult` carrying an
    ERROR (a bad id list, an expired history session) becomes BadQuery; anything else that is not
    a PubmedArticleSet becomes BadResponse.
    """
    root = parse_root(body, service, "PubMed efetch")
    if root.tag == "eFetchResult":
        message = text_of(root.find("ERROR")) or "an eFetchResult without records"
        raise BadQuery(service, f"PubMed efetch refused the request: {message}")
    if root.tag != "PubmedArticleSet":
        raise BadResponse(
            service, f"PubMed efetch returned <{root.tag}> where a PubmedArticleSet was expected"
        )
    papers: list[Paper] = []
    for record in root:
        if record.tag == "PubmedArticle":
            paper = parse_article(record, service)
        elif record.tag == "PubmedBookArticle":
            paper = parse_book_article(record, service)
        else:  # DeleteCitation and future record kinds carry no paper
            continue
        if paper is not None:
            papers.append(paper)
    return papers


# ----------------------------------------------------------------------------------------------
# esearch (XML mode), normalised to the JSON mode's `esearchresult` shape
# ----------------------------------------------------------------------------------------------


def parse_esearch_xml(body: str | bytes, service: str = "pubmed") -> dict[str, Any]:
    """An XML eSearchResult as the dict that `retmode=json` would have given (`esearchresult`).

    The client asks for JSON, but recorded sessions and some proxies answer in XML; mapping both to
    one shape keeps the error/warning logic in one place.
    """
    root = parse_root(body, service, "PubMed esearch")
    if root.tag != "eSearchResult":
        raise BadResponse(
            service, f"PubMed esearch returned <{root.tag}> where an eSearchResult was expected"
        )
    result: dict[str, Any] = {
        "count": root.findtext("Count"),
        "retmax": root.findtext("RetMax"),
        "retstart": root.findtext("RetStart"),
        "querykey": root.findtext("QueryKey"),
        "webenv": root.findtext("WebEnv"),
        "idlist": _texts(root.findall("IdList/Id")),
        "translationset": [
            {"from": text_of(t.find("From")), "to": text_of(t.find("To"))}
            for t in root.findall("TranslationSet/Translation")
        ],
        "querytranslation": text_of(root.find("QueryTranslation")),
    }
    stack: list[Any] = []
    for item in root.findall("TranslationStack/*"):
        if item.tag == "TermSet":
            stack.append(
                {
                    "term": text_of(item.find("Term")),
                    "field": text_of(item.find("Field")),
                    "count": text_of(item.find("Count")),
                    "explode": text_of(item.find("Explode")),
                }
            )
        elif item.tag == "OP":
            stack.append(text_of(item))
    if stack:
        result["translationstack"] = stack
    if root.find("ERROR") is not None:
        result["ERROR"] = text_of(root.find("ERROR"))
    errors = root.find("ErrorList")
    if errors is not None:
        result["errorlist"] = {
            "phrasesnotfound": _texts(errors.findall("PhraseNotFound")),
            "fieldsnotfound": _texts(errors.findall("FieldNotFound")),
        }
    warnings = root.find("WarningList")
    if warnings is not None:
        result["warninglist"] = {
            "phrasesignored": _texts(warnings.findall("PhraseIgnored")),
            "quotedphrasesnotfound": _texts(warnings.findall("QuotedPhraseNotFound")),
            "outputmessages": _texts(warnings.findall("OutputMessage")),
        }
    return result
