"""The two BEIR metrics, as BEIR/pytrec_eval compute them (binary or graded gains, log2 discount)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def ndcg_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    """nDCG@k with gains = relevance grades; 0 for a query without relevant documents."""
    if not relevant:
        return 0.0
    dcg = sum(relevant.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]))
    ideal = sorted((g for g in relevant.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 100) -> float:
    positives = {doc for doc, g in relevant.items() if g > 0}
    if not positives:
        return 0.0
    return len(positives & set(ranked[:k])) / len(positives)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
