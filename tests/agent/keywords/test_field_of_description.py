"""Whether a description sits in biomedicine, and the MeSH senses of its words it does not mean."""

from __future__ import annotations

from agent.keywords.field_of_description import (
    another_fields_sense,
    compound_before,
    entry_of_another_field,
    names_biomedicine,
)
from agent.language.mesh_recognition import MeshVocabulary


def _named(vocabulary: MeshVocabulary, *texts: str) -> tuple[list[str], list[list]]:
    return list(texts), [vocabulary.recognize(text, {}) for text in texts]


def test_a_disease_or_a_whole_biomedical_phrase_is_evidence_of_medicine(vocabulary: MeshVocabulary) -> None:
    assert names_biomedicine(*_named(vocabulary, "road traffic noise", "hypertension"))
    assert names_biomedicine(*_named(vocabulary, "metformin", "friction"))  # a drug named whole
    # one word among words MeSH does not hold is no evidence for itself
    assert not names_biomedicine(*_named(vocabulary, "monetary policy shocks", "exchange rate volatility"))


def test_medical_descriptors_that_hold_a_whole_part_between_them_are_evidence(
    vocabulary: MeshVocabulary,
) -> None:
    # "ICU nurses": neither match is the whole part, but Intensive Care Units and Nurses hold it together
    assert not names_biomedicine(*_named(vocabulary, "burnout"))  # an entry term of another field's sense
    assert names_biomedicine(*_named(vocabulary, "burnout", "ICU nurses"))


def test_health_personnel_with_any_modifier_are_evidence_of_medicine(vocabulary: MeshVocabulary) -> None:
    # "oncology" is no MeSH term of its own, but nurses are the people of medicine in any words
    assert names_biomedicine(*_named(vocabulary, "burnout", "oncology nurses"))
    assert not names_biomedicine(*_named(vocabulary, "burnout", "bank managers"))
    # a word no descriptor holds still leaves the part no evidence
    assert not names_biomedicine(*_named(vocabulary, "monetary policy shocks"))


def test_patients_by_their_own_name_with_any_modifier_are_evidence_of_medicine(
    vocabulary: MeshVocabulary,
) -> None:
    # "functionality constipation patients" (a rendering of 功能性便秘患者): a word no descriptor holds,
    # but patients are the people medicine cares for
    assert names_biomedicine(*_named(vocabulary, "functionality constipation patients"))
    # "clients" is an entry term of Patients, and a word of business and social work
    assert not names_biomedicine(*_named(vocabulary, "loyalty of bank clients"))


def test_people_named_by_their_age_group_with_any_modifier_are_evidence_of_medicine(
    vocabulary: MeshVocabulary,
) -> None:
    # "left-behind children" (a rendering of 留守儿童) with depressive symptoms, "community-dwelling
    # adults" and their falls: the people medicine and public health study, named by their age
    assert names_biomedicine(*_named(vocabulary, "rural left-behind children", "depressive symptom"))
    assert names_biomedicine(*_named(vocabulary, "community-dwelling adults", "falls"))
    # people named by their role are no such evidence
    assert not names_biomedicine(*_named(vocabulary, "minimum wage", "low-skilled workers"))


def test_a_profession_of_health_care_named_whole_is_evidence_of_medicine(vocabulary: MeshVocabulary) -> None:
    # "quitting smoking before surgery and wound complications": Smoking Cessation is reached through an
    # entry term of a behavioural heading, no evidence alone; surgery (General Surgery) says medicine
    assert not names_biomedicine(*_named(vocabulary, "quitting smoking", "wound complications"))
    assert names_biomedicine(*_named(vocabulary, "quitting smoking", "surgery", "wound complications"))
    assert names_biomedicine(*_named(vocabulary, "occupational therapy", "handwriting"))
    # not an occupation MeSH files beside them
    assert not names_biomedicine(*_named(vocabulary, "specialization", "trade openness"))


def test_a_psychotherapy_named_by_an_entry_term_is_evidence_of_medicine(vocabulary: MeshVocabulary) -> None:
    # "cognitive therapy" is an entry term of Cognitive Behavioral Therapy, filed among the behavioural
    # trees, but a treatment; "burnout" reaches Burnout, Psychological the same way and stays no evidence
    assert names_biomedicine(*_named(vocabulary, "mindfulness-based cognitive therapy", "relapse"))
    assert not names_biomedicine(*_named(vocabulary, "burnout", "relapse"))


def test_a_one_word_heading_beside_a_word_mesh_does_not_hold_is_another_fields_sense(
    vocabulary: MeshVocabulary,
) -> None:
    def other(text: str) -> list[str]:
        matches = vocabulary.recognize(text, {})
        return [m.descriptor.heading for m in matches if another_fields_sense(m, text, matches, vocabulary)]

    assert other("monetary policy shocks") == ["Shock"]
    assert other("exchange rate volatility") == ["Volatilization"]
    assert other("acute appendicitis") == []  # a disease, beside a modifier MeSH writes
    assert other("student achievement") == []  # every word is MeSH's
    assert other("volatility") == []  # the whole phrase


def test_the_compound_before_another_fields_head_is_searched_beside_it(vocabulary: MeshVocabulary) -> None:
    def before(text: str) -> str | None:
        matches = vocabulary.recognize(text, {})
        return compound_before(
            text, [m for m in matches if another_fields_sense(m, text, matches, vocabulary)]
        )

    assert before("monetary policy shocks") == "monetary policy"
    assert before("exchange rate volatility") == "exchange rate"
    assert before("low-resource languages") is None  # one hyphenated modifier is no compound


def test_an_entry_term_of_another_fields_sense_is_no_evidence_and_not_meant(
    vocabulary: MeshVocabulary,
) -> None:
    texts, named = _named(vocabulary, "household energy consumption", "Carbon taxes")
    energy = next(m for m in named[0] if m.text == "energy consumption")
    assert energy.descriptor.heading == "Energy Intake"
    assert entry_of_another_field(energy.descriptor, energy.via)
    assert not names_biomedicine(texts, named)  # "household", "energy consumption": entry terms only
    # a disease or an organism with a modifier is evidence all the same
    assert names_biomedicine(*_named(vocabulary, "invasive aspergillosis"))
    assert names_biomedicine(*_named(vocabulary, "freshwater fish", "microplastic ingestion"))


def test_a_cell_part_named_by_one_word_before_its_noun_is_no_evidence_and_another_fields_word(
    vocabulary: MeshVocabulary,
) -> None:
    # a lithium battery's "dendrite growth": no neuron's Dendrites, and then no physiological Growth
    texts, named = _named(
        vocabulary, "Solid polymer electrolytes", "dendrite growth", "lithium metal batteries"
    )
    assert not names_biomedicine(texts, named)
    text, matches = texts[1], named[1]
    assert {m.descriptor.heading for m in matches} == {"Dendrites", "Growth"}
    assert {m.descriptor.heading for m in matches if another_fields_sense(m, text, matches, vocabulary)} == {
        "Dendrites",
        "Growth",
    }
    # the head of its phrase, or beside a disease, it is medicine's
    assert names_biomedicine(*_named(vocabulary, "dendrite growth", "epilepsy"))
    assert names_biomedicine(*_named(vocabulary, "dendrites"))


def test_an_inorganic_chemical_alone_is_no_evidence_of_medicine(vocabulary: MeshVocabulary) -> None:
    # metals, alloys and acids are materials science's as much as medicine's (tree D01 only)
    assert not names_biomedicine(*_named(vocabulary, "graphene", "friction"))
    assert not names_biomedicine(*_named(vocabulary, "copper alloys", "Friction stir welding"))
    assert not names_biomedicine(*_named(vocabulary, "mild steel", "hydrochloric acid"))
    # beside a disease, or where the chemical is also a drug, it is medicine's
    assert names_biomedicine(*_named(vocabulary, "zinc", "diarrhoea"))


def test_a_cell_part_heading_a_phrase_after_a_word_mesh_lacks_is_a_devices_part(
    vocabulary: MeshVocabulary,
) -> None:
    def reads(*texts: str) -> bool:
        return names_biomedicine(*_named(vocabulary, *texts), vocabulary)

    assert not reads("perovskite solar cells", "Moisture stability")  # "perovskite": no MeSH word
    assert not reads("Electrospun nanofiber membranes")  # "electrospun"
    assert reads("hippocampal neurons")  # every word MeSH's: the body's cells


def test_a_descriptor_mesh_also_files_under_another_fields_tree_is_no_evidence(
    vocabulary: MeshVocabulary,
) -> None:
    # Filtration (physics, chemistry), Wood (technology): other fields study them too
    assert not names_biomedicine(*_named(vocabulary, "air filtration", "nanofiber filters"))
    assert not names_biomedicine(*_named(vocabulary, "wood", "Thermal modification"))
    assert names_biomedicine(*_named(vocabulary, "air pollution", "asthma"))
    # food (J02) and public health (N06) are medicine's: "Taxes on sugar-sweetened beverages"
    assert names_biomedicine(*_named(vocabulary, "sugar-sweetened beverages", "body mass index"))


def test_a_statistical_method_is_no_evidence_of_medicine(vocabulary: MeshVocabulary) -> None:
    # Principal Component Analysis and Regression Analysis are filed under Statistics as Topic (E05.318.740),
    # which every field analyses with: "principal component analysis" had made a description of process
    # monitoring medical, and its statistics were then read as how the user's own study is analysed
    assert not names_biomedicine(*_named(vocabulary, "batch reactors", "principal component analysis"))
    assert not names_biomedicine(*_named(vocabulary, "regression analysis"))
    # beside a disease the description is medicine's still
    assert names_biomedicine(*_named(vocabulary, "principal component analysis", "hypertension"))
