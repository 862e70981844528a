"""The command line of the strategy evaluation: generate, score, summarise, print `RESULT` lines."""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from evals.paths import DATA
from evals.strategy.generate import DEFAULT_GENERATOR, Generator, generate, load_generator
from evals.strategy.metrics import score_topic
from evals.strategy.topics import BASE_SPLIT, BOOLEAN_QUERIES, SPLITS, Topic, load_topics
from evals.strategy.vocabulary import MeshVocabulary

DEFAULT_MESH = DATA / "mesh" / "mesh2024_descriptors.jsonl.gz"
SPLIT_CHOICES = {
    "train": ("clef_train",),
    "test": ("clef_test",),
    "seed": ("seed", "seed_no42"),
    "librarian": tuple(s for s in SPLITS if BASE_SPLIT.get(s, s) == "librarian"),
    "engineering": tuple(s for s in SPLITS if BASE_SPLIT.get(s, s) == "engineering"),
    "descriptions": tuple(s for s in SPLITS if BASE_SPLIT.get(s, s) == "descriptions"),
    "descriptions2": ("descriptions2",),
    "descriptions3": ("descriptions3",),
    "descriptions4": ("descriptions4",),
    "descriptions5": ("descriptions5",),
    "descriptions6": ("descriptions6",),
    "descriptions7": ("descriptions7",),
    "descriptions8": ("descriptions8",),
    "descriptions9": ("descriptions9",),
    "descriptions10": ("descriptions10",),
    "descriptions11": ("descriptions11",),
    "descriptions12": ("descriptions12",),
    "descriptions13": ("descriptions13",),
    "descriptions14": ("descriptions14",),
    "descriptions15": ("descriptions15",),
    "descriptions16": ("descriptions16",),
    "descriptions17": ("descriptions17",),
    "descriptions18": ("descriptions18",),
    "descriptions19": ("descriptions19",),
    "all": SPLITS,
}
MEAN_FIGURES = (
    "mesh_recall",
    "mesh_precision",
    "mesh_recall_explode",
    "mesh_precision_explode",
    "ceiling",
    "block_coverage",
    "strict_block_coverage",
    "invented_acronym_share",
    "syntax_valid",
    "chars_generated",
    "chars_expert",
    "terms_generated",
    "terms_expert",
)
SUM_FIGURES = ("malformed", "review_blocks", "unresolved_generated_headings")
GOAL_SPLITS = ("clef_test", "seed", "seed_no42")


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m evals.strategy",
        description="Generated PubMed strategies against the expert strategies of CLEF TAR 2018 and Seed.",
    )
    parser.add_argument("--split", choices=sorted(SPLIT_CHOICES), default="all")
    parser.add_argument(
        "--generator", default=DEFAULT_GENERATOR, help="module:function (default: %(default)s)"
    )
    parser.add_argument("--mesh", type=Path, default=DEFAULT_MESH, help="MeSH descriptor JSON Lines file")
    parser.add_argument("--data", type=Path, default=BOOLEAN_QUERIES, help=argparse.SUPPRESS)
    parser.add_argument("--show", type=int, default=0, metavar="N", help="print N topics side by side")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write per-topic figures and details")
    parser.add_argument("--limit", type=int, default=0, metavar="N", help="only the first N topics per split")
    return parser.parse_args(argv)


def _select(topics: list[Topic], splits: tuple[str, ...], limit: int) -> list[Topic]:
    chosen: list[Topic] = []
    for split in dict.fromkeys(BASE_SPLIT.get(s, s) for s in splits):
        in_split = [t for t in topics if t.split == split]
        chosen += in_split[:limit] if limit > 0 else in_split
    return chosen


def summarise(rows: list[dict[str, Any]], split: str) -> dict[str, float]:
    """Means (figures defined for the topic only) and sums of one split."""
    in_split = [r for r in rows if r["topic"].in_split(split)]
    summary: dict[str, float] = {"topics": len(in_split)}
    for name in MEAN_FIGURES:
        values = [r["figures"][name] for r in in_split if r["figures"][name] is not None]
        summary[name] = sum(values) / len(values) if values else float("nan")
    for name in SUM_FIGURES:
        summary[name] = sum(r["figures"][name] for r in in_split)
    summary["mesh_precision_undefined"] = sum(r["figures"]["mesh_precision"] is None for r in in_split)
    summary["generator_errors"] = sum(bool(r["error"]) for r in in_split)
    return summary


def _goals(summary: dict[str, float]) -> list[tuple[str, float, str, bool]]:
    ceiling = summary["ceiling"]
    return [
        (
            "mesh_recall",
            summary["mesh_recall"],
            f">= 0.9 x ceiling = {0.9 * ceiling:.3f}",
            summary["mesh_recall"] >= 0.9 * ceiling,
        ),
        ("mesh_precision", summary["mesh_precision"], ">= 0.70", summary["mesh_precision"] >= 0.70),
        (
            "strict_block_coverage",
            summary["strict_block_coverage"],
            ">= 0.60",
            summary["strict_block_coverage"] >= 0.60,
        ),
        (
            "invented_acronym_share",
            summary["invented_acronym_share"],
            "0",
            summary["invented_acronym_share"] == 0,
        ),
        ("malformed", summary["malformed"], "0", summary["malformed"] == 0),
        ("review_blocks", summary["review_blocks"], "0", summary["review_blocks"] == 0),
        ("syntax_valid", summary["syntax_valid"], "1.000 (100 %)", summary["syntax_valid"] == 1.0),
    ]


def _value(name: str, value: float) -> str:
    if name in (*SUM_FIGURES, "topics", "mesh_precision_undefined", "generator_errors"):
        return str(int(value))
    return f"{value:.3f}"


def _side_by_side(topic: Topic, generated: str, width: int) -> str:
    column = max(30, (width - 3) // 2)
    left = textwrap.wrap(topic.expert_query, column) or [""]
    right = textwrap.wrap(generated, column) or ["(empty)"]
    if len(left) > 30:
        left = [*left[:29], f"... ({len(topic.expert_query)} characters)"]
    lines = [f"== {topic.split} {topic.id}{' (suspect)' if topic.suspect else ''}: {topic.title}"]
    lines.append(f"{'EXPERT':<{column}} | GENERATED")
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        lines.append(f"{a:<{column}} | {b}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    started = time.perf_counter()
    logging.getLogger("agent.llm").setLevel(logging.ERROR)  # "rules fallback" once per topic is noise here
    if not args.mesh.is_file():
        print(f"error: MeSH file {args.mesh} not found; pass --mesh PATH", file=sys.stderr)
        return 2
    try:
        generator: Generator = load_generator(args.generator)
        topics = load_topics(args.data)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (OSError, KeyError) as error:
        print(f"error: cannot read the expert strategies under {args.data} ({error})", file=sys.stderr)
        return 2
    splits = SPLIT_CHOICES[args.split]
    chosen = _select(topics, splits, args.limit)
    vocabulary = MeshVocabulary.load(args.mesh)
    loaded = time.perf_counter()

    rows: list[dict[str, Any]] = []
    for topic in chosen:
        failure = ""
        try:
            generated = generate(generator, topic.title, args.mesh)
        except Exception as exc:  # one failing topic is reported, the others still run
            generated, failure = "", f"{type(exc).__name__}: {exc}"
        scored = score_topic(topic.title, topic.expert_query, generated, vocabulary)
        details = scored.pop("details")
        rows.append(
            {"topic": topic, "generated": generated, "error": failure, "figures": scored, "details": details}
        )
    elapsed = time.perf_counter() - started
    failures = [r for r in rows if r["error"]]
    if failures:
        print(
            f"warning: the generator failed on {len(failures)} of {len(rows)} topics "
            f"(scored as an empty query); first: {failures[0]['error']}",
            file=sys.stderr,
        )

    width = shutil.get_terminal_size((160, 40)).columns
    for row in rows[: max(0, args.show)]:
        print(_side_by_side(row["topic"], row["generated"], width))
        print()
    if args.json:
        payload = [
            {
                "id": r["topic"].id,
                "split": r["topic"].split,
                "suspect": r["topic"].suspect,
                "title": r["topic"].title,
                "expert_query": r["topic"].expert_query,
                "generated_query": r["generated"],
                "generator_error": r["error"],
                **r["figures"],
                "details": r["details"],
            }
            for r in rows
        ]
        args.json.write_text(json.dumps(payload, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"per-topic details written to {args.json}")

    summaries = {split: summarise(rows, split) for split in splits}
    names = ["topics", *MEAN_FIGURES, "mesh_precision_undefined", *SUM_FIGURES, "generator_errors"]
    print(
        f"strategy evaluation: {len(rows)} topics, generator {args.generator}, MeSH {args.mesh.name} "
        f"(loaded in {loaded - started:.1f} s), {elapsed:.1f} s in all"
    )
    print(f"{'figure':<31}" + "".join(f"{s:>12}" for s in splits))
    for name in names:
        print(f"{name:<31}" + "".join(f"{_value(name, summaries[s][name]):>12}" for s in splits))
    for split in (s for s in splits if s in GOAL_SPLITS):
        print(f"goals on {split}:")
        for name, value, goal, met in _goals(summaries[split]):
            print(f"  {name:<24} {_value(name, value):>8}  goal {goal:<28} {'met' if met else 'NOT met'}")
    for split in splits:
        for name in names:
            print(f"RESULT {split}_{name} {_value(name, summaries[split][name])}")
    print(f"RESULT strategy_seconds {elapsed:.3f}")
    return 0
