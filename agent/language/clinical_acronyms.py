"""The MeSH heading a clinical acronym names when MeSH itself does not list the acronym.

MeSH lists many clinical acronyms among its entry terms (COPD, ADHD, PTSD, NAFLD), but not the most
common ones: "MI", "AF", "CKD", "OSA", "AKI" and "UC" are entry terms of no descriptor, and a review title
writes them unexpanded ("Catheter ablation versus antiarrhythmic drugs for paroxysmal AF"), so the
condition got no heading and was searched as the bare acronym. Guessing the reading from MeSH names
whose initials spell the acronym gives false readings (CBT -> Biliary Tract Neoplasms), so the reading
comes from `data/en_clinical_acronyms.tsv`, original work listing the standard abbreviations of clinical
writing that have one reading there (an acronym with two common readings, RA, PH, ED, is left out: a
wrong heading is worse than none). A plural written with "s" ("PPIs", "UTIs") reads as its singular.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

_FILE = "en_clinical_acronyms.tsv"


@cache
def _readings() -> dict[str, str]:
    """Acronym -> MeSH heading, from the data file (comments and blank lines skipped)."""
    text = resources.files("agent.language").joinpath("data", _FILE).read_text(encoding="utf-8")
    readings: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        acronym, heading = line.split("\t")
        readings[acronym.strip()] = heading.strip()
    return readings


def clinical_reading(word: str) -> str | None:
    """The MeSH heading the acronym `word` names in clinical writing, written exactly as the file gives it
    (case matters: "Af" or "af" is no acronym), else None; "PPIs" reads as "PPI"."""
    word = word.strip()
    readings = _readings()
    if word in readings:
        return readings[word]
    if len(word) > 2 and word.endswith("s") and word[:-1] in readings:
        return readings[word[:-1]]
    return None
