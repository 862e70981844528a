"""Chinese sentence structure gives the roles (rules fallback): "X对Y的影响/作用/疗效", predicates; names
written by sound stay out of the English slots.

Sentences of their own, not evaluation cases. X acts (the exposure: the setting slot) and Y is acted on
(the outcome), whatever their head words would say alone; inside Y, "A中B" names the thing studied (A)
and its property (B), and a people word stays who is studied.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.chinese_phrases import chinese_phrases
from agent.understanding.rules import extract_slots
from agent.understanding.slot_evidence import zh_head_slot
from agent.understanding.slot_translation import embedded_vocabulary, translate_slots


def test_x_on_y_gives_the_exposure_and_the_outcome() -> None:
    slots = extract_slots("探讨有氧运动对老年人睡眠质量的影响。")
    assert slots.context == ["有氧运动"]
    assert slots.subject_population == ["老年人"]
    assert "睡眠质量" in slots.output_target
    assert "有氧运动" not in slots.output_target


def test_a_in_b_inside_the_object_names_the_thing_and_its_property() -> None:
    slots = extract_slots("研究超声波处理对新鲜苹果汁中多酚含量和抗氧化活性的影响。")
    assert slots.context == ["超声波处理"]  # a treatment, though "处理" alone heads no exposure
    assert slots.subject_population == ["新鲜苹果汁"]
    assert {"多酚含量", "抗氧化活性"} <= set(slots.output_target)


def test_two_exposures_joined_by_and_both_act() -> None:
    slots = extract_slots("比较布洛芬和对乙酰氨基酚对儿童发热的疗效。")
    assert {"布洛芬", "对乙酰氨基酚"} <= set(slots.context)
    assert not {"布洛芬", "对乙酰氨基酚"} & set(slots.output_target)


def test_without_an_effect_word_the_roles_are_left_to_the_words() -> None:
    # "对" here only introduces whom a survey was given to: no exposure is read into it
    slots = extract_slots("对社区居民进行问卷调查。")
    assert "社区居民" in slots.subject_population
    assert not slots.context


def test_a_verb_opening_a_clause_is_the_predicate_not_part_of_the_term() -> None:
    slots = extract_slots("研究社区老年人的跌倒风险，并收集既往病史。")
    assert not any(
        "收集" in term for name in ("context", "method_measurement") for term in getattr(slots, name)
    )
    # before a head word the verb is part of a compound: 针刺|治疗 "acupuncture treatment"
    slots = extract_slots("针刺治疗慢性头痛。")
    assert slots.context == ["针刺"] and slots.subject_population == ["慢性头痛"]


def test_a_verb_of_what_the_study_finds_out_is_no_part_of_a_term() -> None:
    # 揭示 "reveal", 阐明 "elucidate", 探究 "inquire into": like 探讨, verbs of the study, never words of
    # the thing it studies
    for verb in ("揭示", "阐明", "探究"):
        slots = extract_slots(f"采用代谢组学分析{verb}干旱胁迫下玉米根系的差异代谢物。")
        terms = [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]
        assert not any(verb in term for term in terms), (verb, terms)


def test_what_a_study_happens_under_is_its_setting_with_or_without_zai() -> None:
    # "热应激下…": 下 "under" after a phrase makes it the condition the study happens in, as "在…下" does
    slots = extract_slots("利用转录组测序揭示热应激下肉鸡肝脏的基因表达。")
    assert "热应激" in slots.context
    assert "热应激" not in slots.output_target


def test_a_name_written_by_sound_is_left_out_with_a_note() -> None:
    slots, originals, notes = translate_slots(
        Slots(context=["利福喷丁"], subject_population=["结核病患者"]), vocabulary=None
    )
    assert slots.context == [] and slots.subject_population[0].endswith("patients")
    assert any("利福喷丁" in note and "English names" in note for note in notes)
    assert originals[slots.subject_population[0]] == "结核病患者"


def test_a_drug_name_with_an_inn_stem_is_searched_as_its_class_with_a_note() -> None:
    slots, originals, notes = translate_slots(
        Slots(context=["奥司他韦"], subject_population=["流感患者"]), vocabulary=None
    )
    assert slots.context == ["antiviral agents"]  # 奥司他韦 oseltamivir: -vir
    assert originals["antiviral agents"] == "奥司他韦"
    assert any("奥司他韦 -> antiviral agents" in note and "English name" in note for note in notes)
    assert not any("English names" in note for note in notes)  # not also "left out"


def test_relation_words_and_status_heads_name_no_concept() -> None:
    slots, _, _ = translate_slots(
        Slots(context=["因果关系", "吸烟现状", "影响因素"], signal_feature=["影响因素"]), vocabulary=None
    )
    # 影响因素 "influencing factors" names no concept of its own outside the outcome (where the slot
    # convention reads it as what the study examines of its topic)
    assert slots.signal_feature == []
    assert slots.context == ["smoking"]  # 吸烟现状 "the present state of smoking": smoking


def test_heads_of_patterns_states_and_effects_add_nothing_to_the_concept() -> None:
    slots, _, _ = translate_slots(
        Slots(output_target=["营养不良状况", "烟气蔓延规律"], context=["护理干预效果", "流行情况"]),
        vocabulary=None,
    )
    plain, _, _ = translate_slots(
        Slots(output_target=["营养不良", "烟气蔓延"], context=["护理干预"]), vocabulary=None
    )
    assert slots.output_target == plain.output_target  # the state of malnutrition: malnutrition
    assert slots.context[0] == plain.context[0]  # the effect of a nursing intervention: the intervention
    assert slots.context[1:] != [translate_slots(Slots(context=["流行"]), vocabulary=None)[0].context[0]]


def test_an_evaluative_or_procedural_word_alone_names_no_concept() -> None:
    slots, _, _ = translate_slots(
        Slots(context=["统计", "所需", "高血压"], method_measurement=["评估"]), vocabulary=None
    )
    assert slots.context == translate_slots(Slots(context=["高血压"]), vocabulary=None)[0].context
    assert slots.method_measurement == []  # 评估 "assessment" alone: no concept to search


def test_a_word_for_the_area_of_a_place_adds_nothing_to_it() -> None:
    slots, _, _ = translate_slots(Slots(context=["华北地区", "山区", "发达地区"]), vocabulary=None)
    assert not any("local" in term for term in slots.context[:2])  # 地区 is first "local" in CC-CEDICT
    assert slots.context[0] == translate_slots(Slots(context=["华北"]), vocabulary=None)[0].context[0]


def test_a_variety_modifier_before_a_concept_is_left_out() -> None:
    slots, _, _ = translate_slots(Slots(context=["不同放养密度", "各种材料", "不同"]), vocabulary=None)
    assert not any("different" in term or "various" in term for term in slots.context)
    assert slots.context[0] == translate_slots(Slots(context=["放养密度"]), vocabulary=None)[0].context[0]


def test_a_time_span_ends_the_phrase_before_it() -> None:
    slots = extract_slots("探讨早期康复对脑卒中患者90天死亡率的影响。")
    assert "脑卒中患者" in slots.subject_population
    assert "死亡率" in slots.output_target
    assert not any("90" in term for term in slots.output_target + slots.subject_population)


def test_an_analysis_verb_opens_a_clause_and_described_people_head_their_own_phrase() -> None:
    slots = extract_slots("利用磁共振成像（MRI）定量分析膝骨关节炎患者软骨厚度的变化。")
    # 定量分析 "analyse quantitatively" is the verb; the acronym the writer glossed the term with stays
    assert slots.method_measurement == ["磁共振成像 (MRI)"]
    assert slots.subject_population == ["膝骨关节炎患者"]  # patients described by a condition
    assert not any(
        "定量分析" in term for name in ("context", "method_measurement") for term in getattr(slots, name)
    )


def test_lone_characters_of_an_unknown_name_stay_one_phrase() -> None:
    # 依托咪酯 (etomidate) is written by sound: 依托 "rely on" is no predicate before the lone 咪, and
    # 咪 "cat" is no people word that ends a phrase
    slots = extract_slots("依托咪酯对老年患者术后认知功能的影响。")
    assert slots.context == ["依托咪酯"]
    assert slots.subject_population == ["老年患者"]


def test_the_case_a_study_takes_is_its_setting_and_a_glued_capital_letter_stays() -> None:
    slots = extract_slots("研究以武汉市主城区为例，利用手机信令数据分析通勤行为。")
    assert slots.context == ["武汉市主城区"]  # "以X为例": X is the case, not a method after 以
    assert "手机信令数据" in slots.method_measurement
    slots = extract_slots("以斑马鱼为模型，研究双酚A的发育毒性。")
    assert "双酚A" in slots.context  # "A" against a Chinese word is no English article


def test_a_model_made_of_an_organism_is_who_is_studied() -> None:
    slots = extract_slots("在小鼠模型中研究运动对记忆的影响。")
    assert slots.subject_population == ["小鼠模型"] and not slots.method_algorithm
    slots = extract_slots("构建深度学习模型预测股价。")
    assert slots.method_algorithm == ["深度学习模型"]  # a model of a method stays an algorithm


def test_what_is_expressed_is_the_feature() -> None:
    slots = extract_slots("检测心肌组织中氧化应激和炎症相关蛋白的表达。")
    assert {"氧化应激", "炎症"} <= set(slots.signal_feature)
    assert "表达" not in slots.signal_feature  # the bare head names nothing of its own


def test_validation_steps_name_no_concept() -> None:
    slots = extract_slots("构建糖尿病风险预测模型，并在外部队列中进行验证。")
    assert "验证" not in [
        term for name in ("context", "task", "method_measurement") for term in getattr(slots, name)
    ]


def test_a_task_verb_does_not_reach_over_a_comma() -> None:
    slots = extract_slots("基于遥感影像识别，城市绿地面积逐年增加。")
    assert slots.method_measurement == ["遥感影像"]
    assert not any("识别" in term for term in slots.task)  # the green space is no object of 识别


def test_x_in_y_gives_what_acts_and_the_processes_it_acts_in() -> None:
    # "X在Y中的作用": X acts (the setting); the processes between 在 and 中 are observed
    slots = extract_slots("研究微小RNA在胃癌细胞凋亡和自噬中的作用。")
    assert "微小RNA" in slots.context
    assert "自噬" in slots.output_target
    assert "微小RNA" not in slots.output_target


def test_who_is_enrolled_is_who_is_studied() -> None:
    # 纳入/招募 are verbs of a study's design: their object is the population, the verb no part of it
    slots = extract_slots("前瞻性纳入2型糖尿病患者，随访观察其视网膜病变的发生。")
    assert any(p.endswith("2型糖尿病患者") and "纳入" not in p for p in slots.subject_population)


def test_a_vague_word_alone_names_no_concept() -> None:
    # 价值 "value", 标准 "standard" alone say how something is looked at; inside a term they stay
    slots, _, _ = translate_slots(Slots(context=["价值", "标准", "诊断价值"]), vocabulary=None)
    assert "value" not in slots.context and "standard" not in slots.context
    assert any("value" in term for term in slots.context)


def test_a_generic_word_cut_from_a_longer_phrase_names_no_concept() -> None:
    # 影响|尚不清楚 "the effect is unclear": the piece 影响 is dropped as the whole phrase 影响 would be
    vocabulary = embedded_vocabulary()
    slots, _, _ = translate_slots(Slots(output_target=["影响尚不清楚", "疲劳寿命"]), vocabulary)
    assert slots.output_target and not any(
        word in term for term in slots.output_target for word in ("affect", "influence", "effect")
    )


def test_words_for_a_kind_of_thing_alone_name_no_concept() -> None:
    # 过程 "course of events", 结果 "outcome", 指标 "index", 方案 "plan": what kind of thing, not which
    slots = extract_slots("分析恢复的过程和结果，并比较两种方案的指标。")
    terms = {term for name in LIST_SLOT_NAMES for term in getattr(slots, name)}
    assert not {"过程", "结果", "方案", "指标"} & terms
    slots, _, _ = translate_slots(Slots(output_target=["过程", "结果", "指标", "方案"]), vocabulary=None)
    assert slots.output_target == []


def test_the_kind_of_study_is_no_concept() -> None:
    # 回顾性 "retrospective", 随机对照试验 "randomized controlled trial": how the study is done, not what
    slots, _, _ = translate_slots(
        Slots(method_measurement=["随机对照试验", "回顾性", "问卷调查"]), vocabulary=None
    )
    assert slots.method_measurement and all(
        "random" not in term and "retrospective" not in term for term in slots.method_measurement
    )


def test_rates_complications_and_intentions_are_outcomes() -> None:
    # a phrase headed by 率 (a rate), 并发症, 寿命, 意愿 or 满意度 names what is measured, whatever
    # the cue before it: "…与临床妊娠率和活产率有何关联" has no effect word to say so
    slots = extract_slots("比较两种手术的结石清除率和并发症。")
    assert {"结石清除率", "并发症"} <= set(slots.output_target)
    slots = extract_slots("子宫内膜厚度与活产率有何关联？")
    assert "活产率" in slots.output_target


def test_a_place_opening_a_phrase_is_the_setting_apart_from_the_concept() -> None:
    slots = extract_slots("分析黄河流域径流的变化。")
    assert "黄河流域" in slots.context
    assert "径流" in [*slots.output_target, *slots.context, *slots.subject_population]
    assert "黄河流域径流" not in [t for ts in slots.model_dump().values() if isinstance(ts, list) for t in ts]
    # a generic place word modifies the term (城市热岛 "urban heat island"), and a named instrument keeps
    # the place that opens its name
    slots = extract_slots("研究城市热岛效应。")
    assert "城市" not in slots.context
    slots = extract_slots("使用匹兹堡睡眠质量指数评估睡眠。")
    assert "匹兹堡" not in slots.context


def test_a_verb_after_a_modal_or_question_word_is_the_predicate() -> None:
    # 如何 "how", 是否 "whether", 在 opening a frame: the verb after them is no part of the term
    slots = extract_slots("研究病毒蛋白如何抑制宿主免疫反应。")
    terms = [t for ts in slots.model_dump().values() if isinstance(ts, list) for t in ts]
    assert "宿主免疫反应" in terms and "抑制宿主免疫反应" not in terms


def test_an_outcome_that_opens_with_what_is_studied_names_both() -> None:
    # "X对冬小麦产量的影响": the crop is studied, its yield is the outcome (two concepts, as in A中B)
    slots = extract_slots("研究氮肥对冬小麦产量的影响。")
    assert "冬小麦" in slots.subject_population
    assert "产量" in slots.output_target and "冬小麦产量" not in slots.output_target


def test_a_list_shares_the_head_word_after_its_last_item() -> None:
    # "A和B数据集": both are datasets; "随机森林和支持向量机模型": both are models
    slots = extract_slots("在 CIC-IDS2017 和 UNSW-NB15 数据集上评估。")
    assert "CIC-IDS2017" in slots.method_measurement
    slots = extract_slots("采用随机森林和支持向量机模型预测产量。")
    assert "随机森林" in slots.method_algorithm


def test_x_affects_y_gives_the_exposure_and_the_outcome() -> None:
    # "X是否影响Y", "X如何影响Y": the verb 影响 relates what acts and what is acted on, as X对Y的影响 does
    slots = extract_slots("睡眠不足是否影响青少年的学业成绩？")
    assert slots.context == ["睡眠不足"]
    assert slots.subject_population == ["青少年"]
    assert "学业成绩" in slots.output_target


def test_x_whether_changes_y_gives_the_exposure_and_the_outcome() -> None:
    # "X是否加剧了Y", "X能否减轻Y": a verb of change after a modal relates X and Y (the particle 了 too)
    slots = extract_slots("数字平台的算法推荐是否加剧了网络舆论极化？")
    assert "网络舆论极化" in slots.output_target and "算法推荐" in slots.context
    # after 旨在 ("aims to") nothing before it is read as what acts
    slots = extract_slots("开发一种新算法，旨在提高检测精度。")
    assert "新算法" in slots.method_algorithm


def test_x_on_y_asked_as_a_question_gives_the_same_roles() -> None:
    # "X对Y有何影响/有无影响" is "X对Y的影响" asked: X acts, Y is acted on
    slots = extract_slots("长期夜班对护士睡眠质量有何影响？")
    assert slots.context == ["长期夜班"]
    assert "睡眠质量" in slots.output_target and "长期夜班" not in slots.output_target


def test_quality_performance_and_content_heads_name_outcomes() -> None:
    # 质量, 效果, 疗效, 预后, 性能, 评分, 含量 at the head: what is measured, not the setting
    slots = extract_slots("研究石墨烯复合材料的吸附性能和生活质量评分。")
    assert "吸附性能" in slots.output_target


def test_a_verb_of_change_the_list_does_not_name_relates_exposure_and_outcome() -> None:
    # 缩小 "reduce" is read by its dictionary sense, where the sentence marks it as the predicate
    slots = extract_slots("数字金融的发展是否缩小了城乡收入差距？")
    assert "城乡收入差距" in slots.output_target
    assert "城乡收入差距" not in slots.context


def test_a_verb_of_change_inside_a_noun_run_stays_part_of_the_term() -> None:
    slots = extract_slots("研究正极材料在高电压循环中的容量衰减机理。")
    terms = [t for name in ("context", "output_target", "signal_feature") for t in getattr(slots, name)]
    assert "容量" not in terms


def test_a_latin_name_before_a_longer_chinese_term_stays_apart() -> None:
    slots = extract_slots("用 transformer 模型做 EEG 情绪识别。")
    assert slots.method_measurement == ["EEG"]
    slots = extract_slots("在 ICU 脓毒症患者中预测急性肾损伤。")
    assert slots.context == ["ICU"]
    assert slots.subject_population == ["脓毒症患者"]


def test_a_drug_after_a_cue_of_means_is_what_is_given() -> None:
    # 使用 introduces a method of observing, but MeSH files aspirin as a drug: the exposure
    slots = extract_slots("老年患者使用阿司匹林与氯吡格雷相比，出血风险是否不同？")
    assert "阿司匹林" in slots.context
    assert "阿司匹林" not in slots.method_measurement


def test_what_a_measuring_task_predicts_is_also_the_outcome() -> None:
    # as "predicting compressive strength" gives the task and the outcome in English
    slots = extract_slots("利用卫星遥感数据预测湖泊水体叶绿素浓度。")
    assert slots.task == ["湖泊水体叶绿素浓度预测"]
    assert slots.output_target == ["湖泊水体叶绿素浓度"]
    slots = extract_slots("基于随机森林模型估算城市建筑碳排放量。")
    # the object opens with the thing studied: buildings, and their emissions measured (as 冬小麦产量)
    assert slots.output_target == ["碳排放量"]
    assert slots.subject_population == ["城市建筑"]
    # people the task is for stay who is studied, and a task that measures nothing adds no outcome
    assert "患者" not in extract_slots("预测患者的住院时间。").output_target
    assert not extract_slots("利用深度学习检测肺结节。").output_target


def test_conjuncts_share_the_outcome_role() -> None:
    # "the cycling stability and the capacity-fading mechanism of X": both are what is observed
    slots = extract_slots("锂离子电池正极材料的循环稳定性与容量衰减机制研究。")
    assert slots.subject_population == ["锂离子电池正极材料"]
    assert slots.output_target == ["循环稳定性", "容量衰减机制"]
    assert not slots.context


def test_x_responding_to_y_turns_the_roles_round() -> None:
    # "X对Y的响应": X responds (the outcome), Y drives it (the setting); the response word is no concept
    slots = extract_slots("植物物候对气候变化的响应。")
    assert slots.context == ["气候变化"]
    assert "气候变化" not in slots.output_target and "响应" not in slots.output_target
    assert "物候" in slots.output_target
    slots = extract_slots("湖泊浮游动物群落对水温和营养盐的响应。")
    assert {"水温", "营养盐"} <= set(slots.context)
    assert not any("响应" in term for name in ("context", "output_target") for term in getattr(slots, name))


def test_what_belongs_to_a_thing_after_de_is_an_outcome_not_the_setting() -> None:
    # "X的Y" with nothing else saying what Y is: a property observed of X
    slots = extract_slots("分析城市公园的空间分布。")
    assert slots.output_target == ["空间分布"]
    assert "空间分布" not in slots.context
    # a cue of its own still decides ("基于X的Y": a method)
    assert extract_slots("基于卷积神经网络的模型。").method_algorithm


def test_we_want_to_know_whether_x_can_improve_y() -> None:
    # 想知道 opens the question (no term), 能 is a modal between X and the verb, and the object may open
    # with a number; X acts whatever its head word (运动) says alone
    slots = extract_slots("我们想知道每天进行太极拳运动是否能改善2型糖尿病患者的胰岛素抵抗。")
    assert "太极拳运动" in slots.context
    assert slots.output_target == ["胰岛素抵抗"]
    assert slots.subject_population == ["2型糖尿病患者"]
    terms = [term for name in ("context", "output_target") for term in getattr(slots, name)]
    assert not any("知道" in term or term == "能" for term in terms)


def test_the_level_of_a_substance_is_a_measured_feature() -> None:
    # "X水平与Y的关系": a serum level is the biomarker that predicts Y, not the setting
    slots = extract_slots("维持性血液透析患者血清钾水平与心律失常的关系。")
    assert "血清钾水平" in slots.signal_feature
    assert "血清钾水平" not in slots.context
    # a level of no substance (education) is left to the other evidence
    assert "教育水平" not in extract_slots("父母教育水平与儿童近视的关系。").signal_feature


def test_a_mediator_or_moderator_is_a_measured_feature() -> None:
    # as "the mediating role of self-esteem" in English: the variable, not an outcome
    assert extract_slots("工作压力与职业倦怠：心理资本的中介作用。").signal_feature == ["心理资本"]
    slots = extract_slots("社会支持在压力与抑郁之间的调节作用。")
    assert slots.signal_feature == ["社会支持"]
    assert "社会支持" not in slots.context
    assert extract_slots("构建以感知价值为中介变量的模型。").signal_feature == ["感知价值"]


def test_a_list_shares_its_feature_head() -> None:
    # "步态和面部表情特征": gait features and facial-expression features
    slots = extract_slots("我们比较语音、步态和面部表情特征。")
    assert {"步态", "面部表情特征"} <= set(slots.signal_feature)


def test_a_task_word_before_a_feature_or_model_head_modifies_it() -> None:
    # 预测|生物标志物 "predictive biomarkers", 预测|模型 "prediction model": no task with an object
    assert extract_slots("寻找预测生物标志物。").signal_feature == ["预测生物标志物"]
    slots = extract_slots("构建预测模型。")
    assert slots.method_algorithm == ["预测模型"] and not slots.task
    # before an object it is still the task's verb
    assert extract_slots("预测癫痫发作。").task == ["癫痫发作预测"]


def test_an_adverb_between_a_noun_and_its_task_word_is_skipped() -> None:
    # "路面裂缝自动检测": the task is the detection of pavement cracks, done automatically
    slots = extract_slots("基于深度学习的路面裂缝自动检测。")
    assert slots.task == ["路面裂缝检测"]


def test_a_people_word_inside_a_condition_and_its_patients_heads_no_phrase_of_its_own() -> None:
    # 细胞 "cells" is a word for the studied, but in 肝细胞|癌|患者 it names the condition of the patients
    assert [p.text for p in chinese_phrases("我们比较了肝细胞癌患者的生存率。")][:1] == ["肝细胞癌患者"]
    # an organism before what is studied in it stays apart ("mice", "hippocampal neurons")
    assert "海马神经元" in [p.text for p in chinese_phrases("记录小鼠海马神经元的放电。")]


def test_a_people_word_before_a_disease_is_who_is_studied() -> None:
    # 老年人|帕金森病|步态冻结: the older adults are studied, the disease and its sign a phrase of their own
    texts = [p.text for p in chinese_phrases("运动是否改善老年人帕金森病步态冻结。")]
    assert "老年人" in texts and "帕金森病步态冻结" in texts


def test_a_verb_before_a_bound_suffix_is_part_of_the_noun() -> None:
    # 置换|术 "replacement surgery": the verb before 术 is no predicate cutting the phrase
    texts = [p.text for p in chinese_phrases("我们随访了全髋关节置换术患者的术后疼痛。")]
    assert "全髋关节置换术患者" in texts


def test_a_phrase_that_is_only_a_place_is_the_setting() -> None:
    # 华东地区 "East China (region)" after 在: where the study is, not who is studied (地区 alone heads people)
    phrases = {p.text: p for p in chinese_phrases("在华东地区，施用生物炭对水稻产量的影响。")}
    assert phrases["华东地区"].slot == "context"


def test_a_diagnosed_condition_is_who_is_studied_when_no_people_are_named() -> None:
    # 诊断 a disease with no people named: the disease is the population block; with people named, or
    # without a word of diagnosis, it stays what it was
    slots = extract_slots("利用胸部X线片和深度学习诊断肺结核的效果。")
    assert "肺结核" in slots.subject_population
    assert "肺结核" not in extract_slots("吸烟与肺结核的关系。").subject_population


def test_a_latin_name_read_inside_a_chinese_term_is_not_read_again_alone() -> None:
    # the Chinese pass reads "LiDAR point cloud数据" as one method; the English pass leaves the name
    slots = extract_slots("基于 LiDAR point cloud 数据估算森林冠层高度。")
    assert slots.method_measurement == ["LiDAR point cloud数据"]
    assert "LiDAR point cloud" not in slots.context
    # inside a task phrase ("Western blot检测") the name may be the means: the English pass keeps it
    assert "Western blot" in extract_slots("用 Western blot检测小鼠肝脏中蛋白的表达。").method_measurement


def test_what_follows_de_after_things_studied_is_theirs_not_more_things_studied() -> None:
    # "针对X的Y": X is studied (its own words say so); Y, its process or property, is not studied things
    slots = extract_slots("针对锂离子电池的电解液分解，采用原位红外光谱研究。")
    assert slots.subject_population == ["锂离子电池"]
    assert "电解液分解" in slots.output_target
    # people after 的 are still who is studied, by their own words
    assert extract_slots("针对农村地区的留守儿童开展心理干预。").subject_population == ["留守儿童"]


def test_a_condition_right_after_zai_is_where_the_study_looks_not_an_outcome() -> None:
    # 在…中: among those who have it (who is studied); 在…下: under it (the setting)
    among = extract_slots("在帕金森病中，探讨肠道菌群的组成变化。")
    assert "帕金森病" in among.subject_population
    assert "帕金森病" not in among.output_target
    under = extract_slots("在缺氧下观察心肌细胞的凋亡。")
    assert under.context == ["缺氧"]
    assert under.output_target == ["凋亡"]


def test_a_substance_right_after_a_in_is_what_is_measured_in_it() -> None:
    # "A中B": a chemical B is measured in A (the outcome), not the setting its descriptor alone gives
    slots = extract_slots("分析湖泊沉积物中多环芳烃的来源与生态风险。")
    assert "多环芳烃" in slots.output_target
    assert "多环芳烃" not in slots.context
    # a substance that acts ("X对Y的影响") stays the exposure
    assert "添加益生菌" in extract_slots("饲料中添加益生菌对肉鸡生长性能的影响。").context


def test_an_organism_or_cells_that_treat_are_given_persons_stay_people() -> None:
    # "X治疗Y": X is what is given, even when MeSH files it as an organism or cells
    assert extract_slots("评价间充质干细胞治疗膝骨关节炎的疗效。").context == ["间充质干细胞"]
    assert "人参" in extract_slots("人参治疗慢性疲劳综合征的随机对照试验。").context
    assert "家庭医生" in extract_slots("家庭医生治疗高血压患者的管理效果。").subject_population


def _all_terms(text: str) -> set[str]:
    slots = extract_slots(text)
    return {term for name in LIST_SLOT_NAMES for term in getattr(slots, name)}


def test_a_modal_word_is_no_part_of_a_term() -> None:
    # 可能 "may" says how sure the sentence is; the term before it stays whole
    terms = _all_terms("乳酸清除率可能是一个有用的预后指标。")
    assert "乳酸清除率" in terms and not any("可能" in term for term in terms)


def test_a_verb_with_an_aspect_particle_is_the_predicate() -> None:
    # 揭示|了: after one word too, a verb followed by 了 is the predicate, not a term's head
    assert not any("揭示" in term for term in _all_terms("结果揭示了中下地壳低速层的分布。"))


def test_a_verb_before_a_measure_word_opens_its_object() -> None:
    # "，提出|一种…方法": the object opens with a number and measure word; the verb is no term
    assert not any(
        "提出" in term for term in _all_terms("针对配电网，提出一种基于深度强化学习的电压控制方法。")
    )


def test_a_count_of_things_is_no_part_of_what_is_counted() -> None:
    terms = _all_terms("我们用面板模型分析房价，数据来自 35 个大中城市。")
    assert not any(term.startswith("个") for term in terms)


def test_a_chinese_verb_after_an_english_phrase_is_the_predicate() -> None:
    # "使用 graph neural network 代替 DFT 计算": 代替 "replace" relates the two methods
    assert not any(
        "代替" in term for term in _all_terms("使用 graph neural network 代替 DFT 计算来预测吸附能。")
    )


def test_a_time_word_after_an_event_closes_its_phrase() -> None:
    # 时 "when", 后 "after": the event is the term, the time word no part of it
    terms = _all_terms("通过眼动实验考察二语学习者阅读中文时的词切分策略。")
    assert not any(term.endswith("时") for term in terms)
    terms = _all_terms("预测食管鳞癌患者新辅助放化疗后的病理完全缓解。")
    assert not any(term.endswith("后") for term in terms)


def test_a_level_in_a_body_fluid_that_is_tested_for_is_the_feature() -> None:
    # 孕12周|前: the time span takes its "before"; what 检测 tests for in serum is the measured feature
    slots = extract_slots("在孕12周前检测血清25-羟维生素D水平。")
    assert slots.signal_feature == ["血清25-羟维生素D水平"]
    assert not any("前" in term for term in slots.task)


def test_a_compound_of_generic_words_names_no_concept() -> None:
    # 发生|风险 "risk of occurrence": what kind of thing, in two words; the condition is the concept
    slots, _, _ = translate_slots(Slots(output_target=["发生风险", "产后抑郁"]), embedded_vocabulary())
    assert len(slots.output_target) == 1 and "depression" in slots.output_target[0]


def test_management_names_what_is_given_not_a_task() -> None:
    # 社区管理, 疼痛管理, 围手术期管理: care given (the setting, like 治疗 and 干预), not an analysis task
    slots = extract_slots("了解护士对新生儿疼痛管理的知识和态度。")
    assert "疼痛管理" not in slots.task and "疼痛管理" in slots.context


def test_a_verb_written_apart_before_an_english_or_numeric_object_is_the_predicate() -> None:
    # 数据|覆盖 "the data cover" 2010—2022: the verb relates, it is no part of a term
    terms = _all_terms("我们用面板模型分析房价，数据覆盖 2010—2022 年 35 个大中城市。")
    assert not any("覆盖" in term for term in terms)


def test_a_time_word_inside_a_word_stays_and_a_verb_after_a_time_frame_is_the_predicate() -> None:
    # 短|时 "short-term" is one word; after 出院|后 "after discharge" the verb opens the clause
    assert any("短时" in term for term in _all_terms("预测城市路网的短时交通流量。"))
    terms = _all_terms("干预组在出院后接受电话随访。")
    assert "电话随访" in terms and not any("接受" in term for term in terms)


def test_a_verb_after_a_modal_word_is_the_predicate() -> None:
    slots = extract_slots("睡前使用智能手机是否会缩短青少年的睡眠时长？")
    assert "青少年" in slots.subject_population
    assert not any("缩短" in term for name in LIST_SLOT_NAMES for term in getattr(slots, name))


def test_a_people_word_inside_a_known_term_does_not_end_the_phrase() -> None:
    # 种群 "population" heads its own phrase elsewhere, but 种群|动态 is one term MeSH knows
    slots = extract_slots("观察湿地鸟类的种群动态。")
    assert "种群动态" in [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]
    assert "种群" not in slots.subject_population


def test_a_course_or_process_head_names_no_concept() -> None:
    # 全球化进程 "the course of globalization" is globalization; 恢复过程 "the process of recovery"
    slots, _, _ = translate_slots(Slots(context=["全球化进程"]), vocabulary=None)
    assert slots.context == ["globalization"]


def test_a_frame_before_a_localizer_is_the_setting_without_its_head() -> None:
    # "X进程中", "X背景下", "X条件下": the course, background or conditions the study happens in
    slots = extract_slots("全球化进程中乡村手工业的转型。")
    assert "全球化" in slots.context
    assert not any("进程" in term for name in LIST_SLOT_NAMES for term in getattr(slots, name))
    slots = extract_slots("干旱胁迫条件下玉米幼苗的根系生长。")
    assert "干旱胁迫" in slots.context
    assert not any("条件" in term for name in LIST_SLOT_NAMES for term in getattr(slots, name))


def test_a_symbol_before_the_kind_it_is_one_of_is_one_term() -> None:
    # "SGLT2 抑制剂": the SGLT2 inhibitors, not "SGLT2" and "inhibitor" as two concepts
    slots = extract_slots("研究SGLT2 抑制剂对心力衰竭患者的疗效。")
    assert slots.context == ["SGLT2抑制剂"]
    slots = extract_slots("拟南芥中FLC 基因的表达调控")
    assert "FLC基因" in slots.output_target
    assert "FLC" not in slots.context


def test_data_written_against_what_is_studied_in_them_are_two_phrases() -> None:
    # "视网膜眼底图像|糖尿病视网膜病变": the images measured, and the disease graded in them
    slots = extract_slots("基于深度学习的视网膜眼底图像糖尿病视网膜病变自动分级")
    assert slots.method_measurement == ["视网膜眼底图像"]
    assert "糖尿病视网膜病变" in slots.output_target


def test_a_head_word_after_the_data_word_keeps_the_run_whole() -> None:
    # 信号|特征: features of the signal, one phrase
    slots = extract_slots("基于脑电信号特征的情绪识别")
    assert slots.signal_feature == ["脑电信号特征"]


def test_a_technique_before_a_task_verb_is_the_method_the_task_is_done_by() -> None:
    western = extract_slots("并用Western blot检测心肌组织中氧化应激标志物。")
    assert not any("Western" in term for term in western.task)  # no task of detecting Western blot
    assert "Western blot" in western.method_measurement
    assert "流式细胞术" in extract_slots("采用流式细胞术检测调节性T细胞比例。").method_measurement
    factors = extract_slots("采用因子分析识别膳食模式。")
    assert factors.method_algorithm == ["因子分析"] and factors.task == []
    # what a task predicts or decodes is no technique, even where MeSH files it among methods (Risk
    # Assessment, brain-computer interfaces are equipment)
    assert extract_slots("构建压力性损伤风险预测模型。").method_algorithm != ["压力性损伤风险"]
    assert extract_slots("实现语音脑机接口解码。").task != []


def test_a_phrase_is_not_cut_inside_a_word_jieba_holds_whole() -> None:
    # 飞行|器: 飞行 "to fly" read as a verb cut 高超声速飞行|器热防护系统 in two
    texts = [p.text for p in chinese_phrases("高超声速飞行器热防护系统的气动热环境数值模拟研究。")]
    assert texts[0] == "高超声速飞行器热防护系统"


def test_the_characteristics_of_a_thing_are_the_outcome_and_a_signals_features_stay_features() -> None:
    # "the characteristics of X" (X的…特征, 其…特征): what the thing is studied for, with its list
    slots = extract_slots("我们调查湖泊沉积物中重金属的含量和空间分布特征。")
    assert {"含量", "空间分布特征"} <= set(slots.output_target)
    assert "空间分布特征" not in slots.signal_feature
    assert "时空演变特征" in extract_slots("监测城市热岛并分析其时空演变特征。").output_target
    # a signal's features, and features a model takes in, are features
    assert "时频特征" not in extract_slots("提取心电信号的时频特征用于房颤检测。").output_target
    assert "面部表情特征" not in extract_slots("模型融合步态、语音和面部表情特征。").output_target


def test_an_aspect_noun_after_a_topic_is_an_outcome_of_its_own() -> None:
    # 疗效及安全性, 发生率及危险因素, 保护作用及其机制, X的影响因素: what the study examines of its topic
    assert "安全性" in extract_slots("评估某手术治疗腰椎间盘突出症患者的临床疗效及安全性。").output_target
    assert "危险因素" in extract_slots("甲状腺全切除术后患者低钙血症的发生率及危险因素分析。").output_target
    assert "机制" in extract_slots("黄芩苷对小鼠急性肺损伤的保护作用及其机制研究。").output_target
    assert "影响因素" in extract_slots("宫颈癌患者生活质量的影响因素分析。").output_target
    # a relation word is no aspect ("A与B的相关性"), nor is a noun in 性 related to another ("稳定性与X的关系")
    related, _, _ = translate_slots(
        extract_slots("血清维生素D水平与疾病活动度的相关性。"), embedded_vocabulary()
    )
    assert not any("correlation" in term for term in related.output_target)
    # in English, the aspect noun is rendered and kept in the outcome, though generic elsewhere
    english, _, _ = translate_slots(
        Slots(output_target=["急性肺损伤", "机制", "安全性", "影响因素"], context=["影响因素"]),
        embedded_vocabulary(),
    )
    assert {"mechanism", "safety", "influencing factor"} <= set(english.output_target)
    assert english.context == []


def test_the_owner_of_an_outcome_property_is_what_is_studied() -> None:
    # 花岗岩的地球化学特征: the granite is studied, its geochemical characteristics are the outcome
    slots = extract_slots("我们研究青藏高原东缘花岗岩的地球化学特征。")
    assert "花岗岩" in slots.subject_population and "花岗岩" not in slots.context
    assert "地球化学特征" in slots.output_target
    # what acts on the outcome ("X对Y的影响") keeps its role
    assert extract_slots("探讨有氧运动对老年人睡眠质量的影响。").context == ["有氧运动"]


def test_a_gene_symbol_that_acts_is_a_feature_not_the_setting() -> None:
    # a gene, protein or RNA named by its symbol whose role or effect is studied is measured in those
    # studied (a feature); an exposure written with letters and counts stays what acts
    slots = extract_slots("探讨SIRT1在心肌细胞凋亡中的作用。")
    assert slots.signal_feature == ["SIRT1"]
    assert "SIRT1" not in slots.context
    slots = extract_slots("研究BRCA1突变对乳腺癌患者预后的影响。")
    assert slots.signal_feature == ["BRCA1突变"]
    assert extract_slots("研究PM2.5对儿童哮喘的影响。").context == ["PM2.5"]
    assert extract_slots("研究CO2浓度对小麦产量的影响。").signal_feature == []


def test_a_cell_word_inside_a_term_the_words_around_it_make_does_not_end_the_phrase() -> None:
    # 胶质|母细胞|瘤 is "glioblastoma": 母细胞 "blast cells" alone would be who is studied and end the phrase
    texts = [p.text for p in chinese_phrases("比较化疗对胶质母细胞瘤患者认知功能的影响。")]
    assert "胶质母细胞瘤患者" in texts
    assert "瘤患者" not in texts


def test_a_people_word_before_a_term_mesh_knows_ends_the_people_phrase() -> None:
    # 肠道|菌群 "gut microbiota" opens the rest of the run: the patients are who is studied, the
    # microbiota's composition a phrase of its own, not "diabetes patient gut microbiota"
    texts = [p.text for p in chinese_phrases("分析糖尿病患者肠道菌群组成的特征。")]
    assert "糖尿病患者" in texts
    assert any(text.startswith("肠道菌群") for text in texts)


def test_an_organism_written_against_a_gene_symbol_is_a_phrase_of_its_own() -> None:
    # 番茄|SlMYB12基因 is read as 番茄 SlMYB12基因 with a space: the tomato is what is studied, the gene
    # a phrase of its own, not "tomato SlMYB12 gene"
    texts = [p.text for p in chinese_phrases("探讨番茄SlMYB12基因对果实的影响。")]
    assert texts[:2] == ["番茄", "SlMYB12基因"]
    assert [p.text for p in chinese_phrases("探讨番茄 SlMYB12基因对果实的影响。")][:2] == texts[:2]


def test_a_time_localizer_after_a_treatment_verb_makes_the_treatment_a_time() -> None:
    """ "X治疗后Y": what follows is observed after the treatment, not treated by it; 后 had been read as the
    first word of what follows ("后患者", "后细胞因子") and 释放 had cut 细胞因子释放综合征 in two."""
    texts = [p.text for p in chinese_phrases("我们课题组关注 CAR-T 细胞治疗后细胞因子释放综合征的预测。")]
    assert "细胞因子释放综合征" in texts and not any(t.startswith("后") for t in texts)
    texts = [p.text for p in chinese_phrases("我们关注二甲双胍治疗后患者的血糖。")]
    assert "患者" in texts and "二甲双胍" in texts
    # without a localizer what follows the verb is still what is treated
    phrases = chinese_phrases("针刺治疗慢性失眠的效果")
    assert any(p.text == "慢性失眠" and p.cue == "针对" for p in phrases)


def test_a_community_of_organisms_is_observed_not_who_is_studied() -> None:
    # 群 heads groups of people (人群), but MeSH files a microbiota or a biota as a community observed
    assert zh_head_slot("口腔菌群") is None
    assert zh_head_slot("高危人群") == "subject_population"
    slots = extract_slots("比较剖宫产与顺产新生儿口腔菌群的差异。")
    assert "口腔菌群" not in slots.subject_population
    assert "口腔菌群" in slots.output_target


def test_a_material_opening_an_outcome_phrase_is_what_is_studied() -> None:
    # as in English ("the compressive strength of cement mortar"), a material is the thing studied
    slots = extract_slots("研究纳米二氧化硅掺量对水泥砂浆抗压强度的影响。")
    assert slots.subject_population == ["水泥砂浆"]
    assert slots.output_target == ["抗压强度"]


def test_a_head_word_begins_where_a_word_of_the_phrase_begins() -> None:
    # 成功|率 "success rate" ends in the characters of 功率 "power" (a feature), not in that word
    assert zh_head_slot("治疗成功率") == "output_target"
    assert zh_head_slot("脑电功率") == "signal_feature"  # 功率 is the phrase's last word
    assert zh_head_slot("癫痫患者") == "subject_population"  # a head inside the phrase's one last word


def test_a_glossary_compound_does_not_bound_a_head_word() -> None:
    # jieba cuts 光催化|剂, but the phrase is 光|催化剂 "photocatalyst": a material studied
    assert zh_head_slot("二氧化钛光催化剂") == "subject_population"


def test_a_word_joining_a_second_condition_of_the_people_is_no_word_of_a_term() -> None:
    """ "糖尿病伴高血压患者": 伴 ("with") had been rendered "companion" (searched as Friends), 合并
    ("complicated by") as "merge": they join two conditions the same people have, and cut the phrase."""
    for description, first, second in (
        ("糖尿病伴高血压患者的血压控制", "糖尿病", "高血压患者"),
        ("房颤合并CKD患者的抗凝治疗", "房颤", "CKD患者"),
    ):
        slots = extract_slots(description)
        terms = [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]
        assert first in terms and second in terms
        assert not any("伴" in term or "合并" in term for term in terms)


def test_a_condition_joined_to_people_with_another_is_theirs_too() -> None:
    """ "X伴Y患者", "X合并Y患者": the same people have both conditions; the first had been read alone as
    an outcome."""
    for description, first in (
        ("2型糖尿病伴高血压患者的认知功能下降", "2型糖尿病"),
        ("慢性心衰合并贫血患者的运动耐量", "慢性心衰"),
    ):
        slots = extract_slots(description)
        assert first in slots.subject_population
        assert first not in slots.output_target


def test_the_object_of_a_measuring_task_verb_opening_with_a_thing_names_the_thing_and_its_property() -> None:
    """ "估算水稻叶面积指数": rice is studied, its leaf area index measured (the task keeps its object)."""
    slots = extract_slots("基于无人机多光谱影像估算水稻叶面积指数")
    assert "水稻" in slots.subject_population
    assert "叶面积指数" in slots.output_target
    assert slots.task


def test_a_dose_related_to_an_outcome_is_the_exposure() -> None:
    # "X与Y的关系": X acts on Y; a dose is the exposure there, though MeSH files Radiation Dosage as a
    # measurement (had been a method of the study)
    slots = extract_slots("医务人员眼晶状体受照剂量与放射性白内障的关系。")
    assert "眼晶状体受照剂量" in slots.context
    assert "眼晶状体受照剂量" not in slots.method_measurement


def test_efficacy_beside_safety_is_an_outcome() -> None:
    # 疗效 "efficacy" is an aspect of the treatment the trial measures, as 安全性 is; it had been dropped as
    # a generic word
    slots = extract_slots("针刺治疗慢性偏头痛的疗效与安全性评价。")
    english, _, _ = translate_slots(slots, embedded_vocabulary())
    assert {"efficacy", "safety"} <= set(english.output_target)


def test_a_state_of_life_before_qijian_is_who_is_studied_and_an_event_is_not() -> None:
    # 哺乳期间: the period of lactation names the women studied (as 哺乳期 "lactation"), not an exposure
    slots = extract_slots("哺乳期间使用选择性5-羟色胺再摄取抑制剂对婴儿神经发育的影响。")
    assert "哺乳期" in slots.subject_population
    assert not any("哺乳" in c for c in slots.context)
    slots = extract_slots("围绝经期间女性睡眠障碍与抑郁的关系。")
    assert any(p.startswith("围绝经期") for p in slots.subject_population)
    # 疫情期间, 化疗期间: an event only dates the study; it names no population
    slots = extract_slots("新冠疫情期间医务人员焦虑抑郁的发生情况。")
    assert not any("疫情" in p for p in slots.subject_population)
    slots = extract_slots("化疗期间乳腺癌患者的营养状况。")
    assert not any("化疗" in p for p in slots.subject_population)
