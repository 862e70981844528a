"""The root of a family of inverted headings names a lone word MeSH has no plain heading for."""

from __future__ import annotations

import pytest

from agent.language.mesh_families import family_root, head_family_root
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


def test_a_head_word_only_one_family_of_headings_ends_names_its_root(vocabulary: MeshVocabulary) -> None:
    """ "caries" ends only Dental Caries and Root Caries, a kind of it: "dentine caries" is a caries."""
    root = head_family_root("caries", vocabulary)
    assert root is not None and root.heading == "Dental Caries"


@pytest.mark.parametrize(
    "word",
    [
        "transfer",  # Patient Transfer, Tendon Transfer, Transfer, Psychology: no one family
        "enucleation",  # Eye Enucleation alone: one heading is no family
        "involvement",  # only entry terms end in it (Community Involvement), not the headings
        "tuberculosis",  # a term of its own
        "networking",  # Social Networking, Online Social Networking: "social" names the family
    ],
)
def test_a_head_word_of_unrelated_or_single_headings_names_no_root(
    vocabulary: MeshVocabulary, word: str
) -> None:
    assert head_family_root(word, vocabulary) is None
