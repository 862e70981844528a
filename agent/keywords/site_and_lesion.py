"""A condition named by where it sits and what it is ("oral cavity cancer", "hepatic fibrosis"): the
site and the lesion as two AND'ed blocks, with the condition's own terms in both.

A searcher who wants every study of oral cancer does not rely on the phrase "oral cancer": papers
write "carcinoma of the mouth", "oral squamous cell carcinoma", "tongue tumours". The expert's
strategy searches the site and the lesion apart, `(oral* OR mouth*) AND (cancer* OR carcinoma* OR
neoplas*)`, beside the pre-coordinated heading. The query here keeps the heading and every term the
concept had, and adds the two parts by the distributive law:

    H OR (site AND lesion)  =  (H OR site) AND (H OR lesion)

so the result finds everything the one block found, and also papers that name the site and the lesion
in other words. Each side is a concept the user sees and can edit (or switch off, which gives the
one block back).

When a condition is split: its term has a MeSH heading H; the last word of the term names a
descriptor L of which H is a narrower heading in some MeSH tree ("cancer" -> Neoplasms, and Mouth
Neoplasms sits under it; "fibrosis" -> Fibrosis, and Liver Cirrhosis sits under it; "pain" -> Pain),
or else the last word of H does ("rotator cuff tears": Rotator Cuff Injuries, under Wounds and
Injuries); the written lesion word is searched in its block with the condition's heading H, never
with one of its own (the lesion's, "Pain"[Mesh], would take every pain of the body; "tears" alone is
the tear fluid);
and the words before it name a body part, as written ("shoulder") or as MeSH's own names of H say it
(Mouth Neoplasms is also "Cancer of Mouth", so "oral cavity" is where it sits). A modifier that is
not a body part ("gestational diabetes", "type 2 diabetes", "visceral leishmaniasis") is not split:
MeSH names no anatomy among the heading's names.

A free-text concept (no heading names the whole) headed by an adjective of a body part ("urinary
biomarkers", "mediastinal lymph node involvement") is split the same way (`split_named_parts`): the body
part, and the rest of the phrase with its heading where MeSH names it, AND'ed, instead of one exact phrase.

A body part written just before what is done to it ("foot massage", "pelvic floor exercises", "neck
exercises") says which treatment it is: MeSH names only the act (Massage, Exercise), and without the part
the search takes every massage and every exercise. Such a part is required beside the act
(`sites_of_treatments`), as the site of a condition is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent.keywords.concept_roles import names_the_concept
from agent.keywords.phrase_words import content_words
from agent.language.body_parts import adjective_stems
from agent.language.mesh_recognition import MeshVocabulary, is_anatomy, natural_order, phrase_key
from agent.language.mesh_tails import is_below
from agent.models import Concept, ConceptRole, MeshDescriptor, Synonym, SynonymOrigin, Term

if TYPE_CHECKING:
    from agent.keywords.concepts import Concepts

_JOINING = frozenset({"of", "the", "in", "and"})
_SITE_REASON = (
    "where the condition sits, searched apart from it: with the condition's own terms in this block "
    "too, papers that name the site and the lesion in other words are found"
)


@dataclass(frozen=True)
class SiteAndLesion:
    """The two parts of a condition term: the words of the site (and the body part MeSH names), and
    the lesion word with its descriptor."""

    site_text: str
    site: MeshDescriptor
    lesion_text: str
    lesion: MeshDescriptor


def _narrower(heading: MeshDescriptor, broader: MeshDescriptor) -> bool:
    return is_below(heading, broader)


def _whole(text: str, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The one descriptor the whole of `text` names, or None."""
    matches = vocabulary.recognize(text)
    if len(matches) == 1 and matches[0].text.casefold() == text.casefold():
        return matches[0].descriptor
    return None


def _body_part(
    site_text: str, heading: MeshDescriptor, lesion: MeshDescriptor, vocabulary: MeshVocabulary
) -> MeshDescriptor | None:
    """The body part the site words name: as written ("shoulder"), else the one MeSH's names of the
    heading write beside the lesion ("vulval" of "vulval cancer": Vulvar Neoplasms is also "Cancer of
    Vulva", and Vulva is a body part)."""
    written = _whole(site_text, vocabulary)
    if written is not None:
        return written if is_anatomy(written) else None
    if (part := _other_word_for_the_part(site_text, heading, vocabulary)) is not None:
        return part
    if len(site_text.split()) > 1:
        return None  # MeSH's names stand for the adjective of one site ("oral"), not a list ("head and neck")
    lesion_words = {w.casefold() for name in [lesion.heading, *lesion.entry_terms] for w in name.split()}
    named: dict[str, list[MeshDescriptor]] = {}
    for name in [natural_order(heading.heading), *heading.entry_terms]:
        rest = " ".join(
            w for w in name.replace(",", " ").split() if w.casefold() not in lesion_words | _JOINING
        )
        found = _whole(rest, vocabulary) if rest else None
        if found is not None and is_anatomy(found):
            named.setdefault(found.ui, []).append(found)
    # where the condition sits is written in several of its names ("Mouth Cancer", "Cancer of the Mouth");
    # a part one name writes is a kind of it ("Occipital Lobe Epilepsy" of Epilepsies, Partial), which a
    # word such as "focal" does not name
    return next((parts[0] for parts in named.values() if len(parts) >= 2), None)


def _other_word_for_the_part(
    site_text: str, heading: MeshDescriptor, vocabulary: MeshVocabulary
) -> MeshDescriptor | None:
    """The body part an adjective names where the heading writes that part with another word ("vertebral"
    of Spinal Fractures: Spine, which MeSH's names call "spinal"; `MeshVocabulary.body_part`). An
    adjective the heading's own names write ("visceral" of Visceral Leishmaniasis) is a kind of the
    disease there, not where it sits."""
    if len(site_text.split()) != 1:
        return None
    part = vocabulary.body_part(site_text)
    names = [natural_order(name) for name in [heading.heading, *heading.entry_terms]]
    written = {word.casefold() for name in names for word in name.split()}
    if part is None or site_text.casefold() in written:
        return None
    return part if any(vocabulary.body_part(word) == part for word in written - _JOINING) else None


def _lesion(
    written: str, heading: MeshDescriptor, vocabulary: MeshVocabulary, site_text: str = ""
) -> MeshDescriptor | None:
    """The descriptor the heading is filed under that the term's last word names ("cancer":
    Neoplasms), else the one the heading's own last word names, when the term writes the lesion in
    words MeSH files elsewhere and the site in the heading's words ("rotator cuff tears": Rotator Cuff
    Injuries, under Wounds and Injuries; "tears" alone is the tear fluid). A lay name that shares no
    word with the heading is one fixed expression, not a site and a lesion ("heart attack": Myocardial
    Infarction; "attack" is no word for an infarction)."""
    heading_words = {w.casefold() for w in re.findall(r"\w+", heading.heading)}
    shares = any(w.casefold() in heading_words for w in site_text.split())
    for text in (written, natural_order(heading.heading).split()[-1]) if shares else (written,):
        lesion = _whole(text, vocabulary)
        if lesion is not None and _narrower(heading, lesion):
            return lesion
    return _parent_named(written, heading, vocabulary)


def _parent_named(written: str, heading: MeshDescriptor, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The descriptor right above the heading one of whose names ends in the written word, where MeSH
    has no name that is the word alone ("fracture": Fractures, Bone, which is also "Bone Fractures",
    above Spinal Fractures); not a generic word ("disease" of "coronary artery disease" names no lesion)."""
    key = phrase_key(written)
    if not content_words(written):
        return None
    for number in heading.tree_numbers:
        parent = vocabulary.file.by_tree_number(number.rsplit(".", 1)[0]) if "." in number else None
        if parent is not None and any(
            phrase_key(natural_order(name))[-1:] == key for name in [parent.heading, *parent.entry_terms]
        ):
            return parent
    return None


def site_and_lesion(term: Term, vocabulary: MeshVocabulary) -> SiteAndLesion | None:
    """The site and the lesion a condition term names (see the module docstring), or None."""
    if term.mesh is None:
        return None
    words = term.canonical.split()
    if len(words) < 2:
        return None
    lesion_text, site_text = words[-1], " ".join(words[:-1])
    lesion = _lesion(lesion_text, term.mesh, vocabulary, site_text)
    if lesion is None or not content_words(site_text):
        return None
    site = _body_part(site_text, term.mesh, lesion, vocabulary)
    if site is None:
        return None
    return SiteAndLesion(site_text, site, lesion_text, lesion)


def lesion_words(parts: SiteAndLesion) -> list[str]:
    """The one-word names MeSH gives the lesion ("tumor", "neoplasm", "malignancy" for "cancer"; "trauma"
    for "injury"): a searcher ORs them on the lesion's side; longer entry terms ("Pain, Burning") name
    kinds of it, not the lesion."""
    return one_word_names(parts.lesion, parts.lesion_text)


def one_word_names(descriptor: MeshDescriptor, written: str) -> list[str]:
    """The descriptor's one-word names other than the `written` word, lower-cased, in MeSH's order."""
    names = [descriptor.heading, *descriptor.entry_terms]
    seen = {written.casefold()}
    words = []
    for name in names:
        if " " in name or "," in name or name.casefold() in seen:
            continue
        seen.add(name.casefold())
        words.append(name.lower())
    return words


def split_sites(
    result: Concepts, vocabulary: MeshVocabulary | None, new_id: Callable[[str, set[str]], str]
) -> None:
    """Split each required condition whose every term is a site and the same lesion ("hip and knee
    osteoarthritis": the hip or the knee, and osteoarthritis), in place; `new_id` gives the site's
    concept an id not yet taken."""
    if vocabulary is None:
        return
    taken = {c.id for c in result.concepts}
    for concept in list(result.concepts):
        if not (concept.required and concept.enabled and concept.role is ConceptRole.CONDITION):
            continue
        terms = [t for t in result.terms if t.concept == concept.id]
        found = [site_and_lesion(t, vocabulary) for t in terms]
        parts = [p for p in found if p is not None]
        if not parts or len(parts) < len(found) or len({p.lesion.ui for p in parts}) > 1:
            continue
        label = " / ".join(dict.fromkeys(p.site_text for p in parts))
        site_id = new_id(label, taken)
        slot, original = terms[0].slot, terms[0].original
        # the condition's terms without their broader headings: "Pain"[Mesh:NoExp] beside "Shoulder
        # Pain"[Mesh] names the lesion, not the site, and stays on the lesion's side only
        site_terms = {
            t.canonical.casefold(): t.model_copy(update={"concept": site_id, "broader": []}) for t in terms
        }
        for p in parts:
            for text, mesh in ((p.site.heading.lower(), p.site), (p.site_text, None)):
                site_terms.setdefault(
                    text.casefold(),
                    Term(canonical=text, slot=slot, mesh=mesh, concept=site_id, original=original),
                )
        result.terms.append(
            Term(
                canonical=parts[0].lesion_text,
                slot=slot,
                mesh=_heading_of_the_lesion_word(parts[0], terms, vocabulary),
                concept=concept.id,
                original=original,
                synonyms=[Synonym(text=w, origins=[SynonymOrigin.MESH]) for w in lesion_words(parts[0])],
            )
        )
        result.terms += site_terms.values()
        result.concepts.insert(
            result.concepts.index(concept) + 1,
            Concept(id=site_id, label=label, role=ConceptRole.ANATOMY, required=True, reason=_SITE_REASON),
        )


def _heading_of_the_lesion_word(
    parts: SiteAndLesion, conditions: list[Term], vocabulary: MeshVocabulary
) -> MeshDescriptor | None:
    """The heading the lesion's block searches the written lesion word with, where the word would
    otherwise be looked up as a heading of its own ("cancer" is not: Neoplasms is too near the top of
    its tree to search on, the word is searched as written). The word of one condition stands for
    that condition: its heading, not the lesion's ("Pain", "Fibrosis": every kind of it, all over the
    body, where the site's block then takes any mention of the organ) nor another sense of the word
    ("tears", the tear fluid, of "rotator cuff tears"). The word several conditions share ("hip and
    knee osteoarthritis") names what they have in common: the lesion's own heading, left to the lookup
    where the word names it, written where the word names something else."""
    word = parts.lesion_text
    named = _whole(word, vocabulary)
    headings = {t.mesh.ui: t.mesh for t in conditions if t.mesh is not None}
    if named is None:
        return None
    if len(headings) != 1:
        return None if named.ui == parts.lesion.ui else parts.lesion
    via = "heading" if phrase_key(named.heading) == phrase_key(word) else "entry term"
    return next(iter(headings.values())) if names_the_concept(named, word, via) else None


_PART_REASON = (
    "the body part the phrase names by an adjective, searched apart from the rest of it: papers write "
    "the part and the thing in other words and orders"
)


def split_named_parts(
    result: Concepts, vocabulary: MeshVocabulary | None, new_id: Callable[[str, set[str]], str]
) -> None:
    """Split each required free-text concept that one phrase names, headed by an adjective of a body part
    ("urinary biomarkers": Urine; "mediastinal lymph node metastases": Mediastinum), into the body part
    and the rest, in place: a searcher ANDs `(urine OR urinary) AND (biomarker*)` instead of requiring
    the exact phrase, which abstracts word in many ways ("biomarkers in urine"). The rest is searched
    with its heading where MeSH names it whole; the phrase stays a term of the concept."""
    if vocabulary is None:
        return
    taken = {c.id for c in result.concepts}
    for concept in list(result.concepts):
        if not (concept.required and concept.enabled) or concept.role is ConceptRole.ANATOMY:
            continue
        terms = [t for t in result.terms if t.concept == concept.id]
        if len(terms) != 1 or terms[0].mesh is not None:
            continue
        term = terms[0]
        found = _adjective_of_a_part(term.canonical, vocabulary)
        if found is None:
            continue
        first, part, rest = found
        site_id = new_id(first, taken)
        named = _whole(rest, vocabulary)
        if named is not None and not names_the_concept(named, rest):
            named = None  # "biomarkers": too broad a heading to search on, the word is searched
        result.terms.append(Term(canonical=rest, slot=term.slot, mesh=named, concept=concept.id))
        result.terms += [
            Term(
                canonical=part.heading.lower(),
                slot=term.slot,
                mesh=part,
                concept=site_id,
                original=term.original,
            ),
            Term(canonical=first, slot=term.slot, concept=site_id, original=term.original),
        ]
        result.concepts.insert(
            result.concepts.index(concept) + 1,
            Concept(id=site_id, label=first, role=ConceptRole.ANATOMY, required=True, reason=_PART_REASON),
        )


def _adjective_of_a_part(phrase: str, vocabulary: MeshVocabulary) -> tuple[str, MeshDescriptor, str] | None:
    """The first word of a phrase before its head that is an adjective of a body part and no MeSH name
    of its own, the part, and the phrase without it ("cytological cervical lesions": "cervical", Cervix
    Uteri, "cytological lesions"), or None. Where the adjective opens a MeSH name of anatomy ("pelvic
    floor muscle training": Pelvic Floor), that name is the part ("muscle training" the rest), not the
    adjective's own body part (the Pelvis) with "floor muscle training"."""
    words = phrase.split()
    for index, word in enumerate(words[:-1]):
        part = vocabulary.body_part(word) if adjective_stems(word) and not vocabulary.knows(word) else None
        if part is None:
            continue
        for end in range(len(words) - 1, index + 1, -1):
            named = _whole(" ".join(words[index:end]), vocabulary)
            if named is not None and is_anatomy(named):
                rest = " ".join(words[:index] + words[end:])
                return (" ".join(words[index:end]), named, rest) if content_words(rest) else None
        rest = " ".join(words[:index] + words[index + 1 :])
        if content_words(rest):
            return word, part, rest
    return None


_TREATMENT_REASON = "the body part the treatment is done to: it says which treatment the question means"


# Body regions, the musculoskeletal system, the organ systems, the mouth and jaws, the skin: parts a
# treatment is done to. Not tissues, cells or body fluids (A10-A12, A15: "serum urate", "red cell
# transfusion", "urine reagent strips" name a specimen or what is given, not where it is done).
_TREATED_PARTS = ("A01", "A02", "A03", "A04", "A05", "A06", "A07", "A08", "A09", "A14", "A17")


def sites_of_treatments(
    concepts: list[Concept], terms: list[Term], description: str, set_aside: set[str]
) -> dict[str, str]:
    """The body-part concepts written just before a term of what is done ("foot massage": Foot before
    Massage; "pelvic floor exercises"), with the reason they are required. What is done is an
    intervention, or a method MeSH files under therapeutics or surgery (E02, E04: Massage), never a test
    ("chest CT": the chest is where a scan looks, which searchers leave out), nor a concept `set_aside`
    (a reference standard, a secondary question)."""
    roles = {c.id: c.role for c in concepts}

    def done(term: Term) -> bool:
        if term.concept in set_aside:
            return False
        role = roles.get(term.concept)
        if role is ConceptRole.INTERVENTION:
            return True
        return (
            role is ConceptRole.METHOD
            and term.mesh is not None
            and any(t.startswith(("E02", "E04")) for t in term.mesh.tree_numbers)
        )

    acts = [t.canonical for t in terms if done(t)]
    sites: dict[str, str] = {}
    for term in terms:
        if roles.get(term.concept) is not ConceptRole.ANATOMY or not (
            term.mesh is not None and any(t.startswith(_TREATED_PARTS) for t in term.mesh.tree_numbers)
        ):
            continue
        for act in acts:
            pattern = rf"\b{re.escape(term.canonical)}\s+{re.escape(act)}\b"
            if re.search(pattern, description, re.IGNORECASE):
                sites[term.concept] = _TREATMENT_REASON
    return sites
