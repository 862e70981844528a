"""`python -m evals.strategy.headings`: candidate headings with features and labels, the precision
table, the topic-level simulation and the fit of the heading model (on hand-made rows)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from agent.models import Concept, ConceptRole, KeywordPlan, MeshDescriptor, Term
from evals.paths import DATA
from evals.strategy import headings
from evals.strategy.heading_evidence import HeadingEvidence, modifier_in_title
from evals.strategy.heading_features import Heading
from evals.strategy.topics import Topic
from evals.strategy.vocabulary import MeshVocabulary


@pytest.fixture(scope="module")
def vocabulary() -> MeshVocabulary:
    mesh = MeshVocabulary()
    mesh.add("D1", "Tuberculosis", [], [], ["C01.150"])
    mesh.add("D2", "Tuberculosis, Pulmonary", ["Pulmonary Tuberculosis"], [], ["C01.150.899"])
    mesh.add("D3", "Isoniazid", [], [], ["D03.383.725.547"])
    return mesh


def test_rows_label_the_headings_the_expert_searched(vocabulary: MeshVocabulary) -> None:
    pulmonary = MeshDescriptor(ui="D2", heading="Tuberculosis, Pulmonary", tree_numbers=["C01.150.899"])
    tuberculosis = MeshDescriptor(ui="D1", heading="Tuberculosis", tree_numbers=["C01.150"])
    isoniazid = MeshDescriptor(ui="D3", heading="Isoniazid", tree_numbers=["D03.383.725.547"])
    plan = KeywordPlan(
        terms=[
            Term(
                canonical="pulmonary tuberculosis",
                slot="context",
                mesh=pulmonary,
                broader=[tuberculosis],
                concept="tb",
            ),
            Term(canonical="isoniazid", slot="task", mesh=isoniazid, concept="inh"),
        ],
        concepts=[
            Concept(id="tb", label="pulmonary tuberculosis", role=ConceptRole.CONDITION),
            Concept(id="inh", label="isoniazid", role=ConceptRole.INTERVENTION, required=False),
        ],
    )
    topic = Topic(
        "7", "clef", "clef_train", "Isoniazid for pulmonary tuberculosis", '"Tuberculosis"[Mesh] AND x'
    )
    rows = headings.topic_rows(topic, plan, vocabulary)
    # the optional concept writes no block, so its heading is no candidate
    assert [(r["heading"], r["noexp"], r["expert"], r["expert_explode"]) for r in rows] == [
        ("Tuberculosis, Pulmonary", False, False, True),
        ("Tuberculosis", True, True, True),
    ]
    assert rows[0]["expert_headings"] == 1 and rows[1]["features"]["via_noexp"] == 1
    # beside the model's features, the candidate evidence it does not use yet
    assert rows[1]["features"]["descendants"] == math.log1p(1) and rows[0]["features"]["outside_words"] == 0


def row(topic: str, ui: str, used: bool, noexp: bool, experts: int = 1) -> dict[str, Any]:
    features = {"via_noexp": float(noexp), "alone": float(not noexp)}
    return {
        "split": "clef_train",
        "topic": topic,
        "expert_headings": experts,
        "heading": ui,
        "ui": ui,
        "noexp": noexp,
        "features": features,
        "expert": used,
        "expert_explode": used,
    }


ROWS = [
    row(str(t), f"D{t}{k}", used=not noexp, noexp=noexp)
    for t in range(10)
    for k, noexp in enumerate((False, True))
]


def test_the_table_gives_the_share_of_each_value_the_experts_used() -> None:
    lines = headings.table(ROWS)
    assert any(line.split()[:5] == ["via_noexp", "1", "10", "0.000", "0.000"] for line in lines)
    assert lines[-1].split() == ["all", "20", "0.500"]


def test_simulation_counts_a_descriptor_once_per_topic() -> None:
    assert headings.simulate(ROWS, lambda r: True) == (0.5, 1.0)
    assert headings.simulate(ROWS, lambda r: not r["noexp"]) == (1.0, 1.0)
    assert headings.simulate(ROWS, lambda r: False) == (0.0, 0.0)


def test_the_fit_finds_a_threshold_that_raises_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(headings, "FEATURES", ("via_noexp", "alone"))
    model = headings.fit(ROWS)
    assert 0 < model.threshold < 1
    assert model.train_metrics["cv_precision"] == 1.0 and model.train_metrics["cv_recall"] == 1.0
    assert model.coef[0] < 0 and "python -m evals.strategy.headings --fit" in model.fitted_on


def test_a_threshold_that_costs_recall_is_not_chosen() -> None:
    rows = [
        row("1", "A", True, False, experts=2),
        row("1", "B", True, True, experts=2),
        row("1", "C", False, False),
    ]
    threshold, figures = headings.choose_threshold(rows, [0.9, 0.1, 0.9])
    assert threshold == 0.0 and figures["cv_recall"] == figures["recall_before"] == 1.0


def test_the_command_reads_rows_prints_the_table_and_fits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(headings, "FEATURES", ("via_noexp", "alone"))
    dumped = tmp_path / "rows.jsonl"
    dumped.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    model = tmp_path / "model.json"
    assert headings.main(["--rows", str(dumped), "--table", "--fit", "--model", str(model)]) == 0
    assert "via_noexp" in capsys.readouterr().out
    assert json.loads(model.read_text(encoding="utf-8"))["features"] == ["via_noexp", "alone"]


def test_the_model_is_fitted_on_the_training_splits_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert headings.main(["--splits", "clef_test", "--fit"]) == 2
    assert "fitted on clef_train, librarian only" in capsys.readouterr().err


@pytest.mark.skipif(not (DATA / "boolean_queries").is_dir(), reason="the shared data are not present")
def test_a_dump_of_two_training_topics(tmp_path: Path) -> None:
    dumped = tmp_path / "rows.jsonl"
    assert headings.main(["--splits", "clef_train", "--limit", "2", "--dump", str(dumped)]) == 0
    rows = [json.loads(line) for line in dumped.read_text(encoding="utf-8").splitlines()]
    assert rows and {r["split"] for r in rows} == {"clef_train"} and len({r["topic"] for r in rows}) <= 2
    assert all(set(headings.FEATURES) <= set(r["features"]) for r in rows)


def test_the_candidate_evidence_comes_from_mesh(vocabulary: MeshVocabulary) -> None:
    tuberculosis = MeshDescriptor(ui="D1", heading="Tuberculosis", tree_numbers=["C01.150"])
    pulmonary = MeshDescriptor(
        ui="D2",
        heading="Tuberculosis, Pulmonary",
        entry_terms=["Pulmonary Tuberculosis"],
        tree_numbers=["C01.150.899"],
    )
    evidence = HeadingEvidence(vocabulary)
    written = evidence.of(Heading(pulmonary, Term(canonical="Pulmonary Tuberculosis", slot="context")))
    assert written == {
        "entry_terms": math.log1p(1),
        "outside_words": 0.0,
        "descendants": 0.0,
        "ambiguity": math.log1p(1),
        "modifier_in_title": 0.0,
    }
    # the heading is broader than the phrase: "active" and "pulmonary" stay outside it
    broad = evidence.of(
        Heading(tuberculosis, Term(canonical="active pulmonary tuberculosis", slot="context"))
    )
    assert broad["outside_words"] == 2.0 and broad["descendants"] == math.log1p(1)
    assert broad["entry_terms"] == 0.0 and broad["ambiguity"] == 0.0
    # an ancestor searched unexploded beside the term's heading is broader by design
    noexp = Heading(tuberculosis, Term(canonical="active pulmonary tuberculosis", slot="context"), noexp=True)
    assert evidence.of(noexp)["outside_words"] == 0.0
    treatment = evidence.of(
        Heading(pulmonary, Term(canonical="pulmonary tuberculosis", slot="context")),
        "Pulmonary tuberculosis treatment",
    )
    assert treatment["modifier_in_title"] == 1.0


@pytest.mark.parametrize(
    ("term", "title", "modifies"),
    [
        ("movement", "Constraint-induced movement therapy versus rehabilitation", True),
        ("income", "Cash transfers in low-income households", True),
        ("rehabilitation", "Conventional rehabilitation for upper limb function", False),
        ("stroke", "Rehabilitation after stroke: a review", False),
        ("fluoride", "Silver diamine fluoride versus varnish", False),
        ("asthma", "Air pollution and wheeze", False),  # not written: no evidence
    ],
)
def test_a_term_followed_by_a_word_of_its_phrase_is_a_modifier(term: str, title: str, modifies: bool) -> None:
    assert modifier_in_title(term, title) is modifies


def test_the_comparison_shows_which_candidate_raises_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(headings, "FEATURES", ("absent",))  # no evidence: every heading is written
    lines = headings.compare(ROWS, candidates=("via_noexp",))
    figures = {line.rsplit(maxsplit=2)[0].strip(): line.split()[-2:] for line in lines[1:]}
    assert figures == {"FEATURES": ["0.5000", "1.0000"], "+ via_noexp": ["1.0000", "1.0000"]}
