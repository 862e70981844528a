"""What a Chinese phrase's own words say about its role, for the passes that read sentence structure.

Why a module of its own: the phrase cutter (`chinese_phrases`) and the construction passes
(`chinese_constructions`) both ask whether a phrase names people, what its English rendering is and which
slot its words give it; keeping those questions here lets the passes live apart from the cutter
without an import cycle. `zh_english` renders a phrase only to classify it (MeSH as judge):
`agent.understanding.slot_translation` renders the slots themselves.
"""

from __future__ import annotations

from functools import cache

from agent.language.bilingual import render
from agent.language.mesh_recognition import PERSONS_TREE
from agent.language.morphology import singular
from agent.understanding import lexicon as lex
from agent.understanding.phrase import CJK, Phrase
from agent.understanding.slot_evidence import (
    en_head_slot,
    ending_trees,
    is_population,
    mesh_kind,
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
def zh_english(text: str) -> str | None:
    """The best English rendering of a Chinese phrase (MeSH as judge), for classifying it."""
    vocabulary = embedded_vocabulary()
    return render(text, vocabulary.knows if vocabulary is not None else None).best


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
