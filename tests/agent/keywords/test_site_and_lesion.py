"""A condition named by its site and its lesion becomes two AND'ed blocks, each with the condition's terms."""

from __future__ import annotations

import pytest

from agent.keywords.concepts import build_concepts
from agent.keywords.querybuild import build_queries
from agent.keywords.site_and_lesion import site_and_lesion
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import ConceptRole, KeywordPlan, Slots, Source, Term, Understanding


def parts_of(vocabulary: MeshVocabulary, phrase: str) -> tuple[str, str, str, str] | None:
    descriptor = vocabulary.recognize(phrase)[-1].descriptor
    parts = site_and_lesion(Term(canonical=phrase, slot="task", mesh=descriptor), vocabulary)
    if parts is None:
        return None
    return parts.site_text, parts.site.heading, parts.lesion_text, parts.lesion.heading


@pytest.mark.parametrize(
    ("phrase", "parts"),
    [
        ("oral cavity cancer", ("oral cavity", "Mouth", "cancer", "Neoplasms")),
        ("shoulder pain", ("shoulder", "Shoulder", "pain", "Pain")),
        # an adjective of a body part: MeSH's own names of the heading say which ("Cancer of Vulva")
        ("vulval cancer", ("vulval", "Vulva", "cancer", "Neoplasms")),
        ("hepatic fibrosis", ("hepatic", "Liver", "fibrosis", "Fibrosis")),
        # the lesion in words MeSH files elsewhere ("tears": the tear fluid): the heading's own last word
        ("rotator cuff tears", ("rotator cuff", "Rotator Cuff", "tears", "Wounds and Injuries")),
        # the site an adjective of the body part names, the lesion a name of the heading's parent ends
        # with ("Bone Fractures"), where neither word alone is a MeSH name
        ("vertebral fracture", ("vertebral", "Spine", "fracture", "Fractures, Bone")),
    ],
)
def test_a_site_and_a_lesion_mesh_files_the_condition_under(
    vocabulary: MeshVocabulary, phrase: str, parts: tuple[str, str, str, str]
) -> None:
    assert parts_of(vocabulary, phrase) == parts


@pytest.mark.parametrize(
    "phrase",
    [
        "gestational diabetes",  # a kind, not a place
        "visceral leishmaniasis",  # MeSH names no body part among the heading's names
        "chronic pain",
        "type 2 diabetes",
        "macular oedema",  # Macular Edema is not filed under Edema
        "head and neck cancer",  # two sites: one of them alone would lose the other
        "coronary artery disease",  # "disease" is no lesion, though Coronary Disease ends with it
        # one of the heading's names places a kind of it ("Occipital Lobe Epilepsy"): "focal" says no part
        "focal epilepsy",
        # a lay name sharing no word with its heading (Myocardial Infarction) is one fixed expression:
        # "attack" is no word for the infarction, and attack*[tiab] had been searched as the lesion
        "heart attack",
    ],
)
def test_a_modifier_that_is_no_body_part_is_not_split(vocabulary: MeshVocabulary, phrase: str) -> None:
    assert parts_of(vocabulary, phrase) is None


def test_the_site_is_a_block_of_its_own_and_both_blocks_keep_the_heading(vocabulary: MeshVocabulary) -> None:
    understanding = Understanding(
        description="Clinical assessment to screen for oral cavity cancer",
        slots=Slots(task=["oral cavity cancer detection"]),
    )
    result = build_concepts(understanding, vocabulary)
    assert [(c.label, c.role, c.required) for c in result.concepts] == [
        ("oral cavity cancer", ConceptRole.CONDITION, True),
        ("oral cavity", ConceptRole.ANATOMY, True),
    ]
    plan = KeywordPlan(terms=result.terms, concepts=result.concepts)
    query = build_queries(plan).queries[Source.PUBMED].query
    condition, site = query.split(") AND (")
    # H OR (site AND lesion) = (H OR site) AND (H OR lesion): the heading stands in both blocks
    assert '"Mouth Neoplasms"[Mesh]' in condition and '"Mouth Neoplasms"[Mesh]' in site
    assert "cancer[tiab]" in condition and "tumor*[tiab]" in condition
    assert "mouth[tiab]" in site and '"oral cavity"[tiab]' in site
    assert '"Mouth"[Mesh]' not in query  # a body part is searched by its words, not its heading


def test_the_lesion_s_broader_heading_stays_on_the_lesion_s_side(vocabulary: MeshVocabulary) -> None:
    """ "Pain"[Mesh:NoExp] (the ancestor "shoulder pain" names) would let a paper indexed only with Pain
    satisfy the site block: it names the lesion, so only the lesion's block holds it."""
    understanding = Understanding(
        description="Ultrasonography for rotator cuff tears in people with shoulder pain",
        slots=Slots(method_measurement=["ultrasonography"], subject_population=["shoulder pain"]),
    )
    result = build_concepts(understanding, vocabulary)
    query = (
        build_queries(KeywordPlan(terms=result.terms, concepts=result.concepts)).queries[Source.PUBMED].query
    )
    blocks = query.split(") AND (")
    site = next(b for b in blocks if "shoulder[tiab]" in b)
    lesion = next(b for b in blocks if "pain[tiab]" in b)
    assert '"Shoulder Pain"[Mesh]' in site and '"Pain"' not in site
    assert '"Pain"[Mesh' in lesion


def test_conditions_listed_together_share_one_site_block(vocabulary: MeshVocabulary) -> None:
    understanding = Understanding(
        description="Interventions for hip and knee osteoarthritis",
        slots=Slots(output_target=["knee osteoarthritis"], context=["hip"]),
    )
    result = build_concepts(understanding, vocabulary)
    site = next(c for c in result.concepts if c.role is ConceptRole.ANATOMY)
    assert {t.canonical for t in result.terms if t.concept == site.id} >= {"knee", "hip"}


def test_a_condition_with_a_term_that_is_no_site_and_lesion_stays_one_block(
    vocabulary: MeshVocabulary,
) -> None:
    understanding = Understanding(
        description="Laparoscopy in pancreatic and periampullary cancer",
        slots=Slots(subject_population=["pancreatic cancer", "periampullary cancer"]),
    )
    result = build_concepts(understanding, vocabulary)
    assert not any(c.role is ConceptRole.ANATOMY and c.required for c in result.concepts)


def test_a_lesion_word_of_another_sense_is_searched_with_the_condition_s_heading(
    vocabulary: MeshVocabulary,
) -> None:
    understanding = Understanding(
        description="Ultrasonography for rotator cuff tears",
        slots=Slots(output_target=["rotator cuff tears"]),
    )
    result = build_concepts(understanding, vocabulary)
    lesion = next(t for t in result.terms if t.canonical == "tears")
    # not Tears, the fluid, nor Wounds and Injuries, every injury of the body
    assert lesion.mesh is not None and lesion.mesh.heading == "Rotator Cuff Injuries"
    cancer = build_concepts(
        Understanding(description="Tests for oral cavity cancer", slots=Slots(task=["oral cavity cancer"])),
        vocabulary,
    )
    assert next(t for t in cancer.terms if t.canonical == "cancer").mesh is None  # searched as written


def test_a_free_text_phrase_headed_by_an_adjective_of_a_body_part_is_the_part_and_the_rest(
    vocabulary: MeshVocabulary,
) -> None:
    """ "Urinary biomarkers": no heading names the whole, so the part (Urine, by its adjective) and the
    rest are AND'ed, not one exact phrase; "biomarkers" alone is too broad a heading to search on."""
    understanding = Understanding(
        description="Urinary biomarkers for the diagnosis of endometriosis",
        slots=Slots(signal_feature=["Urinary biomarkers"], output_target=["endometriosis"]),
    )
    result = build_concepts(understanding, vocabulary)
    site = next(c for c in result.concepts if c.role is ConceptRole.ANATOMY)
    assert site.required and {t.canonical for t in result.terms if t.concept == site.id} == {
        "urine",
        "Urinary",
    }
    query = (
        build_queries(KeywordPlan(terms=result.terms, concepts=result.concepts)).queries[Source.PUBMED].query
    )
    assert "(biomarkers[tiab])" in query and "Urinary[tiab]" in query
    assert "Biomarkers" not in query and "Urinary biomarkers" not in query


def test_a_free_text_phrase_whose_adjective_names_no_body_part_stays_whole(
    vocabulary: MeshVocabulary,
) -> None:
    understanding = Understanding(
        description="Circulating antigen tests for schistosomiasis",
        slots=Slots(context=["Circulating antigen"], output_target=["schistosomiasis"]),
    )
    result = build_concepts(understanding, vocabulary)
    assert not any(c.role is ConceptRole.ANATOMY for c in result.concepts)


def test_the_adjective_of_a_body_part_may_stand_after_another_modifier(vocabulary: MeshVocabulary) -> None:
    """ "cytological cervical lesions": the part ("cervical": Cervix Uteri) is searched apart wherever it
    stands before the head."""
    understanding = Understanding(
        description="Human papillomavirus testing of cytological cervical lesions",
        slots=Slots(output_target=["cytological cervical lesions"], method_measurement=["HPV testing"]),
    )
    result = build_concepts(understanding, vocabulary)
    site = next(c for c in result.concepts if c.role is ConceptRole.ANATOMY)
    assert site.required and site.label == "cervical"
    rest = [t.canonical for t in result.terms if t.concept != site.id and "lesions" in t.canonical]
    assert "cytological lesions" in rest


def test_an_adjective_opening_a_mesh_name_of_anatomy_is_searched_as_that_part(
    vocabulary: MeshVocabulary,
) -> None:
    """ "pelvic floor muscle training": "pelvic" opens the anatomy Pelvic Floor, which is the part (not the
    Pelvis beside "floor muscle training", a phrase no paper writes)."""
    understanding = Understanding(
        description="Pelvic floor muscle training for stress urinary incontinence",
        slots=Slots(context=["Pelvic floor muscle training"], output_target=["stress urinary incontinence"]),
    )
    result = build_concepts(understanding, vocabulary)
    site = next(c for c in result.concepts if c.role is ConceptRole.ANATOMY)
    assert site.label == "Pelvic floor"
    assert "Pelvic Floor" in {t.mesh.heading for t in result.terms if t.concept == site.id and t.mesh}
    assert "muscle training" in {t.canonical for t in result.terms}
    assert not any(t.canonical == "floor muscle training" for t in result.terms)


@pytest.mark.parametrize(
    ("description", "condition", "lesion_word", "heading"),
    [
        ("Ultrasonography for people with shoulder pain", "shoulder pain", "pain", "Shoulder Pain"),
        ("Elastography for hepatic fibrosis", "hepatic fibrosis", "fibrosis", "Liver Cirrhosis"),
    ],
)
def test_the_lesion_word_is_searched_with_the_condition_s_heading_not_its_own(
    vocabulary: MeshVocabulary, description: str, condition: str, lesion_word: str, heading: str
) -> None:
    """The lesion word stands for the condition in its block: "Pain"[Mesh] or "Fibrosis"[Mesh] there
    would take every kind of pain or fibrosis, and the site's block any mention of the organ beside it
    (a heading of its own is what the synonyms step would look the bare word up as)."""
    result = build_concepts(
        Understanding(description=description, slots=Slots(output_target=[condition])), vocabulary
    )
    lesion = next(t for t in result.terms if t.canonical == lesion_word)
    assert lesion.mesh is not None and lesion.mesh.heading == heading
    query = (
        build_queries(KeywordPlan(terms=result.terms, concepts=result.concepts)).queries[Source.PUBMED].query
    )
    assert f'"{lesion_word.capitalize()}"[Mesh]' not in query
