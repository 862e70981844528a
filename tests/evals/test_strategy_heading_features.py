"""The features of each heading a block writes, read by `evals.strategy.headings` (a calibrated decision
of which headings to write was fitted on them and not shipped)."""

from __future__ import annotations

from agent.models import Concept, ConceptRole, KeywordPlan, MeshDescriptor, Term
from evals.strategy.heading_features import block_headings, heading_features

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
