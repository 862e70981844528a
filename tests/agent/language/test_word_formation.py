"""Chinese word formation English writes as one word: participle compounds and neoclassical endings.

Examples are phrases of their own, not evaluation cases; the judge is a small stand-in vocabulary.
"""

from __future__ import annotations

from agent.language import word_formation
from agent.language.bilingual import render
from agent.language.word_formation import fused_forms, participle


def test_a_participle_verb_counts_only_after_a_noun() -> None:
    assert participle(["机器人", "辅助"], 1) == ("assisted", 1)
    assert participle(["氮", "掺", "杂"], 1) == ("doped", 2)
    assert participle(["辅助", "治疗"], 0) is None
    assert participle(["语音", "解码"], 1) is None  # any other verb is its object's action


def test_fused_forms_are_guesses_with_shorter_stems() -> None:
    forms = fused_forms(("retina",), "病变")
    assert "retinopathy" in forms
    assert "melanoma" in fused_forms(("melanin",), "瘤")
    assert fused_forms(("retina",), "患者") == ()  # no neoclassical ending


def _known(term: str) -> bool:
    return term in {"melanoma", "diabetic retinopathy", "retinitis"}


def test_an_attested_fused_form_renders_the_head_morpheme_and_its_modifier() -> None:
    assert render("黑色素瘤", attested=_known).english[0] == "melanoma"
    assert render("视网膜炎", attested=_known).english[0] == "retinitis"


def test_a_fused_form_attested_inside_a_longer_term_is_used_there() -> None:
    assert render("糖尿病视网膜病变", attested=_known).english[0] == "diabetic retinopathy"
    assert render("糖尿病视网膜病变患者", attested=_known).english[0] == "diabetic retinopathy patients"


def test_unattested_fused_forms_are_never_rendered() -> None:
    rendering = render("肝脏病变", attested=_known)
    assert all("opathy" not in english for english in rendering.english)
    assert not any("oma" in english for english in render("黑色素瘤").english)  # no judge, no guess


def test_latin_adjectives_of_a_noun_are_guessed_most_likely_first() -> None:
    assert word_formation.adjective_guesses("ischemia")[0] == "ischemic"
    assert word_formation.adjective_guesses("prostate")[0] == "prostatic"
    assert "cortical" in word_formation.adjective_guesses("cortex")
    assert word_formation.adjective_guesses("coherence") == ("coherent",)
    assert word_formation.adjective_guesses("arm") == ()  # too short to guess
    assert len(word_formation.adjective_guesses("vertebra")) <= word_formation.MAX_ADJECTIVES


def test_action_nouns_a_verb_may_take_are_guessed() -> None:
    # the first guess is the usual noun; "survivation" after it is a guess nobody attests
    assert word_formation.action_noun_guesses("survive")[0] == "survival"
    assert word_formation.action_noun_guesses("resect")[0] == "resection"
    assert word_formation.action_noun_guesses("excise") == ("excision",)
    assert word_formation.action_noun_guesses("run") == ()
    assert "inhibition" in word_formation.action_noun_guesses("inhibit")
    assert "acceptance" in word_formation.action_noun_guesses("accept")
    assert "transmission" in word_formation.action_noun_guesses("transmit")


def test_the_silent_heads_are_bound_morphemes() -> None:
    assert {"期", "术"} <= word_formation.SILENT_HEADS


def test_an_omics_field_is_fused_where_the_judge_knows_it() -> None:
    # jieba cuts 蛋白质组学 into 蛋白质|组|学; the ending is "-omics", never "team science"
    known = {"proteomics", "metabolomics"}
    assert render("蛋白质组学", attested=known.__contains__).english[0] == "proteomics"
    assert render("代谢组学", attested=known.__contains__).english[0] == "metabolomics"
    assert render("蛋白质组学").english[0] == "protein omics"  # no judge: the plain composition
    assert "science" not in " ".join(render("文献计量学").english)  # 计量学 "-metrics"


def test_the_study_of_an_ome_is_its_omics() -> None:
    assert render("基因组学").english[0] == "genomics"  # genome + 学, not "genome science"
    assert render("转录组学").english[0] == "transcriptomics"


def test_a_bound_ending_needs_a_word_before_it() -> None:
    assert word_formation.bound_ending(["组", "学"], 0) is None
    assert word_formation.bound_ending(["蛋白质", "组", "学"], 1) == ("组学", "omics", 2)


def test_action_nouns_in_ivation_and_ectation_are_guessed() -> None:
    assert "deprivation" in word_formation.action_noun_guesses("deprive")
    assert "expectation" in word_formation.action_noun_guesses("expect")
    assert render("睡眠剥夺", attested={"sleep deprivation"}.__contains__).english[0] == "sleep deprivation"


def test_yang_before_a_head_makes_a_like_compound() -> None:
    # 样 after a noun and before a head is English "-like" (焦虑|样|行为 "anxiety-like behavior"), not the
    # noun "pattern"; at the end of a phrase it is no such word
    assert participle(["焦虑", "样", "行为"], 1) == ("like", 1)
    assert participle(["焦虑", "样"], 1) is None
    assert render("抑郁样症状").english[0].startswith("depress")
    assert "-like " in render("抑郁样症状").english[0]


def test_a_verb_in_vent_takes_its_noun_in_vention() -> None:
    # prevent -> prevention, invent -> invention (the noun a term's head needs: 疾病|预防 "disease prevention")
    assert "prevention" in word_formation.action_noun_guesses("prevent")
    assert word_formation.action_noun_guesses("vent") == ()  # no stem before the ending
