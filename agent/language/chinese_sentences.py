"""Chinese and mixed sentences in English: content phrases rendered, function words dropped (no LLM).

Why a module of its own: a slot phrase, a description or a question is more than one noun phrase; which
runs of its words are phrases to render (`agent.language.bilingual`) and which words are grammar is a
judgment about the sentence, the same for the understanding step (`render_phrase`, `english_phrases`) and
for question answering (`to_english`, issue 18).

How: the words of `agent.language.chinese_segmentation` are cut into noun runs at function words,
punctuation, predicates and people words (儿童|哮喘 -> "children", "asthma"); a verb closing a noun run is its
nominalised head (语音|解码), a verb-first word after a subject of two words is the predicate. Function
words are dropped, English is kept as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from agent.language.bilingual import (
    NUMBER,
    NUMBER_CLASSIFIERS,
    PHRASE_PARTICLES,
    Attested,
    Rendering,
    names_people,
    render,
)
from agent.language.cedict import clean_definition, dictionary_senses, has_chinese, lexicon
from agent.language.chinese_segmentation import FUNCTION_WORDS, Token, tokenize, word_class
from agent.language.word_formation import SILENT_HEADS

__all__ = ["english_phrases", "is_verb", "render_phrase", "to_english"]

_FUNCTION_TAGS = ("u", "p", "c", "r", "y", "e", "o", "q", "f", "d", "m", "x", "w", "h", "k", "t")

_ASPECT_PARTICLES = frozenset("了着过")

_NOMINAL_TAGS = ("n", "b", "j", "l", "i", "g", "z", "a", "s", "h")  # h: a prefix (非) the glossary knows

_CJK_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff00-\uffef]")
# a Latin word as jieba leaves it, Greek letters included (α波, β-淀粉样蛋白)
_LATIN_WORD = re.compile(r"^[A-Za-z0-9\u0391-\u03c9][A-Za-z0-9\u0391-\u03c9.+\-]*$")


def _is_function(token: Token) -> bool:
    if token.key in FUNCTION_WORDS:
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
_DEICTIC_TIME = word_class(
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


# verbs of using, which are the noun "use" between a thing used and a measure of its use (手机|使用|时长
# "mobile phone use duration", 抗菌药物|使用|强度 "antibacterial drug use intensity")
_USE_VERBS = frozenset({"使用", "利用"})
_USE_MEASURES = frozenset({"时长", "时间", "频率", "强度", "率", "量", "行为", "模式", "习惯", "水平"})


def nominal_use(word: str, following: str | None) -> bool:
    """True when a verb of using is the noun "use" before a measure of use (使用|时长); the caller
    checks that a thing used stands before it."""
    return word in _USE_VERBS and following in _USE_MEASURES


def _chunks(text: str) -> Iterator[tuple[str, list[Token]]]:
    """("phrase", nominal Chinese run) / ("word", one other Chinese content word) / ("text", anything else)."""
    tokens = tokenize(text)
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
                or (following.key in NUMBER_CLASSIFIERS and bool(NUMBER.match(token.key)))
            )
            if _LATIN_WORD.match(token.key) and (run or before_term):
                run.append(token)
                continue
            yield from flush()
            yield "text", [token]
            continue
        numbered = (
            bool(NUMBER.match(token.key)) and following is not None and following.key in NUMBER_CLASSIFIERS
        )
        used = bool(run) and nominal_use(token.key, following.key if following else None)
        if (
            _is_function(token)
            and not numbered
            and not used
            and not (run and token.key in NUMBER_CLASSIFIERS and NUMBER.match(run[-1].key))
        ):
            yield from flush()
            continue
        nominal = (
            _is_nominal(token)
            or numbered
            or (token.key in NUMBER_CLASSIFIERS and run and NUMBER.match(run[-1].key))
            or used
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
            if run and names_people(run[-1].key) and not names_people(token.key):
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
    tokens = [t for t in tokenize(text) if t.key.strip()]
    numbered = {i + 1 for i, t in enumerate(tokens[:-1]) if NUMBER.match(t.key)}  # 2|型: "type 2"
    one_phrase = bool(tokens) and all(
        t.key in PHRASE_PARTICLES
        or not has_chinese(t.key)
        or not _is_function(t)
        or (i in numbered and t.key in NUMBER_CLASSIFIERS)
        or (i > 0 and nominal_use(t.key, tokens[i + 1].key if i + 1 < len(tokens) else None))
        # 妊娠|期|糖尿病: a bound morpheme of a period (`SILENT_HEADS`) after a word closes that word
        or (i > 0 and t.key in SILENT_HEADS and has_chinese(tokens[i - 1].key))
        for i, t in enumerate(tokens)
    )
    whole = render(text, attested) if one_phrase or attested is not None else None
    # 干细胞来源外泌体: 外 is no function word inside the attested neoclassical word "exosome"
    if whole is not None and whole.english and (one_phrase or whole.neoclassical):
        return [whole]
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
