"""Inflection rules of `agent.language.morphology` that the query builder relies on."""

from __future__ import annotations

import pytest

from agent.language.morphology import collective_members, number_variants, plural, singular, variants


@pytest.mark.parametrize(
    ("phrase", "members"),
    [
        ("benthic invertebrate communities", "benthic invertebrate"),
        ("macroinvertebrate assemblages", "macroinvertebrate"),
        ("pollinator populations", "pollinator"),
        ("older adult populations", "older adult"),
        ("native bee community", "native bee"),
        ("coral reef fish assemblages", "coral reef fish"),  # fish are counted with no "-s"
    ],
)
def test_a_collective_head_gives_way_to_its_members(phrase: str, members: str) -> None:
    assert collective_members(phrase) == members


@pytest.mark.parametrize(
    "phrase",
    [
        "microbial communities",  # an adjective names no members
        "general population",
        "vulnerable populations",
        "fish assemblages",  # one short word alone is too broad to search for
        "HIV populations",
        "heart failure",  # no collective head
        "communities",
    ],
)
def test_a_collective_head_stays_where_the_words_before_it_name_no_members(phrase: str) -> None:
    assert collective_members(phrase) is None


@pytest.mark.parametrize("phrase", ["intensive care", "primary care", "palliative care"])
def test_care_is_a_mass_noun(phrase: str) -> None:
    """ "intensive cares" is no form a searcher writes (MeSH writes "cares" elsewhere, so the MeSH check
    lets it through): care has no plural in these terms."""
    assert number_variants(phrase) == []


@pytest.mark.parametrize(
    ("written", "single"),
    [
        ("metastases", "metastasis"),
        ("stenoses", "stenosis"),
        ("thromboses", "thrombosis"),
        ("paralyses", "paralysis"),
        ("prostheses", "prosthesis"),
        ("doses", "dose"),  # English words in "-se" keep it
        ("overdoses", "overdose"),
        ("purposes", "purpose"),
        ("diseases", "disease"),
        ("kinases", "kinase"),
        ("glucoses", "glucose"),
    ],
)
def test_a_greek_plural_in_ses_is_the_plural_of_sis(written: str, single: str) -> None:
    """ "metastases" is no plural of "metastase": a searcher writes "metastasis", and MeSH does."""
    assert singular(written) == single
    assert plural(single) == written


@pytest.mark.parametrize(
    ("single", "many"),
    [("midwife", "midwives"), ("knife", "knives"), ("wolf", "wolves"), ("policewoman", "policewomen")],
)
def test_irregular_heads_keep_their_number_in_compounds(single: str, many: str) -> None:
    """ "midwives" was "midwive" and "midwife" "midwifes"; "olives" still ends in "olive"."""
    assert singular(many) == single and plural(single) == many
    assert singular("olives") == "olive"


@pytest.mark.parametrize("phrase", ["people who inject drugs", "quality of life", "women in labour"])
def test_a_phrase_whose_head_is_not_its_last_word_has_no_number_variant(phrase: str) -> None:
    assert number_variants(phrase) == []
    assert number_variants("drug users") == ["drug user"]


@pytest.mark.parametrize("phrase", ["published since", "care after", "studies between", "whether"])
def test_a_phrase_ending_in_a_closed_class_word_has_no_plural(phrase: str) -> None:
    assert variants(phrase) == []


@pytest.mark.parametrize(
    ("single", "many"), [("volcano", "volcanoes"), ("mosquito", "mosquitoes"), ("tomato", "tomatoes")]
)
def test_nouns_in_o_that_take_es_lose_it_in_the_singular(single: str, many: str) -> None:
    """ "volcanoes" was "volcanoe", so no table or MeSH read it; "canoes" still ends in "canoe"."""
    assert singular(many) == single and plural(single) == many
    assert singular("canoes") == "canoe"


@pytest.mark.parametrize(
    ("word", "many"), [("intravenously", None), ("orally", None), ("supply", "supplies")]
)
def test_an_adverb_made_from_an_adjective_has_no_plural(word: str, many: str | None) -> None:
    """ "iron given intravenously versus orally" had searched "intravenouslies"; nouns in -ly keep theirs."""
    assert plural(word) == many
