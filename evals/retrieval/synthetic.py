"""Speed on a synthetic Run of N sections in PostgreSQL: ingest throughput and hybrid query latency.

Texts are drawn from a Zipf-distributed vocabulary of made-up words, with a keyword plan whose
terms (and synonyms) appear in a small share of sections, authors, institutions and MeSH headings,
so all three legs do real work. Document vectors come from a cheap deterministic embedder
(topic centroid + noise) because encoding 100,000 sections with MiniLM would take about an hour on
two cores; MiniLM's own document throughput is measured on a sample and reported separately.
Questions are embedded with the real model, so the measured query latency includes it.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from agent.models import (
    AbstractSection,
    Affiliation,
    AggregatedPaper,
    Author,
    KeywordPlan,
    MeshHeading,
    Paper,
    Synonym,
    Term,
)
from tools.retrieval.engine import RetrievalEngine
from tools.retrieval.types import FullTextSection

SECTIONS_PER_PAPER = 5  # title, abstract, introduction, methods, results


class SyntheticEmbedder:
    """Batches (documents at ingest) get structured pseudo-vectors; single texts (questions) the real model."""

    def __init__(self, real: Any, *, topics: int = 256, seed: int = 7) -> None:
        self.real = real
        self.name = real.name
        rng = np.random.default_rng(seed)
        self._dim = int(real.dimension)
        self._centroids = rng.standard_normal((topics, self._dim)).astype(np.float32)

    @property
    def dimension(self) -> int:
        return self._dim

    def encode(self, texts: list[str]) -> np.ndarray:
        if len(texts) == 1:
            return self.real.encode(texts)
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            rng = np.random.default_rng(seed)
            v = self._centroids[seed % len(self._centroids)] + 0.8 * rng.standard_normal(
                self._dim, dtype=np.float32
            )
            out[i] = v / np.linalg.norm(v)
        return out


def _vocabulary(rng: np.random.Generator, size: int) -> list[str]:
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"] + ["an", "el", "or", "ix", "um"]
    words: set[str] = set()
    while len(words) < size:
        n = int(rng.integers(2, 5))
        words.add("".join(syllables[int(i)] for i in rng.integers(0, len(syllables), n)))
    return sorted(words)


@dataclass
class Corpus:
    papers: list[AggregatedPaper]
    fulltext: dict[str, list[FullTextSection]]
    plan: KeywordPlan
    questions: list[str]


def make_corpus(sections: int, *, seed: int = 11, questions: int = 200) -> Corpus:
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng, 20_000)
    ranks = np.arange(1, len(vocab) + 1)
    probs = 1.0 / ranks**1.05
    probs /= probs.sum()

    # one big Zipf sample drawn up front: rng.choice with p= costs O(vocabulary) per call
    pool = rng.choice(len(vocab), size=sections * 130 + 10_000, p=probs)
    cursor = 0

    def sentence_words(n: int) -> list[str]:
        nonlocal cursor
        if cursor + n > len(pool):
            cursor = 0
        cursor += n
        return [vocab[int(i)] for i in pool[cursor - n : cursor]]

    # plan terms: mid-frequency words, each with two synonyms that are phrases of rarer words
    term_words = [vocab[int(i)] for i in rng.choice(np.arange(300, 3000), size=40, replace=False)]
    terms = []
    surfaces: list[str] = []
    for j, word in enumerate(term_words):
        syns = [f"{vocab[5000 + 2 * j]} {vocab[5001 + 2 * j]}", vocab[9000 + j]]
        terms.append(Term(canonical=word, slot="task", synonyms=[Synonym(text=s) for s in syns]))
        surfaces += [word, *syns]
    plan = KeywordPlan(terms=terms)
    authors = [f"{vocab[100 + i].capitalize()} {vocab[12000 + i].capitalize()}" for i in range(4000)]
    institutions = [f"University of {vocab[15000 + i].capitalize()}" for i in range(400)]
    mesh = [vocab[16000 + i].capitalize() for i in range(300)]

    def text(n_words: int) -> str:
        words = sentence_words(n_words)
        # ~1 section in 20 names a plan term or synonym
        if rng.random() < 0.05:
            words.insert(int(rng.integers(0, len(words))), surfaces[int(rng.integers(0, len(surfaces)))])
        out, i = [], 0
        while i < len(words):
            n = int(rng.integers(8, 20))
            out.append(" ".join(words[i : i + n]).capitalize() + ".")
            i += n
        return " ".join(out)

    n_papers = max(1, sections // SECTIONS_PER_PAPER)
    papers: list[AggregatedPaper] = []
    fulltext: dict[str, list[FullTextSection]] = {}
    for p in range(n_papers):
        key = f"doi:10.9999/syn.{p}"
        chosen = [authors[int(i)] for i in rng.integers(0, len(authors), 4)]
        inst = institutions[int(rng.integers(0, len(institutions)))]
        papers.append(
            AggregatedPaper(
                key=key,
                paper=Paper(
                    title=" ".join(sentence_words(10)).capitalize(),
                    year=int(rng.integers(1995, 2025)),
                    doi=f"10.9999/syn.{p}",
                    abstract_sections=[AbstractSection(text=text(110))],
                    authors=[
                        Author(
                            name=a,
                            family=a.split()[-1],
                            position=i + 1,
                            affiliations=[Affiliation(institution=inst)],
                        )
                        for i, a in enumerate(chosen)
                    ],
                    mesh_headings=[
                        MeshHeading(descriptor=mesh[int(i)]) for i in rng.integers(0, len(mesh), 3)
                    ],
                ),
            )
        )
        fulltext[key] = [
            FullTextSection(kind="introduction", title="Introduction", text=text(110)),
            FullTextSection(kind="methods", title="Methods", text=text(110)),
            FullTextSection(kind="results", title="Results", text=text(110)),
        ]
    qs: list[str] = []
    for i in range(questions):
        words = sentence_words(int(rng.integers(3, 8)))
        if i % 3 == 0:
            words.append(surfaces[int(rng.integers(0, len(surfaces)))])
        if i % 10 == 0:
            words.append(authors[int(rng.integers(0, len(authors)))])
        qs.append(("What is known about " if i % 2 else "") + " ".join(words) + ("?" if i % 2 else ""))
    return Corpus(papers, fulltext, plan, qs)


@dataclass
class SyntheticReport:
    sections: int
    ingest_seconds: float
    ingest_sections_per_s: float
    ingest_timings: dict[str, float]
    embed_sections_per_s: float  # the real model on a sample of the same sections
    cold_load_seconds: float
    p50_ms: float
    p95_ms: float
    mean_ms: float
    step_p50_ms: dict[str, float]


async def run_synthetic(
    pool: Any,
    real_embedder: Any,
    sections: int,
    *,
    questions: int = 200,
    embed_sample: int = 200,
    progress: Any = None,
) -> SyntheticReport:
    say = progress or (lambda _msg: None)
    corpus = make_corpus(sections, questions=questions)
    embedder = SyntheticEmbedder(real_embedder)
    engine = RetrievalEngine(pool, embedder)
    run_id = f"synthetic-{sections}"
    await engine.delete_run(run_id)
    say(f"ingesting {len(corpus.papers)} papers")
    t = time.perf_counter()
    report = await engine.ingest(run_id, corpus.papers, plan=corpus.plan, fulltext=corpus.fulltext)
    ingest_seconds = time.perf_counter() - t
    say(f"ingested {report.sections} sections in {ingest_seconds:.1f} s: {report.timings}")

    # the real model's document throughput on a sample of the same sections
    sample = [
        r.embed_text
        for p in corpus.papers[: embed_sample // SECTIONS_PER_PAPER + 1]
        for r in engine.records_for(p, corpus.fulltext[p.key])
    ][:embed_sample]
    real_embedder.encode(sample[:8])  # load and warm
    t = time.perf_counter()
    real_embedder.encode(sample)
    embed_rate = len(sample) / (time.perf_counter() - t)

    t = time.perf_counter()
    await engine.search(run_id, corpus.questions[0], rerank=False)
    cold = time.perf_counter() - t
    for q in corpus.questions[1:6]:
        await engine.search(run_id, q, rerank=False)
    latencies: list[float] = []
    steps: dict[str, list[float]] = {}
    for q in corpus.questions:
        t = time.perf_counter()
        result = await engine.search(run_id, q, rerank=False)
        latencies.append((time.perf_counter() - t) * 1000)
        for step, seconds in result.timings.items():
            steps.setdefault(step, []).append(seconds * 1000)
    await engine.delete_run(run_id)
    arr = np.array(latencies)
    return SyntheticReport(
        sections=report.sections,
        ingest_seconds=ingest_seconds,
        ingest_sections_per_s=report.sections / ingest_seconds,
        ingest_timings=report.timings,
        embed_sections_per_s=embed_rate,
        cold_load_seconds=cold,
        p50_ms=float(np.percentile(arr, 50)),
        p95_ms=float(np.percentile(arr, 95)),
        mean_ms=float(arr.mean()),
        step_p50_ms={k: float(np.percentile(v, 50)) for k, v in steps.items()},
    )
