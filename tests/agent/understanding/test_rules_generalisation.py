"""The rules fallback on phrasing it was not written for: general mechanisms, each tested on its own.

Every example here is a sentence of its own, not one of the evaluation cases: phrase boundaries
(reduced relative clauses, participles before prepositions, adverbs inside a noun phrase, verbs that
are nouns in a compound, MeSH terms holding a function word), the MeSH tree as evidence for a slot,
sentence structure (the effect of X on Y, "such as", a passive "be used to", "in terms of", a sentence
about the user), and for Chinese: people words ending a phrase, predicates inside a noun run, "A与B的
关系", Latin words after a Chinese cue, and slot phrases rendered whole.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.rules import extract_slots, mesh_kind


def _all_terms(slots: Slots) -> list[str]:
    return [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]


# --- English phrase boundaries ------------------------------------------------------------------


def test_a_participle_after_people_starts_a_relative_clause() -> None:
    slots = extract_slots("Outcomes of adults undergoing hip arthroplasty.")
    assert "adults" in slots.subject_population
    assert not any("undergoing" in term for term in _all_terms(slots))


def test_a_past_participle_before_a_preposition_is_a_verb() -> None:
    slots = extract_slots("Gut microbiomes of infants, characterised by shotgun metagenomic sequencing.")
    assert not any(term.lower().startswith("characterised") for term in _all_terms(slots))
    assert "shotgun metagenomic sequencing" in slots.method_measurement


def test_an_adverb_inside_a_noun_phrase_stays_with_it() -> None:
    slots = extract_slots("Nutrition support in critically ill adults.")
    assert any("critically ill adults" in term for term in slots.subject_population)


def test_use_after_a_noun_is_the_noun_of_a_compound() -> None:
    slots = extract_slots("Cannabis use and psychosis among young adults.")
    assert "Cannabis use" in _all_terms(slots)
    assert "psychosis" not in slots.method_measurement  # "use" did not become a method cue


def test_a_mesh_term_with_a_function_word_is_one_phrase() -> None:
    slots = extract_slots("Quality of life after stroke in older adults.")
    assert any(term.lower() == "quality of life" for term in _all_terms(slots))


# --- which slot: MeSH as evidence ---------------------------------------------------------------


def test_the_mesh_tree_names_the_slot_of_an_unknown_head() -> None:
    assert mesh_kind("broiler chickens") == "subject_population"  # B01: an organism studied
    assert mesh_kind("ketamine") == "context"  # D: a drug given
    assert mesh_kind("loneliness") == "output_target"  # F01: a behaviour, an outcome
    assert mesh_kind("tuberculosis") == "condition"
    assert mesh_kind("speech decoding") is None  # no descriptor ends the phrase
    slots = extract_slots("Salmonella carriage of isolates from broiler chickens.")
    assert "broiler chickens" in slots.subject_population  # "from" would have made it a method


def test_a_condition_is_population_after_in_and_outcome_after_an_effect() -> None:
    assert "tuberculosis" in extract_slots("Vitamin D levels in tuberculosis.").subject_population
    slots = extract_slots("The effect of school meals on obesity of primary pupils.")
    assert "school meals" in slots.context and "obesity" in slots.output_target


def test_a_state_a_person_is_in_after_in_is_who_is_studied() -> None:
    """MeSH files Depression and Anxiety as behaviour (an outcome), but "relapse in depression" studies
    people with depression, as "relapse in schizophrenia" does; the state stays the outcome elsewhere."""
    slots = extract_slots("Does exercise prevent relapse in recurrent depression?")
    assert slots.subject_population == ["recurrent depression"] and slots.output_target == ["relapse"]
    assert "anxiety" in extract_slots("We measure changes in anxiety after surgery.").output_target
    assert "depression" in extract_slots("Reductions in depression among older adults").output_target


def test_a_generic_head_takes_the_slot_of_what_it_names() -> None:
    slots = extract_slots("Reading chest radiographs with a deep learning system.")
    assert "deep learning system" in slots.method_algorithm


# --- sentence structure -------------------------------------------------------------------------


def test_the_effect_of_x_on_y() -> None:
    slots = extract_slots("The effect of class size on reading achievement.")
    # a measured size acting on the outcome is a feature of the study (`slot_roles._measured_quantity`)
    assert slots.signal_feature == ["class size"] and "reading achievement" in slots.output_target


def test_an_example_takes_the_slot_of_what_it_exemplifies() -> None:
    slots = extract_slots("Which inflammatory biomarkers, such as CRP, predict sepsis?")
    assert "CRP" in slots.signal_feature


def test_a_passive_use_names_the_method_and_comparatives_end_phrases() -> None:
    slots = extract_slots("Can wearable cameras be used to measure sedentary behaviour?")
    assert "wearable cameras" in slots.method_measurement
    slots = extract_slots("Is aspirin better than heparin in terms of bleeding?")
    assert "aspirin" in slots.context and "bleeding" in slots.output_target
    assert not any("better" in term or "terms" in term for term in _all_terms(slots))


def test_a_sentence_about_the_user_gives_no_term() -> None:
    slots = extract_slots("I'm a hospital pharmacist. Antibiotic stewardship in intensive care units.")
    assert not any("pharmacist" in term for term in _all_terms(slots))


def test_a_process_noun_in_ization_is_a_task() -> None:
    assert [t.lower() for t in extract_slots("Document summarization for legal texts.").task] == [
        "document summarization"
    ]
    assert extract_slots("Speaker diarization of podcasts.").task == ["Speaker diarization"]


# --- Chinese -------------------------------------------------------------------------------------


def test_a_people_word_ends_its_phrase() -> None:
    slots = extract_slots("研究老年人孤独感。")  # the rules keep the Chinese; rendering comes later
    assert slots.subject_population == ["老年人"] and "孤独感" in slots.output_target


def test_a_relation_names_the_exposure_and_the_outcome() -> None:
    slots = extract_slots("研究通勤方式与肥胖的关系。")
    assert "通勤方式" in slots.context and "肥胖" in slots.output_target
    # the one that names a condition is the outcome, whichever is written first
    slots = extract_slots("研究肥胖与通勤方式的关系。")
    assert "肥胖" in slots.output_target and "通勤方式" in slots.context


def test_latin_words_after_a_chinese_cue_take_its_slot() -> None:
    slots = extract_slots("用 SVM 和 ResNet 分类遥感影像。")
    assert "SVM" in slots.method_algorithm or "SVM" in slots.method_measurement
    assert "ResNet" in slots.method_measurement + slots.method_algorithm  # the cue 用: a method
    slots = extract_slots("基于 Sentinel-2 影像监测湿地变化。")
    assert any("Sentinel-2" in t for t in slots.method_measurement) and not slots.context


def test_english_grammar_words_are_no_part_of_a_chinese_term() -> None:
    slots = extract_slots("We study 城市热岛效应 in Shanghai.")
    assert not any(term.startswith("We") for term in _all_terms(slots))


def test_a_time_span_is_no_concept() -> None:
    slots = extract_slots("分析20世纪农业政策的变化。")
    assert not any(term.startswith("20") for term in _all_terms(slots))


def test_the_organisms_named_before_a_measured_head_are_studied() -> None:
    slots = extract_slots("Bat echolocation call classification in caves.")
    assert any(term.lower() == "bat" for term in slots.subject_population)
    # generic people words and conditions before a head are not a population of their own
    assert not extract_slots("Population pharmacokinetic modelling of amikacin.").subject_population


def test_what_a_study_is_of_names_its_method() -> None:
    slots = extract_slots("An eye-tracking study of reading in dyslexic children.")
    assert "eye-tracking" in slots.method_measurement


def test_plural_agent_nouns_after_in_are_people_and_actions_join_their_object() -> None:
    assert "night-shift workers" in extract_slots("Sleep quality in night-shift workers.").subject_population
    slots = extract_slots("Early introduction of eggs and egg allergy.")
    assert "Early eggs introduction" in slots.context or "Early egg introduction" in slots.context


def test_a_place_is_the_setting_whatever_the_cue() -> None:
    slots = extract_slots("Register data from Denmark on fertility.")
    assert "Denmark" in slots.context


def test_a_study_of_a_and_b_relates_them_and_a_method_for_a_task_is_the_task() -> None:
    slots = extract_slots("饮酒与胃癌发病风险的病例对照研究。")
    assert "饮酒" in slots.context and any("胃癌" in t for t in slots.output_target)
    assert "行人检测" in extract_slots("基于深度学习的行人检测方法。").task


def test_trees_of_a_model_and_a_verb_ending_a_clause() -> None:
    assert (
        "gradient-boosted trees"
        in extract_slots("Churn prediction with gradient-boosted trees.").method_algorithm
    )
    slots = extract_slots("Regression discontinuity designs preferred.")
    assert not any("preferred" in term for term in _all_terms(slots))


def test_chinese_treatment_factors_and_people_words_as_modifiers() -> None:
    slots = extract_slots("艾灸治疗膝骨关节炎的临床研究。")  # X治疗Y: X is given, Y is treated
    assert "艾灸" in slots.context and any("膝骨关节炎" in t for t in slots.subject_population)
    slots = extract_slots("大学生体育锻炼意愿的影响因素。")  # the factors act on what comes before 的
    assert any("体育锻炼意愿" in t for t in slots.output_target)
    # a people word before a phrase that names nothing by itself modifies it (父母|教养方式)
    assert "父母" not in extract_slots("父母教养方式对儿童社交能力的影响。").subject_population


def test_a_chinese_subject_noun_introduces_who_is_studied() -> None:
    assert "退休职工" in extract_slots("研究对象为退休职工。").subject_population


# --- issue 16: mechanisms found on fresh descriptions from fields the dev set covered little ------


def test_a_stance_adverb_is_no_part_of_a_noun_phrase() -> None:
    slots = extract_slots("Ideally cohort studies of shift work and breast cancer among nurses.")
    assert not any(term.lower().startswith("ideally") for term in _all_terms(slots))
    assert "shift work" in _all_terms(slots)  # "work" after a noun is the noun, not the verb


def test_a_focusing_adverb_before_a_verb_is_no_term() -> None:
    slots = extract_slots(
        "Loyalty apps in grocery chains: do they raise basket size or just increase store switching?"
    )
    assert not any(term.lower() in {"just", "just shift"} for term in _all_terms(slots))
    merely = extract_slots("We test whether hedgerows merely relocate pollinators in arable landscapes.")
    assert not any(term.lower().startswith("merely") for term in _all_terms(merely))


def test_like_after_a_noun_introduces_examples() -> None:
    slots = extract_slots("Sleep duration measured with wearable devices like the ActiGraph in toddlers.")
    assert not any(term.lower().endswith(" like") for term in _all_terms(slots))


def test_a_relation_noun_is_no_concept_and_a_closed_compound_names_people() -> None:
    slots = extract_slots("The link between screen time and myopia in schoolchildren.")
    assert "link" not in [t.lower() for t in _all_terms(slots)]
    assert "schoolchildren" in slots.subject_population
    assert "myopia" in slots.output_target


def test_an_algorithmic_modifier_makes_a_cued_method_an_analysis() -> None:
    slots = extract_slots("Glacier mass loss in the Andes, estimated using probabilistic emulators.")
    assert "probabilistic emulators" in slots.method_algorithm
    assert "Glacier mass loss" in slots.output_target  # "loss" heads an outcome


def test_a_name_written_as_software_is_an_analysis_but_an_acronym_is_not() -> None:
    assert "LightGBM" in extract_slots("Habitat suitability of lynx modelled with LightGBM.").method_algorithm
    assert "InSAR" in extract_slots("Surface deformation mapped with InSAR.").method_measurement


def test_instrument_and_analysis_acronyms() -> None:
    assert (
        "XRD"
        in extract_slots("Phase composition of zirconia ceramics characterised by XRD.").method_measurement
    )
    assert "PCA" in extract_slots("Dimensionality reduction of transcriptomes with PCA.").method_algorithm


def test_with_after_a_participle_of_giving_is_no_method() -> None:
    slots = extract_slots("Kidney function in rats treated with metformin.")
    assert "metformin" in slots.context
    assert slots.method_measurement == []
    assert "rats" in slots.subject_population
    # after a participle of a condition, "with" still names the condition of the people
    assert extract_slots("Pneumonia in children diagnosed with measles.").subject_population == [
        "children with measles",
        "measles",
    ]


def test_what_is_used_as_a_marker_is_the_feature() -> None:
    slots = extract_slots("Heart rate variability as an indicator of burnout in paramedics.")
    assert "Heart rate variability" in slots.signal_feature
    assert "indicator" not in [t.lower() for t in _all_terms(slots)]


def test_an_outcome_head_under_an_exposure_cue_is_the_exposure() -> None:
    slots = extract_slots("How does permafrost loss affect river discharge?")
    assert "permafrost loss" in slots.context
    assert "river discharge" in slots.output_target


def test_an_unknown_gerund_is_no_task_and_a_singular_noun_before_one_is_a_modifier() -> None:
    slots = extract_slots("Peer mentoring and retention of first-generation university students.")
    assert slots.task == []
    assert "Peer mentoring" in slots.context
    assert (
        "Student learning outcomes"
        in extract_slots("Student learning outcomes in blended courses.").output_target
    )


def test_a_known_verb_after_a_mass_noun_opens_a_relative_clause() -> None:
    slots = extract_slots("Chloride diffusion in concrete containing slag.")
    assert "concrete" in slots.subject_population
    assert not any("containing" in term for term in _all_terms(slots))


def test_a_noun_before_effects_on_is_the_exposure() -> None:
    slots = extract_slots("Ocean acidification effects on calcification rates of reef-building corals.")
    assert "Ocean acidification" in slots.context
    assert "reef-building corals" in slots.subject_population


def test_task_verbs_in_both_spellings() -> None:
    slots = extract_slots("We train a model to summarise discharge letters.")
    assert any(term.endswith("summarisation") for term in slots.task)


def test_a_mesh_term_holding_a_common_verb_stays_whole() -> None:
    slots = extract_slots("Root architecture of sorghum imaged with X-ray computed tomography.")
    assert "X-ray computed tomography" in slots.method_measurement


def test_a_plural_task_noun_names_things_not_the_task() -> None:
    slots = extract_slots("Tax transfers and household consumption in Peru.")
    assert slots.task == []
    assert "Tax transfers" in slots.context  # before an outcome joined by "and": the exposure
    assert "household consumption" in slots.output_target


def test_a_plural_noun_before_and_keeps_its_own_head() -> None:
    slots = extract_slots("Pensions and labour supply of older workers.")
    assert "Pensions" in slots.context
    assert "Mu rhythms" in extract_slots("Mu and beta rhythms during motor imagery.").signal_feature


def test_a_network_is_a_model_only_with_a_model_modifier() -> None:
    slots = extract_slots("Bayesian networks and LSTM networks for fault diagnosis in power networks.")
    assert slots.method_algorithm == ["Bayesian networks", "LSTM networks"]
    # what a task acts on "in" is the system studied (a setting before units studied were read so)
    assert "power networks" in slots.subject_population


def test_uses_after_a_subject_is_the_verb() -> None:
    slots = extract_slots("Our group uses cryo-electron microscopy to study membrane transporters.")
    assert "cryo-electron microscopy" in slots.method_measurement
    assert "like" not in extract_slots("I would also like to include weather data.").context


def test_the_association_between_x_and_y_names_exposure_and_outcome() -> None:
    slots = extract_slots(
        "We examine the association between green roof coverage and urban heat island intensity."
    )
    assert "green roof coverage" in slots.context
    assert "urban heat island intensity" in slots.output_target


def test_what_an_effect_acts_on_is_the_outcome_even_with_a_task_head() -> None:
    slots = extract_slots("Impact of telehealth nurse coaching on glycaemic control among rural adults.")
    assert "glycaemic control" in slots.output_target
    assert slots.task == []


def test_in_situ_is_one_modifier_and_under_names_the_condition() -> None:
    slots = extract_slots("Solar cell degradation under humidity, studied with in situ X-ray scattering.")
    assert "in situ X-ray scattering" in slots.method_measurement
    assert "humidity" in slots.context


def test_an_analysis_named_by_its_technique_is_an_algorithm() -> None:
    slots = extract_slots("Survival analysis of kidney graft failure, and gait analysis of amputees.")
    assert "Survival analysis" in slots.method_algorithm
    assert "gait analysis" in slots.task


def test_training_techniques_are_algorithms() -> None:
    slots = extract_slots("Speech recognition for dysarthric speakers using data augmentation.")
    assert "data augmentation" in slots.method_algorithm


def test_measure_is_a_verb_and_test_before_a_noun_is_a_noun() -> None:
    slots = extract_slots("We use eye tracking to measure reading behaviour in dyslexic children.")
    assert "reading behaviour" in slots.output_target
    slots = extract_slots("Class size and test scores, estimated with regression discontinuity.")
    assert "test scores" in _all_terms(slots)
    assert "regression discontinuity" in slots.method_algorithm


def test_task_verbs_after_a_relative_pronoun_and_in_a_question() -> None:
    slots = extract_slots("We build a classifier that detects foot ulcers from smartphone photos.")
    assert "foot ulcer detection" in slots.task
    slots = extract_slots("Can machine learning predict crop yield from soil moisture data?")
    assert "crop yield prediction" in slots.task
    assert "machine learning" in slots.method_algorithm


def test_closed_compounds_of_organisms_and_materials_are_studied() -> None:
    slots = extract_slots("Foraging of honeybees, and creep in nickel-based superalloys.")
    assert "honeybees" in slots.subject_population
    assert "nickel-based superalloys" in slots.subject_population


def test_a_task_word_after_a_method_cue_takes_its_instrument_s_kind() -> None:
    slots = extract_slots("Bat movements recorded in field experiments with GPS tracking.")
    assert "GPS tracking" in slots.method_measurement


def test_a_condition_during_which_one_studies_is_the_setting() -> None:
    slots = extract_slots("Nurse burnout measured with online surveys during COVID-19.")
    assert "COVID-19" in slots.context


def test_only_a_study_design_word_makes_a_design_an_algorithm() -> None:
    slots = extract_slots("Design of low-carbon cement blends for marine structures.")
    assert slots.method_algorithm == []
    # moved inside, no capital; read as "designing low-carbon cement blends" (singular before the task)
    assert any(term.endswith("blend design") for term in slots.task)
    slots = extract_slots("Wages after plant closures, with an event-study design.")
    assert "event-study design" in slots.method_algorithm


def test_incidental_words_of_a_chatty_description_are_no_concepts() -> None:
    slots = extract_slots(
        "Hi, I'm starting a master's project: the goal is to better understand the mechanisms by which "
        "exercise improves cognition in older adults."
    )
    assert sorted(t.lower() for t in _all_terms(slots)) == ["cognition", "exercise", "older adults"]


def test_machine_translation_is_a_task_and_a_support_vector_machine_a_model() -> None:
    slots = extract_slots("Transfer learning for low-resource machine translation of indigenous languages.")
    assert "low-resource machine translation" in slots.task
    assert "transfer learning" in [t.lower() for t in slots.method_algorithm]
    assert (
        "Support vector machines"
        in extract_slots("Support vector machines for fault detection.").method_algorithm
    )


def test_a_task_noun_makes_a_network_a_model_and_visits_are_outcomes() -> None:
    slots = extract_slots(
        "Coral bleaching detection from drone imagery using semantic segmentation networks."
    )
    assert "semantic segmentation networks" in slots.method_algorithm
    slots = extract_slots("Wildfire smoke exposure and emergency department visits in California.")
    assert "Wildfire smoke exposure" in slots.context
    assert "emergency department visits" in slots.output_target


def test_what_a_measuring_task_predicts_or_maps_is_also_the_outcome() -> None:
    slots = extract_slots(
        "We are predicting tensile strength of recycled aggregate concrete with gradient boosting."
    )
    assert any("tensile strength" in t and "prediction" in t for t in slots.task)
    assert "tensile strength" in slots.output_target
    mapped = extract_slots("Mapping soil organic carbon stocks from hyperspectral imagery.")
    assert "soil organic carbon stocks" in mapped.output_target
    # a detection or decoding task names what it finds, not an outcome measured on it
    found = extract_slots("Detecting fraudulent transactions in card payments with autoencoders.")
    assert not found.output_target


def test_a_progressive_with_no_object_makes_its_subject_the_outcome() -> None:
    slots = extract_slots("Coffee leaf rust is spreading into higher altitudes. We survey farms in Honduras.")
    assert "Coffee leaf rust" in slots.output_target
    assert "spreading" not in [t.lower() for t in _all_terms(slots)]


def test_participles_before_a_noun_stay_in_its_phrase_and_alone_name_no_concept() -> None:
    slots = extract_slots("A cohort study of reading gains using standardized test scores in rural schools.")
    assert "standardized test scores" in _all_terms(slots)
    pooled = extract_slots("We would pool randomised and observational studies of zinc for diarrhoea.")
    assert "randomised" not in [t.lower() for t in _all_terms(pooled)]


def test_what_a_task_predicts_from_with_no_instrument_word_is_the_predictor() -> None:
    slots = extract_slots(
        "We forecast landslides on mountain slopes from antecedent rainfall and soil moisture."
    )
    assert {"antecedent rainfall", "soil moisture"} <= set(slots.signal_feature)
    imaged = extract_slots("We grade diabetic retinopathy from fundus photographs.")
    assert "fundus photographs" in imaged.method_measurement


def test_a_tree_with_an_algorithmic_modifier_is_a_model_not_a_plant() -> None:
    slots = extract_slots("Lava flow hazard is assessed with a Bayesian event tree.")
    assert "Bayesian event tree" in slots.method_algorithm
    assert "Bayesian event tree" not in slots.subject_population


def test_a_verb_of_effect_in_a_question_ends_its_subject() -> None:
    slots = extract_slots("Does early mobilisation after hip fracture surgery shorten length of stay?")
    assert "length of stay" in slots.output_target
    assert "early mobilisation" in slots.context
    assert not any("shorten" in t for t in _all_terms(slots))


def test_a_task_noun_with_of_reads_as_its_gerund_also_after_a_manner_adjective() -> None:
    slots = extract_slots("Real-time detection of driver drowsiness from steering wheel signals.")
    assert "driver drowsiness detection" in slots.task
    estimated = extract_slots("Estimation of soil moisture from Sentinel-1 backscatter.")
    assert "soil moisture estimation" in estimated.task
    assert "soil moisture" in estimated.output_target


def test_the_ing_form_of_a_light_or_common_verb_alone_names_no_concept() -> None:
    doing = extract_slots("Does doing a pain assessment before surgery in frail adults reduce delirium?")
    assert "doing" not in [t.lower() for t in _all_terms(doing)]
    assert "pain assessment" in _all_terms(doing)
    responding = extract_slots("Psoriasis not responding to methotrexate: which biologic next?")
    assert "responding" not in [t.lower() for t in _all_terms(responding)]
    # an activity MeSH names, or a verb the lexicon does not call common, is kept
    # the first word of a title is capitalised, and still the verb ("Living" had been a required block)
    living = extract_slots("Living with excess skin after massive weight loss: patients' experiences")
    assert "living" not in [t.lower() for t in _all_terms(living)]
    kept = extract_slots("Does vaping or exercising change sleep in adolescents?")
    assert {"vaping", "exercising"} <= {t.lower() for t in _all_terms(kept)}
