"""An English acronym in brackets right after a Chinese term ("急性髓系白血病(AML)患者") is the writer's short
form of the term: no break in the phrase, and kept beside the term as "term (ACRONYM)". Descriptions of their
own, not evaluation cases."""

from __future__ import annotations

from agent.understanding.chinese_phrases import chinese_phrases
from agent.understanding.rules import extract_slots


def test_a_glossed_term_goes_on_after_its_acronym() -> None:
    texts = [p.text for p in chinese_phrases("我们比较了慢性阻塞性肺疾病(COPD)患者的肺功能。")]
    assert "慢性阻塞性肺疾病患者" in texts
    assert "患者" not in texts


def test_the_rules_write_the_acronym_beside_the_chinese_term() -> None:
    slots = extract_slots("我们比较了慢性阻塞性肺疾病(COPD)患者的肺功能。")
    assert "慢性阻塞性肺疾病患者 (COPD)" in slots.subject_population


def test_brackets_holding_no_acronym_still_break_the_phrase() -> None:
    texts = [p.text for p in chinese_phrases("我们研究糖尿病(一种慢性病)患者的睡眠。")]
    assert "糖尿病患者" not in texts


def test_a_verb_after_the_acronym_starts_a_phrase_of_its_own() -> None:
    texts = [p.text for p in chinese_phrases("利用磁共振成像（MRI）定量分析软骨厚度。")]
    assert "磁共振成像" in texts
