"""Sentences quoted in an extractive answer: the paper's own reference numbers would read as our citations."""

from agent.ask.text import quotable


def test_a_papers_own_reference_numbers_are_not_quoted() -> None:
    assert quotable("ECoG decodes speech [12].") == "ECoG decodes speech."
    assert (
        quotable("As shown before [3, 4] and [5–7], decoding works.")
        == "As shown before and, decoding works."
    )
    assert quotable("A 2x2 design [n = 40] was used.") == "A 2x2 design [n = 40] was used."


def test_long_sentences_are_cut_with_an_ellipsis() -> None:
    quoted = quotable("word " * 200, limit=50)
    assert len(quoted) == 50 and quoted.endswith("…")
