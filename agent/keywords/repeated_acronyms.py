"""An acronym written on its own for a phrase the description spells out elsewhere: that phrase's synonym.

A researcher names a method in full once and then by its acronym ("Normothermic machine perfusion vs
static cold storage ... does NMP lower early allograft dysfunction?"), with or without defining it in
brackets. The understanding reads the acronym as a phrase of its own, and a concept of the acronym alone
would be AND'ed with the phrase it abbreviates: the query then asks every paper to write both. A searcher
ORs them: the acronym joins the term of the phrase it stands for and is no concept apart.

The acronym stands for a phrase when the description defines it for that phrase
(`morphology.defined_acronyms`: "normothermic machine perfusion (NMP)") or when the initials of the
phrase's content words spell it (`morphology.acronym`, three letters or more: two-letter initials stand
for dozens of things). Only a concept of that one acronym moves; an acronym inside a longer phrase
("NMP outcomes") stays where it is.
"""

from __future__ import annotations

from agent.language.mesh_recognition import phrase_key
from agent.language.morphology import acronym, is_acronym
from agent.models import Concept, Synonym, SynonymOrigin, Term


def _stands_for(short: str, term: Term, defined: dict[str, str]) -> bool:
    """Whether `short` abbreviates the phrase of `term`, as the description defines or spells it."""
    long = defined.get(short)
    if long is not None and phrase_key(long) == phrase_key(term.canonical):
        return True
    letters = short[:-1] if short.endswith("s") and short[:-1].isupper() else short
    return len(letters) >= 3 and acronym(term.canonical) == letters.upper()


def join_repeated_acronyms(
    concepts: list[Concept], terms: list[Term], defined: dict[str, str]
) -> tuple[list[Concept], list[Term]]:
    """The concepts and terms without each concept that is one acronym written alone for the phrase of a
    term of another concept; that term gets the acronym as the user's synonym (see the module doc)."""
    gone: set[str] = set()
    for concept in concepts:
        own = [t for t in terms if t.concept == concept.id]
        if len(own) != 1 or own[0].mesh is not None or not is_acronym(own[0].canonical):
            continue
        short = own[0].canonical
        owner = next(
            (
                t
                for t in terms
                if t.concept not in gone
                and t.concept != concept.id
                and not is_acronym(t.canonical)
                and _stands_for(short, t, defined)
            ),
            None,
        )
        if owner is None:
            continue
        if short.casefold() not in {s.text.casefold() for s in owner.synonyms}:
            owner.synonyms.append(Synonym(text=short, origins=[SynonymOrigin.USER]))
        gone.add(concept.id)
    return [c for c in concepts if c.id not in gone], [t for t in terms if t.concept not in gone]
