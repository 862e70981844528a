"""Chinese drug names by their WHO INN stem (agent/language/drug_stems.py and its use in chinese_segmentation.py, bilingual.py).

Sentences and names of our own (general drug naming), not evaluation cases.
"""

from __future__ import annotations

import pytest

from agent.language.bilingual import render
from agent.language.chinese_segmentation import drug_names, segment, sound_spans
from agent.language.chinese_sentences import render_phrase, to_english
from agent.language.drug_stems import drug_class, stems
from agent.understanding.slot_translation import embedded_vocabulary


def test_every_class_in_the_stem_table_is_a_term_mesh_knows() -> None:
    vocabulary = embedded_vocabulary()
    if vocabulary is None:
        pytest.skip("the embedded MeSH table is not installed")
    for drug in stems().values():
        assert drug.stem.startswith("-") and drug.english
        assert vocabulary.knows(drug.english[0]), drug


def test_a_name_ending_in_a_stem_belongs_to_the_class() -> None:
    assert drug_class("阿托伐他汀").english[0] == "statins"  # atorvastatin
    assert drug_class("缬沙坦").english[0] == "angiotensin receptor antagonists"  # valsartan
    assert drug_class("贝伐珠单抗").english[0] == "monoclonal antibodies"  # bevacizumab
    assert drug_class("恩格列净").english[0] == "SGLT2 inhibitors"  # empagliflozin: 格列净, not 净
    assert drug_class("比索洛尔").english[0] == "adrenergic beta-antagonists"  # bisoprolol
    # -onide, the topical and inhaled corticosteroids: budesonide, triamcinolone acetonide ("virtue" for 德)
    assert drug_class("布地奈德").english[0] == "glucocorticoids"
    assert drug_class("曲安奈德").english[0] == "glucocorticoids"
    # the class word itself
    assert drug_class("他汀类").english[0] == "statins"
    assert drug_class("普利类药物").english[0] == "ACE inhibitors"
    # a stem needs sounds before it, two before a one-character stem
    assert drug_class("他汀") is None and drug_class("单抗") is None
    assert drug_class("阿韦") is None and drug_class("阿昔洛韦").english[0] == "antiviral agents"


def test_a_drug_name_written_by_sound_renders_as_its_class() -> None:
    rendering = render("瑞舒伐他汀")  # rosuvastatin: 瑞舒伐|他|汀 for jieba
    assert rendering.english[0] == "statins" and rendering.how == "drug class"
    assert render("雷贝拉唑").english[0] == "proton pump inhibitors"  # rabeprazole
    assert render("莫西沙星").english[0] == "fluoroquinolones"  # moxifloxacin
    assert render("呋喹替尼").english[0] == "tyrosine kinase inhibitors"  # fruquintinib
    assert render("那屈肝素").english[0] == "low molecular weight heparin"  # nadroparin: -parin
    assert segment("口服瑞舒伐他汀") == ["口服", "瑞舒伐他汀"]
    assert sound_spans("瑞舒伐他汀") == []  # a name of a known class is no unknown name


def test_a_name_the_dictionary_knows_stays_itself() -> None:
    assert render("阿莫西林").english[0] == "amoxicillin"  # CC-CEDICT knows amoxicillin
    assert drug_names("阿莫西林胶囊") == []


def test_words_of_their_own_are_no_sounds_of_a_name() -> None:
    assert render("普通肝素").english[0] != "low molecular weight heparin"  # 普通 "ordinary" is a word
    assert segment("使用卡托普利治疗") == ["使用", "卡托普利", "治疗"]  # captopril, 使用 "use" stays out
    assert render("水平").how != "drug class" and render("地平线").english[0] == "horizon"


def test_the_class_composes_with_the_words_around_it() -> None:
    assert render("坎地沙坦治疗").english[0] == "angiotensin receptor antagonists treatment"
    phrases = render_phrase("他汀类药物治疗")
    assert phrases[0].english[0].startswith("statins")
    assert "monoclonal antibodies" in to_english("研究帕妥珠单抗联合化疗的疗效。")


def test_drug_names_lists_each_name_as_written_with_its_class() -> None:
    found = drug_names("比较氯吡格雷与替格瑞洛，以及贝曲沙班的出血风险")
    assert [(name, drug.english[0]) for name, drug in found] == [
        ("氯吡格雷", "platelet aggregation inhibitors"),  # -grel
        ("替格瑞洛", "platelet aggregation inhibitors"),  # -grelor
        ("贝曲沙班", "factor Xa inhibitors"),
    ]


def test_an_english_inn_belongs_to_the_class_of_its_stem() -> None:
    from agent.language.drug_stems import english_drug_class

    found = {
        w: (c.stem if (c := english_drug_class(w)) else None) for w in ("dupilumab", "edoxaban", "sirolimus")
    }
    assert found == {"dupilumab": "-mab", "edoxaban": "-xaban", "sirolimus": "-imus"}
    # too few letters before the stem, or no stem: no drug
    assert english_drug_class("April") is None and english_drug_class("animus") is None
    assert english_drug_class("mab") is None and english_drug_class("asthma") is None


def test_common_drugs_the_stem_rule_cannot_name_are_glossary_rows() -> None:
    # names that spell the INN by sound with no stem of the table (他达拉非 tadalafil, 伏诺拉生 vonoprazan,
    # 乙酰唑胺 acetazolamide) had composed characters' senses ("he attention play non")
    assert render("他达拉非").english[0] == "tadalafil"
    assert render("伏诺拉生").english[0] == "vonoprazan"
    assert render("乙酰唑胺").english[0] == "acetazolamide"
    # a stem names only the class where MeSH lacks the drug: the glossary names the drug itself
    assert render("达格列净").english[0] == "dapagliflozin"  # was "SGLT2 inhibitors"
    assert render("司美格鲁肽").english[0] == "semaglutide"  # was "GLP-1 receptor agonists"
    assert render("帕博利珠单抗").english[0] == "pembrolizumab"  # was "monoclonal antibodies"
    assert drug_names("达格列净治疗心力衰竭") == []  # a drug the glossary names is no class to note


def test_a_glossary_term_opening_with_a_function_word_character_is_one_word() -> None:
    # 他 "he" and 下 "under" are words of a sentence elsewhere; they open these glossary terms
    assert "他达拉非" in segment("每日小剂量他达拉非治疗")
    assert "下尿路症状" in segment("合并下尿路症状患者")
    assert segment("他们对下一代的影响")[:2] == ["他们", "对"]  # no glossary term: the cut is jieba's
