"""Chinese slot phrases in English: a composition read character by character is left out, not searched.

Phrases of their own, not evaluation cases.
"""

from __future__ import annotations

from agent.language.bilingual import render
from agent.models import Slots
from agent.understanding.slot_translation import embedded_vocabulary, translate_slots


def test_a_composition_of_guessed_characters_is_left_out_and_named_in_the_notes() -> None:
    vocabulary = embedded_vocabulary()
    # 孔|镜|核|术 ...: characters the glossary lacks, each read by its own first senses ("mirror")
    slots, originals, notes = translate_slots(
        Slots(context=["椎间孔镜髓核摘除术"], subject_population=["非酒精性脂肪肝"]), vocabulary
    )
    assert slots.context == []
    assert "椎间孔镜髓核摘除术" not in originals.values()
    assert any("椎间孔镜髓核摘除术" in note and "character by character" in note for note in notes)
    # a composition of words the dictionary knows stays
    assert slots.subject_population == ["non-alcoholic fatty liver"]


def test_a_composition_counts_the_characters_it_guesses() -> None:
    assert render("椎间孔镜髓核摘除术").guesses >= 3
    assert render("非酒精性脂肪肝").guesses == 0
    assert render("锂离子电池").guesses == 0  # one dictionary word: no composition
