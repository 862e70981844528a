"""The words of a phrase that name no concept: study types, counts, spans and generic words."""

from __future__ import annotations

import pytest

from agent.keywords.phrase_words import (
    a_source_of_evidence_beside_a_design,
    content_words,
    cut_after_participle,
    noun_between,
    only_comparative,
    publication_years,
    searchable_core,
    set_aside,
    strip_generic_edges,
    turned_back,
    with_head,
    without_approval,
    without_change_head,
    without_take_up,
    without_the_act_of_taking,
)
from agent.language.mesh_recognition import MeshVocabulary


def test_content_words_drop_function_and_generic_words() -> None:
    assert content_words("the treatment of gestational diabetes in 200 patients") == [
        "gestational",
        "diabetes",
    ]


def test_an_indefinite_pronoun_is_no_content_word() -> None:
    """ "e.g. deciding whether someone is over 18": "someone" had been a [tiab] term of the population."""
    assert content_words("someone") == []
    assert content_words("anyone with asthma") == ["asthma"]


def test_the_word_design_after_a_study_type_goes_with_it() -> None:
    """ "using a cohort study design" asks for cohort studies: "design" was left as a concept."""
    assert set_aside("cohort study design") == ("", ["cohort study"])
    assert set_aside("randomised controlled trial designs in nurses") == (
        "in nurses",
        ["randomised controlled trial"],
    )
    assert set_aside("study design") == ("study design", [])  # no study type named


def test_any_design_asks_for_no_study_type_and_names_no_concept() -> None:
    """ "Any design, since 2015": the kind of study asked for is any at all, no concept "design"."""
    assert set_aside("design") == ("", [])
    assert set_aside("any study designs") == ("", [])
    assert set_aside("All designs.") == ("", [])
    assert set_aside("drug design") == ("drug design", [])


def test_what_a_study_of_a_test_measures_is_set_aside_like_diagnostic_accuracy() -> None:
    """ "Prognostic value of troponin ...": "Prognostic value*" had been a required [tiab] block."""
    assert set_aside("Prognostic value of troponin") == ("of troponin", ["Prognostic value"])
    assert set_aside("the diagnostic performance of MRI")[1] == ["diagnostic performance"]
    assert set_aside("predictive value") == ("", ["predictive value"])
    assert set_aside("value of troponin") == ("value of troponin", [])  # no test measure named
    # a prognostic factor is searched: most searchers AND a prognosis block to such a review
    assert set_aside("prognostic factors") == ("prognostic factors", [])


def test_hyphened_design_modifiers_go_with_the_design() -> None:
    # "cluster-randomised trial" had left a required concept "cluster"; "pilot" and "stepped-wedge" too
    assert set_aside("cluster-randomised trial") == ("", ["cluster-randomised trial"])
    assert set_aside("stepped-wedge cluster randomised trial")[1] == [
        "stepped-wedge cluster randomised trial"
    ]
    assert set_aside("pilot randomised trial")[1] == ["pilot randomised trial"]
    assert set_aside("cluster analysis") == ("cluster analysis", [])  # no design noun: a method


def test_a_map_of_the_evidence_is_a_kind_of_review() -> None:
    # "We want to map evidence on X" (the task "evidence mapping") had been a required block "mapping"
    assert set_aside("evidence mapping") == ("", ["evidence mapping"])
    assert set_aside("literature mapping")[1] == ["literature mapping"]
    assert set_aside("an evidence gap map of falls prevention")[1] == ["evidence gap map"]
    assert set_aside("glacier surface mapping") == ("glacier surface mapping", [])  # a map studied


def test_rct_alone_is_a_study_type() -> None:
    # "Looking for RCTs": the acronym names the design whole, like "meta-analyses" (it was a required concept)
    assert set_aside("RCTs") == ("", ["RCTs"])
    assert set_aside("an RCT of metformin")[1] == ["RCT"]


def test_a_number_inside_a_name_is_no_count() -> None:
    text, _ = set_aside("PM2.5 exposure and COVID-19 in 6046 women")
    assert text == "PM2.5 exposure and COVID-19 in women"


@pytest.mark.parametrize(
    ("phrase", "kept"),
    [
        ("children aged 6", "children"),
        ("children aged 6 to 12 years", "children"),
        ("adults aged 65 years and older", "adults"),
        ("women aged ≥50", "women"),
        ("aged care facilities", "aged care facilities"),  # no number: the words stay
    ],
)
def test_an_age_span_is_set_aside(phrase: str, kept: str) -> None:
    assert set_aside(phrase)[0] == kept


@pytest.mark.parametrize(
    ("phrase", "kept"),
    [
        ("randomised controlled trials published since 2010", ""),
        ("trials conducted after 2015 in Kenya", "trials in Kenya"),
        ("cohorts from 2005 to 2015", "cohorts"),
        ("studies published in the last ten years", "studies"),
        ("the 2008 financial crisis", "the financial crisis"),
    ],
)
def test_a_calendar_span_goes_with_the_words_that_place_it(phrase: str, kept: str) -> None:
    # "published since 2010" left "published since", a concept with the plural "published sinces"
    assert set_aside(phrase)[0] == kept


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("randomised controlled trials published since 2010", [("published since 2010", 2010, None)]),
        ("trials conducted after 2015 in Kenya", [("conducted after 2015", 2016, None)]),
        ("cohorts from 2005 to 2015", [("from 2005 to 2015", 2005, 2015)]),
        ("surveys between 2000 and 2020", [("between 2000 and 2020", 2000, 2020)]),
        ("studies before 2000", [("before 2000", None, 1999)]),
        ("COVID-19 vaccination in 2021", []),  # a year alone may be what is studied
        ("the 2008 financial crisis", []),
    ],
)
def test_calendar_limits_on_the_papers(text: str, years: list) -> None:
    assert publication_years(text) == years


def test_numbers_that_name_are_kept() -> None:
    assert set_aside("SGLT2 inhibitors in type 2 diabetes and grade 2 gliomas")[0] == (
        "SGLT2 inhibitors in type 2 diabetes and grade 2 gliomas"
    )


@pytest.mark.parametrize(
    ("phrase", "stripped"),
    [
        ("the treatment of gestational diabetes", "gestational diabetes"),
        ("Galactomannan detection", "Galactomannan"),  # what a test measures is the thing searched
        ("HFpEF patients", "HFpEF"),  # people named by their condition's acronym: the acronym
        ("fluid intake", "fluid intake"),  # how a thing acts stays with it
        ("resistance detection", "resistance detection"),  # an abstract noun alone names nothing
        ("rapid tests", "rapid tests"),  # nor does a word MeSH only writes before a head
        ("clinically suspected scaphoid fractures", "scaphoid fractures"),
        ("care homes", "care homes"),  # a generic noun before a head makes a compound
        ("care home residents", "care home"),  # also before a head that a generic word follows
        ("health system performance", "health system"),
        ("potential biomarkers", "biomarkers"),  # an adjective-shaped one goes
        ("clinically evident lesions", "lesions"),  # a grade or hedge names no kind of the thing
        ("local lesions", "lesions"),
        ("minor cervical lesions", "cervical lesions"),
        ("local adaptation", "local adaptation"),  # before a head that names no condition, it may name a kind
        ("apparently healthy", "apparently healthy"),
        # a measuring head after a word MeSH writes only inside its terms is a task of another field
        ("privacy-preserving intrusion detection", "privacy-preserving intrusion detection"),
        ("Vibration-based fault diagnosis", "Vibration-based fault diagnosis"),
        ("cone penetration tests", "cone penetration tests"),
        ("colorectal cancer screening", "colorectal cancer"),  # what medicine measures MeSH names
        # a word that ends only headings of conditions, even too few for a head role, is a disease
        ("proximal caries detection", "proximal caries"),  # Dental Caries, Root Caries
        ("small object detection", "small object detection"),  # Astronomical Objects: no condition
        ("Xpert MTB/RIF assay", "Xpert MTB/RIF"),
        ("CEA levels", "CEA"),
        # a generic word MeSH writes inside a term at the phrase's edge is part of that term
        ("patient safety", "patient safety"),
        ("quality of life outcomes", "quality of life"),
        ("accessing mental health care", "accessing mental health care"),
        # "technology" after a thing MeSH names is that thing ("virtual reality technology"), as
        # "techniques" is; one MeSH writes inside a term stays ("assistive technology": Self-Help Devices)
        ("virtual reality technology", "virtual reality"),
        ("assistive technology", "assistive technology"),
        # an action head after a compound of two words or more: the compound is the concept
        ("Wake steering control", "Wake steering"),
        ("membrane fouling control", "membrane fouling"),
        ("noise control", "noise control"),  # after one word the pair is a name
        ("birth control", "birth control"),
        ("adaptive traffic signal control", "adaptive traffic signal control"),  # its core keeps the head
        # a comparative says which way the outcome should move; abstracts name the outcome either way
        ("fewer falls", "falls"),
        ("less pain", "pain"),
        ("better sleep quality", "sleep quality"),
        ("lower urinary tract symptoms", "lower urinary tract symptoms"),  # "lower" opens names: kept
        # a word MeSH files as people before one head says whose it is, unless MeSH names the pair
        ("human placenta", "placenta"),
        ("human milk", "human milk"),
        # a drug named by its INN before how it is given is the drug
        ("Emicizumab prophylaxis", "Emicizumab"),
        ("nirsevimab injection", "nirsevimab"),
        ("oxygen therapy", "oxygen therapy"),  # no INN
        # a task, action or change head after one word MeSH writes nowhere: the word is the concept
        ("Rockburst prediction", "Rockburst"),
        ("Streamflow forecasting", "Streamflow"),
        ("Sensorless control", "Sensorless"),
        ("Shoreline change", "Shoreline"),
        ("biochar amendment", "biochar"),
        ("contingency management", "contingency management"),  # a treatment's head: an intervention
        ("Fertility decline", "Fertility decline"),  # MeSH writes fertility: no word of another field
        ("crack repair", "crack repair"),
        ("RUL prediction", "RUL prediction"),  # an acronym keeps its head
        ("Multipath mitigation", "Multipath"),  # a head that says the thing is lessened
        # a head of how long a thing lasts under the word, or of a model the word names the kind of
        ("Moisture stability", "Moisture"),
        ("Transformer models", "Transformer"),
        ("thermal stability", "thermal stability"),  # a word MeSH writes keeps its head
        ("diffusion models", "diffusion models"),
        ("bedaquiline resistance", "bedaquiline resistance"),  # a drug's resistance is the condition
        # an adjective before an action head modifies the action: the three words name it
        ("Model predictive control", "Model predictive control"),
        ("wake steering control", "wake steering"),
        # putting a compound into practice or laying it out: the compound is the concept
        ("Lean manufacturing implementation", "Lean manufacturing"),
        ("Combinatorial auction designs", "Combinatorial auction"),
        ("Airfoil design", "Airfoil"),  # one word MeSH writes nowhere before an action head
        ("lattice design", "lattice design"),  # one word MeSH writes keeps its head
        # a generic head stays after an adjective that names nothing without it
        ("Oral nutritional supplements", "Oral nutritional supplements"),
        ("faecal immunochemical test", "faecal immunochemical test"),
        ("Vitamin D supplements", "Vitamin D"),  # a supplement of a thing is the thing given
    ],
)
def test_generic_edges(vocabulary: MeshVocabulary, phrase: str, stripped: str) -> None:
    assert strip_generic_edges(phrase, vocabulary) == stripped


def test_without_a_vocabulary_one_word_left_keeps_its_head() -> None:
    assert strip_generic_edges("Galactomannan detection") == "Galactomannan detection"


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("cognitive behavioural therapy delivered online", ["cognitive behavioural therapy", "online"]),
        ("Escherichia coli isolated from broiler chickens", ["Escherichia coli", "broiler chickens"]),
        ("antibiotics given intravenously", ["antibiotics", "intravenously"]),
        ("X-ray computed tomography", ["X-ray computed tomography"]),  # before a noun it modifies it
        ("patients assessed outcomes", ["patients assessed outcomes"]),
        # "containing" takes its object directly: the thing and what it contains are two concepts
        ("oral contraceptives containing drospirenone", ["oral contraceptives", "drospirenone"]),
        ("fluoride-containing toothpaste", ["fluoride-containing toothpaste"]),
    ],
)
def test_a_participle_after_a_noun_cuts_the_phrase(text: str, cut: list[str]) -> None:
    assert cut_after_participle(text) == cut


def test_a_noun_between_two_matched_spans() -> None:
    text = "fatigue crack growth"
    assert noun_between(text, [(0, 7), (14, 20)]) == "crack"
    assert noun_between("breast ductal carcinoma", [(0, 6), (14, 23)]) is None  # an adjective
    assert noun_between("breast cancer screening", [(0, 13), (14, 23)]) is None  # nothing between
    assert noun_between("fatigue crack growth", [(14, 20)]) is None  # one span


def test_a_phrase_turned_from_head_of_x_is_searched_as_its_two_concepts() -> None:
    """ "triage of minor cervical lesions" came back from understanding as "minor cervical lesions
    triage", a phrase no abstract writes: the lesions and the triage are two concepts."""
    description = "HPV testing for triage of minor cervical lesions"
    assert turned_back("minor cervical lesions triage", description) == ["minor cervical lesions", "triage"]
    # a phrase the description writes as it stands, or a short one, is left alone
    assert turned_back("cervical lesions triage", "cervical lesions triage by HPV") == [
        "cervical lesions triage"
    ]
    assert turned_back("lesion triage", description) == ["lesion triage"]


def test_a_last_noun_of_change_leaves_the_thing_changed() -> None:
    assert without_change_head(["blood", "pressure", "control"]) == ["blood", "pressure"]
    assert without_change_head(["control"]) == ["control"]
    assert without_change_head(["speech", "decoding"]) == ["speech", "decoding"]
    # lowering a dose step by step, or stopping it: the drug is what is changed
    assert without_change_head(["opioid", "tapering"]) == ["opioid"]
    assert without_change_head(["statin", "discontinuation"]) == ["statin"]


@pytest.mark.parametrize(
    ("phrase", "study_type"),
    [
        (
            "Experiences of family caregivers: a qualitative evidence synthesis",
            "qualitative evidence synthesis",
        ),
        ("school meals: a realist synthesis", "realist synthesis"),
        ("thematic synthesis of interviews", "thematic synthesis"),
    ],
)
def test_a_synthesis_is_a_kind_of_study(phrase: str, study_type: str) -> None:
    """A synthesis of evidence is the kind of review wanted, never a required [tiab] phrase."""
    text, found = set_aside(phrase)
    assert found == [study_type] and "synthesis" not in text
    assert set_aside("photosynthesis rates")[1] == []


@pytest.mark.parametrize(
    ("phrase", "core"),
    [
        ("adaptive traffic signal control", "traffic signal control"),  # an adjective before the compound
        ("soil moisture retrieval", "soil moisture"),  # the process done on it
        ("Machine learning estimation", "Machine learning"),
        ("upper limb function", "upper limb"),
        ("crack repair", None),  # two words are their own core
        ("self-healing concrete", None),  # no MeSH term holds the head: a thing of another field
        ("Smoke-free legislation", "Smoke-free"),  # the compound before a head MeSH writes is the name
        ("Home-based self-sampling kits", "self-sampling"),
        ("De-escalation training", "De-escalation"),
        ("low-income households", None),  # a modifier that sorts its head by a kind, no name of its own
        ("lithium-ion batteries", None),
        ("non-opioid analgesia", None),
        ("state of health", None),  # a process noun after a function word is the phrase's own
        ("Internet of Things networks", "Internet of Things"),  # MeSH names the words before the head
        ("carbon dioxide capture", "carbon dioxide"),
        ("climate change adaptation scenarios", "climate change"),  # the longest run MeSH names
        ("learning analytics platforms", None),  # "-ing" as often makes a noun
        ("privacy-preserving intrusion detection", "intrusion detection"),  # how it is done goes first
        ("Vibration-based fault diagnosis", "fault diagnosis"),
        ("wind turbine fault detection", None),  # the detection of faults is a task, not a process on it
        ("speed bump detection", "speed bump"),  # "speed" is no participle; the detection is the process
        # the thing a measure of closeness is taken to, itself cut to its core
        ("Residential proximity to major roads", "major roads"),
        ("distance from wind turbines", "wind turbines"),
        ("Residential proximity to unconventional natural gas development", "unconventional natural gas"),
        # a provision is named by what is provided, not by its organisational head
        ("Supervised injection facility", "Supervised injection"),
        ("Reablement services", "Reablement"),
        ("Pay-for-performance schemes", "Pay-for-performance"),
        ("home treatment teams", "home treatment"),
        ("care services", None),  # nothing but generic words before the head
        ("mental health services", None),  # MeSH names the whole phrase
        # a disorder's head stays: the site before it alone would find every paper of the site
        ("unilateral peripheral vestibular hypofunction", None),
        ("pelvic floor dysfunction", None),
        ("non-cavitated proximal caries lesions", "proximal caries lesions"),  # the head kept: a core
        # a drug named by its target: the target alone is another subject ("vitamin K" had been searched)
        ("vitamin K antagonists", None),
        ("novel PCSK9 inhibitors", None),
        # a process after words that open with an adjective is what they grade: no core without it
        ("soil moisture retrieval", "soil moisture"),
        ("Dense passage retrieval", None),
        # an acronym titles leave unexplained, after words that only qualify it, is searched alone too
        ("incident CKD", "CKD"),
        ("symptomatic paroxysmal AF", "AF"),
        ("cancer-associated VTE", "VTE"),
        ("Long-term PPI", "PPI"),
        ("daily oral ART", "ART"),
        ("Xpert MTB/RIF", None),  # no bare acronym closes it
        ("after CAR-T", None),
        # an adjective MeSH does not know, shaped as one, says which kind of the compound after it
        ("Photocatalytic hydrogen evolution", "hydrogen evolution"),
        ("Automatic chord recognition", "chord recognition"),
        ("volcanic ground deformation", "ground deformation"),  # not "volcanic ground"
        # a word shaped as an adjective or a participle before a process makes its name with it: the
        # process stays ("laminar burning" and "Bayesian variable" had been searched, naming nothing)
        ("Laminar burning velocity", None),
        ("Bayesian variable selection", None),
        ("Threshold voltage instability", "Threshold voltage"),  # a noun before the process: cut
    ],
)
def test_the_searchable_core_of_a_free_text_phrase(
    vocabulary: MeshVocabulary, phrase: str, core: str | None
) -> None:
    assert searchable_core(phrase, vocabulary) == core


def test_a_phrase_mesh_names_has_no_core_of_its_own(vocabulary: MeshVocabulary) -> None:
    assert vocabulary.knows("chronic obstructive pulmonary disease")
    assert searchable_core("chronic obstructive pulmonary disease", vocabulary) is None


def test_a_take_up_measure_after_a_mesh_term_goes(vocabulary: MeshVocabulary) -> None:
    """ "vaccination uptake" is searched as the vaccination (abstracts say coverage, rates, completed
    courses); a heading that holds the measure stays whole, as does a phrase whose rest MeSH does not end."""
    assert without_take_up("childhood vaccination uptake", vocabulary) == "childhood vaccination"
    assert without_take_up("cardiac rehabilitation attendance", vocabulary) == "cardiac rehabilitation"
    assert without_take_up("adherence to antiretroviral therapy", vocabulary) == "antiretroviral therapy"
    assert without_take_up("medication adherence", vocabulary) == "medication adherence"
    assert without_take_up("vaccination coverage", vocabulary) == "vaccination coverage"
    assert without_take_up("student engagement", vocabulary) == "student engagement"
    assert without_take_up("vaccination uptake", None) == "vaccination uptake"
    # how long people keep doing a thing is how much they take part in it
    assert without_take_up("breastfeeding duration", vocabulary) == "breastfeeding"
    # a place attended is not taken up: "school attendance" had been searched as school*
    assert without_take_up("school attendance", vocabulary) == "school attendance"
    assert without_take_up("hospital attendance", vocabulary) == "hospital attendance"


def test_a_setting_noun_after_a_mesh_term_goes(vocabulary: MeshVocabulary) -> None:
    """ "antenatal care settings" is searched as the antenatal care (Prenatal Care); a heading that
    holds the word stays whole, as does a phrase whose rest MeSH does not end."""
    assert without_take_up("antenatal care settings", vocabulary) == "antenatal care"
    assert without_take_up("low-resource settings", vocabulary) == "low-resource settings"
    assert without_take_up("humanitarian settings", vocabulary) == "humanitarian settings"


def test_words_asking_for_papers_go_with_the_study_type_they_stand_beside() -> None:
    # "I want to find all earlier randomised trials": "earlier" had become a required block
    assert set_aside("earlier randomised trials") == ("", ["randomised trials"])
    assert set_aside("find randomized controlled trials") == ("", ["randomized controlled trials"])
    # without a study type, or beside a word of the topic, the words stay
    assert set_aside("earlier diagnosis")[0] == "earlier diagnosis"
    assert set_aside("previous stroke cohort studies")[0] == "previous stroke"


def test_words_of_approval_after_a_design_go() -> None:
    """'Natural experiments and interrupted time series welcome': the design, without 'welcome'."""
    assert without_approval("interrupted time series welcome") == "interrupted time series"
    assert without_approval("RCTs ok pls") == "RCTs"
    assert without_approval("welcome packs") == "welcome packs"


def test_the_evidence_of_drug_safety_and_surveys_beside_a_design_is_a_filter() -> None:
    """'case reports, disproportionality analyses of spontaneous reports and cohort studies are all
    relevant', 'qualitative studies and surveys': kinds of evidence asked for, each beside another."""
    text = (
        "fluoroquinolones and aortic dissection - case reports, disproportionality analyses of spontaneous "
        "reports and cohort studies are all relevant"
    )
    assert a_source_of_evidence_beside_a_design("spontaneous reports", text)
    assert a_source_of_evidence_beside_a_design("disproportionality", text)
    assert a_source_of_evidence_beside_a_design("surveys", "I'm after qualitative studies and surveys")
    assert not a_source_of_evidence_beside_a_design("surveys", "the validity of dietary surveys in children")


def test_a_property_measured_of_a_thing_is_cut_to_find_the_thing(vocabulary: MeshVocabulary) -> None:
    """ "perovskite solar cell stability": the papers name the cells whatever property they measure, so
    the phrase is searched beside "perovskite solar cell" (it had been one exact phrase); the head of a
    disorder stays ("severe childhood obesity")."""
    assert searchable_core("perovskite solar cell stability", vocabulary) == "perovskite solar cell"
    assert searchable_core("perovskite solar cell efficiency", vocabulary) == "perovskite solar cell"
    assert searchable_core("severe childhood obesity", vocabulary) is None


def test_a_phrase_cut_after_an_adjective_gets_the_noun_the_description_writes_after_it(
    vocabulary: MeshVocabulary,
) -> None:
    description = "How accurate is a faecal immunochemical test for detecting colorectal cancer?"
    assert with_head("faecal immunochemical", description, vocabulary) == "faecal immunochemical test"
    assert with_head("Rapid", "Rapid tests for malaria", vocabulary) == "Rapid tests"
    assert with_head("colorectal cancer", description, vocabulary) == "colorectal cancer"  # a noun ends it


def test_the_act_of_taking_a_thing_in_is_left_to_the_thing(vocabulary: MeshVocabulary) -> None:
    assert without_the_act_of_taking("drinking coffee", vocabulary) == "coffee"
    assert without_the_act_of_taking("coffee drinking", vocabulary) == "coffee"
    assert without_the_act_of_taking("green tea drinking", vocabulary) == "green tea"
    # MeSH names the whole, or the act is alone, or what is eaten is no food, drink, drug or chemical
    assert without_the_act_of_taking("binge drinking", vocabulary) == "binge drinking"
    assert without_the_act_of_taking("drinking water", vocabulary) == "drinking water"
    assert without_the_act_of_taking("drinking", vocabulary) == "drinking"
    assert without_the_act_of_taking("emotional eating", vocabulary) == "emotional eating"


def test_a_phrase_of_comparatives_only_names_no_concept() -> None:
    assert only_comparative("faster")
    assert only_comparative("better")
    assert not only_comparative("faster healing")
    assert not only_comparative("lower limb")  # "lower" and "higher" open names
    assert not only_comparative("")
