"""Does the cited passage support the sentence that cites it? A check on every `[n]` of a model's answer.

Two signals: the share of the sentence's content terms (stemmed, stop words out) that the passage
contains, and — when a cross-encoder is configured — its score for (sentence, passage), an
entailment-style relevance in [0, 1]. A sentence whose passage shares few of its terms and that the
cross-encoder (if any) does not rate relevant is flagged: its citation event says `supported: false`
and the answer ends with a line naming it. Sentences too short to judge ("See [2].") are not flagged.
"""

from __future__ import annotations

from typing import Any, Protocol

from tools.retrieval.normalize import get_segmenter

OVERLAP_MIN = 0.5  # share of the claim's terms the passage must contain (without a cross-encoder)
CROSS_ENCODER_MIN = 0.5  # a cross-encoder score at or above this supports the claim on its own
CROSS_ENCODER_WITH_OVERLAP = 0.2  # ... or this, together with OVERLAP_MIN
MIN_CLAIM_TERMS = 3
CHECK_TIMEOUT = 5.0


class CitedSource(Protocol):
    text: str
    title: str


def overlap(claim: str, passage: str) -> tuple[float, int]:
    """(share of the claim's distinct terms found in the passage, how many terms the claim has)."""
    segmenter = get_segmenter()
    wanted = set(segmenter.index_tokens(claim))
    if not wanted:
        return 0.0, 0
    present = set(segmenter.index_tokens(passage))
    return len(wanted & present) / len(wanted), len(wanted)


class CitationChecker:
    """Checks citations one at a time as they stream; remembers the unsupported ones."""

    def __init__(self, cross_encoder: Any = None) -> None:
        self.cross_encoder = cross_encoder  # tools.retrieval.rerank.Reranker, or None
        self.unsupported: list[tuple[int, str]] = []

    async def check(self, citation: Any, source: CitedSource) -> Any:
        """The citation (an `AskCitation`) with `supported` and `support` filled in."""
        claim = citation.claim.strip()
        passage = f"{source.title}. {source.text}" if source.title else source.text
        share, size = overlap(claim, passage)
        if size < MIN_CLAIM_TERMS:
            return citation
        support: dict[str, float] = {"overlap": round(share, 3)}
        supported = share >= OVERLAP_MIN
        if self.cross_encoder is not None:
            outcome = await self.cross_encoder.score_within(claim, [passage], CHECK_TIMEOUT)
            if outcome.scores:
                score = float(outcome.scores[0])
                support["cross_encoder"] = round(score, 3)
                supported = score >= CROSS_ENCODER_MIN or (
                    share >= OVERLAP_MIN and score >= CROSS_ENCODER_WITH_OVERLAP
                )
        if not supported:
            self.unsupported.append((citation.n, claim))
        return citation.model_copy(update={"supported": supported, "support": support})
