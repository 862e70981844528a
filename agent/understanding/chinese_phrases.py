"""Where a Chinese phrase starts and ends, and the cue each phrase gets from the words before it
(rules fallback).

A description is segmented first, by jieba re-cut with the dictionary (`agent.language.chinese_segmentation`).
A Chinese phrase ends after a people word (高血压患者|夜间血压) and before a predicate inside a noun run
(数据|来自|...), a verb opening a clause (or its object opening with a measure word: 提出|一种, or
written apart after an English phrase: "GNN 代替 DFT") is its predicate, as is a verb with an aspect
particle (揭示|了); a time span, a count of things (35|个) and a modal word (可能) end a phrase; "X如何影响Y" and a
verb of change ("X是否缩小了Y", known by its dictionary sense where the sentence marks a predicate)
relate what acts and what is acted on, as "X对Y的影响" does; what treats (针刺治疗Y) is given. The roles
the sentence gives the cut phrases ("A与B的关系", "X对Y的影响", places, shared heads, and the
constructions of `agent.understanding.chinese_constructions`) are read afterwards by the passes of
`agent.understanding.chinese_sentence_roles`. Chinese phrases stay Chinese here:
`agent.understanding.slot_translation` renders them after they are put in slots; `zh_english` renders
one only to classify it (MeSH as judge).
"""

from __future__ import annotations

import re
from functools import cache

from agent.language.cedict import dictionary_senses
from agent.language.chinese_segmentation import segment
from agent.language.chinese_sentences import is_verb, nominal_use
from agent.language.morphology import is_acronym
from agent.understanding import lexicon as lex
from agent.understanding.chinese_evidence import (
    mesh_trees,
    names_a_kind,
    names_persons,
    one_term,
    own_slot,
    zh_english,
    zh_people,
)
from agent.understanding.chinese_sentence_roles import ROLE_PASSES, join_zh, zh_content
from agent.understanding.phrase import CJK, Phrase
from agent.understanding.slot_evidence import acronym_slot, en_head_slot, mesh_kind, zh_head_slot

__all__ = ["change_verb", "chinese_phrases", "jieba_words", "zh_english", "zh_people"]


def jieba_words(text: str) -> list[str]:
    """The words of `agent.language.chinese_segmentation` (jieba re-cut by the dictionary, so 卒中 "stroke" is one word),
    whole words kept whole (飞行器 "aircraft": 飞行 "to fly" is no predicate inside it); a run of whitespace is kept as one " " (it can separate an English and a Chinese word)."""
    return segment(text, keep_space=True, whole_words=True)


def chinese_phrases(text: str) -> list[Phrase]:
    phrases: list[Phrase] = []
    current: list[str] = []
    cue: str | None = None
    after: str | None = None  # the break word just before the phrase (与 in "A与B的关系")
    spaced = False
    latin_after_chinese = False  # the Latin phrase being read came right after a Chinese word
    about_user = False  # the clause says who the user is ("我是一名麻醉科医生，"): no concept until it ends

    def flush() -> None:
        nonlocal current, latin_after_chinese
        # a phrase of English words only is the English pass's to read, unless a Chinese cue stands
        # before it ("用 XRD 和 SEM 表征": the cue 用 says they are the methods)
        latin = latin_after_chinese and cue is not None and not cue.startswith("task:")
        if current and (CJK.search("".join(current)) or latin):
            phrases.append(
                Phrase(join_zh(current), "self" if about_user else cue, list(current), after=after)
            )
        current = []
        latin_after_chinese = False

    tokens = jieba_words(text)
    index = -1
    while index + 1 < len(tokens):
        index += 1
        word = tokens[index]
        following = next((t for t in tokens[index + 1 :] if t != " "), "。")
        if _combines_terms(tokens, index, current):
            word = "和"  # "降钙素原联合C反应蛋白", "rTMS)联合吞咽训练": "combined with" joins two terms, as 和 does
        if word == " ":
            spaced = True
            continue
        if (
            spaced
            and current
            and current[-1].isascii() != word.isascii()
            and (word not in lex.ZH_HEADS or word in lex.ZH_TASK_HEADS)
            and ((cue or "").startswith("task:") or not _symbol_and_its_kind(current, word))
            and not (current[-1].isdigit() and word in _RANK_NOUNS)
        ):
            # "mobile phone data 分析", "SEM 表征 MOF": a space between scripts ends a phrase, unless a
            # noun head follows ("EEG 信号") or the noun of a symbol's kind ("SGLT2 抑制剂")
            flush()
        glued_letter = (
            len(word) == 1
            and word.isupper()
            and bool(current)
            and bool(CJK.search(current[-1]))
            and not spaced
        )  # 双酚A, 维生素A: a capital letter written against a Chinese word is part of it, not "a"
        spaced = False
        if _glossing_acronym(tokens, index, current) is not None:
            # "急性髓系白血病(AML)患者": an English acronym in brackets right after a Chinese term is the
            # term's own short form, no break: the phrase goes on (患者); `rules` writes it beside the term
            index += 2
            continue
        if not any(ch.isalnum() for ch in word):
            flush()
            about_user = False  # "我是一名全科医生，想了解…": the user's role ends with its clause
            if word in ".;!?。；！？":
                cue = after = None
            elif word in ",，" and cue and cue.startswith("task:"):
                cue = None  # "采用准实验设计，干预组…": a task verb's object does not cross a comma
            continue
        if word in _BE_OR_HAVE and _next_word(tokens, index) in _QUESTION_PRONOUNS:
            # "X的危险因素有哪些？", "X是什么": the question asks what the phrase before names; "are
            # there which" is no term
            flush()
            index = tokens.index(_next_word(tokens, index), index + 1)
            continue
        if word in _EXAMPLE_MARKERS:
            # "耐力表现，比如 time trial 成绩", "降糖药（例如二甲双胍）": "for example" names no concept (比如
            # had become the term "example"); what follows are kinds of what came before, cued as the
            # English "e.g." is
            flush()
            cue = after = "example"
            continue
        if (
            word.isascii()
            and not glued_letter
            and (
                word.lower() in lex.EN_FUNCTION
                or word.lower() in lex.EN_VERBS
                or word.lower() in lex.EN_COMMON_VERBS
            )
        ):
            latin_after_chinese = False  # "分析 land use change": an English phrase, the English pass's
            flush()  # "We analyse 城市热岛效应": English grammar words are no part of a Chinese term
            continue
        if (word.isdigit() or word in _CHINESE_NUMERALS) and following in _MEASURE_WORDS:
            flush()  # "35个|大中城市", "500份|问卷", "一|项|实证研究": a count of things is no part of what is counted
            index = tokens.index(following, index + 1)
            continue
        if (age_end := _age_span_end(tokens, index)) is not None:
            flush()  # 深圳市|18~35岁|青年, 65岁以上|老年人: an age or age range bounds who is studied, no term
            index = age_end
            continue
        if word.isdigit() and following in lex.ZH_TIME_UNITS:
            flush()  # 患者|30天|再入院率: a time span also ends the phrase before it
            index = tokens.index(following, index + 1)  # "21世纪", "10年": a time span, not a concept
            if _next_word(tokens, index) in _TIME_LOCALIZERS:
                index = tokens.index(_next_word(tokens, index), index + 1)  # 孕12周|前: when, no term
            continue
        if (
            word in _TIME_LOCALIZERS
            and current
            and len(current[-1]) > 1  # 短|时 "short-term", 睡|前: a lone character and 时 are one word
            and (
                not zh_content(following)
                or _is_predicate(following)
                or current[-1].endswith("术")
                # TIP(术)|后|尿道瘘: an operation named by its Latin acronym (see `chinese_segmentation`)
                or (current[-1].isascii() and is_acronym(current[-1]))
            )
        ):
            # "在分娩|时", "新辅助放化疗|后|的": the word that makes a phrase a time ("when", "after")
            # closes it; the event it names is the term. An operation (甲状腺全切除术|后|患者) is a time
            # whatever follows: what follows is observed after it
            flush()
            continue
        if word in lex.ZH_FACTOR_WORDS and len(word) > 2 and current and CJK.search(current[-1]):
            # "公务员职业倦怠影响因素研究" as "公务员职业倦怠的影响因素": the factors are a phrase of their own, and
            # what they act on the outcome (see `chinese_sentence_roles`), not one run "burnout influencing factor";
            # a bare 因素 is the head of its compound (驱动|因素 "driving factors", 风险|因素 "risk factors")
            flush()
            after = "的"
            current.append(word)
            continue
        if word in _TASK_ADVERBS and current and following in lex.ZH_TASK_HEADS:
            continue  # "肺炎自动检测": the adverb only says how; the task word heads the phrase before it
        if word in lex.ZH_TASK_HEADS and not current and following in _MODIFIED_HEADS:
            # "预测|生物标志物", "预测|模型": before a feature or model head the task word modifies it
            # ("predictive biomarkers", "prediction model"); it takes no object
            current.append(word)
            continue
        if word in lex.ZH_TASK_HEADS:
            if current and zh_head_slot(join_zh(current)) not in {"method_algorithm", "method_measurement"}:
                # after a noun, the task word is the head of a task phrase ("结节检测")
                current.append(word)
                flush()
                cue = None
            else:
                # after a method, or on its own, it is the verb of the phrase that follows ("预测癫痫发作")
                flush()
                cue = f"task:{word}"
            continue
        if word in _CASE_WORDS and current and after == "以":
            # "以武汉市为例": what the study takes as its case is the setting (people stay who is studied)
            flush()
            if phrases and not zh_people(phrases[-1].text):
                phrases[-1].slot = "context"
            cue = after = None
            continue
        if word in _RECRUIT_VERBS and any(ch.isalnum() for ch in following):
            # "回顾性纳入慢性乙型肝炎患者", "招募大学生": who is included or recruited is who is studied
            flush()
            cue = after = "针对"
            continue
        if word in {"是", "为"} and join_zh(current) in lex.ZH_SUBJECT_NOUNS:
            current = []  # "研究对象是农村老年人", "被试为大学生": who is studied follows
            cue = after = "针对"
            continue
        previous = next((t for t in reversed(tokens[:index]) if t != " "), "")
        if _user_role_opens(tokens, index):
            # "我是一名麻醉科医生，", "我们是一个护理团队，", "作为一名药师，": who the user is names no concept
            flush()
            about_user = True
            continue
        if word in _USER_GROUPS and previous in _USER_SUBJECTS | {"本"}:
            # "我们课题组拟…", "本团队…": the user's own group is who speaks, no concept studied
            flush()
            continue
        if not current and word in _WISHING and (previous in _USER_SUBJECTS or previous in _USER_GROUPS):
            continue  # "我们|拟|开展…": the speaker's wish is no term; the verb after it is the predicate
        if (
            (
                word in _EFFECT_VERBS
                or word in lex.ZH_CHANGE_VERBS
                # a verb of change the list does not name is a predicate only where the sentence marks
                # one (是否|缩小|了): inside a noun run it is a compound's part (容量|衰减|机理)
                or (
                    change_verb(word)
                    and (previous in _MODALS or _next_word(tokens, index) in _ASPECT_PARTICLES)
                )
            )
            # the object may open with a number or a Latin word ("改善2型糖尿病患者的…")
            and _object_start(_after_particles(tokens, index))
            and (
                current
                or (word in _EFFECT_VERBS and previous in _BEFORE_PREDICATES)
                # "X是否能改善Y": the modal words between X and the verb
                or (previous in _MODALS and bool(phrases) and phrases[-1].before in _MODALS)
            )
        ):
            # "X如何影响Y", "X是否影响Y", "X影响Y", "X能否降低Y": X acts (the setting) and Y is acted on (the
            # outcome), as in "X对Y的影响"; people stay who is studied
            flush()
            if phrases and phrases[-1].slot is None and not zh_people(phrases[-1].text):
                phrases[-1].cue = "exposure"
                if zh_head_slot(phrases[-1].text) == "output_target":
                    # "有氧运动是否能改善Y": what acts is the exposure whatever its head word says alone
                    # (运动 heads outcomes such as 眼球运动), as in "X对Y的影响"
                    phrases[-1].slot = "context"
            cue = "outcome"
            after = word
            while index + 1 < len(tokens) and tokens[index + 1] in {"了", "着", "过", " "}:
                index += 1  # 加剧|了: the particle keeps the verb's cue
            continue
        if (
            not current
            and (previous in _MODALS or previous in _TIME_LOCALIZERS or previous in _WISHING)
            and len(word) > 1
            and _is_predicate(word)
            and _object_start(_after_particles(tokens, index))
        ):
            # "是否会|缩短|青少年的睡眠时长", "出院后|接受|电话随访": a verb after a modal word or after the
            # time word closing a phrase is the predicate, not a term's word
            cue = after = word
            continue
        if (
            current
            and len(word) > 1
            and CJK.search(word)
            and _is_predicate(word)
            and index + 2 < len(tokens)
            and tokens[index + 1] == " "
            and tokens[index + 2][:1].isascii()
            and tokens[index + 2][:1].isalnum()
        ):
            # "数据|覆盖 2010—2022 年", "我们|使用 GNN": a verb written apart before an English or numeric
            # object is the predicate, no part of the phrase before it
            flush()
            cue = after = word
            continue
        if word in lex.ZH_FOCUS_ADVERBS and _next_word(tokens, index) in lex.ZH_FOCUS_VERBS:
            # "重点关注城市社区": before a verb of attention the word says how closely the study looks
            # (重点 is "key point" alone), no part of a term; the verb is the cue
            had_phrase = bool(current)
            flush()
            if had_phrase and phrases:
                phrases[-1].before = word
            continue
        if word in _MODALS and word not in lex.ZH_BREAKS:
            # "可能与下地壳流有关", "乳酸清除率可能是…": a modal word says how sure, it is no part of a term
            had_phrase = bool(current)
            flush()
            if had_phrase and phrases:
                phrases[-1].before = word
            continue
        if (
            current
            and len(word) > 1
            and _is_predicate(word)
            and _next_word(tokens, index) in _ASPECT_PARTICLES
            # after the particle the object begins, whatever its first word (揭示了|中|下地壳…)
            and (
                _object_start(_after_particles(tokens, index)) or CJK.search(_after_particles(tokens, index))
            )
        ):
            # "结果揭示了…的分布": a verb with an aspect particle is the predicate even after one word
            flush()
            cue = after = word
            while index + 1 < len(tokens) and tokens[index + 1] in {"了", "着", "过", " "}:
                index += 1
            continue
        if current and current[-1][-1:].isalnum() and nominal_use(word, following):
            current.append(word)  # 短视频|使用|时长, 抗菌药物|使用|强度: the noun "use" inside a term, no cue
            continue
        if _latin_modifier_glued(tokens, index, current):
            # meta|分析, logistic|回归: the verb is the noun a Latin modifier qualifies
            current.append(word)
            continue
        if word in lex.ZH_BREAKS:
            if word == "的" and current and cue and cue.startswith("task:") and zh_content(following):
                # "模拟黄河上游的径流变化": under a task verb, the phrase before 的 only says whose
                # object it is (the setting); the task goes on to the phrase after it
                task_cue, cue = cue, None
                flush()
                cue = task_cue
            else:
                had_phrase = bool(current)
                flush()
                if had_phrase and phrases:
                    phrases[-1].before = word
            if word not in lex.ZH_TRANSPARENT:
                cue = word
            elif (
                word == "的"
                and cue in lex.ZH_POPULATION_CUES
                and phrases
                and phrases[-1].cue == cue
                and own_slot(phrases[-1]) == "subject_population"
            ):
                # "针对金属有机框架材料的CO2吸附": after things its own words say are studied, what follows 的
                # is theirs (a property, a process), not more things studied
                cue = word
            after = word
            continue
        if (
            word in lex.ZH_TREAT_VERBS
            and current
            # the object may open with a number or a Latin word (治疗|2型糖尿病, 治疗|COPD)
            and _object_start(following)
            # 治疗|失败 "treatment failure", 治疗|方案: the noun "treatment" heading a known term, no verb
            and not one_term(word + following)
        ):
            # "针刺治疗慢性失眠": what treats is given (the setting), what is treated is who is studied; an
            # organism or cells that treat (黄芪治疗…, CAR-T细胞治疗…) are given too: only persons stay people
            cue = "exposure"
            flush()
            if phrases and not names_persons(phrases[-1].text):
                phrases[-1].slot = phrases[-1].slot or "context"
            cue = after = "针对"
            if following in _TIME_LOCALIZERS:
                # "二甲双胍治疗后|患者的血糖", "CAR-T细胞治疗后|细胞因子释放综合征": the treatment is a time, what
                # follows is observed after it, not treated by it (and 后 no first word of it)
                index = tokens.index(following, index + 1)
                cue = after = following
            continue
        if (
            len(current) >= 2
            and len(word) > 1  # a lone character is more often a piece of an unknown word (右美托咪定)
            and CJK.search(word)
            and zh_content(following)
            and (_is_predicate(word) or _analysis_verb(word))
            and not _is_predicate(following)  # 写作|教学: a verb before a verb is a compound noun
            and following not in _BOUND_SUFFIXES  # 置换|术, 切除|术: a verb before a suffix is a noun
            # 变形|机理, 降解|过程: a verb before a noun of how it happens is that noun's modifier
            and following not in _PROCESS_NOUNS
        ):
            # a verb after a subject of two words or more, before its object, is the predicate
            # (数据|来自|..., 模式|数据|预估|...): it ends the phrase and is the cue of the next one
            flush()
            cue = after = word
            continue
        if (
            not current
            and _clause_start(tokens, index)
            and CJK.search(word)
            # "，提出一种…方法": a measure word opening the object counts as its start
            and (zh_content(following) or following in _DETERMINERS)
            # 依托|咪|酯: a verb before a lone character is more often a piece of an unknown word
            and (len(following) > 1 or _analysis_verb(word))
            and (_is_predicate(word) or _analysis_verb(word))
            and not _is_predicate(following)
            and following not in lex.ZH_HEADS  # 针刺|治疗: a verb before a head word is a compound
        ):
            # a verb opening a clause before its object is the predicate (，检验|心理韧性, 并收集|病史):
            # the object is the term, the verb its cue
            cue = after = word
            continue
        if not current and _clause_start(tokens, index) and _survey_verb(word, following):
            # "调查深圳市青年人群的…": a verb of surveying opening a clause is the predicate, not a term's
            # first word (it is a noun before a head: 调查|问卷, 调查|数据)
            cue = after = word
            continue
        if (
            not current
            and _after_spaced_latin(tokens, index)
            and len(word) > 1
            and CJK.search(word)
            and _is_predicate(word)
            and _object_start(following)
            and not _is_predicate(following)
            and following not in lex.ZH_HEADS
        ):
            # "使用 GNN 代替 DFT 计算", "eDNA metabarcoding 调查长江中游…": a Chinese verb written apart
            # after an English subject or means, before its object, is the predicate, not a term's word
            cue = after = word
            continue
        if not current and word.isascii():
            previous = next((t for t in reversed(tokens[:index]) if t != " "), "")
            latin_after_chinese = bool(CJK.search(previous))
        current.append(word)
        if (
            (len(word) > 1 or not CJK.search(word))  # 咪 "cat" inside 右美托咪定 heads nothing
            and zh_people(word)
            and zh_content(following)
            # 患者|治疗: a head word after people is theirs, unless it opens a known term (治疗失败)
            and (following not in lex.ZH_HEADS or _opens_with_term(tokens, index + 1))
            and not _inside_people_phrase(tokens, index + 1)
            and not one_term(word + following)
            # 胶质|母细胞|瘤 "glioblastoma": the cell word is inside a term the words before it open
            and not (len(current) > 1 and one_term(join_zh(current[-2:]) + following))
            and (
                _has_evidence(_rest_of_run(tokens, index + 1))
                or _opens_with_condition(tokens, index + 1)
                or _opens_with_term(tokens, index + 1)
                or _opens_with_anatomy(tokens, index + 1)
                or _opens_with_operation(tokens, index + 1)
                or sum(bool(CJK.search(w)) for w in current) >= 3  # 糖尿病|视网膜病变|患者: described people
            )
        ):
            # a people word heads its own phrase (高血压患者|夜间血压, 大学生|手机成瘾): the next phrase
            # keeps the cue
            flush()
        elif zh_people(word) and CJK.search(word) and _symbol_before_chinese(tokens, index + 1):
            # 水稻|OsWRKY45基因, 儿童|RSV感染, 猪|MSTN基因: the organism or people a gene, virus or protein
            # symbol is written against are who is studied, as when a space parts them ("儿童 RSV 感染")
            flush()
    flush()
    for step in ROLE_PASSES:
        phrases = step(phrases)
    return phrases


# bound morphemes that make a noun of the verb before them (置换|术 "replacement surgery", 抑制|剂
# "inhibitor", 检出|率 "detection rate", 学习|者 "learners"): such a verb is no predicate
_BOUND_SUFFIXES = frozenset("术剂率者法性化症炎")
# nouns of how an action happens, that the verb before them modifies (变形机理 "deformation mechanism",
# 降解过程 "degradation process", 迁移规律 "migration pattern"): the verb is no predicate there
_PROCESS_NOUNS = frozenset({"机理", "机制", "过程", "规律", "动力学", "行为", "特性"})

# adverbs between a noun and its task word (肺炎|自动|检测)
_TASK_ADVERBS = frozenset({"自动", "自动地", "快速", "实时"})
# heads a task word before them modifies rather than takes as its object (预测模型, 诊断标志物)
_MODIFIED_HEADS = lex.ZH_FEATURE_HEADS | lex.ZH_ALGORITHM_HEADS


_ASPECT_PARTICLES = frozenset({"了", "着", "过"})
# words after an event or a time span that make it a time: "when", "after", "before" (分娩时, 治疗后, 12周前)
# (手术|前后 "before and after surgery" as well)
_TIME_LOCALIZERS = frozenset({"时", "后", "前", "之后", "之前", "以后", "以前", "以内", "内", "前后"})
# measure words after a number that count things (35个城市, 500份问卷, 2000名孕妇)
_MEASURE_WORDS = frozenset("个种项名例位所家座只份组类次批株头篇")
_CHINESE_NUMERALS = frozenset("一二两三四五六七八九十百千几数")
# the marks of a range between two numbers (18~35岁, 60至79岁, 18—65岁) and the words after an age that
# bound it (65岁以上)
_RANGE_MARKS = frozenset({"至", "到", "~", "～", "-", "—", "–", "－"})
_AGE_BOUNDS = frozenset({"以上", "以下", "及以上", "及以下", "以内", "左右", "之间"})
_NUMBER_OR_RANGE = re.compile(r"^\d+(?:\.\d+)?(?:[-–—~～]\d+(?:\.\d+)?)?$")
# verbs of surveying that are nouns of a method too (调查 "survey", "to investigate")
_SURVEY_VERBS = frozenset({"调查", "调研"})


def _age_span_end(tokens: list[str], index: int) -> int | None:
    """The index of the last token of an age or age range opening at `index` (18|~|35|岁, 18-35|岁,
    65|岁|以上), else None."""
    if not _NUMBER_OR_RANGE.match(tokens[index]):
        return None
    end = index + 1
    if end + 1 < len(tokens) and tokens[end] in _RANGE_MARKS and tokens[end + 1].isdigit():
        end += 2
    if end >= len(tokens) or tokens[end] != "岁":
        return None
    return end + 1 if end + 1 < len(tokens) and tokens[end + 1] in _AGE_BOUNDS else end


def _survey_verb(word: str, following: str) -> bool:
    """A verb of surveying before its object (调查|深圳市), not the modifier of a head (调查|问卷)."""
    return word in _SURVEY_VERBS and zh_content(following) and following not in lex.ZH_HEADS


# a number and measure word or a demonstrative opening a noun phrase (提出|一种|方法, 采用|一项|调查)
_DETERMINERS = frozenset({"一种", "一个", "一项", "一套", "一类", "一些", "一批", "这些", "这种", "该"})


_OPENING = frozenset("(（")
_CLOSING = frozenset(")）")


def _glossing_acronym(tokens: list[str], index: int, current: list[str]) -> str | None:
    """The acronym of "(ACRONYM)" opening at `index` right after a Chinese word of the phrase being read
    and before the phrase's head noun (急性髓系白血病|(|AML|)|患者), else None."""
    if tokens[index] not in _OPENING or not current or not CJK.search(current[-1]):
        return None
    if index + 2 >= len(tokens) or tokens[index + 2] not in _CLOSING:
        return None
    acronym = tokens[index + 1].strip()
    if not acronym.isascii() or not is_acronym(acronym):
        return None
    # only a head noun after it goes on with the term (患者, 细胞); anything else (a verb: 定量分析) starts
    # a phrase of its own, as after any bracket
    after = tokens[index + 3] if index + 3 < len(tokens) else ""
    return acronym if after in _GLOSSED_HEADS or after.endswith(_PEOPLE_ENDINGS) else None


_GLOSSED_HEADS = lex.ZH_HEADS - lex.ZH_TASK_HEADS
_PEOPLE_ENDINGS = ("者", "人", "人群")


def _symbol_and_its_kind(current: list[str], word: str) -> bool:
    """ "SGLT2 抑制剂", "FLC 基因", "OsNAC 转录因子": a symbol written apart before a Chinese noun that names a
    kind of substance, gene or cell (`names_a_kind`) is one thing of that kind (the SGLT2 inhibitors, the
    gene FLC), one term as "EEG 信号" is; an acronym of a method (PET/CT, SEM) is a concept of its own,
    and any other word after a symbol (技术, 仿真, a verb) starts a phrase of its own."""
    symbol = current[-1] if len(current) == 1 else ""
    return (
        bool(symbol)
        and symbol.isascii()
        and any(ch.isupper() or ch.isdigit() for ch in symbol)
        and acronym_slot(symbol) is None
        and bool(CJK.search(word))
        and word not in lex.ZH_BREAKS
        and not is_verb(word)
        and not _is_predicate(word)
        and not zh_people(word)
        and names_a_kind(word)
    )


# "combined with" between two terms (降钙素原|联合|C反应蛋白检测, 音乐疗法|联合|常规护理): a cut point like 和
_COMBINATION_LINKS = frozenset({"联合", "联用", "并用"})


def _combines_terms(tokens: list[str], index: int, current: list[str]) -> bool:
    """The combination word at `index` joins the term before it (the phrase being read, or a term glossed
    by a bracketed acronym) to a term after it; before an action noun it is a modifier instead (联合|治疗
    "combination therapy", 联合|检测 "combined detection") and it stays in the phrase."""
    if tokens[index] not in _COMBINATION_LINKS:
        return False
    previous = next((t for t in reversed(tokens[:index]) if t != " "), "")
    if not current and previous not in _CLOSING:
        return False
    following = _next_word(tokens, index)
    if following.isascii():
        return following[:1].isalnum()  # 联合|C反应蛋白, 联合|PD-1抑制剂
    return (
        zh_content(following)
        and following not in lex.ZH_TASK_HEADS
        and following not in lex.ZH_TREAT_VERBS
        and following not in _COMBINED_ACTIONS
    )


# action nouns 联合 modifies ("combined use", "combination therapy"): it joins nothing there
_COMBINED_ACTIONS = frozenset({"用药", "应用", "使用", "干预", "治疗", "检测", "诊断", "给药", "运用"})


def _next_word(tokens: list[str], index: int) -> str:
    return next((t for t in tokens[index + 1 :] if t != " "), "。")


def _after_particles(tokens: list[str], index: int) -> str:
    """The word after the one at `index`, past spaces and aspect particles (加剧|了|网络舆论极化)."""
    return next((t for t in tokens[index + 1 :] if t != " " and t not in {"了", "着", "过"}), "。")


# verbs of effect: "X影响Y" relates what acts and what it acts on
_EFFECT_VERBS = frozenset({"影响", "作用于", "导致", "引起", "改变"})
_CHANGE_SENSES = 3  # dictionary senses of a verb that may name a change


@cache
def change_verb(word: str) -> bool:
    """A Chinese verb whose first dictionary senses include an English verb of effect (缩小 "reduce", 升高
    "raise", 恶化 "worsen"): read as the listed verbs of change are ("X是否缩小了Y"), for the verbs the
    list (`lexicon.ZH_CHANGE_VERBS`) does not name."""
    if len(word) < 2 or not is_verb(word):
        return False
    senses = dictionary_senses(word)[:_CHANGE_SENSES]
    return any(sense.verb and sense.text in lex.EFFECT_VERBS for sense in senses)


# modal and question words between X and such a verb
# the words that open examples ("for example", "such as"): 比如, 例如, 譬如, 诸如, 比方说
# "有哪些", "是什么": be or have before a question pronoun asks what the phrase before it names
_BE_OR_HAVE = frozenset({"有", "是"})
_QUESTION_PRONOUNS = frozenset({"哪些", "什么", "哪个", "哪几个", "哪几种", "哪种"})
_EXAMPLE_MARKERS = frozenset({"比如", "例如", "譬如", "诸如", "比方说", "比如说", "例如说"})
_MODALS = frozenset({"能否", "是否", "可否", "如何", "能够", "可以", "能", "会", "将", "可能"})

# nouns of a rank a number names ("2 型糖尿病" type 2 diabetes, "III 期" stage III, "3 级" grade 3): a
# number written apart before one is the rank, part of the term
_RANK_NOUNS = frozenset({"型", "期", "级", "度"})

# words of wishing: the verb after one is the wish's predicate ("想|了解|X", "希望|找到|X"), no term
_WISHING = frozenset({"想", "想要", "希望", "打算", "计划", "拟", "要", "需要"})

# the user as the subject of a copula, and "as" before a person counted ("作为一名药师"): the clause
# names the user's role
_USER_SUBJECTS = frozenset({"我", "我们", "本人", "笔者", "咱们"})  # 本人, 笔者: the formal "I"
_PERSON_COUNTS = frozenset({"一名", "一位", "一个", "名", "位"})
# the user's own research group after "we", "our" or the formal 本 ("我们课题组", "本团队")
_USER_GROUPS = frozenset({"课题组", "研究组", "研究团队", "团队", "实验室", "小组", "科室", "课题"})


def _user_role_opens(tokens: list[str], index: int) -> bool:
    """The word at `index` opens a clause about the user: 是 after 我/我们 at the start of a clause ("我是
    一名麻醉科医生"), or 作为 at the start of a clause before a person counted ("作为一名药师")."""
    word = tokens[index]
    before = [t for t in tokens[:index] if t != " "]
    if word == "是" and before and before[-1] in _USER_SUBJECTS:
        start = before[:-1]
    elif word == "作为":
        start = before
        after = [t for t in tokens[index + 1 :] if t != " "][:2]
        counted = bool(after) and (after[0] in _PERSON_COUNTS or "".join(after)[:2] in _PERSON_COUNTS)
        if not counted:
            return False
    else:
        return False
    return not start or not any(ch.isalnum() for ch in start[-1])


# verbs of enrolling people in a study: their object is who is studied
_RECRUIT_VERBS = frozenset({"纳入", "招募", "入组", "选取", "募集"})

# "以X为例": X is the case studied
_CASE_WORDS = frozenset({"为例", "为例子", "为案例"})

# words after which a new clause (and its predicate) begins: punctuation, "and then", "at the same time"
_CLAUSE_OPENERS = frozenset({"并", "并且", "同时", "然后", "随后", "再", "且", "而", "从而", "进而"})


# verbs of analysing that end phrases (ZH_BREAKS); a word ending in one (定量分析, 综合评价) opening a
# clause before its object is the same verb, qualified
_ANALYSIS_VERBS = ("分析", "评价", "比较", "考察", "探讨")


def _analysis_verb(word: str) -> bool:
    return len(word) > 2 and word.endswith(_ANALYSIS_VERBS)


def _latin_modifier_glued(tokens: list[str], index: int, current: list[str]) -> bool:
    """True when the Chinese verb at `index` is written against a Latin word that is no acronym or symbol
    (meta分析, logistic回归, Cox回归): such a word is an English modifier (an adjective, a name), never the
    subject acting, so the verb is the noun it qualifies, the head of a mixed-script term. A symbol
    (XRD表征MOF) can be the means, and its verb a predicate."""
    latin = current[-1] if current else ""
    return (
        index >= 1
        and tokens[index - 1] == latin
        and latin.isascii()
        and latin.isalpha()
        and len(latin) > 2
        and not is_acronym(latin)
        and latin.lower() not in lex.EN_FUNCTION
        and bool(CJK.search(tokens[index]))
        and len(tokens[index]) > 1
        and (_is_predicate(tokens[index]) or tokens[index] in _ANALYSIS_VERBS)
    )


def _after_spaced_latin(tokens: list[str], index: int) -> bool:
    """True when the word at `index` follows a Latin word with a space between ("SEM 表征")."""
    return (
        index >= 2
        and tokens[index - 1] == " "
        and tokens[index - 2].isascii()
        and tokens[index - 2][-1:].isalnum()
    )


def _clause_start(tokens: list[str], index: int) -> bool:
    """True when the word at `index` opens a clause: first of the text, after punctuation or after a
    word that chains clauses (并, 随后). A verb there is a predicate, not a modifier inside a term."""
    previous = next((t for t in reversed(tokens[:index]) if t != " "), None)
    return (
        previous is None
        or previous in _CLAUSE_OPENERS
        or previous in _BEFORE_PREDICATES
        or not any(ch.isalnum() for ch in previous)
    )


# words a predicate follows: modal and question words (如何抑制宿主免疫反应, 是否影响…), and 在 opening a
# frame with a verb in it (在接受体外受精的女性中)
_BEFORE_PREDICATES = frozenset(
    {
        "如何",
        "怎样",
        "怎么",
        "能否",
        "是否",
        "可否",
        "可以",
        "能够",
        "能",
        "会",
        "可能",
        "将",
        "在",
        "正在",
        "旨在",
    }
)


def _run_words(tokens: list[str], start: int) -> list[str]:
    """The Chinese content words from `start` up to the next break word or punctuation."""
    out = []
    for token in tokens[start:]:
        if token == " ":
            continue
        if not zh_content(token) or token in lex.ZH_TASK_HEADS:
            break
        out.append(token)
    return out


def _rest_of_run(tokens: list[str], start: int) -> str:
    return "".join(_run_words(tokens, start))


def _opens_with_condition(tokens: list[str], start: int) -> bool:
    """True when the run from `start` opens with a word MeSH files as a disease (老年人|骨质疏松|性|骨折,
    儿童|哮喘|急诊): the people word before it is who is studied, and the condition a phrase of its own."""
    rest = _run_words(tokens, start)
    if not rest or len(rest[0]) < 2:
        return False
    english = zh_english(rest[0])
    return english is not None and mesh_kind(english) == "condition"


def _symbol_before_chinese(tokens: list[str], start: int) -> bool:
    """True when the token at `start` is a Latin symbol (capitals or digits: OsWRKY45, RSV, PD-L1, not an
    English word) written right against the Chinese word before it, and a Chinese word follows it."""
    if start + 1 >= len(tokens):
        return False
    symbol, after = tokens[start], tokens[start + 1]
    return (
        symbol.isascii()
        and any(ch.isupper() or ch.isdigit() for ch in symbol[1:])
        and symbol.lower() not in lex.EN_FUNCTION
        and bool(CJK.search(after))
        and zh_content(after)
    )


# the most words of a run a term opening it is looked for in
_OPENING_TERM_WORDS = 4


def _opens_with_term(tokens: list[str], start: int) -> bool:
    """True when the run from `start` opens with a term of several words that MeSH knows whole
    (NAFLD患者|肝|纤维化|程度 "liver fibrosis" degree, 患者|生活|质量 "quality of life"):
    the people word before it is who is studied, and what follows a phrase of its own; a people word
    before one word (患者|家属) may be its modifier, so one word is not enough."""
    rest = _run_words(tokens, start)
    sizes = range(min(_OPENING_TERM_WORDS, len(rest)), 1, -1)
    return any(one_term("".join(rest[:size])) for size in sizes)


# MeSH's anatomy (tree A): a body part after a people word is the site examined, no modifier of the people
_ANATOMY_TREE = "A"


def _opens_with_anatomy(tokens: list[str], start: int) -> bool:
    """True when the run from `start` opens with a body part MeSH names, an ordinal before it included
    (拇外翻患者|第一跖趾关节 "first metatarsophalangeal joint", 患者|膝关节 "knee joint"): the people word
    before it is who is studied, and the part where they are examined a phrase of its own."""
    rest = _run_words(tokens, start)
    for size in range(min(_OPENING_TERM_WORDS, len(rest)), 0, -1):
        opening = "".join(rest[:size])
        if len(opening) > 1 and any(t.startswith(_ANATOMY_TREE) for t in mesh_trees(opening)):
            return True
    return False


# the most words of an operation's name a people word may stand before (鼻内镜|鼻窦|手术|前后)
_OPERATION_WORDS = 5


def _opens_with_operation(tokens: list[str], start: int) -> bool:
    """True when the run from `start` is an operation that a time word closes (CRSwNP患者|鼻内镜鼻窦手术|前后,
    老年患者|髋关节置换术|后|谵妄): the people word before it is who is studied, and the operation they
    undergo the time of what is observed, no modifier of the people (which a word ending in 术 before
    后/前/前后 names whatever it is)."""
    words = [t for t in tokens[start:] if t != " "]
    for index, word in enumerate(words[: _OPERATION_WORDS + 1]):
        if word in _TIME_LOCALIZERS:
            return index > 0 and words[index - 1].endswith("术")
        if not zh_content(word) or word in lex.ZH_TASK_HEADS:
            return False
    return False


def _inside_people_phrase(tokens: list[str], start: int) -> bool:
    """True when the run from `start` is a condition and a word for the people who have it (肺癌|患者,
    癌|患者): a people word before it (小细胞|肺癌|患者 "small cell", 老年|急性胆囊炎|患者 "older") is part
    of that longer phrase, the condition's name or who has it, rather than a phrase of its own (小鼠|海马|
    神经元 "mice", "hippocampal neurons" stay two)."""
    rest = _run_words(tokens, start)
    if len(rest) < 2 or len(rest[-1]) < 2 or not zh_people(rest[-1]):
        return False
    english = zh_english("".join(rest[:-1]))
    return english is not None and mesh_kind(english) == "condition"


@cache
def _has_evidence(text: str) -> bool:
    """True when a Chinese phrase names a slot by itself (a head word, or its rendering's head word or
    MeSH descriptor): then a people word before it is who is studied, not a modifier (父母|教养方式)."""
    if not text:
        return False
    if zh_head_slot(text) is not None:
        return True
    english = zh_english(text)
    if not english:
        return False
    return en_head_slot(english.split()) is not None or mesh_kind(english) is not None


def _object_start(word: str) -> bool:
    """A word that can open an object phrase: Chinese content, or a number or Latin word (2型, EEG)."""
    return zh_content(word) or (word[:1].isalnum() and word.isascii())


@cache
def _is_predicate(word: str) -> bool:
    return word not in lex.ZH_HEADS and is_verb(word)
