"""A word MeSH writes in a pattern, left out by a description, put back (on the shipped MeSH)."""

from __future__ import annotations

import pytest

from agent.language.elided_words import elided_match, kinds_match
from agent.language.mesh_recognition import MeshVocabulary


def headings(vocabulary: MeshVocabulary, text: str) -> list[str]:
    return [m.descriptor.heading for m in elided_match(text, vocabulary)]


@pytest.mark.parametrize(
    ("phrase", "heading"),
    [
        ("Cardiac testing", "Heart Function Tests"),  # "cardiac [function] tests", "-ing" as the noun
        ("Rapid tests", "Rapid Diagnostic Tests"),
        ("liver tests", "Liver Function Tests"),
    ],
)
def test_a_patterned_word_left_out_is_put_back(vocabulary: MeshVocabulary, phrase: str, heading: str) -> None:
    assert headings(vocabulary, phrase) == [heading]


@pytest.mark.parametrize(
    "phrase", ["serum tests", "Physical tests", "urine tests", "fibre layer imaging", "tests"]
)
def test_a_word_of_one_name_only_is_never_put_back(vocabulary: MeshVocabulary, phrase: str) -> None:
    # "Serum Bactericidal Test" and "Physical Fitness Testing" are single names, not patterns
    assert headings(vocabulary, phrase) == []


def test_the_match_spans_the_phrase_as_written(vocabulary: MeshVocabulary) -> None:
    (match,) = elided_match("  Cardiac testing", vocabulary)
    assert (match.text, match.start, match.end) == ("Cardiac testing", 2, 17)


def test_what_the_kinds_of_one_descriptor_share_names_it(vocabulary: MeshVocabulary) -> None:
    """ "shift work" ends Night Shift Work and Rotating Shift Work (Shift Work Schedule); the inverted
    "Sleep Disorder, Shift Work" of another descriptor ends so too, but it is one against two."""
    assert [m.descriptor.heading for m in kinds_match("shift work", vocabulary)] == ["Shift Work Schedule"]


@pytest.mark.parametrize(
    "phrase", ["breast cancer", "cancer screening", "care homes", "lymph node involvement"]
)
def test_a_term_or_an_ending_of_several_descriptors_names_no_kind(
    vocabulary: MeshVocabulary, phrase: str
) -> None:
    assert kinds_match(phrase, vocabulary) == []


def test_a_word_that_is_a_heading_of_its_own_is_never_put_back(vocabulary: MeshVocabulary) -> None:
    """ "Infectious Pregnancy Complications" leaves "pregnancy" out of a pattern ("pregnancy
    complications" ends several descriptors), but Pregnancy is a concept: "infectious complications"
    of a burn had been Pregnancy Complications, Infectious."""
    assert headings(vocabulary, "infectious complications") == []


def test_a_kind_named_by_a_concept_is_not_what_the_phrase_names(vocabulary: MeshVocabulary) -> None:
    """ "Injection Site Adverse Event" and "Infusion Site Adverse Event" end in "adverse event", but
    "injection" is a heading of its own: Injection Site Reaction is one kind of adverse event, and
    "adverse events" had been it. "Per- and Polyfluoroalkyl Substances" names its kind by no concept."""
    assert kinds_match("adverse events", vocabulary) == []
    assert [m.descriptor.heading for m in kinds_match("polyfluoroalkyl substances", vocabulary)] == [
        "Fluorocarbons"
    ]
