"""The rules fallback: slot extraction by cues and head words, English and Chinese, and the clean-up helpers."""

from __future__ import annotations

import pytest

from agent.language.morphology import (
    acronym,
    find_expansion,
    is_acronym,
    malformed_number,
    plural,
    singular,
    variants,
)
from agent.language.text import (
    acronym_casings,
    clean_term,
    dedupe_terms,
    detect_language,
    restore_acronym_casing,
    split_parenthetical,
    to_half_width,
)
from agent.models import LIST_SLOT_NAMES
from agent.understanding.rules import classify_phrase, extract_slots, research_goal

CASES: list[tuple[str, dict[str, list[str]]]] = [
    (
        "I am working on invasive speech brain-computer interface decoding using ECoG and sEEG.",
        {
            "task": ["speech decoding"],
            "method_measurement": ["ECoG", "sEEG"],
            "context": ["invasive brain-computer interface"],
        },
    ),
    (
        "I am working on invasive ECoG-based real-time speech decoding in epilepsy patients.",
        {
            "task": ["speech decoding"],
            "method_measurement": ["ECoG"],
            "subject_population": ["epilepsy patients"],
        },
    ),
    (
        "Decoding imagined speech from high-gamma activity recorded with electrocorticography (ECoG) in "
        "patients with epilepsy.",
        {
            "task": ["imagined speech decoding"],
            "method_measurement": ["electrocorticography (ECoG)"],
            "signal_feature": ["high-gamma activity"],
            "subject_population": ["patients with epilepsy"],
        },
    ),
    (
        "We use convolutional neural networks to detect lung nodules in CT images of smokers.",
        {
            "task": ["lung nodule detection"],
            "method_algorithm": ["convolutional neural networks"],
            "method_measurement": ["CT images"],
            "subject_population": ["smokers"],
        },
    ),
    (
        "We study the effect of minimum wage increases on employment in China using a "
        "difference-in-differences design.",
        {
            "method_algorithm": ["difference-in-differences design"],
            "output_target": ["employment"],
            "context": ["minimum wage", "China"],
        },
    ),
    (
        "我们采用深度学习方法预测癫痫患者的发作",
        {"task": ["发作预测"], "method_algorithm": ["深度学习方法"], "subject_population": ["癫痫患者"]},
    ),
    (
        "本研究使用卷积神经网络对肺部CT图像进行结节检测",
        {"task": ["结节检测"], "method_algorithm": ["卷积神经网络"], "method_measurement": ["肺部CT图像"]},
    ),
    (
        "我在做基于ECoG和sEEG的侵入式语音脑机接口解码研究。",
        {"method_measurement": ["ECoG", "sEEG"], "task": ["侵入式语音脑机接口解码"]},
    ),
]


@pytest.mark.parametrize(("description", "expected"), CASES, ids=[c[0][:30] for c in CASES])
def test_extraction(description: str, expected: dict[str, list[str]]) -> None:
    slots = extract_slots(description)
    for slot, terms in expected.items():
        for term in terms:
            assert term in getattr(slots, slot), f"{term!r} not in {slot}: {slots}"
    # a phrase belongs to one slot only
    seen = [t.casefold() for name in LIST_SLOT_NAMES for t in getattr(slots, name)]
    assert len(seen) == len(set(seen))


def test_prd_example_has_nothing_else() -> None:
    slots = extract_slots(
        "I am working on invasive speech brain-computer interface decoding using ECoG and sEEG."
    )
    assert slots.model_dump() == {
        "research_goal": "invasive speech brain-computer interface decoding using ECoG and sEEG",
        "task": ["speech decoding"],
        "method_measurement": ["ECoG", "sEEG"],
        "method_algorithm": [],
        "subject_population": [],
        "signal_feature": [],
        "output_target": [],
        "context": ["invasive brain-computer interface"],
    }


def test_clarification_lines_go_to_their_slot() -> None:
    text = (
        "I study sleep.\n"
        "Clarification (method_measurement): How are the data collected? Answer: EEG and actigraphy\n"
        "Clarification (subject_population): Who is studied? Answer: older adults\n"
        "Clarification: it is about memory consolidation"
    )
    slots = extract_slots(text)
    assert slots.method_measurement == ["EEG", "actigraphy"]
    assert "older adults" in slots.subject_population
    assert slots.research_goal == "sleep"


def test_mixed_language_description() -> None:
    slots = extract_slots("我们研究 speech decoding，基于 ECoG 数据，针对癫痫患者。")
    assert {"ECoG", "ECoG 数据", "ECoG数据"} & set(slots.method_measurement)
    assert "癫痫患者" in slots.subject_population
    assert "speech decoding" in slots.task


def test_nothing_to_extract() -> None:
    slots = extract_slots("Hello, this is my project.")
    assert not any(getattr(slots, name) for name in LIST_SLOT_NAMES)


@pytest.mark.parametrize(
    ("phrase", "slot"),
    [
        ("speech synthesis", "task"),
        ("EEG", "method_measurement"),
        ("LSTM", "method_algorithm"),
        ("macaque monkeys", "subject_population"),
        ("alpha oscillations", "signal_feature"),
        ("cursor position", "output_target"),
        ("rehabilitation", "context"),
        ("运动想象分类", "task"),
        ("小鼠", "subject_population"),
    ],
)
def test_classify_phrase(phrase: str, slot: str) -> None:
    assert classify_phrase(phrase) == slot


@pytest.mark.parametrize(
    ("description", "slot", "term"),
    [
        # a judging adjective after a noun, before a preposition or the clause's end, is the predicate
        (
            "Is vitamin D supplementation effective for preventing respiratory infections in children?",
            "context",
            "vitamin D supplementation",
        ),
        ("Are mindfulness apps effective in reducing anxiety among students?", "context", "mindfulness apps"),
        (
            "Is robotic surgery superior to laparoscopic surgery for rectal cancer?",
            "context",
            "robotic surgery",
        ),
        # before its noun it modifies: the term keeps it
        ("Effective interventions for smoking cessation in pregnancy", "context", "Effective interventions"),
    ],
)
def test_a_predicate_adjective_is_no_word_of_its_subject(description: str, slot: str, term: str) -> None:
    assert term in getattr(extract_slots(description), slot)


@pytest.mark.parametrize(
    ("description", "kept", "dropped"),
    [
        # after "how", the adjective of a degree question names no term
        (
            "How accurate are smartphone apps for detecting atrial fibrillation?",
            "smartphone apps",
            "accurate",
        ),
        ("How common is burnout among emergency physicians?", "burnout", "common"),
        ("How safe is early mobilisation after cardiac surgery?", "early mobilisation", "safe"),
        # the subject of a clause after "how" stays a term
        ("We study how health is perceived by migrants.", "health", ""),
    ],
)
def test_a_degree_question_asks_about_its_subject(description: str, kept: str, dropped: str) -> None:
    terms = [t for _, values in extract_slots(description) if isinstance(values, list) for t in values]
    assert kept in terms and dropped not in terms


def test_research_goal_drops_the_opener() -> None:
    assert research_goal("We are working on coral reef resilience. More text.") == "coral reef resilience"
    assert research_goal("我们正在研究城市热岛效应。其他") == "城市热岛效应"


@pytest.mark.parametrize(
    ("description", "goal"),
    [
        # who speaks, an intent, the verb of inquiry: read as grammar, whatever the wording
        (
            "We want to know whether mindfulness improves sleep in nurses.",
            "whether mindfulness improves sleep in nurses",
        ),
        (
            "I'd like to find out how heat waves affect hospital admissions.",
            "how heat waves affect hospital admissions",
        ),
        (
            "I'm looking at the association between PM2.5 and asthma.",
            "the association between PM2.5 and asthma",
        ),
        ("Our team is investigating whether statins prevent dementia.", "whether statins prevent dementia"),
        ("The aim of this study is to evaluate drone imagery.", "drone imagery"),
        ("My research is on soil carbon.", "soil carbon"),
        # a verb that is part of the goal stays, as its gerund
        ("We plan to compare CBT and medication for insomnia.", "comparing CBT and medication for insomnia"),
        ("This study compares two vaccines.", "comparing two vaccines"),
        ("We model how heat waves affect hospital visits.", "modeling how heat waves affect hospital visits"),
        # no opener: a report, a bare "know", a title
        ("We measured blood pressure in 300 adults.", "We measured blood pressure in 300 adults"),
        (
            "I know little about bees but want to study them.",
            "I know little about bees but want to study them",
        ),
        ("Decoding speech from ECoG in epilepsy patients.", "Decoding speech from ECoG in epilepsy patients"),
        # a question keeps its mark
        (
            "Which biomarkers predict neonatal sepsis? We focus on preterm infants.",
            "Which biomarkers predict neonatal sepsis?",
        ),
        ("我们想知道正念是否能改善护士的睡眠。", "正念是否能改善护士的睡眠"),
    ],
)
def test_research_goal_reads_the_opener_as_grammar(description: str, goal: str) -> None:
    assert research_goal(description) == goal


# -- text and morphology helpers ---------------------------------------------------------------


def test_half_width_and_clean_term() -> None:
    assert to_half_width("ＥＣｏＧ，ｓＥＥＧ　（脑机接口）") == "ECoG,sEEG (脑机接口)"
    assert clean_term("  using the ECoG based approach. ") == "ECoG"
    assert clean_term("based on deep learning") == "deep learning"
    assert clean_term("method for  spike   sorting") == "spike sorting"
    assert clean_term("Bayesian methods") == "Bayesian methods"
    assert clean_term("approach to (unbalanced") == "unbalanced"


def test_acronym_casing_and_dedupe() -> None:
    casings = acronym_casings("We record ECoG and sEEG; fMRI later.")
    assert restore_acronym_casing("Ecog and SEEG with FMRI", casings) == "ECoG and sEEG with fMRI"
    assert dedupe_terms(["ECoG", "Electrocorticography (ECoG)", "electrocorticography", "BCI", "bci"]) == [
        "Electrocorticography (ECoG)",
        "BCI",
    ]
    assert dedupe_terms(["brain-computer interface", "brain computer interfaces", "EEG"]) == [
        "brain-computer interface",
        "EEG",
    ]
    assert split_parenthetical("Electrocorticography (ECoG)") == ("Electrocorticography", "ECoG")
    assert split_parenthetical("plain") == ("plain", None)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I decode speech from ECoG.", "en"),
        ("我研究脑机接口。", "zh"),
        ("我研究 brain-computer interface decoding using the data of the patients", "mixed"),
        ("我研究 ECoG 和 sEEG", "zh"),
        ("Wir untersuchen die Sprache mit EEG und der Bildgebung", "de"),
        ("Nous étudions la parole avec des électrodes pour les patients", "fr"),
        ("脳波を用いた音声復号の研究です", "ja"),
        ("Мы изучаем речь", "ru"),
        ("🎉!!", "unknown"),
    ],
)
def test_detect_language(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_morphology() -> None:
    assert singular("interfaces") == "interface" and singular("analyses") == "analysis"
    assert singular("mice") == "mouse" and singular("virus") == "virus" and singular("BCIs") == "BCIs"
    assert plural("interface") == "interfaces" and plural("study") == "studies" and plural("speech") is None
    assert plural("decoding") is None and plural("electrocorticography") is None
    # no invented acronyms among the variants: an acronym must be attested elsewhere
    assert variants("brain-computer interface") == ["brain-computer interfaces", "brain computer interface"]
    assert variants("non-invasive stimulation") == ["non-invasive stimulations", "noninvasive stimulation"]
    # Greek and Latin singulars: no "+s" forms
    assert plural("sepsis") == "sepses" and plural("mellitus") is None and plural("versus") is None
    assert singular("diabetes") == "diabetes" and variants("gestational diabetes") == []
    # the last word is a whole word: a token with digits has no number ("VO2maxes", "HbA1cs")
    assert (
        variants("VO2max") == [] and variants("HbA1c") == [] and variants("low-dose CTs") == ["low dose CTs"]
    )
    assert variants("aerobic-capacity") == ["aerobic-capacities", "aerobic capacity"]
    assert variants("face-to-face") == ["face to face"]  # a manner has no number
    assert acronym("speech decoding") is None and acronym("deep brain stimulation") == "DBS"
    assert is_acronym("sEEG") and is_acronym("IL-6") and not is_acronym("Speech") and not is_acronym("I")
    assert find_expansion("BCI", "a brain-computer interface (BCI) for speech") == "brain-computer interface"
    assert find_expansion("ECoG", "recorded with electrocorticography (ECoG).") == "electrocorticography"
    assert find_expansion("XYZ", "nothing (XYZ) here") is None


def test_effect_verbs_counts_and_contractions() -> None:
    slots = extract_slots("I'm asking whether mindfulness reduces anxiety in 10,000 nurses.")
    assert slots.context == ["mindfulness"] and slots.output_target == ["anxiety"]
    assert slots.subject_population == ["nurses"]  # not "000 nurses"
    assert not any("I'm" in term for name in LIST_SLOT_NAMES for term in getattr(slots, name))
    assert extract_slots("Long-term PM2.5 exposure and asthma.").research_goal.startswith("Long-term PM2.5")


def test_outcomes_named_by_their_measure_or_by_mesh() -> None:
    slots = extract_slots(
        "Does vitamin D supplementation reduce the risk of respiratory infections in nursing home residents?"
    )
    assert slots.output_target == ["respiratory infections"] and "risk" not in slots.output_target
    assert extract_slots(
        "Risk factors for surgical site infection after caesarean section"
    ).output_target == ["surgical site infection"]
    # a condition MeSH knows, with no cue of a population, is the outcome studied
    assert (
        "insomnia"
        in extract_slots("Cognitive behavioural therapy for insomnia in adolescents.").output_target
    )


def test_questions_are_english_and_verbs_after_pronouns_end_phrases() -> None:
    slots = extract_slots("How do urban heat islands affect mortality among older adults during heatwaves?")
    assert slots.output_target == ["mortality"] and slots.subject_population == ["older adults"]
    # the whole phrase after the verb, and what is measured is an outcome
    measured = extract_slots("We measure soil organic carbon with spectroscopy.")
    assert measured.output_target == ["soil organic carbon"]


def test_malformed_numbers_from_outside_sources() -> None:
    assert malformed_number("epilepsys", "epilepsy") and malformed_number(
        "speech decodings", "speech decoding"
    )
    assert malformed_number("electrocorticographys", "electrocorticography")
    assert not malformed_number("epilepsies", "epilepsy") and not malformed_number("analyses", "analysis")
    assert not malformed_number("brain-computer interfaces", "brain-computer interface")


def test_an_acronym_is_read_from_the_initials_of_the_words_it_spells() -> None:
    """'proton pump inhibitors (PPIs)': the words whose initials spell the acronym (its plural "s" aside)
    are its long form; walking letters alone took the P ending "pump" for the second P."""
    text = "Deprescribing proton pump inhibitors (PPIs) in older adults"
    assert find_expansion("PPIs", text) == "proton pump inhibitors"
    assert (
        find_expansion("LMICs", "in low- and middle-income countries (LMICs)")
        == "low- and middle-income countries"
    )
    # no initials spell it: the letters are walked as before
    assert find_expansion("CLABSI", "central line-associated bloodstream infections (CLABSI)") == (
        "central line-associated bloodstream infections"
    )
