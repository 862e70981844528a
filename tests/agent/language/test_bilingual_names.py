"""Names written by sound, the suffix 者 and verbs at the head of a term (offline Chinese -> English).

Phrases of their own, not evaluation cases.
"""

from __future__ import annotations

from agent.language.bilingual import render
from agent.language.chinese_segmentation import sound_spans, written_by_sound


def test_a_drug_name_written_by_sound_is_found() -> None:
    assert written_by_sound("利福喷丁")  # rifapentine: 利|福|喷|丁, read by jieba as a name
    assert sound_spans("口服利福喷丁治疗") == [(2, 6)]
    # a name ending in an INN stem is a drug of its class, no unknown name (tests/.../test_drug_stems.py)
    assert not written_by_sound("奥司他韦")
    # characters whose senses make a (clumsy) term are no name: 最|大|摄|氧|量 is "maximal oxygen uptake"
    assert not written_by_sound("最大摄氧量")
    assert not written_by_sound("癫痫患者") and not written_by_sound("EEG")


def test_the_suffix_zhe_makes_the_agent_noun_of_a_verb() -> None:
    assert "drivers" in render("老年驾驶者").english[1]  # 驾驶 "to pilot; to drive": pilot first
    assert render("老年驾驶者", attested=lambda t: t == "elderly drivers").english[0] == "elderly drivers"
    assert render("学习者").english[0] == "learners"


def test_verbs_at_the_head_take_their_regular_nouns() -> None:
    assert render("血糖测定").english[0] == "blood sugar determination"  # determine -> determination
    assert render("疾病管理").english[0] == "disease management"  # manage -> management
    assert render("考虑").english[0] == "consideration"


def test_xing_closing_a_phrase_makes_the_quality_noun() -> None:
    assert render("空间公平性").english[0] == "spatial fairness"  # 公平 "fair; impartial" + 性
    assert "spatial impartiality" in render("空间公平性").english
    assert "model interpretability" in render("模型可解释性").english  # 可 + verb + 性: "-ability"
    assert render("敏感度").english[0] == "sensitivity"  # 度 closes a phrase the same way
    # a word whose sense already is a quality noun is that quality (活动 "activity", not "loose"-ness)
    assert render("疾病活动度").english[0] == "disease activity"
    # before a head, 性 still makes an adjective (退行性疾病 "degenerative disease")
    assert render("退行性疾病").english[0] == "degenerative disease"


def test_the_class_morpheme_lei_is_no_word_of_the_term() -> None:
    # 类 "a class of" after a noun and before a head: the class is named by the noun (no "kind")
    assert render("酚类物质").english[0] in {"phenol substance", "phenol matter"}
    assert not any("kind" in candidate for candidate in render("抗生素类药物").english)
    # at the end of a phrase the class is its members, in the plural
    assert render("蛙类").english[0] == "frogs"
    # before a noun it says "-like", which the noun's English carries (风湿关节炎 "rheumatoid arthritis")
    assert render("类风湿关节炎患者").english[0] == "rheumatoid arthritis patients"
    # a number's classifier is still turned round (2型, 一类 stay as they were)
    assert render("2型糖尿病").english[0] == "type 2 diabetes"
