"""People said to have a condition by a relative clause ("children who are obese") are read as people
with the condition's noun, which the understanding and the keywords then name by its heading."""

from __future__ import annotations

import pytest

from agent.language.mesh_recognition import MeshVocabulary
from agent.understanding.predicative_conditions import people_with_their_conditions
from agent.understanding.rules import extract_slots


@pytest.mark.parametrize(
    ("text", "turned"),
    [
        ("Children who are obese and their risk of asthma", "Children with obesity and their risk of asthma"),
        ("iron for pregnant women who are anaemic", "iron for pregnant women with anaemia"),
        ("Exercise for older adults who are frail.", "Exercise for older adults with frailty."),
        # the grade stays where MeSH names the graded condition, and goes where it does not
        ("patients who are morbidly obese", "patients with morbid obesity"),
        ("patients who are severely anaemic", "patients with anaemia"),
        ("children who are overweight", "children with overweight"),  # the heading itself
    ],
)
def test_a_condition_after_who_is_written_after_with(
    vocabulary: MeshVocabulary, text: str, turned: str
) -> None:
    assert people_with_their_conditions(text, vocabulary) == turned


@pytest.mark.parametrize(
    "text",
    [
        "children who are happy at school",  # no condition
        "patients who are eligible for surgery",
        "adults who are obese to some degree",  # the adjective governs what follows: left as written
        "clinics which are busy",  # not "who"
        "women who are pregnant",  # a state of life, not a disease
    ],
)
def test_anything_else_stays_as_written(vocabulary: MeshVocabulary, text: str) -> None:
    assert people_with_their_conditions(text, vocabulary) == text
    assert people_with_their_conditions(text, None) == text


def test_the_understanding_names_the_condition_and_keeps_the_users_words_as_the_goal() -> None:
    slots = extract_slots("Children who are obese and their risk of asthma")
    assert "obesity" in slots.subject_population
    assert slots.research_goal == "Children who are obese and their risk of asthma"
