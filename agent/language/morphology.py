"""English morphology for search terms: singular/plural, hyphen/space, prefixes, acronym <-> expansion.

This is grammar, not a domain dictionary: the rules apply to any field, and every variant they produce is
only a candidate that `agent.keywords.synonyms` checks against the databases' hit counts before a query uses it.
The only word lists here are English grammar (irregular Latin/Greek plurals, uncountable nouns, bound
prefixes) and the small function words an acronym skips.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    """A word list written as one string (whitespace-separated), as a set."""
    return frozenset(text.split())


# Irregular plurals common in scientific English (Latin and Greek forms), singular -> plural.
_IRREGULAR: dict[str, str] = {
    "analysis": "analyses",
    "hypothesis": "hypotheses",
    "diagnosis": "diagnoses",
    "prognosis": "prognoses",
    "synthesis": "syntheses",
    "thesis": "theses",
    "basis": "bases",
    "axis": "axes",
    "criterion": "criteria",
    "phenomenon": "phenomena",
    "mitochondrion": "mitochondria",
    "ganglion": "ganglia",
    "index": "indices",
    "matrix": "matrices",
    "vertex": "vertices",
    "cortex": "cortices",
    "apex": "apices",
    "nucleus": "nuclei",
    "stimulus": "stimuli",
    "locus": "loci",
    "fungus": "fungi",
    "bacillus": "bacilli",
    "radius": "radii",
    "bacterium": "bacteria",
    "spectrum": "spectra",
    "stratum": "strata",
    "genus": "genera",
    "larva": "larvae",
    "alga": "algae",
    "vertebra": "vertebrae",
    "formula": "formulae",
    "antenna": "antennae",
    "child": "children",
    "person": "people",
    "man": "men",
    "woman": "women",
    "mouse": "mice",
    "foot": "feet",
    "tooth": "teeth",
    "leaf": "leaves",
    "knife": "knives",
    "wolf": "wolves",
    "thief": "thieves",
    "self": "selves",
    "loaf": "loaves",
    "life": "lives",
    "wife": "wives",
    "half": "halves",
    "calf": "calves",
    "shelf": "shelves",
    "bias": "biases",  # a singular in "-s" that is no plural ("bias", not "bia")
    "alias": "aliases",
    # nouns in "-o" whose plural takes "-es" (a closed class; "canoes", "shoes" keep their "-e")
    "volcano": "volcanoes",
    "potato": "potatoes",
    "tomato": "tomatoes",
    "mosquito": "mosquitoes",
    "hero": "heroes",
    "echo": "echoes",
    "tornado": "tornadoes",
    "torpedo": "torpedoes",
    "veto": "vetoes",
    "embargo": "embargoes",
}
_IRREGULAR_SINGULAR = {plural: single for single, plural in _IRREGULAR.items()}
# Irregular heads that compound and keep their number ("midwife" / "midwives", "policewoman" /
# "policewomen"); a shorter head would match unrelated words ("olives" is no "o-life")
_COMPOUND_HEADS = {"wife": "wives", "knife": "knives", "woman": "women"}

# Nouns with no useful plural, and endings that mark a word which is not a countable noun.
_UNCOUNTABLE = _words(
    """
    research evidence information software hardware equipment knowledge health welfare data
    speech cognition behaviour behavior memory attention perception pollution learning fish
    sheep deer species series news mathematics physics economics genetics diabetes herpes rabies
    scabies caries measles mumps feces faeces genitalia means care
    """
)
_NO_PLURAL_ENDINGS = (
    *("ing", "ed", "ous", "ful", "less", "ics", "ness", "ism", "ive", "ic", "ary"),
    *("graphy", "scopy", "metry", "ology", "omics"),  # disciplines and techniques: mass nouns in titles
)

# Endings that look plural but are singular nouns.
_FALSE_PLURALS = ("ss", "us", "is", "ics", "sis", "ous", "ness", "itis")

# Plurals of Greek nouns in "-sis" ("-stases", "-oses", "-yses", "-eses"): "metastases" is no plural of
# "metastase". Not a short "-oses" ("doses", "noses"), nor "-doses", "-poses", "-loses" (overdoses,
# purposes, discloses), "-coses" or "-xoses" (glucoses, hexoses): plurals of English words in "-se".
_GREEK_PLURAL = re.compile(r"(?:stases|yses|eses|(?<![dplcx])(?<=\w{4})oses)$")

FUNCTION_WORDS = _words("of the and for in on with to a an by from at via as or")

# words of closed classes (prepositions, conjunctions, determiners) that no "-s" makes plural: a phrase
# cut before its object ("published since", "care after") has no plural
_CLOSED_CLASS = FUNCTION_WORDS | _words(
    "since after before during until till between among amongst within without than versus into onto upon "
    "about across against along around behind below beneath beside besides beyond near through toward "
    "towards under over per whether that this these those which who whose whom while when where if "
    "although though because unless"
)

# Bound prefixes that English writes both hyphenated and closed ("non-invasive" / "noninvasive").
_PREFIXES = (
    "non",
    "anti",
    "pre",
    "post",
    "multi",
    "inter",
    "intra",
    "sub",
    "semi",
    "micro",
    "nano",
    "meta",
    "co",
    "re",
    "self",
    "cross",
    "over",
    "under",
    "trans",
    "bio",
    "neuro",
    "electro",
    "photo",
)

_ACRONYM_TOKEN = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)?$")


def is_acronym(token: str) -> bool:
    """'BCI', 'ECoG', 'sEEG', 'fMRI', 'mRNA', 'IL-6', 'COVID-19': short, and mostly capital letters."""
    token = token.strip()
    if " " in token or not _ACRONYM_TOKEN.match(token) or len(token) > 12:
        return False
    letters = [ch for ch in token if ch.isalpha()]
    upper = sum(ch.isupper() for ch in letters)
    if upper < 2:
        return False
    return upper * 2 >= len(letters)


def _compound_head(lower: str, forms: dict[str, str]) -> tuple[str, str] | None:
    """The irregular head a compound ends with (`_COMPOUND_HEADS`), and its other number."""
    return next(((head, other) for head, other in forms.items() if lower.endswith(head)), None)


def singular(word: str) -> str:
    """The singular of one lower- or mixed-case English word (unchanged when it is not a plural)."""
    lower = word.lower()
    if lower in _IRREGULAR_SINGULAR:
        return _match_case(word, _IRREGULAR_SINGULAR[lower])
    if (found := _compound_head(lower, {p: s for s, p in _COMPOUND_HEADS.items()})) is not None:
        return word[: -len(found[0])] + found[1]  # "midwives" -> "midwife"
    if lower in _IRREGULAR or lower in _UNCOUNTABLE:
        return word
    if len(lower) <= 3 or lower.endswith(_FALSE_PLURALS) or is_acronym(word) or not lower.isalpha():
        return word
    if lower.endswith("ies") and len(lower) > 4:
        return word[:-3] + "y"
    if _GREEK_PLURAL.search(lower):
        return word[:-2] + "is"  # metastases -> metastasis, stenoses -> stenosis, paralyses -> paralysis
    if lower.endswith(("ches", "shes", "xes", "zzes", "sses")):
        return word[:-2]
    if lower.endswith("s") and not lower.endswith("ss"):
        return word[:-1]
    return word


def plural(word: str) -> str | None:
    """The plural of one English noun, or None when it has no useful plural (uncountable, adjective, acronym)."""
    lower = word.lower()
    if lower in _IRREGULAR:
        return _match_case(word, _IRREGULAR[lower])
    if (found := _compound_head(lower, _COMPOUND_HEADS)) is not None:
        return word[: -len(found[0])] + found[1]  # "midwife" -> "midwives"
    if lower in _IRREGULAR_SINGULAR or lower in _UNCOUNTABLE or not lower.isalpha() or is_acronym(word):
        return None
    if lower in _CLOSED_CLASS:
        return None
    if len(lower) < 3 or lower.endswith(_NO_PLURAL_ENDINGS) or singular(word) != word:
        return None
    if lower.endswith("ly") and lower[:-2].endswith(_ADJECTIVE_ENDINGS):
        # an adverb made from an adjective ("intravenously", "orally", "recently"; not the nouns
        # "family", "supply", "anomaly")
        return None
    if lower.endswith("sis") and not lower.endswith("itis"):
        return word[:-2] + "es"  # Greek: sepsis -> sepses, like analysis -> analyses
    if lower.endswith(("us", "is", "ae")) and len(lower) > 4:
        return None  # Latin and Greek singulars whose plural is irregular or unused (mellitus, itis)
    if lower.endswith("y") and lower[-2:-1] not in set("aeiou"):
        return word[:-1] + "ies"
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def _match_case(template: str, word: str) -> str:
    if template.isupper():
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


# "face-to-face", "side-by-side", "peer-to-peer": a manner, not the noun it repeats (no number, no heading)
REDUPLICATED = re.compile(r"\b([A-Za-z]+)-(?:to|by|on|for|and)-\1\b", re.IGNORECASE)


def _split_last(phrase: str) -> tuple[str, str]:
    """The phrase before its last word, and the last word: a whole word of letters after a space or a
    hyphen ("VO2max" and "HbA1c" end in no word: "max" is part of a token with digits)."""
    match = re.match(r"^(.*?(?:^|[\s-]))([A-Za-z]+)$", phrase)
    return (match.group(1), match.group(2)) if match else (phrase, "")


# Words that open what follows a phrase's head ("people who inject drugs", "quality of life", "women in
# labour"): the head stands before them, so the last word's number is not the phrase's.
_POSTMODIFIER_OPENERS = _words(
    "who whom whose which that with without of in on at for from after during under"
)


def number_variants(phrase: str) -> list[str]:
    """The phrase with its last word singular and plural ("interface" <-> "interfaces"); none when the
    last word is not the head ("people who inject drugs" has no "people who inject drug")."""
    head, last = _split_last(phrase)
    if not last or is_acronym(last) or any(m.end() == len(phrase) for m in REDUPLICATED.finditer(phrase)):
        return []  # "face-to-face" has no number
    if any(word.lower() in _POSTMODIFIER_OPENERS for word in head.split()[1:]):
        return []
    out = []
    single = singular(last)
    if single != last:
        out.append(head + single)
    many = plural(single)
    if many and many != last:
        out.append(head + many)
    return out


# Nouns that name a collection of the things the words before them name ("benthic invertebrate
# communities", "fish assemblages", "pollinator populations"): papers write the members far more often
# than the collection ("benthic invertebrates were sampled"), so the phrase with its collective head is
# a narrow way to search for the members.
_COLLECTIVE_HEADS = _words("community communities assemblage assemblages population populations guild guilds")

# Countable nouns whose plural is the singular (a subset of the uncountable list above).
_ZERO_PLURAL = _words("fish sheep deer species")

# Endings of adjectives, which cannot stand for the members on their own ("microbial communities",
# "rural populations", "vulnerable populations" keep their head).
_ADJECTIVE_ENDINGS = ("al", "ic", "an", "ar", "ous", "ive", "ary", "ent", "ant", "able", "ible", "ed", "ing")


def collective_members(phrase: str) -> str | None:
    """The members a phrase with a collective head names, in the singular: "benthic invertebrate
    communities" -> "benthic invertebrate", "pollinator populations" -> "pollinator"; None when the last
    word is no collective noun or the words before it name no countable thing ("microbial
    communities", "general population"). A single member word must be long enough to be specific
    ("fish", "bird" alone would find every paper about them)."""
    words = phrase.split()
    if len(words) < 2 or words[-1].lower() not in _COLLECTIVE_HEADS:
        return None
    members, last = words[:-1], words[-2]
    lower = last.lower()
    if not lower.isalpha() or lower.endswith(_ADJECTIVE_ENDINGS) or is_acronym(last):
        return None
    mass = lower in _UNCOUNTABLE or lower.endswith(_NO_PLURAL_ENDINGS) or plural(singular(last)) is None
    if mass and lower not in _ZERO_PLURAL:  # "reef fish assemblages": fish are counted, with no "-s"
        return None
    if len(members) == 1 and len(lower) < 6:
        return None
    return " ".join([*members[:-1], singular(last)])


def hyphen_variants(phrase: str) -> list[str]:
    """'brain-computer interface' -> 'brain computer interface'; 'non-invasive' -> 'noninvasive' (and back)."""
    prefixes = "|".join(_PREFIXES)
    if "-" in phrase:

        def join(match: re.Match[str]) -> str:
            left = match.group(1)
            return left if left.lower() in _PREFIXES else left + " "

        changed = re.sub(r"\b([A-Za-z]+)-(?=[A-Za-z])", join, phrase)
        return [changed] if changed != phrase else []
    # a closed prefix form may also be written hyphenated; only where the rest is a word of its own
    opened = re.sub(
        rf"\b({prefixes})(?=(?:invasive|linear|human|clinical|cellular|modal|operative|synaptic|cortical|"
        rf"specific|sectional|negative|communicable|pharmacological|supervised)\b)",
        lambda m: m.group(1) + "-",
        phrase,
        flags=re.IGNORECASE,
    )
    return [opened] if opened != phrase else []


def acronym(phrase: str) -> str | None:
    """Initials of a 3-6 word phrase: 'brain-computer interface' -> 'BCI'.

    Two-letter initials ("SD" for speech decoding) are left out: they stand for dozens of things in every
    field, so they would only cost hit-count calls before validation dropped them.
    """
    words = [w for w in re.split(r"[\s\-/]+", phrase) if w]
    content = [w for w in words if w.lower() not in FUNCTION_WORDS]
    if len(content) < 3 or len(content) > 6 or any(is_acronym(w) for w in content):
        return None
    if not all(w[0].isalpha() for w in content):
        return None
    return "".join(w[0].upper() for w in content)


def variants(phrase: str) -> list[str]:
    """Morphological candidates for one term: its number and its hyphenation.

    Never its acronym: initials invented for a phrase ("SD" for speech decoding, "HSWR") are not
    attested anywhere, and an acronym is a synonym only when the user, MeSH or a vocabulary writes it.
    """
    seen = {phrase.casefold()}
    out: list[str] = []
    for candidate in (*number_variants(phrase), *hyphen_variants(phrase)):
        if candidate and candidate.casefold() not in seen:
            seen.add(candidate.casefold())
            out.append(candidate)
    return out


def malformed_number(candidate: str, term: str) -> bool:
    """True when `candidate` is `term` with an "-s"/"-es" its last word does not take ("epilepsys",
    "electrocorticographys", "speech decodings"): outside sources and careless generators write them."""
    _, last = _split_last(term)
    head, candidate_last = _split_last(candidate)
    if not last or not candidate_last or head.casefold() != _split_last(term)[0].casefold():
        return False
    lower, written = last.lower(), candidate_last.lower()
    if written not in {lower + "s", lower + "es"}:
        return False
    right = plural(last)
    return right is None or right.lower() != written


def find_expansion(short: str, text: str) -> str | None:
    """The long form defined for `short` in `text` ("brain-computer interface (BCI)").

    The Schwartz-Hearst algorithm (2003): walk the acronym's letters from the end, matching each to a
    character of the preceding words right to left; the first letter must begin a word. Only the
    min(|A| + 5, 2|A|) words before the parenthesis are considered. Words whose initials spell the
    acronym are preferred, its plural "s" aside: walking letters alone reads "(PPIs)" after "proton
    pump inhibitors" as "pump inhibitors", the P ending "pump" taken for the second P.
    """
    pattern = re.compile(rf"([^()]*?)\s*\(\s*{re.escape(short)}\s*[),;]")
    for match in pattern.finditer(text):
        words = match.group(1).split()
        window = " ".join(words[-min(len(short) + 5, 2 * len(short)) :])
        found = _initials_form(short, window) or _long_form(short, window)
        if found and found.casefold() != short.casefold():
            return found
    return None


def defined_acronyms(text: str) -> dict[str, str]:
    """Every acronym the text defines, with its long form: "brain-computer interface (BCI)" -> BCI."""
    out: dict[str, str] = {}
    for short in dict.fromkeys(re.findall(r"\(\s*([A-Za-z][A-Za-z0-9\-]*)\s*\)", text)):
        if is_acronym(short) and (long := find_expansion(short, text)):
            out[short] = long
    return out


_WORD_START = re.compile(r"(?<![\w'])\w")
_PLURAL_ACRONYM = re.compile(r"^(?P<letters>[A-Z][A-Za-z0-9]*[A-Z0-9])s$")


def _initials_form(short: str, window: str) -> str | None:
    """The last words of `window` (a hyphen begins a word too) whose initials spell `short`, its
    plural "s" aside ("proton pump inhibitors (PPIs)", "low- and middle-income countries (LMICs)")."""
    plural = _PLURAL_ACRONYM.match(short)
    letters = [ch.lower() for ch in (plural.group("letters") if plural else short) if ch.isalnum()]
    starts = list(_WORD_START.finditer(window))
    if len(letters) < 2 or len(starts) < len(letters):
        return None
    chosen = starts[-len(letters) :]
    if [m.group().lower() for m in chosen] != letters:
        return None
    return window[chosen[0].start() :].strip(" ,;:") or None


def _long_form(short: str, long: str) -> str | None:
    s_index, l_index = len(short) - 1, len(long) - 1
    while s_index >= 0:
        char = short[s_index].lower()
        if not char.isalnum():
            s_index -= 1
            continue
        while l_index >= 0 and (
            long[l_index].lower() != char or (s_index == 0 and l_index > 0 and long[l_index - 1].isalnum())
        ):
            l_index -= 1
        if l_index < 0:
            return None
        l_index -= 1
        s_index -= 1
    start = long.rfind(" ", 0, l_index + 1) + 1
    found = long[start:].strip(" ,;:")
    return found or None
