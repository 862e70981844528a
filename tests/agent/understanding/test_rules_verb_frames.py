"""The roles a verb frame gives the phrases around it in the rules fallback ("X and Y affect Z",
"how X affects Y").

Sentences written for these tests, not taken from the evaluation cases: each checks one mechanism.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES
from agent.understanding.rules import extract_slots


def test_an_adjective_in_ed_after_how_opens_the_subject_of_the_clause() -> None:
    slots = extract_slots("I ask how improved cookstoves change indoor air pollution in rural Ghana.")
    assert "improved cookstoves" in slots.context
    assert "indoor air pollution" in slots.output_target
    assert not any("cookstoves" in t for t in slots.output_target)


def test_every_coordinated_subject_of_an_effect_verb_is_an_exposure() -> None:
    slots = extract_slots("We examine whether sleep loss and noise exposure impair working memory in pilots.")
    assert {"sleep loss", "noise exposure"} <= set(slots.context)
    assert slots.output_target == ["working memory"]
    crops = extract_slots("We ask how heat stress and drought affect grain yield in wheat.")
    assert {"heat stress", "drought"} <= set(crops.context)
    assert crops.output_target == ["grain yield"]


def test_what_a_model_is_trained_on_is_its_features_when_the_words_name_variables() -> None:
    slots = extract_slots(
        "We map wildfire risk with a gradient boosting model trained on fuel moisture, wind speed and "
        "terrain slope."
    )
    assert {"fuel moisture", "wind speed", "terrain slope"} <= set(slots.signal_feature)
    assert not slots.method_measurement
    named = extract_slots("We fit a U-Net trained on the CAMELYON16 dataset.")
    assert not named.signal_feature


def test_a_name_before_what_a_task_predicts_from_is_the_instrument_and_the_rest_the_feature() -> None:
    slots = extract_slots("Predicting maize yield in Kenya from MODIS leaf area index with a random forest.")
    assert "MODIS" in slots.method_measurement
    assert "leaf area index" in slots.signal_feature
    one_thing = extract_slots("We estimate bird abundance from eBird checklists with occupancy models.")
    assert "eBird checklists" in one_thing.method_measurement
    assert not one_thing.signal_feature


def test_an_institution_people_are_in_is_the_setting_and_alone_the_units_studied() -> None:
    slots = extract_slots("Hand hygiene compliance among nurses in district hospitals in Ghana.")
    assert slots.subject_population == ["nurses"]
    assert "district hospitals" in slots.context
    alone = extract_slots("Infection rates in district hospitals across Brazil.")
    assert "district hospitals" in alone.subject_population


def test_what_a_model_is_adjusted_for_is_a_covariate_it_takes_in() -> None:
    slots = extract_slots(
        "We study shift work and breast cancer in nurses, and adjust for parity and alcohol intake."
    )
    assert {"parity", "alcohol intake"} <= set(slots.signal_feature)
    assert not any("adjust" in t for t in slots.subject_population + slots.method_measurement)
    controlled = extract_slots("Hip fracture incidence in Denmark, controlling for age and sex.")
    assert {"age", "sex"} <= set(controlled.signal_feature)
    assert not controlled.task


def test_off_is_a_preposition_that_ends_a_phrase() -> None:
    slots = extract_slots("We map seagrass loss off western Australia with drone surveys.")
    assert "western Australia" in slots.context
    assert not any(
        " off " in t for name in ("task", "output_target", "context") for t in getattr(slots, name)
    )


def test_a_unit_of_time_with_of_is_one_duration_measure() -> None:
    slots = extract_slots("Does screen time reduce hours of sleep in adolescents?")
    assert slots.output_target == ["hours of sleep"]
    follow_up = extract_slots("Mortality over 10 years of follow-up in adults with HIV.")
    assert not any("years" in t for name in ("signal_feature", "context") for t in getattr(follow_up, name))


def test_with_after_a_participle_of_sampling_names_the_method() -> None:
    slots = extract_slots(
        "Ground beetle diversity in hedgerows, sampled with pitfall traps across farms in Kent."
    )
    assert "pitfall traps" in slots.method_measurement
    assert "pitfall traps" not in slots.context


def test_a_verb_after_a_plural_in_a_modifier_of_the_subject_ends_the_subject() -> None:
    slots = extract_slots(
        "We ask whether mulching with rice straw residues conserves soil moisture in vineyards "
        "without reducing grape yield."
    )
    assert "soil moisture" in slots.output_target
    assert "grape yield" in slots.output_target
    assert not any(
        "conserves" in t or "reducing" in t
        for name in ("context", "output_target")
        for t in getattr(slots, name)
    )


def test_a_count_of_described_time_units_is_a_span_and_a_season_alone_a_setting() -> None:
    slots = extract_slots("Malaria incidence in Mali over two rainy seasons, and heat stress in summer.")
    assert "two rainy seasons" not in slots.context
    assert "summer" in slots.context
    nights = extract_slots(
        "Does sleep restriction for two nights impair driving performance in truck drivers?"
    )
    assert not any("nights" in t for t in nights.context)


def test_an_error_measure_is_how_well_a_method_performs_an_outcome() -> None:
    slots = extract_slots(
        "We forecast river levels with an LSTM and evaluate it with the root mean square error."
    )
    assert "root mean square error" in slots.output_target
    assert "root mean square error" not in slots.method_measurement


def test_radiographs_are_images_a_method_not_a_variable_learned_from() -> None:
    slots = extract_slots("Detecting pneumonia from chest radiographs in children with a vision transformer.")
    assert "chest radiographs" in slots.method_measurement
    assert not slots.signal_feature


def test_every_part_of_a_questions_subject_before_its_effect_verb_is_an_exposure() -> None:
    # "Does ..."/"How do ..." questions: a modifier ("on call") leads back to the head it belongs to,
    # and a noun that may be a verb ("survey", "review") stays in the subject when the effect verb follows
    slots = extract_slots("How do noise and hours on call affect diagnostic errors among junior doctors?")
    assert "noise" in slots.context
    assert "noise" not in slots.output_target
    assert slots.output_target == ["diagnostic errors"]
    rated = extract_slots("How do customer survey scores influence bonus payments in retail banks?")
    assert "customer survey scores" in rated.context
    assert rated.output_target == ["bonus payments"]


def test_the_subject_judged_safe_or_effective_is_the_intervention() -> None:
    # "exercise" alone is filed by MeSH under physiological phenomena (an outcome's tree); the predicate
    # "safe for" makes it what is given
    slots = extract_slots("Is exercise safe for pregnant women?")
    assert slots.context == ["exercise"]
    assert slots.subject_population == ["pregnant women"]
    both = extract_slots("Are diet and exercise effective for weight loss in adolescents?")
    assert {"diet", "exercise"} <= set(both.context)
    assert "weight loss" in both.output_target


def test_an_adjective_judging_a_test_gives_its_subject_no_exposure_role() -> None:
    slots = extract_slots("Is the Berg Balance Scale reliable in stroke survivors?")
    assert "Berg Balance Scale" in slots.method_measurement


def test_what_a_subject_is_judged_effective_for_is_the_outcome() -> None:
    slots = extract_slots("Is mindfulness helpful for anxiety in students?")
    assert slots.output_target == ["anxiety"]
    assert slots.context == ["mindfulness"]


def test_how_with_a_judging_adjective_asks_about_the_subject_after_the_copula() -> None:
    slots = extract_slots("How effective is exercise for depression in older adults?")
    assert slots.context == ["exercise"]
    assert slots.output_target == ["depression"]
    test = extract_slots("How accurate is point-of-care ultrasound for diagnosing pneumonia in children?")
    assert "point-of-care ultrasound" in test.method_measurement
    assert not any("accurate" in t for t in test.context + test.method_measurement)


def test_the_past_of_a_verb_of_effect_ends_its_subject() -> None:
    slots = extract_slots(
        "We examined whether nurse triage by telephone lengthened waiting times for children with fever "
        "in Danish out-of-hours services."
    )
    assert "waiting times" in slots.output_target
    assert not any("lengthened" in t for name in LIST_SLOT_NAMES for t in getattr(slots, name))


def test_a_past_of_effect_after_a_gerund_begins_its_object() -> None:
    slots = extract_slots("Attenuating amplified spontaneous emission in erbium-doped fibre lasers.")
    assert any(
        "amplified spontaneous emission" in t for name in LIST_SLOT_NAMES for t in getattr(slots, name)
    )


def test_a_verb_of_provenance_ends_its_subject() -> None:
    slots = extract_slots(
        "We ask whether minimum unit pricing reduced alcohol-related admissions in Scotland. Data come "
        "from hospital episode statistics; cases originate from all health boards."
    )
    terms = [t for name in LIST_SLOT_NAMES for t in getattr(slots, name)]
    assert not any(" come" in t or " originate" in t for t in terms)
    assert "hospital episode statistics" in slots.method_measurement


def test_a_facility_someone_goes_into_is_the_setting_not_an_outcome() -> None:
    slots = extract_slots(
        "We study delirium in older adults after transfer into nursing homes. Notes are transcribed "
        "into structured fields."
    )
    assert "nursing homes" in slots.context
    assert "nursing homes" not in slots.output_target


def test_what_something_happens_to_is_the_outcome() -> None:
    slots = extract_slots("What happened to nurse staffing levels after Oregon passed a ratio law?")
    assert "nurse staffing levels" in slots.output_target
    assert "nurse staffing levels" not in slots.context


def test_the_past_of_a_verb_of_effect_is_derived_whatever_other_verbs_share_its_start() -> None:
    # "prolong" shares "pro" with "promoted" and "protected": still its past ends the subject
    slots = extract_slots("Caffeine prolonged sleep latency in adolescents.")
    assert "sleep latency" in slots.output_target
    assert not any("prolonged" in t for name in LIST_SLOT_NAMES for t in getattr(slots, name))


def test_slowing_is_a_verb_of_effect_but_slow_before_a_noun_stays_an_adjective() -> None:
    """ "whether drinking coffee slows liver fibrosis": "slows" had stayed inside one term ("drinking
    coffee slows liver fibrosis"); like "shortens" and "prolongs" it ends the subject and cues its
    object. The bare "slow" is left out: it is an adjective as often ("slow wave sleep")."""
    slots = extract_slots("We want to know whether drinking coffee slows liver fibrosis in NAFLD.")
    assert "liver fibrosis" in slots.output_target
    assert not any("slows" in t for name in LIST_SLOT_NAMES for t in getattr(slots, name))
    assert (
        "cognitive decline"
        in extract_slots("Exercise slowed cognitive decline in older adults.").output_target
    )
    slots = extract_slots("Slow wave sleep and memory consolidation in older adults")
    assert any(t.startswith("Slow wave sleep") for name in LIST_SLOT_NAMES for t in getattr(slots, name))


def test_a_verb_of_effect_written_with_its_preposition_ends_the_subject() -> None:
    """ "whether screen time leads to myopia": "leads" had stayed inside the subject ("screen time
    leads"); with "to" after it the word is the verb, and the phrase before it the exposure."""
    slots = extract_slots("We ask whether screen time leads to myopia in children.")
    assert slots.context == ["screen time"]
    assert slots.output_target == ["myopia"]
    slots = extract_slots("Air pollution contributes to asthma in children.")
    assert "Air pollution" in slots.context and "asthma" in slots.output_target
    # a phrasal verb of causing ("bring on"): "bring" had been a term of its own
    slots = extract_slots("We ask whether thiazides bring on gout attacks in older men.")
    assert "thiazides" in slots.context and "gout attacks" in slots.output_target
    assert not any("bring" in t for name in LIST_SLOT_NAMES for t in getattr(slots, name))
    # the noun stays a noun where no preposition makes it a verb
    assert (
        "blood lead levels" in extract_slots("We study blood lead levels and ADHD in children.").output_target
    )


def test_the_research_begins_where_the_users_role_ends() -> None:
    """ "I'm a pharmacist studying adherence to X": the whole sentence had been read as about the user,
    so the description gave no slot at all and no query."""
    slots = extract_slots(
        "I'm a pharmacist studying adherence to direct oral anticoagulants in patients with atrial fibrillation."
    )
    assert "adherence" in slots.output_target
    assert "direct oral anticoagulants" in slots.context
    assert "patients with atrial fibrillation" in slots.subject_population
    slots = extract_slots(
        "I'm a dietitian interested in whether intermittent fasting reduces weight in adults."
    )
    assert "intermittent fasting" in slots.context
    assert "dietitian" not in [t for name in ("context", "subject_population") for t in getattr(slots, name)]


def test_a_verb_of_the_task_after_the_users_role_opens_the_research() -> None:
    """ "I'm a hydrologist modelling groundwater recharge ...": the task's gerund had been read inside the
    role, so its object was lost with it; it is read as the same words without the role."""
    with_role = extract_slots(
        "I'm a hydrologist modelling groundwater recharge under climate change scenarios in semi-arid regions."
    )
    without = extract_slots(
        "Modelling groundwater recharge under climate change scenarios in semi-arid regions."
    )
    assert with_role.task == without.task == ["groundwater recharge modelling"]
    plural = extract_slots(
        "We are epidemiologists forecasting influenza hospitalisations with wastewater data."
    )
    assert plural.task == ["influenza hospitalisations forecasting"]
    team = extract_slots("We're a team of engineers optimising wind turbine blade design.")
    assert team.task == ["wind turbine blade design optimisation"]
    # after a field's preposition the words name the field, whose last word may be a task's
    field = extract_slots("I'm a PhD student in disease mapping. We study malaria incidence in Kenya.")
    assert not field.task


def test_the_users_role_ends_where_their_wish_or_the_sentence_begins() -> None:
    """ "I work as a midwife and want to compare X" gave no slot at all; "As a public health researcher,
    ..." made the researcher a population; "As a result, ..." names no person and is read as before."""
    wish = extract_slots(
        "I work as a midwife and want to compare water birth with land birth for perineal trauma."
    )
    assert "perineal trauma" in wish.output_target
    opening = extract_slots("As a public health researcher, I am evaluating sugar taxes in Mexico.")
    assert "sugar taxes" in opening.context
    assert not opening.subject_population
    plural = extract_slots("As midwives, we want to know whether water immersion reduces pain in labour.")
    assert "midwives" not in plural.subject_population and "pain" in plural.output_target
    assert extract_slots("As a result, we study falls in nursing homes.").output_target == ["falls"]


def test_a_request_for_papers_names_no_concept() -> None:
    """ "Could you please search for studies of X": "search" had been a context term, and so a required
    block of the query; the words of the request are passed and what follows is the topic."""
    for request in (
        "Could you please search for studies of exercise for depression in older adults?",
        "Search for studies of exercise for depression in older adults.",
        "Can you find papers about exercise for depression in older adults?",
        "Give me recent literature on exercise for depression in older adults.",
    ):
        slots = extract_slots(request)
        terms = [
            t.lower()
            for name in ("context", "output_target", "method_measurement")
            for t in getattr(slots, name)
        ]
        assert "exercise" in terms and "depression" in terms, request
        assert not {"search", "papers", "literature", "recent literature"} & set(terms), request
    # a design asked for is no request word: it is read where it stands
    assert extract_slots(
        "Find randomised trials of metformin in gestational diabetes."
    ).method_measurement == ["randomised trials"]


def test_what_a_gerund_of_use_opening_a_question_uses_is_the_exposure() -> None:
    slots = extract_slots("Does using a weighted blanket reduce insomnia in older adults?")
    assert "weighted blanket" in slots.context
    assert "weighted blanket" not in slots.method_measurement
    assert "insomnia" in slots.output_target
    clause = extract_slots("We ask whether applying silver dressings reduces wound infection in burns.")
    assert "silver dressings" in clause.context
    assert not clause.method_measurement
    # opening no clause, "Using X, ..." still names the study's method
    method = extract_slots("Using wrist accelerometers, we measure sleep in older adults.")
    assert "wrist accelerometers" in method.method_measurement


def test_an_adverb_between_a_verb_and_its_object_leaves_the_verbs_cue() -> None:
    slots = extract_slots(
        "Do brief interventions reduce potentially harmful drinking in university students?"
    )
    assert "harmful drinking" in slots.output_target
    assert "harmful drinking" not in slots.context


def test_what_an_intervention_is_for_doing_something_to_is_the_outcome_whatever_the_verb() -> None:
    slots = extract_slots("Are bisphosphonates effective for halting bone loss in older men?")
    assert "bone loss" in slots.output_target
    assert "bone loss" not in slots.context
    compared = extract_slots(
        "Is fluoride varnish as effective as sealants for arresting enamel caries in adolescents?"
    )
    assert "enamel caries" in compared.output_target


def test_what_follows_a_participle_of_leaving_is_the_setting_not_a_data_source() -> None:
    slots = extract_slots("Employment of prisoners released from state prisons, 2000-2015.")
    assert "state prisons" in slots.context
    assert "state prisons" not in slots.method_measurement
    # "from" with no such participle still names where the data come from
    slots = extract_slots("We use data from electronic health records.")
    assert "electronic health records" in slots.method_measurement


def test_the_noun_a_which_question_asks_about_is_the_predictor_of_its_verb() -> None:
    slots = extract_slots("Which inflammatory markers predict delirium after hip fracture surgery?")
    assert "inflammatory markers" in slots.signal_feature
    assert "delirium" in slots.output_target
    assert not slots.task  # an association asked about, no prediction task named
