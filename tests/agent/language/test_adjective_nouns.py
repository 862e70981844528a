"""The condition an adjective names by its noun, where MeSH files that noun under diseases."""

from __future__ import annotations

import pytest

from agent.language.adjective_nouns import condition_of_adjective
from agent.language.mesh_recognition import MeshVocabulary


def test_recurrent_is_recurrence(vocabulary: MeshVocabulary) -> None:
    found = condition_of_adjective("recurrent", vocabulary)
    assert found is not None and found.heading == "Recurrence"


@pytest.mark.parametrize("word", ["prevalent", "violent", "patient", "different", "colorectal"])
def test_a_noun_that_is_no_condition_or_no_noun_names_nothing(vocabulary: MeshVocabulary, word: str) -> None:
    """Prevalence is a statistic, Violence a behaviour: no condition a disease phrase is ANDed with."""
    assert condition_of_adjective(word, vocabulary) is None
