"""The English rules fallback on names a function word or punctuation used to cut, and on roles a verb
gives: each mechanism tested on sentences of its own (not evaluation cases).

Names: a slash between capitals or digits ("PET/CT"), a suspended hyphen ("short- and long-term"), a
disease name holding "with" or "of the" that MeSH knows whole, scope words after a population. Roles:
the procedure people undergo or receive is the setting; what the researchers build is their method.
"""

from __future__ import annotations

from agent.language.morphology import plural, singular
from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.english_tokens import description_tokens
from agent.understanding.rules import extract_slots


def _all_terms(slots: Slots) -> list[str]:
    return [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]


# --- names kept whole ---------------------------------------------------------------------------


def test_a_slash_between_capitals_or_digits_joins_one_name() -> None:
    tokens = description_tokens("Staging with PET/CT in HIV/AIDS and the COVID-19/SARS-CoV-2 era.")
    assert "PET/CT" in tokens
    assert "HIV/AIDS" in tokens
    assert "COVID-19/SARS-CoV-2" in tokens


def test_a_word_with_diacritics_stays_one_word_spelt_as_mesh_spells_it() -> None:
    # "Māori" had been cut into "M", "ā", "ori", and searched as "M ā ori"
    tokens = description_tokens("Diabetes education for Māori and people with Sjögren's syndrome.")
    assert "Maori" in tokens and "Sjogren's" in tokens
    assert "ā" not in tokens and "ori" not in tokens


def test_a_slash_between_lower_case_words_still_lists() -> None:
    tokens = description_tokens("Burnout in nurses/midwives and/or physicians.")
    assert "nurses/midwives" not in tokens
    assert "and/or" not in tokens


def test_a_named_assay_with_a_slash_stays_one_method() -> None:
    slots = extract_slots("Diagnostic yield of the GeneXpert MTB/RIF Ultra assay in people living with HIV.")
    assert any("MTB/RIF" in term for term in slots.method_measurement)
    assert not any(term.endswith("MTB") or term.startswith("RIF") for term in _all_terms(slots))


def test_a_suspended_hyphen_distributes_the_compound() -> None:
    slots = extract_slots("Caesarean section rates in upper- and lower-middle-income countries.")
    terms = _all_terms(slots)
    assert "upper-middle-income countries" in terms
    assert "lower-middle-income countries" in terms
    assert "upper" not in " ".join(t for t in terms if "upper-" not in t)


def test_a_suspended_hyphen_before_an_outcome_keeps_both_outcomes() -> None:
    slots = extract_slots("Short- and long-term mortality after hip arthroplasty.")
    assert {"Short-term mortality", "long-term mortality"} <= set(slots.output_target)


def test_with_inside_a_disease_name_mesh_knows_whole_does_not_cut_it() -> None:
    slots = extract_slots("Falls and fractures in people with dementia with Lewy bodies.")
    terms = _all_terms(slots)
    assert any("dementia with Lewy bodies" in term for term in terms)
    assert "Lewy bodies" not in terms


def test_of_the_inside_a_fracture_name_mesh_knows_whole_does_not_cut_it() -> None:
    slots = extract_slots("Early mobilisation after fractures of the femoral neck in nursing home residents.")
    terms = _all_terms(slots)
    assert "fractures of the femoral neck" in terms
    assert "femoral neck" not in terms


def test_people_with_a_condition_are_still_cut_at_with() -> None:
    slots = extract_slots("Exercise for adults with asthma.")
    assert "adults with asthma" in slots.subject_population


def test_scope_words_after_a_population_are_not_part_of_it() -> None:
    slots = extract_slots("Burnout among resident physicians nationwide.")
    assert "resident physicians" in slots.subject_population
    assert not any("nationwide" in term for term in _all_terms(slots))


# --- roles a verb gives -------------------------------------------------------------------------


def test_the_procedure_people_undergo_is_the_setting_not_a_method() -> None:
    slots = extract_slots("Does virtual reality distraction reduce pain in children undergoing venipuncture?")
    assert "venipuncture" in slots.context
    assert "children" in slots.subject_population


def test_the_procedure_people_are_scheduled_for_is_the_setting() -> None:
    slots = extract_slots("Preoperative anxiety in adults scheduled for cardiac catheterization.")
    assert "cardiac catheterization" in slots.context


def test_what_people_receive_stays_the_intervention() -> None:
    slots = extract_slots("Nausea in women receiving cisplatin chemotherapy.")
    assert "cisplatin chemotherapy" in slots.context


def test_what_the_researchers_build_is_their_method() -> None:
    slots = extract_slots(
        "Our team is building a conversational agent for smoking cessation and will test whether it "
        "improves quit rates."
    )
    assert "conversational agent" in slots.method_algorithm
    assert "conversational agent" not in slots.context


def test_a_drug_the_researchers_develop_stays_the_intervention() -> None:
    slots = extract_slots("We develop a vaccine against dengue.")
    assert "vaccine" in slots.context


def test_a_task_noun_acting_on_an_outcome_is_the_intervention() -> None:
    slots = extract_slots("Does home blood pressure monitoring improve medication adherence?")
    assert "home blood pressure monitoring" in slots.context
    assert "home blood pressure monitoring" not in slots.task


def test_the_sensitivity_of_a_test_is_an_outcome() -> None:
    slots = extract_slots("We will compare the specificity of the algorithm with that of cardiologists.")
    assert "specificity" in slots.output_target


def test_a_named_country_is_the_setting_not_the_population() -> None:
    slots = extract_slots("Vaccine hesitancy among parents in the United Kingdom.")
    assert "United Kingdom" in slots.context
    assert "parents" in slots.subject_population


def test_places_people_live_in_are_the_setting_beside_the_people() -> None:
    slots = extract_slots("Malaria in pregnant women living in rural villages.")
    assert "rural villages" in slots.context
    assert "rural villages" not in slots.subject_population


def test_places_studied_alone_stay_the_units_studied() -> None:
    slots = extract_slots("Air pollution and heat waves in coastal cities.")
    assert "coastal cities" in slots.subject_population
    # a place named by its geography is the setting (the convention in evals/understanding/metrics.py)
    named = extract_slots("Air pollution and heat waves in Chinese cities.")
    assert "Chinese cities" in named.context


def test_what_is_related_to_something_is_the_outcome() -> None:
    slots = extract_slots("Is screen time related to myopia progression in schoolchildren?")
    assert "myopia progression" in slots.output_target


def test_the_topic_one_works_on_or_studies_is_what_is_observed() -> None:
    slots = extract_slots("I am working on dune migration along arid coastlines.")
    assert "dune migration" in slots.output_target
    slots = extract_slots("We study seed dispersal by frugivorous bats.")
    assert "seed dispersal" in slots.output_target


def test_a_screening_procedure_people_undergo_stays_whole_in_the_setting() -> None:
    slots = extract_slots("Pain in women undergoing screening mammography.")
    assert "screening mammography" in slots.context


def test_a_participle_after_studies_opens_a_relative_clause() -> None:
    slots = extract_slots("We pool randomised trials reporting wound dehiscence after caesarean section.")
    assert "wound dehiscence" in slots.output_target
    assert not any("reporting" in term for term in _all_terms(slots))


def test_better_or_worse_is_no_part_of_an_outcome() -> None:
    slots = extract_slots("Is early mobilisation associated with better functional outcomes than bed rest?")
    assert not any(term.lower().startswith("better") for term in _all_terms(slots))


def test_a_participle_before_its_adverb_is_a_verb() -> None:
    slots = extract_slots("Exercise therapy for knee osteoarthritis delivered remotely in older adults.")
    assert not any("delivered" in term or "remotely" in term for term in _all_terms(slots))


def test_a_time_after_a_noun_ends_the_phrase() -> None:
    slots = extract_slots("Relapse rates 6 months after detoxification in heroin users.")
    assert not any("months" in term or term.endswith(" 6") for term in _all_terms(slots))


def test_a_preposition_opens_no_mesh_name() -> None:
    tokens = description_tokens("Quality of life 3 years after treatment.")
    assert "after treatment" not in tokens
    assert "quality of life" in [t.lower() for t in tokens]


def test_a_short_gerund_after_by_is_a_verb_on_its_object() -> None:
    slots = extract_slots("We raise soil carbon by adding biochar to paddy fields.")
    assert not any(term.startswith("adding") for term in _all_terms(slots))
    assert any("biochar" in term for term in _all_terms(slots))


def test_the_units_data_are_on_are_studied() -> None:
    slots = extract_slots("We have administrative data on nursing homes and home care agencies.")
    assert "nursing homes" in slots.subject_population
    assert "home care agencies" in slots.subject_population


def test_examples_of_what_people_have_describe_them() -> None:
    slots = extract_slots("Adherence in adults with comorbidities, e.g. obesity or chronic pain.")
    assert "adults with comorbidities" in slots.subject_population
    assert "chronic pain" in slots.context
    assert "chronic pain" not in slots.subject_population


def test_what_a_gerund_after_in_drives_is_the_response() -> None:
    slots = extract_slots("The role of grazing and fire in driving shrub encroachment.")
    assert "shrub encroachment" in slots.output_target
    assert not any(term.startswith("driving") for term in _all_terms(slots))


def test_data_on_a_drug_do_not_make_it_a_population() -> None:
    slots = extract_slots("We use dispensing data on statins.")
    assert "statins" not in slots.subject_population


def test_instrumental_variables_are_an_analysis() -> None:
    slots = extract_slots("Returns to schooling estimated with an instrumental variable approach.")
    assert any("instrumental variable" in term for term in slots.method_algorithm)


def test_a_consumption_before_the_risk_of_a_disease_is_the_exposure() -> None:
    slots = extract_slots("Sugar-sweetened beverage consumption and risk of gout in men.")
    assert "Sugar-sweetened beverage consumption" in slots.context
    assert "gout" in slots.output_target


def test_the_event_after_which_outcomes_are_observed_is_the_setting() -> None:
    slots = extract_slots("Return to work after hospitalisation for COVID-19.")
    assert "hospitalisation" in slots.context
    assert "hospitalisation" not in slots.output_target


def test_a_count_of_participants_is_a_sample_size_not_a_population() -> None:
    slots = extract_slots("A discrete choice experiment with about 1,500 respondents in Ghana.")
    assert "respondents" not in _all_terms(slots)
    slots = extract_slots("We surveyed 300 pharmacists.")
    assert "pharmacists" in slots.subject_population  # people of a named kind stay the population


def test_the_accuracy_of_a_test_is_an_outcome() -> None:
    slots = extract_slots("Accuracy of point-of-care ultrasound for appendicitis in children.")
    assert "Accuracy" in slots.output_target


def test_robustness_and_bias_are_what_is_observed() -> None:
    slots = extract_slots("Robustness of speech recognisers to accented English.")
    assert "Robustness" in slots.output_target
    slots = extract_slots("Publication bias in trials of homeopathy.")
    assert "Publication bias" in slots.output_target


def test_bias_is_a_singular_noun() -> None:
    # agent.language.morphology: "bias" is no plural of "bia"; its plural is "biases"
    assert singular("bias") == "bias"
    assert singular("biases") == "bias"
    assert plural("bias") == "biases"


def test_a_slash_name_the_chinese_pass_read_is_not_read_again() -> None:
    slots = extract_slots("采用 PET/CT 评估淋巴瘤患者的治疗反应。")
    assert sum("PET" in term for term in _all_terms(slots)) <= 1


def test_the_main_data_names_no_concept() -> None:
    slots = extract_slots("Pharmacy dispensing records will be our primary data.")
    assert not any(term.lower().endswith("primary data") for term in _all_terms(slots))


def test_access_alone_is_no_concept_what_is_reached_is() -> None:
    slots = extract_slots("Does access to paid sick leave reduce presenteeism among restaurant workers?")
    assert "access" not in [term.lower() for term in _all_terms(slots)]
    assert "paid sick leave" in slots.context


def test_a_time_point_after_treatment_is_no_concept() -> None:
    slots = extract_slots("Viral load was measured at baseline and 6 weeks after randomisation.")
    assert "randomisation" not in [term.lower() for term in _all_terms(slots)]
    slots = extract_slots("Delirium after surgery in older adults.")
    assert "surgery" in slots.context


def test_what_is_measured_at_a_time_point_is_the_outcome() -> None:
    slots = extract_slots("Grip strength was assessed at discharge and every three months.")
    assert "Grip strength" in slots.output_target


def test_an_irregular_participle_before_a_preposition_ends_the_phrase() -> None:
    slots = extract_slots("We classify essays written by second-year students.")
    assert not any("written" in term for term in _all_terms(slots))


def test_a_population_takes_one_with_phrase_and_randomise_is_a_verb() -> None:
    slots = extract_slots(
        "We recruit older women with type 2 diabetes and randomise them to exercise or usual care."
    )
    assert "older women with type 2 diabetes" in slots.subject_population
    assert not any("randomise" in term for term in _all_terms(slots))


def test_what_is_analysed_is_the_outcome_studied() -> None:
    slots = extract_slots("We analyse the price elasticity of water demand in Chile.")
    assert "price elasticity" in slots.output_target


def test_a_device_mesh_files_as_given_to_those_studied_is_an_intervention_not_an_instrument() -> None:
    # MeSH's equipment applied to or worn by those studied (dressings, implants, hearing aids) is the
    # intervention, even after "using" or with a head word that usually names an instrument
    slots = extract_slots("Burn wound healing in children using hydrocolloid dressings.")
    assert "hydrocolloid dressings" in slots.context
    assert "hydrocolloid dressings" not in slots.method_measurement
    implants = extract_slots("Do cochlear implants improve school performance in deaf children?")
    assert "cochlear implants" in implants.context
    # an instrument stays the method
    measured = extract_slots("Sleep in shift workers using wrist actigraphy.")
    assert "wrist actigraphy" in measured.method_measurement


def test_orthopedic_equipment_fitted_to_those_studied_is_an_intervention() -> None:
    # MeSH files orthoses, canes, crutches and walkers under Surgical Equipment > Orthopedic Equipment
    # (E07.858.442): fitted to the patient, like a dressing, not an instrument that observes
    slots = extract_slots("Do ankle-foot orthoses improve gait speed in children with cerebral palsy?")
    assert "ankle-foot orthoses" in slots.context
    assert "ankle-foot orthoses" not in slots.method_measurement
    walkers = extract_slots("Rollators and crutches for older adults after hip fracture: falls and mobility.")
    assert not set(walkers.method_measurement) & {"Rollators", "crutches"}


def test_a_task_head_in_a_phrase_mesh_files_as_a_treatment_names_the_treatment() -> None:
    # "repair" alone names a task ("crack repair"), but MeSH files "endovascular aneurysm repair" and
    # "hernia repair" under Surgical Procedures (E04): the treatment compared, not a task
    slots = extract_slots(
        "We compare laparoscopic hernia repair with open mesh surgery for pain after discharge."
    )
    assert any("hernia repair" in term for term in slots.context)
    assert not any("hernia repair" in term for term in slots.task)
    # a phrase MeSH does not file as a procedure keeps its task ("crack repair of concrete")
    cracks = extract_slots("Self-healing concrete for crack repair in bridge decks.")
    assert not any("crack repair" in term for term in cracks.context)
    # what the sentence makes the outcome stays the outcome ("improve glycaemic control")
    outcome = extract_slots(
        "Does a nurse-led programme improve glycaemic control in adults with type 2 diabetes?"
    )
    assert "glycaemic control" in outcome.output_target


def test_a_listed_verb_inside_a_title_case_name_is_a_word_of_the_name() -> None:
    slots = extract_slots(
        "In a blinded trial, pain in dogs is scored with the Glasgow Composite Measure Pain Scale after surgery."
    )
    assert "Glasgow Composite Measure Pain Scale" in slots.method_measurement
    # in a title written in title case the capitals mark no name: its verb still ends the subject
    title = extract_slots("Does Exercise Reduce Pain in Older Adults With Knee Osteoarthritis?")
    assert not any("Reduce" in t for slot in LIST_SLOT_NAMES for t in getattr(title, slot))


def test_the_instrument_of_an_earlier_verb_is_no_subject_of_a_later_passive() -> None:
    slots = extract_slots(
        "Pain is scored with the Glasgow Composite Pain Scale and the need for rescue analgesia is recorded."
    )
    assert "Glasgow Composite Pain Scale" in slots.method_measurement
    assert "rescue analgesia" in slots.output_target
    # right before the passive it is its subject: "with caries arrest checked by examination"
    arrest = extract_slots(
        "We run a trial in kindergartens, with caries arrest checked by visual-tactile examination."
    )
    assert "caries arrest" in arrest.output_target


def test_a_frequency_adverb_leaves_the_participle_s_with_to_name_the_method() -> None:
    slots = extract_slots("Anxiety is assessed daily with the Hospital Anxiety Scale.")
    assert "daily" not in slots.context
    assert "Hospital Anxiety Scale" in slots.method_measurement


def test_a_generic_head_after_a_task_names_the_method_that_does_it() -> None:
    slots = extract_slots("We benchmark log parsing tools on industrial system logs.")
    assert "log parsing tools" in slots.method_algorithm
    assert "log parsing tools" not in slots.task


def test_a_generic_head_naming_nothing_known_after_a_cue_of_means_is_an_instrument() -> None:
    slots = extract_slots("Ankle torque was recorded with a custom isokinetic system.")
    assert "custom isokinetic system" in slots.method_measurement


# --- an acronym a title opens with ---------------------------------------------------------------


def test_an_unknown_acronym_opening_a_title_before_after_is_its_subject() -> None:
    # "AKI after CABG in elderly patients": the acronym nothing names the kind of is what the title
    # is about, not a setting that only narrows
    slots = extract_slots("XQZ after CABG in elderly patients")
    assert "XQZ" in slots.output_target
    assert "XQZ" not in slots.context


def test_an_unknown_acronym_opening_a_title_before_in_or_among_is_its_subject() -> None:
    assert "XQZ" in extract_slots("XQZ among migrant workers").output_target


def test_an_acronym_after_a_cue_or_inside_a_sentence_keeps_its_slot() -> None:
    # only the opening noun of a title is its subject: what comes after a verb or a cue is read as before
    slots = extract_slots("Outcomes of surgery. Patients received XQZ in hospital.")
    assert "XQZ" not in slots.output_target


def test_a_species_written_with_its_genus_initial_is_one_name_and_no_sentence_end() -> None:
    """ "Prevalence of antimicrobial resistance in E. coli from poultry in Asia": the full stop after the
    initial had ended the goal ("... in E") and cut the species to "coli"."""
    slots = extract_slots("Prevalence of antimicrobial resistance in E. coli from poultry in Asia")
    assert slots.research_goal == "Prevalence of antimicrobial resistance in E. coli from poultry in Asia"
    assert "E. coli" in _all_terms(slots)
    assert extract_slots("We study vitamin D. We want RCTs.").research_goal == "vitamin D"
