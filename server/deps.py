"""FastAPI dependencies: the app's long-lived services, reached through `request.app.state`.

Tests override these through `app.dependency_overrides`, like any FastAPI dependency.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request

from agent.db import Database
from agent.llm import LLM
from agent.runs.store import RunStore
from agent.settings import Settings


@dataclass
class Services:
    """Everything a request may need, built once in the app's lifespan."""

    settings: Settings
    store: RunStore
    llm: LLM
    database: Database | None = None
    extras: dict[str, Any] = field(default_factory=dict)  # graph, thread manager, ... (set by server.app)


def get_services(request: Request) -> Services:
    return request.app.state.services


def get_settings(request: Request) -> Settings:
    return get_services(request).settings


def get_store(request: Request) -> RunStore:
    return get_services(request).store


def get_llm(request: Request) -> LLM:
    return get_services(request).llm


def get_database(request: Request) -> Database | None:
    return get_services(request).database


ServicesDep = Annotated[Services, Depends(get_services)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[RunStore, Depends(get_store)]
LLMDep = Annotated[LLM, Depends(get_llm)]
DatabaseDep = Annotated[Database | None, Depends(get_database)]
