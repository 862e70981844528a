"""Per-topic figures of the strategy evaluation: a generated PubMed query against the expert's.

Every definition is written out in the package docstring (`evals/strategy/__init__.py`); the functions
here follow it literally.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from evals.strategy.pubmed_syntax import (
    Node,
    Parsed,
    Term,
    and_groups,
    conjuncts,
    iter_terms,
    parse,
    validity_issues,
)
from evals.strategy.vocabulary import MeshVocabulary, american, fold, normalize, normalize_word, words

# ----------------------------------------------------------------------------------------------
# study-design words
# ----------------------------------------------------------------------------------------------

_DESIGN = re.compile(
    r"^(?:"
    r"(?:network )?meta ?analy\w*|metaanaly\w*|pooled analy\w*|evidence synthes\w*|"
    r"(?:systematic |scoping |umbrella |literature |narrative )?(?:literature )?review\w*|overview\w*|"
    r"(?:randomi\w* |random )?(?:placebo )?(?:controlled )?(?:clinical )?trial\w*|randomi\w*|randomly|rct\w*|"
    r"random allocation|controlled|control group\w*|(?:double |single |triple )?blind\w*|crossover|"
    r"(?:diagnostic )?(?:test )?accuracy(?: stud\w*)?|diagnostic accuracy\w*|sensitivity and specificity|"
    r"(?:prospective |retrospective )?(?:cohort|case control|cross sectional|observational|prospective|"
    r"retrospective|follow up|longitudinal)(?: stud\w*)?|"
    r"(?:comparative|epidemiologic\w*|clinical|controlled|evaluation|validation) stud\w*"
    r")(?: as topic)?$"
)


def is_design_term(term: Term) -> bool:
    """A publication type, or a term naming a kind of study (see `_DESIGN`)."""
    if term.kind == "pt":
        return True
    text = " ".join(re.findall(r"[a-z0-9]+", fold(term.text).replace("-", " ")))
    return bool(text) and bool(_DESIGN.match(text))


# ----------------------------------------------------------------------------------------------
# terms, headings and blocks
# ----------------------------------------------------------------------------------------------


def concept_terms(node: Node) -> list[Term]:
    """MeSH and free-text terms of `node`, leaving out what a NOT excludes and other fields."""
    return [t for t in iter_terms(node, include_excluded=False) if t.is_mesh or t.is_free_text]


@dataclass
class Headings:
    resolved: set[str] = field(default_factory=set)  # descriptor UIs
    unresolved: list[str] = field(default_factory=list)  # MeSH-tagged texts no descriptor has

    @property
    def all(self) -> set[str]:
        return self.resolved | {f"?{t.casefold()}" for t in self.unresolved}


def mesh_headings(parsed: Parsed, vocabulary: MeshVocabulary, leave_out: Sequence[Node] = ()) -> Headings:
    """The MeSH-tagged terms of a query (not inside a NOT's excluded side nor in the `leave_out`
    blocks), as descriptor UIs."""
    found = Headings()
    skipped = {id(term) for block in leave_out for term in iter_terms(block)}
    for term in parsed.terms(include_excluded=False):
        if term.is_mesh and id(term) not in skipped:
            ui = vocabulary.resolve(term.text)
            if ui:
                found.resolved.add(ui)
            elif term.text not in found.unresolved:
                found.unresolved.append(term.text)
    return found


def term_keys(term: Term, vocabulary: MeshVocabulary) -> set[str]:
    """What a term can be equal on: its normalised text and the descriptors it names."""
    keys = {"text:" + " ".join(normalize(term.text))}
    if term.is_mesh:
        ui = vocabulary.resolve(term.text)
        if ui:
            keys.add("mesh:" + ui)
            keys.add("text:" + " ".join(normalize(vocabulary.heading(ui))))
    elif not term.truncated:
        keys.update("mesh:" + ui for ui in vocabulary.lookup(term.text))
    return keys


_WILD_WORD = re.compile(r"[a-z0-9*?]+")


def _pattern_words(text: str) -> list[str]:
    return [american(w) for w in _WILD_WORD.findall(fold(text))]


def _word_matches(a: str, b: str) -> bool:
    wild_a, wild_b = "*" in a or "?" in a, "*" in b or "?" in b
    if wild_a and wild_b:
        sa, sb = a.split("*")[0], b.split("*")[0]
        return sa.startswith(sb) or sb.startswith(sa)
    if wild_b:
        a, b = b, a
    if "*" in a or "?" in a:
        return any(fnmatchcase(form, a) for form in {b, normalize_word(b)})
    return normalize_word(a) == normalize_word(b)


def terms_match(a: Term, b: Term, vocabulary: MeshVocabulary, keys: dict[Term, set[str]]) -> bool:
    """Equal after normalisation, the same descriptor, or word by word equal where a truncated stem
    (either side) is a prefix of the other side's word."""
    for term in (a, b):
        if term not in keys:
            keys[term] = term_keys(term, vocabulary)
    if keys[a] & keys[b]:
        return True
    if not (a.truncated or b.truncated or "?" in a.text or "?" in b.text):
        return False
    wa, wb = _pattern_words(a.text), _pattern_words(b.text)
    return len(wa) == len(wb) > 0 and all(_word_matches(x, y) for x, y in zip(wa, wb, strict=True))


def is_filter_block(block: Node) -> bool:
    """An expert block that is no concept: no MeSH or free-text term (authors, dates, languages), or
    a study-design filter (at least half of its terms are publication types or design words)."""
    terms = [
        t for t in iter_terms(block, include_excluded=False) if t.is_mesh or t.is_free_text or t.kind == "pt"
    ]
    if not concept_terms(block):
        return True
    return sum(is_design_term(t) for t in terms) * 2 >= len(terms)


def expert_blocks(parsed: Parsed) -> tuple[list[Node], list[Node]]:
    """The expert's concept blocks and the filter blocks set aside.

    The top-level AND operands (AND flattened through parentheses, NOT exclusions dropped). When that
    gives fewer than two concept blocks (the query is one OR, or one block plus filters), the AND group
    inside with the most concept blocks is used instead (the first of equals), among the AND groups
    holding at least half of the query's concept terms (so that `thromb* AND elastom*`, one synonym
    among many, does not stand for the query); failing that, the query is one block.
    """
    if parsed.root is None:
        return [], []
    best = conjuncts(parsed.root)
    if sum(not is_filter_block(b) for b in best) < 2:
        total = len(concept_terms(parsed.root))
        candidates = [best] + [
            conjuncts(g) for g in and_groups(parsed.root) if 2 * len(concept_terms(g)) >= total
        ]
        best = max(candidates, key=lambda c: sum(not is_filter_block(b) for b in c))
    concepts = [b for b in best if not is_filter_block(b)]
    if not concepts:
        return [parsed.root], []
    return concepts, [b for b in best if is_filter_block(b)]


def max_matching(edges: dict[int, list[int]]) -> int:
    """Size of a maximum bipartite matching (augmenting paths; the graphs here are tiny)."""
    owner: dict[int, int] = {}

    def augment(left: int, seen: set[int]) -> bool:
        for right in edges.get(left, []):
            if right in seen:
                continue
            seen.add(right)
            if right not in owner or augment(owner[right], seen):
                owner[right] = left
                return True
        return False

    return sum(augment(left, set()) for left in edges)


# ----------------------------------------------------------------------------------------------
# invented acronyms and malformed forms
# ----------------------------------------------------------------------------------------------

_ACRONYM = re.compile(r"^(?=(?:[A-Z]\d*){2,6}s?$)[A-Z][A-Z\d]*s?$")
FUNCTION_WORDS = frozenset(
    [
        "versus",
        "with",
        "without",
        "within",
        "between",
        "among",
        "amongst",
        "against",
        "through",
        "during",
        "before",
        "their",
        "these",
        "those",
        "which",
        "whose",
        "from",
        "into",
        "than",
        "that",
        "this",
        "were",
        "have",
        "been",
        "about",
        "upon",
        "other",
        "using",
    ]
)
ALREADY_PLURAL = frozenset(
    [
        "data",
        "criteria",
        "phenomena",
        "bacteria",
        "fungi",
        "nuclei",
        "stimuli",
        "larvae",
        "vertebrae",
        "algae",
        "ganglia",
        "mitochondria",
        "genera",
        "corpora",
        "foramina",
        "stomata",
        "media",
        "metastases",
        "diagnoses",
        "analyses",
        "theses",
        "hypotheses",
        "crises",
        "indices",
        "appendices",
        "matrices",
        "cortices",
        "apices",
        "emboli",
        "thrombi",
        "bronchi",
        "alveoli",
        "villi",
        "cilia",
        "strata",
        "septa",
        "taxa",
        "loci",
        "radii",
        "nevi",
        "calculi",
    ]
)


def invented_acronyms(
    generated: list[Term], description: str, expert: list[Term], vocabulary: MeshVocabulary
) -> list[str]:
    """Generated free-text terms that are all-capital acronyms attested nowhere: not a word of the
    description, not a MeSH heading/entry/permuted term, not a word of the expert query."""
    described = {w.casefold() for w in re.findall(r"[A-Za-z0-9]+", description)}
    expert_words = {w for term in expert for w in words(term.text)}
    found = []
    for term in generated:
        text = term.text.rstrip("*").strip()
        if term.is_mesh or not term.is_free_text or not _ACRONYM.match(text):
            continue
        forms = {text, text[:-1]} if text.endswith("s") else {text}
        if any(
            f.casefold() in described or f.casefold() in expert_words or vocabulary.is_term(f) for f in forms
        ):
            continue
        found.append(text)
    return found


def malformed_forms(term: Term, vocabulary: MeshVocabulary) -> list[str]:
    """`word: reason` for each badly formed word of a generated free-text term (conservative rules)."""
    if term.is_mesh or not term.is_free_text:
        return []
    out: list[str] = []
    raw_words = term.text.split()
    for position, raw in enumerate(raw_words):
        for part in raw.strip(".,;:()").split("-"):
            if part.isupper():
                continue  # an acronym as written ("ISS"), no inflected word
            word = fold(part)
            reason = _malformed_word(word, vocabulary)
            if reason is None and term.quoted and "*" in word and position < len(raw_words) - 1:
                reason = "truncation inside a quoted phrase before its last word"
            if reason:
                out.append(f"{part}: {reason}")
    return out


def _malformed_word(word: str, vocabulary: MeshVocabulary) -> str | None:
    known = vocabulary.word_forms
    if "*" in word:
        stem = word.split("*")[0]
        if word.rstrip("*") != stem:
            return "truncation inside a word"
        if sum(c.isalnum() for c in stem) < 4:
            return "truncation after fewer than 4 letters"
        if any(f.startswith(stem) for f in FUNCTION_WORDS):
            return "truncation of a function word"
        return None
    if not word.isalpha():
        return None
    if word.endswith(("sises", "itises")):
        return "'-es' plural of a word ending in -sis/-itis"
    if word.endswith("uses") and word[:-2] in known and word not in known:
        return "'-es' plural of a Latin word ending in -us"
    if word.endswith(("iss", "uss")) and word[:-1] in known and word not in known:
        return "'-s' added to a word ending in -is/-us"
    if word.endswith("s") and (word[:-1] in ALREADY_PLURAL or word[:-2] in ALREADY_PLURAL):
        return "plural of a form that is already plural"
    if word.endswith("aes") and word[:-1] in known and word not in known:
        return "plural of a form that is already plural"
    if len(word) >= 4 and word[-1] in "iu" and word + "s" in known and word not in vocabulary.common_words:
        return "singular made by dropping the -s of a word that is not a plural"
    return None


# ----------------------------------------------------------------------------------------------
# one topic
# ----------------------------------------------------------------------------------------------


def _share(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def score_topic(
    description: str, expert_query: str, generated_query: str, vocabulary: MeshVocabulary
) -> dict[str, Any]:
    """Every figure of one topic, with the details a reader needs to check them."""
    expert, generated = parse(expert_query), parse(generated_query)
    e_blocks, filters = expert_blocks(expert)
    expert_mesh = mesh_headings(expert, vocabulary, leave_out=filters)
    generated_mesh = mesh_headings(generated, vocabulary)
    e_set, g_set = expert_mesh.all, generated_mesh.all
    shared = e_set & g_set
    recognised = vocabulary.recognise(description)

    keys: dict[Term, set[str]] = {}
    g_blocks = conjuncts(generated.root) if generated.root is not None else []
    g_block_terms = [concept_terms(b) for b in g_blocks]
    edges: dict[int, list[int]] = {}  # expert block -> the generated blocks sharing a term with it
    for i, block in enumerate(e_blocks):
        e_terms = concept_terms(block)
        edges[i] = [
            j
            for j, g_terms in enumerate(g_block_terms)
            if any(terms_match(e, g, vocabulary, keys) for e in e_terms for g in g_terms)
        ]
    covered = sum(bool(found) for found in edges.values())
    strict = max_matching(edges)

    generated_terms = generated.terms()
    invented = invented_acronyms(generated_terms, description, expert.terms(), vocabulary)
    malformed = list(dict.fromkeys(m for t in generated_terms for m in malformed_forms(t, vocabulary)))
    review_blocks = [
        str(_describe(b))
        for b in g_blocks
        if (
            terms := [
                t
                for t in iter_terms(b, include_excluded=False)
                if t.is_mesh or t.is_free_text or t.kind == "pt"
            ]
        )
        and all(is_design_term(t) for t in terms)
    ]
    syntax = validity_issues(generated_query)

    return {
        "mesh_recall": _share(len(shared), len(e_set)),
        "mesh_precision": _share(len(shared), len(g_set)) if e_set else None,
        "mesh_recall_explode": _share(
            sum(any(vocabulary.related(e, g) for g in g_set) for e in e_set), len(e_set)
        ),
        "mesh_precision_explode": _share(
            sum(any(vocabulary.related(e, g) for e in e_set) for g in g_set), len(g_set)
        )
        if e_set
        else None,
        "ceiling": _share(len(e_set & recognised), len(e_set)),
        "block_coverage": _share(covered, len(e_blocks)),
        "strict_block_coverage": _share(strict, len(e_blocks)),
        "invented_acronym_share": _share(len(invented), len(generated_terms)) or 0.0,
        "malformed": len(malformed),
        "review_blocks": len(review_blocks),
        "unresolved_generated_headings": len(generated_mesh.unresolved),
        "syntax_valid": 0.0 if syntax else 1.0,
        "chars_generated": len(generated_query),
        "chars_expert": len(expert_query),
        "terms_generated": len(generated_terms),
        "terms_expert": len(expert.terms()),
        "details": {
            "expert_headings": sorted(vocabulary.heading(u) for u in expert_mesh.resolved),
            "generated_headings": sorted(vocabulary.heading(u) for u in generated_mesh.resolved),
            "shared_headings": sorted(vocabulary.heading(u) for u in shared if not u.startswith("?")),
            "unresolved_expert_headings": expert_mesh.unresolved,
            "unresolved_generated_headings": generated_mesh.unresolved,
            "headings_named_in_title": sorted(vocabulary.heading(u) for u in e_set & recognised),
            "expert_blocks": [_describe(b) for b in e_blocks],
            "expert_filter_blocks": [_describe(b) for b in filters],
            "generated_blocks": [_describe(b) for b in g_blocks],
            "blocks_covered": covered,
            "generated_blocks_sharing_a_term": [edges[i] for i in range(len(e_blocks))],
            "blocks_matched_one_to_one": strict,
            "invented_acronyms": invented,
            "malformed": malformed,
            "review_blocks": review_blocks,
            "syntax_issues": syntax,
            "expert_syntax_issues": expert.issues,
        },
    }


def _describe(block: Node) -> str:
    terms = [str(t) for t in iter_terms(block, include_excluded=False)]
    shown = " OR ".join(terms[:6])
    return shown + (f" ... (+{len(terms) - 6})" if len(terms) > 6 else "")
