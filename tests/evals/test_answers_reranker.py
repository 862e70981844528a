"""`python -m evals.answers.train_reranker` on a tiny SciFact-shaped set: its pairs, its held-out claims,
and a model folder the product's reranker loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.answers.train_reranker import build_pairs, held_out_claims
from evals.answers.train_reranker import main as train
from evals.retrieval.beir import BeirSet, load_beir
from tests.evals.test_answers_eval import write_set
from tools.retrieval.rerank import Reranker


def test_pairs_are_relevant_abstracts_and_the_searchs_best_other_ones(tmp_path: Path):
    data = load_beir(write_set(tmp_path / "tiny"), split="train")
    pairs = build_pairs(data, per_claim=2)
    for qid, claim in data.queries.items():
        mine = [p for p in pairs if p.qid == qid]
        assert all(p.claim == claim for p in mine)
        assert sum(p.label for p in mine) == len(data.qrels[qid]) and len(mine) == len(data.qrels[qid]) + 2
    first = next(p for p in pairs if p.qid == "1" and p.label == 1.0)
    assert first.passage.startswith("Speech decoding from ECoG. High-gamma")  # "title. text", as the engine
    caffeine = [p.passage for p in pairs if p.qid == "9" and p.label == 0.0]
    assert any("sleep" in p.lower() for p in caffeine)  # a hard negative shares the claim's words


def test_held_out_claims_keep_claims_that_share_an_abstract_together():
    qrels = {"1": {"a": 1}, "2": {"a": 1}, "3": {"b": 1}, "4": {"c": 1}, "5": {"d": 1}}
    held = held_out_claims(BeirSet("t", {}, dict.fromkeys(qrels, "c"), qrels, "train"), 0.3)
    assert held and len(held) < len(qrels)
    assert ("1" in held) == ("2" in held)


def test_training_writes_a_cross_encoder_folder_and_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    root = write_set(tmp_path / "tiny")
    folder = tmp_path / "ce"
    argv = ["--dataset", str(root), "--out", str(folder), "--negatives", "2", "--max-length", "48"]
    assert train([*argv, "--batch-size", "4", "--check", "0.2"]) == 0
    results = {
        line.split()[1]: float(line.split()[2])
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("RESULT ")
    }
    assert results["reranker_training_pairs"] > 0 and 0.0 <= results["reranker_held_out_pair_accuracy"] <= 1.0
    assert json.loads((folder / "tokenizer_config.json").read_text())["model_max_length"] == 48
    scores = Reranker(str(folder), max_length=48).score(
        "Statins lower cholesterol.", ["Statin therapy. LDL", "Sleep."]
    )
    assert len(scores) == 2 and all(0.0 < s < 1.0 for s in scores)  # the product's reranker loads it
