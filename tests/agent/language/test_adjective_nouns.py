"""The condition an adjective names by its noun, where MeSH files that noun under diseases."""

from __future__ import annotations

import pytest

from agent.language.adjective_nouns import condition_of_adjective, names_complications, noun_of_adjective
from agent.language.mesh_recognition import MeshVocabulary


def test_recurrent_is_recurrence(vocabulary: MeshVocabulary) -> None:
    found = condition_of_adjective("recurrent", vocabulary)
    assert found is not None and found.heading == "Recurrence"


@pytest.mark.parametrize("word", ["prevalent", "violent", "patient", "different", "colorectal"])
def test_a_noun_that_is_no_condition_or_no_noun_names_nothing(vocabulary: MeshVocabulary, word: str) -> None:
    """Prevalence is a statistic, Violence a behaviour: no condition a disease phrase is ANDed with."""
    assert condition_of_adjective(word, vocabulary) is None


@pytest.mark.parametrize(
    ("word", "heading"),
    [
        ("obese", "Obesity"),  # -ese / -esity
        ("asthmatic", "Asthma"),  # -atic / -a
        ("anaemic", "Anemia"),  # -ic / -ia, British spelling
        ("epileptic", "Epilepsy"),  # -ptic / -psy
        ("septic", "Sepsis"),  # -ptic / -psis
        ("hypertensive", "Hypertension"),  # -ive / -ion
        ("pregnant", "Pregnancy"),  # -ant / -ancy, a reproductive state
        ("postmenopausal", "Postmenopause"),  # -al / -e, a reproductive state
    ],
)
def test_an_adjective_of_a_greek_or_latin_noun_names_its_condition(
    vocabulary: MeshVocabulary, word: str, heading: str
) -> None:
    found = condition_of_adjective(word, vocabulary)
    assert found is not None and found.heading == heading


@pytest.mark.parametrize("word", ["invasive", "progressive", "depressive", "spinal", "economic", "chronic"])
def test_an_ending_whose_noun_is_no_condition_heading_names_nothing(
    vocabulary: MeshVocabulary, word: str
) -> None:
    """The nouns "invasion" and "progression" are entry terms of other things than a condition the
    adjective says; Depression is a behaviour, Spine a body part, and "chronicy" no word."""
    assert condition_of_adjective(word, vocabulary) is None


@pytest.mark.parametrize(
    ("word", "heading"),
    [
        ("autistic", "Autistic Disorder"),  # -istic / -ism, by its entry term "autism"
    ],
)
def test_an_adjective_whose_noun_is_an_entry_term_of_a_condition_names_it(
    vocabulary: MeshVocabulary, word: str, heading: str
) -> None:
    found = condition_of_adjective(word, vocabulary)
    assert found is not None and found.heading == heading


@pytest.mark.parametrize("word", ["optimistic", "holistic", "linguistic"])
def test_the_same_endings_of_no_condition_name_nothing(vocabulary: MeshVocabulary, word: str) -> None:
    """Optimism is a trait: no condition."""
    assert condition_of_adjective(word, vocabulary) is None


@pytest.mark.parametrize(
    ("word", "noun", "heading"),
    [
        ("diabetic", "diabetes", "Diabetes Mellitus"),  # -etic / -etes: "diabetes" is an entry term
        ("infertile", "infertility", "Infertility"),  # -ile / -ility
        ("dizzy", "dizziness", "Dizziness"),  # -y / -iness
        ("deaf", "deafness", "Deafness"),  # the bare adjective with -ness
        ("blind", "blindness", "Blindness"),
        ("frail", "frailty", "Frailty"),  # the bare adjective with -ty
    ],
)
def test_the_noun_of_an_adjective_as_it_spells_it(
    vocabulary: MeshVocabulary, word: str, noun: str, heading: str
) -> None:
    found = noun_of_adjective(word, vocabulary)
    assert found is not None and found[0] == noun and found[1].heading == heading
    assert condition_of_adjective(word, vocabulary) == found[1]


@pytest.mark.parametrize("word", ["old", "young", "healthy", "weak", "ill", "chronic", "severe", "low"])
def test_a_bare_adjective_whose_noun_is_no_condition_heading_names_nothing(
    vocabulary: MeshVocabulary, word: str
) -> None:
    assert noun_of_adjective(word, vocabulary) is None


def test_an_adjective_opening_the_headings_of_diseases_names_their_complications(
    vocabulary: MeshVocabulary,
) -> None:
    """ "diabetic macular oedema" is a complication MeSH names apart (Macular Edema, Diabetic
    Retinopathy): Diabetes Mellitus beside it is a block its searchers do not write."""
    assert names_complications("diabetic", vocabulary)  # Diabetic Retinopathy, Diabetic Foot, ...
    assert not names_complications("recurrent", vocabulary)
    assert not names_complications("obese", vocabulary)
