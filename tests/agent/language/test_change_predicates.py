"""A Chinese phrase closed by a verb of change is written in English as a state (the participle before the
noun, or the change's noun after it), not as the verb's gerund. Examples are phrases of their own, not
evaluation cases."""

from __future__ import annotations

from agent.language.bilingual import render
from agent.language.change_predicates import change_of, state_phrases


def test_the_direction_comes_from_the_first_sense_that_is_an_english_verb_of_change() -> None:
    up = change_of([("increase", True), ("raise", True)])
    assert up is not None and up.participle == "increased"
    down = change_of([("lessen", True), ("decrease", True)])
    assert down is not None and down.noun == "decline"
    worse = change_of([("make heavier", True), ("aggravate", True), ("increase", True)])
    assert worse is not None and worse.participle == "worsened"
    assert change_of([("decline", False), ("recession", False)]) is None  # a noun first: named as it is
    assert change_of([("control", True)]) is None  # no change: the verb's own action (blood sugar control)


def test_state_phrases_put_the_usual_english_form_first() -> None:
    up = change_of([("increase", True)])
    down = change_of([("decline", True)])
    assert up is not None and down is not None
    assert state_phrases(["infertility risk"], up) == [
        "increased infertility risk",
        "infertility risk increase",
    ]
    assert state_phrases(["lung function"], down)[0] == "lung function decline"


def test_a_subject_and_its_change_render_as_a_state() -> None:
    assert render("血压升高").english[0] == "elevated blood pressure"
    assert render("海平面上升").english[0] == "sea level rise"
    assert render("死亡风险增加").english[0] == "elevated death risk"
    assert render("肺功能下降").english[0] == "lung function decline"
    assert render("骨密度降低").english[0] == "bone density decline"
    # a verb of no change keeps its action (blood sugar control)
    assert render("血糖控制").english[0].startswith("blood sugar control")


def test_a_lone_character_at_the_end_is_no_predicate() -> None:
    assert not any("decline" in english for english in render("高坝泄洪消").english)


def test_the_subjects_head_is_dropped_where_the_vocabulary_attests_the_shorter_state() -> None:
    # "cognitive function decline" is written "cognitive decline" (a MeSH entry term of Cognitive
    # Dysfunction); "lung decline" is attested nowhere, so the lung function keeps its head
    attested = {"cognitive decline"}.__contains__
    assert render("认知功能下降", attested).english[0] == "cognitive decline"
    assert "lung decline" not in render("肺功能下降", attested).english
    assert (
        render("认知功能下降").english[0] == "cognitive function decline"
    )  # nothing attests without a vocabulary
