"""The body part an adjective names, and the MeSH terms another adjective of that part writes."""

from __future__ import annotations

import pytest

from agent.language.body_parts import adjective_stems, noun_stem
from agent.language.mesh_recognition import MeshVocabulary


def test_stems_of_nouns_and_adjectives_meet() -> None:
    assert noun_stem("Vertebra") == "vertebr" and "vertebr" in adjective_stems("vertebral")
    assert noun_stem("thorax") == "thorac" and "thorac" in adjective_stems("thoracic")
    assert adjective_stems("oral") == []  # too short a stem to tell a body part


@pytest.mark.parametrize(
    ("word", "part"),
    [
        ("vertebral", "Spine"),
        ("spinal", "Spine"),
        ("mediastinal", "Mediastinum"),
        ("urinary", "Urine"),
        ("groin", "Groin"),  # a one-word name is the part itself
    ],
)
def test_an_adjective_names_its_body_part(vocabulary: MeshVocabulary, word: str, part: str) -> None:
    found = vocabulary.body_part(word)
    assert found is not None and found.heading == part


def test_words_that_are_no_body_part(vocabulary: MeshVocabulary) -> None:
    assert vocabulary.body_part("clinical") is None
    assert vocabulary.body_part("cytological") is None
    # formed on "mentum" (the chin), but MeSH writes it for the mind: Mental Disorders, Mental Health
    assert vocabulary.body_part("mental") is None
    # of the heart, not the Gizzard, Avian ("Ventriculus", an animal structure); of the eye, not Cilia
    assert vocabulary.body_part("ventricular") is None
    assert vocabulary.body_part("ciliary") is None


@pytest.mark.parametrize("phrase", ["vertebral fracture", "vertebral fractures", "spine fracture"])
def test_another_adjective_of_the_part_names_the_heading(vocabulary: MeshVocabulary, phrase: str) -> None:
    """MeSH writes "Spinal Fractures" only: "vertebral" is an adjective of the same body part."""
    assert [m.descriptor.heading for m in vocabulary.recognize(phrase)] == ["Spinal Fractures"]


def test_a_word_of_no_body_part_is_not_swapped(vocabulary: MeshVocabulary) -> None:
    assert [m.descriptor.heading for m in vocabulary.recognize("marine fish")] == ["Fishes"]
