"""Treatments named by a discipline or a drug-class adjective (agent.keywords.treatment_names)."""

from __future__ import annotations

import pytest

from agent.keywords.treatment_names import (
    agents_of_adjective,
    agents_of_plural,
    inhibitors_of_anti,
    procedure_of_discipline,
    technique_of_adjective,
    vaccine_of_vaccination,
)
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import MeshDescriptor


def only_match(vocabulary: MeshVocabulary, text: str):
    (match,) = vocabulary.recognize(text)
    return match


def test_a_discipline_named_alone_stands_for_its_therapy(vocabulary: MeshVocabulary) -> None:
    match = only_match(vocabulary, "acupuncture")
    assert match.descriptor.tree_numbers[0].startswith("H02")  # MeSH's heading is the occupation
    procedure = procedure_of_discipline(match, vocabulary)
    assert procedure.descriptor.heading == "Acupuncture Therapy"
    assert (procedure.start, procedure.end, procedure.text) == (match.start, match.end, match.text)


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("carbohydrate loading before elective surgery", "Elective Surgical Procedures"),
        ("feeding after gastrointestinal surgery", "Digestive System Surgical Procedures"),
    ],
)
def test_the_words_before_surgery_name_the_procedures_with_it(
    vocabulary: MeshVocabulary, text: str, heading: str
) -> None:
    # "surgery" alone had been matched (General Surgery, the discipline) and the kind of surgery lost
    (match,) = [m for m in vocabulary.recognize(text) if m.text == "surgery"]
    procedure = procedure_of_discipline(match, vocabulary, text)
    assert procedure.descriptor.heading == heading
    assert (
        procedure.text == " ".join(text.split()[-2:])
        and text[procedure.start : procedure.end] == procedure.text
    )


def test_surgery_whose_kind_mesh_does_not_name_is_left_as_it_is(vocabulary: MeshVocabulary) -> None:
    text = "chewing gum after abdominal surgery"
    (match,) = [m for m in vocabulary.recognize(text) if m.text == "surgery"]
    assert procedure_of_discipline(match, vocabulary, text).text == "surgery"


def test_what_is_no_discipline_is_left_as_it_is(vocabulary: MeshVocabulary) -> None:
    match = only_match(vocabulary, "massage")
    assert procedure_of_discipline(match, vocabulary) is match


def test_a_discipline_without_a_therapy_descriptor_is_left_as_it_is(vocabulary: MeshVocabulary) -> None:
    match = only_match(vocabulary, "acupuncture")
    made_up = MeshDescriptor(ui="D0", heading="Xyzology", tree_numbers=["H02.999"])
    unknown = match.__class__("xyzology", 0, 8, made_up, "heading")
    assert procedure_of_discipline(unknown, vocabulary) is unknown


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("antiretroviral therapy", "Anti-Retroviral Agents"),
        ("antiplatelet treatment", "Platelet Aggregation Inhibitors"),
    ],
)
def test_a_drug_class_adjective_before_a_therapy_names_the_agents(
    vocabulary: MeshVocabulary, text: str, heading: str
) -> None:
    word = text.split()[0]
    (match,) = agents_of_adjective(text, [word], vocabulary)
    assert (match.descriptor.heading, match.text, match.start, match.end) == (heading, word, 0, len(word))


def test_the_adjective_alone_or_with_another_head_names_no_agents(vocabulary: MeshVocabulary) -> None:
    assert agents_of_adjective("antiretroviral", ["antiretroviral"], vocabulary) == []
    assert agents_of_adjective("antiretroviral resistance", ["antiretroviral"], vocabulary) == []
    assert agents_of_adjective("xyzoid therapy", ["xyzoid"], vocabulary) == []


def test_a_discipline_with_modifiers_stands_for_its_procedures(vocabulary: MeshVocabulary) -> None:
    match = only_match(vocabulary, "cardiac surgery")
    assert match.descriptor.heading == "Thoracic Surgery"  # MeSH's entry term names the discipline
    assert procedure_of_discipline(match, vocabulary).descriptor.heading == "Cardiac Surgical Procedures"


def test_a_technique_adjective_alone_names_the_technique(vocabulary: MeshVocabulary) -> None:
    (match,) = technique_of_adjective("Laparoscopic", vocabulary)
    assert (match.descriptor.heading, match.text) == ("Laparoscopy", "Laparoscopic")
    assert technique_of_adjective("open", vocabulary) == []  # MeSH writes no "open surgery"
    assert technique_of_adjective("laparoscopic appendectomy", vocabulary) == []


@pytest.mark.parametrize(
    ("text", "heading", "words"),
    [
        ("influenza vaccination of healthcare workers", "Influenza Vaccines", "influenza vaccination"),
        (
            "School-based human papillomavirus vaccination",
            "Papillomavirus Vaccines",
            "human papillomavirus vaccination",
        ),
        ("HPV immunisation programmes", "Papillomavirus Vaccines", "HPV immunisation"),
    ],
)
def test_a_vaccination_is_searched_with_the_vaccine_mesh_names(
    vocabulary: MeshVocabulary, text: str, heading: str, words: str
) -> None:
    found = vaccine_of_vaccination(text, vocabulary.recognize(text), vocabulary)
    vaccine = next(m for m in found if m.descriptor.heading == heading)
    assert vaccine.text == words
    # the disease and the act it was read as are one concept now, not two
    assert not any(m.descriptor.heading in ("Influenza, Human", "Vaccination") for m in found)


def test_a_vaccination_mesh_names_no_vaccine_for_is_left_as_it_is(vocabulary: MeshVocabulary) -> None:
    matches = vocabulary.recognize("childhood vaccination")
    assert vaccine_of_vaccination("childhood vaccination", matches, vocabulary) == matches


@pytest.mark.parametrize(
    ("text", "heading"),
    [("sulfonylureas", "Sulfonylurea Compounds"), ("antifungals", "Antifungal Agents")],
)
def test_a_drug_class_named_by_its_members_plural_is_the_class(
    vocabulary: MeshVocabulary, text: str, heading: str
) -> None:
    """MeSH has no term "sulfonylureas"; it names the class with the singular before "Compounds"."""
    (match,) = agents_of_plural(text, vocabulary)
    assert (match.text, match.descriptor.heading) == (text, heading)


@pytest.mark.parametrize("text", ["sulfonylurea", "tests", "clubs", "hearing aids"])
def test_no_plural_a_known_word_or_a_phrase_names_no_class(vocabulary: MeshVocabulary, text: str) -> None:
    assert agents_of_plural(text, vocabulary) == []


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("anti-TNF therapy", "Tumor Necrosis Factor Inhibitors"),  # MeSH: "TNF Inhibitors"
        ("anti-IL-6 treatment", "Interleukin-6 Inhibitors"),
    ],
)
def test_anti_a_target_names_the_inhibitors_mesh_names(
    vocabulary: MeshVocabulary, text: str, heading: str
) -> None:
    (match,) = inhibitors_of_anti(text, vocabulary)
    assert (match.text, match.descriptor.heading) == (text.split()[0], heading)


def test_anti_a_target_mesh_names_no_inhibitors_of_names_nothing(vocabulary: MeshVocabulary) -> None:
    assert inhibitors_of_anti("anti-VEGF injections", vocabulary) == []
    assert inhibitors_of_anti("antibiotic therapy", vocabulary) == []
