"""Serving a Run's stored files without stalling the server.

Result files reach several MB. Parsing and re-encoding one inside an async handler held the event loop
for long enough that /healthz went from 5 ms to 2 s during ten downloads. So:

- with no paging or field selection, the stored file itself is streamed (read in a worker thread by
  Starlette's FileResponse): the bytes on disk are the answer, nothing is parsed;
- a page (`offset`, `limit`) or a field selection (`fields`) parses the file in a worker thread;
- a Run never changes once saved, so every answer carries an `ETag` and a `Last-Modified` from the
  file's size and time, and a conditional request is answered 304 with no body.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
from pathlib import Path
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.responses import FileResponse

from agent.runs.store import CorruptRun, RunStore

JSON = "application/json"


class StoredFileResponse(FileResponse):
    """A stored file sent in 1 MB pieces: each piece is one read in a worker thread and one hand-over
    to the event loop, so 64 KB pieces (Starlette's default) cost 16 times the hops for a result file."""

    chunk_size = 1024 * 1024


def validator_headers(path: Path, variant: str = "") -> dict[str, str]:
    """ETag and Last-Modified of a stored file (and of one variant of it: a page, an export format)."""
    stat = path.stat()
    tag = f"{stat.st_size:x}-{stat.st_mtime_ns:x}" + (f"-{variant}" if variant else "")
    return {
        "etag": f'"{tag}"',
        "last-modified": email.utils.formatdate(stat.st_mtime, usegmt=True),
        "cache-control": "private, no-cache",  # keep it, but ask again: the answer is then a cheap 304
    }


def not_modified(request: Request, headers: dict[str, str]) -> bool:
    """Whether the client's copy is current (If-None-Match wins over If-Modified-Since, per RFC 9110)."""
    if_none_match = request.headers.get("if-none-match")
    if if_none_match is not None:
        tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return "*" in tags or headers["etag"] in tags
    if_modified_since = request.headers.get("if-modified-since")
    if if_modified_since:
        try:
            since = email.utils.parsedate_to_datetime(if_modified_since)
            modified = email.utils.parsedate_to_datetime(headers["last-modified"])
        except (TypeError, ValueError):
            return False
        return modified <= since
    return False


def _looks_whole(path: Path) -> bool:
    """A stored list starts with '[' and ends with ']': a cut or overwritten file does not."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        head = handle.read(64).lstrip()
        handle.seek(max(0, size - 64))
        tail = handle.read().rstrip()
    return head.startswith(b"[") and tail.endswith(b"]") or head.startswith(b"{") and tail.endswith(b"}")


def _page(path: Path, offset: int, limit: int | None, fields: list[str] | None) -> tuple[bytes, int]:
    """The selected records as JSON, and how many the file holds (runs in a worker thread)."""
    try:
        records = json.loads(path.read_bytes())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CorruptRun(f"the stored file {path.name} is damaged (not valid JSON)") from exc
    if not isinstance(records, list):
        raise HTTPException(
            400, f"{path.name} is not a list of records: offset, limit and fields do not apply"
        )
    chosen = records[offset : None if limit is None else offset + limit]
    if fields is not None:
        chosen = [{name: record.get(name) for name in fields} for record in chosen]
    return json.dumps(chosen, ensure_ascii=False).encode(), len(records)


async def serve_run_file(
    request: Request,
    store: RunStore,
    run_id: str,
    name: str,
    *,
    offset: int = 0,
    limit: int | None = None,
    fields: list[str] | None = None,
) -> Response:
    path: Path = await asyncio.to_thread(store.run_file_path, run_id, name)
    paged = offset > 0 or limit is not None or fields is not None
    variant = f"o{offset}-l{limit}-f{','.join(fields or [])}" if paged else ""
    headers = await asyncio.to_thread(validator_headers, path, variant)
    if not_modified(request, headers):
        return Response(status_code=304, headers=headers)
    if not paged:
        if not await asyncio.to_thread(_looks_whole, path):
            raise CorruptRun(f"the stored file {name} of run '{run_id}' is damaged; it cannot be served")
        stat = os.stat(path)
        return StoredFileResponse(path, media_type=JSON, headers=headers, stat_result=stat)
    body, total = await asyncio.to_thread(_page, path, offset, limit, fields)
    return Response(body, media_type=JSON, headers={**headers, "x-total-count": str(total)})


def parse_fields(fields: str | None, allowed: Any) -> list[str] | None:
    """`?fields=a,b` as a list, every name checked against the record's fields."""
    if fields is None:
        return None
    names = [name.strip() for name in fields.split(",") if name.strip()]
    unknown = [name for name in names if name not in allowed]
    if not names or unknown:
        raise HTTPException(
            422,
            f"unknown field(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(sorted(allowed))}",
        )
    return names
