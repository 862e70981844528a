"""The retrieval benchmark runs end to end on a tiny BEIR-layout set and a tiny synthetic Run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.retrieval.__main__ import main
from evals.retrieval.beir import load_beir
from evals.retrieval.metrics import ndcg_at_k, recall_at_k

DOCS = {
    "d1": (
        "Speech decoding from ECoG",
        "High-gamma cortical activity predicts spoken words in epilepsy patients.",
    ),
    "d2": ("EEG motor imagery", "Convolutional networks classify imagined hand movements from scalp EEG."),
    "d3": ("Retinal ganglion cells", "Ganglion cells in the mouse retina respond to looming stimuli."),
    "d4": ("Gut microbiome and obesity", "Microbial diversity in the gut is lower in obese adults."),
    "d5": ("Statin therapy", "Statins lower LDL cholesterol and cardiovascular events in older adults."),
    "d6": ("Sleep and memory", "Slow-wave sleep consolidates declarative memory in young adults."),
}
QUERIES = {
    "q1": "decoding spoken words from cortical activity",
    "q2": "imagined movement classification with EEG",
    "q3": "statins reduce cholesterol",
}
QRELS = {"q1": "d1", "q2": "d2", "q3": "d5"}


def _write_beir(root: Path) -> Path:
    (root / "qrels").mkdir(parents=True)
    with (root / "corpus.jsonl").open("w") as fh:
        for doc, (title, text) in DOCS.items():
            fh.write(json.dumps({"_id": doc, "title": title, "text": text}) + "\n")
    with (root / "queries.jsonl").open("w") as fh:
        for qid, text in {**QUERIES, "unjudged": "nothing"}.items():
            fh.write(json.dumps({"_id": qid, "text": text}) + "\n")
    lines = ["query-id\tcorpus-id\tscore"] + [f"{q}\t{d}\t1" for q, d in QRELS.items()]
    (root / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n")
    return root


def _results(output: str) -> dict[str, float]:
    return {
        line.split()[1]: float(line.split()[2]) for line in output.splitlines() if line.startswith("RESULT ")
    }


def test_metrics() -> None:
    assert ndcg_at_k(["a", "b"], {"a": 1}) == 1.0
    assert ndcg_at_k(["b", "a"], {"a": 1}) == pytest.approx(1 / 1.5849625)
    assert ndcg_at_k(["x"], {}) == 0.0
    assert recall_at_k(["a", "x"], {"a": 1, "b": 1}) == 0.5


def test_loader_slices(tmp_path: Path) -> None:
    data = load_beir(_write_beir(tmp_path / "tiny"), limit_queries=2, limit_docs=1)
    assert data.split == "test" and list(data.queries) == ["q1", "q2"]
    assert set(data.corpus) == {"d1", "d2", "d3"}  # judged ones plus one other


def test_beir_benchmark(
    tmp_path: Path, pg_url: str, tiny_reranker_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _write_beir(tmp_path / "tiny")
    code = main(
        [
            "--dataset",
            str(root),
            "--database-url",
            pg_url,
            "--cache-dir",
            str(tmp_path / "cache"),
            "--rerank-model",
            str(tiny_reranker_dir),
        ]
    )
    assert code == 0
    results = _results(capsys.readouterr().out)
    for method in ("bm25", "dense", "fused", "rrf", "fused_rerank"):
        assert 0.0 <= results[f"retrieval_tiny_{method}_ndcg10"] <= 1.0
        assert results[f"retrieval_tiny_{method}_recall100"] == 1.0  # six documents: all are in the top 100
    assert results["retrieval_tiny_bm25_ndcg10"] == 1.0
    assert results["retrieval_tiny_fused_ndcg10"] == 1.0
    assert results["retrieval_tiny_bm25_bm25s_qps"] > 0 and results["retrieval_tiny_bm25_rank_bm25_qps"] > 0
    assert (tmp_path / "cache" / "all-MiniLM-L6-v2.npz").exists()


def test_synthetic_benchmark(pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "--synthetic",
                "250",
                "--synthetic-questions",
                "15",
                "--embed-sample",
                "16",
                "--database-url",
                pg_url,
            ]
        )
        == 0
    )
    results = _results(capsys.readouterr().out)
    assert 0 < results["retrieval_synthetic250_p50_ms"] <= results["retrieval_synthetic250_p95_ms"]
    assert results["retrieval_synthetic250_ingest_sections_per_s"] > 0
    assert results["retrieval_synthetic250_embed_sections_per_s"] > 0
