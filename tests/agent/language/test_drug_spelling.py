"""A misspelt drug name is read as the one drug it is near; known words, English words and words near
two drugs are left as written (sentences and names of their own, not evaluation cases)."""

from __future__ import annotations

from agent.language.drug_spelling import DrugSpelling, edit_distance
from agent.understanding.slot_translation import embedded_vocabulary

_NAMES = [("Metformin", "D1"), ("Pentamide", "D2"), ("Pentamine", "D3"), ("Gabapentin", "D4")]


def test_edit_distance_counts_a_transposition_as_one_edit() -> None:
    assert edit_distance("metfromin", "metformin") == 1
    assert edit_distance("levitiracetam", "levetiracetam") == 1
    assert edit_distance("gabapentine", "gabapentin") == 1


def test_a_word_one_or_two_edits_from_one_drug_is_that_drug() -> None:
    spelling = DrugSpelling(_NAMES)
    assert spelling.drug_of("metformine") == "D1"
    assert spelling.drug_of("gabapentine") == "D4"


def test_a_word_near_two_drugs_or_the_name_itself_is_left_alone() -> None:
    spelling = DrugSpelling(_NAMES)
    assert spelling.drug_of("pentamice") is None  # one letter from Pentamide and Pentamine: which one?
    assert spelling.drug_of("metformin") is None  # spelt right: nothing to correct


def test_the_first_letter_and_short_words_are_not_corrected() -> None:
    spelling = DrugSpelling(_NAMES)
    assert spelling.drug_of("netformin") is None
    assert spelling.drug_of("metfrm") is None


def test_mesh_reads_a_misspelt_drug_as_its_heading() -> None:
    vocabulary = embedded_vocabulary()
    assert vocabulary is not None
    matches = vocabulary.recognize("levitiracetam in pregnancy")
    assert [m.descriptor.heading for m in matches][:1] == ["Levetiracetam"]
    assert matches[0].via == "spelling"


def test_an_english_word_mesh_does_not_use_is_no_misspelling() -> None:
    vocabulary = embedded_vocabulary()
    assert vocabulary is not None
    assert all(m.via != "spelling" for m in vocabulary.recognize("providing care after elections"))
