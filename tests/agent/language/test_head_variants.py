"""Head words MeSH writes interchangeably after the same modifiers ("care" / "services")."""

from __future__ import annotations

from agent.language.head_variants import attested_head_variants
from agent.language.mesh_recognition import MeshVocabulary
from tests.agent.language.test_mesh_recognition import headings


def test_heads_one_descriptor_ends_are_variants_unless_they_often_part_two() -> None:
    keys = {
        ("ambulatory", "care"): [(0, "D1")],
        ("ambulatory", "service"): [(1, "D1")],
        ("postnatal", "care"): [(0, "D2")],
        ("postnatal", "service"): [(1, "D2")],
        ("child", "care"): [(0, "D3")],
        ("child", "service"): [(1, "D3")],
        ("health", "care"): [(0, "D4")],
        ("health", "service"): [(0, "D5")],  # one place where they part two descriptors
    }
    assert attested_head_variants(keys, set())["care"] == frozenset({"service"})
    # too few descriptors attest the pair once one of them is NLM's inverted order
    assert attested_head_variants(keys, {("child", "service")}) == {}
    parted = {
        **keys,
        **{(f"m{n}", head): [(0, f"P{n}{head}")] for n in range(4) for head in ("care", "service")},
    }
    assert attested_head_variants(parted, set()) == {}  # they tell four more pairs apart


def test_a_head_mesh_writes_otherwise_after_a_known_term_names_its_heading(
    vocabulary: MeshVocabulary,
) -> None:
    # MeSH writes no "Mental Health Care": Mental Health Services, not the broader Mental Health
    assert headings(vocabulary, "accessing mental health care") == [
        ("mental health care", "Mental Health Services")
    ]
    # a phrase MeSH writes as it stands is never swapped
    assert headings(vocabulary, "dental care") == [("dental care", "Dental Care")]
    # heads that often name two descriptors ("Nuclear Proteins", "Nuclear Receptors") are not swapped
    assert headings(vocabulary, "collagen proteins") == [("collagen", "Collagen"), ("proteins", "Proteins")]


def test_a_noun_of_trouble_after_a_function_is_its_disorder(vocabulary: MeshVocabulary) -> None:
    """ "language difficulties", "sleep problems" are what MeSH writes as disorders of the function
    (NLM's terms never write the lay head, so no count of them attests the swap)."""
    assert headings(vocabulary, "persistent language difficulties") == [
        ("language difficulties", "Language Disorders")
    ]
    assert headings(vocabulary, "sleep problems") == [("sleep problems", "Sleep Wake Disorders")]
    # a phrase MeSH writes as it stands keeps its own heading
    assert headings(vocabulary, "social problems") == [("social problems", "Social Problems")]
