"""An acronym written alone for a phrase the description spells out elsewhere is that phrase's synonym."""

from __future__ import annotations

from agent.keywords.repeated_acronyms import join_repeated_acronyms
from agent.models import Concept, ConceptRole, Term


def _plan(*pairs: tuple[str, str]) -> tuple[list[Concept], list[Term]]:
    concepts = [Concept(id=cid, label=text, role=ConceptRole.INTERVENTION) for cid, text in pairs]
    terms = [Term(canonical=text, slot="context", concept=cid) for cid, text in pairs]
    return concepts, terms


def test_an_acronym_spelled_by_the_initials_of_a_phrase_joins_it() -> None:
    """'Normothermic machine perfusion vs static cold storage ... does NMP lower ...?': NMP is ORed with
    the perfusion, not a third block every paper must write."""
    concepts, terms = _plan(
        ("nmp-long", "normothermic machine perfusion"), ("scs", "static cold storage"), ("nmp", "NMP")
    )
    concepts, terms = join_repeated_acronyms(concepts, terms, {})
    assert [c.id for c in concepts] == ["nmp-long", "scs"]
    assert [s.text for s in terms[0].synonyms] == ["NMP"] and terms[1].synonyms == []


def test_an_acronym_defined_in_brackets_joins_its_long_form() -> None:
    concepts, terms = _plan(("cm", "contingency management"), ("cm2", "CM"))
    concepts, terms = join_repeated_acronyms(concepts, terms, {"CM": "contingency management"})
    assert [c.id for c in concepts] == ["cm"] and [s.text for s in terms[0].synonyms] == ["CM"]


def test_two_letters_no_definition_or_another_phrase_leave_the_acronym_apart() -> None:
    """Two-letter initials stand for dozens of things; an acronym no phrase spells stays a concept."""
    concepts, terms = _plan(
        ("ra", "resistance arteries"), ("ra2", "RA"), ("ecg", "ECG"), ("sc", "sudden death")
    )
    concepts, terms = join_repeated_acronyms(concepts, terms, {})
    assert [c.id for c in concepts] == ["ra", "ra2", "ecg", "sc"]
    assert all(t.synonyms == [] for t in terms)
