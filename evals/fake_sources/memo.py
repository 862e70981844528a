"""Generated answers, remembered: every generated response is a pure function of the request, so a
repeated request is answered from memory. This keeps the fake server from being the bottleneck
when a benchmark or a test repeats a search (rendering 200 OpenAlex works costs tens of ms)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from starlette.responses import Response

_SKIPPED_HEADERS = frozenset({"content-length"})


class ResponseMemo:
    """A least-recently-used store of response bodies, bounded by their total size in bytes."""

    def __init__(self, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, tuple[int, dict[str, str], bytes]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Response | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
        status, headers, body = item
        return Response(body, status_code=status, headers=headers)

    def put(self, key: Hashable, response: Response) -> None:
        body = bytes(response.body)
        if len(body) > self.max_bytes // 4:
            return
        headers = {k: v for k, v in response.headers.items() if k.lower() not in _SKIPPED_HEADERS}
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._size -= len(old[2])
            self._items[key] = (response.status_code, headers, body)
            self._size += len(body)
            while self._size > self.max_bytes and self._items:
                _, (_, _, dropped) = self._items.popitem(last=False)
                self._size -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0

    def __len__(self) -> int:
        return len(self._items)
