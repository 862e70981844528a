"""`python -m evals.answers.rerank_proxy`: the Run's BM25 list, the cross-encoder features, the fit and
its figures on a tiny SciFact-shaped set (a word-overlap scorer stands in for the cross-encoder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.answers.rerank_proxy import (
    build_claims,
    cross_encoder_features,
    f1_of,
    fit_and_threshold,
    lexical_features,
)
from evals.answers.rerank_proxy import main as proxy
from evals.answers.train_reranker import main as train
from tests.evals.test_answers_eval import write_set


def overlap(pairs: list[tuple[str, str]]) -> list[float]:
    return [float(len(set(a.lower().split()) & set(b.lower().split()))) for a, b in pairs]


def test_claims_features_and_the_fitted_decision(tmp_path: Path):
    claims, queries, corpus = build_claims(write_set(tmp_path / "tiny"))
    assert {c.split for c in claims.values()} == {"train", "test"}
    for claim in claims.values():  # the Run lacks the sources of the unanswerable claims only
        assert claim.answerable == bool(claim.relevant & set(corpus))
    assert claims["5"].seen is False and claims["1"].seen is True
    lexical_features(claims, queries, corpus)
    windows = {d: [f"{b['title']}. {b['text']}"] for d, b in corpus.items()}
    cross_encoder_features(claims, queries, overlap, windows)
    statins = claims["8"]
    if statins.answerable:
        assert statins.papers[0] == "d5" and statins.features["ce_first"] == statins.features["ce_best"] > 0
    for claim in claims.values():
        assert len(claim.ce) == min(5, len(claim.papers))
        assert claim.features["ce_lead"] >= 0 and 0 <= claim.features["coverage_first"] <= 1
    train_claims = [c for c in claims.values() if c.split == "train"]
    abstain = fit_and_threshold(train_claims, ("ce_best", "coverage_first"))
    assert len(abstain(train_claims)) == len(train_claims)


def test_f1_counts_abstentions_on_unanswerable_claims_as_hits():
    assert f1_of([True, True, False, False], [True, False, True, False]) == pytest.approx((0.5, 0.5, 0.5))
    assert f1_of([False, False], [True, False]) == (0.0, 0.0, 0.0)


def test_the_proxy_reports_each_feature_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    root = write_set(tmp_path / "tiny")
    folder = tmp_path / "ce"
    assert (
        train(["--dataset", str(root), "--out", str(folder), "--negatives", "2", "--max-length", "48"]) == 0
    )
    capsys.readouterr()
    argv = [
        "--model",
        str(folder),
        "--dataset",
        str(root),
        "--max-length",
        "48",
        "--scores",
        str(tmp_path / "s.json"),
    ]
    assert proxy(argv) == 0
    lines = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("RESULT ")]
    names = {name for _, name, _ in lines}
    assert (
        "proxy_lexical+ce_best_test_unseen_f1" in names
        and "proxy_test_first_paper_relevant_reranked" in names
    )
    assert all(0.0 <= float(value) <= 1.0 for _, _, value in lines)
    assert (tmp_path / "s.json").exists()
    (folder / "head.pt").unlink()  # the second run reads the logits and never loads the model
    assert proxy(argv) == 0
    assert [
        line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("RESULT ")
    ] == lines
