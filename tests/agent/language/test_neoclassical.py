"""Neoclassical words for a body part and a procedure head: 膀胱|镜 "cystoscopy", 胃|切除术 "gastrectomy".

The words are guesses kept only where the judge (MeSH) attests them; without a judge, or with one that
knows none of them, the plain composition stays. Examples are phrases of their own, not evaluation cases.
"""

from __future__ import annotations

from agent.language import neoclassical
from agent.language.bilingual import render
from agent.language.chinese_sentences import render_phrase


def test_a_body_part_and_a_procedure_head_make_the_words_english_builds_on_its_combining_form() -> None:
    assert neoclassical.procedure_words(("bladder",), "镜")[:2] == ("cystoscopy", "cystoscope")
    assert "gastrectomy" in neoclassical.procedure_words(("stomach",), "切除术")
    # a whole two-word name has a form of its own: a gall bladder is no bladder
    assert neoclassical.procedure_words(("gall bladder",), "切除术") == ("cholecystectomy",)
    # an organ's own stem and its adjective's stem are tried (thoracic -> thorac-), "o" is not doubled
    assert "thoracoscopy" in neoclassical.procedure_words(("thoracic cavity",), "镜")
    assert "thoracoscopy" in neoclassical.procedure_words(("thoracic",), "镜")
    assert neoclassical.procedure_words(("internal",), "镜")[0] == "endoscopy"
    assert "colostomy" in neoclassical.procedure_words(("colon",), "造口术")
    assert neoclassical.procedure_words(("policy",), "镜")[0] == "policyoscopy"  # guesses, for the judge
    assert neoclassical.procedure_head(["膀胱", "镜"], 1) == ("镜", 1)
    assert neoclassical.procedure_head(["胃", "切除", "术"], 1) == ("切除术", 2)
    assert neoclassical.procedure_head(["镜"], 0) is None
    assert neoclassical.procedure_adjective("cystoscopy") == "cystoscopic"
    assert neoclassical.procedure_adjective("gastrectomy") is None


def test_the_attested_neoclassical_word_renders_the_compound() -> None:
    known = {"cystoscopy", "cystoscope", "gastrectomy", "colostomy"}
    assert render("膀胱镜").english[0] == "bladder mirror"  # no judge: the parts as they are
    assert render("膀胱镜", attested=lambda term: term in known).english[0] == "cystoscopy"
    assert render("胃切除术", attested=lambda term: term in known).english[0] == "gastrectomy"
    # before a head the procedure is its adjective
    judged = render("膀胱镜检查", attested=lambda term: term in known)
    assert judged.english[0].startswith("cystoscopic ")
    # nothing attested: no made-up word ("stomachectomy", "gastrectomy" unknown to the judge)
    assert "gastrectomy" not in render("胃切除术", attested=lambda term: False).english


def test_a_verb_closed_by_the_procedure_morpheme_is_its_action_noun() -> None:
    assert render("切除术").english[0] == "excision"  # not "excise technique"
    assert render("消融术").english[0] != "ablation technique"


def test_a_one_character_part_before_the_region_morpheme_is_the_region() -> None:
    assert render("肺部感染").english[0] == "lung infection"  # not "lung department infection"
    assert render("肺部").english[0] == "lung"


def test_the_bound_morpheme_of_a_lineage_is_a_line_where_the_judge_knows_the_term() -> None:
    # 系 "system" (CC-CEDICT) is also the "line" of 细胞系, which CC-CEDICT lacks
    judged = render("乳腺癌细胞系", attested=lambda term: term == "cell line")
    assert judged.english[0].endswith("cell line")


def test_a_cell_body_is_named_by_the_osome_word_the_judge_knows() -> None:
    known = {"autophagosome", "endosome", "exosome"}
    assert render("自噬体", attested=lambda term: term in known).english[0] == "autophagosome"
    assert render("内体", attested=lambda term: term in known).english[0] == "endosome"
    # 外|泌|体: the lone verb character between the part and the head is in the English ending
    exosome = render("外泌体", attested=lambda term: term in known)
    assert exosome.english[0] == "exosome"
    assert exosome.guesses == 0  # its characters are no guesses once the word is attested
    assert render("外泌体", attested=lambda term: False).guesses == 3
    # no attested word: the parts stay as they are
    assert "osome" not in render("液态体", attested=lambda term: term in known).english[0]


def test_a_phrase_holding_an_attested_neoclassical_word_is_one_term() -> None:
    known = {"exosome"}
    renderings = render_phrase("肿瘤细胞来源外泌体", attested=lambda term: term in known)
    assert [r.english[0] for r in renderings] == ["tumor cell-derived exosome"]


def test_source_before_a_head_is_derived_and_at_the_end_a_source() -> None:
    assert render("骨髓来源巨噬细胞").english[0] == "bone marrow-derived macrophage"
    assert render("数据来源").english[0] == "data source"


def test_a_morpheme_before_a_head_takes_its_greek_or_latin_form_where_the_judge_knows_the_term() -> None:
    known = {"lipopolysaccharide", "microglial cell", "acute myeloid leukemia"}
    judge = lambda term: term in known  # noqa: E731
    assert render("脂多糖", attested=judge).english[0] == "lipopolysaccharide"  # not "fat polysaccharide"
    assert render("小胶质细胞", attested=judge).english[0] == "microglial cell"  # not "small colloid cell"
    # a lineage after a tissue is its "-oid" adjective, inside a term the judge knows
    assert render("急性髓系白血病", attested=judge).english[0] == "acute myeloid leukemia"
    assert neoclassical.lineage_words("髓", "系") == ("myeloid",)
    assert neoclassical.lineage_words("淋巴", "系") == ("lymphoid",)
    assert neoclassical.lineage_words("细胞", "系") == ()  # a cell's 系 is its line (细胞系 "cell line")
    # the forms are no renderings of their own: with nothing attested the parts stay as they are
    assert render("脂多糖", attested=lambda term: False).english[0] != "lipopolysaccharide"
    assert render("脂多糖").english[0] == "fat polysaccharide"


def test_an_attested_word_of_several_chinese_words_is_the_agent_of_a_participle_whole() -> None:
    known = {"lipopolysaccharide", "acute lung injury"}
    judge = lambda term: term in known  # noqa: E731
    # the participle joined the last word only: "fat polysaccharide-induced"
    assert render("脂多糖诱导", attested=judge).english[0] == "lipopolysaccharide-induced"
    assert render("脂多糖诱导急性肺损伤", attested=judge).english[0] == (
        "lipopolysaccharide-induced acute lung injury"
    )
    assert render("机器人辅助手术", attested=judge).english[0].startswith("robot-assisted ")


def test_a_part_and_a_verb_of_arising_are_one_genesis_word_where_attested() -> None:
    # 神经|发生, 血管|新生, 骨|生成: English writes one "-genesis" word where Chinese writes the part and a
    # verb of arising, and the attested word keeps the phrase whole where a sentence cuts at the verb
    known = {"neurogenesis", "angiogenesis", "osteogenesis"}
    attested = lambda term: term in known  # noqa: E731
    assert render_phrase("神经发生", attested=attested)[0].english[0] == "neurogenesis"
    assert render_phrase("血管新生", attested=attested)[0].english[0] == "angiogenesis"
    assert render("骨生成", attested=attested).english[0] == "osteogenesis"
    # a word that gives no attested form stays as it was (患者 is no body part)
    assert "genesis" not in render("患者发生", attested=attested).english[0]


def test_a_tissue_and_mother_cell_is_its_blast_and_with_a_tumour_head_its_blastoma() -> None:
    # the tissue's Greek or Latin form (胶质 "glio+") or its sense's stem (retina -> retin-) and "-blast"
    assert neoclassical.blast_words("胶质", ("colloid",), tumour=True)[0] == "glioblastoma"
    assert "retinoblastoma" in neoclassical.blast_words("视网膜", ("retina",), tumour=True)
    assert "neuroblast" in neoclassical.blast_words("神经", ("nerve",), tumour=False)
    assert neoclassical.blast_head(["胶质", "母", "细胞", "瘤"], 1) == 3
    assert neoclassical.blast_head(["神经", "母", "细胞"], 1) == 2
    assert neoclassical.blast_head(["母", "细胞"], 0) == 0  # no tissue before it
    assert neoclassical.blast_head(["胶质", "细胞"], 1) == 0


def test_the_attested_blastoma_renders_the_compound_and_nothing_is_made_up_otherwise() -> None:
    known = {"glioblastoma", "neuroblastoma"}
    assert render("胶质母细胞瘤", attested=lambda term: term in known).english[0] == "glioblastoma"
    assert render("神经母细胞瘤患者", attested=lambda term: term in known).english[0] == (
        "neuroblastoma patients"
    )
    # a form the judge does not know stays the plain composition ("blastoma", not "mother cell tumor")
    assert "glioblastoma" not in render("胶质母细胞瘤", attested=lambda term: False).english[:1]


def test_a_localizer_after_a_thing_is_its_latin_prefix() -> None:
    # the prefix before the thing's word or its combining form with an adjective ending (guesses)
    assert "periodontal" in neoclassical.located_words(("tooth",), "周")
    assert neoclassical.located_words(("school age",), "前") == ("preschool age",)
    assert "postmenopausal" in neoclassical.located_words(("menopause",), "后")
    assert "intercostal" in neoclassical.located_words(("rib",), "间")
    # a prefix goes on a noun, not on the adjective of a two-word sense
    assert neoclassical.located_words(("medical treatment",), "前") == ()
    assert neoclassical.located_words(("tooth",), "的") == ()


class _Spelling:
    """A judge of phrases that spells a few words exactly, as `TermCompany` does from MeSH."""

    def __init__(self, words: set[str]) -> None:
        self.words = words

    def __call__(self, english: str) -> bool:
        return False

    def spells(self, word: str) -> bool:
        return word in self.words


def test_the_prefixed_word_the_judge_spells_renders_the_thing_and_its_localizer() -> None:
    judge = _Spelling({"periodontal", "preschool", "age", "children", "health"})
    assert render("牙周健康", attested=judge).english[0] == "periodontal health"  # not "tooth weekly health"
    assert render("学龄前儿童", attested=judge).english[0] == "preschool age children"
    # nothing spelled: no made-up word, the parts as they were
    assert not render("牙周健康", attested=_Spelling(set())).english[0].startswith("peri")
    assert not render("牙周健康").english[0].startswith("peri")


def test_inside_or_outside_an_organ_is_its_adjective_or_a_greek_or_latin_prefix() -> None:
    inside = neoclassical.located_words(("intestine",), "内")
    # the bare adjective of the organ's combining form ("enteral") after the prefixed forms, never before
    assert "enteral" in inside and inside.index("intraintestinal") < inside.index("enteral")
    outside = neoclassical.located_words(("intestine",), "外")
    assert {"extraintestinal", "parenteral"} <= set(outside)  # Greek para- elides its "a" before a vowel
    known = {"enteral", "parenteral", "nutrition"}
    judge = _Spelling(known)
    assert render("肠内营养", attested=judge).english[0] == "enteral nutrition"  # not "intestinal internal"
    assert render("肠外营养", attested=judge).english[0] == "parenteral nutrition"
