"""From understood slots to search concepts: what a searcher ANDs, what they OR, and what they leave out.

Slots are the PRD's schema for *understanding* a description; a Boolean query is built from
*concepts*. A slot may hold several concepts ("metformin versus insulin for gestational diabetes" has
an intervention, a comparator and a condition), and a concept is one OR block of a heading and its
synonyms. The steps, for every phrase of every slot:

1. **cut** the phrase where it compares or qualifies: "versus", "vs", "compared with" separate
   concepts; "with" separates a population from its condition ("patients with epilepsy": the
   condition is searched, the people word is no term beside it);
2. **set aside** what is not a concept: words that say which *kind of study* is wanted (systematic
   review, meta-analysis, randomised trial, diagnostic accuracy: kept as `StudyFilter`s the user can
   switch on, never AND'ed), counts and time spans ("6046 women", "six decades"), and generic words
   that every paper of a field shares ("treatment", "patients", "detection", "tests"); a word MeSH
   only writes before a head ("rapid", "physical") takes its head from the description ("rapid
   tests") or stays an optional concept, never a required one, as does a phrase of general words
   beside an abstract noun or a participle ("resectability diagnosis", "resistance detection");
3. **recognise** MeSH descriptors inside what is left (`agent.language.mesh_recognition`); a descriptor's tree
   gives the concept's **role** (`ConceptRole`): C and F03 a condition, D an intervention, E and L a
   method, M01 a population, A anatomy, G/F01/F02 an outcome, N and Z a setting. A phrase whose last
   word is not part of a descriptor ("speech decoding") stays one free-text concept whose role is its
   slot's; a descriptor with extra modifiers ("invasive aspergillosis") keeps the phrase as a term
   beside the heading. Where one phrase may name several descriptors, the one under the trees its slot
   expects wins (`_SLOT_TREES`). A context phrase the description names as an exposure ("the effect
   of X on Y", "effectiveness of X", "exposure to X", "X and the risk of Y") is an intervention
   (`is_exposure`), as is a
   free-text phrase headed by an intervention noun ("peer support programmes"); a descriptor MeSH
   files as a setting takes the role of the slot holding it ("employment" as the outcome);
4. **group**: terms of one role from one slot are one concept when the description lists them together
   ("ECoG and sEEG", "bursa, tendon or labrum" are one block each); different roles, the two sides of
   "versus", phrases the description writes apart ("red flags to screen for vertebral fracture") and
   the descriptors of one compound phrase ("sugar-sweetened beverage taxes": the drinks and the tax)
   are different concepts;
5. **decide which are required** (`decide_required`), as a searcher does: conditions, organisms,
   interventions and methods are AND'ed; a population is AND'ed only when there is no condition (the
   condition usually *is* the population of a review), and never when it is only generic people
   words; an outcome is AND'ed when there is no condition (it names the topic: "vitamin D and
   fracture risk"); the analysis algorithm the user applies, other outcomes, anatomy and settings
   only narrow and are optional, except that while fewer than two concepts are required they are
   promoted in that order. (A zero-hit block is relaxed or dropped, with a note, when the databases are counted:
   `agent.keywords.query_check`.) Nothing is dropped silently: an
   optional concept stays in the plan, marked, with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from agent.language.mesh_recognition import MeshMatch, MeshVocabulary, phrase_key, role_of, tokenize
from agent.language.morphology import defined_acronyms, find_expansion, is_acronym, singular
from agent.language.text import clean_term, split_parenthetical, to_half_width, word_set
from agent.models import (
    LIST_SLOT_NAMES,
    Concept,
    ConceptRole,
    MeshDescriptor,
    StudyFilter,
    Synonym,
    SynonymOrigin,
    Term,
    Understanding,
)

# Words that name the kind of study wanted: design modifiers before a design noun ("randomised
# placebo-controlled trials", "systematic review", "network meta-analysis"), and a few phrases without
# a noun ("diagnostic accuracy"). Grammar of study designs, not topics.
_DESIGN_MODIFIER = (
    r"(?:randomi[sz]ed|non[- ]?randomi[sz]ed|quasi[- ]?randomi[sz]ed|placebo[- ]controlled|"
    r"double[- ]blind(?:ed)?|single[- ]blind(?:ed)?|triple[- ]blind(?:ed)?|controlled|clinical|pragmatic|"
    r"cross[- ]?over|cluster|multi[- ]?cent(?:er|re|ric)|open[- ]label|prospective|retrospective|"
    r"observational|comparative|cohort|case[- ]control|cross[- ]sectional|longitudinal|systematic|"
    r"scoping|rapid|umbrella|narrative|literature|network|dose[- ]response|individual participant data|"
    r"autopsy|diagnostic(?: test)? accuracy|test accuracy|mixed[- ]methods?|qualitative|quantitative)"
)
_DESIGN_NOUN = (
    r"(?:trials?|stud(?:y|ies)|reviews?|meta[- ]?analys[ie]s|meta[- ]regressions?(?: analys[ie]s)?|RCTs?)"
)
_STUDY_TYPE = re.compile(
    rf"\b(?:(?:{_DESIGN_MODIFIER}[\s,]+(?:and\s+|or\s+)?)+{_DESIGN_NOUN}|meta[- ]?analys[ie]s|"
    rf"meta[- ]regressions?(?: analys[ie]s)?|diagnostic(?: test)? accuracy|test accuracy)\b",
    re.IGNORECASE,
)

# Counts and time spans: "6046 women", "over six decades", "in 2019", "3-day", "1990-2020".
_NUMBER_WORDS = "one two three four five six seven eight nine ten eleven twelve twenty thirty hundred"
_SPAN = re.compile(
    rf"\b(?:over|across|during|for|in|of|from)?\s*(?:(?<![\w.\-])\d[\d,.]*|{_NUMBER_WORDS.replace(' ', '|')})"
    r"(?:\s*(?:-|to|and)\s*\d[\d,.]*)?[\s-]*(?:years?|decades?|months?|weeks?|days?|centur(?:y|ies))\b"
    r"|\b(?:19|20)\d\d(?:\s*[-–]\s*(?:19|20)?\d\d)?\b",
    re.IGNORECASE,
)
# "in 6046 women" -> "in women": a number before a plural noun, after a function word or at the start; a
# number inside a name ("PM2.5 exposure", "COVID-19") or after a word ("type 2 diabetes") is no count
_COUNTED = re.compile(r"(?:^|(?<=\s))(?P<number>\d[\d,.]*)\s+(?=(?P<noun>[a-z][\w-]*))", re.IGNORECASE)

# Words every paper of a field shares: alone they are not a concept to AND (they may stay as
# modifiers inside a longer phrase). Grammar and research vocabulary, not topics.
GENERIC_WORDS = word_set(
    """
    treatment treatments therapy therapies pharmacotherapy pharmacological management intervention interventions strategy strategies
    program programme programs programmes approach approaches method methods technique techniques
    diagnosis diagnoses diagnosing diagnostic detection detecting detect identification identifying
    prediction predictions predicting forecasting
    assessment assessing evaluation evaluating screening screen test tests testing tested
    measurement measurements measure measures level levels use uses usage role roles effect effects
    effectiveness efficacy efficiency impact impacts influence outcome outcomes result results
    association associations relationship relationships factor factors risk risks prevention
    preventing prevent benefit benefits harm harms safety comparison comparisons
    patient patients people person persons individual individuals participant participants subject
    subjects human humans adult adults population populations volunteer volunteers case cases
    study studies research evidence analysis analyses review reviews trial trials data
    clinical health care medical new novel different various potential possible current
    quantity quality rate rates prevalence incidence extent value values sign signs
    framework tool tools model models system systems performance accuracy
    disease diseases disorder disorders condition conditions illness illnesses early
    assay assays scan scans scanning examination examinations procedure procedures work works
    exposure exposures intake intakes consumption supplementation supplementations administration record records based
    modality modalities stage stages
    one two three four five six seven eight nine ten eleven twelve follow up followup
    presenting presented suspected undergoing receiving considered current
    """
)
# Generic words that still name a task in a free-text phrase ("molecular property prediction"); beside a
# MeSH descriptor they are set aside ("sepsis prediction" searches Sepsis).
_TASK_NAMES = word_set("prediction predictions forecasting")
# Generic people words: a population made only of these (plus age words) is not AND'ed.
GENERIC_PEOPLE = word_set(
    """
    patient patients people person persons individual individuals participant participants subject
    subjects human humans adult adults volunteer volunteers case cases population populations
    """
)

_CUT = re.compile(r"\s+(?:versus|vs\.?|v\.|compared with|compared to|against)\s+", re.IGNORECASE)
_WITH = re.compile(r"\s+(?:with|without|who have|having)\s+", re.IGNORECASE)
_COORDINATION = re.compile(r"\s*(?:,|\band\b|\bor\b|\band/or\b|/)\s*", re.IGNORECASE)
_FUNCTION = word_set(
    "a an the of in on for to with by from at as into via and or nor versus vs their its his her our your "
    "among between within without under over after before during per than that which who whose"
)

_SLOT_ROLE: dict[str, ConceptRole] = {
    "task": ConceptRole.METHOD,
    "method_measurement": ConceptRole.METHOD,
    "method_algorithm": ConceptRole.ALGORITHM,
    "subject_population": ConceptRole.POPULATION,
    "signal_feature": ConceptRole.OUTCOME,
    "output_target": ConceptRole.OUTCOME,
    "context": ConceptRole.SETTING,
}

# The MeSH trees a slot's phrases are expected under: among descriptors one phrase may name, one of
# these wins ("neural networks" of an algorithm: Neural Networks, Computer, not the anatomy's Nerve Net).
_SLOT_TREES: dict[str, tuple[str, ...]] = {
    "task": ("E", "L", "G17"),
    "method_measurement": ("E", "L"),
    "method_algorithm": ("L", "G17", "E05"),
    "subject_population": ("M", "B", "C", "F03"),
    "signal_feature": ("G", "F", "A", "D"),
    "output_target": ("G", "F", "C"),
}

REQUIRED_ROLES = frozenset(
    {ConceptRole.CONDITION, ConceptRole.INTERVENTION, ConceptRole.METHOD, ConceptRole.POPULATION}
)
PROMOTION_ORDER = (
    ConceptRole.ALGORITHM,
    ConceptRole.OUTCOME,
    ConceptRole.ANATOMY,
    ConceptRole.SETTING,
    ConceptRole.POPULATION,
)
MIN_REQUIRED = 2


def is_study_type(descriptor: MeshDescriptor) -> bool:
    """Publication types and study-design headings (V, and the "... as Topic" study designs)."""
    return any(
        t.startswith(("V", "E05.318.372", "E05.318.760", "N05.715.360.775")) for t in descriptor.tree_numbers
    )


# ----------------------------------------------------------------------------------------------


@dataclass
class _Part:
    """One piece of a slot phrase that may hold one or more concepts."""

    text: str
    slot: str
    group: int  # the two sides of "versus" get different groups
    original: str = ""  # the Chinese the phrase was rendered from
    phrase: str = ""  # the slot phrase the part comes from


@dataclass
class Concepts:
    """The result: concepts, their terms, the study filters set aside, and notes for the user."""

    concepts: list[Concept] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    study_filters: list[StudyFilter] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def set_aside(text: str) -> tuple[str, list[str]]:
    """The phrase without study-type words, counts and time spans, and the study types found."""
    found = [m.group(0) for m in _STUDY_TYPE.finditer(text)]
    text = _STUDY_TYPE.sub(" ", text)
    text = _SPAN.sub(" ", text)
    text = _COUNTED.sub(lambda m: "" if _is_count(m) else m.group(0), text)
    text = re.sub(r"\s+", " ", text).strip(" ,;:-")
    return text, found


def _is_count(match: re.Match[str]) -> bool:
    before = match.string[: match.start()].split()
    noun = match.group("noun").lower()
    return (not before or before[-1].lower() in _FUNCTION) and singular(noun) != noun


def content_words(text: str) -> list[str]:
    """Words that carry meaning: not function words, not generic, not bare numbers."""
    return [
        t.text
        for t in tokenize(text)
        if t.text.lower() not in _FUNCTION and t.text.lower() not in GENERIC_WORDS and not t.text.isdigit()
    ]


def _parts(
    understanding: Understanding, vocabulary: MeshVocabulary | None = None
) -> tuple[list[_Part], list[str]]:
    parts: list[_Part] = []
    study_types: list[str] = []
    compared = 0  # each later side of a "versus" is a concept of its own
    for slot in LIST_SLOT_NAMES:
        for phrase in getattr(understanding.slots, slot):
            text, found = set_aside(to_half_width(phrase))
            study_types += found
            for index, side in enumerate(_CUT.split(text)):
                if index:
                    compared += 1
                group = compared if index else 0
                pieces = [side] if _names_with(side, vocabulary) else _WITH.split(side)
                with_content = any(content_words(piece) for piece in pieces)
                for piece in pieces:
                    # "patients with epilepsy": the condition is the concept, the people word only says who
                    if content_words(piece) or (_people_only(piece) and not with_content):
                        parts.append(
                            _Part(piece.strip(), slot, group, understanding.originals.get(phrase, ""), phrase)
                        )
    return parts, study_types


def _names_with(text: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether MeSH names a phrase "X with Y" of the text as one concept ("dementia with Lewy bodies"):
    then "with" joins, it does not separate people from their condition."""
    if vocabulary is None or not _WITH.search(text):
        return False
    return any(_WITH.search(match.text) for match in vocabulary.recognize(text))


def _people_only(text: str) -> bool:
    """ "patients", "healthy adults": kept as an optional concept, so nothing is dropped silently."""
    words = [t.text.lower() for t in tokenize(text) if t.text.lower() not in _FUNCTION]
    return bool(words) and any(w in GENERIC_PEOPLE for w in words)


@dataclass
class _Draft:
    """A concept under construction: terms of one role from one slot (and one side of a "versus")."""

    role: ConceptRole
    slot: str
    group: int
    terms: list[Term] = field(default_factory=list)
    series: int = 0  # phrases listed together in the description ("X, Y or Z") share a series
    # the phrases that name several descriptors of different trees this draft stands in ("sugar-sweetened
    # beverage taxes", `_apart_in_mesh`): they are different concepts, AND'ed, never OR'ed in one block
    compounds: set[str] = field(default_factory=set)


def build_concepts(understanding: Understanding, vocabulary: MeshVocabulary | None) -> Concepts:
    """Concepts and their terms for a confirmed understanding (see the module docstring)."""
    description = understanding.description
    defined = defined_acronyms(to_half_width(description))
    parts, study_types = _parts(understanding, vocabulary)
    drafts_parts = [
        (draft, part) for part in parts for draft in _drafts_for(part, vocabulary, defined, description)
    ]
    series = listed_together(description, [part.phrase for part in parts], understanding.originals)
    for draft, part in drafts_parts:
        draft.series = series.get(part.phrase, -1)
        for term in draft.terms:
            term.original = part.original
    drafts = [draft for draft, _ in drafts_parts]
    result = Concepts(study_filters=[StudyFilter(text=t) for t in _unique(study_types)])
    if study_types:
        result.notes.append(
            "the kind of study asked for (" + ", ".join(_unique(study_types)) + ") is a filter you can "
            "switch on in the review, not a concept the query requires"
        )
    _merge_into(result, _group(drafts))
    decide_required(
        result.concepts,
        {c.id: _is_generic_people(result.terms, c.id) for c in result.concepts},
        {c.id for c in result.concepts if _names_nothing(result.terms, c.id, vocabulary)},
    )
    return result


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        seen.setdefault(item.casefold().replace("-", " "), item)
    return list(seen.values())


def _drafts_for(
    part: _Part, vocabulary: MeshVocabulary | None, defined: dict[str, str], description: str
) -> list[_Draft]:
    """The concepts of one phrase part: its descriptors by role, or the phrase itself."""
    pieces = [p for p in _COORDINATION.split(part.text) if p and (content_words(p) or _people_only(p))]
    drafts: list[_Draft] = []
    for index, piece in enumerate(pieces):
        text = clean_term(piece)
        matches = vocabulary.recognize(text, defined, _SLOT_TREES.get(part.slot, ())) if vocabulary else []
        matches = [m for m in matches if _meant(m)]
        words = content_words(text) or [w for w in text.split() if w.lower() in GENERIC_PEOPLE]
        if not matches or not content_words(text):
            drafts.append(
                _free_draft(_with_head(text, description, vocabulary), part, description, vocabulary)
            )
            continue
        covered = {w.lower() for m in matches for w in content_words(m.text)}
        head_covered = words[-1].lower() in covered
        conditions = [m for m in matches if role_of(m.descriptor) is ConceptRole.CONDITION]
        if not head_covered and conditions:
            # "brain tumour segmentation": a disease is a concept of its own, the head names the task
            rest = text
            for match in reversed(conditions):
                rest = rest[: match.start] + " " + rest[match.end :]
            drafts += [_mesh_draft(m, "", part, description, defined) for m in conditions]
            if content_words(rest):
                drafts.append(_free_draft(clean_term(rest), part, description, vocabulary))
            continue
        if not head_covered:
            # "speech decoding": the descriptors only modify the phrase's head, which MeSH does not know
            drafts.append(
                _free_draft(_with_head(text, description, vocabulary), part, description, vocabulary)
            )
            continue
        for match in matches:
            last = match is matches[-1]
            draft = _mesh_draft(match, text if last else "", part, description, defined)
            if _apart_in_mesh(match, matches):
                draft.compounds.add(f"{part.phrase}\n{index}")
            drafts.append(draft)
    return drafts


def _apart_in_mesh(match: MeshMatch, matches: list[MeshMatch]) -> bool:
    """Whether a descriptor of a phrase that names several stands in another MeSH tree than all the
    others ("sugar-sweetened beverage" in J, "taxes" in N: two concepts), not in the same one
    ("Alzheimer's disease dementia", "methenamine hippurate": one thing, named twice)."""
    trees = {t[0] for t in match.descriptor.tree_numbers}
    others = [m for m in matches if m is not match]
    return bool(others) and all(not trees & {t[0] for t in m.descriptor.tree_numbers} for m in others)


def names_the_concept(descriptor: MeshDescriptor, text: str, via: str = "entry term") -> bool:
    """Whether `descriptor` is the heading to search for the words `text`: not a study type, not only
    generic words, not a single word for a heading near the top of its tree ("cancer" -> Neoplasms,
    "injuries" -> Wounds and Injuries: the phrase is searched as written instead), and not an everyday
    word that MeSH files under the humanities or as a discipline ("flags" -> Emblems and Insignia,
    "surgery" -> General Surgery)."""
    if is_study_type(descriptor) or not content_words(text):
        return False
    one_word = len(text.split()) == 1
    if one_word and all(t.count(".") < 2 for t in descriptor.tree_numbers):
        return False  # too broad a heading to search on; the words stay
    everyday = via == "entry term" and one_word
    # "flags" -> Emblems and Insignia (humanities), "surgery" -> General Surgery (a discipline, H)
    return not (everyday and all(t.startswith(("K", "H01", "H02")) for t in descriptor.tree_numbers))


def _meant(match: MeshMatch) -> bool:
    return names_the_concept(match.descriptor, match.text, match.via)


def _with_head(text: str, description: str, vocabulary: MeshVocabulary | None) -> str:
    """A lone modifier with the noun the description writes after it: "Rapid" -> "Rapid tests",
    "Cardiac" -> "Cardiac testing" (the understanding may cut a phrase before a generic head)."""
    if vocabulary is None or len(text.split()) != 1 or not vocabulary.is_modifier(text):
        return text
    found = re.search(rf"\b{re.escape(text)}[\s-]+([^\W\d_]+)", description, re.IGNORECASE)
    if found is None or found.group(1).lower() in _FUNCTION:
        return text
    return f"{text} {found.group(1)}"


_EXPOSURE_BEFORE = (
    r"(?:effects?|effectiveness|efficacy|impacts?|influences?|roles?|associations?|relationships?|links?|"
    r"exposure)\s+"
    r"(?:of|between|to)\s+(?:the\s+|a\s+|an\s+)?"
)
_EXPOSURE_AFTER = (
    r"\s+(?:exposure|use|intake|consumption|supplementation|and\s+(?:the\s+)?risks?\s+of|"
    r"(?:affects?|influences?|increases?|reduces?|causes?|predicts?|modifies|modulates?)\b)"
)


_EXPOSURE_HEAD = re.compile(r"\b(?:exposure|use|intake|consumption)$", re.IGNORECASE)


def is_exposure(phrase: str, description: str, original: str = "") -> bool:
    """Whether the description names `phrase` as what acts on an outcome: "the effect of X on Y", "the
    association between X and Y", "exposure to X", "X exposure" (also as the phrase itself: "air
    pollution exposure", "cannabis use"), "X and the risk of Y", "how X affects Y"; in Chinese, `original` before 对 ("X对Y的影响") or before 与/和 ... 的关系. The understanding keeps
    an exposure in the context slot (the PRD has no exposure slot), but a searcher requires it like an
    intervention."""
    if original and re.search(
        re.escape(original) + r"\s*(?:对|与.{1,20}?(?:的)?(?:关系|关联|相关))", description
    ):
        return True
    if not phrase.strip():
        return False
    if _EXPOSURE_HEAD.search(phrase.strip()) and len(phrase.split()) > 1:
        return True  # "air pollution exposure", "cannabis use": the phrase names itself an exposure
    written = re.escape(phrase.strip())
    return bool(
        re.search(_EXPOSURE_BEFORE + written + r"\b", description, re.IGNORECASE)
        or re.search(r"\b" + written + _EXPOSURE_AFTER, description, re.IGNORECASE)
    )


# Head nouns of free-text phrases that name what is done to the people studied ("mindfulness-based
# interventions", "peer support programmes"): such a phrase is an intervention, whatever its slot.
_INTERVENTION_HEADS = word_set(
    """
    intervention interventions therapy therapies treatment treatments program programs programme
    programmes training trainings counselling counseling education prophylaxis supplementation
    rehabilitation
    """
)


def _role(
    role: ConceptRole, part: _Part, description: str, text: str = "", descriptor: MeshDescriptor | None = None
) -> ConceptRole:
    """The role the search gives a concept, from the tree (MeSH) or the slot, corrected by what the
    description says: an exposure of the context slot is an intervention (`is_exposure`); a phrase
    headed by an intervention noun is one ("exercise training"); a descriptor MeSH files only under
    the humanities, social sciences, health care or geography (H, I, K, N, Z: "Employment", "Quality of
    Life") takes the role of the slot that holds it when that slot is not the context."""
    if (
        descriptor is not None
        and part.slot != "context"
        and all(t[0] in "HIKNZ" for t in descriptor.tree_numbers)
    ):
        role = _SLOT_ROLE.get(part.slot, role)
    weak = role in {ConceptRole.SETTING, ConceptRole.OUTCOME}
    if weak and part.slot == "context" and is_exposure(part.phrase or part.text, description, part.original):
        return ConceptRole.INTERVENTION
    words = text.split()
    if weak and words and words[-1].lower() in _INTERVENTION_HEADS:
        return ConceptRole.INTERVENTION
    if role is ConceptRole.SETTING and part.slot != "context":
        return _SLOT_ROLE.get(part.slot, role)
    return role


def _free_draft(text: str, part: _Part, description: str, vocabulary: MeshVocabulary | None = None) -> _Draft:
    """A phrase MeSH does not name: one free-text term whose role is its slot's, except that a context
    phrase whose head noun names diseases is a condition ("... for clinically suspected scaphoid
    fractures"). (Not in other slots: a population "with clinically evident lesions" or an outcome
    "relieve symptoms" only narrows.)"""
    term = new_term(_strip_generic_edges(text, vocabulary), part.slot, description)
    role = _role(_SLOT_ROLE.get(part.slot, ConceptRole.METHOD), part, description, text)
    if role is ConceptRole.SETTING and _head_is_a_condition(term.canonical, vocabulary):
        role = ConceptRole.CONDITION
    return _Draft(role, part.slot, part.group, [term])


def _head_is_a_condition(text: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether the phrase's head noun is one MeSH ends disease names with ("scaphoid fractures",
    "common bile duct stones": `MeshVocabulary.head_role`): what the phrase names is a condition."""
    words = [t.text for t in tokenize(text)]
    if vocabulary is None or len(words) < 2 or words[-1].lower() in GENERIC_WORDS:
        return False
    return vocabulary.head_role(words[-1]) is ConceptRole.CONDITION


def new_term(phrase: str, slot: str, description: str = "") -> Term:
    main, inner = split_parenthetical(clean_term(phrase))
    synonyms: list[Synonym] = []
    canonical = main
    if inner and is_acronym(main) and not is_acronym(inner):
        canonical, inner = inner, main  # "ECoG (electrocorticography)"
    if inner:
        said = inner.casefold() in description.casefold()
        synonyms.append(Synonym(text=inner, origins=[SynonymOrigin.USER if said else SynonymOrigin.LLM]))
    elif is_acronym(main) and description and (long := find_expansion(main, to_half_width(description))):
        synonyms.append(Synonym(text=long, origins=[SynonymOrigin.USER]))
    return Term(canonical=canonical, slot=slot, synonyms=synonyms)


def _mesh_draft(
    match: MeshMatch, phrase: str, part: _Part, description: str, defined: dict[str, str]
) -> _Draft:
    canonical = defined.get(match.text, match.text) if match.via == "acronym" else match.text
    # an ancestor named by a generic word ("Adult" in "young adults", "Records") would not narrow anything
    broader = [parent for parent in match.parents if names_the_concept(parent, parent.heading, via="heading")]
    term = Term(canonical=canonical, slot=part.slot, mesh=match.descriptor, broader=broader)
    if match.via == "acronym" and canonical != match.text:
        term.synonyms.append(Synonym(text=match.text, origins=[SynonymOrigin.USER]))
    for short, long in defined.items():  # "electrocorticography (ECoG)": the user's acronym is a synonym
        if match.via != "acronym" and phrase_key(long) == phrase_key(match.text):
            term.synonyms.append(Synonym(text=short, origins=[SynonymOrigin.USER]))
    extra = _strip_generic_edges(phrase) if phrase else ""
    if (
        extra
        and phrase_key(extra)[-1:] != phrase_key(match.text)[-1:]
        and phrase_key(phrase)[-1:] == (phrase_key(match.text)[-1:])
    ):
        extra = clean_term(phrase)  # "severe mental illness": the heading's own last word stays
    if (
        extra
        and extra.casefold() != canonical.casefold()
        and len(content_words(extra)) > len(content_words(canonical))
    ):
        # "invasive aspergillosis": the phrase as written is searched beside the broader heading
        term.synonyms.insert(0, Synonym(text=extra, origins=[SynonymOrigin.USER]))
    role = _role(role_of(match.descriptor), part, description, phrase or match.text, match.descriptor)
    return _Draft(role, part.slot, part.group, [term])


def _adverb_of_generic(words: list[str]) -> bool:
    """ "clinically suspected ...", "newly diagnosed ...": an adverb that only qualifies the generic
    word after it goes with it."""
    return len(words) > 2 and words[0].lower().endswith("ly") and words[1].lower() in GENERIC_WORDS


# Generic heads that say a thing is measured ("Galactomannan detection", "MTBDRsl assay"); other
# generic heads say how it acts ("fluid intake") and stay with a lone word
_MEASUREMENT_WORDS = word_set(
    "detection detecting assay assays test tests testing measurement measurements level levels "
    "screening assessment diagnosis identification"
)
# Endings of adjectives, participles and abstract nouns: such a word alone names no thing to search for
_NOT_A_THING = re.compile(r"(?:ed|ing|ant|ent|al|ous|ive|ic|ary|ble|ity|ness|ance|ence)$", re.IGNORECASE)


def _names_a_thing(word: str, vocabulary: MeshVocabulary) -> bool:
    """Whether one word alone is a thing a paper could be found by ("Galactomannan", "RIF"), not an
    adjective, participle or abstract noun ("malignant", "impending", "resistance"), nor a word MeSH only
    writes before a head ("rapid", `MeshVocabulary.is_modifier`)."""
    if is_acronym(word) or vocabulary.knows(word):
        return True
    return not _NOT_A_THING.search(singular(word)) and not vocabulary.is_modifier(word)


def _noun_before_head(word: str, vocabulary: MeshVocabulary) -> bool:
    """Whether a generic word before a head makes a compound with it: a noun MeSH ends terms with
    ("care" in "care homes"), not a word shaped as an adjective ("potential" in "potential biomarkers")."""
    return vocabulary.is_head_word(word) and not _NOT_A_THING.search(word)


def _strip_generic_edges(text: str, vocabulary: MeshVocabulary | None = None) -> str:
    """The phrase without generic words at its edges: "the treatment of X" -> "X", "X diagnosis" -> "X"
    (but a generic noun before a last word is a compound: "care homes" stays whole).

    A generic head is kept when what it leaves is one word, unless the head says that word's thing is
    measured and the word names a thing (`_names_a_thing`): "Galactomannan detection" is searched as
    "Galactomannan", while "rapid tests", "resistance detection" and "fluid intake" stay whole (and so
    does every phrase without a vocabulary). A prediction stays the name of a task ("molecular property prediction").
    """
    words = text.split()

    def generic(word: str) -> bool:
        return word.lower() in _FUNCTION or word.lower() in GENERIC_WORDS

    while len(words) > 1 and (generic(words[0]) or _adverb_of_generic(words)):
        if len(words) == 2 and vocabulary is not None and _noun_before_head(words[0], vocabulary):
            break  # "care homes", "health records": a noun that makes a compound with its head stays
        words = words[1:]
    while len(words) > 1 and words[-1].lower() in _FUNCTION:
        words = words[:-1]
    trimmed = list(words)
    while len(trimmed) > 1 and generic(trimmed[-1]) and trimmed[-1].lower() not in _TASK_NAMES:
        trimmed = trimmed[:-1]
    if (
        len(trimmed) == 1
        and vocabulary is not None
        and words[-1].lower() in _MEASUREMENT_WORDS
        and _names_a_thing(trimmed[0], vocabulary)
    ):
        return clean_term(trimmed[0])  # "Galactomannan detection": the thing measured is searched
    return clean_term(" ".join(trimmed if len(trimmed) > 1 else words))


_LIST_GAP = re.compile(
    r"^[\s,;、，]*(?:(?:and/or|and|or|as well as|&)\s+|(?:或者|或|以及|及))?(?:the\s+)?$", re.IGNORECASE
)


def listed_together(
    description: str, phrases: list[str], originals: dict[str, str] | None = None
) -> dict[str, int]:
    """Which slot phrases the description lists together ("Procalcitonin, C-reactive protein, and
    erythrocyte sedimentation rate", "bursa, tendon or labrum", "X、Y或Z"): alternatives a searcher ORs
    in one block. Phrases found in the description (as written, or as the Chinese in `originals` they
    were rendered from) get a series number shared by neighbours that only a comma, "and", "or", 、 or
    或 separates (Chinese 与/和 join what a sentence relates: "X与Y的关系"); a phrase the description
    does not contain is alone (series -1, grouped as its slot and role say)."""
    folded = description.casefold()
    spans: list[tuple[int, int, str]] = []
    for phrase in dict.fromkeys(phrases):
        written = phrase
        at = folded.find(phrase.casefold()) if phrase else -1
        if at < 0 and (original := (originals or {}).get(phrase, "")):
            written, at = original, folded.find(original.casefold())
        if at >= 0:
            spans.append((at, at + len(written), phrase))
    spans.sort()
    series: dict[str, int] = {}
    number = 0
    previous_end = None
    for start, end, phrase in spans:
        if (
            previous_end is None
            or start < previous_end
            or not _LIST_GAP.match(description[previous_end:start])
        ):
            number += 1
        series[phrase] = number
        previous_end = end
    return series


def _group(drafts: list[_Draft]) -> list[_Draft]:
    """One concept per (versus-side, slot, role), except that phrases the description writes apart
    (both found in it, not listed together) and the descriptors of one compound phrase ("sugar-sweetened
    beverage taxes") are different concepts; the same descriptor twice is one term."""
    grouped: list[_Draft] = []
    for draft in drafts:
        same = next(
            (
                g
                for g in grouped
                if (g.group, g.slot, g.role) == (draft.group, draft.slot, draft.role)
                and (g.series == draft.series or -1 in (g.series, draft.series))
                and not g.compounds & draft.compounds
            ),
            None,
        )
        if same is None:
            grouped.append(draft)
        else:
            same.terms += draft.terms
            same.compounds |= draft.compounds
    return grouped


def _merge_into(result: Concepts, drafts: list[_Draft]) -> None:
    """Concept ids, and one term per descriptor or spelling across the whole plan."""
    seen: set[str] = set()  # descriptor UIs and spellings already placed
    labels: set[str] = set()
    for draft in drafts:
        terms = []
        for term in draft.terms:
            keys = {term.canonical.casefold(), *([term.mesh.ui] if term.mesh else [])}
            if keys & seen:
                continue
            terms.append(term)
            seen |= keys
        if not terms:
            continue
        label = " / ".join(t.canonical for t in terms) if len(terms) <= 3 else terms[0].canonical
        concept_id = _concept_id(label, labels)
        for term in terms:
            term.concept = concept_id
        result.terms += terms
        result.concepts.append(Concept(id=concept_id, label=label, role=draft.role))


def _concept_id(label: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", label.casefold()).strip("-")[:40] or "concept"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate)
    return candidate


def _is_generic_people(terms: list[Term], concept_id: str) -> bool:
    words = [
        token.text.lower()
        for term in terms
        if term.concept == concept_id
        for token in tokenize(term.canonical)
        if token.text.lower() not in _FUNCTION
    ]
    return bool(words) and all(w in GENERIC_PEOPLE for w in words)


_ABSTRACT = re.compile(r"(?:ity|ities|ness|ance|ence|ing)$", re.IGNORECASE)


def _names_nothing(terms: list[Term], concept_id: str, vocabulary: MeshVocabulary | None) -> bool:
    """A free-text concept with no word a paper could be found by: one word MeSH only ever uses
    before another ("Physical", "Rapid": what the understanding cut from "physical tests"), or only
    generic words beside abstract nouns and participles ("resectability diagnosis", "resistance
    detection", "impending identification")."""
    members = [t for t in terms if t.concept == concept_id]
    if vocabulary is None or len(members) != 1 or members[0].mesh is not None:
        return False
    words = members[0].canonical.split()
    if len(words) == 1 and vocabulary.is_modifier(words[0]):
        return True
    generic = [w for w in words if w.lower() in GENERIC_WORDS]
    rest = [w for w in words if w.lower() not in GENERIC_WORDS and w.lower() not in _FUNCTION]
    return bool(generic) and all(_ABSTRACT.search(w) for w in rest)


def _a(role: ConceptRole) -> str:
    return f"{'an' if role.value[0] in 'aeiou' else 'a'} {role.value}"


def decide_required(
    concepts: list[Concept], generic: dict[str, bool] | None = None, modifiers: set[str] | None = None
) -> None:
    """Mark each concept required or optional, with the reason (rule in the module docstring);
    `generic` marks concepts of generic people words, `modifiers` those that name nothing searchable."""
    generic = generic or {}
    modifiers = modifiers or set()
    has_condition = any(c.role is ConceptRole.CONDITION for c in concepts)
    for concept in concepts:
        if concept.role is ConceptRole.OUTCOME and not has_condition and concept.id not in modifiers:
            # "vitamin D and fracture risk", "smartphone apps for smoking cessation": with no condition
            # the outcome is what the search is about
            concept.required, concept.reason = True, "an outcome that names the topic (no condition does)"
            continue
        if generic.get(concept.id):
            concept.required, concept.reason = False, "only generic people words: nearly every paper has them"
        elif concept.id in modifiers:
            concept.required, concept.reason = (
                False,
                "an adjective or only general words: nothing a paper could be found by",
            )
        elif concept.role is ConceptRole.POPULATION and has_condition:
            concept.required, concept.reason = False, "the condition already defines who is studied"
        elif concept.role in REQUIRED_ROLES:
            concept.required, concept.reason = True, f"{_a(concept.role)}: a relevant paper must mention it"
        else:
            concept.required, concept.reason = False, f"{_a(concept.role)}: it only narrows the search"
    for role in PROMOTION_ORDER:
        for concept in concepts:
            if sum(c.required for c in concepts) >= MIN_REQUIRED:
                return
            if (
                concept.role is role
                and not concept.required
                and not generic.get(concept.id)
                and concept.id not in modifiers
            ):
                concept.required = True
                concept.reason = f"{_a(role)}, required because the search has too few other concepts"
    if concepts and not any(c.required for c in concepts):
        concepts[0].required, concepts[0].reason = True, "the only concept there is"


def concept_for_term(term: Term, taken: set[str]) -> Concept:
    """A concept of its own for a term added in the review (its role from MeSH, else from its slot)."""
    role = role_of(term.mesh) if term.mesh else _SLOT_ROLE.get(term.slot, ConceptRole.METHOD)
    concept = Concept(id=_concept_id(term.canonical, set(taken)), label=term.canonical, role=role)
    concept.required = role in REQUIRED_ROLES
    concept.reason = "added in the review"
    return concept
