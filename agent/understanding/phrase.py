"""A phrase of a description: the unit the rules fallback cuts out and then puts in a slot.

Shared by the phrase cutters (`english_phrases`, `chinese_phrases`) and the classifier (`slot_roles`),
so none of them imports another only for this type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CJK = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")


@dataclass
class Phrase:
    text: str
    cue: str | None  # the function word or verb just before it (lower-case), if any
    words: list[str]  # its tokens (English words or jieba words)
    slot: str | None = None  # already known (a population joined with its "with" phrase)
    after: str | None = None  # the word just before it ("and" in "mu and beta rhythms")
    before: str | None = None  # the break word right after it (研究 in "病例对照研究")
    stop: int = -1  # English: the index of the token right after it in the description's token list
    sentence: int = 0  # English: the number of its sentence in the description


def join_zh(words: list[str]) -> str:
    """The words of a Chinese phrase as one text: Chinese is written without spaces, and a space stands
    only between two Latin words ("PTEN" "AKT": "PTEN AKT"; "AMPK" "信号通路": "AMPK信号通路")."""
    out = ""
    for word in words:
        if out and out[-1].isascii() and out[-1].isalnum() and word[:1].isascii() and word[:1].isalnum():
            out += " "
        out += word
    return out
