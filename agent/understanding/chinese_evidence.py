"""What a Chinese phrase's own words say about its role, for the passes that read sentence structure.

Why a module of its own: the phrase cutter (`chinese_phrases`) and the construction passes
(`chinese_constructions`) both ask whether a phrase names people, what its English rendering is and which
slot its words give it; keeping those questions here lets the passes live apart from the cutter
without an import cycle. `zh_english` renders a phrase only to classify it (MeSH as judge):
`agent.understanding.slot_translation` renders the slots themselves.
"""

from __future__ import annotations

import re
from functools import cache

from agent.language.mesh_recognition import PERSONS_TREE
from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.phrase import CJK, Phrase
from agent.understanding.slot_evidence import (
    acronym_slot,
    en_head_slot,
    ending_trees,
    is_population,
    mesh_kind,
    software_name,
    zh_english,
    zh_head_slot,
)
from agent.understanding.slot_translation import embedded_vocabulary

# head words whose slot no sentence role changes: people, recording methods and models
OWN_SLOTS = frozenset({"subject_population", "method_measurement", "method_algorithm"})
# what joins "X对Y" to its effect word: 的影响, and the questions 有何影响, 有无影响, 是否有影响
EFFECT_LINKS = frozenset({"的", "有何", "有无", "有"})


@cache
def zh_people(word: str) -> bool:
    """A Chinese word for people or organisms studied: its own head table, else its English rendering
    (大学生 -> "college students", 运动员 -> "athletes") by the English people heads or MeSH."""
    if zh_head_slot(word) == "subject_population" and word not in lex.ZH_NOT_PEOPLE:
        english = zh_english(word)
        return not english or singular(english.split()[-1].lower()) not in lex.EN_NOT_PEOPLE
    english = zh_english(word)
    if not english:
        return False
    words = english.split()
    head = singular(words[-1].lower())
    if head in lex.EN_CONDITION_HEADS or head in lex.EN_NOT_PEOPLE or head in lex.EN_GENERIC_PEOPLE:
        return False  # 病例 "case" in 病例对照研究: a design word, not who is studied
    return is_population(words) or mesh_kind(english) == "subject_population"


@cache
def one_term(chinese: str) -> bool:
    """True when a Chinese phrase renders as one term the vocabulary knows (种群|动态 "population dynamics",
    患者|满意度 "patient satisfaction"): its words name one concept, whatever a word alone would head."""
    vocabulary = embedded_vocabulary()
    english = zh_english(chinese)
    return vocabulary is not None and english is not None and vocabulary.knows(english)


# MeSH trees of the kinds a symbol names (SGLT2, FLC, OsNAC, A549): chemicals and drugs (proteins and
# transcription factors too), genes and their variants, cells
_KIND_TREES = ("D", "G05", "A11")


@cache
def names_a_kind(chinese: str) -> bool:
    """True when a Chinese noun names a kind of substance, gene or cell that a symbol before it is one of:
    its English rendering is a MeSH descriptor of chemicals, genes or cells (基因 "gene", 转录因子
    "transcription factor", 细胞 "cell"), or ends terms MeSH files as interventions (抑制剂 "inhibitor": Enzyme
    Inhibitors, Proton Pump Inhibitors ...)."""
    if any(tree.startswith(_KIND_TREES) for tree in mesh_trees(chinese)):
        return True
    vocabulary = embedded_vocabulary()
    english = zh_english(chinese)
    if vocabulary is None or not english:
        return False
    return vocabulary.head_role(english.split()[-1]) == "intervention"


@cache
def mesh_trees(chinese: str) -> tuple[str, ...]:
    """The MeSH tree numbers of the descriptor that ends the English rendering of a Chinese phrase (多糖
    "polysaccharides": D09...; 患者 "patients": M01...), () when none ends it."""
    english = zh_english(chinese) if CJK.search(chinese) else chinese
    return ending_trees(english) if english else ()


def names_persons(chinese: str) -> bool:
    """True when MeSH files the phrase's rendering under persons (患者, 家庭医生), not other organisms or
    cells (人参 "Panax", 干细胞 "stem cells"), which a sentence may give rather than study."""
    return any(tree.startswith(PERSONS_TREE) for tree in mesh_trees(chinese))


def own_slot(phrase: Phrase) -> str | None:
    """The slot a Chinese phrase's own words give it: its head word, a people word, or its English
    rendering's head word or MeSH descriptor (a condition counts as an outcome; None when they say
    nothing)."""
    if not CJK.search(phrase.text):
        return None
    slot = zh_head_slot(phrase.text)
    if slot is None and zh_people(phrase.text):
        slot = "subject_population"
    english = zh_english(phrase.text) if slot is None else None
    if english:
        slot = en_head_slot(english.split()) or mesh_kind(english)
    return "output_target" if slot == "condition" else slot


# the chemical elements' symbols: a Latin token made only of them and counts is a formula (CO2, NO2, Al2O3,
# MoS2, H1N1 aside), not the symbol of a gene or protein
_ELEMENTS = lex.words(
    """
    H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr
    Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W
    Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt
    Ds Rg Cn Nh Fl Mc Lv Ts Og
    """
)
_FORMULA_PART = re.compile(r"([A-Z][a-z]?)(\d*)")
# a gene, protein or RNA symbol: letters with a count inside or after them (EZH2, TREM2, IL-6, miR-21,
# H3K27me3, FLT3-ITD), optionally with the Chinese head of what it is (突变 mutation, 基因 gene, 表达
# expression, 蛋白 protein, 炎症小体 inflammasome)
_SYMBOL = re.compile(r"^(?P<symbol>[A-Za-z][A-Za-z\-]*\d[A-Za-z0-9\-/]*)\s*(?P<head>[\u3400-\u9fff]*)$")
_MOLECULAR_HEADS = frozenset(
    ["", "突变", "基因", "基因突变", "表达", "蛋白", "蛋白质", "炎症小体", "甲基化", "修饰"]
)
# what MeSH may file such a token under that makes it no molecule studied: a disease (COVID-19), an
# organism (SARS-CoV-2, H1N1)
_NOT_MOLECULES = frozenset(["condition", "subject_population"])


def _formula(token: str) -> bool:
    parts = _FORMULA_PART.findall(token)
    return "".join(a + b for a, b in parts) == token and all(a in _ELEMENTS for a, _ in parts)


@cache
def molecular_symbol(text: str) -> bool:
    """True when a phrase is a gene, protein or RNA named by its symbol (EZH2, TREM2, miR-21, IL-6,
    FLT3-ITD突变, NLRP3炎症小体): what a study of its role measures in those studied, a feature, where a
    sentence makes it what acts ("X在Y中的作用", "X对Y的影响"). Not a formula (CO2, Al2O3), a decimal
    (PM2.5), a recording method or model by its acronym (5G, CMIP6), software (YOLOv8), or what MeSH files
    as a disease or an organism (COVID-19, SARS-CoV-2)."""
    match = _SYMBOL.match(text.strip())
    if match is None or match.group("head") not in _MOLECULAR_HEADS:
        return False
    symbol = match.group("symbol")
    if not any(ch.isupper() for ch in symbol) or _formula(symbol.replace("-", "")):
        return False
    if acronym_slot(symbol) is not None or software_name(symbol):
        return False
    return mesh_kind(symbol) not in _NOT_MOLECULES
