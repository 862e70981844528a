"""Ordinals inside terms, an operation named by a noun before 术后, a body part after a people word and
the care of a condition after 在 (rules fallback): sentences written for these tests, not evaluation cases.

第三磨牙 is "third molar" (CC-CEDICT's 第 "but" and 第二 "secondary" had broken such terms); 肝移植|术后 is
re-cut 肝移植术|后 as 髋关节置换|术后 is, so the operation and what follows it are two phrases; 拇外翻患者|
第一跖趾关节 parts the people from the body part examined in them; "X在恐高症治疗中的应用" studies the
people with the condition, whose treatment X is used in.
"""

from __future__ import annotations

from agent.language.chinese_segmentation import segment
from agent.understanding.chinese_evidence import zh_english
from agent.understanding.chinese_phrases import chinese_phrases
from agent.understanding.rules import extract_slots


def test_ordinals_inside_terms_are_english_ordinals() -> None:
    assert zh_english("第三磨牙") == "third molar"
    assert zh_english("第一跖趾关节") == "first metatarsophalangeal joint"
    assert zh_english("第二语言") == "second language"
    assert zh_english("第四脑室") is not None and zh_english("第四脑室").startswith("fourth ")  # type: ignore[union-attr]


def test_an_operation_named_by_a_noun_keeps_its_suffix_before_the_time_word() -> None:
    words = segment("肝移植术后新发糖尿病")
    assert "术后" not in words and words[words.index("后") - 1].endswith("术"), words
    # after a people word the time word stays whole (患者|术后|疼痛 "patients' postoperative pain")
    assert segment("患者术后疼痛") == ["患者", "术后", "疼痛"]
    slots = extract_slots("肝移植术后新发糖尿病的发生率及其危险因素分析。")
    assert "新发糖尿病" in slots.output_target, slots
    assert not any("肝移植" in t for t in slots.output_target), slots


def test_a_body_part_after_people_is_a_phrase_of_its_own() -> None:
    texts = [p.text for p in chinese_phrases("拇外翻患者第一跖趾关节MRI表现与疼痛程度的关系。")]
    assert "拇外翻患者" in texts, texts
    slots = extract_slots("膝骨关节炎患者膝关节软骨厚度与疼痛的关系。")
    assert slots.subject_population == ["膝骨关节炎患者"], slots
    assert "膝关节软骨厚度" in slots.context, slots


def test_the_care_of_a_condition_after_zai_names_who_is_studied() -> None:
    slots = extract_slots("二甲双胍在2型糖尿病治疗中的应用。")
    assert slots.subject_population == ["2型糖尿病"], slots
    assert not any("治疗" in t for t in slots.context), slots
