"""A search plan from a description taken as confirmed: understanding, keywords and queries.

This is the path of `scholarmap plan`, the MCP `plan_search` tool and the strategy evaluation: the
same three steps the conversation takes (understand → keywords → queries), without the questions.
The conversation asks and lets the user edit between the steps; here the first round's understanding
is taken as it is.
"""

from __future__ import annotations

from typing import Any

from agent.keywords.query_check import check_queries
from agent.keywords.synonyms import build_keyword_plan
from agent.llm import LLM
from agent.models import KeywordPlan, Model, QueryPlan, Understanding
from agent.understanding.description import understand


class SearchPlan(Model):
    """The three files a Run keeps about its search: `understanding.json`, `keywords.json`, `queries.json`."""

    understanding: Understanding
    keywords: KeywordPlan
    queries: QueryPlan


DEFAULT_HIT_LIMIT = 20_000


async def keywords_and_queries(
    understanding: Understanding, llm: LLM, sources: Any, *, hit_limit: int = DEFAULT_HIT_LIMIT
) -> tuple[KeywordPlan, QueryPlan]:
    """The keyword step and the queries, checked against the databases' counts where they answer.

    Every entry point (the conversation, `scholarmap run`, `scholarmap plan`, the MCP tool) takes
    this one path from a confirmed understanding to the queries a Run will send.
    """
    keywords = await build_keyword_plan(understanding, llm, sources)
    return await check_queries(keywords, sources, limit=hit_limit)


async def plan_search(
    description: str, llm: LLM, sources: Any, *, hit_limit: int = DEFAULT_HIT_LIMIT
) -> SearchPlan:
    """Understand `description` (one round, taken as confirmed), expand its terms, write the queries.

    `sources` is what `build_keyword_plan` takes: `agent.search.sources.SourceClients`, a `SynonymSources`
    (for example only an offline MeSH file), or None. Raises `InvalidDescription` for empty or
    oversized text.
    """
    understanding = await understand(description, llm)
    understanding = understanding.model_copy(update={"ready": True, "questions": []})
    keywords, queries = await keywords_and_queries(understanding, llm, sources, hit_limit=hit_limit)
    return SearchPlan(understanding=understanding, keywords=keywords, queries=queries)
