"""A concept's role in the search, and whether the query requires it."""

from __future__ import annotations

import pytest

from agent.keywords.concept_roles import (
    asks_for_a_diagnosis,
    decide_required,
    explains_another,
    is_chinese_comparator,
    is_exposure,
    names_a_tradition,
    names_nothing,
    names_their_specialty,
    study_filter,
    taken_either_way,
)
from agent.keywords.title_template import related_to_the_ill
from agent.language.mesh_recognition import MeshVocabulary, role_of
from agent.models import Concept, ConceptRole, MeshDescriptor, Term


def test_decide_required_promotes_in_order() -> None:
    concepts = [
        Concept(id="a", label="a", role=ConceptRole.SETTING),
        Concept(id="b", label="b", role=ConceptRole.OUTCOME),
        Concept(id="c", label="c", role=ConceptRole.METHOD),
    ]
    decide_required(concepts)
    assert [c.required for c in concepts] == [False, True, True]


def test_role_of_descriptors(vocabulary: MeshVocabulary) -> None:
    def role(heading: str) -> ConceptRole:
        return role_of(vocabulary.lookup(heading)[0])

    assert role("Epilepsy") is ConceptRole.CONDITION
    assert role("Metformin") is ConceptRole.INTERVENTION
    assert role("Electrocorticography") is ConceptRole.METHOD
    assert role("Child") is ConceptRole.POPULATION
    assert role("Mycobacterium tuberculosis") is ConceptRole.CONDITION  # a pathogen
    assert role("Serum") is ConceptRole.ANATOMY
    # a habitat is where the study is done, not an outcome (its G16 tree would say outcome)
    assert role("Rivers") is ConceptRole.SETTING and role("Wetlands") is ConceptRole.SETTING
    assert role("Biodiversity") is ConceptRole.OUTCOME  # in the Ecosystem tree, but what is measured


def _required(*roles: ConceptRole) -> list[bool]:
    concepts = [Concept(id=f"c{i}", label=f"c{i}", role=role) for i, role in enumerate(roles)]
    decide_required(concepts)
    return [c.required for c in concepts]


def test_an_algorithm_is_required_when_nothing_else_names_what_is_done() -> None:
    # "building a chatbot" for university students' depressive symptoms
    assert _required(ConceptRole.ALGORITHM, ConceptRole.POPULATION, ConceptRole.OUTCOME) == [True, True, True]
    # beside a method the user applies it to ("reinforcement learning for robotic grasping of deformable
    # objects"), the algorithm only narrows
    assert _required(ConceptRole.ALGORITHM, ConceptRole.METHOD, ConceptRole.POPULATION) == [False, True, True]


def test_relatives_of_the_ill_are_named_by_the_relation() -> None:
    assert related_to_the_ill("family caregivers", "Support for family caregivers of people with dementia")
    assert related_to_the_ill("parent", "Training for parents of children who have autism")
    assert not related_to_the_ill("older people", "Exercise for older people with hip fracture")
    assert not related_to_the_ill("", "caregivers of people with dementia")


@pytest.mark.parametrize(
    ("description", "slots", "label", "required"),
    [
        # a review of an intervention is about the people and the place its title names
        (
            "Probiotics for the prevention of necrotising enterocolitis in preterm infants",
            {"subject_population": ["preterm infants"], "output_target": ["necrotising enterocolitis"]},
            "preterm infants",
            True,
        ),
        (
            "Ketamine for acute pain in the emergency department",
            {"output_target": ["acute pain"], "context": ["emergency department"]},
            "emergency department",
            True,
        ),
        # the place of a test's accuracy is where people are selected for the test: the target defines it
        (
            "Procalcitonin for the diagnosis of acute pyelonephritis in the emergency department",
            {"output_target": ["acute pyelonephritis"], "context": ["emergency department"]},
            "emergency department",
            False,
        ),
        # but an age group restricts the review to those people, whose test accuracy is its own
        (
            "Procalcitonin for the diagnosis of acute pyelonephritis in children",
            {"subject_population": ["children"], "output_target": ["acute pyelonephritis"]},
            "children",
            True,
        ),
        # adults are nearly everyone
        (
            "Probiotics for the prevention of necrotising enterocolitis in adults",
            {"subject_population": ["adults"], "output_target": ["necrotising enterocolitis"]},
            "adults",
            False,
        ),
    ],
)
def test_people_and_places_a_review_names_are_required_outside_a_question_of_a_test(
    vocabulary: MeshVocabulary, description: str, slots: dict[str, list[str]], label: str, required: bool
) -> None:
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    what = description.split(" for ")[0]
    understanding = Understanding(description=description, slots=Slots(**slots, task=[what]))
    concepts = {c.label: c.required for c in build_concepts(understanding, vocabulary).concepts}
    assert concepts.get(label, False) is required


@pytest.mark.parametrize(
    ("description", "heading"),
    [
        ("Prevalence of depression among medical students", "Prevalence"),
        ("Risk factors for pressure ulcers in adult intensive care patients", "Risk Factors"),
        ("Incidence of surgical site infection after caesarean section", "Incidence"),
        # not at the opening, or no measure MeSH files under Epidemiologic Methods
        ("Social isolation as a risk factor for mortality", None),
        ("Urine tests for Down's syndrome screening", None),
        ("Prevalence", None),
        # the chance of the outcome every study of it measures: no kind of study (Risk is no block)
        ("Risk of stroke in atrial fibrillation on DOACs versus warfarin", None),
    ],
)
def test_the_measure_a_title_opens_with(
    vocabulary: MeshVocabulary, description: str, heading: str | None
) -> None:
    from agent.keywords.title_template import measure_asked

    found = measure_asked(description, vocabulary)
    assert (found.heading if found else None) == heading


def test_the_measure_asked_is_a_required_concept(vocabulary: MeshVocabulary) -> None:
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    slots = Slots(subject_population=["medical students"], output_target=["Prevalence", "depression"])
    result = build_concepts(
        Understanding(description="Prevalence of depression among medical students", slots=slots), vocabulary
    )
    concept = next(c for c in result.concepts if c.label == "Prevalence")
    assert concept.required and [t.mesh.heading for t in result.terms if t.concept == concept.id] == [
        "Prevalence"
    ]


@pytest.mark.parametrize(
    ("description", "heading"),
    [
        ("Experiences of family caregivers of people with dementia: a qualitative systematic review", True),
        ("Stigma among police officers: a meta-synthesis of qualitative studies", True),
        ("Nurses' views of early warning scores: a meta-ethnography", True),
        # a review that takes quantitative studies too, or no qualitative review at all
        ("Barriers to breastfeeding: a mixed-methods systematic review of qualitative studies", False),
        ("Qualitative and quantitative studies of adherence to inhalers", False),
        ("Exercise for depression in older adults", False),
        ("Qualitative analysis of flavonoids in green tea by HPLC", False),  # another kind of "qualitative"
        # qualitative studies approved beside the others asked for, not asked for alone
        ("Peer support for postnatal depression. Qualitative studies welcome.", False),
        ("Falls prevention in care homes; qualitative research is also fine", False),
    ],
)
def test_a_qualitative_review_asks_for_qualitative_research(
    vocabulary: MeshVocabulary, description: str, heading: bool
) -> None:
    from agent.keywords.title_template import qualitative_evidence_asked

    found = qualitative_evidence_asked(description, vocabulary)
    assert (found.heading if found else None) == ("Qualitative Research" if heading else None)


def test_the_qualitative_design_is_a_required_concept_and_meta_synthesis_no_block(
    vocabulary: MeshVocabulary,
) -> None:
    """The studies of a qualitative evidence synthesis are found by Qualitative Research and the word
    "qualitative" (a block an information specialist ANDs); "meta-synthesis" is the kind of review, a
    filter, not a block (it had been AND'ed as a method)."""
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    description = "Experiences of stigma among police officers: a meta-synthesis of qualitative studies"
    slots = Slots(task=["meta-synthesis"], subject_population=["police officers"], context=["stigma"])
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    concept = next(c for c in result.concepts if c.label == "Qualitative Research")
    terms = [t for t in result.terms if t.concept == concept.id]
    assert concept.required and [t.mesh.heading for t in terms] == ["Qualitative Research"]
    assert [s.text for s in terms[0].synonyms] == ["qualitative"]
    assert not any("synthesis" in c.label for c in result.concepts)
    assert "meta-synthesis" in [f.text for f in result.study_filters]


@pytest.mark.parametrize(
    ("description", "asked"),
    [
        ("Barriers and facilitators to implementing antimicrobial stewardship in nursing homes", True),
        ("Barriers to accessing mental health services among refugees: a qualitative synthesis", True),
        ("Enablers of physical activity in older adults", True),
        ("Obstacles or facilitators for breastfeeding among working mothers", True),
        # another sense: a part of the body, a device, or no preposition after the noun
        ("The blood-brain barriers to drug delivery in glioma", False),
        ("Barrier methods of contraception in adolescents", False),
        ("Skin barrier function in atopic dermatitis", False),
        ("Exercise for depression in older adults: barriers", False),
    ],
)
def test_a_title_asking_what_hinders_or_helps(description: str, asked: bool) -> None:
    from agent.keywords.title_template import factors_of_a_practice_asked

    found = factors_of_a_practice_asked(description)
    assert found == (["barriers", "facilitators", "enablers", "obstacles"] if asked else [])


def test_barriers_and_facilitators_are_one_required_concept(vocabulary: MeshVocabulary) -> None:
    """The nouns of hindrance and help the understanding files as two settings (optional) are one
    required block of the kind of question, searched with the other nouns of the class, as an
    information specialist ANDs "barrier* OR facilitat* OR enabler*" beside what is implemented."""
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    description = "Barriers and facilitators to implementing antimicrobial stewardship in nursing homes"
    slots = Slots(context=["Barriers", "facilitators", "antimicrobial stewardship", "nursing homes"])
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    block = next(t.concept for t in result.terms if t.canonical.casefold() == "barriers")
    concept = next(c for c in result.concepts if c.id == block)
    terms = [t for t in result.terms if t.concept == block]
    words = {t.canonical.casefold() for t in terms} | {s.text for t in terms for s in t.synonyms}
    assert concept.required and concept.role is ConceptRole.METHOD
    assert {"barriers", "facilitators", "enablers", "obstacles"} <= words
    assert len({t.concept for t in result.terms if t.mesh is None}) == 1


def test_a_place_grouped_with_the_words_of_hindrance_stays_a_concept_of_its_own(
    vocabulary: MeshVocabulary,
) -> None:
    """ "Barriers ... in rural and remote areas": the understanding files the nouns of hindrance and
    the place in one slot, and grouping may join them; the place stays its own required block, the
    words of hindrance another, never one OR block that would take papers naming either."""
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    description = "Barriers to the use of telehealth by physiotherapists in rural and remote areas"
    slots = Slots(context=["Barriers", "telehealth", "rural areas", "remote areas"])
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    barriers = next(t.concept for t in result.terms if t.canonical.casefold() == "barriers")
    rural = next(t.concept for t in result.terms if t.canonical.casefold() == "rural areas")
    assert barriers != rural
    place = next(c for c in result.concepts if c.id == rural)
    assert place.required and place.label == "rural areas"
    assert next(c for c in result.concepts if c.id == barriers).role is ConceptRole.METHOD


def test_what_is_listed_with_the_words_of_hindrance_stays_in_their_block(vocabulary: MeshVocabulary) -> None:
    """ "Experiences of stigma and barriers to accessing care": the description lists stigma with the
    barriers, a hindrance of a kind, and the searcher ORs it into their block."""
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    description = "Experiences of stigma and barriers to accessing mental health care among police officers"
    slots = Slots(
        context=["stigma", "barriers", "mental health care"], subject_population=["police officers"]
    )
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    concept = {t.canonical.casefold(): t.concept for t in result.terms}
    assert concept["stigma"] == concept["barriers"]


@pytest.mark.parametrize(
    ("description", "slots", "label", "required"),
    [
        # what the question is for, filed in the context: its topic, not a place
        (
            "Semantic segmentation of LiDAR point clouds for autonomous driving",
            {
                "task": ["Semantic segmentation"],
                "signal_feature": ["LiDAR point clouds"],
                "context": ["autonomous driving"],
            },
            "autonomous driving",
            True,
        ),
        # several free-text phrases the purpose lists: outcomes the studies report, left out
        (
            "Circuit class training versus usual physiotherapy for walking speed and balance in people with stroke",
            {
                "task": ["circuit class training"],
                "subject_population": ["people with stroke"],
                "context": ["walking speed", "balance"],
            },
            "balance",
            False,
        ),
    ],
)
def test_a_context_phrase_the_title_writes_as_its_purpose_is_required_unless_listed(
    vocabulary: MeshVocabulary, description: str, slots: dict[str, list[str]], label: str, required: bool
) -> None:
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    result = build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)
    concept = next(c for c in result.concepts if c.label == label)
    assert concept.required is required


def test_a_phrase_headed_by_a_word_of_one_family_of_headings_is_that_condition(
    vocabulary: MeshVocabulary,
) -> None:
    """ "dentine caries": Dental Caries, searched with the phrase as written (not Dentin, and not a
    setting that only narrows)."""
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    description = "Silver diamine fluoride for arresting dentine caries in preschool children"
    slots = Slots(
        subject_population=["preschool children"], context=["Silver diamine fluoride", "dentine caries"]
    )
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    term = next(t for t in result.terms if t.canonical == "dentine caries")
    concept = next(c for c in result.concepts if c.id == term.concept)
    assert term.mesh is not None and term.mesh.heading == "Dental Caries"
    assert concept.role is ConceptRole.CONDITION and concept.required


def test_a_family_head_before_a_measuring_word_is_that_condition(vocabulary: MeshVocabulary) -> None:
    """ "proximal caries detection" (from "for detecting proximal caries"): without its measuring head
    the phrase is headed by "caries", and searched with Dental Caries, not as three words in a row."""
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    description = "Near-infrared light transillumination for detecting proximal caries in permanent teeth"
    slots = Slots(
        task=["proximal caries detection"], method_measurement=["near-infrared light transillumination"]
    )
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    assert any(t.mesh is not None and t.mesh.heading == "Dental Caries" for t in result.terms)


def test_a_thing_and_what_it_contains_are_two_concepts(vocabulary: MeshVocabulary) -> None:
    """ "combined oral contraceptives containing drospirenone": the drug had been lost (the query searched
    "combined oral contraceptives"[tiab], which the whole phrase holds); now the contraceptives, with
    their heading, AND the drug."""
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    description = "Risk of venous thromboembolism with combined oral contraceptives containing drospirenone"
    slots = Slots(
        method_measurement=["combined oral contraceptives containing drospirenone"],
        output_target=["venous thromboembolism"],
    )
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    by_text = {t.canonical: t for t in result.terms}
    assert by_text["combined oral contraceptives"].mesh is not None
    assert by_text["combined oral contraceptives"].mesh.heading == "Contraceptives, Oral, Combined"
    drug = next(c for c in result.concepts if c.id == by_text["drospirenone"].concept)
    assert drug.required


def test_what_helps_is_an_exposure() -> None:
    # "Does peer support help mothers with ...": peer support (no heading) had been an optional setting
    assert is_exposure("peer support", "Does peer support help mothers with postnatal depression?")
    assert is_exposure("apps", "Can apps help people quit smoking?")


def test_each_member_of_a_list_of_exposures_is_an_exposure() -> None:
    # a list written with commas, or a suspended prefix before the member, after "exposure to"
    assert is_exposure("arsenic", "Exposure to lead, cadmium and arsenic in children")
    assert is_exposure("cadmium", "Exposure to lead, cadmium and arsenic in children")
    pfas = "Early-life exposure to per- and polyfluoroalkyl substances (PFAS) and childhood obesity"
    assert is_exposure("polyfluoroalkyl substances (PFAS)", pfas)  # a phrase ending in its acronym
    # "exposure to X and Y" alone: Y is what X acts on; "between X and Y" never lists exposures
    assert not is_exposure("childhood obesity", pfas)
    assert not is_exposure("childhood asthma", "Exposure to air pollution and childhood asthma")
    assert not is_exposure("asthma", "The association between air pollution and asthma")


def test_how_near_people_live_to_a_thing_is_their_exposure_to_it() -> None:
    title = "Residential proximity to unconventional natural gas development and adverse birth outcomes"
    assert is_exposure("Residential proximity to unconventional natural gas development", title)
    assert is_exposure("distance from wind turbines", "Distance from wind turbines and sleep quality")
    assert not is_exposure("adverse birth outcomes", title)
    assert not is_exposure("walking distance", "Walking distance and mortality in older adults")


def test_what_people_do_or_meet_in_a_clause_about_them_is_their_exposure() -> None:
    assert is_exposure("night shifts", "breast cancer risk in nurses working night shifts")
    assert is_exposure("night shifts", "Breast cancer in nurses who work night shifts")
    assert is_exposure("busy roads", "asthma in children living near busy roads")
    assert is_exposure("social media", "depression in adolescents using social media")
    assert is_exposure("crystalline silica", "lung function in workers exposed to crystalline silica")
    # where they work or live, or what they live with, is a setting or a condition
    assert not is_exposure("rural areas", "obesity in children living in rural areas")
    assert not is_exposure("HIV", "depression in people living with HIV")
    assert not is_exposure("intensive care units", "burnout in nurses working in intensive care units")
    assert not is_exposure("asthma", "asthma in children living near busy roads")


def test_what_an_exposure_comes_with_may_stand_before_its_verb_of_effect() -> None:
    description = (
        "We test whether structured pedagogy with scripted lesson plans and teacher coaching improves "
        "early-grade reading fluency in primary schools."
    )
    assert is_exposure("structured pedagogy", description)
    assert not is_exposure("primary schools", description)
    # who delivers it: "hourly rounding by nurses reduces ...", "... delivered by pharmacists improves ..."
    rounding = "We'd like to know if hourly rounding by nurses reduces patient falls in hospital wards."
    assert is_exposure("hourly rounding", rounding)
    assert not is_exposure("nurses", rounding)
    assert is_exposure(
        "medication reviews", "Do medication reviews delivered by pharmacists improve adherence?"
    )
    # when it is done, and an acronym glossed inside the phrase
    calls = "Do structured telephone follow-up calls after discharge reduce 30-day readmissions?"
    assert is_exposure("structured telephone follow-up calls", calls)
    eras = "I'm curious whether enhanced recovery after surgery (ERAS) protocols shorten hospital stay."
    assert is_exposure("enhanced recovery after surgery protocols", eras)


@pytest.mark.parametrize(
    ("description", "asks"),
    [
        (
            "Magnetic resonance imaging, magnetic resonance arthrography and ultrasonography for assessing "
            "rotator cuff tears in people with shoulder pain",
            True,
        ),
        ("Ultrasound for the assessment of deep vein thrombosis", True),
        ("Liquefaction assessment of sandy soils using cone penetration tests", False),
        ("Exercise for depression in older adults", False),
    ],
)
def test_for_assessing_a_condition_asks_for_a_test_s_accuracy(description: str, asks: bool) -> None:
    """ "X for assessing Y" is the purpose of a test, as "X for the diagnosis of Y" is: the people's own
    condition ("people with shoulder pain") is who is selected for the test, not a block to AND."""
    assert asks_for_a_diagnosis(description) is asks


@pytest.mark.parametrize(
    ("description", "asks"),
    [
        (
            "Universal decolonisation versus targeted screening and isolation for preventing MRSA "
            "infection in adult intensive care units",
            False,
        ),
        ("Chlorhexidine bathing compared with screening for preventing bloodstream infections", False),
        # the question's own words still ask for a test's accuracy, whatever the arm says
        ("Digital breast tomosynthesis versus digital mammography for breast cancer screening", True),
        ("Human papillomavirus testing versus repeat cytology for triage of cervical lesions", True),
    ],
)
def test_the_words_of_a_control_arm_do_not_make_a_question_of_diagnosis(description: str, asks: bool) -> None:
    """What an intervention is compared with ("versus targeted screening") does not make a question of
    prevention one of a test's accuracy, whose setting and people would then only narrow."""
    assert asks_for_a_diagnosis(description) is asks


@pytest.mark.parametrize(
    ("phrase", "nothing"),
    [
        ("Long-term exposure", True),  # how long, not what: the exposure is what follows "to"
        ("early-life exposure", True),
        ("long-term care facilities", False),  # holds MeSH's own term "long-term care"
        ("road traffic noise", False),
        ("self-management education", False),  # a hyphenated word MeSH knows is a noun
        ("resistance detection", True),  # an abstract noun of "resist" beside a generic word
        ("microfinance programs", False),  # no English verb or adjective "microfin": a thing searched for
        ("anti-TNF therapy", False),  # what a drug acts against names the drug class
        ("low surgical", True),  # only words MeSH writes before others ("at low surgical risk")
    ],
)
def test_a_hyphenated_modifier_before_a_generic_head_names_nothing(
    vocabulary: MeshVocabulary, phrase: str, nothing: bool
) -> None:
    terms = [Term(canonical=phrase, slot="context", concept="c1")]
    assert names_nothing(terms, "c1", vocabulary) is nothing


def test_an_rct_filter_is_the_randomized_controlled_trial_publication_type(
    vocabulary: MeshVocabulary,
) -> None:
    rcts = study_filter("RCTs", vocabulary)
    assert (rcts.heading, rcts.publication_type) == ("Randomized Controlled Trial", True)
    assert not study_filter("RCTs", None).heading  # no vocabulary: the words alone


@pytest.mark.parametrize(
    ("description", "people", "required"),
    [
        # the sex of the people: MeSH records it with the check tags Female and Male
        ("Water immersion versus land birth for low-risk women", "low-risk women", False),
        ("School-based vaccination programmes among adolescent girls", "girls", False),
        # a kind of people MeSH files below Women is a population of its own
        ("Water immersion versus land birth for pregnant women", "pregnant women", True),
    ],
)
def test_the_sex_of_the_people_studied_is_not_anded(
    vocabulary: MeshVocabulary, description: str, people: str, required: bool
) -> None:
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    what = description.split(" for ")[0].split(" among ")[0]
    understanding = Understanding(
        description=description, slots=Slots(subject_population=[people], context=[what])
    )
    result = build_concepts(understanding, vocabulary)
    members = [t.concept for t in result.terms if t.mesh is not None and t.mesh.heading.endswith("Women")]
    assert members
    assert all(c.required is required for c in result.concepts if c.id in members)


def test_an_algorithm_the_researcher_says_they_study_is_required() -> None:
    """ "We investigate reinforcement learning for robotic grasping": the algorithm named right after the
    verb of studying is the topic; elsewhere an algorithm beside a method only narrows."""
    concepts = [
        Concept(id="grasping", label="robotic grasping", role=ConceptRole.METHOD),
        Concept(id="rl", label="reinforcement learning", role=ConceptRole.ALGORITHM),
        Concept(id="objects", label="deformable objects", role=ConceptRole.POPULATION),
    ]
    decide_required(concepts, defining={"rl"})
    assert [c.required for c in concepts] == [True, True, True]
    concepts = [
        Concept(id="grasping", label="robotic grasping", role=ConceptRole.METHOD),
        Concept(id="rl", label="reinforcement learning", role=ConceptRole.ALGORITHM),
        Concept(id="objects", label="deformable objects", role=ConceptRole.POPULATION),
    ]
    decide_required(concepts)
    assert [c.required for c in concepts] == [True, False, True]


def test_a_general_condition_before_health_personnel_is_their_specialty(vocabulary: MeshVocabulary) -> None:
    """ "emergency nurses": Emergencies (C23) names where they work, not a condition anyone has; a
    disease before people ("stroke survivors") and a general condition alone stay conditions."""
    matches = vocabulary.recognize("emergency nurses", {})
    assert names_their_specialty(matches[0], matches)
    assert not names_their_specialty(matches[-1], matches)
    disease = vocabulary.recognize("stroke nurses", {})
    assert not names_their_specialty(disease[0], disease)
    alone = vocabulary.recognize("emergency", {})
    assert not names_their_specialty(alone[0], alone)


def test_people_of_an_origin_before_a_thing_name_its_tradition(vocabulary: MeshVocabulary) -> None:
    """ "Japanese acupuncture": East Asian People says whose tradition, no people studied (it had been a
    required population block); before people ("Japanese adults") the word says who is studied."""
    thing = vocabulary.recognize("Japanese acupuncture", {})
    assert names_a_tradition(thing[0], thing)
    people = vocabulary.recognize("Japanese adults", {})
    assert not names_a_tradition(people[0], people)


def test_what_is_taken_with_or_without_is_never_anded() -> None:
    """'low back pain, with or without sciatica': sciatica (a condition) is taken either way, the pain
    is not; nor a term also written outside the 'with or without' phrase, or after the word that ends
    it, nor a test or treatment ('dermoscopy with or without visual inspection': what is compared)."""
    pain = [
        Term(
            canonical="low back pain",
            slot="context",
            mesh=_descriptor("Low Back Pain", "C23.888.592.612.107.400"),
        )
    ]
    sciatica = [
        Term(canonical="sciatica", slot="context", mesh=_descriptor("Sciatica", "C10.668.829.500.675.800"))
    ]
    text = "Do gabapentinoids help people with chronic low back pain, with or without sciatica?"
    assert taken_either_way(sciatica, text)
    assert not taken_either_way(pain, text)
    both = "Sciatica: do gabapentinoids help low back pain, with or without sciatica?"
    assert not taken_either_way(sciatica, both)
    after = "Gabapentinoids with or without sciatica exercises for low back pain"
    assert not taken_either_way(pain, after)
    inspection = [
        Term(
            canonical="physical examination",
            slot="context",
            mesh=_descriptor("Physical Examination", "E01.370.600"),
        )
    ]
    assert not taken_either_way(inspection, "Dermoscopy with or without physical examination for melanoma")
    assert not taken_either_way([Term(canonical="sciatica", slot="context")], text)


def _descriptor(heading: str, tree: str) -> MeshDescriptor:
    return MeshDescriptor(ui="D0", heading=heading, tree_numbers=[tree])


@pytest.mark.parametrize(
    ("description", "slots", "label", "required"),
    [
        # an acronym the title leaves unexplained, filed among the context or the people: what it is about
        (
            "Telemonitoring for CPAP adherence in OSA",
            {"task": ["telemonitoring"], "signal_feature": ["CPAP adherence"], "context": ["OSA"]},
            "OSA",
            True,
        ),
        (
            "Pharmacist-led deprescribing of PPIs in care home residents",
            {"task": ["deprescribing"], "subject_population": ["care home residents"], "context": ["PPIs"]},
            "PPIs",
            True,
        ),
        # a condition named elsewhere does not stand in for it
        (
            "GLP-1 receptor agonists for liver fibrosis in MASLD patients",
            {
                "task": ["GLP-1 receptor agonists"],
                "output_target": ["liver fibrosis"],
                "subject_population": ["MASLD"],
            },
            "MASLD",
            True,
        ),
        # a place a text abbreviates takes its article: still a setting that only narrows
        (
            "Ondansetron for children with gastroenteritis in the ED",
            {
                "task": ["ondansetron"],
                "subject_population": ["children with gastroenteritis"],
                "context": ["ED"],
            },
            "ED",
            False,
        ),
    ],
)
def test_an_unexplained_acronym_among_the_people_or_the_context_is_required_unless_a_place(
    vocabulary: MeshVocabulary, description: str, slots: dict[str, list[str]], label: str, required: bool
) -> None:
    from agent.keywords.concepts import build_concepts
    from agent.models import Slots, Understanding

    understanding = Understanding(description=description, slots=Slots(**slots))
    concepts = {c.label: c.required for c in build_concepts(understanding, vocabulary).concepts}
    assert label in concepts
    assert concepts[label] is required


def test_what_a_chinese_description_compares_with_is_a_comparator() -> None:
    # "与 X 相比" (compared with X), "A与B…的比较" (A compared with B): X and B are what the studies compare
    # with; the question's own intervention, and what "与" only relates, are not
    assert is_chinese_comparator("NIV", "HFNC在ICU患者拔管后序贯治疗中的应用，与NIV相比再插管率是否更低？")
    description = "二甲双胍与胰岛素治疗妊娠期糖尿病的新生儿结局比较"
    assert is_chinese_comparator("胰岛素", description)
    assert not is_chinese_comparator("二甲双胍", description)
    assert is_chinese_comparator(
        "sleep hygiene education", "基于 app 的 CBT-I 的效果，和 sleep hygiene education 相比。"
    )
    assert not is_chinese_comparator("抑郁", "社交媒体使用与抑郁的关系")
    # the verb of comparing must close the same clause
    assert not is_chinese_comparator("胰岛素", "二甲双胍与胰岛素治疗妊娠期糖尿病。比较新生儿结局")


def test_what_a_bracket_explains_is_no_concept_to_and() -> None:
    def inside(phrase: str, description: str, explained: str = "") -> bool:
        others = [
            Term(canonical=w, slot="context") for w in (explained, "social prescribing", "hyperplasia") if w
        ]
        return explains_another([Term(canonical=phrase, slot="context")], description, others)

    prescribing = (
        "Does social prescribing (link workers referring patients to community activities) reduce GP "
        "appointments for frequent attenders?"
    )
    assert inside("link workers", prescribing)
    assert inside("community activities", prescribing)
    assert not inside("social prescribing", prescribing)
    assert not inside("frequent attenders", prescribing)
    bph = "HoLEP versus TURP in men with benign prostatic hyperplasia (prostate volume over 80 ml)"
    assert inside("prostate volume", bph)
    # a gloss of one or two words is another name, and a list in brackets names members or alternatives
    assert not inside("ECoG", "Decoding speech from electrocorticography (ECoG) in epilepsy")
    assert not inside(
        "COPD exacerbations", "Antibiotics for LRTI (community-acquired pneumonia, COPD exacerbations)"
    )
    assert not inside("warfarin", "Anticoagulants (DOACs or warfarin in older adults) for AF")
    assert not inside("soda taxes", "Policies (e.g. soda taxes on sugary drinks) and obesity")
    # words no concept holds, explained: the explanation names the concept
    late = "Language interventions for late talkers (toddlers with expressive language delay)"
    assert not inside("language delay", late)
    assert inside("language delay", late, explained="late talkers")
    # written outside the bracket too: the user names it as a concept of its own
    assert not inside("exercise", "Exercise for fatigue (exercise in the weeks before surgery)", "fatigue")
    assert inside("surgery", "Exercise for fatigue (exercise in the weeks before surgery)", "fatigue")
