"""The roles a verb frame gives the phrases around it in the rules fallback ("X and Y affect Z",
"how X affects Y").

Sentences written for these tests, not taken from the evaluation cases: each checks one mechanism.
"""

from __future__ import annotations

from agent.understanding.rules import extract_slots


def test_an_adjective_in_ed_after_how_opens_the_subject_of_the_clause() -> None:
    slots = extract_slots("I ask how improved cookstoves change indoor air pollution in rural Ghana.")
    assert "improved cookstoves" in slots.context
    assert "indoor air pollution" in slots.output_target
    assert not any("cookstoves" in t for t in slots.output_target)


def test_every_coordinated_subject_of_an_effect_verb_is_an_exposure() -> None:
    slots = extract_slots("We examine whether sleep loss and noise exposure impair working memory in pilots.")
    assert {"sleep loss", "noise exposure"} <= set(slots.context)
    assert slots.output_target == ["working memory"]
    crops = extract_slots("We ask how heat stress and drought affect grain yield in wheat.")
    assert {"heat stress", "drought"} <= set(crops.context)
    assert crops.output_target == ["grain yield"]
