"""A body part named with the participle of its injury: a "broken hip" is a hip fracture.

People write an injury as what happened to the part ("after a broken hip", "a torn ACL", "a dislocated
shoulder", "a sprained ankle"); MeSH and the papers name it by the part and the injury's noun (Hip
Fractures, Anterior Cruciate Ligament Injuries via "ACL tear", Shoulder Dislocation, Ankle Injuries via
"ankle sprain"). Read as a phrase, the participle was dropped and only the part was left ("hip"[tiab]
alone, every paper about hips), so the keywords read the phrase in its noun form (`agent.keywords.concepts`).

Grammar, not topics: the participles of injury are a closed class, each with its noun; the rewrite is
made only where MeSH knows the result as a term (`MeshVocabulary.knows`), so "broken promises" or "torn
between" stay as written.
"""

from __future__ import annotations

import re

from agent.language.mesh_recognition import MeshVocabulary

# the participle of an injury -> the noun MeSH and the papers name it by
_INJURY_NOUNS = {
    "broken": "fracture",
    "fractured": "fracture",
    "dislocated": "dislocation",
    "sprained": "sprain",
    "torn": "tear",
    "ruptured": "rupture",
}
_PHRASE = re.compile(
    rf"\b(?P<participle>{'|'.join(_INJURY_NOUNS)})\s+(?:(?:left|right)\s+)?"
    r"(?P<words>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})",
    re.IGNORECASE,
)


def injuries_by_their_nouns(text: str, vocabulary: MeshVocabulary | None) -> str:
    """`text` with "<injury participle> <body part>" written "<body part> <injury noun>" where MeSH knows
    that term ("broken hip" -> "hip fracture", "torn ACL" -> "ACL tear"); the longest such part is taken.
    Unchanged without a vocabulary."""
    if vocabulary is None:
        return text

    def turned(match: re.Match[str]) -> str:
        noun = _INJURY_NOUNS[match.group("participle").lower()]
        written = match.group("words")
        ends = [word.end() for word in re.finditer(r"\S+", written)]
        for end in reversed(ends):
            if vocabulary.knows(f"{written[:end]} {noun}"):
                return f"{written[:end]} {noun}{written[end:]}"
        return match.group(0)

    return _PHRASE.sub(turned, text)
