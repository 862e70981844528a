"""Typed errors of the outside services. Each names the service; none ever carries a secret."""

from __future__ import annotations

from agent.errors import ServiceError
from agent.models import ErrorKind


class ServiceCallError(ServiceError):
    """Base of every failed call to an outside service. `kind` maps onto the Run's recorded error kinds."""

    kind: ErrorKind = ErrorKind.UNAVAILABLE

    def __init__(self, service: str, message: str, *, status: int | None = None) -> None:
        self.service = service
        self.message = message
        self.status = status
        super().__init__(f"{service}: {message}")


class SourceUnavailable(ServiceCallError):
    """Connection failed, timed out, or the service kept answering 5xx."""

    kind = ErrorKind.UNAVAILABLE


class SourceTimeout(SourceUnavailable):
    kind = ErrorKind.TIMEOUT


class RateLimited(ServiceCallError):
    """The service kept answering 429 (or 403 with a rate-limit body) after our backoff."""

    kind = ErrorKind.RATE_LIMITED

    def __init__(
        self, service: str, message: str, *, status: int | None = 429, retry_after: float | None = None
    ):
        super().__init__(service, message, status=status)
        self.retry_after = retry_after


class BadResponse(ServiceCallError):
    """The body was not what the service documents: malformed JSON/XML, HTML for JSON, missing keys."""

    kind = ErrorKind.BAD_RESPONSE


class NotFound(ServiceCallError):
    kind = ErrorKind.NOT_FOUND


class BadQuery(ServiceCallError):
    """The service rejected our query (HTTP 400, an E-utilities ERROR); retrying will not help."""

    kind = ErrorKind.BAD_QUERY


class EmptyQuery(BadQuery):
    """Refused before any request was sent."""

    def __init__(self, service: str) -> None:
        super().__init__(service, "the query is empty; give at least one search term")
