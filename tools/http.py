"""The one HTTP policy every outside-service client goes through.

- a shared `httpx.AsyncClient` (pooling) injected by the caller, so tests inject `MockTransport`;
- a rate limiter per host, shared by every client of that host (PubMed and MeSH both hit NCBI);
- a concurrency cap per service;
- timeouts on every request;
- retries with exponential backoff and full jitter on connection errors, timeouts, 429 and 5xx,
  honouring `Retry-After` (seconds or an HTTP date) up to a ceiling;
- an optional response cache keyed by the normalised request, so repeated hit-count checks are free;
- typed errors (`tools.errors`) that name the service and never contain a secret.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import random
import re
import time
import xml.parsers.expat
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from tools.cache import ResponseCache
from tools.errors import BadQuery, BadResponse, NotFound, RateLimited, SourceTimeout, SourceUnavailable

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
THREAD_JSON_BYTES = 1024 * 1024  # JSON bodies from this size are decoded in a worker thread
# Query parameters and headers whose values are secrets: removed from cache keys' logs and from errors.
SECRET_NAMES = frozenset({"api_key", "apikey", "key", "x-api-key", "authorization", "token", "access_token"})

USER_AGENT = "ScholarMap/0.1 (https://github.com/scholarmap/scholarmap; mailto:{email})"

_SECRET_IN_URL = re.compile(
    r"(?i)\b(" + "|".join(sorted(n for n in SECRET_NAMES if "-" not in n)) + r")=([^&\s\"']+)"
)


class RedactSecretsFilter(logging.Filter):
    """Blanks secret query parameters in log lines. httpx logs every request URL at INFO level, and
    NCBI and OpenAlex take their API keys as query parameters, so without this a key would reach
    any log that has INFO enabled for httpx."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = _SECRET_IN_URL.sub(r"\1=***", message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


def install_log_redaction() -> None:
    """Attach the redacting filter to the loggers that print request URLs (idempotent)."""
    for name in ("httpx", "httpcore"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecretsFilter) for f in logger.filters):
            logger.addFilter(RedactSecretsFilter())


install_log_redaction()


class RateLimiter:
    """At most `rate` request starts per second, evenly spaced on a grid that a late wake-up does not shift.

    Spacing (rather than a bursty token bucket) is what NCBI and Semantic Scholar ask for. Starts are due
    every `1 / rate` seconds from the first; when the event loop wakes a caller late (busy with other
    sources' pages), the next one is still due at its own slot. The late start and the next may then be
    closer than the interval, but never more than `per_window` starts (the rate, at least one) fall within
    any `per_window / rate` seconds: the service's own limit, as NCBI counts it (requests per second),
    holds at all times. At full rate that window carries a delay on to every `per_window`-th later start,
    so fifty PubMed pages end late by their largest delay, not by the sum of fifty (measured with
    `evals.bench_run --per-source 10000`: README, systematic-review scale).
    A caller that arrives after its slot (the limiter was idle) starts a new grid from the moment it
    goes: no burst after a pause. With a rate of one request per second or less, each start is spaced from the last actual one.
    """

    def __init__(self, rate: float) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.interval = 1.0 / rate
        self.per_window = max(1, int(rate))
        self.window = self.per_window * self.interval
        self._next = 0.0  # the next slot of the grid
        self._starts: deque[float] = deque(maxlen=self.per_window)  # the last starts, for the window
        self._lock = asyncio.Lock()

    async def acquire(self) -> float:
        """Wait for this caller's start; return the moment it was granted (time.monotonic())."""
        # The lock is held while waiting: callers go one at a time, in order. Waiting in a loop also
        # honours a penalty that arrives while we sleep.
        arrived = time.monotonic()  # a caller waiting for the lock is due at the grid's next slot
        async with self._lock:
            fresh = arrived >= self._next  # the limiter was idle: a new grid starts at this start
            slot = max(self._next, arrived)
            while (wait := self._earliest(slot) - time.monotonic()) > 0:
                await asyncio.sleep(wait)
                slot = max(slot, self._next)  # a penalty moved the grid
            started = time.monotonic()
            self._starts.append(started)
            self._next = (started if fresh else slot) + self.interval
            return started

    def _earliest(self, slot: float) -> float:
        """When a caller due at `slot` may go: its slot, and not before the window of the last
        `per_window` starts has passed."""
        if len(self._starts) < self.per_window:
            return slot
        return max(slot, self._starts[0] + self.window)

    def penalise(self, seconds: float) -> None:
        """Push every later start back (after a 429 with Retry-After, the whole host must wait)."""
        self._next = max(self._next, time.monotonic() + seconds)


class RateLimiterRegistry:
    """One limiter per host; the first client to name a host sets its rate."""

    def __init__(self) -> None:
        self._limiters: dict[str, RateLimiter] = {}

    def for_host(self, host: str, rate: float) -> RateLimiter:
        limiter = self._limiters.get(host)
        if limiter is None:
            limiter = self._limiters[host] = RateLimiter(rate)
        return limiter


@dataclass
class SourceConfig:
    """How one client talks to its service."""

    service: str
    base_url: str
    rate: float = 5.0
    timeout: float = 20.0
    retries: int = 4
    backoff: float = 0.5
    max_retry_after: float = 60.0
    concurrency: int = 8
    cache_ttl: float = 0.0
    default_params: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    secrets: tuple[str, ...] = ()  # literal secret values to scrub from any message


def parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _cacheable(response: httpx.Response) -> bool:
    """Only bodies that parse are cached: a truncated or malformed answer, or an HTML page where data
    was expected, would otherwise be served from the cache for the whole TTL."""
    content_type = response.headers.get("content-type", "").lower()
    if "html" in content_type:
        return False
    if "json" in content_type:
        try:
            json.loads(response.content)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return False
    elif "xml" in content_type:
        parser = xml.parsers.expat.ParserCreate()
        try:
            parser.Parse(response.content, True)
        except xml.parsers.expat.ExpatError:
            return False
    return True


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


class HttpPolicy:
    """Requests to one service under the shared policy. Cheap to create; share the registry and client."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        config: SourceConfig,
        *,
        limiters: RateLimiterRegistry | None = None,
        cache: ResponseCache | None = None,
    ) -> None:
        self.client = client
        self.config = config
        self.service = config.service
        # A limiter is keyed by host *and* base path: PubMed and MeSH share eutils (one NCBI budget),
        # while services mounted under different prefixes of one host (the fake server) do not.
        parts = urlsplit(config.base_url)
        host = (parts.netloc + parts.path.rstrip("/")) or config.service
        self.limiter = (limiters or RateLimiterRegistry()).for_host(host, config.rate)
        self.semaphore = asyncio.Semaphore(config.concurrency)
        self.cache = cache if config.cache_ttl > 0 else None

    # -- public API ------------------------------------------------------------------------------

    async def get_json(
        self, path: str, params: Mapping[str, Any] | None = None, *, cache: bool = True
    ) -> Any:
        response = await self.request("GET", path, params=params, cache=cache)
        return await self._decode_json(response)

    async def post_json(self, path: str, body: Any, params: Mapping[str, Any] | None = None) -> Any:
        response = await self.request("POST", path, params=params, json_body=body, cache=False)
        return await self._decode_json(response)

    async def _decode_json(self, response: httpx.Response) -> Any:
        # A big body (a Semantic Scholar bulk page of 1,000 records is ~2.5 MB) is tens of ms of
        # decoding: in a worker thread it does not hold up the event loop, whose timers start the
        # other sources' rate-limited requests.
        if len(response.content) >= THREAD_JSON_BYTES:
            return await asyncio.to_thread(self.parse_json, response)
        return self.parse_json(response)

    async def get_text(
        self, path: str, params: Mapping[str, Any] | None = None, *, cache: bool = True
    ) -> str:
        response = await self.request("GET", path, params=params, cache=cache)
        return response.text

    async def post_form_text(self, path: str, data: Mapping[str, Any], *, cache: bool = True) -> str:
        response = await self.request("POST", path, data=data, cache=cache)
        return response.text

    def parse_json(self, response: httpx.Response) -> Any:
        content_type = response.headers.get("content-type", "")
        try:
            return json.loads(response.content)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            kind = (
                "an HTML page"
                if "html" in content_type or response.text.lstrip().startswith("<")
                else "malformed JSON"
            )
            raise BadResponse(
                self.service,
                f"expected JSON from {self._path_of(response)} but got {kind} ({error.msg if hasattr(error, 'msg') else error})",
                status=response.status_code,
            ) from None

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        data: Mapping[str, Any] | None = None,
        json_body: Any = None,
        cache: bool = True,
    ) -> httpx.Response:
        """Send one logical request, retrying as the policy allows. Returns a 2xx response or raises."""
        url = self._url(path)
        merged = {**self.config.default_params, **{k: v for k, v in (params or {}).items() if v is not None}}
        cache_key = None
        if cache and self.cache is not None:
            cache_key = self.cache.key(method, url, merged, data, json_body)
            hit = self.cache.get(cache_key, self.config.cache_ttl)
            if hit is not None:
                status, headers, content = hit
                return httpx.Response(
                    status, headers=headers, content=content, request=httpx.Request(method, url)
                )

        response = await self._send_with_retries(method, url, merged, data, json_body)
        if cache_key is not None and self.cache is not None and _cacheable(response):
            self.cache.put(cache_key, response.status_code, dict(response.headers), response.content)
        return response

    # -- internals ---------------------------------------------------------------------------------

    def _url(self, path: str) -> str:
        if path.startswith(("http://", "https://")):
            return path
        base = self.config.base_url.rstrip("/")
        return f"{base}/{path.lstrip('/')}" if path else base

    def _path_of(self, response: httpx.Response) -> str:
        try:
            return response.request.url.path
        except RuntimeError:
            return "the service"

    def _scrub(self, text: str) -> str:
        return redact(text, self.config.secrets)

    async def _send_with_retries(
        self, method: str, url: str, params: Mapping[str, Any], data: Mapping[str, Any] | None, json_body: Any
    ) -> httpx.Response:
        attempts = self.config.retries + 1
        last_error: Exception | None = None
        for attempt in range(attempts):
            retry_after: float | None = None
            try:
                async with self.semaphore:
                    await self.limiter.acquire()
                    # httpx's timeout bounds each phase (connect, each read), not the whole exchange:
                    # a server that trickles a byte at a time would never trip it. wait_for bounds the
                    # whole attempt, body included (client.request reads the body before returning).
                    response = await asyncio.wait_for(
                        self.client.request(
                            method,
                            url,
                            params=params or None,
                            data=data,
                            json=json_body,
                            headers=self.config.headers or None,
                            timeout=self.config.timeout,
                        ),
                        timeout=self.config.timeout,
                    )
            except (httpx.TimeoutException, TimeoutError) as error:
                last_error = SourceTimeout(self.service, f"no answer within {self.config.timeout:g} s")
                log.warning("%s: timeout (attempt %d/%d)", self.service, attempt + 1, attempts)
                del error
            except (httpx.TransportError, httpx.DecodingError) as error:
                last_error = SourceUnavailable(self.service, f"connection failed: {type(error).__name__}")
                log.warning(
                    "%s: %s (attempt %d/%d)", self.service, type(error).__name__, attempt + 1, attempts
                )
            else:
                status = response.status_code
                if status < 300:
                    return response
                if status in RETRY_STATUSES or (status == 403 and self._is_rate_limit_body(response)):
                    retry_after = parse_retry_after(response.headers.get("retry-after"))
                    if retry_after is not None and retry_after > self.config.max_retry_after:
                        # Waiting less than asked would only be refused again; waiting as asked is longer
                        # than we allow. Either way this source is done for now: say so at once.
                        raise RateLimited(
                            self.service,
                            f"asked us to wait {retry_after:.0f} s (HTTP {status}), longer than the "
                            f"{self.config.max_retry_after:g} s we wait at most; try again later",
                            status=status,
                            retry_after=retry_after,
                        )
                    if status in (429, 403):
                        last_error = RateLimited(
                            self.service,
                            f"rate-limited us (HTTP {status}) after {attempt + 1} attempt(s)",
                            status=status,
                            retry_after=retry_after,
                        )
                        if retry_after is not None:
                            self.limiter.penalise(min(retry_after, self.config.max_retry_after))
                    else:
                        last_error = SourceUnavailable(
                            self.service, f"HTTP {status} after {attempt + 1} attempt(s)", status=status
                        )
                    log.warning("%s: HTTP %d (attempt %d/%d)", self.service, status, attempt + 1, attempts)
                else:
                    raise self._final_error(response)
            if attempt + 1 < attempts:
                await asyncio.sleep(self._delay(attempt, retry_after))
        assert last_error is not None
        raise last_error

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.config.max_retry_after)
        # exponential backoff with full jitter, capped
        ceiling = min(self.config.backoff * (2**attempt), 30.0)
        return random.uniform(ceiling / 2, ceiling)

    def _is_rate_limit_body(self, response: httpx.Response) -> bool:
        text = response.text[:500].lower()
        return "rate limit" in text or "too many requests" in text

    def _final_error(self, response: httpx.Response) -> Exception:
        status = response.status_code
        detail = self._scrub(self._error_detail(response))
        if status == 404:
            return NotFound(self.service, f"not found ({detail})" if detail else "not found", status=status)
        if status in (400, 422):
            return BadQuery(self.service, f"rejected the query: {detail or f'HTTP {status}'}", status=status)
        if status in (401, 403):
            return SourceUnavailable(
                self.service, f"refused access (HTTP {status}); check the API key setting", status=status
            )
        return BadResponse(self.service, f"unexpected HTTP {status}: {detail}", status=status)

    @staticmethod
    def _error_detail(response: httpx.Response) -> str:
        try:
            body = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
            text = response.text.strip()
            if text.startswith("<"):
                return "HTML error page"
            return text[:200]
        if isinstance(body, dict):
            for key in ("message", "error", "detail"):
                value = body.get(key)
                if isinstance(value, str) and value:
                    return value[:300]
                if isinstance(value, dict):
                    return str(value.get("info") or value.get("message") or value)[:300]
        return str(body)[:200]
