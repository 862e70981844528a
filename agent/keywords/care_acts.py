"""Acts of patient care a description names without the patient: "readmissions", "discharge".

MeSH names the acts done to a patient in the course of care "Patient <act>" (Patient Admission, Patient
Discharge, Patient Readmission, Patient Transfer, Patient Handoff, Patient Positioning, all under
Patient Care, E02.760) and often gives no term of the act alone: "readmission" and "discharge" are no
MeSH terms. A clinician leaves the patient unsaid ("reduce 30-day readmissions", "follow-up after
discharge"), and a librarian searches the heading; exact recognition finds nothing, so this is asked
only where nothing else matched, in a description that names something of medicine ("river discharge"
is water's), for the act alone or after the health facility it is done in ("hospital discharge").

A place before a noun of putting into it ("hospital admission", "nursing home placement") names being
in that place, which English and MeSH name by the verb formed from the place ("hospitalise": admit to
hospital; the heading Hospitalization, not its narrower Patient Admission, the administrative act).
The nouns of putting into a place are a closed class of English (`_NOUNS_OF_ENTRY`); the headings are
MeSH's own ("<place>-isation", looked up, never listed).
"""

from __future__ import annotations

from agent.language.mesh_recognition import MeshMatch, MeshVocabulary
from agent.language.morphology import singular
from agent.models import MeshDescriptor

_PATIENT_CARE = "E02.760"  # Patient Care: what is done to a patient in the course of care
_PATIENT = "patient"  # the word MeSH writes before an act of care ("Patient Discharge")
_NOUNS_OF_ENTRY = frozenset({"admission", "placement", "confinement", "entry"})  # putting into a place
_VERB_OF_PLACE = ("isation", "ization")  # "hospital" -> "hospitalisation": being put in the place
_HEALTH_FACILITIES = "N02.278"  # where care is given: "hospital discharge" is the patient's discharge


def _act_of_care(word: str, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The heading "Patient <word>" under Patient Care, for a word MeSH has no term of its own for."""
    if vocabulary.knows(word):
        return None
    found = [
        d
        for d in vocabulary.lookup(f"{_PATIENT} {singular(word)}")
        if any(t.startswith(_PATIENT_CARE) for t in d.tree_numbers)
    ]
    return found[0] if len(found) == 1 else None


def _stay_in_place(place: str, noun: str, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The heading of being in `place` ("hospital" -> Hospitalization) when `noun` is one of putting
    into it; None when the noun is another or MeSH names no such heading."""
    if singular(noun).lower() not in _NOUNS_OF_ENTRY:
        return None
    for suffix in _VERB_OF_PLACE:
        found = vocabulary.lookup(singular(place) + suffix)
        if len(found) == 1:
            return found[0]
    return None


def _place_of_care(word: str, vocabulary: MeshVocabulary) -> bool:
    """True for a word that names a health facility ("hospital": Hospitals)."""
    return any(t.startswith(_HEALTH_FACILITIES) for d in vocabulary.lookup(word) for t in d.tree_numbers)


def act_of_patient_care(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The act of care a phrase names without the patient ("readmissions": Patient Readmission), or the
    stay a place before a noun of entry names ("hospital admissions": Hospitalization), or the act after
    the place of care it is done in ("hospital discharge": Patient Discharge); [] otherwise."""
    words = text.split()
    if len(words) == 1:
        found = _act_of_care(words[0], vocabulary)
    elif len(words) == 2:
        found = _stay_in_place(words[0], words[1], vocabulary) or (
            _act_of_care(words[1], vocabulary) if _place_of_care(words[0], vocabulary) else None
        )
    else:
        found = None
    return [MeshMatch(text, 0, len(text), found, "entry term")] if found is not None else []
