"""`python -m evals.bench_merge` on a small Run: both merges run, agree byte for byte, and the figures
are printed as RESULT lines."""

from __future__ import annotations

import pytest

from evals import bench_merge


def test_a_small_bench_merges_the_same_bytes_as_its_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    # HEAD: a revision every clone holds, however shallow (the default is a fixed older one)
    assert bench_merge.main(["--per-source", "60", "--repeat", "1", "--baseline", "HEAD"]) == 0
    printed = capsys.readouterr().out
    results = dict(line.split()[1:] for line in printed.splitlines() if line.startswith("RESULT "))
    assert results["bench_merge_identical"] == "1"
    assert int(results["bench_merge_records"]) > 100
    assert float(results["bench_merge_cpu_ratio"]) > 0
