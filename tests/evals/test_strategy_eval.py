"""The strategy evaluation: its PubMed reader on messy real-looking queries, heading normalisation,
concept blocks and their coverage, the invented-acronym, malformed-form and review-block detectors,
syntax validity, and one run of the harness on two topics when the shared data are present."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evals.paths import DATA
from evals.strategy import main
from evals.strategy.generate import generate, load_generator
from evals.strategy.metrics import (
    expert_blocks,
    invented_acronyms,
    is_design_term,
    malformed_forms,
    max_matching,
    score_topic,
    terms_match,
)
from evals.strategy.pubmed_syntax import Group, Term, conjuncts, parse, validity_issues
from evals.strategy.topics import Topic, description_topics, engineering_topics, librarian_topics
from evals.strategy.vocabulary import MeshVocabulary, normalize

MESH_FILE = DATA / "mesh" / "mesh2024_descriptors.jsonl.gz"
QUERIES = DATA / "boolean_queries"


@pytest.fixture(scope="module")
def vocabulary() -> MeshVocabulary:
    """A handful of descriptors written for these tests (headings, entry and permuted terms, trees)."""
    mesh = MeshVocabulary()
    mesh.add("D1", "Tuberculosis", ["Tuberculoses", "TB"], [], ["C01.150"])
    mesh.add(
        "D2",
        "Tuberculosis, Pulmonary",
        ["Pulmonary Tuberculosis", "Pulmonary Consumption"],
        ["Tuberculoses, Pulmonary"],
        ["C01.150.899"],
    )
    mesh.add("D3", "Down Syndrome", ["Down's Syndrome", "Trisomy 21"], ["Syndrome, Down"], ["C10.597"])
    mesh.add("D4", "Diabetes, Gestational", ["Gestational Diabetes Mellitus"], [], ["C19.246.200"])
    mesh.add("D5", "Diabetes Mellitus", ["Diabetes"], [], ["C19.246"])
    mesh.add("D6", "Neoplasms", ["Tumors", "Cancer"], ["Tumor"], ["C04"])
    mesh.add("D7", "Meta-Analysis", ["Meta-Analyses"], [], ["V03.600"])
    mesh.add("D8", "Sepsis", ["Pyemia"], [], ["C01.757"])
    mesh.add("D12", "Endometriosis", ["Endometriomas"], [], ["C13.371.300"])
    mesh.add("D13", "Cohort Studies", ["Cohort Study"], [], ["E05.318.372.500.750.500"])
    mesh.add("D9", "Viruses", ["Virus"], [], ["B04"])
    mesh.add("D10", "Bias", [], [], ["E05.318"])
    mesh.add("D11", "Anemia", [], [], ["C15.378.071"])
    return mesh


# ----------------------------------------------------------------------------------------------
# the reader
# ----------------------------------------------------------------------------------------------


def test_nested_query_with_tags_truncation_and_a_not() -> None:
    parsed = parse(
        '((Tuberculosis, Pulmonary[mesh:noexp] OR TB[Text Word]) AND (Xpert[tiab] OR "rapid diagnos* '
        'test*"[Title/Abstract] OR rapid diagnos* device*[tiab])) NOT case reports[pt]'
    )
    assert parsed.issues == []
    assert isinstance(parsed.root, Group) and parsed.root.op == "NOT"
    blocks = conjuncts(parsed.root)
    assert len(blocks) == 2
    terms = parsed.terms()
    assert [t.text for t in terms] == [
        "Tuberculosis, Pulmonary",
        "TB",
        "Xpert",
        "rapid diagnos* test*",
        "rapid diagnos* device*",
        "case reports",
    ]
    assert [t.kind for t in terms] == ["mesh", "tw", "tiab", "tiab", "tiab", "pt"]
    assert terms[3].quoted and terms[3].truncated and not terms[4].quoted
    assert [t.text for t in parsed.terms(include_excluded=False)][-1] == "rapid diagnos* device*"


def test_operators_apply_left_to_right_without_precedence() -> None:
    root = parse("a[tiab] OR b[tiab] AND c[tiab]").root
    assert isinstance(root, Group) and root.op == "AND"
    assert isinstance(root.children[0], Group) and root.children[0].op == "OR"


def test_unbalanced_parentheses_are_closed_or_skipped() -> None:
    parsed = parse(
        "(Malaria[mesh] OR Plasmodium[mesh]) AND (Rapid[All Fields] AND (detection*[tiab] OR diagnos*[tiab])"
    )
    assert any("never closed" in issue for issue in parsed.issues)
    assert len(conjuncts(parsed.root)) == 3  # type: ignore[arg-type]
    stray = parse("a[tiab] OR b[tiab]) AND c[tiab]")
    assert any("')' without '('" in issue for issue in stray.issues)
    assert [t.text for t in stray.terms()] == ["a", "b", "c"]


def test_major_topic_isotopes_curly_quotes_and_stray_quotes() -> None:
    parsed = parse(
        '*Lymphatic Metastasis[mesh:noexp] OR "[11C]PIB"[tiab] OR [18F]florbetapir[tiab] OR “ASC US”[tw] '
        'OR "Serology"[mesh] OR Serology"[mesh] OR serology[tiab] OR Neoplasms[majr]'
    )
    terms = parsed.terms()
    assert terms[0] == Term("Lymphatic Metastasis", "mesh:noexp", major=True)
    assert terms[0].is_mesh
    assert [t.text for t in terms[1:4]] == ["[11C]PIB", "[18F]florbetapir", "ASC US"]
    assert [t.text for t in terms[4:7]] == ["Serology", "Serology", "serology"]
    assert len(parsed.issues) == 1 and "quote" in parsed.issues[0]
    assert terms[-1].major and terms[-1].is_mesh


def test_ovid_leftovers_and_lowercase_operators_are_read_and_reported() -> None:
    parsed = parse("(Anterior adj (release or slide)) AND shoulder[tiab] not Animals[Mesh]")
    assert [t.text for t in parsed.terms()] == ["Anterior", "release", "slide", "shoulder", "Animals"]
    assert any("Ovid operator 'adj'" in i for i in parsed.issues)
    assert any("bare Boolean word 'or'" in i for i in parsed.issues)
    assert any("bare Boolean word 'not'" in i for i in parsed.issues)


@pytest.mark.parametrize(
    "query",
    [
        '("Down Syndrome"[Mesh] OR "trisomy 21"[tiab]) AND ("Pregnancy Trimester, Second"[Mesh] OR '
        "second trimester*[tiab])",
        "Tuberculosis, Pulmonary[mesh:noexp] OR tuberculos*[Title/Abstract] OR TB[Text Word]",
        '"Sensitivity and Specificity"[MeSH Terms] AND 2010/01/01:2020/12/31[dp] AND english[la]',
        '"brain computer interface"[tiab:~2] OR Neoplasms[majr] OR "prevention and control"[sh]',
    ],
)
def test_valid_queries(query: str) -> None:
    assert validity_issues(query) == []


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("(asthma[tiab] OR wheez*[tiab]", "never closed"),
        ("asthma[tiab] OR OR wheeze[tiab]", "without a left operand"),
        ("asthma[tiab] AND ()", "empty group"),
        ("asthma[tiab] OR", "without a right operand"),
        ("asthma[foo]", "unknown field tag"),
        ("women and children[tiab]", "bare Boolean word 'and'"),
        ('asthma[tiab] "air pollution"[tiab]', "no operator"),
        ("tend?nitis[tiab]", "'?'"),
        ("(asthma OR wheeze)[tiab]", "after a parenthesised group"),
        ('"air pollution[tiab]', "unterminated quote"),
        ("", "no search term"),
    ],
)
def test_invalid_queries(query: str, reason: str) -> None:
    issues = validity_issues(query)
    assert any(reason in issue for issue in issues), issues


# ----------------------------------------------------------------------------------------------
# MeSH, normalisation, blocks
# ----------------------------------------------------------------------------------------------


def test_word_normalisation() -> None:
    assert normalize("tumours") == normalize("Tumor")
    assert normalize("oesophageal haemorrhage") == normalize("esophageal hemorrhages")
    assert normalize("randomised") == normalize("randomized")
    assert normalize("Down's syndrome") == normalize("down syndrome")
    assert normalize("brain-computer interfaces") == normalize("Brain Computer Interface")
    assert normalize("studies") == normalize("study")
    assert normalize("diabetes") != normalize("diabetic")


def test_headings_are_normalised_through_heading_entry_and_permuted_terms(vocabulary: MeshVocabulary) -> None:
    assert vocabulary.resolve("tuberculosis, pulmonary") == "D2"
    assert vocabulary.resolve("Pulmonary Tuberculosis") == "D2"
    assert vocabulary.resolve("Tuberculoses, Pulmonary") == "D2"
    assert vocabulary.resolve("Down Syndrome/diagnosis") == "D3"
    assert vocabulary.resolve("Downs syndrome") == "D3"  # normalised form of the entry term
    assert vocabulary.resolve("Pulmonary Embolism") is None
    assert vocabulary.related("D1", "D2") and vocabulary.related("D5", "D4")
    assert not vocabulary.related("D1", "D3")


def test_recognition_in_a_title(vocabulary: MeshVocabulary) -> None:
    found = vocabulary.recognise(
        "Screening for Down's syndrome and gestational diabetes in women with anaemia"
    )
    assert {"D3", "D4", "D5", "D11"} <= found  # un-inverted heading, British spelling, nested match
    assert "D6" not in found


def test_expert_blocks_drop_filters_and_exclusions() -> None:
    parsed = parse(
        "(Tuberculosis[mesh] OR TB[tiab]) AND (Xpert[tiab] OR GeneXpert[tiab]) AND (rifampicin[tiab]) "
        "AND (randomized controlled trial[pt] OR randomized[tiab] OR placebo[tiab] OR randomly[tiab] OR "
        "trial[tiab] OR groups[tiab]) AND 2010:2020[dp] NOT (Animals[Mesh] NOT Humans[Mesh])"
    )
    blocks, filters = expert_blocks(parsed)
    assert len(blocks) == 3 and len(filters) == 2
    one_or = parse(
        "((brain dea* OR coma depasse) AND (CT OR comput* tomograph*)) OR ((tomograph* OR angio*) AND humans)"
    )
    assert len(expert_blocks(one_or)[0]) == 2
    synonyms = parse(
        "thrombelasto* OR thromboelasto* OR ROTEM OR TEG OR haemoscope OR (thromb* AND elastom*)"
    )
    assert len(expert_blocks(synonyms)[0]) == 1


def test_block_coverage_and_one_to_one_matching(vocabulary: MeshVocabulary) -> None:
    expert = (
        "(Tuberculosis, Pulmonary[mesh] OR TB[tiab]) AND (rapid diagnos* test*[tiab] OR Xpert[tiab]) "
        "AND (rifampicin[tiab] OR rifampin[tiab])"
    )
    generated = (
        '("Tuberculosis, Pulmonary"[Mesh] OR "pulmonary tuberculosis"[tiab]) AND '
        '("rapid diagnostic tests"[tiab] OR rifampicin[tiab])'
    )
    scores = score_topic(
        "Xpert for pulmonary tuberculosis and rifampicin resistance", expert, generated, vocabulary
    )
    assert scores["block_coverage"] == 1.0
    assert scores["strict_block_coverage"] == pytest.approx(2 / 3)
    assert scores["mesh_recall"] == 1.0 and scores["mesh_precision"] == 1.0
    assert scores["syntax_valid"] == 1.0 and scores["review_blocks"] == 0
    # a free-text synonym covers a MeSH-only block through the descriptor it names; the ancestor counts
    # only in the explode-aware figures
    other = score_topic(
        "tuberculosis",
        "Tuberculosis, Pulmonary[mesh]",
        'Tuberculosis[Mesh] OR "pulmonary consumption"[tiab]',
        vocabulary,
    )
    assert other["block_coverage"] == 1.0
    assert other["mesh_recall"] == 0.0 and other["mesh_recall_explode"] == 1.0
    assert other["mesh_precision_explode"] == 1.0
    assert max_matching({0: [0], 1: [0, 1], 2: [1]}) == 2


@pytest.mark.parametrize(
    ("expert", "generated", "expected"),
    [
        ("tumour*", "tumors", True),
        ("haemorrhag*", "hemorrhage", True),
        ("rapid diagnos* test*", "rapid diagnostic tests", True),
        ("oesophageal varices", "esophageal varix", False),  # varix/varices is no plural rule
        ("oesophageal cancers", "esophageal cancer", True),
        ("child*", "childhood asthma", False),  # word by word: one word is not a phrase
        ("tuberculosis", "tuberculos*", True),  # the generated stem covers the expert word
        ("asthma", "asthmatic", False),
    ],
)
def test_term_matching(vocabulary: MeshVocabulary, expert: str, generated: str, expected: bool) -> None:
    assert terms_match(Term(expert, "tiab"), Term(generated, "tiab"), vocabulary, {}) is expected


def test_ceiling_and_undefined_precision(vocabulary: MeshVocabulary) -> None:
    scores = score_topic(
        "Second trimester serum tests for Down's Syndrome screening",
        "(Down Syndrome[mesh] OR trisomy 21[tiab]) AND (Neoplasms[mesh] OR Sepsis[mesh])",
        "serum[tiab] AND screening[tiab]",
        vocabulary,
    )
    assert scores["ceiling"] == pytest.approx(1 / 3)
    assert scores["mesh_recall"] == 0.0 and scores["mesh_precision"] is None
    # the heading of a study-design filter is not one of the expert's concept headings
    design = score_topic(
        "Down syndrome",
        "(Down Syndrome[mesh] OR trisomy 21[tiab]) AND (Cohort Studies[mesh] OR prospective[tiab] OR cohort[tiab])",
        '"Down Syndrome"[Mesh]',
        vocabulary,
    )
    assert design["mesh_recall"] == 1.0 and design["ceiling"] == 1.0
    assert design["block_coverage"] == 1.0


# ----------------------------------------------------------------------------------------------
# detectors
# ----------------------------------------------------------------------------------------------


def test_invented_acronyms(vocabulary: MeshVocabulary) -> None:
    generated = parse(
        'RA[tiab] OR HSWR[tiab] OR TEG[tiab] OR TB[tiab] OR BNP[tiab] OR UTIs[tiab] OR "Down Syndrome"[tiab] '
        "OR Neoplasms[Mesh] OR ECoG[tiab] OR HIV1[tiab]"
    ).terms()
    expert = parse("BNP[tiab] OR natriuretic[tiab]").terms()
    found = invented_acronyms(
        generated, "Thromboelastography (TEG) in rheumatoid arthritis", expert, vocabulary
    )
    assert found == ["RA", "HSWR", "UTIs", "HIV1"]


def test_an_acronym_nlm_writes_before_its_expansion_is_attested() -> None:
    """NLM writes some acronyms inside one entry term, before the words they stand for ("ICU Intensive
    Care Units"); the product searches "ICU" as a term of its own, which is no invented acronym. A first
    word that is part of a name ("CC Chemokine Receptor") attests nothing."""
    mesh = MeshVocabulary()
    mesh.add("D1", "Intensive Care Units", ["ICU Intensive Care Units"], [], ["N02.278.388.493"])
    mesh.add("D2", "Receptors, CCR", ["CC Chemokine Receptor"], [], ["D12.776"])
    generated = parse("ICU[tiab] OR CC[tiab]").terms()
    assert invented_acronyms(generated, "patients in intensive care", [], mesh) == ["CC"]


@pytest.mark.parametrize(
    ("text", "quoted", "reason"),
    [
        ("Sepsises", False, "-sis/-itis"),
        ("diabetes mellituses", True, "Latin word ending in -us"),
        ("versu*", False, "function word"),
        ("pat*", False, "fewer than 4 letters"),
        ("criterias", False, "already plural"),
        ("tu*mor", False, "inside a word"),
        ("prostat* cancer*", True, "quoted phrase"),
        ("virus", False, None),
        ("viruses", False, None),
        ("tuberculoses", False, None),
        ("sepsi", False, "dropping the -s"),
        ("endometrioma", False, None),
        ("tuberculos*", False, None),
        ("breast feed*", True, None),
        ("ISS", False, None),  # an acronym (International Space Station), not "is" with an "-s"
    ],
)
def test_malformed_forms(vocabulary: MeshVocabulary, text: str, quoted: bool, reason: str | None) -> None:
    found = malformed_forms(Term(text, "tiab", quoted=quoted), vocabulary)
    if reason is None:
        assert found == []
    else:
        assert len(found) == 1 and reason in found[0]


def test_latin_plural_of_a_mesh_word(vocabulary: MeshVocabulary) -> None:
    mesh = MeshVocabulary()
    mesh.add("D1", "Diabetes Mellitus", [], [], ["C19.246"])
    assert "'-es' plural" in malformed_forms(Term("mellituses", "tiab"), mesh)[0]
    assert malformed_forms(Term("viruses", "tiab"), vocabulary) == []


def test_review_blocks_and_design_terms(vocabulary: MeshVocabulary) -> None:
    for text in (
        "Meta-Analysis",
        "systematic reviews",
        "randomised controlled trial",
        "diagnostic accuracy study",
    ):
        assert is_design_term(Term(text, "tiab")), text
    for text in ("placebo", "sham treatment", "breast cancer", "clinical"):
        assert not is_design_term(Term(text, "tiab")), text
    review = score_topic(
        "asthma: a meta-analysis",
        "asthma[tiab]",
        '("Meta-Analysis"[Mesh] OR "meta-analysis"[tiab] OR Meta-Analysis[pt]) AND asthma[tiab]',
        vocabulary,
    )
    assert review["review_blocks"] == 1
    comparator = score_topic(
        "placebo", "asthma[tiab]", "(placebo[tiab] OR sham[tiab]) AND asthma[tiab]", vocabulary
    )
    assert comparator["review_blocks"] == 0


# ----------------------------------------------------------------------------------------------
# the harness
# ----------------------------------------------------------------------------------------------


def title_as_query(description: str, mesh_path: Path) -> str:
    """A generator for the plug-in test: the description's words as one [tiab] block."""
    return " OR ".join(f"{word}[tiab]" for word in re.findall(r"[A-Za-z]{4,}", description))


async def async_title_as_query(description: str, mesh_path: Path) -> str:
    return title_as_query(description, mesh_path)


def test_generators_are_plugged_by_name() -> None:
    for name in ("title_as_query", "async_title_as_query"):
        generator = load_generator(f"tests.evals.test_strategy_eval:{name}")
        assert generate(generator, "Asthma in children", Path("unused")) == "Asthma[tiab] OR children[tiab]"
    for bad in ("no_colon", "tests.evals.test_strategy_eval:missing", "no.such.module:f"):
        with pytest.raises(ValueError):
            load_generator(bad)


def test_bad_options_exit_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--mesh", str(tmp_path / "none.jsonl")]) == 2
    assert "MeSH file" in capsys.readouterr().err
    if MESH_FILE.is_file():
        assert main(["--generator", "nonsense"]) == 2
        assert "module:function" in capsys.readouterr().err


def test_the_librarian_split_is_valid_pubmed_with_real_headings() -> None:
    """Every hand-written librarian query parses without an issue, has at least two concept blocks, and
    names only MeSH 2024 headings, each written exactly as MeSH writes it."""
    topics = librarian_topics()
    assert len(topics) == 414 and len({t.id for t in topics}) == 414
    assert sum(t.in_split("librarian2") for t in topics) == 15
    assert sum(t.in_split("librarian3") for t in topics) == 15
    assert sum(t.in_split("librarian4") for t in topics) == 15
    assert sum(t.in_split("librarian5") for t in topics) == 15
    assert sum(t.in_split("librarian6") for t in topics) == 15
    assert sum(t.in_split("librarian7") for t in topics) == 15
    assert sum(t.in_split("librarian8") for t in topics) == 10
    assert sum(t.in_split("librarian9") for t in topics) == 15
    assert sum(t.in_split("librarian10") for t in topics) == 10
    assert sum(t.in_split("librarian11") for t in topics) == 10
    assert sum(t.in_split("librarian12") for t in topics) == 10
    assert sum(t.in_split("librarian13") for t in topics) == 10
    assert sum(t.in_split("librarian14") for t in topics) == 10
    assert sum(t.in_split("librarian15") for t in topics) == 8
    assert sum(t.in_split("librarian16") for t in topics) == 10
    assert sum(t.in_split("librarian17") for t in topics) == 8
    assert sum(t.in_split("librarian18") for t in topics) == 10
    assert sum(t.in_split("librarian19") for t in topics) == 8
    assert sum(t.in_split("librarian20") for t in topics) == 10
    assert sum(t.in_split("librarian21") for t in topics) == 10
    assert sum(t.in_split("librarian22") for t in topics) == 10
    assert sum(t.in_split("librarian23") for t in topics) == 10
    assert sum(t.in_split("librarian24") for t in topics) == 10
    assert sum(t.in_split("librarian25") for t in topics) == 10
    assert sum(t.in_split("librarian26") for t in topics) == 10
    assert sum(t.in_split("librarian27") for t in topics) == 10
    assert sum(t.in_split("librarian28") for t in topics) == 10
    assert sum(t.in_split("librarian29") for t in topics) == 10
    assert sum(t.in_split("librarian30") for t in topics) == 10
    assert sum(t.in_split("librarian31") for t in topics) == 10
    assert sum(t.in_split("librarian32") for t in topics) == 10
    assert sum(t.in_split("librarian33") for t in topics) == 10
    assert sum(t.in_split("librarian34") for t in topics) == 10
    assert sum(t.in_split("librarian35") for t in topics) == 10
    assert sum(t.in_split("librarian36") for t in topics) == 10
    assert sum(t.in_split("librarian37") for t in topics) == 10
    _assert_valid_with_real_headings(topics)


def test_the_engineering_split_is_valid_pubmed_outside_medicine() -> None:
    """The 150 titles outside medicine parse without an issue, have at least two blocks each, and use a
    MeSH heading only where MeSH has the concept (at most a few topics)."""
    topics = engineering_topics()
    assert len(topics) == 150 and len({t.id for t in topics}) == 150
    assert all(t.in_split("engineering") and not t.in_split("librarian") for t in topics)
    assert sum(t.in_split("engineering2") for t in topics) == 10
    assert sum(t.in_split("engineering3") for t in topics) == 10
    assert sum(t.in_split("engineering4") for t in topics) == 10
    assert sum(t.in_split("engineering5") for t in topics) == 5
    assert sum(t.in_split("engineering6") for t in topics) == 10
    assert sum(t.in_split("engineering7") for t in topics) == 10
    assert sum(t.in_split("engineering8") for t in topics) == 10
    assert sum(t.in_split("engineering9") for t in topics) == 10
    assert sum(t.in_split("engineering10") for t in topics) == 10
    assert sum(t.in_split("engineering11") for t in topics) == 10
    assert sum(t.in_split("engineering12") for t in topics) == 10
    assert sum(t.in_split("engineering13") for t in topics) == 10
    assert sum(t.in_split("engineering14") for t in topics) == 10
    assert sum(t.in_split("engineering15") for t in topics) == 10
    with_headings = 0
    for topic in topics:
        parsed = parse(topic.expert_query)
        assert not validity_issues(topic.expert_query), topic.id
        assert len(expert_blocks(parsed)[0]) >= 2, topic.id
        with_headings += any(term.is_mesh for term in parsed.terms(include_excluded=False))
    assert with_headings <= 2


RESULT = re.compile(r"^RESULT (clef_test_[a-z_]+) (\d+(?:\.\d{3})?)$")


@pytest.mark.slow
@pytest.mark.skipif(not (MESH_FILE.is_file() and QUERIES.is_dir()), reason="needs ../shared/data")
def test_harness_on_two_topics(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    details = tmp_path / "topics.json"
    assert main(["--split", "test", "--limit", "2", "--show", "1", "--json", str(details)]) == 0
    output = capsys.readouterr().out
    results = {m.group(1): float(m.group(2)) for line in output.splitlines() if (m := RESULT.match(line))}
    assert results["clef_test_topics"] == 2
    for name in ("mesh_recall", "mesh_precision", "ceiling", "block_coverage", "strict_block_coverage"):
        assert 0.0 <= results[f"clef_test_{name}"] <= 1.0, name
    assert {"clef_test_invented_acronym_share", "clef_test_malformed", "clef_test_review_blocks"} <= set(
        results
    )
    assert results["clef_test_generator_errors"] == 0
    assert "EXPERT" in output and "GENERATED" in output and "goals on clef_test" in output
    rows = json.loads(details.read_text(encoding="utf-8"))
    assert len(rows) == 2 and all(r["split"] == "clef_test" and r["generated_query"] for r in rows)
    assert all(r["details"]["expert_blocks"] for r in rows)


def test_the_description_split_is_valid_pubmed_with_real_headings() -> None:
    """The 456 researchers' descriptions: each query parses without an issue, has at least two blocks and
    names only MeSH 2024 headings, written exactly as MeSH writes them; some descriptions are Chinese.
    The 24 written second are also `descriptions2`, the 24 written third `descriptions3`, the 24 written fourth
    `descriptions4`, the 24 written fifth `descriptions5`, the 24 written sixth `descriptions6`, the 24 written seventh
    `descriptions7`, the 24 written eighth `descriptions8`, the 24 written ninth `descriptions9`, the 24 written tenth
    `descriptions10`, the 24 written eleventh `descriptions11`, the 24 written twelfth `descriptions12`, the 24
    written thirteenth `descriptions13`, the 24 written fourteenth `descriptions14`, the 24 written
    fifteenth `descriptions15`, the 24 written sixteenth `descriptions16`, the 24 written seventeenth `descriptions17`, the 24 written eighteenth `descriptions18`, the 24 written nineteenth `descriptions19`: each 16 English, 4 Chinese, 4 Chinese with English terms."""
    topics = description_topics()
    assert len(topics) == 456 and len({t.id for t in topics}) == 456
    assert all(t.in_split("descriptions") and not t.in_split("librarian") for t in topics)
    second = [t for t in topics if t.in_split("descriptions2")]
    assert [t.id for t in second] == [f"D{n}" for n in range(25, 49)]
    third = [t for t in topics if t.in_split("descriptions3")]
    assert [t.id for t in third] == [f"D{n}" for n in range(49, 73)]
    fourth = [t for t in topics if t.in_split("descriptions4")]
    assert [t.id for t in fourth] == [f"D{n}" for n in range(73, 97)]
    fifth = [t for t in topics if t.in_split("descriptions5")]
    assert [t.id for t in fifth] == [f"D{n}" for n in range(97, 121)]
    sixth = [t for t in topics if t.in_split("descriptions6")]
    assert [t.id for t in sixth] == [f"D{n}" for n in range(121, 145)]
    seventh = [t for t in topics if t.in_split("descriptions7")]
    assert [t.id for t in seventh] == [f"D{n}" for n in range(145, 169)]
    eighth = [t for t in topics if t.in_split("descriptions8")]
    assert [t.id for t in eighth] == [f"D{n}" for n in range(169, 193)]
    ninth = [t for t in topics if t.in_split("descriptions9")]
    assert [t.id for t in ninth] == [f"D{n}" for n in range(193, 217)]
    tenth = [t for t in topics if t.in_split("descriptions10")]
    assert [t.id for t in tenth] == [f"D{n}" for n in range(217, 241)]
    eleventh = [t for t in topics if t.in_split("descriptions11")]
    assert [t.id for t in eleventh] == [f"D{n}" for n in range(241, 265)]
    twelfth = [t for t in topics if t.in_split("descriptions12")]
    assert [t.id for t in twelfth] == [f"D{n}" for n in range(265, 289)]
    thirteenth = [t for t in topics if t.in_split("descriptions13")]
    assert [t.id for t in thirteenth] == [f"D{n}" for n in range(289, 313)]
    fourteenth = [t for t in topics if t.in_split("descriptions14")]
    assert [t.id for t in fourteenth] == [f"D{n}" for n in range(313, 337)]
    fifteenth = [t for t in topics if t.in_split("descriptions15")]
    assert [t.id for t in fifteenth] == [f"D{n}" for n in range(337, 361)]
    sixteenth = [t for t in topics if t.in_split("descriptions16")]
    assert [t.id for t in sixteenth] == [f"D{n}" for n in range(361, 385)]
    seventeenth = [t for t in topics if t.in_split("descriptions17")]
    assert [t.id for t in seventeenth] == [f"D{n}" for n in range(385, 409)]
    eighteenth = [t for t in topics if t.in_split("descriptions18")]
    assert [t.id for t in eighteenth] == [f"D{n}" for n in range(409, 433)]
    nineteenth = [t for t in topics if t.in_split("descriptions19")]
    assert [t.id for t in nineteenth] == [f"D{n}" for n in range(433, 457)]
    chinese = [t for t in topics if any("\u4e00" <= ch <= "\u9fff" for ch in t.title)]
    assert len(chinese) == 146
    mixed = [t for t in chinese if re.search(r"[A-Za-z]{2,}", t.title)]
    assert [t.id for t in mixed] == [
        f"D{n}"
        for n in (
            *(45, 46, 47, 48, 69, 70, 71, 72, 93, 94, 95, 96),
            *(117, 118, 119, 120, 141, 142, 143, 144, 165, 166, 167, 168),
            *(189, 190, 191, 192, 213, 214, 215, 216, 237, 238, 239, 240),
            *(261, 262, 263, 264, 285, 286, 287, 288, 309, 310, 311, 312),
            *(333, 334, 335, 336, 357, 358, 359, 360),
            *(381, 382, 383, 384, 405, 406, 407, 408),
            *(429, 430, 431, 432, 453, 454, 455, 456),
        )
    ]
    _assert_valid_with_real_headings(topics)


def _assert_valid_with_real_headings(topics: list[Topic]) -> None:
    """Each query parses without an issue, has at least two concept blocks and names only MeSH 2024
    headings, each written exactly as MeSH writes it."""
    mesh = MeshVocabulary.load(MESH_FILE) if MESH_FILE.is_file() else None
    for topic in topics:
        parsed = parse(topic.expert_query)
        assert not validity_issues(topic.expert_query), topic.id
        assert len(expert_blocks(parsed)[0]) >= 2, topic.id
        for term in parsed.terms(include_excluded=False):
            if term.is_mesh and mesh is not None:
                ui = mesh.resolve(term.text)
                assert ui is not None and mesh.heading(ui) == term.text, (topic.id, term.text)
