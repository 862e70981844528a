"""A small logistic model shipped as data: standardised features, coefficients, a threshold, provenance.

A calibrated decision (can a Run answer a question, `agent.ask.answerability`) is a logistic model
fitted by an evaluation command and shipped as a JSON file beside the code that reads it; evaluations
fit candidate decisions the same way (which MeSH headings an expert searches,
`evals.strategy.headings`). This module holds what they share: the file's shape (`LogisticModel`), the
probability it gives, and the fit (L2-regularised, Newton's method, numpy only).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np
from pydantic import BaseModel, Field

log = logging.getLogger(__name__)


class LogisticModel(BaseModel):
    """The fitted decision as product data: coefficients over standardised features, and provenance."""

    features: list[str]
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float
    threshold: float  # the decision is "yes" when the probability is at least this
    fitted_on: str = ""  # data and procedure
    train_metrics: dict[str, float] = Field(default_factory=dict)

    def probability(self, features: Mapping[str, float]) -> float:
        z = self.intercept
        for name, mean, scale, coef in zip(self.features, self.mean, self.scale, self.coef, strict=True):
            z += coef * (features.get(name, 0.0) - mean) / (scale or 1.0)
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


Model = TypeVar("Model", bound=LogisticModel)


def read_model(path: Path, kind: type[Model]) -> Model | None:
    """The model stored at `path`, or None when the file is missing or unreadable (a warning says
    which), so that the caller falls back to its rule."""
    try:
        return kind.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("model %s unreadable (%s); the fallback rule decides", path, exc)
        return None


def fit_logistic(
    rows: Sequence[Mapping[str, float]],
    labels: Sequence[int],
    *,
    features: Sequence[str],
    l2: float = 1.0,
    iterations: int = 50,
) -> tuple[list[float], list[float], list[float], float]:
    """L2-regularised logistic regression by Newton's method on standardised features.

    Returns (mean, scale, coef, intercept). `labels` are 1 for yes, 0 for no.
    """
    x = np.array([[row.get(name, 0.0) for name in features] for row in rows], dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    w = np.zeros(z.shape[1])
    penalty = np.eye(z.shape[1]) * l2
    penalty[0, 0] = 0.0  # the intercept is not shrunk
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -40, 40)))
        gradient = z.T @ (p - y) + penalty @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return mean.tolist(), scale.tolist(), w[1:].tolist(), float(w[0])


def fitted(
    rows: Sequence[Mapping[str, float]], labels: Sequence[int], *, features: Sequence[str], l2: float = 1.0
) -> LogisticModel:
    """The model `fit_logistic` finds, rounded as it is shipped (threshold 0.5 until one is chosen)."""
    mean, scale, coef, intercept = fit_logistic(rows, labels, features=features, l2=l2)
    return LogisticModel(
        features=list(features),
        mean=[round(x, 6) for x in mean],
        scale=[round(x, 6) for x in scale],
        coef=[round(x, 6) for x in coef],
        intercept=round(intercept, 6),
        threshold=0.5,
    )
