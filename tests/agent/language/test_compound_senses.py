"""A word's senses read off the dictionary's compounds that hold it, tried only where the judge attests."""

from __future__ import annotations

from agent.language.bilingual import render
from agent.language.compound_senses import compound_senses


def test_a_word_takes_the_sense_its_compounds_give_it_between_their_other_words() -> None:
    # CC-CEDICT: 髋 "pelvis; pelvic", but 髋关节 "hip joint", 髋骨 "hip bone"
    assert compound_senses("髋", "髋部骨折") == ("hip",)
    # 慢性阻塞性肺病 "chronic obstructive pulmonary disease": 慢性 "chronic" before, 性 the adjective
    # suffix, 肺病 "lung disease" after (its head "disease" alike)
    assert "obstructive" in compound_senses("阻塞", "慢性阻塞性肺疾病")
    # no function word is a sense of its own, and the word's own senses are not repeated
    assert not {"and", "of", "the"} & set(compound_senses("光", "光学相干断层扫描"))
    assert "pelvis" not in compound_senses("髋", "髋部骨折")


def test_a_compound_that_shares_no_character_with_the_phrase_shows_another_use_of_the_word() -> None:
    # 微血管 "capillary": no sense of 微 in 微震监测 (microseismic monitoring)
    assert "capillary" not in compound_senses("微", "微震监测")
    assert compound_senses("髋", "髋") == ()


def test_a_compound_sense_renders_a_phrase_only_where_the_judge_attests_the_whole() -> None:
    judge = {"hip fractures", "hip fracture", "chronic obstructive lung disease"}.__contains__
    assert render("髋部骨折", judge).best == "hip fracture"
    assert render("慢性阻塞性肺疾病", judge).best == "chronic obstructive lung disease"
    # without a judge the dictionary's own sense stays: nothing is made up
    assert "hip" not in render("髋部骨折").best
    assert render("髋部骨折", lambda term: False).best.startswith("pelvi")
