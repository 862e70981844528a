"""What a description says about how its own study is done narrows the search; the topic makes it."""

from __future__ import annotations

import pytest

from agent.keywords.concepts import build_concepts
from agent.keywords.study_procedures import is_procedure, procedure_parts
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding


def summary(vocabulary: MeshVocabulary, description: str, **slots: list[str]) -> dict[str, tuple[bool, str]]:
    result = build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)
    return {c.label: (c.required, c.reason) for c in result.concepts}


@pytest.mark.parametrize(
    "sentence",
    [
        "Transmembrane pressure will be logged continuously.",
        "Reading is assessed with EGRA at baseline and after two school years.",
        "Disease severity would be scored in field trials at two locations in Ethiopia.",
        "Films are aged at 85 °C in nitrogen and characterised by X-ray diffraction.",
        "We want to use 16S sequencing and shotgun metagenomics.",
        "We would use motion-triggered cameras at lit and unlit sites in southern England.",
        "We record gaze with a Tobii eye tracker.",
        "We will run three-point bending tests and water soaking tests.",
        "Rumen temperature boluses and respiration rate will indicate heat load.",
        "Secondary outcomes are pneumothorax and intraventricular haemorrhage.",
        "Time to passage and need for intervention are secondary endpoints.",
        "Data would come from endoscopy reports in three hospitals.",
        "Focal follows will be coded in BORIS, relating networks to the age at which tool use is acquired.",
        "采用16S rRNA测序分析粪便样本",
    ],
)
def test_sentences_that_say_how_the_study_is_done(sentence: str) -> None:
    assert is_procedure(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # a method used for a purpose is the work itself
        "We use deep learning to segment tumours in MRI.",
        # a question, an aim or a hypothesis is the topic, whatever the verb
        "We will measure whether exercise changes sleep quality.",
        "The aim is to see whether millet consumption appeared earlier than assumed.",
        "We suspect that extracellular polymeric substances drive most of the fouling.",
        # the question's own verbs: "evaluated", "compared", "investigated" are no measuring
        "The efficacy of mirror therapy on motor recovery will be evaluated.",
        "Participants will be randomised to tai chi or stretching.",
        "Does proficiency modulate reanalysis costs?",
    ],
)
def test_sentences_of_the_topic(sentence: str) -> None:
    assert not is_procedure(sentence)


def test_the_first_sentence_is_the_topic_and_later_clauses_are_judged_apart() -> None:
    procedures, topic = procedure_parts(
        "We record sleep with actigraphy in older adults. Particles will be processed in RELION, and we "
        "want to compare the apo and bound states to see how the pore opens."
    )
    assert procedures == ["Particles will be processed in RELION"]
    assert topic[0] == "We record sleep with actigraphy in older adults."
    assert topic[1].startswith("and we want to compare")


def test_a_concept_named_only_where_the_study_is_described_is_optional(vocabulary: MeshVocabulary) -> None:
    found = summary(
        vocabulary,
        "I study the effects of chronic low-dose exposure to glyphosate-based herbicides on gut microbiota "
        "in rats. We want to use 16S sequencing and shotgun metagenomics.",
        context=["glyphosate-based herbicides"],
        output_target=["gut microbiota"],
        subject_population=["rats"],
        method_measurement=["16S sequencing", "shotgun metagenomics"],
    )
    methods = [value for label, value in found.items() if "sequencing" in label]
    assert methods and not methods[0][0]
    assert "how its own study is done" in methods[0][1]
    assert found["rats"][0]
    assert any(required for label, (required, _) in found.items() if "glyphosate" in label)


def test_a_concept_also_named_in_the_topic_stays_required(vocabulary: MeshVocabulary) -> None:
    found = summary(
        vocabulary,
        "We study how electroencephalography predicts delirium after cardiac surgery. "
        "Electroencephalography will be recorded before and after the operation.",
        method_measurement=["electroencephalography"],
        output_target=["delirium"],
        context=["cardiac surgery"],
    )
    assert found["electroencephalography"][0]


def test_when_the_topic_names_too_little_what_the_study_uses_is_searched(vocabulary: MeshVocabulary) -> None:
    found = summary(
        vocabulary,
        "This is my doctoral project. We will record heart rate variability with wearable sensors.",
        method_measurement=["heart rate variability", "wearable sensors"],
    )
    assert sum(required for required, _ in found.values()) >= 2


def test_the_statistics_a_study_is_analysed_with_only_narrow(vocabulary: MeshVocabulary) -> None:
    found = summary(
        vocabulary,
        "I study how housing costs influence fertility intentions among young couples in Seoul, using a "
        "national panel survey and multilevel logistic regression.",
        context=["housing costs"],
        output_target=["fertility intentions"],
        subject_population=["young couples"],
        method_measurement=["logistic regression"],
    )
    required, reason = next(value for label, value in found.items() if "logistic" in label)
    assert not required
    assert reason.startswith("a statistical method")


def test_a_statistical_method_the_question_is_about_stays_required(vocabulary: MeshVocabulary) -> None:
    found = summary(
        vocabulary,
        "Logistic regression versus gradient boosting for predicting 30-day hospital readmission",
        method_algorithm=["Logistic regression", "gradient boosting"],
        output_target=["30-day hospital readmission"],
    )
    assert next(required for label, (required, _) in found.items() if "ogistic" in label)


def test_a_clause_that_goes_on_without_a_subject_keeps_the_procedure() -> None:
    procedures, topic = procedure_parts(
        "I study glyphosate and gut microbiota in rats. We want to use 16S sequencing, and measure "
        "short-chain fatty acids in faeces, and we ask whether surfactants matter more."
    )
    assert procedures == ["We want to use 16S sequencing", "and measure short-chain fatty acids in faeces"]
    assert topic[1] == "and we ask whether surfactants matter more."


def test_the_first_sentence_closing_on_its_instruments() -> None:
    procedures, topic = procedure_parts(
        "Prevalence of anthelmintic resistance in gastrointestinal nematodes of sheep in New Zealand, "
        "assessed with faecal egg count reduction tests."
    )
    assert procedures == [", assessed with faecal egg count reduction tests."]
    assert topic == [
        "Prevalence of anthelmintic resistance in gastrointestinal nematodes of sheep in New Zealand"
    ]
    # a method written without a comma is the work itself; a closing clause that asks is the topic
    assert procedure_parts("Speech decoding using ECoG and sEEG in epilepsy patients.")[0] == []
    assert (
        procedure_parts("Reading in bilingual children, using eye-tracking to see how they parse.")[0] == []
    )


def test_a_closing_clause_of_using_in_chinese_and_one_with_a_purpose() -> None:
    procedures, topic = procedure_parts(
        "本研究探讨肠道菌群失调与帕金森病患者便秘症状之间的关系，采用16S rRNA测序分析粪便样本。"
    )
    assert procedures == ["，采用16S rRNA测序分析粪便样本。"]
    assert topic == ["本研究探讨肠道菌群失调与帕金森病患者便秘症状之间的关系"]
    # a method used for a task is the work: EEG to recognise seizures, recordings to train a network
    assert procedure_parts("我们研究深度学习，利用脑电信号识别癫痫发作。")[0] == []
    assert not is_procedure("采用卷积神经网络识别癫痫发作。")
    assert procedure_parts("Seizure detection in neonates, using EEG recordings to train a CNN.")[0] == []


def test_outside_medicine_a_statistical_method_of_the_task_is_the_method_searched(
    vocabulary: MeshVocabulary,
) -> None:
    """ "Process monitoring of batch reactors using principal component analysis": in engineering the
    statistics are the method the papers are about (the understanding reads them as the task's algorithm),
    not how the user's own study is analysed: required, as the housing example's regression is not."""
    found = summary(
        vocabulary,
        "Process monitoring of batch reactors using principal component analysis",
        task=["Process monitoring"],
        method_algorithm=["principal component analysis"],
        output_target=["batch reactors"],
    )
    required, reason = next(value for label, value in found.items() if "principal" in label.lower())
    assert required, reason
