"""Query generators the strategy evaluation can score, and how `--generator module:function` is read.

A generator is a function `(description: str, mesh_path: Path) -> str` (or a coroutine function
returning the string): the PubMed query written for the description. It is called once per topic, so
anything expensive (a vocabulary file) must be loaded once and kept, as `product_query` does.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
from collections.abc import Awaitable, Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

Generator = Callable[[str, Path], "str | Awaitable[str]"]
DEFAULT_GENERATOR = "evals.strategy.generate:product_query"


@lru_cache(maxsize=1)
def _product_sources() -> Any:
    from agent.keywords.synonyms import SynonymSources
    from tools.mesh import MeshFile
    from tools.mesh_build import EMBEDDED_MESH

    mesh_file = MeshFile(EMBEDDED_MESH)
    mesh_file.load()
    return SynonymSources(mesh_file=mesh_file)


async def product_query(description: str, mesh_path: Path) -> str:
    """ScholarMap's own PubMed query, as a user without an LLM or a network gets it: `plan_search` with
    the rules and the MeSH table the product ships (`mesh_path` is the eval's yardstick, not used here)."""
    from agent.keywords.plan import plan_search
    from agent.llm import RulesLLM
    from agent.models import Source

    plan = await plan_search(description, RulesLLM(), _product_sources())
    pubmed = plan.queries.queries.get(Source.PUBMED)
    return pubmed.query if pubmed is not None else ""


def load_generator(spec: str) -> Generator:
    """`module:function` -> the function; ValueError with a message a user can act on."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"--generator must look like module:function, not {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"--generator: cannot import {module_name!r} ({error})") from None
    function = getattr(module, attribute, None)
    if not callable(function):
        raise ValueError(f"--generator: {module_name!r} has no function {attribute!r}")
    return function


def generate(generator: Generator, description: str, mesh_path: Path) -> str:
    """Call a generator, synchronous or not, and check that it returned a string."""
    result = generator(description, mesh_path)
    if inspect.isawaitable(result):
        result = asyncio.run(_await(result))
    if not isinstance(result, str):
        raise TypeError(f"the generator returned {type(result).__name__}, not a query string")
    return result


async def _await(result: Awaitable[Any]) -> Any:
    return await result
