"""The rules fallback on wording fresh English descriptions (en-dev45) showed it misread: each mechanism
tested on a sentence of its own, not on an evaluation case.
"""

from __future__ import annotations

from agent.understanding.rules import extract_slots
from agent.understanding.slot_evidence import en_head_slot, machine_learning


def test_learning_is_an_algorithm_only_with_a_paradigm_of_machine_learning() -> None:
    assert machine_learning(["deep", "learning"]) and machine_learning(["meta-learning"])
    assert machine_learning(["self-supervised", "contrastive", "learning"])
    assert not machine_learning(["blended", "learning"]) and not machine_learning(["e-learning"])
    assert en_head_slot(["transfer", "learning"]) == "method_algorithm"
    assert en_head_slot(["service-learning"]) != "method_algorithm"
    slots = extract_slots("Blended learning and peer tutoring in undergraduate nursing education.")
    assert not slots.method_algorithm
    assert "Blended learning" in slots.context + slots.output_target


def test_what_a_hurried_note_says_to_its_reader_is_no_term() -> None:
    slots = extract_slots(
        "Statins and dementia risk, cohort studies ok, any language fine. RCTs pls, thanks!"
    )
    terms = [
        t.lower() for name in ("context", "output_target", "method_measurement") for t in getattr(slots, name)
    ]
    assert not any(
        word in term.split() for term in terms for word in ("ok", "fine", "pls", "thanks", "language")
    )
    assert "Statins" in slots.context
    # "fine" inside a term is an adjective, not the note's "fine"
    assert (
        "Fine particulate matter" in extract_slots("Fine particulate matter and asthma in children.").context
    )


def test_the_short_forms_of_notes_are_read_as_their_nouns() -> None:
    slots = extract_slots("Falls in older pts w/ Parkinson disease.")
    assert "older patients with Parkinson disease" in slots.subject_population


def test_the_manner_an_intervention_is_delivered_in_is_no_concept() -> None:
    slots = extract_slots(
        "Problem-solving therapy delivered online versus face-to-face for older adults with anxiety."
    )
    assert "Problem-solving therapy" in slots.context
    assert not any("online" in t or "face-to-face" in t for t in slots.context + slots.method_measurement)
    # the verb after the manner still ends the subject it was delivered to
    slots = extract_slots("Does yoga delivered remotely reduce fatigue in breast cancer survivors?")
    assert "yoga" in slots.context and "fatigue" in slots.output_target
    # a means of delivery is named, not a manner: it stays
    slots = extract_slots("Yoga delivered via a smartphone app for fatigue in breast cancer survivors.")
    assert any(
        "smartphone app" in t for name in ("context", "method_measurement") for t in getattr(slots, name)
    )
