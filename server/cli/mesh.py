"""`scholarmap mesh-build SOURCE [--out PATH] [--year N]`: rebuild the MeSH table ScholarMap ships.

SOURCE is NLM's descriptor file (`desc2025.xml` or `.xml.gz`, from
https://www.nlm.nih.gov/databases/download/mesh.html) or a JSON Lines descriptor table. The default
output replaces the embedded table (tools/data/mesh_descriptors.jsonl.gz); `--out` writes elsewhere,
for use with SCHOLARMAP_MESH_FILE.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_mesh_command(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "mesh-build",
        help="rebuild the embedded MeSH vocabulary from NLM's descriptor XML",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("source", type=Path, help="NLM desc<YEAR>.xml[.gz], or a .jsonl[.gz] table")
    parser.add_argument("--out", type=Path, help="where to write (default: the embedded table)")
    parser.add_argument("--year", type=int, help="the MeSH year (default: read from the file name)")
    parser.set_defaults(handler=mesh_build_command)


def mesh_build_command(args: argparse.Namespace) -> int:
    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from agent.language.mesh_recognition import MeshBuildError, rebuild_vocabulary

    try:
        report = rebuild_vocabulary(args.source, args.out, args.year)
    except (MeshBuildError, OSError) as exc:
        print(f"scholarmap: error: {exc}", file=sys.stderr)
        return 1
    year = f"MeSH {report.year}" if report.year else "MeSH (year unknown)"
    print(f"{year}: {report.descriptors:,} descriptors, {report.terms:,} terms written to {report.path}")
    return 0
