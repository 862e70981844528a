"""Start options of the fake-sources server and the fault vocabulary.

A fault is written `kind[:arg][*N]`; several are joined with commas, and the first that applies wins
(latency always applies and combines with the others):

    latency:250        wait 250 ms before answering
    429                HTTP 429 without Retry-After      429:2   with `Retry-After: 2`
    500 | 502 | 503 | 504
    hang               never answer (the connection stays open until the client gives up)
    reset              abort the TCP connection without any response
    truncate           send half of the body, then end the response cleanly (valid HTTP, cut body)
    truncate-abort     promise the whole body (Content-Length), send half, then drop the connection
    malformed          a body that does not parse (broken JSON or XML) with HTTP 200
    html               an HTML page with HTTP 200 where JSON or XML was expected
    ...*N              only the first N matching requests fail, later ones succeed ("fail N times")

Faults come from the `X-Fake-Fault` header, the `fake_fault` query parameter, or the start options
(`--fault service=spec`, `FakeConfig.faults`; service `*` means every service).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SOURCE_PREFIXES: dict[str, str] = {
    "pubmed": "pubmed",
    "mesh": "mesh",
    "openalex": "openalex",
    "semantic_scholar": "semantic_scholar",
    "wikidata": "wikidata",
    "wikipedia": "wikipedia",
    "europepmc": "europepmc",
    "unpaywall": "unpaywall",
    "zotero": "zotero",
}

FAULT_KINDS = frozenset(
    {
        "latency",
        "429",
        "500",
        "502",
        "503",
        "504",
        "hang",
        "reset",
        "truncate",
        "truncate-abort",
        "malformed",
        "html",
    }
)


class FaultSpecError(ValueError):
    pass


@dataclass(frozen=True)
class Fault:
    kind: str
    arg: float | None = None  # latency ms, or Retry-After seconds for 429
    times: int | None = None  # fail only the first N matching requests
    text: str = ""  # the spec as written: counters of "*N" faults are keyed by it

    @property
    def is_status(self) -> bool:
        return self.kind.isdigit()


def parse_faults(spec: str | None) -> tuple[Fault, ...]:
    """Parse `kind[:arg][*N],...` into faults; raise FaultSpecError naming what is wrong."""
    faults: list[Fault] = []
    for raw in (spec or "").split(","):
        item = raw.strip()
        if not item:
            continue
        body, _, times_text = item.partition("*")
        kind, _, arg_text = body.partition(":")
        kind = kind.strip().lower()
        if kind not in FAULT_KINDS:
            raise FaultSpecError(f"unknown fault {kind!r}; expected one of {', '.join(sorted(FAULT_KINDS))}")
        try:
            arg = float(arg_text.replace("retry-after=", "").replace("ms", "")) if arg_text else None
            times = int(times_text) if times_text else None
        except ValueError:
            raise FaultSpecError(f"bad fault {item!r}; write kind[:number][*times]") from None
        if kind == "latency" and arg is None:
            raise FaultSpecError("latency needs milliseconds, e.g. latency:250")
        faults.append(Fault(kind=kind, arg=arg, times=times, text=item))
    return tuple(faults)


@dataclass
class FakeConfig:
    """How a fake-sources server behaves. Every field has a command-line twin in `__main__`."""

    seed: int = 0
    latency_ms: float = 0.0  # added to every request of every service
    total: int | None = None  # force every generated result count (else derived from the query)
    faults: dict[str, str] = field(default_factory=dict)  # service (or "*") -> fault spec
    enforce_rates: dict[str, float] = field(
        default_factory=dict
    )  # service -> req/s above which we answer 429
    replay: bool = True  # serve the recorded responses where a request matches one
    memo: bool = True  # answer a repeated request from memory (generated answers are deterministic)

    def fault_specs(self) -> dict[str, tuple[Fault, ...]]:
        return {service: parse_faults(spec) for service, spec in self.faults.items()}

    @staticmethod
    def parse_fault_option(option: str) -> tuple[str, str]:
        """`service=spec` from the command line."""
        service, sep, spec = option.partition("=")
        service = service.strip()
        if not sep or (service not in SOURCE_PREFIXES and service != "*"):
            raise FaultSpecError(
                f"--fault expects service=spec with service in {', '.join(SOURCE_PREFIXES)} or *"
            )
        parse_faults(spec)
        return service, spec
