"""Text primitives shared by indexing and querying: width, punctuation, whitespace, scripts, stop words.

Indexing and querying must cut text the same way or BM25 silently matches nothing, so both go
through the functions here (and `normalize.Segmenter` for Chinese).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import snowballstemmer

# CJK Unified Ideographs (+ extension A and compatibility ideographs): what jieba should see.
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_CHAR = re.compile(f"[{CJK}]")
_CJK_RUN = re.compile(f"[{CJK}]+")
# Letters and digits that are not CJK: English words, numbers, Greek letters, accented names.
_LATIN_WORD = re.compile(f"[^\\W_{CJK}]+")

# Punctuation NFKC leaves alone but that should read as its ASCII cousin.
_PUNCT_MAP = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u3001": ",",  # 、 ideographic comma
        "\u3002": ".",  # 。 ideographic full stop
        "\u300a": '"',  # 《 》 book title marks
        "\u300b": '"',
        "\u3010": "[",  # 【 】
        "\u3011": "]",
        "\u00b7": " ",  # middle dot
    }
)
# Sentence punctuation and brackets that carry no meaning for retrieval. Kept: characters that
# live inside terms — hyphen (high-gamma), plus (CD4+), dot and percent in numbers, slash, #.
_DROP_PUNCT = re.compile(r"[?!,;:\"'()\[\]{}<>|~`^*=…]+")
_SPACE = re.compile(r"\s+")
_SPACE_NEXT_TO_CJK = re.compile(f"(?<=[{CJK}])\\s+|\\s+(?=[{CJK}])")
_TRAILING_DOTS = re.compile(r"(?<!\d)\.(?!\d)")  # a dot that is not part of a number or term like 'e.g'


def to_half_width(text: str) -> str:
    """Full-width letters, digits, punctuation and the ideographic space to their ASCII forms (NFKC)."""
    return unicodedata.normalize("NFKC", text)


def standardize_punctuation(text: str) -> str:
    """Unify quotes and dashes, turn meaningless punctuation into spaces (so words do not glue)."""
    text = text.translate(_PUNCT_MAP)
    text = _DROP_PUNCT.sub(" ", text)
    return _TRAILING_DOTS.sub(" ", text)


def standardize_whitespace(text: str) -> str:
    """Collapse whitespace runs and drop spaces that touch a CJK character (Chinese uses none)."""
    text = _SPACE.sub(" ", text).strip()
    return _SPACE_NEXT_TO_CJK.sub("", text)


def clean(text: str) -> str:
    """Width, punctuation and whitespace in one call (what the dense leg embeds)."""
    return standardize_whitespace(standardize_punctuation(to_half_width(text)))


def has_cjk(text: str) -> bool:
    return _CJK_CHAR.search(text) is not None


def cjk_ratio(text: str) -> float:
    """Share of CJK characters among letters and ideographs."""
    cjk = len(_CJK_CHAR.findall(text))
    latin = sum(len(w) for w in _LATIN_WORD.findall(text))
    # An ideograph carries roughly a word's worth of meaning; weigh Latin letters as ~1/4 of that.
    total = cjk + latin / 4
    return cjk / total if total else 0.0


def detect_language(text: str) -> str:
    """'zh', 'en' or 'mixed', which decides the fusion weights (an English embedder is weak on Chinese)."""
    ratio = cjk_ratio(text)
    if ratio >= 0.7:
        return "zh"
    if ratio <= 0.15:
        return "en"
    return "mixed"


def split_scripts(text: str) -> list[tuple[str, str]]:
    """The text as ('cjk', run) and ('latin', word) pieces in order; everything else is a separator."""
    pieces: list[tuple[str, str]] = []
    for match in re.finditer(f"[{CJK}]+|[^\\W_{CJK}]+", text):
        piece = match.group(0)
        pieces.append(("cjk" if _CJK_CHAR.match(piece) else "latin", piece))
    return pieces


def latin_words(text: str) -> list[str]:
    return _LATIN_WORD.findall(text)


def cjk_runs(text: str) -> list[str]:
    return _CJK_RUN.findall(text)


# ----------------------------------------------------------------------------------------------
# Stop words
# ----------------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# English function words: dropped from documents and questions alike by the BM25 tokeniser.

ENGLISH_STOPWORDS: frozenset[str] = _words(
    """
    a about above after again against all also am an and any are aren't as at be because been before
    being below between both but by can cannot could couldn't did didn't do does doesn't doing don't down
    during each few for from further had hadn't has hasn't have haven't having he her here hers herself
    him himself his how i if in into is isn't it it's its itself just let's me more most mustn't my myself
    no nor not of off on once only or other ought our ours ourselves out over own same shan't she should
    shouldn't so some such than that that's the their theirs them themselves then there there's these they
    this those through to too under until up very was wasn't we were weren't what what's when where
    which while who whom why will with won't would wouldn't you your yours yourself yourselves
    """
)

# Question scaffolding ("tell me what is known about ...") that a question to a literature base
# carries but that never tells one paper from another. Only questions lose these (step 1), since in
# a document "show" or "study" is ordinary content.
QUESTION_WORDS: frozenset[str] = _words(
    "tell show give find list please known whether paper papers article articles"
)

# Chinese: particles, pronouns and question scaffolding (是什么, 有哪些, 请问) — low-information words
# as the 001 design calls them. Content words such as 方法/结果 are deliberately not here.
CHINESE_STOPWORDS: frozenset[str] = _words(
    """
    的 了 是 在 和 与 及 以及 或 或者 并 并且 而 而且 但 但是 吗 呢 吧 啊 呀 么 嘛 哦 之 其 此 这 那 这个 那个
    这些 那些 这种 那种 这样 那样 什么 是什么 怎么 怎样 怎么样 如何 哪 哪些 哪个 哪里 哪儿 为什么 为何 是否 是不是
    有 有没有 有无 有哪些 请问 请 一下 我 你 您 他 她 它 我们 你们 他们 她们 它们 自己 就 都 也 还 又 再 很 太 最
    被 把 给 对 对于 关于 由 从 向 到 于 为 以 因为 所以 如果 虽然 可以 能 能够 会 要 想 需要 应该 呗 啦
    一个 一种 一些 某 某些 各 每 个 等 等等 中 上 下 里 内 之间 相关 有关 哪一 多少 几 谁
    """
)

STOPWORDS: frozenset[str] = ENGLISH_STOPWORDS | QUESTION_WORDS | CHINESE_STOPWORDS


def is_stopword(token: str) -> bool:
    return token.lower() in STOPWORDS


# ----------------------------------------------------------------------------------------------
# English tokens for BM25
# ----------------------------------------------------------------------------------------------

_stemmer = None


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Snowball (Porter 2) stem; cached because corpora repeat a small vocabulary millions of times."""
    global _stemmer
    if _stemmer is None:
        _stemmer = snowballstemmer.stemmer("english")
    return _stemmer.stemWord(word)


def english_tokens(text: str, *, stemming: bool = True) -> list[str]:
    """Lower-cased Latin words without stop words, stemmed; digits stay (sample sizes, gene names)."""
    out: list[str] = []
    for word in _LATIN_WORD.findall(text.lower()):
        if word in ENGLISH_STOPWORDS:
            continue
        out.append(stem(word) if stemming and not word.isdigit() else word)
    return out
