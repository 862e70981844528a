"""Coordinated phrases: alternatives, and the head or modifier they share where MeSH names the result."""

from __future__ import annotations

import pytest

from agent.keywords.concepts import build_concepts
from agent.keywords.coordination import (
    alternatives,
    distribute,
    kinds_of_one_head,
    listed_together,
    modifiers_after_their_head,
    related_pairs,
    slashed_series,
    written_distributed,
)
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import ConceptRole, Slots, Understanding


def test_a_name_mesh_writes_with_and_is_not_cut(vocabulary: MeshVocabulary) -> None:
    assert alternatives("head and neck cancer", vocabulary) == ["head and neck cancer"]
    assert alternatives("bursa, tendon or labrum", vocabulary) == ["bursa", "tendon", "labrum"]
    assert alternatives("head and neck cancer", None) == ["head", "neck cancer"]


def test_a_hyphenated_compound_with_and_is_one_word(vocabulary: MeshVocabulary) -> None:
    # "soap-and-water": the "and" is inside one hyphenated word, not between two alternatives
    assert alternatives("soap-and-water bathing", vocabulary) == ["soap-and-water bathing"]
    assert alternatives("trial-and-error or hit-or-miss learning", None) == [
        "trial-and-error",
        "hit-or-miss learning",
    ]


@pytest.mark.parametrize(
    ("pieces", "shared"),
    [
        (["hip", "knee osteoarthritis"], ["hip osteoarthritis", "knee osteoarthritis"]),  # the head
        (["hepatic fibrosis", "cirrhosis"], ["hepatic fibrosis", "hepatic cirrhosis"]),  # the modifier
        # MeSH names neither "chronic portal vein thrombosis" nor "chronic liver disease thrombosis"
        (
            ["chronic liver disease", "portal vein thrombosis"],
            ["chronic liver disease", "portal vein thrombosis"],
        ),
        (["nausea", "vomiting"], ["nausea", "vomiting"]),
    ],
)
def test_a_shared_word_goes_only_where_mesh_names_a_narrower_descriptor(
    vocabulary: MeshVocabulary, pieces: list[str], shared: list[str]
) -> None:
    assert distribute(pieces, vocabulary) == shared


def test_a_shared_head_goes_to_the_sibling_mesh_names_with_the_other_modifier(
    vocabulary: MeshVocabulary,
) -> None:
    """ "hip and knee arthroplasty": MeSH names "knee arthroplasty" (Arthroplasty, Replacement, Knee) but
    not "hip arthroplasty"; its sibling with the hip in place of the knee is the hip's, named by a term
    recognition reads back (the query had searched the knee only, beside an optional Hip)."""
    assert distribute(["hip", "knee arthroplasty"], vocabulary) == [
        "Total Hip Arthroplasty",
        "knee arthroplasty",
    ]
    assert distribute(["hip", "knee replacement"], vocabulary) == [
        "Total Hip Replacement",
        "knee replacement",
    ]
    # no sibling swaps the modifier: the pieces stay as written
    assert distribute(["tooth", "knee arthroplasty"], vocabulary) == ["tooth", "knee arthroplasty"]


def test_phrases_listed_together_share_their_head_and_make_one_concept(vocabulary: MeshVocabulary) -> None:
    # the understanding may put the two sides of one list in different slots
    result = build_concepts(
        Understanding(
            description="Interventions for hip and knee osteoarthritis",
            slots=Slots(output_target=["knee osteoarthritis"], context=["hip"]),
        ),
        vocabulary,
    )
    # one condition (and the site block site_and_lesion adds beside it)
    assert [c.role for c in result.concepts] == [ConceptRole.CONDITION, ConceptRole.ANATOMY]
    condition = result.concepts[0].id
    assert sorted(t.mesh.heading for t in result.terms if t.mesh and t.concept == condition) == [
        "Osteoarthritis, Hip",
        "Osteoarthritis, Knee",
    ]


def test_a_shared_head_that_names_nothing_alone_goes_where_mesh_names_the_result(
    vocabulary: MeshVocabulary,
) -> None:
    """ "involvement" names no descriptor, so nothing broader is narrowed: "patient involvement" is an
    entry term of Patient Participation, and the list is read as "patient and public involvement"."""
    assert distribute(["Patient", "public involvement"], vocabulary) == [
        "Patient involvement",
        "public involvement",
    ]
    assert distribute(["parents", "teachers"], vocabulary) == ["parents", "teachers"]
    # MeSH names only the valve in "aortic valve replacement", not the whole: the head of three words
    # goes where MeSH names the result
    assert distribute(["transcatheter", "surgical aortic valve replacement"], vocabulary) == [
        "transcatheter aortic valve replacement",
        "surgical aortic valve replacement",
    ]


def test_alternatives_that_share_a_word_are_one_concept_whatever_their_roles(
    vocabulary: MeshVocabulary,
) -> None:
    description = "Patient and public involvement in health research: barriers and facilitators"
    understanding = Understanding(
        description=description,
        slots=Slots(
            subject_population=["Patient", "public involvement"], output_target=["barriers", "facilitators"]
        ),
    )
    result = build_concepts(understanding, vocabulary)
    (involvement,) = [
        c
        for c in result.concepts
        if any(t.canonical == "public involvement" for t in result.terms if t.concept == c.id)
    ]
    written = {t.canonical for t in result.terms if t.concept == involvement.id}
    assert written == {"Patient involvement", "public involvement"}
    assert involvement.required


@pytest.mark.parametrize(
    ("pieces", "kinds"),
    [
        (["cemented", "uncemented hemiarthroplasty"], ["hemiarthroplasty", "cemented", "uncemented"]),
        (
            ["Restrictive", "liberal transfusion strategies"],
            ["transfusion strategies", "Restrictive", "liberal"],
        ),
        # compounds grading a treatment by a measure are kinds of it ("Influenza Vaccines" had been lost)
        (
            ["High-dose", "standard-dose influenza vaccine"],
            ["influenza vaccine", "High-dose", "standard-dose"],
        ),
        (["aspirin", "clopidogrel therapy"], None),  # a drug MeSH names: a concept of its own
        (["RYGB", "sleeve gastrectomy"], None),  # an acronym, no modifier
        (["cemented", "hemiarthroplasty"], None),  # no head to share
    ],
)
def test_modifiers_compared_before_one_head_are_kinds_of_it(
    vocabulary: MeshVocabulary, pieces: list[str], kinds: list[str] | None
) -> None:
    assert kinds_of_one_head(pieces, vocabulary) == kinds


def test_the_head_modifiers_share_is_the_concept_and_the_kinds_one_block(vocabulary: MeshVocabulary) -> None:
    description = "Cemented vs uncemented hemiarthroplasty: mortality and revision"
    result = build_concepts(
        Understanding(
            description=description,
            slots=Slots(output_target=["cemented vs uncemented hemiarthroplasty", "mortality"]),
        ),
        vocabulary,
    )
    # the head is the concept; the modifiers, OR'ed in one block, say which kinds are compared
    blocks = [sorted(t.canonical for t in result.terms if t.concept == c.id) for c in result.concepts]
    assert ["hemiarthroplasty"] in blocks
    assert ["cemented", "uncemented"] in blocks


@pytest.mark.parametrize(
    ("phrase", "text", "written"),
    [
        ("maternal outcomes", "referral and maternal and perinatal outcomes", True),
        ("hepatic cirrhosis", "hepatic fibrosis and cirrhosis", True),
        ("hip osteoarthritis", "hip, knee or hand osteoarthritis", True),
        ("maternal outcomes", "maternal health and neonatal outcomes", False),
        ("maternal outcomes", "maternal and perinatal", False),
    ],
)
def test_an_alternative_given_the_word_its_list_shares_is_written_there(
    phrase: str, text: str, written: bool
) -> None:
    assert written_distributed(phrase, text) is written


def test_phrases_written_with_a_slash_are_one_concept(vocabulary: MeshVocabulary) -> None:
    """ "mirror therapy / motor imagery": the user offers one concept by two names, one block whatever
    roles MeSH gives each; phrases only listed with "and" keep their own roles' grouping."""
    description = "Does mirror therapy / motor imagery improve arm function after stroke, and does fatigue?"
    series = listed_together(description, ["mirror therapy", "motor imagery", "arm function", "fatigue"])
    assert series["mirror therapy"] == series["motor imagery"]
    assert slashed_series(description, series) == {series["mirror therapy"]}
    assert (
        slashed_series("tai chi and yoga", listed_together("tai chi and yoga", ["tai chi", "yoga"])) == set()
    )
    result = build_concepts(
        Understanding(
            description="Do splints/kinesio taping reduce pain in carpal tunnel syndrome?",
            slots=Slots(context=["splints", "kinesio taping"], output_target=["carpal tunnel syndrome"]),
        ),
        vocabulary,
    )
    splints = next(t.concept for t in result.terms if t.canonical == "splints")
    assert splints == next(t.concept for t in result.terms if "taping" in t.canonical)


@pytest.mark.parametrize(
    ("description", "related"),
    [
        ("universal basic income and mental health", True),  # the whole topic
        ("My thesis is about universal basic income and mental health.", True),
        ("Does CPAP help patients with resistant hypertension and sleep apnoea?", True),  # people with both
        ("Barriers and facilitators to help-seeking for postnatal depression", False),  # opens a longer title
        ("The impact of Airbnb on housing prices and rents", False),  # the object of another word
        ("universal basic income, mental health and wellbeing", False),  # a comma lists
    ],
)
def test_a_pair_joined_by_and_relates_only_as_a_whole_topic_or_two_conditions(
    description: str, related: bool
) -> None:
    pair = {
        "universal basic income and mental health": ["universal basic income", "mental health"],
        "My thesis is about universal basic income and mental health.": [
            "universal basic income",
            "mental health",
        ],
        "Does CPAP help patients with resistant hypertension and sleep apnoea?": [
            "patients with resistant hypertension",
            "sleep apnoea",
        ],
        "Barriers and facilitators to help-seeking for postnatal depression": ["Barriers", "facilitators"],
        "The impact of Airbnb on housing prices and rents": ["housing prices", "rents"],
        "universal basic income, mental health and wellbeing": ["mental health", "wellbeing"],
    }[description]
    series = listed_together(description, pair)
    assert (related_pairs(description, series) == {series[pair[0]]}) is related


def test_unlike_phrases_of_one_slot_related_by_and_are_two_concepts(vocabulary: MeshVocabulary) -> None:
    """ "universal basic income and mental health" relates an exposure MeSH does not name to an outcome:
    AND'ed, not one OR block, whichever slot the understanding gave both; "anxiety and depression in
    cancer survivors" lists two outcomes of one MeSH subcategory: one block."""
    unlike = build_concepts(
        Understanding(
            description="universal basic income and mental health",
            slots=Slots(output_target=["universal basic income", "mental health"]),
        ),
        vocabulary,
    )
    assert len({t.concept for t in unlike.terms}) == 2
    alike = build_concepts(
        Understanding(
            description="anxiety and depression in cancer survivors",
            slots=Slots(output_target=["anxiety", "depression"], subject_population=["cancer survivors"]),
        ),
        vocabulary,
    )
    anxiety = next(t.concept for t in alike.terms if t.canonical == "anxiety")
    assert anxiety == next(t.concept for t in alike.terms if t.canonical == "depression")


def test_modifiers_listed_after_their_head_are_kinds_of_it(vocabulary: MeshVocabulary) -> None:
    # "cash transfers, conditional or unconditional": the adjectives name kinds of the transfers, no
    # concept of their own (they had been searched alone, conditional[tiab] OR unconditional*[tiab])
    pieces = ["cash transfers", "conditional", "unconditional"]
    assert modifiers_after_their_head(pieces, vocabulary) == [
        "cash transfers",
        "conditional cash transfers",
        "unconditional cash transfers",
    ]
    # nouns listed after a noun stay as written, and so do modifiers that come first
    assert modifiers_after_their_head(["metformin", "insulin"], vocabulary) == ["metformin", "insulin"]
    assert modifiers_after_their_head(["open", "laparoscopic"], vocabulary) == ["open", "laparoscopic"]
    assert modifiers_after_their_head(["IV", "topical"], vocabulary) == ["IV", "topical"]  # two routes
    result = build_concepts(
        Understanding(
            description="What is the effect of cash transfers, conditional or unconditional, on stunting?",
            slots=Slots(
                context=["cash transfers", "conditional", "unconditional"], output_target=["stunting"]
            ),
        ),
        vocabulary,
    )
    assert "conditional" not in {t.canonical for t in result.terms}
