"""The outcomes a review title lists are left out of the query; one outcome the question is for stays."""

from __future__ import annotations

from agent.keywords.concepts import build_concepts
from agent.keywords.outcome_lists import _reported
from agent.keywords.title_template import named_as_studied, purposes, subtitle
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding


def summary(vocabulary: MeshVocabulary, description: str, **slots: list[str]) -> dict[str, tuple[str, bool]]:
    result = build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)
    return {c.label: (c.role.value, c.required) for c in result.concepts}


def test_a_subtitle_of_outcomes_is_left_out_whatever_tree_mesh_files_them_in(
    vocabulary: MeshVocabulary,
) -> None:
    found = summary(
        vocabulary,
        "Cardiac rehabilitation after myocardial infarction: recurrence, mortality and quality of life",
        context=["Cardiac rehabilitation"],
        subject_population=["myocardial infarction"],
        output_target=["recurrence", "mortality", "quality of life"],
    )
    assert found["myocardial infarction"] == ("condition", True)
    # Recurrence is a pathologic process (C23), Mortality a vital statistic (E05), Quality of Life a
    # social science (I): listed after the colon, all three are outcomes the studies report
    outcomes = {word: value for label, value in found.items() for word in label.split(" / ")}
    for outcome in ("recurrence", "mortality", "quality of life"):
        assert outcomes[outcome] == ("outcome", False), outcome


def test_a_subtitle_that_names_the_people_keeps_their_condition(vocabulary: MeshVocabulary) -> None:
    found = summary(
        vocabulary,
        "Vitamin D supplementation: a meta-analysis in patients with chronic kidney disease and diabetes",
        context=["Vitamin D supplementation"],
        subject_population=["patients with chronic kidney disease", "diabetes"],
    )
    assert all(required for role, required in found.values() if role == "condition")


def test_several_outcomes_as_the_purpose_are_left_out_one_defines_the_topic(
    vocabulary: MeshVocabulary,
) -> None:
    listed = summary(
        vocabulary,
        "Hearing aids for speech perception and quality of life in older adults with hearing loss",
        method_measurement=["Hearing aids"],
        task=["speech perception"],
        context=["quality of life"],
        subject_population=["older adults with hearing loss"],
    )
    assert listed["speech perception"] == ("outcome", False)
    assert listed["quality of life"] == ("outcome", False)
    single = summary(
        vocabulary,
        "Prognostic factors for return to work after traumatic brain injury",
        signal_feature=["Prognostic factors"],
        output_target=["return to work"],
        context=["traumatic brain injury"],
    )
    assert single["return to work"] == ("outcome", True)


def test_several_outcomes_verbs_of_effect_act_on_are_left_out_one_defines_the_topic(
    vocabulary: MeshVocabulary,
) -> None:
    description = (
        "Does early palliative care referral reduce hospital readmissions and improve quality of life "
        "for patients with advanced heart failure?"
    )
    listed = summary(
        vocabulary,
        description,
        subject_population=["patients with advanced heart failure"],
        output_target=["hospital readmissions", "quality of life"],
        context=["early palliative care referral"],
    )
    assert listed["hospital readmissions"] == ("outcome", False)
    assert listed["quality of life"] == ("outcome", False)
    assert listed["heart failure"] == ("condition", True)
    single = summary(
        vocabulary,
        "Does exercise reduce depressive symptoms in older adults and their carers?",
        context=["exercise"],
        output_target=["depressive symptoms"],
        subject_population=["older adults", "carers"],
    )
    assert single["depressive symptoms"] == ("outcome", True)


def test_a_listed_intervention_stays_required(vocabulary: MeshVocabulary) -> None:
    description = (
        "Interventions in primary care for reducing antibiotic prescribing: delayed prescribing and "
        "C-reactive protein testing"
    )
    slots = Slots(
        context=["primary care", "delayed prescribing", "C-reactive protein testing"],
        output_target=["antibiotic prescribing"],
    )
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    # the kinds listed after "Interventions ...:" are one block of what is done, and it is required
    block = next(t.concept for t in result.terms if t.canonical == "C-reactive protein")
    assert next(c for c in result.concepts if c.id == block).required


def test_subtitle_and_purposes() -> None:
    assert subtitle("Early mobilisation after cardiac surgery: effects on length of stay") == (
        "effects on length of stay"
    )
    assert subtitle("Aim: to compare two drugs") == ""  # a label, not a title's colon
    assert subtitle("Exercise for depression in older adults") == ""
    assert purposes("Exercise for depression and anxiety in older adults") == ["depression and anxiety"]


def test_a_service_before_a_noun_of_use_in_a_list_of_outcomes_is_an_outcome(
    vocabulary: MeshVocabulary,
) -> None:
    # "emergency service use" had been read as an exposure ("X use") and AND'ed as Emergency Medical Services
    found = summary(
        vocabulary,
        "Take-home naloxone programmes for people who use opioids: overdose deaths and emergency service use",
        context=["Take-home naloxone programmes", "emergency service use"],
        subject_population=["people who use opioids"],
        output_target=["overdose deaths"],
    )
    service = next(value for label, value in found.items() if "emergency" in label)
    assert service == ("outcome", False)


def test_a_service_before_a_noun_of_use_among_what_an_effect_verb_acts_on_is_an_outcome(
    vocabulary: MeshVocabulary,
) -> None:
    """ "reduces patient falls and call light use": the use of the call light is counted, not done
    (it had been an exposure, "X use", and AND'ed as the heading Light)."""
    found = summary(
        vocabulary,
        "We'd like to know if hourly rounding by nurses reduces patient falls and call light use in hospital wards.",
        context=["hourly rounding", "hospital wards"],
        subject_population=["nurses"],
        output_target=["patient falls", "call light use"],
    )
    light = next(value for label, value in found.items() if "light" in label)
    assert light == ("outcome", False)
    assert found["hourly rounding"] == ("intervention", True)


def test_a_service_after_use_of_or_a_procedure_after_need_for_in_a_list_of_outcomes_is_an_outcome(
    vocabulary: MeshVocabulary,
) -> None:
    """ "reduce blood loss and the need for transfusion in knee replacement", "effects on housing stability
    and use of emergency services": how often the procedure is needed or the service used is counted
    ("for" after "need" names no people; the transfusion had been a required method)."""
    found = summary(
        vocabulary,
        "Does tranexamic acid reduce blood loss and the need for transfusion in total knee replacement?",
        output_target=["blood loss"],
        context=["tranexamic acid", "transfusion", "total knee replacement"],
    )
    assert found["transfusion"] == ("outcome", False) and found["blood loss"] == ("outcome", False)
    assert found["tranexamic acid"][1] and found["total knee replacement"][1]
    found = summary(
        vocabulary,
        "Housing First for adults with serious mental illness - effects on housing stability and use of "
        "emergency services compared with treatment as usual.",
        subject_population=["adults with serious mental illness"],
        output_target=["housing stability"],
        context=["Housing First", "emergency services"],
    )
    service = next(value for label, value in found.items() if "emergency" in label)
    assert service == ("outcome", False)


def test_outcomes_an_effect_verb_lists_are_several_even_grouped_in_one_concept(
    vocabulary: MeshVocabulary,
) -> None:
    """ "reduce falls and hospital admissions": the two outcomes of different kinds, listed together, make
    one concept, and that concept is a list of outcomes all the same (it had been AND'ed as the only
    outcome)."""
    found = summary(
        vocabulary,
        "We want to know whether deprescribing interventions reduce falls and hospital admissions in "
        "nursing home residents.",
        context=["deprescribing interventions", "nursing home residents"],
        output_target=["falls", "hospital admissions"],
    )
    falls = next(value for label, value in found.items() if "falls" in label)
    assert falls == ("outcome", False)
    # alternatives of one kind (Anxiety and Depression are both F01) are one concept the question is about
    found = summary(
        vocabulary,
        "Does exercise reduce anxiety and depression in adolescents?",
        context=["exercise"],
        subject_population=["adolescents"],
        output_target=["anxiety", "depression"],
    )
    anxiety = next(value for label, value in found.items() if "anxiety" in label)
    assert anxiety[1] is True


def test_people_named_only_by_their_state_in_a_subtitle_of_outcomes_are_an_outcome(
    vocabulary: MeshVocabulary,
) -> None:
    """'...: neonatal mortality, low birth weight and stunting': MeSH files "low birth weight" under
    Infant, Low Birth Weight (people), but written without the infants it is the state measured;
    'low birth weight infants' before the colon stay the people studied."""
    found = summary(
        vocabulary,
        "Cash transfers to pregnant women in low-income countries: neonatal mortality, low birth weight and "
        "stunting",
        context=["Cash transfers"],
        subject_population=["pregnant women", "low birth weight"],
        output_target=["neonatal mortality", "stunting"],
    )
    outcomes = {word: value for label, value in found.items() for word in label.split(" / ")}
    assert outcomes["low birth weight"] == ("outcome", False)
    people = summary(
        vocabulary,
        "Kangaroo mother care for low birth weight infants: mortality, sepsis and breastfeeding",
        context=["Kangaroo mother care"],
        subject_population=["low birth weight infants"],
        output_target=["mortality", "sepsis", "breastfeeding"],
    )
    assert people["low birth weight infants"][0] != "outcome"


def test_outcomes_a_list_shares_a_word_with_are_listed_and_a_behaviour_is_measured(
    vocabulary: MeshVocabulary,
) -> None:
    # "maternal outcomes" is written only as "maternal and perinatal outcomes"; Disclosure is filed
    # under information science (L01) and under behaviour (F01): measured, not done
    found = summary(
        vocabulary,
        "Intimate partner violence screening in antenatal care and its effect on disclosure, referral to "
        "support services and maternal and perinatal outcomes",
        task=["Intimate partner violence"],
        context=["antenatal care"],
        output_target=[
            "disclosure",
            "referral",
            "maternal outcomes",
            "support services",
            "perinatal outcomes",
        ],
    )
    listed = [value for label, value in found.items() if "disclosure" in label or "maternal" in label]
    assert listed and all(value == ("outcome", False) for value in listed)


def test_an_outcome_the_researcher_says_they_study_defines_the_topic(vocabulary: MeshVocabulary) -> None:
    """ "I'm a pharmacist studying adherence to direct oral anticoagulants ...": the adherence is what the
    question is about, not an outcome that only narrows (it had been left out of the query)."""
    description = (
        "I'm a pharmacist studying adherence to direct oral anticoagulants in patients with atrial "
        "fibrillation, and what interventions improve it."
    )
    found = summary(
        vocabulary,
        description,
        context=["direct oral anticoagulants"],
        subject_population=["patients with atrial fibrillation"],
        output_target=["adherence"],
    )
    adherence = next(value for label, value in found.items() if "adherence" in label)
    assert adherence == ("outcome", True)
    assert named_as_studied("burnout", "We investigate burnout in ICU nurses.")
    assert not named_as_studied("nurses", "We investigate burnout in ICU nurses.")


def test_what_the_literature_asked_for_is_about_is_the_topic() -> None:
    """ "... and want papers on dendrite suppression": what the researcher asks papers about is what the
    search is about (it had been an optional setting)."""
    description = (
        "We are developing solid-state electrolytes for lithium metal batteries and want papers on "
        "dendrite suppression."
    )
    assert named_as_studied("dendrite suppression", description)
    assert named_as_studied("falls", "I need evidence about falls in care homes.")
    assert not named_as_studied("lithium metal batteries", description)


def test_outcomes_the_description_names_as_such_are_left_out(vocabulary: MeshVocabulary) -> None:
    """ "..., with itch, eczema severity and conjunctivitis as outcomes": the user says they are outcomes
    (each had been a required block); the condition before the last "with" stays."""
    found = summary(
        vocabulary,
        "Our lab investigates dupilumab in children with atopic dermatitis, with itch, eczema severity and "
        "conjunctivitis as outcomes.",
        context=["dupilumab"],
        subject_population=["children with atopic dermatitis"],
        output_target=["itch", "eczema severity", "conjunctivitis"],
    )
    assert next(value for label, value in found.items() if "conjunctivitis" in label) == ("outcome", False)
    assert next(value for label, value in found.items() if "atopic" in label)[1] is True


def test_a_sentence_that_starts_with_the_outcomes_leaves_them_out(vocabulary: MeshVocabulary) -> None:
    """ "Low birth weight and preterm birth are the outcomes we care about: does X in pregnancy ...": the
    user names the outcomes first (each had been a required block); the intervention stays."""
    found = summary(
        vocabulary,
        "Low birth weight and preterm birth are the outcomes we care about: does multiple micronutrient "
        "supplementation in pregnancy do better than iron-folic acid alone?",
        context=["multiple micronutrient supplementation", "iron-folic acid"],
        subject_population=["pregnancy"],
        output_target=["low birth weight", "preterm birth"],
    )
    assert not any(required for label, (_, required) in found.items() if "birth" in label.lower())
    assert any(required for label, (_, required) in found.items() if "micronutrient" in label.lower())


def test_a_sentence_that_is_only_the_outcomes_leaves_them_out(vocabulary: MeshVocabulary) -> None:
    """ "Which psychosocial interventions work for adults with X? PTSD and depression outcomes.": a bare
    list before "outcomes" names them as such (PTSD had been a required condition block)."""
    found = summary(
        vocabulary,
        "Which psychosocial interventions work for refugees? PTSD and depression outcomes.",
        context=["psychosocial interventions", "PTSD"],
        subject_population=["refugees"],
        output_target=["depression outcomes"],
    )
    assert found["PTSD"] == ("outcome", False)
    assert found["psychosocial interventions"][1] is True
    # a sentence with a preposition is no bare list: "the effect of X on birth outcomes" keeps X
    kept = summary(
        vocabulary,
        "We study the effect of maternal obesity on birth outcomes.",
        subject_population=["maternal obesity"],
        output_target=["birth outcomes"],
    )
    assert any(required for label, (_, required) in kept.items() if "obesity" in label.lower())


def test_what_the_writer_cares_about_after_the_question_is_left_out(vocabulary: MeshVocabulary) -> None:
    """ "Do e-cigarettes help adult smokers quit? I care about abstinence and about adverse events.": after
    the question, what the writer cares about is what the studies report (both had been required)."""
    found = summary(
        vocabulary,
        "Do e-cigarettes help adult smokers quit? I care about abstinence at six months and about adverse "
        "events.",
        context=["e-cigarettes"],
        subject_population=["adult smokers"],
        output_target=["abstinence", "adverse events"],
    )
    assert found["abstinence"] == ("outcome", False)
    assert found["adverse events"] == ("outcome", False)
    assert found["e-cigarettes"][1] is True


def test_outcomes_listed_after_focusing_on_are_left_out(vocabulary: MeshVocabulary) -> None:
    """ "..., focusing on X, Y and Z": what the comparison is judged by, a list of outcomes (it had been a
    required block); the intervention and the condition stay."""
    found = summary(
        vocabulary,
        "We compare day-case with inpatient tonsillectomy in children with sleep apnoea, focusing on "
        "readmission, haemorrhage and parental satisfaction.",
        context=["day-case", "inpatient tonsillectomy"],
        subject_population=["children with sleep apnoea"],
        output_target=["readmission", "haemorrhage", "parental satisfaction"],
    )
    assert not any(required for label, (_, required) in found.items() if "readmission" in label.lower())
    assert any(required for label, (_, required) in found.items() if "apnoea" in label.lower())


def test_a_question_after_the_colon_is_no_subtitle_of_outcomes(vocabulary: MeshVocabulary) -> None:
    """ "...: does X in pregnancy ...?": after the colon the description asks its question, and the
    people it names there ("pregnancy", which MeSH files among physiological phenomena) stay required
    (they had been read as an outcome of a subtitle and dropped)."""
    found = summary(
        vocabulary,
        "Stillbirth is the outcome: does aspirin in pregnancy do better than heparin?",
        context=["aspirin", "heparin"],
        subject_population=["pregnancy"],
        output_target=["stillbirth"],
    )
    assert next(value for label, value in found.items() if "pregnan" in label.lower())[1] is True


def test_outcomes_the_effect_of_an_intervention_acts_on_are_listed(vocabulary: MeshVocabulary) -> None:
    """ "The effect of X on A and B in P": what the effect acts on, up to the people, is a list of
    outcomes (a state MeSH also files among the phenomena measured, Insulin Resistance, among them);
    the people's condition stays required, and diseases an exposure acts on stay the topic."""
    found = summary(
        vocabulary,
        "The effect of aerobic exercise on insulin resistance and fatigue in adults with obesity.",
        context=["aerobic exercise"],
        output_target=["insulin resistance", "fatigue"],
        subject_population=["adults with obesity"],
    )
    assert not any(required for label, (_, required) in found.items() if "insulin" in label.lower())
    assert any(required for label, (_, required) in found.items() if "obesity" in label.lower())
    diseases = summary(
        vocabulary,
        "The effect of traffic noise on hypertension and stroke in older women.",
        context=["traffic noise"],
        output_target=["hypertension", "stroke"],
        subject_population=["older women"],
    )
    assert any(required for label, (_, required) in diseases.items() if "stroke" in label.lower())


def test_outcomes_a_chinese_description_names_as_such_are_left_out(vocabulary: MeshVocabulary) -> None:
    """ "主要结局是住院和死亡" (the primary outcomes are hospitalisation and death): named as outcomes in
    so many words, as English "primary outcomes are X and Y" is (death had been a required condition,
    Death being filed among the pathologic processes); the condition treated stays."""
    understanding = Understanding(
        description="SGLT2抑制剂在心力衰竭患者中的应用，主要结局是住院和死亡",
        slots=Slots(
            context=["SGLT2 inhibitor"],
            subject_population=["heart failure"],
            output_target=["hospitalization", "death"],
        ),
        originals={
            "SGLT2 inhibitor": "SGLT2抑制剂",
            "heart failure": "心力衰竭患者",
            "hospitalization": "住院",
            "death": "死亡",
        },
    )
    result = build_concepts(understanding, vocabulary)
    found = {c.label: (c.role.value, c.required) for c in result.concepts}
    assert found["death"] == ("outcome", False)
    assert found["heart failure"] == ("condition", True)


def test_outcomes_one_purpose_lists_with_a_condition_join_its_block(vocabulary: MeshVocabulary) -> None:
    """ "for preventing falls and pressure ulcers": the list one verb takes is one block, and the condition
    in it makes it the topic; falls had been left out as a listed outcome while pressure ulcers were
    AND'ed alone."""
    result = build_concepts(
        Understanding(
            description="Intentional rounding for preventing falls and pressure ulcers in hospital inpatients",
            slots=Slots(
                context=["Intentional rounding"],
                output_target=["falls", "pressure ulcers"],
                subject_population=["hospital inpatients"],
            ),
        ),
        vocabulary,
    )
    (block,) = [
        c
        for c in result.concepts
        if any(t.canonical == "pressure ulcers" for t in result.terms if t.concept == c.id)
    ]
    assert block.required
    assert {t.mesh.heading for t in result.terms if t.concept == block.id and t.mesh} == {
        "Accidental Falls",
        "Pressure Ulcer",
    }


def test_body_processes_listed_as_the_purpose_are_outcomes_though_of_one_kind(
    vocabulary: MeshVocabulary,
) -> None:
    """'for weight loss and insulin resistance in women with polycystic ovary syndrome': Weight Loss and
    Insulin Resistance are both filed under G07, one kind, but phenomena of the body a study measures:
    the outcomes it reports, left out (had been a required block beside the women's syndrome)."""
    found = summary(
        vocabulary,
        "Metformin versus lifestyle modification for weight loss and insulin resistance in women with "
        "polycystic ovary syndrome",
        context=["Metformin", "lifestyle modification"],
        subject_population=["women with polycystic ovary syndrome"],
        output_target=["weight loss", "insulin resistance"],
    )
    weight = next(value for label, value in found.items() if "weight loss" in label)
    assert weight == ("outcome", False)
    assert found["polycystic ovary syndrome"] == ("condition", True)


def test_outcomes_a_subtitle_lists_after_the_review_it_names_are_left_out(vocabulary: MeshVocabulary) -> None:
    # "a systematic review of X and Y": the review's "of" opens what it reports, no people or place
    found = summary(
        vocabulary,
        "Oral versus intravenous antibiotics for acute pyelonephritis in children: a systematic review of "
        "renal scarring and treatment failure",
        method_measurement=["Oral versus intravenous antibiotics"],
        subject_population=["acute pyelonephritis", "children"],
        output_target=["renal scarring", "treatment failure"],
    )
    outcomes = {word: value for label, value in found.items() for word in label.split(" / ")}
    assert [value for word, value in outcomes.items() if "pyelonephritis" in word] == [("condition", True)]
    # a condition (renal scarring) and a heading under Treatment Outcome (Treatment Failure, E01.789.800)
    for outcome in ("renal scarring", "treatment failure"):
        assert [value for word, value in outcomes.items() if outcome in word] == [("outcome", False)], found


def test_a_review_of_studies_lists_no_outcomes() -> None:
    assert _reported(
        "a systematic review and meta-analysis of delayed bleeding and incomplete resection"
    ) == ("delayed bleeding and incomplete resection")
    assert _reported("a systematic review of cohort studies and biologics registries") == ""
    assert _reported("a meta-analysis of randomised controlled trials") == ""
    assert _reported("mortality and quality of life") == "mortality and quality of life"


def test_a_word_mesh_does_not_know_filed_among_the_people_is_an_outcome_in_the_reviews_list(
    vocabulary: MeshVocabulary,
) -> None:
    """'...: a systematic review and meta-analysis of death and reinfarction': the understanding can only
    file 'reinfarction' (no MeSH term) among the people, but in the list the review's "of" opens it is
    an outcome the studies report, left out like Death; people MeSH names stay required."""
    found = summary(
        vocabulary,
        "Routine invasive versus conservative management of myocardial infarction in the oldest old: "
        "a systematic review and meta-analysis of death and reinfarction",
        context=["Routine invasive versus conservative management"],
        subject_population=["myocardial infarction", "oldest old", "reinfarction"],
        output_target=["death"],
    )
    outcomes = {word: value for label, value in found.items() for word in label.split(" / ")}
    assert outcomes["reinfarction"] == ("outcome", False)
    assert outcomes["death"] == ("outcome", False)
    assert outcomes["oldest old"][1]


def test_an_of_inside_an_outcome_phrase_names_no_people_in_the_reviews_list(
    vocabulary: MeshVocabulary,
) -> None:
    """'...: a meta-analysis of atrial fibrillation, fractures and quality of life': the "of" of "quality of
    life" names no one and nowhere, so the subtitle still lists only outcomes, and the diseases in it
    are outcomes the studies report, left out; the condition before the colon stays required."""
    found = summary(
        vocabulary,
        "Levothyroxine for subclinical hypothyroidism in older adults: a systematic review and "
        "meta-analysis of atrial fibrillation, fractures and quality of life",
        method_measurement=["Levothyroxine"],
        subject_population=["subclinical hypothyroidism", "older adults"],
        output_target=["atrial fibrillation", "fractures", "quality of life"],
    )
    outcomes = {word: value for label, value in found.items() for word in label.split(" / ")}
    assert [v for w, v in outcomes.items() if "hypothyroidism" in w] == [("condition", True)], found
    for outcome in ("atrial fibrillation", "fractures", "quality of life"):
        assert outcomes[outcome] == ("outcome", False), (outcome, found)


def test_the_people_a_reviews_of_names_keep_their_conditions(vocabulary: MeshVocabulary) -> None:
    """'...: a meta-analysis of patients with atrial fibrillation and heart failure': the "with" of the
    people is no phrase of a thing, so the subtitle names who is studied and their conditions stay."""
    found = summary(
        vocabulary,
        "Levothyroxine for subclinical hypothyroidism: a meta-analysis of patients with atrial fibrillation "
        "and heart failure",
        method_measurement=["Levothyroxine"],
        subject_population=[
            "subclinical hypothyroidism",
            "patients with atrial fibrillation",
            "heart failure",
        ],
    )
    assert all(required for role, required in found.values() if role == "condition"), found


def test_one_outcome_a_subtitle_names_after_the_reviews_of_is_left_out(vocabulary: MeshVocabulary) -> None:
    """'...: a systematic review and meta-analysis of intracranial haemorrhage': the review's "of" opens
    what it reports, one thing as well as a list, so the disease written only there is an outcome the
    studies report; the condition before the colon stays required."""
    found = summary(
        vocabulary,
        "Rivaroxaban versus warfarin for atrial fibrillation: a systematic review and meta-analysis of "
        "intracranial haemorrhage",
        method_measurement=["Rivaroxaban versus warfarin"],
        subject_population=["atrial fibrillation"],
        output_target=["intracranial haemorrhage"],
    )
    outcomes = {word: value for label, value in found.items() for word in label.split(" / ")}
    assert outcomes["atrial fibrillation"] == ("condition", True), found
    assert [v for w, v in outcomes.items() if "haemorrhage" in w] == [("outcome", False)], found
    # a plain subtitle of one thing names no list of outcomes: the disease stays what it is
    plain = summary(
        vocabulary,
        "Rivaroxaban versus warfarin for atrial fibrillation: intracranial haemorrhage",
        method_measurement=["Rivaroxaban versus warfarin"],
        subject_population=["atrial fibrillation", "intracranial haemorrhage"],
    )
    assert [v for w, v in plain.items() if "haemorrhage" in w] == [("condition", True)], plain


def test_a_procedure_listed_as_what_the_review_reports_is_an_outcome(vocabulary: MeshVocabulary) -> None:
    """'...: a systematic review of wound healing and major amputation': after the review's "of" (or
    "effects on") a technique MeSH files among the procedures (Amputation, Surgical, E04) is the event
    counted, left out; in a plain subtitle that only lists things it stays what it is ("...: amputation
    and bypass surgery" may list the kinds of what is done)."""
    found = summary(
        vocabulary,
        "Hyperbaric oxygen therapy for diabetic foot ulcers: a systematic review of wound healing and "
        "major amputation",
        method_measurement=["Hyperbaric oxygen therapy", "major amputation"],
        subject_population=["diabetic foot ulcers"],
        output_target=["wound healing"],
    )
    outcomes = {word: value for label, value in found.items() for word in label.split(" / ")}
    assert [v for w, v in outcomes.items() if "amputation" in w] == [("outcome", False)], found
    assert [v for w, v in outcomes.items() if "foot ulcer" in w] == [("condition", True)], found
    plain = summary(
        vocabulary,
        "Hyperbaric oxygen therapy for diabetic foot ulcers: amputation and wound healing",
        method_measurement=["Hyperbaric oxygen therapy", "amputation"],
        subject_population=["diabetic foot ulcers"],
        output_target=["wound healing"],
    )
    assert [v for w, v in plain.items() if "amputation" in w] == [("method", True)], plain
