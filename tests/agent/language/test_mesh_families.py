"""The root of a family of inverted headings names a lone word MeSH has no plain heading for."""

from __future__ import annotations

import pytest

from agent.language.mesh_families import family_root
from agent.language.mesh_recognition import MeshVocabulary


@pytest.mark.parametrize("word", ["fractures", "fracture", "Fractures"])
def test_a_word_with_only_inverted_headings_names_the_root_of_their_family(
    vocabulary: MeshVocabulary, word: str
) -> None:
    root = family_root(word, vocabulary)
    assert root is not None and root.heading == "Fractures, Bone"  # not Fractures, Cartilage


@pytest.mark.parametrize("word", ["tuberculosis", "students", "hip fractures", "xyzzy"])
def test_a_term_of_its_own_or_no_family_names_no_root(vocabulary: MeshVocabulary, word: str) -> None:
    assert family_root(word, vocabulary) is None
