"""A search plan from a description taken as confirmed: understanding, keywords and queries.

This is the path of `scholarmap plan`, the MCP `plan_search` tool and the strategy evaluation: the
same three steps the conversation takes (understand → keywords → queries), without the questions.
The conversation asks and lets the user edit between the steps; here the first round's understanding
is taken as it is.
"""

from __future__ import annotations

from typing import Any

from agent.llm import LLM
from agent.models import KeywordPlan, Model, QueryPlan, Understanding
from agent.querybuild import build_queries
from agent.synonyms import build_keyword_plan
from agent.understanding import understand


class SearchPlan(Model):
    """The three files a Run keeps about its search: `understanding.json`, `keywords.json`, `queries.json`."""

    understanding: Understanding
    keywords: KeywordPlan
    queries: QueryPlan


async def plan_search(description: str, llm: LLM, sources: Any) -> SearchPlan:
    """Understand `description` (one round, taken as confirmed), expand its terms, write the queries.

    `sources` is what `build_keyword_plan` takes: `agent.sources.SourceClients`, a `SynonymSources`
    (for example only an offline MeSH file), or None. Raises `InvalidDescription` for empty or
    oversized text.
    """
    understanding = await understand(description, llm)
    understanding = understanding.model_copy(update={"ready": True, "questions": []})
    keywords = await build_keyword_plan(understanding, llm, sources)
    return SearchPlan(understanding=understanding, keywords=keywords, queries=build_queries(keywords))
