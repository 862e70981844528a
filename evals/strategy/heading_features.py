"""What the generator knows about each MeSH heading it writes: the features of a calibrated decision tried
for issue 16, and not shipped because it did not pay on titles it was not fitted on.

Recognition (`agent.language.mesh_recognition`) finds a descriptor wherever the words name one; an
information specialist writes only some of them as headings. `heading_features` describes each heading
a block writes (`block_headings`: the term's own heading and the `[Mesh:NoExp]` ancestors its words name;
anatomy is searched by its words, as `agent.keywords.querybuild` does): how the words matched (the
whole term is the heading, an entry term, another form such as a permuted, loose or acronym match, or
part of a longer phrase the title writes), the descriptor's tree branches and depth, its concept's role,
whether the heading stands alone in its block or beside another (a `[Mesh:NoExp]` ancestor, a parent
beside its child, a companion heading the title never wrote), and how many words it covers.

`python -m evals.strategy.headings` dumps them with the label "the expert or librarian used this
descriptor", tabulates them, and fits a logistic model over them (`tools.logistic`). Fitted on CLEF
train and the librarian titles, the model raised the cross-validated precision of the training topics
by about 0.01 at equal recall, but on titles it had not seen (the librarian5 batch, CLEF test and Seed
after a refit with the later rules) it moved nothing: the headings experts leave out are not told apart
by what the plan holds (README, "Search strategy against expert queries").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agent.language.mesh_recognition import is_anatomy, phrase_key
from agent.language.morphology import is_acronym
from agent.models import Concept, ConceptRole, MeshDescriptor, SynonymOrigin, Term

# tree branches a heading is described by: the first letter, with the branches inside a letter that
# behave differently to a searcher named apart (persons M01 vs. the rest of M, F03 mental disorders)
_BRANCHES = ("A", "B", "C", "D", "E", "F03", "F", "G", "H", "I", "J", "K", "L", "M01", "N", "Z")


@dataclass(frozen=True)
class Heading:
    """One heading a block would write: the descriptor, the term it comes from, and whether it is an
    ancestor searched unexploded beside the term's own heading."""

    descriptor: MeshDescriptor
    term: Term
    noexp: bool = False


def block_headings(terms: Sequence[Term], role: ConceptRole) -> list[Heading]:
    """The headings a concept's block writes: each term's own heading and
    the ancestors its words name. A concept of anatomy is searched by its words only: MeSH indexes a
    paper under an organ or body fluid when the body part itself is studied, not when it is only where
    a disease sits or a sample is taken ("urine tests", "kidney transplant recipients")."""
    headings: list[Heading] = []
    for term in terms:
        if term.mesh is None or (role is ConceptRole.ANATOMY and is_anatomy(term.mesh)):
            continue
        headings.append(Heading(term.mesh, term))
        headings += [Heading(parent, term, noexp=True) for parent in term.broader]
    return headings


def _branch(tree: str) -> str:
    return next((b for b in _BRANCHES if len(b) > 1 and tree.startswith(b)), tree[:1])


def _match_kind(term: Term, descriptor: MeshDescriptor) -> str:
    """How the term's words name the descriptor: "heading", "entry", "acronym" or "other" (a permuted,
    loose or composed form)."""
    key = phrase_key(term.canonical)
    if key == phrase_key(descriptor.heading):
        return "heading"
    if any(key == phrase_key(entry) for entry in descriptor.entry_terms):
        return "entry"
    if is_acronym(term.canonical) or any(is_acronym(s.text) for s in term.synonyms[:1]):
        return "acronym"
    return "other"


def _is_ancestor(descriptor: MeshDescriptor, other: MeshDescriptor) -> bool:
    return any(t.startswith(c + ".") for t in other.tree_numbers for c in descriptor.tree_numbers)


def heading_features(heading: Heading, concept: Concept, block: Sequence[Heading]) -> dict[str, float]:
    """Every candidate feature of one heading in its block (a model uses the ones it names)."""
    descriptor, term = heading.descriptor, heading.term
    trees = descriptor.tree_numbers
    branches = {_branch(t) for t in trees}
    kind = "noexp" if heading.noexp else _match_kind(term, descriptor)
    others = [h.descriptor for h in block if h.descriptor.ui != descriptor.ui]
    own_words = len(phrase_key(term.canonical))
    longer = any(
        SynonymOrigin.USER in s.origins and len(phrase_key(s.text)) > own_words for s in term.synonyms
    )
    features: dict[str, float] = {f"tree_{b}": float(b in branches) for b in _BRANCHES}
    features |= {f"role_{r.value}": float(concept.role is r) for r in ConceptRole}
    features |= {f"via_{k}": float(kind == k) for k in ("heading", "entry", "acronym", "other", "noexp")}
    features |= {
        "depth": float(min((t.count(".") + 1 for t in trees), default=0)),
        "trees": float(len(trees)),
        "branches": float(len(branches)),
        "words": float(own_words),
        "heading_words": float(len(phrase_key(descriptor.heading))),
        "longer_phrase": float(longer and not heading.noexp),
        "alone": float(not others),
        "headings_in_block": float(len(block)),
        "parent_of_another": float(any(_is_ancestor(descriptor, o) for o in others)),
        "child_of_another": float(any(_is_ancestor(o, descriptor) for o in others)),
        # a heading the term's words do not write: added beside another (an organism's infection)
        "unwritten": float(not heading.noexp and term.canonical == descriptor.heading and bool(others)),
    }
    return features
