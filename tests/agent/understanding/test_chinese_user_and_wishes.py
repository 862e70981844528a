"""A Chinese clause about the user, the verb after a word of wishing, and a number's rank written apart
(rules fallback): sentences written for these tests, not evaluation cases.

"我是一名X，" / "作为一名X，" says who the user is and names no concept; the verb after 想/希望/打算 is the
wish's predicate (想|了解|X), no word of X's term; "2 型糖尿病" written with a space is still one term.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES
from agent.understanding.chinese_phrases import chinese_phrases
from agent.understanding.rules import extract_slots


def _terms(text: str) -> list[str]:
    slots = extract_slots(text)
    return [t for name in LIST_SLOT_NAMES for t in getattr(slots, name)]


def test_a_clause_naming_the_users_role_names_no_concept() -> None:
    for text, role in (
        ("我是一名儿科医生，我们研究哮喘儿童的吸入激素。", "儿科医生"),
        ("作为一名药师，我们研究老年人的多重用药。", "药师"),
        ("我们是一个护理团队，研究压疮的预防。", "团队"),
        ("本人是康复科医生，想了解经颅磁刺激对脑卒中后失语症的疗效。", "医生"),  # 本人, 笔者: the formal "I"
        ("笔者是一名护士，关注压疮预防。", "护士"),
    ):
        terms = _terms(text)
        assert not any(role in t for t in terms), (text, terms)
    assert "老年人" in _terms("作为一名药师，我们研究老年人的多重用药。")
    assert not any(
        t in {"本人", "笔者"}
        for t in _terms("笔者是一名护士，关注压疮预防。") + _terms("本人研究糖尿病足溃疡的护理。")
    )
    # 作为 with no person after it is no role ("作为干预措施")
    assert any("运动" in t for t in _terms("运动作为干预措施可以改善抑郁。"))


def test_the_verb_after_a_word_of_wishing_is_no_part_of_the_term() -> None:
    phrases = chinese_phrases("想了解二甲双胍能否降低心血管事件。")
    assert [p.text for p in phrases][:1] == ["二甲双胍"]
    assert not any("了解" in t for t in _terms("我想了解 HbA1c 检测用于筛查糖尿病。"))


def test_a_number_written_apart_before_its_rank_stays_in_the_term() -> None:
    assert any(t.startswith("2型糖尿病") for t in _terms("研究 2 型糖尿病患者的运动干预。"))


def test_a_request_for_papers_names_no_concept() -> None:
    """ "请检索X", "帮我找…的文献", "我想看看…的论文": the request and the papers asked for had become terms
    (检索 a task, "retrieval", searched as Tissue and Organ Harvesting; 论文 the object of a prediction)."""
    from agent.understanding.chinese_requests import without_requests

    assert without_requests("请检索二甲双胍治疗多囊卵巢综合征的随机对照试验。") == (
        "二甲双胍治疗多囊卵巢综合征的随机对照试验。"
    )  # the design asked for stays
    assert without_requests("帮我找一些关于正念训练对大学生焦虑影响的文献。") == "正念训练对大学生焦虑影响。"
    assert without_requests("我想看看机器学习预测脓毒症的论文") == "机器学习预测脓毒症"
    # a verb of the study itself, or one that reports, is no request
    for text in (
        "找到了三个相关基因。",
        "查体发现与预后的关系。",
        "我们检索了PubMed数据库。",
        "我们收集了500份问卷。",
    ):
        assert without_requests(text) == text
    terms = _terms("我想看看机器学习预测脓毒症的论文")
    assert not any("论文" in t or "检索" in t for t in terms)
    assert not any("检索" in t for t in _terms("请检索二甲双胍治疗多囊卵巢综合征的随机对照试验。"))


def test_a_word_opening_examples_is_no_term() -> None:
    """ "耐力表现，比如 time trial 成绩", "降糖药（例如二甲双胍）": "for example" had become the term
    "example" (or joined the example's term); what follows is still read as a term."""
    for text, example in (
        ("我们研究降糖药（例如二甲双胍）对老年人认知功能的影响。", "二甲双胍"),
        ("想了解运动干预对焦虑的效果，比如瑜伽和太极拳。", "瑜伽"),
        ("运动员补充膳食硝酸盐能否提高耐力表现，譬如 time trial 成绩？", "time trial"),
    ):
        terms = _terms(text)
        assert not any(marker in t for t in terms for marker in ("例如", "比如", "譬如")), (text, terms)
        assert any(example in t for t in terms), (text, terms)


def test_the_users_own_group_and_its_wish_name_no_concept() -> None:
    texts = [p.text for p in chinese_phrases("我们课题组拟开展一项实证研究，探讨社区老年人的跌倒风险。")]
    assert not any("课题组" in t or t == "拟" or "一项" in t for t in texts), texts
    texts = [p.text for p in chinese_phrases("本团队研究老年人跌倒的危险因素。")]
    assert not any("团队" in t for t in texts), texts


def test_a_question_pronoun_after_be_or_have_names_no_concept() -> None:
    # "X有哪些" asks which X there are: "有哪些" had become an outcome term, "危险因素有哪些" a phrase
    terms = _terms("儿童哮喘急性发作的诱发因素有哪些？")
    assert not any("哪些" in t for t in terms)
    assert not any("什么" in t for t in _terms("早产儿的最佳喂养方式是什么？"))
