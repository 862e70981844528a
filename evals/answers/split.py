"""Which SciFact claims the evaluation Run can answer, and which it cannot.

Half of the claims (of each split) lose their relevant abstracts from the index, so the Run cannot
answer them. Claims that share an abstract must fall on the same side (removing the abstract for one
would remove it for the other), so claims are grouped into connected components over shared
abstracts and a whole component is made unanswerable when a hash of its first claim id is even. The
assignment is deterministic and independent of any result.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass
class Assignment:
    unanswerable: set[str]  # claim ids whose relevant abstracts are removed
    removed_docs: set[str]


def _find(parent: dict[str, str], item: str) -> str:
    while parent[item] != item:
        parent[item] = parent[parent[item]]
        item = parent[item]
    return item


def assign(qrels: Mapping[str, Mapping[str, int]], *, salt: str = "scholarmap-answers") -> Assignment:
    """Split claims (of every split together) into answerable and unanswerable components."""
    parent = {qid: qid for qid in qrels}
    first_claim_of_doc: dict[str, str] = {}
    for qid, docs in qrels.items():
        for doc in docs:
            other = first_claim_of_doc.setdefault(doc, qid)
            parent[_find(parent, qid)] = _find(parent, other)
    components: dict[str, list[str]] = {}
    for qid in qrels:
        components.setdefault(_find(parent, qid), []).append(qid)
    unanswerable: set[str] = set()
    for members in components.values():
        anchor = min(members, key=lambda q: (len(q), q))
        if int(hashlib.sha1(f"{salt}:{anchor}".encode()).hexdigest(), 16) % 2 == 0:
            unanswerable.update(members)
    removed = {doc for qid in unanswerable for doc in qrels[qid]}
    return Assignment(unanswerable, removed)
