"""Tiered full text: the JATS parser on real Europe PMC articles, and the tiers over real recorded answers."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from agent.ask.fulltext import FullTextTier, canonical_section, fetch_fulltext, parse_jats, select_papers
from agent.models import AggregatedPaper, Paper
from tests.paths import FIXTURES
from tools.europepmc import EuropePMCClient
from tools.http import HttpPolicy, SourceConfig
from tools.unpaywall import UnpaywallClient

NAR = (FIXTURES / "europepmc" / "epmc_fulltext_PMC3258128.xml").read_text(encoding="utf-8")
IJOP = (FIXTURES / "europepmc" / "epmc_fulltext_PMC13246274.xml").read_text(encoding="utf-8")
EPMC = "https://epmc.test/rest"
UPW = "https://upw.test/v2"


# -- JATS ---------------------------------------------------------------------------------------


def test_nar_article_sections_in_reading_order():
    blocks = parse_jats(NAR)
    kinds = [b.kind for b in blocks]
    assert kinds[0] == "introduction" and blocks[0].title == "INTRODUCTION"
    # the top-level heading names every subsection ("Statistic analysis" stays methods)
    methods = [b for b in blocks if b.kind == "methods"]
    assert methods[0].title == "MATERIALS AND METHODS › Cell lines and cultures"
    assert methods[-1].title.endswith("Statistic analysis") and "Student's t-test" in methods[-1].text
    assert kinds.index("methods") < kinds.index("results") < kinds.index("discussion")
    # figures are captions right after the text of the (sub)section that holds them
    first_figure = kinds.index("figure")
    assert blocks[first_figure - 1].title == "RESULTS › Affinity purification of miR-122 target mRNAs"
    assert blocks[first_figure].title == "Figure 1" and blocks[first_figure].caption.startswith(
        "Affinity purification with biotin-tagged miR-122"
    )
    assert sum(1 for k in kinds if k == "figure") == 5
    # the figure's caption is not repeated inside the paragraph that holds it
    assert "Results of the mean of triplicate" not in blocks[first_figure - 1].text
    # funding, supplementary data and the references are left out; no abstract unless asked
    text = " ".join(b.text for b in blocks)
    assert "2010CB912801" not in text and "Supplementary Data are available" not in text
    assert "abstract" not in kinds
    # entities, references and MathML-free prose come out as plain text
    assert "∼22 nt" in blocks[0].text and "<xref" not in text and "&#" not in text


def test_ijop_article_tables_and_generic_parents():
    blocks = parse_jats(IJOP, include_abstract=True)
    assert blocks[0].kind == "abstract" and blocks[0].text.startswith("Grounded in a Chinese indigenous")
    # "2 Study 1" says nothing, so its subsections name themselves
    participants = next(b for b in blocks if b.title == "2 Study 1 › 2.1 Participants and Procedure")
    assert participants.kind == "methods"
    assert next(b for b in blocks if b.title == "2 Study 1").kind == "other"
    tables = [b for b in blocks if b.kind == "table"]
    assert [t.title for t in tables] == ["TABLE 1", "TABLE 2", "TABLE 3"]
    assert tables[0].caption == "Descriptive statistics and correlations in Study 1 (n = 205)."
    assert "1. T1 Junzi personality | 5.20 (0.65)" in tables[0].text
    # a table follows the text of the subsection it sits in
    index = blocks.index(tables[0])
    assert blocks[index - 1].title.endswith("2.3.2 Descriptive Statistics and Correlations")
    assert "Hypothetical model." in [b.caption for b in blocks if b.kind == "figure"]
    titles = {b.title for b in blocks}
    assert not any(
        t.startswith(("Funding", "Conflicts of Interest", "Author Contributions", "Data Availability"))
        for t in titles
    )
    assert "6 Conclusions" in titles


def test_floats_outside_the_body_follow_their_first_citation():
    xml = """<?xml version="1.0"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS//EN" "JATS-archivearticle1.dtd">
<article><front><article-meta><abstract><p>Short&nbsp;abstract.</p></abstract></article-meta></front>
<body><p>Loose lead paragraph.</p>
<sec sec-type="methods"><title>Methods</title><p>We measured X (<xref ref-type="table" rid="t1">Table 1</xref>).</p></sec>
<sec><title>Results</title><p>It worked (<xref ref-type="fig" rid="f1">Fig. 1</xref>).</p></sec></body>
<floats-group>
<fig id="f1"><label>Figure 1.</label><caption><title>Outcome.</title><p>Bars show means.</p></caption></fig>
<table-wrap id="t1"><label>Table 1</label><caption><p>Cohort.</p></caption>
<table><tr><th>Group</th><th>n</th></tr><tr><td>A</td><td>12</td></tr></table>
<table-wrap-foot><p>n, participants.</p></table-wrap-foot></table-wrap>
<table-wrap id="t9"><label>Table 9</label><caption><p>Never cited.</p></caption></table-wrap>
</floats-group></article>"""
    blocks = parse_jats(xml, include_abstract=True)
    assert [(b.kind, b.title) for b in blocks] == [
        ("abstract", "Abstract"),
        ("other", ""),
        ("methods", "Methods"),
        ("table", "Table 1"),
        ("results", "Results"),
        ("figure", "Figure 1"),
        ("table", "Table 9"),
    ]
    assert blocks[0].text == "Short abstract."  # an HTML entity without its DTD still parses
    assert blocks[3].text == "Group | n\nA | 12\nn, participants." and blocks[3].caption == "Cohort."
    assert blocks[5].caption == "Outcome. Bars show means."
    assert [b.kind for b in parse_jats(xml, include_tables=False)] == [
        "other",
        "methods",
        "results",
        "figure",
    ]


def test_not_jats():
    with pytest.raises(ValueError, match="well-formed"):
        parse_jats("<html><body>oops")
    with pytest.raises(ValueError, match="no <article>"):
        parse_jats("<responseWrapper><hitCount>0</hitCount></responseWrapper>")


@pytest.mark.parametrize(
    ("title", "sec_type", "kind"),
    [
        ("INTRODUCTION", None, "introduction"),
        ("1 Introduction", None, "introduction"),
        ("Background", None, "introduction"),
        ("IV. Results", None, "results"),
        ("Results and Discussion", None, "results"),
        ("2.1 Participants and Procedure", None, "methods"),
        ("Whatever", "materials|methods", "methods"),
        ("Whatever", "results|discussion", "results"),
        ("Concluding remarks", None, "conclusion"),
        ("Study 1", None, "other"),
    ],
)
def test_canonical_section(title, sec_type, kind):
    assert canonical_section(title, sec_type) == kind


# -- the tiers ----------------------------------------------------------------------------------


def paper(key: str, rank: int, **ids: str) -> AggregatedPaper:
    return AggregatedPaper(
        key=key, rank=rank, paper=Paper(title=f"Paper {key}", abstract="An abstract.", **ids)
    )


def upw(name: str) -> httpx.Response:
    data = json.loads((FIXTURES / "unpaywall" / name).read_text(encoding="utf-8"))
    return httpx.Response(data["status"], json=data["body"])


def epmc_json(name: str) -> httpx.Response:
    return httpx.Response(200, content=(FIXTURES / "europepmc" / name).read_bytes())


@pytest.fixture
async def clients() -> AsyncIterator[Callable[..., tuple[EuropePMCClient, UnpaywallClient, list[str]]]]:
    opened: list[httpx.AsyncClient] = []

    def make(routes: dict[str, httpx.Response | Callable[[httpx.Request], httpx.Response]]):
        seen: list[str] = []

        def handler(request: httpx.Request) -> httpx.Response:
            url = str(request.url)
            seen.append(url)
            for prefix, answer in routes.items():
                if prefix in url:
                    return answer(request) if callable(answer) else answer
            return httpx.Response(404, text="not found")

        http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        opened.append(http)
        fast = {"rate": 1000.0, "retries": 1, "backoff": 0.01}
        europepmc = EuropePMCClient(
            HttpPolicy(http, SourceConfig(service="europepmc", base_url=EPMC, **fast))
        )
        unpaywall = UnpaywallClient(
            HttpPolicy(http, SourceConfig(service="unpaywall", base_url=UPW, **fast)), email="t@example.org"
        )
        return europepmc, unpaywall, seen

    yield make
    for http in opened:
        await http.aclose()


async def test_every_tier_and_every_fallback(clients, caplog):
    europepmc, unpaywall, seen = clients(
        {
            "PMC3258128/fullTextXML": httpx.Response(200, text=NAR),
            "/search": epmc_json("epmc_search_post_synonym.json"),  # resolves PMID 40353141 -> PMC12062895
            "10.1073/pnas.1414271111": upw("pqa_unpaywall_doi_10.1073_pnas.1414271111.json"),
            "10.1023/a:1007154515475": upw("pqa_unpaywall_doi_10.1023_a.1007154515475.json"),
        }
    )
    papers = [
        paper("pmc", 1, pmcid="PMC3258128"),
        paper("pnas", 2, doi="10.1073/pnas.1414271111"),
        paper("closed", 3, doi="10.1023/a:1007154515475"),
        paper("resolved", 4, pmid="40353141"),
        paper("no-ids", 5),
        paper("late", 6, pmcid="PMC3258128"),
    ]
    with caplog.at_level(logging.INFO, logger="agent.ask.fulltext"):
        result = await fetch_fulltext(
            papers, europepmc=europepmc, unpaywall=unpaywall, limit=5, concurrency=2
        )

    assert list(result) == ["pmc"]
    assert result["pmc"][0].kind == "introduction"
    outcomes = result.outcomes
    assert list(outcomes) == ["pmc", "pnas", "closed", "resolved", "no-ids", "late"]
    pmc = outcomes["pmc"]
    assert (
        pmc.tier is FullTextTier.PMC and pmc.pmcid == "PMC3258128" and pmc.figures == 5 and pmc.sections > 10
    )
    # Unpaywall's PubMed Central copy is tried as JATS first (404 here), then the OA PDF is recorded
    pnas = outcomes["pnas"]
    assert any(url.endswith("PMC4234579/fullTextXML") for url in seen)
    assert pnas.tier is FullTextTier.OA_LOCATION and pnas.oa_status == "bronze"
    assert pnas.pdf_url == "https://www.pnas.org/content/pnas/111/45/E4832.full.pdf"
    assert any("PMC4234579" in note for note in pnas.notes) and any(
        "no text was read from it" in n for n in pnas.notes
    )
    closed = outcomes["closed"]
    assert closed.tier is FullTextTier.ABSTRACT and closed.oa_url is None
    assert any("no open-access copy (closed)" in note for note in closed.notes)
    # the PMID was resolved to a PMCID by the batched Europe PMC lookup, whose full text is missing
    resolved = outcomes["resolved"]
    assert any(url.endswith("PMC12062895/fullTextXML") for url in seen)
    assert resolved.tier is FullTextTier.ABSTRACT and any("no DOI" in n for n in resolved.notes)
    assert outcomes["no-ids"].tier is FullTextTier.ABSTRACT
    assert (
        outcomes["late"].tier is FullTextTier.ABSTRACT
        and "beyond the full-text limit" in outcomes["late"].notes[0]
    )
    assert result.counts() == {"zotero": 0, "pmc_oa": 1, "oa_pdf": 0, "oa_location": 1, "abstract": 4}
    assert "1 from PMC" in result.summary()
    # every degradation is logged
    assert any(
        "no PMC full text for PMC4234579" in r.getMessage() and r.levelno == logging.WARNING
        for r in caplog.records
    )
    assert any("full text ✓" in r.getMessage() for r in caplog.records)


async def test_required_papers_are_fetched_whatever_the_limit(clients):
    europepmc, unpaywall, _ = clients({"PMC3258128/fullTextXML": httpx.Response(200, text=NAR)})
    papers = [paper("top", 1, doi="10.1000/top"), paper("named", 9, pmcid="PMC3258128")]
    result = await fetch_fulltext(
        papers, europepmc=europepmc, unpaywall=unpaywall, limit=0, required={"named"}, resolve_ids=False
    )
    assert list(result) == ["named"] and result.outcomes["named"].required
    assert result.outcomes["top"].tier is FullTextTier.ABSTRACT


async def test_failures_degrade_per_paper(clients, caplog):
    europepmc, unpaywall, _ = clients(
        {
            "/search": httpx.Response(503, text="down"),
            "fullTextXML": httpx.Response(200, text="<!DOCTYPE html><html>maintenance</html>"),
            "/v2/": httpx.Response(500, text="boom"),
        }
    )
    papers = [paper("a", 1, pmcid="PMC1", doi="10.1000/a"), paper("b", 2, pmid="123")]
    with caplog.at_level(logging.WARNING, logger="agent.ask.fulltext"):
        result = await fetch_fulltext(papers, europepmc=europepmc, unpaywall=unpaywall)
    assert dict(result) == {}
    a = result.outcomes["a"]
    assert a.tier is FullTextTier.ABSTRACT
    assert any("expected JATS" in n for n in a.notes) and any(n.startswith("Unpaywall:") for n in a.notes)
    assert any("id lookup failed" in r.getMessage() for r in caplog.records)


async def test_without_clients_everything_is_abstract():
    result = await fetch_fulltext([paper("a", 1, pmcid="PMC1")], europepmc=None, unpaywall=None)
    assert result.outcomes["a"].tier is FullTextTier.ABSTRACT
    with pytest.raises(ValueError):
        await fetch_fulltext([], europepmc=None, unpaywall=None, concurrency=0)


async def test_a_paper_without_abstract_gets_the_jats_abstract(clients):
    europepmc, unpaywall, _ = clients({"fullTextXML": httpx.Response(200, text=NAR)})
    bare = AggregatedPaper(key="bare", rank=1, paper=Paper(title="t", pmcid="PMC3258128"))
    result = await fetch_fulltext([bare], europepmc=europepmc, unpaywall=unpaywall, resolve_ids=False)
    assert result["bare"][0].kind == "abstract"


def test_select_papers_orders_by_rank_and_keeps_required():
    papers = [paper("c", 3), paper("a", 1), AggregatedPaper(key="n", paper=Paper(title="x")), paper("b", 2)]
    chosen, rest = select_papers(papers, limit=2, required={"c"})
    assert [p.key for p in chosen] == ["c", "a", "b"] and [p.key for p in rest] == ["n"]
    chosen, rest = select_papers(papers, limit=None)
    assert [p.key for p in chosen] == ["a", "b", "c", "n"] and rest == []
