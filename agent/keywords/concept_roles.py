"""Which role a concept plays in a search, and whether the query requires it.

Steps 3 and 5 of `agent.keywords.concepts`. A descriptor's MeSH tree gives the role (`role_of`); the
slot that holds a phrase gives it when MeSH does not (`SLOT_ROLE`), corrected by what the description
says (an exposure is an intervention: `is_exposure`; a phrase headed by a disease noun is a
condition: `head_is_a_condition`). `names_the_concept` decides whether a recognised descriptor is the
heading to search for the words that named it. `decide_required` marks each concept required or
optional, with the reason a searcher would give.
"""

from __future__ import annotations

import re

from agent.keywords.phrase_words import (
    CLOSENESS_NOUNS,
    FUNCTION_WORDS,
    GENERIC_PEOPLE,
    GENERIC_WORDS,
    content_words,
    names_its_agent,
)
from agent.keywords.title_template import subtitle, written_in
from agent.language.cedict import has_chinese
from agent.language.english_forms import english_word
from agent.language.mesh_recognition import (
    EVENT_TREES,
    HUMANS_TREE,
    PERSONS_TREE,
    MeshMatch,
    MeshVocabulary,
    role_of,
    tokenize,
)
from agent.language.mesh_tails import is_below
from agent.language.morphology import is_acronym
from agent.language.text import word_set
from agent.models import Concept, ConceptRole, MeshDescriptor, StudyFilter, Term
from agent.understanding.lexicon import EFFECT_VERBS, EN_PREPOSITIONS, PLACE_UNIT_HEADS, ZH_CHANGE_VERBS

SLOT_ROLE: dict[str, ConceptRole] = {
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
# What is measured includes the events MeSH files as counted (`EVENT_TREES`: Mortality, Survival Rate,
# Patient Readmission): "all-cause mortality" is Mortality, not another sense searched as written.
SLOT_TREES: dict[str, tuple[str, ...]] = {
    "task": ("E", "L", "G17"),
    "method_measurement": ("E", "L"),
    "method_algorithm": ("L", "G17", "E05"),
    "subject_population": ("M", "B", "C", "F03", "N01"),  # N01: Population Characteristics
    "signal_feature": ("G", "F", "A", "D"),
    "output_target": ("G", "F", "C", *EVENT_TREES),
}


# roles that only narrow unless the description writes the concept as what it is about, with the reason:
# "Silver diamine fluoride ... for arresting dentine caries", "channel estimation for massive MIMO systems"
# (what the question is for, filed in the context only because no slot fits it, is its topic, not a place
# that narrows); "We investigate reinforcement learning for robotic grasping" (the algorithm the
# researcher says they study is the topic, not a means that only narrows)
_DEFINING_REASONS = {
    ConceptRole.SETTING: "what the question is for: it defines the topic",
    ConceptRole.ALGORITHM: "what the researcher studies: it defines the topic",
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
_WHAT_IS_DONE = frozenset({ConceptRole.INTERVENTION, ConceptRole.METHOD})


def is_study_type(descriptor: MeshDescriptor) -> bool:
    """Publication types and study-design headings (V, and the "... as Topic" study designs)."""
    return any(
        t.startswith(("V", "E05.318.372", "E05.318.760", "N05.715.360.775")) for t in descriptor.tree_numbers
    )


# The study designs among them: the epidemiologic study characteristics and clinical-trial kinds (E05,
# N05) and the publication types of study characteristics (V03), not the formats (V01, V02: "Program",
# "Legislation", "Dataset" are also topics)
_DESIGN_TREES = ("V03", "E05.318.372", "E05.318.760", "N05.715.360.775")


def names_a_study_design(text: str, vocabulary: MeshVocabulary) -> bool:
    """Whether a phrase of several words is, as a whole, a study design MeSH knows ("quasi-experimental
    studies" = Non-Randomized Controlled Trials as Topic, "interrupted time series", "controlled
    before-after studies"): the kind of study asked for, a filter, and no concept to AND."""
    if len(text.split()) < 2:
        return False
    words = content_words(text)
    matches = vocabulary.recognize(text)
    designs = [m for m in matches if any(t.startswith(_DESIGN_TREES) for t in m.descriptor.tree_numbers)]
    covered = {w.lower() for m in designs for w in content_words(m.text)}
    return bool(designs) and all(w.lower() in covered for w in words)


def study_filter(text: str, vocabulary: MeshVocabulary | None) -> StudyFilter:
    """The filter for the kind of study a phrase asks for, with the heading MeSH files the whole phrase
    under when it does: a publication type ("randomised controlled trials": Randomized Controlled
    Trial, searched as [pt]) or a study design ("cohort studies": Cohort Studies); else the words alone
    ("scoping review": MeSH's Review is a format, not this design)."""
    found = StudyFilter(text=text)
    if vocabulary is None:
        return found
    # the one design written as an acronym everywhere ("RCTs"), which MeSH lists under no entry term
    spelled = "randomized controlled trial" if re.fullmatch(r"RCTs?", text, re.IGNORECASE) else text
    whole = [m for m in vocabulary.recognize(spelled) if m.start == 0 and m.end == len(spelled)]
    for match in whole:
        trees = match.descriptor.tree_numbers
        if any(t.startswith(_DESIGN_TREES) for t in trees):
            found.heading = match.descriptor.heading
            found.publication_type = any(t.startswith("V") for t in trees)
            break
    return found


# Persons (M01): MeSH files the kinds of people flat, one level down ("Refugees", "Veterans", "Women"),
# so there a shallow heading is no broad one (generic people words are set aside before: GENERIC_PEOPLE)
_UNDER_PERSONS = PERSONS_TREE + "."
# diseases (C): one level under a category a disease is named as concretely as deeper down
_CONDITION_TREE = "C"
# therapies (E02), anaesthesia (E03), operations (E04) and equipment (E07): one level under the category
# a heading's own name is one procedure or device (Radiotherapy, Mastectomy, Catheters), as concrete as
# deeper down; not the investigative techniques (E05: Methods, Artifacts), whose one-word headings are
# generic words, nor an entry term there, which may name a class by a narrower sense ("chemotherapy",
# mostly of cancer, is an entry term of Drug Therapy, the family of all drug treatments)
_NAMED_PROCEDURES = ("E02.", "E03.", "E04.", "E07.")


def _near_the_top(tree_number: str, by_its_name: bool = False) -> bool:
    """Whether a tree number is too near the top of its tree for one word to search it: the roots and
    their children ("cancer" -> Neoplasms, "injuries" -> Wounds and Injuries, "behaviour" -> Behavior),
    except a kind of person (Refugees), a condition one level under a category of diseases, which
    MeSH names as concretely as a disease deeper down ("burns": Burns, C26.200, beside Fractures and
    Wounds, Penetrating under Wounds and Injuries), and a procedure or device one level under its
    category named `by_its_name` ("radiotherapy": Radiotherapy, E02.815, beside Cryotherapy under
    Therapeutics)."""
    depth = tree_number.count(".")
    if tree_number.startswith(_UNDER_PERSONS) or (by_its_name and tree_number.startswith(_NAMED_PROCEDURES)):
        return False
    return depth < 1 or (depth < 2 and not tree_number.startswith(_CONDITION_TREE))


def names_the_concept(descriptor: MeshDescriptor, text: str, via: str = "entry term") -> bool:
    """Whether `descriptor` is the heading to search for the words `text`: not a study type, not only
    generic words, not a single word for a heading near the top of its tree ("cancer" -> Neoplasms,
    "injuries" -> Wounds and Injuries: the phrase is searched as written instead; a kind of person,
    "refugee", is no such heading), and not an everyday
    word that MeSH files under the humanities ("flags" -> Emblems and Insignia, "films" -> Motion
    Pictures), nor a synonym of a discipline ("surgery" -> General Surgery, "cardiac surgery" -> Thoracic
    Surgery: the procedures are meant)."""
    if is_study_type(descriptor) or not content_words(text):
        return False
    one_word = len(text.split()) == 1
    if one_word and all(_near_the_top(t, via == "heading") for t in descriptor.tree_numbers):
        return False  # too broad a heading to search on; the words stay
    # "flags" -> Emblems and Insignia, "films" -> Motion Pictures (humanities); "surgery" -> General
    # Surgery, "cardiac surgery" -> Thoracic Surgery (a discipline, H: the procedures are meant)
    trees = descriptor.tree_numbers
    if via == "entry term" and all(t.startswith(("H01", "H02")) for t in trees):
        return False
    return not (via == "entry term" and one_word and any(t.startswith("K") for t in trees))


def meant(match: MeshMatch) -> bool:
    return names_the_concept(match.descriptor, match.text, match.via)


def characteristics_of_the_thing(match: MeshMatch) -> bool:
    """Whether a one-word entry term names a thing MeSH files under a heading of that thing's
    characteristics: "community" and "neighbourhood" are entry terms of Residence Characteristics,
    "households" of Family Characteristics. The heading is about the attributes (where people live, how
    a family is made up), while the word names the place or group, mostly as a modifier that says where
    or at what level something else is done ("community-based walking groups", "household food
    insecurity"); a searcher does not search it under the attributes' heading, and the words stay."""
    return (
        match.via == "entry term"
        and len(match.text.split()) == 1
        and match.descriptor.heading.split()[-1] == "Characteristics"
        and match.text.casefold() not in match.descriptor.heading.casefold()
    )


def apart_in_mesh(match: MeshMatch, matches: list[MeshMatch]) -> bool:
    """Whether a descriptor of a phrase that names several stands in another MeSH tree than all the
    others ("sugar-sweetened beverage" in J, "taxes" in N: two concepts), not in the same one
    ("methenamine hippurate": one thing, named twice). Two conditions are one thing only when one is
    a kind of the other ("Alzheimer's disease dementia"); otherwise the phrase relates two conditions
    ("type 2 diabetes patients' cognitive dysfunction", "lung cancer brain metastases", "knee osteoarthritis
    pain"). So are two
    kinds of persons: "refugee children" are the refugees who are children, Refugees AND Child."""
    others = [m for m in matches if m is not match]
    if not others:
        return False
    if all(_is_condition(m.descriptor) for m in matches) or all(_is_person(m.descriptor) for m in matches):
        return all(not _one_is_a_kind_of_the_other(match.descriptor, m.descriptor) for m in others)
    trees = {t[0] for t in match.descriptor.tree_numbers}
    return all(not trees & {t[0] for t in m.descriptor.tree_numbers} for m in others)


def _is_condition(descriptor: MeshDescriptor) -> bool:
    """A disease, a mental disorder or a sign or symptom, also where MeSH files it under perception or
    physiology as well (Pain: C23, F02 and G11; "knee osteoarthritis pain" relates two conditions)."""
    return any(t.startswith(("C", "F03")) for t in descriptor.tree_numbers)


def _is_person(descriptor: MeshDescriptor) -> bool:
    return bool(descriptor.tree_numbers) and all(
        t.startswith(_UNDER_PERSONS) for t in descriptor.tree_numbers
    )


def _one_is_a_kind_of_the_other(a: MeshDescriptor, b: MeshDescriptor) -> bool:
    return is_below(a, b) or is_below(b, a)


_EXPOSURE_BEFORE = (
    r"(?:effects?|effectiveness|efficacy|impacts?|influences?|roles?|associations?|relationships?|links?|"
    r"exposure)\s+"
    r"(?:of|between|to)\s+(?:the\s+|a\s+|an\s+)?"
)


# what people are given: "children treated with probiotics", "patients receiving ketamine", "women
# randomised to vitamin D": the thing given is the intervention, whatever tree MeSH files it under
_GIVEN_BEFORE = (
    r"(?:(?:treated|supplemented)\s+with|(?:randomi[sz]ed|allocated|assigned)\s+to|receiving|"
    r"given|administered|prescribed|taking|(?:who|that)\s+(?:take|took|are\s+taking))\s+(?:the\s+|a\s+|an\s+)?"
)


# what people do or meet, said of them in a clause: "nurses working night shifts", "nurses who work night
# shifts", "children living near busy roads", "workers exposed to silica", "adolescents using social media":
# the object of the clause is the exposure the question is about, not a measured outcome nor a place (not
# "working in", "living in" or "living with": a setting or a condition)
_DONE_BY_THE_PEOPLE = (
    r"(?:(?:who|that)\s+(?:work|worked|use|used|live|lived)|working|using|exposed\s+to|"
    r"(?:living|(?:who|that)\s+lived?)\s+(?:near|close\s+to|next\s+to|beside|around))\s+"
    r"(?:the\s+|a\s+|an\s+)?"
)


# a later member of a list after "exposure to" or "the effect of": each is an exposure, when the list is
# written with commas ("exposure to lead, cadmium and arsenic") or its member before is a suspended
# prefix ("exposure to per- and polyfluoroalkyl substances"); "exposure to X and Y" alone is no list ("Y"
# is what X acts on: "exposure to air pollution and childhood asthma"), nor is anything after "between"
_EXPOSURES_LISTED = (
    r"(?:effects?|impacts?|influences?|roles?|exposures?)\s+(?:of|to)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?:[\w-]+-\s+(?:and|or)\s+"
    r"|(?:[\w-]+(?:\s+[\w-]+){0,3}?\s*,\s*)+(?:[\w-]+(?:\s+[\w-]+){0,3}?,?\s+(?:and|or)\s+)?)"
)


# "X reduces Y", "does X improve Y", "whether X lowers Y": X acts on Y (the understanding's verbs of effect)
_EFFECT_VERB = "|".join(sorted(EFFECT_VERBS | {"predict", "predicts", "modifies"}, key=len, reverse=True))


_EXPOSURE_AFTER = (
    r"\s+(?:exposure|use|intake|consumption|supplementation|"
    # "whether living near fracking sites is associated with X": the subject of an association
    r"(?:is|are|was|were|be)\s+(?:\w+ly\s+)?(?:associated|linked|related|correlated)\s+(?:with|to)\b|"
    r"(?:(?:during|in|among|at)\s+(?:\w[\w'-]*\s+){1,4})?and\s+(?:the\s+)?risks?\s+of|"
    rf"(?:(?:\w+ed\s+)?(?:with|by)\s+(?:[\w'-]+\s+(?:and\s+)?){{1,6}}?)?"
    rf"(?:(?:after|before|during)\s+(?:[\w'-]+\s+){{1,3}}?)?(?:to\s+)?(?:{_EFFECT_VERB})\b)"
)  # "X to improve Y": the purpose of X is an effect on Y; "X with scripted lesson plans and teacher
# coaching improves Y", "hourly rounding by nurses reduces Y", "X delivered by pharmacists improves Y",
# "telephone follow-up calls after discharge reduce Y": what X comes with, who delivers it or when, is
# said between


# Chinese verbs of effect: 治疗 treat, and the verbs of change the understanding reads (改善 improve,
# 降低 reduce, 预防 prevent, 促进 promote ...)
_ZH_EFFECT_VERB = "|".join(["治疗", *sorted(ZH_CHANGE_VERBS)])


# "X对Y的影响", "X与Y的关系", and X before a verb of effect ("针灸治疗慢性腰痛": acupuncture treating low
# back pain)
_ZH_EXPOSURE_AFTER = rf"\s*(?:对|与.{{1,20}}?(?:的)?(?:关系|关联|相关)|{_ZH_EFFECT_VERB}|影响)"


_ZH_EXPOSURE_BEFORE = r"(?:暴露于|暴露在|接触)\s*"  # "暴露于X", "接触X": exposure to X


_EXPOSURE_HEAD = re.compile(r"\b(?:exposure|use|intake|consumption)$", re.IGNORECASE)
# "residential proximity to major roads", "distance from wind turbines": how near people live to a thing
# measures their exposure to it
_CLOSENESS = re.compile(rf"\b(?:{'|'.join(CLOSENESS_NOUNS)})\s+(?:to|from)\s+\w", re.IGNORECASE)


# a short gloss in brackets inside a phrase ("enhanced recovery after surgery (ERAS) protocols")
_WITHOUT_GLOSSES = re.compile(r"\s*\([^()]{1,30}\)")


def is_exposure(phrase: str, description: str, original: str = "") -> bool:
    """Whether the description names `phrase` as what acts on an outcome: "the effect of X on Y", "the
    association between X and Y", "exposure to X" (and each member of a list written there:
    `_EXPOSURES_LISTED`), "X exposure" (also as the phrase itself: "air
    pollution exposure", "cannabis use"), a measure of closeness ("proximity to major roads"), what people
    are given ("treated with X", "receiving X", "randomised to X", "taking X"), what they do or meet
    (`_DONE_BY_THE_PEOPLE`: "nurses working night shifts", "children living near busy roads"), "X and the risk of Y" (also with a time or place between: "maternal
    smoking during pregnancy and the risk of Y"), "how X affects Y", "does X improve Y";
    in Chinese, `original` before 对 ("X对Y的影响"), before 与/和 ... 的关系, before a verb of effect
    ("X治疗Y"), or after 暴露于 ("暴露于X"); a Latin name in a Chinese description is its own original. The PRD has no exposure slot, so the understanding files an exposure wherever its words
    point (mostly the context), but a searcher requires it like an intervention."""
    # a Latin name written inside a Chinese description ("长期暴露于PM2.5与...的关系") is its own original
    chinese = original or (phrase.strip() if has_chinese(description) else "")
    if chinese and (
        re.search(re.escape(chinese) + _ZH_EXPOSURE_AFTER, description)
        or re.search(_ZH_EXPOSURE_BEFORE + re.escape(chinese), description)
    ):
        return True
    if not phrase.strip():
        return False
    if _EXPOSURE_HEAD.search(phrase.strip()):
        # "air pollution exposure", "cannabis use": the phrase names itself an exposure; the noun alone
        # ("exposure during pregnancy affects Y") names nothing
        return len(phrase.split()) > 1
    if _CLOSENESS.search(phrase):
        return True  # "residential proximity to fracking sites": living near it is the exposure
    written = re.escape(phrase.strip())
    # "enhanced recovery after surgery (ERAS) protocols shorten Y": an acronym glossed inside the phrase
    return any(
        re.search(_EXPOSURE_BEFORE + written + r"(?!\w)", text, re.IGNORECASE)
        or re.search(r"\b" + _GIVEN_BEFORE + written + r"(?!\w)", text, re.IGNORECASE)
        or re.search(r"\b" + _DONE_BY_THE_PEOPLE + written + r"(?!\w)", text, re.IGNORECASE)
        or re.search(_EXPOSURES_LISTED + written + r"(?!\w)", text, re.IGNORECASE)
        # not who does it ("hourly rounding by nurses reduces Y": the nurses are no exposure)
        or re.search(r"(?<!\bby\s)\b" + written + _EXPOSURE_AFTER, text, re.IGNORECASE)
        for text in dict.fromkeys([description, _WITHOUT_GLOSSES.sub("", description)])
    )


_COMPARED_BEFORE = (
    # a PICO field's label opening a sentence or clause ("Comparison: DPP-4 inhibitors", "C: usual care")
    r"(?:(?:^|(?<=[.;,\n]))\s*(?:c|comparisons?|comparators?|controls?)\s*:\s*|"
    r"(?:compare[sd]?\s+(?:(?:it|them|this|these|that|those)\s+)?(?:with|to|against)|"
    r"in\s+comparison\s+(?:with|to)|relative\s+to|rather\s+than|than|"
    # the equative "as safe as X", "as accurately as X", like "than X" (not the fixed "as well as",
    # "as soon as", "as long as", "as far as", "as much/many as", which join or measure, not compare)
    r"\bas\s+(?!(?:well|soon|long|far|much|many)\b)[a-z]+\s+as|"
    # "as well as" after a verb of working is the equative too ("works as well as face-to-face therapy"),
    # where after a noun it joins ("CBT as well as exercise")
    r"\b(?:works?|worked|performs?|performed|does|do|did|functions?)\s+(?:just\s+|equally\s+)?as\s+well\s+as|"
    r"as\s+opposed\s+to|instead\s+of)\s+)(?:the\s+|a\s+|an\s+|those\s+(?:receiving|given|on)\s+)?"
)
# a bracket right after the comparator's own words glosses it ("compared with conventional imaging (CT
# plus bone scan)"): what it names is the comparator too
_IN_THE_COMPARATORS_BRACKET = r"[^()\n.;:,?!]{1,60}?\(\s*(?:[^()]*?[\s,;/])?"


# Adjectives that name the arm of a comparison as the care people get anyway ("versus usual
# physiotherapy", "versus conventional rehabilitation", "standard care"): the control of a trial
_USUAL_CARE = re.compile(r"^(?:the\s+)?(?:usual|conventional|standard|routine)\b", re.IGNORECASE)


# The arms of a trial that give no active treatment ("placebo", "sham acupuncture", "no treatment",
# "watchful waiting", "a waiting list", "expectant management"): a closed class of the words of trials
_NO_TREATMENT = re.compile(
    r"^(?:the\s+|a\s+|an\s+)?(?:placebos?\b|sham\b|no\s+\w|nothing\b|watchful\s+waiting\b|"
    r"expectant\s+management\b|wait(?:ing)?[- ]?lists?\b|delayed\s+treatment\b)",
    re.IGNORECASE,
)
# the alternatives one side of "X versus Y" lists: "sham or conventional therapy", "A, B or no treatment"
_ALTERNATIVES = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+", re.IGNORECASE)


def is_usual_care(side: str) -> bool:
    """Whether one side of "X versus Y" is the care given anyway, whatever it is called: "usual
    physiotherapy", "conventional incubator care", "standard rehabilitation", or no active treatment at
    all ("placebo", "sham stimulation", "watchful waiting", "no treatment"), or alternatives one of which
    is ("sham or conventional therapy", "fluoride varnish or no treatment": the review takes every
    control arm). Like "compared with", the phrase names the trial's control arm, which every trial
    has; a searcher leaves it out and searches the question's own intervention (a new kind of the same
    care is not left out: "regional versus general anaesthesia")."""
    return any(
        _USUAL_CARE.search(alternative) or _NO_TREATMENT.search(alternative)
        for alternative in _ALTERNATIVES.split(side.strip())
    )


# the arm written after "versus" up to where the title goes on ("for", "in", a colon): "versus sham or
# conventional therapy for motor function" -> "sham or conventional therapy"
_ARM_END = r"\s+(?:for|in|among|on|to|after|at|during|with)\b|\s*[:;.?()]|\s*$"
_ARM_AFTER_VERSUS = (
    r"\b(?:versus|vs\.?|v\.|compared\s+(?:with|to))\s+"
    r"(?P<arm>(?:(?!" + _ARM_END + r").)*?\b{phrase}\b(?:(?!" + _ARM_END + r").)*?)(?=" + _ARM_END + r")"
)


def in_a_control_arm(phrase: str, description: str) -> bool:
    """Whether the description names `phrase` among the alternatives of a control arm, after "versus":
    "versus sham or conventional therapy", "versus fluoride varnish or no treatment". The understanding
    cuts such a list at its "or" and may drop the alternative that names no treatment; the arm as
    written tells that the phrase is one of the comparators a review takes (`is_usual_care`)."""
    if not phrase.strip():
        return False
    pattern = _ARM_AFTER_VERSUS.format(phrase=re.escape(phrase.strip()))
    return any(
        len(_ALTERNATIVES.split(m["arm"])) > 1 and is_usual_care(m["arm"])
        for m in re.finditer(pattern, description, re.IGNORECASE)
    )


def is_comparator(phrase: str, description: str) -> bool:
    """Whether the description names `phrase` as what the studies compare with: "... compared with
    health education", "better than placebo", "relative to usual care", "we would like to compare it
    with fluoride varnish". Unlike "X versus Y", which
    sets two concepts side by side (a review of X versus Y is about both), these subordinate the
    phrase to the question's own intervention; every trial names some comparator, so a searcher
    leaves it out of the query. The equative "as safe as X" compares like "than X", a bracket after the
    comparator's words names the comparator too ("conventional imaging (CT plus bone scan)")."""
    if not phrase.strip():
        return False
    written = re.escape(phrase.strip())
    return any(
        re.search(pattern, description, re.IGNORECASE)
        for pattern in (
            _COMPARED_BEFORE + written + r"\b",
            _COMPARED_BEFORE + _IN_THE_COMPARATORS_BRACKET + written + r"\b",
        )
    )


# Chinese marks what is compared with by a preposition before it and a verb of comparing closing the
# clause: "与NIV相比" (compared with NIV), "和 sleep hygiene education 相比", "A与B治疗…的比较" (A
# compared with B); "与" alone joins what a sentence relates ("X与Y的关系"), so the verb must follow
_ZH_COMPARED = r"(?:与|和|同|跟)\s*{phrase}[^，。；？！,.;?!]*?(?:相比|比较|相较|对比)"


def is_chinese_comparator(original: str, description: str) -> bool:
    """Whether a Chinese description names `original` (the words a phrase was rendered from, or the
    phrase itself where the description writes it in Latin letters) as what the studies compare with:
    after 与/和/同/跟 in a clause a verb of comparing (相比, 比较) closes, as the Y of "compared with Y"
    (`is_comparator`): "HFNC…，与NIV相比再插管率是否更低", "二甲双胍与胰岛素治疗妊娠期糖尿病的…比较"."""
    if not original.strip():
        return False
    return bool(
        re.search(_ZH_COMPARED.format(phrase=re.escape(original.strip())), description, re.IGNORECASE)
    )


# "we compare X with Y", "comparing X (XA) to Y", "compares X of the Z versus Y": what is compared, before
# what it is compared with; up to a few words of its own (an "of" phrase, a bracketed acronym) between
_COMPARED_FIRST = (
    r"\bcompar(?:e|es|ed|ing)\s+(?:the\s+|a\s+|an\s+)?{phrase}(?:\s*\([^()]*\))?"
    r"(?:\s+of\s+(?:the\s+)?[\w-]+(?:\s*\([^()]*\))?)?\s+(?:with|to|versus|vs\.?|against)\s"
    # the subject of the intransitive verb: "how does EVAR compare with open repair", "X compares with Y"
    r"|\b(?:do|does|did|would|will)\s+(?:the\s+|a\s+|an\s+)?{phrase}(?:\s*\([^()]*\))?"
    r"\s+compare\s+(?:with|to|against)\s"
    r"|\b{phrase}(?:\s*\([^()]*\))?\s+compares\s+(?:\w+\s+)?(?:with|to|against)\s"
)


def is_compared_first(phrase: str, description: str) -> bool:
    """Whether the description names `phrase` as what the studies compare, right after a verb of
    comparing and before "with"/"to"/"versus" and what it is compared with ("We compare holmium laser
    enucleation of the prostate (HoLEP) with TURP"), or as the subject of the intransitive verb ("how
    does EVAR compare with open repair"): the question's own intervention, something done to the people
    whatever its slot, as each side of "X versus Y" is (`is_comparator` finds the Y)."""
    if not phrase.strip():
        return False
    pattern = _COMPARED_FIRST.format(phrase=re.escape(phrase.strip()))
    return bool(re.search(pattern, description, re.IGNORECASE))


# what comes right before the outcome X acts on: "the effect of X on Y", "the association between X
# and Y", "X and the risk of Y", "X improves Y"
_ACTED_ON_BEFORE = (
    r"(?:\b(?:effects?|effectiveness|efficacy|impacts?|influences?|roles?)\s+of\s+.{1,80}?\s+on\s+|"
    r"\b(?:associations?|relationships?|links?|correlations?)\s+(?:between|of)\s+.{1,80}?\s+(?:and|with)\s+|"
    rf"\b(?:risks?|odds|incidence)\s+of\s+|\b(?:{_EFFECT_VERB})\s+)(?:the\s+|a\s+|an\s+)?"
)


def is_acted_on(phrase: str, description: str, original: str = "") -> bool:
    """Whether the description names `phrase` as what an exposure or intervention acts on: the Y of
    "the effect of X on Y", "the association between X and Y", "X and the risk of Y", "X improves Y";
    in Chinese, `original` at the end of 对's object, before 的影响 ("X对Y的影响", "X对老年人Y的影响"), or after a verb of effect in the same
    clause ("正念能否减轻癌症患者的焦虑"). The counterpart of `is_exposure`:
    such an outcome is the question's own, and defines the topic ("PM2.5 and the risk of childhood
    asthma")."""
    if original and (
        # the head of 对's object: "X对2型糖尿病患者认知功能下降的影响" acts on the decline, as English
        # "the effect of X on cognitive decline in patients with type 2 diabetes" does
        re.search(
            r"对[^。，,；;？?！!]{0,30}?" + re.escape(original) + r"\s*(?:的)?(?:影响|作用|效果)", description
        )
        or re.search(rf"(?:{_ZH_EFFECT_VERB})[^。，,；;？?！!]*?" + re.escape(original), description)
    ):
        return True
    if not phrase.strip():
        return False
    return bool(re.search(_ACTED_ON_BEFORE + re.escape(phrase.strip()) + r"\b", description, re.IGNORECASE))


def is_prevented(phrase: str, description: str) -> bool:
    """Whether the description names `phrase` as what is prevented: "fall prevention exercise
    programmes", "the prevention of pressure ulcers". Like the Y an exposure acts on, what a question
    prevents is its outcome, and defines the topic (Accidental Falls is filed under N, a setting)."""
    if not phrase.strip():
        return False
    written = re.escape(phrase.strip()) + r"\w*"
    return bool(
        re.search(rf"\b{written}\s+prevention\b", description, re.IGNORECASE)
        or re.search(rf"\bprevention\s+of\s+(?:the\s+)?{written}\b", description, re.IGNORECASE)
    )


# verbs and nouns of finding by a test, before what they find
_DETECTED_BEFORE = (
    r"\b(?:detect(?:s|ed|ing)?|diagnos(?:e|es|ed|ing)|screen(?:s|ed|ing)?\s+for|"
    r"(?:detection|diagnosis)\s+of)\s+(?:the\s+|a\s+|an\s+)?(?:early\s+)?"
)


def is_detected(phrase: str, description: str) -> bool:
    """Whether the description names `phrase` as what a test finds: "can ctDNA detect recurrence",
    "the early detection of relapse". What a diagnostic question finds is its target condition, and
    defines the topic even when MeSH files it as an outcome (Recurrence)."""
    if not phrase.strip():
        return False
    return bool(re.search(_DETECTED_BEFORE + re.escape(phrase.strip()) + r"\b", description, re.IGNORECASE))


_DIAGNOSTIC = re.compile(
    r"\b(?:diagnos\w*|detect\w*|screen\w*|staging|triage)\b"
    # the purpose of "X for Y" a test's accuracy is asked for: "MRI ... for assessing rotator cuff tears"
    # (not "Liquefaction assessment of soils"; "for identification of" was tried and left: it also
    # heads questions of signs in an age group, whose age a searcher keeps)
    r"|\bfor\s+(?:the\s+)?(?:assessing|assessment\s+of)\b",
    re.IGNORECASE,
)


# the control arm of "X versus Y", up to where the title goes on (`_ARM_END`)
_CONTROL_ARM = re.compile(
    r"\b(?:versus|vs\.?|v\.|compared\s+(?:with|to))\s+(?:(?!" + _ARM_END + r").)*?(?=" + _ARM_END + r")",
    re.IGNORECASE,
)


def asks_for_a_diagnosis(description: str) -> bool:
    """Whether the description asks how a condition is found ("... for the diagnosis of X", "to screen
    for X", "detection of X", "staging", "for assessing X"): a question of test accuracy, whose target condition is the
    concept, not the condition of the people tested. Not by the words of a control arm alone ("universal
    decolonisation versus targeted screening and isolation for preventing MRSA infection"): what the
    intervention is compared with does not make the question one of finding a condition."""
    return bool(_DIAGNOSTIC.search(_CONTROL_ARM.sub(" ", description)))


# a test or an assay a description names, in English or Chinese (检测 testing, 检验 assay, 筛查 screening)
_TESTING = re.compile(r"\b(?:tests?|testing|assays?)\b|诊断|检测|检验|筛查", re.IGNORECASE)


def looks_for_the_pathogen(description: str) -> bool:
    """Whether the description asks how an infection is found (`asks_for_a_diagnosis`, or it names a
    test or an assay: "Xpert MTB/RIF assay for pulmonary tuberculosis"): such a paper is about the
    pathogen the test detects, and NLM indexes it with the organism beside the disease; a paper on
    preventing, treating or the risk of an infection is indexed with the disease ("bed nets for
    preventing malaria" is no paper on Plasmodium)."""
    return asks_for_a_diagnosis(description) or bool(_TESTING.search(description))


# Diagnosis (E01) holds the techniques a test's accuracy is asked of; Prognosis (E01.789) is filed
# there too, but a question of prognostic factors is no question of a test
_DIAGNOSTIC_TREE, _PROGNOSIS_TREE = "E01", "E01.789"


def asks_about_a_test(description: str, tested: list[MeshDescriptor]) -> bool:
    """Whether the question is one of a test's accuracy: it asks for a diagnosis in words
    (`asks_for_a_diagnosis`), or what it names before the "for" of "X for Y" (`tested`) is only a
    diagnostic technique ("Urea breath test for Helicobacter pylori in children"; not Laparoscopy, which
    MeSH also files as surgery)."""
    return asks_for_a_diagnosis(description) or any(
        descriptor.tree_numbers
        and all(
            n.startswith(_DIAGNOSTIC_TREE) and not n.startswith(_PROGNOSIS_TREE)
            for n in descriptor.tree_numbers
        )
        for descriptor in tested
    )


# Head nouns of free-text phrases that name what is done to the people studied ("mindfulness-based
# interventions", "peer support programmes", "tobacco control policies", "beverage taxes", "text message
# reminders"): such a phrase is an intervention, whatever its slot.
INTERVENTION_HEADS = word_set(
    """
    intervention interventions therapy therapies treatment treatments program programs programme
    programmes training trainings counselling counseling education prophylaxis supplementation
    rehabilitation policy policies tax taxes taxation law laws legislation ban bans subsidy subsidies
    reminder reminders incentive incentives closure closures lockdown lockdowns restriction restrictions
    mandate mandates
    """
)


# Head nouns of places and organisations: where people are studied, not who ("technology firms",
# "primary schools", "rural counties"): in the population slot such a phrase is a setting, which narrows.
# The places are the understanding's (`PLACE_UNIT_HEADS`), less "communities", which are also microbial
# or ecological ones.
PLACE_HEADS = (PLACE_UNIT_HEADS - word_set("community communities")) | word_set(
    """
    firm firms company companies enterprise enterprises corporation corporations organization
    organizations organisation organisations industry industries sector sectors hospital hospitals
    clinic clinics school schools university universities college colleges country countries
    workplace workplaces
    """
)
# Heads of the places care is given in ("care homes", "long-term care facilities", "stroke wards"): a
# review set in one is about the people cared for there, unlike a review of work "in technology firms"
_CARE_PLACE_HEADS = word_set("home homes facility facilities ward wards hospital hospitals clinic clinics")


_ORGANISMS_TREE = "B"


def names_only_organisms(terms: list[Term], *, people: bool = True) -> bool:
    """Whether every term of a concept has a heading filed under Organisms (B) and no disease (C)
    ("Salmonella", "Escherichia coli"; not "aspergillosis" beside "Aspergillus"); with `people` False,
    none of them people ("poultry", "broiler chickens"; not "children")."""

    def organism(trees: list[str]) -> bool:
        return (
            any(n.startswith(_ORGANISMS_TREE) for n in trees)
            and not any(n.startswith("C") for n in trees)
            and (people or not any(n.startswith(HUMANS_TREE) for n in trees))
        )

    return bool(terms) and all(t.mesh is not None and organism(t.mesh.tree_numbers) for t in terms)


def head_is_a_condition(text: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether the phrase's head noun is one MeSH ends disease names with ("scaphoid fractures",
    "common bile duct stones": `MeshVocabulary.head_role`): what the phrase names is a condition."""
    words = [t.text for t in tokenize(text)]
    if vocabulary is None or len(words) < 2 or words[-1].lower() in GENERIC_WORDS:
        return False
    return vocabulary.head_role(words[-1]) is ConceptRole.CONDITION


def the_peoples_one_condition(word: str, phrase: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether a word MeSH ends disease names with is all the people's phrase says of them ("patients
    with cancer", "cancer patients": Neoplasms is too broad a heading to search, but cancer is still the
    people's condition). Not a word left beside another concept of the phrase ("MRSA infection",
    "trauma patients with bleeding"), which that concept's block already holds or stands beside."""
    if (
        vocabulary is None
        or len(word.split()) != 1
        or vocabulary.head_role(word) is not ConceptRole.CONDITION
    ):
        return False
    return [w.lower() for w in content_words(phrase) if w.lower() not in GENERIC_PEOPLE] == [word.lower()]


def is_generic_people(terms: list[Term], concept_id: str) -> bool:
    """Whether a concept's terms are only generic people words ("patients", "adults")."""
    words = [
        token.text.lower()
        for term in terms
        if term.concept == concept_id
        for token in tokenize(term.canonical)
        if token.text.lower() not in FUNCTION_WORDS
    ]
    return bool(words) and all(w in GENERIC_PEOPLE for w in words)


_ABSTRACT = re.compile(r"(?:ity|ities|ness|ance|ence|ing)$", re.IGNORECASE)
_STATE_NOUN = re.compile(r"(?:ance|ence)$", re.IGNORECASE)


def _abstract(word: str) -> bool:
    """An abstract noun or a participle ("resectability", "resistance", "impending"); a noun in "-ance"
    or "-ence" only where English has the verb or adjective it is made from ("resist", "compliant"):
    "microfinance" and "surveillance" name things a paper is found by."""
    if not _ABSTRACT.search(word):
        return False
    if not _STATE_NOUN.search(word):
        return True
    stem = word[:-4].lower()
    return any(english_word(form) for form in (stem, stem + "e", word[:-2].lower() + "t", stem[:-1] + "y"))


# Nouns of a quality ("usability", "durability", "porosity", "roughness"): outside biomedicine the
# property a product or material is studied for, which its papers name ("usability evaluation of voice
# user interfaces" is found by "usability"); in medicine's questions such a noun before a generic head
# is what a test decides ("resectability diagnosis"), no concept of its own
_QUALITY = re.compile(r"[a-z]{3,}(?:ity|ities|ness)$", re.IGNORECASE)


def names_nothing(
    terms: list[Term], concept_id: str, vocabulary: MeshVocabulary | None, biomedical: bool = True
) -> bool:
    """A free-text concept with no word a paper could be found by: words MeSH only ever uses before
    another ("Physical", "Rapid": what the understanding cut from "physical tests"; "low surgical"), or only
    generic words beside abstract nouns and participles ("resectability diagnosis", "resistance
    detection", "impending identification") or hyphenated modifiers ("long-term exposure"). Outside
    biomedicine (`biomedical` False) a noun of a quality is the property studied (`_QUALITY`:
    "usability evaluation")."""
    members = [t for t in terms if t.concept == concept_id]
    if vocabulary is None or len(members) != 1 or members[0].mesh is not None:
        return False
    words = members[0].canonical.split()
    # "low surgical", left of "patients at low surgical risk" once "risk" is set aside: modifiers only
    if all(vocabulary.is_modifier(word) for word in words):
        return True
    generic = [w for w in words if w.lower() in GENERIC_WORDS]
    rest = [w for w in words if w.lower() not in GENERIC_WORDS and w.lower() not in FUNCTION_WORDS]
    if not generic:
        return False
    if not biomedical and any(_QUALITY.match(w) for w in rest):
        return False  # "usability evaluation": the property a product is studied for
    if all(_abstract(w) for w in rest):
        return True
    # "long-term exposure"; but "long-term care facilities" holds MeSH's own term of several words
    named = vocabulary.recognize(members[0].canonical)
    return all(_abstract(w) or _compound_modifier(w, vocabulary) for w in rest) and not any(
        len(m.text.replace("-", " ").split()) > 1 for m in named
    )


def _compound_modifier(word: str, vocabulary: MeshVocabulary) -> bool:
    """A hyphenated compound opened by a word MeSH writes only before another ("long-term", "high-dose",
    "low-level"): an adjective of time, amount or degree, which says how much or how long of what its
    head names, not what ("long-term exposure" names no exposure until "to road traffic noise"). Not a
    noun before a participle of who does a thing ("peer-led", "nurse-delivered": `names_its_agent`),
    which names the kind of thing done, nor a prefix before an acronym ("anti-TNF", "anti-VEGF"): what a
    drug acts against names the drug class."""
    first, _, second = word.partition("-")
    return (
        bool(second)
        and first.isalpha()
        and not is_acronym(second)
        and not names_its_agent(word)
        and vocabulary.is_modifier(first)
        and not vocabulary.knows(word)
    )


# Head nouns of the instruments an outcome is measured with ("STAI scores", "a depression scale")
_INSTRUMENT_HEADS = word_set(
    "score scores scale scales questionnaire questionnaires inventory inventories instrument instruments "
    "checklist checklists"
)


def left_out_reason(concept: Concept, terms: list[Term], comparator: bool, description: str = "") -> str:
    """Why a searcher leaves a concept out, or "" when they keep it: the comparator of a comparison
    named only by a generic head ("versus usual care", "versus intensive medical therapy": every trial
    names one), the free-text instrument a method measures with ("STAI scores": how an outcome is
    measured only narrows), or one free word the description writes as what is measured of another
    concept MeSH names ("length" of "length of hospital stay": Length of Stay holds it), or people the
    description names by what they are at risk of ("women at risk of preterm birth": the outcome defines
    them, as a condition defines its patients), or only the sex of the people studied ("childbearing
    women", "low-risk women", "adolescent girls": `_only_their_sex`), or what the people studied do not
    have ("adults without diabetes": `not_had`)."""
    if comparator:
        return "the comparator of a comparison: every trial names one"
    members = [t for t in terms if t.concept == concept.id]
    if concept.role is ConceptRole.POPULATION and _only_their_sex(members):
        return "the sex of the people studied: MeSH indexes it with the check tags Female and Male"
    if _a_measure_of_another(concept, members, terms, description):
        return "a word of another concept's phrase: that concept's heading holds it"
    if not_had(members, description):
        return "what the people studied do not have ('without'): a search cannot leave papers out by it"
    if explains_another(members, description, [t for t in terms if t.concept != concept.id]):
        return "written inside a bracketed explanation of the words before it: it says what they mean"
    if (
        concept.role is ConceptRole.POPULATION
        and members
        and all(
            re.search(rf"\b{re.escape(t.canonical)}{_AT_RISK_OF}", description, re.IGNORECASE)
            for t in members
        )
    ):
        return "people named by what they are at risk of: that defines who is studied"
    if (
        concept.role is ConceptRole.METHOD
        and members
        and all(t.mesh is None and t.canonical.split()[-1].lower() in _INSTRUMENT_HEADS for t in members)
    ):
        return "the instrument an outcome is measured with: it only narrows the search"
    return ""


# what a "without" phrase takes: X up to the end of its clause or bracket, or to a word that starts
# another phrase ("with or without microscopy for the diagnosis of malaria": not the malaria)
_WHAT = (
    r"(?P<what>(?:(?!\s(?:"
    + "|".join(sorted(EN_PREPOSITIONS))
    + r"|and|or|versus|vs|compared|who|that|which)\s)[^,.;:!?()])+)"
)
# "with or without X", "with and without X"
_WITH_OR_WITHOUT = re.compile(r"\bwith\s+(?:or|and)\s+without\s+" + _WHAT, re.IGNORECASE)
# "adults without established cardiovascular disease": a "without" no "with or"/"with and"/"with versus" opens
_WITHOUT = re.compile(r"(?<!\bor\s)(?<!\band\s)(?<!\bversus\s)(?<!\bvs\s)\bwithout\s+" + _WHAT, re.IGNORECASE)

_WHO_IS_STUDIED = (ConceptRole.CONDITION, ConceptRole.POPULATION)


def not_had(members: list[Term], description: str) -> bool:
    """Whether every term of a concept is a condition or people MeSH names, written only after a bare
    "without" ("patients with type 2 diabetes without established cardiovascular disease"): what the
    people do not have. A searcher never ANDs it (that would find the papers about it), nor NOTs it (a
    paper of the people studied mentions it to say they lack it); "with or without X" is
    `taken_either_way`, and "surgery without drainage" compares what is done, not who is studied."""
    return _who_is_studied_written_only_in(_WITHOUT, members, description)


def taken_either_way(members: list[Term], description: str) -> bool:
    """Whether every term of a concept is a condition or people MeSH names, written after "with or
    without" ("chronic low back pain, with or without sciatica"): the question takes the papers
    that have it and those that do not, so a searcher never ANDs it (it may join the block of its role
    the question has, `secondary_questions.joins_of_the_same_role`); not a term the description also
    writes elsewhere ("apps, with or without blood pressure telemonitoring, improve blood pressure")."""
    return _who_is_studied_written_only_in(_WITH_OR_WITHOUT, members, description)


def _who_is_studied_written_only_in(phrase: re.Pattern[str], members: list[Term], description: str) -> bool:
    """Whether every term is a condition or people MeSH names ("dermoscopy with or without visual
    inspection" compares a test), written in a `phrase` of the description and nowhere else in it."""
    if not members or not all(t.mesh is not None and role_of(t.mesh) in _WHO_IS_STUDIED for t in members):
        return False
    written = [m.group("what") for m in phrase.finditer(description)]
    elsewhere = phrase.sub(" ", description)
    return bool(written) and all(
        any(written_in(t.canonical, what) for what in written) and not written_in(t.canonical, elsewhere)
        for t in members
    )


# a bracketed explanation of the words before it: three words or more after a word, not a list of
# examples or alternatives (a comma, "e.g.", "such as", "including", "or"), which name members of the
# concept ("(community-acquired pneumonia, COPD exacerbations)") and `example_lists` reads
_EXPLANATION = re.compile(
    r"(?<=\w)\s*\((?P<what>(?!\s*(?:e\.\s?g\.|i\.\s?e\.|eg\b|such\s+as\b|including\b|like\b))"
    r"[^(),;]*?[^\s(),;]\s+[^\s(),;]+\s+[^\s(),;][^(),;]*?)\)"
)
_ALTERNATIVES_INSIDE = re.compile(r"\b(?:or|and/or|vs\.?|versus)\b", re.IGNORECASE)


def _ends_with(text: str, term: str) -> bool:
    """Whether `text` ends with `term` as written (its last words, in any form `written_in` accepts)."""
    words = term.split()
    return bool(words) and written_in(term, " ".join(text.split()[-len(words) :]))


def explains_another(members: list[Term], description: str, others: list[Term]) -> bool:
    """Whether every term of a concept is written only inside a bracketed explanation of words before it
    that another concept holds (`others`: "social prescribing (link workers referring patients to
    community activities)", "benign prostatic hyperplasia (prostate volume over 80 ml)", "prehabilitation
    (exercise training in the weeks before lobectomy)"): the user says what those words mean, and a
    searcher puts the explanation's words in the explained concept's block or leaves them out, never ANDs
    them. Not when no concept holds the words explained ("late talkers (toddlers with expressive language
    delay)": the explanation names the condition the words before it do not), nor a short gloss of one or
    two words (an acronym or another name: `bracketed_aliases`), nor a list of examples or alternatives."""
    if not members or not description:
        return False
    explanations = [
        m.group("what")
        for m in _EXPLANATION.finditer(description)
        if not _ALTERNATIVES_INSIDE.search(m.group("what"))
        and any(_ends_with(description[: m.start()], t.canonical) for t in others)
    ]
    if not explanations:
        return False
    elsewhere = _EXPLANATION.sub(" ", description)
    return all(
        any(written_in(t.canonical, what) for what in explanations) and not written_in(t.canonical, elsewhere)
        for t in members
    )


def _only_their_sex(members: list[Term]) -> bool:
    """Whether every term of a concept is Women or Men themselves (`_SEX_GROUPS`): MeSH records the sex
    of the people a paper studies with the check tags Female and Male and keeps these headings for
    women and men as social, cultural and economic groups, so a search for "childbearing women" or
    "adolescent girls" ANDs neither the heading nor the word (what they are in, Pregnancy, or their age
    group is a concept of its own)."""
    return bool(members) and all(
        t.mesh is not None
        and bool(t.mesh.tree_numbers)
        and all(n in _SEX_GROUPS for n in t.mesh.tree_numbers)
        for t in members
    )


_AT_RISK_OF = r"\s+(?:who\s+are\s+)?at\s+(?:high\s+|higher\s+|increased\s+)?risk\s+(?:of|for)\b"


def _a_measure_of_another(concept: Concept, members: list[Term], terms: list[Term], description: str) -> bool:
    """Whether the concept is one free word the description writes before "of" and a term of another
    concept that has a heading: the understanding cut "length of hospital stay" into "length" and
    "hospital stay", whose heading (Length of Stay) already holds the measure."""
    if len(members) != 1 or members[0].mesh is not None or len(members[0].canonical.split()) != 1:
        return False
    word = re.escape(members[0].canonical)
    return any(
        re.search(rf"\b{word}\s+of\s+(?:the\s+)?{re.escape(t.canonical)}\b", description, re.IGNORECASE)
        for t in terms
        if t.concept != concept.id and t.mesh is not None
    )


# Age groups (M01.060) and patients (M01.643) are who has any condition: beside one, the condition
# defines them ("pyelonephritis in children"); other kinds of persons are a population of their own
_DEFINED_BY_A_CONDITION = ("M01.060", "M01.643")
# Women (M01.975) and Men (M01.390) themselves: MeSH indexes the sex of the people studied with the
# check tags Female and Male, and keeps these headings for women and men as social, cultural and
# economic groups; a title's "in women" names the sex of who is studied, which its condition, outcome or
# exposure already carries ("breast cancer in women"), and a searcher does not AND the heading
_SEX_GROUPS = frozenset({"M01.975", "M01.390"})


def kinds_of_people(terms: list[Term]) -> set[str]:
    """Concepts of terms whose descriptor is a kind of person other than an age group or patients
    ("nurses", "people who inject drugs", "kidney donors"): a population a condition beside it does
    not define ("hepatitis C transmission in people who inject drugs" searches both), as a searcher
    keeps "in nurses" of a title."""
    return {
        t.concept
        for t in terms
        if t.mesh is not None
        and any(n.startswith(PERSONS_TREE) for n in t.mesh.tree_numbers)
        and not any(n.startswith(_DEFINED_BY_A_CONDITION) or n in _SEX_GROUPS for n in t.mesh.tree_numbers)
    }


# Health Personnel (nurses, physicians, pharmacists, caregivers)
HEALTH_PERSONNEL_TREE = "M01.526.485"
# General pathological conditions and signs (C23: Emergencies, Pain, Critical Illness), not a disease
_GENERAL_CONDITIONS = "C23"


def names_their_specialty(match: MeshMatch, matches: list[MeshMatch]) -> bool:
    """Whether a general condition (C23 and no disease tree) before health personnel who end the
    phrase (`matches`, in order) names their specialty or where they work ("emergency physicians",
    "pain nurses"), not a condition of anyone studied: the people's setting, not the topic's condition."""
    trees = match.descriptor.tree_numbers
    return (
        len(matches) > 1
        and match is not matches[-1]
        and any(n.startswith(HEALTH_PERSONNEL_TREE) for n in matches[-1].descriptor.tree_numbers)
        and any(n.startswith(_GENERAL_CONDITIONS) for n in trees)
        and all(n.startswith(_GENERAL_CONDITIONS) or not n.startswith("C") for n in trees)
    )


# Population Groups: people by ethnicity or origin (East Asian People for "Chinese", "Japanese")
_POPULATION_GROUPS_TREE = "M01.686"


def names_a_tradition(match: MeshMatch, matches: list[MeshMatch]) -> bool:
    """Whether a word MeSH files only as people of an origin ("Chinese", "Korean") qualifies a thing
    named after it in the phrase (`matches`, in order): "Chinese herbal medicine", "Korean ginseng" say
    whose tradition or where from, not who is studied; before people ("Chinese adults") it is who."""
    trees = match.descriptor.tree_numbers
    after = matches[matches.index(match) + 1 :] if match in matches else []
    return (
        bool(trees)
        and all(n.startswith(_POPULATION_GROUPS_TREE) for n in trees)
        and bool(after)
        and not any(n.startswith((PERSONS_TREE, "B")) for n in after[-1].descriptor.tree_numbers)
    )


# Headings of people so general that nearly every clinical paper has them: Persons, Patients, Adult
_EVERYONE = frozenset({PERSONS_TREE, "M01.643", "M01.060.116"}) | _SEX_GROUPS
_AGE_GROUPS = "M01.060."  # Age Groups: Infant, Child, Adolescent, Young Adult, Aged ...


def named_who_or_where(
    concept: Concept, terms: list[Term], description: str, of_a_test: bool, biomedical: bool = True
) -> bool:
    """Whether a population or setting is one the question names with a heading of its own, outside a
    question of a test's accuracy (`of_a_test`, see `asks_about_a_test`): "in preterm infants", "in
    children", "in the emergency department", "in sub-Saharan Africa", "in low- and middle-income
    countries". A review of an intervention, an exposure or a prognosis is about those people or that
    place, and a searcher ANDs them; the setting and the people of a test's accuracy are where and who
    is selected for the test, which the target condition defines, except an age group ("for the
    diagnosis of pneumonia in children": `_only_age_groups`): a test's accuracy in children or in older
    people is a review of its own, and a searcher ANDs Child or Aged. Generic people (Persons, Patients, Adult) and
    the sex of the people (Women, Men: `_SEX_GROUPS`) never narrow so, nor do people the description
    names by their condition ("outpatients with heart failure": the condition's own patients,
    `_named_with_their_condition`), except an age group
    (`_AGE_GROUPS`: "children with acute gastroenteritis", "older adults with hearing loss"): a
    condition of every age does not say which age the review is about, and a searcher ANDs Child or
    Aged beside it. A place of care MeSH does
    not name is named so when written after "in" ("in care homes": `_a_place_written_after_in`); a place
    written as where the people live is not ("older adults living in the community":
    `_qualifies_the_people`) unless MeSH files it among facilities ("living in nursing homes":
    `_a_facility`) or it is a place of care MeSH does not name ("living in care homes":
    `_a_place_of_care`), nor one written only as the origin of something or among what a subtitle
    reports ("after discharge from hospital", "evidence from Scotland", "...: satisfaction and costs":
    `_written_only_apart`). In a description that names nothing of biomedicine (`biomedical` false,
    `field_of_description.names_biomedicine`) a setting is the market, system or constraint the
    question is about ("in emerging markets", "in smart grids", "with time windows"), no place of care
    that only narrows a review: a searcher of that field ANDs it like every other block."""
    if concept.role not in (ConceptRole.POPULATION, ConceptRole.SETTING):
        return False
    members = [t for t in terms if t.concept == concept.id]
    if (
        concept.role is ConceptRole.SETTING
        and not biomedical
        and members
        and not _written_only_apart(members, description)
    ):
        return True
    headings = [t.mesh for t in members if t.mesh is not None]
    if unexplained_acronym(concept, members, description):
        return True
    if of_a_test:
        return concept.role is ConceptRole.POPULATION and _only_age_groups(headings)
    if (
        concept.role is ConceptRole.SETTING
        and members
        and all(_qualifies_the_people(t.canonical, description) for t in members)
        and not (headings and all(_a_facility(h) for h in headings))
        and not (not headings and all(_a_place_of_care(t.canonical) for t in members))
    ):
        return False
    if not headings and concept.role is ConceptRole.SETTING:
        return bool(members) and all(_a_place_written_after_in(t.canonical, description) for t in members)
    if concept.role is ConceptRole.SETTING and _written_only_apart(members, description):
        return False
    return (
        bool(headings)
        and all(h.tree_numbers and not any(n in _EVERYONE for n in h.tree_numbers) for h in headings)
        and (
            all(n.startswith(_AGE_GROUPS) for h in headings for n in h.tree_numbers)
            or not any(_named_with_their_condition(t.canonical, description) for t in members)
        )
    )


def unexplained_acronym(concept: Concept, members: list[Term], description: str) -> bool:
    """Whether a population or setting is only an acronym the description leaves unexplained and MeSH
    does not resolve: "CPAP adherence in OSA", "event-driven PrEP in MSM", "deprescribing of PPIs in care
    home residents", "GLP-1 受体激动剂能否改善 MASLD 患者的肝纤维化". The understanding files such a word
    among the people or the context for the "in" or the 患者 around it, but a title abbreviates the
    condition, the treatment or the group it is about, not a place: a searcher searches the acronym, and
    a condition named elsewhere does not stand in for it (MASLD beside liver fibrosis). A place a text
    abbreviates takes its article ("in the NHS", "in the ED", "in the UK") and stays a setting."""
    if concept.role not in (ConceptRole.POPULATION, ConceptRole.SETTING) or not members:
        return False
    if any(t.mesh is not None for t in members) or " " in concept.label.strip():
        return False
    if not is_acronym(concept.label):
        return False
    before = re.compile(r"\bthe\s+" + re.escape(concept.label.strip()) + r"(?![A-Za-z0-9])", re.IGNORECASE)
    return not before.search(description)


def _only_age_groups(headings: list[MeshDescriptor]) -> bool:
    """Whether every heading is an age group below adulthood or above it (`_AGE_GROUPS` less
    `_EVERYONE`'s Adult): Child, Infant, Aged ..."""
    return bool(headings) and all(
        h.tree_numbers and all(n.startswith(_AGE_GROUPS) and n not in _EVERYONE for n in h.tree_numbers)
        for h in headings
    )


# MeSH's periods of a person's reproductive life (G08.686): pregnancy and its trimesters, the
# peripartum and postpartum periods, menopause, puberty
_PERIODS_OF_LIFE = (
    "G08.686.784.769",
    "G08.686.701",
    "G08.686.702",
    "G08.686.707",
    "G08.686.157.500",
    "G08.686.760",
)


def a_period_of_life_named(concept: Concept, terms: list[Term], description: str) -> bool:
    """Whether a concept is a period of the people's life (`_PERIODS_OF_LIFE`) that the question writes
    after "in" or "during" ("iron deficiency anaemia in pregnancy", "depression during pregnancy",
    "in the postpartum period"): it says who is studied, as "pregnant women" would, and a searcher ANDs
    it (MeSH files the period among physiological phenomena, which would leave it an optional outcome).
    Not a period named only in passing ("abstinence at the end of pregnancy")."""
    members = [t for t in terms if t.concept == concept.id]
    headings = [t.mesh for t in members if t.mesh is not None]
    if not headings or not all(
        h.tree_numbers and all(n.startswith(_PERIODS_OF_LIFE) for n in h.tree_numbers) for h in headings
    ):
        return False
    return any(
        re.search(rf"\b(?:in|during)\s+(?:the\s+)?{re.escape(t.canonical)}\b", description, re.IGNORECASE)
        for t in members
    )


# the words after a disease that make it a time: "during the COVID-19 pandemic", "the Ebola outbreak"
_TIME_OF_A_DISEASE = r"(?:pandemic|epidemic|outbreak|era|lockdowns?)"


def a_time_of_an_epidemic(concept: Concept, terms: list[Term], description: str) -> bool:
    """Whether a condition is written only as the time a study is set in ("burnout among ICU nurses
    during the COVID-19 pandemic", "in the Ebola outbreak"): the people studied need not have it, so it
    does not stand for the question's condition, and the outcome beside it still names the topic."""
    if concept.role is not ConceptRole.CONDITION:
        return False
    written = [t.canonical for t in terms if t.concept == concept.id]
    disease_words = [re.sub(rf"\s+{_TIME_OF_A_DISEASE}$", "", w, flags=re.IGNORECASE) for w in written]
    mentions = [
        m
        for w in dict.fromkeys(disease_words)
        for m in re.finditer(rf"\b{re.escape(w)}\b(?:\s+{_TIME_OF_A_DISEASE}\b)?", description, re.IGNORECASE)
    ]
    return bool(mentions) and all(
        re.search(rf"\b{_TIME_OF_A_DISEASE}$", m.group(0), re.IGNORECASE)
        and re.search(
            r"\b(?:during|in|throughout|since|before|after)\s+(?:the\s+)?$",
            description[: m.start()],
            re.IGNORECASE,
        )
        for m in mentions
    )


# "older adults living in the community", "patients residing at home", "children resident in rural
# areas": where the people live, said of them in passing
_LIVING_IN = (
    r"\b(?:living|residing|dwelling|resident|who\s+live|who\s+reside)\s+(?:in|at)\s+(?:the\s+|their\s+|a\s+)?"
)


# MeSH's facilities: health facilities (N02.278: Nursing Homes, Homes for the Aged, Group Homes) and the
# other public and private facilities (J03: Prisons, Refugee Camps)
_FACILITY_TREES = ("N02.278", "J03")


def _a_facility(descriptor: MeshDescriptor) -> bool:
    """Whether MeSH files a place only among facilities: an institution people live in ("older people
    living in nursing homes", "... residing in prisons") is the setting the review is about, which a
    searcher ANDs, unlike the community, a home or a neighbourhood they live in (no heading, or one of
    Residence Characteristics)."""
    return bool(descriptor.tree_numbers) and all(
        t.startswith(_FACILITY_TREES) for t in descriptor.tree_numbers
    )


# words before a place's head that make it the people's own dwelling, not an institution
_OWN_DWELLING = word_set("own private family their a the")


def _a_place_of_care(phrase: str) -> bool:
    """Whether a phrase MeSH does not name is an institution of care by its compound ("care homes",
    "residential homes", "long-term care facilities": a modifier before a head of `_CARE_PLACE_HEADS`):
    people who live in one are its residents, and the review is set there, as in "nursing homes"
    (`_a_facility`); "at home", "in their own homes" is where anyone lives."""
    words = phrase.lower().split()
    return len(words) >= 2 and words[-1] in _CARE_PLACE_HEADS and not _OWN_DWELLING & set(words[:-1])


def _qualifies_the_people(phrase: str, description: str) -> bool:
    """Whether the description writes `phrase` as where its people live ("older adults living in the
    community", "... residing at home"): a generic place that only qualifies the population, which a
    searcher does not AND (unlike a setting the review is set in: "in the emergency department")."""
    return bool(phrase.strip()) and bool(
        re.search(_LIVING_IN + re.escape(phrase.strip()) + r"\b", description, re.IGNORECASE)
    )


# the prepositions that open the phrase a word stands in (the understanding's, and the few it reads
# otherwise); "from" makes a place the origin of something ("discharge from hospital", "evidence from
# Scotland, Wales and Canada"), not where the review is set
_PREPOSITIONS = EN_PREPOSITIONS | word_set("amongst inside of versus vs")
_CLAUSE_END = re.compile(r"[:;.!?()\[\]]")


def _written_only_apart(members: list[Term], description: str) -> bool:
    """Whether the description writes every word of a setting only where it is no place the review is
    set in: as the object of "from" ("after discharge from hospital", "evidence from Scotland, Wales
    and Canada") or in a subtitle that only lists what is reported ("...: patient satisfaction,
    clinical outcomes and costs"). A setting the description does not write as such (a rendering)
    is not."""
    tail = subtitle(description)
    listing = bool(tail) and not re.search(r"\b(?:in|among|amongst|at|within)\s", tail, re.IGNORECASE)
    start_of_tail = len(description.rstrip()) - len(tail) if tail else len(description) + 1
    found = False
    for member in members:
        phrase = member.canonical.strip()
        for match in re.finditer(rf"\b{re.escape(phrase)}\b", description, re.IGNORECASE) if phrase else ():
            found = True
            if listing and match.start() >= start_of_tail:
                continue
            before = _CLAUSE_END.split(description[: match.start()])[-1]
            opener = next((w for w in reversed(before.lower().split()) if w in _PREPOSITIONS), "")
            if opener != "from":
                return False
    return found


def _a_place_written_after_in(phrase: str, description: str) -> bool:
    """Whether a phrase MeSH does not name is a place of care ("care homes", "long-term care facilities":
    `_CARE_PLACE_HEADS`) the description writes after "in", or after "in" and the people of it ("in
    residents of long-term care facilities"): where the review is set, which a searcher requires as
    surely as one MeSH names."""
    words = phrase.split()
    return (
        bool(words)
        and words[-1].lower() in _CARE_PLACE_HEADS
        and bool(
            re.search(
                rf"\bin\s+(?:\w+\s+of\s+)?(?:the\s+)?{re.escape(phrase.strip())}\b",
                description,
                re.IGNORECASE,
            )
        )
    )


def _named_with_their_condition(phrase: str, description: str) -> bool:
    return bool(phrase.strip()) and bool(
        re.search(rf"\b{re.escape(phrase.strip())}\s+{_WITH_A_CONDITION}", description, re.IGNORECASE)
    )


_WITH_A_CONDITION = r"(?:with|who\s+have|who\s+had|having|living\s+with|affected\s+by)\b"


def with_article(role: ConceptRole) -> str:
    return f"{'an' if role.value[0] in 'aeiou' else 'a'} {role.value}"


def decide_required(
    concepts: list[Concept],
    generic: dict[str, bool] | None = None,
    modifiers: set[str] | None = None,
    left_out: dict[str, str] | None = None,
    defining: set[str] | None = None,
    pathogens: set[str] | None = None,
    relatives: set[str] | None = None,
    named: set[str] | None = None,
) -> None:
    """Mark each concept required or optional, with the reason (the rule: step 5 of
    `agent.keywords.concepts`);
    `generic` marks concepts of generic people words, `modifiers` those that name nothing searchable,
    `left_out` what a searcher leaves out, with the reason (`left_out_reason`), `defining` the concepts
    the question is about (`title_template.named_as_the_purpose`, `is_acted_on`), `pathogens` the
    conditions that name only organisms (`names_only_organisms`): such a concept says what is
    found, not who is studied nor what the question is about ("antimicrobial resistance in Salmonella
    from poultry": the resistance and the poultry are required beside it), `relatives` people named by
    a relation to people with a condition (`title_template.related_to_the_ill`: "family caregivers of
    people with dementia") or by a kind of person MeSH files (`kinds_of_people`: "nurses", "people who
    inject drugs"), whom the condition does not define, `named` the populations and settings the
    question names outside a question of diagnosis (`named_who_or_where`)."""
    defining = defining or set()
    named = named or set()
    pathogens = pathogens or set()
    generic = generic or {}
    modifiers = modifiers or set()
    left_out = left_out or {}
    has_condition = any(c.role is ConceptRole.CONDITION and c.id not in pathogens for c in concepts)
    for concept in concepts:
        if (
            concept.role is ConceptRole.OUTCOME
            and not has_condition
            and concept.id not in modifiers
            and concept.id not in left_out
        ):
            # "vitamin D and fracture risk", "smartphone apps for smoking cessation": with no condition
            # the outcome is what the search is about
            concept.required, concept.reason = True, "an outcome that names the topic (no condition does)"
            continue
        if (
            concept.role in _DEFINING_REASONS
            and concept.id in defining
            and concept.id not in modifiers | left_out.keys()
        ):
            concept.required, concept.reason = True, _DEFINING_REASONS[concept.role]
            continue
        if concept.role is ConceptRole.OUTCOME and concept.id in defining and concept.id not in modifiers:
            # "Red flags to screen for malignancy in patients with low-back pain", "the effect of exercise on
            # sleep quality in older adults": the outcome the question is for, or that its exposure acts on
            concept.required, concept.reason = True, "an outcome the question is about: it defines the topic"
            continue
        if generic.get(concept.id):
            concept.required, concept.reason = False, "only generic people words: nearly every paper has them"
        elif concept.id in left_out:
            concept.required, concept.reason = False, left_out[concept.id]
        elif concept.id in modifiers:
            concept.required, concept.reason = (
                False,
                "an adjective or only general words: nothing a paper could be found by",
            )
        elif concept.id in named:
            concept.required, concept.reason = (
                True,
                f"{with_article(concept.role)} the question names: the review is about them",
            )
        elif concept.role is ConceptRole.POPULATION and has_condition and concept.id not in (relatives or ()):
            concept.required, concept.reason = False, "the condition already defines who is studied"
        elif concept.role in REQUIRED_ROLES:
            concept.required, concept.reason = (
                True,
                f"{with_article(concept.role)}: a relevant paper must mention it",
            )
        else:
            concept.required, concept.reason = (
                False,
                f"{with_article(concept.role)}: it only narrows the search",
            )
    if not any(c.required and c.role in _WHAT_IS_DONE for c in concepts):
        # "We are building a chatbot ... to reduce depressive symptoms": with no intervention or method
        # named, the algorithm or system the description names is what is done, and the search needs it
        for concept in concepts:
            if concept.role is ConceptRole.ALGORITHM and concept.id not in modifiers | left_out.keys():
                concept.required = True
                concept.reason = "an algorithm, and nothing else names what is done"
    for role in PROMOTION_ORDER:
        for concept in concepts:
            if sum(c.required for c in concepts) >= MIN_REQUIRED:
                return
            if (
                concept.role is role
                and not concept.required
                and not generic.get(concept.id)
                and concept.id not in modifiers
                and concept.id not in left_out
            ):
                concept.required = True
                concept.reason = (
                    f"{with_article(role)}, required because the search has too few other concepts"
                )
    if concepts and not any(c.required for c in concepts):
        concepts[0].required, concepts[0].reason = True, "the only concept there is"
