"""Sense choice inside a Chinese composition, with MeSH (or any vocabulary) as the judge.

A composition of parts takes each part's first sense unless neighbouring parts *together* name a term
the judge knows: then that span is rendered as the attested term, whatever rank each sense has alone,
and a modifier may take the regular "-ative" adjective of its verb or "-ation" noun (oxidize ->
oxidative) only inside such an attested span. Examples are phrases of their own, not evaluation cases.
"""

from __future__ import annotations

from agent.language import bilingual, english_forms
from agent.language.bilingual import render
from agent.language.chinese_sentences import render_phrase


def test_an_attested_span_picks_a_lower_ranked_sense() -> None:
    plain = render("细菌培养技术")
    assert plain.english[0] == "bacterial education technology"  # 培养's first sense is "education"
    judged = render("细菌培养技术", attested=lambda term: term == "bacterial culture")
    assert judged.english[0] == "bacterial culture technology"  # the span is attested, the rest composed


def test_derived_adjectives_are_used_only_inside_attested_spans() -> None:
    assert "oxidative damage" not in render("氧化损伤").english
    judged = render("氧化损伤", attested=lambda term: term == "oxidative damage")
    assert judged.english[0] == "oxidative damage"


def test_the_longest_attested_span_wins() -> None:
    def known(term: str) -> bool:
        return term in {"bacterial culture", "bacterial culture technique"}

    assert render("细菌培养技术", attested=known).english[0] == "bacterial culture technique"


def test_nothing_attested_keeps_the_usual_order() -> None:
    nothing = render("细菌培养技术", attested=lambda term: False)
    assert nothing.english[0] == render("细菌培养技术").english[0]


def test_a_prefix_joins_an_attested_span_after_it() -> None:
    # 准 "quasi-" is a prefix morpheme: it closes up with the span after it, never "quasi- ..."
    judged = render("准实验设计", attested=lambda term: term == "experimental design")
    assert judged.english[0] == "quasi-experimental design"


def test_an_organ_takes_its_combining_form_inside_an_attested_span() -> None:
    # 神经 "neural" has the combining form "neuro+", which closes up with the word after it, and only
    # where the judge knows the closed-up term (neurodegenerative, not "neuro degenerative")
    assert not render("神经退行性疾病").english[0].startswith("neuro")
    judged = render("神经退行性疾病", attested=lambda term: term == "neurodegenerative disease")
    assert judged.english[0] == "neurodegenerative disease"
    # the closed-up form of two parts a different phrase uses (肝|细胞 "hepatocellular")
    judged = render("肝细胞癌", attested=lambda term: term == "hepatocellular carcinoma")
    assert judged.english[0] == "hepatocellular carcinoma"


def test_a_method_suffix_names_the_method_not_the_law() -> None:
    # 法 after a content word is "method" (水热法 hydrothermal method), never "law" or "France"
    assert render("水热法").english[0] == "hydrothermal method"
    assert render("问卷调查法").english[0].endswith("method")


def test_an_inorganic_name_puts_the_element_first() -> None:
    # the anion prefix (氧化 "oxide", 氯化 "chloride") before an element's character, in English order;
    # jieba may cut the prefix into characters (氯|化|镉)
    assert render("氧化锆").english[0] == "zirconium oxide"
    assert render("氯化镉").english[0] == "cadmium chloride"
    assert render("氮化镓").english[0] == "gallium nitride"
    assert render("氧化铈纳米颗粒").english[0].startswith("cerium oxide nanoparticle")
    # 氧化 before a word that is no element keeps its own sense
    assert (
        render("氧化应激", attested=lambda term: term == "oxidative stress").english[0] == "oxidative stress"
    )


def test_an_atory_adjective_is_used_only_inside_an_attested_span() -> None:
    # 调节 "regulate" + 性 before a head: "regulatory" only where the judge knows the whole term
    assert not render("调节性T细胞").english[0].startswith("regulatory")
    judged = render("调节性T细胞", attested=lambda term: term == "regulatory T cell")
    assert judged.english[0] == "regulatory T cell"


def test_a_period_of_life_day_or_year_is_a_concept_a_deictic_time_is_not() -> None:
    # jieba tags 术后, 夜间 and 冬季 as time words like 目前; only 目前 "currently" is grammar
    assert render_phrase("术后疼痛")[0].english[0] == "postoperative pain"
    assert render_phrase("冬季流感")[0].english[0].startswith("winter")
    assert [r.chinese for r in render_phrase("目前肺癌")] == ["肺癌"]


def test_an_attested_sense_comes_before_an_adjective_nobody_attests() -> None:
    # 疲劳 "fatigue; wearily; weariness; weary": "weary" looks like an adjective (-ary), but the judge
    # knows "fatigue", so the modifier is the attested sense
    judged = render("疲劳寿命", attested=lambda term: term == "fatigue")
    assert judged.english[0].startswith("fatigue ")
    # the adjective of an attested noun stays first before a head (生态 "ecological", not "ecology")
    judged = render("生态补偿", attested=lambda term: term == "ecology")
    assert judged.english[0].startswith("ecological ")


def test_a_verb_before_a_head_is_its_action_noun() -> None:
    # 根除 "to eradicate", 迁徙 "to migrate": before a head English writes the noun of the action
    assert render("根除率").english[0] == "eradication rate"
    assert render("迁徙路线").english[0].startswith("migration ")
    # a verb with no regular action noun keeps its own form (控制 "control"), a verb at the head is a noun
    assert render("控制策略").english[0] == "control strategy"
    assert render("乳腺癌诊断").english[0] == "breast cancer diagnosis"


def test_a_verb_takes_its_regular_action_noun_where_english_uses_the_word() -> None:
    # 接受 "to accept", 抑制 "to inhibit", 去除 "to remove": before a head or at it English writes the noun
    # of the action (acceptance, inhibition, removal), not the bare verb or its gerund
    assert english_forms.verb_nouns("accept")[0] == "acceptance"
    assert english_forms.action_nouns("inhibit") == ["inhibition"]
    assert english_forms.action_nouns("detect") == ["detection"]
    assert render("接受模型").english[0] == "acceptance model"
    # a guess English does not use stays out ("exceptance"), and so do the verbs of no regular noun
    assert english_forms.action_nouns("except") == []
    assert english_forms.action_nouns("commit") == []


def test_a_lone_character_before_a_head_takes_the_sense_its_dictionary_compounds_agree_on() -> None:
    # CC-CEDICT's compounds of 光 (光信号 "optical signal", 光缆 "optical cable" ...) write it "optical"
    assert bilingual.compound_modifiers("光")[:1] == ("optical",)
    assert render("光流法").english[0].startswith("optical ")
    # too few compounds agree: no learned sense (深度 has only 深度学习)
    assert bilingual.compound_modifiers("深度") == ()
    # a longer word keeps its own first sense before a head (功能 "function", not "functional"), and a
    # dictionary word is not cut into characters that then take learned senses (考虑 "consideration")
    assert render("认知功能下降").english[0].startswith("cognitive function ")
    assert render("考虑", attested=lambda t: t == "exam anxiety").english[0] != "exam anxiety"


def test_a_glossary_term_with_no_modifier_form_modifies_a_head_as_written() -> None:
    # 算法 is "algorithm" in the glossary; CC-CEDICT's "arithmetic" no longer comes first before a head
    assert render("算法推荐").english[0].startswith("algorithm ")


def test_a_verb_after_a_noun_makes_a_participle_compound() -> None:
    # the noun is the verb's agent or means: English writes "noun-participle"
    assert render("机器人辅助手术").english[0].startswith("robot-assisted ")
    assert render("护士主导").english[0] == "nurse-led"
    assert render("数据驱动方法").english[0] == "data-driven method"
    assert render("氮掺杂多孔碳").english[0] == "nitrogen-doped porous carbon"  # 掺|杂 cut apart


def test_a_participle_verb_opening_a_phrase_keeps_its_own_sense() -> None:
    assert "-" not in render("辅助治疗").english[0]  # adjuvant, not "-assisted therapy"


def test_a_verb_modifier_takes_its_attested_noun_and_is_no_adjective() -> None:
    # 学习 "to learn; to study": before a head the attested noun "learning", not the bare verb
    judged = render("学习成绩", attested=lambda term: term == "learning")
    assert judged.english[0] == "learning achievement"
    # "vary" ends like an adjective ("-ary") but is a verb: it does not go before the noun "change"
    judged = render("时空变化特征", attested=lambda term: term == "feature")
    assert judged.english[0].split()[1] == "change"


def test_a_people_head_before_a_preposition_takes_the_plural() -> None:
    # "woman in childbirth" -> "women in childbirth", never "woman in childbirths"
    assert english_forms.people_plural("woman in childbirth") == "women in childbirth"
    assert english_forms.people_plural("person with a disability") == "people with a disability"
    assert english_forms.people_plural("stroke patient") == "stroke patients"


def test_a_name_the_judge_knows_does_not_outrank_a_common_sense() -> None:
    # 波 "wave; ...; Poland": MeSH knows Poland (a place), but the character's common sense is "wave"
    judged = render("面波成像", attested=lambda term: term == "Poland")
    assert judged.english[0] == "face wave imaging"


def test_a_change_of_state_at_the_head_is_its_process_noun() -> None:
    # 变暖 "to become warm": "climate warming"; a form English does not use is not made ("olding")
    assert render("气候变暖").english[0] == "climate warming"
    assert not any("olding" in candidate for candidate in render("变老").english)


def test_a_noun_takes_its_latin_adjective_only_inside_an_attested_span() -> None:
    # 主动脉 "aorta" before 壁 "wall": "aortic wall" when the judge knows it, never a guessed adjective else
    assert render("主动脉壁", attested=lambda term: term == "aortic wall").english[0] == "aortic wall"
    assert "aortic wall" not in render("主动脉壁", attested=lambda term: False).english


def test_a_silent_closing_morpheme_is_left_out_where_the_shorter_term_is_attested() -> None:
    # 切除|术 "excise" + "technique": the procedure is the verb's action noun ("excision") when attested;
    # 存活|期 "survive" + "period": "survival"
    assert render("肝切除术", attested=lambda term: term == "liver excision").english[0] == "liver excision"
    # unattested, the verb closed by 术 is its action noun all the same (`test_neoclassical`)
    assert render("肝切除术", attested=lambda term: False).english[0] == "liver excision"
    assert render("存活期", attested=lambda term: term == "survival").english[0] == "survival"


def test_inside_a_composition_a_word_sense_comes_before_a_definition() -> None:
    # CC-CEDICT defines 追踪 "to follow a trail; to trace", 流转 "to roam or wander; to circulate": a part
    # of a term takes the sense that is a word, not a paraphrase with an article or a particle
    assert render("车辆追踪").english[0] == "vehicle tracing"
    assert render("热量流转").english[0] == "heat circulation"
    assert render("甲型肝炎").english[0] == "hepatitis A"  # a capital letter is a name, no article


def test_a_coordinated_compound_says_its_shared_head_once() -> None:
    # 放|化疗 = 放疗 + 化疗: Chinese writes the shared head once, after both first characters; without a
    # judge the two words, coordinated
    assert render("放化疗").english[0] == "radiotherapy and chemotherapy"
    # with a judge, the one neoclassical word it attests
    judged = render("同步放化疗", attested=lambda term: term == "chemoradiotherapy")
    assert "chemoradiotherapy" in judged.english[0]
    # no coordination where the lone character and the head make no word whose English is of one kind
    assert render("新化疗方案").english[0] == "new chemotherapy regimen"
    # nor of two phrases that only share a last word (长期 "long-term", 短期 "short-term")
    assert not render("长短期记忆网络").english[0].startswith("long and short")


def test_a_blood_condition_is_the_one_word_the_judge_attests() -> None:
    known = {"hypocalcemia", "bacteremia"}
    assert render("低钙血症", attested=known.__contains__).english[0] == "hypocalcemia"
    assert render("菌血症", attested=known.__contains__).english[0] == "bacteremia"
    # without a judge, or with none of its guesses attested, the composition of the parts stays
    assert render("低钙血症").english[0].startswith("low calcium blood")
    assert render("低钠血症", attested=known.__contains__).english[0].startswith("low sodium blood")


def test_a_word_closed_by_xing_offers_its_stems_adjectives_inside_an_attested_term() -> None:
    # CC-CEDICT glosses 过敏性 only "hypersensitive; allergic reaction; anaphylaxis"; its stem 过敏 has
    # "allergic", which MeSH writes with rhinitis
    assert render("过敏性鼻炎").english[0] != "allergic rhinitis"
    judged = render("过敏性鼻炎", attested=lambda term: term == "allergic rhinitis")
    assert judged.english[0] == "allergic rhinitis"
    # nobody attests "allergic asthma" here: the adjective is not guessed into the rendering
    assert (
        "allergic asthma"
        not in render("过敏性哮喘", attested=lambda term: term == "allergic rhinitis").english
    )


def test_the_head_of_a_compound_is_a_noun_not_an_adjective_sense() -> None:
    # 预防 "precautionary; prophylactic; to prevent": at the head the verb's action noun, not an adjective
    assert render("自杀预防").english[0] == "suicide prevention"
    assert render("疾病预防").english[0] == "disease prevention"
    # before a head its adjective sense stays first (预防|措施 "precautionary measure", "protective step")
    assert not render("预防措施").english[0].startswith("prevention")


def test_a_sac_is_cyst_inside_an_attested_span() -> None:
    # 囊 "sack; purse; pocket" is Greek kystis in medicine: 多|囊 "polycystic", 囊|性 "cystic"
    judged = render("多囊肾", attested=lambda term: term == "polycystic kidney")
    assert judged.english[0] == "polycystic kidney"
    assert "polycystic kidney" not in render("多囊肾").english  # only where attested


def test_a_rate_closing_a_phrase_is_the_rate_of_the_event_named_by_its_noun() -> None:
    # 率 after a verb is the rate of its event: the action noun, not the glossary's modifier "hospital"
    assert render("住院率").english[0] == "hospitalization rate"
    assert render("检出率").english[0] == "detection rate"
    # a word with a noun sense keeps it and loses its verb, gerund and place-name senses
    assert render("治疗成功率").english[:2] == ("treatment success rate", "therapeutic success rate")
    # a verb with no noun sense is its one-word verbs; 率 is never "rash" or "frequency" there
    relapse = render("复发率").english
    assert "relapse rate" in relapse and not any("rash" in e or "frequency" in e for e in relapse)


def test_nai_and_its_object_before_a_head_are_one_resistant_adjective() -> None:
    assert render("耐多药肺结核患者").english[0] == "multidrug-resistant tuberculosis patients"
    assert render("耐盐植物").english[:3] == (
        "salt-resistant plant",
        "salt-resistant vegetation",
        "salt-tolerant plant",
    )
    assert render("耐旱性").english == (
        "drought resistance",
        "drought tolerance",
    )  # closed by 性: the quality
    assert render("耐药").english[0] == "drug resistance"  # a dictionary word keeps its own sense


def test_nai_before_a_name_cut_into_characters_makes_no_adjective_of_one_character() -> None:
    # 耐|碳|青|霉|烯: the object is a name the dictionary lacks (carbapenem), not 碳 "carbon"
    assert not any("carbon-resistant" in e for e in render("耐碳青霉烯类肺炎克雷伯菌").english)


def test_an_adjective_sense_goes_after_the_noun_senses_at_the_head() -> None:
    # 地区 "local; regional; district; region; area": at the head a noun, not the adjectives before it
    # ("locally" is an English adverb, "regional" the adjective of the sense "region")
    assert render("农村地区").english[0] == "rural district"
    assert "local" not in render("农村地区").english[0]
    # before a head the adjective stays first
    assert render("地区差异").english[0] == "local difference"


def test_the_prefix_re_closes_up_with_the_word_after_it() -> None:
    # 再 "again" before an event word is the prefix "re-" (rehospitalization, reoperation)
    assert render("再住院率").english[0] == "rehospitalization rate"
    assert render("再手术率").english[0] == "reoperation rate"


def test_a_light_verb_sense_gives_its_action_noun_inside_an_attested_span() -> None:
    # 进展 "make progress; progress": the verb "progress" nominalised, only where the judge knows the term
    assert render("疾病进展", attested=lambda term: term == "disease progression").english[0] == (
        "disease progression"
    )
    assert "disease progression" not in render("疾病进展").english


def test_a_modifier_written_adjective_noun_may_drop_its_noun_inside_an_attested_span() -> None:
    def known(term: str) -> bool:
        return term == "percutaneous coronary intervention"

    # 冠状动脉 "coronary artery": English says "coronary intervention"
    assert render("经皮冠状动脉介入", attested=known).english[0] == "percutaneous coronary intervention"
    assert render("经皮冠状动脉介入").english[0].startswith("percutaneous coronary artery")


def test_a_nested_compound_takes_the_head_sense_the_judge_knows_with_the_modifiers_last_word() -> None:
    # 肾病 "kidney disease" is one word; 肾病|进展 nests "disease progression" inside "kidney ..."
    judged = render("肾病进展", attested=lambda term: term == "disease progression")
    assert judged.english[0].endswith("disease progression")


def test_a_disorder_word_glossed_by_its_symptom_takes_the_disorders_heading_the_judge_attests() -> None:
    # CC-CEDICT glosses 恐惧症 by its symptom ("phobia"); 症 makes the symptom word the disorder's name,
    # which MeSH files as "<symptom> Disorders" where it has such a heading
    known = {"phobia", "phobia disorders"}
    assert render("恐惧症", attested=lambda term: term in known).english[0] == "phobia disorders"
    assert render("恐惧症", attested=lambda term: term == "phobia").english == ("phobia",)  # no such heading
    assert render("恐惧").english[0] != "phobia disorders"  # the symptom word without 症 stays itself
    assert "phobia disorders" not in render("恐惧症").english  # without a judge nothing is added


def test_hua_after_a_word_makes_its_ization_noun_and_never_a_flower() -> None:
    # 化 after a word is the verb suffix "-ize": the "-ization"/"-ation" noun English has for the word
    assert render("碎片化").english[0] == "fragmentation"
    assert render("泛化误差").english[0].startswith("generalization ")
    # no such noun: the word alone, not 化's senses of other words ("flower" of 花, "chemistry" of 化学)
    piggery = render("规模化猪场").english
    assert piggery[0] == "scale piggery"
    assert not any(w in e for e in piggery for w in ("flower", "make into", "-ize", "chemistry"))
    assert render("氯化镉").english == ("cadmium chloride",)  # an inorganic name keeps its own reading


def test_a_verb_before_the_head_takes_its_ment_noun_inside_an_attested_span() -> None:
    # 替代 "replace" before 治疗: English writes the action noun, "replacement therapy"
    judged = render("肾脏替代治疗", attested=lambda term: term == "renal replacement therapy")
    assert judged.english[0] == "renal replacement therapy"
    assert not any("replacement" in english for english in render("肾脏替代治疗").english)  # only if attested
    # a one-character verb has too many senses: 长 "grow, develop" makes no "development plan" of 长方案
    protocol = render("长方案", attested=lambda term: term == "development plan")
    assert "development plan" not in protocol.english


def test_a_stem_the_dictionary_lacks_takes_the_name_of_its_drug() -> None:
    # 抗凝 is no dictionary word, 抗凝药 is "anticoagulant"; 抗氧化剂 "antioxidant"
    assert render("抗凝治疗").english[0] == "anticoagulant treatment"
    assert render("抗氧化能力").english[0].startswith("antioxidant ")
    assert render("抗病毒治疗").english[0] == "antiviral treatment"  # a dictionary word keeps its senses


def test_a_lack_verb_and_its_object_make_one_deficiency_modifier() -> None:
    # 缺 "lack" + its object before a head is English "<object>-deficiency" (MeSH Anemia, Iron-Deficiency),
    # never "deficiency iron anemia" word by word; at the end of a phrase it is "<object> deficiency"
    assert render("缺碘性甲状腺肿").best in {"iodine-deficiency goiter", "iodine-deficient goiter"}
    judged = render("缺铁性贫血", attested=lambda term: term == "iron-deficiency anemia")
    assert judged.best == "iron-deficiency anemia"
    assert render("缺锌").best == "zinc deficiency"


def test_a_verb_sense_gives_its_latin_adjective_before_a_disease_inside_an_attested_term() -> None:
    # 失血 "lose blood; hemorrhage" (verbs only in CC-CEDICT) + 性: "hemorrhagic" where the judge knows it
    assert "hemorrhagic shock" not in render("失血性休克").english
    judged = render("失血性休克", attested=lambda term: term == "hemorrhagic shock")
    assert judged.best == "hemorrhagic shock"


def test_clinical_morphemes_cc_cedict_glosses_in_lay_words_come_from_the_glossary() -> None:
    # 缺氧 "lacking oxygen; anaerobic", 脓毒 "pus toxicity", 心源 "heart source" in CC-CEDICT
    assert render("缺氧性脑病").best == "hypoxic brain disease"
    judged = render("缺氧性脑病", attested=lambda term: term == "hypoxic encephalopathy")
    assert judged.best == "hypoxic encephalopathy"  # MeSH Hypoxia, Brain: "Hypoxic Encephalopathy"
    assert render("脓毒性休克").best == "septic shock"
    assert render("心源性休克").best == "cardiogenic shock"


def test_clinical_terms_the_dictionary_glosses_in_lay_words_have_their_clinical_sense() -> None:
    # 高原病 had been "plateau disease", 吞咽障碍 "swallow obstacle"
    assert render("高原病").best == "altitude sickness"
    assert render("吞咽障碍").best == "dysphagia"
    assert render("重复经颅磁刺激").best == "repetitive transcranial magnetic stimulation"
