"""What in a slot phrase names no concept: the words a searcher sets aside before looking for concepts.

Step 2 of `agent.keywords.concepts`: words that say which *kind of study* is wanted (systematic review,
meta-analysis, randomised trial, diagnostic accuracy: `set_aside` returns them, to become filters the
user can switch on), counts and time spans ("6046 women", "six decades"), and generic words that every
paper of a field shares ("treatment", "patients", "detection", "tests"). A phrase keeps its generic
words where they carry meaning: a lone modifier takes its head from the description ("rapid tests"),
a generic noun before a head makes a compound ("care homes"), and a generic head goes only when what
it leaves names a thing ("Galactomannan detection" -> "Galactomannan", `strip_generic_edges`).
Grammar and research vocabulary only: nothing here is a list of topics.
"""

from __future__ import annotations

import re

from agent.language.drug_stems import english_drug_class
from agent.language.mesh_recognition import (
    HUMANS_TREE,
    PERSONS_TREE,
    MeshVocabulary,
    natural_order,
    role_of,
    tokenize,
    word_key,
)
from agent.language.morphology import is_acronym, singular
from agent.language.text import clean_term, word_set
from agent.models import ConceptRole
from agent.understanding.lexicon import EN_VERBS, MEASURING_VERBS, NUMBER_WORDS, SCOPE_WORDS

# Words that name the kind of study wanted: design modifiers before a design noun ("randomised
# placebo-controlled trials", "systematic review", "network meta-analysis"), and a few phrases without
# a noun ("diagnostic accuracy"). Grammar of study designs, not topics.
_DESIGN_MODIFIER = (
    r"(?:randomi[sz]ed|non[- ]?randomi[sz]ed|quasi[- ]?randomi[sz]ed|placebo[- ]controlled|"
    r"double[- ]blind(?:ed)?|single[- ]blind(?:ed)?|triple[- ]blind(?:ed)?|controlled|clinical|pragmatic|"
    r"cross[- ]?over|case[- ]cross[- ]?over|(?:interrupted\s+)?time[- ]series|cluster|stepped[- ]wedge|pilot|multi[- ]?cent(?:er|re|ric)|open[- ]label|prospective|retrospective|"
    r"observational|comparative|cohort|case[- ]control|cross[- ]sectional|longitudinal|systematic|"
    r"scoping|rapid|umbrella|narrative|literature|network|dose[- ]response|individual participant data|"
    r"autopsy|diagnostic(?: test)? accuracy|test accuracy|mixed[- ]methods?|qualitative|quantitative|"
    r"evidence|realist|thematic)"
)


_DESIGN_NOUN = (
    r"(?:trials?|stud(?:y|ies)|reviews?|syntheses|synthesis|meta[- ]?analys[ie]s|"
    r"meta[- ]regressions?(?: analys[ie]s)?|RCTs?)"
)


# a map of a body of evidence is a kind of review ("an evidence map", "evidence gap maps", "mapping the
# literature", the understanding's task "literature mapping"), not a map or a mapping studied
_EVIDENCE_MAP = (
    r"(?:evidence(?:[- ]gap)?|literature|systematic|scoping)\s+map(?:s|ping)?(?:\s+(?:stud(?:y|ies)|reviews?))?|"
    r"mapping\s+(?:reviews?|stud(?:y|ies))"
)


# what a study of a test or a marker measures, without a design noun: "the prognostic value of
# troponin", "the diagnostic performance of MRI", "predictive accuracy" (the question of a test, as
# "diagnostic accuracy" is, not a concept every paper writes). Not "prognostic factors": most searchers
# of a prognostic factor review AND a prognosis block (measured on the librarian titles, 2026-12-01)
_TEST_MEASURE = r"(?:diagnostic|prognostic|predictive)\s+(?:value|performance|accuracy|utility)"


_STUDY_TYPE = re.compile(
    rf"\b(?:(?:{_DESIGN_MODIFIER}(?:[\s,]+|-)(?:and\s+|or\s+)?)+{_DESIGN_NOUN}(?:\s+designs?)?|meta[- ]?analys[ie]s|RCTs?|"
    rf"meta[- ]?synthes[ie]s|meta[- ]?ethnograph(?:y|ies)|"
    rf"meta[- ]regressions?(?: analys[ie]s)?|diagnostic(?: test)? accuracy|test accuracy|{_TEST_MEASURE}|"
    rf"{_EVIDENCE_MAP})\b",
    re.IGNORECASE,
)


# Counts, time and age spans: "6046 women", "over six decades", "in 2019", "3-day", "1990-2020", "aged 6 to 12".
_NUMBER_WORDS = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))  # the understanding's number words


# the participle that puts a span on the papers ("published since 2010", "conducted in the last decade")
_PLACED = r"(?:(?:published|conducted|reported)\s+)?"
_SPAN = re.compile(
    rf"\b{_PLACED}(?:(?:over|across|during|for|in|of|from|within)\s+)?"
    rf"(?:the\s+)?(?:(?:last|past|previous)\s+)?(?:(?<![\w.\-])\d[\d,.]*|{_NUMBER_WORDS})"
    r"(?:\s*(?:-|to|and)\s*\d[\d,.]*)?[\s-]*(?:years?|decades?|months?|weeks?|days?|centur(?:y|ies))\b"
    # a calendar year or span, with the words that place it ("published since 2010", "from 2000 to 2020")
    rf"|\b{_PLACED}(?:(?:since|after|before|from|until|between|in|during)\s+)?"
    r"(?:19|20)\d\d(?:\s*(?:[-–]|to|and)\s*(?:19|20)?\d\d)?\b"
    # an age span ("children aged 6 to 12 years", "adults aged 65 and over"): the people word stays, and
    # "aged" is no MeSH Aged (65 and over)
    r"|\baged\s+[≥>]?\s*\d[\d.]*(?:\s*(?:-|–|to|and)\s*\d[\d.]*)?(?:\s*(?:years?|months?))?"
    r"(?:\s+(?:old|and\s+(?:older|over|above)|or\s+(?:older|more)))?",
    re.IGNORECASE,
)


# "in 6046 women" -> "in women": a number before a plural noun, after a function word or at the start; a
# number inside a name ("PM2.5 exposure", "COVID-19") or after a word ("type 2 diabetes") is no count
_COUNTED = re.compile(r"(?:^|(?<=\s))(?P<number>\d[\d,.]*)\s+(?=(?P<noun>[a-z][\w-]*))", re.IGNORECASE)


# Words every paper of a field shares: alone they are not a concept to AND (they may stay as
# modifiers inside a longer phrase). Grammar and research vocabulary, not topics. Not "model" or
# "system": they are the thing a phrase names ("large language models" are models, not Language).
GENERIC_WORDS = (
    word_set(
        """
    treatment treatments therapy therapies pharmacotherapy pharmacological management intervention interventions strategy strategies
    program programme programs programmes approach approaches method methods technique techniques
    technology technologies
    diagnosis diagnoses diagnosing diagnostic detection detecting detect identification identifying
    prediction predictions predicting forecasting
    assessment assessing evaluation evaluating screening screen test tests testing tested
    measurement measurements measure measures level levels use uses usage role roles effect effects
    effectiveness efficacy efficiency impact impacts influence outcome outcomes result results finding findings
    association associations relationship relationships factor factors risk risks prevention
    preventing prevent benefit benefits harm harms safety complication complications comparison comparisons
    patient patients people person persons individual individuals participant participants subject
    subjects human humans adult adults population populations volunteer volunteers case cases
    resident residents inhabitant inhabitants dweller dwellers
    study studies research evidence analysis analyses review reviews trial trials data
    clinical health care medical new novel different various potential possible current
    quantity quality rate rates prevalence incidence extent value values sign signs
    framework tool tools performance accuracy concern concerns
    disease diseases disorder disorders condition conditions illness illnesses early
    assay assays scan scans scanning examination examinations procedure procedures work works
    exposure exposures intake intakes consumption supplementation supplementations supplement supplements
    administration record records based
    modality modalities stage stages
    one two three four five six seven eight nine ten eleven twelve follow up followup
    presenting presented suspected undergoing receiving considered current
    """
    )
    | SCOPE_WORDS
)  # "worldwide", "nationwide": how far a study reaches, as the understanding reads them


# Generic words that still name a task in a free-text phrase ("molecular property prediction"); beside a
# MeSH descriptor they are set aside ("sepsis prediction" searches Sepsis).
TASK_NAMES = word_set("prediction predictions forecasting")


# Generic people words: a population made only of these (plus age words) is not AND'ed.
GENERIC_PEOPLE = word_set(
    """
    patient patients people person persons individual individuals participant participants subject
    subjects human humans adult adults volunteer volunteers case cases population populations
    resident residents inhabitant inhabitants dweller dwellers
    """
)

# Words for the people studied, generic or by sex and age: what a state before them qualifies
# ("postmenopausal women", "pregnant adolescents").
PEOPLE_NOUNS = GENERIC_PEOPLE | word_set(
    """
    women woman men man girls boys mothers fathers children child infants adolescents teenagers
    """
)


FUNCTION_WORDS = word_set(
    "a an the of in on for to with by from at as into via and or nor versus vs their its his her our your "
    "among between within without under over after before during per than that which who whose "
    # the indefinite pronouns ("deciding whether someone is over 18"): they stand for a noun, never a term
    "someone somebody anyone anybody everyone everybody something anything everything"
)


# comparatives before an outcome say which way the studies hope it moves ("fewer falls", "better sleep",
# "less pain", "more physical activity"): abstracts name the outcome either way, so they are cut from a
# phrase's front; "lower" and "higher" are not, as they open names ("lower limb", "higher education"); nor
# are "faster", "sooner" and the like: how fast a thing works ("heal bed sores faster") is no concept either
COMPARATIVE_WORDS = word_set("fewer more less greater better worse faster slower quicker sooner")


def only_comparative(text: str) -> bool:
    """Whether a phrase is nothing but comparatives ("faster", "better"): which way the studies hope an
    outcome moves, no concept a paper could be found by."""
    words = text.split()
    return bool(words) and all(word.lower() in COMPARATIVE_WORDS for word in words)


# what a user writes after the designs they accept ("interrupted time series welcome", "RCTs only pls")
APPROVAL_WORDS = word_set(
    "welcome ok okay fine acceptable accepted preferred relevant allowed please pls too"
)


# Words of a request for papers around the kind of study asked for ("I want to find all earlier
# randomised trials", "希望找到随机对照试验": find randomized controlled trials): which papers and how they
# are to be found, no concept of the topic. Grammar of asking, not topics.
_ASKING_FOR_PAPERS = word_set(
    """
    all any every earlier previous prior past existing published recent latest new relevant available
    eligible further more other additional find finding found identify identifying search searching
    look looking retrieve retrieving locate locating include including get obtain
    """
)


# "Any design", "all study designs": the word "design" alone, or after a determiner of any kind, is the
# kind of study asked for (any at all), never the topic; inside a phrase it stays ("drug design", "the
# design of bridges", and "study design" a methodologist studies)
_DESIGN_ALONE = re.compile(r"(?:(?:any|all|every|whatever)\s+(?:study\s+|research\s+)?)?designs?", re.I)


def set_aside(text: str) -> tuple[str, list[str]]:
    """The phrase without study-type words, counts and time spans, and the study types found; beside a
    study type, words that only ask for the papers (`_ASKING_FOR_PAPERS`) go with it."""
    if _DESIGN_ALONE.fullmatch(text.strip(" ,;:.")):
        return "", []
    # "a cohort study design" asks for cohort studies: the word "design" is no concept, nor the filter's
    found = [re.sub(r"\s+designs?$", "", m.group(0), flags=re.IGNORECASE) for m in _STUDY_TYPE.finditer(text)]
    text = _STUDY_TYPE.sub(" ", text)
    if found and all(word.lower() in _ASKING_FOR_PAPERS for word in re.findall(r"[\w-]+", text)):
        text = ""  # "all earlier randomised trials": the request, not the topic
    text = _SPAN.sub(" ", text)
    text = _COUNTED.sub(lambda m: "" if _is_count(m) else m.group(0), text)
    text = re.sub(r"\s+", " ", text).strip(" ,;:-")
    return text, found


# Sources of the evidence a study draws on, which users list beside the designs they accept ("RCTs and
# registries both ok", "Looking for trials and real-world data"): there the kind of evidence asked for, a
# filter like the design; elsewhere ("the completeness of cancer registries") a topic like any other.
_EVIDENCE_SOURCE = (
    r"(?:(?:patient|disease|clinical|national|population[- ]based)\s+)?registr(?:y|ies)(?:\s+(?:data|studies))?|"
    r"real[- ]world\s+(?:data|evidence|studies)|"
    r"(?:routinely[- ]collected|routine|administrative|claims|observational)\s+data|"
    # the kinds of evidence of drug safety and of surveys ("case reports, disproportionality analyses of
    # spontaneous reports and cohort studies", "qualitative studies and surveys")
    r"case\s+(?:reports?|series)|(?:spontaneous|adverse\s+event)\s+reports?|"
    r"disproportionality(?:\s+analys[ie]s)?|(?:pharmacovigilance\s+)?databases?|surveys?"
)
# a design, or another source the same list names ("case reports, disproportionality analyses ...")
_DESIGN_OR_SOURCE = rf"(?:{_STUDY_TYPE.pattern}|\b{_DESIGN_NOUN}\b|\b(?:{_EVIDENCE_SOURCE})\b)"
_COORDINATED = r"\s*(?:,|/|\band\b|\bor\b|\bplus\b|&)\s*(?:(?:and|or)\s+)?"


def without_approval(text: str) -> str:
    """The phrase without the words of approval a user writes after a design ("welcome", "ok")."""
    words = text.split()
    while words and words[-1].lower().strip(",.!") in APPROVAL_WORDS:
        words.pop()
    return " ".join(words)


def a_source_of_evidence_beside_a_design(text: str, description: str) -> bool:
    """Whether a phrase is only a source of evidence ("registries", "real-world data") the description
    coordinates with a study design ("RCTs and registries", "trials and real-world data")."""
    if not re.fullmatch(_EVIDENCE_SOURCE, text.strip(), re.IGNORECASE):
        return False
    source = re.escape(text.strip())
    return bool(
        re.search(rf"{_DESIGN_OR_SOURCE}{_COORDINATED}{source}\b", description, re.IGNORECASE)
        or re.search(rf"\b{source}{_COORDINATED}{_DESIGN_OR_SOURCE}", description, re.IGNORECASE)
    )


# "published since 2010", "studies from 2005 to 2015", "between 2000 and 2020", "before 2000": years on
# the calendar that limit which papers are wanted (a year alone, "in 2020", may be what is studied)
_YEARS = re.compile(
    rf"\b{_PLACED}(?:(?P<since>since|after|from)\s+(?P<first>(?:19|20)\d\d)"
    r"(?:\s*(?:[-–]|to|until)\s*(?P<to>(?:19|20)\d\d))?|between\s+(?P<between>(?:19|20)\d\d)\s*(?:and|[-–])\s*"
    r"(?P<and>(?:19|20)\d\d)|(?P<before>before|until)\s+(?P<last>(?:19|20)\d\d))\b",
    re.IGNORECASE,
)


def publication_years(text: str) -> list[tuple[str, int | None, int | None]]:
    """The calendar limits a description puts on the papers: (the words, first year, last year)."""
    found = []
    for match in _YEARS.finditer(text):
        first = match.group("first") or match.group("between")
        last = match.group("to") or match.group("and") or match.group("last")
        after = (match.group("since") or "").lower() == "after"  # "after 2015": from 2016
        before = (match.group("before") or "").lower() == "before"  # "before 2000": up to 1999
        first_year = (int(first) + 1 if after else int(first)) if first else None
        last_year = (int(last) - 1 if before else int(last)) if last else None
        found.append((match.group(0), first_year, last_year))
    return found


def _is_count(match: re.Match[str]) -> bool:
    before = match.string[: match.start()].split()
    noun = match.group("noun").lower()
    return (not before or before[-1].lower() in FUNCTION_WORDS) and singular(noun) != noun


def content_words(text: str) -> list[str]:
    """Words that carry meaning: not function words, not generic, not bare numbers."""
    return [
        t.text
        for t in tokenize(text)
        if t.text.lower() not in FUNCTION_WORDS
        and t.text.lower() not in GENERIC_WORDS
        and not t.text.isdigit()
    ]


def people_only(text: str) -> bool:
    """ "patients", "healthy adults": kept as an optional concept, so nothing is dropped silently."""
    words = [t.text.lower() for t in tokenize(text) if t.text.lower() not in FUNCTION_WORDS]
    return bool(words) and any(w in GENERIC_PEOPLE for w in words)


def with_head(text: str, description: str, vocabulary: MeshVocabulary | None) -> str:
    """A phrase ending in a modifier with the noun the description writes after it: "Rapid" -> "Rapid
    tests", "Cardiac" -> "Cardiac testing", "faecal immunochemical" -> "faecal immunochemical test" (the
    understanding may cut a phrase before a generic head, which a phrase of several words gets back; an
    adjective MeSH never writes counts there by its ending, `_unknown_adjective`); not a verb after it ("therapy delivered online compare with ...":
    "online" has no head there)."""
    words = text.split()
    if vocabulary is None or not words:
        return text
    one_modifier = len(words) == 1 and vocabulary.is_modifier(words[0])
    cut_adjective = len(words) > 1 and (
        vocabulary.is_modifier(words[-1]) or _unknown_adjective(words[-1], vocabulary)
    )
    if not (one_modifier or cut_adjective):
        return text
    found = re.search(rf"\b{re.escape(text)}[\s-]+([^\W\d_]+)", description, re.IGNORECASE)
    if found is None or found.group(1).lower() in FUNCTION_WORDS | (EN_VERBS - GENERIC_WORDS):
        return text
    if cut_adjective and found.group(1).lower() not in GENERIC_WORDS:
        return text  # only a generic head the understanding cut is put back
    return f"{text} {found.group(1)}"


_ADJECTIVE_ENDING = re.compile(r"[a-z]{3}(?:ical|al|ic|ous|ive|ary)$", re.IGNORECASE)


def _unknown_adjective(word: str, vocabulary: MeshVocabulary) -> bool:
    """A word no MeSH term writes, shaped as an adjective ("immunochemical", "nonsurgical")."""
    return bool(_ADJECTIVE_ENDING.search(word)) and not vocabulary.knows_word(word)


# Modifiers that grade, hedge or place a lesion without naming a kind of it ("minor lesions", "clinically
# evident lesions", "local lesions"): a searcher drops them before a head that names a condition, since
# abstracts grade the lesion in other words or not at all (before another head they may name a thing:
# "local adaptation", "apparently healthy"). Grammar of evaluation, not topics.
EVALUATIVE_WORDS = word_set(
    """
    minor major evident apparent overt obvious visible local localised localized presumed presumptive
    probable possibly probably potentially apparently significant relevant important true actual existing
    established confirmed definite
    """
)


def _adverb_of(words: list[str], kind: frozenset[str]) -> bool:
    """ "clinically suspected ...", "clinically evident ...", "newly diagnosed ...": an adverb that only
    qualifies the generic or evaluative word after it goes with it."""
    return len(words) > 2 and words[0].lower().endswith("ly") and words[1].lower() in kind


def _grades_a_condition(words: list[str], vocabulary: MeshVocabulary | None) -> bool:
    """Whether the phrase starts with a grade or hedge (`EVALUATIVE_WORDS`) of a head MeSH ends
    condition names with ("clinically evident lesions", "minor fractures")."""
    if vocabulary is None or vocabulary.head_role(words[-1]) is not ConceptRole.CONDITION:
        return False
    return words[0].lower() in EVALUATIVE_WORDS or _adverb_of(words, EVALUATIVE_WORDS)


# Nouns of an action that changes or holds a quantity ("blood pressure control", "sodium reduction",
# "glucose lowering"): after a descriptor they say what is done to it, and the heading of the thing is
# the concept ("X control" is written "controlled X", "lower X", "X was reduced"); MeSH's own compounds
# ("Weight Loss", "Harm Reduction", "Infection Control") are matched whole before. Grammar, not topics.
CHANGE_NOUNS = word_set(
    """
    control controls reduction reductions lowering improvement improvements increase increases
    decrease decreases optimisation optimization optimising optimizing maintenance tapering
    discontinuation
    """
)


def without_change_head(words: list[str]) -> list[str]:
    """The words of a phrase without a last noun of change (`CHANGE_NOUNS`): "blood pressure control" ->
    "blood pressure"; a lone noun of change stays."""
    if len(words) > 1 and words[-1].lower() in CHANGE_NOUNS:
        return words[:-1]
    return words


# Generic heads that say a thing is measured ("Galactomannan detection", "MTBDRsl assay") or used in
# some form ("imaging modalities"); other generic heads say how it acts ("fluid intake") and stay with
# a lone word
# the participle after the one who does a thing ("peer-led", "nurse-delivered", "family-run"): the
# compound names the kind of thing done by its agent, not a degree ("long-term", "high-dose")
AGENT_PARTICIPLES = word_set("led delivered run driven facilitated administered")


def names_its_agent(word: str) -> bool:
    """Whether a hyphenated word is a noun before a participle of who does a thing ("peer-led")."""
    first, _, second = word.partition("-")
    return first.isalpha() and second.lower() in AGENT_PARTICIPLES


_MEASUREMENT_WORDS = word_set(
    "detection detecting assay assays test tests testing measurement measurements level levels "
    "screening assessment diagnosis identification modality modalities technique techniques"
)


# Nouns that say how much people take part in a thing ("vaccination uptake", "screening attendance",
# "medication adherence"): after a term MeSH names, the thing is the concept and the measure is one of
# many words abstracts use for it ("coverage", "rates", "completed"). Research vocabulary, not topics.
_TAKE_UP_WORDS = word_set(
    "uptake take-up utilisation utilization adherence compliance attendance participation acceptance "
    "acceptability coverage duration"
)


# Nouns that only say a thing is where people are studied ("antenatal care settings", "primary care
# settings"): after a term MeSH names, the care or place is the concept. Grammar, not topics.
_SETTING_HEADS = word_set("setting settings")
# institutions people attend (health facilities N02.278, schools I02.783): their attendance is no take-up
# of the institution, which alone would find every paper about schools or hospitals
_INSTITUTION_TREES = ("N02.278", "I02.783")


# Endings of adjectives, participles and abstract nouns: such a word alone names no thing to search for
_NOT_A_THING = re.compile(r"(?:ed|ing|ant|ent|al|ous|ive|ic|ary|ble|ity|ness|ance|ence)$", re.IGNORECASE)


def _names_a_thing(word: str, vocabulary: MeshVocabulary) -> bool:
    """Whether one word alone is a thing a paper could be found by ("Galactomannan", "RIF", "imaging":
    a word MeSH ends terms of one role with, `MeshVocabulary.head_role`), not an adjective, participle
    or abstract noun ("malignant", "impending", "resistance"), nor a word MeSH only writes before a head
    ("rapid", `MeshVocabulary.is_modifier`)."""
    if is_acronym(word) or vocabulary.knows(word) or vocabulary.head_role(word) is not None:
        return True
    return not _NOT_A_THING.search(singular(word)) and not vocabulary.is_modifier(word)


def noun_between(text: str, spans: list[tuple[int, int]]) -> str | None:
    """A noun MeSH matched no part of, standing between two matched spans of `text` ("fatigue crack
    growth": "crack" between Fatigue and Growth), or None. Such a phrase is one compound naming a thing
    MeSH does not name (the growth of fatigue cracks), not the descriptors side by side; an adjective
    there ("breast ductal carcinoma") or a generic word leaves the matches standing. `spans` are
    character offsets in `text`, in order."""
    for (_, left_end), (right_start, _) in zip(spans, spans[1:], strict=False):
        for word in content_words(text[left_end:right_start]):
            if word.isalpha() and not _NOT_A_THING.search(singular(word.lower())) and not is_acronym(word):
                return word
    return None


def _noun_before_head(word: str, vocabulary: MeshVocabulary) -> bool:
    """Whether a generic word before a head makes a compound with it: a noun MeSH ends terms with
    ("care" in "care homes"), not a word shaped as an adjective ("potential" in "potential biomarkers")."""
    return vocabulary.is_head_word(word) and not _NOT_A_THING.search(word)


def _files_as_people(word: str, vocabulary: MeshVocabulary) -> bool:
    """Whether MeSH files the word as people ("human": Humans, "adult": Adult): before a head it says
    whose the thing is ("human placenta"), no compound (MeSH's own, "patient safety", are kept whole
    before this is asked)."""
    return any(
        t.startswith((PERSONS_TREE, HUMANS_TREE))
        for d in vocabulary.lookup(word.lower())
        for t in d.tree_numbers
    )


def _compound_opener(words: list[str], vocabulary: MeshVocabulary) -> bool:
    """ "care home residents", "health system performance": a generic noun before a noun that is not
    generic makes a compound with it, unless MeSH files the word as people ("adult trauma patients":
    an age, which the age groups carry), or the next word is generic too ("care strategies for X")."""
    first, second = words[0].lower(), words[1].lower()
    return (
        (first in GENERIC_WORDS or first in FUNCTION_WORDS)
        and second not in GENERIC_WORDS
        and second not in FUNCTION_WORDS
        and not _files_as_people(first, vocabulary)
    )


def names_a_task(words: list[str], vocabulary: MeshVocabulary | None) -> bool:
    """Whether a measuring head and the word before it are one task name of a field outside medicine
    ("intrusion detection", "fault diagnosis", "crack detection"): the word is one MeSH writes only inside
    its terms, never alone nor as their last word, so it names nothing a clinician measures (unlike
    "Galactomannan", which MeSH does not know, or "cancer", "rifampicin resistance")."""
    if vocabulary is None or len(words) < 2 or words[-1].lower() not in _MEASUREMENT_WORDS:
        return False
    word = words[-2]
    return (
        word.isalpha()
        and not is_acronym(word)  # "CEA levels": what is measured
        and vocabulary.knows_word(word)
        and not vocabulary.knows(word)
        and not vocabulary.is_head_word(word)
        and vocabulary.head_role(word) is None
        and not _ends_condition_headings(word, vocabulary)
    )


def _ends_condition_headings(word: str, vocabulary: MeshVocabulary) -> bool:
    """Whether MeSH ends headings with the word, and each of them names a condition ("caries": Dental
    Caries, Root Caries): too few for a head role (`MeshVocabulary.head_role`), but the word is the name
    of a disease, and detecting it is a clinician's question ("proximal caries detection" searches the
    caries), not a task of another field. A word that ends only entry terms ("intrusion": Tooth
    Intrusion under Tooth Movement Techniques) or headings of other roles ("objects": Astronomical
    Objects) stays a task word."""
    key = word_key(word)
    named = [d for d in vocabulary.ending_in(word) if word_key(natural_order(d.heading).split()[-1]) == key]
    return bool(named) and all(role_of(d) is ConceptRole.CONDITION for d in named)


def _term_starts_here(words: list[str], vocabulary: MeshVocabulary | None) -> bool:
    """Whether MeSH names a run of two words or more that opens `words` ("patient safety", "quality of
    life outcomes"): its first word is part of the term, not a generic word at the phrase's edge."""
    return vocabulary is not None and any(
        vocabulary.knows(" ".join(words[:end])) for end in range(2, len(words) + 1)
    )


def _term_ends_here(words: list[str], vocabulary: MeshVocabulary | None) -> bool:
    """Whether MeSH names a run of two words or more that closes `words` ("accessing mental health
    care": health care; "mental health"): its last word is part of the term. Not for a measuring word
    (`_MEASUREMENT_WORDS`: "colorectal cancer screening"), which names what is done to the thing
    before it and has rules of its own."""
    return (
        vocabulary is not None
        and words[-1].lower() not in _MEASUREMENT_WORDS
        and any(vocabulary.knows(" ".join(words[start:])) for start in range(len(words) - 1))
    )


def without_take_up(text: str, vocabulary: MeshVocabulary | None) -> str:
    """The phrase without a take-up measure (`_TAKE_UP_WORDS`) that ends it right after a term MeSH
    names, while the whole is no MeSH term: "childhood vaccination uptake" -> "childhood vaccination"
    (Vaccination), "adherence to antiretroviral therapy" -> "antiretroviral therapy"; "Medication
    Adherence" and "Vaccination Coverage" are headings and stay whole. So does a closing setting noun
    (`_SETTING_HEADS`): "antenatal care settings" -> "antenatal care" (Prenatal Care), while
    "Resource-Limited Settings" is a heading and stays whole. A place attended stays whole too
    (`_INSTITUTION_TREES`: "school attendance" is not searched as school)."""
    words = text.split()
    if (
        vocabulary is not None
        and len(words) > 2
        and words[0].lower() in _TAKE_UP_WORDS
        and words[1].lower() in {"of", "to", "in", "at", "with"}
    ):  # "adherence to antiretroviral therapy": the therapy
        rest = " ".join(words[2:])
        return rest if any(match.end == len(rest) for match in vocabulary.recognize(rest)) else text
    if vocabulary is None or len(words) < 2 or words[-1].lower() not in _TAKE_UP_WORDS | _SETTING_HEADS:
        return text
    if any(vocabulary.knows(" ".join(words[start:])) for start in range(len(words) - 1)):
        return text
    rest = " ".join(words[:-1])
    closing = [match for match in vocabulary.recognize(rest) if match.end == len(rest)]
    if any(t.startswith(_INSTITUTION_TREES) for match in closing for t in match.descriptor.tree_numbers):
        return text  # "school attendance", "clinic attendance": a place attended, no service taken up
    return rest if closing else text


# Eating and what MeSH files under it (Drinking, Mastication): the act of taking a thing in
_EATING_TREE = "G07.203.650.283"
# what is taken in: food and beverages (Coffee, Tea, Fishes as food are J02's), drugs and chemicals
_TAKEN_IN_TREES = ("J02", "D")


def without_the_act_of_taking(text: str, vocabulary: MeshVocabulary | None) -> str:
    """The thing taken in without the act of taking it, when one word of a two-part phrase is an act MeSH
    files under Eating (`_EATING_TREE`: drinking, eating, chewing) and the rest is a food, a beverage, a
    drug or a chemical MeSH names: "drinking coffee", "coffee drinking" -> "coffee". The act is how the
    thing is taken, like the "consumption" of "coffee consumption": Drinking[Mesh] OR drinking[tiab]
    beside Coffee would find every paper about drinking anything. A phrase MeSH names whole stays ("binge
    drinking", "drinking water", "alcohol drinking"), and so does the act alone ("drinking in
    adolescents")."""
    words = text.split()
    if vocabulary is None or len(words) < 2 or vocabulary.knows(text):
        return text
    for act, rest in ((words[0], words[1:]), (words[-1], words[:-1])):
        acts = vocabulary.recognize(act)
        if not any(t.startswith(_EATING_TREE) for m in acts for t in m.descriptor.tree_numbers):
            continue
        thing = " ".join(rest)
        if any(
            m.start == 0
            and m.end == len(thing)
            and any(t.startswith(_TAKEN_IN_TREES) for t in m.descriptor.tree_numbers)
            for m in vocabulary.recognize(thing)
        ):
            return thing
    return text


# Heads that name what is done to or for the thing a compound before them names ("wake steering control",
# "membrane fouling control", "cathode surface protection"): after a compound of two words the compound
# is the concept a searcher ANDs (papers write "control of wake steering", "controlling membrane
# fouling", "fouling mitigation"); after one word the pair stays a name ("noise control", "birth
# control", "crop protection"), and a longer phrase keeps its head for its core ("adaptive traffic
# signal control" is searched by "traffic signal control"). Putting a thing into practice or laying it
# out is such a head too ("lean manufacturing implementation", "combinatorial auction design": papers
# write "implementing lean manufacturing", "designing combinatorial auctions"). Grammar of engineering
# noun phrases.
_ACTION_HEADS = word_set("control controls protection implementation implementations design designs")

# Heads that say a thing changes ("shoreline change", "fertility decline"): papers write the change in
# many ways ("retreating shorelines", "declining fertility"), so after a word of another field they go
# like the generic heads (`_word_of_another_field`). Grammar, not topics.
_CHANGE_HEADS = word_set("change changes decline declines")
# Heads that say a thing is applied or added ("biochar amendment", "zeolite addition"): after a word of
# another field the thing applied is the concept, as after a generic head.
_APPLYING_HEADS = word_set("amendment amendments addition additions")
# Heads that say a thing is lessened ("multipath mitigation", "dendrite suppression"): after a word of
# another field the thing lessened is the concept, as after an action head.
_LESSENING_HEADS = word_set("mitigation mitigations suppression")
# Heads that say how a thing is studied (predicted, estimated, evaluated, counted). Not the heads of a
# treatment ("management", "therapy", "programme"), which with the word before them name an intervention
# ("contingency management").
# Heads that name how long a thing lasts under what the word before them names ("moisture stability":
# stability under moisture): papers write the agent in many constructions ("moisture-induced
# degradation", "humidity"), so after a word of another field the word is the concept, as after a study
# head. Not "resistance": after a drug's name MeSH does not know it is a condition of its own
# ("bedaquiline resistance"). Grammar of engineering noun phrases.
_PROPERTY_HEADS = word_set("stability durability")
# Heads that say a thing is a model whose kind the word before them names ("transformer models",
# "surrogate models" are transformers, surrogates): papers name the kind alone as often.
_KIND_OF_MODEL_HEADS = word_set("model models")
_STUDY_HEADS = word_set(
    "prediction predictions predicting forecasting forecast forecasts estimation estimations evaluation "
    "evaluations assessment assessments rate rates"
)


def _word_of_another_field(words: list[str], vocabulary: MeshVocabulary | None) -> bool:
    """Whether a two-word phrase is a word MeSH writes in none of its terms and a head that only says
    what is done to it or how it is studied (a generic, task, action, change, applying, property or
    model head: "rockburst prediction", "streamflow forecasting", "sensorless control", "shoreline
    change", "biochar amendment", "moisture stability", "transformer models"): the word is a technical term of another field, specific enough alone, and the papers
    write the task around it in many ways ("predicting rockbursts", "rockburst risk"), so a searcher
    searches the word. A word MeSH writes keeps its head ("noise control", "birth control", "intrusion
    detection", "crack repair"), and so does an acronym ("RUL prediction"), a word that names no thing,
    and a word before the head of a treatment ("contingency management": an intervention's name)."""
    if vocabulary is None or len(words) != 2:
        return False
    word, head = words[0], words[1].lower()
    heads_of_what_is_done = (
        _STUDY_HEADS,
        _ACTION_HEADS,
        _CHANGE_HEADS,
        _APPLYING_HEADS,
        _LESSENING_HEADS,
        _PROPERTY_HEADS,
        _KIND_OF_MODEL_HEADS,
    )
    if not any(head in heads for heads in heads_of_what_is_done):
        return False
    return (
        word.isalpha()
        and not is_acronym(word)
        and not vocabulary.knows_word(word)
        and _names_a_thing(word, vocabulary)
    )


# heads that say how a drug is given or used: after a drug's INN the drug is the concept
_TREATMENT_HEADS = word_set(
    "prophylaxis therapy therapies treatment treatments monotherapy regimen regimens infusion infusions "
    "injection injections"
)


def strip_generic_edges(text: str, vocabulary: MeshVocabulary | None = None) -> str:
    """The phrase without generic words at its edges: "the treatment of X" -> "X", "X diagnosis" -> "X"
    (but a generic noun before a last word is a compound: "care homes" stays whole), nor the grades and
    hedges before a head that names a condition (`EVALUATIVE_WORDS`: "clinically evident lesions" ->
    "lesions").

    A generic head is kept when what it leaves is one word, unless the head says that word's thing is
    measured and the word names a thing (`_names_a_thing`): "Galactomannan detection" is searched as
    "Galactomannan", while "rapid tests", "resistance detection" and "fluid intake" stay whole (and so
    does every phrase without a vocabulary), and people named by an acronym of their condition are
    searched by the acronym ("HFpEF patients" -> "HFpEF") or the disorder ("cancer patients" ->
    "cancer"). A prediction stays the name of a task ("molecular property prediction"). A generic word
    that is part of a term MeSH names at the phrase's edge stays ("patient safety", "quality of life
    outcomes" -> "quality of life", "accessing mental health care" is not cut to "accessing mental":
    `_term_starts_here`, `_term_ends_here`).
    """
    words = text.split()

    def generic(word: str) -> bool:
        return word.lower() in FUNCTION_WORDS or word.lower() in GENERIC_WORDS

    while (
        len(words) > 1
        and (
            generic(words[0])
            or words[0].lower() in COMPARATIVE_WORDS
            or _adverb_of(words, GENERIC_WORDS)
            or _grades_a_condition(words, vocabulary)
        )
        and not _term_starts_here(words, vocabulary)
    ):
        if (
            vocabulary is not None
            and _noun_before_head(words[0], vocabulary)
            and (
                (len(words) == 2 and not _files_as_people(words[0], vocabulary))
                or _compound_opener(words, vocabulary)
            )
        ):
            break  # "care homes", "health records": a noun that makes a compound with its head stays
        words = words[1:]
    while len(words) > 1 and words[-1].lower() in FUNCTION_WORDS:
        words = words[:-1]
    trimmed = list(words)
    while (
        len(trimmed) > 1
        and generic(trimmed[-1])
        and trimmed[-1].lower() not in TASK_NAMES
        and not names_a_task(trimmed, vocabulary)
        and not _term_ends_here(trimmed, vocabulary)
        and not _adjective_before(trimmed, vocabulary)
    ):
        trimmed = trimmed[:-1]
    if (
        len(trimmed) == 3
        and trimmed[-1].lower() in _ACTION_HEADS
        and not _term_ends_here(trimmed, vocabulary)
        and not _ADJECTIVE_FORM.search(trimmed[-2])
    ):
        # "wake steering control": the compound before the action is the concept; an adjective before
        # the head modifies the action, whose name the three words are ("model predictive control")
        trimmed = trimmed[:-1]
    if (
        len(trimmed) == 1
        and vocabulary is not None
        and words[-1].lower() in _MEASUREMENT_WORDS
        and _names_a_thing(trimmed[0], vocabulary)
    ):
        return clean_term(trimmed[0])  # "Galactomannan detection": the thing measured is searched
    if (
        len(trimmed) == 1
        and words[-1].lower() in GENERIC_PEOPLE
        and (is_acronym(trimmed[0]) or _names_a_disorder(trimmed[0], vocabulary))
    ):
        # "HFpEF patients", "cancer patients": papers write "patients with HFpEF", "with cancer" too
        return clean_term(trimmed[0])
    if (
        len(words) == 2
        and words[-1].lower() in _TREATMENT_HEADS
        and english_drug_class(words[0]) is not None
        and not _term_ends_here(words, vocabulary)
    ):
        # "emicizumab prophylaxis", "nirsevimab therapy": a drug named by its INN is what papers are found
        # by, however it is given (the phrase whole is rarely written)
        return clean_term(words[0])
    if _word_of_another_field(words, vocabulary):
        return clean_term(words[0])  # "rockburst prediction": the technical word is searched
    if len(trimmed) == 1 and names_its_agent(trimmed[0]):
        return clean_term(trimmed[0])  # "peer-led interventions": the papers' programmes are peer-led too
    return clean_term(" ".join(trimmed if len(trimmed) > 1 else words))


def _adjective_before(words: list[str], vocabulary: MeshVocabulary | None) -> bool:
    """Whether the word before the phrase's last is an adjective MeSH writes only before a head ("oral
    nutritional supplements", "postoperative pulmonary complications"): cut from its head it would name
    nothing, so a generic head stays ("faecal immunochemical test", not "faecal immunochemical")."""
    before = words[-2].lower()
    return (
        vocabulary is not None
        and before not in GENERIC_WORDS
        and not vocabulary.is_modifier(words[-1])  # the head is a noun ("therapy", not "medical")
        and bool(_ADJECTIVE_ENDING.search(before))  # "Housing First programmes" is a name
        and (vocabulary.is_modifier(before) or not vocabulary.knows_word(before))
    )


# Past participles that start a post-modifier of the noun before them ("therapy delivered online",
# "antibiotics given intravenously", "E. coli isolated from broilers", "activity measured with
# accelerometers"): the noun is the phrase's head, the participle's complement is a concept of its own
_POST_PARTICIPLES = MEASURING_VERBS | word_set(
    "delivered administered provided given offered implemented applied used isolated received taken based"
)
# what a post-modifying participle is followed by: a preposition or an adverb; before a noun the
# participle is a modifier of it and stays ("computed tomography", "assessed outcomes")
_AFTER_PARTICIPLE = re.compile(
    r"^(?:(?P<preposition>via|by|through|at|in|on|from|over|with|within|using|as|during|under|across|"
    r"to)\s+|online\b|offline\b|\w+ly\b)",
    re.IGNORECASE,
)


# a participle whose object follows it directly: "oral contraceptives containing drospirenone" is the
# contraceptives and the drug, two concepts ("fluoride-containing" before its head stays one compound)
_OBJECT_PARTICIPLES = word_set("containing")


def cut_after_participle(text: str) -> list[str]:
    """The head noun phrase and the participle's complement of "X delivered online", "X isolated from Y"
    (the preposition left out), "X containing Y", or [text] when no participle follows a word and starts
    a post-modifier."""
    words = text.split()
    for index in range(1, len(words) - 1):
        if words[index].lower() in _OBJECT_PARTICIPLES:
            return [" ".join(words[:index]), " ".join(words[index + 1 :])]
        if words[index].lower() not in _POST_PARTICIPLES:
            continue
        rest = " ".join(words[index + 1 :])
        after = _AFTER_PARTICIPLE.match(rest)
        if after is None:
            continue
        complement = rest[after.end() :] if after.group("preposition") else rest
        return [" ".join(words[:index]), *([complement] if complement.strip() else [])]
    return [text]


def turned_back(text: str, description: str) -> list[str]:
    """The two concepts of a phrase the understanding turned around from "HEAD of X" ("minor cervical
    lesions triage" from "triage of minor cervical lesions"): [X, HEAD] when the description writes it
    so, else [text]. A searcher never requires the turned phrase, which abstracts do not write: the
    action and what it acts on are searched apart (a generic head, "diagnosis", names nothing and goes)."""
    words = text.split()
    if len(words) < 3 or text.casefold() in description.casefold():
        return [text]
    head, rest = words[-1], " ".join(words[:-1])
    written = re.search(
        rf"\b{re.escape(head)}\s+of\s+(?:the\s+)?{re.escape(rest)}\b", description, re.IGNORECASE
    )
    return [rest, head] if written else [text]


# A word shaped as an adjective or a past participle ("adaptive", "automated", "portable"; not "-ing",
# which as often makes a noun: "learning", "computing", "printing"; not "speed" or "bed") and a noun of
# a process ("prediction", "retrieval", "estimation", "generation") or of a property measured of a
# thing ("stability", "efficiency", "toxicity")
_ADJECTIVE_FORM = re.compile(r"(?:ive|ous|ful|less|able|ible|\w{3}[^e]ed)$", re.IGNORECASE)
_PROCESS_FORM = re.compile(r"(?:tion|sion|ment|val|ity|ency)$", re.IGNORECASE)
# A word before a process noun that is shaped as an adjective or a participle ("variable", "burning"):
# it makes the process's name with it and, cut from the process, names nothing ("laminar burning")
_MODIFIER_OF_THE_PROCESS = re.compile(r"(?:ive|ous|ful|less|able|ible|\w{3}[^e]ed|\w{3}ing)$", re.IGNORECASE)
# A hyphenated modifier ending in a participle: how the thing after it is done ("privacy-preserving",
# "vibration-based", "data-driven"), not a thing of its own
_HYPHENATED_MODIFIER = re.compile(r"[a-z]-[a-z]+(?:ing|ed)$", re.IGNORECASE)


# adjective endings ("volcanic", "aerodynamic", "continuous", "evaluative", "stationary", "portable",
# "spectral"), read only in words MeSH neither names nor ends terms with ("metal", "signal" are nouns)
_ADJECTIVE_ENDING = re.compile(r"(?:ic|ous|ive|ary|able|ible|al)$", re.IGNORECASE)


def _opens_with_adjective(word: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether a word opening a free-text phrase is an adjective: one MeSH writes only before a head
    ("dense", "surface"), or shaped as one and no noun MeSH knows (`_ADJECTIVE_ENDING`)."""
    if vocabulary is None or vocabulary.knows(word) or vocabulary.is_head_word(word):
        return False
    if vocabulary.head_role(word) is not None:
        return False
    return vocabulary.is_modifier(word) or bool(_ADJECTIVE_ENDING.search(word))


def _named_before_head(words: list[str], vocabulary: MeshVocabulary | None) -> str | None:
    """The longest run of two or more words, short of the whole phrase, that opens the phrase and that
    MeSH names ("climate change scenarios": climate change; "Internet of Things networks")."""
    if vocabulary is None:
        return None
    for end in range(len(words) - 1, 1, -1):
        if vocabulary.knows(" ".join(words[:end])):
            return " ".join(words[:end])
    return None


# a hyphenated compound that names a thing done or a state: its last part a noun of action or state
# ("self-sampling", "de-escalation", "pay-for-performance") or "-free" ("smoke-free"), not a modifier
# that sorts its head by a kind ("lithium-ion batteries", "low-income households", "non-opioid analgesia")
_NOUN_COMPOUND = re.compile(
    r"^[a-z]+(?:-[a-z]+)*-[a-z]*(?:ing|tion|sion|ment|ance|ence|free)$", re.IGNORECASE
)


def _compound_name_before_head(words: list[str], vocabulary: MeshVocabulary | None) -> str | None:
    """The hyphenated compound right before the head of a free-text phrase, when it names what is done
    or a state (`_NOUN_COMPOUND`) and its head is a word MeSH writes ("smoke-free legislation":
    smoke-free; "self-sampling kits": self-sampling; "de-escalation training"): papers write the name
    alone. Not where MeSH has no term with the head (a thing of another field, "self-healing
    concrete", is the phrase's own)."""
    if vocabulary is None or len(words) < 2 or not _NOUN_COMPOUND.match(words[-2]):
        return None
    return words[-2] if vocabulary.knows_word(words[-1]) else None


# nouns of how close people live or work to a thing: "residential proximity to X" measures an exposure
# to X, and papers on it write X ("living near", "distance from"), not the measure's own words
CLOSENESS_NOUNS = frozenset({"proximity", "distance", "closeness", "nearness", "vicinity"})


def _near_what(words: list[str]) -> list[str] | None:
    """The words after a noun of closeness and its "to", "from" or "of" ("residential proximity to
    unconventional natural gas development": unconventional natural gas development), or None."""
    for index, word in enumerate(words[:-2]):
        if word.lower() in CLOSENESS_NOUNS and words[index + 1].lower() in {"to", "from", "of"}:
            return words[index + 2 :]
    return None


# the organisational nouns a provision is named with ("supervised injection facilities", "reablement
# services", "pay-for-performance schemes", "home treatment teams"): papers name the provision by what
# is provided and call it a service, a site, a programme, a scheme or a team as they please
PROVISION_HEADS = word_set(
    "service services facility facilities site sites scheme schemes team teams initiative initiatives"
)


def _before_a_provision_head(words: list[str], vocabulary: MeshVocabulary | None) -> str | None:
    """What a provision is of, the words before its organisational head (`PROVISION_HEADS`), or None:
    not where MeSH names the whole phrase ("health services" is a heading), nor where what is left is
    generic ("health care services") or a function word."""
    if len(words) < 2 or words[-1].lower() not in PROVISION_HEADS:
        return None
    if vocabulary is not None and vocabulary.knows(" ".join(words)):
        return None
    rest = words[:-1]
    while rest and rest[-1].lower() in FUNCTION_WORDS:
        rest = rest[:-1]
    if not rest or all(w.lower() in GENERIC_WORDS or w.lower() in FUNCTION_WORDS for w in rest):
        return None
    return " ".join(rest)


# prefixes of an abnormal degree or kind ("dysfunction", "hypofunction", "malabsorption")
_DISORDER_PREFIX = re.compile(r"^(?:dys|hypo|hyper|mal)[a-z]{4,}$", re.IGNORECASE)


def _names_a_disorder(head: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether a head noun names a disorder: one MeSH ends disease names with, or a word of an abnormal
    degree ("hypofunction")."""
    return bool(_DISORDER_PREFIX.match(head)) or (
        vocabulary is not None and vocabulary.head_role(head) is ConceptRole.CONDITION
    )


# heads that name a drug by what it acts on: the words before them are its target, not its core
_AGENT_HEADS = frozenset(
    f"{stem}{ending}"
    for stem in ("inhibitor", "antagonist", "agonist", "blocker", "analogue", "analog", "modulator")
    for ending in ("", "s")
)


def searchable_core(phrase: str, vocabulary: MeshVocabulary | None) -> str | None:
    """The compound a free-text phrase of three or more words is built on, or None: the words before its
    head when MeSH names them ("carbon dioxide capture": carbon dioxide, which the papers of the capture
    write whatever they call it), else without an adjective before it ("adaptive traffic signal control":
    traffic signal control) or the process done on it after it ("soil moisture retrieval": soil
    moisture), as a searcher writes what papers name; the thing a measure of closeness is taken to
    ("residential proximity to major roads": major roads); what a provision provides, without its
    organisational head ("supervised injection facilities": supervised injection; "reablement
    services": reablement, `PROVISION_HEADS`); the bare acronym a phrase closes with ("incident CKD":
    CKD, `_closing_acronym`). Otherwise two words at least stay ("crack repair" is its
    own core), and a phrase MeSH names is left alone. The head of a disorder (`_names_a_disorder`) is never
    cut off: the words before it say where or of what, and alone would find every paper of the site; nor
    the head of a drug named by its target (`_AGENT_HEADS`: "vitamin K antagonists", "PCSK9 inhibitors")."""
    head = phrase.split()[-1] if phrase.split() else ""
    if (acronym := _closing_acronym(phrase.split())) is not None:
        return acronym  # "incident CKD", "symptomatic paroxysmal AF": papers write the acronym alone
    if head.casefold() in _AGENT_HEADS:
        return None  # "vitamin K antagonists": what the agent acts on alone finds the substance's papers
    core = _core_of(phrase, vocabulary)
    if core is not None and _names_a_disorder(head, vocabulary) and not core.endswith(head):
        return None  # "pelvic floor dysfunction", "vestibular hypofunction": the site alone is no core
    return core


# an acronym of capitals (and digits) only, at least two capitals, maybe a plural s: "CKD", "AF", "T2DM"
_BARE_ACRONYM = re.compile(r"^(?=(?:[A-Z0-9]*[A-Z]){2})[A-Z][A-Z0-9]*s?$")


def _closing_acronym(words: list[str]) -> str | None:
    """The acronym a free-text phrase ends with after words that only qualify it ("incident CKD",
    "acute MI", "cancer-associated VTE", "symptomatic paroxysmal AF", "long-term PPI"), or None. Titles
    write such acronyms unexplained; the phrase as written is rarely what papers write, the acronym
    alone is what they do (a searcher ORs CKD beside "incident CKD"). Only a bare acronym of capitals
    and digits closes such a phrase (not "HIV-1", "MTB/RIF", "CAR-T"), and no word before it is an
    acronym too ("Xpert MTB"-like names of one thing keep their words)."""
    if len(words) < 2 or not _BARE_ACRONYM.match(words[-1]) or not is_acronym(words[-1]):
        return None
    if any(is_acronym(w) or w[:1].isupper() and not w[1:].islower() for w in words[:-1]):
        return None
    return words[-1]


def _core_of(phrase: str, vocabulary: MeshVocabulary | None) -> str | None:
    words = phrase.split()
    if (near := _near_what(words)) is not None:
        # "proximity to major roads": the roads; "... to unconventional natural gas development": its core
        return searchable_core(" ".join(near), vocabulary) or " ".join(near)
    if (compound := _compound_name_before_head(words, vocabulary)) is not None:
        return compound
    if (provided := _before_a_provision_head(words, vocabulary)) is not None:
        return provided
    if len(words) < 3 or (vocabulary is not None and vocabulary.knows(phrase)):
        return None
    if (named := _named_before_head(words, vocabulary)) is not None:
        return named
    core = list(words)
    if (
        _ADJECTIVE_FORM.search(core[0])
        or _HYPHENATED_MODIFIER.search(core[0])
        # "photocatalytic hydrogen evolution", "automatic chord recognition": an adjective MeSH does not
        # know, shaped as one, before a compound of two words says which kind of it the papers study (a
        # longer run keeps its words: "unilateral peripheral vestibular hypofunction")
        or (
            len(core) == 3
            and bool(_ADJECTIVE_ENDING.search(core[0]))
            and _opens_with_adjective(core[0], vocabulary)
        )
    ) and not is_acronym(core[0]):
        core = core[1:]
    if (
        len(core) >= 3
        and _PROCESS_FORM.search(core[-1])
        and core[-2].lower() not in FUNCTION_WORDS
        and not names_a_task(core, vocabulary)
        and not (len(core) == 3 and _opens_with_adjective(core[0], vocabulary))
        and not _MODIFIER_OF_THE_PROCESS.search(core[-2])
    ):
        # "soil moisture retrieval": what the process is done on; not where an adjective and one noun
        # stand before the process ("volcanic ground deformation", "dense passage retrieval"): the
        # adjective grades the process, and the pair alone names nothing ("volcanic ground", "dense
        # passage"); a longer run keeps its compound ("unconventional natural gas development"); nor
        # where the word before the process is shaped as an adjective or a participle, which makes the
        # process's name with it (`_MODIFIER_OF_THE_PROCESS`: "laminar burning velocity" is no "laminar
        # burning", "Bayesian variable selection" no "Bayesian variable")
        core = core[:-1]
    return " ".join(core) if core != words else None
