"""The three query builders, exact strings: the requirements' example, escaping, truncation, length limits,
facets, a Chinese description's plan, and the reproducible URLs."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from agent.keywords.querybuild import (
    PUBMED_MAX_QUERY_CHARS,
    build_openalex_query,
    build_pubmed_query,
    build_queries,
    build_semantic_scholar_query,
    pubmed_term,
)
from agent.keywords.synonyms import build_keyword_plan
from agent.llm import ScriptedLLM
from agent.models import (
    Concept,
    ConceptRole,
    Facet,
    KeywordPlan,
    MeshDescriptor,
    Slots,
    Source,
    Synonym,
    SynonymOrigin,
    Term,
    Understanding,
)
from agent.understanding.facets import decide_facets, facets_for_terms
from tests.agent.keywords.keyword_fakes import BCI_MESH, ECOG_MESH


def syn(text: str, *origins: SynonymOrigin, kept: bool = True) -> Synonym:
    return Synonym(text=text, origins=list(origins) or [SynonymOrigin.LLM], kept=kept)


def prd_plan() -> KeywordPlan:
    """The requirements' example: invasive speech brain-computer interface decoding with ECoG and sEEG."""
    terms = [
        Term(canonical="speech decoding", slot="task", synonyms=[syn("decoding speech")]),
        Term(
            canonical="electrocorticography",
            slot="method_measurement",
            mesh=ECOG_MESH,
            synonyms=[syn("ECoG", SynonymOrigin.USER), syn("intracranial EEG", SynonymOrigin.MESH)],
        ),
        Term(
            canonical="stereoelectroencephalography",
            slot="method_measurement",
            synonyms=[syn("sEEG", SynonymOrigin.USER), syn("stereo-EEG")],
        ),
        Term(
            canonical="brain-computer interface",
            slot="context",
            mesh=BCI_MESH,
            synonyms=[
                syn("brain-computer interfaces", SynonymOrigin.MORPHOLOGY, SynonymOrigin.MESH),
                syn("BCI", SynonymOrigin.USER),
                syn("brain-machine interface", SynonymOrigin.MESH),
                Synonym(text="BMI", origins=[SynonymOrigin.LLM], kept=False, reason="ambiguous acronym"),
            ],
        ),
    ]
    return KeywordPlan(
        terms=terms, facets=facets_for_terms(terms), fields_of_study=["Medicine", "Computer Science"]
    )


PRD_PUBMED = (
    '("speech decoding"[tiab] OR "decoding speech"[tiab])'
    ' AND ("Electrocorticography"[Mesh] OR electrocorticography[tiab] OR ECoG[tiab] OR "intracranial EEG"[tiab]'
    ' OR stereoelectroencephalography[tiab] OR sEEG[tiab] OR "stereo-EEG"[tiab])'
    ' AND ("Brain-Computer Interfaces"[Mesh] OR "brain-computer interface*"[tiab] OR BCI[tiab]'
    ' OR "brain-machine interface"[tiab])'
)
PRD_S2 = (
    '("speech decoding" | "decoding speech")'
    ' + (electrocorticography | ECoG | "intracranial EEG" | stereoelectroencephalography | sEEG | "stereo-EEG")'
    ' + ("brain-computer interface" | "brain-computer interfaces" | BCI | "brain-machine interface")'
)
PRD_OPENALEX = (
    'title_and_abstract.search:("speech decoding" OR "decoding speech"),'
    'title_and_abstract.search:(electrocorticography OR ECoG OR "intracranial EEG" OR stereoelectroencephalography'
    ' OR sEEG OR "stereo-EEG"),'
    'title_and_abstract.search:("brain-computer interface" OR "brain-computer interfaces" OR BCI'
    ' OR "brain-machine interface")'
)


def test_requirements_example_pubmed() -> None:
    assert build_pubmed_query(prd_plan()) == PRD_PUBMED


def test_requirements_example_semantic_scholar() -> None:
    query, params = build_semantic_scholar_query(prd_plan())
    assert query == PRD_S2
    assert params == {"query": PRD_S2, "fieldsOfStudy": "Medicine,Computer Science"}


def test_requirements_example_openalex() -> None:
    query, params = build_openalex_query(prd_plan())
    assert query == PRD_OPENALEX
    assert params == {"filter": PRD_OPENALEX}


def test_query_plan_urls_reproduce_the_requests() -> None:
    plan = build_queries(prd_plan())
    pubmed = plan.queries[Source.PUBMED]
    parts = urlsplit(pubmed.url)
    assert (
        f"{parts.scheme}://{parts.netloc}{parts.path}"
        == "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi"
    )
    assert parse_qs(parts.query) == {"db": ["pubmed"], "term": [PRD_PUBMED]}
    assert pubmed.params == {"db": "pubmed", "term": PRD_PUBMED}

    s2 = plan.queries[Source.SEMANTIC_SCHOLAR]
    parts = urlsplit(s2.url)
    assert parts.netloc + parts.path == "api.semanticscholar.org/graph/v1/paper/search/bulk"
    assert parse_qs(parts.query) == {"query": [PRD_S2], "fieldsOfStudy": ["Medicine,Computer Science"]}

    openalex = plan.queries[Source.OPENALEX]
    parts = urlsplit(openalex.url)
    assert parts.netloc + parts.path == "api.openalex.org/works"
    assert parse_qs(parts.query) == {"filter": [PRD_OPENALEX]}
    # plus signs, quotes, spaces and pipes are percent-encoded; the filter's own ':' and ',' stay readable
    assert "%2B" in s2.url and "%7C" in s2.url and " " not in s2.url
    assert "title_and_abstract.search:%28" in openalex.url and "%22speech%20decoding%22" in openalex.url


def test_openalex_url_exact() -> None:
    terms = [Term(canonical="gut microbiome", slot="task"), Term(canonical="IBD", slot="subject_population")]
    plan = build_queries(KeywordPlan(terms=terms, facets=facets_for_terms(terms)))
    assert plan.queries[Source.OPENALEX].url == (
        "https://api.openalex.org/works?filter=title_and_abstract.search:%28%22gut%20microbiome%22%29,"
        "title_and_abstract.search:%28IBD%29"
    )
    assert plan.queries[Source.PUBMED].url == (
        "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi?db=pubmed&term="
        "%28%22gut%20microbiome%22%5Btiab%5D%29%20AND%20%28IBD%5Btiab%5D%29"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("EEG", "EEG[tiab]"),
        ("stereo-EEG", '"stereo-EEG"[tiab]'),
        ('the "locked-in" state', '"the locked-in state"[tiab]'),
        ("IL-6 [serum]", '"IL-6 serum"[tiab]'),
        ("AND", '"AND"[tiab]'),
        ("growth*", "growth[tiab]"),
        ("Electrodes, Implanted", '"Electrodes, Implanted"[tiab]'),
        ("  spaced   out  ", '"spaced out"[tiab]'),
    ],
)
def test_pubmed_quoting_and_escaping(text: str, expected: str) -> None:
    assert pubmed_term(text) == expected


def test_escaping_in_every_builder() -> None:
    terms = [
        Term(
            canonical='"quoted" term',
            slot="task",
            synonyms=[syn("a|b+c"), syn("-omics"), syn("Electrodes, Implanted"), syn("OR"), syn("x:y (z)")],
        )
    ]
    plan = KeywordPlan(terms=terms, facets=[Facet(slot="task")])
    assert build_pubmed_query(plan) == (
        '("quoted term"[tiab] OR "a|b+c"[tiab] OR "-omics"[tiab] OR "Electrodes, Implanted"[tiab]'
        ' OR "OR"[tiab] OR "x:y (z)"[tiab])'
    )
    assert build_semantic_scholar_query(plan)[0] == (
        '("quoted term" | "a b c" | omics | "Electrodes, Implanted" | OR | "x:y z")'
    )
    assert build_openalex_query(plan)[0] == (
        'title_and_abstract.search:("quoted term" OR "a b+c" OR "-omics" OR "Electrodes Implanted"'
        ' OR "OR" OR "x y z")'
    )


def test_truncation_only_where_safe() -> None:
    terms = [
        Term(canonical="interface", slot="task", synonyms=[syn("interfaces")]),
        Term(canonical="cell", slot="task", synonyms=[syn("cells")]),
        Term(canonical="BCI", slot="task", synonyms=[syn("BCIs")]),
        Term(canonical="mouse", slot="task", synonyms=[syn("mice")]),
        # digits before the truncated word are fine (MeSH: "SGLT2 Inhibitors"); a digit in it is not
        Term(canonical="SGLT2 inhibitor", slot="task", synonyms=[syn("SGLT2 Inhibitors")]),
        Term(canonical="H2 blocker2", slot="task", synonyms=[syn("H2 blocker2s")]),
    ]
    plan = KeywordPlan(terms=terms, facets=[Facet(slot="task")])
    assert build_pubmed_query(plan) == (
        "(interface*[tiab] OR cell[tiab] OR cells[tiab] OR BCI[tiab] OR BCIs[tiab] OR mouse[tiab] OR mice[tiab]"
        ' OR "SGLT2 inhibitor*"[tiab] OR "H2 blocker2"[tiab] OR "H2 blocker2s"[tiab])'
    )


def test_optional_and_disabled_facets_are_not_anded() -> None:
    terms = [
        Term(canonical="sleep spindle detection", slot="task"),
        Term(canonical="EEG", slot="method_measurement"),
        Term(canonical="patients", slot="subject_population"),
        Term(canonical="transformer", slot="method_algorithm"),
        Term(canonical="clinical monitoring", slot="context"),
    ]
    facets = facets_for_terms(terms)
    assert [(f.slot, f.required) for f in facets] == [
        ("task", True),
        ("method_measurement", True),
        ("method_algorithm", False),
        ("subject_population", False),
        ("context", True),
    ]
    facets[-1].enabled = False
    plan = build_queries(KeywordPlan(terms=terms, facets=facets))
    assert plan.queries[Source.PUBMED].query == '("sleep spindle detection"[tiab]) AND (EEG[tiab])'
    assert "facet context is switched off" in plan.notes
    assert any("method_algorithm is optional" in note for note in plan.notes)
    assert any("subject_population is optional" in note for note in plan.notes)


def test_a_plan_of_concepts_notes_the_concepts_it_leaves_out_not_the_facets() -> None:
    """Concepts, not slots, make the query: a concept of an optional slot may be required, and the notes
    say which concepts the query leaves out (a note that "facet method_algorithm is optional" beside a
    required "graph neural networks" contradicted the concepts the user sees)."""
    terms = [
        Term(canonical="graph neural networks", slot="method_algorithm", concept="gnn"),
        Term(canonical="lithium-ion batteries", slot="subject_population", concept="battery"),
        Term(canonical="software companies", slot="context", concept="companies"),
        Term(canonical="charging curves", slot="signal_feature", concept="curves"),
    ]
    concepts = [
        Concept(id="gnn", label="graph neural networks", role=ConceptRole.METHOD),
        Concept(id="battery", label="lithium-ion batteries", role=ConceptRole.POPULATION),
        Concept(id="companies", label="software companies", role=ConceptRole.SETTING, required=False),
        Concept(id="curves", label="charging curves", role=ConceptRole.OUTCOME, enabled=False),
    ]
    facets = [Facet(slot="method_algorithm", required=False), Facet(slot="subject_population")]
    plan = build_queries(KeywordPlan(terms=terms, concepts=concepts, facets=facets))
    assert plan.queries[Source.PUBMED].query == (
        '("graph neural networks"[tiab]) AND ("lithium-ion batteries"[tiab])'
    )
    assert not any("facet" in note for note in plan.notes)
    assert "concept 'charging curves' is switched off" in plan.notes
    assert any(note.startswith("concept 'software companies' is optional") for note in plan.notes)


def test_facet_rule_promotes_narrowing_slots_when_fewer_than_two_required() -> None:
    facets = decide_facets(
        {"task": ["molecular property prediction"], "method_algorithm": ["graph neural network"]}
    )
    assert [(f.slot, f.required) for f in facets] == [("task", True), ("method_algorithm", True)]
    facets = decide_facets({"subject_population": ["humans"], "signal_feature": ["alpha power"]})
    assert [(f.slot, f.required) for f in facets] == [("subject_population", False), ("signal_feature", True)]
    facets = decide_facets({"subject_population": ["participants"]})
    assert [(f.slot, f.required) for f in facets] == [("subject_population", True)]
    assert decide_facets({}) == []


def test_pubmed_length_limit_drops_lowest_ranked_synonyms() -> None:
    synonyms = [syn(f"variant number {i} of a rather long phrase") for i in range(200)]
    terms = [
        Term(canonical="first concept", slot="task", synonyms=synonyms),
        Term(canonical="EEG", slot="method_measurement", synonyms=[syn("electroencephalography")]),
    ]
    plan = KeywordPlan(terms=terms, facets=facets_for_terms(terms))
    query = build_pubmed_query(plan)
    assert len(query) <= PUBMED_MAX_QUERY_CHARS
    assert query.startswith('("first concept"[tiab] OR "variant number 0 of a rather long phrase"[tiab]')
    assert "variant number 199" not in query
    kept = query.count("variant number")
    # the same number of synonyms per term for every term: EEG keeps its one synonym
    assert "electroencephalography[tiab]" in query and kept >= 50
    notes = build_queries(plan).notes
    assert any(note.startswith("PubMed: kept at most") for note in notes)
    assert all(len(q.url) <= 4_000 for s, q in build_queries(plan).queries.items() if s is not Source.PUBMED)


def test_empty_plan_has_no_queries() -> None:
    plan = build_queries(KeywordPlan())
    assert plan.queries == {}
    assert "nothing to search for" in plan.notes[-1]
    assert build_pubmed_query(KeywordPlan()) == ""


async def test_chinese_description_plan() -> None:
    """A Chinese description, canonicalised to English by the (scripted) model, gives English queries."""
    understanding = Understanding(
        description="我们采用深度学习方法，利用皮层脑电（ECoG）对癫痫患者进行语音解码。",
        slots=Slots(
            research_goal="利用ECoG进行语音解码",
            task=["语音解码"],
            method_measurement=["皮层脑电（ECoG）"],
            method_algorithm=["深度学习"],
            subject_population=["癫痫患者"],
        ),
    )
    llm = ScriptedLLM(
        replies={
            "synonym_candidates": {
                "terms": [
                    {"term": "语音解码", "english": "speech decoding", "candidates": []},
                    {"term": "皮层脑电", "english": "electrocorticography", "candidates": []},
                    {"term": "深度学习", "english": "deep learning", "candidates": []},
                    {"term": "癫痫患者", "english": "epilepsy patients", "candidates": []},
                ],
                "fields_of_study": ["Medicine", "Astrology"],
            }
        }
    )
    plan = await build_keyword_plan(understanding, llm, None)
    assert [t.canonical for t in plan.terms] == [
        "speech decoding",
        "electrocorticography",
        "deep learning",
        "epilepsy patients",
    ]
    assert plan.fields_of_study == ["Medicine"]
    queries = build_queries(plan)
    assert queries.queries[Source.PUBMED].query == (
        '("speech decoding"[tiab]) AND (electrocorticography[tiab] OR ECoG[tiab])'
        ' AND ("epilepsy patient*"[tiab])'
    )
    assert queries.queries[Source.OPENALEX].query == (
        'title_and_abstract.search:("speech decoding"),title_and_abstract.search:(electrocorticography OR ECoG),'
        'title_and_abstract.search:("epilepsy patients" OR "epilepsy patient")'
    )
    assert not any("not in English" in note for note in queries.notes)


async def test_chinese_terms_without_translation_are_flagged() -> None:
    understanding = Understanding(
        description="脑机接口 解码", slots=Slots(task=["语音解码"], context=["脑机接口"])
    )
    plan = await build_keyword_plan(understanding, ScriptedLLM(), None)
    queries = build_queries(plan)
    assert queries.queries[Source.PUBMED].query == '("语音解码"[tiab]) AND ("脑机接口"[tiab])'
    assert any("terms not in English: 语音解码, 脑机接口" in note for note in queries.notes)


def test_named_ancestors_are_searched_unexploded() -> None:
    """ "pulmonary tuberculosis": the specific heading exploded, the ancestor its words name only as
    indexed ([Mesh:NoExp]), as an information specialist adds it; the query stays valid PubMed syntax."""
    from agent.models import MeshDescriptor  # only this test builds descriptors by hand

    pulmonary = MeshDescriptor(ui="D014397", heading="Tuberculosis, Pulmonary", tree_numbers=["C01.150"])
    tuberculosis = MeshDescriptor(ui="D014376", heading="Tuberculosis", tree_numbers=["C01"])
    term = Term(canonical="pulmonary tuberculosis", slot="context", mesh=pulmonary, broader=[tuberculosis])
    query = build_pubmed_query(KeywordPlan(terms=[term], facets=facets_for_terms([term])))
    assert query == (
        '("Tuberculosis, Pulmonary"[Mesh] OR "Tuberculosis"[Mesh:NoExp] OR "pulmonary tuberculosis"[tiab])'
    )


def test_a_heading_both_exploded_and_unexploded_in_one_block_is_written_once() -> None:
    """ "hepatic fibrosis and cirrhosis": Fibrosis is the named ancestor of Liver Cirrhosis ([Mesh:NoExp])
    and the heading of "fibrosis" ([Mesh]); the exploded heading holds the unexploded one."""
    from agent.models import MeshDescriptor  # only this test builds descriptors by hand

    cirrhosis = MeshDescriptor(ui="D008103", heading="Liver Cirrhosis", tree_numbers=["C06.552.630"])
    fibrosis = MeshDescriptor(ui="D005355", heading="Fibrosis", tree_numbers=["C23.550.355"])
    terms = [
        Term(canonical="hepatic cirrhosis", slot="context", mesh=cirrhosis, broader=[fibrosis]),
        Term(canonical="fibrosis", slot="context", mesh=fibrosis),
    ]
    query = build_pubmed_query(KeywordPlan(terms=terms, facets=facets_for_terms(terms)))
    assert '"Fibrosis"[Mesh]' in query
    assert "NoExp" not in query


def test_an_anatomy_concept_is_searched_by_its_words_only() -> None:
    # MeSH indexes an organ or body fluid heading when the body part itself is studied
    urine = MeshDescriptor(ui="D014556", heading="Urine", tree_numbers=["A12.207.927"])
    down = MeshDescriptor(ui="D004314", heading="Down Syndrome", tree_numbers=["C10.597.606.360.220"])
    terms = [
        Term(canonical="Down syndrome", slot="task", mesh=down, concept="down"),
        Term(canonical="urine", slot="context", mesh=urine, broader=[urine], concept="urine"),
    ]
    concepts = [
        Concept(id="down", label="Down syndrome", role=ConceptRole.CONDITION),
        Concept(id="urine", label="urine", role=ConceptRole.ANATOMY),
    ]
    query = build_pubmed_query(KeywordPlan(terms=terms, concepts=concepts))
    assert '"Down Syndrome"[Mesh]' in query
    assert "Urine" not in query.replace("urine", "")  # no [Mesh] heading, only the words
    assert "urine" in query


def test_a_term_another_term_of_its_block_holds_is_left_out() -> None:
    """ "invasive aspergillosis" beside aspergillosis finds no paper aspergillosis does not: the OR drops
    it in every database (the concept still lists it); a hyphenated spelling or a plural is kept (PubMed
    writes a hyphenation once: its phrase index reads the hyphen as a space)."""
    terms = [
        Term(
            canonical="aspergillosis",
            slot="context",
            synonyms=[syn("invasive aspergillosis", SynonymOrigin.USER), syn("aspergilloses")],
        ),
        Term(canonical="non-invasive", slot="context", synonyms=[syn("non invasive")]),
    ]
    plan = KeywordPlan(terms=terms, facets=facets_for_terms(terms))
    assert build_pubmed_query(plan) == (
        '(aspergillosis[tiab] OR aspergilloses[tiab] OR "non-invasive"[tiab])'
    )
    assert '"non invasive"' in build_openalex_query(plan)[0]
    assert "invasive aspergillosis" not in build_openalex_query(plan)[0]
    assert [s.text for s in terms[0].synonyms][0] == "invasive aspergillosis"


def test_a_collective_head_is_searched_as_its_members() -> None:
    # "benthic invertebrate communities" as a phrase misses "benthic invertebrates were sampled"
    terms = [
        Term(
            canonical="benthic invertebrate communities",
            slot="population",
            synonyms=[syn("benthic invertebrate community", SynonymOrigin.MORPHOLOGY)],
        ),
        Term(canonical="native bee populations", slot="population"),
        Term(canonical="microbial communities", slot="population"),
    ]
    plan = KeywordPlan(terms=terms, facets=[Facet(slot="population")])
    assert build_pubmed_query(plan) == (
        '("benthic invertebrate*"[tiab] OR "native bee"[tiab] OR "native bees"[tiab]'
        ' OR "microbial communities"[tiab])'
    )


def test_a_noun_in_ity_is_truncated_before_its_y() -> None:
    # searchers write "osmolalit*": no other word continues the stem of a noun in "-ity"
    terms = [
        Term(canonical="insulin sensitivity", slot="outcome", synonyms=[syn("insulin sensitivities")]),
        Term(canonical="comorbidities", slot="outcome", synonyms=[syn("comorbidity")]),
        Term(canonical="city", slot="outcome", synonyms=[syn("cities")]),  # "cit*" would find "citation"
        Term(canonical="family", slot="outcome", synonyms=[syn("families")]),  # "famil*": "familial"
    ]
    plan = KeywordPlan(terms=terms, facets=[Facet(slot="outcome")])
    assert build_pubmed_query(plan) == (
        '("insulin sensitivit*"[tiab] OR comorbidit*[tiab] OR city[tiab] OR cities[tiab]'
        " OR family[tiab] OR families[tiab])"
    )


def test_pubmed_writes_one_spelling_per_hyphenation() -> None:
    # the phrase index reads "noninsulin-dependent" as "noninsulin dependent"; "SGLT2" is another token
    terms = [
        Term(
            canonical="noninsulin-dependent diabetes mellitus",
            slot="population",
            synonyms=[
                syn("noninsulin dependent diabetes mellitus"),
                syn("non-insulin-dependent diabetes mellitus"),
                syn("non insulin dependent diabetes mellitus"),
            ],
        ),
        Term(canonical="SGLT2 inhibitor", slot="population", synonyms=[syn("SGLT-2 inhibitor")]),
    ]
    plan = KeywordPlan(terms=terms, facets=[Facet(slot="population")])
    assert build_pubmed_query(plan) == (
        '("noninsulin-dependent diabetes mellitus"[tiab] OR "non-insulin-dependent diabetes mellitus"[tiab]'
        ' OR "SGLT2 inhibitor"[tiab] OR "SGLT-2 inhibitor"[tiab])'
    )
