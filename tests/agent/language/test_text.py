"""Text normalisation shared by every stage: half-width forms, Chinese punctuation, trademark signs."""

from __future__ import annotations

import pytest

from agent.language.text import detect_language, to_half_width, without_accents


@pytest.mark.parametrize(
    ("written", "normalised"),
    [
        ("Xpert® MTB/RIF assay", "Xpert MTB/RIF assay"),
        ("GenoType®MTBDRsl", "GenoType MTBDRsl"),  # a sign between words still separates them
        ("Botox™.", "Botox."),  # never the "TM" that NFKC would spell
        ("ＥＣｏＧ、sEEG。", "ECoG,sEEG."),
    ],
)
def test_to_half_width(written: str, normalised: str) -> None:
    assert to_half_width(written) == normalised


def test_latin_abbreviations_of_english_make_no_sentence_foreign() -> None:
    assert detect_language("Falls in older adults taking sedatives (e.g. benzodiazepines, opioids).") == "en"
    assert detect_language("Il rischio di cadute negli anziani e la terapia con sedativi") == "it"


def test_without_accents_keeps_the_base_latin_letter_and_other_scripts() -> None:
    assert (
        without_accents("Māori, Sjögren, Ménière, Guillain-Barré")
        == "Maori, Sjogren, Meniere, Guillain-Barre"
    )
    assert (
        without_accents("八段锦 が") == "八段锦 が"
    )  # Chinese, and kana with their voicing mark, as written
