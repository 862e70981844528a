"""Which of a Run's papers a question needs in full text: the tiers of requirement 002, from the conversation.

002 distinguishes papers the user names exactly (Phase 1: always full text, the abstract when there is
none) from papers retrieval finds (Phase 2): evidence for Methods/Results needs full text, Related-Work
comparisons use it when the budget allows, everything else makes do with the abstract. Here the
"section being written" is the question's information need:

- named: a DOI, PMID or PMCID in the question, or a paper's whole title (≥ 3 words) → required;
- a Methods/Results question (how something was done or measured, sample sizes, parameters, results,
  tables) → the best retrieved papers are required;
- a Related-Work question (compare, previous work, overview) → the best three retrieved papers are
  optional, kept while the size budget (`fulltext_budget_chars`) lasts;
- any other question → abstracts.

`fulltext_log` renders what happened in the shape of 002 §7, one line per paper for exact matches and
counts for the retrieved ones.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from agent.models import AggregatedPaper, normalize_doi, normalize_pmid

Need = Literal["methods_results", "related_work", "abstract"]

REQUIRED_FROM_RETRIEVAL = 3  # Methods/Results: the best retrieved papers fetched in full
OPTIONAL_FROM_RETRIEVAL = 3  # Related Work: "top 3" (002 §4.3)
MIN_TITLE_WORDS = 3

_DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"'<>，。；、）)]+", re.IGNORECASE)
_PMID = re.compile(r"\bPMID\s*[:：]?\s*(\d{1,9})\b", re.IGNORECASE)
_PMCID = re.compile(r"\bPMC\s*(\d{3,9})\b", re.IGNORECASE)
_METHODS_RESULTS = re.compile(
    r"\bmethods?\b|methodolog|protocol|procedure|parameters?|sample sizes?|participants|\bsubjects\b|"
    r"\bhow (?:was|were|did|do|does|is|are)\b|\bdoses?\b|dosage|datasets?|measured|measurement|"
    r"\bresults?\b|findings?|accuracy|outcomes?|effect sizes?|statistic|p-values?|\btables?\b|\bfig(?:ure)?s?\b|"
    r"方法|参数|样本|受试者|结果|数据|实验|准确率|剂量|表\s*\d|图\s*\d|如何测",
    re.IGNORECASE,
)
_RELATED_WORK = re.compile(
    r"related work|literature|previous (?:work|studies|research)|prior (?:work|studies)|compar|\bdiffer|"
    r"overview|state of the art|background|相关工作|文献|对比|比较|综述|研究现状|背景|区别",
    re.IGNORECASE,
)


class FulltextPlan(BaseModel):
    """The tier each paper gets for one question (paper keys), and why."""

    need: Need
    named: list[str] = Field(default_factory=list)  # exact matches: required
    required: list[str] = Field(default_factory=list)  # named + Methods/Results evidence
    optional: list[str] = Field(default_factory=list)  # Related Work, within the budget
    retrieved: list[str] = Field(default_factory=list)  # papers retrieval found (Phase 2)
    reasons: dict[str, str] = Field(default_factory=dict)  # key → how it was named or chosen
    budget_chars: int = 0

    @property
    def wanted(self) -> list[str]:
        return list(dict.fromkeys([*self.required, *self.optional]))


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def named_papers(question: str, papers: Sequence[AggregatedPaper]) -> dict[str, str]:
    """Papers the question names exactly: `{key: "DOI 10.…" | "PMID …" | "PMCID …" | "title"}`."""
    found: dict[str, str] = {}
    dois = {normalize_doi(m.group(0).rstrip(".,;:")) for m in _DOI.finditer(question)}
    pmids = {normalize_pmid(m.group(1)) for m in _PMID.finditer(question)}
    pmcids = {f"PMC{m.group(1)}" for m in _PMCID.finditer(question)}
    plain_question = f" {_plain(question)} "
    for ap in papers:
        paper = ap.paper
        if paper.doi and normalize_doi(paper.doi) in dois:
            found[ap.key] = f"DOI {normalize_doi(paper.doi)}"
        elif paper.pmid and normalize_pmid(paper.pmid) in pmids:
            found[ap.key] = f"PMID {paper.pmid}"
        elif paper.pmcid and paper.pmcid.upper() in pmcids:
            found[ap.key] = f"PMCID {paper.pmcid}"
        elif paper.title:
            title = _plain(paper.title)
            if len(title.split()) >= MIN_TITLE_WORDS and f" {title} " in plain_question:
                found[ap.key] = "title"
    return found


def question_need(question: str) -> Need:
    """What the question's evidence is for: Methods/Results (full text required), Related Work
    (full text optional), or neither (abstracts)."""
    # an explicit comparison with other work is Related Work even when it names a method or result
    if _RELATED_WORK.search(question):
        return "related_work"
    if _METHODS_RESULTS.search(question):
        return "methods_results"
    return "abstract"


def plan_fulltext(
    question: str,
    papers: Sequence[AggregatedPaper],
    retrieved: Sequence[str],
    *,
    budget_chars: int,
) -> FulltextPlan:
    """The plan for one question; `retrieved` are paper keys in the order retrieval ranked them."""
    named = named_papers(question, papers)
    need = question_need(question)
    plan = FulltextPlan(need=need, named=list(named), reasons=dict(named), budget_chars=budget_chars)
    found = [key for key in dict.fromkeys(retrieved) if key not in named]
    plan.retrieved = found
    plan.required = list(named)
    if need == "methods_results":
        for key in found[:REQUIRED_FROM_RETRIEVAL]:
            plan.required.append(key)
            plan.reasons[key] = "Methods/Results evidence"
    elif need == "related_work":
        for key in found[:OPTIONAL_FROM_RETRIEVAL]:
            plan.optional.append(key)
            plan.reasons[key] = "Related Work"
    return plan


def within_budget(plan: FulltextPlan, sizes: Mapping[str, int]) -> tuple[list[str], list[str]]:
    """(optional keys kept, optional keys deferred): required full texts always count first (002 §6:
    under a token limit the required ones stay and optional ones wait)."""
    used = sum(sizes.get(key, 0) for key in plan.required)
    kept: list[str] = []
    deferred: list[str] = []
    for key in plan.optional:
        size = sizes.get(key, 0)
        if size and used + size > plan.budget_chars:
            deferred.append(key)
            continue
        used += size
        kept.append(key)
    return kept, deferred


def fulltext_log(
    plan: FulltextPlan,
    status: Mapping[str, str],
    *,
    deferred: Sequence[str] = (),
    used_chars: int = 0,
) -> list[str]:
    """The 002 §7 log. `status[key]` is "✓ (source)" or "⚠ (why, fell back to the abstract)"."""
    lines = [f"[fulltext] exact matches: {len(plan.named)} paper(s)"]
    for key in plan.named:
        lines.append(f"  - {key}: required full text {status.get(key, '⚠ (not fetched)')}")
    retrieved_required = [k for k in plan.required if k not in plan.named]
    got = sum(1 for k in retrieved_required if status.get(k, "").startswith("✓"))
    abstract = len(plan.retrieved) - len(retrieved_required) - len(plan.optional)
    lines.append(f"[fulltext] semantic retrieval: {len(plan.retrieved)} paper(s) (question: {plan.need})")
    mark = "✓" if got == len(retrieved_required) else "⚠"
    lines.append(f"  - required full text (Methods/Results): {got} of {len(retrieved_required)} {mark}")
    kept = sum(1 for k in plan.optional if k not in deferred and status.get(k, "").startswith("✓"))
    lines.append(
        f"  - optional full text (Related Work): {kept} of {len(plan.optional)}"
        + (f", {len(deferred)} deferred by the budget" if deferred else "")
    )
    lines.append(f"  - abstract: {max(0, abstract)}")
    for key in [*retrieved_required, *plan.optional]:
        if not status.get(key, "").startswith("✓"):
            lines.append(f"  - {key}: {status.get(key, '⚠ (not fetched)')}")
    lines.append(f"[fulltext] budget: {used_chars:,} of {plan.budget_chars:,} characters of full text used")
    return lines
