"""Records share their `model_fields_set` (memory at systematic-review scale) without changing what it says."""

from __future__ import annotations

from agent.models import Author, Paper, Source


def test_records_built_alike_share_one_fields_set_and_it_still_says_what_was_given() -> None:
    first = Paper(source=Source.PUBMED, title="A", authors=[Author(name="Ada Lovelace")])
    second = Paper(source=Source.PUBMED, title="B", authors=[Author(name="Alan Turing")])
    assert first.__pydantic_fields_set__ is second.__pydantic_fields_set__
    assert first.authors[0].__pydantic_fields_set__ is second.authors[0].__pydantic_fields_set__
    assert first.model_fields_set == {"source", "title", "authors"}

    second.source_rank = 2  # a field not given: this record gets its own set first
    assert second.model_fields_set == {"source", "title", "authors", "source_rank"}
    assert first.model_fields_set == {"source", "title", "authors"}
    assert Paper(source=Source.PUBMED, title="C", authors=[]).model_fields_set == {
        "source",
        "title",
        "authors",
    }
    assert first.model_dump(exclude_unset=True) == {
        "source": Source.PUBMED,
        "title": "A",
        "authors": [{"name": "Ada Lovelace"}],
    }


def test_copies_and_validated_records_keep_their_own_meaning() -> None:
    record = Paper.model_validate({"title": "A", "doi": "https://doi.org/10.1000/X"})
    assert record.doi == "10.1000/x" and record.model_fields_set == {"title", "doi"}
    copy = record.model_copy(update={"year": 2020})
    assert copy.model_fields_set == {"title", "doi", "year"} and record.model_fields_set == {"title", "doi"}
