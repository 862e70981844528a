"""Slot precision and recall against acceptable terms, and facet agreement.

Each case lists, per slot, the expected *concepts*; each concept is a list of acceptable spellings
("ECoG", "electrocorticography"). A predicted phrase matches a spelling when, after normalisation
(half-width, case, hyphens, singular nouns, stop words dropped; Chinese segmented with jieba), the two
are equal or their token sets have a Dice coefficient of at least `DICE`. A phrase written
"term (ACRONYM)" matches through either part. A predicted phrase containing Chinese characters never
matches: expected terms are English canonical terms, so a Chinese description is scored as English (a
Chinese phrase copied from the description is not a canonical term, however close to the meaning).

- precision of a slot: predicted phrases that match some concept of that slot / predicted phrases,
  leaving out phrases that match no concept but equal (same tokens) one of the case's *neutral* phrases
  (the kind of study wanted: study type, sample size, time span), which are neither right nor wrong;
- recall of a slot: expected concepts matched by some predicted phrase / expected concepts;
- the overall figures are micro-averages over the seven list slots; the research goal is scored apart
  (recall: share of the case's goal keywords found in it; precision: share of non-empty goals that
  contain at least one of them);
- facets: the required facets the documented rule (`agent.understanding.facets.decide_facets`) gives for the
  predicted slots, against the case's expected facets (micro precision and recall).

Where a term goes (the convention every case follows; requirements 4.1.2: subject_population is the
object of study, 研究对象, "human, epilepsy patients, macaque"; context the research setting and
application background, 研究场景与应用背景, "invasive BCI, clinical presurgical mapping"):

- subject_population: who or what is studied, including people named by where they are ("nursing home
  residents", "ICU patients", "ICU nurses": the whole phrase) and the conditions they have; materials,
  devices and systems studied; and the kinds of units sampled or compared, written without a name
  ("smallholder farms", "urban catchments", "stream reaches", "primary schools" when no pupils are named):
  a kind of land or water unit an outcome or a task is in is studied when nothing else is ("streamflow
  in snowmelt-dominated catchments") and the setting beside the organisms or people studied
  ("macroinvertebrate diversity in upland streams");
- context: where, when and under what the study happens: a place named by its geography (a country,
  region or city; "Canadian cities", "German states", "Hunan Province"), the care setting or institution
  the people studied are in ("in care homes", "admitted to the ICU"), periods and seasons, and the
  interventions, exposures and comparators applied;
- output_target: what is measured as the result (an outcome read as such even when written as a task or
  a "need for X": "the need for renal replacement therapy"); task: what the study does (detect, predict,
  estimate) with its object.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from agent.language.morphology import singular
from agent.language.text import split_parenthetical, to_half_width
from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.facets import facets_for_slots

DICE = 0.5
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "in",
        "on",
        "with",
        "and",
        "or",
        "to",
        "from",
        "by",
        "using",
        "based",
        "via",
    ]
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
# any Han character, including the extension-A and compatibility blocks
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def has_chinese(text: str) -> bool:
    return HAN.search(text) is not None


@cache
def _segment(text: str) -> tuple[str, ...]:
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    return tuple(w for w in jieba.cut(text) if w.strip())


def tokens(text: str) -> frozenset[str]:
    text = to_half_width(text).casefold()
    out: set[str] = set()
    for chunk in re.findall(r"[\u4e00-\u9fff]+|[a-z0-9.+']+", re.sub(r"[-_/]", " ", text)):
        if _CJK.match(chunk):
            out.update(_segment(chunk))
        elif chunk not in _STOP:
            out.add(singular(chunk))
    return frozenset(out)


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def matches(predicted: str, spelling: str) -> bool:
    if has_chinese(predicted) or has_chinese(spelling):
        return False
    main, inner = split_parenthetical(predicted)
    for form in {predicted, main, *([inner] if inner else [])}:
        a, b = tokens(form), tokens(spelling)
        if a and (a == b or _dice(a, b) >= DICE):
            return True
    return False


def _matches_concept(predicted: str, concept: Sequence[str]) -> bool:
    return any(matches(predicted, spelling) for spelling in concept)


@dataclass
class Counts:
    predicted: int = 0
    correct: int = 0  # predicted phrases that match an expected concept
    expected: int = 0
    found: int = 0  # expected concepts that some predicted phrase matches

    def add(self, other: Counts) -> None:
        self.predicted += other.predicted
        self.correct += other.correct
        self.expected += other.expected
        self.found += other.found

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0


def is_neutral(predicted: str, neutral: Sequence[str]) -> bool:
    """Equal (same tokens, not merely similar) to one of the neutral phrases."""
    if has_chinese(predicted):
        return False
    forms = {predicted, *(part for part in split_parenthetical(predicted) if part)}
    keys = {tokens(form) for form in forms} - {frozenset()}
    return any(tokens(phrase) in keys for phrase in neutral)


def score_slot(
    predicted: Iterable[str], concepts: Sequence[Sequence[str]], neutral: Sequence[str] = ()
) -> Counts:
    predicted = [p for p in predicted if p.strip()]
    predicted = [
        p
        for p in predicted
        if not (is_neutral(p, neutral) and not any(_matches_concept(p, c) for c in concepts))
    ]
    return Counts(
        predicted=len(predicted),
        correct=sum(any(_matches_concept(p, c) for c in concepts) for p in predicted),
        expected=len(concepts),
        found=sum(any(_matches_concept(p, c) for p in predicted) for c in concepts),
    )


@dataclass
class CaseScore:
    slots: dict[str, Counts] = field(default_factory=dict)
    goal_recall: float | None = None
    goal_hit: bool | None = None
    facets: Counts = field(default_factory=Counts)
    english_terms: int = 0
    terms: int = 0


def score_case(
    slots: Slots,
    expected: dict[str, list[list[str]]],
    goal_keywords: Sequence[str],
    facets: Sequence[str],
    neutral: Sequence[str] = (),
) -> CaseScore:
    score = CaseScore()
    for name in LIST_SLOT_NAMES:
        score.slots[name] = score_slot(getattr(slots, name), expected.get(name, []), neutral)
        score.terms += len(getattr(slots, name))
        score.english_terms += sum(t.isascii() for t in getattr(slots, name))
    if goal_keywords:
        goal = tokens(slots.research_goal)
        keys = [tokens(k) for k in goal_keywords]
        hits = [bool(k & goal) or any(kw in slots.research_goal for kw in k) for k in keys]
        score.goal_recall = sum(hits) / len(hits)
        score.goal_hit = (
            bool(slots.research_goal.strip()) and any(hits) if slots.research_goal.strip() else None
        )
    predicted = {f.slot for f in facets_for_slots(slots) if f.required}
    wanted = set(facets)
    score.facets = Counts(
        predicted=len(predicted),
        correct=len(predicted & wanted),
        expected=len(wanted),
        found=len(predicted & wanted),
    )
    return score


@dataclass
class Summary:
    cases: int = 0
    slots: dict[str, Counts] = field(default_factory=lambda: {n: Counts() for n in LIST_SLOT_NAMES})
    goal_recalls: list[float] = field(default_factory=list)
    goal_hits: list[bool] = field(default_factory=list)
    facets: Counts = field(default_factory=Counts)
    english_terms: int = 0
    terms: int = 0

    def add(self, score: CaseScore) -> None:
        self.cases += 1
        for name, counts in score.slots.items():
            self.slots[name].add(counts)
        if score.goal_recall is not None:
            self.goal_recalls.append(score.goal_recall)
        if score.goal_hit is not None:
            self.goal_hits.append(score.goal_hit)
        self.facets.add(score.facets)
        self.english_terms += score.english_terms
        self.terms += score.terms

    @property
    def overall(self) -> Counts:
        total = Counts()
        for counts in self.slots.values():
            total.add(counts)
        return total

    @property
    def goal_precision(self) -> float:
        return sum(self.goal_hits) / len(self.goal_hits) if self.goal_hits else 0.0

    @property
    def goal_recall(self) -> float:
        return sum(self.goal_recalls) / len(self.goal_recalls) if self.goal_recalls else 0.0

    @property
    def english_rate(self) -> float:
        return self.english_terms / self.terms if self.terms else 1.0
