"""Treatments a description names by a word MeSH files elsewhere: a discipline, or a drug-class adjective.

Exact recognition (`agent.language.mesh_recognition`) finds the descriptor a phrase *is*. Two ways of
naming a treatment miss it, and in both MeSH itself says what is meant:

- a **discipline** named alone: "acupuncture" is the heading Acupuncture (H02, the health occupation),
  which is too broad a heading to search on; what a searcher means in "acupuncture for chronic pain" is
  the procedure, the descriptor MeSH names "<discipline> Therapy" (Acupuncture Therapy, E02). The
  heads tried are the intervention heads a free-text phrase is read by (`INTERVENTION_HEADS`);
- a **drug-class adjective** before a generic treatment word: "antiretroviral therapy", "antiplatelet
  treatment" name no descriptor as written, but MeSH writes the adjective before "Agents" or "Drugs"
  in a term of a substance descriptor ("Antiretroviral Agents" of Anti-Retroviral Agents, "Antiplatelet
  Agents" of Platelet Aggregation Inhibitors): the therapy is the use of those agents.

Nothing here is a list of terms: every name tried is MeSH's.
"""

from __future__ import annotations

from agent.keywords.concept_roles import INTERVENTION_HEADS
from agent.language.mesh_recognition import MeshMatch, MeshVocabulary
from agent.models import MeshDescriptor

_DISCIPLINE_TREES = ("H01", "H02")  # natural-science and health-occupation disciplines
_PROCEDURE_TREES = ("E", "D")  # procedures, techniques and substances: what is done
_AGENT_WORDS = ("agents", "drugs")  # how MeSH names a class of substances by what they do


def _procedure(vocabulary: MeshVocabulary, phrase: str) -> MeshDescriptor | None:
    found = [
        d for d in vocabulary.lookup(phrase) if any(t.startswith(_PROCEDURE_TREES) for t in d.tree_numbers)
    ]
    return found[0] if len(found) == 1 else None


def procedure_of_discipline(match: MeshMatch, vocabulary: MeshVocabulary) -> MeshMatch:
    """The procedure a discipline named alone stands for ("acupuncture" -> Acupuncture Therapy), or the
    match unchanged when MeSH names none, or the match is no discipline, or more than one word."""
    trees = match.descriptor.tree_numbers
    if len(match.text.split()) != 1 or not trees or not all(t.startswith(_DISCIPLINE_TREES) for t in trees):
        return match
    for head in sorted(INTERVENTION_HEADS):
        descriptor = _procedure(vocabulary, f"{match.text} {head}")
        if descriptor is not None:
            return MeshMatch(match.text, match.start, match.end, descriptor, "entry term")
    return match


def agents_of_adjective(text: str, words: list[str], vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The substance class a phrase of one content word (`words`) followed by an intervention head
    names when MeSH writes the word before "Agents" or "Drugs" ("antiretroviral therapy" ->
    Anti-Retroviral Agents); [] when it names none or several, or no intervention head follows."""
    if len(words) != 1 or (start := text.find(words[0])) < 0:
        return []
    after = text[start + len(words[0]) :].split()
    if not after or after[0].casefold() not in INTERVENTION_HEADS:
        return []  # "contrast" alone is no Contrast Media: only "<adjective> therapy" names the agents
    found = {
        d.ui: d for agent in _AGENT_WORDS if (d := _procedure(vocabulary, f"{words[0]} {agent}")) is not None
    }
    if len(found) != 1:
        return []
    (descriptor,) = found.values()
    return [MeshMatch(words[0], start, start + len(words[0]), descriptor, "entry term")]
