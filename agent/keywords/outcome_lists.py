"""The outcomes a review title lists: what its studies measure, which a searcher leaves out of the query.

Real review titles often end with the outcomes they report ("...: readmissions, mortality, exercise
capacity and health-related quality of life", "...: recurrence and major bleeding") or name several
as their purpose ("Cochlear implantation versus hearing aids for speech perception and quality of life
in older adults ..."). One outcome written as the purpose, or as what an exposure acts on, defines the
topic ("Prognostic factors for return to work", "the effect of exercise on sleep quality"); a list of
them is what the included studies report some of, and a searcher ANDs none of them (most review
strategies leave outcomes out). MeSH files many such outcomes where their tree gives another role:
Death, Recurrence and Hemorrhage among the pathologic processes (C23), Quality of Life among the social
sciences (I): in such a list they are outcomes all the same. A condition named by its own disease
heading ("heart failure"), an intervention and a technique stay what they are, wherever they are
written ("Antimicrobial stewardship ...: delayed prescribing, point-of-care C-reactive protein testing"),
but a service written before a noun of use in a list of outcomes is the outcome of its use ("...: overdose
deaths and emergency service use"). A subtitle that names the review before what it reports ("...: a
systematic review of renal scarring and treatment failure") lists outcomes after the review's "of", one as
well as several ("a meta-analysis of arrhythmia recurrence"), unless that "of" opens the studies taken ("a
meta-analysis of randomised trials"); an "of" inside a thing's own phrase ("quality of life") names no people
there; a heading MeSH files under
Treatment Outcome (Treatment Failure) is measured. People MeSH sorts by a state, written without the people, are that
state measured ("...: preterm birth, low birth weight and birth defects"), and so is a word MeSH does
not know that the understanding could only file among the people ("...: a meta-analysis of death and
reinfarction", "of reintubation and mortality"). A subtitle that lists the
kinds of a class of outcomes named right before the colon ("... and adverse birth outcomes: preterm
birth, low birth weight and birth defects") says what the class is: its kinds join the class's block
(`kinds_listed_after_the_colon`).
"""

from __future__ import annotations

import re

from agent.keywords.coordination import listed_together, written_distributed
from agent.keywords.title_template import purposes, subtitle, written_as_the_user_wrote, written_in
from agent.language.mesh_recognition import FUNCTION_TREES
from agent.models import Concept, ConceptRole, Term
from agent.understanding.lexicon import EFFECT_VERBS, QUESTION_AUXILIARIES

# Pathological Conditions, Signs and Symptoms: what happens in any disease (Death, Recurrence,
# Hemorrhage), not a disease that defines whom a review is about
_PROCESS_TREE = "C23"
# information science (L) and substances (D): what is done or given, never an outcome; techniques (E)
# neither, unless MeSH also files the heading among the phenomena measured (F, G: Body Mass Index) or
# under Treatment Outcome (E01.789.800: Treatment Failure, Progression-Free Survival), what trials report
_DONE_TREES = ("L", "D")
_MEASURED_TREES = ("F", "G", "E01.789.800")
_LISTED = re.compile(r",|\s(?:and|or)\s", re.IGNORECASE)
# a subtitle that says in whom or where ("...: a meta-analysis in patients with chronic kidney disease")
# names the people, not the outcomes
_PEOPLE_OR_PLACE = re.compile(r"\b(?:in|among|amongst|with|for|of)\s", re.IGNORECASE)
# the review a subtitle names before what it reports ("a systematic review and meta-analysis of delayed
# bleeding and incomplete resection"): its "of" opens the outcomes, not the people or a place
_REVIEW_OF = re.compile(
    r"^(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,3}?(?:review|meta-analysis|meta-analyses|overview|synthesis)"
    r"(?:\s+and\s+(?:[\w-]+\s+){0,2}?(?:meta-analysis|meta-regression|synthesis))?\s+of\s+",
    re.IGNORECASE,
)
# what a list of the studies a review takes is made of ("of cohort studies and registries"): no outcomes
_STUDIES = re.compile(
    r"\b(?:stud(?:y|ies)|trials?|registries|registers?|evaluations?|cohorts?|designs?|series|evidence|data)\b",
    re.IGNORECASE,
)


def _reported(tail: str) -> str:
    """What a subtitle says the review reports: the subtitle after a review's name and its "of" ("a
    systematic review of renal scarring and treatment failure" -> "renal scarring and treatment
    failure"), or the subtitle itself; "" when the review's "of" opens the studies it takes ("a
    meta-analysis of randomised controlled trials", "of cohort studies and biologics registries")."""
    opening = _REVIEW_OF.match(tail)
    if opening is None:
        return tail
    rest = tail[opening.end() :]
    return "" if _STUDIES.search(rest) else rest


# a subtitle that opens with what is acted on ("...: effects on pain intensity, function and mortality")
_EFFECTS_ON = re.compile(r"^(?:the\s+)?(?:effects?|impacts?|influences?)\s+on\s", re.IGNORECASE)
_ACTED_ON = re.compile(
    # "its effect on mortality and breastfeeding", "the effect of HIIT on VO2max and insulin sensitivity"
    r"\b(?:(?:effects?|impacts?|influences?)(?P<of>\s+of\s+[^.;:!?]+?)?\s+on"
    r"|focus(?:s|ed|ing)?\s+on|focuss(?:ed|ing)\s+on|with\s+a\s+focus\s+on)"  # "..., focusing on X, Y and Z"
    r"\s+(?P<outcomes>[^.;:!?]+)",
    re.IGNORECASE,
)
# "X reduce hospital readmissions and improve quality of life for patients with Y": what verbs of effect
# act on, up to the people or place the clause goes on to name
_EFFECTED = re.compile(
    rf"\b(?:{'|'.join(sorted(EFFECT_VERBS, key=len, reverse=True))})\s+(?P<outcomes>[^.;:!?]+)", re.IGNORECASE
)
# ("the need for transfusion": "for" after a noun of need opens what is needed, no people or place)
_WHO_OR_WHERE = re.compile(
    r"(?<!\bneed)(?<!\bneeds)(?<!\brequirement)\s(?:in|among|amongst|for|with|after|during|at)\s",
    re.IGNORECASE,
)


# "emergency service use", "hospital admissions": how much a service is used is what the studies count
_USE_NOUNS = r"(?:use|utili[sz]ation|uptake|attendance|visits?|admissions?|contacts?)"
# the same nouns before the service ("use of emergency services"), and a need for a procedure ("the need
# for transfusion", "need for mechanical ventilation"): how often it is needed is what is counted
_USE_BEFORE = r"(?:(?:use|utili[sz]ation|uptake)\s+of|(?:need|needs|requirement)\s+for)\s+(?:the\s+|an?\s+)?"


def _used(members: list[Term], outcomes: str) -> bool:
    """Whether a list of outcomes writes every term of a concept before a noun of use ("...: overdose
    deaths and emergency service use", "reduces falls and call light use") or after one ("use of
    emergency services", "the need for transfusion"): the use of a service is an
    outcome, not the service an intervention (the "X use" of an exposure, "cannabis use", is written
    before the colon or the verb of effect)."""
    return all(
        re.search(r"(?<!\w)" + re.escape(t.canonical) + r"\s+" + _USE_NOUNS + r"\b", outcomes, re.IGNORECASE)
        or re.search(r"\b" + _USE_BEFORE + re.escape(t.canonical) + r"(?!\w)", outcomes, re.IGNORECASE)
        for t in members
    )


# the participles by which a compound names the cause of its head ("chemotherapy-induced nausea",
# "cancer-related fatigue"), a pattern shared with `agent.keywords.concepts`
CAUSE_PARTICIPLE = r"-(?:related|induced|associated|attributable)\b"


def _only_a_cause(members: list[Term], segment: str) -> bool:
    """Whether a segment writes a concept only as the cause of the next words ("chemotherapy-induced
    nausea and vomiting"): what is caused is listed, the cause is not one of the outcomes."""
    return all(
        re.search(r"(?<!\w)" + re.escape(t.canonical) + CAUSE_PARTICIPLE, segment, re.IGNORECASE)
        for t in members
    )


def _written(phrase: str, text: str) -> bool:
    """Whether `text` writes `phrase`, as it stands or as an alternative of a list that shares a word
    with another ("maternal outcomes" of "maternal and perinatal outcomes")."""
    return written_in(phrase, text) or written_distributed(phrase, text)


def _listed_in_one(members: list[Term], segment: str) -> bool:
    """Whether `segment` lists two of a concept's terms together that MeSH files in no common
    subcategory ("reduce falls and hospital admissions", "its effect on mortality and breastfeeding":
    outcomes of different kinds written as one list are grouped in one concept, and are several all the
    same), unlike alternatives of one kind ("reduce anxiety and depression", F01; "nausea and vomiting",
    C23), which are one concept the question is about. Phenomena MeSH files among the body's
    processes (G) are measured, so a list of them is a list of outcomes though of one kind ("for weight
    loss and insulin resistance in women with polycystic ovary syndrome": Weight Loss and Insulin
    Resistance are both G07)."""
    series = listed_together(segment, [t.canonical for t in members])
    listed: dict[int, list[Term]] = {}
    for term in members:
        if series.get(term.canonical, -1) >= 0:
            listed.setdefault(series[term.canonical], []).append(term)
    return any(
        len(terms) > 1 and (not _one_kind(terms) or _all_physiological(terms)) for terms in listed.values()
    )


def _all_physiological(terms: list[Term]) -> bool:
    """Whether MeSH files every term among the phenomena and processes of the body (G: Weight Loss,
    Insulin Resistance, Blood Pressure), which studies measure."""
    return all(t.mesh is not None and any(n.startswith("G") for n in t.mesh.tree_numbers) for t in terms)


def _one_kind(terms: list[Term]) -> bool:
    """Whether MeSH files every term in one subcategory ("F01" behaviour, "C23" symptoms)."""
    branches = [{n[:3] for n in t.mesh.tree_numbers} if t.mesh else set() for t in terms]
    return bool(set.intersection(*branches))


def _measured(trees: list[str]) -> bool:
    return not any(n.startswith(_DONE_TREES) for n in trees) and (
        not any(n.startswith("E") for n in trees) or any(n.startswith(_MEASURED_TREES) for n in trees)
    )


def _a_state_of_the_people(term: Term) -> bool:
    """Whether a term names the state MeSH sorts some people by, without the people: MeSH writes such
    a heading inverted, the people first ("Infant, Low Birth Weight"), and "low birth weight" written
    without "infant" is the state measured, an outcome in a list of them ("...: preterm birth, low
    birth weight and birth defects"), while "low birth weight infants" are the people studied."""
    if term.mesh is None or ", " not in term.mesh.heading:
        return False
    people = term.mesh.heading.split(", ")[0].casefold().split()
    written = {w.rstrip("s") for w in re.findall(r"[a-z]+", term.canonical.casefold())}
    return not any(w.rstrip("s") in written for w in people)


def _outcome_like(
    concept: Concept,
    members: list[Term],
    in_a_list_of_outcomes: bool,
    in_a_purpose: bool = False,
    reported_as_such: bool = False,
) -> bool:
    """Whether a concept may be a measured outcome: an outcome by its tree or slot, a condition MeSH
    files only among pathologic processes and symptoms (Death, Recurrence), or a method MeSH files
    outside the techniques or also among the phenomena measured (Quality of Life, Body Mass Index); in a
    subtitle that only lists outcomes, any condition or free-text setting too ("...: mortality, stroke
    and myocardial infarction", "...: overdose and reincarceration"), and in a list of the "Y" of "X
    for Y" (`in_a_purpose`) a free-text setting ("for walking ability and balance": the understanding
    files what it cannot place in the context, but a purpose is no place); in such a subtitle, people
    named only by their state ("low birth weight": `_a_state_of_the_people`) too; and in a subtitle that
    opens its list as what the review reports (`reported_as_such`: "a meta-analysis of wound healing and
    major amputation", "effects on pain intensity and mortality") a technique MeSH files among the
    procedures (E: Amputation, Surgical; Pain Measurement; Patient Discharge) is the event or measure
    counted, while a substance or a device of information science (D, L) stays what is given."""
    headings = [t.mesh for t in members if t.mesh is not None]
    trees = [n for h in headings for n in h.tree_numbers]
    if concept.role is ConceptRole.OUTCOME:
        # a heading MeSH files among behaviours too is measured ("disclosure": Disclosure is F01 and L01)
        return not any(
            h.tree_numbers and all(n.startswith(_DONE_TREES) for n in h.tree_numbers) for h in headings
        )
    if concept.role is ConceptRole.CONDITION:
        return (
            in_a_list_of_outcomes
            or (len(headings) == len(members) and all(n.startswith(_PROCESS_TREE) for n in trees))
            # "on VO2max and insulin sensitivity": a state MeSH files among the phenomena measured too
            # (Insulin Resistance, C18 and G07) is, in a list of what is acted on, measured
            or (in_a_purpose and any(n.startswith(FUNCTION_TREES) for n in trees))
        )
    if concept.role is ConceptRole.SETTING:
        return (in_a_list_of_outcomes or in_a_purpose) and not headings
    if concept.role is ConceptRole.POPULATION:
        # people named only by their state ("low birth weight"), or a word MeSH does not know that the
        # understanding could only file among the people ("...: a meta-analysis of death and
        # reinfarction", "of reintubation and mortality"): in a list of outcomes, both are measured
        return (
            in_a_list_of_outcomes
            and bool(members)
            and all(_a_state_of_the_people(t) or t.mesh is None for t in members)
        )
    if concept.role is ConceptRole.METHOD:
        return (
            len(headings) == len(members)
            and bool(trees)
            and (
                _measured(trees)
                or (
                    in_a_list_of_outcomes
                    and reported_as_such
                    and not any(n.startswith(_DONE_TREES) for n in trees)
                )
            )
        )
    return False


def listed_outcomes(concepts: list[Concept], terms: list[Term], description: str) -> dict[str, str]:
    """The concepts a title writes only as outcomes it lists, with the reason a searcher leaves them
    out: named as outcomes in so many words (`_NAMED_OUTCOMES`: "with X and Y as outcomes", "outcomes are
    X and Y", "X and Y are the outcomes ...", a sentence "X and Y outcomes."; `_CARED_ABOUT`: "I care
    about X" after the question asked), written after the title's colon (a subtitle of the outcomes reported; not a question, `_asks`), or among several
    concepts in the "Y" of "X for Y", after "effects on" or "focusing on", or after verbs of effect ("X reduce Y and improve
    Z", up to the people or place named after them); such a concept becomes an outcome."""
    tail = subtitle(description)
    if _asks(tail):
        tail = ""  # "X and Y are the outcomes we care about: does Z in pregnancy ...?": the question itself
    head = description[: len(description) - len(tail)] if tail else description
    reported = _reported(tail)
    members = {c.id: [t for t in terms if t.concept == c.id] for c in concepts}
    # a list, or what a subtitle that names the review reports after its "of", one thing as well ("a
    # meta-analysis of arrhythmia recurrence", "of survival to hospital discharge")
    only_outcomes = bool(
        _LISTED.search(reported) or (reported and reported != tail)
    ) and not _PEOPLE_OR_PLACE.search(_without_named_things(reported, concepts, members))
    # the list opened as what the review reports: after the review's "of", or "effects on"
    reported_as_such = bool(reported) and (reported != tail or bool(_EFFECTS_ON.match(tail)))
    segments = _lists_acted_on(description)
    named = [
        m.group("with") or m.group("are") or m.group("first") or m.group("bare")
        for m in _NAMED_OUTCOMES.finditer(description)
    ] + [m.group("zh") for m in _NAMED_OUTCOMES_ZH.finditer(description)]
    named += [m.group("care") for m in _CARED_ABOUT.finditer(description)]
    found: dict[str, str] = {}
    for concept in concepts:
        own = members[concept.id]
        if not own:
            continue
        if any(
            all(_written(t.canonical, segment) or written_as_the_user_wrote(t, segment) for t in own)
            for segment in named
        ):
            reason = (
                "an outcome the description names as one: the studies report it, a searcher leaves it out"
            )
        elif (
            tail
            and all(_written(t.canonical, tail) and not _written(t.canonical, head) for t in own)
            and (
                _outcome_like(concept, own, only_outcomes, reported_as_such=reported_as_such)
                or (only_outcomes and _used(own, tail))
            )
        ):
            reason = (
                "an outcome the title lists after its colon: the studies report it, a searcher leaves it out"
            )
        elif any(
            (_outcome_like(concept, own, False, in_a_purpose=True) or _used(own, segment))
            and all(_written(t.canonical, segment) for t in own)
            and not _only_a_cause(own, segment)
            and (
                any(
                    other.id != concept.id
                    and any(_written(t.canonical, segment) for t in members[other.id])
                    and not _only_a_cause(members[other.id], segment)
                    for other in concepts
                )
                or _listed_in_one(own, segment)
            )
            for segment in segments
        ):
            reason = (
                "one of several outcomes the title lists: the studies report them, a searcher leaves them out"
            )
        else:
            continue
        concept.role = ConceptRole.OUTCOME
        found[concept.id] = reason
    return found


def _without_named_things(reported: str, concepts: list[Concept], members: dict[str, list[Term]]) -> str:
    """What a subtitle reports with the phrases of its things (no people, no place) blanked out: "quality
    of life", "activities of daily living" and "length of stay" hold an "of" that names no one and
    nowhere, so "...: a meta-analysis of relapse, hypothyroidism and quality of life" still lists only
    outcomes. The phrases of people and settings stay ("of patients with chronic kidney disease")."""
    phrases = sorted(
        (
            t.canonical.strip()
            for c in concepts
            if c.role not in (ConceptRole.POPULATION, ConceptRole.SETTING)
            for t in members[c.id]
            if t.canonical.strip()
        ),
        key=len,
        reverse=True,
    )
    for phrase in phrases:
        reported = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", " ; ", reported, flags=re.IGNORECASE)
    return reported


def _lists_acted_on(description: str) -> list[str]:
    """The lists a description writes as what is done for or acted on: the "Y" of "X for Y", what follows
    "effects on" or "focusing on", and what verbs of effect act on, each up to the people or place named
    after it."""
    segments = [s for s in purposes(description) if _LISTED.search(s)]
    # after "the effect of X on" with no one and nowhere named, the outcomes are what the search is about
    # ("the impact of Airbnb on housing prices and rents")
    acted_on = (
        parts[0]
        for m in _ACTED_ON.finditer(description)
        if len(parts := _WHO_OR_WHERE.split(m.group("outcomes"), maxsplit=1)) > 1 or not m.group("of")
    )
    effected = (_WHO_OR_WHERE.split(m.group("outcomes"))[0] for m in _EFFECTED.finditer(description))
    return segments + [s for s in [*acted_on, *effected] if _LISTED.search(s)]


def outcomes_listed_with_a_condition(
    concepts: list[Concept], terms: list[Term], description: str, listed: dict[str, str]
) -> dict[str, list[str]]:
    """The listed outcomes one list of what is acted on coordinates with a condition that stays one
    ("for preventing falls and pressure ulcers"), by the condition's id: what one verb or purpose takes
    as one list is one block, and the condition makes the list the topic, so the outcomes beside it join
    its block rather than being left out while it is AND'ed alone."""
    members = {c.id: [t.canonical for t in terms if t.concept == c.id] for c in concepts}
    conditions = [
        c.id for c in concepts if c.id not in listed and c.role is ConceptRole.CONDITION and members[c.id]
    ]
    joins: dict[str, list[str]] = {}
    for segment in _lists_acted_on(description):
        series = listed_together(segment, [p for c in concepts for p in members[c.id]])
        numbers = {cid: {series.get(p, -1) for p in phrases} - {-1} for cid, phrases in members.items()}
        for condition in conditions:
            kinds = [cid for cid in listed if numbers.get(cid) and numbers[cid] <= numbers[condition]]
            if len(numbers[condition]) == 1 and kinds:
                joined = joins.setdefault(condition, [])
                joined += [k for k in kinds if k not in joined]
    return joins


# the words a question opens with: an auxiliary ("does X improve Y?") or a question word
_QUESTION_OPENERS = QUESTION_AUXILIARIES | frozenset(
    {"what", "which", "how", "why", "whether", "when", "where", "who", "should", "was", "were", "has", "have"}
)


def _asks(tail: str) -> bool:
    """Whether what follows a colon is a question ("...: does X improve Y?", "...: which X works best?"):
    the question the description asks, whose people and place are no list of outcomes reported."""
    first = re.match(r"[^\W\d_]+", tail.strip())
    return first is not None and first.group(0).lower() in _QUESTION_OPENERS


# what a description names as its outcomes in so many words: "with itch, eczema severity and conjunctivitis
# as outcomes", "the outcomes are X and Y", "primary outcomes include X", and a sentence that starts with
# them: "Low birth weight and preterm birth are the outcomes we care about: ..."
OUTCOME_NOUNS = r"(?:(?:primary|secondary|main)\s+)?(?:outcomes?|end\s?points?)"
# words a bare list of nouns never holds: a preposition, a pronoun, a verb of being ("the effect of X on
# birth outcomes" is no list of outcomes)
_NOT_A_NOUN_LIST = r"\b(?:on|of|in|for|with|about|to|by|from|at|we|I|our|my|is|are|was|were|be|does|do)\b"
_NAMED_OUTCOMES = re.compile(
    rf"\bwith\s+(?P<with>(?:(?!\bwith\b)[^.;:!?])+?)\s+as\s+(?:the\s+|our\s+|its\s+|their\s+)?{OUTCOME_NOUNS}\b"
    rf"|\b{OUTCOME_NOUNS}\s+(?:are|include|includes|will\s+be|were)\s+(?P<are>[^.;:!?]+)"
    rf"|(?:^|[.;!?]\s+)(?P<first>[^.;:!?]+?)\s+(?:are|is|were|will\s+be)\s+(?:the\s+|our\s+|my\s+)?{OUTCOME_NOUNS}\b"
    # a sentence that is only a list of nouns and the outcome noun: "PTSD and depression outcomes."
    rf"|(?:^|[.;!?]\s+)(?P<bare>(?:(?!{_NOT_A_NOUN_LIST})[^.;:!?]){{1,80}}?)\s+{OUTCOME_NOUNS}\s*(?:[.;!?]|$)",
    re.IGNORECASE,
)
# after the question a description asks, what the writer says they care about is what the studies
# should report: "Do e-cigarettes help smokers quit? I care about abstinence and about adverse events."
_CARED_ABOUT = re.compile(
    r"\?\s+(?:I|we)\s+(?:(?:really|mostly|mainly|also)\s+)?care\s+(?:(?:most|mostly|mainly)\s+)?about\s+"
    r"(?P<care>[^.;:!?]+)",
    re.IGNORECASE,
)
# the same in Chinese: "主要结局是住院和死亡", "结局指标包括X和Y", "终点为X" (结果 is also "results", left out)
_NAMED_OUTCOMES_ZH = re.compile(
    r"(?:结局|终点)(?:指标|事件)?\s*(?:是|为|包括|包含|有|：|:)\s*(?P<zh>[^。；;！!？?]+)"
)


# the nouns of a class of outcomes a title names before its colon and lists the kinds of after it
_CLASS_OF_OUTCOMES = re.compile(
    r"\b(?:outcomes|harms|complications|adverse\s+effects|adverse\s+events)$", re.I
)


def kinds_listed_after_the_colon(
    concepts: list[Concept], terms: list[Term], description: str, listed: dict[str, str]
) -> tuple[str, list[str]] | None:
    """The concept a title names as a class of outcomes right before its colon and the listed outcomes
    its subtitle gives as the kinds of that class ("... and adverse birth outcomes: preterm birth, low
    birth weight and birth defects"), or None. The subtitle says what the class is made of: a searcher
    ORs the kinds into the class's block, where a list of outcomes after any other head is left out."""
    tail = subtitle(description)
    if not tail:
        return None
    head = description[: description.rfind(tail)].rstrip().rstrip(":").rstrip()
    classes = [
        c.id
        for c in concepts
        if c.id not in listed
        and any(
            t.concept == c.id
            and _CLASS_OF_OUTCOMES.search(t.canonical)
            and head.casefold().endswith(t.canonical.casefold())
            for t in terms
        )
    ]
    kinds = [cid for cid, reason in listed.items() if "after its colon" in reason]
    return (classes[0], kinds) if len(classes) == 1 and kinds else None
