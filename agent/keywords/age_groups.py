"""Ages a description writes, read as the MeSH age groups a searcher ORs for its population.

MeSH has a closed set of age-group headings (the "Age Groups" branch M01.060), each defined by an age
range in its scope note. A librarian maps an age phrase to the headings whose ranges it overlaps:
"children under five" is Infant OR Child, Preschool; "children aged 6 to 12" is Child; "adolescents
and young adults" is Adolescent OR Young Adult; "older adults" is Aged; "people aged 80 and over" is
Aged, 80 and over. Word by word, MeSH recognition gets some of these wrong: "children under five" gives
only Child, "older adults" gives Adult, and "aged 65" gives Aged from the word "aged" whatever follows.

This module reads the ages (`age_mentions`): numeric spans with the words that make them ages ("aged
15-24 years", "under five years of age", "80 years or older", "5-year-old", "under-fives"), and the
age words that name a range without a number ("toddlers", "older adults", "young people", "the oldest
old"), and maps each range to the age groups it overlaps (`groups_for_range`), from MeSH's own ranges
(`AGE_GROUPS`, the scope notes of MeSH 2024). `agent.keywords.concepts` makes one population block of
them (`age_population`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from agent.keywords.concept_grouping import concept_id
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Concept, ConceptRole, MeshDescriptor, Synonym, SynonymOrigin, Term
from agent.understanding.lexicon import NUMBER_WORDS

# Ranges in months, [low, high), from the scope notes of the MeSH 2024 age-group descriptors:
#   Infant, Newborn  "An infant during the first 28 days after birth."
#   Infant           "A child between 1 and 23 months of age."
#   Child, Preschool "A child between the ages of 2 and 5."
#   Child            "A person 6 to 12 years of age."
#   Adolescent       "A person 13 to 18 years of age."
#   Young Adult      "A person between 19 and 24 years of age."
#   Adult            "A person having attained full growth or maturity. Adults are of 19 through 44 years
#                     of age." (the parent of Young Adult, Middle Aged and Aged in the tree)
#   Middle Aged      "An adult aged 45 - 64 years."
#   Aged             "A person 65 years of age or older."
#   Aged, 80 and over "Persons 80 years of age and older."
# The tree makes Infant the parent of Infant, Newborn, Aged the parent of Aged, 80 and over, and Adult
# the parent of Young Adult, Middle Aged and Aged.
_YEAR = 12.0
_END = 120 * _YEAR  # an open span ("65 and over") ends here


@dataclass(frozen=True)
class AgeGroup:
    heading: str
    tree: str
    low: float  # months, inclusive
    high: float  # months, exclusive
    parent: str = ""
    name: str = ""  # how a searcher writes the group in free text ("older adults" for Aged)


AGE_GROUPS: tuple[AgeGroup, ...] = (
    AgeGroup("Infant, Newborn", "M01.060.703.520", 0, 1, "Infant", "newborns"),
    AgeGroup("Infant", "M01.060.703", 1, 2 * _YEAR, "", "infants"),
    AgeGroup("Child, Preschool", "M01.060.406.448", 2 * _YEAR, 6 * _YEAR, "", "preschool children"),
    AgeGroup("Child", "M01.060.406", 6 * _YEAR, 13 * _YEAR, "", "children"),
    AgeGroup("Adolescent", "M01.060.057", 13 * _YEAR, 19 * _YEAR, "", "adolescents"),
    AgeGroup("Young Adult", "M01.060.116.815", 19 * _YEAR, 25 * _YEAR, "Adult", "young adults"),
    AgeGroup("Adult", "M01.060.116", 25 * _YEAR, 45 * _YEAR, "", "adults"),
    AgeGroup("Middle Aged", "M01.060.116.630", 45 * _YEAR, 65 * _YEAR, "Adult", "middle-aged"),
    AgeGroup("Aged", "M01.060.116.100", 65 * _YEAR, 80 * _YEAR, "Adult", "older adults"),
    AgeGroup("Aged, 80 and over", "M01.060.116.100.080", 80 * _YEAR, _END, "Aged", "oldest old"),
)


# how a searcher writes each group in free text, by its heading
AGE_GROUP_NAMES = {g.heading: g.name for g in AGE_GROUPS}


def groups_for_range(low: float, high: float) -> list[str]:
    """The age-group headings a range of ages [low, high) in months overlaps, most general first.

    A group counts when the range covers at least half of the group or half of itself lies in the group
    ("aged 12 to 18" is Adolescent, not Child for its first year; "under five" is Infant and Child,
    Preschool, with Infant, Newborn inside Infant); a group whose parent counts is left to the parent,
    which a searcher explodes ("65 and over": Aged, which holds Aged, 80 and over)."""
    high = min(high, _END)
    if high <= low:
        return []
    chosen = {
        group.heading
        for group in AGE_GROUPS
        if (overlap := min(high, group.high) - max(low, group.low)) > 0
        and overlap >= min(group.high - group.low, high - low) / 2
    }
    return _without_children(chosen)


def _without_children(chosen: set[str]) -> list[str]:
    """The headings in tree order, a child left out where its parent (which explodes to it) is in."""
    return [g.heading for g in AGE_GROUPS if g.heading in chosen and g.parent not in chosen]


@dataclass(frozen=True)
class AgeMention:
    """An age the description writes: `text` as written (with the people word it qualifies), the range
    in months, and whether a number gave it."""

    text: str
    start: int
    end: int
    low: float
    high: float
    numeric: bool

    @property
    def headings(self) -> list[str]:
        return groups_for_range(self.low, self.high)


_NUMBER_VALUES = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
}  # fmt: skip
_NUMBER = r"(?:\d{1,3}(?:\.\d)?|" + "|".join(w for w in _NUMBER_VALUES if w in NUMBER_WORDS) + ")"
_UNIT = r"(?P<unit>years?|yrs?|months?|weeks?|days?)"
_OF_AGE = r"(?:\s+(?:of\s+age|old|of\s+age\s+or\s+(?:older|more|above)))?"
# people a span qualifies ("children under five", "adults aged 65 and over", "women over 50")
_PEOPLE = (
    r"(?:children|child|kids|infants|babies|toddlers|adolescents|teenagers|youths?|young\s+people|"
    r"young\s+adults|adults|people|persons|individuals|women|men|girls|boys|patients|participants|"
    r"residents|populations?|mothers|pupils|students|the\s+population)"
)
_RANGE = rf"(?P<a>{_NUMBER})\s*(?:-|–|to|and)\s*(?P<b>{_NUMBER})\s*(?:-\s*)?{_UNIT}?"
_UPWARD = r"(?:and|or)\s+(?:over|older|above|more|beyond)"
_SPANS: tuple[tuple[str, str], ...] = (
    # "aged 6 to 12 years", "aged 15-24", "ages 2-5", "between the ages of 10 and 19"
    (
        "range",
        rf"\b(?:aged|ages?(?:\s+of)?|between\s+the\s+ages\s+of|between)\s+(?:between\s+)?{_RANGE}{_OF_AGE}",
    ),
    # "aged 65 years and over", "aged 80 years or older", "aged ≥ 65 years", "aged 65+"
    (
        "up",
        rf"\b(?:aged|ages?)\s*(?:≥|>=|>|over|above|older\s+than|at\s+least)?\s*(?P<a>{_NUMBER})\s*\+?\s*{_UNIT}?{_OF_AGE}\s*{_UPWARD}",
    ),
    (
        "up",
        rf"\b(?:aged|ages?)\s*(?:≥|>=|>|over|above|older\s+than|at\s+least)\s*(?P<a>{_NUMBER})\s*{_UNIT}?{_OF_AGE}",
    ),
    ("up", rf"\b(?:aged|ages?)\s+(?P<a>{_NUMBER})\s*\+\s*{_UNIT}?"),
    # "aged under 5", "aged less than 2 years"
    (
        "down",
        rf"\b(?:aged|ages?)\s+(?:under|below|less\s+than|younger\s+than|<)\s*(?P<a>{_NUMBER})\s*{_UNIT}?{_OF_AGE}",
    ),
    # "aged 4 months", "aged 70 years"
    ("one", rf"\b(?:aged|ages?)\s+(?P<a>{_NUMBER})\s*{_UNIT}{_OF_AGE}"),
    # "children under five years of age", "people over 65", "adults 65 years and older"
    (
        "down",
        rf"\b{_PEOPLE}\s+(?:under|below|less\s+than|younger\s+than)\s+(?:the\s+age\s+of\s+)?(?P<a>{_NUMBER})\b(?:\s*{_UNIT})?{_OF_AGE}",
    ),
    (
        "up",
        rf"\b{_PEOPLE}\s+(?:over|above|older\s+than)\s+(?:the\s+age\s+of\s+)?(?P<a>{_NUMBER})\b(?:\s*{_UNIT})?{_OF_AGE}",
    ),
    ("up", rf"\b{_PEOPLE}\s+(?P<a>{_NUMBER})\s*{_UNIT}{_OF_AGE}\s*{_UPWARD}"),
    ("range", rf"\b{_PEOPLE}\s+(?:\(\s*)?{_RANGE}{_OF_AGE}"),
    # "5-year-old children", "6- to 12-year-olds", "under-five children", "the under-fives"
    ("range", rf"\b(?P<a>{_NUMBER})-?\s*(?:to|-)\s*(?P<b>{_NUMBER})-(?P<unit>year|month)s?-olds?\b"),
    ("one", rf"\b(?P<a>{_NUMBER})-(?P<unit>year|month|week|day)s?-olds?\b"),
    ("down", rf"\bunder-(?P<a>{_NUMBER})s?\b"),
)
# Chinese ages: 15-24岁, 6~59个月, 5岁以下 (under five), 65岁及以上 (65 and over), 6至12岁
_ZH_NUMBER = r"(?:\d{1,3}|[一二三四五六七八九十]{1,3})"
_ZH_UNIT = r"(?P<unit>周岁|岁|个月|月龄)"
_SPANS += (
    ("range", rf"(?P<a>{_ZH_NUMBER})\s*(?:-|–|~|～|至|到)\s*(?P<b>{_ZH_NUMBER})\s*{_ZH_UNIT}"),
    ("down", rf"(?P<a>{_ZH_NUMBER})\s*{_ZH_UNIT}\s*(?:及?以下|以内|之前|前)"),
    ("up", rf"(?P<a>{_ZH_NUMBER})\s*{_ZH_UNIT}\s*(?:及|或)?以上"),
)
_SPAN_PATTERNS = [(kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in _SPANS]

# Age words without a number, with the range they name (months), as searchers and MeSH use them:
# toddlers 1-3 years, preschool children 2-5 (MeSH's Child, Preschool), school-age children 6-12 (Child),
# young people 10-24 (WHO's definition), older people 65 and over (Aged), the oldest old 80 and over
# (MeSH's entry term of Aged, 80 and over)
_OLDER = r"(?:older|elderly|aged)\s+(?:adults?|people|persons?|individuals|patients|women|men|folks?|population|populations)"
_AGE_WORDS: tuple[tuple[str, float, float], ...] = (
    (r"(?:the\s+)?(?:oldest[- ]old|very\s+old|very\s+elderly)(?:\s+(?:adults|people|persons|patients))?", 80 * _YEAR, _END),
    (rf"{_OLDER}|(?:the\s+)?elderly|seniors|senior\s+citizens|older\s+age|later\s+life|old\s+age", 65 * _YEAR, _END),
    (r"toddlers?", 1 * _YEAR, 4 * _YEAR),
    (r"pre-?school(?:ers|[- ]age(?:d)?\s+children|\s+children)", 2 * _YEAR, 6 * _YEAR),
    (r"school-?age(?:d)?\s+children|school\s?children|primary\s+school\s+children", 6 * _YEAR, 13 * _YEAR),
    (r"young\s+people", 10 * _YEAR, 25 * _YEAR),
)  # fmt: skip
_WORD_PATTERNS = [(re.compile(rf"\b(?:{p})\b", re.IGNORECASE), low, high) for p, low, high in _AGE_WORDS]


_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")}


def _value(number: str) -> float:
    if number.lower() in _NUMBER_VALUES:
        return float(_NUMBER_VALUES[number.lower()])
    if number[0] in _ZH_DIGITS or number[0] == "十":
        # 五 5, 十二 12, 二十四 24, 八十 80
        tens, _, ones = number.partition("十")
        if "十" not in number:
            return float(_ZH_DIGITS.get(number, 0))
        return float((_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + _ZH_DIGITS.get(ones, 0))
    return float(number)


def _months(unit: str | None) -> float:
    unit = (unit or "year").lower()
    if unit.startswith("month") or unit in ("个月", "月龄"):
        return 1.0
    if unit.startswith("week"):
        return 12 / 52
    if unit.startswith("day"):
        return 12 / 365
    return _YEAR


def age_mentions(description: str) -> list[AgeMention]:
    """The ages the description writes, in order, numeric spans first where they overlap a word."""
    found: list[AgeMention] = []

    def free(start: int, end: int) -> bool:
        return all(end <= m.start or start >= m.end for m in found)

    for kind, pattern in _SPAN_PATTERNS:
        for match in pattern.finditer(description):
            if not free(match.start(), match.end()):
                continue
            groups = match.groupdict()
            scale = _months(groups.get("unit"))
            a = _value(groups["a"]) * scale
            if kind == "range":
                low, high = a, (_value(groups["b"]) + 1) * scale
            elif kind == "up":
                low, high = a, _END
            elif kind == "down":
                low, high = 0.0, a
            else:
                low, high = a, a + scale
            if high > low and not math.isnan(low):
                found.append(AgeMention(match.group(0), match.start(), match.end(), low, high, True))
    for pattern, low, high in _WORD_PATTERNS:
        for match in pattern.finditer(description):
            if free(match.start(), match.end()):
                found.append(AgeMention(match.group(0), match.start(), match.end(), low, high, False))
    return sorted(found, key=lambda m: m.start)


def headings_of(mentions: list[AgeMention]) -> list[str]:
    """The age-group headings of several mentions together, a parent standing for its chosen children."""
    return _without_children({h for m in mentions for h in m.headings})


def is_age_group(tree_numbers: list[str]) -> bool:
    """Whether a descriptor is one of the age groups (M01.060)."""
    return any(n.startswith("M01.060") for n in tree_numbers)


def only_adulthood(headings: list[str]) -> bool:
    """Whether the headings name only adults of working age (Adult, Young Adult after 19, Middle Aged),
    not the children, adolescents or old people a review is about: "adults aged 40 to 70" narrows a
    question of aspirin for cardiovascular prevention, and a searcher leaves it out."""
    return bool(headings) and all(h in ("Adult", "Middle Aged") for h in headings)


# Headings a people word gives that an age makes more exact: Persons ("older people"), Adult ("older
# adults", "adults aged 65 and over"), Patients, Women and Men ("women over 50"), and the age groups
_PEOPLE_HEADINGS = ("M01", "M01.643", "M01.060", "M01.975", "M01.390")


def qualified_by_an_age(descriptor: MeshDescriptor) -> bool:
    """Whether a people heading is one an age makes more exact (Persons, Patients, Women, Men, an age
    group), not a group of people of its own that the age only narrows (Inpatients, Veterans)."""
    return any(
        n == p or (p == "M01.060" and n.startswith(p))
        for n in descriptor.tree_numbers
        for p in _PEOPLE_HEADINGS
    )


def _people_or_age(term: Term) -> bool:
    """Whether a term is a people word, an age group or the bare word "aged" (what an age qualifies)."""
    if term.mesh is None:
        return True
    return term.canonical.casefold() == "aged" or qualified_by_an_age(term.mesh)


def _written_with(term: Term, mention: AgeMention, description: str) -> bool:
    """Whether the description writes the term inside the age, or as the people just before it
    ("children under five", "adults aged 65 years and over", "young people (aged 15-24)")."""
    words = re.escape(term.canonical.strip())
    if not words:
        return False
    if re.search(rf"\b{words}\b", mention.text, re.IGNORECASE):
        return True
    if re.search(rf"\b{words}\s*[(,]?\s*$", description[: mention.start], re.IGNORECASE):
        return True
    # Chinese writes the people after their age, as the term's original: 5岁以下儿童, 65岁及以上老年人
    original = term.original.strip()
    return bool(original) and description[mention.end :].lstrip(" 的").startswith(original)


def _without_the_age(term: Term, mentions: list[AgeMention], vocabulary: MeshVocabulary) -> bool:
    """A people word shared by a coordination keeps its age on each side ("transgender and non-binary
    young people": "transgender young people"); with the generic people noun gone, the age adjective
    left at the end ("transgender young") is the age block's, and the rest is the people named, with
    the heading MeSH gives it ("transgender": Transgender Persons). Whether the term lost its age."""
    if term.mesh is not None:
        return False
    for mention in mentions:
        adjectives = re.sub(r"^the\s+", "", mention.text, flags=re.IGNORECASE).split()[:-1]
        if mention.numeric or not adjectives:
            continue
        tail = " " + " ".join(adjectives)
        if term.canonical.casefold().endswith(tail.casefold()) and len(term.canonical) > len(tail):
            term.canonical = term.canonical[: -len(tail)].strip()
            found = vocabulary.lookup(term.canonical)
            term.mesh = found[0] if len(found) == 1 else None
            return True
    return False


def age_population(
    concepts: list[Concept], terms: list[Term], description: str, vocabulary: MeshVocabulary | None
) -> tuple[list[Concept], list[Term], str]:
    """The concepts and terms with the ages the description writes folded into one population block of
    the MeSH age groups they overlap (and the id of that block, "" when there is none).

    The people words an age qualifies, the age groups recognition found beside them and the word
    "aged" of a span are that block's, not concepts of their own; each heading is a term searched by
    its usual name, with the age words the description writes as synonyms ("toddlers", "young
    people")."""
    mentions = age_mentions(description)
    if vocabulary is None or not mentions:
        return concepts, terms, ""
    descriptors: dict[str, MeshDescriptor] = {}
    for heading in headings_of(mentions):
        matching = [d for d in vocabulary.lookup(heading) if d.heading == heading]
        if matching:
            descriptors[heading] = matching[0]
    if not descriptors:
        return concepts, terms, ""
    named = {id(t) for t in terms if _without_the_age(t, mentions, vocabulary)}  # the people, not their age
    absorbed = [
        t
        for t in terms
        if id(t) not in named
        and _people_or_age(t)
        and any(_written_with(t, m, description) for m in mentions)
    ]
    absorbed_ids = {id(t) for t in absorbed}
    kept_terms = [t for t in terms if id(t) not in absorbed_ids]
    in_use = {t.concept for t in kept_terms}
    # the block stands where the first people word it takes stood, and is that concept when it held
    # these headings already ("older adults": Aged)
    first = next(
        (i for i, c in enumerate(concepts) if any(t.concept == c.id for t in absorbed)), len(concepts)
    )
    before = [c for c in concepts[:first] if c.id in in_use]
    after = [c for c in concepts[first:] if c.id in in_use]
    had = {t.mesh.heading for t in absorbed if t.mesh is not None and t.canonical.casefold() != "aged"}
    if (
        first < len(concepts)
        and had == set(descriptors)
        and {t.concept for t in absorbed} == {concepts[first].id}
        and concepts[first].id not in in_use
    ):
        population = concepts[first]
        population.role = ConceptRole.POPULATION
    else:
        label = " or ".join(descriptors)
        population = Concept(
            id=concept_id(label, {c.id for c in concepts if c.id in in_use}),
            label=label,
            role=ConceptRole.POPULATION,
        )
    written = [
        re.sub(r"^the\s+", "", m.text, flags=re.IGNORECASE).lower() for m in mentions if not m.numeric
    ] + [
        t.canonical.lower()
        for t in absorbed
        if t.mesh is not None and is_age_group(t.mesh.tree_numbers) and t.canonical.lower() != "aged"
    ]
    # a term recognition already gave the heading keeps its words ("older people": Aged)
    found = {
        t.mesh.heading: t
        for t in absorbed
        if t.mesh is not None and t.mesh.heading in descriptors and t.canonical.casefold() != "aged"
    }
    slot = absorbed[0].slot if absorbed else "subject_population"
    new_terms = []
    for heading, descriptor in descriptors.items():
        term = found.get(heading) or Term(canonical=AGE_GROUP_NAMES[heading], slot=slot, mesh=descriptor)
        term.concept = population.id
        new_terms.append(term)
    taken = {t.canonical.casefold() for t in new_terms} | {
        s.text.casefold() for t in new_terms for s in t.synonyms
    }
    for word in dict.fromkeys(written):
        if word.casefold() not in taken:
            taken.add(word.casefold())
            new_terms[0].synonyms.append(Synonym(text=word, origins=[SynonymOrigin.USER]))
    return [*before, population, *after], [*kept_terms, *new_terms], population.id
