"""Inflection rules of `agent.language.morphology` that the query builder relies on."""

from __future__ import annotations

import pytest

from agent.language.morphology import collective_members


@pytest.mark.parametrize(
    ("phrase", "members"),
    [
        ("benthic invertebrate communities", "benthic invertebrate"),
        ("macroinvertebrate assemblages", "macroinvertebrate"),
        ("pollinator populations", "pollinator"),
        ("older adult populations", "older adult"),
        ("native bee community", "native bee"),
        ("coral reef fish assemblages", "coral reef fish"),  # fish are counted with no "-s"
    ],
)
def test_a_collective_head_gives_way_to_its_members(phrase: str, members: str) -> None:
    assert collective_members(phrase) == members


@pytest.mark.parametrize(
    "phrase",
    [
        "microbial communities",  # an adjective names no members
        "general population",
        "vulnerable populations",
        "fish assemblages",  # one short word alone is too broad to search for
        "HIV populations",
        "heart failure",  # no collective head
        "communities",
    ],
)
def test_a_collective_head_stays_where_the_words_before_it_name_no_members(phrase: str) -> None:
    assert collective_members(phrase) is None
