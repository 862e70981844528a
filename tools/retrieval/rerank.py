"""Step 5: cross-encoder reranking of the fused top K, skippable and time-bounded.

The model runs through FlagEmbedding's `FlagReranker` (bge-reranker-base by default; any local
folder or hub id of a sequence-classification cross-encoder works), with sentence-transformers'
`CrossEncoder` as the fallback when FlagEmbedding cannot load a model. Scoring runs on one
dedicated worker thread: the event loop stays free, and a call that overruns its time limit is
abandoned — the caller keeps the fused order and says so — while the thread finishes in the
background (a Python thread cannot be killed), after which the next call proceeds.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from agent.errors import ModelError

log = logging.getLogger(__name__)

DEFAULT_RERANKER = "BAAI/bge-reranker-base"


class RerankerError(ModelError):
    """The reranking model could not be loaded or failed to score; the message says which and why."""


@dataclass
class RerankOutcome:
    status: str  # "done" | "timeout" | "error"
    scores: list[float] | None
    seconds: float
    message: str = ""


class Reranker:
    """A cross-encoder that scores (question, passage) pairs; higher is more relevant."""

    def __init__(
        self,
        model_name_or_path: str = DEFAULT_RERANKER,
        *,
        device: str = "cpu",
        use_fp16: bool = False,
        batch_size: int = 32,
        max_length: int = 512,
        normalize: bool = True,
        backend: str = "auto",  # "flag", "cross_encoder" or "auto" (flag, then cross_encoder)
    ) -> None:
        self.name = model_name_or_path
        self.device = device
        self.use_fp16 = use_fp16
        self.batch_size = batch_size
        self.max_length = max_length
        self.normalize = normalize
        self.backend = backend
        self.loaded_with: str | None = None
        self._model: Any = None
        self._lock = threading.Lock()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rerank")

    # -- loading --------------------------------------------------------------------------------

    def load(self) -> None:
        """Load the model now (otherwise the first `score` does); raises RerankerError."""
        with self._lock:
            if self._model is not None:
                return
            errors: list[str] = []
            if self.backend in ("auto", "flag"):
                try:
                    # imported on first use: a heavy optional dependency, kept out of processes that never need it
                    from FlagEmbedding import FlagReranker

                    self._model = FlagReranker(
                        self.name,
                        use_fp16=self.use_fp16,
                        devices=self.device,  # one device: FlagEmbedding scores in-process, no worker pool
                        batch_size=self.batch_size,
                        max_length=self.max_length,
                        normalize=self.normalize,
                    )
                    self.loaded_with = "flag"
                    log.info("loaded reranker %s with FlagEmbedding", self.name)
                    return
                except Exception as exc:  # FlagEmbedding wraps loader errors in plain exceptions
                    errors.append(f"FlagEmbedding: {exc}")
            if self.backend in ("auto", "cross_encoder"):
                try:
                    # imported on first use: a heavy optional dependency, kept out of processes that never need it
                    from sentence_transformers import CrossEncoder

                    self._model = CrossEncoder(self.name, device=self.device, max_length=self.max_length)
                    self.loaded_with = "cross_encoder"
                    log.info("loaded reranker %s with sentence-transformers CrossEncoder", self.name)
                    return
                except Exception as exc:
                    errors.append(f"CrossEncoder: {exc}")
            if not errors:
                raise RerankerError(f"unknown reranker backend {self.backend!r}")
            raise RerankerError(f"could not load reranker {self.name!r}: " + "; ".join(errors))

    @property
    def loaded(self) -> bool:
        return self._model is not None

    # -- scoring --------------------------------------------------------------------------------

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        """Blocking: one relevance score per passage (sigmoid-normalised when `normalize`)."""
        if not passages:
            return []
        self.load()
        pairs = [(question, p) for p in passages]
        try:
            if self.loaded_with == "flag":
                raw = self._model.compute_score(pairs, batch_size=self.batch_size, max_length=self.max_length)
            else:
                # imported on first use: a heavy optional dependency, kept out of processes that never need it
                import torch

                activation = torch.nn.Sigmoid() if self.normalize else torch.nn.Identity()
                raw = self._model.predict(
                    pairs, batch_size=self.batch_size, show_progress_bar=False, activation_fn=activation
                )
        except Exception as exc:
            raise RerankerError(f"reranker {self.name!r} failed to score: {exc}") from exc
        values = [float(raw)] if isinstance(raw, int | float) else [float(x) for x in raw]
        if len(values) != len(passages):
            raise RerankerError(f"reranker returned {len(values)} scores for {len(passages)} passages")
        return values

    async def warm(self) -> float:
        """Load the model on the reranker's thread (once per process); the seconds it took."""
        if self.loaded:
            return 0.0
        started = time.perf_counter()
        await asyncio.get_running_loop().run_in_executor(self._executor, self.load)
        return time.perf_counter() - started

    async def score_within(self, question: str, passages: Sequence[str], timeout: float) -> RerankOutcome:
        """Score on the reranker's thread; after `timeout` seconds give up waiting (status 'timeout').

        Loading the model (the first call in a process) is not charged to `timeout`: it happens once,
        before the clock starts, so the first question is not the one that loses its rerank.
        """
        load_note = ""
        try:
            loaded_in = await self.warm()
        except RerankerError as exc:
            return RerankOutcome("error", None, 0.0, str(exc))
        if loaded_in:
            load_note = f"model loaded in {loaded_in:.1f} s (not counted)"
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor, self.score, question, list(passages))
        try:
            scores = await asyncio.wait_for(asyncio.shield(future), timeout=timeout)
        except TimeoutError:
            # keep the future referenced and log its end, so a late failure is not lost silently
            future.add_done_callback(_log_late_failure)
            return RerankOutcome(
                "timeout", None, time.perf_counter() - started, f"no answer within {timeout:g} s"
            )
        except RerankerError as exc:
            return RerankOutcome("error", None, time.perf_counter() - started, str(exc))
        return RerankOutcome("done", scores, time.perf_counter() - started, load_note)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _log_late_failure(future: asyncio.Future[list[float]]) -> None:
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None:
        log.warning("a timed-out rerank later failed: %s", exc)
