"""Chinese slot phrases in English: the same offline path for the rules and for an LLM's leftovers.

Without an LLM the rules extract Chinese phrases as written (`癫痫患者`, `脑机接口`); the databases index
English, so every slot phrase that holds Chinese is rendered into English search phrases by the offline
Chinese -> English modules (`agent.language.chinese_sentences` and `bilingual`: jieba, CC-CEDICT and a
glossary of scientific morphemes), with MeSH as the judge among candidate renderings (an English phrase
that is a MeSH heading or entry term is preferred). An LLM that leaves Chinese in its slots goes through
the same step. The Chinese as written is kept beside each English phrase (`Understanding.originals`), so
the review can show both and the user can correct a rendering.
"""

from __future__ import annotations

import re

from agent.language.bilingual import Attested, Rendering, render
from agent.language.cedict import dictionary_senses, has_chinese, lexicon, to_simplified
from agent.language.chinese_segmentation import (
    GENERIC_PLACES,
    drug_names,
    half_width,
    is_place_name,
    segment,
    sound_spans,
)
from agent.language.chinese_sentences import render_phrase
from agent.language.mesh_recognition import MeshVocabulary, vocabulary_for
from agent.language.morphology import is_acronym
from agent.language.term_company import company_of
from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding import lexicon as lex
from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH


def embedded_vocabulary() -> MeshVocabulary | None:
    """The MeSH vocabulary ScholarMap ships (None if the table is missing from this installation)."""
    return vocabulary_for(MeshFile(EMBEDDED_MESH)) if EMBEDDED_MESH.is_file() else None


def translate_slots(
    slots: Slots, vocabulary: MeshVocabulary | None
) -> tuple[Slots, dict[str, str], list[str]]:
    """Slots with their Chinese phrases in English, the English -> Chinese originals, and notes."""
    # MeSH judges whole phrases and, inside a compound, which senses it writes with the other words
    attested = company_of(vocabulary) if vocabulary is not None else None
    data = slots.model_dump()
    originals: dict[str, str] = {}
    untranslated: list[str] = []
    by_sound: list[str] = []
    guessed: list[str] = []  # compositions of characters' guessed senses, left out (see `_guessed`)
    by_class: dict[str, str] = {}  # a drug name written by sound -> the class searched for it
    for name in LIST_SLOT_NAMES:
        phrases: list[str] = []
        for phrase in data[name]:
            if not has_chinese(phrase):
                phrases.append(phrase)
                continue
            phrase, acronym = _gloss_apart(phrase)
            if acronym and not is_acronym(acronym):
                # "长期服用哌甲酯（methylphenidate）": the writer's English names the phrase's last word
                glossed = _glossed_word(phrase)
                originals.setdefault(acronym, glossed)
                phrases.append(acronym)
                phrase, acronym = phrase[: len(phrase) - len(glossed)], None
                if not has_chinese(phrase):
                    continue
            phrase = _without_variety_modifier(_without_place_head(_without_status_head(phrase)))
            # an aspect noun read as an outcome ("X及其机制", "疗效及安全性") is a term of its own there
            aspect = name == "output_target" and lex.zh_aspect_word(phrase)
            if _names_no_concept(phrase) and not aspect:
                continue  # 因果关系 "causal relationship", 影响因素: what the study asks, no concept
            sounds = sound_spans(phrase)
            for written, drug in drug_names(phrase):
                if render(written, attested).how == "drug class":  # not a drug MeSH names (clopidogrel)
                    by_class.setdefault(written, drug.english[0])
            cursor = 0
            first = len(phrases)
            for rendering in render_phrase(phrase, attested):
                start = phrase.find(rendering.chinese, cursor)
                start = cursor if start < 0 else start
                cursor = start + len(rendering.chinese)
                if any(a < cursor and start < b for a, b in sounds):
                    # a name written by sound (a drug, a species): its characters' senses are nonsense in
                    # a query, so the user is asked for the English name instead
                    by_sound += [phrase[a:b] for a, b in sounds if a < cursor and start < b]
                elif _names_no_concept(rendering.chinese) and not aspect:
                    continue  # 影响|尚不清楚: a piece of a longer phrase that is a generic word
                elif _guessed(rendering, attested):
                    guessed.append(rendering.chinese)
                elif rendering.english:
                    english = _no_repeats(_searched(rendering))
                    if (_generic(english) and not aspect) or _design(english):
                        continue  # 效果 "result", 变化 "change" inside a longer phrase: no concept
                    originals.setdefault(english, rendering.chinese)
                    phrases.append(english)
                else:
                    untranslated.append(rendering.chinese)
                    phrases.append(rendering.chinese)
            if acronym:
                # the acronym glosses the whole term: beside its last (head) rendering, or alone
                if len(phrases) > first:
                    phrases[-1] = f"{phrases[-1]} ({acronym})"
                else:
                    phrases.append(acronym)
        data[name] = phrases
    notes = []
    if originals:
        shown = ", ".join(f"{zh} -> {en}" for en, zh in list(originals.items())[:8])
        notes.append(f"Chinese terms were rendered in English offline ({shown}); correct them in the review")
    if by_sound:
        notes.append(
            "names written by sound were left out of the search ("
            + ", ".join(dict.fromkeys(by_sound))
            + "); give their English names in the review"
        )
    if guessed:
        notes.append(
            "terms whose English could only be guessed character by character were left out of the search ("
            + ", ".join(dict.fromkeys(guessed))
            + "); give their English terms in the review"
        )
    if by_class:
        notes.append(
            "drug names written by sound were searched as their class ("
            + ", ".join(f"{zh} -> {en}" for zh, en in by_class.items())
            + "); give the drug's English name in the review to search it alone"
        )
    if untranslated:
        notes.append("no English found for " + ", ".join(untranslated) + "; they are searched as written")
    return Slots.model_validate(data), originals, notes


_GLOSS = re.compile(
    r"^(?P<term>.*[\u3400-\u9fff])\s*\((?P<acronym>[A-Za-z][A-Za-z0-9+\-]*(?: [A-Za-z][A-Za-z0-9+\-]*)*)\)$"
)


def _gloss_apart(phrase: str) -> tuple[str, str | None]:
    """A Chinese term and the acronym or English name the writer glossed it with ("心力衰竭患者 (HFpEF)" ->
    the term, "HFpEF")."""
    match = _GLOSS.match(phrase.strip())
    return (match.group("term"), match.group("acronym")) if match else (phrase, None)


def _glossed_word(phrase: str) -> str:
    """The end of a phrase an English name written right after it glosses: its last word, or the run of
    lone characters the segmenter could not join (哌|甲|酯 of 长期服用哌甲酯 is one name it does not know)."""
    tokens = segment(phrase)
    end = len(tokens)
    start = end - 1
    while start > 0 and len(tokens[start]) == 1 and len(tokens[start - 1]) == 1:
        start -= 1
    return "".join(tokens[start:end])


# characters rendered by their own dictionary senses that make a composition a guess, not a term
_GUESS_LIMIT = 3


def _guessed(rendering: Rendering, attested: Attested | None) -> bool:
    """A composition with `_GUESS_LIMIT` or more parts that are lone characters outside the glossary, read
    by the dictionary senses of each character, or one whose every character is so read (洁|治 "clean
    government"), and that MeSH does not attest as a whole: the characters of a term the dictionary lacks
    (阵|发|性 "disposition of troops hair", 磺|胺|恶|唑 "sulfanilamide II vicious azole", 取|石|术 "take one
    hundred liters technique") give words no researcher writes."""
    if rendering.how != "composed" or not rendering.english:
        return False
    if rendering.guesses < _GUESS_LIMIT and not _all_characters_guessed(rendering):
        return False
    return attested is None or not attested(rendering.english[0])


def _all_characters_guessed(rendering: Rendering) -> bool:
    """A word the dictionary lacks whose every character is read by its own senses, however short: no
    part of it is a word anyone wrote (洁|治 "clean government", 刮|治 "scrape government")."""
    characters = sum(1 for character in rendering.chinese if has_chinese(character))
    return characters >= 2 and rendering.guesses >= characters


def _searched(rendering: Rendering) -> str:
    """The English searched for a rendering: for a glossary word the glossary's first term, which is the
    one a researcher writes (依从性 "adherence", 表面 "surface"), though the judge (MeSH) may rank another of
    its renderings first ("compliance", "face") for the roles the rules read from it."""
    if rendering.how == "glossary":
        entry = lexicon().glossary.get(half_width(to_simplified(rendering.chinese.strip())))
        if entry is not None and entry.english:
            return entry.english[0]
    return rendering.english[0]


def _names_no_concept(chinese: str) -> bool:
    """A Chinese phrase, or a piece a longer phrase is rendered in, that is only a word of what the study
    asks (影响, 因果关系, 影响因素) or a generic research word (方法, 数据, 变化): the same words a whole slot
    phrase is dropped for (`rules`), so a piece cut from a longer phrase (影响|尚不清楚) is dropped too; and
    a compound of such words only (发生|风险 "risk of occurrence")."""
    if _generic_word(chinese):
        return True
    words = segment(chinese)
    return len(words) > 1 and all(_generic_word(word) or _generic_first_sense(word) for word in words)


def _generic_word(chinese: str) -> bool:
    return chinese in lex.ZH_RELATION_WORDS or chinese in lex.ZH_FACTOR_WORDS or chinese in lex.ZH_GENERIC


def _generic_first_sense(chinese: str) -> bool:
    """A Chinese word whose first dictionary sense is a generic research word (风险 "risk", 结局 "outcome")."""
    senses = dictionary_senses(chinese)
    return bool(senses) and _generic(senses[0].text)


# heads that only say "the state of", "the course of", "the regularities of" or "the effect of" what precedes
# them (职业倦怠现状 "the present state of burnout", 城市化进程 "the course of urbanization", 恢复过程 "the
# process of recovery", 烟气蔓延规律 "the patterns of smoke spread", 营养不良状况 "the state of malnutrition",
# 护理干预效果 "the effect of a nursing intervention"); not 特征 or 机制, which head terms of their own
# ("facial expression features", "attention mechanism"), nor 情况 (流行情况 is "prevalence", not 流行 "popular")
_STATUS_HEADS = ("现状", "现况", "概况", "进程", "过程", "规律", "格局", "状况", "效果")


def _without_status_head(phrase: str) -> str:
    """职业倦怠现状 -> 职业倦怠, 城市化进程 -> 城市化, 营养不良状况 -> 营养不良: the concept is what the state,
    the course or the effect is of (a searcher writes "burnout", "urbanization", "malnutrition")."""
    for head in _STATUS_HEADS:
        if phrase.endswith(head) and has_chinese(phrase[: -len(head)]) and len(phrase) > len(head) + 1:
            return phrase[: -len(head)]
    return phrase


# modifiers that only say the study compares several kinds of what follows (不同放养密度 "different stocking
# densities", 各种材料): the concept searched is the head, as an English query writes it
_VARIETY_MODIFIERS = ("不同", "各种", "各类", "多种")


def _without_variety_modifier(phrase: str) -> str:
    """不同放养密度 -> 放养密度: "different", "various" before a concept name no concept of their own."""
    for modifier in _VARIETY_MODIFIERS:
        rest = phrase[len(modifier) :]
        if phrase.startswith(modifier) and len(rest) > 1 and has_chinese(rest):
            return rest
    return phrase


# heads that only say "the area of" the place before them (华南地区 "South China", 农村地区 "rural"; CC-CEDICT
# renders 地区 first as "local")
_PLACE_HEADS = ("地区", "区域", "一带")


def _without_place_head(phrase: str) -> str:
    """华南地区 -> 华南: a place or a place noun (农村, 山区) followed by a word for its area is that place."""
    for head in _PLACE_HEADS:
        rest = phrase[: -len(head)]
        if phrase.endswith(head) and (rest in GENERIC_PLACES or (has_chinese(rest) and is_place_name(rest))):
            return rest
    return phrase


# one-word renderings of Chinese words that only say how something is looked at (价值 "value", 组成
# "form", 考虑 "consideration", 标准 "standard") or what is done with it (统计 "statistics", 评估
# "assessment", 检查 "inspection"), or that only qualify (所需 "necessary", 补充 "additional", 主导
# "leading", 成绩 "achievement", 品质 "character"): a word such as these alone names no concept
_VAGUE_ALONE = lex.words(
    """value values form forms local element elements consideration standard standards sample samples
    subjects improvement composition content degree extent aspect aspects feature features characteristic
    characteristics basis process course statistics achievement character answer necessary additional
    leading concentrated assessment evaluation inspection service timing"""
)


# words of a study's design as a Chinese description writes it (回顾性 retrospective, 准实验 quasi-experiment,
# 随机对照试验 randomised controlled trial): the kind of study, no concept to search (issue 16, item 1)
_DESIGN_WORDS = lex.words(
    """retrospective prospective randomized randomised controlled control cohort longitudinal
    cross-sectional quasi-experiment quasi-experimental experimental case-control multicenter
    multi-center single-center double-blind blind placebo-controlled empirical"""
)


def _design(english: str) -> bool:
    """A rendering that only names the kind of study ("retrospective", "randomized controlled trial")."""
    words = english.lower().split()
    return any(w in _DESIGN_WORDS for w in words) and all(
        w in _DESIGN_WORDS or w in lex.STUDY_KIND_WORDS or w in lex.STUDY_DESIGN_WORDS or w in lex.EN_FUNCTION
        for w in words
    )


def _generic(english: str) -> bool:
    """A rendering made only of generic research words ("result", "method", "the change"), or one vague
    word alone ("value")."""
    words = english.lower().split()
    if len(words) == 1 and words[0] in _VAGUE_ALONE:
        return True
    return all(
        w in lex.GENERIC_WORDS or w in lex.EN_FUNCTION or w in lex.EN_GENERIC_RENDERINGS for w in words
    )


def _no_repeats(phrase: str) -> str:
    """ "urban urban heat island" -> "urban heat island": a word the composition said twice in a row."""
    words = phrase.split()
    kept = [w for i, w in enumerate(words) if i == 0 or w.casefold() != words[i - 1].casefold()]
    return " ".join(kept)
