"""The 002 full-text tiers for a question: named papers, Methods/Results vs Related Work, the budget,
the per-paper cache, re-indexing and the §7 log — with fake Europe PMC / Unpaywall ports and engine."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from agent.ask.fulltext_ask import FulltextCache, prepare_fulltext
from agent.ask.fulltext_plan import named_papers, plan_fulltext, question_need, within_budget
from agent.models import AggregatedPaper, Paper
from tests.agent.ask.test_ask import _trace_result
from tests.paths import FIXTURES
from tools.retrieval.types import SectionHit

NAR_XML = (FIXTURES / "europepmc" / "epmc_fulltext_PMC3258128.xml").read_text(encoding="utf-8")
NAR = AggregatedPaper(
    key="doi:10.1093/nar/gkr715",
    rank=1,
    paper=Paper(
        title="Hepato-specific microRNA-122 facilitates accumulation of newly synthesized miRNA through regulating PRKRA",
        doi="10.1093/nar/gkr715",
        pmcid="PMC3258128",
        pmid="21908402",
        abstract="miR-122 is abundantly expressed in human liver.",
    ),
)
EEG = AggregatedPaper(
    key="pmid:2",
    rank=2,
    paper=Paper(title="Motor imagery BCI with scalp EEG", pmid="2", abstract="Mu rhythm."),
)
PAPERS = [NAR, EEG]


def test_named_papers_by_doi_pmid_and_whole_title():
    assert named_papers("What does doi 10.1093/NAR/gkr715 say?", PAPERS) == {
        NAR.key: "DOI 10.1093/nar/gkr715"
    }
    assert named_papers("Summarise PMID: 21908402", PAPERS) == {NAR.key: "PMID 21908402"}
    assert named_papers("In 'Motor imagery BCI with scalp EEG', what drove the cursor?", PAPERS) == {
        EEG.key: "title"
    }
    assert named_papers("motor imagery in general", PAPERS) == {}  # part of a title is not a name


def test_the_question_decides_the_tier():
    assert question_need("What sample sizes were used?") == "methods_results"
    assert question_need("样本量是多少？") == "methods_results"
    assert question_need("How does this compare with previous work?") == "related_work"
    assert question_need("Which papers are about speech?") == "abstract"
    plan = plan_fulltext("How was PRKRA measured?", PAPERS, [EEG.key, NAR.key], budget_chars=100)
    assert plan.required == [EEG.key, NAR.key] and plan.optional == []
    plan = plan_fulltext("Compare with previous work", PAPERS, [NAR.key, EEG.key], budget_chars=100)
    assert plan.required == [] and plan.optional == [NAR.key, EEG.key]
    assert within_budget(plan, {NAR.key: 80, EEG.key: 50}) == ([NAR.key], [EEG.key])


class Port:
    def __init__(self) -> None:
        self.calls: list[str] = []

    async def fulltext_xml(self, pmcid: str) -> str:
        self.calls.append(pmcid)
        return NAR_XML

    async def lookup(self, **ids: Any) -> list[Any]:
        return []


class Unpaywall:
    async def lookup(self, doi: str) -> Any:
        return SimpleNamespace(is_oa=False, url=None, pmcid=None, oa_status="closed")


class Engine:
    def __init__(self, ranked: list[str]) -> None:
        self.ranked = ranked
        self.ingested: list[dict[str, Any]] = []

    async def run_has_index(self, run_id: str) -> bool:
        return True

    async def search(self, run_id: str, question: str, **options: Any) -> Any:
        hits = [
            SectionHit(
                section_id=f"{k}#abstract#0", paper_key=k, section="abstract", ordinal=0, text="t", score=1.0
            )
            for k in self.ranked
        ]
        return _trace_result(run_id, question, hits)

    async def ingest(
        self, run_id: str, papers: list[AggregatedPaper], *, plan: Any = None, fulltext: Any = None
    ) -> Any:
        self.ingested.append(dict(fulltext or {}))
        return SimpleNamespace(sections=1, papers=len(papers))


STORE = SimpleNamespace(load_run=lambda run_id: SimpleNamespace(aggregated=PAPERS, keywords=None))


async def test_a_named_paper_is_fetched_cached_and_indexed_and_the_log_says_so(tmp_path):
    cache = FulltextCache(tmp_path / "fulltext")
    engine, port = Engine([EEG.key]), Port()
    question = "What does 10.1093/nar/gkr715 report about PRKRA?"
    report = await prepare_fulltext(
        question,
        "r",
        engine=engine,
        store=STORE,
        cache=cache,
        europepmc=port,
        unpaywall=Unpaywall(),
        budget_chars=10**6,
    )
    assert report.plan.named == [NAR.key] and report.fetched == [NAR.key] and report.reindexed
    assert port.calls == ["PMC3258128"]
    assert NAR.key in engine.ingested[0] and any(b.kind == "methods" for b in engine.ingested[0][NAR.key])
    assert report.log[0] == "[fulltext] exact matches: 1 paper(s)"
    assert report.log[1].startswith(f"  - {NAR.key}: required full text ✓ (Europe PMC PMC3258128")
    assert report.warnings == []

    again = await prepare_fulltext(
        question,
        "r",
        engine=engine,
        store=STORE,
        cache=cache,
        europepmc=port,
        unpaywall=Unpaywall(),
        budget_chars=10**6,
    )
    assert again.cached == [NAR.key] and again.fetched == [] and not again.reindexed
    assert port.calls == ["PMC3258128"]  # not fetched twice


async def test_no_open_full_text_falls_back_to_the_abstract_with_a_warning(tmp_path):
    report = await prepare_fulltext(
        "In 'Motor imagery BCI with scalp EEG', what drove the cursor?",
        "r",
        engine=Engine([]),
        store=STORE,
        cache=FulltextCache(tmp_path),
        europepmc=Port(),
        unpaywall=Unpaywall(),
        budget_chars=10**6,
    )
    assert report.plan.named == [EEG.key] and not report.reindexed
    assert report.warnings and "its abstract is used" in report.warnings[0]
    assert "required full text ⚠" in report.log[1]


async def test_related_work_full_text_stays_within_the_budget(tmp_path):
    engine = Engine([NAR.key])
    report = await prepare_fulltext(
        "How does this compare with previous studies?",
        "r",
        engine=engine,
        store=STORE,
        cache=FulltextCache(tmp_path),
        europepmc=Port(),
        unpaywall=Unpaywall(),
        budget_chars=1000,  # far less than the article
    )
    assert report.plan.optional == [NAR.key] and report.deferred == [NAR.key]
    assert NAR.key not in engine.ingested[0]  # fetched and cached, not indexed over the budget
    assert any("deferred by the budget" in line for line in report.log)


@pytest.mark.parametrize("question", ["Which papers are about speech?"])
async def test_other_questions_use_the_abstracts(tmp_path, question):
    port = Port()
    report = await prepare_fulltext(
        question, "r", engine=Engine([NAR.key]), store=STORE, cache=FulltextCache(tmp_path), europepmc=port,
        unpaywall=Unpaywall(), budget_chars=10,
    )  # fmt: skip
    assert report.plan.need == "abstract" and port.calls == [] and not report.reindexed


class Zotero:
    """The library port: one item, whose attachment has no text; or a refused key."""

    def __init__(self, *, refuse: bool = False) -> None:
        self.refuse = refuse

    async def find(self, *, doi: str | None = None, title: str | None = None) -> Any:
        if self.refuse:
            from tools.zotero import ZoteroAuthError

            raise ZoteroAuthError(
                "Zotero answered 403: the API key was refused; check the setting zotero_api_key"
            )
        return SimpleNamespace(key="ABCD1234") if doi == NAR.paper.doi else None

    async def item_fulltext(self, key: str) -> tuple[list[Any], str]:
        return [], "No attachment"


@pytest.mark.parametrize("refuse", [False, True])
async def test_the_library_is_tried_first_then_the_open_sources(tmp_path, refuse):
    port = Port()
    report = await prepare_fulltext(
        "What does 10.1093/nar/gkr715 report?", "r", engine=Engine([]), store=STORE, cache=FulltextCache(tmp_path),
        europepmc=port, unpaywall=Unpaywall(), zotero=Zotero(refuse=refuse), budget_chars=10**6,
    )  # fmt: skip
    assert report.fetched == [NAR.key] and port.calls == ["PMC3258128"]  # Zotero had nothing: PMC gave it
    assert report.warnings == []


async def test_a_refused_zotero_key_is_a_warning_naming_the_setting(tmp_path):
    report = await prepare_fulltext(
        "In 'Motor imagery BCI with scalp EEG', what drove the cursor?", "r", engine=Engine([]), store=STORE,
        cache=FulltextCache(tmp_path), europepmc=None, unpaywall=None, zotero=Zotero(refuse=True), budget_chars=10,
    )  # fmt: skip
    assert any("zotero_api_key" in w for w in report.warnings)


def test_the_fallback_is_said_once_after_the_answer() -> None:
    from agent.ask.fulltext_ask import FulltextReport, fallback_note
    from agent.ask.fulltext_plan import plan_fulltext

    report = FulltextReport(
        plan=plan_fulltext("What sample sizes were used?", [], [], budget_chars=10_000),
        warnings=[
            "pmid:1 (Methods/Results evidence): no full text (not fetched); its abstract is used",
            "doi:10.1/x (Methods/Results evidence): no full text (not fetched); its abstract is used",
            "no full-text source is configured; the abstracts are used",
        ],
    )
    note = fallback_note(report)
    assert note.startswith(
        "\n\n(Full text: 2 of the papers this question needed in full had no open full text"
    )
    assert note.endswith("no full-text source is configured; the abstracts are used.)")
    assert fallback_note(FulltextReport(plan=report.plan)) == ""
