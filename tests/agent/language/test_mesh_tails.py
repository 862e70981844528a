"""Phrases MeSH writes only as the end of longer terms ("computed tomography", "ultrasound")."""

from __future__ import annotations

import pytest

from agent.language.mesh_recognition import MeshVocabulary, phrase_key
from agent.language.mesh_tails import TailIndex, is_under
from agent.models import MeshDescriptor


def _descriptors() -> dict[str, MeshDescriptor]:
    def make(ui: str, *trees: str) -> MeshDescriptor:
        return MeshDescriptor(ui=ui, heading=ui, tree_numbers=list(trees))

    return {
        "scan": make("scan", "E01"),
        "x-scan": make("x-scan", "E01.1"),
        "y-scan": make("y-scan", "E01.1.2"),
        "z-scan": make("z-scan", "E01.3"),
        "therapy": make("therapy", "E02.5"),
    }


def _index(terms: dict[str, list[str]]) -> TailIndex:
    index = TailIndex()
    for ui, written in terms.items():
        for term in written:
            index.add(phrase_key(term), ui)
    return index


def test_is_under_follows_tree_numbers() -> None:
    found = _descriptors()
    assert is_under(found["y-scan"], found["x-scan"])
    assert is_under(found["x-scan"], found["x-scan"])
    assert not is_under(found["x-scan"], found["y-scan"])
    assert not is_under(found["z-scan"], found["x-scan"])


def test_the_descriptor_above_most_candidates_is_the_phrase() -> None:
    found = _descriptors()
    index = _index(
        {
            "x-scan": ["Xray Wide Scan"],
            "y-scan": ["Spiral Wide Scan"],
            "z-scan": ["Pet Wide Scan"],
        }
    )
    # x-scan is itself and above y-scan: two of three candidates
    assert index.resolve(("wide", "scan"), found.__getitem__) == "x-scan"
    # under the head's own descriptor only; a tie of one each is no answer
    assert index.resolve(("wide", "scan"), found.__getitem__, below=found["x-scan"]) is None


def test_one_candidate_or_no_majority_is_no_answer() -> None:
    found = _descriptors()
    one = _index({"x-scan": ["Invasive Wide Scan"]})
    assert one.resolve(("wide", "scan"), found.__getitem__) is None  # part of one name, not a name
    split = _index({"z-scan": ["Short Quick Scan"], "therapy": ["Long Quick Scan"]})
    assert split.resolve(("quick", "scan"), found.__getitem__) is None


def test_too_many_words_before_the_phrase_are_not_indexed() -> None:
    index = _index({"x-scan": ["One Two Three Scan"]})
    assert index.candidates(("scan",)) == set()  # three words before it
    assert index.candidates(("three", "scan")) == {"x-scan"}


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("Computed tomography for acute appendicitis", "Tomography, X-Ray Computed"),
        ("Ultrasound for appendicitis", "Ultrasonography"),
    ],
)
def test_recognition_completes_a_phrase_mesh_writes_only_inside_terms(
    vocabulary: MeshVocabulary, text: str, heading: str
) -> None:
    assert heading in [m.descriptor.heading for m in vocabulary.recognize(text, complete=True)]


@pytest.mark.parametrize("text", ["tests", "imaging", "invasive aspergillosis", "Cardiac testing"])
def test_generic_heads_and_single_narrower_names_are_left_alone(
    vocabulary: MeshVocabulary, text: str
) -> None:
    headings = [m.descriptor.heading for m in vocabulary.recognize(text, complete=True)]
    assert headings in ([], ["Aspergillosis"])


def test_exact_recognition_is_unchanged_unless_asked(vocabulary: MeshVocabulary) -> None:
    # the understanding tells slots apart by exact names only
    assert [m.descriptor.heading for m in vocabulary.recognize("computed tomography")] == ["Tomography"]


def test_the_second_part_of_a_hyphenated_compound_is_no_tail(vocabulary: MeshVocabulary) -> None:
    # "line" ends Cell Line's terms, but "second-line" names a kind of drug, not a cell line
    found = vocabulary.recognize("resistance to second-line anti-tuberculosis drugs", complete=True)
    assert [m.descriptor.heading for m in found] == ["Antitubercular Agents"]


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("reinforcement learning for traffic signal control", "Protein Sorting Signals"),
        ("railway line maintenance", "Cell Line"),
    ],
)
def test_a_lone_word_after_a_modifier_mesh_does_not_know_names_no_family(
    vocabulary: MeshVocabulary, text: str, heading: str
) -> None:
    # "signal" alone ends the terms of Protein Sorting Signals and the signals below it, but "traffic"
    # says which kind is meant, and MeSH's family of signals holds no traffic signal
    assert heading not in [m.descriptor.heading for m in vocabulary.recognize(text, complete=True)]


def test_a_recognised_modifier_or_a_function_word_keeps_the_family(vocabulary: MeshVocabulary) -> None:
    for text in ("lung ultrasound in children", "the role of ultrasound"):
        assert "Ultrasonography" in [m.descriptor.heading for m in vocabulary.recognize(text, complete=True)]


@pytest.mark.parametrize("text", ["mediastinal lymph node involvement", "impending and current dehydration"])
def test_a_word_that_ends_only_a_few_descriptors_terms_names_none_alone(
    vocabulary: MeshVocabulary, text: str
) -> None:
    # "involvement" ends Community and Patient Involvement, "current" Synaptic Currents: parts of names
    found = [m.descriptor.heading for m in vocabulary.recognize(text, complete=True)]
    assert "Community Participation" not in found
    assert "Synaptic Potentials" not in found


def test_few_candidates_still_resolve_a_phrase_of_several_words() -> None:
    found = _descriptors()
    index = _index({"x-scan": ["Xray Scan"], "y-scan": ["Spiral Scan"]})
    assert index.resolve(("scan",), found.__getitem__) is None  # one word, two descriptors: no name
    two = _index({"x-scan": ["Xray Wide Scan"], "y-scan": ["Spiral Wide Scan"]})
    assert two.resolve(("wide", "scan"), found.__getitem__) == "x-scan"
