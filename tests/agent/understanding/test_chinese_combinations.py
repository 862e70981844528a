"""联合 "combined with" between two terms, and 治疗 before an object opening with a number (rules
fallback): sentences written for these tests, not evaluation cases.

"X联合Y对Z的影响": 联合 joins two interventions as 和 does (it had stayed in the phrase: "procalcitonin
unite C", "unite swallow training"); before an action noun (联合|治疗 "combination therapy", 联合|检测)
it modifies that noun and joins nothing. "治疗2型糖尿病": the treated condition may open with a number.
"""

from __future__ import annotations

import asyncio

from agent.llm import RulesLLM
from agent.understanding.chinese_phrases import chinese_phrases
from agent.understanding.description import understand


def _texts(text: str) -> list[str]:
    return [phrase.text for phrase in chinese_phrases(text)]


def test_combined_with_between_two_terms_cuts_them_apart() -> None:
    texts = _texts("针刺联合中药治疗失眠的临床观察。")
    assert "针刺" in texts and "中药" in texts, texts
    # after a term glossed by its acronym in brackets
    texts = _texts("经颅直流电刺激(tDCS)联合认知训练对轻度认知障碍老人的影响。")
    assert "认知训练" in texts, texts
    # before a Latin word
    texts = _texts("白细胞介素6联合PCT检测的诊断价值。")
    assert not any("联合" in t for t in texts), texts


def test_combined_before_an_action_noun_joins_nothing() -> None:
    texts = _texts("糖尿病患者联合用药的依从性。")
    assert any("联合" in t for t in texts), texts


def test_a_treated_condition_may_open_with_a_number() -> None:
    understanding = asyncio.run(understand("二甲双胍联合胰岛素治疗2型糖尿病的疗效。", RulesLLM()))
    slots = understanding.slots
    assert "metformin" in slots.context and "insulin" in slots.context, slots
    assert "type 2 diabetes" in slots.subject_population, slots
