"""An operation named by a Latin acronym before 术后, a people word before an operation a time word closes,
相关性 "-related" before a head, and the disease adjectives CC-CEDICT lacks (rules fallback): sentences
written for these tests, not evaluation cases.

PCI|术后 is cut PCI|后 (the operation keeps its Latin name, 术 its suffix) so that what follows is observed
after it, not "PCI postoperative restenosis"; 哮喘患者|支气管热成形术|后 and 患者|鼻窦手术|前后 part the people
from the operation they undergo; 呼吸机相关性肺炎 is "ventilator-related pneumonia" while A与B的相关性 stays
"correlation"; 原发性/继发性/复发性 are "primary"/"secondary"/"recurrent", not "original hair". What a study
is based on (基于有限元仿真的…) is its method though 仿真 heads tasks; factors written against their outcome
(睡眠质量影响因素) are a phrase of their own, as after 的; 抑郁症|状 is cut 抑郁|症状 "depressive symptoms".
"""

from __future__ import annotations

from agent.language.bilingual import render
from agent.language.chinese_segmentation import segment
from agent.understanding.chinese_evidence import zh_people
from agent.understanding.chinese_phrases import chinese_phrases
from agent.understanding.rules import extract_slots


def test_a_latin_acronym_before_the_operation_time_word_names_the_operation() -> None:
    words = segment("冠心病患者PCI术后心绞痛复发")
    assert "术后" not in words and words[words.index("后") - 1] == "PCI", words
    texts = [p.text for p in chinese_phrases("冠心病患者PCI术后心绞痛复发情况。")]
    assert "心绞痛复发情况" in texts and not any("PCI" in t and t != "PCI" for t in texts), texts
    # an English word is no acronym: 术后 stays whole after it
    assert "术后" in segment("Lung术后")
    # after a Chinese noun the time word stays whole, as before
    assert segment("患者术后疼痛") == ["患者", "术后", "疼痛"]


def test_an_acronym_operation_is_a_time_and_what_follows_is_observed() -> None:
    slots = extract_slots("膀胱癌患者TURBT术后膀胱痉挛的危险因素分析。")
    assert "TURBT" in slots.context, slots
    assert not any("TURBT" in term for term in slots.output_target + slots.method_algorithm), slots


def test_a_people_word_before_an_operation_closed_by_a_time_word_is_a_phrase_of_its_own() -> None:
    texts = [p.text for p in chinese_phrases("哮喘患者支气管热成形术后肺功能变化。")]
    assert "哮喘患者" in texts and "支气管热成形术" in texts, texts


def test_before_and_after_closes_the_operation_as_after_does() -> None:
    texts = [p.text for p in chinese_phrases("鼻窦手术前后嗅觉功能变化。")]
    assert not any("前后" in t for t in texts), texts
    assert not any("手术" in t and "嗅觉" in t for t in texts), texts


def test_related_before_a_head_and_correlation_at_the_end() -> None:
    assert any("-related pneumonia" in e for e in render("呼吸机相关性肺炎").english)
    assert any(e.startswith("age-related ") for e in render("年龄相关性黄斑变性").english)
    assert not any("-related" in e for e in render("血压与认知功能的相关性").english)


def test_disease_adjectives_cc_cedict_lacks() -> None:
    assert render("原发性肝癌").english[0] == "primary liver cancer"
    assert render("继发性肺结核").english[0].startswith("secondary ")
    assert render("复发性流产").english[0].startswith("recurrent ")


def test_what_a_study_is_based_on_is_its_method_though_its_head_names_a_task() -> None:
    slots = extract_slots("基于有限元仿真的桥梁抗震性能评估。")
    assert slots.method_measurement == ["有限元仿真"], slots
    assert not any("仿真" in term for term in slots.task), slots


def test_factors_written_against_their_outcome_are_a_phrase_of_their_own() -> None:
    texts = [p.text for p in chinese_phrases("农村老年人睡眠质量影响因素研究。")]
    assert "影响因素" in texts and not any("影响因素" in t and t != "影响因素" for t in texts), texts
    # a bare 因素 is the head of its compound (风险|因素 "risk factors"), which stays one phrase
    assert [p.text for p in chinese_phrases("城市交通事故风险因素分析。")] == ["城市交通事故风险因素"]


def test_symptoms_are_the_head_after_a_disease_word() -> None:
    assert segment("焦虑抑郁症状") == ["焦虑", "抑郁", "症状"]
    assert segment("抑郁症") == ["抑郁症"]


def test_civil_servants_are_people() -> None:
    assert zh_people("公务员")
    assert render("基层公务员").english[0] == "grassroots civil servants"
