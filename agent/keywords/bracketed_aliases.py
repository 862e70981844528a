"""The other name a title writes in brackets after a phrase: a synonym the user attests.

Review titles give a second name in brackets: a nickname ("unconventional natural gas development
(fracking)"), an older or lay name ("congenital idiopathic clubfoot (talipes equinovarus)"), a brand
("clomiphene citrate (Clomid)"), or an acronym ("graduated driver licensing (GDL) programmes",
"Holmium laser enucleation of the prostate (HoLEP)"). The understanding reads the phrase and often
leaves the bracket out; the papers write either name, and a searcher ORs both. The alias joins the term
whose words it names: a word or name joins the term written right before the bracket; an acronym joins
the term that opens its long form (Schwartz-Hearst, `morphology.find_expansion`), so that "(CBT-I)" after
"cognitive behavioural therapy for insomnia" names the therapy, not the insomnia. What is no name is left
alone: counts, ranges, "e.g." lists, alternatives ("(or X)", "and", a slash: "(ranibizumab/aflibercept)"),
negations ("(not cancer)"). The words of a second name, written nowhere else, are no terms of their own
("otitis media with effusion (glue ear)": no "glue" AND "ear").
"""

from __future__ import annotations

import re

from agent.language.mesh_recognition import phrase_key
from agent.language.morphology import find_expansion, is_acronym
from agent.language.text import clean_term, to_half_width
from agent.models import Synonym, SynonymOrigin, Term

_BRACKET = re.compile(r"\(\s*([^()]+?)\s*\)")
# a bracket of examples, alternatives, a count, a comparison or a negation ("heart failure (not cancer)":
# what the user sets aside) is no second name
_NOT_A_NAME = re.compile(
    r"[=%;:,/]|\b(?:e\.?\s?g|i\.?\s?e|see|including|such|as|vs|versus|and|or|n|aged?|years?"
    r"|not|no|excluding|except)\b",
    re.IGNORECASE,
)
_MAX_WORDS = 4


def _forms(term: Term) -> list[tuple[str, ...]]:
    """The term's words as the user wrote them: its canonical form and the synonyms from the text."""
    written = [term.canonical] + [s.text for s in term.synonyms if SynonymOrigin.USER in s.origins]
    return [key for key in (phrase_key(form) for form in written) if key]


def _named(alias: str, terms: list[Term]) -> bool:
    folded = alias.casefold()
    return any(
        folded == t.canonical.casefold() or any(folded == s.text.casefold() for s in t.synonyms)
        for t in terms
    )


def _owner(alias: str, before: tuple[str, ...], text: str, terms: list[Term]) -> Term | None:
    """The term an alias is a second name of, or None (see the module docstring)."""
    if is_acronym(alias):
        long = find_expansion(alias, text)
        if long is None:
            return None
        whole = phrase_key(long)
        fits = [
            (len(key), term)
            for term in terms
            for key in _forms(term)
            if whole[: len(key)] == key and (len(key) >= 2 or key == whole)
        ]
    else:
        fits = [(len(key), term) for term in terms for key in _forms(term) if before[-len(key) :] == key]
    return max(fits, key=lambda fit: fit[0])[1] if fits else None


def add_bracketed_aliases(terms: list[Term], description: str) -> list[Term]:
    """Give each term the second names the description writes for it in brackets, as the user's own
    synonyms (see the module docstring). Returns the other terms written only inside such a bracket
    (`_inside_the_alias`): pieces of the second name ("glue" and "ear" of "(glue ear)"), no concepts
    of their own."""
    text = to_half_width(description)
    pieces: list[Term] = []
    for match in _BRACKET.finditer(text):
        alias = clean_term(match.group(1))
        if (
            not alias
            or len(alias.split()) > _MAX_WORDS
            or _NOT_A_NAME.search(alias)
            or (not is_acronym(alias) and re.search(r"\d", alias))
            or _named(alias, terms)
        ):
            continue
        owner = _owner(alias, phrase_key(text[: match.start()]), text, terms)
        if owner is not None:
            owner.synonyms.append(Synonym(text=alias, origins=[SynonymOrigin.USER]))
            outside = text[: match.start()] + " " + text[match.end() :]
            pieces += [t for t in terms if t is not owner and _inside_the_alias(t, alias, outside)]
    return pieces


def _inside_the_alias(term: Term, alias: str, outside: str) -> bool:
    """Whether a term's words are a run of the alias's words that the description writes nowhere
    outside the bracket."""
    key, words = phrase_key(term.canonical), phrase_key(alias)
    inside = bool(key) and any(words[i : i + len(key)] == key for i in range(len(words) - len(key) + 1))
    return inside and not re.search(rf"(?<!\w){re.escape(term.canonical)}(?!\w)", outside, re.IGNORECASE)
