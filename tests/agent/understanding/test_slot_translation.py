"""Chinese slot phrases in English: a composition read character by character is left out, not searched.

Phrases of their own, not evaluation cases.
"""

from __future__ import annotations

from agent.language.bilingual import render
from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.rules import extract_slots
from agent.understanding.slot_translation import embedded_vocabulary, translate_slots


def test_a_composition_of_guessed_characters_is_left_out_and_named_in_the_notes() -> None:
    vocabulary = embedded_vocabulary()
    # 孔|镜|核|术 ...: characters the glossary lacks, each read by its own first senses ("mirror")
    slots, originals, notes = translate_slots(
        Slots(context=["椎间孔镜髓核摘除术"], subject_population=["非酒精性脂肪肝"]), vocabulary
    )
    assert slots.context == []
    assert "椎间孔镜髓核摘除术" not in originals.values()
    assert any("椎间孔镜髓核摘除术" in note and "character by character" in note for note in notes)
    # a composition of words the dictionary knows stays
    assert slots.subject_population == ["non-alcoholic fatty liver"]


def test_a_short_word_read_only_by_its_characters_senses_is_left_out() -> None:
    # 刮|治: a two-character word the dictionary lacks, each character read by its own senses ("scrape
    # government"); fewer than three guessed characters, but nothing in it is a word anyone wrote
    slots, originals, notes = translate_slots(Slots(context=["刮治", "肾毒性"]), embedded_vocabulary())
    assert "刮治" not in originals.values()
    assert originals.get(slots.context[0]) == "肾毒性"  # a composition of dictionary words stays
    assert not any("government" in phrase for phrase in slots.context)
    assert any("刮治" in note and "character by character" in note for note in notes)


def test_a_composition_counts_the_characters_it_guesses() -> None:
    assert render("椎间孔镜髓核摘除术").guesses >= 3
    assert render("非酒精性脂肪肝").guesses == 0
    assert render("锂离子电池").guesses == 0  # one dictionary word: no composition


def test_a_glossary_word_is_searched_as_the_glossary_writes_it_first() -> None:
    # 依从性 "adherence|compliance": MeSH may rank "compliance" first for the rules' roles, but the term a
    # researcher searches is the glossary's first
    slots, originals, _ = translate_slots(Slots(output_target=["依从性"]), embedded_vocabulary())
    assert slots.output_target == ["adherence"]
    assert originals == {"adherence": "依从性"}


def test_a_sense_is_chosen_by_the_words_mesh_writes_beside_it() -> None:
    # 前庭 "front courtyard; vestibule", 系 "system; department; faculty" (CC-CEDICT) and the glossary's bound
    # 系 "system; line": MeSH writes "vestibular" beside "function", knows "cell line" as a term, and knows
    # "Faculty" only as a heading of its own
    slots, _, _ = translate_slots(
        Slots(output_target=["前庭功能"], subject_population=["肿瘤细胞系"]), embedded_vocabulary()
    )
    assert slots.output_target == ["vestibule function"]
    assert slots.subject_population == ["tumor cell line"]


def test_an_acronym_the_writer_glossed_a_chinese_term_with_stays_beside_its_english() -> None:
    slots, _, _ = translate_slots(Slots(subject_population=["心力衰竭患者 (HFpEF)"]), embedded_vocabulary())
    assert slots.subject_population == ["heart failure patients (HFpEF)"]


def test_an_empirical_study_is_a_design_not_a_concept() -> None:
    # 实证研究 "empirical study" says how the study is done, as 回顾性 "retrospective" does
    slots, _, _ = translate_slots(Slots(context=["实证"], output_target=["跌倒风险"]), embedded_vocabulary())
    assert slots.context == []
    assert slots.output_target


def test_a_drug_name_mesh_knows_is_searched_alone_and_not_as_its_class() -> None:
    vocabulary = embedded_vocabulary()
    slots, _, notes = translate_slots(Slots(context=["氯吡格雷", "他汀类"]), vocabulary)
    if vocabulary is None:
        return
    assert slots.context == ["clopidogrel", "statins"]
    assert not any("氯吡格雷" in note and "class" in note for note in notes)


def test_an_english_name_the_writer_glossed_a_chinese_word_with_is_its_term() -> None:
    """ "长期服用哌甲酯（methylphenidate）": the writer's English names the phrase's last word, here a run
    of characters the segmenter could not join (哌|甲|酯 had been read as Protein Kinase C beta and
    Esters, with "II" searched as a term); the words before it are rendered as before."""
    slots, originals, _ = translate_slots(
        Slots(context=["长期服用哌甲酯 (methylphenidate)"]), embedded_vocabulary()
    )
    assert "methylphenidate" in slots.context
    assert originals["methylphenidate"] == "哌甲酯"
    assert not any("kinase" in term.lower() or "ester" in term.lower() for term in slots.context)


def test_a_bracket_opened_by_a_function_word_glosses_nothing() -> None:
    """ "手术(or surgery)" is an alternative, not the writer's English for the word before it."""
    slots = extract_slots("比较药物治疗(or surgery)对腰痛的效果")
    assert not any("(or surgery)" in term for name in LIST_SLOT_NAMES for term in getattr(slots, name))
    glossed = extract_slots("ADHD儿童长期服用哌甲酯（methylphenidate）与生长迟缓的关系")
    assert "长期服用哌甲酯 (methylphenidate)" in glossed.context
