"""The understanding evaluation: its cases are well formed (the new split too), its metric behaves
(Chinese never matches, neutral study-type phrases are neither right nor wrong), the new cases are
reported apart with their goals, and the runner works offline with the rules fallback (a few cases) and
with the scripted replies."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.facets import decide_facets
from evals.paths import REPO
from evals.understanding import (
    CASE_FILES,
    CASES,
    NEW_CASES,
    Case,
    load_case_files,
    load_cases,
    main,
    report,
)
from evals.understanding.metrics import Summary, has_chinese, matches, score_case, score_slot

RESULT = re.compile(r"^RESULT ((?:understanding|new)_[a-z_]+) (\d+\.\d{3})$")
NEW_RESULTS = ("new_en_precision", "new_en_recall", "new_zh_precision", "new_zh_recall")


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
        assert case.split != "new", case.id
        _assert_well_formed(case)


def _assert_well_formed(case: Case) -> None:
    assert case.expected, case.id
    # expected terms are English canonical terms, whatever the description's language
    assert not any(has_chinese(s) for cs in case.expected.values() for c in cs for s in c), case.id
    # the expected facets are what the documented rule gives for the expected terms
    gold = {slot: [concept[0] for concept in concepts] for slot, concepts in case.expected.items()}
    assert sorted(case.facets) == sorted(f.slot for f in decide_facets(gold) if f.required), case.id


def test_new_cases_are_many_fresh_bilingual_and_beyond_neuroscience() -> None:
    new = load_cases(NEW_CASES)
    assert len(new) >= 40
    assert {c.split for c in new} == {"new"}
    assert sum(c.lang != "en" for c in new) * 3 >= len(new)  # a third or more Chinese or mixed
    assert {c.lang for c in new} == {"en", "zh", "mixed"}
    assert len({c.domain for c in new} - {"neuroscience"}) >= 10
    for case in new:
        _assert_well_formed(case)
    # the default run reads both files, and no id is used twice across them
    everything = load_case_files(CASE_FILES)
    assert len(everything) == len(load_cases(CASES)) + len(new)
    assert len({c.id for c in everything}) == len(everything)


def test_chinese_expected_terms_are_refused(tmp_path: Path) -> None:
    line = {"id": "x", "lang": "zh", "domain": "d", "description": "脑机接口", "facets": ["context"]}
    bad = tmp_path / "cases.jsonl"
    bad.write_text(
        "# a comment line is skipped\n"
        + json.dumps(line | {"expected": {"context": [["brain-computer interface", "脑机接口"]]}})
        + "\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="English canonical terms"):
        load_cases(bad)
    bad.write_text(json.dumps(line | {"expected": {"context": [["BCI"]]}, "neutral": ["综述"]}) + "\n")
    with pytest.raises(ValueError, match="neutral"):
        load_cases(bad)
    twice = tmp_path / "twice.jsonl"
    twice.write_text(json.dumps(line | {"expected": {"context": [["BCI"]]}}) + "\n")
    with pytest.raises(ValueError, match="more than once"):
        load_case_files([twice, twice])


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
        ("深度学习", "卷积神经网络", False),
        # Chinese is scored as English: a Chinese phrase is never a correct canonical term
        ("侵入式语音脑机接口解码", "语音解码", False),
        ("脑机接口", "brain-computer interface", False),
        ("speech decoding (语音解码)", "speech decoding", False),
        ("ECoG 数据", "ECoG", False),
        ("㐀", "㐀", False),
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


def test_neutral_phrases_are_neither_right_nor_wrong() -> None:
    concepts = [["SGLT2 inhibitors", "gliflozins"]]
    neutral = ["systematic review", "meta-analysis"]
    predicted = ["Systematic reviews", "meta-analysis", "SGLT2 inhibitors", "systematic reviews of drugs"]
    counts = score_slot(predicted, concepts, neutral)
    # only an equal phrase is neutral; a longer one that merely overlaps still counts against precision
    assert (counts.predicted, counts.correct, counts.expected, counts.found) == (2, 1, 1, 1)
    assert score_slot(predicted, concepts).predicted == 4


def test_chinese_terms_score_zero_in_a_case() -> None:
    expected = {"task": [["speech decoding"]], "context": [["brain-computer interface", "BCI"]]}
    chinese = score_case(Slots(task=["语音解码"], context=["脑机接口"]), expected, [], [])
    assert chinese.slots["task"].correct == 0 and chinese.slots["context"].found == 0
    english = score_case(Slots(task=["speech decoding"], context=["BCI"]), expected, [], [])
    assert english.slots["task"].correct == 1 and english.slots["context"].found == 1


def test_report_gives_new_figures_apart_with_goals() -> None:
    expected = {"task": [["CO2 reduction"]], "subject_population": [["TiO2"]]}
    right = score_case(Slots(task=["CO2 reduction"], subject_population=["TiO2"]), expected, [], [])
    half = score_case(Slots(task=["CO2 reduction"], subject_population=["ZnO"]), expected, [], [])
    old, new, new_en, new_zh = Summary(), Summary(), Summary(), Summary()
    old.add(right)
    for summary, score in ((new_en, half), (new_zh, right), (new, half), (new, right)):
        summary.add(score)
    groups = {"en": old, "split:dev": old, "new": new, "new:en": new_en, "new:zh": new_zh}
    lines = report(old, groups, "scripted")
    results = _results("\n".join(lines))
    assert results["understanding_overall_precision"] == 1.0  # the new cases stay out of it
    assert (results["new_en_precision"], results["new_en_recall"]) == (0.5, 0.5)
    assert (results["new_zh_precision"], results["new_zh_recall"]) == (1.0, 1.0)
    text = "\n".join(lines)
    assert "precision 0.500 (goal >= 0.80, NOT met)" in text
    assert "precision 1.000 (goal >= 0.70, met)" in text
    only_new = _results("\n".join(report(Summary(), {"new": new, "new:zh": new_zh}, "rules")))
    assert set(only_new) == {"new_zh_precision", "new_zh_recall"}


def _results(output: str) -> dict[str, float]:
    found = {}
    for line in output.splitlines():
        if match := RESULT.match(line):
            found[match.group(1)] = float(match.group(2))
    return found


def test_rules_runner_on_a_few_cases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--llm", "rules", "--ids", "neuro-en-01,onc-zh-01,mixed-01,econ-en-01"]) == 0
    output = capsys.readouterr().out
    assert "understanding evaluation: 4 cases (4 dev/held out, 0 new), llm=rules" in output
    results = _results(output)
    for slot in LIST_SLOT_NAMES:
        assert 0.0 <= results[f"understanding_{slot}_precision"] <= 1.0
        assert 0.0 <= results[f"understanding_{slot}_recall"] <= 1.0
    assert results["understanding_overall_precision"] >= 0.8
    assert results["understanding_overall_recall"] >= 0.7
    assert output.rstrip().splitlines()[-1].startswith("RESULT understanding_overall_f1 ")
    assert not set(NEW_RESULTS) & set(results)


def test_runner_splits_new_cases_by_language(capsys: pytest.CaptureFixture[str]) -> None:
    ids = "neuro-en-01,new-chem-en-01,new-mat-en-01,new-chem-zh-02,new-agri-mixed-01"
    assert main(["--llm", "scripted", "--ids", ids]) == 0
    output = capsys.readouterr().out
    assert "understanding evaluation: 5 cases (1 dev/held out, 4 new), llm=scripted" in output
    results = _results(output)
    # scripted replies are the expected terms: perfect, and each figure present once
    assert all(results[name] == 1.0 for name in NEW_RESULTS)
    assert results["understanding_overall_precision"] == 1.0
    assert re.search(r"new English +2 cases  precision 1\.000 \(goal >= 0\.80, met\)", output)
    assert re.search(r"new zh/mixed +2 cases  precision 1\.000 \(goal >= 0\.70, met\)", output)
    assert output.rstrip().splitlines()[-1].startswith("RESULT new_zh_recall ")


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
    with pytest.raises(SystemExit):  # the CLI says what is wrong with the file, no traceback
        main(["--llm", "rules", "--cases", str(bad)])
    with pytest.raises(SystemExit):
        main(["--llm", "rules", "--cases", str(tmp_path / "missing.jsonl")])
    assert Slots().empty()
