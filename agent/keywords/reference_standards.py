"""The reference standard of a question of a test's accuracy, which a searcher leaves out of the query.

A diagnostic accuracy question names the test, the target condition and, often, the reference standard
the test is judged against ("How accurate is D-dimer for pulmonary embolism, with CT pulmonary
angiography as the reference standard?", "以羊水穿刺核型分析为金标准"). Search filters for such reviews
(Cochrane's Handbook for Diagnostic Test Accuracy Reviews) combine the index test and the target
condition only: the reference standard is often not named in an abstract, and when named it is named
in many ways, so ANDing it loses studies. The words "reference standard" / "gold standard" / "金标准"
are no topic either (MeSH's Reference Standards is about standards of measurement). Every concept a
description writes only inside such a clause is left out, shown as such.
"""

from __future__ import annotations

import re

from agent.keywords.title_template import written_in
from agent.models import Concept, Term

_STANDARD = r"(?:reference|gold|criterion)[\s-]+standards?"
# the rest of a clause, up to the people or place it goes on to name ("... in children")
_UP_TO_WHO = r"(?:(?!\s(?:in|among|amongst|for)\s)[^.;:!?,])*"
# "with X as the reference standard", "using X as a gold standard"; "against the reference standard (of) X",
# "the reference standard being/was X": the whole clause, from the nearest word that opens it
_ENGLISH = re.compile(
    rf"\b(?:with|using|against)\s+(?:(?!\b(?:with|using|against)\b)[^.;:!?,])+?\s+as\s+(?:the\s+|a\s+|our\s+)?"
    rf"{_STANDARD}\b"
    rf"|\b(?:against|versus|vs\.?|compared\s+(?:with|to))\s+(?:the\s+|a\s+)?{_STANDARD}(?:\s+of)?{_UP_TO_WHO}"
    rf"|\b(?:the\s+)?{_STANDARD}\s+(?:is|was|being|will\s+be)\s+{_UP_TO_WHO}"
    rf"|\b{_STANDARD}\b",
    re.IGNORECASE,
)
_CHINESE_STANDARD = r"(?:金标准|参考标准|金指标)"
# "以X为金标准", "以X作为参考标准", "金标准为X", "金标准"
_CHINESE = re.compile(
    rf"(?<![可所难加予])以[^，。；,;！？]+?(?:为|作为){_CHINESE_STANDARD}|{_CHINESE_STANDARD}(?:为|是)[^，。；,;！？]+|{_CHINESE_STANDARD}"
)


def reference_standard_clauses(description: str) -> list[str]:
    """The clauses of `description` that name a test's reference standard, with the words that say so."""
    return [m.group(0).strip() for m in (*_ENGLISH.finditer(description), *_CHINESE.finditer(description))]


def _inside(term: Term, clauses: list[str]) -> bool:
    """Whether a term is written inside one of the clauses: its English words, or the Chinese words it
    was translated from."""
    if term.original and any(term.original in clause for clause in clauses):
        return True
    return any(written_in(term.canonical, clause) for clause in clauses)


def reference_standards(concepts: list[Concept], terms: list[Term], description: str) -> dict[str, str]:
    """The concepts a description writes only inside a clause naming the reference standard, each with
    the reason a searcher leaves it out."""
    clauses = reference_standard_clauses(description)
    if not clauses:
        return {}
    found: dict[str, str] = {}
    for concept in concepts:
        members = [t for t in terms if t.concept == concept.id]
        if (
            members
            and all(_inside(t, clauses) for t in members)
            and not any(_outside(t, description, clauses) for t in members)
        ):
            found[concept.id] = (
                "the reference standard a test is judged against: accuracy searches combine the test and "
                "the target condition only"
            )
    return found


def _outside(term: Term, description: str, clauses: list[str]) -> bool:
    """Whether the description also writes the term outside the reference-standard clauses (then it is
    a topic of its own as well)."""
    rest = description
    for clause in clauses:
        rest = rest.replace(clause, " ")
    if term.original:
        return term.original in rest
    return written_in(term.canonical, rest)
