"""`python -m evals.fake_sources --port PORT [--seed S] [--latency-ms N] [--fault service=spec] ...`"""

from __future__ import annotations

import argparse
import sys

from evals.fake_sources.config import FakeConfig, FaultSpecError
from evals.fake_sources.server import env_lines, serve_forever


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m evals.fake_sources",
        description="Serve recorded and generated responses of PubMed, MeSH, OpenAlex, Semantic Scholar, "
        "Wikidata, Wikipedia, Europe PMC, Unpaywall and Zotero on 127.0.0.1.",
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated universe")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay every request by this much")
    parser.add_argument("--total", type=int, default=None, help="force every generated result count")
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="SERVICE=SPEC",
        help="inject faults, e.g. pubmed=503*2 or semantic_scholar=429:1 or *=latency:200 (repeatable)",
    )
    parser.add_argument(
        "--enforce-rate",
        action="append",
        default=[],
        metavar="SERVICE=RATE",
        help="answer 429 when a service gets more than RATE requests in a second",
    )
    parser.add_argument("--no-replay", action="store_true", help="generate everything, replay nothing")
    parser.add_argument(
        "--print-env", action="store_true", help="print SCHOLARMAP_<SOURCE>_BASE_URL lines and exit"
    )
    return parser.parse_args(argv)


def build_config(args: argparse.Namespace) -> FakeConfig:
    faults = dict(FakeConfig.parse_fault_option(option) for option in args.fault)
    rates = {}
    for option in args.enforce_rate:
        service, _, rate = option.partition("=")
        rates[service.strip()] = float(rate)
    return FakeConfig(
        seed=args.seed,
        latency_ms=args.latency_ms,
        total=args.total,
        faults=faults,
        enforce_rates=rates,
        replay=not args.no_replay,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        config = build_config(args)
    except (FaultSpecError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.print_env:
        print("\n".join(env_lines(f"http://127.0.0.1:{args.port}")))
        return 0
    serve_forever(config, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
