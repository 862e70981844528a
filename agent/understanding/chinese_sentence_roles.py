"""The roles a Chinese sentence gives the phrases `chinese_phrases` cut (rules fallback).

Why apart: cutting a sentence into phrases (where a phrase starts and ends, which word is a predicate or
a cue) and reading the roles of the cut phrases from the sentence around them are two jobs. These passes
run in order over the phrases of one text: a frame ("城市化进程中", "气候变化背景下") names the setting, data
written against what is studied in them ("视网膜眼底图像|糖尿病视网膜病变") are two phrases,
"A与B的关系" names an exposure and an outcome, "X对Y的影响/作用
/疗效" X as what acts and Y as what it acts on (in Y, "A中B" the thing studied and its property),
"X在Y中的作用" X acting in the processes Y, the expressed features of "检测A和B的表达", a drug or an
intervention after a cue of means as what is given, a list sharing its head word, a place opening a
phrase as the setting, a thing studied opening an outcome phrase as two concepts, the mechanism frame
"X通过Y调控Z" (`agent.understanding.chinese_mechanisms`); the passes of
`agent.understanding.chinese_constructions` follow them (`ROLE_PASSES`).
"""

from __future__ import annotations

from dataclasses import replace

from agent.language.chinese_segmentation import is_place_name
from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.chinese_constructions import (
    comorbid_conditions,
    conditions_in_settings,
    measured_by_task,
    measured_objects,
    measured_substances,
    mediators,
    models_built_on,
    owners_of_outcomes,
    possessed_outcomes,
    response_roles,
    shared_outcomes,
    substances_in_media,
)
from agent.understanding.chinese_evidence import (
    EFFECT_LINKS,
    OWN_SLOTS,
    mesh_trees,
    molecular_symbol,
    zh_english,
    zh_people,
)
from agent.understanding.chinese_mechanisms import mechanism_frames
from agent.understanding.phrase import CJK, Phrase, join_zh
from agent.understanding.slot_evidence import cue_slot, en_head_slot, mesh_kind, zh_head_slot

# the slots a head word gives a whole list ("A和B数据集": datasets A and B; "A和B特征": features)
_LIST_HEAD_SLOTS = frozenset({"method_measurement", "method_algorithm", "signal_feature"})


# heads of a frame around the study ("城市化进程中", "气候变化背景下", "湿热条件下", "在线学习环境下"): with the
# localizer after them they say the words before them are the setting, and add no concept of their own
_FRAME_HEADS = frozenset({"进程", "过程", "背景", "条件", "环境", "情境"})
_FRAME_LOCALIZERS = frozenset({"中", "下"})


def _frames(phrases: list[Phrase]) -> list[Phrase]:
    """ "城市化进程中…", "气候变化背景下…": the course, background or conditions a study happens in are its
    setting; the phrase is what names them (城市化 "urbanization", not "the course of urbanization")."""
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        if (
            phrase.slot is None
            and phrase.before in _FRAME_LOCALIZERS
            and len(words) > 1
            and words[-1] in _FRAME_HEADS
            and zh_content(words[-2])
            and not zh_people(join_zh(words[:-1]))
        ):
            phrase = replace(phrase, text=join_zh(words[:-1]), words=words[:-1], slot="context")
        out.append(phrase)
    return out


# a period of life before 期间 ("妊娠期间", "哺乳期间", "围绝经期间"): the state names who is studied (pregnant,
# lactating or perimenopausal women), while 期间 after an event (疫情期间, 住院期间, 化疗期间) only dates the
# study and the event keeps the role its words give it. The states are those MeSH files under Reproductive
# Physiological Phenomena (pregnancy, lactation, menstruation, menopause, puberty, the postpartum period),
# read from the word with 期 ("哺乳期" lactation) or, failing that, the word itself ("妊娠" pregnancy).
_PERIOD_WORDS = frozenset({"期间", "时期"})
_LIFE_PERIOD_TREE = "G08.686"


def _life_period(chinese: str) -> bool:
    return any(tree.startswith(_LIFE_PERIOD_TREE) for tree in mesh_trees(chinese))


def _period_inside(words: list[str]) -> int:
    """The index of a period word "X期" followed by 间 inside a phrase (jieba cuts 哺乳期|间, 围绝经期|间|女性,
    or keeps 哺乳期间 whole), -1 when there is none."""
    for index, word in enumerate(words):
        if len(word) > 2 and word.endswith("期间"):
            return index
        if len(word) > 1 and word.endswith("期") and index + 1 < len(words) and words[index + 1] == "间":
            return index
    return -1


def _life_periods(phrases: list[Phrase]) -> list[Phrase]:
    """ "妊娠期间…", "哺乳期间…": a state of life before 期间 is the population, named as its period (哺乳期);
    what follows 期间 in the same phrase (围绝经期间|女性) is a phrase of its own."""
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        if phrase.slot is not None or not words:
            out.append(phrase)
            continue
        index = _period_inside(words)
        if index >= 0:
            period = words[index][:-1] if words[index].endswith("期间") else words[index]
            rest = words[index + 1 :] if words[index].endswith("期间") else words[index + 2 :]
            if _life_period(period):
                head = [*words[:index], period]
                out.append(
                    replace(phrase, text=join_zh(head), words=head, slot="subject_population", before="期间")
                )
                if rest:
                    out.append(replace(phrase, text=join_zh(rest), words=rest, cue=None, after="期间"))
                continue
        elif phrase.before in _PERIOD_WORDS and CJK.search(words[-1]):
            with_period = [*words[:-1], words[-1] + "期"]
            if _life_period(with_period[-1]):
                phrase = replace(
                    phrase, text=join_zh(with_period), words=with_period, slot="subject_population"
                )
            elif _life_period(words[-1]):
                phrase = replace(phrase, slot="subject_population")
        out.append(phrase)
    return out


def _data_before_a_concept(phrases: list[Phrase]) -> list[Phrase]:
    """ "视网膜眼底图像|糖尿病视网膜病变", "遥感影像|小麦产量": a run of nouns written without a particle, whose
    data ends with the word of a kind of data (图像 images, 影像, 数据, 光谱) and goes on with a word MeSH
    names on its own (糖尿病 diabetes, 小麦 wheat), is two phrases: the data the study measures, and what
    it studies in them. A head word after the data word keeps the run whole (图像|分割 "image segmentation",
    信号|特征)."""
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        cut = next(
            (
                index + 1
                for index in range(len(words) - 1)
                if words[index] in lex.ZH_MEASUREMENT_HEADS
                and words[index + 1] not in lex.ZH_HEADS
                and zh_content(words[index + 1])
                and mesh_trees(words[index + 1])
            ),
            None,
        )
        if phrase.slot is not None or cut is None:
            out.append(phrase)
            continue
        data, rest = words[:cut], words[cut:]
        out.append(replace(phrase, text=join_zh(data), words=data, slot="method_measurement", before=rest[0]))
        out.append(replace(phrase, text=join_zh(rest), words=rest, cue=None, after=None))
    return out


def _shared_heads(phrases: list[Phrase]) -> list[Phrase]:
    """ "在 CIC-IDS2017 和 UNSW-NB15 数据集上", "随机森林和支持向量机模型": the head word after the last
    item of a list is the head of every item, so an item with no head of its own takes the slot it
    gives (a dataset, a model, a feature: "语音和面部表情特征"), as an English list shares its head noun."""
    for index in range(len(phrases) - 1, 0, -1):
        last = phrases[index]
        slot = zh_head_slot(last.text) if CJK.search(last.text) else None
        if slot not in _LIST_HEAD_SLOTS or last.after not in {*lex.ZH_AND, "、"}:
            continue
        position = index - 1
        while position >= 0:
            item = phrases[position]
            if item.slot is None and zh_head_slot(item.text) is None and not zh_people(item.text):
                item.slot = slot
            if item.after not in {*lex.ZH_AND, "、"}:
                break
            position -= 1
    return phrases


def _studied_thing(text: str) -> bool:
    """A Chinese phrase naming what is studied: people or organisms (冬小麦, 大学生), or a thing its head
    word makes a study object (铝合金 by 合金, 正极材料 by 材料), or its English rendering's head does, as
    in English (钢筋混凝土 "reinforced concrete", 沥青 "asphalt": a material or built thing)."""
    if zh_people(text) or (zh_head_slot(text) == "subject_population" and text not in lex.ZH_NOT_PEOPLE):
        return True
    words = (zh_english(text) or "").split()
    return bool(words) and singular(words[-1].lower()) in lex.EN_MATERIAL_HEADS


def _things_apart(phrases: list[Phrase]) -> list[Phrase]:
    """ "冬小麦产量", "铝合金接头疲劳寿命": an outcome phrase (or the object of a measuring task verb:
    "估算水稻叶面积指数") that opens with what is studied names the thing (who is studied) and its
    property (the outcome), two concepts a searcher ANDs, as "A中B" does."""
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        split = 0
        if phrase.slot in {None, "output_target"} and sum(bool(CJK.search(w)) for w in words) >= 2:
            for size in range(len(words) - 1, 0, -1):
                thing, rest = join_zh(words[:size]), join_zh(words[size:])
                if not (CJK.search(thing) and CJK.search(rest)) or not _studied_thing(thing):
                    continue
                # what a measuring task verb acts on is measured (估算|水稻叶面积指数: rice, leaf area index)
                outcome = (
                    phrase.slot == "output_target"
                    or zh_head_slot(rest) == "output_target"
                    or (phrase.slot is None and measured_by_task(phrase))
                )
                if outcome and not _studied_thing(rest):
                    split = size
                break
        if not split:
            out.append(phrase)
            continue
        studied, measured = words[:split], words[split:]
        out.append(Phrase(join_zh(studied), None, studied, slot="subject_population", after=phrase.after))
        # the object of a task verb that no head word types stays its object (the task "leaf area index
        # estimation"), which `measured_objects` makes the outcome too
        text = join_zh(measured)
        task_object = phrase.slot is None and measured_by_task(phrase) and zh_head_slot(text) is None
        slot = None if task_object else "output_target"
        out.append(Phrase(text, phrase.cue, measured, slot=slot, before=phrase.before))
    return out


# words after a place name that belong to it (长江|流域, 上海|中心城区, 青藏高原|东缘), and the nouns that make
# the word before them a place whatever jieba tags it (秦岭|地区, 京津冀|地区)
_PLACE_TAILS = lex.words(
    """
    地区 区域 流域 城区 中心城区 主城区 市区 郊区 辖区 中心 沿海 东部 西部 南部 北部 中部 东缘 西缘 南缘 北缘
    东北部 西北部 西南部 东南部 周边 境内 上游 中游 下游
    """
)
_PLACE_NOUNS = frozenset({"地区", "区域", "流域"})
# heads of instruments, surveys and cohorts whose names often open with a place (中国健康与营养调查,
# 匹兹堡睡眠质量指数): the place is part of the name there
_NAMED_INSTRUMENTS = frozenset({"调查", "指数", "量表", "问卷", "数据库", "队列", "研究", "项目"})


def _place_length(words: list[str]) -> int:
    """How many leading words of a phrase name a place (长江流域|极端|降水: 1; 秦岭|地区|大熊猫: 2)."""
    size = 0
    while size < len(words) and (
        is_place_name(words[size]) or (size + 1 < len(words) and words[size + 1] in _PLACE_NOUNS)
    ):
        size += 1
    if size == 0:
        return 0
    while size < len(words) and words[size] in _PLACE_TAILS:
        size += 1
    return size


def _places_apart(phrases: list[Phrase]) -> list[Phrase]:
    """ "长江流域极端降水", "青藏高原草甸退化": a place name opening a phrase is where the study is (the
    setting), and what follows it is the concept, in the slot the phrase had (a searcher writes the place
    as a block of its own, not as a word of the concept)."""
    out: list[Phrase] = []
    for phrase in phrases:
        size = _place_length(phrase.words)
        rest = phrase.words[size:]
        if (
            size
            and size == len(phrase.words)
            and phrase.slot is None
            and not any(zh_people(w) for w in phrase.words if w not in _PLACE_TAILS)
        ):
            # a phrase that is only a place (华南地区, 高原地区) is where the study is, whatever its cue
            out.append(replace(phrase, slot="context"))
            continue
        if (
            size == 0
            or not any(zh_content(w) for w in rest)
            or rest[-1] in _PLACE_TAILS  # 武汉市|主|城区: a part of the place is a place
            or _NAMED_INSTRUMENTS.intersection(rest)
        ):
            out.append(phrase)
            continue
        place = phrase.words[:size]
        out.append(Phrase(join_zh(place), None, place, slot="context", after=phrase.after))
        out.append(
            Phrase(
                join_zh(rest), phrase.cue, rest, slot=phrase.slot, after=phrase.after, before=phrase.before
            )
        )
    return out


def zh_content(word: str) -> bool:
    """A Chinese content word: not punctuation, a break word or whitespace."""
    return bool(CJK.search(word)) and word not in lex.ZH_BREAKS


def _relation_roles(phrases: list[Phrase]) -> list[Phrase]:
    """ "A与B的关系", "A和B的相关性", "A与B的队列研究": A is the exposure (the setting), B the outcome,
    unless their head words say otherwise."""
    for index, phrase in enumerate(phrases[1:], start=1):
        if (
            phrase.text in lex.ZH_FACTOR_WORDS
            and phrase.after == "的"
            and cue_slot(phrases[index - 1].cue, True) in {None, "context"}
        ):
            phrases[index - 1].cue = "outcome"  # "疫苗接种意愿的影响因素": what the factors act on
    for index, phrase in enumerate(phrases[2:], start=2):
        if (
            phrase.text in lex.ZH_RELATION_WORDS
            or phrase.text.endswith(lex.ZH_STUDY_ENDINGS)
            or phrase.before in lex.ZH_STUDY_ENDINGS
        ) and phrase.after in _RELATION_LINKS:
            second, first = phrases[index - 1], phrases[index - 2]
            if first.after == "的":
                continue  # "电池的稳定性与离子迁移": two properties of one thing, both studied
            if second.after in lex.ZH_AND and cue_slot(first.cue, True) is None:
                # the one that names an outcome or a condition is the outcome (护士职业倦怠与夜班频率:
                # burnout); when both or neither do, the written order decides
                if _outcome_like(first) and not _outcome_like(second):
                    first.cue, second.cue = "outcome", "exposure"
                else:
                    first.cue, second.cue = "exposure", "outcome"
    return phrases


# what joins "A与B" to the relation word: 的关系, 之间的关联, and the questions 有何关联, 有无关联, 存在关联
_RELATION_LINKS = frozenset({"的", "之间", "有何", "有无", "存在"})


# "A和B的表达": what is expressed is the measured feature (a gene, a protein), the bare head names nothing
_EXPRESSION_HEADS = frozenset({"表达", "表达水平", "表达量"})


def _expressed(phrases: list[Phrase]) -> list[Phrase]:
    """ "检测IL-6和TNF-α的表达": IL-6 and TNF-α are the features (biomarkers) measured; "炎症相关蛋白"
    joins its parts too. The bare head then names nothing of its own and is left out."""
    bare: set[int] = set()
    for index, phrase in enumerate(phrases):
        if phrase.text not in _EXPRESSION_HEADS or phrase.after != "的" or index == 0:
            continue
        position = index - 1
        while position >= 0:
            expressed = phrases[position]
            if expressed.slot is None and not zh_people(expressed.text):
                expressed.slot = "signal_feature"
                bare.add(index)
            if expressed.after not in lex.ZH_AND and expressed.after not in {"、", "相关"}:
                break
            position -= 1
    return [phrase for index, phrase in enumerate(phrases) if index not in bare]


def _given_things(phrases: list[Phrase]) -> list[Phrase]:
    """ "使用双膦酸盐", "采用针刺": after a cue of means, a phrase that MeSH files as a drug, chemical or
    intervention (its setting-like kind) is what is given, the exposure, not a method of observing."""
    for phrase in phrases:
        if (
            phrase.slot is None
            and phrase.cue in lex.ZH_METHOD_CUES
            and CJK.search(phrase.text)
            and zh_head_slot(phrase.text) is None
            and not zh_people(phrase.text)
        ):
            english = zh_english(phrase.text)
            if english and mesh_kind(english) == "context" and not is_place_name(phrase.text):
                phrase.cue = "exposure"
    return phrases


def _organism_models(phrases: list[Phrase]) -> list[Phrase]:
    """ "大鼠模型", "斑马鱼模型": a model made of an organism is who is studied, not an algorithm."""
    for phrase in phrases:
        rest = phrase.text.removesuffix("模型")
        if rest != phrase.text and CJK.search(rest) and phrase.slot is None and zh_people(rest):
            phrase.slot = "subject_population"
    return phrases


# inside "对Y的影响" the words that join the parts of Y (对A中B, 对A和B, 对患者的生活质量)
_OBJECT_LINKS = frozenset({"对", "中", "的", *lex.ZH_AND})
# what closes "X对Y的…" besides the relation words: an effect of some kind (保护作用, 治疗效果, 疗效)
_EFFECT_ENDINGS = ("作用", "效应", "效果", "影响", "疗效")


def _effect_word(text: str) -> bool:
    """影响, 作用, 保护作用, 疗效 ...: the word that closes "X对Y的影响"."""
    return text in lex.ZH_RELATION_WORDS or text.endswith(_EFFECT_ENDINGS)


def _effect_roles(phrases: list[Phrase]) -> list[Phrase]:
    """ "X对Y的影响/作用/效果": X is what acts (the exposure, the setting slot) and Y what it acts on (the
    outcome), whatever their head words say alone (超声处理 is no outcome there); in Y, "A中B" names the
    thing studied (A) and its property (B), and a people word stays who is studied. Sentence structure
    decides here because a searcher reads the roles from it, not from the words."""
    for index, phrase in enumerate(phrases):
        if phrase.after not in EFFECT_LINKS or not _effect_word(phrase.text):
            continue
        start = index - 1
        while start >= 0 and phrases[start].after in _OBJECT_LINKS and phrases[start].after != "对":
            start -= 1
        while start > 0 and phrases[start - 1].after == "对" and phrases[start - 1].before is None:
            start -= 1  # 对|老年人|睡眠质量: a people word split off the same object (or "、")
        if start < 1 or phrases[start].after != "对" or phrases[start - 1].before != "对":
            continue
        exposures = [start - 1]
        while exposures[-1] > 0 and phrases[exposures[-1]].after in lex.ZH_AND:
            exposures.append(exposures[-1] - 1)  # "X和Z对Y的影响": both act
        for position in exposures:
            acting = phrases[position]
            if molecular_symbol(acting.text):
                acting.slot = "signal_feature"  # FLT3-ITD突变对…的影响: a gene's variant studied, a feature
            elif not zh_people(acting.text) and zh_head_slot(acting.text) not in OWN_SLOTS:
                acting.slot = "context"
        for position in range(start, index):
            target = phrases[position]
            if zh_people(target.text) or zh_head_slot(target.text) in OWN_SLOTS:
                continue
            thing = target.before == "中" and position + 1 < index
            target.slot = "subject_population" if thing else "output_target"
    return phrases


_MAX_IN_PARTS = 6  # phrases between 在 and 中 in "X在Y中的作用" (a list of processes)


def _role_in_roles(phrases: list[Phrase]) -> list[Phrase]:
    """ "X在Y中的作用/影响/价值": X is what acts (the setting slot), and Y, between 在 and 中, what it acts
    in: the processes are outcomes, people and cells stay who is studied ("探讨lncRNA在结直肠癌细胞增殖、
    迁移和侵袭中的作用": lncRNA acts; proliferation, migration and invasion are observed)."""
    for index, phrase in enumerate(phrases):
        if phrase.after != "的" or not _effect_word(phrase.text) or phrases[index - 1].before != "中":
            continue
        start = index - 1
        while start > 0 and phrases[start - 1].before != "在" and index - start < _MAX_IN_PARTS:
            start -= 1
        if start < 1 or phrases[start - 1].before != "在":
            continue
        acting = phrases[start - 1]
        if molecular_symbol(acting.text):
            acting.slot = "signal_feature"  # TREM2在…中的作用: the gene whose role is studied, a feature
        elif not zh_people(acting.text) and zh_head_slot(acting.text) not in OWN_SLOTS:
            acting.slot = "context"
        for target in phrases[start:index]:
            if not zh_people(target.text) and zh_head_slot(target.text) not in OWN_SLOTS:
                target.slot = "output_target"
    return phrases


def _outcome_like(phrase: Phrase) -> bool:
    english = zh_english(phrase.text) if CJK.search(phrase.text) else phrase.text
    if not english:
        return False
    words = english.split()
    head = singular(words[-1].lower())
    return (
        en_head_slot(words) == "output_target"
        or head in lex.EN_CONDITION_HEADS
        or mesh_kind(english) in {"output_target", "condition"}
    )


# MeSH trees of techniques (diagnostic, laboratory, analytical: E01, E05, E07; mathematics and artificial
# intelligence: G17, L01) and the trees a technique's name may also sit in (statistics N05/N06, disciplines H)
_TECHNIQUE_TREES = ("E01", "E05", "G17.035", "L01.224")
_ALSO_TECHNIQUE_TREES = ("N05", "N06", "H", "J", "V")


def _technique(chinese: str) -> bool:
    """True when MeSH files the rendering of a phrase only as a technique (Western blot, flow cytometry,
    factor analysis, genetic algorithm), not also as a body function or substance measured (blood pressure,
    G09)."""
    english = zh_english(chinese) if CJK.search(chinese) else chinese
    if not english or english.split()[-1].lower() in lex.GENERIC_WORDS:
        return False  # 风险|预测 "risk prediction", 模式 "method": the object of the task, or no technique
    trees = mesh_trees(chinese)
    return any(t.startswith(_TECHNIQUE_TREES) for t in trees) and all(
        t.startswith(_TECHNIQUE_TREES + _ALSO_TECHNIQUE_TREES) for t in trees
    )


def _techniques_before_task_verbs(phrases: list[Phrase]) -> list[Phrase]:
    """ "Western blot检测", "流式细胞术检测", "因子分析识别", "遗传算法求解": a technique written before a task verb
    is the means the task is done by ("detected by Western blot"): the phrase names the technique, in the
    slot MeSH gives it, not a task of detecting the technique."""
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        rest = join_zh(words[:-1])
        if phrase.slot is None and len(words) > 1 and words[-1] in lex.ZH_TASK_HEADS and _technique(rest):
            english = zh_english(rest) if CJK.search(rest) else rest
            slot = mesh_kind(english) if english else None
            if slot in OWN_SLOTS:
                phrase = replace(phrase, text=rest, words=words[:-1], slot=slot)
        out.append(phrase)
    return out


# the head of "the characteristics of X" (分布特征, 地球化学特征) and what makes X its owner: 的 after X, or
# the pronoun 其 ("分析其时空变化特征")
_CHARACTERISTICS_HEAD = "特征"
_OWNER_LINKS = frozenset({"的", "其"})


def _characteristics_of_things(phrases: list[Phrase]) -> list[Phrase]:
    """ "微塑料的丰度和空间分布特征", "花岗岩的地球化学特征", "分析其时空变化特征": the characteristics a
    thing is studied for are what is measured (the outcome), not features given to a model ("融合文本和面部
    表情特征") or a signal's features ("脑电信号的时频特征", whose owner is a signal). The list sharing the
    head goes with it."""
    for index, phrase in enumerate(phrases):
        words = phrase.words
        if (
            len(words) < 2
            or words[-1] != _CHARACTERISTICS_HEAD
            or phrase.slot not in (None, "signal_feature")
        ):
            continue
        members = [index]
        while members[0] > 0 and phrases[members[0]].after in {*lex.ZH_AND, "、"}:
            members.insert(0, members[0] - 1)
        first = phrases[members[0]]
        if first.after not in _OWNER_LINKS:
            continue
        if first.after == "的" and members[0] > 0:
            owner = phrases[members[0] - 1]
            if "signal_feature" in (owner.slot, zh_head_slot(owner.text)):
                continue  # 脑电信号的时频特征: a signal's features
        for member in members:
            if phrases[member].slot in (None, "signal_feature"):
                phrases[member].slot = "output_target"
    return phrases


def _aspects_of_topics(phrases: list[Phrase]) -> list[Phrase]:
    """ "临床疗效及安全性", "低钙血症的发生率及危险因素", "保护作用及其机制": a noun naming an aspect of the
    topic before it (its safety, its risk factors, its mechanism; `lex.zh_aspect_word`) is what the study
    examines of that topic, an outcome, where it had been read as the setting or a feature by its place."""
    for phrase in phrases[1:]:
        if (
            phrase.slot is None
            and lex.zh_aspect_word(phrase.text)
            and phrase.after in lex.ZH_ASPECT_LINKS
            and phrase.before not in lex.ZH_RELATION_WORDS  # 稳定性与X的关系: a term related, not an aspect
        ):
            phrase.slot = "output_target"
    return phrases


# the passes that give phrases their roles from the sentence, in order
ROLE_PASSES = (
    _frames,
    _life_periods,
    mechanism_frames,
    _techniques_before_task_verbs,
    models_built_on,
    _data_before_a_concept,
    _given_things,
    _organism_models,
    _expressed,
    _relation_roles,
    _effect_roles,
    response_roles,
    _role_in_roles,
    conditions_in_settings,
    comorbid_conditions,
    mediators,
    _shared_heads,
    _characteristics_of_things,
    _aspects_of_topics,
    _places_apart,
    _things_apart,
    shared_outcomes,
    possessed_outcomes,
    owners_of_outcomes,
    measured_substances,
    substances_in_media,
    measured_objects,
)
