"""The mechanism frame "X通过Y调控Z" (X regulates Z through Y): which phrase is the mechanism, which the outcome.

Why a pass of its own: Chinese molecular and pharmacological studies state a mechanism in one clause, X
通过 Y (the means) and a verb of regulation before Z: "二甲双胍通过激活AMPK信号通路抑制肝细胞脂质沉积",
"miR-21通过PTEN/AKT通路调控骨髓间充质干细胞成骨分化". 通过 alone is a cue of method ("通过问卷调查"), so Y
was read as a method or an exposure with its verb inside ("激活AMPK信号通路" "activation AMPK signal
pathway"), and Z, written as the cells and their process, as who is studied whole or as an untranslatable
outcome. A searcher reads:

- Y, a signalling pathway or axis (its head 通路, 信号, 轴, 途径) or a molecule named by its symbol, is the
  mechanism measured: a feature (`signal_feature`), without the verb that says what X does to it (激活,
  抑制, 上调 ...);
- X, when it is a molecule named by its symbol (miR-21), is a feature too, as in "X在Y中的作用"; a drug
  stays what is given;
- Z, after the frame's verb, is the outcome; the cells, tissue or organism it opens with (肝细胞,
  骨髓间充质干细胞) are what is studied, as in "冬小麦产量".

Only a phrase after 通过 that names a pathway or a molecule opens the frame, so "通过问卷调查" keeps its
method.
"""

from __future__ import annotations

from dataclasses import replace

from agent.understanding import lexicon as lex
from agent.understanding.chinese_evidence import molecular_symbol, zh_people
from agent.understanding.phrase import CJK, Phrase, join_zh
from agent.understanding.slot_evidence import zh_head_slot

MEANS_WORD = "通过"
# heads of what a mechanism runs through: a signalling pathway, a signal, an axis, a route
PATHWAY_HEADS = ("通路", "信号", "轴", "途径", "信号轴")
# verbs that say what the agent does to the pathway or to the outcome (a closed class of Chinese
# molecular biology's verbs of regulation)
REGULATION_VERBS = lex.words(
    """
    激活 活化 抑制 阻断 上调 下调 调控 调节 介导 靶向 促进 增强 减弱 减轻 改善 诱导 沉默 敲低 过表达 吸附
    结合 影响 降低 增加 加重 缓解
    """
)

__all__ = ["MEANS_WORD", "PATHWAY_HEADS", "REGULATION_VERBS", "mechanism_frames"]


def mechanism_frames(phrases: list[Phrase]) -> list[Phrase]:
    """Roles of "X通过Y<verb>Z": Y the feature (its verb dropped), X a feature when a molecule's symbol, Z
    the outcome with the thing it opens with studied (see the module docstring)."""
    means = [i for i, p in enumerate(phrases) if p.after == MEANS_WORD and _mechanism(_without_verb(p.words))]
    if not means:
        return phrases
    # a symbol written before the pathway with a slash (PTEN/AKT通路) names a member of it
    while means[0] > 0 and phrases[means[0] - 1].after == MEANS_WORD and _symbol(phrases[means[0] - 1].text):
        means.insert(0, means[0] - 1)
    out = list(phrases)
    for index in means:
        words = _without_verb(out[index].words)
        out[index] = replace(out[index], text=join_zh(words), words=words, slot="signal_feature")
    first, last = means[0], means[-1]
    agent = next((k for k in range(first - 1, -1, -1) if out[k].before == MEANS_WORD), -1)
    if agent >= 0 and molecular_symbol(out[agent].text):
        out[agent].slot = "signal_feature"  # miR-21通过…: the molecule that acts is measured
    target = last + 1
    if target < len(out) and out[target].after in REGULATION_VERBS:
        out[target : target + 1] = _outcome_apart(out[target])
    return out


def _without_verb(words: list[str]) -> list[str]:
    """The words after a leading verb of regulation (激活|AMPK|信号|通路 -> AMPK|信号|通路)."""
    start = 0
    while start < len(words) - 1 and words[start] in REGULATION_VERBS:
        start += 1
    return words[start:]


def _mechanism(words: list[str]) -> bool:
    """A pathway (its head word ends the phrase) or a molecule named by its symbol."""
    text = join_zh(words)
    return bool(words) and (text.endswith(PATHWAY_HEADS) or molecular_symbol(text))


def _symbol(text: str) -> bool:
    """A gene or protein symbol in Latin letters (PTEN, AKT1): one word, capitals, no Chinese."""
    return text.isascii() and text.isalnum() and any(ch.isupper() for ch in text) and " " not in text


def _studied(text: str) -> bool:
    """Cells, tissue, organisms or people: what a phrase's head makes studied."""
    return zh_people(text) or (zh_head_slot(text) == "subject_population" and text not in lex.ZH_NOT_PEOPLE)


def _outcome_apart(phrase: Phrase) -> list[Phrase]:
    """The frame's object as the outcome; the studied thing it opens with (肝细胞|脂质沉积) apart."""
    words = phrase.words
    for size in range(len(words) - 1, 0, -1):
        thing, rest = join_zh(words[:size]), join_zh(words[size:])
        if CJK.search(rest) and _studied(thing) and not _studied(rest):
            return [
                Phrase(thing, None, words[:size], slot="subject_population", after=phrase.after),
                Phrase(rest, phrase.cue, words[size:], slot="output_target", before=phrase.before),
            ]
    if _studied(phrase.text):
        return [phrase]
    return [replace(phrase, slot="output_target")]
