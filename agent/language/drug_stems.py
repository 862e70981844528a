"""Chinese drug names by their INN stem: 阿托伐他汀 is a statin, 曲妥珠单抗 a monoclonal antibody.

Why: a Chinese drug name spells the sounds of its International Nonproprietary Name (阿托伐他汀
"atorvastatin"), so composing its characters' senses gives nonsense ("flatter rest cut down statin") and
CC-CEDICT knows only a few such names. But INNs are built by a grammar: every drug of a pharmacological
class ends in the class's stem (WHO, "The use of stems in the selection of INNs"), and the Chinese approved
names write each stem with fixed characters (-vastatin 他汀, -sartan 沙坦, -mab 单抗). Offline, that stem is
what a Chinese drug name tells reliably: the drug's class, which MeSH names ("statins" ->
Hydroxymethylglutaryl-CoA Reductase Inhibitors). The specific drug still needs the user's English, unless
it is one of the common drugs the glossary (`zh_en_glossary.tsv`) names, which is consulted first.

How: `agent/language/data/zh_inn_stems.tsv` (original work, see its header) maps stems to English class
terms. `drug_class(word)` says which class a word written as one name belongs to: the name ends in a
stem (the longest wins) after at least one sound character (two for a one-character stem such as 韦
-vir), or is the class word itself (他汀类, 他汀类药物). Where a name starts inside a sentence is decided
by `agent.language.chinese_segmentation`; this module only knows the stems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = [
    "CLASS_SUFFIX",
    "DrugClass",
    "drug_class",
    "english_drug_class",
    "min_prefix",
    "stem_ending",
    "stems",
]

_STEM_FILE = "zh_inn_stems.tsv"
# what follows a stem when the text names the class itself: 他汀类, 他汀类药物, 沙坦类药
CLASS_SUFFIX = re.compile(r"类(?:药物|药)?")


@dataclass(frozen=True)
class DrugClass:
    chinese: str  # the stem as Chinese names end in it (他汀)
    stem: str  # the INN stem (-vastatin)
    english: tuple[str, ...]  # the class in English, best first (the first one MeSH knows)


@cache
def stems() -> dict[str, DrugClass]:
    """The stem table, keyed by the Chinese stem (read once per process)."""
    source = resources.files("agent.language").joinpath("data", _STEM_FILE).read_text(encoding="utf-8")
    table: dict[str, DrugClass] = {}
    for number, line in enumerate(source.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("\t")]
        if len(fields) != 3 or not all(fields):
            raise ValueError(f"{_STEM_FILE} line {number}: expected three tab-separated columns")
        chinese, stem, english = fields
        table[chinese] = DrugClass(chinese, stem, tuple(e.strip() for e in english.split("|") if e.strip()))
    return table


def stem_ending(text: str) -> DrugClass | None:
    """The longest stem `text` ends with."""
    table = stems()
    for size in range(min(len(text), max(map(len, table))), 0, -1):
        found = table.get(text[-size:])
        if found is not None:
            return found
    return None


def min_prefix(drug: DrugClass) -> int:
    """Sound characters a name needs before its stem: a one-character stem (韦 -vir) ends too many
    ordinary words to stand after a single character."""
    return 2 if len(drug.chinese) == 1 else 1


def drug_class(word: str) -> DrugClass | None:
    """The class of `word` when it is one drug name ending in an INN stem (阿托伐他汀, 缬沙坦) or the
    class word itself (他汀类, 单抗类药物); None otherwise. Callers check dictionaries first: a name
    CC-CEDICT knows (阿莫西林 "amoxicillin") is better rendered as itself."""
    suffix = CLASS_SUFFIX.search(word)
    if suffix is not None and suffix.end() == len(word) and suffix.start() > 0:
        found = stem_ending(word[: suffix.start()])
        return found  # 他汀类, 阿托伐他汀类: the class either way
    found = stem_ending(word)
    if found is None or len(word) - len(found.chinese) < min_prefix(found):
        return None
    return found


# letters an English name needs before its stem: "april" ends in -pril and "animus" in -imus, but a
# drug's own syllables come first (ena|pril, siro|limus)
_EN_MIN_PREFIX = 3


def english_drug_class(word: str) -> DrugClass | None:
    """The class of an English word that is one drug's INN: it ends in a stem of the table (dupilumab
    -mab, apixaban -xaban, tacrolimus -imus; the longest stem wins) after at least three letters of its
    own. The same WHO grammar the Chinese names follow, read from the table's stem column; a stem of
    two words (-dronic acid) is left to MeSH."""
    lower = word.lower()
    if not lower.isalpha() or lower != word and not word[:1].isupper():
        return None
    best: DrugClass | None = None
    for drug in stems().values():
        stem = drug.stem.lstrip("-")
        if " " in stem or not lower.endswith(stem) or len(lower) - len(stem) < _EN_MIN_PREFIX:
            continue
        if best is None or len(stem) > len(best.stem.lstrip("-")):
            best = drug
    return best
