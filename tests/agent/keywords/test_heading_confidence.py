"""The calibrated decision of which recognised headings a query writes as `"X"[Mesh]`: the features it
reads, the shipped model, and that a heading left out leaves its words in the block."""

from __future__ import annotations

import pytest

from agent.keywords import heading_confidence
from agent.keywords.heading_confidence import (
    Heading,
    block_headings,
    heading_features,
    kept_headings,
    load_model,
)
from agent.keywords.querybuild import build_pubmed_query
from agent.models import Concept, ConceptRole, KeywordPlan, MeshDescriptor, Term
from tools.logistic import LogisticModel

DIET = MeshDescriptor(ui="D004032", heading="Diet", tree_numbers=["G07.203.650.240"])
MEDITERRANEAN = MeshDescriptor(
    ui="D038441",
    heading="Diet, Mediterranean",
    entry_terms=["Mediterranean Diet"],
    tree_numbers=["E02.642.249.278.250", "G07.203.650.240.278.250"],
)
DEPRESSION = MeshDescriptor(ui="D003863", heading="Depression", tree_numbers=["F01.145.126.350"])


def plan() -> KeywordPlan:
    """ "Mediterranean diet for depression": Diet is the ancestor the words name ([Mesh:NoExp])."""
    terms = [
        Term(canonical="Mediterranean diet", slot="task", mesh=MEDITERRANEAN, broader=[DIET], concept="diet"),
        Term(canonical="depression", slot="context", mesh=DEPRESSION, concept="depression"),
    ]
    concepts = [
        Concept(id="diet", label="Mediterranean diet", role=ConceptRole.INTERVENTION),
        Concept(id="depression", label="depression", role=ConceptRole.CONDITION),
    ]
    return KeywordPlan(terms=terms, concepts=concepts)


def rejecting(feature: str) -> LogisticModel:
    """A model that writes every heading except those with `feature`."""
    return LogisticModel(
        features=[feature], mean=[0.0], scale=[1.0], coef=[-10.0], intercept=5.0, threshold=0.5
    )


def test_features_say_how_a_heading_was_matched() -> None:
    term = plan().terms[0]
    block = block_headings([term], ConceptRole.INTERVENTION)
    assert [(h.descriptor.heading, h.noexp) for h in block] == [
        ("Diet, Mediterranean", False),
        ("Diet", True),
    ]
    concept = Concept(id="diet", label="Mediterranean diet", role=ConceptRole.INTERVENTION)
    own, parent = (heading_features(h, concept, block) for h in block)
    assert own["via_entry"] == 1 and own["child_of_another"] == 1 and own["alone"] == 0
    assert parent["via_noexp"] == 1 and parent["parent_of_another"] == 1 and parent["tree_G"] == 1
    assert own["depth"] == 5 and own["tree_E"] == 1 and own["role_intervention"] == 1 and own["words"] == 2


def test_anatomy_headings_are_no_candidates() -> None:
    urine = MeshDescriptor(ui="D014556", heading="Urine", tree_numbers=["A12.207.927"])
    assert block_headings([Term(canonical="urine", slot="context", mesh=urine)], ConceptRole.ANATOMY) == []


def test_a_heading_below_the_threshold_leaves_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heading_confidence, "load_model", lambda: rejecting("via_noexp"))
    query = build_pubmed_query(plan())
    assert query == (
        '("Diet, Mediterranean"[Mesh] OR "Mediterranean diet"[tiab]) AND ("Depression"[Mesh] OR depression[tiab])'
    )


def test_a_concept_whose_only_heading_is_left_out_keeps_its_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heading_confidence, "load_model", lambda: rejecting("role_condition"))
    query = build_pubmed_query(plan())
    assert query.endswith(" AND (depression[tiab])")
    assert '"Depression"[Mesh]' not in query


def test_without_a_model_every_heading_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heading_confidence, "load_model", lambda: None)
    assert '"Diet"[Mesh:NoExp]' in build_pubmed_query(plan())


def test_the_shipped_model_leaves_out_the_general_ancestor_a_diet_names() -> None:
    """Fitted on CLEF train and the librarian topics: "Diet"[Mesh:NoExp] beside "Mediterranean diet" (a
    method) is a heading the experts did not search; the specific heading is, and so is the condition."""
    diet_plan = plan()
    diet_plan.concepts[0].role = ConceptRole.METHOD
    query = build_pubmed_query(diet_plan)
    assert query.startswith('("Diet, Mediterranean"[Mesh] OR "Mediterranean diet"[tiab]) AND ')
    assert '"Diet"[Mesh:NoExp]' not in query
    assert '"Depression"[Mesh]' in query


def test_the_shipped_model_reads_features_the_generator_has() -> None:
    model = load_model()
    assert model is not None and 0 < model.threshold < 1
    concept = Concept(id="diet", label="Mediterranean diet", role=ConceptRole.INTERVENTION)
    heading = Heading(MEDITERRANEAN, plan().terms[0])
    assert set(model.features) <= set(heading_features(heading, concept, [heading]))
    assert len(model.features) == len(model.mean) == len(model.scale) == len(model.coef)
    assert kept_headings(concept, [heading], model) == {("D038441", False)}
