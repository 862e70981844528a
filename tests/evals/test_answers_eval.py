"""`python -m evals.answers` end to end on a tiny SciFact-shaped set (both splits), and its claim split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.ask.answerability import ModelFile
from evals.answers.__main__ import main
from evals.answers.split import assign

DOCS = {
    "d1": (
        "Speech decoding from ECoG",
        "High-gamma cortical activity predicts spoken words in epilepsy patients.",
    ),
    "d2": ("EEG motor imagery", "Convolutional networks classify imagined hand movements from scalp EEG."),
    "d3": ("Retinal ganglion cells", "Ganglion cells in the mouse retina respond to looming stimuli."),
    "d4": ("Gut microbiome and obesity", "Microbial diversity in the gut is lower in obese adults."),
    "d5": ("Statin therapy", "Statins lower LDL cholesterol and cardiovascular events in older adults."),
    "d6": ("Sleep and memory", "Slow-wave sleep consolidates declarative memory in young adults."),
    "d7": ("Coffee and sleep", "Caffeine taken in the evening shortens sleep in healthy volunteers."),
    "d8": ("Exercise and mood", "Aerobic exercise reduces depressive symptoms in older adults."),
}
CLAIMS = {
    "train": {"1": ("Cortical high-gamma activity predicts spoken words.", "d1"),
              "2": ("Imagined hand movements can be classified from EEG.", "d2"),
              "3": ("Looming stimuli drive mouse retinal ganglion cells.", "d3"),
              "4": ("Obese adults have lower gut microbial diversity.", "d4"),
              "9": ("Caffeine in the evening shortens sleep.", "d7")},
    "test": {"5": ("Statins lower cholesterol in older adults.", "d5"),
             "6": ("Slow-wave sleep consolidates memory.", "d6"),
             "7": ("Aerobic exercise reduces depression in older adults.", "d8"),
             "8": ("Statin therapy reduces cardiovascular events.", "d5")},
}  # fmt: skip


def write_set(root: Path) -> Path:
    (root / "qrels").mkdir(parents=True)
    with (root / "corpus.jsonl").open("w") as fh:
        for doc, (title, text) in DOCS.items():
            fh.write(json.dumps({"_id": doc, "title": title, "text": text}) + "\n")
    with (root / "queries.jsonl").open("w") as fh:
        for claims in CLAIMS.values():
            for qid, (text, _) in claims.items():
                fh.write(json.dumps({"_id": qid, "text": text}) + "\n")
    for split, claims in CLAIMS.items():
        lines = ["query-id\tcorpus-id\tscore"] + [f"{q}\t{d}\t1" for q, (_, d) in claims.items()]
        (root / "qrels" / f"{split}.tsv").write_text("\n".join(lines) + "\n")
    return root


def test_claims_sharing_an_abstract_fall_on_the_same_side():
    qrels = {q: {d: 1} for claims in CLAIMS.values() for q, (_, d) in claims.items()}
    split = assign(qrels)
    assert ("5" in split.unanswerable) == ("8" in split.unanswerable)  # both cite d5
    assert split.removed_docs == {d for q in split.unanswerable for d in qrels[q]}
    assert split.unanswerable == assign(qrels).unanswerable  # deterministic


def test_the_evaluation_runs_fits_and_reports(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
):
    root = write_set(tmp_path / "tiny")
    model = tmp_path / "answerability.json"
    argv = ["--dataset", str(root), "--database-url", pg_url, "--cache-dir", str(tmp_path / "cache")]
    assert main([*argv, "--fit", "--model", str(model), "--skip-zh"]) == 0
    results = {
        line.split()[1]: float(line.split()[2])
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("RESULT ")
    }
    for split in ("train", "test"):
        for name in ("abstention_f1", "abstention_precision", "abstention_recall", "citation_accuracy",
                     "citation_accuracy_all", "first_citation_share", "retrieval_p_at_1"):  # fmt: skip
            assert 0.0 <= results[f"{split}_{name}"] <= 1.0
    fitted = ModelFile.model_validate_json(model.read_text())
    assert "SciFact train split" in fitted.fitted_on and 0 < fitted.threshold < 1
