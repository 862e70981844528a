"""Treatments a description names by a word MeSH files elsewhere: a discipline, or a drug-class adjective.

Exact recognition (`agent.language.mesh_recognition`) finds the descriptor a phrase *is*. Two ways of
naming a treatment miss it, and in both MeSH itself says what is meant:

- a **discipline** named alone: "acupuncture" is the heading Acupuncture (H02, the health occupation),
  which is too broad a heading to search on; what a searcher means in "acupuncture for chronic pain" is
  the procedure, the descriptor MeSH names "<discipline> Therapy" (Acupuncture Therapy, E02). The
  heads tried are the intervention heads a free-text phrase is read by (`INTERVENTION_HEADS`);
- a **discipline with its modifiers** ("cardiac surgery", an entry term of Thoracic Surgery, H02): the
  procedures are meant, which MeSH names "<modifiers> Surgical Procedures" or "<modifiers> Procedures"
  (Cardiac Surgical Procedures, E04);
- a **technique's adjective** standing alone, as one side of "laparoscopic versus open appendectomy"
  leaves it: MeSH writes the adjective before "surgery" or "(surgical) procedures" in a term of the
  technique ("Laparoscopic Surgery" of Laparoscopy);
- a **drug-class adjective** before a generic treatment word: "antiretroviral therapy", "antiplatelet
  treatment" name no descriptor as written, but MeSH writes the adjective before "Agents" or "Drugs"
  in a term of a substance descriptor ("Antiretroviral Agents" of Anti-Retroviral Agents, "Antiplatelet
  Agents" of Platelet Aggregation Inhibitors): the therapy is the use of those agents;
- a **drug class named by its members' plural**: "sulfonylureas", "antifungals" are no MeSH terms, but
  MeSH names the class with the singular before "Compounds" or "Agents" (Sulfonylurea Compounds,
  Antifungal Agents);
- a drug class named by **what it acts against**: "anti-TNF therapy" is MeSH's TNF Inhibitors (Tumor
  Necrosis Factor Inhibitors), "anti-IL-6" Interleukin-6 Inhibitors;
- a **vaccination** named by what it protects against: "influenza vaccination", "HPV vaccination" name
  the act (Vaccination) and the disease or virus apart, but what is given is the descriptor MeSH names
  "<those words> Vaccine(s)" (Influenza Vaccines, Papillomavirus Vaccines), the heading a searcher uses.

Nothing here is a list of terms: every name tried is MeSH's.
"""

from __future__ import annotations

import re

from agent.keywords.concept_roles import INTERVENTION_HEADS
from agent.language.mesh_recognition import MeshMatch, MeshVocabulary
from agent.language.morphology import singular
from agent.models import MeshDescriptor

_DISCIPLINE_TREES = ("H01", "H02")  # natural-science and health-occupation disciplines
_PROCEDURE_TREES = ("E", "D")  # procedures, techniques and substances: what is done
_AGENT_WORDS = ("agents", "drugs")  # how MeSH names a class of substances by what they do
_CLASS_NOUNS = ("compounds", "agents")  # how MeSH names a class of substances by its members or action
_SUBSTANCES = "D"  # Chemicals and Drugs
# how MeSH names the procedures of surgery and of other disciplines, and a technique by its adjective
_PROCEDURE_WORDS = ("surgical procedures", "procedures")
_TECHNIQUE_WORDS = ("surgery", *_PROCEDURE_WORDS)


def _procedure(vocabulary: MeshVocabulary, phrase: str) -> MeshDescriptor | None:
    found = [
        d for d in vocabulary.lookup(phrase) if any(t.startswith(_PROCEDURE_TREES) for t in d.tree_numbers)
    ]
    return found[0] if len(found) == 1 else None


def procedure_of_discipline(match: MeshMatch, vocabulary: MeshVocabulary, text: str = "") -> MeshMatch:
    """The procedure a discipline stands for: named alone, "<discipline> <intervention head>"
    ("acupuncture" -> Acupuncture Therapy); named with modifiers, "<modifiers> (surgical) procedures"
    ("cardiac surgery" -> Cardiac Surgical Procedures), the modifiers also read from the words of `text`
    before the match ("elective surgery" -> Elective Surgical Procedures, "gastrointestinal surgery" ->
    Gastrointestinal Surgical Procedures, where the match is "surgery" alone). The match unchanged when
    MeSH names none or the match is no discipline."""
    trees = match.descriptor.tree_numbers
    if not trees or not all(t.startswith(_DISCIPLINE_TREES) for t in trees):
        return match
    words = match.text.split()
    before = text[: match.start].split()
    for count in (2, 1):  # the longest run of words before the match that MeSH names with the procedures
        if len(words) == 1 and len(before) >= count:
            for name in _PROCEDURE_WORDS:
                descriptor = _procedure(vocabulary, " ".join([*before[-count:], name]))
                if descriptor is not None:
                    start = len(text[: match.start].rstrip()) - len(" ".join(before[-count:]))
                    return MeshMatch(text[start : match.end], start, match.end, descriptor, "entry term")
    if len(words) == 1:
        names = [f"{match.text} {head}" for head in sorted(INTERVENTION_HEADS)]
    else:
        names = [" ".join([*words[:-1], name]) for name in _PROCEDURE_WORDS]
    for name in names:
        descriptor = _procedure(vocabulary, name)
        if descriptor is not None:
            return MeshMatch(match.text, match.start, match.end, descriptor, "entry term")
    return match


def technique_of_adjective(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The technique one adjective names where MeSH writes it before "surgery" or "(surgical)
    procedures" in a term of a procedure ("laparoscopic" -> Laparoscopy, from "Laparoscopic Surgery");
    [] for more than one word, or when MeSH names none or several."""
    words = text.split()
    if len(words) != 1:
        return []
    found = {
        d.ui: d for name in _TECHNIQUE_WORDS if (d := _procedure(vocabulary, f"{text} {name}")) is not None
    }
    if len(found) != 1:
        return []
    (descriptor,) = found.values()
    return [MeshMatch(text, 0, len(text), descriptor, "entry term")]


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


def agents_of_plural(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The substance class one plural word names when MeSH names the class "<singular> Compounds" or
    "<singular> Agents" and has no term of the word itself ("sulfonylureas" -> Sulfonylurea Compounds,
    "antifungals" -> Antifungal Agents): the searcher says the class by its members' name, MeSH adds
    the class word; [] for more than one word, a word MeSH knows or that is no plural, or when MeSH
    names none or several."""
    word = text.strip()
    single = singular(word)
    if " " in word or single == word or vocabulary.knows(word) or vocabulary.is_modifier(word):
        return []
    descriptor = _one_substance(vocabulary, [f"{single} {noun}" for noun in _CLASS_NOUNS])
    if descriptor is None:
        return []
    start = text.find(word)
    return [MeshMatch(word, start, start + len(word), descriptor, "entry term")]


def _one_substance(vocabulary: MeshVocabulary, names: list[str]) -> MeshDescriptor | None:
    """The one substance descriptor (tree D) MeSH names by any of `names`; None for none or several."""
    found = {
        d.ui: d
        for name in names
        for d in vocabulary.lookup(name)
        if any(t.startswith(_SUBSTANCES) for t in d.tree_numbers)
    }
    return next(iter(found.values())) if len(found) == 1 else None


# what a drug is named by when it acts against a thing: "anti-TNF" agents are MeSH's TNF Inhibitors
_AGAINST = re.compile(r"\banti-(?P<target>[A-Za-z0-9][A-Za-z0-9-]*)", re.IGNORECASE)
_INHIBITOR_NOUNS = ("inhibitors", "antagonists", "blockers")


def inhibitors_of_anti(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The substance class "anti-<target>" names where MeSH names "<target> Inhibitors" (or Antagonists,
    Blockers) as one substance descriptor ("anti-TNF therapy": Tumor Necrosis Factor Inhibitors, whose
    entry term is "TNF Inhibitors"; "anti-IL-6": Interleukin-6 Inhibitors); [] when MeSH names none or
    several, or the phrase has no such compound ("anti-VEGF": MeSH has no "VEGF Inhibitors")."""
    found = _AGAINST.search(text)
    if found is None:
        return []
    descriptor = _one_substance(vocabulary, [f"{found.group('target')} {noun}" for noun in _INHIBITOR_NOUNS])
    if descriptor is None:
        return []
    return [MeshMatch(found.group(0), found.start(), found.end(), descriptor, "entry term")]


_VACCINES_TREE = "D20.215.894"
_VACCINATION = re.compile(r"\b(?:vaccinations?|vaccinating|immuni[sz]ations?|immuni[sz]ing)\b", re.IGNORECASE)


def vaccine_of_vaccination(
    text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary
) -> list[MeshMatch]:
    """`matches` with "<words> vaccination" matched whole as the vaccine MeSH names "<words> Vaccine(s)"
    (at most three words before it, the longest that names one vaccine descriptor), in place of the
    matches inside those words ("influenza vaccination": Influenza Vaccines, not Influenza, Human and
    Vaccination); unchanged when MeSH names no such vaccine ("childhood vaccination")."""
    for act in _VACCINATION.finditer(text):
        for count in (3, 2, 1):
            before = re.search(rf"((?:[^\W_][\w'-]*\s+){{{count}}})$", text[: act.start()])
            if before is None:
                continue
            name = before.group(1).strip()
            found = {
                d.ui: d
                for noun in ("vaccine", "vaccines")
                for d in vocabulary.lookup(f"{name} {noun}")
                if any(t.startswith(_VACCINES_TREE) for t in d.tree_numbers)
            }
            if len(found) != 1:
                continue
            start, end = before.start(1), act.end()
            (vaccine,) = found.values()
            whole = MeshMatch(text[start:end], start, end, vaccine, "entry term")
            kept = [m for m in matches if m.end <= start or m.start >= end]
            return sorted([*kept, whole], key=lambda m: m.start)
    return matches
