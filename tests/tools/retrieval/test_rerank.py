"""Step 5: loading and scoring a cross-encoder (a tiny one this test builds), time limits, failures."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import torch

from tools.retrieval.rerank import Reranker, RerankerError

PASSAGES = [
    "speech decoding from ecog",
    "deep learning for eeg motor imagery",
    "sample size of participants",
]


def _reference_scores(folder: Path, question: str, passages: list[str]) -> list[float]:
    """What the saved model says, computed directly with transformers (no FlagEmbedding)."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    batch = tokenizer(
        [question] * len(passages), passages, padding=True, truncation=True, return_tensors="pt"
    )
    with torch.no_grad():
        logits = model(**batch).logits.view(-1)
    return torch.sigmoid(logits).tolist()


def test_flagembedding_loads_and_scores_the_saved_model(tiny_reranker_dir: Path) -> None:
    reranker = Reranker(str(tiny_reranker_dir), batch_size=2)
    scores = reranker.score("what sample size", PASSAGES)
    assert reranker.loaded_with == "flag"
    assert len(scores) == 3 and all(0.0 < s < 1.0 for s in scores)
    assert scores == pytest.approx(
        _reference_scores(tiny_reranker_dir, "what sample size", PASSAGES), abs=1e-4
    )
    assert reranker.score("what sample size", PASSAGES) == pytest.approx(scores)  # deterministic
    assert reranker.score("q", []) == []
    reranker.close()


def test_cross_encoder_fallback_gives_the_same_scores(tiny_reranker_dir: Path) -> None:
    flag = Reranker(str(tiny_reranker_dir), backend="flag")
    cross = Reranker(str(tiny_reranker_dir), backend="cross_encoder")
    assert cross.score("speech", PASSAGES) == pytest.approx(flag.score("speech", PASSAGES), abs=1e-4)
    assert cross.loaded_with == "cross_encoder"


def test_a_missing_model_is_a_typed_error(tmp_path: Path) -> None:
    reranker = Reranker(str(tmp_path / "no-such-model"))
    with pytest.raises(RerankerError, match="could not load reranker"):
        reranker.load()


async def test_time_limit_and_errors_are_reported_not_raised(tiny_reranker_dir: Path) -> None:
    reranker = Reranker(str(tiny_reranker_dir))
    done = await reranker.score_within("speech", PASSAGES, timeout=30)
    assert done.status == "done" and done.scores is not None and len(done.scores) == 3

    release = threading.Event()

    class Slow(Reranker):
        def score(self, question: str, passages: list[str]) -> list[float]:  # type: ignore[override]
            release.wait(5)
            return [0.0] * len(passages)

    slow = Slow(str(tiny_reranker_dir))
    outcome = await slow.score_within("speech", PASSAGES, timeout=0.05)
    assert outcome.status == "timeout" and outcome.scores is None
    assert "0.05" in outcome.message
    release.set()
    slow.close()

    broken = Reranker(str(tiny_reranker_dir.parent / "missing"))
    failed = await broken.score_within("speech", PASSAGES, timeout=30)
    assert failed.status == "error" and "could not load" in failed.message


async def test_loading_the_model_is_not_charged_to_the_first_questions_time_limit(
    tiny_reranker_dir: Path,
) -> None:
    class SlowToLoad(Reranker):
        def load(self) -> None:
            if not self.loaded:
                threading.Event().wait(1.0)  # a big model's load, longer than the question's limit
            super().load()

    reranker = SlowToLoad(str(tiny_reranker_dir))
    first = await reranker.score_within("speech", PASSAGES, timeout=0.9)
    assert first.status == "done" and first.scores is not None and "not counted" in first.message
    again = await reranker.score_within("speech", PASSAGES, timeout=0.9)
    assert again.status == "done" and again.message == ""  # loaded once per process
    reranker.close()
