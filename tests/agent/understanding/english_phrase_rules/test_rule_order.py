"""The English phrase cutter's rules: every rule is asked (once, in the order `RULES` gives), the state
a rule sees, and the word tests the rules share."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import ModuleType

import pytest

from agent.understanding.english_phrase_rules import clause_cues, effects, no_term, noun_phrase
from agent.understanding.english_phrase_rules.reading import PhraseReading
from agent.understanding.english_phrase_rules.word_context import age_span_end, listed_verb_here
from agent.understanding.english_phrases import RULES, english_phrases
from agent.understanding.english_tokens import description_tokens


def _rules_of(module: ModuleType) -> list[Callable[..., object]]:
    return [
        value
        for name, value in vars(module).items()
        if inspect.isfunction(value)
        and value.__module__ == module.__name__
        and not name.startswith("_")
        and list(inspect.signature(value).parameters) == ["r"]
    ]


def test_every_rule_written_is_asked_once() -> None:
    written = [rule for module in (clause_cues, effects, no_term, noun_phrase) for rule in _rules_of(module)]
    assert len(RULES) == len(set(RULES))
    assert sorted(r.__name__ for r in written) == sorted(r.__name__ for r in RULES)


def test_a_rule_that_comes_first_decides_the_token() -> None:
    # a number before a unit ends the phrase as a size ("12 months after treatment") before the rule
    # for a bare count ("10,000 patients") could take it
    assert RULES.index(no_term.number_before_unit) < RULES.index(no_term.bare_number)
    texts = [p.text for p in english_phrases("We measured prevalence 12 months after treatment.")]
    assert "prevalence" in texts and not any("12" in t for t in texts)


def test_the_token_in_hand_and_its_neighbours() -> None:
    reading = PhraseReading(description_tokens("Statins lower cholesterol"))
    reading.read(0)
    assert (reading.previous_token, reading.lower, reading.following, reading.after_next) == (
        "",
        "statins",
        "lower",
        "cholesterol",
    )
    reading.read(len(reading.tokens) - 1)
    assert (reading.following, reading.after_next) == (".", ".")


def test_flush_drops_a_versus_left_at_an_edge_and_keeps_the_cue() -> None:
    reading = PhraseReading(["versus", "repeat", "testing"])
    reading.current, reading.cue = ["versus", "repeat", "testing"], "using"
    reading.flush()
    assert [(p.text, p.cue) for p in reading.phrases] == [("repeat testing", "using")]
    assert reading.current == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("adolescents aged 13 to 17 years and their parents", 2, 6),
        ("adults aged 65 and over and women", 2, 5),
        ("children aged between 5 and 11 .", 2, 6),
    ],
)
def test_an_age_range_ends_where_its_numbers_and_units_end(text: str, start: int, end: int) -> None:
    assert age_span_end(text.split(), start) == end


def test_a_listed_verb_is_a_verb_only_in_a_verb_s_place() -> None:
    tokens = description_tokens("Klebsiella isolates from hospital wards")
    assert listed_verb_here(tokens, 1, ["Klebsiella"]) is False  # a plural noun here
    tokens = description_tokens("We measure sleep quality")
    assert listed_verb_here(tokens, 1, []) is True
