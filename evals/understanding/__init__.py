"""Evaluation of the understanding step: slot precision and recall on research descriptions.

    python -m evals.understanding [--llm scripted|rules|openai] [--cases FILE] [--ids a,b] [--verbose]

`cases.jsonl` holds English, Chinese and mixed descriptions from neuroscience, oncology, materials,
machine learning, ecology, economics and public health, each with the acceptable terms per slot, the
keywords of its research goal and the facets the documented rule should give (see `metrics` for the
scoring). `--llm rules` runs offline (CI); `--llm scripted` replays the replies stored with a case (or the
expected terms when it has none), which checks the pipeline around the model; `--llm openai` asks the
configured endpoint (OPENAI_API_KEY / SCHOLARMAP_LLM_BASE_URL). The report ends with `RESULT name value`
lines.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from agent.llm import LLM, RulesLLM, ScriptedLLM, build_llm
from agent.models import LIST_SLOT_NAMES, SLOT_NAMES
from agent.understanding import understand
from evals.understanding.metrics import CaseScore, Summary, score_case

CASES = Path(__file__).with_name("cases.jsonl")
LLM_CHOICES = ("scripted", "rules", "openai")


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    lang: Literal["en", "zh", "mixed"]
    domain: str
    # "dev": the rules fallback was tuned while looking at these; "heldout": written afterwards, never tuned on
    split: Literal["dev", "heldout"] = "dev"
    description: str
    expected: dict[str, list[list[str]]]
    goal: list[str] = Field(default_factory=list)
    facets: list[str]
    scripted: dict[str, Any] | None = None  # replies by prompt name, for --llm scripted

    @field_validator("expected")
    @classmethod
    def _slots(cls, value: dict[str, list[list[str]]]) -> dict[str, list[list[str]]]:
        unknown = set(value) - set(LIST_SLOT_NAMES)
        if unknown:
            raise ValueError(
                f"unknown slots {sorted(unknown)}; expected some of {', '.join(LIST_SLOT_NAMES)}"
            )
        return value

    @field_validator("facets")
    @classmethod
    def _facets(cls, value: list[str]) -> list[str]:
        unknown = set(value) - set(SLOT_NAMES)
        if unknown:
            raise ValueError(f"unknown facets {sorted(unknown)}")
        return value


def load_cases(path: Path = CASES) -> list[Case]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                cases.append(Case.model_validate_json(line))
            except ValueError as error:
                raise ValueError(f"{path}:{number}: not a valid case: {error}") from None
    return cases


def scripted_llm(case: Case) -> ScriptedLLM:
    """The case's stored replies, or replies made of the first acceptable spelling of each concept."""
    if case.scripted:
        replies: dict[str, Any] = dict(case.scripted)
    else:
        slots: dict[str, Any] = {name: [c[0] for c in concepts] for name, concepts in case.expected.items()}
        slots["research_goal"] = " ".join(case.goal)
        replies = {"extract_slots": slots, "normalize_terms": slots}
    replies.setdefault("interpret", {"summary": f"You are working on {' '.join(case.goal)}.", "ready": True})
    return ScriptedLLM(replies=replies)


def make_llm(kind: str) -> LLM | None:
    """The shared LLM for `rules` and `openai`; None for `scripted` (one per case)."""
    if kind == "rules":
        return RulesLLM()
    if kind == "openai":
        from agent.settings import load_settings

        llm = build_llm(load_settings(llm="openai"))
        if not llm.available:
            raise SystemExit(
                "--llm openai needs a model: set OPENAI_API_KEY (and SCHOLARMAP_LLM_BASE_URL for a non-OpenAI endpoint)"
            )
        return llm
    return None


async def evaluate(
    cases: Sequence[Case], kind: str
) -> tuple[Summary, dict[str, Summary], list[tuple[Case, Any, CaseScore]]]:
    """The summary over all cases, summaries per language and per split ("split:dev"), and each case."""
    shared = make_llm(kind)
    total = Summary()
    groups: dict[str, Summary] = {}
    details = []
    for case in cases:
        llm = shared or scripted_llm(case)
        result = await understand(case.description, llm)
        score = score_case(result.slots, case.expected, case.goal, case.facets)
        total.add(score)
        groups.setdefault(case.lang, Summary()).add(score)
        groups.setdefault(f"split:{case.split}", Summary()).add(score)
        details.append((case, result, score))
    return total, groups, details


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def report(total: Summary, by_language: dict[str, Summary], kind: str) -> list[str]:
    lines = [f"understanding evaluation: {total.cases} cases, llm={kind}", ""]
    lines.append(f"{'slot':<22}{'precision':>10}{'recall':>9}{'predicted':>11}{'expected':>10}")
    for name, counts in total.slots.items():
        lines.append(
            f"{name:<22}{counts.precision:>10.3f}{counts.recall:>9.3f}{counts.predicted:>11}{counts.expected:>10}"
        )
    overall = total.overall
    lines.append(
        f"{'overall':<22}{overall.precision:>10.3f}{overall.recall:>9.3f}{overall.predicted:>11}{overall.expected:>10}"
    )
    lines.append(f"{'research_goal':<22}{total.goal_precision:>10.3f}{total.goal_recall:>9.3f}")
    lines.append(f"{'facets':<22}{total.facets.precision:>10.3f}{total.facets.recall:>9.3f}")
    lines.append("")
    for language, summary in sorted(by_language.items()):
        o = summary.overall
        lines.append(
            f"{language:<14} {summary.cases:>3} cases  precision {o.precision:.3f}  recall {o.recall:.3f}"
        )
    lines.append(f"terms in English: {total.english_rate:.3f}")
    heldout = by_language.get("split:heldout")
    lines.append("")
    results = {
        f"understanding_{n}_{m}": getattr(c, m)
        for n, c in total.slots.items()
        for m in ("precision", "recall")
    }
    results |= {
        "understanding_research_goal_precision": total.goal_precision,
        "understanding_research_goal_recall": total.goal_recall,
        "understanding_facets_precision": total.facets.precision,
        "understanding_facets_recall": total.facets.recall,
        "understanding_english_term_rate": total.english_rate,
        "understanding_overall_precision": overall.precision,
        "understanding_overall_recall": overall.recall,
        "understanding_overall_f1": _f1(overall.precision, overall.recall),
    }
    if heldout is not None:
        results["understanding_heldout_overall_precision"] = heldout.overall.precision
        results["understanding_heldout_overall_recall"] = heldout.overall.recall
    lines += [f"RESULT {name} {value:.3f}" for name, value in results.items()]
    return lines


def _mismatches(case: Case, result: Any, score: CaseScore) -> list[str]:
    out = []
    for name, counts in score.slots.items():
        if counts.correct < counts.predicted or counts.found < counts.expected:
            predicted = getattr(result.slots, name)
            wanted = [c[0] for c in case.expected.get(name, [])]
            out.append(f"  {case.id} {name}: predicted {predicted} expected {wanted}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.understanding", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--llm", choices=LLM_CHOICES, default="rules", help="who understands (default: rules)"
    )
    parser.add_argument("--cases", type=Path, default=CASES, help="a JSON Lines file of cases")
    parser.add_argument("--ids", default="", help="comma-separated case ids to run (default: all)")
    parser.add_argument(
        "--split", choices=("all", "dev", "heldout"), default="all", help="which cases to run"
    )
    parser.add_argument(
        "--verbose", action="store_true", help="list every slot that differs from the expected"
    )
    args = parser.parse_args(argv)
    cases = load_cases(args.cases)
    if args.split != "all":
        cases = [c for c in cases if c.split == args.split]
    if args.ids:
        wanted = {i.strip() for i in args.ids.split(",") if i.strip()}
        cases = [c for c in cases if c.id in wanted]
        if not cases:
            parser.error(f"no case has an id in {sorted(wanted)}")
    total, by_language, details = asyncio.run(evaluate(cases, args.llm))
    if args.verbose:
        for case, result, score in details:
            for line in _mismatches(case, result, score):
                print(line)
        print()
    print("\n".join(report(total, by_language, args.llm)))
    return 0


__all__ = ["Case", "evaluate", "load_cases", "main", "report"]
