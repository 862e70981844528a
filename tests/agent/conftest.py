"""Fixtures shared by the agent's tests: the MeSH vocabulary the product ships, built once per session."""

from __future__ import annotations

import pytest

from agent.language.mesh_recognition import MeshVocabulary, vocabulary_for
from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH


@pytest.fixture(scope="session")
def vocabulary() -> MeshVocabulary:
    """The embedded MeSH (`tools/data/mesh_descriptors.jsonl.gz`) as recognition reads it."""
    return vocabulary_for(MeshFile(EMBEDDED_MESH))
