"""One reproducible query per database from a keyword plan — pure functions, no I/O.

**Facets** (which slots are AND'ed) are decided by `agent.understanding.facets`.

**PubMed**: per facet `("Heading"[Mesh] OR "Ancestor"[Mesh:NoExp] OR "phrase"[tiab] OR word[tiab] ...)`,
facets joined by AND.
Phrases are quoted, single alphanumeric words are not (as PubMed's own examples write them), double
quotes and brackets inside a term are removed (PubMed has no escape for them), and Boolean words are
quoted. A singular/plural pair of the same term becomes one truncated phrase (`"interface*"[tiab]`,
`"SGLT2 inhibitor*"[tiab]`) only when the truncated word has at least five plain letters, so that
truncation cannot explode.

**Semantic Scholar** (`/paper/search/bulk`): `(a | "b c") + (d | e)`, phrases quoted, the syntax
characters `+ | - * ( ) ~ "` never left bare inside a term; `fieldsOfStudy` when the plan names fields.

**OpenAlex** (`/works`): one `title_and_abstract.search:(a OR "b c")` filter per facet, comma-joined
(OpenAlex ANDs repeated filters); commas, pipes, colons and quotes inside a term are removed because they
are filter syntax.

**Length**: PubMed queries are kept under `PUBMED_MAX_QUERY_CHARS`, and Semantic Scholar and OpenAlex
request URLs under `MAX_URL_CHARS` (OpenAlex documents ~4 KB), by dropping each term's lowest-ranked
synonyms first; the query plan's notes say when that happened.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

from agent.language.mesh_recognition import is_anatomy
from agent.language.morphology import collective_members, number_variants
from agent.language.text import unique_casefold
from agent.models import (
    Concept,
    ConceptRole,
    Facet,
    KeywordPlan,
    QueryPlan,
    Source,
    SourceQuery,
    Term,
)
from agent.settings import DEFAULT_BASE_URLS
from agent.understanding.facets import effective_facets

PUBMED_MAX_QUERY_CHARS = 4_000
MAX_URL_CHARS = 4_000

PUBMED_ESEARCH = f"{DEFAULT_BASE_URLS['pubmed']}/esearch.fcgi"
SEMANTIC_SCHOLAR_BULK = f"{DEFAULT_BASE_URLS['semantic_scholar']}/paper/search/bulk"
OPENALEX_WORKS = f"{DEFAULT_BASE_URLS['openalex']}/works"

_BOOLEAN_WORDS = frozenset({"AND", "OR", "NOT"})
_PLAIN_WORD = re.compile(r"^[A-Za-z0-9]+$")


# ----------------------------------------------------------------------------------------------
# Blocks: the OR groups, before any database syntax
# ----------------------------------------------------------------------------------------------


@dataclass
class _TermStrings:
    mesh: str | None
    texts: list[str]  # canonical first, then kept synonyms in their order
    broader: tuple[str, ...] = ()  # ancestors the text names inside the term (searched as [Mesh:NoExp])
    field: str = "Mesh"  # the PubMed field of `mesh`: "pt" for a publication type


@dataclass
class _Block:
    slot: str
    terms: list[_TermStrings] = field(default_factory=list)


def _term_strings(term: Term, role: ConceptRole | None = None) -> _TermStrings:
    """The strings a query writes for a term. A concept of anatomy is searched by its words only: MeSH
    indexes a paper under an organ or body fluid when the body part itself is studied, not when it is
    only where a disease sits or a sample is taken ("urine tests", "kidney transplant recipients"),
    which a pre-coordinated heading or the words name."""
    searched = term.mesh is not None and not (role is ConceptRole.ANATOMY and is_anatomy(term.mesh))
    return _TermStrings(
        term.mesh.heading if term.mesh and searched else None,
        [term.canonical, *term_texts(term)],
        tuple(d.heading for d in term.broader) if searched else (),
    )


def term_texts(term: Term) -> list[str]:
    """The kept synonyms a query uses for a term, in their order."""
    return [s.text for s in term.kept_synonyms()]


def _blocks(plan: KeywordPlan) -> list[_Block]:
    """One block per required, enabled concept (plans without concepts: one per required slot)."""
    if plan.concepts:
        blocks = []
        for concept in plan.concepts:
            terms = [_term_strings(t, concept.role) for t in plan.terms_of(concept.id)]
            if concept.enabled and concept.required and terms:
                blocks.append(_without_subsumed(_Block(concept.id, terms)))
        return blocks + _filter_blocks(plan)
    blocks = []
    for facet in effective_facets(plan):
        if not (facet.enabled and facet.required):
            continue
        terms = [_term_strings(t) for t in plan.terms_for(facet.slot)]
        if terms:
            blocks.append(_without_subsumed(_Block(facet.slot, terms)))
    return blocks + _filter_blocks(plan)


def _filter_blocks(plan: KeywordPlan) -> list[_Block]:
    """One block per study filter the user switched on: the design's heading OR its words."""
    blocks = []
    for study in plan.study_filters:
        if study.enabled and not study.limits_years:
            texts = unique_casefold([study.text, *([study.heading.lower()] if study.heading else [])])
            field = "pt" if study.publication_type else "Mesh"
            blocks.append(
                _Block(f"filter:{study.text}", [_TermStrings(study.heading or None, texts, field=field)])
            )
    return blocks


def _years(plan: KeywordPlan) -> tuple[int | None, int | None] | None:
    """The publication years the switched-on year filters keep (their intersection), or None."""
    limits = [f for f in plan.study_filters if f.enabled and f.limits_years]
    if not limits:
        return None
    firsts = [f.first_year for f in limits if f.first_year is not None]
    lasts = [f.last_year for f in limits if f.last_year is not None]
    return (max(firsts) if firsts else None, min(lasts) if lasts else None)


def _words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z0-9]+", text.casefold()))


def _holds(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    """True when `shorter` stands in `longer` as consecutive whole words, and `longer` has more."""
    n = len(shorter)
    return 0 < n < len(longer) and any(longer[i : i + n] == shorter for i in range(len(longer) - n + 1))


def _without_subsumed(block: _Block) -> _Block:
    """The block without the free-text terms another of its terms finds already: every paper with
    "invasive aspergillosis" in its title or abstract has "aspergillosis" there too, so ORing the
    longer phrase adds nothing (the concept still lists it; the query is the same set of papers)."""
    written = [_words(text) for term in block.terms for text in term.texts]
    return _Block(
        block.slot,
        [
            _TermStrings(
                t.mesh, [x for x in t.texts if not any(_holds(_words(x), w) for w in written)], t.broader
            )
            for t in block.terms
        ],
    )


def _limit(blocks: list[_Block], synonyms: int) -> list[_Block]:
    return [
        _Block(b.slot, [_TermStrings(t.mesh, t.texts[: 1 + synonyms], t.broader) for t in b.terms])
        for b in blocks
    ]


def _fit(
    blocks: list[_Block], render: Callable[[list[_Block]], str], size: Callable[[str], int], limit: int
) -> tuple[str, str | None]:
    """Render with as many synonyms per term as fit in `limit` (lowest-ranked dropped first).

    The length grows with the number of synonyms kept, so the largest number that fits is found by
    bisection: a handful of renders even for a plan with hundreds of synonyms.
    """
    most = max((len(t.texts) - 1 for b in blocks for t in b.terms), default=0)
    full = render(blocks)
    if size(full) <= limit:
        return full, None
    low, high = 0, most - 1  # the most synonyms that might fit
    best: str | None = None
    while low <= high:
        middle = (low + high) // 2
        text = render(_limit(blocks, middle))
        if size(text) <= limit:
            best, low = text, middle + 1
        else:
            high = middle - 1
    if best is None:
        return render(_limit(blocks, 0)), (
            f"still longer than {limit:,} characters with no synonyms; remove some terms in the review"
        )
    return best, f"kept at most {low - 1} synonym(s) per term to stay within {limit:,} characters"


def _spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ----------------------------------------------------------------------------------------------
# PubMed
# ----------------------------------------------------------------------------------------------


def _pubmed_clean(text: str) -> str:
    return _spaces(re.sub(r'["\[\]*]', " ", text))


def pubmed_term(text: str, truncate: bool = False) -> str:
    """One free-text item: `word[tiab]`, `"a phrase"[tiab]`, or a truncated `"a phras*"[tiab]`."""
    clean = _pubmed_clean(text)
    if not clean:
        return ""
    star = "*" if truncate else ""
    if _PLAIN_WORD.match(clean) and clean.upper() not in _BOOLEAN_WORDS:
        return f"{clean}{star}[tiab]"
    return f'"{clean}{star}"[tiab]'


def _truncated(singular: str, plural: str) -> str | None:
    """The stem a singular/plural pair is searched by, or None when it must be written out.

    "interface"/"interfaces" become "interface*": same phrase + "s", and the truncated word is plain
    lower-case letters, five or more ("SGLT2 inhibitor*" yes; "BCI*", "cell*" no). A noun in "-ity"
    is cut before its "y" ("insulin sensitivity"/"sensitivities" -> "insulin sensitivit*", as searchers
    write "osmolalit*"): no other English word continues such a stem. Only that word can explode; the
    words before it are matched as written."""
    if plural.casefold() == singular.casefold() + "s":
        stem = singular
    elif singular.casefold().endswith("ity") and plural.casefold() == singular.casefold()[:-1] + "ies":
        stem = singular[:-1]
    else:
        return None
    words = re.split(r"[\s-]+", stem)
    last = words[-1]
    if (
        re.fullmatch(r"[A-Za-z]{5,}", last) is not None
        and not last.isupper()
        and all(re.fullmatch(r"[A-Za-z0-9]+", word) for word in words)
    ):
        return stem
    return None


def _plural_spellings(single: str) -> tuple[str, ...]:
    """The plurals a truncation of `single` may absorb."""
    folded = single.casefold()
    return (folded + "s", folded[:-1] + "ies") if folded.endswith("ity") else (folded + "s",)


def _members_for_collectives(texts: list[str]) -> list[str]:
    """Each text with a collective head replaced by its members in both numbers, as a searcher writes
    `"benthic invertebrate*"[tiab]` for "benthic invertebrate communities": the collection's own
    phrase misses every paper that names the members without it."""
    out: list[str] = []
    for text in texts:
        members = collective_members(text)
        out += [members, *number_variants(members)] if members else [text]
    return unique_casefold(out)


def _one_per_hyphenation(texts: list[str]) -> list[str]:
    """The texts without those that differ from an earlier one only by hyphens or spaces between words:
    PubMed's phrase index reads a hyphen as the join of a phrase ("kidney-allograft" searches the phrase
    "kidney allograft"), so "non-insulin-dependent diabetes" and "non insulin dependent diabetes" find the
    same papers. Letters and digits written together ("SGLT2" beside "SGLT-2") are another token."""
    seen: set[str] = set()
    out = []
    for text in texts:
        key = " ".join(re.split(r"[\s-]+", text.casefold()))
        if key not in seen:
            seen.add(key)
            out.append(text)
    return out


def _pubmed_items(term: _TermStrings) -> list[str]:
    items = [f'"{_pubmed_clean(term.mesh)}"[{term.field}]'] if term.mesh else []
    # an ancestor the words name is searched unexploded: the papers indexed only at that general
    # level, as an information specialist adds "Tuberculosis"[Mesh:NoExp] beside "Tuberculosis, Pulmonary"
    items += [f'"{_pubmed_clean(heading)}"[Mesh:NoExp]' for heading in term.broader if term.mesh]
    texts = _one_per_hyphenation(_members_for_collectives(term.texts))
    position = {text.casefold(): index for index, text in reversed(list(enumerate(texts)))}
    truncated: dict[int, str] = {}  # index of the pair's first member -> the stem it is searched by
    absorbed: set[int] = set()
    for index, single in enumerate(texts):
        for spelling in _plural_spellings(single):
            other = position.get(spelling)
            if other is None or index in absorbed or other in absorbed:
                continue
            stem = _truncated(single, texts[other])
            if stem is not None:
                truncated[min(index, other)] = stem
                absorbed.add(max(index, other))
    for index, text in enumerate(texts):
        if index in absorbed:
            continue
        items.append(
            pubmed_term(truncated[index], truncate=True) if index in truncated else pubmed_term(text)
        )
    return items


def _without_unexploded_twins(items: list[str]) -> list[str]:
    """The block's items without `"X"[Mesh:NoExp]` when `"X"[Mesh]` is there too: the exploded heading
    holds the papers indexed at X itself ("Fibrosis"[Mesh:NoExp] beside "Fibrosis"[Mesh] is the same
    heading twice, which a searcher would strike)."""
    exploded = {item.casefold() for item in items if item.endswith("[Mesh]")}
    return [
        item
        for item in items
        if not (item.endswith("[Mesh:NoExp]") and item[: -len(":NoExp]")].casefold() + "]" in exploded)
    ]


def _render_pubmed(blocks: list[_Block]) -> str:
    groups = []
    for block in blocks:
        items = _without_unexploded_twins(
            unique_casefold(item for term in block.terms for item in _pubmed_items(term))
        )
        if items:
            groups.append("(" + " OR ".join(items) + ")")
    return " AND ".join(groups)


def _pubmed(plan: KeywordPlan) -> tuple[str, str | None]:
    query, note = _fit(_blocks(plan), _render_pubmed, len, PUBMED_MAX_QUERY_CHARS)
    years = _years(plan)
    if query and years:
        first, last = years
        query += f" AND {first or 1800}:{last or 3000}[dp]"  # PubMed's publication-date range
    return query, note


def build_pubmed_query(plan: KeywordPlan) -> str:
    """The PubMed query ("" when the plan has no required facet with terms)."""
    return _pubmed(plan)[0]


def pubmed_url(query: str) -> str:
    return f"{PUBMED_ESEARCH}?{urlencode({'db': 'pubmed', 'term': query}, quote_via=quote, safe='')}"


# ----------------------------------------------------------------------------------------------
# Semantic Scholar
# ----------------------------------------------------------------------------------------------


def semantic_scholar_term(text: str) -> str:
    clean = _spaces(re.sub(r'["()|+~*]', " ", text)).lstrip("-").strip()
    if not clean:
        return ""
    return clean if _PLAIN_WORD.match(clean) else f'"{clean}"'


def _render_s2(blocks: list[_Block]) -> str:
    groups = []
    for block in blocks:
        items = unique_casefold(semantic_scholar_term(t) for term in block.terms for t in term.texts)
        if items:
            groups.append("(" + " | ".join(items) + ")")
    return " + ".join(groups)


def _s2_params(query: str, plan: KeywordPlan) -> dict[str, str]:
    params = {"query": query}
    if plan.fields_of_study:
        params["fieldsOfStudy"] = ",".join(plan.fields_of_study)
    years = _years(plan)
    if years:
        params["year"] = f"{years[0] or ''}-{years[1] or ''}"  # "2010-", "2000-2020", "-1999"
    return params


def semantic_scholar_url(params: Mapping[str, str]) -> str:
    return f"{SEMANTIC_SCHOLAR_BULK}?{urlencode(params, quote_via=quote, safe=',')}"


def _semantic_scholar(plan: KeywordPlan) -> tuple[str, dict[str, str], str | None]:
    query, note = _fit(
        _blocks(plan), _render_s2, lambda q: len(semantic_scholar_url(_s2_params(q, plan))), MAX_URL_CHARS
    )
    return query, _s2_params(query, plan), note


def build_semantic_scholar_query(plan: KeywordPlan) -> tuple[str, dict]:
    """The bulk-search query and every parameter that defines the search (query, fieldsOfStudy)."""
    query, params, _ = _semantic_scholar(plan)
    return query, params


# ----------------------------------------------------------------------------------------------
# OpenAlex
# ----------------------------------------------------------------------------------------------


def openalex_term(text: str) -> str:
    clean = _spaces(re.sub(r'[,|:"()]', " ", text))
    if not clean:
        return ""
    if _PLAIN_WORD.match(clean) and clean.upper() not in _BOOLEAN_WORDS:
        return clean
    return f'"{clean}"'


def _render_openalex(blocks: list[_Block]) -> str:
    filters = []
    for block in blocks:
        items = unique_casefold(openalex_term(t) for term in block.terms for t in term.texts)
        if items:
            filters.append("title_and_abstract.search:(" + " OR ".join(items) + ")")
    return ",".join(filters)


def openalex_url(params: Mapping[str, str]) -> str:
    return f"{OPENALEX_WORKS}?{urlencode(params, quote_via=quote, safe=':,')}"


def _openalex(plan: KeywordPlan) -> tuple[str, dict[str, str], str | None]:
    query, note = _fit(
        _blocks(plan), _render_openalex, lambda q: len(openalex_url({"filter": q})), MAX_URL_CHARS
    )
    years = _years(plan)
    if query and years:
        first, last = years
        dates = ([f"from_publication_date:{first}-01-01"] if first else []) + (
            [f"to_publication_date:{last}-12-31"] if last else []
        )
        query = ",".join([query, *dates])
    return query, {"filter": query}, note


def build_openalex_query(plan: KeywordPlan) -> tuple[str, dict]:
    """The works filter and every parameter that defines the search (`filter`)."""
    query, params, _ = _openalex(plan)
    return query, params


# ----------------------------------------------------------------------------------------------
# All three
# ----------------------------------------------------------------------------------------------


def _left_out_notes(plan: KeywordPlan) -> list[str]:
    """What the queries leave out: the concepts (or, in a plan without concepts, the slots) that are
    switched off or optional. A plan with concepts ANDs concepts, whatever their slot's facet says."""
    parts: list[tuple[str, Concept | Facet]]
    if plan.concepts:
        parts = [(f"concept '{c.label}'", c) for c in plan.concepts if plan.terms_of(c.id)]
    else:
        with_terms = {t.slot for t in plan.terms}
        parts = [(f"facet {f.slot}", f) for f in effective_facets(plan) if f.slot in with_terms]
    notes: list[str] = []
    for name, part in parts:
        if not part.enabled:
            notes.append(f"{name} is switched off")
        elif not part.required:
            notes.append(f"{name} is optional: shown and used for ranking, not AND'ed into the queries")
    return notes


def build_queries(plan: KeywordPlan) -> QueryPlan:
    """The three queries with their reproducible URLs, and notes on what the plan left out and why."""
    notes = _left_out_notes(plan)
    foreign = [t.canonical for t in plan.terms if not t.canonical.isascii()]
    if foreign:
        notes.append(
            "terms not in English: " + ", ".join(foreign) + " (the databases index English titles and "
            "abstracts; rename them in the review)"
        )
    queries: dict[Source, SourceQuery] = {}
    pubmed, note = _pubmed(plan)
    if pubmed:
        queries[Source.PUBMED] = SourceQuery(
            source=Source.PUBMED,
            query=pubmed,
            params={"db": "pubmed", "term": pubmed},
            url=pubmed_url(pubmed),
        )
        if note:
            notes.append(f"PubMed: {note}")
    s2, s2_params, note = _semantic_scholar(plan)
    if s2:
        queries[Source.SEMANTIC_SCHOLAR] = SourceQuery(
            source=Source.SEMANTIC_SCHOLAR, query=s2, params=s2_params, url=semantic_scholar_url(s2_params)
        )
        if note:
            notes.append(f"Semantic Scholar: {note}")
    openalex, oa_params, note = _openalex(plan)
    if openalex:
        queries[Source.OPENALEX] = SourceQuery(
            source=Source.OPENALEX, query=openalex, params=oa_params, url=openalex_url(oa_params)
        )
        if note:
            notes.append(f"OpenAlex: {note}")
    if not queries:
        notes.append("no facet with terms is switched on and required: there is nothing to search for")
    return QueryPlan(queries=queries, notes=notes)
