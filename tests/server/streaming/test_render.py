"""Plain-text rendering of a keyword plan, as the CLI and chat clients print it."""

from __future__ import annotations

from server.streaming.render import render_keywords


def test_a_term_shows_its_heading_and_the_ancestors_searched_unexploded() -> None:
    keywords = {
        "concepts": [{"id": "tb", "label": "pulmonary tuberculosis", "role": "condition", "required": True}],
        "terms": [
            {
                "canonical": "pulmonary tuberculosis",
                "concept": "tb",
                "mesh": {"heading": "Tuberculosis, Pulmonary"},
                "broader": [{"heading": "Tuberculosis"}],
                "synonyms": [{"text": "pulmonary phthisis", "origins": ["mesh"], "kept": True}],
            }
        ],
    }
    text = render_keywords(keywords, {})
    assert "pulmonary tuberculosis [MeSH: Tuberculosis, Pulmonary; also unexploded: Tuberculosis]" in text
    assert "synonyms: pulmonary phthisis [mesh]" in text


def test_a_study_filter_says_whether_it_is_anded_and_its_heading() -> None:
    keywords = {
        "study_filters": [
            {
                "text": "randomised controlled trials",
                "enabled": True,
                "heading": "Randomized Controlled Trial",
            },
            {"text": "scoping review", "enabled": False, "heading": ""},
            {"text": "published since 2010", "enabled": False, "first_year": 2010, "last_year": None},
        ]
    }
    lines = render_keywords(keywords, {}).splitlines()
    assert (
        "Study-type filter (on: AND'ed into the queries): randomised controlled trials "
        "(MeSH Randomized Controlled Trial)" in lines
    )
    assert "Study-type filter (off): scoping review" in lines
    assert "Publication-years filter (off): published since 2010 (2010-)" in lines
