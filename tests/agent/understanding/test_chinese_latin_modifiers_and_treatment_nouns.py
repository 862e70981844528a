"""A Latin modifier written against a Chinese verb, and 治疗 heading a known term (rules fallback):
sentences written for these tests, not evaluation cases.

"采用meta分析": a Latin word that is no acronym is an English modifier, so the verb after it is the noun
it qualifies (one mixed-script term); an acronym before a verb may be the means (用XRD表征MOF).
"患者治疗失败": 治疗 opening a term MeSH knows (treatment failure) is a noun, no verb of treating, and the
people word before it is who is studied.
"""

from __future__ import annotations

from agent.understanding.chinese_phrases import chinese_phrases


def _texts(text: str) -> list[str]:
    return [phrase.text for phrase in chinese_phrases(text)]


def test_a_latin_modifier_and_the_verb_written_against_it_are_one_term() -> None:
    assert "meta分析" in _texts("本研究采用meta分析评价太极拳对老年人平衡能力的效果。")
    assert "logistic回归" in _texts("采用logistic回归分析糖尿病患者的危险因素。")
    # an acronym before a verb is the means and the verb its predicate
    assert "XRD" in _texts("用XRD表征MOF材料的结构。")


def test_treatment_opening_a_known_term_is_a_noun_after_the_people_studied() -> None:
    texts = _texts("探讨结核病患者治疗失败的影响因素。")
    assert "结核病患者" in texts and "治疗失败" in texts, texts
