"""People said to have a condition by a relative clause: "children who are obese" are children with obesity.

Researchers write the condition of the people they study after them as often as before: "pregnant women
who are anaemic", "children who are obese", "older adults who are frail". Read as phrases, the clause
has no noun of its own, so the adjective was lost (the query searched children and asthma, not obesity)
or became a bare required word ("anaemic"[tiab] with no heading). The clause says what "people with X"
says, the shape the understanding reads as people and their condition, so it is written so before the
phrases are read, with the adjective's noun as the adjective spells it (`agent.language.adjective_nouns`:
"obese" -> "obesity", "anaemic" -> "anaemia", "diabetic" -> "diabetes").

Grammar, not topics: only "who" plus a form of "be" (or "become") after a word for people or animals,
then one adjective, optionally graded by an adverb, whose noun MeSH files as a disease or a mental
disorder, or which is such a heading itself ("overweight"); a state of life stays the people's adjective
("women who are pregnant" are pregnant women, `english_clauses`). The adverb stays as
its adjective where MeSH names the graded condition ("morbidly obese" -> "morbid obesity", Obesity,
Morbid), else it is left out ("severely anaemic" -> "anaemia"). Anything else ("children who are happy",
"patients who are eligible") stays as written.
"""

from __future__ import annotations

import re

from agent.language.adjective_nouns import noun_of_adjective
from agent.language.mesh_recognition import MeshVocabulary
from agent.understanding.slot_evidence import is_population

# diseases and mental disorders: a state of life ("pregnant") stays an adjective of the people
_DISEASE_TREES = ("C", "F03")
_CLAUSE = re.compile(
    r"\b(?P<people>[A-Za-z][\w-]*)\s+who\s+(?:are|is|were|was|become|became)\s+"
    r"(?:(?P<grade>[a-z]+)ly\s+)?(?P<adjective>[A-Za-z][a-z-]+)\b(?!\s+(?:to|of|for|with|by|in|at|on|from)\b)"
)


def _noun(adjective: str, vocabulary: MeshVocabulary) -> str | None:
    """The noun of a condition the adjective names, or the adjective itself when it is such a heading."""
    if (found := noun_of_adjective(adjective, vocabulary)) is not None:
        return found[0] if any(t.startswith(_DISEASE_TREES) for t in found[1].tree_numbers) else None
    named = vocabulary.lookup(adjective)
    if len(named) == 1 and any(t.startswith(_DISEASE_TREES) for t in named[0].tree_numbers):
        return adjective.lower()  # "overweight": a disease heading, filed under diagnosis too
    return None


def people_with_their_conditions(text: str, vocabulary: MeshVocabulary | None) -> str:
    """`text` with each "<people> who are <condition adjective>" written "<people> with <its noun>"
    ("children who are obese" -> "children with obesity"); unchanged without a vocabulary."""
    if vocabulary is None:
        return text

    def turned(match: re.Match[str]) -> str:
        people = match.group("people")
        noun = _noun(match.group("adjective"), vocabulary)
        if noun is None or not is_population([people]):
            return match.group(0)
        grade = match.group("grade")
        if grade and vocabulary.knows(f"{grade} {noun}"):
            noun = f"{grade} {noun}"  # "morbidly obese": Obesity, Morbid
        return f"{people} with {noun}"

    return _CLAUSE.sub(turned, text)
