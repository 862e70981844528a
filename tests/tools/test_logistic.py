"""The shared logistic model: the fit, the probability it gives, and reading a shipped model file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tools.logistic import LogisticModel, fitted, read_model

ROWS = [{"x": float(x), "noise": float(x % 2)} for x in range(10)]
LABELS = [int(x >= 5) for x in range(10)]


def test_the_fit_orders_rows_by_their_feature() -> None:
    model = fitted(ROWS, LABELS, features=("x", "noise"))
    assert model.features == ["x", "noise"] and model.threshold == 0.5
    assert model.coef[0] > 0 and all(round(c, 6) == c for c in model.coef)
    assert model.probability({"x": 9.0}) > 0.5 > model.probability({"x": 0.0})
    assert model.probability({}) == model.probability({"x": 0.0, "noise": 0.0})  # a missing feature is 0


def test_a_model_file_round_trips_and_a_missing_or_broken_one_is_none(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    model = fitted(ROWS, LABELS, features=("x",))
    path = tmp_path / "model.json"
    path.write_text(model.model_dump_json(), encoding="utf-8")
    assert read_model(path, LogisticModel) == model
    assert read_model(tmp_path / "missing.json", LogisticModel) is None
    path.write_text("{not json", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert read_model(path, LogisticModel) is None
    assert "unreadable" in caplog.text
