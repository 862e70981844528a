"""Inorganic names: the prefix that names the anion, written before the element in Chinese and after it in
English (氧化锆 "zirconium oxide", 氯化镉 "cadmium chloride", 硫酸铜 "copper sulfate"), and formulas
written with element symbols ("GaN", "TiO2", "MoS2").

Why a module of its own: a closed class of Chinese word formation that composition in modifier-head
order gets backwards; `agent.language.bilingual` asks `inorganic_name` at each part of a phrase. And a
formula is written in mixed case, so it reads as an acronym: "GaN" (gallium nitride) upper-cased is the
"GAN" of Giant Axonal Neuropathy; `agent.language.mesh_recognition` asks `is_chemical_formula` before it
takes a mixed-case word for an acronym MeSH writes in other capitals.
"""

from __future__ import annotations

import re
from functools import cache

from agent.language.cedict import lexicon

_ANIONS = {
    "氧化": "oxide",
    "二氧化": "dioxide",
    "三氧化": "trioxide",
    "氢氧化": "hydroxide",
    "氯化": "chloride",
    "氟化": "fluoride",
    "溴化": "bromide",
    "碘化": "iodide",
    "硫化": "sulfide",
    "氮化": "nitride",
    "碳化": "carbide",
    "硫酸": "sulfate",
    "硝酸": "nitrate",
    "碳酸": "carbonate",
    "磷酸": "phosphate",
    "乙酸": "acetate",
    "醋酸": "acetate",
}
# the symbols of the chemical elements (IUPAC), the closed class a formula is written in
_ELEMENT_SYMBOLS = frozenset(
    re.findall(
        r"[A-Z][a-z]?",
        "HHeLiBeBCNOFNeNaMgAlSiPSClArKCaScTiVCrMnFeCoNiCuZnGaGeAsSeBrKrRbSrYZrNbMoTcRuRhPdAgCdInSnSbTeIXeCs"
        "BaLaCePrNdPmSmEuGdTbDyHoErTmYbLuHfTaWReOsIrPtAuHgTlPbBiPoAtRnFrRaAcThPaUNpPuAmCmBkCfEsFmMdNoLrRf"
        "DbSgBhHsMtDsRgCnNhFlMcLvTsOg",
    )
)
_FORMULA_PART = re.compile(r"([A-Z][a-z]?)(\d*)")
_ELEMENT_SENSE = re.compile(r"^([a-z]+) \((?:chemistry|metal)\)$")


@cache
def _element(character: str) -> str | None:
    """The English name of a chemical element written by its one character (锆 "zirconium", 铁 "iron"),
    from CC-CEDICT's "(chemistry)" or "(metal)" sense; None for any other character."""
    for raw in lexicon().raw_entries(character):
        for definition in raw.partition("]")[2].strip().strip("/").split("/"):
            match = _ELEMENT_SENSE.match(definition.strip())
            if match:
                return match.group(1)
    return None


def inorganic_name(keys: list[str], start: int) -> tuple[str, int] | None:
    """An anion prefix at `start` (in one key or cut into characters: 氯|化) followed by an element's
    character: its English name and how many keys it takes; None otherwise (氧化|应激 is no salt)."""
    for size in (3, 2, 1):
        prefix = "".join(keys[start : start + size])
        end = start + size
        if prefix in _ANIONS and end < len(keys) and len(keys[end]) == 1:
            element = _element(keys[end])
            if element is not None:
                return f"{element} {_ANIONS[prefix]}", size + 1
    return None


def is_chemical_formula(word: str) -> bool:
    """Whether a mixed-case word is written as a formula of two element symbols or more, with their counts
    ("GaN", "TiO2", "MoS2", "NiFe"; not "ECoG", "IgG", "HbA1c", nor "GAN" in capitals alone)."""
    if not any(ch.islower() for ch in word):
        return False
    parts = _FORMULA_PART.findall(word)
    return (
        len(parts) >= 2
        and "".join(symbol + count for symbol, count in parts) == word
        and all(symbol in _ELEMENT_SYMBOLS for symbol, _ in parts)
    )
