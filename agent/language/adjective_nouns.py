"""The condition an adjective names by its noun: "recurrent" is Recurrence, "obese" Obesity.

A title writes "recurrent colorectal cancer" or "postmenopausal women with vaginal bleeding"; MeSH has
no heading for the whole, and the searcher ANDs the rest with what the adjective says, which MeSH names
as a noun (Recurrence, under Pathologic Processes; Postmenopause). English forms such adjectives and
nouns in pairs by closed rules of word formation:

- -ent / -ence, -ant / -ance ("recurrent", "convalescent"), -istic / -ism ("autistic": Autistic Disorder,
  whose entry term "autism" is the noun), -etic / -etes ("diabetic": Diabetes Mellitus, whose entry
  term "diabetes" is the noun): the noun may be any term of a condition;
- the rules that make an adjective of a Greek or Latin noun of a disease or state: -otic / -osis
  ("psychotic"), -itic / -itis ("arthritic"), -ptic / -psy, -psis ("epileptic", "septic"), -atic / -a
  ("asthmatic"), -ic / -ia, -y, -ism ("anaemic", "hypoxic", "alcoholic"), -ese / -esity ("obese"),
  -ive / -ion ("hypertensive"), -ant / -ancy ("pregnant"), -al / -e
  ("postmenopausal"), -ile / -ility ("infertile"), -y / -iness ("dizzy"), and the bare adjective
  with -ness or -ty ("deaf", "blind", "frail"): there the noun must be the descriptor's own
  heading, because these endings also make adjectives whose noun is an entry term of something else
  ("invasive", "progressive").

The noun counts only when every tree of its descriptor is one of a condition or a state of the person
a searcher ANDs (`CONDITION_TREES`: diseases C, mental disorders F03, and the reproductive states
G08.686 such as Pregnancy and Postmenopause), so "prevalent" (Prevalence, a statistic), "violent"
(Violence) and "spinal" (Spine) name no condition here. Nothing here lists a word: MeSH attests every
noun.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import Counter

from agent.language.mesh_recognition import MeshVocabulary, phrase_key, word_key
from agent.models import MeshDescriptor

# (adjective ending, noun endings, whether any term of the descriptor may be the noun)
_PAIRS: tuple[tuple[re.Pattern[str], tuple[str, ...], bool], ...] = (
    (re.compile(r"(?<=[a-z]{4})ent$"), ("ence",), True),
    (re.compile(r"(?<=[a-z]{4})ant$"), ("ance",), True),
    (re.compile(r"(?<=[a-z]{3})istic$"), ("ism",), True),
    (re.compile(r"(?<=[a-z]{4})ant$"), ("ancy",), False),
    (re.compile(r"(?<=[a-z]{3})otic$"), ("osis",), False),
    (re.compile(r"(?<=[a-z]{3})itic$"), ("itis",), False),
    (re.compile(r"(?<=[a-z]{2})ptic$"), ("psy", "psis"), False),
    (re.compile(r"(?<=[a-z]{3})atic$"), ("a",), False),
    (re.compile(r"(?<=[a-z]{3})ic$"), ("ia", "y", "ism"), False),
    (re.compile(r"(?<=[a-z]{2})ese$"), ("esity",), False),
    (re.compile(r"(?<=[a-z]{4})ive$"), ("ion",), False),
    (re.compile(r"(?<=[a-z]{4})al$"), ("e",), False),
    (re.compile(r"(?<=[a-z]{2})etic$"), ("etes",), True),
    (re.compile(r"(?<=[a-z]{3})ile$"), ("ility",), False),
    (re.compile(r"(?<=[a-z]{2})y$"), ("iness",), False),
    (re.compile(r"(?<=[a-z]{3})$"), ("ness", "ty"), False),
)
CONDITION_TREES = ("C", "F03", "G08.686")
COMPLICATIONS_MIN_HEADINGS = 3  # disease headings an adjective must open to name their complications

# per vocabulary: how many disease headings of two or more words each first word opens
_openers: weakref.WeakKeyDictionary[MeshVocabulary, Counter[str]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def condition_of_adjective(word: str, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The one descriptor of a condition the noun of an adjective names ("recurrent": Recurrence), or None."""
    found = noun_of_adjective(word, vocabulary)
    return found[1] if found is not None else None


def noun_of_adjective(word: str, vocabulary: MeshVocabulary) -> tuple[str, MeshDescriptor] | None:
    """The noun of an adjective of a condition, as the adjective spells it, and the one descriptor of a
    condition it names ("anaemic": "anaemia", Anemia; "obese": "obesity", Obesity), or None."""
    lower = word.lower()
    for pattern, endings, any_term in _PAIRS:
        if not pattern.search(lower):
            continue
        for ending in endings:
            noun = pattern.sub(ending, lower)
            found = [
                d
                for d in vocabulary.lookup(noun)
                if d.tree_numbers
                and all(t.startswith(CONDITION_TREES) for t in d.tree_numbers)
                and (any_term or phrase_key(d.heading) == phrase_key(noun))
            ]
            if len(found) == 1:
                return noun, found[0]
    return None


def names_complications(word: str, vocabulary: MeshVocabulary) -> bool:
    """Whether MeSH opens the headings of at least `COMPLICATIONS_MIN_HEADINGS` diseases with the word
    ("diabetic": Diabetic Retinopathy, Diabetic Foot, Diabetic Nephropathies ...; "hypertensive"). Before
    the name of a condition such an adjective names a complication, which MeSH names whole or not at all
    ("diabetic macular oedema": Macular Edema, Diabetic Retinopathy): no condition apart to AND, as
    "recurrent" (Recurrence) is before "colorectal cancer"."""
    with _lock:
        if vocabulary not in _openers:
            counts: Counter[str] = Counter()
            for row in vocabulary.file.records().values():
                key = phrase_key(row.get("heading") or "")
                if len(key) > 1 and any(t.startswith("C") for t in row.get("tree_numbers") or []):
                    counts[key[0]] += 1
            _openers[vocabulary] = counts
        return _openers[vocabulary][word_key(word)] >= COMPLICATIONS_MIN_HEADINGS
