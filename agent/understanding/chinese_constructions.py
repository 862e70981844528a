"""Chinese constructions that give phrases their roles beyond "X对Y的影响" (rules fallback).

Why a module of its own: `chinese_phrases` cuts a description into phrases and reads its core
constructions; the passes here each read one more construction a searcher reads roles from, run in the
order `chinese_phrases` lists them, and only touch phrases no earlier evidence placed:

- conjuncts (A与B) share an outcome role (`shared_outcomes`);
- what follows 的 belongs to the thing before it, a property observed (`possessed_outcomes`), and that
  thing is what is studied (`owners_of_outcomes`);
- the level of a substance, or of anything in a body fluid, is a measured feature (`measured_substances`);
- what a measuring task verb (预测, 反演) acts on is also the outcome (`measured_objects`);
- "X对Y的响应" turns the roles of "X对Y的影响" round (`response_roles`);
- the variable of "Z的中介作用" is a measured feature (`mediators`);
- a model's name after 基于 before the method or task built on it is that model (`models_built_on`);
- a condition joined by 伴 or 合并 to people with another is theirs too (`comorbid_conditions`).
"""

from __future__ import annotations

from agent.understanding import lexicon as lex
from agent.understanding.chinese_evidence import (
    EFFECT_LINKS,
    OWN_SLOTS,
    mesh_trees,
    own_slot,
    zh_english,
    zh_people,
)
from agent.understanding.phrase import CJK, Phrase, join_zh
from agent.understanding.slot_evidence import acronym_slot, cue_slot, en_head_slot, mesh_kind, zh_head_slot


def shared_outcomes(phrases: list[Phrase]) -> list[Phrase]:
    """ "钙钛矿电池的稳定性与离子迁移机制", "活性位点与稳定性": conjuncts joined by 与/和/、 with no cue of
    their own share a role, as an English list does: next to an outcome (稳定性 "stability"), a phrase
    whose own words name no slot is an outcome too, not the setting it would be by default."""
    for index in range(1, len(phrases)):
        first, second = phrases[index - 1], phrases[index]
        if (
            second.after not in {*lex.ZH_AND, "、"}
            or first.cue is not None
            or second.cue is not None
            or first.slot is not None
            or second.slot is not None
        ):
            continue
        slots = (own_slot(first), own_slot(second))
        if slots == ("output_target", None):
            second.cue = "outcome"
        elif slots == (None, "output_target"):
            first.cue = "outcome"
    return phrases


def possessed_outcomes(phrases: list[Phrase]) -> list[Phrase]:
    """ "混凝土的抗压强度退化规律", "设施的可达性": the phrase after 的 is what belongs to the thing before
    it, a property observed of it; when its own words and its cue name no slot it is the outcome, not
    the setting a phrase with no evidence is by default (on the dev cases no such phrase was a setting)."""
    for phrase in phrases:
        if (
            phrase.after == "的"
            and phrase.slot is None
            and not (phrase.cue and phrase.cue.startswith("task:"))
            and cue_slot(phrase.cue, True) is None
            and own_slot(phrase) is None
        ):
            phrase.cue = "outcome"
    return phrases


def owners_of_outcomes(phrases: list[Phrase]) -> list[Phrase]:
    """ "花岗岩的地球化学特征", "微塑料的丰度和空间分布": the thing whose property is the outcome is what is
    studied (the slot convention: who or what is studied, materials and things included), not the setting
    a phrase with no evidence is by default; a people word or a place is left to its own evidence."""
    for index, phrase in enumerate(phrases[:-1]):
        owned = phrases[index + 1]
        if (
            phrase.slot is None
            and phrase.before == "的"
            and owned.after == "的"
            and "output_target" in (owned.slot, cue_slot(owned.cue, True))
            and owned.text not in lex.ZH_GENERIC  # 软骨厚度的变化: the change of an outcome, not a property
            and cue_slot(phrase.cue, True) is None
            and not (phrase.cue and phrase.cue.startswith("task:"))
            and own_slot(phrase) is None
            and not zh_people(phrase.text)
        ):
            phrase.slot = "subject_population"
    return phrases


# heads that make a substance's phrase the amount of it measured (血清尿酸水平, 血浆皮质醇浓度)
_AMOUNT_HEADS = ("水平", "浓度")
# body fluids a biomarker is measured in
_BODY_FLUIDS = ("血清", "血浆", "全血", "尿液", "脑脊液", "唾液")
_CHEMICALS_TREE = "D"  # MeSH: Chemicals and Drugs


# task cues that only measure (检测 "test for", 测定 "determine"): their object is what is measured
_MEASURING_CUES = frozenset({"task:检测", "task:测定", "task:测量"})


def measured_substances(phrases: list[Phrase]) -> list[Phrase]:
    """ "血清尿酸水平", "维生素D水平": the level of a substance, or of anything measured in a body fluid, is
    a feature measured (a biomarker, the signal slot), whatever the sentence makes of it (in "X水平与Y
    的关系" it is what predicts Y); "教育水平" (no substance) is left to the other evidence."""
    for phrase in phrases:
        text = phrase.text
        head = next((h for h in _AMOUNT_HEADS if text.endswith(h)), None)
        if (
            phrase.slot is not None
            or head is None
            or len(text) <= len(head)
            # "预测叶绿素浓度": what a task predicts; "检测血清维生素D水平": what is measured is the feature
            or ((phrase.cue or "").startswith("task:") and phrase.cue not in _MEASURING_CUES)
            or zh_people(text)
        ):
            continue
        substance = text[: -len(head)]
        if substance.startswith(_BODY_FLUIDS) or _is_chemical(substance):
            phrase.slot = "signal_feature"
    return phrases


def substances_in_media(phrases: list[Phrase]) -> list[Phrase]:
    """ "沉积物中重金属的空间分布", "土壤和水稻中镉、铅": a substance named right after "A中" is what is
    measured in A (the outcome), not the setting a chemical's descriptor alone would make it; a substance
    that acts ("饲料中添加益生菌对…", an exposure) or a task's object keeps its reading."""
    for phrase in phrases:
        if (
            phrase.slot is None
            and phrase.after == "中"
            and phrase.before != "对"
            and phrase.cue != "exposure"
            and not (phrase.cue or "").startswith("task:")
            and not zh_people(phrase.text)
            and _is_chemical(phrase.text)
        ):
            phrase.slot = "output_target"
    return phrases


def _is_chemical(chinese: str) -> bool:
    """True when the English rendering of a Chinese phrase ends with a MeSH descriptor of chemicals and
    drugs (尿酸 "uric acid", 皮质醇 "hydrocortisone")."""
    return any(tree.startswith(_CHEMICALS_TREE) for tree in mesh_trees(chinese))


# task verbs that put a number on their object (预测 "predict", 反演 "invert", 模拟 "simulate"): what they
# predict or simulate is also the outcome studied, as `slot_roles` reads "predicting compressive strength"
MEASURING_TASK_VERBS = frozenset({"预测", "预估", "估计", "估算", "模拟", "仿真", "反演", "量化"})


def measured_by_task(phrase: Phrase) -> bool:
    """The phrase is the object of a measuring task verb (估算|水稻叶面积指数): a quantity measured."""
    cue = phrase.cue or ""
    return cue.startswith("task:") and cue.removeprefix("task:") in MEASURING_TASK_VERBS


def measured_objects(phrases: list[Phrase]) -> list[Phrase]:
    """ "预测城市路网的短时交通流量", "预估极端降水的变化": the object of a measuring task verb is the task's
    object and, as a phrase of its own, the outcome (a searcher ANDs "traffic flow" whatever predicts
    it); people, methods and models stay what they are (预测|患者 names whom the task is for)."""
    out: list[Phrase] = []
    for phrase in phrases:
        out.append(phrase)
        task = phrase.cue.removeprefix("task:") if phrase.cue and phrase.cue.startswith("task:") else None
        if (
            task in MEASURING_TASK_VERBS
            and phrase.slot is None
            # one word alone is more often a piece the cut left (短时 of 短时交通流量) than a quantity
            and sum(bool(CJK.search(w)) for w in phrase.words) >= 2
            and zh_head_slot(phrase.text) is None
            and not zh_people(phrase.text)
        ):
            out.append(
                Phrase(phrase.text, None, list(phrase.words), slot="output_target", after=phrase.after)
            )
    return out


# "X对Y的响应": the word of a response, which turns the roles of "X对Y的影响" round
_RESPONSE_WORDS = frozenset({"响应", "反应"})


def response_roles(phrases: list[Phrase]) -> list[Phrase]:
    """ "土壤微生物群落对增温的响应", "植物物候对气候变化的响应": X responds to Y, so X is what is
    observed (the outcome) and Y what drives it (the setting), the roles of "X对Y的影响" turned round;
    people and methods keep their own slots. The response word itself names no concept and is left out
    (响应 alone renders as "answer")."""
    dropped: set[int] = set()
    for index, phrase in enumerate(phrases):
        if phrase.text not in _RESPONSE_WORDS or phrase.after not in EFFECT_LINKS or index < 2:
            continue
        drivers = [index - 1]
        while drivers[-1] > 0 and phrases[drivers[-1]].after in lex.ZH_AND:
            drivers.append(drivers[-1] - 1)  # "对温度和降水的响应": both drive it
        first = drivers[-1]
        if phrases[first].after != "对" or first < 1 or phrases[first - 1].before != "对":
            continue
        responders = [first - 1]
        while responders[-1] > 0 and phrases[responders[-1]].after in lex.ZH_AND:
            responders.append(responders[-1] - 1)
        for position, slot in [
            *((d, "context") for d in drivers),
            *((r, "output_target") for r in responders),
        ]:
            target = phrases[position]
            if (
                target.slot is None
                and not zh_people(target.text)
                and zh_head_slot(target.text) not in OWN_SLOTS
            ):
                target.slot = slot
        dropped.add(index)
    return [phrase for index, phrase in enumerate(phrases) if index not in dropped]


# the role of a mediator or a moderator ("自尊的中介作用", "以满意度为中介变量")
_MEDIATION_WORDS = frozenset(
    {"中介作用", "调节作用", "中介效应", "调节效应", "中介变量", "调节变量", "中介", "调节"}
)


def mediators(phrases: list[Phrase]) -> list[Phrase]:
    """ "自尊的中介作用", "心理韧性在其中的中介作用", "社会支持在压力与抑郁之间的调节作用", "以满意度为中介
    变量", "X对Y的调节作用": the variable that mediates or moderates a relation is a measured feature (the
    signal slot), as "the mediating role of self-esteem" is in English; people and methods keep their
    own slots."""
    for index, phrase in enumerate(phrases):
        if phrase.text not in _MEDIATION_WORDS or index == 0:
            continue
        variable = None
        if phrase.after == "为" and phrases[index - 1].cue == "以":
            variable = phrases[index - 1]  # 以Z为中介变量
        elif phrase.after == "的":
            # "Z在A与B之间的…", "Z在其中的…", "Z对Y的…": the phrase before the 在/对 that links the parts
            link = index - 1
            while link > 0 and phrases[link].after in {*lex.ZH_AND, "、"}:
                link -= 1
            if phrases[link].after in {"在", "对"} and link > 0 and phrases[link - 1].before in {"在", "对"}:
                variable = phrases[link - 1]
            elif phrases[index - 1].before == "的":
                variable = phrases[index - 1]  # "Z的中介作用"
        if (
            variable is not None
            and not zh_people(variable.text)
            and zh_head_slot(variable.text) not in OWN_SLOTS
        ):
            variable.slot = "signal_feature"
    return phrases


# verbs of telling a condition apart: a study that diagnoses, screens for or differentiates a condition
# studies the people who have it
_DIAGNOSTIC_VERBS = frozenset({"诊断", "筛查", "鉴别", "鉴别诊断", "检出", "识别"})


def condition_as_population(assigned: dict[str, list[str]], read: list[tuple[Phrase, str]]) -> None:
    """ "筛查糖尿病视网膜病变", "鉴别前列腺癌与良性前列腺增生": a Chinese description of diagnosis that
    names no people studies the condition it tells apart; a disease read as an outcome only by its own
    head word (no "X对Y的影响", no verb of change before it) is then who is studied, as a searcher's
    population block is."""
    if assigned["subject_population"] or not any(
        _DIAGNOSTIC_VERBS.intersection([*phrase.words, (phrase.cue or "").removeprefix("task:")])
        for phrase, _ in read
    ):
        return
    for phrase, slot in read:
        if (
            slot == "output_target"
            and phrase.slot is None
            and phrase.cue != "outcome"
            and CJK.search(phrase.text)
            and own_slot(phrase) == "output_target"
            and zh_head_slot(phrase.text) is None
            and _condition(phrase.text)
            and phrase.text in assigned["output_target"]
        ):
            assigned["output_target"].remove(phrase.text)
            assigned["subject_population"].append(phrase.text)


def conditions_in_settings(phrases: list[Phrase]) -> list[Phrase]:
    """ "在COPD急性加重住院患者中", "在湿热条件下": a condition named right after 在 is where the study
    looks, not what it measures: among (中) the people who have it, who are studied; under (下) it, the
    setting. "X在Y中的作用" has given its parts their roles already."""
    for phrase in phrases:
        if (
            phrase.slot is None
            and phrase.after == "在"
            and phrase.cue == "在"
            and not zh_people(phrase.text)
            and _condition(phrase.text)
        ):
            phrase.slot = "context" if phrase.before == "下" else "subject_population"
        elif (
            phrase.slot is None
            and phrase.after == "在"
            and phrase.cue == "在"
            and phrase.before == "中"
            and len(phrase.words) > 1
            and phrase.words[-1] in _CARE_OF_CONDITIONS
            and CJK.search(join_zh(phrase.words[:-1]))
            and _condition(join_zh(phrase.words[:-1]))
        ):
            # "VR暴露疗法在恐高症治疗中的应用", "X在糖尿病管理中的作用": in the care of a condition, the
            # condition names who is studied (the people who have it) and the care what the study is used in
            words = phrase.words[:-1]
            phrase.text, phrase.words, phrase.slot = join_zh(words), words, "subject_population"
        elif phrase.slot is None and phrase.before == "下" and not zh_people(phrase.text):
            # "热应激下奶牛…", "超声引导下…", "不同储存温度下…": under (下) what a phrase names, with 在 or
            # without it, is the condition the study happens in: its setting, whatever kind of word it is
            phrase.slot = "context"
    return phrases


# what is done for a condition (治疗 treatment, 防治 prevention and treatment, 管理 management, 护理 nursing care)
_CARE_OF_CONDITIONS = frozenset({"治疗", "诊治", "防治", "诊断", "护理", "管理", "康复", "筛查", "预防"})


def comorbid_conditions(phrases: list[Phrase]) -> list[Phrase]:
    """ "糖尿病伴高血压患者", "房颤合并CKD患者": 伴 and 合并 join a condition to another that the same
    people have, so the condition before the word belongs to who is studied, as the people after it do
    (it had been read alone, by its own head word, as an outcome)."""
    for first, second in zip(phrases, phrases[1:], strict=False):
        if (
            first.slot is None
            and first.before in lex.ZH_COMORBIDITY_LINKS
            and second.after == first.before
            and (zh_people(second.text) or second.slot == "subject_population")
            and CJK.search(first.text)
            and _condition(first.text)
        ):
            first.slot = "subject_population"
    return phrases


def _condition(text: str) -> bool:
    english = zh_english(text)
    return english is not None and mesh_kind(english) == "condition"


# how many phrases after "基于X的" may name the method or task built on X (基于YOLOv8的|无人机航拍图像|缺陷检测)
_BUILT_LOOKAHEAD = 2
_BUILT_SLOTS = frozenset({"method_algorithm", "task"})
_LIST_LINKS = frozenset({*lex.ZH_AND, "、"})


def models_built_on(phrases: list[Phrase]) -> list[Phrase]:
    """ "基于YOLOv8的…缺陷检测方法", "基于VQE的变分量子算法", "基于 U-Net 的 CT 图像肝脏肿瘤分割": a Latin name
    after 基于 that nothing marks as data or an instrument, before a method, model or task in the next
    phrases, is the model the proposed method is built on (an analysis method), not data it is based on
    ("基于 CHARLS 数据", "基于 fNIRS 的" keep their measurement)."""
    for index, phrase in enumerate(phrases):
        if (
            phrase.slot is not None
            or phrase.after != "基于"
            or CJK.search(phrase.text)
            or _measuring(phrase.text)
        ):
            continue
        following = phrases[index + 1 : index + 1 + _BUILT_LOOKAHEAD]
        if phrase.before not in {"的", None} or (following and following[0].after in _LIST_LINKS):
            continue  # "基于BIM和点云数据", "基于NASA-TLX与眼动追踪": one of a list, which its other items type
        if any(CJK.search(p.text) and zh_head_slot(p.text) in _BUILT_SLOTS for p in following):
            phrase.slot = "method_algorithm"
    return phrases


def _measuring(text: str) -> bool:
    words = text.split()
    slot = acronym_slot(text) if len(words) == 1 else None
    return "method_measurement" in {slot, en_head_slot(words), mesh_kind(text)}
