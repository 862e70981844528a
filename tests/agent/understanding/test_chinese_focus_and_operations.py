"""Chinese words that introduce the object of study, and operations followed by a time word (rules
fallback): sentences of their own, not evaluation cases.

A verb by which the researcher says what the study looks at (关注, 聚焦于, 着眼于, 围绕, 解析) is a cue, no
word of the term after it; 术后/术前/术中 after a verb of surgery leave 术 to the operation (髋关节置换术|后),
which the time word then closes; after a verb of effect (影响|术后) or a modal word the time word stays whole.
"""

from __future__ import annotations

import pytest

from agent.language.chinese_segmentation import segment
from agent.understanding.chinese_phrases import chinese_phrases


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("我们关注社区老年人的跌倒风险。", "社区老年人"),
        ("本研究聚焦于农村留守儿童的心理健康。", "农村留守儿童"),
        ("着眼于高校教师，探讨职业倦怠。", "高校教师"),
        ("围绕深海沉积物微生物群落开展研究。", "深海沉积物微生物群落"),
        ("利用转录组测序解析水稻根系的响应机制。", "水稻"),
    ],
)
def test_a_verb_of_the_studys_focus_is_a_cue_not_a_word(sentence: str, term: str) -> None:
    texts = [p.text for p in chinese_phrases(sentence)]
    assert term in texts
    assert not any(verb in text for text in texts for verb in ("关注", "聚焦", "着眼", "围绕", "解析"))


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("高温热浪对老年人住院的影响，重点关注城市社区。", "城市社区"),
        ("本研究集中关注农村儿童的近视问题。", "农村儿童"),
    ],
)
def test_an_adverb_before_a_verb_of_focus_is_part_of_the_cue(sentence: str, term: str) -> None:
    # 重点 alone is "key point"; before 关注 it says how closely the study looks, no term of its own
    texts = [p.text for p in chinese_phrases(sentence)]
    assert term in texts
    assert not any(adverb in text for text in texts for adverb in ("重点", "集中"))


def test_after_a_verb_of_surgery_the_operation_keeps_its_suffix() -> None:
    assert segment("髋关节置换术后谵妄") == ["髋关节", "置换术", "后", "谵妄"]
    assert segment("肾移植术前评估")[:3] == ["肾", "移植术", "前"]


def test_after_a_noun_the_operation_time_stays_one_word() -> None:
    assert segment("患者术后疼痛") == ["患者", "术后", "疼痛"]


def test_after_a_verb_of_effect_the_operation_time_stays_one_word() -> None:
    # 是否影响|术后: the verb says what the waiting does to what follows; it names no operation (影响术
    # "influence technique" had become a setting)
    assert segment("等待时间是否影响术后死亡率")[-3:] == ["影响", "术后", "死亡率"]
    assert segment("早期活动能否降低术后并发症")[-3:] == ["降低", "术后", "并发症"]
    assert "影响术" not in [p.text for p in chinese_phrases("吸烟是否影响术后伤口愈合？")]


def test_the_operation_is_a_time_that_closes_its_phrase() -> None:
    texts = [p.text for p in chinese_phrases("腹腔镜胆囊切除术后患者的恢复情况。")]
    assert "腹腔镜胆囊切除术" in texts
    assert "患者" in texts


def test_a_verb_before_a_noun_of_how_it_happens_modifies_it() -> None:
    # 迁移|规律 "migration pattern", 降解|过程 "degradation process": no predicate cuts the phrase there
    texts = [p.text for p in chinese_phrases("土壤中重金属迁移转化规律研究。")]
    assert "重金属迁移转化规律" in texts
    texts = [p.text for p in chinese_phrases("深部巷道围岩大变形机理研究。")]
    assert any(text.endswith("变形机理") for text in texts)
