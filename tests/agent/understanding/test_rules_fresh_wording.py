"""The rules fallback on wording the fresh English batches (en-dev11) showed it misread: each mechanism
tested on a sentence of its own, not on an evaluation case.
"""

from __future__ import annotations

from agent.understanding.rules import extract_slots
from agent.understanding.slot_evidence import en_head_slot, other_spellings


def test_a_head_word_is_read_in_either_spelling_of_english() -> None:
    assert other_spellings("randomisation") == ["randomization"]
    assert "behaviour" in other_spellings("behavior")
    assert other_spellings("hour") == []  # a short word is left alone
    assert en_head_slot(["Mendelian", "randomisation"]) == en_head_slot(["Mendelian", "randomization"])
    slots = extract_slots("We estimate the effect of alcohol on blood pressure by Mendelian randomisation.")
    assert "Mendelian randomisation" in slots.method_algorithm
