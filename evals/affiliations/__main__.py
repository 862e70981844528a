"""`python -m evals.affiliations --gold FILE [--ror FILE]`: score affiliation parsing against gold files.

Prints one `RESULT` line per metric:

    RESULT <metric> <value> goal<op><goal> <PASS|MISS|-> n=<rows> set=<gold set>

Gold files in the combined form give country metrics (and, with `--ror`, institution -> ROR id
metrics per source set); files in the GROBID form give city metrics. Without `--gold`, both shared
gold files are used. With `--ror`, the country of a string is the matched institution's country when
the match is confident, else the parser's; without it, the parser's alone.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from agent.academic_map.affiliations import ParsedAffiliation, parse_affiliation
from agent.academic_map.institutions import InstitutionRegistry
from evals.affiliations.metrics import (
    city_matches,
    gold_form,
    names_country,
    read_jsonl,
    score_cities,
    score_countries,
    score_ror,
)
from evals.paths import DATA

GOALS: dict[str, tuple[str, float]] = {
    "country_named_precision": (">=", 0.99),
    "country_named_coverage": (">=", 0.95),
    "country_precision": (">=", 0.97),
    "country_recall": (">=", 0.85),
    "city_f1": (">=", 0.75),
    "ror_precision": (">=", 0.90),
    "ror_recall": (">=", 0.70),
}
DEFAULT_GOLD = (
    DATA / "affiliations" / "affiliations_gold_combined.jsonl.gz",
    DATA / "affiliations" / "grobid_affiliation_address" / "grobid_affiliation_address_gold.jsonl.gz",
)
DEFAULT_ROR = DATA / "ror" / "ror_records_compact.jsonl.gz"
SET_NAMES = {"crossref": "crossref", "springer": "springer", "logs": "ror_matching_logs"}


def result(metric: str, value: float, n: int, set_name: str, goal_key: str | None = None) -> str:
    op, goal = GOALS.get(goal_key or metric, ("", float("nan")))
    if op:
        status = "PASS" if value >= goal else "MISS"
        return f"RESULT {metric} {value:.4f} goal{op}{goal:.2f} {status} n={n} set={set_name}"
    return f"RESULT {metric} {value:.4f} - - n={n} set={set_name}"


def _set_of(source: str) -> str:
    for name, marker in SET_NAMES.items():
        if marker in source:
            return name
    return source


class Predictor:
    """Parses each string once and, with a registry, matches each piece to an institution."""

    def __init__(self, registry: InstitutionRegistry | None, min_confidence: float) -> None:
        self.registry = registry
        self.min_confidence = min_confidence

    def __call__(self, text: str) -> list[tuple[ParsedAffiliation, Any]]:
        out = []
        for parsed in parse_affiliation(text):
            match = self.registry.match(parsed) if self.registry is not None else None
            out.append((parsed, match if match is not None and match.score >= self.min_confidence else None))
        return out


def evaluate_combined(
    rows: list[dict[str, Any]], predict: Callable[[str], list[tuple[ParsedAffiliation, Any]]], set_label: str
) -> list[str]:
    lines = []
    parser_pairs: list[tuple[set[str], set[str]]] = []
    pairs: list[tuple[set[str], set[str]]] = []
    named_pairs: list[tuple[set[str], set[str]]] = []
    ror_rows: dict[str, list[tuple[set[str], set[str], bool]]] = defaultdict(list)
    for row in rows:
        predictions = predict(row["affiliation"])
        gold_countries = set(row.get("country_codes") or [])
        if row.get("all_ids_in_ror_table", True) and gold_countries:
            parser_only = {p.country_code for p, _ in predictions if p.country_code}
            # the registry's country where it matched, else the parser's
            combined = {
                code
                for p, m in predictions
                if (
                    code := m.record.country_code
                    if m is not None and m.record.country_code
                    else p.country_code
                )
            }
            parser_pairs.append((gold_countries, parser_only))
            pairs.append((gold_countries, combined))
            if names_country(row["affiliation"]):
                named_pairs.append((gold_countries, combined))
        if row.get("ror_ids") and not row.get("no_match"):
            predicted = {m.record.id for _, m in predictions if m is not None}
            ror_rows[_set_of(row.get("source", ""))].append(
                (set(row["ror_ids"]), predicted, bool(row.get("all_ids_in_ror_table", True)))
            )
    named = score_countries(named_pairs)
    lines.append(result("country_named_precision", named.precision.value, named.precision.total, set_label))
    lines.append(result("country_named_coverage", named.coverage, named.recall.total, set_label))
    overall = score_countries(pairs)
    lines.append(result("country_precision", overall.precision.value, overall.precision.total, set_label))
    lines.append(result("country_recall", overall.recall.value, overall.recall.total, set_label))
    parser = score_countries(parser_pairs)
    lines.append(
        result("country_parser_only_precision", parser.precision.value, parser.precision.total, set_label)
    )
    lines.append(result("country_parser_only_recall", parser.recall.value, parser.recall.total, set_label))
    for name, items in sorted(ror_rows.items()):
        if not items or predict.registry is None:  # type: ignore[attr-defined]
            continue
        in_table = score_ror((g, p) for g, p, ok in items if ok)
        every = score_ror((g, p) for g, p, _ok in items)
        n_in = sum(1 for *_x, ok in items if ok)
        label = f"{set_label}:{name}"
        lines.append(
            result(
                f"ror_{name}_precision", in_table.precision, n_in, f"{label}(ids in table)", "ror_precision"
            )
        )
        lines.append(
            result(f"ror_{name}_recall", in_table.recall, n_in, f"{label}(ids in table)", "ror_recall")
        )
        lines.append(result(f"ror_{name}_precision_all_rows", every.precision, len(items), label))
        lines.append(result(f"ror_{name}_recall_all_rows", every.recall, len(items), label))
    return lines


def evaluate_grobid(rows: list[dict[str, Any]], set_label: str) -> list[str]:
    pairs = []
    for row in rows:
        predicted = [
            [p.city_text or "", p.city or ""]
            for p in parse_affiliation(row["affiliation"])
            if p.city and p.city_source == "address"
        ]
        pairs.append((list(row.get("settlement") or []), predicted))
    score = score_cities(pairs)
    n = len(rows)
    return [
        result("city_precision", score.precision, n, set_label),
        result("city_recall", score.recall, n, set_label),
        result("city_f1", score.f1, n, set_label),
    ]


def select_rows(rows: Iterable[dict[str, Any]], split: str, limit: int | None) -> list[dict[str, Any]]:
    """Rows of the chosen upstream split; sets without splits (Springer, GROBID's) are used whole."""
    chosen = [r for r in rows if split == "all" or r.get("split") in (None, split, "corpus", "evaluation")]
    return chosen[:limit] if limit else chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.affiliations", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--gold", action="append", type=Path, help="gold file (repeatable); default: the shared sets"
    )
    parser.add_argument("--ror", type=Path, help="institution registry in ROR form (enables ROR metrics)")
    parser.add_argument(
        "--split",
        default="test",
        choices=["test", "train", "all"],
        help="upstream split for sets that have one (default: test; the matcher was tuned on train)",
    )
    parser.add_argument("--min-confidence", type=float, default=0.70, help="registry match threshold")
    parser.add_argument("--limit", type=int, help="only the first N rows of each file (smoke runs)")
    args = parser.parse_args(argv)

    started = time.monotonic()
    registry = None
    if args.ror:
        if not args.ror.exists():
            print(f"evals.affiliations: error: no registry file {args.ror}", file=sys.stderr)
            return 2
        registry = InstitutionRegistry.load(args.ror)
        print(f"# registry {args.ror.name}: {len(registry)} institutions ({time.monotonic() - started:.1f}s)")
    predict = Predictor(registry, args.min_confidence)
    for path in args.gold or list(DEFAULT_GOLD):
        if not path.exists():
            print(f"evals.affiliations: error: no gold file {path}", file=sys.stderr)
            return 2
        rows = list(read_jsonl(path))
        if not rows:
            continue
        form = gold_form(rows[0])
        rows = select_rows(rows, args.split, args.limit)
        label = f"{path.name}[{'all' if form == 'grobid' else args.split}]"
        lines = evaluate_grobid(rows, label) if form == "grobid" else evaluate_combined(rows, predict, label)
        for line in lines:
            print(line, flush=True)
    print(f"# {time.monotonic() - started:.0f}s")
    return 0


__all__ = ["city_matches", "main"]

if __name__ == "__main__":
    sys.exit(main())
