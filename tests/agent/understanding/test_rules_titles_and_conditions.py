"""The English rules fallback on what a title opens with, adjectives shaped like listed verbs, and the
conditions of the people studied: each mechanism tested on sentences of its own (not evaluation cases).

"X after Y" opening a title makes X what is observed after the event Y (not the setting), unless MeSH
files X as something given or done; "focused" before a noun is its adjective (the verb takes "on");
"patients with X" keeps the whole population and gives the condition X as a term of its own.
"""

from __future__ import annotations

from agent.understanding.rules import extract_slots


def test_a_title_opening_with_what_follows_an_event_makes_it_the_outcome() -> None:
    slots = extract_slots("Returning to work after traumatic brain injury: which factors matter?")
    assert "Returning to work" in slots.output_target
    assert "Returning to work" not in slots.context


def test_a_title_opening_with_something_given_after_an_event_keeps_it_the_setting() -> None:
    slots = extract_slots("Exercise training after myocardial infarction: effects on mortality.")
    assert "Exercise training" in slots.context
    assert "Exercise training" not in slots.output_target


def test_focused_before_a_noun_is_its_adjective() -> None:
    slots = extract_slots("MRI-guided focused ultrasound thalamotomy for essential tremor.")
    terms = [
        t for name in ("context", "method_measurement", "method_algorithm") for t in getattr(slots, name)
    ]
    assert "focused ultrasound thalamotomy" in terms


def test_focused_on_stays_a_verb() -> None:
    slots = extract_slots("We focused on sleep in older adults.")
    assert "sleep" in slots.output_target
    assert not any("focused" in t for name in slots.model_fields for t in _list(getattr(slots, name)))


def _list(value: object) -> list[str]:
    return value if isinstance(value, list) else []


def test_the_condition_of_the_people_studied_is_a_term_of_its_own() -> None:
    slots = extract_slots("Falls prevention for care home residents with dementia.")
    assert slots.subject_population == ["care home residents with dementia", "dementia"]


def test_no_condition_is_split_from_what_is_not_a_condition() -> None:
    assert extract_slots("HIV testing among men who have sex with men in Kenya.").subject_population == [
        "men who have sex with men"
    ]
