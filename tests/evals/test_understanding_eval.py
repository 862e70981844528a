"""The understanding evaluation: its cases are well formed, its metric behaves, and the runner works
offline with the rules fallback (a few cases) and with the scripted replies."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from agent.models import LIST_SLOT_NAMES, Slots
from agent.querybuild import decide_facets
from evals.paths import REPO
from evals.understanding import CASES, load_cases, main
from evals.understanding.metrics import matches, score_slot

RESULT = re.compile(r"^RESULT (understanding_[a-z_]+) (\d+\.\d{3})$")


def test_cases_cover_languages_domains_and_facets() -> None:
    cases = load_cases(CASES)
    assert len(cases) >= 40
    assert len({c.id for c in cases}) == len(cases)
    assert {c.lang for c in cases} == {"en", "zh", "mixed"}
    assert sum(c.lang == "zh" for c in cases) >= 8
    domains = {c.domain for c in cases}
    assert {
        "neuroscience",
        "oncology",
        "materials",
        "machine learning",
        "ecology",
        "economics",
        "public health",
    } <= domains
    for case in cases:
        assert case.expected, case.id
        # the expected facets are what the documented rule gives for the expected terms
        gold = {slot: [concept[0] for concept in concepts] for slot, concepts in case.expected.items()}
        assert sorted(case.facets) == sorted(f.slot for f in decide_facets(gold) if f.required), case.id


@pytest.mark.parametrize(
    ("predicted", "spelling", "expected"),
    [
        ("ECoG", "ECoG", True),
        ("electrocorticography (ECoG)", "ECoG", True),
        ("Brain-computer interfaces", "brain computer interface", True),
        ("speech brain-computer interface decoding", "speech decoding", True),
        ("EEG", "MEG", False),
        ("patients", "epilepsy patients", True),
        ("invasive", "speech decoding", False),
        ("侵入式语音脑机接口解码", "语音解码", True),
        ("深度学习", "卷积神经网络", False),
    ],
)
def test_matching(predicted: str, spelling: str, expected: bool) -> None:
    assert matches(predicted, spelling) is expected


def test_slot_scores() -> None:
    counts = score_slot(["ECoG", "fMRI", "ECoG data"], [["ECoG", "electrocorticography"], ["sEEG"]])
    assert (counts.predicted, counts.correct, counts.expected, counts.found) == (3, 2, 2, 1)
    assert counts.precision == pytest.approx(2 / 3) and counts.recall == 0.5
    empty = score_slot([], [])
    assert empty.precision == 1.0 and empty.recall == 1.0


def _results(output: str) -> dict[str, float]:
    found = {}
    for line in output.splitlines():
        if match := RESULT.match(line):
            found[match.group(1)] = float(match.group(2))
    return found


def test_rules_runner_on_a_few_cases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--llm", "rules", "--ids", "neuro-en-01,onc-zh-01,mixed-01,econ-en-01"]) == 0
    output = capsys.readouterr().out
    assert "understanding evaluation: 4 cases, llm=rules" in output
    results = _results(output)
    for slot in LIST_SLOT_NAMES:
        assert 0.0 <= results[f"understanding_{slot}_precision"] <= 1.0
        assert 0.0 <= results[f"understanding_{slot}_recall"] <= 1.0
    assert results["understanding_overall_precision"] >= 0.8
    assert results["understanding_overall_recall"] >= 0.7
    assert output.rstrip().splitlines()[-1].startswith("RESULT understanding_overall_f1 ")


def test_scripted_runner_is_perfect_on_its_own_replies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--llm", "scripted", "--ids", "neuro-en-01,ph-zh-01,mat-en-03"]) == 0
    results = _results(capsys.readouterr().out)
    assert results["understanding_overall_precision"] == 1.0
    assert results["understanding_overall_recall"] == 1.0
    assert results["understanding_facets_recall"] == 1.0


def test_module_entry_point_runs() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "evals.understanding", "--llm", "rules", "--ids", "neuro-en-01"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert "RESULT understanding_overall_precision" in completed.stdout


def test_bad_arguments_are_refused(tmp_path) -> None:
    with pytest.raises(SystemExit):
        main(["--llm", "rules", "--ids", "no-such-case"])
    bad = tmp_path / "cases.jsonl"
    bad.write_text(
        '{"id": "x", "lang": "en", "domain": "d", "description": "d", "expected": {"weather": []}, "facets": []}\n'
    )
    with pytest.raises(ValueError, match="cases.jsonl:1: not a valid case"):
        load_cases(bad)
    assert Slots().empty()
