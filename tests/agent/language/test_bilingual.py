"""The offline Chinese -> English rendering: dictionary cleaning, segmentation, composition, ranking."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from importlib import resources

import pytest

from agent.language import cedict, chinese_segmentation, english_forms
from agent.language.bilingual import Rendering, render
from agent.language.cedict import clean_definition, dictionary_senses, has_chinese, reference, to_simplified
from agent.language.chinese_segmentation import segment, tokenize
from agent.language.chinese_sentences import english_phrases, is_verb, to_english


def _texts(senses: list[cedict.Sense] | tuple[cedict.Sense, ...]) -> list[str]:
    return [s.text for s in senses]


# --- detection and empty input -------------------------------------------------------------------


def test_has_chinese() -> None:
    assert has_chinese("脑机接口")
    assert has_chinese("EEG 信号")
    assert has_chinese("腦機接口")
    assert not has_chinese("brain-computer interface")
    assert not has_chinese("")
    assert not has_chinese("？。，")  # punctuation alone is not Chinese text


def test_empty_and_ascii_input() -> None:
    assert to_english("") == ""
    assert to_english("   ") == ""
    assert to_english("EEG decoding of speech") == "EEG decoding of speech"
    assert english_phrases("") == []
    assert english_phrases("speech decoding with ECoG") == []
    assert segment("") == []
    empty = render("")
    assert empty == Rendering("", (), "none")
    assert render("ECoG") == Rendering("ECoG", ("ECoG",), "none")
    assert to_english("？！。") == ""


# --- cleaning CC-CEDICT definitions --------------------------------------------------------------


def test_clean_definition_drops_what_is_not_a_term() -> None:
    assert clean_definition("CL:個|个[ge4]") == []
    assert clean_definition("surname Bei") == []
    assert clean_definition("see 癲癇|癫痫[dian1 xian2]") == []
    assert clean_definition("classifier for small boats") == []
    assert clean_definition("Taiwan pr. [duo4]") == []


def test_clean_definition_removes_glosses_and_keeps_the_term() -> None:
    assert _texts(clean_definition("Bayes (name)")) == ["Bayes"]
    assert _texts(clean_definition("cell (biology)")) == ["cell"]
    assert _texts(clean_definition("(computing) queue")) == ["queue"]
    assert _texts(clean_definition("a study")) == ["study"]
    # an acronym glossed in parentheses is a term of its own
    assert _texts(clean_definition("electroencephalogram (EEG)")) == ["electroencephalogram", "EEG"]
    # one capitalised word in parentheses says where or in whose usage a sense holds: no acronym, no sense
    assert _texts(clean_definition("Monte-Carlo (Monaco)")) == ["Monte-Carlo"]
    assert _texts(clean_definition("fine particulate matter (PM2.5)")) == ["fine particulate matter", "PM2.5"]
    # semicolons separate senses
    assert _texts(clean_definition("sample; specimen")) == ["sample", "specimen"]
    # a chemical formula after the compound's name is no part of the term; a vitamin's letter stays
    assert _texts(clean_definition("copper sulfate CuSO4")) == ["copper sulfate"]
    assert _texts(clean_definition("sodium hydroxide NaOH")) == ["sodium hydroxide"]
    assert _texts(clean_definition("vitamin B12")) == ["vitamin B12"]
    assert _texts(clean_definition("sense of ~")) == []  # a pattern with a gap


def test_clean_definition_marks_verbs_and_registers() -> None:
    (verb,) = clean_definition("to research")
    assert verb.text == "research" and verb.verb
    (noun,) = clean_definition("research")
    assert not noun.verb
    # a verb without its object means something else ("to kill oneself" is not "kill")
    assert clean_definition("to kill oneself") == []
    assert _texts(clean_definition("to strip (sb of his property)")) == ["strip"]
    (slang,) = clean_definition("(coll.) to lure")
    assert slang.marked and slang.text == "lure"


def test_references_are_followed_to_the_full_entry() -> None:
    assert reference("abbr. for 世界博覽會|世界博览会[Shi4 jie4 Bo2 lan3 hui4], World Expo") == "世界博览会"
    assert reference("variant of 癲癇|癫痫[dian1 xian2]") == "癫痫"
    assert reference("abbr. to 世博") is None
    # 世博 is only "abbr. for 世界博览会": its senses are those of the full form
    assert _texts(dictionary_senses("世博")) == _texts(dictionary_senses("世界博览会"))
    assert "World Expo" in _texts(dictionary_senses("世博"))


def test_all_entries_of_a_headword_are_kept_plain_nouns_first() -> None:
    senses = _texts(dictionary_senses("症"))  # two CC-CEDICT entries (zheng4 and zheng1)
    assert senses[0] == "disease"
    assert "abdominal tumor" in senses
    research = dictionary_senses("研究")  # "research/a study/CL:.../to research/to look into"
    assert [s.text for s in research][:2] == ["research", "study"]
    assert all(not s.verb for s in research[:2]) and research[-1].verb
    assert dictionary_senses("并非一个词典词条") == ()


# --- segmentation ----------------------------------------------------------------------------------


def test_a_common_words_entry_comes_before_a_places_entry() -> None:
    # 延长: "Yanchang county ... Shaanxi" (a capitalised entry) and "to prolong": the word, not the county
    assert _texts(dictionary_senses("延长"))[0] == "prolong"
    assert is_verb("延长")
    assert _texts(dictionary_senses("长江"))[0] == "Yangtze River"  # a place and nothing else stays a place


def test_segmentation_keeps_dictionary_words_whole() -> None:
    # jieba alone cuts 脑机|接口; the dictionary knows 脑机接口
    assert segment("脑机接口") == ["脑机接口"]
    assert segment("脑表面电极") == ["脑", "表面", "电极"]
    assert segment("石墨烯电极") == ["石墨烯", "电极"]  # jieba: 石墨|烯
    # equal cuts: a lone character is taken as a suffix rather than a prefix (足月|儿, not 足|月儿)
    assert segment("足月儿") == ["足月", "儿"]
    assert segment("早产儿") == ["早产儿"]  # a glossary word
    assert segment("癫痫患者的脑电信号") == ["癫痫", "患者", "的", "脑电", "信号"]
    # a term of nine characters is found whole too (jieba: 受试者|工作|特征|曲线)
    assert segment("采用受试者工作特征曲线") == ["采用", "受试者工作特征曲线"]


def test_segmentation_of_mixed_text_keeps_latin_words_whole() -> None:
    assert segment("研究PM2.5暴露") == ["研究", "PM2.5", "暴露"]
    assert segment("使用 EEG 的脑机接口") == ["使用", "EEG", "的", "脑机接口"]
    assert segment("ＥＥＧ信号") == ["ＥＥＧ", "信号"]  # full-width letters, returned as written
    assert render("ＥＥＧ信号").english[0] == "EEG signal"
    assert render("α波").english[0] == "α wave"  # Greek letters are Latin-like words of a term
    assert render("β-淀粉样蛋白").english[0] == "β-amyloid"


def test_traditional_characters() -> None:
    assert to_simplified("腦機接口") == "脑机接口"
    assert to_simplified("什么") == "什么"  # 么 is simplified text itself, never turned into 幺
    assert segment("腦機接口") == ["腦機接口"]  # words come back as written
    rendering = render("癲癇患者")
    assert rendering.chinese == "癲癇患者"
    assert rendering.english[0] == "epilepsy patients"
    assert render("腦機接口").english[0] == "brain-computer interface"


# --- rendering and composition ---------------------------------------------------------------------


def test_dictionary_and_glossary_words() -> None:
    assert render("脑机接口") == Rendering("脑机接口", ("brain-computer interface",), "dictionary")
    metformin = render("二甲双胍")  # not in CC-CEDICT
    assert metformin.how == "glossary" and metformin.english[0] == "metformin"
    bayes = render("贝叶斯")  # CC-CEDICT: "Bayes (name)"; as a modifier the adjective is wanted
    assert bayes.english[0] == "Bayesian" and "Bayes" in bayes.english
    # receptor pharmacology CC-CEDICT lacks: 激动 alone is "to move emotionally"
    assert render("受体激动剂").english[0] == "receptor agonist"
    # clinical senses CC-CEDICT lacks (康复 "to recuperate", 耐量 not a word of its own)
    assert "pulmonary rehabilitation" in render("肺康复").english
    assert "exercise tolerance" in render("运动耐量").english[:3]
    assert render("糖耐量").english[0] == "glucose tolerance"
    assert render("针刺").english[0] == "acupuncture"  # CC-CEDICT: "to treat by acupuncture"
    assert render("衰弱").english[0] == "frailty"  # CC-CEDICT: "weak; feeble"
    # clinical terms CC-CEDICT lacks, composed by their characters ("new-assisted", "carbon green mold alkene")
    assert render("新辅助化疗").english[0] == "neoadjuvant chemotherapy"
    assert render("碳青霉烯").english[0] == "carbapenem"
    assert render("药物警戒").english[0] == "pharmacovigilance"
    assert render("重症患者").english[0] == "critically ill patients"
    assert render("重症肺炎").english[0] == "severe pneumonia"
    assert render("甲状腺功能减退").english[0] == "hypothyroidism"  # had been "thyroid function decline"
    assert render("心血管获益").english[0] == "cardiovascular benefit"  # had been "cardiovascular benefiting"
    # disease names CC-CEDICT composes character by character ("capillary bronchitis", "muscle few disorder",
    # "refractory clinical depression") and a route it reads as weather ("fog inhaling")
    assert render("毛细支气管炎").english[0] == "bronchiolitis"
    assert render("肌少症").english[0] == "sarcopenia"
    assert render("难治性抑郁症").english[0] == "treatment-resistant depression"
    assert render("雾化吸入").english[0] == "nebulised inhalation"
    # neonatal and pathology words CC-CEDICT composes character by character
    assert render("早产儿").english[0] == "preterm infants"  # had been "premature birth child"
    assert (
        render("坏死性小肠结肠炎").english[0] == "necrotizing enterocolitis"
    )  # "necrosis small intestine colitis"
    assert render("缺血性脑卒中").english[0] == "ischemic stroke"  # had been "stroke", the modifier lost
    assert render("间质性肺病").english[0] == "interstitial lung disease"  # "mesenchyme lung disease"
    assert "diabetic retinopathy" in render("糖尿病视网膜病变").english[:2]
    # grades of severity CC-CEDICT lacks (中重度 had been "middle severe", 轻中度 "light withinness")
    assert render("中重度疼痛").english[0] == "moderate to severe pain"
    assert render("轻中度抑郁").english[0] == "mild to moderate depression"
    assert render("中度").english[0] == "moderate"
    # 肉毒毒素 had been "meat narcotic toxin", 受照剂量 "pleasant in accordance with dose", 肺康复 "lung rehabilitation"
    assert render("肉毒毒素").english[0] == "botulinum toxin"
    assert "radiation dose" in render("受照剂量").english[:2]
    assert render("肺康复").english[0] == "pulmonary rehabilitation"
    assert render("介入治疗").english[0].startswith("interventional")
    assert render("放射性白内障").english[0] == "radiation cataract"  # had been "radioactive cataract"
    assert render("放射性碘").english[0] == "radioactive iodine"  # CC-CEDICT's own word stays


def test_a_capital_letter_before_a_classifier_is_a_rank() -> None:
    # A|型 "type A" as 2|型 "type 2" (had been "A mold botulinum toxin")
    assert render("A型肉毒毒素").english[0] == "type A botulinum toxin"
    assert render("A型血友病").english[0] == "type A hemophilia"
    assert render("2型糖尿病").english[0] == "type 2 diabetes"


def test_composition_keeps_modifier_head_order() -> None:
    assert render("癫痫患者").english[0] == "epilepsy patients"
    surface = render("脑表面电极")
    assert surface.how == "composed"
    assert surface.english[0] == "brain surface electrode"
    assert render("深度学习模型").english[0] == "deep learning model"
    assert render("贝叶斯方法").english[0] == "Bayesian method"


def test_modifier_forms_and_attested_ranking() -> None:
    gestational = render("妊娠糖尿病")
    assert gestational.english[0] == "gestational diabetes"
    assert "pregnancy diabetes" in gestational.english
    # the caller's vocabulary decides between candidates
    attested = render("妊娠糖尿病", attested=lambda term: term == "pregnancy diabetes")
    assert attested.english[0] == "pregnancy diabetes"
    assert set(attested.english) == set(gestational.english)
    cerebral = render("脑表面电极", attested=lambda term: term.startswith("cerebral"))
    assert cerebral.english[0] == "cerebral surface electrode"
    # a dictionary word with several senses: the attested one first
    particles = render("细颗粒物", attested=lambda term: term == "fine particulate matter")
    assert particles.english[0] == "fine particulate matter"


def test_unattested_dictionary_gloss_also_offers_compositions() -> None:
    plain = render("焦虑症")  # CC-CEDICT: "neurosis; anxiety"
    assert plain.how == "dictionary"
    widened = render("焦虑症", attested=lambda term: term == "anxiety disorder")
    assert widened.english[0] == "anxiety disorder"
    assert widened.how == "composed"
    assert render("焦虑症", attested=lambda term: term == "nothing known").how == "dictionary"


def test_people_words_are_plural_at_the_head_only() -> None:
    assert render("患者").english[0] == "patients"
    assert render("哮喘儿童").english[0] == "asthma children"
    assert render("儿童哮喘").english[0] == "child asthma"  # a modifier stays singular
    assert render("小鼠").english[0] == "mice"
    assert render("孕妇").english[0] == "pregnant women"
    assert "the elderly" in render("老年人").english  # not "the elderlies"
    assert render("医护人员").english[0] == "medical personnel"  # a collective noun: not "personnels"


def test_verb_heads_become_gerunds_and_numbers_turn_round() -> None:
    assert render("语音解码").english[0] == "speech decoding"
    assert render("2型糖尿病").english[0] == "type 2 diabetes"
    assert render("三期临床试验").english[:2] == ("phase 3 clinical trial", "stage 3 clinical trial")
    assert english_forms.gerund("decode") == "decoding"
    assert english_forms.gerund("cut down") == "cutting down"
    assert english_forms.gerund("study") == "studying"
    assert english_forms.gerund("hew") == "hewing"
    assert english_forms.gerund("tie") == "tying"
    assert english_forms.gerund("control") == "controlling"
    assert english_forms.verb_nouns("migrate") == ["migration", "migrating", "migrate"]
    assert english_forms.verb_nouns("decode") == ["decoding", "decode"]
    assert english_forms.verb_nouns("go up") == ["going up", "go up"]
    assert english_forms.verb_nouns("stabilize")[0] == "stabilization"
    assert english_forms.verb_nouns("apologize") == ["apologizing", "apologize"]  # no "apologization"
    # a verb with its object at the head: the object before the action noun, singular
    assert english_forms.verb_nouns("inject drugs")[0] == "drug injection"
    assert render("献血").english[0] == "blood donation"
    assert english_forms.verb_nouns("raise children")[0] == "raising children"  # no regular action noun
    assert render("鸟类迁徙").english[0] == "birds migration"
    assert "blood sugar control" in render("血糖控制").english


def test_prefixes_join_their_head_and_negation_is_kept() -> None:
    assert render("非小细胞肺癌").english[0] == "non-small cell lung cancer"
    assert render("碳纳米管").english[0] == "carbon nanotube"
    # a negating prefix is never dropped from a term: it would name the opposite concept
    assert [r.english[0] for r in english_phrases("非侵入性脑机接口")] == [
        "non-invasive brain-computer interface"
    ]
    assert to_english("收入不平等") == "income inequality"
    assert english_forms.discipline_adjectives("electrochemistry") == ["electrochemical"]
    assert english_forms.discipline_adjectives("biology") == ["biological"]
    assert english_forms.discipline_adjectives("genetics") == ["genetic"]
    assert english_forms.discipline_adjectives("physics") == ["physical"]
    assert english_forms.discipline_adjectives("ministry") == []  # never "minical"
    assert english_forms.discipline_adjectives("basics") == []
    assert render("电化学阻抗").english[0] == "electrochemical impedance"
    assert render("退行性疾病").english[0] == "degenerative disease"  # 性 before a head: an adjective
    # "-ate" -> "-ative" is not always a word ("vibrative"): it follows the usual modifier unless attested
    generative = render("生成式模型").english
    assert generative[0] == "generation model" and "generative model" in generative[:3]
    assert render("生成式模型", attested=lambda t: t == "generative model").english[0] == "generative model"
    assert render("适应性免疫").english[0] == "adaptive immunity"
    # "-ict" verbs make "-ictive" adjectives (restrict -> restrictive, predict -> predictive)
    assert render("限制性输血").english[0].startswith("restrictive ")
    assert render("预测性模型").english[0] == "predictive model"
    assert render("微电极").english[0] == "microelectrode"  # closed-up prefixes, composed
    assert render("过表达").english[0] == "overexpression"  # 过 is a prefix here, not an aspect particle
    assert render("癫痫患者的脑电").english[0] == "epilepsy patient EEG"  # only the particle is dropped


def test_numerals_with_classifiers_and_non_answers_are_not_terms() -> None:
    assert [r.english[0] for r in english_phrases("一项横断面研究")] == ["cross-sectional study"]
    assert to_english("我不知道") == ""
    assert english_phrases("不知道") == []


# --- sentences and questions -----------------------------------------------------------------------


def test_to_english_of_a_question_drops_function_words() -> None:
    english = to_english("哪些研究使用了贝叶斯方法？")
    assert "Bayesian method" in english
    assert not has_chinese(english)
    assert "what" not in english.lower()


def test_to_english_keeps_english_parts_as_written() -> None:
    assert to_english("What sample sizes were used in 小鼠 experiments?") == (
        "What sample sizes were used in mice experiments?"
    )
    mixed = to_english("使用 EEG 的脑机接口研究有哪些？")
    assert "EEG" in mixed and "brain-computer interface" in mixed
    assert not has_chinese(mixed)


def test_english_phrases_splits_at_function_words_predicates_and_people() -> None:
    text = "本研究针对癫痫患者，采用脑表面电极记录神经活动，并使用深度学习模型解码语音。"
    best = [r.english[0] for r in english_phrases(text)]
    assert "epilepsy patients" in best
    assert "brain surface electrode" in best
    assert "neural activity" in best
    assert "deep learning model" in best
    for rendering in english_phrases(text):
        assert has_chinese(rendering.chinese) and rendering.chinese in text
    # an English word written against a Chinese term belongs to it
    assert [r.english[0] for r in english_phrases("PM2.5暴露与儿童哮喘")] == [
        "PM2.5 exposure",
        "children",
        "asthma",
    ]


def test_long_text_is_handled() -> None:
    text = "我们研究癫痫患者的脑电信号。" * 1500  # 21,000 characters
    english = to_english(text)
    assert "epilepsy patients" in english and not has_chinese(english)


# --- data and loading --------------------------------------------------------------------------------


def test_dictionary_is_loaded_once_per_process() -> None:
    first = cedict.lexicon()
    loads = cedict._loads
    render("癫痫患者")
    to_english("哪些研究使用了贝叶斯方法？")
    english_phrases("癲癇患者的腦電信號")
    assert cedict.lexicon() is first
    assert cedict._loads == loads
    assert len(first.entries) > 150_000  # simplified and traditional headwords of CC-CEDICT


def test_threads_asking_at_once_share_one_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cedict, "_lexicon", None)  # as in a fresh process; restored afterwards
    before = cedict._loads
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: cedict.lexicon(), range(4)))
    assert cedict._loads == before + 1
    assert all(result is results[0] for result in results)


def test_glossary_is_compact_well_formed_and_says_what_it_is() -> None:
    path = resources.files("agent.language").joinpath("data", "zh_en_glossary.tsv")
    text = path.read_text(encoding="utf-8")
    assert "original work" in text.lower()
    rows = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    # a supplement, not a second dictionary: a row is a sense CC-CEDICT lacks or gets wrong for research
    # text (or a modifier form or tag it does not state); a row CC-CEDICT and composition already render
    # the same way is removed (`python -m evals.bilingual.glossary_audit` lists them; session 33 removed
    # 27 such rows), so the cap bounds content of that kind, not the count of a second dictionary
    assert 100 < len(rows) < 1500
    heads = [row.split("\t")[0] for row in rows]
    assert len(heads) == len(set(heads)), "a headword is listed twice"
    for row in rows:
        fields = row.split("\t")
        assert has_chinese(fields[0]) and fields[1].strip(), row
        assert not has_chinese(fields[1]), row


def test_place_names_are_names_jieba_and_the_dictionary_agree_on() -> None:
    assert chinese_segmentation.is_place_name("长江流域") and chinese_segmentation.is_place_name("上海")
    # jieba tags these as places too, but the dictionary writes them as common words
    assert not chinese_segmentation.is_place_name("深度") and not chinese_segmentation.is_place_name("海马")
    assert not chinese_segmentation.is_place_name("城市")  # a place noun that modifies terms ("urban")


def test_a_names_english_name_comes_before_its_romanisation_and_description() -> None:
    # "Changjiang or Yangtze river basin": the pinyin spelling is no English name
    assert dictionary_senses("长江流域")[0].text == "Yangtze river basin"
    # "Yangtze River, or Chang Jiang": the alternative is a name, without its "or"
    assert [s.text for s in dictionary_senses("长江")] == ["Yangtze River", "Chang Jiang"]
    # "..., established in 2017, consisting of ...": what describes a name comes after it
    assert dictionary_senses("粤港澳大湾区")[0].text == "Guangdong-Hong Kong-Macao Greater Bay Area"


def test_a_place_is_named_without_the_gloss_of_what_and_where_it_is() -> None:
    # "Wuhan city on Changjiang, subprovincial city and capital of Hubei province": a term writes "Wuhan"
    assert dictionary_senses("武汉市")[0].text == "Wuhan"
    # "Hangzhou subprovincial city and capital of Zhejiang province in southeast China": too long a gloss
    # to be a sense, but the name is one
    assert dictionary_senses("杭州市")[0].text == "Hangzhou"
    # "Sichuan province (Szechuan) in southwest China": the name, before the old spelling in parentheses
    assert dictionary_senses("四川省")[0].text == "Sichuan"
    # a name followed by a word that is no place's kind stays whole
    assert dictionary_senses("帕金森病")[0].text == "Parkinson's disease"


def test_the_judge_chooses_among_a_words_first_senses_only() -> None:
    # 竞赛 "contest; competition; match; race": the vocabulary may move "competition" first, but a sense
    # further down that it happens to know ("race") is a rarer reading and stays behind
    assert render("竞赛", lambda english: english == "competition").english[0] == "competition"
    assert render("竞赛", lambda english: english == "race").english[0] == "contest"


def test_a_condition_verb_renders_its_condition() -> None:
    # CC-CEDICT glosses 失眠 "to suffer from insomnia": inside a term the condition is named
    assert english_forms.verb_nouns("suffer from insomnia")[0] == "insomnia"
    assert english_forms.verb_nouns("be afflicted with asthma")[0] == "asthma"
    assert render("慢性失眠").english[0] == "chronic insomnia"


def test_a_word_is_not_replaced_by_a_guess_from_its_own_characters() -> None:
    # 强度 "strength; intensity" is no MeSH term, but 强|度 as the quality of 强 ("violence") is no better
    rendering = render("强度", attested=lambda term: term == "violence")
    assert rendering.english[0] == "strength"
    assert "violence" not in rendering.english


def test_a_person_with_life_dates_is_named_by_surname() -> None:
    # CC-CEDICT: "Jean-Baptiste-Joseph Fourier (French mathematician, 1768-1830)"; a term says "Fourier"
    senses = [s.text for s in cedict.clean_definition("Thomas Bayes (1702-1761), English mathematician")]
    assert senses == ["Bayes", "Thomas Bayes"]  # the biography is no sense
    assert [s.text for s in cedict.clean_definition("S.D. Poisson (1781-1840), French mathematician")][
        0
    ] == "Poisson"
    assert render("傅里叶变换").english[0].startswith("Fourier ")


def test_a_light_verb_with_its_object_is_the_object_and_giving_up_is_cessation() -> None:
    assert english_forms.verb_nouns("commit suicide")[0] == "suicide"
    assert english_forms.verb_nouns("have a premature birth")[0] == "premature birth"
    assert english_forms.verb_nouns("give up smoking")[0] == "smoking cessation"
    assert render("自杀风险").english[0] == "suicide risk"  # not "commit suicide risk"
    assert render("戒烟干预").english[0] == "smoking cessation intervention"


def test_a_light_verb_before_a_preposition_names_no_act() -> None:
    assert english_forms.verb_nouns("take note of")[0] != "note of"


def test_an_irregular_action_noun_heads_a_term() -> None:
    assert english_forms.verb_nouns("grow")[0] == "growth"  # no rule makes it; "growing" is the gerund
    assert english_forms.action_nouns("grow") == ["growth"]  # before a head: 生长|速率 "growth rate"
    assert render("生长").english[0] == "growth"


def test_a_religions_qualified_term_also_offers_its_everyday_noun() -> None:
    # "(Buddhism)" names the religion's term; its everyday noun follows it, kept first where a judge knows it
    assert _texts(clean_definition("wholesome thinking (Buddhism)")) == ["wholesome thinking", "thinking"]
    assert _texts(clean_definition("wholesome thinking")) == ["wholesome thinking"]  # no religion, no noun
    assert "wind" not in _texts(clean_definition("earth, water, fire, and wind (Buddhism)"))  # no qualifier
    assert render("正念", attested={"mindfulness"}.__contains__).english[0] == "mindfulness"


def test_a_participle_and_an_adverb_give_back_their_verb_and_adjective() -> None:
    assert "ventilate" in english_forms.participle_bases("ventilated")
    assert "admit" in english_forms.participle_bases("admitted")
    assert "modify" in english_forms.participle_bases("modified")
    assert english_forms.participle_bases("red") == []
    assert english_forms.adjective_of_adverb("mechanically") == "mechanical"
    assert english_forms.adjective_of_adverb("intravenously") == "intravenous"
    assert english_forms.adjective_of_adverb("easily") == "easy"
    assert english_forms.adjective_of_adverb("possibly") == "possible"
    assert english_forms.adjective_of_adverb("only") is None  # too short to be made from an adjective


def test_a_gerund_gives_back_the_verbs_it_is_written_from() -> None:
    # the form alone cannot tell "bath" from "bathe" (nor "visit" from a "visite"): the caller's
    # vocabulary decides among them
    assert english_forms.gerund_bases("bathing") == ["bath", "bathe"]
    assert english_forms.gerund_bases("visiting")[0] == "visit"
    assert english_forms.gerund_bases("swimming")[0] == "swim"
    assert english_forms.gerund_bases("Controlling")[0] == "control"
    assert english_forms.gerund_bases("ring") == []  # no verb of three letters before "-ing"
    assert english_forms.gerund_bases("bathed") == []


def test_clinical_senses_the_dictionary_reads_by_everyday_senses() -> None:
    # 谱系 is "pedigree", 周围 "environs", 光凝 "light congeal" character by character
    assert render("孤独症谱系障碍").english[0] == "autism spectrum disorder"
    assert render("周围神经病变").english[0] == "peripheral neuropathy"
    assert render("激光光凝").english[0] == "laser photocoagulation"
    assert render("双联疗法").english[0] == "dual therapy"
    assert render("甲钴胺").english[0] == "mecobalamin"


def test_clinical_terms_composed_from_everyday_senses_are_glossed() -> None:
    # 病死率 was "die of illness rate", 高渗盐水 "high seep salt water", 电针 "electric needle", 鼻喷雾剂
    # "nasal mist spray agent", 整块切除 "whole lump excise", 生化复发 "biochemical recurring"
    assert render("病死率").english[0] == "mortality"
    assert render("高渗盐水").english[0] == "hypertonic saline"
    assert render("电针").english[0] == "electroacupuncture"
    assert render("鼻喷雾剂").english[0] == "nasal spray"
    assert render("整块切除率").english[0] == "en bloc resection rate"
    assert render("生化复发").english[0] == "biochemical recurrence"


def test_health_services_nursing_and_rehabilitation_words_are_the_fields_terms() -> None:
    # a class of glossary rows: health-system research words CC-CEDICT lacks or glosses by everyday senses
    # (养老 "enjoying a life in retirement", 数据包络分析 "data package wind analysis")
    assert render("养老服务").english[0] == "elderly care services"
    assert render("居家养老服务").english[0] == "home-based elderly care services"
    assert render("安宁疗护").english[0] == "hospice care"
    assert render("安宁疗护护士").english[0] == "hospice nurses"  # the modifier form before a head
    assert render("数据包络分析").english[0] == "data envelopment analysis"
    assert render("离职意愿").english[0] == "turnover intention"
    assert render("初产妇").english[0] == "primiparous women"
    assert render("压力性尿失禁").english[0] == "stress urinary incontinence"
    assert render("盆底肌训练").english[0] == "pelvic floor muscle training"
    assert render("照顾者负担").english[0] == "caregiver burden"
    assert render("基层医疗卫生机构").english[0] == "primary health care institutions"
    assert render("社区卫生服务中心").english[0] == "community health centers"
    assert render("质性研究").english[0] == "qualitative research"


def test_laboratory_imaging_dentistry_tcm_formula_and_policy_words_are_the_fields_terms() -> None:
    # a class of glossary rows for fields CC-CEDICT serves by everyday senses ("sugar hemoglobin", "code of
    # conduct ultrasound", "tooth circle", "containing fluorine paint", "band amount procuring")
    assert render("糖化血红蛋白").english[0] == "glycated hemoglobin"
    assert render("糖化白蛋白").english[0] == "glycated albumin"
    assert render("宏基因组二代测序").english[0] == "metagenomic next-generation sequencing"
    assert render("免疫抑制患者").english[0] == "immunocompromised patients"  # the modifier form
    assert render("常规超声").english[0] == "conventional ultrasound"
    assert render("超声弹性成像").english[0] == "ultrasound elastography"
    assert render("含氟涂料").english[0] == "fluoride varnish"
    assert render("非手术牙周治疗").english[0] == "non-surgical periodontal treatment"
    assert render("集中带量采购").english[0] == "centralized volume-based procurement"
    assert render("神经功能缺损").english[0] == "neurological deficit"
    # classic formulas by the pinyin names the English literature uses, not their characters' senses
    assert render("加味逍遥散").english[0] == "Jiawei Xiaoyao San"
    assert render("补阳还五汤").english[0] == "Buyang Huanwu decoction"
    # 抑郁症 after a modifier is the disorder, not CC-CEDICT's "clinical depression"
    assert render("围绝经期抑郁症").english[0] == "perimenopausal depressive disorder"


def test_a_glossary_term_holding_a_function_word_is_one_word() -> None:
    # 还 "still" inside 补阳还五汤 no longer cuts the formula's name into "complementary positive" and the rest
    assert tokenize("补阳还五汤对缺血性脑卒中")[0].key == "补阳还五汤"
    assert [t.key for t in tokenize("还需要进一步研究")][0] == "还"  # a function word outside any term stays
