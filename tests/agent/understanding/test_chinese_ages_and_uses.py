"""Chinese number phrases of people and the nouns hidden in verbs (rules fallback): an age or an age range
bounds who is studied and names no concept; a verb of surveying opening a clause is its predicate; a verb
of using between a thing and a measure of its use is the noun "use"; "method" after a technique's name
leaves the slot to the technique.

Sentences of their own, not evaluation cases.
"""

from __future__ import annotations

from agent.language.chinese_sentences import render_phrase
from agent.models import LIST_SLOT_NAMES
from agent.understanding.rules import extract_slots
from agent.understanding.slot_evidence import zh_head_slot


def _terms(text: str) -> list[str]:
    slots = extract_slots(text)
    return [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]


def test_an_age_range_ends_the_place_and_leaves_the_people_whole() -> None:
    for age in ("20~40岁", "20～40岁", "20至40岁", "20-40岁", "20—40岁", "70岁以上"):
        slots = extract_slots(f"分析杭州市{age}女性的骨密度。")
        assert "杭州市" in slots.context, age
        assert "女性" in slots.subject_population, age
        assert not any(ch.isdigit() for term in _terms(f"分析杭州市{age}女性的骨密度。") for ch in term), age


def test_a_verb_of_surveying_opening_a_clause_is_no_word_of_its_object() -> None:
    terms = _terms("调查山区小学生的龋齿患病率。")
    assert not any("调查" in term for term in terms)
    # before a head word it is the noun: a survey questionnaire is the instrument
    assert "调查问卷" in extract_slots("采用调查问卷评估护士的职业倦怠。").method_measurement


def test_a_verb_of_using_before_a_measure_of_use_is_the_noun_use() -> None:
    assert any(term.startswith("游戏机使用") for term in _terms("探讨游戏机使用频率与儿童视力的关系。"))
    assert [r.english[0] for r in render_phrase("社交媒体使用频率")] == ["social media use frequency"]


def test_method_after_a_measuring_technique_names_no_analysis() -> None:
    assert zh_head_slot("全基因组测序方法") == "method_measurement"
    assert zh_head_slot("PCR方法") == "method_measurement"
    assert zh_head_slot("机器学习方法") == "method_algorithm"


def test_a_model_named_after_based_on_is_the_method_built_on_not_data() -> None:
    slots = extract_slots("基于DINOv2的胸部X线肺结节检测方法。")
    assert "DINOv2" in slots.method_algorithm
    assert "DINOv2" not in slots.method_measurement
    # one item of a list keeps the slot its other items give it; an instrument keeps measuring
    assert "EEG" not in extract_slots("基于EEG的疲劳驾驶检测方法。").method_algorithm
