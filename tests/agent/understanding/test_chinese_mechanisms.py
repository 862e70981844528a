"""The mechanism frame "X通过Y调控Z": the pathway is the feature, the object the outcome with its cells
studied, a molecule that acts a feature; 通过 before a method keeps the method. Sentences of their own,
not evaluation cases."""

from __future__ import annotations

from agent.understanding.chinese_mechanisms import mechanism_frames
from agent.understanding.phrase import Phrase
from agent.understanding.rules import extract_slots


def test_the_pathway_after_tongguo_is_the_feature_without_its_verb_and_the_object_is_the_outcome() -> None:
    slots = extract_slots("探讨白藜芦醇通过激活SIRT1信号通路减轻心肌细胞凋亡的机制。")
    assert "SIRT1信号通路" in slots.signal_feature  # not "激活SIRT1信号通路" in the setting
    assert not any("激活" in term for term in slots.context + slots.method_measurement)
    assert "心肌细胞" in slots.subject_population  # the cells the outcome is observed in
    assert "凋亡" in slots.output_target


def test_a_molecule_that_acts_through_a_pathway_and_a_symbol_of_the_pathway_are_features() -> None:
    slots = extract_slots("研究miR-155通过SOCS1/STAT3通路调控巨噬细胞极化。")
    assert {"miR-155", "SOCS1", "STAT3通路"} <= set(slots.signal_feature)
    assert "miR-155" not in slots.context
    assert not slots.method_algorithm and not slots.method_measurement


def test_tongguo_before_a_method_keeps_the_method() -> None:
    slots = extract_slots("通过问卷调查分析护士职业倦怠的影响因素。")
    assert not slots.signal_feature
    phrases = [Phrase("问卷调查", "通过", ["问卷", "调查"], after="通过")]
    assert mechanism_frames(phrases) == phrases
