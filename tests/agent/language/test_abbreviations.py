"""Chinese abbreviations CC-CEDICT lacks, read as the dictionary word they shorten."""

from __future__ import annotations

from agent.language.abbreviations import abbreviates, expansion
from agent.language.bilingual import render
from agent.language.chinese_segmentation import tokenize


def test_the_first_character_of_each_word_abbreviates_the_term() -> None:
    assert expansion("心衰") == "心力衰竭"  # 心力|衰竭
    assert expansion("血透") == "血液透析"  # 血液|透析 (血液透析|器 is a kind of it, no second meaning)
    assert expansion("慢阻肺") == "慢性阻塞性肺病"  # 慢性|阻塞性|肺病
    assert abbreviates("心衰", "心力衰竭") and not abbreviates("心力", "心力衰竭")


def test_no_reading_where_the_dictionary_knows_the_word_or_it_is_ambiguous() -> None:
    assert expansion("心梗") is None  # CC-CEDICT lists it (myocardial infarction) and reads it itself
    assert expansion("外祖") is None  # 外祖母 or 外祖父: two meanings
    assert expansion("白血") is None  # the start of 白血球 is no abbreviation of it
    assert expansion("非小") is None  # 非 "non-" is a prefix before a term (非小细胞), not 非同小可


def test_an_abbreviation_renders_as_the_term_inside_a_phrase() -> None:
    assert render("心衰").english[0] == "heart failure" and render("心衰").how == "abbreviation"
    assert render("心衰患者").english[0] == "heart failure patients"  # had been "heart decay patients"
    assert "慢阻肺" in [token.key for token in tokenize("慢阻肺患者的肺康复训练")]  # jieba's 慢|阻|肺
    assert render("慢阻肺患者").english[0] == "COPD patients"
