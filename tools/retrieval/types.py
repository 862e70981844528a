"""The data shapes of hybrid retrieval: what goes into a Run's knowledge base and what a search returns.

These are the contract with the answer layer (steps 6–8), so every field a user may see — the
normalisation steps, the intent, each leg's score — is kept rather than folded into one number.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

LEGS: tuple[str, ...] = ("bm25", "dense", "graph")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ----------------------------------------------------------------------------------------------
# Input
# ----------------------------------------------------------------------------------------------

SectionKind = Literal[
    "title",
    "abstract",
    "introduction",
    "methods",
    "results",
    "discussion",
    "conclusion",
    "table",
    "figure",
    "other",
]


class FullTextSection(_Model):
    """One section of a paper's full text, as the full-text step delivers it.

    `kind` decides how the section is labelled and boosted; `title` is the heading as printed
    ("2.3 Participants", "Table 2"), `caption` is kept apart for tables and figures so the
    assembly step can show it.
    """

    kind: SectionKind = "other"
    title: str = ""
    text: str
    caption: str | None = None


class SectionRecord(_Model):
    """One retrievable unit (a chunk of a section) as stored: its stable id is `<paper>#<section>#<ordinal>`."""

    section_id: str
    paper_key: str
    section: str  # "title", "abstract", "background", "methods", "table-2", ...
    kind: SectionKind
    ordinal: int  # chunk number inside the section, from 0
    position: int  # order of the section inside the paper, so expansion keeps reading order
    heading: str = ""
    text: str
    embed_text: str  # what the embedding model sees: the text with its paper title in front
    # False for a title that every other section of its paper already carries in front of its text:
    # searched on its own it only competes with its own paper (SciFact: about −0.004 nDCG@10 when kept)
    searchable: bool = True
    metadata: dict[str, object] = Field(default_factory=dict)


# ----------------------------------------------------------------------------------------------
# Step 1: normalisation
# ----------------------------------------------------------------------------------------------


class Replacement(_Model):
    surface: str
    canonical: str


class NormalizationTrace(_Model):
    """Every step of query normalisation, in order (the 001 design's worked example)."""

    original: str
    width_normalized: str  # full-width → half-width (NFKC)
    punctuation_normalized: str  # quotes/dashes unified, sentence punctuation dropped
    whitespace_normalized: str  # runs collapsed; spaces next to CJK removed
    synonyms_canonicalized: str
    replacements: list[Replacement] = Field(default_factory=list)
    stopwords_removed: str
    removed_words: list[str] = Field(default_factory=list)
    tokens: list[str] = Field(default_factory=list)  # jieba (precise mode) with the Run's terms kept whole
    keywords: list[str] = Field(default_factory=list)  # the Run's terms found, then the longer tokens
    bm25_tokens: list[str] = Field(default_factory=list)  # what the BM25 leg searched for
    language: Literal["en", "zh", "mixed"] = "en"
    normalized_text: str  # what the dense leg embeds: the cleaned question before stop-word removal

    def steps(self) -> dict[str, object]:
        """The processing steps under the names the design documents use."""
        return {
            "full_half_width_conversion": self.width_normalized,
            "punctuation_standardization": self.punctuation_normalized,
            "whitespace_standardization": self.whitespace_normalized,
            "synonym_standardization": self.synonyms_canonicalized,
            "low_info_word_removal": self.stopwords_removed,
            "jieba_segmentation": list(self.tokens),
        }


# ----------------------------------------------------------------------------------------------
# Step 2: intent
# ----------------------------------------------------------------------------------------------

IntentKind = Literal["title", "content", "entity"]


class RetrievalStrategy(_Model):
    legs: list[str] = Field(default_factory=lambda: list(LEGS))
    boost_fields: list[str] = Field(default_factory=list)  # section kinds whose fused score is raised
    boost: float = 1.0  # the factor applied to those sections
    weight_overrides: dict[str, float] = Field(default_factory=dict)  # leg → multiplier on its weight


class Intent(_Model):
    kind: IntentKind
    confidence: float = Field(ge=0.0, le=1.0)
    evidence: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)  # graph entities the question names
    strategy: RetrievalStrategy = Field(default_factory=RetrievalStrategy)


# ----------------------------------------------------------------------------------------------
# Steps 3–5: recall, fusion, rerank
# ----------------------------------------------------------------------------------------------


class SectionHit(_Model):
    section_id: str
    paper_key: str
    section: str
    ordinal: int
    text: str
    score: float  # the fused score (after boosts); the order of `hits` is the final order
    leg_scores: dict[str, float] = Field(default_factory=dict)  # raw score of each leg that found it
    normalized_scores: dict[str, float] = Field(
        default_factory=dict
    )  # each leg's score after min-max (or RRF)
    legs: list[str] = Field(default_factory=list)
    rerank_score: float | None = None
    kind: str = ""
    heading: str = ""
    graph_path: list[str] = Field(default_factory=list)  # best term-graph path that reached it


class FusionTrace(_Model):
    method: Literal["weighted", "rrf"]
    weights: dict[str, float]
    candidates: int
    multi_leg: int  # sections found by more than one leg
    per_leg: dict[str, int]  # how many sections each leg returned


class LegCandidate(_Model):
    """One section as a single leg ranked it (step 3's per-path candidates, kept for the trace)."""

    section_key: str  # "<paper>#<section>"
    score: float  # the leg's raw score: BM25, cosine similarity, graph walk


class RerankTrace(_Model):
    status: Literal["done", "skipped", "timeout", "unavailable", "error"]
    model: str | None = None
    candidates: int = 0
    message: str = ""


class RetrievalResult(_Model):
    run_id: str
    question: str
    normalization: NormalizationTrace
    intent: Intent
    hits: list[SectionHit]
    fusion: FusionTrace
    rerank: RerankTrace
    timings: dict[str, float] = Field(default_factory=dict)  # seconds per step
    # each leg's best candidates before fusion (at most `LEG_TRACE_DEPTH`), for the trace
    leg_candidates: dict[str, list[LegCandidate]] = Field(default_factory=dict)
    # the Run's inverse document frequency of each BM25 query token (0 for a token no section has):
    # how much a term weighs when the answer layer asks how much of the question the evidence covers
    term_idf: dict[str, float] = Field(default_factory=dict)
    # each leg's raw-score distribution over all its candidates ("top", "mean", "std", "n"): how far
    # the best stands out from the rest is a classic query-performance signal (answerability)
    leg_stats: dict[str, dict[str, float]] = Field(default_factory=dict)


# ----------------------------------------------------------------------------------------------
# Step 6 and bookkeeping
# ----------------------------------------------------------------------------------------------


class ExpandedSection(_Model):
    """A hit grown to its whole section: every chunk of it, in reading order, with the paper's metadata."""

    paper_key: str
    section: str
    kind: str
    heading: str = ""
    text: str
    chunk_ids: list[str]
    hit_ids: list[str]  # the hits that pointed into this section
    score: float  # the best score among those hits
    rerank_score: float | None = None
    title: str = ""
    year: int | None = None
    doi: str | None = None
    metadata: dict[str, object] = Field(default_factory=dict)


class IngestReport(_Model):
    run_id: str
    papers: int
    sections: int  # retrievable units (chunks) stored
    embedded: int  # units whose embedding was computed now (the rest were reused)
    reused: int
    removed: int  # units of a previous ingest that are gone now
    graph_nodes: int
    graph_edges: int
    generation: int
    timings: dict[str, float] = Field(default_factory=dict)
