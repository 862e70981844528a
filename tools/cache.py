"""A response cache keyed by the normalised request, on disk (SQLite), shared by processes.

Why disk rather than PostgreSQL: hit-count checks happen during understanding, before a database is
needed, and SQLite needs no server. Keys never contain secrets: secret parameters are dropped before
hashing, so the same request with a rotated API key still hits.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

SECRET_PARAMS = frozenset(
    {"api_key", "apikey", "key", "x-api-key", "token", "access_token", "email", "mailto"}
)


class ResponseCache:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, stored REAL, status INTEGER, "
            "headers TEXT, content BLOB)"
        )
        self._conn.commit()

    @staticmethod
    def key(
        method: str, url: str, params: Mapping[str, Any] | None, data: Mapping[str, Any] | None, body: Any
    ) -> str:
        def clean(values: Mapping[str, Any] | None) -> list[tuple[str, str]]:
            return sorted(
                (str(k), str(v)) for k, v in (values or {}).items() if str(k).lower() not in SECRET_PARAMS
            )

        material = json.dumps(
            [method.upper(), url, clean(params), clean(data), body], sort_keys=True, default=str
        )
        return hashlib.sha256(material.encode()).hexdigest()

    def get(self, key: str, ttl: float) -> tuple[int, dict[str, str], bytes] | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT stored, status, headers, content FROM responses WHERE key = ?", (key,)
            ).fetchone()
        if row is None or time.time() - row[0] > ttl:
            return None
        return int(row[1]), json.loads(row[2]), bytes(row[3])

    def put(self, key: str, status: int, headers: Mapping[str, str], content: bytes) -> None:
        kept = {k: v for k, v in headers.items() if k.lower() in {"content-type"}}
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?)",
                (key, time.time(), status, json.dumps(kept), content),
            )
            self._conn.commit()

    def clear(self) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM responses")
            self._conn.commit()

    def close(self) -> None:
        with self._lock:
            self._conn.close()
