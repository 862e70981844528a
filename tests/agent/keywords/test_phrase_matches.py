"""How MeSH matches are read inside a phrase (agent.keywords.phrase_matches)."""

from __future__ import annotations

import pytest

from agent.keywords.phrase_matches import (
    a_class_noun_after,
    at_a_distance,
    based_in_a_name,
    condition_of_people,
    medium_of_delivery,
    named_around,
    other_sense,
    people_category,
    people_named_by_adjective,
    procedure_undergone,
    professionals_of_a_specialty,
    widened_to_a_name,
)
from agent.language.mesh_recognition import MeshVocabulary


def test_a_phrase_is_not_widened_through_a_hyphenated_word(vocabulary: MeshVocabulary) -> None:
    """ "hypotension" after "spinal anaesthesia-induced" is the effect a cause was split from, not a cut
    of Induced Hypotension (an entry term of Hypotension, Controlled) that starts inside the hyphenated
    word: widened so, the split came back to the same phrase without end."""
    description = "Phenylephrine versus ondansetron for spinal anaesthesia-induced hypotension"
    assert widened_to_a_name("hypotension", description, vocabulary) == "hypotension"


@pytest.mark.parametrize(
    ("text", "description", "widened"),
    [
        # cut inside Nursing Homes: the word before is given back
        (
            "home residents",
            "Oral health education programmes for nursing home residents",
            "nursing home residents",
        ),
        # no name crosses the cut: the phrase stays as it is
        ("older adults", "Exercise for preventing falls in community-dwelling older adults", "older adults"),
        ("dementia", "Music for people with dementia", "dementia"),  # a function word before
        ("home residents", "Home residents", "home residents"),  # nothing before
        ("nursing home residents", "Oral care for nursing home residents", "nursing home residents"),
    ],
)
def test_a_phrase_cut_inside_a_name_gets_its_words_back(
    vocabulary: MeshVocabulary, text: str, description: str, widened: str
) -> None:
    assert widened_to_a_name(text, description, vocabulary) == widened
    assert widened_to_a_name(text, description, None) == text


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("hospitalised patients", "Hospitalization"),
        ("hospitalized adults", "Hospitalization"),
        ("intubated patients", "Intubation"),
        ("ventilated patients", None),  # Ventilation is the air's, no procedure
        ("older patients", None),
        ("hospitalised children", None),  # children are no generic people word: they are the concept
    ],
)
def test_people_named_by_what_is_done_to_them_are_the_procedure(
    vocabulary: MeshVocabulary, text: str, heading: str | None
) -> None:
    found = procedure_undergone(text, vocabulary)
    assert [m.descriptor.heading for m in found] == ([heading] if heading else [])


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("obese adults", "Obesity"),
        ("hypertensive patients", "Hypertension"),
        ("septic patients", "Sepsis"),
        ("older patients", None),
        ("obese mice", None),  # mice are no generic people word: they are the concept
    ],
)
def test_people_named_by_their_condition_are_the_condition(
    vocabulary: MeshVocabulary, text: str, heading: str | None
) -> None:
    found = condition_of_people(text, vocabulary)
    assert [m.descriptor.heading for m in found] == ([heading] if heading else [])


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("homeless adults", "Ill-Housed Persons"),
        ("transgender adults", "Transgender Persons"),
        ("disabled individuals", "Disabled Persons"),
        ("older adults", None),  # an age group: read from the age
        ("homeless women", None),  # women are no generic people word
        ("institutionalized patients", None),  # Institutionalization is no heading of persons
    ],
)
def test_people_named_by_an_adjective_mesh_writes_with_people_are_those_people(
    vocabulary: MeshVocabulary, text: str, heading: str | None
) -> None:
    """'homeless adults' is Ill-Housed Persons, whose entry term is 'homeless people': the people word is
    only the head (the phrase had been Adult alone, and dropped beside the condition)."""
    found = people_named_by_adjective(text, vocabulary)
    assert [m.descriptor.heading for m in found] == ([heading] if heading else [])


def test_where_a_thing_is_based_is_named_with_its_head(vocabulary: MeshVocabulary) -> None:
    # "home-based ... care": "home care" is an entry term of Home Care Services, "home" alone names nothing
    text = "Home-based specialist palliative care"
    found = based_in_a_name(text, vocabulary.recognize(text), vocabulary)
    assert found is not None and found.descriptor.heading == "Home Care Services"
    assert found.text == "Home-based"
    # a match already holds the word: Schools, nothing added
    school = "School-based physical activity programmes"
    assert based_in_a_name(school, vocabulary.recognize(school), vocabulary) is None
    # MeSH names no "web therapy"
    web = "web-based cognitive behavioural therapy"
    assert based_in_a_name(web, vocabulary.recognize(web), vocabulary) is None


@pytest.mark.parametrize(
    ("text", "heading", "written"),
    [
        # MeSH names an intervention by its medium: "Web-based Intervention"
        ("web-based cognitive behavioural therapy", "Internet-Based Intervention", "web-based"),
        ("Web-based CBT", "Internet-Based Intervention", "Web-based"),  # an acronym is the treatment
        # the one descriptor whose terms all end in the word: "Mobile Apps", "Smartphone Apps"
        ("App-based mindfulness programmes", "Mobile Applications", "App-based"),
        ("online-delivered exercise programmes", "Internet-Based Intervention", "online-delivered"),
        ("Web-based surveys of physicians", None, ""),  # data collection (E05), no treatment
        ("School-based physical activity programmes", None, ""),  # Schools holds the word
        ("Home-based specialist palliative care", None, ""),  # a home is no medium (L01)
        ("Group-based exercise classes", None, ""),  # nor is a group
        ("Psychological-based therapy", None, ""),  # Psychological Intervention is no medium
    ],
)
def test_the_medium_a_treatment_is_delivered_through_is_a_concept_beside_it(
    vocabulary: MeshVocabulary, text: str, heading: str | None, written: str
) -> None:
    """ "app-based mindfulness programmes" are mindfulness AND Mobile Applications: the medium had been
    dropped, as "web-based" was, though MeSH names both (only media, only before a treatment)."""
    found = medium_of_delivery(text, vocabulary.recognize(text), vocabulary)
    assert (found.descriptor.heading, found.text) == (heading, written) if found else heading is None


@pytest.mark.parametrize(
    ("text", "heading", "written"),
    [
        # the one descriptor MeSH names with a longer word the tele- word begins
        ("telerehab physiotherapy", "Telerehabilitation", "telerehab"),
        ("tele-rehab after knee replacement", "Telerehabilitation", "tele-rehab"),
        # a rest MeSH writes: telehealth, an entry term of Telemedicine
        ("home blood pressure telemonitoring", "Telemedicine", "telemonitoring"),
        ("Telepractice", "Telemedicine", "Telepractice"),
        ("telephone follow-up", None, ""),  # MeSH knows the word: Telephone
        ("teleost fish", None, ""),  # "ost" is no word MeSH writes
    ],
)
def test_care_at_a_distance_named_with_tele_is_mesh_s_tele_heading(
    vocabulary: MeshVocabulary, text: str, heading: str | None, written: str
) -> None:
    """ "telerehab", "telemonitoring" and "telepractice" are no MeSH terms and had been searched as free
    text alone or dropped; MeSH names the longer word (Telerehabilitation) or care at a distance in
    general (telehealth: Telemedicine)."""
    found = at_a_distance(text, vocabulary.recognize(text), vocabulary)
    assert (found.descriptor.heading, found.text) == (heading, written) if found else heading is None


def test_a_term_mesh_names_around_a_descriptor(vocabulary: MeshVocabulary) -> None:
    # "occupational heat exposure": an occupational exposure, written around the heat
    text = "Occupational heat exposure"
    found = named_around(text, vocabulary.recognize(text), vocabulary)
    assert found is not None and found.descriptor.heading == "Occupational Exposure"
    assert found.text == text
    # the word before is held by another match (Schools): nothing around the physical activity
    school = "School-based physical activity programmes"
    assert named_around(school, vocabulary.recognize(school), vocabulary) is None


def test_an_age_word_beside_a_match_is_no_other_sense(vocabulary: MeshVocabulary) -> None:
    """ "childhood vaccination" as an outcome is the vaccination of children, not a compound MeSH files
    elsewhere: an age group's word or its abstract noun (-hood, -ancy) leaves the match its sense, while
    another word still makes one ("reinforcement learning" as an algorithm)."""

    def sense(text: str, slot: str) -> list[bool]:
        return [other_sense(m, text, slot, vocabulary) for m in vocabulary.recognize(text)]

    assert sense("childhood vaccination", "output_target") == [False]
    assert sense("childhood immunisation", "output_target") == [False]
    assert sense("reinforcement learning", "method_algorithm") == [True, True]


def test_a_behavioural_symptom_people_have_is_no_other_sense(vocabulary: MeshVocabulary) -> None:
    """ "women with perinatal depression": MeSH files Depression among the Behavioral Symptoms (F01), not
    under the trees the population slot expects, but a symptom people show is as concrete as a disease:
    the phrase is a kind of depression, searched with its heading, not a free-text population."""

    def sense(text: str, slot: str) -> list[bool]:
        return [other_sense(m, text, slot, vocabulary) for m in vocabulary.recognize(text)]

    assert sense("perinatal depression", "subject_population") == [False]
    assert sense("patient aggression", "subject_population")[-1] is False
    assert sense("reinforcement learning", "method_algorithm") == [True, True]  # still other senses


@pytest.mark.parametrize(
    ("heading", "category"),
    [
        ("Occupational Groups", True),  # 25 kinds of workers right below it
        ("Population Groups", True),
        ("Health Personnel", False),  # deeper in the tree: a group a search is about
        ("Refugees", False),  # a kind of people MeSH files flat
        ("Women", False),
        ("Caregivers", False),
        ("Dementia", False),  # no persons heading
    ],
)
def test_a_category_of_people_is_no_group_a_search_is_about(
    vocabulary: MeshVocabulary, heading: str, category: bool
) -> None:
    assert people_category(vocabulary.lookup(heading)[0], vocabulary) is category


def test_a_class_noun_after_a_match_is_read_as_its_head(vocabulary: MeshVocabulary) -> None:
    text = "machine learning models"
    match = vocabulary.recognize(text)[0]
    assert a_class_noun_after(text, match)
    assert not a_class_noun_after("machine learning", match)
    assert not a_class_noun_after("machine learning risk models", match)  # more than the class noun


def test_the_symptoms_of_a_condition_are_searched_as_the_condition(vocabulary: MeshVocabulary) -> None:
    # "anxiety symptoms" is no entry term (Depression lists "Depressive Symptoms"); a searcher uses Anxiety
    text = "anxiety symptoms"
    match = vocabulary.recognize(text)[0]
    assert match.descriptor.heading == "Anxiety" and a_class_noun_after(text, match)


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("oncology nurses", "Oncology Nursing"),  # "oncology" had been dropped, leaving Nurses
        ("intensive care nurses", "Critical Care Nursing"),  # an entry term of the specialty
        ("emergency physicians", "Emergency Medicine"),  # had been Emergencies, a situation
        ("nurses", None),  # no specialty named
        ("young nurses", None),  # MeSH names no "Young Nursing"
        ("emergency departments", None),  # no professionals
    ],
)
def test_professionals_named_by_their_specialty_are_the_specialty(
    vocabulary: MeshVocabulary, text: str, heading: str | None
) -> None:
    found = professionals_of_a_specialty(text, vocabulary)
    assert [m.descriptor.heading for m in found] == ([heading] if heading else [])
