"""Chinese text cut into words for the offline Chinese -> English path (jieba, re-cut by the dictionary).

Why a module of its own: composing a phrase's English (`agent.language.bilingual`), cutting sentences
into noun runs (`agent.language.chinese_sentences`) and the rules' Chinese frames (`agent.understanding`)
must read the same words, so where a word ends is decided once, here; and which words are drug or other
names written by their sounds is a question about the cut, not about English.

How:
- Segmentation is jieba's (with its part-of-speech tags), re-cut by the dictionary (`agent.language.cedict`):
  each run of Chinese content words is cut into the fewest known words, glossary terms and jieba's own cuts
  winning ties (脑机|接口 -> 脑机接口, 脑|电信号 -> 脑电|信号); unknown words fall apart into known parts or
  characters. A reader of phrases asks for `whole_words`: a noun of jieba's dictionary that the re-cut would
  break into a lone character (飞行|器 "aircraft", 阵|发|性 "paroxysmal") stays whole, so no phrase is cut
  inside it at a piece that looks like a verb (飞行 "to fly"); its English is still composed of the pieces. A Latin word written against a Chinese term belongs to it ("PM2.5暴露", "EEG信号").
- A drug name written by its sounds that ends in a WHO INN stem (阿托伐|他汀 -vastatin, 曲妥|珠单抗 -zumab)
  becomes one token (`agent.language.drug_stems`; `agent.language.bilingual` renders it as its class),
  unless the dictionary knows the drug (阿莫西林 "amoxicillin"); `drug_names` lists them for the caller's
  note. Its left edge is where the sound characters end (使用|阿托伐他汀: 使用 "use" is a word).
- Any other name written by its sounds (利|福|平, lone characters jieba reads as a name) has no usable
  rendering: `sound_spans` finds it, and the caller asks the user for the English name.
- `is_place_name` tells a place jieba reads as one name (长江流域) from a place noun that modifies terms
  (城市 "urban").
- A glossary term of three or more characters that opens with or holds a function-word character (下尿路症状
  "lower urinary tract symptoms", the drug 他达拉非 "tadalafil", the formula 补阳还五汤 "Buyang Huanwu
  decoction") is one word, though jieba parts 下 "under", 他 "he" or 还 "still" from the rest
  (`_glossary_openings`); CC-CEDICT's phrases do not join so.
"""

from __future__ import annotations

import itertools
import logging
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from agent.language import abbreviations
from agent.language.cedict import (
    CJK_CHARACTER,
    clean_definition,
    dictionary_senses,
    has_chinese,
    lexicon,
    to_simplified,
)
from agent.language.drug_stems import CLASS_SUFFIX, DrugClass, drug_class, min_prefix, stem_ending, stems
from agent.language.morphology import is_acronym
from agent.language.word_formation import ADJECTIVE_SUFFIXES

__all__ = [
    "FUNCTION_WORDS",
    "GENERIC_PLACES",
    "Token",
    "dictionary_cut",
    "drug_names",
    "half_width",
    "is_place_name",
    "segment",
    "sound_spans",
    "tokenize",
    "word_class",
    "written_by_sound",
]

_MAX_WORD = 10  # longest headword tried by the dictionary re-cut (受试者工作特征曲线 has 9)


def word_class(text: str) -> frozenset[str]:
    """A closed class of Chinese words, written space-separated over lines (function words, place nouns)."""
    return frozenset(text.split())


# Words that carry grammar, not content: never part of a re-cut term, dropped from queries (jieba tags most
# of them u, p, c, r, y, e, o, q, f, d or m; this list also catches light verbs, method cues and question
# words it tags otherwise).
FUNCTION_WORDS = word_class(
    """的 地 得 了 着 过 是 有 没有 在 和 与 及 以及 或 或者 并 并且 而 且 也 都 还 又 很 对 对于 关于 有关
    于 为 以 从 到 由 被 把 将 给 向 用 中 上 下 内 外 之 其 这 那 这些 那些 这个 那个 此 该 各 每 哪 哪些 哪个
    什么 怎样 怎么 如何 为什么 为何 多少 几 吗 呢 吧 啊 能 能否 是否 可以 可 会 应 应该 需要 请 一下 一些 等 等等
    我 我们 你 你们 他 她 它 他们 她们 它们 进行 开展 实现 所 如果 因为 所以 但 但是 然而 目前 已经 主要
    之间 方面 情况 问题 知道 不知道 不清楚 不确定 采用 使用 利用 通过 基于 针对 用于 旨在 探讨 探究 本文"""
)

_GRAMMAR_TAGS = ("u", "y", "r", "p", "c")  # particles, modal words, pronouns, prepositions, conjunctions


def half_width(text: str) -> str:
    """Full-width letters, digits and punctuation as ASCII, one character for one (spans map back): the
    form of a text the dictionary and jieba are asked about."""
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
    """One word of a Chinese or mixed text, as `tokenize` cuts it."""

    text: str  # as written
    key: str  # simplified, half-width: the dictionary key
    tag: str  # jieba part of speech ("n", "v", "eng", ...); "n" for merged dictionary words


def tokenize(text: str, whole_words: bool = False) -> list[Token]:
    """jieba's words with their tags, re-cut by the dictionary (脑机|接口 -> 脑机接口, unknown words split),
    Latin words kept whole ("PM2.5") and drug names written by sound joined (阿托伐他汀, tagged "nz").
    `whole_words`: a word of jieba's dictionary that the dictionary re-cut would break into a lone character
    stays whole (see `_fragments_a_word`)."""
    normal = half_width(to_simplified(text))
    raw: list[Token] = []
    start = 0
    for pair in _jieba_posseg().cut(normal):
        word, tag = pair.word, pair.flag
        raw.append(Token(text[start : start + len(word)], word, tag))
        start += len(word)
    return _symptom_heads(_procedure_times(_join_drug_names(_refine(_join_latin(raw, normal), whole_words))))


def _symptom_heads(tokens: list[Token]) -> list[Token]:
    """抑郁症|状 -> 抑郁|症状: jieba takes 症 into a disease word before a lone 状 ("accusation"), where 症状
    "symptoms" is the head (抑郁症状 "depressive symptoms", 焦虑症状); the word before keeps its own sense."""
    out: list[Token] = []
    for token in tokens:
        previous = out[-1] if out else None
        if (
            token.key == "状"
            and previous is not None
            and len(previous.key) > 2
            and previous.key.endswith("症")
        ):
            out[-1] = Token(previous.text[:-1], previous.key[:-1], previous.tag)
            out.append(Token(previous.text[-1] + token.text, "症状", "n"))
            continue
        out.append(token)
    return out


# 术后 "after surgery", 术前 "before surgery", 术中 "during surgery": after a verb of surgery (切除, 置换,
# 移植) the 术 is the verb's suffix that makes it the procedure (切除术 "resection"), and only 后/前/中 say when
_OPERATION_TIMES = frozenset({"术后", "术前", "术中"})
# verbs of effect or change, which say what something does to what follows (是否影响|术后|死亡率 "affect
# postoperative mortality"), and the modal words that mark the verb after them as the predicate: such a
# verb names no procedure, so 术后 stays whole after it (影响术|后 had been read "influence technique")
_PREDICATING_VERBS = word_class(
    "影响 导致 引起 改变 改善 降低 提高 增加 减少 减轻 缓解 预测 促进 加重 增强 减弱"
)
_MODAL_WORDS = word_class("是否 能否 可否 会否 如何 能 会 可 将 可能 能够 可以")


def _procedure_times(tokens: list[Token]) -> list[Token]:
    """甲状腺全切除|术后 -> 甲状腺全切除术|后: a time word 术后/术前/术中 after a verb is re-cut so that 术 ends the
    procedure the verb names (the phrase keeps the operation whole: "thyroidectomy", not "thyroid all" +
    "postoperative"); after a noun (患者|术后|疼痛 "patients' postoperative pain") it stays one word."""
    out: list[Token] = []
    for token in tokens:
        previous = out[-1] if out else None
        before = out[-2].key if len(out) > 1 else ""
        if (
            token.key in _OPERATION_TIMES
            and previous is not None
            and len(previous.key) > 1
            and has_chinese(previous.key)
            and previous.key not in FUNCTION_WORDS
            and previous.key not in _PREDICATING_VERBS
            and before not in _MODAL_WORDS
            and (
                previous.tag.startswith("v")
                or _has_verb_sense(previous.key)
                or _ends_in_procedure_verb(previous.key)
            )
        ):
            out[-1] = Token(previous.text + token.text[0], previous.key + token.key[0], "n")
            out.append(Token(token.text[1:], token.key[1:], "f"))
            continue
        if token.key in _OPERATION_TIMES and previous is not None and _procedure_acronym(previous.key):
            # the operation keeps its Latin name alone (searched as "TIP", not "TIP technique")
            out.append(Token(token.text[1:], token.key[1:], "f"))
            continue
        out.append(token)
    return out


def _procedure_acronym(word: str) -> bool:
    """TIP|术后, PCI|术后, TACE|术前: a Latin acronym written against 术后/术前/术中 is the name of the operation
    (术 its suffix, as in PCI术 "PCI"), so it is cut TIP|后 as 肝移植术|后 is, the suffix
    dropped: the operation is a time, and what follows is observed after it (not "TIP postoperative urinary
    fistula")."""
    return word.isascii() and len(word) > 1 and is_acronym(word)


def _ends_in_procedure_verb(word: str) -> bool:
    """肝移植 "liver transplant", 髋关节置换 "hip replacement": a noun jieba keeps whole that ends in a verb of two
    characters (移植, 置换) names the procedure that verb does to the organ before it, so 术 after it is the
    procedure's suffix as well (肝移植术|后 "after liver transplantation", not 肝移植|术后新发糖尿病)."""
    tail = word[-2:]
    return len(word) > 2 and has_chinese(tail) and tail not in _PREDICATING_VERBS and _has_verb_sense(tail)


@lru_cache(maxsize=4096)
def _has_verb_sense(word: str) -> bool:
    """True when one of CC-CEDICT's plain senses of `word` is a verb (置换 "to permute; to replace")."""
    for raw in lexicon().raw_entries(word):
        for definition in raw.partition("]")[2].strip().strip("/").split("/"):
            if any(sense.verb for sense in clean_definition(definition) if not sense.marked):
                return True
    return False


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
    for token in tokenize(text):
        if token.tag == "nz" and not lexicon().knows(token.key):
            cls = drug_class(token.key)
            if cls is not None:
                found.append((token.text, cls))
    return found


def _refine(tokens: list[Token], whole_words: bool = False) -> list[Token]:
    """Each run of Chinese content tokens re-cut by the dictionary (see `dictionary_cut`), jieba as the
    hint."""
    out: list[Token] = []
    group: list[Token] = []

    def flush() -> None:
        if group:
            out.extend(_recut(group, whole_words))
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
        and after.key not in FUNCTION_WORDS
        and not after.tag.startswith(_GRAMMAR_TAGS)
        and lex.knows(token.key + after.key)
    } | _glossary_openings(tokens)
    for index, token in enumerate(tokens):
        if index in joined:
            group.append(token)
            continue
        if (
            has_chinese(token.key)
            and not token.tag.startswith(_GRAMMAR_TAGS)
            and token.key not in FUNCTION_WORDS
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


def _glossary_openings(tokens: list[Token]) -> set[int]:
    """Indexes of the tokens of a glossary term of three or more characters, made of whole tokens, that a
    one-character function word (or pronoun, localizer) opens or sits inside: 下|尿路|症状 is 下尿路症状
    "lower urinary tract symptoms", 他|达|拉|非 the drug 他达拉非 "tadalafil" and 补|阳|还|五|汤 the formula
    补阳还五汤 "Buyang Huanwu decoction", not "under", "he" or "still" and the rest. Only glossary terms
    (scientific vocabulary) join so: CC-CEDICT's many phrases that open with such a character (在一起, 对不起)
    would swallow the function word of a sentence."""
    glossary = lexicon().glossary
    opening: set[int] = set()

    def breaks(token: Token) -> bool:
        return has_chinese(token.key) and (token.key in FUNCTION_WORDS or token.tag.startswith(_GRAMMAR_TAGS))

    for index, token in enumerate(tokens):
        if not has_chinese(token.key) or (len(token.key) != 1 and breaks(token)):
            continue
        word = token.key
        for end, after in enumerate(tokens[index + 1 : index + _MAX_WORD], start=index + 1):
            if (
                not has_chinese(after.key)
                or after.key in FUNCTION_WORDS
                or after.tag.startswith(_GRAMMAR_TAGS)
                or len(word) + len(after.key) > _MAX_WORD
            ) and not (len(after.key) == 1 and has_chinese(after.key)):
                break
            word += after.key
            if len(word) >= 3 and word in glossary:
                span = range(index, end + 1)
                if any(breaks(tokens[i]) for i in span):
                    opening.update(span)
                break
    return opening


def _recut(group: list[Token], whole_words: bool = False) -> list[Token]:
    key = "".join(t.key for t in group)
    text = "".join(t.text for t in group)
    spans: dict[tuple[int, int], str] = {}
    kept: set[tuple[int, int]] = set()
    position = 0
    for token in group:
        span = (position, position + len(token.key))
        spans[span] = token.tag
        if whole_words and token.tag in _NOUN_TAGS and _fragments_a_word(token.key):
            kept.add(span)
        elif abbreviations.expansion(token.key) is not None:
            kept.add(span)  # 心衰 (心力衰竭): one word the dictionary lacks, not 心 "heart" + 衰 "decay"
        position += len(token.key)
    kept |= _abbreviated_runs(group)
    out = []
    for start, end in dictionary_cut(key, frozenset(spans), also_known=frozenset(kept)):
        tag = spans.get((start, end))
        if tag is None:
            inside = [t for (a, b), t in spans.items() if a <= start and end <= b]
            tag = inside[0] if inside else "n"
        out.append(Token(text[start:end], key[start:end], tag))
    return out


def _abbreviated_runs(group: list[Token]) -> set[tuple[int, int]]:
    """Spans of two or three lone characters in a row that abbreviate a dictionary word (慢|阻|肺: 慢性阻塞性肺病),
    which jieba left apart."""
    spans: set[tuple[int, int]] = set()
    starts = list(itertools.accumulate((len(t.key) for t in group), initial=0))
    for first in range(len(group)):
        for size in (3, 2):
            run = group[first : first + size]
            lone = len(run) == size and all(len(t.key) == 1 for t in run)
            if lone and abbreviations.expansion("".join(t.key for t in run)) is not None:
                spans.add((starts[first], starts[first] + size))
                break
    return spans


# jieba's tags of a common noun (飞行器, 阵发性): a numeral with its classifier (一项), a place (水中,
# 大中城市) or a verb jieba holds whole (并用) is two words of the text, that the re-cut rightly parts
_NOUN_TAGS = frozenset({"n", "nz"})


@lru_cache(maxsize=4096)
def _fragments_a_word(word: str) -> bool:
    """True for a word of jieba's own dictionary (not one its model guessed) that CC-CEDICT and the
    glossary lack and that the dictionary would cut into pieces with a lone character among them
    (飞行|器, 阵|发|性, 中|肠): such a piece is no word of the text, and a reader that takes 飞行 "to fly"
    for a verb cuts the phrase inside the word. A word the dictionary composes of whole words
    (防护|系统) is left to the re-cut."""
    if len(word) < 2 or not has_chinese(word) or lexicon().knows(word):
        return False
    if not _jieba_posseg().dt.tokenizer.FREQ.get(word):
        return False
    return any(end - start == 1 for start, end in dictionary_cut(word, frozenset(), whole=False))


def dictionary_cut(
    chars: str,
    hints: frozenset[tuple[int, int]],
    whole: bool = True,
    also_known: frozenset[tuple[int, int]] = frozenset(),
) -> list[tuple[int, int]]:
    """The cut of `chars` into known words (or single characters) with the fewest words; among equals,
    the most glossary words (scientific terms), the fewest lone characters before the end, then the most
    words jieba also found (`hints`).
    `whole=False` leaves out the whole string as one word (to compose a dictionary word from its parts);
    `also_known` are spans taken as known words too."""
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
            if end - start > 1 and not lex.knows(word) and (start, end) not in also_known:
                continue
            if not whole and (start, end) == (0, size):
                continue
            score = (
                words + 1,
                plain + (word not in lex.glossary),
                # a lone character is more often a suffix (早产|儿, 脑电|信号) than a prefix (早|产儿); an
                # adjective suffix is one wherever it stands (缺血|性|脑卒中, not 缺|血性 "brave")
                leading + (end - start == 1 and end < size and word not in ADJECTIVE_SUFFIXES),
                unhinted + ((start, end) not in hints),
            )
            known = best[end]
            if known is None or score < known[0]:
                best[end] = (score, [*cut, (start, end)])
    final = best[size]
    return final[1] if final else [(i, i + 1) for i in range(size)]


# place nouns jieba tags as place names that also modify a term as an adjective (城市热岛 "urban heat
# island", 农村老年人 "rural older adults", 中国成年人 "Chinese adults"): no place of its own
GENERIC_PLACES = word_class(
    "城市 农村 城乡 乡村 城镇 国内 国外 海外 全球 全国 世界 各地 当地 本地 沿海 内陆 山区 中国 我国"
)


@lru_cache(maxsize=4096)
def is_place_name(word: str) -> bool:
    """True for a word jieba reads as one place name (tag ns: 长江流域, 青藏高原, 上海, 广东省) that the
    dictionary writes as a name, if it knows the word (jieba also tags 深度 "depth" and 海马 "hippocampus"
    so), and that is not a generic place noun modifying terms (城市 "urban", 农村 "rural")."""
    key = half_width(to_simplified(word))
    if not has_chinese(key) or key in GENERIC_PLACES:
        return False
    pairs = list(_jieba_posseg().cut(key))
    if len(pairs) != 1 or pairs[0].flag != "ns":
        return False
    senses = dictionary_senses(key)
    return not senses or senses[0].text[:1].isupper()


def segment(text: str, keep_space: bool = False, whole_words: bool = False) -> list[str]:
    """The words of `text` (jieba, refined by the dictionary), as written; whitespace is dropped, or with
    `keep_space` kept as one " " per run (it can separate an English and a Chinese word); `whole_words`
    as `tokenize`'s."""
    out: list[str] = []
    for token in tokenize(text, whole_words):
        if token.text.strip():
            out.append(token.text)
        elif keep_space and out and out[-1] != " ":
            out.append(" ")
    return out


_SOUND_RUN = 3  # lone characters in a row that no dictionary word holds


def sound_spans(chinese: str) -> list[tuple[int, int]]:
    """Where a phrase holds three or more lone characters in a row that are neither dictionary words
    together nor glossary morphemes, jieba reading some of them as a name (右|美|托|咪|定
    "dexmedetomidine", 凡|纳|滨 in a species name, 利|福|平 "rifampicin"): a drug, person or species name
    written by its sounds, which composing the characters' senses turns into nonsense ("right beautiful
    rest ..."). Character spans of `chinese`; such a name has no usable rendering here."""
    key = half_width(to_simplified(chinese))
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

    for token in tokenize(key):
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
