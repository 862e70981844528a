"""`python -m evals.answers.train_reranker` on a tiny SciFact-shaped set: its windows and groups, the
rationale reading, the loss, its held-out claims, and a model folder the product's reranker loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from evals.answers.reranker_pairs import (
    Group,
    build_groups,
    held_out_claims,
    pair_accuracy,
    rationales,
    string_literals,
    windows,
)
from evals.answers.train_reranker import MeanPooledCrossEncoder, group_loss, load_model, score_pairs
from evals.answers.train_reranker import main as train
from evals.retrieval.beir import BeirSet, load_beir
from tests.evals.test_answers_eval import write_set
from tools.retrieval.rerank import Reranker, RerankerError


def test_windows_cut_at_sentence_ends_behind_the_title():
    sentences = ["One two three.", "Four five six.", "Seven eight nine ten eleven.", "Twelve."]
    cut = windows("Title", sentences, max_words=6)
    assert [span for _, span in cut] == [range(0, 2), range(2, 4)]
    assert cut[0][0] == "Title. One two three. Four five six."
    assert windows("", ["A very long sentence here."], max_words=2)[0][0] == "A very long sentence here."


def test_numpy_printed_sentence_lists_are_read_as_their_strings():
    assert string_literals("['First, it \\'works\\'.'\n 'Second \"one\".']") == [
        "First, it 'works'.",
        'Second "one".',
    ]


def test_the_positive_window_holds_the_claims_rationale_sentence(tmp_path: Path):
    root = write_set(tmp_path / "tiny")
    long_text = " ".join(f"Sentence number {i} says little of interest here." for i in range(12))
    corpus = [json.loads(line) for line in (root / "corpus.jsonl").read_text().splitlines()]
    corpus[0]["text"] = long_text + " High-gamma cortical activity predicts spoken words."
    (root / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in corpus))
    queries = [json.loads(line) for line in (root / "queries.jsonl").read_text().splitlines()]
    queries[0]["metadata"] = {"d1": [{"sentences": [12], "label": "SUPPORT"}]}
    (root / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    assert rationales(root) == {"1": {"d1": [12]}}
    data = load_beir(root, split="train")
    groups = build_groups(data, root, per_claim=2)
    first = next(g for g in groups if g.qid == "1")
    assert first.passages[0].startswith("Speech decoding from ECoG. ")
    assert "predicts spoken words" in first.passages[0] and "number 0 " not in first.passages[0]
    for group in groups:
        assert group.docs[0] in data.qrels[group.qid] and len(group.passages) == len(group.docs) == 3
        assert not set(group.docs[1:]) & set(data.qrels[group.qid])
    caffeine = next(g for g in groups if g.qid == "9")
    assert any(
        "sleep" in p.lower() for p in caffeine.passages[1:]
    )  # a hard negative shares the claim's words


def test_the_loss_prefers_the_positive_first_and_pair_accuracy_counts_orderings():
    right = group_loss(torch.tensor([3.0, -2.0, -2.0]), [3], bce_weight=0.5)
    wrong = group_loss(torch.tensor([-2.0, 3.0, -2.0]), [3], bce_weight=0.5)
    prior = group_loss(torch.tensor([-0.7, -0.7, -0.7]), [3], bce_weight=0.5)
    assert right < prior < wrong  # a constant (the class prior) is not a minimum
    groups = [Group("1", "c", ["p", "n1", "n2"]), Group("2", "c", ["p", "n"])]
    assert pair_accuracy(groups, [[1.0, 0.0, 2.0], [1.0, 1.0]]) == pytest.approx(1 / 3)  # a tie is wrong


def test_held_out_claims_keep_claims_that_share_an_abstract_together():
    qrels = {"1": {"a": 1}, "2": {"a": 1}, "3": {"b": 1}, "4": {"c": 1}, "5": {"d": 1}}
    held = held_out_claims(BeirSet("t", {}, dict.fromkeys(qrels, "c"), qrels, "train"), 0.3)
    assert held and len(held) < len(qrels)
    assert ("1" in held) == ("2" in held)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, float]:
    assert train(argv) == 0
    return {
        line.split()[1]: float(line.split()[2])
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("RESULT ")
    }


def test_training_writes_a_mean_pooled_cross_encoder_the_product_refuses_rather_than_misreads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    root = write_set(tmp_path / "tiny")
    folder = tmp_path / "ce"
    results = run(["--dataset", str(root), "--out", str(folder), "--negatives", "2", "--max-length", "48",
                   "--epochs", "2", "--check", "0.2"], capsys)  # fmt: skip
    assert results["reranker_training_groups"] > 0
    assert 0.0 <= results["reranker_held_out_pair_accuracy"] <= 1.0
    assert 0.0 <= results["bm25_held_out_pair_accuracy"] <= 1.0
    summary = json.loads((folder / "scholarmap_training.json").read_text())
    assert len(summary["held_out_pair_accuracy_per_epoch"]) == 2
    model, tokenizer = load_model(folder)
    assert isinstance(model, MeanPooledCrossEncoder) and tokenizer.model_max_length == 48
    pairs = [("Statins lower cholesterol.", "Statin therapy. LDL"), ("Statins lower cholesterol.", "Sleep.")]
    assert len(score_pairs(model, tokenizer, pairs, 48)) == 2
    with pytest.raises(RerankerError):  # a sequence-classification loader would give it a random head
        Reranker(str(folder), max_length=48).score("Statins lower cholesterol.", ["Statin therapy. LDL"])


def test_cls_pooling_writes_a_folder_the_products_reranker_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    root = write_set(tmp_path / "tiny")
    folder = tmp_path / "ce"
    run(["--dataset", str(root), "--out", str(folder), "--negatives", "2", "--max-length", "48",
         "--epochs", "1", "--pooling", "cls"], capsys)  # fmt: skip
    assert json.loads((folder / "tokenizer_config.json").read_text())["model_max_length"] == 48
    scores = Reranker(str(folder), max_length=48).score(
        "Statins lower cholesterol.", ["Statin therapy. LDL", "Sleep."]
    )
    assert len(scores) == 2 and all(0.0 < s < 1.0 for s in scores)
