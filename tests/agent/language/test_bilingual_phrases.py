"""Rendering slot phrases: segmentation that keeps a word a function word would split, whole noun
phrases, senses judged by MeSH inside a composition, and "A or B" names as two senses."""

from __future__ import annotations

from agent.language.bilingual import render
from agent.language.cedict import clean_definition
from agent.language.chinese_segmentation import segment
from agent.language.chinese_sentences import is_verb, render_phrase


def test_a_function_character_that_makes_a_word_with_a_lone_character_is_kept_in_it() -> None:
    assert "卒中" in segment("研究卒中风险")  # stroke, not 卒 + 中 "in"
    assert segment("在 EEG 信号中", keep_space=True).count(" ") >= 1


def test_a_slot_phrase_is_rendered_whole_when_it_is_one_noun_phrase() -> None:
    (whole,) = render_phrase("睡眠质量")  # 睡眠 is also a verb: english_phrases would drop it
    assert whole.best == "sleep quality"
    assert [r.best for r in render_phrase("基于脑电的情绪识别")]  # function words: phrase by phrase


def test_a_judge_moves_attested_senses_forward_inside_a_composition() -> None:
    assert render("洪水风险").best == "deluge risk"  # CC-CEDICT's first sense of 洪水
    # the judge knows the single word "flood" only, so it is the sense order, not the whole phrase
    assert render("洪水风险", {"flood"}.__contains__).best == "flood risk"


def test_two_names_of_one_thing_are_two_senses() -> None:
    assert [s.text for s in clean_definition("Yellow River or Huang He")] == ["Yellow River", "Huang He"]
    assert [s.text for s in clean_definition("more or less")] == ["more or less"]


def test_verbs_by_their_first_sense() -> None:
    assert is_verb("来自") and not is_verb("数据")


def test_whole_words_keep_a_jieba_noun_the_dictionary_would_break_into_a_lone_character() -> None:
    # CC-CEDICT lacks 飞行器 "aircraft" and 阵发性 "paroxysmal"; cut by the dictionary they leave
    # fragments (飞行 "to fly" | 器) that a phrase reader takes for a verb
    assert "飞行器" in segment("高超声速飞行器热防护系统", whole_words=True)
    assert "阵发性" in segment("良性阵发性位置性眩晕", whole_words=True)
    # a numeral with its classifier, a place or a verb jieba holds whole is still two words
    assert "一项" not in segment("一项随机对照试验", whole_words=True)
    assert "水中" not in segment("测定水中的微塑料", whole_words=True)
    # a word the dictionary composes of whole words is left to the re-cut
    assert segment("热防护系统", whole_words=True)[-2:] == ["防护", "系统"]
    # the rendering path is unchanged
    assert "飞行器" not in segment("高超声速飞行器热防护系统")


def test_a_lone_adjective_suffix_after_a_word_is_its_suffix_not_the_start_of_the_next_word() -> None:
    # 缺血|性 "ischemic", not 缺 "lack" + 血性 "brave": 性 closes the word before it wherever it stands
    assert segment("缺血性脑卒中")[:2] == ["缺血", "性"]
    assert segment("感染性休克")[:2] == ["感染", "性"]
    # a dictionary word that holds its own 性 stays one word
    assert segment("出血性脑卒中")[0] == "出血性"


def test_a_word_whose_senses_are_all_clauses_makes_no_adjective_before_its_suffix() -> None:
    # 失眠 "to suffer from insomnia": no adjective of a term, so 失眠|性|疲劳 is searched by its head,
    # not as the phrase "to suffer from insomnia fatigue"
    assert render("失眠性疲劳").best == "fatigue"
    # where the glossary gives the word a noun sense, its adjective is made (缺血 "ischemia": ischemic)
    assert render("缺血性脑卒中").best == "ischemic stroke"
    # a verb with a one-word sense makes its adjective as before (退行 "degenerate")
    assert render("退行性疾病").best == "degenerative disease"


def test_a_period_morpheme_inside_a_term_goes_unsaid_where_the_judge_attests_the_rest() -> None:
    """妊娠|期|糖尿病: the period morpheme 期 (jieba's time word, otherwise a function word) closes 妊娠
    "gestation"; English writes "gestational diabetes", which MeSH attests, not "gestational time
    diabetes", and the phrase stays whole instead of losing the pregnancy."""
    judge = {"gestational diabetes", "pregnant women", "diabetes"}.__contains__
    assert render("妊娠期糖尿病", judge).best == "gestational diabetes"
    (whole,) = render_phrase("妊娠期糖尿病孕妇", judge)
    assert whole.best.startswith("gestational diabetes")
