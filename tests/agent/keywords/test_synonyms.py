"""Synonym expansion and validation: every source, hit-count validation, failing sources, no sources,
Chinese terms, and two real clients (the MeSH descriptor file and Wikipedia on a recorded answer)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from agent.keywords.querybuild import openalex_term
from agent.keywords.synonyms import (
    MAX_CANDIDATES,
    MAX_KEPT,
    SynonymSources,
    _case_like,
    _vocabulary_notes,
    attested_forms,
    build_keyword_plan,
)
from agent.language.mesh_recognition import vocabulary_for
from agent.language.text import term_key
from agent.llm import RulesLLM, ScriptedLLM
from agent.models import (
    ConceptRole,
    ErrorKind,
    KeywordPlan,
    Produced,
    Slots,
    Synonym,
    SynonymOrigin,
    Term,
    Understanding,
)
from tests.agent.keywords.keyword_fakes import (
    BCI_MESH,
    ECOG_MESH,
    PUBMED_HITS,
    FakeMesh,
    FakeOpenAlex,
    FakePubMed,
    FakeSources,
    FakeWikidata,
    FakeWikipedia,
    unavailable,
)
from tests.paths import DATA, FIXTURES
from tools.http import HttpPolicy, SourceConfig
from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH
from tools.openalex import VocabularyEntry
from tools.wikidata import WikidataEntity
from tools.wikipedia import WikipediaClient

DESCRIPTION = "I work on speech decoding with a brain-computer interface (BCI) using ECoG."


def understanding() -> Understanding:
    return Understanding(
        description=DESCRIPTION,
        slots=Slots(
            research_goal="speech decoding with a brain-computer interface",
            task=["speech decoding"],
            method_measurement=["electrocorticography (ECoG)"],
            context=["brain-computer interface (BCI)"],
        ),
    )


def openalex_hits() -> dict[str, int]:
    """OpenAlex counts twice PubMed's for the same phrase (its filter key as the fake receives it)."""
    out = {}
    for query, hits in PUBMED_HITS.items():
        text = query.removesuffix("[tiab]").strip('"')
        out[f"title_and_abstract.search:{openalex_term(text)}"] = hits * 2
    return out


def sources() -> FakeSources:
    return FakeSources(
        pubmed=FakePubMed(hits=PUBMED_HITS),
        mesh=FakeMesh(descriptors=[BCI_MESH, ECOG_MESH]),
        openalex=FakeOpenAlex(
            hits=openalex_hits(),
            keywords=[
                VocabularyEntry(
                    id="keywords/brain-computer-interface",
                    name="Brain-Computer Interface",
                    kind="keyword",
                    synonyms=["Brain Computer Interface"],
                    related=["Electroencephalography"],
                )
            ],
            topics=[
                VocabularyEntry(
                    id="T10429",
                    name="EEG and Brain-Computer Interfaces",
                    kind="topic",
                    related=["Brain-Computer Interface", "P300"],
                )
            ],
        ),
        wikidata=FakeWikidata(
            entities=[
                WikidataEntity(
                    id="Q897410",
                    label="brain–computer interface",
                    labels={"en": "brain–computer interface", "zh": "脑机接口"},
                    aliases={"en": ["BCI", "brain-machine interface", "BMI", "mind-machine interface"]},
                )
            ]
        ),
        wikipedia=FakeWikipedia(
            pages={
                "Brain–computer interface": [
                    "Brain-computer interface",
                    "BCI (neuroscience)",
                    "Brain–machine interface",
                    "Neural interface",
                ]
            }
        ),
    )


LLM_REPLY = {
    "terms": [
        {
            "term": "brain-computer interface",
            "english": "brain-computer interface",
            "candidates": ["BCI", "BMI", "neural interface"],
        },
        {"term": "speech decoding", "english": "speech decoding", "candidates": ["speech BCI decoding"]},
    ],
    "fields_of_study": ["Medicine", "Computer Science", "Engineering"],
}


def term(plan: KeywordPlan, canonical: str) -> Term:
    return next(t for t in plan.terms if t.canonical == canonical)


async def test_expansion_from_every_source_with_validation() -> None:
    fakes = sources()
    llm = ScriptedLLM(replies={"synonym_candidates": LLM_REPLY})
    plan = await build_keyword_plan(understanding(), llm, fakes)

    assert [t.canonical for t in plan.terms] == [
        "speech decoding",
        "electrocorticography",
        "brain-computer interface",
    ]
    assert plan.produced_by is Produced.SCRIPTED
    assert plan.fields_of_study == ["Medicine", "Computer Science", "Engineering"]
    assert plan.source_errors == []
    # one concept per slot and role; the application context only narrows, so it is optional
    assert [(c.label, c.role, c.required) for c in plan.concepts] == [
        ("speech decoding", ConceptRole.METHOD, True),
        ("electrocorticography", ConceptRole.METHOD, True),
        ("brain-computer interface", ConceptRole.SETTING, False),
    ]
    assert [t.concept for t in plan.terms] == [c.id for c in plan.concepts]

    bci = term(plan, "brain-computer interface")
    assert bci.mesh == BCI_MESH
    assert bci.hits == {"pubmed": 9_800, "openalex": 19_600}
    by_text = {s.text: s for s in bci.synonyms}
    kept = [s.text for s in bci.kept_synonyms()]
    # the term's own spellings first, then at most MAX_KEPT spelling families, the user's first
    assert kept[:2] == ["brain computer interface", "brain-computer interfaces"]
    assert kept[2] == "BCI"
    assert len({term_key(s) for s in kept[2:]}) <= MAX_KEPT
    assert len(bci.synonyms) <= MAX_CANDIDATES
    # the user's acronym: several sources agree
    assert set(by_text["BCI"].origins) >= {SynonymOrigin.USER, SynonymOrigin.WIKIDATA, SynonymOrigin.LLM}
    assert by_text["BCI"].hits == {"pubmed": 12_000, "openalex": 24_000}
    # MeSH heading and entry terms, merged with the morphological plural and the OpenAlex keyword
    # (title-cased headings and titles are written in the canonical term's lower case)
    assert set(by_text["brain-computer interfaces"].origins) == {SynonymOrigin.MESH, SynonymOrigin.MORPHOLOGY}
    assert set(by_text["brain computer interface"].origins) == {
        SynonymOrigin.OPENALEX,
        SynonymOrigin.MORPHOLOGY,
    }
    assert "brain-machine interface" in kept and "neural interface" in kept
    # BMI is an acronym with 31x the term's PubMed hits: ambiguous (body mass index), dropped with the reason
    assert not by_text["BMI"].kept
    assert by_text["BMI"].reason.startswith(
        "ambiguous acronym: 32× the hits of 'brain-computer interface' in PubMed"
    )
    # a topic's related keywords are neighbours, never synonyms
    assert "P300" not in by_text and "Electroencephalography" not in by_text

    ecog = term(plan, "electrocorticography")
    assert ecog.mesh == ECOG_MESH
    assert [s.text for s in ecog.kept_synonyms()][0] == "ECoG"
    ecog_texts = {s.text for s in ecog.synonyms}
    assert "Electrocorticography (EcoG)" not in ecog_texts  # the entry term reduced to the canonical itself

    speech = term(plan, "speech decoding")
    dropped = {s.text: s.reason for s in speech.synonyms if not s.kept}
    assert dropped["speech BCI decoding"] == "no hits in PubMed or OpenAlex"


async def test_failing_source_is_recorded_once_and_skipped() -> None:
    fakes = sources()
    assert fakes.openalex is not None and fakes.wikidata is not None
    fakes.openalex.fail = unavailable("openalex")
    fakes.wikidata.fail = unavailable("wikidata")
    plan = await build_keyword_plan(
        understanding(), ScriptedLLM(replies={"synonym_candidates": LLM_REPLY}), fakes
    )

    assert [(e.source, e.kind) for e in plan.source_errors] == [
        ("openalex", ErrorKind.UNAVAILABLE),
        ("wikidata", ErrorKind.UNAVAILABLE),
    ] or sorted((e.source, e.kind) for e in plan.source_errors) == [
        ("openalex", ErrorKind.UNAVAILABLE),
        ("wikidata", ErrorKind.UNAVAILABLE),
    ]
    assert "503" in plan.source_errors[0].message
    assert len(fakes.openalex.calls) == 1 and len(fakes.wikidata.calls) == 1  # skipped after failing
    assert any("skipped after errors: openalex, wikidata" in note for note in plan.notes)
    bci = term(plan, "brain-computer interface")
    assert bci.hits == {"pubmed": 9_800, "openalex": None}
    # PubMed alone still validates: BMI is still recognised as ambiguous
    bmi = next(s for s in bci.synonyms if s.text == "BMI")
    assert not bmi.kept and bmi.hits == {"pubmed": 310_000, "openalex": None}


async def test_not_found_is_not_an_error() -> None:
    fakes = sources()
    plan = await build_keyword_plan(
        Understanding(description="x", slots=Slots(task=["unheard-of technique"])), RulesLLM(), fakes
    )
    assert plan.source_errors == []
    assert fakes.wikipedia is not None and fakes.wikipedia.calls == [("redirects", "unheard-of technique")]
    assert plan.produced_by is Produced.RULES


async def test_without_sources_unvouched_candidates_are_dropped() -> None:
    llm = ScriptedLLM(replies={"synonym_candidates": LLM_REPLY})
    plan = await build_keyword_plan(understanding(), llm, None)
    bci = term(plan, "brain-computer interface")
    by_text = {s.text: s for s in bci.synonyms}
    assert by_text["BCI"].kept  # the user wrote it
    assert not by_text["BMI"].kept and by_text["BMI"].reason.startswith("not validated")
    assert not by_text["neural interface"].kept
    assert by_text["brain-computer interfaces"].kept  # a plural vouches for itself
    assert all(s.hits == {} for s in bci.synonyms)
    assert "no database is available for hit counts: synonyms could not be validated" in plan.notes
    assert plan.source_errors == []


async def test_chinese_term_gets_its_english_name_from_wikidata() -> None:
    fakes = sources()
    plan = await build_keyword_plan(
        Understanding(description="脑机接口", slots=Slots(context=["脑机接口"])), RulesLLM(), fakes
    )
    assert [t.canonical for t in plan.terms] == ["brain-computer interface"]
    assert "'脑机接口' is searched as 'brain-computer interface' (Wikidata)" in plan.notes
    assert fakes.wikidata is not None and ("search_entities", "脑机接口") in fakes.wikidata.calls


async def test_sources_object_coercion() -> None:
    fakes = sources()
    coerced = SynonymSources.coerce(fakes)
    assert coerced.pubmed is fakes.pubmed and coerced.mesh_file is None
    assert SynonymSources.coerce(None).counters == []
    assert SynonymSources.coerce(coerced) is coerced


# -- real clients ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mesh_file() -> MeshFile:
    path = DATA / "mesh" / "mesh2024_descriptors.jsonl.gz"
    if not path.is_file():
        pytest.skip(f"the shared MeSH descriptor file is missing: {path}")
    mesh = MeshFile(path)
    mesh.load()
    return mesh


async def test_real_mesh_file(mesh_file: MeshFile) -> None:
    """The offline MeSH 2024 descriptor table, through the real `MeshFile` client."""
    fakes = FakeSources(pubmed=FakePubMed(hits=PUBMED_HITS))
    sources_ = SynonymSources(pubmed=fakes.pubmed, mesh_file=mesh_file)
    plan = await build_keyword_plan(
        Understanding(description="x", slots=Slots(context=["brain-computer interface"])),
        RulesLLM(),
        sources_,
    )
    bci = plan.terms[0]
    assert (
        bci.mesh is not None and bci.mesh.ui == "D062207" and bci.mesh.heading == "Brain-Computer Interfaces"
    )
    mesh_synonyms = [s.text for s in bci.synonyms if SynonymOrigin.MESH in s.origins]
    assert "brain-machine interfaces" in mesh_synonyms and "brain machine interface" in mesh_synonyms


@pytest.fixture
async def wikipedia() -> AsyncIterator[WikipediaClient]:
    recorded = json.loads((FIXTURES / "wikipedia" / "wptools_query_redirects_douglas_adams.json").read_text())
    client = httpx.AsyncClient(
        transport=httpx.MockTransport(lambda request: httpx.Response(200, json=recorded["body"]))
    )
    config = SourceConfig(
        service="wikipedia", base_url="https://en.wikipedia.org/w/api.php", rate=1000, retries=0
    )
    yield WikipediaClient(HttpPolicy(client, config))
    await client.aclose()


async def test_real_wikipedia_redirects_are_validated(wikipedia: WikipediaClient) -> None:
    """Redirects from a real recorded answer include a spouse and nicknames: hit counts drop them."""
    pubmed = FakePubMed(
        hits={'"Douglas Adams"[tiab]': 40, '"Douglas Noel Adams"[tiab]': 2, '"Douglas adams"[tiab]': 40}
    )
    plan = await build_keyword_plan(
        Understanding(description="x", slots=Slots(context=["Douglas Adams"])),
        RulesLLM(),
        SynonymSources(pubmed=pubmed, wikipedia=wikipedia),
    )
    douglas = plan.terms[0]
    by_text = {s.text: s for s in douglas.synonyms}
    assert SynonymOrigin.WIKIPEDIA in by_text["Douglas Noel Adams"].origins
    assert by_text["Douglas Noel Adams"].kept
    for junk in ("Jane Belson", "Bop Ad", "Adamsian"):
        assert junk not in by_text or not by_text[junk].kept
    assert "Adams, Douglas" not in by_text  # inverted forms are not search phrases


def test_the_plan_says_which_vocabulary_stood_in_for_mesh() -> None:
    mof = Term(
        canonical="metal-organic frameworks",
        slot="subject_population",
        synonyms=[
            Synonym(text="MOFs", origins=[SynonymOrigin.OPENALEX, SynonymOrigin.WIKIDATA]),
            Synonym(text="porous coordination polymers", origins=[SynonymOrigin.WIKIDATA], kept=False),
        ],
    )
    with_mesh = Term(canonical="epilepsy", slot="subject_population", mesh=ECOG_MESH)
    assert _vocabulary_notes([mof, with_mesh]) == [
        "'metal-organic frameworks' has no MeSH heading; its synonyms come from OpenAlex topics and "
        "keywords, Wikidata"
    ]


async def test_substances_get_no_invented_plural() -> None:
    """A drug is a mass noun: "Metformin" gets no "Metformins"."""
    from tools.mesh_build import EMBEDDED_MESH  # the vocabulary the product ships

    mesh = MeshFile(EMBEDDED_MESH)
    mesh.load()
    plan = await build_keyword_plan(
        Understanding(
            description="Metformin in apparently healthy adults with a hip fracture",
            slots=Slots(context=["Metformin", "apparently healthy", "hip fracture", "C-reactive protein"]),
        ),
        RulesLLM(),
        SynonymSources(mesh_file=mesh),
    )
    by_canonical = {t.canonical: t for t in plan.terms}
    metformin = by_canonical["Metformin"]
    assert metformin.mesh is not None and metformin.mesh.heading == "Metformin"
    assert not any(s.text.casefold() == "metformins" for s in metformin.synonyms)
    # a substance keeps its other spellings
    assert "C reactive protein" in [s.text for s in by_canonical["C-reactive protein"].synonyms]
    # nor after a word MeSH only uses as a modifier ("healthies"); a count noun keeps its plural
    assert not any("healthies" in s.text for s in by_canonical["apparently healthy"].synonyms)
    fracture = by_canonical["hip fracture"].synonyms
    assert any(SynonymOrigin.MORPHOLOGY in s.origins and s.text == "hip fractures" for s in fracture)


async def test_a_class_of_substances_written_in_the_plural_keeps_its_singular() -> None:
    """ "sulfonylureas" (Sulfonylurea Compounds, tree D): a paper names one "sulfonylurea", which the
    search had lost (only the plural, as the user wrote it, was searched)."""
    from tools.mesh_build import EMBEDDED_MESH  # the vocabulary the product ships

    mesh = MeshFile(EMBEDDED_MESH)
    mesh.load()
    plan = await build_keyword_plan(
        Understanding(
            description="Sulfonylureas and hypoglycaemia",
            slots=Slots(context=["sulfonylureas", "hypoglycaemia"]),
        ),
        RulesLLM(),
        SynonymSources(mesh_file=mesh),
    )
    classes = {t.canonical: t for t in plan.terms}["sulfonylureas"]
    assert classes.mesh is not None and classes.mesh.heading == "Sulfonylurea Compounds"
    assert "sulfonylurea" in [s.text for s in classes.synonyms if s.kept]


async def test_a_species_name_gets_no_plural() -> None:
    """A Latin binomial names one species: "Mycobacterium tuberculosis" has no "Mycobacterium
    tuberculoses", although MeSH writes "tuberculoses" (for the disease)."""
    from tools.mesh_build import EMBEDDED_MESH  # the vocabulary the product ships

    mesh = MeshFile(EMBEDDED_MESH)
    mesh.load()
    plan = await build_keyword_plan(
        Understanding(
            description="Mycobacterium tuberculosis in pulmonary tuberculosis",
            slots=Slots(context=["Mycobacterium tuberculosis", "pulmonary tuberculosis"]),
        ),
        RulesLLM(),
        SynonymSources(mesh_file=mesh),
    )
    by_canonical = {t.canonical: t for t in plan.terms}
    species = by_canonical["Mycobacterium tuberculosis"]
    assert species.mesh is not None and species.mesh.heading == "Mycobacterium tuberculosis"
    assert not any("tuberculoses" in s.text for s in species.synonyms)


async def test_the_name_of_a_place_gets_no_number() -> None:
    """A place's proper name has no number ("Latin Americas", "United State"), although MeSH writes
    "Americas" and "state"; a common noun of places keeps its plural ("cities")."""
    from tools.mesh_build import EMBEDDED_MESH  # the vocabulary the product ships

    mesh = MeshFile(EMBEDDED_MESH)
    mesh.load()
    plan = await build_keyword_plan(
        Understanding(
            description="Cash transfers in Latin America, the United States and cities",
            slots=Slots(context=["Latin America", "United States", "cities"]),
        ),
        RulesLLM(),
        SynonymSources(mesh_file=mesh),
    )
    by_canonical = {t.canonical: t for t in plan.terms}
    assert by_canonical["Latin America"].mesh is not None
    assert "Latin Americas" not in [s.text for s in by_canonical["Latin America"].synonyms]
    assert "United State" not in [s.text for s in by_canonical["United States"].synonyms]
    assert "city" in [s.text for s in by_canonical["cities"].synonyms]


def test_entry_terms_of_a_category_are_no_synonyms_of_a_member() -> None:
    """An entry term filed under a heading that shares none of its words is a member of a category:
    the heading and the other members are not its synonyms; a heading that shares a word keeps them."""
    from agent.keywords.synonyms import mesh_synonyms  # the function under test, beside the plan tests
    from agent.models import MeshDescriptor  # only this test builds a descriptor by hand

    tests = MeshDescriptor(
        ui="D008610",
        heading="Mental Status and Dementia Tests",
        entry_terms=[
            "Montreal Cognitive Assessment",
            "Montreal Cognitive Assessment Test",
            "General Practitioner Assessment of Cognition",
            "GPCOG",
        ],
    )
    assert mesh_synonyms(tests, "Montreal Cognitive Assessment") == [
        "Montreal Cognitive Assessment",
        "Montreal Cognitive Assessment Test",
    ]
    assert "Mental Status Tests" in mesh_synonyms(
        tests.model_copy(update={"entry_terms": ["Mental Status Tests"]}), "dementia tests"
    )
    # a heading of one disorder: the term is another name of it, and the heading is searched too
    stuttering = MeshDescriptor(
        ui="D013342",
        heading="Stuttering",
        entry_terms=["Stuttering, Developmental", "Stammering"],
        tree_numbers=["C10.597.606.150.500.800.750"],
    )
    assert mesh_synonyms(stuttering, "stammering") == ["Stuttering", "Stammering"]
    infarction = MeshDescriptor(
        ui="D009203",
        heading="Myocardial Infarction",
        entry_terms=["Cardiovascular Stroke", "Myocardial Infarct", "Heart Attack"],
        tree_numbers=["C14.280.647.500"],
    )
    assert mesh_synonyms(infarction, "heart attack") == [
        "Myocardial Infarction",
        "Myocardial Infarct",
        "Heart Attack",
    ]
    # a class of drugs is a category: "DOACs" is one of its members' names, not a name of the class
    xa = MeshDescriptor(
        ui="D065427",
        heading="Factor Xa Inhibitors",
        entry_terms=["Direct Oral Anticoagulants", "Xabans"],
        tree_numbers=["D27.505.954.502.119.500"],
    )
    assert "Factor Xa Inhibitors" not in mesh_synonyms(xa, "direct oral anticoagulants")
    # NLM's "ICU Intensive Care Units" is two synonyms; an acronym term shares no word stems
    units = MeshDescriptor(
        ui="D007362", heading="Intensive Care Units", entry_terms=["ICU Intensive Care Units"]
    )
    assert mesh_synonyms(units, "ICU") == ["Intensive Care Units", "ICU"]
    # the acronym stands for its own expansion: "CFR Case Fatality Rate" names no synonym of "mortality"
    mortality = MeshDescriptor(
        ui="D009026", heading="Mortality", entry_terms=["Excess Mortality", "CFR Case Fatality Rate"]
    )
    assert mesh_synonyms(mortality, "mortality") == ["Mortality"]
    # the names a species had in other genera are classifications, not synonyms; the abbreviated genus is
    coli = MeshDescriptor(
        ui="D004926",
        heading="Escherichia coli",
        entry_terms=["Bacillus coli", "Bacterium coli commune", "E coli", "E. coli"],
        tree_numbers=["B03.440.450.425.325.300"],
    )
    assert mesh_synonyms(coli, "Escherichia coli") == ["Escherichia coli", "E coli", "E. coli"]
    # a numbered type of the concept is narrower, not a synonym
    pcos = MeshDescriptor(
        ui="D011085",
        heading="Polycystic Ovary Syndrome",
        entry_terms=["Polycystic Ovarian Syndrome", "Polycystic Ovary Syndrome 1"],
    )
    assert mesh_synonyms(pcos, "polycystic ovary syndrome") == [
        "Polycystic Ovary Syndrome",
        "Polycystic Ovarian Syndrome",
    ]
    # ... as is a numbered type of another concept
    crohn = MeshDescriptor(
        ui="D003424", heading="Crohn Disease", entry_terms=["Crohn's Disease", "Inflammatory Bowel Disease 1"]
    )
    assert mesh_synonyms(crohn, "Crohn's disease") == ["Crohn Disease", "Crohn's Disease"]


def test_no_singular_english_does_not_write() -> None:
    vocabulary = vocabulary_for(MeshFile(EMBEDDED_MESH))
    assert vocabulary.writes_form("interfaces") and not vocabulary.writes_form("prediabete")
    # a word that only looks plural gets no "singular"
    assert attested_forms("prediabetes", ["prediabete"], vocabulary) == []
    # count nouns keep both numbers, plurals stay, hyphenation changes no number
    assert attested_forms(
        "brain-computer interfaces", ["brain-computer interface", "brain computer interfaces"], vocabulary
    ) == [
        "brain-computer interface",
        "brain computer interfaces",
    ]
    # a plural MeSH never writes of a word it writes only in the singular: a mass noun
    assert attested_forms("obesity", ["obesities"], vocabulary) == []
    assert attested_forms("essential hypertension", ["essential hypertensions"], vocabulary) == []
    assert attested_forms("infection", ["infections"], vocabulary) == ["infections"]
    # a count noun MeSH writes only in the plural ("Home Visits") keeps the singular English writes
    assert not vocabulary.writes_form("visit")
    assert attested_forms("home visits", ["home visit"], vocabulary) == ["home visit"]
    # words MeSH does not know keep what the grammar gives, as does a plan without MeSH
    assert attested_forms("perovskite films", ["perovskite film"], vocabulary) == ["perovskite film"]
    assert attested_forms("prediabetes", ["prediabete"], None) == ["prediabete"]
    # an organism's Latin epithet is no English number ("Cutibacterium acnes"): acne stays one form
    assert not vocabulary.writes_form("acnes")
    assert attested_forms("acne", ["acnes"], vocabulary) == []


async def test_an_acronym_no_one_vouches_for_must_name_the_term_in_its_own_papers() -> None:
    """An acronym from a model or an outside vocabulary is kept only when enough of the PubMed papers
    that write it also write the full form (`ACRONYM_MIN_SHARE`)."""
    from agent.keywords.querybuild import pubmed_term  # the query form the counts are keyed by

    women, mbsr = "pregnant women", "mindfulness-based stress reduction"
    hits = {
        pubmed_term(women): 300_000,
        "PW[tiab]": 15_000,
        f"PW[tiab] AND {pubmed_term(women)}": 400,  # pulse wave, pulse width, ...
        pubmed_term(mbsr): 2_500,
        "MBSR[tiab]": 3_000,
        f"MBSR[tiab] AND {pubmed_term(mbsr)}": 2_400,
    }
    llm = ScriptedLLM(
        replies={
            "synonym_candidates": {
                "terms": [
                    {"term": women, "english": women, "candidates": ["PW"]},
                    {"term": mbsr, "english": mbsr, "candidates": ["MBSR"]},
                ]
            }
        }
    )
    plan = await build_keyword_plan(
        Understanding(
            description=f"Does {mbsr} reduce anxiety in {women}?",
            slots=Slots(subject_population=[women], context=[mbsr]),
        ),
        llm,
        FakeSources(pubmed=FakePubMed(hits=hits)),
    )
    pw = next(s for s in term(plan, women).synonyms if s.text == "PW")
    assert not pw.kept
    assert (
        pw.reason
        == "ambiguous acronym: only 400 of the 15,000 PubMed papers with 'PW' also write 'pregnant women'"
    )
    assert next(s for s in term(plan, mbsr).synonyms if s.text == "MBSR").kept


@pytest.mark.parametrize(
    ("candidate", "canonical", "written"),
    [
        # an acronym in the canonical does not make its synonyms Title Case
        (
            "Sodium-Glucose Transporter 2 Inhibitors",
            "SGLT2 inhibitors",
            "sodium-glucose transporter 2 inhibitors",
        ),
        ("SGLT2 Inhibitors", "SGLT2 inhibitors", "SGLT2 inhibitors"),
        # nor does a capital at the start of the description
        ("Vaccination Hesitancy", "Vaccine hesitancy", "vaccination hesitancy"),
        # a capitalised word of the canonical is a name and keeps its capital
        ("Alzheimer Disease", "Alzheimer disease", "Alzheimer disease"),
        ("ECoG", "electrocorticography", "ECoG"),
        # a canonical written in Title Case inside is a name: its synonyms stay as written
        ("Trisomy 21", "Down Syndrome", "Trisomy 21"),
        # a hyphenated word with a lower-case second part ("Burn-out, Psychological"), but not "X-Ray"
        ("Psychological Burn-out", "burnout", "psychological burn-out"),
        ("X-Ray Computed Tomography", "computed tomography", "X-Ray computed tomography"),
    ],
)
def test_synonyms_are_written_in_the_canonical_terms_case(
    candidate: str, canonical: str, written: str
) -> None:
    assert _case_like(candidate, canonical) == written


def test_a_permuted_entry_term_is_no_second_synonym() -> None:
    """NLM's permuted entry term "Antimicrobial Resistance, Drug" is the same words as "Antimicrobial
    Drug Resistance"; put back in natural order it would be word salad."""
    from agent.keywords.synonyms import mesh_synonyms
    from agent.models import MeshDescriptor

    resistance = MeshDescriptor(
        ui="D004352",
        heading="Drug Resistance, Microbial",
        entry_terms=[
            "Antimicrobial Drug Resistance",
            "Antimicrobial Resistance, Drug",
            "Antibiotic Resistance, Microbial",
            "Antibiotic Resistance",
        ],
    )
    assert mesh_synonyms(resistance, "antibiotic resistance") == [
        "Microbial Drug Resistance",
        "Antimicrobial Drug Resistance",
        "Antibiotic Resistance",
    ]


def test_a_plural_mesh_writes_is_no_malformed_form() -> None:
    """The grammar counts few nouns in "-ic", but MeSH writes "Microplastics" and "Antibiotics"."""
    from agent.keywords.synonyms import _malformed

    vocabulary = vocabulary_for(MeshFile(EMBEDDED_MESH))
    assert not _malformed("microplastics", "microplastic", vocabulary)
    assert not _malformed("antibiotics", "antibiotic", vocabulary)
    assert _malformed("epilepsys", "epilepsy", vocabulary)
    assert _malformed("electrocorticographys", "electrocorticography", vocabulary)
    assert _malformed("microplastics", "microplastic", None)  # without MeSH, the grammar decides


async def _plan_of(mesh_file: MeshFile, description: str, **slots: list[str]) -> KeywordPlan:
    fakes = FakeSources(pubmed=FakePubMed(hits=PUBMED_HITS))
    return await build_keyword_plan(
        Understanding(description=description, slots=Slots(**slots)),
        RulesLLM(),
        SynonymSources(pubmed=fakes.pubmed, mesh_file=mesh_file),
    )


async def test_outside_medicine_no_entry_term_of_another_fields_sense_is_pasted(mesh_file: MeshFile) -> None:
    """ "energy consumption" is an entry term of Energy Intake: in a description naming nothing of
    medicine its "calorie intake" reaches no query, and no heading is looked up for it again."""
    plan = await _plan_of(
        mesh_file,
        "Carbon taxes and household energy consumption in Europe",
        output_target=["household energy consumption"],
        context=["Carbon taxes"],
    )
    energy = next(t for t in plan.terms if t.canonical == "energy consumption")
    assert energy.mesh is None
    assert not any("calori" in s.text for s in energy.synonyms)
    # inside medicine the same words keep their heading
    plan = await _plan_of(
        mesh_file,
        "Energy consumption and obesity in children",
        output_target=["obesity"],
        context=["Energy consumption"],
    )
    assert any(t.mesh is not None and t.mesh.heading == "Energy Intake" for t in plan.terms)


async def test_a_category_of_people_named_by_one_word_gets_no_heading(mesh_file: MeshFile) -> None:
    """ "workers" is an entry term of Occupational Groups, which MeSH divides into 25 kinds of workers:
    the word alone names no group a searcher would explode, and no heading is looked up for it; a kind
    MeSH files (Health Personnel) keeps its heading, without the category unexploded beside it."""
    plan = await _plan_of(
        mesh_file,
        "Social prescribing through workers for loneliness in older adults",
        subject_population=["workers", "older adults"],
        context=["Social prescribing"],
    )
    workers = next(t for t in plan.terms if t.canonical == "workers")
    assert workers.mesh is None
    plan = await _plan_of(
        mesh_file,
        "Influenza vaccination of healthcare workers",
        subject_population=["healthcare workers"],
        context=["Influenza vaccination"],
    )
    staff = next(t for t in plan.terms if t.canonical == "healthcare workers")
    assert staff.mesh is not None and staff.mesh.heading == "Health Personnel"
    assert staff.broader == []


def test_a_clinical_acronym_reads_as_the_heading_it_names() -> None:
    """The acronyms MeSH lists under no descriptor read as clinical writing uses them; one of two common
    readings (RA: rheumatoid arthritis or regional anaesthesia) or a word that is no acronym reads as
    nothing; a plural reads as its singular; every reading is a MeSH heading written as MeSH writes it."""
    from agent.language.clinical_acronyms import _readings, clinical_reading

    assert clinical_reading("AF") == "Atrial Fibrillation"
    assert clinical_reading("CKD") == "Renal Insufficiency, Chronic"
    assert clinical_reading("PPIs") == "Proton Pump Inhibitors"
    assert clinical_reading("RA") is None and clinical_reading("ED") is None
    assert clinical_reading("af") is None and clinical_reading("Mi") is None
    vocabulary = vocabulary_for(MeshFile(EMBEDDED_MESH))
    for acronym, heading in _readings().items():
        assert [d.heading for d in vocabulary.lookup(heading)][:1] == [heading], acronym
        assert not vocabulary.lookup(acronym), acronym  # MeSH does not list it itself


async def test_a_clinical_acronym_mesh_does_not_list_gets_its_heading(mesh_file: MeshFile) -> None:
    """ "paroxysmal AF" and "acute MI" get Atrial Fibrillation and Myocardial Infarction, with the words
    of the heading beside the acronym; outside medicine the same letters get nothing."""
    plan = await _plan_of(
        mesh_file,
        "Catheter ablation for paroxysmal AF after acute MI",
        subject_population=["paroxysmal AF"],
        context=["acute MI"],
        method_measurement=["Catheter ablation"],
    )
    af = next(t for t in plan.terms if t.canonical == "paroxysmal AF")
    assert af.mesh is not None and af.mesh.heading == "Atrial Fibrillation"
    assert any(s.text.lower() == "atrial fibrillation" for s in af.synonyms)
    mi = next(t for t in plan.terms if t.canonical == "acute MI")
    assert mi.mesh is not None and mi.mesh.heading == "Myocardial Infarction"
    plan = await _plan_of(
        mesh_file,
        "Error-correcting codes with a CRC for flash memory controllers",
        method_measurement=["CRC"],
        context=["flash memory controllers"],
    )
    assert all(t.mesh is None for t in plan.terms if t.canonical == "CRC")


def test_a_hyphenated_modifier_has_no_number() -> None:
    """ "dual-band", "solid-state", "open-domain" qualify a device or a task: no "dual-bands", and no
    truncation ("open-domain*" had been searched); a hyphenated noun keeps its number ("follow-up")."""
    from agent.keywords.synonyms import _has_plural

    vocabulary = vocabulary_for(MeshFile(EMBEDDED_MESH))
    assert not _has_plural("dual-band", None, vocabulary)
    assert not _has_plural("solid-state", None, vocabulary)
    assert not _has_plural("open-domain", None, vocabulary)
    assert _has_plural("follow-up", None, vocabulary)
    assert _has_plural("non-smoker", None, vocabulary)  # a prefix before a noun: a noun
    assert _has_plural("non-relatives", None, vocabulary)
    assert _has_plural("e-cigarette", None, vocabulary)
