"""The roles clauses give phrases in the rules fallback (`english_clauses`, `english_phrases`).

Sentences written for these tests, not taken from the evaluation cases: each checks one mechanism
(copulas with role nouns, judging complements, lists, comparisons, verbs that end a subject, modals,
complex prepositions, numbers with units, sentences about the user).
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.english_clauses import is_clause_verb
from agent.understanding.rules import extract_slots


def _terms(slots: Slots) -> list[str]:
    return [t for name in LIST_SLOT_NAMES for t in getattr(slots, name)]


def test_a_role_noun_before_a_copula_names_the_slot_of_the_list_after_it() -> None:
    slots = extract_slots(
        "We follow toddlers with cow's milk allergy. Outcomes are tolerance acquisition, growth velocity "
        "and eczema flares."
    )
    assert {"tolerance acquisition", "growth velocity", "eczema flares"} <= set(slots.output_target)
    assert not any(t.lower() == "outcomes" for t in _terms(slots))


def test_a_role_noun_after_a_copula_names_the_slot_of_the_subject() -> None:
    slots = extract_slots("We study statin use in older drivers. Crash involvement is a secondary endpoint.")
    assert "Crash involvement" in slots.output_target
    assert not any("endpoint" in t.lower() for t in _terms(slots))
    confounded = extract_slots(
        "We study cannabis use and psychosis. Tobacco smoking is a potential confounder."
    )
    assert "Tobacco smoking" in confounded.context


def test_a_judging_complement_or_an_adjective_is_no_concept() -> None:
    slots = extract_slots(
        "Loneliness is a major problem among rural widowers. We ask whether pet ownership is protective."
    )
    terms = [t.lower() for t in _terms(slots)]
    assert "pet ownership" in terms and "rural widowers" in terms
    assert not any(t in terms for t in ("major problem", "problem", "protective"))


def test_evaluative_adjectives_with_a_role_or_judging_noun_are_dropped() -> None:
    slots = extract_slots("The main question is open. Primary outcomes and the model are described later.")
    assert not any(t.lower() in {"main question", "primary outcomes", "model"} for t in _terms(slots))


def test_a_passive_of_measuring_makes_its_subject_an_outcome() -> None:
    slots = extract_slots("Gait speed would be assessed by instrumented walkways in stroke survivors.")
    assert "Gait speed" in slots.output_target
    assert "instrumented walkways" in slots.method_measurement


def test_list_items_without_evidence_share_the_slot_their_head_words_name() -> None:
    slots = extract_slots("We combine pupil diameter features, blink rate and saccade amplitude.")
    assert {"blink rate", "saccade amplitude"} <= set(slots.signal_feature)


def test_list_items_under_a_method_cue_keep_their_own_slots() -> None:
    slots = extract_slots("We map coastal erosion with drone photogrammetry and random forests.")
    assert "random forests" in slots.method_algorithm
    assert "drone photogrammetry" not in slots.method_algorithm


def test_what_is_compared_with_takes_the_role_of_what_it_is_compared_to() -> None:
    slots = extract_slots("We compare acupuncture with sham needling for chronic neck pain.")
    assert "sham needling" in slots.context and "acupuncture" in slots.context
    after_outcome = extract_slots(
        "Does hip protector use lower fracture rates compared with usual care in nursing homes?"
    )
    assert "usual care" in after_outcome.context
    for joiner in ("rather than", "instead of"):
        other = extract_slots(f"We use camera traps {joiner} hair snares to estimate lynx density.")
        assert "hair snares" in other.method_measurement


def test_a_comparative_before_than_ends_a_phrase_and_units_after_numbers_are_dropped() -> None:
    slots = extract_slots("We include kidney cysts larger than 4 cm in adults over 2015-2020.")
    terms = [t.lower() for t in _terms(slots)]
    assert "kidney cysts" in terms
    assert not any(t in terms for t in ("cm", "kidney cysts larger", "2015-2020"))


def test_a_verb_after_the_subject_of_a_subordinate_clause_ends_it() -> None:
    slots = extract_slots("We ask whether community gardens replace supermarket purchases in poor districts.")
    assert "community gardens" in slots.context
    assert "supermarket purchases" in slots.output_target
    question = extract_slots("Does remote tutoring displace classroom attendance?")
    assert "remote tutoring" in question.context
    relative = extract_slots("We recruit adults who speak Welsh at home.")
    assert not any("speak" in t for t in _terms(relative))


def test_a_plural_noun_is_no_third_person_verb_after_a_plural_subject() -> None:
    slots = extract_slots("We test whether sea turtle nest counts drop after storms.")
    assert any("nest counts" in t for t in _terms(slots))


def test_verbs_come_from_the_dictionary_senses() -> None:
    assert is_clause_verb("replace") and is_clause_verb("speaks") and is_clause_verb("displace")
    assert not is_clause_verb("matter") and not is_clause_verb("replacing")


def test_the_word_after_a_modal_is_a_verb_and_adverbs_do_not_hide_it() -> None:
    slots = extract_slots("We would pool cohort studies of night shift work. We also care about sleep.")
    terms = [t.lower() for t in _terms(slots)]
    assert not any(t.startswith("pool") or t == "care" for t in terms)
    question = extract_slots("Can satellite images predict slum growth?")
    assert "satellite images" in question.method_measurement


def test_next_to_and_reflexives_end_phrases() -> None:
    slots = extract_slots("We sample hedgerows next to maize fields, as farmers themselves asked.")
    terms = [t.lower() for t in _terms(slots)]
    assert "hedgerows" in terms and "maize fields" in terms
    assert not any("next" in t or "themselves" in t for t in terms)


def test_a_sentence_about_the_user_names_no_concept() -> None:
    slots = extract_slots("I'm a nurse in paediatric oncology. We study mouth care in children.")
    terms = [t.lower() for t in _terms(slots)]
    assert "paediatric oncology" not in terms and "mouth care" in terms


def test_a_sentence_naming_the_users_role_field_or_workplace_names_no_concept() -> None:
    # a plural role after "we are", a field after "I'm in" or "I work in": who the user is
    for text, role in (
        ("We are occupational therapists. We study home modifications for falls.", "occupational therapists"),
        ("I'm in public health policy. We study sugar taxes.", "public health policy"),
        ("I work in health services research. We study telephone follow-up.", "health services research"),
        ("I work as a midwife. We study water immersion in labour.", "midwife"),
    ):
        terms = [t.lower() for t in _terms(extract_slots(text))]
        assert role not in terms and not any(role in t for t in terms), (text, terms)
    # the research a "we are" + participle, an adjective of interest or "work on" opens stays
    assert "dementia" in _terms(extract_slots("We are studying dementia in care homes."))
    assert any(
        "school teachers" in t for t in _terms(extract_slots("We are training school teachers in first aid."))
    )
    assert "pressure ulcers" in _terms(extract_slots("I'm a nurse and interested in pressure ulcers."))
    assert "antibiotic prophylaxis" in _terms(
        extract_slots("We work on antibiotic prophylaxis in dentistry.")
    )


def test_a_role_after_the_as_that_opens_a_sentence_names_no_concept() -> None:
    """ "As a pharmacist, I ...": the role before the user's pronoun is who the user is (it had been a
    population); "As a proxy for X we ..." names no role (a preposition before the pronoun)."""
    for text, role in (
        ("As a community pharmacist, I want to know whether reminders improve adherence.", "pharmacist"),
        ("As an orthodontist we ask whether aligners cause root resorption.", "orthodontist"),
    ):
        terms = [t.lower() for t in _terms(extract_slots(text))]
        assert not any(role in t for t in terms), (text, terms)
        assert len(terms) >= 2, (text, terms)
    assert "frailty" in [
        t.lower() for t in _terms(extract_slots("As a proxy for frailty we use grip strength."))
    ]


def test_a_clause_of_the_users_interest_ends_their_role() -> None:
    slots = extract_slots(
        "I'm a sports physician curious whether warm-up programmes prevent knee injuries in football players."
    )
    terms = [t.lower() for t in _terms(slots)]
    assert "knee injuries" in terms and "football players" in terms
    assert not any("physician" in t for t in terms)


def test_a_passive_of_causing_makes_its_subject_the_outcome_and_the_agent_the_exposure() -> None:
    slots = extract_slots("We ask how much of the hospital readmissions can be attributed to polypharmacy.")
    assert "hospital readmissions" in slots.output_target
    assert "polypharmacy" in slots.context


def test_a_complement_with_a_telling_head_gives_the_subject_its_slot() -> None:
    slots = extract_slots("Tinnitus and vertigo are the adverse events of interest in this trial.")
    assert {"Tinnitus", "vertigo"} <= set(slots.output_target)


def test_an_effect_verb_without_an_object_makes_its_subject_the_outcome() -> None:
    slots = extract_slots("We ask how much soil respiration increases when permafrost thaws.")
    assert "soil respiration" in slots.output_target


def test_what_something_differs_by_is_an_exposure() -> None:
    slots = extract_slots("We estimate vaccine uptake and test whether it differs by maternal education.")
    assert "maternal education" in slots.context


def test_an_acronym_inside_a_noun_phrase_does_not_cut_it() -> None:
    slots = extract_slots("We study chronic obstructive pulmonary disease (COPD) exacerbations in smokers.")
    assert any(t.lower() == "chronic obstructive pulmonary disease exacerbations" for t in _terms(slots))


def test_the_rate_of_x_keeps_x_and_drops_the_bare_measure() -> None:
    slots = extract_slots("Does early mobilisation lower the rates of delirium?")
    assert "delirium" in slots.output_target
    assert not any(t.lower() == "rates" for t in _terms(slots))


def test_the_full_stop_of_an_abbreviation_ends_no_sentence() -> None:
    slots = extract_slots("We compare anticoagulants, e.g. apixaban or warfarin, after valve surgery.")
    assert {"apixaban", "warfarin"} <= {t.lower() for t in slots.context}


def test_an_infinitive_after_a_verb_of_wanting_is_a_verb() -> None:
    slots = extract_slots("We want to pool registry cohorts of hip fractures.")
    assert not any(t.lower().startswith("pool") for t in _terms(slots))


def test_relate_x_to_y_gives_the_predictor_and_the_response() -> None:
    # "relate X to Y" names what is related first and the response after "to" ("relate workload to
    # emotional exhaustion", "relate pore size to crack initiation life"; 4 of the 5 dev descriptions
    # that use it)
    slots = extract_slots("We relate nitrogen deposition to lichen cover.")
    assert "lichen cover" in slots.output_target
    assert "nitrogen deposition" in slots.signal_feature


def test_prepositions_and_particles_end_phrases() -> None:
    slots = extract_slots("We find out whether wells along the river hold arsenic.")
    terms = [t.lower() for t in _terms(slots)]
    assert "out" not in terms and not any(t.endswith(" along") for t in terms)


def test_elliptic_coordination_shares_the_head_of_an_adjective_not_of_a_noun() -> None:
    slots = extract_slots("We need plausible and correct proofs, and study migration or low income.")
    terms = [t.lower() for t in _terms(slots)]
    assert "plausible proofs" in terms
    assert "migration income" not in terms
    # the shared part is everything the second phrase has after its own modifier
    shared = extract_slots("We compare organic and conventional dairy farms.")
    assert "organic dairy farms" in [t.lower() for t in _terms(shared)]
    # a name written with a digit is a noun: nothing is shared with it
    exposure = extract_slots("We study long-term exposure to PM2.5 and cognitive decline in older adults.")
    assert "pm2.5 decline" not in [t.lower() for t in _terms(exposure)]
    assert "cognitive decline" in [t.lower() for t in _terms(exposure)]


def test_a_noun_keeps_its_head_where_sharing_would_cut_a_name() -> None:
    # "lung cancer" is a name MeSH knows and "smoking cancer" none: smoking is an exposure of its own
    exposure = extract_slots("We study smoking and lung cancer risk in women.")
    terms = [t.lower() for t in _terms(exposure)]
    assert "smoking" in terms
    assert "smoking cancer risk" not in terms
    # where the lone word makes a name too, the head is shared
    shared = extract_slots("We study breast and ovarian cancer risk in carriers.")
    assert "breast cancer risk" in [t.lower() for t in _terms(shared)]


def test_an_example_subject_keeps_the_role_of_its_list() -> None:
    slots = extract_slots(
        "We test whether solvers such as Gurobi or CPLEX find better routes for delivery drones."
    )
    assert "CPLEX" not in slots.subject_population


def test_what_a_quantity_counts_is_the_outcome_and_the_quantity_goes() -> None:
    slots = extract_slots("The primary endpoint is the number of pressure injuries per ward.")
    assert any(t.startswith("pressure injuries") for t in slots.output_target)
    assert not any(t.lower() == "number" for t in _terms(slots))


def test_a_method_after_from_can_be_what_something_is_compared_with() -> None:
    slots = extract_slots("Mapping snow depth from airborne lidar and comparing it with ultrasonic gauges.")
    assert "ultrasonic gauges" in slots.method_measurement


def test_a_capitalised_name_with_of_stays_whole() -> None:
    slots = extract_slots("We survey seagrass meadows around the Bay of Naples.")
    assert "Bay of Naples" in slots.context
    title = extract_slots("Effects of Exercise on Sleep.")
    assert "Effects of Exercise" not in _terms(title)


def test_x_and_the_risk_of_y_relates_an_exposure_to_an_outcome() -> None:
    slots = extract_slots("Shift work and risk of breast cancer in nurses.")
    assert "Shift work" in slots.context
    assert "breast cancer" in slots.output_target


def test_a_span_of_years_does_not_end_a_list_under_a_cue() -> None:
    slots = extract_slots("We use claims data from 2010 to 2020 and a vector autoregression.")
    assert "vector autoregression" in slots.method_algorithm


def test_a_reduced_passive_of_measuring_makes_the_measured_thing_an_outcome() -> None:
    slots = extract_slots("Bone density in retired jockeys measured with DXA scans.")
    assert "Bone density" in slots.output_target
    assert "retired jockeys" not in slots.output_target  # where it is measured, not what


def test_a_task_shaped_comparator_takes_the_role_of_what_it_is_compared_with() -> None:
    slots = extract_slots("Wound area measured with 3D cameras compared with manual tracing.")
    assert "manual tracing" in slots.method_measurement


def test_adjectives_after_as_that_end_the_clause_are_no_concepts() -> None:
    slots = extract_slots("A model labels thyroid nodules as benign or suspicious from ultrasound images.")
    terms = [t.lower() for t in _terms(slots)]
    assert "benign" not in terms and "suspicious" not in terms


def test_a_unit_after_per_does_not_break_a_list() -> None:
    slots = extract_slots("Outcomes are seizures per month, hospital stays and caregiver burden.")
    assert {"hospital stays", "caregiver burden"} <= set(slots.output_target)


def test_what_an_outcome_is_of_is_what_is_studied() -> None:
    slots = extract_slots("We track the growth rate of urban trees in heat waves.")
    assert "urban trees" in slots.subject_population


def test_the_list_after_a_title_colon_names_outcomes_but_not_the_kind_of_study() -> None:
    slots = extract_slots(
        "Open versus endovascular aneurysm repair: reinterventions, mortality and quality of life."
    )
    assert {"reinterventions", "quality of life"} <= set(slots.output_target)
    review = extract_slots("Sodium restriction in heart failure: a meta-analysis.")
    assert "meta-analysis" not in review.output_target
    sentence = extract_slots("We compare two drugs: reinterventions follow.")
    assert "reinterventions" not in sentence.output_target


def test_a_generic_head_with_a_modifier_in_a_title_colon_list_is_measured() -> None:
    # "healing time" is measured like its siblings, though "time" alone names nothing
    slots = extract_slots(
        "Open versus closed suction drains after knee arthroplasty: healing time, wound infection and transfusion."
    )
    assert {"healing time", "wound infection"} <= set(slots.output_target)
    bare = extract_slots("Tai chi for knee osteoarthritis: results and methods.")
    assert "results" not in bare.output_target


def test_what_predicts_in_a_question_is_a_predictor_and_a_predicted_condition_an_outcome() -> None:
    slots = extract_slots("Do sleep-tracking step counts predict post-operative delirium in older adults?")
    assert "sleep-tracking step counts" in slots.signal_feature
    assert any("delirium prediction" in t for t in slots.task)
    assert "post-operative delirium" in slots.output_target
    method = extract_slots("Can machine learning predict crop yield?")
    # what a measuring task predicts is also its outcome (the method is no outcome)
    assert "machine learning" in method.method_algorithm and method.output_target == ["crop yield"]


def test_a_gerund_after_for_or_by_is_a_verb_on_what_follows() -> None:
    slots = extract_slots("We test sealants for arresting enamel lesions in adolescents.")
    assert "enamel lesions" in _terms(slots)
    assert not any(t.lower().startswith("arresting") for t in _terms(slots))


def test_effects_and_events_with_a_modifier_are_outcomes() -> None:
    slots = extract_slots("Lithium in bipolar disorder: renal side effects and thromboembolic events.")
    assert {"renal side effects", "thromboembolic events"} <= set(slots.output_target)


def test_relate_after_a_verb_of_wanting() -> None:
    slots = extract_slots("We would like to relate sea surface temperature to coral cover.")
    assert "coral cover" in slots.output_target
    assert "sea surface temperature" in slots.signal_feature


def test_what_we_have_is_data() -> None:
    slots = extract_slots("We have nest camera footage and ringing records from two colonies.")
    assert {"nest camera footage", "ringing records"} <= set(slots.method_measurement)
    assert not extract_slots("We have to choose a design.").method_measurement


def test_an_organism_or_food_that_causes_or_is_taken_is_not_who_is_studied() -> None:
    slots = extract_slots("Does oral immunotherapy reduce shrimp allergy in schoolchildren?")
    assert "shrimp" not in slots.subject_population
    eaten = extract_slots("Sorghum consumption and anaemia in pregnant women.")
    assert "Sorghum" not in eaten.subject_population
    people = extract_slots("Household consumption after cash transfers.")
    assert any(t.lower() == "household" for t in people.subject_population)


def test_a_passive_of_measuring_that_ends_its_clause_or_takes_a_place_makes_an_outcome() -> None:
    compared = extract_slots(
        "We evaluate a rapid antigen test in nursing homes. Turnaround time is compared."
    )
    assert "Turnaround time" in compared.output_target
    placed = extract_slots("Leaf blight would be scored in greenhouse trials on barley cultivars.")
    assert "Leaf blight" in placed.output_target
    assert "greenhouse trials" not in placed.output_target


def test_a_role_noun_as_a_complement_names_a_role_whatever_qualifies_it() -> None:
    slots = extract_slots(
        "We compare two anticoagulants in atrial fibrillation. Stroke is the main efficacy outcome."
    )
    assert "Stroke" in slots.output_target
    assert not any("outcome" in t.lower() for t in _terms(slots))
    metric = extract_slots("We segment retinal vessels with a U-Net. Dice score is the evaluation metric.")
    assert "Dice score" in metric.output_target
    assert not any("metric" in t.lower() for t in _terms(metric))


def test_verb_forms_and_number_words_are_no_concepts() -> None:
    slots = extract_slots(
        "We are considering a hidden Markov model for sleep staging, and want to build it into a "
        "wearable. Recordings from 2010 onward cover one to three nights."
    )
    terms = [t.lower() for t in _terms(slots)]
    assert "hidden markov model" in terms
    assert not any(t in terms for t in ("considering", "build", "onward", "one"))


def test_a_bare_change_noun_is_no_concept() -> None:
    slots = extract_slots("We decompose the change in obesity prevalence and the rise of sedentary work.")
    terms = [t.lower() for t in _terms(slots)]
    assert "change" not in terms and "rise" not in terms


def test_compare_x_and_y_names_both_sides_so_a_later_to_opens_no_comparator() -> None:
    slots = extract_slots(
        "We compare the accuracy of lung ultrasound and chest radiography for pneumonia in adults "
        "presenting to emergency departments."
    )
    assert "emergency departments" not in slots.method_measurement
    assert "emergency departments" in slots.context


def test_the_subject_of_a_testing_or_predicting_verb_is_the_test_or_the_predictor() -> None:
    slots = extract_slots("Bedside lung ultrasound may diagnose pneumothorax in trauma patients.")
    assert "Bedside lung ultrasound" in slots.method_measurement
    slots = extract_slots("Salivary cortisol might predict burnout in nurses.")
    assert "Salivary cortisol" in slots.signal_feature
    slots = extract_slots("Nocturnal wheeze predicts asthma exacerbations in children.")
    assert "Nocturnal wheeze" in slots.signal_feature


def test_a_role_noun_in_the_plural_names_the_slot_of_its_subjects() -> None:
    # "metrics" is a plural that the morphology keeps whole (as it keeps "physics")
    slots = extract_slots("Specificity and net benefit are the main metrics.")
    assert "net benefit" in slots.output_target
    assert not any("metrics" in term for name in LIST_SLOT_NAMES for term in getattr(slots, name))


def test_an_adverbial_of_generic_words_is_no_concept() -> None:
    slots = extract_slots("We flag fraudulent transactions in real time.")
    assert not any("real time" in term for name in LIST_SLOT_NAMES for term in getattr(slots, name))


def test_what_an_association_is_with_is_the_exposure() -> None:
    slots = extract_slots(
        "We estimate the prevalence of gout in older men and its association with alcohol intake."
    )
    assert "alcohol intake" in slots.context
    assert "alcohol intake" not in slots.method_measurement


def test_a_participle_clause_looking_at_names_what_is_observed() -> None:
    slots = extract_slots("We compare two feeding regimes in calves, looking at tail biting.")
    assert "tail biting" in slots.output_target


def test_a_qualified_effect_still_opens_the_effect_frame() -> None:
    slots = extract_slots("We estimate the causal effect of cash transfers on school attendance in Malawi.")
    assert "cash transfers" in slots.context
    assert "school attendance" in slots.output_target
    assert not any("causal" in term for name in LIST_SLOT_NAMES for term in getattr(slots, name))


def test_a_copula_gives_its_role_to_its_own_clause_not_to_an_inserted_clause_before_it() -> None:
    slots = extract_slots(
        "Our records are annual school censuses, processed with a hierarchical Bayesian model, and "
        "reading scores are the outcome."
    )
    assert "reading scores" in slots.output_target
    assert not {"annual school censuses", "hierarchical Bayesian model"} & set(slots.output_target)
    # a list before the copula stays its subject
    listed = extract_slots("We follow miners. Lung function, cough and wheeze are the outcomes.")
    assert {"Lung function", "cough", "wheeze"} <= set(listed.output_target)


def test_after_a_copula_to_and_a_verb_is_an_infinitive_and_a_counted_bare_head_no_concept() -> None:
    slots = extract_slots("We study sea ice. The idea is to run two models on buoy drift records.")
    terms = [t.lower() for t in _terms(slots)]
    assert "buoy drift records" in terms
    assert not any(t.startswith("run") or t == "two models" for t in terms)


def test_people_with_symptoms_or_without_a_condition_are_one_population() -> None:
    slots = extract_slots("We offer yoga to nurses with chronic musculoskeletal symptoms.")
    assert "nurses with chronic musculoskeletal symptoms" in slots.subject_population
    assert not slots.output_target
    without = extract_slots("Statins in adults with heart failure without atrial fibrillation.")
    # the whole phrase, and its condition as a term of its own (`rules._condition_of_people`)
    assert without.subject_population == [
        "adults with heart failure without atrial fibrillation",
        "heart failure without atrial fibrillation",
    ]


def test_a_possessive_people_noun_names_who_is_studied() -> None:
    slots = extract_slots("Does paid parental leave raise children's school attendance?")
    assert "children" in [t.lower() for t in slots.subject_population]


def test_what_a_study_assesses_describes_or_explains_is_its_outcome() -> None:
    slots = extract_slots("We describe fracture patterns in skiers and assess helmet uptake.")
    assert {"fracture patterns", "helmet uptake"} <= set(slots.output_target)


def test_a_participle_clause_verb_is_no_concept() -> None:
    slots = extract_slots(
        "Night shifts and stroke risk in nurses, adjusting for body mass index. Yoga, added to "
        "usual care, lowers blood pressure."
    )
    terms = [t.lower() for t in _terms(slots)]
    assert "body mass index" in terms and "usual care" in terms
    assert not {"adjusting", "added"} & set(terms)


def test_an_analysis_named_by_a_technique_is_a_method_and_what_it_analyses_stays_apart() -> None:
    slots = extract_slots("We run a difference-in-differences analysis of county payroll data.")
    assert "difference-in-differences analysis" in slots.method_algorithm
    assert "county payroll data" in slots.method_measurement
    assert not slots.task


def test_what_a_study_relies_on_is_its_method() -> None:
    slots = extract_slots("Land reform and farm size: we draw on land titles and parish rolls.")
    assert {"land titles", "parish rolls"} <= set(slots.method_measurement)


def test_a_condition_after_after_names_the_people_who_had_it() -> None:
    slots = extract_slots("Does early mobilisation improve walking after stroke?")
    assert "stroke" in [t.lower() for t in slots.subject_population]


def test_a_graded_adjective_complement_is_no_concept() -> None:
    slots = extract_slots("We test whether grafted tomatoes are more tolerant under salinity.")
    terms = [t.lower() for t in _terms(slots)]
    assert "grafted tomatoes" in terms and "salinity" in terms
    assert "tolerant" not in terms


def test_a_lone_time_unit_a_time_point_or_an_idiom_is_no_concept() -> None:
    slots = extract_slots(
        "Grazing alters soil fauna and, in turn, litter decomposition. We sample plots over a year, "
        "at baseline and follow-up."
    )
    terms = [t.lower() for t in _terms(slots)]
    assert "litter decomposition" in terms
    assert not {"turn", "year", "baseline", "follow-up"} & set(terms)


def test_a_reference_standard_is_a_method_and_counted_sampling_places_no_concept() -> None:
    slots = extract_slots(
        "We map seagrass cover from drone images, validated against diver transects at 25 sites."
    )
    terms = [t.lower() for t in _terms(slots)]
    assert "diver transects" in slots.method_measurement
    assert "sites" not in terms


def test_a_pair_after_on_shares_the_outcome_one_of_them_names() -> None:
    # "on X and Y": both are what an effect is on; "consumption" names an outcome, so "sleep scores" is one
    slots = extract_slots("We test a mindfulness app on alcohol consumption and sleep scores in students.")
    assert "alcohol consumption" in slots.output_target
    assert "sleep scores" in slots.output_target
    assert "sleep scores" not in slots.context


def test_a_role_noun_names_the_list_its_verb_introduces_through_a_phrase_of_time() -> None:
    slots = extract_slots("Outcomes over one year are school transfers and caregiver strain.")
    assert {"school transfers", "caregiver strain"} <= set(slots.output_target)
    later = extract_slots("The primary outcomes at 12 months are pain intensity and walking distance.")
    assert {"pain intensity", "walking distance"} <= set(later.output_target)
    listed = extract_slots("Secondary outcomes will include length of stay and discharge destination.")
    assert {"length of stay", "discharge destination"} <= set(listed.output_target)
    assert not listed.context


def test_an_article_after_the_preposition_of_a_passive_of_measuring_keeps_its_subject_the_outcome() -> None:
    slots = extract_slots(
        "We test whether aquatic therapy helps adults with knee osteoarthritis. Stiffness is measured "
        "with the WOMAC index and balance is assessed with a force plate."
    )
    assert "Stiffness" in slots.output_target
    assert "balance" in slots.output_target
    assert "WOMAC index" in slots.method_measurement
    caused = extract_slots(
        "We study dairy herds in Wales. Mastitis outbreaks are driven by the milking routine."
    )
    assert "Mastitis outbreaks" in caused.output_target


def test_what_a_measured_thing_comes_from_is_not_measured() -> None:
    slots = extract_slots(
        "We ask whether yoga reduces anxiety in nursing students. Sleep quality from wrist actigraphs "
        "will be recorded before and after training."
    )
    assert "Sleep quality" in slots.output_target
    assert "wrist actigraphs" not in slots.output_target


def test_a_phrase_before_another_clause_verb_is_not_the_subject_of_a_later_passive() -> None:
    slots = extract_slots(
        "We study tutoring in rural schools. Pupils in 30 classrooms were assigned to tutoring, and "
        "reading fluency was measured with the DIBELS probes."
    )
    assert "reading fluency" in slots.output_target
    assert not any("classroom" in t for t in slots.output_target)


def test_the_subject_of_a_passive_of_measuring_is_the_outcome_however_often_or_with_an_outcome_head() -> None:
    daily = extract_slots("Tadpoles are kept in warmed tanks, and hatching success is recorded weekly.")
    assert "hatching success" in daily.output_target
    confirmed = extract_slots("Remission at one year is confirmed by colonoscopy in adults with colitis.")
    assert "Remission" in confirmed.output_target
    headed = extract_slots(
        "Alarm checks are applied at baseline and after one year, and falls are counted from incident reports."
    )
    assert "falls" in headed.output_target


def test_a_comma_and_after_a_preposition_joins_two_clauses_not_a_list() -> None:
    slots = extract_slots(
        "Seedlings are grown for ten days in pots with two soil types, and wilting is scored weekly."
    )
    assert "wilting" in slots.output_target
    assert "soil types" not in slots.output_target


def test_a_place_before_a_passive_of_measuring_stays_the_setting() -> None:
    slots = extract_slots("Malaria incidence among children in Lira, Uganda, is measured with rapid tests.")
    assert "Uganda" in slots.context and "Uganda" not in slots.output_target
    assert "Malaria incidence" in slots.output_target


def test_a_role_noun_as_a_label_gives_its_slot_to_the_list_after_the_colon() -> None:
    slots = extract_slots(
        "We size rooftop wind turbines for farm buildings. Objectives: annualised energy yield and "
        "blade noise."
    )
    assert {"annualised energy yield", "blade noise"} <= set(slots.output_target)
    assert not any(t.lower() == "objectives" for t in _terms(slots))
    outcomes = extract_slots("We follow dialysis patients at home. Primary outcomes: fatigue and pruritus.")
    assert {"fatigue", "pruritus"} <= set(outcomes.output_target)


def test_a_label_before_a_clause_is_no_concept_and_gives_no_slot() -> None:
    slots = extract_slots("Objective: to assess whether statins reduce falls in older drivers.")
    assert not any(t.lower() == "objective" for t in _terms(slots))
    assert "statins" not in slots.output_target
