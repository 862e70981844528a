"""Whether a description sits in biomedicine, and which MeSH senses of its words it then does not mean.

MeSH is the vocabulary of medicine, and many words of other fields are also MeSH terms in a medical
sense: "monetary policy shocks" are no circulatory Shock, "exchange rate volatility" no
Volatilization, "purchase intention" no psychological Intention. Inside a medical description the same
one-word match is usually right ("road traffic noise" beside hypertension is Noise), so the judgement is
made on the whole description first:

- **evidence of biomedicine** (`names_biomedicine`): some phrase part names a concrete thing of medicine
  or biology, a descriptor of anatomy, organisms, diseases, chemicals and drugs, techniques,
  psychiatry and behaviour, biological phenomena, persons or health care (trees A, B, C, D, E, F,
  G03-G16, M01, N02, N04, N05), either in several words ("immunocompromised patients"), as the whole
  of its part ("hypertension", "graphene", "anxiety", "older people") or with other such descriptors that
  hold the rest of its part ("ICU nurses": Intensive Care Units and Nurses), not one word among words MeSH
  does not hold (the "shocks" of "monetary policy shocks" is no evidence for itself) nor through an
  entry term of another field's sense (below: "household", "energy consumption"); a body part, an
  organism, a disease, a mental disorder or health personnel is evidence with any modifier ("invasive
  aspergillosis", "freshwater fish", "severe mental illness", "oncology nurses"), and so are patients
  named by their heading ("constipation patients"; not "clients") and people named by their age group
  ("community-dwelling adults", "left-behind children"; not "workers" or "students", whom other fields
  study by their role), but a tissue or cell part named by one word before the
  noun it qualifies is not (`modifying_body_part`: the "dendrite" of "dendrite growth" in a lithium
  battery, the "membrane" of "membrane fouling"): physics, materials science and engineering write
  such words in their own sense, and where medicine means them, another part says so; nor is such a
  part named by one word as the head after a word MeSH does not know at all (`unknown_devices_part`:
  the "cells" of "perovskite solar cells", the "membranes" of "electrospun nanofiber membranes"; not
  "hippocampal neurons"), nor an inorganic chemical and nothing else (tree D01, `_inorganic_only`:
  the "copper alloys" of friction stir welding, "hydrochloric acid" for corrosion, "graphene" as a
  lubricant), the metals, alloys, oxides and acids materials science and engineering name as often as
  medicine does, and where medicine means them another part names a disease, people or a drug; nor a
  descriptor MeSH also files under physics or chemistry (G01, G02), technology and industry (J01) or
  the information sciences (L) ("air filtration", "wood", "satellite imagery", "cellular automata"):
  MeSH itself says other fields study it too (not food, J02, nor public health, N06: "sugar-sweetened
  beverages" and "body mass index" are medicine's);
- **another field's sense** (`another_fields_sense`): without that evidence, a one-word match filed under
  the trees of general conditions and signs, behaviour and phenomena (C23, F, G), and none of A, B, D
  or a disease's tree (a disease is no other field's word: "water-loss dehydration"), beside a word of
  its part that no match holds and that is no modifier MeSH writes ("monetary", "purchase"; not the
  "acute" of "acute appendicitis") is not meant: the part is searched as written, the way a searcher
  of that field would write it. So is a tissue or cell part named by one word before the noun it
  qualifies ("dendrite growth": no neuron's Dendrites), and the word it holds counts as a word no match
  holds (then the "growth" after it is no physiological Growth either: "dendrite growth" is searched as
  written). A word whose neighbours are all MeSH's ("household energy consumption", "student
  achievement") keeps its heading. When that word is the head of three words or
  more, the compound before it is searched beside the phrase (`compound_before`): "exchange rate
  volatility" OR "exchange rate", as the papers write the volatility, shocks or surprises of it in
  many ways;
- **another field's entry term** (`entry_of_another_field`): without that evidence, a phrase that
  reaches a heading of those trees only through one of its entry terms ("energy consumption": Energy
  Intake, "time series": Time Factors, "household": Family Characteristics) is searched as written,
  without the heading and without its other entry terms ("calorie intake" is no household's energy),
  in PubMed as in Semantic Scholar and OpenAlex; a phrase that is the heading itself keeps it.

Nothing here is a list of domain words: the trees come from MeSH, the parts from the understanding.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.keywords.phrase_words import content_words
from agent.language.mesh_recognition import MeshMatch, MeshVocabulary, natural_order, tokenize
from agent.models import MeshDescriptor

# the professions of health care as disciplines: medicine and its specialties ("surgery", "psychiatry"),
# nursing, dentistry, pharmacy and the allied health professions ("occupational therapy"); not the
# other occupations MeSH files beside them ("Specialization", "Mortuary Practice")
_HEALTH_PROFESSIONS = ("H02.403", "H02.478", "H02.163", "H02.646", "H02.010")
# the trees of what medicine and biology name concretely: anatomy, organisms, diseases, chemicals and
# drugs, techniques, psychiatry and psychology ("anxiety", named whole), biological phenomena (not the
# physical ones of G01, G02, nor mathematics and informatics, G17), persons, health care (its facilities
# and services, administration and quality; not economics, N03, nor the environment, N06) and the
# professions of health care ("quitting smoking before surgery": surgery says medicine)
BIOMEDICAL_TREES = ("A", "B", "C", "D", "E", "F", "M01", "N02", "N04", "N05", *_HEALTH_PROFESSIONS) + tuple(
    f"G{n:02d}" for n in range(3, 17)
)
# anatomy, organisms, diseases and mental disorders (not the general conditions and signs of C23):
# named with any modifier ("invasive aspergillosis", "freshwater fish", "severe mental illness"), they
# are evidence of biology or medicine
_LIVING_TREES = ("A", "B", "F03") + tuple(f"C{n:02d}" for n in range(1, 27) if n != 23)
# health personnel (nurses, physicians, pharmacists, caregivers): the people of medicine, with any
# modifier too ("oncology nurses", "emergency physicians"), a word no other field writes in its own sense
_HEALTH_PERSONNEL = ("M01.526.485",)
# the age groups of people (Child, Adolescent, Adult, Aged, Infant): the people medicine and public
# health study are named by their age with any modifier ("community-dwelling adults", "left-behind
# children", "school-age children"); other fields name theirs by role ("workers", "households", "students")
_AGE_GROUPS = ("M01.060",)
# patients (inpatients, outpatients): the people medicine cares for, named with any modifier too
# ("functional constipation patients"); by their own names only, not through an entry term of another
# field's word ("clients")
_PATIENTS = ("M01.643",)
_PSYCHOTHERAPY = ("F04.754",)
# the trees whose one-word headings other fields also write in their own sense: general pathological
# conditions and signs (C23: Shock, Fatigue), behaviour and psychology, phenomena and processes
OTHER_SENSE_TREES = ("C23", "F", "G")
# ... unless the heading is also a concrete thing (anatomy, organism, a disease, chemical)
_CONCRETE_TREES = (*_LIVING_TREES, "D")
# the parts of the body seen under a microscope, tissues and cells (and nothing else, not the body's
# regions or organs): their one-word names are the words physics, materials science and engineering
# also use ("dendrite", "cell", "nucleus", "membrane")
_MICROSCOPIC = ("A10", "A11")
# inorganic chemicals: elements, metals, alloys, oxides, acids and salts, which materials science,
# chemistry and engineering name in their own right
_INORGANIC = ("D01",)
# the trees of physics and chemistry, technology and industry, the information sciences and statistics
# (Statistics as Topic, E05.318.740: "principal component analysis", "regression analysis", which every
# field analyses with): a descriptor filed under one of them too is a thing other fields study as well
_OTHER_FIELDS_TREES = ("G01", "G02", "J01", "L", "E05.318.740")


def _under(match: MeshMatch | MeshDescriptor, trees: tuple[str, ...]) -> bool:
    descriptor = match.descriptor if isinstance(match, MeshMatch) else match
    return any(t.startswith(trees) for t in descriptor.tree_numbers)


def _whole_part(match: MeshMatch, text: str) -> bool:
    """Whether the match holds every content word of its part, or several words of its own."""
    return len(match.text.split()) > 1 or len(content_words(text)) <= 1


def names_biomedicine(
    texts: Sequence[str],
    named: Sequence[Sequence[MeshMatch]],
    vocabulary: MeshVocabulary | None = None,
) -> bool:
    """Whether some part of a description (`texts`, with the matches `named` in each) names a concrete
    thing of medicine or biology: a body part, an organism or a disease in any words, or a descriptor of
    those trees in several words or as its whole part, not through an entry term of another field's
    sense, nor an inorganic chemical alone, nor (with the `vocabulary`) a cell part after a word MeSH
    does not know."""
    for text, matches in zip(texts, named, strict=True):
        evidence = [
            match
            for match in matches
            if not modifying_body_part(match, text)
            and not _inorganic_only(match)
            and not _under(match, _OTHER_FIELDS_TREES)
            and not (vocabulary is not None and unknown_devices_part(match, text, vocabulary))
        ]
        medical = [
            match
            for match in evidence
            if _under(match, BIOMEDICAL_TREES) and not entry_of_another_field(match.descriptor, match.via)
        ]
        if _covered(text, medical):
            return True  # "ICU nurses": Intensive Care Units and Nurses hold the whole part between them
        for match in evidence:
            if (
                _under(match, _LIVING_TREES + _HEALTH_PERSONNEL + _AGE_GROUPS)
                or (_under(match, _PATIENTS) and match.via == "heading")
                or (match in medical and _whole_part(match, text))
            ):
                return True
    return False


def _inorganic_only(match: MeshMatch) -> bool:
    """Whether a match is an inorganic chemical and nothing else (every tree number under D01):
    "copper", "alloys", "hydrochloric acid", "graphene" (Graphite)."""
    numbers = match.descriptor.tree_numbers
    return bool(numbers) and all(t.startswith(_INORGANIC) for t in numbers)


def unknown_devices_part(match: MeshMatch, text: str, vocabulary: MeshVocabulary) -> bool:
    """Whether a match is a tissue or cell part (tree A10-A11, and no other tree than anatomy's) named by
    one word as the head of its phrase after a word MeSH does not know at all: a device's part in
    physics or engineering ("perovskite solar cells", "electrospun nanofiber membranes"), not a cell
    of the body ("hippocampal neurons", "cancer cells")."""
    numbers = match.descriptor.tree_numbers
    if not (
        len(match.text.split()) == 1
        and numbers
        and all(t.startswith("A") for t in numbers)
        and _under(match, _MICROSCOPIC)
        and not content_words(text[match.end :])
    ):
        return False
    return any(not vocabulary.knows_word(token.text) for token in tokenize(text[: match.start]))


def _covered(text: str, matches: Sequence[MeshMatch]) -> bool:
    """Whether the matches, together, hold every content word of their part (and there are several)."""
    words = {w.casefold() for w in content_words(text)}
    held = {w.casefold() for match in matches for w in content_words(match.text)}
    return len(matches) > 1 and bool(words) and words <= held


def modifying_body_part(match: MeshMatch, text: str) -> bool:
    """Whether a match is a tissue or cell part (MeSH's anatomy, tree A and no other, with a place among
    the tissues and cells, A10-A11) named by one word before a noun of its phrase that it qualifies
    ("dendrite growth", "membrane fouling"), not the head of the phrase ("hippocampal neurons")."""
    return (
        len(match.text.split()) == 1
        and bool(match.descriptor.tree_numbers)
        and all(t.startswith("A") for t in match.descriptor.tree_numbers)
        and _under(match, _MICROSCOPIC)
        and bool(content_words(text[match.end :]))
    )


def another_fields_sense(
    match: MeshMatch, text: str, matches: Sequence[MeshMatch], vocabulary: MeshVocabulary
) -> bool:
    """Whether a one-word match of a phrase (`text`, with all its `matches`), in a description that
    names nothing of biomedicine, is a word of another field MeSH holds in a medical sense ("monetary
    policy shocks": no Shock)."""
    if modifying_body_part(match, text):
        return True  # the "dendrite" of "dendrite growth" in a battery
    held = [m for m in matches if not modifying_body_part(m, text)]
    return (
        len(match.text.split()) == 1
        and _under(match, OTHER_SENSE_TREES)
        and not _under(match, _CONCRETE_TREES)
        and any(not vocabulary.is_modifier(word) for word in _unheld_words(text, held))
    )


def _unheld_words(text: str, matches: Sequence[MeshMatch]) -> list[str]:
    """The content words of `text` that no match (of `matches`) holds."""
    content = {word.lower() for word in content_words(text)}
    return [
        token.text
        for token in tokenize(text)
        if token.text.lower() in content
        and not any(m.start <= token.start and token.end <= m.end for m in matches)
    ]


def compound_before(text: str, other_senses: Sequence[MeshMatch]) -> str | None:
    """The words before a phrase's head when the head is a word of another field's sense (`other_senses`)
    and two words at least stand before it ("monetary policy shocks": monetary policy), else None."""
    last = max(other_senses, key=lambda m: m.end, default=None)
    if last is None or text[last.end :].strip():
        return None
    before = text[: last.start].strip()
    # two words written apart ("exchange rate"), not one hyphenated modifier ("low-resource languages")
    return before if len(before.split()) >= 2 and content_words(before) else None


def entry_of_another_field(descriptor: MeshDescriptor, via: str) -> bool:
    """Whether, in a description that names nothing of biomedicine, a phrase reaching `descriptor`
    `via` one of its entry terms names the other field's thing ("energy consumption": no Energy Intake)."""
    return (
        via == "entry term"
        and _under(descriptor, OTHER_SENSE_TREES)
        and not _under(descriptor, _CONCRETE_TREES)
        and not _a_psychotherapy(descriptor)
    )


def _a_psychotherapy(descriptor: MeshDescriptor) -> bool:
    """A therapy of the mind MeSH files under Psychotherapy and names as a therapy ("Cognitive Behavioral
    Therapy", "Family Therapy"): a treatment, which no other field names, though it sits among the
    behavioural trees ("cognitive therapy" is its entry term, and no word of economics)."""
    last = natural_order(descriptor.heading).split()[-1].lower()
    return _under(descriptor, _PSYCHOTHERAPY) and last.endswith("therapy")
