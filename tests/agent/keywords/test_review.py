"""Keyword review: structured and plain-text edits, regeneration for changed terms only (outside calls
counted on the fakes), and the human-readable diff."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from agent.keywords.querybuild import build_queries
from agent.keywords.review import (
    AddSynonym,
    AddTerm,
    DeleteTerm,
    KeywordEdit,
    MergeConcepts,
    MoveTerm,
    RemoveSynonym,
    RenameTerm,
    SetConcept,
    SetStudyFilter,
    ToggleFacet,
    apply_edits,
    parse_edit_text,
)
from agent.keywords.synonyms import SynonymSources, build_keyword_plan
from agent.llm import RulesLLM, ScriptedLLM
from agent.models import ConceptRole, KeywordPlan, Slots, Source, SynonymOrigin, Understanding
from tests.agent.keywords.keyword_fakes import (
    BCI_MESH,
    ECOG_MESH,
    PUBMED_HITS,
    FakeMesh,
    FakePubMed,
    FakeSources,
)
from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH


def fakes() -> FakeSources:
    hits = dict(PUBMED_HITS)
    hits.update({'"speech synthesis"[tiab]': 5_000, "stereo-EEG[tiab]": 300, '"stereo-EEG"[tiab]': 300})
    # the model's acronym is validated by the papers that write it with the full form
    hits["SEEG[tiab] AND stereoelectroencephalography[tiab]"] = 900
    return FakeSources(pubmed=FakePubMed(hits=hits), mesh=FakeMesh(descriptors=[BCI_MESH, ECOG_MESH]))


async def base_plan() -> KeywordPlan:
    understanding = Understanding(
        description="speech decoding with a brain-computer interface (BCI) from ECoG and sEEG",
        slots=Slots(
            task=["speech decoding"],
            method_measurement=["electrocorticography (ECoG)", "sEEG"],
            context=["brain-computer interface (BCI)"],
        ),
    )
    return await build_keyword_plan(understanding, RulesLLM(), fakes())


def edits(*items: object) -> list[KeywordEdit]:
    return TypeAdapter(list[KeywordEdit]).validate_python(list(items))


async def test_add_term_expands_only_the_new_term() -> None:
    plan = await base_plan()
    sources = fakes()
    new, diff = await apply_edits(
        plan, edits({"op": "add_term", "text": "speech synthesis", "slot": "task"}), RulesLLM(), sources
    )

    assert [t.canonical for t in new.terms_for("task")] == ["speech decoding", "speech synthesis"]
    assert sources.mesh is not None and sources.mesh.calls == [("lookup", "speech synthesis")]
    assert sources.pubmed is not None
    counted = [q for _, q in sources.pubmed.calls]
    assert counted[0] == '"speech synthesis"[tiab]'
    assert all("synthes" in q or "SS" in q for q in counted)  # nothing about the unchanged terms
    assert diff.terms_added == ["speech synthesis"]
    assert diff.outside_calls == len(sources.mesh.calls) + len(sources.pubmed.calls)
    pubmed = diff.queries[Source.PUBMED.value]
    assert '"speech synthesis"[tiab]' in pubmed.added and pubmed.removed == []
    assert "+ term: speech synthesis" in diff.text()
    assert '~ pubmed query: +"speech synthesis"[tiab]' in diff.text()
    # the original plan is untouched
    assert [t.canonical for t in plan.terms_for("task")] == ["speech decoding"]


async def test_delete_remove_and_toggle_make_no_outside_calls() -> None:
    plan = await base_plan()
    sources = fakes()
    new, diff = await apply_edits(
        plan,
        [
            DeleteTerm(term="sEEG"),
            RemoveSynonym(synonym="BCI", term="brain-computer interface"),
            ToggleFacet(slot="context", enabled=False),
        ],
        RulesLLM(),
        sources,
    )
    assert sources.total_calls() == 0 and diff.outside_calls == 0
    assert [t.canonical for t in new.terms] == [
        "speech decoding",
        "electrocorticography",
        "brain-computer interface",
    ]
    bci = new.terms[2]
    removed = next(s for s in bci.synonyms if s.text == "BCI")
    assert not removed.kept and removed.reason == "removed in the review"
    assert [c.enabled for c in new.concepts if c.label == "brain-computer interface"] == [False]
    assert diff.terms_removed == ["sEEG"]
    assert diff.synonyms_removed == {"brain-computer interface": ["BCI"]}
    assert diff.concepts_changed == [
        "electrocorticography / sEEG: required (electrocorticography)",
        "brain-computer interface: off (brain-computer interface)",
    ]
    assert "sEEG[tiab]" in diff.queries["pubmed"].removed
    text = diff.text()
    assert (
        "- term: sEEG" in text
        and "- synonym of brain-computer interface: BCI" in text
        and "~ concept brain-computer interface: off (brain-computer interface)" in text
    )


async def test_rename_regenerates_that_term_and_keeps_the_users_synonyms() -> None:
    plan = await base_plan()
    plan, _ = await apply_edits(plan, [AddSynonym(term="sEEG", synonym="stereo-EEG")], RulesLLM(), fakes())
    seeg = next(t for t in plan.terms if t.canonical == "sEEG")
    assert seeg.synonyms[0].text == "stereo-EEG" and seeg.synonyms[0].origins == [SynonymOrigin.USER]
    assert seeg.synonyms[0].hits == {"pubmed": 300}

    sources = fakes()
    llm = ScriptedLLM(
        replies={
            "synonym_candidates": {
                "terms": [{"term": "stereoelectroencephalography", "candidates": ["SEEG"]}]
            }
        }
    )
    new, diff = await apply_edits(
        plan, [RenameTerm(term="sEEG", new="stereoelectroencephalography")], llm, sources
    )
    renamed = next(t for t in new.terms if t.canonical == "stereoelectroencephalography")
    texts = [s.text for s in renamed.kept_synonyms()]
    assert "stereo-EEG" in texts and "SEEG" in texts
    assert diff.terms_renamed == [("sEEG", "stereoelectroencephalography")]
    assert diff.terms_added == [] and diff.terms_removed == []
    assert sources.mesh is not None and sources.mesh.calls == [("lookup", "stereoelectroencephalography")]
    assert len(llm.calls) == 1 and "stereoelectroencephalography" in llm.calls[0].values["terms_json"]
    assert "~ term: sEEG -> stereoelectroencephalography" in diff.text()


async def test_user_synonym_with_no_hits_is_kept_with_a_warning() -> None:
    plan = await base_plan()
    new, diff = await apply_edits(
        plan, [AddSynonym(term="speech decoding", synonym="neural speech prosthesis")], RulesLLM(), fakes()
    )
    synonym = new.terms_for("task")[0].synonyms[0]
    assert synonym.kept and synonym.hits == {"pubmed": 0}
    assert diff.warnings == ["'neural speech prosthesis' has no hits; it is kept because you added it"]
    assert diff.synonyms_added == {"speech decoding": ["neural speech prosthesis"]}


async def test_edits_on_missing_terms_are_warnings_not_crashes() -> None:
    plan = await base_plan()
    new, diff = await apply_edits(
        plan,
        [
            DeleteTerm(term="fMRI"),
            RenameTerm(term="nope", new="x"),
            RemoveSynonym(synonym="zzz"),
            AddTerm(text="sEEG"),
        ],
        RulesLLM(),
        fakes(),
    )
    assert new.terms == plan.terms
    assert diff.empty
    assert diff.warnings == [
        "there is no term 'fMRI' to delete",
        "there is no term 'nope' to rename",
        "there is no synonym 'zzz' to remove",
        "'sEEG' is already a term",
    ]
    assert diff.text().startswith("! there is no term 'fMRI' to delete")


async def test_facet_made_required_enters_the_queries() -> None:
    plan = await base_plan()
    plan, _ = await apply_edits(
        plan, [AddTerm(text="transformer", slot="method_algorithm")], RulesLLM(), None
    )
    added = next(c for c in plan.concepts if c.label == "transformer")
    assert added.role is ConceptRole.ALGORITHM and added.required is False  # an algorithm only narrows
    new, diff = await apply_edits(
        plan, [ToggleFacet(slot="method_algorithm", required=True)], RulesLLM(), None
    )
    assert diff.concepts_changed == ["transformer: required (transformer)"]
    assert "transformer*[tiab]" in diff.queries["pubmed"].added  # with its plural, truncated


async def test_concepts_are_split_merged_and_switched() -> None:
    plan = await base_plan()
    ecog = next(c for c in plan.concepts if c.label.startswith("electrocorticography"))
    # sEEG is OR'ed with electrocorticography; splitting it makes it a block of its own (AND'ed)
    split, diff = await apply_edits(plan, [MoveTerm(term="sEEG")], RulesLLM(), None)
    query = build_queries(split).queries[Source.PUBMED].query
    assert "AND (sEEG[tiab])" in query and "sEEG" not in " ".join(
        t.canonical for t in split.terms_of(ecog.id)
    )
    merged, diff = await apply_edits(
        split, [MergeConcepts(concepts=["electrocorticography / sEEG", "sEEG"])], RulesLLM(), None
    )
    assert len(merged.concepts) == len(plan.concepts)
    assert "OR sEEG[tiab])" in build_queries(merged).queries[Source.PUBMED].query
    optional, diff = await apply_edits(
        merged, [SetConcept(concept="speech decoding", required=False)], RulesLLM(), None
    )
    assert "speech decoding" not in build_queries(optional).queries[Source.PUBMED].query
    assert diff.concepts_changed == ["speech decoding: optional (speech decoding)"]
    _, diff = await apply_edits(merged, [SetConcept(concept="nothing like it")], RulesLLM(), None)
    assert diff.warnings == ["there is no concept 'nothing like it'"]


async def test_a_study_filter_switched_on_is_anded_into_every_query() -> None:
    understanding = Understanding(
        description="Mindfulness for burnout in nurses: randomised controlled trials",
        slots=Slots(
            subject_population=["nurses"],
            output_target=["burnout"],
            context=["Mindfulness", "randomised controlled trials"],
        ),
    )
    plan = await build_keyword_plan(
        understanding, RulesLLM(), SynonymSources(mesh_file=MeshFile(EMBEDDED_MESH))
    )
    (study,) = plan.study_filters
    assert (study.text, study.heading, study.publication_type, study.enabled) == (
        "randomised controlled trials",
        "Randomized Controlled Trial",
        True,
        False,
    )
    assert "Randomized" not in build_queries(plan).queries[Source.PUBMED].query  # off: not a concept
    on, diff = await apply_edits(
        plan, [SetStudyFilter(filter="Randomised controlled trial")], RulesLLM(), None
    )
    queries = build_queries(on).queries
    assert queries[Source.PUBMED].query.endswith(
        'AND ("Randomized Controlled Trial"[pt] OR "randomised controlled trials"[tiab]'
        ' OR "randomized controlled trial"[tiab])'
    )
    assert "randomised controlled trials" in queries[Source.SEMANTIC_SCHOLAR].query
    assert "randomised controlled trials" in queries[Source.OPENALEX].query
    assert diff.queries["pubmed"].added and diff.outside_calls == 0
    _, diff = await apply_edits(plan, [SetStudyFilter(filter="cohort studies")], RulesLLM(), None)
    assert diff.warnings == [
        "there is no study filter 'cohort studies' (the plan has: 'randomised controlled trials')"
    ]


async def test_a_publication_year_filter_switched_on_limits_every_query() -> None:
    understanding = Understanding(
        description="Mindfulness for burnout in nurses, trials published since 2010",
        slots=Slots(subject_population=["nurses"], output_target=["burnout"], context=["Mindfulness"]),
    )
    plan = await build_keyword_plan(
        understanding, RulesLLM(), SynonymSources(mesh_file=MeshFile(EMBEDDED_MESH))
    )
    (years,) = [f for f in plan.study_filters if f.limits_years]
    assert (years.text, years.first_year, years.last_year, years.enabled) == (
        "published since 2010",
        2010,
        None,
        False,
    )
    assert "[dp]" not in build_queries(plan).queries[Source.PUBMED].query
    on, _ = await apply_edits(
        plan, parse_edit_text("switch on filter published since 2010"), RulesLLM(), None
    )
    queries = build_queries(on).queries
    assert queries[Source.PUBMED].query.endswith(" AND 2010:3000[dp]")
    assert queries[Source.SEMANTIC_SCHOLAR].params["year"] == "2010-"
    assert queries[Source.OPENALEX].params["filter"].endswith(",from_publication_date:2010-01-01")


def test_structured_edits_validate() -> None:
    parsed = edits(
        {"op": "add_term", "text": " speech synthesis ", "slot": "population"},
        {"op": "toggle_facet", "slot": "context"},
    )
    assert parsed[0].root == AddTerm(text="speech synthesis", slot="subject_population")
    assert parsed[1].root == ToggleFacet(slot="context")
    with pytest.raises(ValidationError):
        edits({"op": "explode"})
    with pytest.raises(ValidationError, match="unknown slot"):
        edits({"op": "add_term", "text": "x", "slot": "weather"})
    with pytest.raises(ValidationError):
        edits({"op": "add_term", "text": ""})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("add term: speech synthesis", AddTerm(text="speech synthesis")),
        ("Add keyword 'speech synthesis' to task", AddTerm(text="speech synthesis", slot="task")),
        ("add term fMRI under measurement", AddTerm(text="fMRI", slot="method_measurement")),
        (
            "remove synonym BCI from brain-computer interface",
            RemoveSynonym(synonym="BCI", term="brain-computer interface"),
        ),
        ("delete synonym BMI", RemoveSynonym(synonym="BMI")),
        ("add synonym ECoG to electrocorticography", AddSynonym(synonym="ECoG", term="electrocorticography")),
        ("rename ECoG to electrocorticography", RenameTerm(term="ECoG", new="electrocorticography")),
        ("change term “sEEG” into stereo-EEG", RenameTerm(term="sEEG", new="stereo-EEG")),
        ("delete term: EEG", DeleteTerm(term="EEG")),
        ("remove EEG", DeleteTerm(term="EEG")),
        ("disable facet context", ToggleFacet(slot="context", enabled=False)),
        ("turn on the population facet", ToggleFacet(slot="subject_population", enabled=True)),
        ("make facet method_algorithm required", ToggleFacet(slot="method_algorithm", required=True)),
        ("make signal feature optional", ToggleFacet(slot="signal_feature", required=False)),
        ("添加关键词：语音合成", AddTerm(text="语音合成")),
        ("删除 BCI", DeleteTerm(term="BCI")),
        ("删除同义词 BMI", RemoveSynonym(synonym="BMI")),
        ("为 脑机接口 添加同义词 BCI", AddSynonym(term="脑机接口", synonym="BCI")),
        (
            "从 brain-computer interface 中删除同义词 BCI",
            RemoveSynonym(synonym="BCI", term="brain-computer interface"),
        ),
        ("把 ECoG 改为 electrocorticography", RenameTerm(term="ECoG", new="electrocorticography")),
        ("关闭 场景", ToggleFacet(slot="context", enabled=False)),
        # concepts and study filters, as the chat's prompt offers them
        ("make nurses optional", SetConcept(concept="nurses", required=False)),
        ("require burnout", SetConcept(concept="burnout", required=True)),
        ("disable Kenya", SetConcept(concept="Kenya", enabled=False)),
        ("split sEEG", MoveTerm(term="sEEG")),
        ("move ICU to nurses", MoveTerm(term="ICU", concept="nurses")),
        ("merge ICU and nurses", MergeConcepts(concepts=["ICU", "nurses"])),
        ("merge ICU into nurses", MergeConcepts(concepts=["nurses", "ICU"])),
        (
            "switch on filter randomised controlled trials",
            SetStudyFilter(filter="randomised controlled trials", enabled=True),
        ),
        ("turn off the filter meta-analysis", SetStudyFilter(filter="meta-analysis", enabled=False)),
        ("把 护士 设为可选", SetConcept(concept="护士", required=False)),
        ("把 护士 改为必选", SetConcept(concept="护士", required=True)),
        ("合并 ICU 和 护士", MergeConcepts(concepts=["ICU", "护士"])),
        ("启用筛选 cohort studies", SetStudyFilter(filter="cohort studies", enabled=True)),
    ],
)
def test_parse_edit_text(text: str, expected: object) -> None:
    assert [e.root for e in parse_edit_text(text)] == [expected]


def test_parse_several_edits() -> None:
    parsed = parse_edit_text("- add term: speech synthesis\n2. remove synonym BCI; disable facet context")
    assert [e.root.op for e in parsed] == ["add_term", "remove_synonym", "toggle_facet"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no edit found"),
        ("please make it better", "could not understand the edit 'please make it better'"),
        ("disable facet weather", "unknown facet 'weather'"),
        ("add term speech under weather", "unknown slot 'weather'"),
    ],
)
def test_parse_errors_explain_the_format(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        parse_edit_text(text)
    if "could not" in message or "no edit" in message:
        assert "add term: speech synthesis" in str(error.value)
