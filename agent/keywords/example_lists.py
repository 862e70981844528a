"""Kinds a description gives as examples of a class: one block, not one required block each.

"adverse birth outcomes such as preterm birth and low birth weight", "biologics, including adalimumab
and infliximab", "mind-body exercise (e.g. tai chi or yoga)": the examples are kinds of the class written
right before them. A searcher ORs them into the class's block (the class alone misses the papers that
name only a kind, each kind alone misses the papers that name the class), where read apart each kind
would be a concept of its own, AND'ed, and a paper would have to name the class and every example. A
title's colon does the same for a class of outcomes (`outcome_lists.kinds_listed_after_the_colon`).
"""

from __future__ import annotations

import re

from agent.keywords.title_template import written_in
from agent.models import Concept, Term

# what introduces examples of the phrase right before it; "like" only right after a noun phrase
# (the term before it), never the verb ("we would like to")
_EXAMPLES_CUE = r"\s*,?\s*\(?\s*(?:such\s+as|including|e\.\s?g\.?,?|for\s+(?:example|instance),?|like)\s+"
# the examples end with their clause, or where the people or place of the sentence start
_KINDS = re.compile(r"(?P<kinds>[^.;:!?()]+)")
_WHO_OR_WHERE = re.compile(r"\s(?:in|among|amongst|for|with|after|during|at|from|to|on)\s", re.IGNORECASE)


def _examples_after(term: Term, description: str) -> list[str]:
    """The text of each example list the description writes right after `term` ("X such as ...")."""
    found = []
    for match in re.finditer(
        r"(?<!\w)" + re.escape(term.canonical) + r"(?!\w)" + _EXAMPLES_CUE, description, re.IGNORECASE
    ):
        if kinds := _KINDS.match(description, match.end()):
            found.append(_WHO_OR_WHERE.split(" " + kinds.group("kinds") + " ")[0])
    return found


def kinds_given_as_examples(
    concepts: list[Concept], terms: list[Term], description: str, left_out: set[str], listed: set[str]
) -> dict[str, list[str]]:
    """For each concept whose term the description follows with examples ("X such as A and B"), the
    other concepts every term of which is written among those examples: the kinds to OR into its
    block. A concept `left_out` of the query for another reason (a comparator, a detail) is neither a
    class nor a kind; one `listed` among the outcomes a searcher leaves out is no class, but may be a
    kind (a class searched is searched with its examples); a kind joins one class."""
    members = {c.id: [t for t in terms if t.concept == c.id] for c in concepts}
    classes: dict[str, list[str]] = {}
    taken: set[str] = set()
    for concept in concepts:
        if concept.id in left_out or concept.id in listed or concept.id in taken:
            continue
        lists = [text for t in members[concept.id] for text in _examples_after(t, description)]
        kinds = [
            other.id
            for other in concepts
            if other.id != concept.id
            and other.id not in left_out
            and other.id not in classes
            and other.id not in taken
            and members[other.id]
            and any(all(written_in(t.canonical, text) for t in members[other.id]) for text in lists)
        ]
        if kinds:
            classes[concept.id] = kinds
            taken.update(kinds)
    return classes
