"""Researchers of one Run: the same person merged within an institution, a PI guess, career length, summary.

- **Merging** is done inside one institution only. Two authorships are the same person when their
  names agree (same family name; given names equal, or initials consistent with the full name) and
  nothing contradicts it (two different ORCIDs; both on one paper). Romanised East-Asian names
  ("Wang Wei", "Kim J.") are shared by many people, so for them equal names are not enough: a second
  signal is required, the same ORCID or OpenAlex author id, or a co-author they share.
- **PI guess**: a logistic score of last authorship (share and count in the Run), corresponding
  authorship, career span and first authorship, shown with the reasons that produced it.
- **Career length**: from the earliest year in this Run (a lower bound), or the earliest year
  overall when OpenAlex author records were fetched (labelled as such).
- **Summary**: the LLM's summary of their papers in this Run (prompt `researcher_summary`), or with
  no LLM their top terms.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from agent.llm import LLM
from agent.models import AggregatedPaper, Author, Produced, Researcher
from tools.geocode import fold, has_cjk


def _words(text: str) -> frozenset[str]:
    """A word list written as text (kept readable; one word per line would be hundreds of lines)."""
    return frozenset(text.split())


# ----------------------------------------------------------------------------------------------
# Names
# ----------------------------------------------------------------------------------------------

# Common romanised family names of Chinese (pinyin, Wade-Giles, Cantonese), Korean, Japanese and
# Vietnamese origin. For these, two authorships with equal names are often two people.
_EAST_ASIAN_SURNAMES = _words(
    """
    wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin luo gao zheng liang
    xie song tang han feng deng cao peng zeng xiao tian dong pan yuan cai jiang yu du ye cheng wei
    su lu ding ren shen yao jin fu zhong dai cui tan liao fan shi qian kong bai hou meng qin yan xue
    lei long duan hao shao qiu wan gu mao lai wen kang qi yi chang xiong jia yin zou xiang mo niu
    gong ouyang sima zhuge shan geng bao ji xing mei hua ge che miao nie jiao rao xia lian ruan zhan
    chu ai bi bian chai chi chou diao fang chan wong cheung leung ng chow lau ho tsang yip kwok lam
    chiu chu hsu hsieh tsai lee choi chung kwan tsui siu yeung mak lo fong poon tse woo yuen hui
    kwong law au tam lui tong wan chau kim park jung jeong kang cho yoon jang lim oh seo shin kwon
    hwang ahn yoo hong jeon ko moon son bae baek heo nam noh ha kwak sung cha joo min ryu na choe
    yun im sato suzuki takahashi tanaka watanabe ito yamamoto nakamura kobayashi kato yoshida yamada
    sasaki yamaguchi matsumoto inoue kimura hayashi shimizu yamazaki mori abe ikeda hashimoto
    yamashita ishikawa nakajima maeda fujita ogawa goto okada hasegawa murakami kondo ishii saito
    sakamoto endo aoki fujii nishimura fukuda ota miura fujiwara okamoto matsuda nakagawa nakano
    harada ono tamura takeuchi kaneko wada nakayama ishida ueda morita hara shibata sakai kudo
    yokoyama miyazaki miyamoto uchida takagi nguyen tran le pham hoang huynh phan vu vo dang bui do
    ngo duong ly trinh dinh truong
    """
)


@dataclass(frozen=True)
class PersonName:
    family: str  # folded
    given: str  # folded, without spaces and hyphens ("xiaoming")
    initials: str  # "xm" for "Xiao-Ming", "ja" for "John A."
    display: str
    east_asian: bool

    @property
    def key(self) -> str:
        return f"{self.family}|{self.given or self.initials}"

    @property
    def has_full_given(self) -> bool:
        return len(self.given) > len(self.initials)


def person_name(author: Author) -> PersonName:
    """Family name, given name and initials of an author, from the structured parts or the display name."""
    family, given = (author.family or "").strip(), (author.given or "").strip()
    display = author.name.strip()
    if not family:
        if "," in display:
            family, given = (part.strip() for part in display.split(",", 1))
        elif has_cjk(display) and " " not in display.strip():
            family, given = display[:1], display[1:]  # 王小明: family name first
        else:
            parts = display.split()
            # "Smith JA" (PubMed style): trailing capitals are initials
            if len(parts) >= 2 and re.fullmatch(r"[A-Z]{1,3}", parts[-1]):
                family, given = " ".join(parts[:-1]), parts[-1]
            else:
                family, given = (parts[-1] if parts else display), " ".join(parts[:-1])
    given_parts = [p for p in re.split(r"[\s.\-‐]+", given) if p]
    if len(given_parts) == 1 and re.fullmatch(r"[A-Z]{2,3}", given_parts[0]):
        given_parts = list(given_parts[0])  # "JA" -> J, A
    initials = "".join(fold(p)[:1] for p in given_parts)
    full = "".join(fold(p) for p in given_parts if len(p) > 1)
    family_key = fold(family).replace(" ", "")
    east_asian = has_cjk(display) or family_key in _EAST_ASIAN_SURNAMES
    # a full given name only counts when every part is spelled out ("John A." is "j a", not "john")
    given_key = full if full and all(len(p) > 1 for p in given_parts) else ""
    return PersonName(family_key, given_key, initials, display, east_asian)


def coauthor_key(name: PersonName) -> str:
    """How a co-author is recognised across papers: family name and initials ('li|m' for Li Ming and Li M.)."""
    return f"{name.family}|{name.initials}"


def names_compatible(a: PersonName, b: PersonName) -> bool:
    """Could these two names be the same person? Same family name and consistent given names."""
    if a.family != b.family or not a.family:
        return False
    if a.given and b.given:
        return a.given == b.given
    if not a.initials or not b.initials:
        return True  # "Smith" alone tells nothing against
    short, long = sorted((a.initials, b.initials), key=len)
    return long.startswith(short)


# ----------------------------------------------------------------------------------------------
# Authorships and merging
# ----------------------------------------------------------------------------------------------


@dataclass
class Authorship:
    """One author of one paper at one institution."""

    paper_key: str
    author: Author
    institution_id: str | None
    year: int | None
    n_authors: int
    coauthors: frozenset[str]  # coauthor_key of the paper's other authors
    name: PersonName = field(init=False)

    def __post_init__(self) -> None:
        self.name = person_name(self.author)

    @property
    def is_first(self) -> bool:
        return self.author.position == 1 and self.n_authors > 1

    @property
    def is_last(self) -> bool:
        return self.author.is_last and self.n_authors > 1


@dataclass
class _Cluster:
    members: list[Authorship]
    signals: set[str] = field(default_factory=set)  # what merged its authorships: name, orcid, coauthor ...

    @property
    def papers(self) -> set[str]:
        return {m.paper_key for m in self.members}

    @property
    def orcids(self) -> set[str]:
        return {m.author.orcid for m in self.members if m.author.orcid}

    @property
    def openalex_ids(self) -> set[str]:
        return {m.author.openalex_id for m in self.members if m.author.openalex_id}

    @property
    def coauthors(self) -> set[str]:
        return set().union(*(m.coauthors for m in self.members))

    @property
    def names(self) -> list[PersonName]:
        return [m.name for m in self.members]


def _can_merge(a: _Cluster, b: _Cluster) -> tuple[bool, str]:
    """May two clusters at one institution be one person? Returns (yes, the signal that decided)."""
    if a.papers & b.papers:
        return False, ""  # one person does not author one paper twice
    if a.orcids and b.orcids:
        return (True, "orcid") if a.orcids & b.orcids else (False, "")
    if not all(names_compatible(x, y) for x in a.names for y in b.names):
        return False, ""
    east_asian = any(n.east_asian for n in a.names + b.names)
    if a.openalex_ids & b.openalex_ids:
        return True, "openalex"
    if not east_asian:
        return True, "name"
    # romanised East-Asian names: the full given name must agree and a second signal must confirm
    if not all(n.given for n in a.names + b.names):
        return False, ""
    own = {coauthor_key(n) for n in a.names + b.names}
    if (a.coauthors - own) & (b.coauthors - own):
        return True, "coauthor"
    return False, ""


@dataclass
class Person:
    authorships: list[Authorship]
    signals: list[str]


def merge_authorships(authorships: Iterable[Authorship]) -> list[Person]:
    """Group authorships into people, within each institution. Deterministic: input order is kept."""
    by_place: dict[tuple[str | None, str], list[Authorship]] = defaultdict(list)
    for authorship in authorships:
        by_place[(authorship.institution_id, authorship.name.family)].append(authorship)
    people: list[Person] = []
    for group in by_place.values():
        clusters = [_Cluster([a]) for a in group]
        merged = True
        while merged:
            merged = False
            pairs = [(i, j) for i in range(len(clusters)) for j in range(i + 1, len(clusters))]
            for i, j in pairs:
                ok, signal = _can_merge(clusters[i], clusters[j])
                if ok and not _ambiguous(clusters[i], clusters[j], clusters):
                    clusters[i].members.extend(clusters[j].members)
                    clusters[i].signals |= clusters[j].signals | {signal}
                    del clusters[j]
                    merged = True
                    break
        people.extend(Person(c.members, sorted(c.signals)) for c in clusters)
    return people


def _full_keys(cluster: _Cluster) -> set[str]:
    return {n.key for n in cluster.names if n.has_full_given}


def _ambiguous(a: _Cluster, b: _Cluster, clusters: list[_Cluster]) -> bool:
    """'Smith J' fits both 'Smith John' and 'Smith Jane': such an initials-only form joins neither."""
    for short in (a, b):
        if _full_keys(short):
            continue
        fitting = {
            key
            for other in clusters
            if other is not short and _full_keys(other) and _can_merge(short, other)[0]
            for key in _full_keys(other)
        }
        if len(fitting) > 1:
            return True
    return False


# ----------------------------------------------------------------------------------------------
# Profiles: PI guess, career, terms
# ----------------------------------------------------------------------------------------------

CareerBasis = Literal["run", "openalex", "none"]


class AuthorRecord(BaseModel):
    """What an OpenAlex author record adds (fetched by the caller's `enrich` function)."""

    openalex_id: str
    first_year: int | None = None
    works_count: int | None = None
    orcid: str | None = None


AuthorEnricher = Callable[[list[str]], Awaitable[dict[str, AuthorRecord]]]


class ResearcherProfile(Researcher):
    """A researcher on the map: the shared `Researcher` plus what the page shows."""

    name_variants: list[str] = Field(default_factory=list)
    latest_year_in_run: int | None = None
    career_basis: CareerBasis = "none"
    career_label: str = ""  # "at least 12 years (earliest paper in this Run: 2014)"
    top_terms: list[str] = Field(default_factory=list)
    merged_by: list[str] = Field(default_factory=list)  # signals that merged its authorships


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def guess_pi(
    n_papers: int,
    last: int,
    corresponding: int,
    first: int,
    career_years: int | None,
    career_basis: CareerBasis,
) -> tuple[bool, float, list[str]]:
    """(is PI, confidence, reasons). A logistic score; weights reflect that heads of labs sign last."""
    reasons: list[str] = []
    logit = -1.6
    if n_papers:
        last_share = last / n_papers
        logit += 2.2 * last_share + 0.35 * min(last, 5)
        if last:
            reasons.append(
                f"last author on {last} of {n_papers} paper{'s' if n_papers > 1 else ''} in this Run"
            )
        if corresponding:
            logit += 0.9 * corresponding / n_papers
            reasons.append(f"corresponding author on {corresponding} paper{'s' if corresponding > 1 else ''}")
        if first and not last:
            logit -= 0.8 * first / n_papers
            reasons.append(f"first author on {first} of {n_papers} (typical of students and postdocs)")
        if not last and not corresponding and not first:
            reasons.append("a middle author only")
    if career_years is not None:
        source = "OpenAlex" if career_basis == "openalex" else "this Run"
        if career_years >= 12:
            logit += 0.9
            reasons.append(f"publishing for at least {career_years} years ({source})")
        elif career_years >= 6:
            logit += 0.4
            reasons.append(f"publishing for at least {career_years} years ({source})")
        elif career_basis == "openalex" and career_years < 4:
            logit -= 0.7
            reasons.append(f"early career: first publication {career_years} years ago (OpenAlex)")
    confidence = _sigmoid(logit)
    if n_papers <= 1:
        # one paper is little evidence either way
        confidence = 0.5 + (confidence - 0.5) * 0.6
        reasons.append("only one paper in this Run")
    confidence = round(min(max(confidence, 0.01), 0.99), 2)
    return confidence >= 0.5, confidence, reasons


_STOP = _words(
    """
    a an and are as at be by for from has have in into is it its of on or that the their this to was
    were with we our using use used based study studies analysis effect effects new via between
    among during after before under over two three one than not can may also which these those both
    its versus vs patients results method methods approach towards toward role case report review
    trial clinical data model models
    """
)


def top_terms(
    papers: Sequence[AggregatedPaper], corpus_df: Counter[str], n_docs: int, k: int = 6
) -> list[str]:
    """The researcher's most characteristic terms in this Run: keywords and MeSH first, then title words,
    weighted by how rare they are across the Run (tf-idf)."""
    scores: defaultdict[str, float] = defaultdict(float)
    shown: dict[str, str] = {}
    for item in papers:
        for term, weight in _paper_terms(item):
            key = term.casefold()
            idf = math.log((1 + n_docs) / (1 + corpus_df.get(key, 0))) + 1
            scores[key] += weight * idf
            shown.setdefault(key, term)
    # highest first; of equals, the first met (as Counter.most_common orders them)
    best = sorted(scores.items(), key=lambda item: item[1], reverse=True)[:k]
    return [shown[key] for key, _ in best]


def _paper_terms(item: AggregatedPaper) -> list[tuple[str, float]]:
    paper = item.paper
    terms: list[tuple[str, float]] = []
    terms += [(h.descriptor, 2.0 if h.major else 1.5) for h in paper.mesh_headings]
    terms += [(k, 2.0) for k in paper.keywords]
    title = paper.title or paper.vernacular_title or ""
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9-]+", title) if w.casefold() not in _STOP]
    terms += [(w.lower() if not w.isupper() else w, 1.0) for w in words if len(w) > 3]
    terms += [(f"{a.lower()} {b.lower()}", 1.2) for a, b in zip(words, words[1:], strict=False)]
    if has_cjk(title):
        terms += [(w, 1.0) for w in _cjk_words(title)]
    return terms


def _cjk_words(text: str) -> list[str]:
    """Chinese words of a title (jieba segmentation), two characters or more."""
    # jieba loads its dictionary on import (~1 s): only for Chinese titles
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return [w for w in jieba.lcut(text) if len(w) >= 2 and has_cjk(w)]


def corpus_frequencies(papers: Iterable[AggregatedPaper]) -> tuple[Counter[str], int]:
    df: Counter[str] = Counter()
    n = 0
    for item in papers:
        n += 1
        df.update({term.casefold() for term, _ in _paper_terms(item)})
    return df, n


def build_profile(
    researcher_id: str,
    person: Person,
    papers: dict[str, AggregatedPaper],
    *,
    reference_year: int,
    corpus: tuple[Counter[str], int],
    records: dict[str, AuthorRecord] | None = None,
) -> ResearcherProfile:
    authorships = person.authorships
    paper_keys = sorted({a.paper_key for a in authorships}, key=lambda k: (papers[k].paper.year or 0, k))
    n_papers = len(paper_keys)
    per_paper = {a.paper_key: a for a in authorships}
    last = sum(1 for a in per_paper.values() if a.is_last)
    first = sum(1 for a in per_paper.values() if a.is_first)
    corresponding = sum(1 for a in per_paper.values() if a.author.corresponding)
    years = [a.year for a in authorships if a.year]
    first_year_in_run, latest = (min(years), max(years)) if years else (None, None)
    orcid = next((a.author.orcid for a in authorships if a.author.orcid), None)
    openalex_id = next((a.author.openalex_id for a in authorships if a.author.openalex_id), None)
    record = (records or {}).get(openalex_id or "")
    first_year_overall = record.first_year if record else None
    if first_year_overall:
        basis: CareerBasis = "openalex"
        start = min(first_year_overall, first_year_in_run or first_year_overall)
        career_years = max(reference_year - start + 1, 1)
        label = f"{career_years} years (earliest publication {start}, from OpenAlex)"
    elif first_year_in_run:
        basis = "run"
        career_years = max(reference_year - first_year_in_run + 1, 1)
        label = f"at least {career_years} years (earliest paper in this Run: {first_year_in_run})"
    else:
        basis, career_years, label = "none", None, "unknown (no publication years)"
    is_pi, confidence, reasons = guess_pi(n_papers, last, corresponding, first, career_years, basis)
    names = Counter(a.author.name for a in authorships)
    display = max(names, key=lambda n: (len(n), names[n]))  # the fullest form ("Zhang Wei" over "Zhang W")
    return ResearcherProfile(
        id=researcher_id,
        name=display,
        institution_id=authorships[0].institution_id,
        orcid=orcid,
        openalex_id=openalex_id,
        paper_keys=paper_keys,
        last_author_count=last,
        first_author_count=first,
        corresponding_count=corresponding,
        is_pi=is_pi,
        pi_confidence=confidence,
        pi_reasons=reasons,
        first_year_in_run=first_year_in_run,
        first_year_overall=first_year_overall,
        career_years=career_years,
        name_variants=sorted(names),
        latest_year_in_run=latest,
        career_basis=basis,
        career_label=label,
        top_terms=top_terms([papers[k] for k in paper_keys], *corpus),
        merged_by=person.signals,
    )


# ----------------------------------------------------------------------------------------------
# Summaries
# ----------------------------------------------------------------------------------------------


class ResearcherSummary(BaseModel):
    summary: str = Field(..., max_length=600)
    topics: list[str] = Field(default_factory=list, max_length=8)


SUMMARY_PROMPT = "researcher_summary"


def rules_summary(profile: ResearcherProfile) -> str:
    n = len(profile.paper_keys)
    terms = ", ".join(profile.top_terms[:5]) or "no distinctive terms"
    return f"Top terms in this Run ({n} paper{'s' if n != 1 else ''}): {terms}."


async def summarise(
    profiles: list[ResearcherProfile],
    papers: dict[str, AggregatedPaper],
    institution_names: dict[str, str],
    llm: LLM,
    *,
    max_llm: int = 150,
    concurrency: int = 4,
) -> list[str]:
    """Fill each profile's summary; returns notes (e.g. why the rules were used)."""
    notes: list[str] = []
    for profile in profiles:
        profile.summary, profile.summary_produced_by = rules_summary(profile), Produced.RULES
    if not llm.available or not profiles:
        if profiles:
            notes.append("research summaries are top terms: no LLM is configured")
        return notes
    # the most productive researchers get a written summary first
    ranked = sorted(profiles, key=lambda p: (-len(p.paper_keys), -p.pi_confidence, p.id))[:max_llm]
    if len(profiles) > len(ranked):
        notes.append(
            f"{len(profiles) - len(ranked)} researchers with fewer papers have top terms, not a written summary"
        )
    semaphore = asyncio.Semaphore(concurrency)
    fallbacks: list[str] = []

    async def one(profile: ResearcherProfile) -> None:
        lines = []
        for key in profile.paper_keys[:12]:
            paper = papers[key].paper
            extra = "; ".join(paper.keywords[:6])
            lines.append(
                f"- {paper.year or 'n.d.'}: {paper.title}" + (f" (keywords: {extra})" if extra else "")
            )
        values = {
            "name": profile.name,
            "institution": institution_names.get(profile.institution_id or "", "unknown institution"),
            "papers": "\n".join(lines),
            "terms": ", ".join(profile.top_terms),
        }
        async with semaphore:
            completion = await llm.complete_or_fallback(
                SUMMARY_PROMPT,
                values,
                ResearcherSummary,
                lambda: ResearcherSummary(summary=rules_summary(profile)),
            )
        profile.summary = completion.value.summary.strip() or rules_summary(profile)
        profile.summary_produced_by = completion.produced_by
        if completion.note:
            fallbacks.append(completion.note)

    await asyncio.gather(*(one(p) for p in ranked))
    if fallbacks:
        notes.append(f"{len(fallbacks)} summaries fell back to top terms ({fallbacks[0]})")
    return notes
