"""People a condition already names: "pregnant women with gestational diabetes".

MeSH files many conditions under a category that names who has them: Diabetes, Gestational under
Pregnancy Complications, neonatal hypoglycaemia under "Infant, Newborn, Diseases", retinopathy of
prematurity under "Infant, Premature, Diseases". A searcher does not AND the people beside such a
condition: every paper on gestational diabetes is about pregnant women, and a required Pregnancy
block only loses the papers that do not say so in their title, abstract or indexing. So a population
concept whose heading the name of one of a condition's ancestors holds ("Pregnancy" in "Pregnancy
Complications") is left out of the query, and shown as optional with the reason.

MeSH's own categories decide; no list of conditions or people.
"""

from __future__ import annotations

import re

from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Concept, ConceptRole, MeshDescriptor, Term


def populations_named_by_their_conditions(
    concepts: list[Concept], terms: list[Term], vocabulary: MeshVocabulary | None
) -> dict[str, str]:
    """The population concepts (id -> the reason) whose people a condition's MeSH category names."""
    if vocabulary is None:
        return {}
    headings = {c.id: [t.mesh for t in terms if t.concept == c.id and t.mesh is not None] for c in concepts}
    categories = {
        ancestor.heading.casefold(): ancestor.heading
        for c in concepts
        if c.role is ConceptRole.CONDITION
        for descriptor in headings[c.id]
        for ancestor in _all_ancestors(descriptor, vocabulary)
    }
    implied = {}
    for concept in concepts:
        if concept.role is not ConceptRole.POPULATION:
            continue
        for descriptor in headings[concept.id]:
            words = re.compile(rf"(?<!\w){re.escape(descriptor.heading.casefold())}(?!\w)")
            category = next((name for key, name in categories.items() if words.search(key)), None)
            if category is not None:
                implied[concept.id] = f"the condition says who has it (MeSH files it under {category})"
                break
    return implied


def _all_ancestors(descriptor: MeshDescriptor, vocabulary: MeshVocabulary) -> list[MeshDescriptor]:
    """Every descriptor above `descriptor` in any of its trees, up to the tree's top category."""
    found: dict[str, MeshDescriptor] = {}
    for number in descriptor.tree_numbers:
        while "." in number:
            number = number.rsplit(".", 1)[0]
            ancestor = vocabulary.file.by_tree_number(number)
            if ancestor is not None:
                found.setdefault(ancestor.ui, ancestor)
    return list(found.values())
