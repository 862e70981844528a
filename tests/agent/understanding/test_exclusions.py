"""What the user says to leave out names no concept (rules fallback): sentences written for these tests,
not evaluation cases.

"Not interested in X.", "Exclude X.", "We don't want X", 不要X, 排除X opening a sentence or clause: X is
what the user refuses, never a required concept; a verb of the research itself ("for excluding") stays.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES
from agent.understanding.exclusions import without_exclusions
from agent.understanding.rules import extract_slots


def _terms(text: str) -> list[str]:
    slots = extract_slots(text)
    return [t.lower() for name in LIST_SLOT_NAMES for t in getattr(slots, name)]


def test_a_sentence_that_refuses_is_cut_with_its_stop() -> None:
    assert without_exclusions("Yoga for anxiety in nurses. Not interested in students.") == (
        "Yoga for anxiety in nurses."
    )
    assert without_exclusions("Statins and gout; we don't want case reports. Also cohorts.") == (
        "Statins and gout; Also cohorts."
    )
    assert (
        without_exclusions("想了解针灸治疗偏头痛的效果，排除儿童，最好是RCT。")
        == "想了解针灸治疗偏头痛的效果，最好是RCT。"
    )


def test_a_refusing_clause_after_a_comma_and_a_short_no_sentence_are_cut() -> None:
    """ ", excluding X" closes a sentence with what to leave out, as "No X." does in a hurried note; a
    longer sentence opening with "No" states a finding, and "No-till" is a word."""
    assert without_exclusions("Probiotics for NEC in preterm infants, excluding animal studies.") == (
        "Probiotics for NEC in preterm infants."
    )
    assert without_exclusions("CBT for insomnia in adults. No animal studies. Any language.") == (
        "CBT for insomnia in adults. Any language."
    )
    assert without_exclusions(
        "Spinal anaesthesia for caesarean section. RCTs only, no general anaesthesia studies."
    ) == ("Spinal anaesthesia for caesarean section. RCTs only.")
    assert without_exclusions("Yoga for back pain, no matter how it is delivered.") == (
        "Yoga for back pain, no matter how it is delivered."
    )
    # "X, not Y." closing a sentence sets Y aside; "not just/only ..." adds to X
    assert without_exclusions("Steroids for sudden hearing loss - adults, not children.") == (
        "Steroids for sudden hearing loss - adults."
    )
    assert without_exclusions("Statins in older people, not in nursing home residents. RCTs.") == (
        "Statins in older people. RCTs."
    )
    assert without_exclusions("Exercise for fatigue, not just for fitness.") == (
        "Exercise for fatigue, not just for fitness."
    )
    for kept in (
        "No association between shift work and gout has been shown in nurses.",
        "No-till farming and soil carbon.",
    ):
        assert without_exclusions(kept) == kept


def test_a_verb_of_the_research_inside_a_sentence_stays() -> None:
    for text in (
        "Diagnostic accuracy of D-dimer for excluding pulmonary embolism in pregnancy",
        "D-二聚体排除肺栓塞的诊断准确性",
        "Why are older adults not interested in exercise programmes?",
    ):
        assert without_exclusions(text) == text


def test_what_the_user_refuses_is_no_concept() -> None:
    for text, refused in (
        (
            "Does tai chi reduce falls in older adults? Not interested in nursing home residents.",
            "nursing home",
        ),
        ("Acupuncture for chronic neck pain. Exclude whiplash injuries.", "whiplash"),
        ("Probiotics for eczema in infants; we're not looking at adults.", "adult"),
        ("益生菌预防婴儿湿疹的效果，不要成人研究。", "成人"),  # the slots keep the Chinese
    ):
        terms = _terms(text)
        assert not any(refused in t for t in terms), (text, terms)
        assert terms, text


def test_a_bracket_that_opens_with_a_negation_is_cut() -> None:
    assert without_exclusions("Yoga for fatigue in advanced lung disease (not asthma)?") == (
        "Yoga for fatigue in advanced lung disease?"
    )
    assert without_exclusions("Iron for anaemia in pregnancy (excluding twin pregnancies).") == (
        "Iron for anaemia in pregnancy."
    )
    # a bracket that names, not refuses, stays
    assert (
        without_exclusions("Stroke (non-haemorrhagic) rehabilitation")
        == "Stroke (non-haemorrhagic) rehabilitation"
    )


def test_what_people_are_said_to_be_without_is_no_concept() -> None:
    assert without_exclusions("Statins and gout in adults without a history of gout flares.") == (
        "Statins and gout in adults."
    )
    assert without_exclusions("Metformin in pts with no renal impairment before surgery") == (
        "Metformin in pts before surgery"
    )
    assert _terms("Does yoga reduce anxiety in women without diabetes?") and not any(
        "diabet" in t for t in _terms("Does yoga reduce anxiety in women without diabetes?")
    )
    # what an intervention is done without is what is compared, and stays
    for text in (
        "Laparoscopic cholecystectomy without drains in adults",
        "Antibiotics with or without steroids",
    ):
        assert without_exclusions(text) == text
