"""The drug a Chinese name spells by its sounds (agent/language/drug_sounds.py, its use in bilingual.py).

Names of our own choosing (general drug naming), not evaluation cases.
"""

from __future__ import annotations

import pytest

from agent.language.bilingual import render
from agent.language.drug_sounds import english_skeleton, matching_drug
from agent.language.drug_stems import drug_class
from agent.language.term_company import company_of
from agent.understanding.slot_translation import embedded_vocabulary

_STATINS = ("atorvastatin", "fluvastatin", "lovastatin", "pravastatin", "rosuvastatin", "simvastatin")


def test_an_english_name_becomes_its_consonant_classes() -> None:
    assert english_skeleton("clopidogrel") == ["K", "L", "P", "T", "K", "L", "L"]
    assert english_skeleton("atorvastatin")[:2] == ["V", "T"]  # opens with a vowel


def test_the_drug_whose_sounds_the_name_spells_is_chosen_among_those_of_its_stem() -> None:
    assert matching_drug("阿托伐他汀", _STATINS) == "atorvastatin"
    assert matching_drug("瑞舒伐他汀", _STATINS) == "rosuvastatin"
    assert matching_drug("氟伐他汀", _STATINS) == "fluvastatin"
    assert matching_drug("洛伐他汀", _STATINS) == "lovastatin"
    assert matching_drug("氯吡格雷", ("clopidogrel", "prasugrel", "ticagrelor")) == "clopidogrel"
    assert matching_drug("普拉格雷", ("clopidogrel", "prasugrel", "ticagrelor")) == "prasugrel"


def test_no_drug_is_named_when_the_first_sound_differs_or_two_fit_alike() -> None:
    assert matching_drug("坎格瑞洛", ("ticagrelor",)) is None  # cangrelor: k, not t
    assert matching_drug("阿托伐他汀", ("atorvastatin", "atorvastatin")) is None
    assert matching_drug("阿托伐他汀", ()) is None


def test_a_chinese_drug_name_renders_as_the_drug_mesh_knows() -> None:
    vocabulary = embedded_vocabulary()
    if vocabulary is None:
        pytest.skip("the embedded MeSH table is not installed")
    judge = company_of(vocabulary)
    assert "clopidogrel" in judge.words_ending("grel")
    assert render("氯吡格雷", judge).english == ("clopidogrel",)  # was "chlorine Grey"
    assert render("替格瑞洛", judge).english == ("ticagrelor",)  # was cut into four characters
    assert render("阿托伐他汀", judge).how == "drug name"
    # the class word names no drug; without a judge that lists words, the class stays
    assert render("他汀类", judge).english[0] == "statins"
    assert render("阿托伐他汀").english[0] == "statins"


def test_the_platelet_inhibitor_stems_name_their_class() -> None:
    assert drug_class("氯吡格雷").english[0] == "platelet aggregation inhibitors"
    assert drug_class("替格瑞洛").stem == "-grelor"


def test_a_chiral_prefix_is_translated_and_the_rest_spelled() -> None:
    # 右 "right" and 左 "left" translate dextro-/levo-; the characters after them spell the rest
    quinolones = ("levofloxacin", "ofloxacin", "ciprofloxacin", "moxifloxacin")
    assert matching_drug("左氧氟沙星", quinolones) == "levofloxacin"
    assert matching_drug("氧氟沙星", quinolones) == "ofloxacin"
    agonists = ("dexmedetomidine", "medetomidine", "detomidine")
    assert matching_drug("右美托咪定", agonists) == "dexmedetomidine"
    assert matching_drug("右美托咪定", ("medetomidine", "detomidine")) is None  # no dextro- drug to name
