"""前 and 后 after an event are a time ("before", "after"), no word of the term: written for these tests,
not evaluation cases.

Where MeSH writes no closed-up word ("postmenopausal"), the event takes a hyphenated prefix: 脑卒中后
"post-stroke" (it had been "stroke empress", 后's first dictionary sense), 治疗前 "pre-treatment".
"""

from __future__ import annotations

from agent.understanding.chinese_evidence import zh_english


def test_after_an_event_is_a_hyphenated_post() -> None:
    assert zh_english("脑卒中后") == "post-stroke"
    assert zh_english("心肌梗死后抑郁").startswith("post-myocardial infarction")
    assert "empress" not in zh_english("脑卒中后吞咽障碍")


def test_before_an_event_is_a_hyphenated_pre() -> None:
    assert zh_english("运动前") == "pre-exercise"


def test_a_closed_up_word_the_vocabulary_writes_still_wins() -> None:
    assert zh_english("创伤后应激障碍") == "post-traumatic stress disorder"
    assert zh_english("术后疼痛") == "postoperative pain"
