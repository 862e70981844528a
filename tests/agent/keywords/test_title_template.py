"""The "X for Y in Z" template of review titles: the people a title says it is for are no purpose."""

from __future__ import annotations

from agent.keywords.title_template import named_as_the_purpose, purposes


def test_the_people_after_for_are_who_not_what_for() -> None:
    # "for hospitalised adults with heart failure": the participle only says which adults; the review is
    # not about hospitalisation, which a searcher would otherwise AND as what the question is for
    title = "Specialist palliative care versus usual care for hospitalised adults with advanced heart failure"
    assert purposes(title) == [""]
    assert not named_as_the_purpose("hospitalised", title)
    assert purposes("Water immersion in labour versus land birth for low-risk women") == [""]


def test_a_purpose_before_the_people_stays_the_purpose() -> None:
    assert purposes("Exercise for depression and anxiety in older adults") == ["depression and anxiety"]
    assert named_as_the_purpose(
        "malignancy", "Red flags to screen for malignancy in patients with low-back pain"
    )
    assert purposes("Exercise for fatigue among adults") == ["fatigue"]
