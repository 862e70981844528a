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

The same fragment may say where the user works ("Global health researcher working in sub-Saharan
Africa: what is ...", "Nurse manager in the NHS - ..."): the job goes, the place stays as where the
question is asked ("In sub-Saharan Africa, what is ..."), unless a bare "in" names the user's field in
lower case ("PhD student in public health."), which goes with the job. Whom they work with or for
("Sports physio working with a women's football club: ...") goes with the job too, as the question
names its own people, and so does a greeting before it ("Hi!"). And "We do clinical genomics - ..."
opening the text names the user's field as "Rheumatology registrar" does their job: the verb "do" with
a short object and a stop (a topic is studied, looked at or worked on: "We work on X" stays).

Who pays for the work is said the same way and names no concept either: "We have an NIHR grant to
develop X" is the wish "We want to develop X" ("NIHR grant" had become a required block), and "My PhD
is funded by the MRC." says nothing of the topic (a topic's own "trials funded by industry" stays: only
the user's grant, or the user's own work as the subject of "funded by", is read so). Nor does the
service the user runs before saying what they want ("We run a falls clinic and want evidence on X":
"falls clinic" had become a required block).
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
    | {"manager", "director", "coordinator", "administrator", "analyst", "engineer", "physio", "pharmacist"}
)
_AGENT_ENDINGS = ("ologist", "ician", "itian", "arian", "iatrist", "ist")
_SHORT_NOT_AGENTS = frozenset({"wrist", "twist", "assist", "exist", "persist", "insist", "resist"})
_OPENING = re.compile(r"^\s*(?P<words>[A-Za-z][\w&/'-]*(?:\s+[\w&/'-]+){0,4})\s*(?:[.;:!]|\s[-–—]\s)\s*")

# the job fragment's place: "... researcher working in sub-Saharan Africa", "... nurse based in Kenya"
_WORKING_IN = re.compile(
    r"^\s*(?P<job>[A-Za-z][\w&/'-]*(?:\s+[\w&/'-]+){0,4}?)\s+(?P<working>(?:working|based)\s+)?(?:in|at)\s+"
    r"(?P<place>[^.;:!?]{1,60}?)\s*(?:[.;:!]|\s[-–—]\s)\s*"
)
# a greeting before the introduction: "Hi! PhD student in public health. ...", "Hello all, ..."
_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|dear\s+\w+|good\s+(?:morning|afternoon|evening))(?:\s+(?:there|all|everyone|team))?"
    r"\s*[!,.:]\s*",
    re.IGNORECASE,
)
# whom the user works with or for: "Sports physio working with a women's football club: ..." (their
# clients, not the question's people: the question names its own)
_WORKING_WITH = re.compile(
    r"^\s*(?P<job>[A-Za-z][\w&/'-]*(?:\s+[\w&/'-]+){0,4}?)\s+working\s+(?:with|for)\s+"
    r"[^.;:!?]{1,60}?\s*(?:[.;:!]|\s[-–—]\s)\s*"
)
# the user's field: "We do clinical genomics - ...", "I do health economics."
_DOING_A_FIELD = re.compile(
    r"^\s*(?:i|we)\s+do\s+(?P<words>(?:[\w&/'-]+\s*){1,3}?)\s*(?:[.;:!]|[-–—]\s)\s*", re.I
)

# the user's own service before their wish: "We run a falls clinic and want evidence on X" -> "We want
# evidence on X" (a trial run, "We run a trial of X", is the topic: only a place of care or work goes)
_RUNNING_A_SERVICE = re.compile(
    r"\b(?P<who>i|we)\s+(?:run|manage|lead|staff|work\s+(?:in|at|for))\s+(?:an?|the|our|my)\s+"
    r"(?:[\w&/'-]+\s+){0,4}?(?:clinic|service|unit|ward|practice|department|centre|center|hospital|"
    r"team|lab|laboratory|pharmacy|surgery)s?\s+and\s+(?=(?:want|would|need|are|am|wish|hope|'d)\b)",
    re.IGNORECASE,
)

# the user's grant: "we have an NIHR grant", "I've been awarded a Wellcome fellowship"
_GRANT = re.compile(
    r"\b(?P<who>i|we)(?:\s+have|'ve|\s+hold|\s+received|\s+won|\s+got|\s+secured|\s+obtained|"
    r"(?:\s+have|'ve|\s+were|\s+was)\s+been\s+awarded|\s+were\s+awarded|\s+was\s+awarded)"
    r"(?:\s+(?:an?|the|some|our|my))?\s+(?:[\w/&-]+\s+){0,4}?"
    r"(?:grants?|funding|fellowship|studentship|scholarship)"
    # the funder ("from the Gates Foundation"), then the purpose ("to study X") or the clause's end
    r"(?:\s+from(?:\s+(?!to\b)[\w/&'-]+){1,4}?)?(?:(?P<purpose>\s+to\b)|(?=\s*(?:[.,;!?]|$)))",
    re.IGNORECASE,
)
# the user's own work funded: "My PhD is funded by the MRC.", "Our project is supported by X."
_FUNDED_WORK = re.compile(
    r"(?:^|(?<=[.!?;\n]))\s*(?:my|our)\s+(?:phd|doctorate|project|work|research|study|thesis|lab|group|"
    r"fellowship|dissertation)\s+(?:is|was|are|were|has\s+been)\s+(?:funded|supported|sponsored|paid\s+for)"
    r"\s+by\b[^.!?;\n]*[.!?;]?",
    re.IGNORECASE,
)


def without_self_introduction(text: str) -> str:
    """`text` without a telegraphic self-introduction opening it ("ENT registrar here. Is X ..." ->
    "Is X ...", "X researcher working in Kenya: what ..." -> "In Kenya, what ...", "We do genomics - X" -> "X") and without who funds the user ("We have an X grant to study Y" -> "We want to study Y")."""
    text = _GREETING.sub("", _GRANT.sub(_wish_of_a_grant, _FUNDED_WORK.sub("", text)), count=1)
    text = _RUNNING_A_SERVICE.sub(lambda m: f"{m.group('who')} ", text)
    working = _WORKING_IN.match(text)
    if working and _introduces_the_user(working.group("job").split()):
        rest = text[working.end() :]
        if not working.group("working") and not _a_named_place(working.group("place")):
            return rest  # "PhD student in public health.": the user's field, no place
        rest = rest[:1].lower() + rest[1:] if rest[1:2].islower() else rest  # "What helps?" -> "what helps?"
        return f"In {working.group('place')}, {rest}"
    working_with = _WORKING_WITH.match(text)
    if working_with and _introduces_the_user(working_with.group("job").split()):
        return text[working_with.end() :]
    doing = _DOING_A_FIELD.match(text)
    if doing and not any(w.lower() in lex.EN_FUNCTION for w in doing.group("words").split()):
        return text[doing.end() :]
    match = _OPENING.match(text)
    if not match or not _introduces_the_user(match.group("words").split()):
        return text
    return text[match.end() :]


def _a_named_place(words: str) -> bool:
    """Whether a job's "in"/"at" names a place, as English writes places: with a capital ("the NHS",
    "rural Peru"); a field is written in lower case ("public health", "oncology")."""
    return any(word[:1].isupper() for word in words.split())


def _wish_of_a_grant(match: re.Match[str]) -> str:
    """ "we have an NIHR grant to" -> "we want to"; a grant with no purpose after it -> "we"."""
    return f"{match.group('who')} want to" if match.group("purpose") else match.group("who")


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
