"""Concepts from understood slots: roles from MeSH, what is AND'ed, what is set aside."""

from __future__ import annotations

import re

import pytest

from agent.keywords.concept_roles import (
    a_period_of_life_named,
    in_a_control_arm,
    is_comparator,
    is_detected,
    is_exposure,
    is_prevented,
    is_usual_care,
    names_a_study_design,
    names_the_concept,
)
from agent.keywords.concepts import build_concepts
from agent.keywords.coordination import listed_together
from agent.keywords.phrase_words import set_aside
from agent.keywords.querybuild import build_queries
from agent.keywords.title_template import opens_the_title, qualifies_the_test
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import ConceptRole, KeywordPlan, Slots, Source, Understanding


def concepts_of(vocabulary: MeshVocabulary | None, description: str, **slots: list[str]):
    return build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)


def summary(result) -> list[tuple[str, str, bool]]:
    return [(c.label, c.role.value, c.required) for c in result.concepts]


def pubmed_query(result) -> str:
    """The PubMed query the concepts of `result` make."""
    return (
        build_queries(KeywordPlan(terms=result.terms, concepts=result.concepts)).queries[Source.PUBMED].query
    )


def test_versus_of_two_drugs_is_one_block_and_roles_come_from_mesh(vocabulary: MeshVocabulary) -> None:
    # two active treatments of one kind set side by side: a searcher ORs them into one block
    # (`test_two_active_treatments_of_one_kind_compared_are_one_block`)
    result = concepts_of(
        vocabulary,
        "Metformin versus insulin for gestational diabetes",
        task=["gestational diabetes treatment"],
        context=["Metformin versus insulin"],
    )
    assert summary(result) == [
        ("gestational diabetes", "condition", True),
        ("Metformin / insulin", "intervention", True),
    ]
    assert [t.mesh.heading for t in result.terms if t.mesh] == [
        "Diabetes, Gestational",
        "Metformin",
        "Insulin",
    ]


def test_the_sides_of_versus_share_a_head_where_mesh_names_the_result(vocabulary: MeshVocabulary) -> None:
    # "regional versus general anaesthesia": regional anaesthesia (Anesthesia, Conduction), not a lone adjective
    result = concepts_of(
        vocabulary,
        "Regional versus general anaesthesia for hip fracture surgery",
        task=["hip fracture surgery"],
        context=["Regional versus general anaesthesia"],
    )
    headings = {t.mesh.heading for t in result.terms if t.mesh}
    assert {"Anesthesia, Conduction", "Anesthesia, General"} <= headings
    # both kinds are the question's: one required block, OR'ed
    required = {
        t.mesh.heading
        for c in result.concepts
        if c.required
        for t in result.terms
        if t.concept == c.id
        if t.mesh
    }
    assert {"Anesthesia, Conduction", "Anesthesia, General"} <= required


def test_where_a_programme_is_based_is_a_concept_when_mesh_names_it_with_the_head(
    vocabulary: MeshVocabulary,
) -> None:
    result = concepts_of(
        vocabulary,
        "Home-based specialist palliative care for adults with advanced cancer",
        context=["Home-based specialist palliative care"],
    )
    homes = [
        c
        for c in result.concepts
        if any(t.mesh and t.mesh.heading == "Home Care Services" for t in result.terms if t.concept == c.id)
    ]
    assert len(homes) == 1 and homes[0].required and homes[0].role is ConceptRole.SETTING
    assert "Palliative Care" in {t.mesh.heading for t in result.terms if t.mesh}


def test_a_term_mesh_names_around_a_descriptor_is_a_concept_apart(vocabulary: MeshVocabulary) -> None:
    # "occupational heat exposure": the heat AND an occupational exposure, never ORed in one block
    result = concepts_of(
        vocabulary,
        "Occupational heat exposure and acute kidney injury",
        context=["Occupational heat exposure"],
        output_target=["acute kidney injury"],
    )
    owner = {t.mesh.heading: t.concept for t in result.terms if t.mesh}
    assert owner["Occupational Exposure"] != owner["Hot Temperature"]
    required = {c.id for c in result.concepts if c.required}
    assert {owner["Occupational Exposure"], owner["Hot Temperature"]} <= required


def test_a_side_of_versus_whose_role_comes_out_weak_is_what_is_done(vocabulary: MeshVocabulary) -> None:
    # a setting (free text), an outcome and an anatomy as the head of a side all become interventions;
    # a modifier of a side keeps its own role
    result = concepts_of(
        vocabulary,
        "Home visits versus memory for dementia",
        task=["dementia care"],
        context=["Home visits versus memory"],
    )
    roles = {label: (role, required) for label, role, required in summary(result)}
    assert roles["Home visits"] == ("intervention", True)
    assert roles["memory"] == ("intervention", True)
    compared = concepts_of(
        vocabulary,
        "Exercise for dementia compared with memory",
        task=["dementia care"],
        context=["Exercise compared with memory"],
    )
    assert ("memory", "intervention", True) not in summary(compared)  # "compared with": a comparator
    sides = concepts_of(
        vocabulary,
        "Surgery versus brain MRI",
        context=["Surgery versus brain MRI"],
    )
    assert ("brain", "anatomy", False) in summary(sides)
    # where MeSH names the organ's kind of the technique, the side is that one descriptor
    chest = concepts_of(vocabulary, "Surgery versus chest X-ray", context=["Surgery versus chest X-ray"])
    assert ("chest X-ray", "method", True) in summary(chest)
    assert "Radiography, Thoracic" in [t.mesh.heading for t in chest.terms if t.mesh]


def test_a_condition_filed_under_health_care_modifies_its_head(vocabulary: MeshVocabulary) -> None:
    # Emergencies is both a condition (C23) and health care (N06): as a modifier it is the kind of
    # admission; a condition of C only ("pain scores") is still a concept of its own
    admissions = concepts_of(
        vocabulary,
        "Statins and emergency hospital admissions",
        context=["Statins"],
        output_target=["emergency hospital admissions"],
    )
    assert ("emergency hospital admissions", "outcome", True) in summary(admissions)
    assert not any(t.mesh and t.mesh.heading == "Emergencies" for t in admissions.terms)
    scores = concepts_of(
        vocabulary, "Statins and pain scores", context=["Statins"], output_target=["pain scores"]
    )
    assert ("pain", "condition", True) in summary(scores)


def test_an_outcome_filed_also_as_a_technique_keeps_the_role_its_slot_gives(
    vocabulary: MeshVocabulary,
) -> None:
    # Blood Pressure is filed under diagnostic techniques (E01) and physiological phenomena (G09): as an
    # outcome it is what is measured, not a method a relevant paper must use
    result = concepts_of(
        vocabulary,
        "Home visits and blood pressure control",
        context=["Home visits"],
        output_target=["blood pressure control"],
    )
    (pressure,) = [c for c in result.concepts if c.label == "blood pressure"]
    assert pressure.role is ConceptRole.OUTCOME


@pytest.mark.parametrize(
    "phrase", ["older adults", "older people", "old patients", "older women", "older men"]
)
def test_people_of_old_age_are_the_age_group_aged(vocabulary: MeshVocabulary, phrase: str) -> None:
    result = concepts_of(vocabulary, f"Statins in {phrase}", context=["Statins"], subject_population=[phrase])
    (term,) = [t for t in result.terms if t.slot == "subject_population"]
    assert (term.canonical, term.mesh and term.mesh.heading) == (phrase, "Aged")


def test_an_age_group_qualified_by_words_before_it_is_still_aged(vocabulary: MeshVocabulary) -> None:
    # "community-dwelling older adults" was the free text "community-dwelling older", with no heading
    phrase = "community-dwelling older adults"
    result = concepts_of(
        vocabulary, f"Exercise in {phrase}", context=["Exercise"], subject_population=[phrase]
    )
    # and "community-dwelling" is Independent Living, filed under Population Characteristics (N01),
    # which a population phrase is expected to name: no other sense of a word
    assert [t.mesh.heading for t in result.terms if t.slot == "subject_population" and t.mesh] == [
        "Independent Living",
        "Aged",
    ]


def test_people_mesh_names_as_a_group_of_their_own_keep_it_beside_their_age(
    vocabulary: MeshVocabulary,
) -> None:
    # "older inpatients" was Aged alone ("older inpatient*"): Inpatients, a group of its own, was lost
    result = concepts_of(
        vocabulary,
        "Falls in older inpatients",
        output_target=["Falls"],
        subject_population=["older inpatients"],
    )
    people = {t.mesh.heading: t.canonical for t in result.terms if t.slot == "subject_population" and t.mesh}
    assert people == {"Aged": "older adults", "Inpatients": "inpatients"}


def test_a_mortality_an_outcome_names_is_mortality(vocabulary: MeshVocabulary) -> None:
    # Mortality is a vital statistic (E05.318.308.985), what an outcome counts: "all-cause mortality" was
    # read as another sense of the word and searched as written, with no heading
    result = concepts_of(
        vocabulary,
        "Azithromycin for reducing all-cause mortality in children",
        context=["Azithromycin"],
        output_target=["all-cause mortality"],
        subject_population=["children"],
    )
    assert any(t.mesh and t.mesh.heading == "Mortality" for t in result.terms if t.slot == "output_target")


def test_older_children_are_not_aged(vocabulary: MeshVocabulary) -> None:
    # an age group MeSH files under Persons keeps its own age: "older children" are children
    result = concepts_of(
        vocabulary, "Statins in older children", context=["Statins"], subject_population=["older children"]
    )
    assert not any(t.mesh and t.mesh.heading == "Aged" for t in result.terms)


def test_younger_people_are_not_aged(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary, "Statins in younger adults", context=["Statins"], subject_population=["younger adults"]
    )
    assert not any(t.mesh and t.mesh.heading == "Aged" for t in result.terms)


def test_alternatives_of_one_role_are_one_concept(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Decoding speech from electrocorticography (ECoG) and sEEG",
        task=["speech decoding"],
        method_measurement=["electrocorticography (ECoG)", "sEEG"],
    )
    method = next(c for c in result.concepts if c.label.startswith("electrocorticography"))
    members = [t.canonical for t in result.terms if t.concept == method.id]
    assert members == ["electrocorticography", "sEEG"]
    ecog = next(t for t in result.terms if t.canonical == "electrocorticography")
    assert [s.text for s in ecog.synonyms] == ["ECoG"]  # the user's acronym, attested by the text


def test_study_types_spans_and_counts_are_set_aside(vocabulary: MeshVocabulary) -> None:
    text, found = set_aside("Metformin in 6046 women over six decades: a network meta-analysis")
    assert found == ["network meta-analysis"] and "6046" not in text and "decades" not in text
    result = concepts_of(
        vocabulary,
        "Prevalence of thyroid cancer in autopsy studies over six decades: a meta-analysis",
        task=["thyroid cancer prevalence"],
        context=["autopsy studies over six decades", "meta-analysis"],
    )
    assert [f.text for f in result.study_filters] == ["autopsy studies", "meta-analysis"]
    assert not any(f.enabled for f in result.study_filters)  # a filter the user may switch on
    query = pubmed_query(result)
    assert "Meta-Analysis" not in query and "decade" not in query


def test_a_design_modifier_cut_from_its_shared_noun_is_a_design(vocabulary: MeshVocabulary) -> None:
    """ "Qualitative and quantitative studies.": the understanding keeps "Qualitative" apart from the
    noun it shares with "quantitative studies"; both are kinds of study asked for, filters (the lone
    adjective had been an optional setting "Qualitative"), while a lone modifier before a topic stays."""
    result = concepts_of(
        vocabulary,
        "Which interventions reduce loneliness in older adults? Qualitative and quantitative studies.",
        subject_population=["older adults"],
        output_target=["loneliness"],
        context=["Qualitative", "quantitative studies"],
    )
    assert [f.text for f in result.study_filters] == ["Qualitative studies", "quantitative studies"]
    assert [c.label for c in result.concepts] == ["older adults", "loneliness"]


def test_a_design_mesh_knows_is_set_aside_as_a_whole_phrase(vocabulary: MeshVocabulary) -> None:
    """ "quasi-experimental studies" (Non-Randomized Controlled Trials as Topic) and "interrupted time
    series" name the kind of study wanted, as "randomised trials" do: filters, not blocks to AND; a
    design word inside a topic's phrase stays ("cohort" alone, "legislation" is a publication format)."""
    result = concepts_of(
        vocabulary,
        "Smoke-free legislation and asthma admissions: quasi-experimental studies and interrupted time series",
        task=["asthma admissions"],
        method_measurement=["quasi-experimental studies", "interrupted time series"],
        context=["smoke-free legislation"],
    )
    assert [f.text for f in result.study_filters] == ["quasi-experimental studies", "interrupted time series"]
    query = pubmed_query(result)
    # the topic's phrase stays a block ("legislation" is no design), searched by the name it is built on
    # ("smoke-free", which finds "smoke-free legislation" too)
    assert "quasi" not in query and "time series" not in query and '"smoke-free"[tiab]' in query.lower()
    assert not names_a_study_design("birth cohort", vocabulary)
    assert names_a_study_design("controlled before-after studies", vocabulary)


def test_population_is_optional_when_a_condition_defines_it(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Galactomannan detection for invasive aspergillosis in immunocompromised people",
        task=["Galactomannan detection"],
        subject_population=["immunocompromised people"],
        context=["invasive aspergillosis"],
    )
    roles = {c.label: (c.role, c.required) for c in result.concepts}
    assert roles["immunocompromised people"] == (ConceptRole.POPULATION, False)
    assert roles["aspergillosis"] == (ConceptRole.CONDITION, True)
    aspergillosis = next(t for t in result.terms if t.mesh and t.mesh.heading == "Aspergillosis")
    assert aspergillosis.canonical == "aspergillosis"
    assert aspergillosis.synonyms[0].text == "invasive aspergillosis"  # the phrase beside the broader heading


def test_generic_people_are_never_required(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary, "sleep in patients", output_target=["sleep"], subject_population=["patients"]
    )
    generic = next(c for c in result.concepts if c.label == "patients")
    assert generic.required is False and "generic" in generic.reason


def test_without_a_vocabulary_the_slots_give_the_roles() -> None:
    result = concepts_of(
        None,
        "molecular property prediction with graph neural networks",
        task=["molecular property prediction"],
        method_algorithm=["graph neural networks"],
    )
    # two concepts at least are AND'ed: the algorithm is promoted
    assert summary(result) == [
        ("molecular property prediction", "method", True),
        ("graph neural networks", "algorithm", True),
    ]


def test_too_broad_headings_and_everyday_words_are_not_headings(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(vocabulary, "Red flags to screen for cancer", task=["red flags"], context=["cancer"])
    assert all(t.mesh is None for t in result.terms)  # not Emblems and Insignia, not Neoplasms (C04)
    neoplasms = vocabulary.lookup("Neoplasms")[0]
    assert not names_the_concept(neoplasms, "malignancy") and names_the_concept(neoplasms, "solid neoplasms")
    assert names_the_concept(vocabulary.lookup("Epilepsy")[0], "epilepsy", "heading")


def test_a_condition_one_level_under_a_category_is_named_by_its_word(vocabulary: MeshVocabulary) -> None:
    """Burns (C26.200) sits one level under Wounds and Injuries, as concrete as a disease deeper down:
    "partial-thickness burns" is searched with it; the category itself (C26) and a one-word heading one
    level down outside the conditions (Behavior, F01.145) stay too broad."""
    burns = vocabulary.lookup("Burns")[0]
    assert names_the_concept(burns, "burns", "heading")
    assert not names_the_concept(vocabulary.lookup("Wounds and Injuries")[0], "injuries")
    assert not names_the_concept(vocabulary.lookup("Behavior")[0], "behaviour", "heading")
    result = concepts_of(
        vocabulary,
        "Silver dressings for partial-thickness burns in children",
        output_target=["partial-thickness burns"],
    )
    assert any(t.mesh is not None and t.mesh.heading == "Burns" for t in result.terms)


def test_a_procedure_one_level_under_its_category_is_named_by_its_word(vocabulary: MeshVocabulary) -> None:
    """Radiotherapy (E02.815) and Mastectomy (E04.466) sit one level under Therapeutics and Surgical
    Procedures, Operative: each names one procedure, and its word is searched with it; the categories
    themselves (E02) and a generic word one level under the investigative techniques (Methods, E05.581)
    stay too broad, and so does such a heading reached through an entry term, which may name the class
    by a narrower sense ("chemotherapy", mostly of cancer, is no search for Drug Therapy, E02.319)."""
    assert names_the_concept(vocabulary.lookup("Radiotherapy")[0], "radiotherapy", "heading")
    assert not names_the_concept(vocabulary.lookup("Drug Therapy")[0], "chemotherapy")
    assert names_the_concept(vocabulary.lookup("Mastectomy")[0], "mastectomy", "heading")
    assert not names_the_concept(vocabulary.lookup("Therapeutics")[0], "therapy")
    assert not names_the_concept(vocabulary.lookup("Methods")[0], "methods", "heading")


def test_phrases_written_apart_are_different_concepts(vocabulary: MeshVocabulary) -> None:
    description = (
        "Red flags to screen for vertebral fracture in low back pain, with bursa, tendon or labrum lesions"
    )
    assert listed_together(description, ["Red flags", "vertebral fracture", "bursa", "tendon", "labrum"]) == {
        "Red flags": 1,
        "vertebral fracture": 2,
        "bursa": 3,
        "tendon": 3,
        "labrum": 3,
    }
    result = concepts_of(
        None, description, context=["Red flags", "vertebral fracture", "bursa", "tendon", "labrum"]
    )
    assert [c.label for c in result.concepts] == [
        "Red flags",
        "vertebral fracture",
        "bursa / tendon / labrum",
    ]


def test_a_lone_modifier_takes_its_head_from_the_description(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Rapid tests for the diagnosis of visceral leishmaniasis",
        task=["visceral leishmaniasis diagnosis"],
        context=["Rapid"],
    )
    assert [(c.label, c.required) for c in result.concepts] == [
        ("visceral leishmaniasis", True),
        ("Rapid tests", True),
    ]
    # with no head to take, an adjective alone stays in the plan, optional, with the reason
    alone = concepts_of(vocabulary, "glaucoma, physical", task=["glaucoma"], context=["physical"])
    physical = next(c for c in alone.concepts if c.label == "physical")
    assert not physical.required and "adjective" in physical.reason


def test_people_words_beside_a_condition_are_no_term(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "sleep in patients with negative plain radiographs",
        output_target=["sleep"],
        subject_population=["patients with negative plain radiographs"],
    )
    assert "patients" not in [t.canonical for t in result.terms]
    assert "negative plain radiographs" in [t.canonical for t in result.terms]


def test_general_words_beside_an_abstract_noun_name_nothing(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Laparoscopy for diagnosing resectability, and galactomannan detection, in ovarian cancer",
        task=["resectability diagnosis"],
        method_measurement=["Laparoscopy", "Galactomannan detection"],
        subject_population=["ovarian cancer"],
    )
    required = {c.label: c.required for c in result.concepts}
    assert required["resectability diagnosis"] is False
    assert required["Galactomannan"] is True  # a substance: something a paper names


def test_outside_biomedicine_a_quality_noun_names_the_property_studied(vocabulary: MeshVocabulary) -> None:
    """ "Usability evaluation of voice user interfaces": the usability had been set aside as an abstract
    noun beside a generic word, leaving the interfaces alone."""
    result = concepts_of(
        vocabulary,
        "Usability evaluation of voice user interfaces",
        task=["Usability evaluation"],
        context=["voice user interfaces"],
    )
    required = {c.label: c.required for c in result.concepts}
    assert required["Usability evaluation"] is True
    assert required["voice user interfaces"] is True


def test_an_exposure_is_required_like_an_intervention(vocabulary: MeshVocabulary) -> None:
    description = "Effect of vitamin D supplementation on bone mineral density in postmenopausal women"
    assert is_exposure("vitamin D supplementation", description)
    assert not is_exposure("postmenopausal women", description)
    result = concepts_of(
        vocabulary,
        description,
        subject_population=["postmenopausal women"],
        output_target=["bone mineral density"],
        context=["vitamin D supplementation"],
    )
    roles = {c.label: (c.role, c.required) for c in result.concepts}
    # the intake word is set aside, so the exposure is the substance MeSH names
    assert roles["vitamin D"] == (ConceptRole.INTERVENTION, True)
    # with no condition, the outcome is what the search is about
    assert roles["bone mineral density"] == (ConceptRole.OUTCOME, True)


def test_what_people_are_given_is_the_intervention(vocabulary: MeshVocabulary) -> None:
    """ "children with autism treated with probiotics": Probiotics is filed under food (a physiological
    phenomenon, read as an outcome), so the question's intervention had been an optional outcome."""
    description = "We study gut microbiome changes in children with autism treated with probiotics."
    assert is_exposure("probiotics", description)
    assert is_exposure("ketamine", "Adults receiving ketamine for depression")
    assert is_exposure("vitamin D", "Pregnant women randomised to vitamin D or placebo")
    assert not is_exposure("children", description)
    result = concepts_of(
        vocabulary,
        description,
        subject_population=["children with autism"],
        output_target=["gut microbiome changes"],
        context=["probiotics"],
    )
    roles = {c.label: (c.role, c.required) for c in result.concepts}
    assert roles["probiotics"] == (ConceptRole.INTERVENTION, True)


def test_the_subject_of_an_association_is_an_exposure() -> None:
    # "whether living near fracking sites is associated with adverse birth outcomes": the sites had
    # been an optional setting, the query without its exposure
    description = "We examine whether living near fracking sites is associated with preterm birth."
    assert is_exposure("fracking sites", description)
    assert is_exposure("shift work", "Night shift work was strongly linked to obesity in nurses")
    assert not is_exposure("preterm birth", description)


def test_an_exposure_with_a_time_before_the_risk_it_raises_is_one() -> None:
    description = "Maternal smoking during pregnancy and the risk of sudden infant death syndrome"
    assert is_exposure("Maternal smoking", description)
    assert is_exposure("night shift work", "Night shift work in nurses and the risk of breast cancer")
    # the time or place is a few words, not a clause that could hold another concept
    assert not is_exposure(
        "smoking", "Smoking in people who later became ill with a long illness and the risk of X"
    )


def test_a_latin_name_in_a_chinese_description_is_its_own_original() -> None:
    """ "长期暴露于PM2.5与老年人认知功能下降的关系": PM2.5 needs no translation, so it has no Chinese
    original; it was read as an optional setting, the exposure of the question lost."""
    description = "我们研究长期暴露于PM2.5与老年人认知功能下降的关系"
    assert is_exposure("PM2.5", description)
    assert is_exposure("PM2.5", "长期暴露于PM2.5的老年人")  # after 暴露于
    assert not is_exposure("older adults", description, "老年人")


def test_a_compound_adjective_a_heading_opens_leaves_no_fragment(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Nurse-led telephone follow-up for patients with heart failure",
        subject_population=["patients with heart failure"],
        context=["Nurse-led telephone follow-up"],
    )
    words = [t.canonical for t in result.terms]
    assert not any(w.startswith("-") for w in words), words
    assert "Telephone" in {t.mesh.heading for t in result.terms if t.mesh}


def test_a_place_mesh_does_not_name_written_after_in_is_required(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Deprescribing interventions for older people with polypharmacy in care homes",
        subject_population=["older people with polypharmacy"],
        context=["Deprescribing interventions", "care homes"],
    )
    roles = {c.label: (c.role, c.required) for c in result.concepts}
    assert roles["care homes"] == (ConceptRole.SETTING, True)
    # a setting only mentioned in passing, not where the review is set, still narrows
    other = concepts_of(
        vocabulary,
        "Deprescribing for older people with polypharmacy and care homes staff",
        subject_population=["older people with polypharmacy"],
        context=["Deprescribing", "care homes"],
    )
    assert {c.label: c.required for c in other.concepts}.get("care homes") is not True


def test_a_word_cut_from_a_named_measure_is_no_concept(vocabulary: MeshVocabulary) -> None:
    # the understanding cut "length of hospital stay" into "length" and "hospital stay"
    result = concepts_of(
        vocabulary,
        "Early mobilisation after cardiac surgery: effects on length of hospital stay",
        output_target=["length"],
        context=["Early mobilisation", "cardiac surgery", "hospital stay"],
    )
    required = {c.label: c.required for c in result.concepts}
    assert required["length"] is False
    assert "Length of Stay" in {t.mesh.heading for t in result.terms if t.mesh}


def test_people_named_by_what_they_are_at_risk_of_only_narrow(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Antenatal corticosteroids for women at risk of preterm birth",
        subject_population=["women"],
        output_target=["preterm birth"],
        context=["Antenatal corticosteroids"],
    )
    required = {c.label: c.required for c in result.concepts}
    assert required["women"] is False
    assert required["preterm birth"] is True and required["corticosteroids"] is True
    # people named by the place they live in stay (women named only by their sex would not: MeSH
    # records the sex with check tags)
    other = concepts_of(
        vocabulary,
        "Antenatal corticosteroids for pregnant women in rural areas",
        subject_population=["pregnant women"],
        context=["Antenatal corticosteroids", "rural areas"],
    )
    assert {c.label: c.required for c in other.concepts}["pregnant women"] is True


def test_a_slot_prefers_descriptors_of_its_kind(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "neural networks for molecular property prediction",
        task=["molecular property prediction"],
        method_algorithm=["neural networks"],
    )
    headings = [t.mesh.heading for t in result.terms if t.mesh]
    assert headings == ["Neural Networks, Computer"]  # not the anatomy's Nerve Net


def test_a_kind_of_a_computing_method_is_searched_as_written(vocabulary: MeshVocabulary) -> None:
    # MeSH has one heading for every kind of network: "graph neural networks" is the concept, and
    # neither the heading nor "neural networks" alone (which would find all of them) is searched
    result = concepts_of(
        vocabulary,
        "graph neural networks for molecular property prediction",
        task=["molecular property prediction"],
        method_algorithm=["graph neural networks"],
    )
    network = next(t for t in result.terms if "networks" in t.canonical)
    assert (network.canonical, network.mesh) == ("graph neural networks", None)
    query = pubmed_query(result)
    assert '"graph neural network' in query and "Neural Networks, Computer" not in query
    # a clinical technique keeps its heading beside the kind the title names
    clinical = concepts_of(
        vocabulary, "Transient elastography for liver fibrosis", method_measurement=["Transient elastography"]
    )
    assert any(t.mesh and t.mesh.heading == "Elasticity Imaging Techniques" for t in clinical.terms)


def test_models_and_systems_are_the_head_of_what_they_name(vocabulary: MeshVocabulary) -> None:
    # "large language models" are models, not Language: a model or a system is the thing a phrase names
    # (the words before it say which), not a generic word to drop as "treatment" or "study" are
    result = concepts_of(
        vocabulary,
        "Large language models for automated code generation",
        task=["automated code generation"],
        method_algorithm=["Large language models"],
    )
    model = next(t for t in result.terms if "language" in t.canonical.lower())
    assert (model.canonical, model.mesh) == ("Large language models", None)
    query = pubmed_query(result)
    assert '"Large language model' in query and '"Language"[Mesh]' not in query


def test_the_algorithm_a_title_is_about_is_required(vocabulary: MeshVocabulary) -> None:
    # the "X" of "X for Y" is what is done: an algorithm there is the method the search needs, while an
    # algorithm named as the means of another task only narrows
    about = concepts_of(
        vocabulary,
        "Federated learning for intrusion detection in smart homes",
        task=["intrusion detection"],
        method_algorithm=["Federated learning"],
    )
    assert ("Federated learning", "method", True) in summary(about)
    means = concepts_of(
        vocabulary,
        "Predicting hospital readmission with random forests and gradient boosting",
        task=["hospital readmission prediction"],
        method_algorithm=["random forests", "gradient boosting"],
    )
    algorithms = [c for c in means.concepts if c.role.value == "algorithm"]
    assert algorithms and not any(c.required for c in algorithms)


def test_a_kind_of_a_thing_of_another_field_keeps_the_thing(vocabulary: MeshVocabulary) -> None:
    # "mindfulness-based stress reduction" is a kind of mindfulness; "bacteria-based self-healing
    # concrete" is a kind of concrete (a word no MeSH term holds) made with bacteria: both are searched
    result = concepts_of(
        vocabulary,
        "Bacteria-based self-healing concrete for crack repair",
        task=["crack repair"],
        subject_population=["Bacteria-based self-healing concrete"],
    )
    assert ("self-healing concrete", "population", True) in summary(result)
    assert ("Bacteria", "intervention", True) in summary(result)
    kept = concepts_of(
        vocabulary,
        "Mindfulness-based stress reduction for anxiety",
        output_target=["Mindfulness-based stress reduction"],
        context=["anxiety"],
    )
    assert [c.label for c in kept.concepts if "stress" in c.label.lower()] == []


def test_a_thing_built_on_a_word_of_another_field_is_two_concepts(vocabulary: MeshVocabulary) -> None:
    # "magnetorquer-based attitude control": outside medicine, a word MeSH writes nowhere before "-based"
    # is a technology of its own, AND'ed with the thing built on it (had been "Magnetorquer-based attitude")
    result = concepts_of(
        vocabulary,
        "Magnetorquer-based attitude control of CubeSats",
        task=["Magnetorquer-based attitude control"],
        subject_population=["CubeSats"],
    )
    query = pubmed_query(result)
    assert re.search(r"\(Magnetorquer\*?\[tiab\]\)", query) and '("attitude control"[tiab])' in query
    assert "Magnetorquer-based" not in query


def test_a_free_text_phrase_is_searched_by_its_core(vocabulary: MeshVocabulary) -> None:
    # papers write "traffic signal control" far more often than "adaptive traffic signal control": the
    # block ORs the core, so the phrase as written is found too
    result = concepts_of(
        vocabulary,
        "Reinforcement learning for adaptive traffic signal control",
        task=["adaptive traffic signal control"],
        method_algorithm=["Reinforcement learning"],
    )
    query = pubmed_query(result)
    assert '("traffic signal control"[tiab])' in query


def test_an_exposure_and_what_it_acts_on_listed_together_are_two_concepts(vocabulary: MeshVocabulary) -> None:
    # "X and Y" in two slots, one of them named by MeSH and nothing shared: not alternatives of one block
    # (they were OR'ed: "political polarization" OR "Social Media"[Mesh])
    result = concepts_of(
        vocabulary,
        "Social media use and political polarization",
        task=["political polarization"],
        context=["Social media use"],
    )
    query = pubmed_query(result)
    assert len(result.concepts) == 2
    assert query.startswith('("political polarization"[tiab]) AND ("Social Media"[Mesh]')


def test_a_noun_no_descriptor_holds_between_two_makes_one_compound(vocabulary: MeshVocabulary) -> None:
    # "crack" stands between Fatigue and Growth: the growth of fatigue cracks, which MeSH does not name,
    # is one concept searched as written (it was Fatigue AND Growth, and the bridges became optional)
    result = concepts_of(
        vocabulary,
        "Fatigue crack growth in welded steel bridges",
        output_target=["Fatigue crack growth"],
        subject_population=["welded steel bridges"],
    )
    assert not any(t.mesh for t in result.terms)
    assert ("Fatigue crack growth", True) in [(c.label, c.required) for c in result.concepts]
    assert all(c.required for c in result.concepts)
    # an adjective between two descriptors leaves them standing
    cancer = concepts_of(
        vocabulary, "breast ductal carcinoma screening", context=["breast ductal carcinoma screening"]
    )
    assert any(t.mesh for t in cancer.terms)


def test_what_an_action_is_done_with_is_an_intervention(vocabulary: MeshVocabulary) -> None:
    # "with" after an action noun names the means (it was OR'ed with Dengue as a second condition)
    result = concepts_of(
        vocabulary,
        "Dengue vector control with Wolbachia",
        subject_population=["Dengue vector control with Wolbachia"],
    )
    roles = {t.canonical: c.role for c in result.concepts for t in result.terms if t.concept == c.id}
    assert roles["Wolbachia"] is ConceptRole.INTERVENTION
    assert roles["Dengue"] is ConceptRole.CONDITION
    query = pubmed_query(result)
    assert ") AND (" in query and "Dengue" not in query.split(") AND (")[1]
    # after people, "with" still names their condition
    people = concepts_of(vocabulary, "children with asthma", subject_population=["children with asthma"])
    assert any(c.role is ConceptRole.CONDITION for c in people.concepts)


def test_roles_follow_what_the_description_says(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Peer support programmes for employment in people with severe mental illness",
        context=["Peer support programmes"],
        output_target=["employment"],
        subject_population=["people with severe mental illness"],
    )
    roles = {c.label: (c.role, c.required) for c in result.concepts}
    assert roles["Peer support"] == (
        ConceptRole.INTERVENTION,
        True,
    )  # headed by an intervention noun
    assert roles["employment"][0] is ConceptRole.OUTCOME  # MeSH files it as a setting; the slot says outcome
    illness = next(t for t in result.terms if t.mesh and t.mesh.heading == "Mental Disorders")
    assert illness.synonyms[0].text == "severe mental illness"  # the heading's own last word is kept


def test_a_disease_before_a_task_word_is_a_concept_of_its_own(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(vocabulary, "brain tumours segmentation", task=["brain tumours segmentation"])
    assert [(c.label, c.role) for c in result.concepts] == [
        ("brain tumours", ConceptRole.CONDITION),
        ("brain", ConceptRole.ANATOMY),  # the site of the tumours, searched apart too (site_and_lesion)
        ("segmentation", ConceptRole.METHOD),
    ]
    # a head that is no disease keeps the phrase whole
    speech = concepts_of(vocabulary, "speech decoding", task=["speech decoding"])
    assert [c.label for c in speech.concepts] == ["speech decoding"]


def test_disciplines_counts_and_intervention_heads(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Exercise training for hip fracture surgery in children under five",
        task=["Exercise training"],
        output_target=["hip fracture surgery"],
        subject_population=["children under five"],
    )
    by_label = {c.label: c for c in result.concepts}
    assert by_label["Exercise training"].role is ConceptRole.INTERVENTION
    assert "General Surgery" not in [
        t.mesh.heading for t in result.terms if t.mesh
    ]  # surgery is no discipline here
    assert "five" not in by_label


def test_chinese_relations_and_lists(vocabulary: MeshVocabulary) -> None:
    description = "睡眠时长与青少年抑郁的关系，以及空气污染对哮喘、湿疹或鼻炎的影响"
    originals = {
        "sleep duration": "睡眠时长",
        "depression": "抑郁",
        "asthma": "哮喘",
        "eczema": "湿疹",
        "rhinitis": "鼻炎",
    }
    series = listed_together(description, list(originals), originals)
    assert series["sleep duration"] != series["depression"]  # 与 relates two concepts
    assert series["asthma"] == series["eczema"] == series["rhinitis"]  # 、 and 或 list alternatives
    assert is_exposure("air pollution", description, "空气污染")


def test_chinese_verbs_of_effect_and_phrases_written_side_by_side(vocabulary: MeshVocabulary) -> None:
    assert is_exposure("acupuncture", "评估针灸治疗慢性腰痛的疗效", "针灸")
    assert not is_exposure("low back pain", "评估针灸治疗慢性腰痛的疗效", "慢性腰痛")
    # two phrases with nothing between them are no list: the dysfunction *of* the patients
    description = "探讨肠道菌群与2型糖尿病患者认知功能障碍之间的关系"
    originals = {
        "gut microbiota": "肠道菌群",
        "type 2 diabetes patients": "2型糖尿病患者",
        "cognitive dysfunction": "认知功能障碍",
    }
    series = listed_together(description, list(originals), originals)
    assert series["type 2 diabetes patients"] != series["cognitive dysfunction"]
    result = build_concepts(
        Understanding(
            description=description,
            slots=Slots(
                subject_population=["gut microbiota", "type 2 diabetes patients"],
                output_target=["cognitive dysfunction"],
            ),
            originals=originals,
        ),
        vocabulary,
    )
    # the exposure of "X与Y的关系" is required in any slot; two unrelated conditions are two blocks
    assert summary(result) == [
        ("gut microbiota", "intervention", True),
        ("type 2 diabetes", "condition", True),
        ("cognitive dysfunction", "condition", True),
    ]


def test_two_conditions_in_one_phrase_are_one_only_when_one_is_a_kind_of_the_other(
    vocabulary: MeshVocabulary,
) -> None:
    def blocks(phrase: str) -> int:
        # the sites a condition's block gets beside it (site_and_lesion) are not counted here
        concepts = concepts_of(vocabulary, phrase, subject_population=[phrase]).concepts
        return sum(c.role is not ConceptRole.ANATOMY for c in concepts)

    assert blocks("Alzheimer's disease dementia") == 1
    assert blocks("lung cancer brain metastases") == 2  # both C04 neoplasms, neither a kind of the other
    # a symptom MeSH also files under perception and physiology is a condition too (Pain: C23, F02, G11)
    assert blocks("knee osteoarthritis pain") == 2


def test_a_context_phrase_headed_by_a_disease_noun_is_a_condition(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Bone scans for clinically suspected scaphoid fractures",
        method_measurement=["bone scans"],
        context=["clinically suspected scaphoid fractures"],
    )
    fracture = next(c for c in result.concepts if "scaphoid" in c.label)
    assert (fracture.label, fracture.role.value, fracture.required) == (
        "scaphoid fractures",
        "condition",
        True,
    )


@pytest.mark.parametrize(
    ("phrase", "searched"),
    [
        ("Galactomannan detection", "Galactomannan"),  # the thing a test measures is what is searched
        ("fluid intake", "fluid intake"),  # how a thing acts stays with it
        ("resistance detection", "resistance detection"),  # an abstract noun alone names nothing
        ("rapid tests", "rapid tests"),  # nor does a word MeSH only writes before a head
        ("newly diagnosed pancreatitis", "pancreatitis"),  # an adverb goes with the generic word it qualifies
        ("Imaging modalities", "Imaging"),  # a word MeSH ends terms of one role with names a thing
    ],
)
def test_generic_heads_go_only_when_what_is_left_names_a_thing(
    vocabulary: MeshVocabulary, phrase: str, searched: str
) -> None:
    result = concepts_of(vocabulary, f"{phrase} in adults", context=[phrase])
    assert searched in [t.canonical for t in result.terms]


def test_with_inside_a_heading_does_not_cut_the_phrase(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary, "Imaging of dementia with Lewy bodies", context=["dementia with Lewy bodies"]
    )
    assert [t.mesh.heading for t in result.terms if t.mesh] == ["Lewy Body Disease"]
    # "with" still separates people from their condition
    result = concepts_of(
        vocabulary, "Older adults with dementia", subject_population=["older adults with dementia"]
    )
    assert "Dementia" in [t.mesh.heading for t in result.terms if t.mesh]


def test_a_phrase_that_names_itself_an_exposure_is_one(vocabulary: MeshVocabulary) -> None:
    description = "We study how air pollution exposure during pregnancy affects birth weight"
    assert is_exposure("air pollution exposure", description)
    assert not is_exposure("exposure", description)  # one generic word names nothing
    result = concepts_of(
        vocabulary,
        description,
        subject_population=["pregnancy"],
        output_target=["birth weight"],
        context=["air pollution exposure"],
    )
    air = next(c for c in result.concepts if c.label == "air pollution")
    assert (air.role.value, air.required) == ("intervention", True)


@pytest.mark.parametrize(
    ("phrase", "searched"),
    [("care homes", "care homes"), ("potential biomarkers", "biomarkers")],
)
def test_a_generic_noun_before_its_head_is_a_compound(
    vocabulary: MeshVocabulary, phrase: str, searched: str
) -> None:
    result = concepts_of(vocabulary, f"Residents of {phrase}", context=[phrase])
    assert [t.canonical for t in result.terms] == [searched]


def test_descriptors_of_different_trees_in_one_phrase_are_different_concepts(
    vocabulary: MeshVocabulary,
) -> None:
    description = "Effectiveness of sugar-sweetened beverage taxes on obesity"
    result = concepts_of(
        vocabulary, description, output_target=["obesity"], context=["sugar-sweetened beverage taxes"]
    )
    assert summary(result) == [
        ("obesity", "condition", True),
        ("sugar-sweetened beverage", "intervention", True),  # "effectiveness of X": X is what acts
        ("taxes", "intervention", True),
    ]
    # one thing named twice by descriptors of one tree stays one block
    result = concepts_of(
        vocabulary, "Alzheimer's disease dementia", output_target=["Alzheimer's disease dementia"]
    )
    assert len(result.concepts) == 1


def test_a_comparator_named_by_a_generic_head_is_optional(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Bariatric surgery versus intensive medical therapy in type 2 diabetes",
        method_measurement=["Bariatric surgery versus intensive medical therapy"],
        subject_population=["type 2 diabetes"],
    )
    comparator = next(c for c in result.concepts if c.label == "intensive medical therapy")
    assert not comparator.required and "comparator" in comparator.reason
    # a comparator that names a thing stays required (both are in every head-to-head trial)
    assert all(
        c.required
        for c in concepts_of(
            vocabulary, "Metformin versus insulin", context=["Metformin versus insulin"]
        ).concepts
    )


def test_a_comparator_named_by_its_setting_and_a_generic_head_is_optional(vocabulary: MeshVocabulary) -> None:
    # "inpatient hospital care": MeSH names who (Inpatients) and where (Hospitals), the care itself no
    # term: the usual care of a setting, not a concept of its own
    result = concepts_of(
        vocabulary,
        "Hospital at home versus inpatient hospital care for chronic obstructive pulmonary disease",
        context=["Hospital at home versus inpatient hospital care"],
        subject_population=["chronic obstructive pulmonary disease"],
    )
    settings = [c for c in result.concepts if c.label in {"inpatient", "hospital"}]
    assert settings and all(not c.required and "comparator" in c.reason for c in settings)
    assert any(c.required and c.label == "Hospital at home" for c in result.concepts)


def test_what_a_question_says_acts_on_an_outcome_is_a_required_intervention(
    vocabulary: MeshVocabulary,
) -> None:
    # "does X improve Y", "whether X lowers Y": any verb of effect, in any form, makes X the exposure
    for verb in ("improve", "improves", "lowers", "prevent", "reduced"):
        assert is_exposure("intermittent fasting", f"Does intermittent fasting {verb} insulin sensitivity?")
    assert not is_exposure("insulin sensitivity", "Does intermittent fasting improve insulin sensitivity?")
    result = concepts_of(
        vocabulary,
        "Does intermittent fasting improve insulin sensitivity in adults with prediabetes?",
        subject_population=["adults with prediabetes"],
        output_target=["insulin sensitivity"],
        context=["intermittent fasting"],
    )
    roles = {c.label: (c.role, c.required) for c in result.concepts}
    assert roles["intermittent fasting"] == (ConceptRole.INTERVENTION, True)


def test_what_studies_are_compared_with_is_an_optional_comparator(vocabulary: MeshVocabulary) -> None:
    assert is_comparator("health education", "Does yoga lower blood pressure compared with health education?")
    assert is_comparator("placebo", "Is drug A better than placebo?")
    assert not is_comparator("yoga", "Does yoga lower blood pressure compared with health education?")
    # the question's own intervention as a pronoun between the verb and its "with"
    sdf = "Our group works on silver diamine fluoride. We would like to compare it with fluoride varnish."
    assert is_comparator("fluoride varnish", sdf) and not is_comparator("silver diamine fluoride", sdf)
    # a PICO field labelled as the comparison, at the start of a sentence or clause
    pico = "Population: adults with type 2 diabetes. Intervention: SGLT2 inhibitors. Comparison: DPP-4 inhibitors."
    assert is_comparator("DPP-4 inhibitors", pico) and not is_comparator("SGLT2 inhibitors", pico)
    assert is_comparator("usual care", "P: children with asthma; I: school-based education; C: usual care")
    assert not is_comparator("dose", "Vitamin C: dose and response")
    # the equative "as accurately as X" compares like "than X"; "as well as" joins two concepts
    assert is_comparator(
        "expert pathologists", "Can deep learning grade biopsies as accurately as expert pathologists?"
    )
    assert not is_comparator("dressings", "Foam as well as dressings for pressure ulcers")
    # after a verb of working, "as well as" is the equative: what it works as well as is compared with
    assert is_comparator(
        "face-to-face therapy", "Does internet-delivered CBT work as well as face-to-face therapy for adults?"
    )
    # a bracket glossing the comparator names the comparator too
    imaging = (
        "How accurate is PSMA PET/CT compared with conventional imaging (CT plus bone scan) for staging?"
    )
    assert is_comparator("CT", imaging) and is_comparator("bone scan", imaging)
    assert not is_comparator("PSMA PET/CT", imaging)
    # written in another slot than the intervention, or inside the intervention's own phrase
    description = (
        "Does mindfulness training lower blood pressure in hypertension compared with health education?"
    )
    for context in (
        ["mindfulness training", "health education"],
        ["mindfulness training compared with health education"],
    ):
        result = concepts_of(vocabulary, description, subject_population=["hypertension"], context=context)
        roles = {c.label: c.required for c in result.concepts}
        comparator = next(c for c in result.concepts if c.label == "health education")
        assert not comparator.required and "comparator" in comparator.reason
        # the training is searched by what it trains (`_done_with`): Mindfulness
        assert roles["mindfulness"] and roles["hypertension"]


def test_usual_care_named_on_one_side_of_versus_is_an_optional_comparator(vocabulary: MeshVocabulary) -> None:
    # "versus conventional rehabilitation", "versus usual physiotherapy": the trial's control arm, whatever
    # MeSH names its noun; a searcher searches the question's own intervention
    assert is_usual_care("usual physiotherapy") and is_usual_care("conventional incubator care")
    assert not is_usual_care("general anaesthesia") and not is_usual_care("circuit class training")
    description = "Task-oriented circuit class training versus usual physiotherapy for walking after stroke"
    result = concepts_of(
        vocabulary,
        description,
        subject_population=["stroke"],
        context=["Task-oriented circuit class training versus usual physiotherapy"],
    )
    comparator = next(c for c in result.concepts if c.label.endswith("physiotherapy"))
    assert not comparator.required and "comparator" in comparator.reason
    assert "Physical Therapy Modalities" not in pubmed_query(result)
    assert "circuit class training" in pubmed_query(result)
    # two kinds of the same care compared: both are the question's
    result = concepts_of(
        vocabulary,
        "Regional versus general anaesthesia for hip fracture surgery",
        context=["Regional versus general anaesthesia"],
        subject_population=["hip fracture surgery"],
    )
    query = pubmed_query(result)
    assert "Anesthesia, Conduction" in query and "Anesthesia, General" in query


def test_no_treatment_on_one_side_of_versus_is_an_optional_comparator(vocabulary: MeshVocabulary) -> None:
    # "versus watchful waiting", "versus sham or conventional therapy", "versus X or no treatment": the
    # control arms of a trial, left out whatever MeSH names them (Watchful Waiting is a heading)
    assert is_usual_care("watchful waiting") and is_usual_care("placebo") and is_usual_care("sham tDCS")
    assert is_usual_care("sham or conventional therapy") and is_usual_care("fluoride varnish or no treatment")
    assert not is_usual_care("fluoride varnish or atraumatic restorative treatment")
    assert not is_usual_care("nicotine replacement therapy") and not is_usual_care("non-opioid analgesia")
    description = "Tympanostomy tubes versus watchful waiting for otitis media with effusion in children"
    result = concepts_of(
        vocabulary,
        description,
        subject_population=["otitis media with effusion"],
        context=["Tympanostomy tubes versus watchful waiting"],
    )
    comparator = next(c for c in result.concepts if "waiting" in c.label.lower())
    assert not comparator.required and "comparator" in comparator.reason
    assert "Watchful Waiting" not in pubmed_query(result)
    # the understanding cuts "fluoride varnish or no treatment" at its "or": the arm as written tells
    description = (
        "Resin infiltration versus fluoride varnish or no treatment for proximal caries in adolescents"
    )
    assert in_a_control_arm("fluoride varnish", description)
    assert not in_a_control_arm("fluoride varnish", "Sealants versus fluoride varnish or ART for caries")
    result = concepts_of(
        vocabulary,
        description,
        subject_population=["adolescents"],
        context=["Resin infiltration versus fluoride varnish", "proximal caries"],
    )
    assert "Fluorides, Topical" not in pubmed_query(result)


def test_who_leads_an_intervention_is_a_concept_mesh_names(vocabulary: MeshVocabulary) -> None:
    # "pharmacist-led": the participle says who delivers the interventions; a generic head adds nothing
    result = concepts_of(
        vocabulary,
        "Community pharmacist-led interventions for hypertension",
        context=["Community pharmacist-led interventions"],
        subject_population=["hypertension"],
    )
    query = pubmed_query(result)
    assert '"Pharmacists"[Mesh]' in query and "pharmacist-led" not in query
    # what they deliver, when it is more than a generic head, stays a concept of its own
    result = concepts_of(
        vocabulary, "Nurse-led telemonitoring for heart failure", context=["Nurse-led telemonitoring"]
    )
    assert '"Nurses"[Mesh]' in pubmed_query(result) and "telemonitoring" in pubmed_query(result)
    # also when MeSH names what they deliver, and whatever the slot the phrase came in expects: the
    # person before "-led" is who delivers it ("nurse-led smoking cessation counselling")
    result = concepts_of(
        vocabulary,
        "Nurse-led smoking cessation counselling for hospitalised adults",
        output_target=["Nurse-led smoking cessation counselling"],
    )
    query = pubmed_query(result)
    assert '"Nurses"[Mesh]' in query and '"Smoking Cessation"[Mesh]' in query


def test_a_place_or_organisation_in_the_population_is_an_optional_setting(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "How do remote work policies affect employee productivity in technology firms?",
        subject_population=["employees", "technology firms"],
        output_target=["employee productivity"],
        context=["remote work policies"],
    )
    roles = {c.label: (c.role, c.required) for c in result.concepts}
    assert roles["technology firms"] == (ConceptRole.SETTING, False)
    # the policies are searched by what they rule (`_done_with`): Teleworking, the phrase beside it
    assert roles["remote work"] == (ConceptRole.INTERVENTION, True)


def test_a_slash_between_capitals_joins_one_name(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary, "Xpert MTB/RIF assay or ECoG/sEEG", method_measurement=["Xpert MTB/RIF assay"]
    )
    assert [t.canonical for t in result.terms] == ["Xpert MTB/RIF"]
    result = concepts_of(vocabulary, "diabetes/obesity", context=["diabetes/obesity"])
    assert len(result.terms) == 2


def test_a_synonym_modified_by_a_word_mesh_never_uses_is_no_heading(vocabulary: MeshVocabulary) -> None:
    assert vocabulary.knows_word("films") and not vocabulary.knows_word("perovskite")
    result = concepts_of(
        vocabulary,
        "Stability of perovskite films and perovskite solar cells under humidity",
        subject_population=["perovskite films", "perovskite solar cells"],
        output_target=["humidity"],
    )
    assert [t.mesh.heading for t in result.terms if t.mesh] == ["Humidity"]  # never Motion Pictures
    # free-text concepts of one role that share a word are one block, not two AND'ed ones
    perovskite = [c for c in result.concepts if "perovskite" in c.label]
    assert len(perovskite) == 1


def test_a_word_opening_one_phrase_and_modifying_another_s_head_joins_no_blocks(
    vocabulary: MeshVocabulary,
) -> None:
    """ "heat transfer enhancement" and "microchannel heat sinks" share "heat" in two compounds: what is
    improved and the device are two blocks, not one OR block."""
    result = concepts_of(
        vocabulary,
        "Nanofluids for heat transfer enhancement in microchannel heat sinks",
        context=["Nanofluids", "heat transfer enhancement", "microchannel heat sinks"],
    )
    concept_of = {t.canonical: t.concept for t in result.terms}
    assert concept_of["microchannel heat sinks"] != concept_of["heat transfer enhancement"]
    # a word that heads one of the phrases still joins them ("noise control" is the active kind's head)
    noise = concepts_of(
        vocabulary,
        "Noise control and active noise control in headphones",
        context=["Noise control", "active noise control"],
    )
    assert len({t.concept for t in noise.terms if "noise" in t.canonical.lower()}) == 1


def test_everyday_words_filed_under_the_humanities_are_no_heading(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(vocabulary, "Educational films for nurses", context=["films"])
    assert all(t.mesh is None for t in result.terms)


def test_a_word_of_a_longer_phrase_in_another_sense_is_no_heading(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Reinforcement learning for robotic grasping",
        task=["robotic grasping"],
        method_algorithm=["Reinforcement learning"],
    )
    assert all(t.mesh is None for t in result.terms)  # neither Reinforcement, Psychology nor Learning
    assert "Reinforcement learning" in [t.canonical for t in result.terms]
    # a disease or a substance inside a method phrase keeps its heading
    result = concepts_of(vocabulary, "18F-FDG PET imaging", method_measurement=["18F-FDG PET imaging"])
    assert "Fluorodeoxyglucose F18" in [t.mesh.heading for t in result.terms if t.mesh]


def test_anti_names_what_acts_against_and_name_parts_are_no_concepts(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Anti-VEGF injections versus laser photocoagulation",
        context=["Anti-VEGF injections versus laser photocoagulation"],
    )
    headings = [t.mesh.heading for t in result.terms if t.mesh]
    assert "Vascular Endothelial Growth Factor A" not in headings  # anti-VEGF is no VEGF
    assert "Light Coagulation" in headings and "Lasers" not in headings  # laser only names the kind
    # substances joined in one name stay equals
    result = concepts_of(vocabulary, "methenamine hippurate", context=["methenamine hippurate"])
    assert {t.mesh.heading for t in result.terms if t.mesh} == {"Methenamine", "Hippurates"}


def test_a_synonym_of_a_discipline_is_its_procedures(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(vocabulary, "Outcomes after cardiac surgery", context=["cardiac surgery"])
    # not Thoracic Surgery, the discipline: the operations MeSH names for it
    assert {t.mesh.heading for t in result.terms if t.mesh} == {"Cardiac Surgical Procedures"}


def test_the_instrument_an_outcome_is_measured_with_is_optional(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Music therapy for anxiety, measured with STAI scores",
        method_measurement=["STAI scores"],
        output_target=["anxiety"],
        context=["music therapy"],
    )
    stai = next(c for c in result.concepts if c.label == "STAI scores")
    assert not stai.required and "instrument" in stai.reason


def test_the_condition_of_the_people_tested_is_optional_in_a_diagnostic_question(
    vocabulary: MeshVocabulary,
) -> None:
    result = concepts_of(
        vocabulary,
        "Ultrasound for the diagnosis of appendicitis in people with abdominal pain",
        task=["appendicitis diagnosis"],
        method_measurement=["Ultrasound"],
        subject_population=["people with abdominal pain"],
    )
    required = {c.label: c.required for c in result.concepts}
    assert required["appendicitis"] and required["Ultrasound"]
    assert required["abdominal pain"] is False


def test_the_disease_a_target_process_happens_in_stays_required(vocabulary: MeshVocabulary) -> None:
    """Metastases are that cancer's: the cancer of the people tested is no mere setting here."""
    result = concepts_of(
        vocabulary,
        "PET-CT for detecting mediastinal lymph node metastases in patients with non-small cell lung cancer",
        task=["mediastinal lymph node metastasis detection"],
        method_measurement=["PET-CT"],
        subject_population=["patients with non-small cell lung cancer"],
    )
    assert {c.label: c.required for c in result.concepts}["non-small cell lung cancer"]


def test_the_condition_of_the_people_treated_stays_required(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Antidepressants for the treatment of depression in people with dementia",
        task=["depression treatment"],
        context=["Antidepressants"],
        subject_population=["people with dementia"],
    )
    assert {c.label: c.required for c in result.concepts}["dementia"]


def test_a_word_of_two_senses_takes_the_sense_of_the_other_concepts(vocabulary: MeshVocabulary) -> None:
    # "squash" alone is a racquet sport or a plant; beside watermelon it is the plant
    result = concepts_of(
        vocabulary,
        "Squash and watermelon allergy",
        context=["squash"],
        task=["watermelon"],
    )
    assert "Cucurbita" in [t.mesh.heading for t in result.terms if t.mesh]


def test_an_infection_is_searched_with_the_organism_it_is_named_after(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Galactomannan detection for invasive aspergillosis",
        task=["invasive aspergillosis"],
        method_measurement=["Galactomannan detection"],
    )
    (aspergillosis,) = [t for t in result.terms if t.mesh and t.mesh.heading == "Aspergillosis"]
    organisms = [t for t in result.terms if t.mesh and t.mesh.heading == "Aspergillus"]
    assert [t.concept for t in organisms] == [aspergillosis.concept]


def test_the_organism_joins_its_infection_only_where_the_question_is_how_it_is_found(
    vocabulary: MeshVocabulary,
) -> None:
    """A test or an assay detects the pathogen, and its papers are indexed with the organism; a paper
    on preventing or treating the infection is indexed with the disease only."""
    preventing = concepts_of(
        vocabulary,
        "Insecticide-treated bed nets for preventing malaria in children",
        context=["Insecticide-treated bed nets"],
        output_target=["malaria"],
    )
    headings = [t.mesh.heading for t in preventing.terms if t.mesh]
    assert "Malaria" in headings and "Plasmodium" not in headings
    testing = concepts_of(
        vocabulary,
        "Rapid diagnostic tests for malaria in febrile patients",
        context=["Rapid diagnostic tests"],
        output_target=["malaria"],
    )
    assert "Plasmodium" in [t.mesh.heading for t in testing.terms if t.mesh]
    assay = concepts_of(
        vocabulary,
        "Xpert MTB/RIF assay for pulmonary tuberculosis",
        context=["Xpert MTB/RIF assay"],
        output_target=["pulmonary tuberculosis"],
    )
    assert "Mycobacterium tuberculosis" in [t.mesh.heading for t in assay.terms if t.mesh]


def test_what_is_written_before_for_is_what_is_done_or_tested(vocabulary: MeshVocabulary) -> None:
    # the "X" of a title "X for Y" is required whichever slot holds it: a test in a diagnostic question
    diagnostic = concepts_of(
        vocabulary,
        "Red flags to screen for vertebral fracture in older people",
        context=["Red flags"],
        output_target=["vertebral fracture"],
    )
    flags = next(c for c in diagnostic.concepts if c.label == "Red flags")
    assert (flags.role.value, flags.required) == ("method", True)
    # what is done, in a question of treatment ("exercise" alone would be an optional outcome)
    treatment = concepts_of(
        vocabulary,
        "Exercise for depression",
        task=["depression"],
        context=["Exercise"],
    )
    assert {c.label: (c.role.value, c.required) for c in treatment.concepts}["Exercise"] == (
        "intervention",
        True,
    )
    # written after "for", the same phrase keeps its weak role and only narrows
    after = concepts_of(
        vocabulary,
        "Melatonin for insomnia in adults who exercise",
        task=["insomnia"],
        context=["Melatonin", "exercise"],
    )
    assert {c.label: c.required for c in after.concepts}["exercise"] is False


def test_the_first_for_of_each_sentence_separates_x_from_y() -> None:
    from agent.keywords.title_template import named_as_the_purpose, named_before_for

    title = "Magnetic resonance imaging for rotator cuff tears in people for whom surgery is considered"
    assert named_before_for("Magnetic resonance imaging", title)
    assert not named_before_for("rotator cuff tears", title)
    assert named_as_the_purpose("rotator cuff tears", title)
    assert not named_as_the_purpose("surgery", title)  # "for whom" starts no purpose; "in" ends the Y
    assert not named_before_for("cuff", "rotator cuff tears")  # no "for": no template
    # each sentence has its own "X for Y", and a title ends at its colon
    assert named_before_for("yoga", "We study anxiety. Yoga for stress at work.")
    assert not named_before_for("anxiety", "We study anxiety. Yoga for stress at work.")
    assert not named_as_the_purpose("fatigue", "Yoga for stress: effects on fatigue")
    # a sentence with a clause is no title: what comes before its "for" is not what is done
    assert not named_before_for("stone passage", "Does tamsulosin improve stone passage for ureteral stones?")
    assert not named_before_for("NICU", "Our NICU is considering surfactant for preterm infants")
    assert not named_before_for("intervention", "Time to passage and need for intervention are endpoints")
    # a request to the assistant is an imperative, not a clause: its object may be written as a title
    request = "Can you find papers about mindfulness apps for anxiety in university students?"
    assert named_before_for("mindfulness apps", request)
    assert named_as_the_purpose("anxiety", request)
    assert named_before_for("exercise", "Could you please look at exercise for depression?")
    assert not named_before_for("exercise", "Can exercise help depression for older adults?")
    # nor is what the X does without, or what it says of a thing ("usability of"); "for" a time is no purpose
    assert not named_before_for("forgetting", "Continual learning without forgetting for speech recognition")
    assert not named_before_for("usability", "usability of eye trackers for text entry")
    assert named_before_for("eye trackers", "usability of eye trackers for text entry")
    assert not named_before_for("Chicago", "crime incidents from Chicago for 2015-2022")


def test_an_outcome_the_question_is_for_is_required(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Red flags to screen for malignancy in patients with low-back pain",
        subject_population=["patients with low-back pain"],
        output_target=["malignancy"],
        context=["Red flags"],
    )
    required = {c.label: (c.required, c.reason) for c in result.concepts}
    assert required["malignancy"] == (True, "an outcome the question is about: it defines the topic")
    assert required["low-back pain"][0] and required["Red flags"][0]


def test_a_population_headed_by_a_disease_noun_is_a_condition(vocabulary: MeshVocabulary) -> None:
    # "pancreatic and periampullary cancer": both are the condition, one block, not a condition and an
    # optional population
    result = concepts_of(
        vocabulary,
        "Laparoscopy for staging pancreatic and periampullary cancer",
        method_measurement=["Laparoscopy"],
        subject_population=["pancreatic cancer", "periampullary cancer"],
    )
    cancer = next(c for c in result.concepts if "periampullary cancer" in c.label)
    assert (cancer.role.value, cancer.required) == ("condition", True)
    assert "pancreatic cancer" in cancer.label


def test_the_words_of_a_rewritten_phrase_tell_whether_it_is_written_apart(vocabulary: MeshVocabulary) -> None:
    # the understanding wrote "gait speed decline diagnosis" for "the diagnosis of gait speed decline":
    # the part "gait speed decline" is written apart from "Wearable sensor assessment", so they are two
    # concepts, not one block of alternatives
    result = concepts_of(
        None,
        "Wearable sensor assessment for the diagnosis of gait speed decline in older people",
        task=["Wearable sensor assessment", "gait speed decline diagnosis"],
    )
    assert [c.label for c in result.concepts] == ["Wearable sensor", "gait speed decline"]


def test_a_specimen_before_an_unknown_acronym_is_apart_from_it(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Blood CEA levels for detecting recurrent colorectal cancer",
        task=["recurrent colorectal cancer detection"],
        context=["Blood CEA levels"],
    )
    concepts = {c.label: (c.role.value, c.required) for c in result.concepts}
    assert concepts["CEA"] == ("method", True)
    assert concepts["Blood"] == ("anatomy", False)


def test_the_outcome_an_exposure_acts_on_defines_the_topic(vocabulary: MeshVocabulary) -> None:
    slots = {
        "context": ["yoga"],
        "output_target": ["sleep quality"],
        "subject_population": ["people with type 2 diabetes"],
    }
    acted_on = concepts_of(
        vocabulary, "The effect of yoga on sleep quality in people with type 2 diabetes", **slots
    )
    assert {c.label: c.required for c in acted_on.concepts}["sleep quality"]
    # named beside the question without a relation, the outcome only narrows
    beside = concepts_of(vocabulary, "Yoga and sleep quality in people with type 2 diabetes", **slots)
    assert {c.label: c.required for c in beside.concepts}["sleep quality"] is False


@pytest.mark.parametrize(
    ("phrase", "description", "acted_on"),
    [
        ("sleep quality", "the association between screen time and sleep quality", True),
        ("asthma", "PM2.5 exposure and the risk of asthma in children", True),
        ("blood pressure", "does salt reduction lower blood pressure", True),
        ("children", "PM2.5 exposure and the risk of asthma in children", False),
        ("睡眠质量", "瑜伽对睡眠质量的影响", True),
        ("睡眠质量", "瑜伽对老年人睡眠质量的影响", True),
        ("睡眠质量", "瑜伽能否改善老年人的睡眠质量", True),
    ],
)
def test_what_an_exposure_acts_on(phrase: str, description: str, acted_on: bool) -> None:
    from agent.keywords.concept_roles import is_acted_on

    if phrase.isascii():
        assert is_acted_on(phrase, description) is acted_on
    else:
        assert is_acted_on("sleep quality", description, original=phrase) is acted_on


def test_a_relative_clause_is_not_the_purpose() -> None:
    from agent.keywords.title_template import named_as_the_purpose

    title = "Physical tests for shoulder impingements and lesions that may accompany impingement"
    assert named_as_the_purpose("lesions", title)
    assert not named_as_the_purpose("accompany", title)


@pytest.mark.parametrize(
    ("description", "slots", "wrong"),
    [
        # "water-loss" is a kind of loss: no Water concept beside Dehydration
        (
            "Signs for identification of water-loss dehydration in older people",
            {"task": ["identification of water-loss dehydration"], "subject_population": ["older people"]},
            "Water",
        ),
        # "involvement" ends only Community and Patient Involvement's terms: part of their names
        (
            "PET-CT for assessing mediastinal lymph node involvement in lung cancer",
            {"method_measurement": ["PET-CT"], "context": ["mediastinal lymph node involvement"]},
            "Community Participation",
        ),
        # "second-line" is no Cell Line
        (
            "Assay for the detection of resistance to second-line anti-tuberculosis drugs",
            {"task": ["resistance detection"], "context": ["second-line anti-tuberculosis drugs"]},
            "Cell Line",
        ),
    ],
)
def test_a_part_of_a_compound_or_of_a_name_is_no_concept(
    vocabulary: MeshVocabulary, description: str, slots: dict[str, list[str]], wrong: str
) -> None:
    result = concepts_of(vocabulary, description, **slots)
    assert wrong not in [t.mesh.heading for t in result.terms if t.mesh]


def test_what_the_people_have_is_a_condition_whatever_its_tree(vocabulary: MeshVocabulary) -> None:
    """Depression is filed under behaviour (an outcome when measured), but in "adults with depression"
    it is what the people studied have: a condition, required beside the one treated."""
    result = concepts_of(
        vocabulary,
        "Cognitive behavioural therapy for insomnia in adults with depression",
        subject_population=["adults with depression"],
        context=["Cognitive behavioural therapy", "insomnia"],
    )
    assert ("depression", "condition", True) in summary(result)
    assert ("insomnia", "condition", True) in summary(result)
    # measured, it stays an outcome
    measured = concepts_of(
        vocabulary,
        "Yoga for depression in older adults",
        subject_population=["older adults"],
        context=["Yoga"],
        output_target=["depression"],
    )
    assert ("depression", "outcome") in [(label, role) for label, role, _ in summary(measured)]


def test_a_microbe_and_the_animals_it_is_found_in_are_both_required(vocabulary: MeshVocabulary) -> None:
    # the microbe says what is found, the host who is studied; with no disease the outcome names the topic
    result = concepts_of(
        vocabulary,
        "Antimicrobial resistance in Salmonella from poultry",
        subject_population=["Salmonella", "poultry"],
        output_target=["Antimicrobial resistance"],
    )
    assert summary(result) == [
        ("Salmonella", "condition", True),
        ("poultry", "population", True),
        ("Antimicrobial resistance", "outcome", True),
    ]
    assert "no condition does" in result.concepts[2].reason
    # people are no host of this kind: the condition still defines who is studied
    people = concepts_of(
        vocabulary,
        "Urea breath test for Helicobacter pylori in immunocompromised people",
        subject_population=["immunocompromised people", "Helicobacter pylori"],
        method_measurement=["Urea breath test"],
    )
    assert ("immunocompromised people", "population", False) in summary(people)


def test_a_participle_after_a_noun_starts_a_concept_of_its_own(vocabulary: MeshVocabulary) -> None:
    # "How does X compare with Y": Y is the comparator; "X delivered online": X is the intervention
    result = concepts_of(
        vocabulary,
        "How does cognitive behavioural therapy delivered online compare with face-to-face therapy "
        "for adolescents with social anxiety disorder?",
        subject_population=["adolescents with social anxiety disorder"],
        context=["cognitive behavioural therapy delivered online", "face-to-face therapy"],
    )
    roles = {label: (role, required) for label, role, required in summary(result)}
    assert roles["cognitive behavioural therapy"] == ("intervention", True)
    assert roles["online"][1] is False  # how it is delivered: shown, not required; no "online compare"
    assert roles["face-to-face therapy"] == ("intervention", False)


def test_what_a_phrase_is_based_on_gives_its_heading(vocabulary: MeshVocabulary) -> None:
    """ "mindfulness-based stress reduction": MeSH names no stress reduction, but the phrase is a kind of
    mindfulness practice, which a searcher finds with the Mindfulness heading; the phrase stays a term."""
    result = concepts_of(
        vocabulary,
        "Mindfulness-based stress reduction for anxiety in cancer patients",
        context=["Mindfulness-based stress reduction"],
        output_target=["anxiety"],
    )
    term = next(t for t in result.terms if t.mesh and t.mesh.heading == "Mindfulness")
    assert "Mindfulness-based stress reduction" in [s.text for s in term.synonyms]


def test_an_organism_tested_for_brings_its_infection(vocabulary: MeshVocabulary) -> None:
    """ "Human papillomavirus testing": papers on testing for the virus are indexed with the infection,
    which the block ORs beside the organism (as an infection's block ORs its organism)."""
    result = concepts_of(
        vocabulary,
        "Human papillomavirus testing versus repeat cytology for triage of cervical lesions",
        subject_population=["Human papillomavirus"],
        context=["cytology"],
    )
    block = {t.mesh.heading: t.concept for t in result.terms if t.mesh}
    assert block["Papillomavirus Infections"] == block["Human Papillomavirus Viruses"]


def test_an_acronym_its_infection_heading_writes_is_the_infection(vocabulary: MeshVocabulary) -> None:
    """ "people living with HIV": HIV Infections writes the acronym, which names the infection as often
    as the virus; outside a question of finding the pathogen the block searches the infection, not the
    virus beside it. Where the virus is tested for, both stay."""
    result = concepts_of(
        vocabulary,
        "Mobile phone text messaging for improving adherence to antiretroviral therapy in people living with HIV",
        subject_population=["people living with HIV"],
        context=["Mobile phone text messaging"],
    )
    headings = {t.mesh.heading for t in result.terms if t.mesh}
    assert "HIV Infections" in headings and "HIV" not in headings
    result = concepts_of(
        vocabulary,
        "Rapid tests for HIV in pregnant women",
        output_target=["HIV"],
        method_measurement=["Rapid tests"],
    )
    headings = {t.mesh.heading for t in result.terms if t.mesh}
    assert {"HIV", "HIV Infections"} <= headings


def test_a_phrase_stripped_of_its_grade_keeps_the_role_of_its_head(vocabulary: MeshVocabulary) -> None:
    """ "patients presenting with clinically evident lesions": "lesions" is searched, and a head MeSH
    ends disease names with makes it the condition (required), as the whole phrase was."""
    description = "Diagnostic tests for oral cancer in patients presenting with clinically evident lesions"
    result = concepts_of(
        vocabulary,
        description,
        method_measurement=["Diagnostic tests"],
        subject_population=["oral cancer", "patients with clinically evident lesions"],
    )
    lesions = next(c for c in result.concepts if c.label == "lesions")
    assert lesions.role is ConceptRole.CONDITION and lesions.required


def test_an_adjective_whose_noun_is_a_condition_is_a_concept_of_its_own(vocabulary: MeshVocabulary) -> None:
    """ "recurrent colorectal cancer": no heading names the whole; the cancer AND its recurrence."""
    result = concepts_of(
        vocabulary,
        "Blood CEA levels for detecting recurrent colorectal cancer",
        output_target=["recurrent colorectal cancer"],
    )
    headings = {
        c.label: {t.mesh.heading for t in result.terms if t.concept == c.id and t.mesh}
        for c in result.concepts
    }
    assert headings["recurrent"] == {"Recurrence"} and headings["colorectal cancer"] == {
        "Colorectal Neoplasms"
    }
    assert all(c.required for c in result.concepts if c.label in {"recurrent", "colorectal cancer"})


def test_two_kinds_of_people_in_one_phrase_are_both_required(vocabulary: MeshVocabulary) -> None:
    """ "refugee children" are the refugees who are children: Refugees AND Child, neither dropped as too
    broad a heading (MeSH files the kinds of persons one level down) nor as part of the other's name."""
    result = concepts_of(vocabulary, "refugee children", subject_population=["refugee children"])
    assert summary(result) == [("refugee", "population", True), ("children", "population", True)]
    assert [t.mesh.heading for t in result.terms if t.mesh] == ["Refugees", "Child"]


def test_a_place_after_a_thing_of_another_kind_is_no_place(vocabulary: MeshVocabulary) -> None:
    """ "urban heat islands" are no Islands (and "heat" is no part of an island's name): the phrase is
    searched as written; a place after an organism or an adjective stays a place."""
    result = concepts_of(vocabulary, "urban heat islands", context=["urban heat islands"])
    assert [(t.canonical, t.mesh) for t in result.terms] == [("urban heat islands", None)]
    for phrase in ("coral islands", "tropical islands"):
        kept = concepts_of(vocabulary, phrase, context=[phrase])
        assert "Islands" in [t.mesh.heading for t in kept.terms if t.mesh]


@pytest.mark.parametrize(
    ("phrase", "heading"), [("Blood pressure control", "Blood Pressure"), ("Sodium reduction", "Sodium")]
)
def test_an_action_that_changes_a_descriptor_s_thing_searches_the_thing(
    vocabulary: MeshVocabulary, phrase: str, heading: str
) -> None:
    """ "Blood pressure control" is no exact phrase to require: abstracts write "controlled blood
    pressure", "lower blood pressure"; the heading of the quantity is the concept."""
    result = concepts_of(vocabulary, phrase, task=[phrase])
    assert [t.mesh.heading for t in result.terms if t.mesh] == [heading]
    assert all(c.required for c in result.concepts)


def test_a_people_word_before_other_organisms_is_their_kind(vocabulary: MeshVocabulary) -> None:
    phrase = "native bird populations"
    result = concepts_of(vocabulary, phrase, subject_population=[phrase])
    assert [t.mesh.heading for t in result.terms if t.mesh] == ["Birds"]  # was Indigenous Peoples AND Birds


def test_a_term_reaching_the_head_only_where_the_head_names_something(vocabulary: MeshVocabulary) -> None:
    healing = concepts_of(vocabulary, "Bone fracture healing", context=["Bone fracture healing"])
    assert [t.mesh.heading for t in healing.terms if t.mesh] == ["Fracture Healing"]
    # "management" is a generic head: the condition stays, no Pain Management takes its place
    pain = concepts_of(vocabulary, "Cancer pain management", task=["Cancer pain management"])
    assert [t.mesh.heading for t in pain.terms if t.mesh] == ["Cancer Pain"]


def test_a_policy_and_what_it_is_applied_to_are_what_is_done(vocabulary: MeshVocabulary) -> None:
    """ "beverage taxes": the tax was an optional setting (Taxes is filed under N); it is the
    intervention, and the beverages taxed are part of it, not an optional outcome."""
    result = concepts_of(
        vocabulary,
        "Sugar-sweetened beverage taxes and obesity prevalence",
        context=["Sugar-sweetened beverage taxes"],
        output_target=["obesity"],
    )
    roles = {label: (role, required) for label, role, required in summary(result)}
    assert roles["taxes"] == ("intervention", True)
    assert roles["Sugar-sweetened beverage"] == ("intervention", True)
    # a closure, a lockdown or a mandate is a measure taken, whatever is closed: no optional setting
    closures = concepts_of(
        vocabulary,
        "school closures during COVID-19 and children's mental health",
        context=["school closures", "COVID-19"],
        subject_population=["children"],
        output_target=["children's mental health"],
    )
    roles = {label: (role, required) for label, role, required in summary(closures)}
    assert roles["school closures"] == ("intervention", True)


def test_what_a_phrase_is_for_to_improve_is_an_intervention(vocabulary: MeshVocabulary) -> None:
    description = "Text message reminders to improve medication adherence in hypertension"
    assert is_exposure("Text message reminders", description)
    result = concepts_of(
        vocabulary,
        description,
        context=["Text message reminders"],
        output_target=["medication adherence"],
        subject_population=["hypertension"],
    )
    # the reminders are done with text messages: the concept is searched by Text Messaging
    assert [
        (role, required) for label, role, required in summary(result) if label.startswith("Text message")
    ] == [("intervention", True)]


def test_what_is_prevented_is_a_required_outcome(vocabulary: MeshVocabulary) -> None:
    """Accidental Falls is filed under N (a setting) and was left optional in "fall prevention"."""
    description = "Fall prevention exercise programs for community-dwelling older adults"
    result = concepts_of(
        vocabulary,
        description,
        context=["Fall prevention exercise programs"],
        subject_population=["community-dwelling older adults"],
    )
    assert ("Fall", "outcome", True) in summary(result)
    assert is_prevented("pressure ulcer", "the prevention of pressure ulcers in nursing homes")
    assert not is_prevented("exercise", description)


def test_what_a_test_detects_is_a_required_outcome(vocabulary: MeshVocabulary) -> None:
    """Recurrence is an outcome, which a condition beside it would leave optional; but what a test is
    asked to detect is the target of the question and defines the topic."""
    description = "Can circulating tumour DNA detect recurrence in patients treated for colorectal cancer?"
    result = concepts_of(
        vocabulary,
        description,
        context=["circulating tumour DNA"],
        output_target=["recurrence"],
        subject_population=["patients treated for colorectal cancer"],
    )
    assert ("recurrence", "outcome", True) in summary(result)
    assert is_detected("relapse", "the early detection of relapse after chemotherapy")
    assert not is_detected("recurrence", "Does aspirin prevent recurrence in colorectal adenoma?")


def test_people_a_procedure_defines_are_searched_as_the_procedure(vocabulary: MeshVocabulary) -> None:
    """ "kidney transplant recipients" are the recipients of a Kidney Transplantation (required), not
    any Transplant Recipients beside an organ that only narrows."""
    result = concepts_of(
        vocabulary,
        "Psychological interventions for kidney transplant recipients",
        subject_population=["kidney transplant recipients"],
        task=["Psychological interventions"],
    )
    headings = {t.mesh.heading for t in result.terms if t.mesh}
    assert "Kidney Transplantation" in headings
    assert not headings & {"Transplant Recipients", "Kidney"}
    required = [c.label for c in result.concepts if c.required]
    assert "kidney transplant" in required


@pytest.mark.parametrize(
    ("description", "slots", "heading"),
    [
        # "Cardiac" cut from its head by the understanding takes "testing" from the description
        ("Cardiac testing for coronary artery disease", {"context": ["Cardiac"]}, "Heart Function Tests"),
        (
            "Rapid tests for visceral leishmaniasis",
            {"method_measurement": ["Rapid tests"]},
            "Rapid Diagnostic Tests",
        ),
    ],
)
def test_a_test_named_without_its_patterned_word_is_its_heading(
    vocabulary: MeshVocabulary, description: str, slots: dict[str, list[str]], heading: str
) -> None:
    """ "Rapid tests" are Rapid Diagnostic Tests, "cardiac testing" Heart Function Tests ("cardiac
    function tests")."""
    result = concepts_of(vocabulary, description, task=[description.split(" for ")[1]], **slots)
    assert heading in {t.mesh.heading for t in result.terms if t.mesh}


@pytest.mark.parametrize(
    ("description", "people", "required"),
    [
        # the dementia is not theirs, so it does not define who is studied
        (
            "Psychoeducational interventions for family caregivers of people with dementia",
            "family caregivers",
            True,
        ),
        # people with the condition themselves stay optional beside it
        ("Exercise for outpatients with heart failure", "outpatients", False),
        # except an age group: which age the review is about, beside a condition of every age
        ("Exercise for older people with hip fracture", "older people", True),
        ("Oral rehydration solution for children with acute gastroenteritis", "children", True),
    ],
)
def test_people_related_to_people_with_a_condition_are_required(
    vocabulary: MeshVocabulary, description: str, people: str, required: bool
) -> None:
    """ "family caregivers of people with dementia" are required beside Dementia."""
    what, condition = description.split(" for ")[0], description.split(" with ")[-1]
    result = concepts_of(vocabulary, description, subject_population=[people, condition], task=[what])
    assert (people, "population", required) in summary(result)


@pytest.mark.parametrize(
    ("description", "people", "condition", "what", "required"),
    [
        # a kind of person MeSH files (Drug Users, Nurses) is a population of its own beside a condition
        (
            "Needle exchange and hepatitis C in people who inject drugs",
            "people who inject drugs",
            "hepatitis C",
            "needle exchange",
            True,
        ),
        ("Night shift work and breast cancer in nurses", "nurses", "breast cancer", "night shift work", True),
        # an age group a review of treatment names is who it is about (in a question of a test's
        # accuracy the target condition defines who is tested: test_concept_roles)
        (
            "Antibiotics for acute pyelonephritis in children",
            "children",
            "acute pyelonephritis",
            "Antibiotics",
            True,
        ),
    ],
)
def test_a_kind_of_person_or_an_age_group_is_required_beside_a_condition(
    vocabulary: MeshVocabulary, description: str, people: str, condition: str, what: str, required: bool
) -> None:
    result = concepts_of(
        vocabulary, description, subject_population=[people], output_target=[condition], context=[what]
    )
    assert (people, "population", required) in summary(result)


def test_the_last_of_two_headings_in_a_phrase_keeps_its_heading(vocabulary: MeshVocabulary) -> None:
    """ "mobile phone text messaging": Cell Phone and Text Messaging; the words of the match before it are
    not the last match's own (they made a coarse L01 heading look like a kind of it, searched as words)."""
    description = "Mobile phone text messaging for improving adherence to antiretroviral therapy"
    result = concepts_of(
        vocabulary, description, context=["Mobile phone text messaging"], output_target=["adherence"]
    )
    assert {"Cell Phone", "Text Messaging"} <= {t.mesh.heading for t in result.terms if t.mesh}


def test_a_thing_mesh_lists_only_the_kinds_of_is_their_descriptor(vocabulary: MeshVocabulary) -> None:
    """ "shift work" was Work (a one-word match inside); MeSH's Night and Rotating Shift Work say it is
    Shift Work Schedule."""
    result = concepts_of(vocabulary, "Shift work and breast cancer in nurses", context=["Shift work"])
    assert "Shift Work Schedule" in {t.mesh.heading for t in result.terms if t.mesh}
    assert "Work" not in {t.mesh.heading for t in result.terms if t.mesh}


def test_a_side_of_versus_that_is_a_technique_adjective_is_the_technique(vocabulary: MeshVocabulary) -> None:
    """ "Laparoscopic versus open appendectomy": the side the comparison leaves alone is Laparoscopy,
    searched beside the operation; and a technique filed also as surgery does not make the question
    one of a test's accuracy, so the children the title names stay required."""
    result = concepts_of(
        vocabulary,
        "Laparoscopic versus open appendectomy for acute appendicitis in children",
        subject_population=["children"],
        output_target=["acute appendicitis"],
        context=["Laparoscopic versus open appendectomy"],
    )
    # the two modifiers compared before one head are one block (`coordination.kinds_of_one_head`)
    assert ("Laparoscopic / open appendectomy", "method", True) in summary(result)
    assert ("children", "population", True) in summary(result)
    assert "Laparoscopy" in {t.mesh.heading for t in result.terms if t.mesh}


def test_the_residents_of_a_place_are_searched_as_the_place(vocabulary: MeshVocabulary) -> None:
    """ "nursing home residents", even where the understanding kept only "home residents": residents
    are generic people, so Nursing Homes names the phrase (not a free-text phrase of its own)."""
    for population in ("nursing home residents", "home residents"):
        result = concepts_of(
            vocabulary,
            "Oral health education programmes for nursing home residents",
            subject_population=[population],
            context=["Oral health education programmes"],
        )
        assert "Nursing Homes" in {t.mesh.heading for t in result.terms if t.mesh}, population


def test_what_an_intervention_is_based_in_is_searched_even_when_its_heading_is_shallow(
    vocabulary: MeshVocabulary,
) -> None:
    """ "School-based physical activity programmes": Schools is two levels deep in its tree, too broad
    for the word "school" alone, but written "<word>-based" it is where the programme is delivered."""
    result = concepts_of(
        vocabulary,
        "School-based physical activity programmes for preventing obesity in children",
        subject_population=["children"],
        output_target=["obesity"],
        context=["School-based physical activity programmes"],
    )
    headings = {t.mesh.heading: t.concept for t in result.terms if t.mesh}
    assert {"Schools", "Exercise"} <= headings.keys()
    assert next(c for c in result.concepts if c.id == headings["Schools"]).required
    alone = concepts_of(vocabulary, "School and obesity in children", context=["School"])
    assert "Schools" not in {t.mesh.heading for t in alone.terms if t.mesh}


def test_fractures_alone_are_fractures_bone(vocabulary: MeshVocabulary) -> None:
    """MeSH has no heading "Fractures": the lone word is the root of the "Fractures, ..." family."""
    result = concepts_of(
        vocabulary,
        "Vitamin D supplementation and the risk of fractures in older people",
        subject_population=["older people"],
        output_target=["fractures"],
        context=["Vitamin D supplementation"],
    )
    assert "Fractures, Bone" in {t.mesh.heading for t in result.terms if t.mesh}


def test_hospitalised_patients_are_searched_by_hospitalization(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Smoking cessation interventions for hospitalised patients",
        subject_population=["hospitalised patients"],
        context=["Smoking cessation interventions"],
    )
    headings = {t.mesh.heading: t.concept for t in result.terms if t.mesh}
    assert "Hospitalization" in headings
    assert next(c for c in result.concepts if c.id == headings["Hospitalization"]).required


def test_obese_adults_are_searched_by_obesity(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Metformin for weight loss in obese adults",
        subject_population=["obese adults"],
        context=["Metformin"],
    )
    assert "Obesity" in {t.mesh.heading for t in result.terms if t.mesh}


def test_a_state_said_of_the_people_is_a_required_condition_of_its_own(vocabulary: MeshVocabulary) -> None:
    """ "postmenopausal women": Postmenopause is filed under physiology (an outcome when measured), but
    before the people's word it says who is studied; it had been an optional outcome, left out of the
    query. Beside a condition after "with" each is a block of its own: "obese children with asthma"
    had OR'ed Obesity with Asthma."""
    women = concepts_of(
        vocabulary,
        "Hormone therapy in postmenopausal women",
        subject_population=["postmenopausal women"],
        context=["Hormone therapy"],
    )
    assert ("postmenopausal", "condition", True) in summary(women)
    children = concepts_of(
        vocabulary,
        "Exercise for obese children with asthma",
        subject_population=["obese children with asthma"],
        output_target=["Exercise"],
    )
    assert ("obese", "condition", True) in summary(children)
    assert ("asthma", "condition", True) in summary(children)


def test_pregnant_women_are_searched_with_pregnancy_in_one_block(vocabulary: MeshVocabulary) -> None:
    """The people MeSH names by their state (Pregnant Women) OR the state their papers are indexed
    with (Pregnancy), as one concept."""
    result = concepts_of(
        vocabulary,
        "Vitamin D supplementation in pregnant women",
        subject_population=["pregnant women"],
        context=["Vitamin D supplementation"],
    )
    headings = {t.mesh.heading: t.concept for t in result.terms if t.mesh}
    assert headings["Pregnancy"] == headings["Pregnant Women"]


def test_a_prediction_of_another_concept_joins_its_block(vocabulary: MeshVocabulary) -> None:
    # "formation energy prediction" beside the outcome "formation energy": one block, not the outcome
    # twice (the shorter term finds "predicting formation energies" too)
    result = concepts_of(
        vocabulary,
        "Graph neural networks predict the formation energy of inorganic crystals",
        task=["formation energy prediction"],
        method_algorithm=["graph neural networks"],
        output_target=["formation energy"],
    )
    labels = [c.label for c in result.concepts]
    assert "formation energy prediction" not in labels
    (energy,) = [c for c in result.concepts if c.label == "formation energy"]
    assert {t.canonical for t in result.terms if t.concept == energy.id} == {
        "formation energy prediction",
        "formation energy",
    }
    # a prediction of nothing else named stays a task of its own
    alone = concepts_of(vocabulary, "Protein structure prediction", task=["protein structure prediction"])
    assert [c.label for c in alone.concepts] == ["protein structure prediction"]


def test_a_measurement_and_an_analysis_listed_together_are_two_concepts(vocabulary: MeshVocabulary) -> None:
    # "using vital signs and machine learning": what is measured and how it is analysed are ANDed
    result = concepts_of(
        vocabulary,
        "Early prediction of sepsis using vital signs and machine learning",
        method_measurement=["vital signs"],
        method_algorithm=["machine learning"],
        output_target=["sepsis"],
    )
    labels = [c.label for c in result.concepts]
    assert "vital signs" in labels and "machine learning" in labels


def test_where_the_people_live_only_qualifies_them(vocabulary: MeshVocabulary) -> None:
    """'older adults living in the community': the place is said of the people in passing, and a
    searcher does not AND it; a setting the review is set in ('in the emergency department') stays."""
    living = concepts_of(
        vocabulary,
        "Exercise for preventing falls in older adults living in the community",
        subject_population=["older adults"],
        output_target=["Exercise", "falls"],
        context=["community"],
    )
    assert ("community", "setting", False) in summary(living)
    set_in = concepts_of(
        vocabulary,
        "Opioid analgesia for acute pain in the emergency department",
        context=["Opioid analgesia", "emergency department"],
        output_target=["acute pain"],
    )
    assert ("emergency department", "setting", True) in summary(set_in)


def test_an_institution_the_people_live_in_is_the_setting_of_the_review(vocabulary: MeshVocabulary) -> None:
    """'older people living in nursing homes': a place MeSH files among facilities (Nursing Homes,
    N02.278) is where the review is set, and a searcher ANDs it, unlike the community people live in."""
    result = concepts_of(
        vocabulary,
        "Hip protectors for preventing hip fractures in older people living in nursing homes",
        subject_population=["older people"],
        output_target=["Hip protectors", "hip fractures"],
        context=["nursing homes"],
    )
    assert ("nursing homes", "setting", True) in summary(result)


def test_an_acronym_defined_for_a_whole_phrase_is_kept_beside_its_heading(vocabulary: MeshVocabulary) -> None:
    """'Direct oral anticoagulants (DOACs)': MeSH names the phrase by its term "Direct-Acting Oral
    Anticoagulants" (Factor Xa Inhibitors; before, only Anticoagulants inside it), and the user's acronym
    of the whole phrase is a synonym of that term."""
    result = concepts_of(
        vocabulary,
        "Direct oral anticoagulants (DOACs) for atrial fibrillation in older adults",
        context=["Direct oral anticoagulants"],
        output_target=["atrial fibrillation"],
    )
    term = next(t for t in result.terms if t.mesh is not None and t.mesh.heading == "Factor Xa Inhibitors")
    assert term.canonical == "Direct oral anticoagulants"
    assert "DOACs" in {s.text for s in term.synonyms}


def test_outside_medicine_a_word_mesh_holds_in_a_medical_sense_is_the_other_fields_word(
    vocabulary: MeshVocabulary,
) -> None:
    # nothing of medicine in the description: "shocks" is no Shock, "volatility" no Volatilization; each
    # phrase is searched as written OR the compound before its head
    result = concepts_of(
        vocabulary,
        "Monetary policy shocks and exchange rate volatility in emerging markets",
        output_target=["Monetary policy shocks"],
        context=["exchange rate volatility", "markets"],
    )
    query = pubmed_query(result)
    assert "[Mesh]" not in query
    assert '"Monetary policy"[tiab]' in query and '"exchange rate"[tiab]' in query
    # "purchase intention": a word MeSH does not hold beside the heading's word
    result = concepts_of(
        vocabulary,
        "Influence of online customer reviews on purchase intention",
        output_target=["purchase intention"],
    )
    assert '"Intention"[Mesh]' not in pubmed_query(result)


def test_inside_medicine_the_same_one_word_heading_is_meant(vocabulary: MeshVocabulary) -> None:
    # a disease names the description's field: "road traffic noise" beside hypertension is Noise
    result = concepts_of(
        vocabulary,
        "Residential exposure to road traffic noise and the risk of hypertension",
        output_target=["hypertension"],
        context=["Residential exposure to road traffic noise"],
    )
    assert '"Noise"[Mesh]' in pubmed_query(result)


def test_a_phrase_beside_its_heading_keeps_the_terms_mesh_writes_at_its_edge(
    vocabulary: MeshVocabulary,
) -> None:
    # "accessing mental health care": "care" ends the term "health care", so the phrase is not cut to
    # "accessing mental", a synonym no paper writes
    result = concepts_of(
        vocabulary,
        "barriers to accessing mental health care among police officers",
        subject_population=["police officers"],
        context=["accessing mental health care"],
    )
    query = pubmed_query(result)
    # MeSH writes the care as "Mental Health Services" (`agent.language.head_variants`)
    assert '"Mental Health Services"[Mesh]' in query
    assert "accessing mental" not in query.replace("accessing mental health care", "")


def test_the_noun_of_a_hyphenated_modifier_is_no_concept(vocabulary: MeshVocabulary) -> None:
    # "early-life exposure": the compound qualifies the exposure; Life is no concept a paper is found by
    result = concepts_of(
        vocabulary,
        "Early-life exposure to perfluoroalkyl substances and childhood obesity",
        context=["early-life exposure", "perfluoroalkyl substances"],
        output_target=["childhood obesity"],
    )
    query = pubmed_query(result)
    assert '"Life"[Mesh]' not in query
    assert '"Pediatric Obesity"[Mesh]' in query


def test_women_named_beside_a_condition_are_the_sex_of_who_is_studied(vocabulary: MeshVocabulary) -> None:
    """ "breast cancer in women": MeSH indexes the sex of the people studied with the check tag Female and
    keeps Women for women as a social group, so the condition carries them and the query does not AND
    "Women"[Mesh]; a kind of person MeSH files (nurses) stays a population of its own."""
    result = concepts_of(
        vocabulary,
        "Night shift work and the risk of breast cancer in women",
        subject_population=["women"],
        output_target=["breast cancer"],
        context=["Night shift work"],
    )
    women = next(c for c in result.concepts if c.label == "women")
    assert not women.required
    nurses = concepts_of(
        vocabulary,
        "Night shift work and the risk of breast cancer in nurses",
        subject_population=["nurses"],
        output_target=["breast cancer"],
        context=["Night shift work"],
    )
    assert next(c for c in nurses.concepts if c.label == "nurses").required


def test_what_qualifies_a_test_s_generic_head_is_not_promoted_to_fill_the_query(
    vocabulary: MeshVocabulary,
) -> None:
    """ "Second trimester serum tests for Down's Syndrome screening": the trimester and the serum say when
    and on what the test is done; neither is ANDed beside the target condition because the query has
    too few concepts, as no expert searches Pregnancy Trimester, Second for it. Outside a question of a
    test, the same phrase is not read so."""
    result = concepts_of(
        vocabulary,
        "Second trimester serum tests for Down's Syndrome screening",
        task=["Down's Syndrome screening"],
        method_measurement=["Second trimester serum tests"],
    )
    required = {c.label for c in result.concepts if c.required}
    assert required == {"Down's Syndrome"}
    trimester = next(c for c in result.concepts if c.label == "Second trimester")
    assert "qualifier of the test" in trimester.reason
    assert qualifies_the_test("Urine", "Urine tests for Down's syndrome screening")
    assert not qualifies_the_test("Urine", "Urine sodium and blood pressure in adults")


def test_the_noun_of_a_hyphenated_modifier_opened_by_a_word_mesh_never_writes_is_no_concept(
    vocabulary: MeshVocabulary,
) -> None:
    # "brand-name statins": "brand" is no word of MeSH, so "brand-name" is a modifier MeSH does not
    # know, and its noun (Names) is no concept; the statins stay
    result = concepts_of(
        vocabulary,
        "Switching from brand-name statins to generic statins and LDL cholesterol",
        context=["brand-name statins"],
        output_target=["LDL cholesterol"],
    )
    query = pubmed_query(result)
    assert '"Names"[Mesh]' not in query
    assert "Hydroxymethylglutaryl-CoA Reductase Inhibitors" in query


def test_who_and_where_in_one_slot_are_two_blocks(vocabulary: MeshVocabulary) -> None:
    """ "primary school children in low- and middle-income countries": the understanding holds the
    children and the countries in the population, but MeSH files the people (M) and the countries (I) in
    no common category, so a searcher ANDs them; OR'ed in one block, either alone let any paper on
    children through. Listed together, two headings of one category stay one block ("hip and knee
    osteoarthritis")."""
    result = concepts_of(
        vocabulary,
        "Obesity in primary school children in low- and middle-income countries",
        subject_population=["primary school children", "low-income countries", "middle-income countries"],
        output_target=["Obesity"],
    )
    assert [c.label for c in result.concepts if c.role is ConceptRole.POPULATION] == [
        "children",
        "low-income countries",
    ]
    assert '("Child"[Mesh] OR children[tiab]) AND ("Developing Countries"[Mesh]' in (pubmed_query(result))


def test_outside_medicine_a_cell_part_before_its_noun_is_searched_as_written(
    vocabulary: MeshVocabulary,
) -> None:
    # "dendrite growth" in a lithium battery: no Dendrites (a neuron's) and no Growth (a body's)
    result = concepts_of(
        vocabulary,
        "Solid polymer electrolytes for suppressing dendrite growth in lithium metal batteries",
        subjects=["Solid polymer electrolytes", "lithium metal batteries"],
        output_target=["dendrite growth"],
    )
    query = pubmed_query(result)
    assert "[Mesh]" not in query
    assert '"dendrite growth"[tiab]' in query


def _blocks(result) -> list[set[str]]:
    """The MeSH headings of each concept, in order."""
    return [{t.mesh.heading for t in result.terms if t.concept == c.id and t.mesh} for c in result.concepts]


def test_two_active_treatments_of_one_kind_compared_are_one_block(vocabulary: MeshVocabulary) -> None:
    """ "Family-based treatment versus individual cognitive behavioural therapy": two psychotherapies
    set side by side are the alternatives of one intervention block, OR'ed (a trial's abstract may name
    only the arm it is about); the condition stays a block of its own. A generic head MeSH names with
    the words before it ("cognitive behavioural therapy") is no usual care left out."""
    result = concepts_of(
        vocabulary,
        "Family-based treatment versus individual cognitive behavioural therapy for anorexia nervosa",
        context=["Family-based treatment versus individual cognitive behavioural therapy"],
        subject_population=["anorexia nervosa"],
    )
    blocks = _blocks(result)
    assert {"Family Therapy", "Cognitive Behavioral Therapy"} in blocks
    assert {"Anorexia Nervosa"} in blocks
    assert all(c.required for c in result.concepts)
    # free words MeSH does not name are OR'ed with the other side's heading the same way
    result = concepts_of(
        vocabulary, "DOACs versus warfarin for left ventricular thrombus", context=["DOACs versus warfarin"]
    )
    query = pubmed_query(result)
    assert re.search(r'\(DOACs\[tiab\] OR "Warfarin"\[Mesh\]', query)


def test_sides_of_versus_the_understanding_read_as_two_phrases_are_one_block(
    vocabulary: MeshVocabulary,
) -> None:
    """ "Thickened fluids versus a free water protocol": the understanding put each side in a phrase of
    its own; the description writes them either side of "versus", so they are OR'ed as the sides of one
    phrase are (they had been two required blocks, a paper of either trial arm needing both)."""
    description = "Thickened fluids versus a free water protocol for people with dysphagia after stroke"
    result = concepts_of(
        vocabulary,
        description,
        context=["Thickened fluids", "free water protocol"],
        subject_population=["dysphagia", "stroke"],
    )
    assert '("Thickened fluids"[tiab] OR "free water protocol"[tiab])' in pubmed_query(result)
    # written apart with no "versus" between them, they stay two blocks
    result = concepts_of(
        vocabulary,
        "Thickened fluids for people with dysphagia after stroke: a free water protocol",
        context=["Thickened fluids", "free water protocol"],
        subject_population=["dysphagia", "stroke"],
    )
    assert '"Thickened fluids"[tiab] OR "free water protocol"' not in pubmed_query(result)


def test_the_side_a_chinese_description_compares_with_is_left_out(vocabulary: MeshVocabulary) -> None:
    """ "二甲双胍与胰岛素…比较" is "metformin compared with insulin": insulin is the comparator, left out like
    the Y of "compared with Y" (it had been a required block of its own)."""
    understanding = Understanding(
        description="二甲双胍与胰岛素治疗妊娠期糖尿病的新生儿结局比较",
        slots=Slots(subject_population=["gestational diabetes"], context=["metformin", "insulin"]),
        originals={"gestational diabetes": "妊娠期糖尿病", "metformin": "二甲双胍", "insulin": "胰岛素"},
    )
    result = build_concepts(understanding, vocabulary)
    insulin = next(c for c in result.concepts if c.label == "insulin")
    assert not insulin.required and "comparator" in insulin.reason
    assert next(c for c in result.concepts if c.label == "metformin").required
    # "腹腔镜与开腹肝切除术" (laparoscopic versus open hepatectomy): the lone word before 与 shares the
    # comparator's head, which stays required
    understanding = Understanding(
        description="腹腔镜与开腹肝切除术治疗肝细胞癌的比较",
        slots=Slots(method_measurement=["laparoscopy"], context=["open abdomen hepatectomy"]),
        originals={"laparoscopy": "腹腔镜", "open abdomen hepatectomy": "开腹肝切除术"},
    )
    result = build_concepts(understanding, vocabulary)
    assert "Hepatectomy" in pubmed_query(result)
    # an acronym before 与 names a thing of its own: the longer comparator is still left out
    understanding = Understanding(
        description="大核心梗死患者 EVT 与单纯药物治疗的功能预后比较",
        slots=Slots(context=["EVT", "simple drug therapy"]),
        originals={"simple drug therapy": "单纯药物治疗"},
    )
    result = build_concepts(understanding, vocabulary)
    assert "Drug Therapy" not in pubmed_query(result)


def test_treatments_compared_stay_apart_when_not_alternatives_of_one_kind(vocabulary: MeshVocabulary) -> None:
    """Sides MeSH files in different categories ("CBT versus antidepressants": a psychotherapy, F, and
    drugs, D) stay two blocks; so do a lone word and a longer phrase whose head it may modify
    ("telephone versus face-to-face genetic counselling": telephone counselling), and tests compared
    outside a question of diagnosis."""
    result = concepts_of(
        vocabulary,
        "Cognitive behavioural therapy versus antidepressants for major depressive disorder",
        context=["Cognitive behavioural therapy versus antidepressants"],
        subject_population=["major depressive disorder"],
    )
    blocks = _blocks(result)
    assert not any({"Cognitive Behavioral Therapy", "Antidepressive Agents"} <= b for b in blocks)
    result = concepts_of(
        vocabulary,
        "Telephone versus face-to-face genetic counselling for hereditary breast cancer",
        context=["Telephone versus face-to-face genetic counselling"],
        subject_population=["hereditary breast cancer"],
    )
    assert not any({"Telephone", "Genetic Counseling"} <= b for b in _blocks(result))
    result = concepts_of(
        vocabulary,
        "Computed tomography versus magnetic resonance imaging for scaphoid fractures",
        context=["Computed tomography versus magnetic resonance imaging"],
        subject_population=["scaphoid fractures"],
    )
    assert not any({"Tomography, X-Ray Computed", "Magnetic Resonance Imaging"} <= b for b in _blocks(result))


def test_the_tests_a_diagnostic_question_compares_are_one_block(vocabulary: MeshVocabulary) -> None:
    """A comparative accuracy review takes the studies of either test, so "A versus B for diagnosis of Z"
    ORs the tests (as CLEF's experts did); outside a question of diagnosis the sides stay apart
    (`test_versus_separates_and_roles_come_from_mesh`)."""
    result = concepts_of(
        vocabulary,
        "Ultrasound versus liver function tests for diagnosis of common bile duct stones",
        method_measurement=["Ultrasound versus liver function tests"],
        output_target=["common bile duct stones"],
    )
    query = pubmed_query(result)
    assert '("Ultrasonography"[Mesh] OR Ultrasound[tiab] OR "Liver Function Tests"[Mesh]' in query


def test_the_noun_of_a_hyphenated_compound_mesh_does_not_write_is_no_concept(
    vocabulary: MeshVocabulary,
) -> None:
    # "call-light use": "call" is a word of MeSH, but MeSH writes no "call light", so the compound names
    # a thing of its own and its noun (Light) is no concept (a compound MeSH writes is matched whole)
    result = concepts_of(
        vocabulary,
        "Intentional rounding for reducing call-light use and pressure injuries on hospital wards",
        output_target=["call-light use", "pressure injuries"],
        context=["Intentional rounding"],
    )
    query = pubmed_query(result)
    assert '"Light"[Mesh]' not in query and "call-light" in query
    assert '"Pressure Ulcer"[Mesh]' in query


def test_a_place_written_as_an_origin_or_a_reported_item_is_no_setting_the_review_is_set_in(
    vocabulary: MeshVocabulary,
) -> None:
    """A place MeSH names is required where the review is set in it ("in sub-Saharan Africa"), not where
    the title writes it as the origin of something ("evidence from Scotland, Wales and Canada") or in a
    subtitle that lists what the studies report ("...: patient satisfaction and costs")."""
    origin = concepts_of(
        vocabulary,
        "Minimum unit pricing of alcohol and alcohol-related deaths: evidence from Scotland, Wales and Canada",
        output_target=["alcohol-related deaths"],
        context=["minimum unit pricing", "Scotland", "Wales", "Canada"],
    )
    assert ("Scotland / Wales / Canada", "setting", False) in summary(origin)
    assert "Scotland" not in pubmed_query(origin)
    where = concepts_of(
        vocabulary,
        "Minimum unit pricing of alcohol and alcohol-related deaths in Scotland, Wales and Canada",
        output_target=["alcohol-related deaths"],
        context=["minimum unit pricing", "Scotland", "Wales", "Canada"],
    )
    assert '"Scotland"[Mesh]' in pubmed_query(where)
    reported = concepts_of(
        vocabulary,
        "Video consultations versus face-to-face appointments in secondary care: patient satisfaction, "
        "clinical outcomes and costs",
        output_target=["patient satisfaction", "clinical outcomes"],
        context=["Video consultations", "face-to-face appointments", "secondary care", "costs"],
    )
    assert "Costs and Cost Analysis" not in pubmed_query(reported), summary(reported)
    assert '"Secondary Care"[Mesh]' in pubmed_query(reported), summary(reported)


def test_listed_together_in_two_slots_headings_of_different_branches_are_two_blocks(
    vocabulary: MeshVocabulary,
) -> None:
    """ "after hip fracture surgery and delirium": the "and" joins the population's condition (C26
    injuries) and the outcome (C10/F03): a searcher ANDs them; OR'ed, any paper on delirium would do.
    Alternatives listed together share a branch: "HIV and hepatitis C" (C01 infections) stay one
    block."""
    result = concepts_of(
        vocabulary,
        "Early mobilisation after hip fracture surgery and delirium",
        subject_population=["delirium"],
        context=["Early mobilisation", "hip fracture surgery"],
    )
    query = pubmed_query(result)
    assert '("Delirium"[Mesh] OR delirium[tiab]) AND' in query
    alternatives = concepts_of(
        vocabulary,
        "HIV and hepatitis C transmission among people who inject drugs",
        subject_population=["people who inject drugs", "HIV"],
        context=["hepatitis C"],
        output_target=["transmission"],
    )
    blocks = pubmed_query(alternatives).split(") AND (")
    # (the acronym HIV Infections writes is searched as the infection: not a question of finding it)
    assert any('"HIV Infections"[Mesh]' in block and '"Hepatitis C"[Mesh]' in block for block in blocks)


def test_a_thing_based_in_a_place_is_no_kind_of_the_place(vocabulary: MeshVocabulary) -> None:
    # "community-based walking groups" had been one block of Residence Characteristics, the walking
    # groups only a phrase inside "Communit*": the head concept was lost
    result = concepts_of(
        vocabulary,
        "Community-based walking groups for older adults",
        context=["Community-based walking groups"],
        subject_population=["older adults"],
    )
    walking = [c for c in result.concepts if "walking group" in c.label.lower()]
    assert walking and all(c.required for c in walking)
    # the community is no Residence Characteristics (`test_a_place_word_is_no_heading_of_its_characteristics`)
    assert "Residence Characteristics" not in pubmed_query(result)


def test_a_place_word_is_no_heading_of_its_characteristics(vocabulary: MeshVocabulary) -> None:
    """ "community" and "households" are entry terms of Residence and Family Characteristics, headings
    of attributes; the words name the place or the group, as modifiers that say where something is
    done, and a searcher does not require the attributes' heading."""
    result = concepts_of(
        vocabulary,
        "Community water fluoridation and dental caries in children",
        context=["Community water fluoridation"],
        subject_population=["children"],
        output_target=["dental caries"],
    )
    query = pubmed_query(result)
    assert "Residence Characteristics" not in query and '"Fluoridation"[Mesh]' in query
    result = concepts_of(
        vocabulary,
        "Free school meals and household food insecurity",
        context=["Free school meals"],
        output_target=["household food insecurity"],
    )
    query = pubmed_query(result)
    assert "Family Characteristics" not in query and '"Food Insecurity"[Mesh]' in query


def test_a_name_headed_by_a_category_of_people_is_searched_as_written(vocabulary: MeshVocabulary) -> None:
    # "peer support workers": "workers" alone is Occupational Groups, a category of 25 kinds of workers;
    # the name is searched as written, not the category
    result = concepts_of(
        vocabulary,
        "Peer support workers for adults with severe mental illness",
        subject_population=["Peer support workers", "adults with severe mental illness"],
    )
    assert "Occupational Groups" not in pubmed_query(result)
    assert any(t.canonical.lower() == "peer support workers" and t.mesh is None for t in result.terms)
    # "healthcare workers" is Health Personnel, without Occupational Groups unexploded beside it
    result = concepts_of(
        vocabulary, "Influenza vaccination of healthcare workers", subject_population=["healthcare workers"]
    )
    query = pubmed_query(result)
    assert '"Health Personnel"[Mesh]' in query and "Occupational Groups" not in query


@pytest.mark.parametrize(
    ("phrase", "heading"),
    [
        ("Machine learning models", "Machine Learning"),  # a class noun after a heading: the heading itself
        ("deep learning algorithms", "Deep Learning"),
        ("continuity of care models", "Continuity of Patient Care"),
        ("graph neural networks", None),  # a kind MeSH does not file: searched as written
        # after a thing that is no method a model is a model of the thing: no Language
        ("large language models", None),
        ("climate models", "Climate Models"),  # MeSH names the models whole
    ],
)
def test_a_class_noun_after_a_heading_adds_no_concept(
    vocabulary: MeshVocabulary, phrase: str, heading: str | None
) -> None:
    result = concepts_of(vocabulary, f"{phrase} for predicting sepsis mortality", context=[phrase])
    headings = [
        t.mesh.heading for t in result.terms if t.mesh is not None and t.canonical.lower() != "sepsis"
    ]
    if heading is None:  # searched as written, with no heading of a word inside it
        assert not any(h in {"Neural Networks, Computer", "Language"} for h in headings)
    else:
        assert heading in headings


def test_a_model_of_a_thing_that_is_no_method_is_no_heading_of_the_thing(vocabulary: MeshVocabulary) -> None:
    """ "large language models" in a medical description had been searched as Language OR language*: a
    class noun names the descriptor before it again only when that is a method (Machine Learning)."""
    result = concepts_of(
        vocabulary,
        "We evaluate large language models on medical licensing exams.",
        method_algorithm=["large language models"],
        context=["medical licensing exams"],
    )
    query = pubmed_query(result)
    assert '"Language"[Mesh]' not in query and "language*[tiab]" not in query
    assert "large language model" in query


def test_people_of_a_kind_are_searched_without_their_parent_group(vocabulary: MeshVocabulary) -> None:
    """MeSH's age groups are bands side by side ("Child" is 6 to 12 years, "Child, Preschool" below it
    in the tree), and "pregnant women" are indexed Pregnant Women: the parent group unexploded beside
    them adds only other people."""
    result = concepts_of(
        vocabulary,
        "D-dimer for excluding pulmonary embolism in pregnant women",
        subject_population=["pregnant women"],
        output_target=["pulmonary embolism"],
        method_measurement=["D-dimer"],
    )
    terms = {t.mesh.heading: t for t in result.terms if t.mesh}
    assert "Pregnant Women" in terms and not terms["Pregnant Women"].broader
    assert '"Women"[Mesh' not in pubmed_query(result)
    result = concepts_of(
        vocabulary,
        "Azithromycin for preschool children",
        subject_population=["preschool children"],
        context=["Azithromycin"],
    )
    terms = {t.mesh.heading: t for t in result.terms if t.mesh}
    assert "Child, Preschool" in terms and not terms["Child, Preschool"].broader
    # a condition keeps the broader heading its words name ("low back pain": Back Pain)
    result = concepts_of(vocabulary, "Red flags in low back pain", subject_population=["low back pain"])
    assert any(b.heading == "Back Pain" for t in result.terms for b in t.broader)


def test_a_parent_is_searched_beside_a_kind_only_of_conditions_and_diagnostic_procedures(
    vocabulary: MeshVocabulary,
) -> None:
    """Papers on a condition or a diagnostic procedure that leave its kind unsaid are indexed under the
    parent ("tuberculosis" for pulmonary tuberculosis), so the parent is searched unexploded beside it;
    a drug, a food or a therapy of its own kind is another thing than its parent left unspecified
    (Sugar-Sweetened Beverages is no beverage paper that did not say which)."""
    result = concepts_of(
        vocabulary,
        "Sugar-sweetened beverages and dental caries in children",
        context=["sugar-sweetened beverages"],
        output_target=["dental caries"],
    )
    terms = {t.mesh.heading: t for t in result.terms if t.mesh}
    assert "Sugar-Sweetened Beverages" in terms and not terms["Sugar-Sweetened Beverages"].broader
    result = concepts_of(
        vocabulary,
        "Low-molecular-weight heparin for venous thromboembolism",
        context=["low-molecular-weight heparin"],
        output_target=["venous thromboembolism"],
    )
    terms = {t.mesh.heading: t for t in result.terms if t.mesh}
    assert not terms["Heparin, Low-Molecular-Weight"].broader
    result = concepts_of(
        vocabulary,
        "Xpert MTB/RIF for pulmonary tuberculosis",
        context=["Xpert MTB/RIF"],
        output_target=["pulmonary tuberculosis"],
    )
    terms = {t.mesh.heading: t for t in result.terms if t.mesh}
    assert [b.heading for b in terms["Tuberculosis, Pulmonary"].broader] == ["Tuberculosis"]


@pytest.mark.parametrize(
    ("title", "phrase", "heading"),
    [
        (
            "Low-molecular-weight heparin for venous thromboembolism",
            "venous thromboembolism",
            "Venous Thromboembolism",
        ),
        (
            "Calcineurin inhibitors for atopic dermatitis in children",
            "atopic dermatitis",
            "Dermatitis, Atopic",
        ),
        ("D-dimer for excluding pulmonary embolism", "pulmonary embolism", "Pulmonary Embolism"),
    ],
)
def test_a_parent_that_only_groups_its_kinds_is_not_searched_beside_one(
    vocabulary: MeshVocabulary, title: str, phrase: str, heading: str
) -> None:
    """A condition's parent NLM writes under at most one entry term (Thromboembolism, Dermatitis,
    Embolism) is a node grouping its kinds, not a name papers use for the unspecified condition: it is
    not searched unexploded beside the kind the title names."""
    result = concepts_of(vocabulary, title, output_target=[phrase])
    terms = {t.mesh.heading: t for t in result.terms if t.mesh}
    assert heading in terms and not terms[heading].broader


def test_what_an_intervention_noun_is_done_with_is_searched_with_its_heading(
    vocabulary: MeshVocabulary,
) -> None:
    """ "gait training": the one descriptor before an intervention noun ("training") is what the
    intervention is done on, which every paper of it names: an intervention block with its heading, not
    the phrase alone as free text; a condition before it stays a concept apart."""
    result = concepts_of(
        vocabulary,
        "Gait training for adults after stroke",
        subject_population=["adults after stroke"],
        context=["Gait training"],
    )
    gait = [t.concept for t in result.terms if t.mesh and t.mesh.heading == "Gait"]
    concept = next(c for c in result.concepts if gait and c.id == gait[0])
    assert concept.role is ConceptRole.INTERVENTION and concept.required
    assert '"Gait"[Mesh]' in pubmed_query(result)
    # a word before the descriptor makes a kind of its own: no training of Muscles
    result = concepts_of(
        vocabulary,
        "Inspiratory muscle training for people with COPD",
        subject_population=["people with COPD"],
        context=["Inspiratory muscle training"],
    )
    assert '"Muscles"[Mesh]' not in pubmed_query(result)


def test_a_compound_before_a_function_makes_the_phrase_a_techniques_name(vocabulary: MeshVocabulary) -> None:
    """ "constraint-induced movement therapy", "robot-assisted gait training": the compound says which
    technique the phrase names, and the function inside it (Movement, Gait) is what its papers measure:
    the phrase is the concept, searched as written with its acronym, not the function's heading."""
    result = concepts_of(
        vocabulary,
        "Constraint-induced movement therapy (CIMT) versus conventional rehabilitation for upper limb "
        "function after stroke",
        context=["Constraint-induced movement therapy (CIMT)", "conventional rehabilitation"],
        output_target=["upper limb function after stroke"],
    )
    query = pubmed_query(result)
    assert '"Movement"[Mesh]' not in query and "movement*[tiab]" not in query
    assert "constraint-induced movement therap" in query.lower() and "CIMT[tiab]" in query
    result = concepts_of(
        vocabulary,
        "Robot-assisted gait training for people with spinal cord injury",
        subject_population=["people with spinal cord injury"],
        context=["Robot-assisted gait training"],
    )
    assert '"Gait"[Mesh]' not in pubmed_query(result)
    assert ("Robot-assisted gait training", "intervention", True) in summary(result)


def test_an_x_based_kind_mesh_files_under_the_head_replaces_the_head(vocabulary: MeshVocabulary) -> None:
    """ "mindfulness-based cognitive therapy": MeSH files Mindfulness under Cognitive Behavioral Therapy,
    so the phrase names that kind: Mindfulness and the phrase, not every cognitive therapy OR'ed in;
    "internet-based" names no kind of the therapy, which keeps its heading."""
    result = concepts_of(
        vocabulary,
        "Mindfulness-based cognitive therapy (MBCT) to prevent relapse in recurrent depression",
        subject_population=["recurrent depression"],
        context=["Mindfulness-based cognitive therapy (MBCT)"],
        output_target=["relapse"],
    )
    query = pubmed_query(result)
    assert '"Mindfulness"[Mesh]' in query and "MBCT[tiab]" in query
    assert '"Cognitive Behavioral Therapy"[Mesh]' not in query
    result = concepts_of(
        vocabulary,
        "Internet-based cognitive behavioural therapy for adolescents with depression",
        subject_population=["adolescents with depression"],
        context=["Internet-based cognitive behavioural therapy"],
    )
    assert '"Cognitive Behavioral Therapy"[Mesh]' in pubmed_query(result)


def test_a_written_plan_after_what_is_done_is_searched_with_its_heading(vocabulary: MeshVocabulary) -> None:
    """ "enhanced recovery after surgery protocols": the protocol is how the recovery programme is written
    down; Enhanced Recovery After Surgery is the block's heading (the phrase had been free text); a
    "trial protocol" alone is no intervention."""
    result = concepts_of(
        vocabulary,
        "Enhanced recovery after surgery protocols and hospital stay after pancreaticoduodenectomy",
        context=["Enhanced recovery after surgery protocols", "pancreaticoduodenectomy"],
        output_target=["hospital stay"],
    )
    assert '"Enhanced Recovery After Surgery"[Mesh]' in pubmed_query(result)


def test_a_lone_modifier_compared_with_a_phrase_takes_its_head(vocabulary: MeshVocabulary) -> None:
    """ "We compare regional with general anaesthesia": "regional" (cut apart by the understanding) is the
    regional anaesthesia, Anesthesia, Conduction (it had been dropped as an adjective naming nothing)."""
    result = concepts_of(
        vocabulary,
        "We compare regional with general anaesthesia for hip fracture surgery.",
        context=["regional", "general anaesthesia", "hip fracture surgery"],
    )
    assert '"Anesthesia, Conduction"[Mesh]' in pubmed_query(result)


def test_x_based_y_takes_the_heading_mesh_names_without_based(vocabulary: MeshVocabulary) -> None:
    """ "simulation-based training": MeSH's Simulation Training, and the phrase as written beside it (it
    had been free text alone); "evidence-based practice", a heading as written, is left alone."""
    result = concepts_of(
        vocabulary,
        "Simulation-based training for central venous catheter insertion",
        context=["Simulation-based training"],
        output_target=["central venous catheter insertion"],
    )
    query = pubmed_query(result)
    assert '"Simulation Training"[Mesh]' in query and '"Simulation-based training"[tiab]' in query
    result = concepts_of(
        vocabulary,
        "Evidence-based practice in nursing",
        context=["Evidence-based practice"],
        subject_population=["nursing"],
    )
    assert '"Evidence-Based Practice"[Mesh]' in pubmed_query(result)


def test_a_place_or_provision_named_by_what_it_holds_is_searched_with_its_heading(
    vocabulary: MeshVocabulary,
) -> None:
    """ "fracking sites", "pay-for-performance schemes": the organisational noun after the one descriptor
    adds nothing a paper writes; the block is the descriptor's, and keeps its role (an exposure here)."""
    result = concepts_of(
        vocabulary,
        "Living near fracking sites and asthma in children",
        subject_population=["children"],
        output_target=["asthma"],
        context=["fracking sites"],
    )
    assert '"Hydraulic Fracking"[Mesh]' in pubmed_query(result)
    fracking = next(t for t in result.terms if t.mesh and t.mesh.heading == "Hydraulic Fracking")
    assert next(c for c in result.concepts if c.id == fracking.concept).required


def test_a_substance_handed_over_is_searched_with_its_heading(vocabulary: MeshVocabulary) -> None:
    """ "take-home naloxone distribution programmes": distributing naloxone is what every paper of the
    programmes names, so Naloxone is the block's heading (the phrase had been free text alone); a noun of
    handing over follows only a substance ("gait distribution" is no gait)."""
    result = concepts_of(
        vocabulary,
        "Take-home naloxone distribution programmes for people who use opioids",
        context=["Take-home naloxone distribution programmes"],
        subject_population=["people who use opioids"],
    )
    assert '"Naloxone"[Mesh]' in pubmed_query(result)


def test_the_form_a_substance_is_given_in_is_no_concept(vocabulary: MeshVocabulary) -> None:
    """ "chlorhexidine bathing", "ketamine infusion": the substance is what every paper names, the form
    only how it is given; the phrase had been free text alone (bathing is no MeSH word), or Infusions,
    Parenteral a required block of its own. A form after no substance stays ("anti-VEGF injections")."""
    bathing = concepts_of(
        vocabulary,
        "Chlorhexidine bathing in intensive care units",
        context=["Chlorhexidine bathing"],
        subject_population=["intensive care units"],
    )
    assert '"Chlorhexidine"[Mesh]' in pubmed_query(bathing)
    infusion = concepts_of(
        vocabulary,
        "Ketamine infusion for depression",
        context=["ketamine infusion"],
        output_target=["depression"],
    )
    assert '"Ketamine"[Mesh]' in pubmed_query(infusion) and "Infusions" not in pubmed_query(infusion)
    # a lay name of a class written with a dosage form names no substance: "water pills" are no Water
    pills = concepts_of(vocabulary, "Water pills and gout", context=["water pills"], output_target=["gout"])
    assert '"Water"[Mesh]' not in pubmed_query(pills)


def test_adjectives_of_how_a_substance_is_given_leave_it_the_concept(vocabulary: MeshVocabulary) -> None:
    """ "prophylactic phenylephrine infusion", "daily chlorhexidine bathing": adjectives before the
    substance say how it is given, as a hyphenated compound does; the phrase had been free text alone
    (and an optional setting). Before a thing that is no substance they stay part of a compound MeSH does
    not name ("inspiratory muscle training" is no training of Muscles)."""
    infusion = concepts_of(
        vocabulary,
        "Is a prophylactic phenylephrine infusion better than ephedrine at preventing hypotension?",
        context=["prophylactic phenylephrine infusion"],
        output_target=["hypotension"],
    )
    assert '"Phenylephrine"[Mesh]' in pubmed_query(infusion)
    training = concepts_of(
        vocabulary, "inspiratory muscle training for COPD", context=["inspiratory muscle training"]
    )
    assert '"Muscles"[Mesh]' not in pubmed_query(training)


def test_a_substance_named_by_its_presence_is_the_substance(vocabulary: MeshVocabulary) -> None:
    """ "microplastic contamination": the substance every paper names, where the phrase had been free
    text alone because MeSH does not know its head."""
    result = concepts_of(
        vocabulary,
        "We study microplastic contamination in freshwater fish",
        output_target=["microplastic contamination"],
        subject_population=["freshwater fish"],
    )
    assert '"Microplastics"[Mesh]' in pubmed_query(result)


def test_a_word_before_a_measure_of_it_names_its_family(vocabulary: MeshVocabulary) -> None:
    """ "fracture risk": the risk of fractures, searched as Fractures, Bone; MeSH knows neither the phrase
    nor "fracture" alone, and the phrase had been free text."""
    result = concepts_of(
        vocabulary,
        "vitamin D and fracture risk in older women",
        context=["vitamin D"],
        output_target=["fracture risk"],
        subject_population=["older women"],
    )
    assert '"Fractures, Bone"[Mesh]' in pubmed_query(result)


def test_a_modifier_cut_from_a_design_in_another_slot_is_that_design(vocabulary: MeshVocabulary) -> None:
    """ "case-control and cohort studies", read as a task "case-control" and a method "cohort studies":
    the modifier shares the design noun wherever the design stands, and is a kind of study asked for;
    it had been a free-text block ANDed with the concepts."""
    result = concepts_of(
        vocabulary,
        "Mobile phone use and glioma: a meta-analysis of case-control and cohort studies",
        task=["meta-analysis", "case-control"],
        method_measurement=["cohort studies"],
        subject_population=["glioma"],
        output_target=["Mobile phone use"],
    )
    assert "case-control" not in pubmed_query(result).lower()
    assert '"Glioma"[Mesh]' in pubmed_query(result)


def test_what_people_are_taking_is_required(vocabulary: MeshVocabulary) -> None:
    """ "older women taking PPIs": what the people take is the exposure, required like a treatment
    given; an acronym MeSH does not know had been an optional setting."""
    result = concepts_of(
        vocabulary,
        "fractures in older women taking PPIs",
        context=["fractures", "PPIs"],
        subject_population=["older women"],
    )
    assert "PPIs[tiab]" in pubmed_query(result)


def test_complications_alone_are_no_concept(vocabulary: MeshVocabulary) -> None:
    """ "... in terms of conversion and complications": like "harms" or "outcomes", the word every paper
    of a field writes is no block to AND; alone it had reached Pregnancy Complications through the end of
    MeSH's terms ("Pregnancy Complications, Infectious", ...) in a question about rectal surgery."""
    result = concepts_of(
        vocabulary,
        "Robotic surgery for rectal cancer: conversion to open surgery and complications",
        context=["Robotic surgery"],
        subject_population=["rectal cancer"],
        output_target=["conversion to open surgery", "complications"],
    )
    assert "Pregnancy Complications" not in pubmed_query(result)
    assert "complications" not in [c.label for c in result.concepts]


def test_the_kinds_of_a_class_of_outcomes_listed_after_the_colon_join_its_block(
    vocabulary: MeshVocabulary,
) -> None:
    """'... and adverse birth outcomes: preterm birth, low birth weight and birth defects': the subtitle
    lists what the outcomes are, a searcher ORs them into one block; 'low birth weight' there is the
    state measured, not the people (Infant, Low Birth Weight) the review is about."""
    title = (
        "Residential proximity to unconventional natural gas development (fracking) and adverse birth "
        "outcomes: preterm birth, low birth weight and birth defects"
    )
    result = concepts_of(
        vocabulary,
        title,
        subject_population=["low birth weight"],
        output_target=["adverse birth outcomes", "preterm birth", "birth defects"],
        context=["Residential proximity to unconventional natural gas development"],
    )
    (outcomes,) = [c for c in result.concepts if c.label.startswith("adverse birth outcomes")]
    members = {t.canonical for t in result.terms if t.concept == outcomes.id}
    assert {"adverse birth outcomes", "preterm birth", "low birth weight", "birth defects"} <= members
    assert outcomes.required
    assert not any(c.role.value == "population" and c.required for c in result.concepts)


def test_the_examples_of_a_class_join_its_block(vocabulary: MeshVocabulary) -> None:
    """'adverse birth outcomes such as preterm birth and low birth weight': one block of the class and
    its examples, not three required blocks a paper must all name."""
    description = (
        "We examine whether living near fracking sites is associated with adverse birth outcomes such as "
        "preterm birth and low birth weight."
    )
    result = concepts_of(
        vocabulary,
        description,
        subject_population=["low birth weight"],
        output_target=["adverse birth outcomes", "preterm birth"],
        context=["fracking sites"],
    )
    (outcomes,) = [c for c in result.concepts if c.label.startswith("adverse birth outcomes")]
    members = {t.canonical for t in result.terms if t.concept == outcomes.id}
    assert {"adverse birth outcomes", "preterm birth", "low birth weight"} <= members
    assert pubmed_query(result).count(" AND ") == 1


def test_an_intervention_done_with_a_coarse_heading_keeps_it(vocabulary: MeshVocabulary) -> None:
    """ "virtual reality training", "text message reminders": MeSH files every kind of computing under a
    few headings, so a kind written before its class is searched as written ("graph neural networks"),
    but an intervention noun after the heading names what is done with it, and every paper of it writes
    the heading's words."""
    result = concepts_of(
        vocabulary,
        "Virtual reality training after stroke",
        context=["virtual reality training"],
        subject_population=["stroke"],
    )
    assert '"Virtual Reality"[Mesh]' in pubmed_query(result)
    networks = concepts_of(
        vocabulary,
        "molecular property prediction with graph neural networks",
        method_algorithm=["graph neural networks"],
    )
    assert "Neural Networks, Computer" not in pubmed_query(networks)


def test_a_period_of_life_written_after_in_is_who_is_studied(vocabulary: MeshVocabulary) -> None:
    """ "iron deficiency anaemia in pregnancy": the pregnancy says who is studied, as "pregnant women"
    would, and is AND'ed, though MeSH files it among physiological phenomena (an optional outcome
    otherwise); pregnancy named only in a subtitle's outcome is not."""
    description = "Intravenous versus oral iron for iron deficiency anaemia in pregnancy"
    result = concepts_of(
        vocabulary,
        description,
        method_algorithm=["Intravenous iron", "oral iron"],
        subject_population=["iron deficiency anaemia"],
        output_target=["pregnancy"],
    )
    pregnancy = next(c for c in result.concepts if c.label == "pregnancy")
    assert pregnancy.required and pregnancy.role is ConceptRole.POPULATION
    assert '"Pregnancy"[Mesh]' in pubmed_query(result)
    terms = [t for t in result.terms if t.concept == pregnancy.id]
    assert not a_period_of_life_named(
        pregnancy, terms, "smoking cessation: abstinence at the end of pregnancy"
    )


def test_a_drug_mesh_has_no_descriptor_for_is_given_by_its_inn_stem(vocabulary: MeshVocabulary) -> None:
    # an INN (WHO's stems: -mab, -xaban, -imus) read where the slot says only "outcome" or "setting":
    # the drug is what is given, required like a descriptor of the drugs tree
    result = concepts_of(
        vocabulary,
        "We study nemolizumab in adults with prurigo nodularis.",
        output_target=["nemolizumab"],
        subject_population=["adults with prurigo nodularis"],
    )
    roles = {label: (role, required) for label, role, required in summary(result)}
    assert roles["nemolizumab"] == ("intervention", True)


def test_a_regimen_built_on_a_drug_is_given_and_searched_by_the_drug(vocabulary: MeshVocabulary) -> None:
    # "dolutegravir-based ART": the drug the regimen is built on (an INN: -vir) is what is given, so the
    # phrase is required, and searched by the drug's name, which papers write where the phrase is rare
    result = concepts_of(
        vocabulary,
        "Among people living with HIV, does switching to dolutegravir-based ART lead to weight gain?",
        subject_population=["people with HIV"],
        output_target=["weight gain"],
        context=["dolutegravir-based ART"],
    )
    roles = {label: (role, required) for label, role, required in summary(result)}
    assert roles["dolutegravir-based ART"] == ("intervention", True)
    assert "dolutegravir[tiab]" in pubmed_query(result)


def test_a_bracketed_alias_inside_a_listed_phrase_keeps_the_list(vocabulary: MeshVocabulary) -> None:
    # "hygiene (WASH) interventions": the brackets are an aside inside the phrase the list ends with
    description = "Water, sanitation and hygiene (WASH) interventions for preventing diarrhoea"
    series = listed_together(description, ["Water", "sanitation", "hygiene interventions", "diarrhoea"])
    assert series["Water"] == series["sanitation"] == series["hygiene interventions"] != series["diarrhoea"]


def test_a_list_of_kinds_of_one_intervention_is_one_concept(vocabulary: MeshVocabulary) -> None:
    # "water, sanitation and hygiene interventions": kinds of one intervention, OR'ed in one block
    # although MeSH files Water (D) and Sanitation (N) under different trees
    description = "Water, sanitation and hygiene (WASH) interventions for preventing diarrhoea in children"
    result = concepts_of(
        vocabulary,
        description,
        context=["Water", "sanitation", "hygiene interventions"],
        output_target=["diarrhoea"],
        subject_population=["children"],
    )
    blocks = [
        {t.mesh.heading for t in result.terms if t.concept == c.id and t.mesh is not None}
        for c in result.concepts
    ]
    assert {"Water", "Sanitation", "Hygiene"} in blocks


def test_non_names_what_the_thing_is_not(vocabulary: MeshVocabulary) -> None:
    # "chronic non-cancer pain" is the pain of anything but cancer: no Cancer Pain
    result = concepts_of(
        vocabulary,
        "Opioid tapering for chronic non-cancer pain",
        context=["Opioid tapering"],
        subject_population=["chronic non-cancer pain"],
    )
    assert "Cancer Pain" not in [t.mesh.heading for t in result.terms if t.mesh]
    # a heading MeSH writes with its "non" keeps it
    result = concepts_of(
        vocabulary,
        "Non-invasive ventilation for non-small cell lung cancer",
        context=["Non-invasive ventilation"],
        subject_population=["non-small cell lung cancer"],
    )
    headings = {t.mesh.heading for t in result.terms if t.mesh}
    assert {"Noninvasive Ventilation", "Carcinoma, Non-Small-Cell Lung"} <= headings


def test_an_acronym_of_a_phrases_last_words_leaves_the_headings_before_it(vocabulary: MeshVocabulary) -> None:
    """'Deprescribing proton pump inhibitors (PPIs)': the acronym is a second name of the drugs, not the
    head of the phrase; left in, no heading covered it and the phrase was one free term."""
    result = concepts_of(
        vocabulary,
        "Deprescribing proton pump inhibitors (PPIs) in older adults",
        subject_population=["older adults"],
        context=["Deprescribing proton pump inhibitors (PPIs)"],
    )
    headings = {t.mesh.heading: t for t in result.terms if t.mesh is not None}
    assert {"Deprescriptions", "Proton Pump Inhibitors"} <= set(headings)
    assert "PPIs" in {s.text for s in headings["Proton Pump Inhibitors"].synonyms}


def test_an_acronym_of_a_whole_phrase_read_as_a_heading_placed_before_is_kept(
    vocabulary: MeshVocabulary,
) -> None:
    """'rotational thromboelastometry (ROTEM)' is read as Thrombelastography, which 'thromboelastography
    (TEG)' placed first: the user's acronym joins the term kept, and the whole phrase is no free term."""
    result = concepts_of(
        vocabulary,
        "Thromboelastography (TEG) and rotational thromboelastometry (ROTEM) for trauma-induced coagulopathy",
        context=["Thromboelastography (TEG)", "rotational thromboelastometry (ROTEM)"],
        output_target=["trauma-induced coagulopathy"],
    )
    kept = next(t for t in result.terms if t.mesh is not None and t.mesh.heading == "Thrombelastography")
    assert {"TEG", "ROTEM"} <= {s.text for s in kept.synonyms}
    assert not any("(" in t.canonical for t in result.terms)


def test_a_word_the_user_wrote_for_a_heading_placed_before_is_searched_as_written(
    vocabulary: MeshVocabulary,
) -> None:
    """'relapse' is Recurrence, which 'recurrent depression' placed first: the heading's [tiab] words
    ("recurrent", "recurrence") do not hold the word the papers on relapse write, so it joins them."""
    result = concepts_of(
        vocabulary,
        "Does mindfulness-based cognitive therapy reduce relapse in recurrent depression compared with "
        "maintenance antidepressants?",
        subject_population=["recurrent depression"],
        output_target=["relapse"],
        context=["mindfulness-based cognitive therapy", "maintenance antidepressants"],
    )
    kept = next(t for t in result.terms if t.mesh is not None and t.mesh.heading == "Recurrence")
    assert "relapse" in {s.text for s in kept.synonyms}


def test_a_place_of_care_mesh_does_not_name_the_people_live_in_is_the_setting(
    vocabulary: MeshVocabulary,
) -> None:
    """'older adults living in care homes': an institution of care, as 'nursing homes' is, is where the
    review is set, though MeSH does not name it; 'living in their own homes' is no such place."""
    result = concepts_of(
        vocabulary,
        "Chlorhexidine varnish for preventing root caries in older adults living in care homes",
        subject_population=["older adults"],
        output_target=["root caries"],
        context=["Chlorhexidine varnish", "care homes"],
    )
    assert ("care homes", "setting", True) in summary(result)
    own = concepts_of(
        vocabulary,
        "Exercise for depression in older people living in their own homes",
        subject_population=["older people"],
        output_target=["depression"],
        context=["Exercise", "own homes"],
    )
    assert {c.label: c.required for c in own.concepts}.get("own homes") is not True


def test_the_usual_kind_of_one_head_compared_is_the_control_arm(vocabulary: MeshVocabulary) -> None:
    """ "Hypofractionated versus conventional whole-breast radiotherapy": the conventional kind is the
    care given anyway, left out like usual care; the kind compared stays with the head apart (the block
    had been Hypofractionated OR conventional*)."""
    result = concepts_of(
        vocabulary,
        "Cemented versus conventional hemiarthroplasty for hip fracture",
        context=["Cemented versus conventional hemiarthroplasty"],
        output_target=["hip fracture"],
    )
    query = pubmed_query(result).lower()
    assert "conventional" not in query and "cemented" in query and "hemiarthroplasty" in query


def test_the_head_of_kinds_compared_is_no_block_with_them(vocabulary: MeshVocabulary) -> None:
    """ "Robotic versus laparoscopic rectal cancer surgery": the kinds compared are one block, but the
    head they share holds a condition and a procedure word as any phrase does; "surgery" had been OR'ed
    into the Rectal Neoplasms block (any surgical paper matched it)."""
    result = concepts_of(
        vocabulary,
        "robotic versus laparoscopic rectal cancer surgery",
        context=["robotic versus laparoscopic rectal cancer surgery"],
    )
    blocks = pubmed_query(result).split(" AND ")
    assert not any("Rectal Neoplasms" in block and "surgery" in block for block in blocks)
    assert any("Robotic Surgical Procedures" in block and "Laparoscopy" in block for block in blocks)


def test_words_of_approval_read_apart_from_their_designs_are_no_concept(vocabulary: MeshVocabulary) -> None:
    """ "Time-series and case-crossover studies welcome.": the designs are filters and "welcome", read as a
    phrase of its own, names nothing to search."""
    result = concepts_of(
        vocabulary,
        "Does wildfire smoke increase admissions for asthma? Time-series and case-crossover studies welcome.",
        method_measurement=["wildfire smoke"],
        output_target=["welcome"],
        subject_population=["asthma"],
        context=["Time-series and case-crossover studies"],
    )
    assert "welcome" not in pubmed_query(result).lower()
    assert [f.text for f in result.study_filters] == ["Time-series and case-crossover studies"]


def test_a_source_of_evidence_beside_a_design_is_a_filter(vocabulary: MeshVocabulary) -> None:
    """ "Cohort studies and registries are both fine": the registries are evidence accepted, like the
    design beside them, not a block to AND; registries the question is about stay a concept."""
    result = concepts_of(
        vocabulary,
        "Do statins lower the risk of dementia in older adults? Cohort studies and registries are both fine.",
        method_measurement=["statins"],
        output_target=["dementia"],
        subject_population=["older adults"],
        context=["registries"],
    )
    assert "registries" in [f.text for f in result.study_filters]
    assert "registr" not in pubmed_query(result).lower()
    topic = concepts_of(
        vocabulary,
        "Completeness of cancer registries in low-income countries",
        task=["completeness of cancer registries"],
        context=["registries", "low-income countries"],
    )
    assert "registr" in pubmed_query(topic).lower()


def test_a_class_no_heading_names_takes_the_role_of_its_bracketed_kinds(vocabulary: MeshVocabulary) -> None:
    """'gabapentinoids (pregabalin, gabapentin)': the class MeSH does not name is no optional setting
    once its kinds join it: the drugs make it the required intervention."""
    description = "Chronic low back pain: are gabapentinoids (pregabalin, gabapentin) better than placebo?"
    result = concepts_of(
        vocabulary,
        description,
        output_target=["chronic low back pain"],
        context=["gabapentinoids", "pregabalin", "gabapentin"],
    )
    (drugs,) = [c for c in result.concepts if c.label.startswith("gabapentinoids")]
    assert {t.canonical for t in result.terms if t.concept == drugs.id} >= {"pregabalin", "gabapentin"}
    assert drugs.role is ConceptRole.INTERVENTION and drugs.required


def test_a_condition_taken_with_or_without_joins_the_block_of_its_role(vocabulary: MeshVocabulary) -> None:
    """'chronic low back pain, with or without sciatica': one block of the pain OR sciatica, never
    sciatica AND'ed as a block of its own."""
    description = "Do gabapentinoids help people with chronic low back pain, with or without sciatica?"
    result = concepts_of(
        vocabulary,
        description,
        output_target=["chronic low back pain", "sciatica"],
        context=["gabapentinoids"],
    )
    (sciatica,) = [t for t in result.terms if t.canonical == "sciatica"]
    (block,) = [c for c in result.concepts if c.id == sciatica.concept]
    assert block.required and any(t.concept == block.id and "back pain" in t.canonical for t in result.terms)


def test_what_the_people_are_without_is_its_own_optional_concept(vocabulary: MeshVocabulary) -> None:
    """'patients with type 2 diabetes without established cardiovascular disease': the disease they do
    not have had been OR'ed into the diabetes block (finding the papers about it); it is a concept of
    its own, shown, never AND'ed. 'Surgery with versus without drainage' still compares drainage."""
    description = "Efficacy of SGLT2 inhibitors in patients with type 2 diabetes without established cardiovascular disease"
    result = concepts_of(
        vocabulary,
        description,
        subject_population=["patients with type 2 diabetes without established cardiovascular disease"],
        context=["SGLT2 inhibitors"],
    )
    heading_of = {t.concept: t.mesh.heading for t in result.terms if t.mesh is not None}
    lacked = next(c for c in result.concepts if heading_of.get(c.id) == "Cardiovascular Diseases")
    diabetes = next(c for c in result.concepts if heading_of.get(c.id) == "Diabetes Mellitus, Type 2")
    assert diabetes.required and not lacked.required and "without" in lacked.reason
    assert "Cardiovascular Diseases" not in pubmed_query(result)
    drainage = concepts_of(
        vocabulary, "Surgery with versus without drainage for pilonidal sinus", context=["drainage"]
    )
    assert all(c.required for c in drainage.concepts)


def test_a_noun_before_a_heading_s_head_stays_in_the_words(vocabulary: MeshVocabulary) -> None:
    """ "minimum wage" is filed under Salaries and Fringe Benefits by its head alone: the heading is
    searched, and the words keep the noun that makes them a kind of wage (not wage[tiab], every paper
    on pay); a condition's kind is searched by its own word ("childhood asthma": asthma)."""
    result = concepts_of(
        vocabulary,
        "Does raising the minimum wage improve the health of low-paid workers?",
        context=["minimum wage"],
    )
    wage = next(
        t for t in result.terms if t.mesh is not None and t.mesh.heading == "Salaries and Fringe Benefits"
    )
    assert wage.canonical == "minimum wage"
    query = pubmed_query(result)
    assert '"minimum wage' in query and "wage[tiab]" not in query
    asthma = concepts_of(
        vocabulary, "Smoke-free laws and childhood asthma", output_target=["childhood asthma"]
    )
    assert "asthma[tiab]" in pubmed_query(asthma)


def test_a_graded_property_before_a_material_names_its_class(vocabulary: MeshVocabulary) -> None:
    """ "high-strength steels" is a class of steel materials science searches as written beside Steel;
    a graded dose before a drug keeps the drug's word ("low-dose aspirin": aspirin[tiab])."""
    steels = concepts_of(
        vocabulary,
        "Hydrogen embrittlement of high-strength steels",
        subject_population=["high-strength steels"],
        context=["Hydrogen embrittlement"],
    )
    steel = next(t for t in steels.terms if t.mesh is not None and t.mesh.heading == "Steel")
    assert steel.canonical == "high-strength steels"
    assert '"high-strength steels"[tiab]' in pubmed_query(steels)
    aspirin = concepts_of(
        vocabulary, "Low-dose aspirin for preventing preeclampsia", context=["low-dose aspirin"]
    )
    assert "aspirin[tiab]" in pubmed_query(aspirin)


def test_examples_of_a_class_left_unnamed_are_one_block(vocabulary: MeshVocabulary) -> None:
    # "- exercise, home modification, that kind of thing": alternatives, ORed, not each AND'ed
    result = concepts_of(
        vocabulary,
        "falls prevention in older people - exercise, home modification, that kind of thing",
        task=["falls prevention"],
        subject_population=["older people"],
        output_target=["exercise"],
        context=["home modification"],
    )
    exercise = next(t.concept for t in result.terms if t.canonical == "exercise")
    assert next(t.concept for t in result.terms if t.canonical == "home modification") == exercise


def test_who_delivers_an_intervention_names_its_kind_where_mesh_has_no_person(
    vocabulary: MeshVocabulary,
) -> None:
    """ "peer-led": MeSH writes "peer" only before another word (Peer Group, Peer Review), which had made
    the compound a modifier of degree like "long-term", and the concept had been dropped ("peer-led
    interventions" optional; "peer-led HIV prevention interventions" only HIV). Who leads names the
    kind of intervention, searched as papers write it; a person MeSH names still is a block of its own."""
    alone = concepts_of(
        vocabulary,
        "peer-led interventions for HIV prevention",
        context=["peer-led interventions"],
        task=["HIV"],
    )
    assert ("peer-led", "intervention", True) in summary(alone)
    assert '"peer-led"[tiab]' in pubmed_query(alone)
    within = concepts_of(
        vocabulary,
        "peer-led HIV prevention interventions for men who have sex with men",
        context=["peer-led HIV prevention interventions"],
        subject_population=["men who have sex with men"],
    )
    assert ("peer-led", "intervention", True) in summary(within)
    assert any(label == "HIV" and required for label, _, required in summary(within))
    nurses = concepts_of(vocabulary, "nurse-led diabetes education", context=["nurse-led diabetes education"])
    assert any(t.mesh and t.mesh.heading == "Nurses" for t in nurses.terms)


def test_a_led_phrase_that_mesh_names_whole_is_one_concept(vocabulary: MeshVocabulary) -> None:
    """ "nurse-led clinics" is an entry term of Practice Patterns, Nurses': the phrase is that heading,
    not "nurse-led" beside "clinics" (whose rest had been widened back to the whole phrase, a recursion
    that never ended and left the title with no query)."""
    result = concepts_of(
        vocabulary,
        "Nurse-led clinics for adults with RA: a systematic review",
        context=["Nurse-led clinics"],
        subject_population=["adults with RA"],
    )
    assert any(t.mesh and t.mesh.heading == "Practice Patterns, Nurses'" for t in result.terms)


def test_a_comparator_side_that_names_only_who_delivers_it_is_left_out(vocabulary: MeshVocabulary) -> None:
    """ "... versus clinician-delivered therapy": the later side names only who delivers the usual
    therapy, a comparator (shown, not AND'ed), as "versus usual therapy" is."""
    result = concepts_of(
        vocabulary,
        "Parent-implemented language interventions versus clinician-delivered therapy for toddlers with language delay",
        context=["Parent-implemented language interventions versus clinician-delivered therapy"],
        subject_population=["toddlers with language delay"],
    )
    assert ("clinician-delivered", "intervention", False) in summary(result)
    assert "clinician" not in pubmed_query(result)


def test_outside_medicine_a_setting_is_a_block_the_search_ands(vocabulary: MeshVocabulary) -> None:
    """A description that names nothing of biomedicine: its "setting" is the system the question is
    about ("in smart grids"), not a place of care that only narrows a review."""
    result = concepts_of(
        vocabulary,
        "Demand response for electric vehicle charging in smart grids",
        task=["Demand response"],
        subject_population=["electric vehicle charging"],
        context=["smart grids"],
    )
    assert ("smart grids", "setting", True) in summary(result)


def test_a_setting_a_title_opens_with_is_what_it_is_about(vocabulary: MeshVocabulary) -> None:
    """The noun phrase a title opens with, before its first preposition, is its topic, whatever slot
    the understanding filed it in ("Thermal modification | of wood"), even where "wood" is biomedical
    to MeSH (a plant structure)."""
    result = concepts_of(
        vocabulary,
        "Thermal modification of wood to improve dimensional stability",
        context=["Thermal modification"],
        subject_population=["wood"],
        output_target=["dimensional stability"],
    )
    assert ("Thermal modification", "setting", True) in summary(result)
    assert opens_the_title("wear", "Friction and wear of graphene as a solid lubricant")
    assert not opens_the_title("care homes", "Falls prevention in care homes")


def test_an_acronym_mesh_does_not_write_after_the_people_s_with_is_their_condition(
    vocabulary: MeshVocabulary,
) -> None:
    """ "women with PCOS": an acronym MeSH has no entry for, after "with", is what the people have. It
    had been an optional population ("the condition already defines who is studied") beside infertility,
    and PCOS never reached the query."""
    result = concepts_of(
        vocabulary,
        "Metformin for women with PCOS and infertility.",
        context=["Metformin"],
        subject_population=["women with PCOS", "infertility"],
    )
    assert ("PCOS", "condition", True) in summary(result)
    assert "PCOS[tiab]" in pubmed_query(result)


def test_free_words_after_the_people_s_with_are_their_condition(vocabulary: MeshVocabulary) -> None:
    """ "neonates with respiratory distress": words MeSH does not name after the "with" of the people are
    what they have, a block of their own; they had been OR'ed into the newborns' block, so any newborn
    paper matched it."""
    result = concepts_of(
        vocabulary,
        "lung ultrasound in neonates with respiratory distress",
        context=["lung ultrasound"],
        subject_population=["neonates with respiratory distress"],
    )
    assert ("respiratory distress", "condition", True) in summary(result)
    assert ' AND ("respiratory distress"[tiab]) AND ' in pubmed_query(result)


def test_the_organ_a_procedure_is_done_on_is_kept(vocabulary: MeshVocabulary) -> None:
    """ "lung biopsy": Lung sits one level under its system, too shallow for a word alone elsewhere, but
    before a procedure it says which biopsy; it had vanished and every biopsy matched."""
    result = concepts_of(vocabulary, "complications of lung biopsy", method_measurement=["lung biopsy"])
    assert ("lung", "anatomy", True) in summary(result)
    assert "lung" in pubmed_query(result)
    # the organ alone, or after the procedure, is still no heading of its own
    alone = concepts_of(vocabulary, "lung function in smokers", output_target=["lung function"])
    assert "Lung" not in [t.mesh.heading for t in alone.terms if t.mesh]


def test_the_imaging_that_guides_a_procedure_is_a_concept_of_its_own(vocabulary: MeshVocabulary) -> None:
    """ "ultrasound-guided nerve blocks": Ultrasonography and Nerve Block are both techniques (E), and had
    been one block OR'ing every ultrasound paper in; the guide is AND'ed, under MeSH's interventional
    heading ("Ultrasonography, Interventional", as indexers file guided procedures)."""
    result = concepts_of(
        vocabulary,
        "ultrasound-guided nerve blocks after caesarean section",
        context=["ultrasound-guided nerve blocks", "caesarean section"],
    )
    query = pubmed_query(result)
    assert '("Ultrasonography, Interventional"[Mesh] OR ultrasound[tiab]' in query
    assert ') AND ("Nerve Block"[Mesh]' in query
    # a biomarker guides too: procalcitonin and the antibiotics are two blocks
    biomarker = concepts_of(
        vocabulary,
        "procalcitonin-guided antibiotic therapy in sepsis",
        context=["procalcitonin-guided antibiotic therapy"],
        subject_population=["sepsis"],
    )
    labels = [label for label, _, required in summary(biomarker) if required]
    assert "procalcitonin" in labels and any("antibiotic" in label.casefold() for label in labels)


def test_findings_is_a_generic_head(vocabulary: MeshVocabulary) -> None:
    """ "MRI findings in migraine": "findings" adds nothing a paper must write; the block had been the
    phrase as written ("MRI finding*"[tiab]) instead of Magnetic Resonance Imaging."""
    result = concepts_of(
        vocabulary, "MRI findings in migraine", context=["MRI findings"], subject_population=["migraine"]
    )
    assert '"Magnetic Resonance Imaging"[Mesh]' in pubmed_query(result)


def test_an_act_of_care_named_without_the_patient_is_searched_with_its_heading(
    vocabulary: MeshVocabulary,
) -> None:
    """ "reduce readmissions": MeSH's Patient Readmission (the word alone is no MeSH term, and the block
    had been free text); in a description of rivers, "discharge" is water's, no Patient Discharge."""
    result = concepts_of(
        vocabulary,
        "Does telephone follow-up reduce readmissions in heart failure?",
        context=["telephone follow-up", "heart failure"],
        output_target=["readmissions"],
    )
    assert '"Patient Readmission"[Mesh]' in pubmed_query(result)
    rivers = concepts_of(
        vocabulary, "We model discharge in mountain rivers.", context=["discharge", "mountain rivers"]
    )
    assert "Patient Discharge" not in pubmed_query(rivers)


def test_a_drug_resistant_organism_is_searched_with_the_resistance_not_the_drug(
    vocabulary: MeshVocabulary,
) -> None:
    """ "antibiotic-resistant E. coli": Drug Resistance, Bacterial AND'ed with the organism, as experts
    search it (the block had been Anti-Bacterial Agents, the drug the bacteria withstand)."""
    result = concepts_of(
        vocabulary,
        "Carriage of antibiotic-resistant E. coli in farm workers",
        subject_population=["antibiotic-resistant E. coli", "farm workers"],
    )
    query = pubmed_query(result)
    assert '("Drug Resistance, Bacterial"[Mesh]' in query
    assert "Anti-Bacterial Agents" not in query


def test_a_disease_named_as_the_time_of_a_study_does_not_stand_for_the_peoples_condition(
    vocabulary: MeshVocabulary,
) -> None:
    # "during the COVID-19 pandemic" says when; burnout is what the question is about (it had been an
    # optional outcome beside a required COVID-19)
    result = concepts_of(
        vocabulary,
        "Burnout among nurses working in intensive care units during the COVID-19 pandemic",
        subject_population=["nurses"],
        output_target=["burnout"],
        context=["intensive care units", "COVID-19 pandemic"],
    )
    found = {label: (role, required) for label, role, required in summary(result)}
    assert found["burnout"] == ("outcome", True)
    # a disease the people have still does
    ill = concepts_of(
        vocabulary,
        "Burnout among nurses with COVID-19",
        subject_population=["nurses with COVID-19"],
        output_target=["burnout"],
    )
    assert {label: required for label, _, required in summary(ill)}["burnout"] is False


def test_a_condition_word_too_broad_for_its_heading_is_still_the_peoples_condition(
    vocabulary: MeshVocabulary,
) -> None:
    # Neoplasms is too near the top of its tree to search "cancer" on; the word is still what the people
    # have (it had been an optional population beside the fatigue, and "cancer patients" a phrase)
    for description, population in (
        ("Exercise for fatigue in patients with cancer", "patients with cancer"),
        ("Exercise for fatigue in cancer patients", "cancer patients"),
    ):
        result = concepts_of(
            vocabulary,
            description,
            subject_population=[population],
            context=["Exercise"],
            output_target=["fatigue"],
        )
        assert ("cancer", "condition", True) in [(lbl.lower(), r, q) for lbl, r, q in summary(result)]
        # searched as written, with the heading's other one-word names a searcher ORs beside it
        assert "neoplasm*[tiab] OR tumor*[tiab]" in pubmed_query(result)
        assert '"Neoplasms"[Mesh]' not in pubmed_query(result)


def test_a_condition_word_left_beside_another_concept_of_its_phrase_joins_nothing(
    vocabulary: MeshVocabulary,
) -> None:
    # "infection" of "MRSA infection" is the MRSA's own: it had been OR'ed into its block as infection*
    result = concepts_of(
        vocabulary,
        "Decolonisation for preventing MRSA infection in intensive care units",
        subject_population=["MRSA infection"],
        context=["Decolonisation", "intensive care units"],
    )
    assert "infection*[tiab]" not in pubmed_query(result)


def test_a_comparison_of_a_generic_modifier_with_another_searches_the_head(
    vocabulary: MeshVocabulary,
) -> None:
    # "early" names nothing to search: "delayed" alone had been a required block beside enteral feeding
    result = concepts_of(
        vocabulary,
        "Early versus delayed enteral feeding after gastrointestinal surgery",
        context=["Early versus delayed enteral feeding", "gastrointestinal surgery"],
    )
    assert "delayed" not in [label.lower() for label, _, _ in summary(result)]
    assert '"Enteral Nutrition"[Mesh]' in pubmed_query(result)


def test_a_drug_assisted_therapy_is_searched_by_its_drug(vocabulary: MeshVocabulary) -> None:
    # "psilocybin-assisted therapy" had been one free phrase; "ketamine-assisted psychotherapy" had OR'ed
    # the drug with the therapy
    for description, phrase, drug in (
        ("Psilocybin-assisted therapy for depression", "Psilocybin-assisted therapy", "Psilocybin"),
        ("Ketamine-assisted psychotherapy for depression", "Ketamine-assisted psychotherapy", "Ketamine"),
    ):
        query = pubmed_query(
            concepts_of(vocabulary, description, context=[phrase], output_target=["depression"])
        )
        assert f'"{drug}"[Mesh]' in query
        assert "psychotherapy" not in query.lower() and "assisted" not in query
    # a device before "-assisted" says how it is done: its thing is no drug given
    computer = concepts_of(
        vocabulary,
        "Computer-assisted cognitive training in older adults",
        context=["Computer-assisted cognitive training"],
        subject_population=["older adults"],
    )
    assert '"Cognitive Training"[Mesh]' in pubmed_query(computer)


def test_concerns_after_a_subject_are_the_subject(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Social media use and body image concerns in adolescent girls",
        context=["Social media use", "body image concerns"],
        subject_population=["adolescent girls"],
    )
    assert '"Body Image"[Mesh]' in pubmed_query(result)


def test_outside_medicine_an_acronym_before_a_compound_is_a_facet_of_its_own(
    vocabulary: MeshVocabulary,
) -> None:
    # "Piezoelectric MEMS energy harvesters": the material, the technology and the device are three
    # blocks a searcher ANDs (the phrase as written had been one term no paper writes whole)
    result = concepts_of(
        vocabulary,
        "Piezoelectric MEMS energy harvesters for low-frequency vibrations",
        context=["Piezoelectric MEMS energy harvesters"],
        subject_population=["low-frequency vibrations"],
    )
    blocks = pubmed_query(result).split(" AND ")
    assert any("Piezoelectric[tiab]" in b and "harvester" not in b for b in blocks)
    assert any("MEMS[tiab]" in b and "harvester" not in b for b in blocks)
    assert any('"energy harvester' in b and "MEMS" not in b for b in blocks)
    result = concepts_of(
        vocabulary,
        "Threshold voltage instability in GaN high electron mobility transistors",
        context=["Threshold voltage instability", "GaN high electron mobility transistors"],
    )
    query = pubmed_query(result)
    assert "(GaN[tiab])" in query and '("high electron mobility transistor' in query
    # one word after the acronym is its own head: "massive MIMO systems" stays one phrase
    kept = concepts_of(
        vocabulary,
        "Deep learning-based channel estimation for massive MIMO systems",
        task=["channel estimation"],
        context=["massive MIMO systems"],
    )
    assert "(MIMO[tiab])" not in pubmed_query(kept)


def test_outside_medicine_a_hyphenated_modifier_before_a_compound_is_a_facet_of_its_own(
    vocabulary: MeshVocabulary,
) -> None:
    # "Dual-band microstrip patch antennas": the property and the device are two blocks a searcher ANDs
    # (the phrase as written had been one term few papers write whole)
    result = concepts_of(
        vocabulary,
        "Dual-band microstrip patch antennas with defected ground structures",
        context=["Dual-band microstrip patch antennas", "defected ground structures"],
    )
    blocks = pubmed_query(result).split(" AND ")
    assert any('"Dual-band"[tiab]' in b and "antenna" not in b for b in blocks)
    assert any('"microstrip patch antenna' in b and "Dual" not in b for b in blocks)
    # one word after the modifier is its head: "lithium-ion batteries" stays one name
    kept = concepts_of(
        vocabulary,
        "Thermal runaway of lithium-ion batteries",
        context=["Thermal runaway", "lithium-ion batteries"],
    )
    assert '("lithium-ion"[tiab])' not in pubmed_query(kept)
    # a participle with a rule of its own: "magnetorquer-based" is no modifier facet here
    based = concepts_of(
        vocabulary,
        "Vibration-based fault diagnosis of rolling bearings",
        method_measurement=["Vibration-based fault diagnosis"],
        context=["rolling bearings"],
    )
    assert '"Vibration-based"' not in pubmed_query(based)


def test_outside_medicine_an_acronym_before_a_heading_s_word_is_a_facet_of_its_own(
    vocabulary: MeshVocabulary,
) -> None:
    # "UAV photogrammetry": the platform and the method are two blocks (the acronym had been dropped,
    # the heading's word finding every paper of photogrammetry); a class the acronym is a kind of stays
    result = concepts_of(
        vocabulary,
        "UAV photogrammetry for topographic surveying",
        method_measurement=["UAV photogrammetry", "topographic surveying"],
    )
    blocks = pubmed_query(result).split(" AND ")
    assert "(UAV[tiab])" in blocks
    assert any("photogrammetry[tiab]" in b and "UAV" not in b for b in blocks)
    kept = concepts_of(
        vocabulary,
        "Lightweight encryption for IoT devices",
        task=["Lightweight encryption"],
        context=["IoT devices"],
    )
    assert "(IoT[tiab])" not in pubmed_query(kept)


def test_a_noun_mesh_does_not_write_before_an_organism_names_its_species(vocabulary: MeshVocabulary) -> None:
    # "diamondback moth" is one species: searched as written beside the heading (moth[tiab] had found
    # every moth); a habitat MeSH writes keeps the organism's word ("freshwater fish": fish)
    result = concepts_of(
        vocabulary,
        "Insecticide resistance in the diamondback moth",
        subject_population=["diamondback moth"],
        output_target=["Insecticide resistance"],
    )
    query = pubmed_query(result)
    assert '"diamondback moth"[tiab]' in query and "moth[tiab]" not in query
    fish = concepts_of(
        vocabulary,
        "Microplastic ingestion by freshwater fish",
        subject_population=["freshwater fish"],
        output_target=["Microplastic ingestion"],
    )
    assert "fish[tiab]" in pubmed_query(fish)


def test_what_causes_a_condition_is_a_concept_beside_it(vocabulary: MeshVocabulary) -> None:
    """ "X-related Y", "X-induced Y", "X-associated Y" that MeSH does not name whole: the cause AND the
    effect. "cancer-related fatigue" had searched Fatigue alone, "HIV-related stigma" the words
    "-related stigma", "Stroke-related dysphagia" OR'ed Stroke with Deglutition Disorders."""
    fatigue = concepts_of(
        vocabulary,
        "Exercise for cancer-related fatigue",
        output_target=["cancer-related fatigue"],
        context=["Exercise"],
    )
    query = pubmed_query(fatigue)
    assert "(cancer[tiab])" in query and '"Fatigue"[Mesh]' in query
    assert all(c.required for c in fatigue.concepts)
    stigma = pubmed_query(concepts_of(vocabulary, "HIV-related stigma", output_target=["HIV-related stigma"]))
    assert "related" not in stigma and "stigma[tiab]" in stigma
    dysphagia = pubmed_query(
        concepts_of(vocabulary, "Stroke-related dysphagia", subject_population=["Stroke-related dysphagia"])
    )
    stroke_block = next(b for b in dysphagia.split(" AND ") if '"Stroke"[Mesh]' in b)
    assert "Deglutition" not in stroke_block and '"Deglutition Disorders"[Mesh]' in dysphagia


def test_a_cause_mesh_names_with_its_effect_stays_one_concept(vocabulary: MeshVocabulary) -> None:
    # MeSH names the whole ("ventilator-associated pneumonia"), or the effect with the cause's class
    # ("catheter-associated ... infections": Catheter-Related Infections); "age-related" names a kind
    for text, heading in [
        ("ventilator-associated pneumonia", "Pneumonia, Ventilator-Associated"),
        ("catheter-associated urinary tract infections", "Catheter-Related Infections"),
    ]:
        query = pubmed_query(concepts_of(vocabulary, f"Prevention of {text}", output_target=[text]))
        assert f'"{heading}"[Mesh]' in query
        assert "Catheters" not in query
    hearing = pubmed_query(
        concepts_of(vocabulary, "age-related hearing loss", output_target=["age-related hearing loss"])
    )
    assert "age[tiab]" not in hearing
    therapy = pubmed_query(
        concepts_of(
            vocabulary,
            "Constraint-induced movement therapy after stroke",
            context=["Constraint-induced movement therapy"],
            subject_population=["stroke"],
        )
    )
    assert "Constraint[tiab]" not in therapy and "Constraint-induced movement therap" in therapy


def test_a_cause_before_a_list_of_effects_is_no_outcome_of_the_list(vocabulary: MeshVocabulary) -> None:
    """ "chemotherapy-induced nausea and vomiting": nausea and vomiting are what the review is about, and
    the chemotherapy that causes them is an exposure, not a second outcome that makes them "one of
    several outcomes" a searcher leaves out (the Nausea/Vomiting block had gone)."""
    result = concepts_of(
        vocabulary,
        "Ginger for chemotherapy-induced nausea and vomiting in adults with cancer",
        subject_population=["Ginger", "adults with cancer"],
        output_target=["chemotherapy-induced nausea", "vomiting"],
    )
    roles = {c.label: (c.role.value, c.required) for c in result.concepts}
    assert roles["chemotherapy"] == ("intervention", True)
    assert roles["nausea / vomiting"][1] is True


def test_the_body_part_a_treatment_is_done_to_is_required(vocabulary: MeshVocabulary) -> None:
    """ "foot massage": MeSH names only Massage, so the foot says which massage (it had been optional,
    and the query searched every massage); "chest CT" stays a scan whose site searchers leave out."""
    massage = concepts_of(
        vocabulary,
        "foot massage for anxiety in ICU patients",
        subject_population=["ICU patients"],
        context=["foot massage", "anxiety"],
    )
    foot = next(c for c in massage.concepts if c.role is ConceptRole.ANATOMY)
    assert foot.required and "treatment" in foot.reason
    assert "foot[tiab]" in pubmed_query(massage)
    exercises = concepts_of(
        vocabulary,
        "pelvic floor exercises for women after childbirth",
        subject_population=["women"],
        context=["pelvic floor exercises"],
    )
    assert '("pelvic floor"[tiab]) AND' in pubmed_query(exercises)
    scan = concepts_of(
        vocabulary,
        "chest CT screening for lung cancer in smokers",
        task=["chest CT screening"],
        subject_population=["lung cancer", "smokers"],
    )
    assert not any(c.required for c in scan.concepts if c.label == "chest")
    # a body fluid or a cell before what is given is a specimen or the thing given, not a site
    transfusion = concepts_of(
        vocabulary,
        "Restrictive versus liberal red cell transfusion thresholds in people with anaemia",
        subject_population=["people with anaemia"],
        context=["red cell transfusion thresholds"],
    )
    assert "cell[tiab]" not in pubmed_query(transfusion)


def test_a_supplement_of_a_named_thing_is_searched_by_its_heading(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Vitamin D supplements to prevent falls",
        context=["Vitamin D supplements"],
        output_target=["falls"],
    )
    assert "Vitamin D" in [t.mesh.heading for t in result.terms if t.mesh]


def test_people_named_by_the_adjective_of_their_condition(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Cochlear implants in deaf children",
        subject_population=["deaf children"],
        context=["Cochlear implants"],
    )
    headings = [t.mesh.heading for t in result.terms if t.mesh]
    assert "Deafness" in headings and "Child" in headings
    result = concepts_of(
        vocabulary, "Foot care for diabetic patients", subject_population=["diabetic patients"]
    )
    assert "Diabetes Mellitus" in [t.mesh.heading for t in result.terms if t.mesh]


def test_a_complication_named_by_the_adjective_of_a_disease_adds_no_block_of_the_disease(
    vocabulary: MeshVocabulary,
) -> None:
    result = concepts_of(
        vocabulary, "Anti-VEGF agents for diabetic macular oedema", output_target=["diabetic macular oedema"]
    )
    assert "Diabetes Mellitus" not in [t.mesh.heading for t in result.terms if t.mesh]


def test_only_the_nearest_broader_heading_the_phrase_names_is_searched_unexploded(
    vocabulary: MeshVocabulary,
) -> None:
    result = concepts_of(vocabulary, "Acupuncture for chronic low back pain", output_target=["low back pain"])
    query = pubmed_query(result)
    assert '"Back Pain"[Mesh:NoExp]' in query and '"Pain"[Mesh:NoExp]' not in query


def test_how_fast_a_thing_works_is_no_block(vocabulary: MeshVocabulary) -> None:
    # "heal bed sores faster": the comparative left of the phrase is no concept to AND
    result = concepts_of(
        vocabulary,
        "What dressings heal bed sores faster in older people?",
        context=["dressings", "bed sores faster"],
    )
    labels = [c.label for c in result.concepts]
    assert "bed sores" in labels
    assert not any("faster" in label for label in labels)
