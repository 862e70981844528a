"""What every service handler gets for one request, and small response helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from evals.fake_sources.config import FakeConfig
from evals.fake_sources.replay import Recordings
from evals.fake_sources.universe import Universe


@dataclass
class ServiceState:
    """Per-server memory the services need (E-utilities history, Wikidata items handed out)."""

    webenvs: dict[str, str] = field(default_factory=dict)  # WebEnv -> term
    wikidata_items: dict[str, tuple[str, str]] = field(default_factory=dict)  # Q-id -> (label, language)
    replayed: dict[Any, int] = field(default_factory=dict)  # exact-request replay counters

    def clear(self) -> None:
        self.webenvs.clear()
        self.wikidata_items.clear()
        self.replayed.clear()


@dataclass
class Ctx:
    request: Request
    service: str
    path: str  # below the service prefix, always starting with "/"
    params: dict[str, str]  # query string and form body merged (form wins)
    json_body: Any
    universe: Universe
    recordings: Recordings
    config: FakeConfig
    state: ServiceState
    fake_total: int | None

    def get(self, name: str, default: str = "") -> str:
        """A parameter, matched exactly first and then case-insensitively (WebEnv vs webenv)."""
        if name in self.params:
            return self.params[name]
        lname = name.lower()
        for key, value in self.params.items():
            if key.lower() == lname:
                return value
        return default

    def get_int(self, name: str, default: int) -> int:
        value = self.get(name)
        try:
            return int(value) if value != "" else default
        except ValueError:
            return default


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(content, status_code=status, media_type="application/json", headers=headers)


def xml_response(text: str, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(text.encode(), status_code=status, media_type="text/xml; charset=UTF-8", headers=headers)


def text_response(text: str, status: int = 200, media_type: str = "text/plain; charset=utf-8") -> Response:
    return Response(text.encode(), status_code=status, media_type=media_type)
