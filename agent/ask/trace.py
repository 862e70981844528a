"""The trace of one question: each retrieval step's output in the shapes of requirement 001.

`scholarmap ask --trace` and the API's `trace` option put this in the `start` chunk, so a user can see
why a passage won: what the question became (step 1), how it was read (2), what each path found (3),
how the paths were weighted and their scores normalised (4), what the cross-encoder did (5), which
whole sections were pulled in (6) and how the numbered sources were put together (7). Step 8 is the
stream itself. A Chinese question searched again in English has a second block for that search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agent.ask.cues import cues_for
from tools.retrieval.normalize import get_segmenter
from tools.retrieval.types import ExpandedSection, RetrievalResult

if TYPE_CHECKING:
    from agent.ask.answer import AssembledSource
    from agent.ask.answerability import Answerability
    from agent.ask.search import QuestionSearch

PREVIEW_CHARS = 160
LEG_NAMES = {"bm25": "bm25_results", "dense": "vector_results", "graph": "knowledge_graph_results"}


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def normalized_query(result: RetrievalResult) -> dict[str, Any]:
    norm = result.normalization
    return {
        "original_text": norm.original,
        "normalized_text": norm.normalized_text,
        "processing_steps": norm.steps(),
        "keywords": list(norm.keywords),
        "bm25_tokens": list(norm.bm25_tokens),
        "query_length": len(norm.tokens),
        "language": norm.language,
    }


def intent_analysis(result: RetrievalResult) -> dict[str, Any]:
    intent = result.intent
    return {
        "intent_types": [
            {
                "intent": intent.kind,
                "confidence": intent.confidence,
                "evidence": list(intent.evidence),
                "query_pattern": {"title": "title_question", "entity": "entity_specific_question"}.get(
                    intent.kind, "content_fragment_question"
                ),
            }
        ],
        "primary_intent": intent.kind,
        "answer_types": [cue.name for cue in cues_for(result.question)],
        "target_entities": list(intent.entities),
        "retrieval_strategy": {
            "legs": list(intent.strategy.legs),
            "boost_fields": list(intent.strategy.boost_fields),
            "boost": intent.strategy.boost,
            "weight_overrides": dict(intent.strategy.weight_overrides),
        },
    }


def multi_recall(result: RetrievalResult, texts: dict[str, str]) -> dict[str, Any]:
    """Step 3: each path's best candidates with its raw scores (matched terms where the text is known)."""
    segmenter = get_segmenter()
    wanted = list(result.normalization.bm25_tokens)
    out: dict[str, Any] = {}
    for leg, name in LEG_NAMES.items():
        rows = []
        for candidate in result.leg_candidates.get(leg, []):
            row: dict[str, Any] = {
                "section_id": candidate.section_key,
                "document_id": candidate.section_key.split("#", 1)[0],
                "score": candidate.score,
                "source": {"dense": "vector", "graph": "knowledge_graph"}.get(leg, leg),
            }
            if leg == "dense":
                row["similarity"] = candidate.score
            text = texts.get(candidate.section_key)
            if text is not None:
                present = set(segmenter.index_tokens(text))
                if leg == "bm25":
                    row["matched_terms"] = [t for t in wanted if t in present]
                row["content_snippet"] = _preview(text)
            rows.append(row)
        out[name] = rows
    out["recall_stats"] = {
        "bm25_count": result.fusion.per_leg.get("bm25", 0),
        "vector_count": result.fusion.per_leg.get("dense", 0),
        "kg_count": result.fusion.per_leg.get("graph", 0),
        "total_unique_sections": result.fusion.candidates,
        "recall_time_ms": round(
            1000 * sum(result.timings.get(k, 0.0) for k in ("bm25", "embed", "dense", "graph")), 1
        ),
    }
    return out


def aggregated(result: RetrievalResult) -> dict[str, Any]:
    """Step 4: the fused candidates with raw and normalised scores and the weights that combined them."""
    weights = {f"{leg}_weight": weight for leg, weight in result.fusion.weights.items()}
    candidates = [
        {
            "section_id": hit.section_id,
            "document_id": hit.paper_key,
            "section": hit.section,
            "fusion_score": round(hit.score, 4),
            "source_scores": {f"{leg}_score": round(score, 4) for leg, score in hit.leg_scores.items()},
            "normalized_scores": {f"{leg}_normalized": score for leg, score in hit.normalized_scores.items()},
            "fusion_weights": weights,
            "source_coverage": list(hit.legs),
            "content_preview": _preview(hit.text),
        }
        for hit in result.hits
    ]
    return {
        "candidates": candidates,
        "fusion_strategy": "weighted_sum" if result.fusion.method == "weighted" else "rrf",
        "fusion_weights": dict(result.fusion.weights),
        "total_candidates": result.fusion.candidates,
        "aggregation_stats": {
            "sections_with_multi_source": result.fusion.multi_leg,
            "fusion_time_ms": round(1000 * result.timings.get("fusion", 0.0), 1),
        },
    }


def reranked(result: RetrievalResult) -> dict[str, Any]:
    """Step 5: the cross-encoder's order, or why there was none."""
    rerank = result.rerank
    return {
        "status": rerank.status,
        "reranker_model": rerank.model,
        "message": rerank.message,
        "reranked_candidates": [
            {
                "rank": rank,
                "section_id": hit.section_id,
                "rerank_score": hit.rerank_score,
                "original_fusion_score": round(hit.score, 4),
            }
            for rank, hit in enumerate(result.hits, start=1)
            if hit.rerank_score is not None
        ],
        "rerank_time_ms": round(1000 * result.timings.get("rerank", 0.0), 1),
    }


def search_block(result: RetrievalResult, texts: dict[str, str]) -> dict[str, Any]:
    return {
        "normalized_query": normalized_query(result),
        "intent_analysis": intent_analysis(result),
        "multi_recall_results": multi_recall(result, texts),
        "aggregated_results": aggregated(result),
        "reranked_results": reranked(result),
    }


def build_trace(
    searched: QuestionSearch,
    sections: Sequence[ExpandedSection],
    sources: Sequence[AssembledSource],
    verdict: Answerability | None,
) -> dict[str, Any]:
    """Steps 1–7 of one question as JSON-ready dicts, under the requirement's names."""
    texts = {f"{s.paper_key}#{s.section}": f"{s.title}. {s.text}" for s in sections}
    trace: dict[str, Any] = search_block(searched.result, texts)
    if searched.translated is not None:
        trace["translated_search"] = {
            "translation": searched.translation,
            **search_block(searched.translated, texts),
        }
    trace["expanded_results"] = {
        "expanded_sections": [
            {
                "primary_section": {"section_id": s.hit_ids[0] if s.hit_ids else "", "rank": rank},
                "complete_section_content": {"full_text": s.text, "chunk_ids": list(s.chunk_ids)},
                "document_info": {"document_id": s.paper_key, "title": s.title, "section": s.section},
            }
            for rank, s in enumerate(sections, start=1)
        ],
        "expansion_strategy": "complete_section",
        "total_expanded_sections": len(sections),
    }
    trace["assembled_content"] = {
        "response_sections": [
            {
                "section_rank": source.n,
                "section_id": source.section_id,
                "section_title": source.heading or source.section,
                "block_type": "table_block"
                if source.is_table
                else "image_block"
                if source.is_figure
                else "text_block",
                "relevance_score": round(source.score, 4),
                "source_info": {"document": source.paper_key, "title": source.title, "doi": source.doi},
            }
            for source in sources
        ],
        "content_summary": {
            "total_sections": len(sources),
            "total_table_blocks": sum(1 for s in sources if s.is_table),
            "total_image_blocks": sum(1 for s in sources if s.is_figure),
            "total_text_blocks": sum(1 for s in sources if not s.is_table and not s.is_figure),
        },
    }
    if verdict is not None:
        trace["answerability"] = verdict.model_dump(mode="json")
    return trace
