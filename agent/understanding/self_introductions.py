"""A telegraphic self-introduction opening a description, set aside before the phrases are read.

Hurried users open with who they are in a few words and no verb: "ENT registrar here.", "Hepatology
fellow.", "Rheumatology registrar; I'm interested in ...", "Community nurse here - what dressings ...".
The reader passes "I'm a nurse" and "As a midwife, we ..." by their grammar
(`english_phrase_rules.no_term`), but a fragment with no pronoun and no verb was read as a topic: the
user's job became a required concept ("Rheumatology registrar*"[tiab], "Nurses"[Mesh]).

The fragment is a self-introduction when it opens the text, ends at a stop (. ; : ! or a dash), has at
most five words and none of them a function word, and ends in "here" (the user pointing at
themselves) or in a singular noun of a person's job (a rank such as registrar or consultant, a
profession such as midwife, or an agent noun in -ologist, -ician, -itian, -arian, -iatrist, -ist): a topic
label ("Chronic low back pain: ...", "Older adults with diabetes: ...") ends in no such word.
"""

from __future__ import annotations

import re

from agent.understanding import lexicon as lex

# ranks, posts and professions of clinicians and academics (not "patient" or "child": who is studied)
_JOBS = frozenset(
    {"registrar", "fellow", "consultant", "resident", "intern", "lecturer", "professor", "researcher"}
    | {"scientist", "academic", "gp", "doctor", "clinician", "postdoc", "candidate", "nurse", "student"}
    | {"physician", "midwife", "surgeon", "practitioner", "trainee", "counsellor", "counselor", "coach"}
    | {"officer", "educator", "instructor", "teacher", "doula", "paramedic", "vet", "veterinarian"}
)
_AGENT_ENDINGS = ("ologist", "ician", "itian", "arian", "iatrist", "ist")
_SHORT_NOT_AGENTS = frozenset({"wrist", "twist", "assist", "exist", "persist", "insist", "resist"})
_OPENING = re.compile(r"^\s*(?P<words>[A-Za-z][\w&/'-]*(?:\s+[\w&/'-]+){0,4})\s*(?:[.;:!]|\s[-–—]\s)\s*")


def without_self_introduction(text: str) -> str:
    """`text` without a telegraphic self-introduction opening it ("ENT registrar here. Is X ..." ->
    "Is X ...")."""
    match = _OPENING.match(text)
    if not match or not _introduces_the_user(match.group("words").split()):
        return text
    return text[match.end() :]


def _introduces_the_user(words: list[str]) -> bool:
    lowered = [w.lower() for w in words]
    pointing = lowered[-1] == "here"  # "ENT registrar here"
    named = lowered[:-1] if pointing else lowered
    if not named or any(w in lex.EN_FUNCTION or w in lex.EN_VERBS for w in named):
        return False
    return pointing or _job_noun(named[-1])


def _job_noun(word: str) -> bool:
    """A singular noun of a person's job ("registrar", "midwife", "rheumatologist")."""
    if word in _JOBS:
        return True
    return len(word) >= 7 and word.endswith(_AGENT_ENDINGS) and word not in _SHORT_NOT_AGENTS
