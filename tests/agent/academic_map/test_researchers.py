"""Researchers: merging within an institution, the East-Asian second signal, PI guess, career, summaries."""

from __future__ import annotations

from collections import Counter

import pytest

from agent.academic_map.researchers import (
    AuthorRecord,
    Authorship,
    build_profile,
    coauthor_key,
    corpus_frequencies,
    guess_pi,
    merge_authorships,
    names_compatible,
    person_name,
    summarise,
)
from agent.llm import RulesLLM, ScriptedLLM
from agent.models import AggregatedPaper, Author, Paper, Produced


def author(
    name: str, *, given: str | None = None, family: str | None = None, position: int = 1, **kw
) -> Author:
    return Author(name=name, given=given, family=family, position=position, **kw)


def authorship(
    paper: str,
    name: str,
    institution: str = "inst:a",
    *,
    year: int = 2020,
    coauthors: tuple[str, ...] = (),
    n_authors: int = 3,
    **kw,
) -> Authorship:
    others = frozenset(coauthor_key(person_name(author(c))) for c in coauthors)
    return Authorship(paper, author(name, **kw), institution, year, n_authors, others)


def groups(people) -> list[list[str]]:
    return sorted(sorted(a.paper_key for a in p.authorships) for p in people)


def test_person_names():
    assert person_name(author("Smith JA")).initials == "ja"
    smith = person_name(author("Smith, John A."))
    assert (smith.family, smith.given, smith.initials) == ("smith", "", "ja")
    assert person_name(author("John Smith")).given == "john"
    wang = person_name(author("Wang Xiao-Ming", given="Xiao-Ming", family="Wang"))
    assert (wang.given, wang.initials, wang.east_asian) == ("xiaoming", "xm", True)
    assert person_name(author("王小明")).east_asian and person_name(author("王小明")).family == "王"
    assert names_compatible(person_name(author("J. Smith")), person_name(author("John Smith")))
    assert not names_compatible(person_name(author("Jane Smith")), person_name(author("John Smith")))


def test_the_same_western_name_at_one_institution_is_one_person():
    people = merge_authorships(
        [
            authorship("p1", "John Smith"),
            authorship("p2", "John Smith"),
            authorship("p3", "John Smith", "inst:b"),
        ]
    )
    assert groups(people) == [["p1", "p2"], ["p3"]]  # never across institutions
    merged = next(p for p in people if len(p.authorships) == 2)
    assert merged.signals == ["name"]


def test_an_initials_form_joins_the_one_full_name_it_fits():
    people = merge_authorships([authorship("p1", "John Smith"), authorship("p2", "J. Smith")])
    assert groups(people) == [["p1", "p2"]]
    ambiguous = merge_authorships(
        [authorship("p1", "John Smith"), authorship("p2", "Jane Smith"), authorship("p3", "J. Smith")]
    )
    assert groups(ambiguous) == [["p1"], ["p2"], ["p3"]]


def test_east_asian_names_need_a_second_signal():
    # "Chang" is a romanised East-Asian family name: the same full name twice is not enough
    assert len(merge_authorships([authorship("p1", "Edward Chang"), authorship("p2", "Edward Chang")])) == 2
    alone = merge_authorships(
        [
            authorship("p1", "Wei Wang", given="Wei", family="Wang"),
            authorship("p2", "Wei Wang", given="Wei", family="Wang"),
        ]
    )
    assert groups(alone) == [["p1"], ["p2"]]
    coauthor = merge_authorships(
        [
            authorship("p1", "Wei Wang", given="Wei", family="Wang", coauthors=("Xiaorong Gao",)),
            authorship("p2", "Wei Wang", given="Wei", family="Wang", coauthors=("Xiaorong Gao", "Ming Li")),
        ]
    )
    assert groups(coauthor) == [["p1", "p2"]] and coauthor[0].signals == ["coauthor"]
    orcid = merge_authorships(
        [
            authorship("p1", "Wei Wang", orcid="0000-0001-2345-6789"),
            authorship("p2", "W. Wang", orcid="0000-0001-2345-6789"),
        ]
    )
    assert groups(orcid) == [["p1", "p2"]] and orcid[0].signals == ["orcid"]
    # initials only are never enough for a romanised East-Asian name, even with a shared co-author
    initials = merge_authorships(
        [authorship("p1", "Wang W", coauthors=("Gao X",)), authorship("p2", "Wang W", coauthors=("Gao X",))]
    )
    assert groups(initials) == [["p1"], ["p2"]]


def test_contradictions_keep_people_apart():
    orcids = merge_authorships(
        [
            authorship("p1", "John Smith", orcid="0000-0001-0000-0001"),
            authorship("p2", "John Smith", orcid="0000-0001-0000-0002"),
        ]
    )
    assert groups(orcids) == [["p1"], ["p2"]]
    same_paper = merge_authorships(
        [authorship("p1", "John Smith", position=1), authorship("p1", "John Smith", position=4)]
    )
    assert len(same_paper) == 2


def test_pi_guess_and_its_reasons():
    is_pi, confidence, reasons = guess_pi(
        4, last=4, corresponding=3, first=0, career_years=15, career_basis="openalex"
    )
    assert is_pi and confidence > 0.9
    assert "last author on 4 of 4 papers in this Run" in reasons
    assert any("corresponding author on 3 papers" in r for r in reasons)
    assert any("OpenAlex" in r for r in reasons)
    student, low, why = guess_pi(3, last=0, corresponding=0, first=3, career_years=3, career_basis="openalex")
    assert not student and low < 0.2 and any("students" in r for r in why)
    one = guess_pi(1, last=1, corresponding=1, first=0, career_years=None, career_basis="none")
    assert (
        0.5 <= one[1] < 0.85 and "only one paper in this Run" in one[2]
    )  # little evidence, moderate confidence
    # more last-author papers, more confidence
    assert guess_pi(5, 5, 0, 0, None, "none")[1] > guess_pi(5, 2, 0, 0, None, "none")[1]


def _papers() -> dict[str, AggregatedPaper]:
    titles = {
        "p1": (2012, "Cortical representation of speech articulators", ["ECoG", "speech motor cortex"]),
        "p2": (2019, "Speech synthesis from neural decoding", ["ECoG", "speech synthesis"]),
        "p3": (2021, "Deep brain stimulation for tremor", ["deep brain stimulation"]),
    }
    return {
        key: AggregatedPaper(key=key, paper=Paper(title=title, year=year, keywords=keywords))
        for key, (year, title, keywords) in titles.items()
    }


def test_profile_career_from_the_run_or_from_openalex():
    papers = _papers()
    person = merge_authorships(
        [
            authorship(
                "p1",
                "Edward Chang",
                year=2012,
                is_last=True,
                n_authors=2,
                corresponding=True,
                openalex_id="A1",
            ),
            authorship("p2", "Edward Chang", year=2019, is_last=True, n_authors=3, openalex_id="A1"),
        ]
    )[0]
    corpus = corpus_frequencies(papers.values())
    profile = build_profile("r1", person, papers, reference_year=2026, corpus=corpus)
    assert (profile.first_year_in_run, profile.latest_year_in_run, profile.career_years) == (2012, 2019, 15)
    assert profile.career_basis == "run" and profile.career_label.startswith("at least 15 years")
    assert (profile.last_author_count, profile.corresponding_count, profile.is_pi) == (2, 1, True)
    assert "ECoG" in profile.top_terms[:3]
    enriched = build_profile(
        "r1",
        person,
        papers,
        reference_year=2026,
        corpus=corpus,
        records={"A1": AuthorRecord(openalex_id="A1", first_year=2004)},
    )
    assert (enriched.first_year_overall, enriched.career_years, enriched.career_basis) == (
        2004,
        23,
        "openalex",
    )
    assert "from OpenAlex" in enriched.career_label


async def test_summaries_by_the_llm_or_by_top_terms():
    papers = _papers()
    corpus = corpus_frequencies(papers.values())
    people = merge_authorships(
        [
            authorship("p1", "Edward Miller"),
            authorship("p2", "Edward Miller"),
            authorship("p3", "Peter Brown", "inst:b"),
        ]
    )
    profiles = [
        build_profile(f"r{i}", p, papers, reference_year=2026, corpus=corpus) for i, p in enumerate(people)
    ]

    rules_notes = await summarise(profiles, papers, {"inst:a": "UCSF"}, RulesLLM())
    assert all(
        p.summary_produced_by is Produced.RULES and p.summary.startswith("Top terms in this Run")
        for p in profiles
    )
    assert rules_notes and "no LLM" in rules_notes[0]

    llm = ScriptedLLM(
        {"researcher_summary": {"summary": "Decodes speech from cortical recordings.", "topics": ["ECoG"]}}
    )
    await summarise(profiles, papers, {"inst:a": "UCSF", "inst:b": "Oxford"}, llm)
    assert Counter(p.summary_produced_by for p in profiles) == Counter({Produced.SCRIPTED: 2})
    miller = next(c for c in llm.calls if c.values["name"] == "Edward Miller")
    assert "Speech synthesis from neural decoding" in miller.user and "UCSF" in miller.user

    broken = ScriptedLLM({"researcher_summary": "not json"})
    notes = await summarise(profiles, papers, {}, broken)
    assert all(p.summary_produced_by is Produced.RULES for p in profiles)
    assert any("fell back" in n for n in notes)


@pytest.mark.parametrize("limit", [1])
async def test_only_the_most_productive_get_a_written_summary(limit):
    papers = _papers()
    corpus = corpus_frequencies(papers.values())
    people = merge_authorships(
        [authorship("p1", "Ann Lee"), authorship("p2", "Ann Lee"), authorship("p3", "Bob Ray", "inst:b")]
    )
    profiles = [
        build_profile(f"r{i}", p, papers, reference_year=2026, corpus=corpus) for i, p in enumerate(people)
    ]
    llm = ScriptedLLM({"researcher_summary": {"summary": "Works on speech."}})
    notes = await summarise(profiles, papers, {}, llm, max_llm=limit)
    written = [p for p in profiles if p.summary_produced_by is Produced.SCRIPTED]
    assert [p.name for p in written] == ["Ann Lee"]
    assert any("top terms, not a written summary" in n for n in notes)
