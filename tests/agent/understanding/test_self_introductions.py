"""A telegraphic self-introduction opening a description names no concept (rules fallback): sentences
written for these tests, not evaluation cases.

"Cardiology registrar here.", "Oncology fellow.", "Geriatrician; ...": who the user is, with no pronoun
and no verb, before the research; a topic label before a colon ("Knee osteoarthritis: ...") stays.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES
from agent.understanding.rules import extract_slots
from agent.understanding.self_introductions import without_self_introduction


def _terms(text: str) -> list[str]:
    slots = extract_slots(text)
    return [t.lower() for name in LIST_SLOT_NAMES for t in getattr(slots, name)]


def test_a_fragment_naming_the_users_job_is_cut() -> None:
    assert without_self_introduction("Cardiology registrar here. Do statins help?") == "Do statins help?"
    assert without_self_introduction("Oncology fellow. Is X safe?") == "Is X safe?"
    assert without_self_introduction("Practice nurse here - what helps?") == "what helps?"
    assert without_self_introduction("Geriatrician; we study falls.") == "we study falls."


def test_a_topic_label_opening_the_text_stays() -> None:
    for text in (
        "Knee osteoarthritis: does tai chi help?",
        "Older adults with diabetes: does metformin help?",
        "Nurse staffing: does it affect mortality?",
        "Fractures of the wrist: casting or surgery?",
        "Aspirin vs clopidogrel - which is better?",
    ):
        assert without_self_introduction(text) == text


def test_the_users_job_is_no_concept() -> None:
    for text, job in (
        ("Cardiology registrar; I'm interested in whether statins prevent atrial fibrillation.", "registrar"),
        ("District nurse here - does compression therapy heal venous leg ulcers?", "nurse"),
        ("Paediatric dietitian. Does vitamin D prevent asthma attacks in children?", "dietitian"),
    ):
        terms = _terms(text)
        assert not any(job in t for t in terms), (text, terms)
        assert terms, text


def test_the_users_funding_is_no_concept() -> None:
    """ "We have an X grant to study Y": the grant is the wish to study Y; "My PhD is funded by X." names
    no concept; a topic's own funding ("trials funded by industry", "research grants") stays."""
    assert without_self_introduction("We have an ESRC grant to evaluate cash transfers in Kenya.") == (
        "We want to evaluate cash transfers in Kenya."
    )
    assert without_self_introduction("We received funding from the Gates Foundation to map malaria.") == (
        "We want to map malaria."
    )
    assert (
        without_self_introduction("My PhD is funded by the MRC. I study sepsis.").strip() == "I study sepsis."
    )
    for text in (
        "Do trials funded by industry report more favourable results?",
        "We study research grants and publication output.",
        "We have the funding gap of rural clinics in mind.",
    ):
        assert without_self_introduction(text) == text
    terms = _terms("We have an NIHR grant to develop an exercise programme for people living with MS.")
    assert not any("grant" in t or "nihr" in t for t in terms), terms
    assert any("exercise" in t for t in terms), terms


def test_the_service_the_user_runs_before_their_wish_names_no_concept() -> None:
    """ "We run a falls clinic and want evidence on X": the clinic is where the user works ("falls
    clinic" had been a required block); a trial run is the topic, and stays."""
    assert without_self_introduction(
        "We run a falls clinic and want evidence on vitamin D for preventing falls."
    ) == ("We want evidence on vitamin D for preventing falls.")
    assert without_self_introduction("I work in a busy emergency department and would like to know X.") == (
        "I would like to know X."
    )
    trial = "We run a trial of exercise and want to compare it with usual care."
    assert without_self_introduction(trial) == trial


def test_a_job_with_its_place_leaves_the_place_and_a_field_done_goes() -> None:
    """ "X researcher working in Y: ..." keeps where the question is asked, not who asks it; "We do
    <field> - ..." names the user's field, not a topic; a topic worked on, and "do not", stay."""
    assert without_self_introduction("Public health nurse working in rural Peru: what reduces anaemia?") == (
        "In rural Peru, what reduces anaemia?"
    )
    assert without_self_introduction("We do health economics - cost of hip fracture care.") == (
        "cost of hip fracture care."
    )
    for text in ("We work on malaria vaccines. Which work?", "We do not know whether zinc helps."):
        assert without_self_introduction(text) == text
    assert without_self_introduction("Children working in mines: what harms them?").startswith("Children")


def test_a_job_at_a_place_or_working_with_someone_is_the_user() -> None:
    """ "Nurse manager in the NHS - ..." says where the user works (the place stays, as after "working
    in"); "Sports physio working with a women's football club: ..." whom they work with (it goes with the
    job: the question names its own people). A topic label with a place stays whole."""
    assert without_self_introduction("Nurse manager in the NHS - does skill mix affect mortality?") == (
        "In the NHS, does skill mix affect mortality?"
    )
    assert without_self_introduction(
        "Sports physio working with a women's football club: do warm-ups prevent ACL injuries?"
    ) == ("do warm-ups prevent ACL injuries?")
    for text in ("Yoga in pregnancy: effects on anxiety.", "Exercise at work - does it help back pain?"):
        assert without_self_introduction(text) == text


def test_a_greeting_and_a_field_in_lower_case_go_with_the_job() -> None:
    """ "Hi! PhD student in public health. ...": the greeting and the user's field go (Students AND
    Public Health had been required blocks); a place written with a capital stays."""
    assert without_self_introduction("Hi! PhD student in public health. Do heatwaves harm kidneys?") == (
        "Do heatwaves harm kidneys?"
    )
    assert without_self_introduction("Hello all, ENT registrar here. Is X good?") == "Is X good?"
    assert without_self_introduction("Highly sensitive troponin: is it accurate?") == (
        "Highly sensitive troponin: is it accurate?"
    )
