"""MeSH descriptors recognised inside free text: the vocabulary a searcher would reach for.

A description names its concepts in the user's words ("gestational diabetes mellitus", "Down's syndrome
screening", "ECoG", "epilepsy patients"); MeSH names them as headings and entry terms ("Diabetes,
Gestational", "Down Syndrome", "Electrocorticography", "Epilepsy"). Matching whole phrases exactly
misses most of them, so recognition works on *normalised word sequences* and finds the longest ones
that the vocabulary knows anywhere in a text:

- **normalisation** (`word_key`, applied alike to the text and to every MeSH term): case, Unicode
  compatibility forms, apostrophes ("Down's" = "Downs" = "Down"), hyphens and slashes as spaces,
  British and American spelling ("oesophageal", "haemorrhage", "tumour", "randomised", "centre",
  "modelling", "analogue"), and singular/plural by the inflection rules of `agent.language.morphology`
  (regular endings, Latin and Greek irregulars, words that only look plural such as "diabetes"; a
  substance's "-ics" is a plural, "microplastic" = "Microplastics", a field's is not);
- **word order**: an inverted heading or entry term ("Diabetes, Gestational") is also indexed in its
  natural order ("gestational diabetes");
- **acronyms**: an acronym is recognised only when it is *attested*: written with its long form in the
  text itself ("electrocorticography (ECoG)"), or an entry term of exactly one descriptor
  ("Electrocorticography (EcoG)", "Intracranial EEG", "MRI Scans"), matched with its capitals as written;
- **glosses**: a one-word entry term NLM glosses with a sense ("Transfer (Psychology)") names that sense
  bare only where MeSH writes the word in no other branch of its trees, or writes it bare there too
  (`_add_unambiguous_sensed_words`); a parenthesis against a word is part of a name ("p21(ras)"); the
  article after "of" is no word of a key ("resection of the prostate");
- **looser forms**, where no exact form of several words starts at or before a window of two or three
  words: derived forms ("kidney transplant" = "Kidney Transplantation", "vulval" = "vulvar"), a Greek
  letter on either side of its name ("amyloid beta" = "beta Amyloid"), by `loose_key` (other words keep
  their order: a "care home" is no "Home Care"), and a term without the participle of relation a hyphen
  joins to a word ("direct oral anticoagulants" = "Direct-Acting Oral Anticoagulants");
- **word variants MeSH attests**: where neither matches, one word of a window may be swapped for a
  word that MeSH uses interchangeably in the same position of the same descriptor's terms ("stones" and
  "calculi", "ultrasound" and "ultrasonography", "renal" and "kidney": `word_variants`), and never for
  words that anywhere tell two descriptors apart ("alpha"/"beta", "benign"/"malignant"); a head word for
  one MeSH mostly writes after the same modifiers, where the words before it are a term ("mental health
  care" = Mental Health Services: `agent.language.head_variants`); and "X with Y"
  or "X of the Y" where MeSH writes "Y X" ("dementia with Lewy bodies" = Lewy Body Disease, "fracture
  of the hip" = Hip Fractures);
- **composition**: neighbouring matches whose headings in a row are a term ("oral cavity" = Mouth,
  "cancer" = Neoplasms: "Mouth Neoplasms") are that descriptor, and an organ before a technique is the
  kind of the technique MeSH names after the organ ("chest X-ray" = Radiography, Thoracic: `_organ_kind`);
- **adjectives**: a one-word match is dropped when the word, before another word, is read as the
  singular of a plural-only entry term while MeSH writes that form as a modifier ("marine fish" is no
  Marines, "transient elastography" no Transients: `_adjective_of_a_plural`);
- **choice**: the longest match wins; among descriptors sharing a key, a heading beats an entry term,
  and one near the text's other concepts in the MeSH trees beats one far from them (`tree_distance`).

Nothing here is a list of domain terms: every word comes from MeSH itself.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from agent.language.body_parts import BodyPartIndex
from agent.language.drug_spelling import DrugSpelling
from agent.language.english_forms import (
    action_nouns,
    adjective_of_adverb,
    english_word,
    gerund_bases,
    participle_bases,
)
from agent.language.head_variants import attested_head_variants, with_trouble_heads
from agent.language.inorganic_names import is_chemical_formula
from agent.language.mesh_tails import TailIndex, crosses_a_break, is_below, is_under, joined_by_hyphen
from agent.language.morphology import FUNCTION_WORDS, REDUPLICATED, acronym, is_acronym
from agent.language.morphology import singular as morphology_singular
from agent.models import ConceptRole, MeshDescriptor
from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH, BuildReport, build
from tools.mesh_build import MeshBuildError as MeshBuildError  # raised by rebuild_vocabulary

MAX_WORDS = 8  # the longest word sequence looked up (MeSH terms of more words are rare)
# A modifier stands inside at least this many MeSH terms and ends at most 1 in MODIFIER_RATIO of that
# number ("cardiac": inside 175, last in 1); chosen on the CLEF training titles' free-text words.
MODIFIER_MIN_USES = 10
MODIFIER_RATIO = 50
# An ancestor above a direct parent is searched beside a descriptor only when one of its tree numbers is
# this deep or more ("Pain" C23.888.592.612 yes, "Neoplasms" C04 no); CLEF train R .225->.236, P .633->.637
SPECIFIC_DEPTH = 3
# prepositions that open a post-modifier: the head of a term is the word before the first of them
# ("quality of life", "return to sport"); the words after it name no broader kind of the term
_POST_MODIFIER = frozenset({"of", "to", "for", "in", "on", "with", "after", "from", "by"})
# An organ's word and the adjective MeSH qualifies a technique with share this many first letters
# ("thorax", "thoracic"; "abdomen", "abdominal")
ORGAN_STEM = 5

# British -> American spelling, applied to one lower-case word (both the text and MeSH go through it).
_SPELLING: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<=[^aeiou\W])oe(?=[a-z]{2}|as?$)"), "e"),  # oesophagus, foetal, diarrhoea, apnoea
    (re.compile(r"^oe(?=[a-z]{3})"), "e"),
    (re.compile(r"(?<=[a-z])ae(?=[a-z]{2})"), "e"),  # haemorrhage, anaemia, paediatric, leukaemia
    (re.compile(r"^ae(?=[a-z]{3})"), "e"),  # aetiology
    (re.compile(r"(?<=[a-z]{3})our(s?)$"), r"or\1"),  # tumour, behaviour, labour
    (re.compile(r"(?<=[a-z]{3})our(al|ally|able|ed|ing)$"), r"or\1"),  # behavioural, favourable, coloured
    (re.compile(r"(?<=[a-z]{3})is(e|ed|es|ing|ation|ations|er|ers)$"), r"iz\1"),  # randomised
    (re.compile(r"(?<=[a-z]{2})ys(e|ed|es|ing)$"), r"yz\1"),  # analyse, dialysed
    (re.compile(r"(?<=[a-z]{2}[^aeiou])re(s?)$"), r"er\1"),  # centre, fibre, litre
    (re.compile(r"(?<=[a-z]{3}t)red$"), "ered"),  # centred, person-centred (not "hatred")
    (re.compile(r"(?<=[a-z]{3})ll(ing|ed|er|ers)$"), r"l\1"),  # modelling, labelled
    (re.compile(r"(?<=[a-z]{3})ogue(s?)$"), r"og\1"),  # analogue, catalogue
    (re.compile(r"(?<=[a-z]{3})amme(s?)$"), r"am\1"),  # programme, kilogramme
    (re.compile(r"(?<=neur)one(s?)$"), r"on\1"),  # neurone, motoneurone: the British neuron
)


_SPELLING_HINT = re.compile(r"oe|ae|our|is|ys|re|ll|ogue|amme|one")


# Greek letters as MeSH spells them ("TNF-α" is "Tumor Necrosis Factor-alpha", "amyloid β" "Amyloid beta")
_GREEK_NAMES = (  # noqa: SIM905 (one line of names reads better than 24)
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau "
    "upsilon phi chi psi omega"
).split()
_GREEK_LETTERS = str.maketrans(dict(zip("αβγδεζηθικλμνξοπρστυφχψω", _GREEK_NAMES, strict=True)))


# Everyday words for people that MeSH writes in its register ("kids" are children, "babies" infants,
# "mums" mothers): read as that word on both sides, so "preterm babies" is Infant, Premature and "kids"
# Child, as "preterm infants" and "children" are. MeSH's own few terms with "baby" ("Baby Teeth",
# "Shaken Baby Syndrome") name no other descriptor once read so; none of its terms writes "kid" or "mum".
_EVERYDAY_PEOPLE = {"baby": "infant", "kid": "child", "mum": "mother", "mom": "mother"}


@lru_cache(maxsize=200_000)
def word_key(word: str) -> str:
    """One word, normalised for matching: lower case, Greek letters by name, American spelling, singular,
    MeSH's word for an everyday word for people (`_EVERYDAY_PEOPLE`)."""
    lower = word.lower().replace("'", "").translate(_GREEK_LETTERS)
    if _SPELLING_HINT.search(lower):
        for pattern, replacement in _SPELLING:
            lower = pattern.sub(replacement, lower)
    singular = morphology_singular(lower)
    return _EVERYDAY_PEOPLE.get(singular, singular)


_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*", re.UNICODE)


# the endings of English adjectives ("ovarian", "chronic", "postoperative"): a lone adjective names no disease
_ADJECTIVE_SHAPE = re.compile(r"(?:al|ic|ous|ive|ar|ary|an|ine|ed|ing|ly|able|ible)$")
# a species's name: the genus, capitalised, and the epithet ("Staphylococcus aureus")
_BINOMIAL = re.compile(r"[A-Z][a-z]{2,} [a-z]{3,}")
_INFECTION_TREE = "C01"  # Infections
_VIRUS_TREE = "B04"  # Viruses
_DERIVED = re.compile(r"(?<=[a-z]{4})(?:ations?|als?|ars?)$")
_COUNTABLE_ICS = re.compile(r"(?<=[a-z]{3})ics\b")
LOOSE_MAX_WORDS = 3  # longer windows in another order are rarely the same concept
# a participle of relation a hyphen joins to the word before it in a term ("Direct-Acting Oral
# Anticoagulants", "Catheter-Related Infections", "Radiation-Induced Dermatitis"): it says only how the
# word bears on the head, writers leave it out ("direct oral anticoagulants", "catheter infections"),
# and the rest still names the term, matched as a loose form where no exact form does; not a participle
# of content ("Diet, Protein-Restricted", "Penicillin-Binding Proteins": "protein diet" is no restriction)
_HYPHENED_PARTICIPLE = re.compile(r"(?<=[A-Za-z])-(?:acting|related|associated|induced)\b", re.IGNORECASE)
HEAD_MIN_DESCRIPTORS = 5  # descriptors whose terms a head word must end to tell a role
HEAD_SHARE = 0.8  # of them, the share that must have one role
VARIANT_MAX_WORDS = 6  # windows in which a word may be swapped or the words turned around
VARIANT_MIN_SUPPORT = 3  # descriptors whose terms must attest a swap


_GREEK = frozenset(
    [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "omicron",
        "pi",
        "rho",
        "sigma",
        "tau",
        "upsilon",
        "phi",
        "chi",
        "psi",
        "omega",
    ]
)


def loose_key(key: Sequence[str]) -> tuple[str, ...] | None:
    """A window's key up to derivation ("transplantation" = "transplant", "vulval" = "vulvar") and the
    place of Greek letters ("amyloid beta" = "beta amyloid"); None for one word or more than three."""
    if not 2 <= len(key) <= LOOSE_MAX_WORDS:
        return None
    stems = [_DERIVED.sub("", word) for word in key]
    letters = sorted(word for word in stems if word in _GREEK)
    return (*[word for word in stems if word not in _GREEK], *letters)


@dataclass(frozen=True)
class Token:
    text: str  # as written
    key: str  # normalised
    start: int  # character offsets in the normalised text
    end: int


def _english_forms(term: str, organism: bool) -> list[str]:
    """The words of a term as English writes them, lower case, for `MeshVocabulary.writes_form`. An
    organism's epithets are Latin, written in lower case after the genus ("Cutibacterium acnes",
    "Bacillus cereus"): no English number of "acne" or "cereal"."""
    words = term.split()
    if organism and len(words) > 1 and words[0][:1].isupper():
        term = " ".join([words[0], *(w for w in words[1:] if not w.islower())])
    return _WORD.findall(term.lower())


def _as_recognised(text: str) -> str:
    """The text recognition reads and its match offsets count in: Unicode-normalised (NFKC), a right
    single quote as an apostrophe ("Down’s")."""
    return unicodedata.normalize("NFKC", text).replace("\u2019", "'")


def tokenize(text: str) -> list[Token]:
    """Words of a text with their keys; "Down's" loses its possessive, hyphens and slashes split words."""
    normalised = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    tokens: list[Token] = []
    for match in _WORD.finditer(normalised):
        word = match.group(0)
        if word.lower().endswith("'s"):
            word = word[:-2]
        if _article_after_of(word, tokens[-1].text if tokens else ""):
            continue
        tokens.append(Token(word, word_key(word), match.start(), match.end()))
    return tokens


def _article_after_of(word: str, before: str) -> bool:
    """ "resection of the prostate": MeSH writes "of X" and "of the X" for one thing (Transurethral
    Resection of Prostate, Cancer of the Cervix), so the article after "of" is no word of a key."""
    return word.lower() == "the" and before.lower() == "of"


def phrase_key(text: str) -> tuple[str, ...]:
    """The normalised words of a phrase (what the index is keyed by)."""
    normalised = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    words = _WORD.findall(normalised)
    return tuple(
        word_key(w[:-2] if w[-2:].lower() == "'s" else w)
        for at, w in enumerate(words)
        if not (at and _article_after_of(w, words[at - 1]))
    )


def natural_order(term: str) -> str:
    """ "Diabetes, Gestational" -> "Gestational Diabetes"; terms with no or several commas unchanged."""
    parts = [p.strip() for p in term.split(", ")]
    if len(parts) == 2 and all(parts) and not any(ch.isdigit() for ch in parts[1]):
        return f"{parts[1]} {parts[0]}"
    return term


@dataclass(frozen=True)
class MeshMatch:
    """A descriptor found in a text: the words as written, and how they matched."""

    text: str
    start: int  # character offsets in the (NFKC-normalised) text
    end: int
    descriptor: MeshDescriptor
    via: str  # "heading", "entry term" or "acronym"
    parents: tuple[MeshDescriptor, ...] = ()  # tree ancestors named by words inside the match


_RANK = {"heading": 0, "entry term": 1, "permuted term": 2, "acronym": 1}
# Words an entry term writes after an acronym that add nothing to it ("MRI Scans", "PET Imaging")
_ACRONYM_COMPANIONS = frozenset({"scan", "scans", "scanning", "imaging", "images", "test", "tests", "assay"})
# "Electrocorticography (EcoG)", "Transfer (Psychology)": a parenthesis after a space glosses the words
# before it; one written against a word is part of the name ("p21(ras)", "Poly(rU)", "Apoprotein(a)")
_ACRONYM_IN_PARENS = re.compile(r"^(?P<long>.+?)\s+\((?P<short>[^()]+)\)$")
# a gloss that names a sense ("Psychology", "Fish", "Planet"), not a number, a ratio or "U.S."
_SENSE_GLOSS = re.compile(r"[a-z]{3}")


# where MeSH files acts, not things: Analytical, Diagnostic and Therapeutic Techniques (less Equipment
# and Supplies, E07), Psychiatry and Psychology, Phenomena and Processes, Human Activities, Health Care
# (less Population Characteristics, N01, and Health Care Economics and Organizations, N03: states,
# money and bodies, "charging" is no Fees and Charges)
_ACT_TREES = ("E", "F", "G", "I", "N")
_THING_TREES = ("E07", "N01", "N03")


def _an_act(descriptor: MeshDescriptor) -> bool:
    """Whether every tree number of `descriptor` files it as an act (`_ACT_TREES`)."""
    trees = descriptor.tree_numbers
    return bool(trees) and all(n.startswith(_ACT_TREES) and not n.startswith(_THING_TREES) for n in trees)


def _branches(descriptor: MeshDescriptor) -> set[str]:
    """The top-level branches of a descriptor's tree numbers ("F02.463.425" -> "F02")."""
    return {number[:3] for number in descriptor.tree_numbers}


def leading_acronym(term: str) -> str | None:
    """The acronym an entry term opens with when the words after it are what it stands for: NLM writes
    some acronyms so ("ICU Intensive Care Units", "PPE Personal Protective Equipment"); a first word that
    is part of the name ("CC Chemokine Receptor", "AL Amyloidosis") is not one."""
    first, _, rest = term.partition(" ")
    if not rest or not is_acronym(first):
        return None
    letters = "".join(ch for ch in first if ch.isalpha()).upper()
    return first if acronym(rest.lstrip("- ")) == letters else None


def _initials_of(word: str, heading: str) -> bool:
    """Whether `word` is an acronym made of the initials of `heading` in natural order ("CPAP" of
    Continuous Positive Airway Pressure; "CRRT" of Continuous Renal Replacement Therapy), and no English
    word a text in capitals would write ("FAST", "CARD", "DASH")."""
    if not is_acronym(word) or not word.isalpha() or acronym(natural_order(heading)) != word.upper():
        return False
    return not english_word(word.lower())  # last: a search of the dictionary's definitions (slow)


_WORD_AS_WRITTEN = re.compile(r"^[A-Z][a-z]+$")  # "Food", "Cell": a word, not part of a symbol
_INITIAL_BREAK = re.compile(r"[\s\-/]+")


# the trees of conditions (diseases, mental disorders): what a title abbreviates unexplained
_CONDITIONS = ("C", "F03")


def spelled_initials(term: str) -> str | None:
    """The capitals a term's words in natural order spell, a number kept whole ("Type 2 Diabetes
    Mellitus" -> T2DM, "Diffuse Large B-Cell Lymphoma" -> DLBCL, "Opioid Use Disorder" -> OUD): three
    words or more, none of them an acronym or a symbol; None for anything else."""
    natural = natural_order(term)
    if "," in natural or "(" in natural:
        return None
    words = [w for w in _INITIAL_BREAK.split(natural) if w and w.lower() not in FUNCTION_WORDS]
    if len(words) < 3 or any(is_acronym(w) for w in words):
        return None
    letters = []
    for word in words:
        if word.isdigit():
            letters.append(word)
        elif word[0].isalpha() and word.isalpha():
            letters.append(word[0].upper())
        else:
            return None
    return "".join(letters)


def joined_acronym(term: str) -> str | None:
    """The one-token form authors write for an entry term NLM spaces into two short parts: "Hb A1c" is
    written HbA1c, "Apo E4" ApoE4, "CaM KII" CaMKII. Only when the joined form reads as an acronym and the
    second part is no ordinary word ("GMO Food", "NKT Cell" are never written GMOFood, NKTCell)."""
    parts = term.split(" ")
    if len(parts) != 2 or any(len(part) > 4 or not part.isalnum() for part in parts):
        return None
    if is_acronym(term) or _WORD_AS_WRITTEN.match(parts[1]) or not parts[1][0].isupper():
        return None
    joined = "".join(parts)
    return joined if is_acronym(joined) else None


class MeshVocabulary:
    """An index of every MeSH heading and entry term by normalised word sequence (see the module doc).

    Built once per file from `tools.mesh.MeshFile`'s records; `for_file` shares one per path.
    """

    def __init__(self, mesh_file: MeshFile) -> None:
        self.file = mesh_file
        mesh_file.load()
        self._keys: dict[tuple[str, ...], list[tuple[int, str]]] = {}
        self._acronyms: dict[str, set[str]] = {}  # acronym (upper case) -> descriptor uis
        self._acronym_spellings: set[str] = set()  # every acronym as MeSH writes it (case kept)
        self._loose: dict[tuple[str, ...], list[tuple[int, str]]] = {}  # loose_key -> (rank, ui)
        self._last_words: dict[str, int] = {}  # word key -> terms it ends
        self._inner_words: dict[str, int] = {}  # word key -> terms it stands inside (not last)
        self._endings: dict[str, set[str]] = {}  # word key -> descriptors with a term it ends
        self._forms: set[str] = set()  # every word as MeSH writes it, lower case (number kept)
        # keys of inverted terms as NLM writes them ("Referral, Hospital" -> referral hospital): the
        # words of a term in an order no text means it in
        self._inverted_keys: set[tuple[str, ...]] = set()
        # (key, ui) pairs written in natural order and in a term's inverted order, while building
        self._natural_pairs: set[tuple[tuple[str, ...], str]] = set()
        self._inverted_pairs: set[tuple[tuple[str, ...], str]] = set()
        # every word as MeSH writes it -> [terms it stands inside, terms it ends] (natural order)
        self._form_uses: dict[str, list[int]] = {}
        self._tails = TailIndex()  # the last words of terms ("computed tomography", "ultrasound")
        # one-word entry terms NLM glosses with a sense ("Transfer (Psychology)"), while building
        self._sensed_words: list[tuple[str, str, str]] = []
        self._children: dict[str, set[str]] | None = None  # descriptor -> its children, built on first use
        # keys of diseases said without their qualifier ("diabetes"), never a heading cut short
        self._without_qualifier: set[tuple[str, ...]] = set()
        self._body_parts: BodyPartIndex | None = None  # built on first use
        self._drug_spelling: DrugSpelling | None = None  # built on first use
        for ui, row in mesh_file.records().items():
            groups = (
                ("heading", [row["heading"]]),
                ("entry term", row.get("entry_terms") or []),
                ("permuted term", row.get("permuted_terms") or []),
            )
            substance = any(t.startswith("D") for t in row.get("tree_numbers") or [])
            organism = any(t.startswith(("B01", "B02", "B03", "B04")) for t in row.get("tree_numbers") or [])
            for how, terms in groups:
                for term in terms:
                    self._add(term, how, ui)
                    self._forms.update(_english_forms(term, organism))
                    self._count_form_uses(term)
                    if substance and _COUNTABLE_ICS.search(term):
                        # "Microplastics", "Probiotics": a substance's "-ics" is a plural ("microplastic
                        # pollution"), a field's is not ("genetic" is no Genetics)
                        self._add(_COUNTABLE_ICS.sub("ic", term), how, ui)
        self._add_unambiguous_sensed_words()
        self._add_syndromes_named_by_their_disease()
        self._add_species_by_their_genus_initial()
        self._add_infections_named_by_their_virus()
        self._add_diseases_said_without_their_qualifier()
        # "Diabetes Mellitus, Type 2" is also written so: a key some term writes in natural order is none
        self._inverted_keys = {key for key, _ in self._inverted_pairs} - {
            key for key, _ in self._natural_pairs
        }
        self._drop_inverted_readings_of_natural_terms()
        # about two seconds for the whole of MeSH
        self._variants, self._variants_at_the_head = _attested_variants(self._keys)
        self._synonym_words = self._one_word_synonyms()

    def _add_unambiguous_sensed_words(self) -> None:
        """A one-word entry term NLM glosses with a sense ("Transfer (Psychology)", "Power (Psychology)",
        "Rays (Fish)", "Models (Theoretical)") says the word has other senses. Where MeSH writes the word
        in another branch of its trees only inside longer terms (Embryo Transfer, Nerve Transfer), the
        bare word would offer the glossed sense alone ("cash transfer" a Transfer, Psychology), so it is
        left out; where it writes the bare word as a term there too ("Squash (Sport)" and Cucurbita's
        "Squash"), the description's other concepts choose between them (`_choose`), so it stays, as it
        does where no other branch writes the word at all ("Transference (Psychology)")."""
        wanted = {phrase_key(long)[0] for long, _, _ in self._sensed_words}
        users: dict[str, set[str]] = {}
        for key, entries in self._keys.items():
            for word in wanted.intersection(key):
                users.setdefault(word, set()).update(ui for _, ui in entries)
        for long, how, ui in self._sensed_words:
            (word,) = phrase_key(long)
            branches = _branches(self.descriptor(ui))
            elsewhere = {o for o in users.get(word, set()) if not _branches(self.descriptor(o)) & branches}
            if not elsewhere or elsewhere.intersection(o for _, o in self._keys.get((word,), [])):
                self._add(long, how, ui)
        self._sensed_words = []

    def _add_syndromes_named_by_their_disease(self) -> None:
        """A syndrome MeSH names by the disease it is a kind of ("Hereditary Breast and Ovarian Cancer
        Syndrome", filed under Neoplasms) is written without the class word ("women at risk of hereditary
        breast and ovarian cancer"): the name before "syndrome" names it too where its last word names a
        disease the syndrome is filed under, and the name is no other term. A rest that names something
        else ("Watery Diarrhea Syndrome" is a Vipoma, not a Diarrhea; "Irritable Bowel") stays unnamed."""
        syndrome = word_key("syndrome")
        for key, entries in list(self._keys.items()):
            rest = key[:-1]
            if key[-1] != syndrome or len(rest) < 2 or rest in self._keys:
                continue
            heads = [self.descriptor(ui) for _, ui in self._keys.get(rest[-1:], [])]
            kinds = [
                (rank, ui) for rank, ui in entries if any(_filed_under(self.descriptor(ui), h) for h in heads)
            ]
            if kinds:
                self._keys[rest] = kinds

    def _add_species_by_their_genus_initial(self) -> None:
        """A species is written with its genus's initial ("S. aureus", "K. pneumoniae", "C. difficile"):
        the initial and the epithet name the organism MeSH writes in full ("Staphylococcus aureus", or an
        entry term "Clostridium difficile") where no other organism's binomial shares them and no term
        is already those words."""
        named: dict[tuple[str, ...], set[str]] = {}
        for ui, row in self.file.records().items():
            if not any(t.startswith("B") for t in row.get("tree_numbers") or []):
                continue
            for term in [row["heading"], *(row.get("entry_terms") or [])]:
                if _BINOMIAL.fullmatch(term):
                    genus, epithet = term.split()
                    named.setdefault((word_key(genus[0]), word_key(epithet)), set()).add(ui)
        for key, uis in named.items():
            if len(uis) == 1 and key not in self._keys:
                self._keys[key] = [(_RANK["entry term"], next(iter(uis)))]

    def _add_infections_named_by_their_virus(self) -> None:
        """A virus MeSH names "<disease> virus" ("Hepatitis C virus", an entry term of Hepacivirus;
        "Herpes simplex virus" of Simplexvirus) is written before "infection" for the disease
        ("hepatitis C virus infection", "herpes simplex virus infections"): the virus's name and
        "infection" name the infection MeSH writes as the rest of the name (Hepatitis C, Herpes
        Simplex), where that rest names only infections (tree C01) and the words are no term already.
        Read word by word, "hepatitis C virus infection" had been the virus and a bare "infection"."""
        virus, infection = word_key("virus"), word_key("infection")
        for row in self.file.records().values():
            if not any(t.startswith(_VIRUS_TREE) for t in row.get("tree_numbers") or []):
                continue
            for term in [row["heading"], *(row.get("entry_terms") or [])]:
                key = phrase_key(natural_order(term))
                if len(key) < 2 or key[-1] != virus:
                    continue
                named = {o for _, o in self._keys.get(key[:-1], [])}
                if not named or not all(
                    any(t.startswith(_INFECTION_TREE) for t in self.descriptor(o).tree_numbers) for o in named
                ):
                    continue
                with_infection = (*key, infection)
                if with_infection not in self._keys:
                    self._keys[with_infection] = [(_RANK["entry term"], o) for o in sorted(named)]

    def _add_diseases_said_without_their_qualifier(self) -> None:
        """A disease MeSH names with a qualifier usage drops ("Diabetes Mellitus", "Angina Pectoris",
        "Myasthenia Gravis"): its first word alone names it where no term is that word, the word is no
        adjective ("ovarian" names no Ovarian Diseases), the qualifier names nothing alone (not a class:
        Autoimmune Diseases), and the heading is the root of more than half
        of the other headings the word starts (Diabetes Mellitus: its types, Gestational, Experimental,
        Complications; Diabetes Insipidus and its kinds are the rest)."""
        families: dict[str, list[str]] = {}
        for ui, row in self.file.records().items():
            head, comma, _ = row["heading"].partition(", ")
            if comma or " " in head:  # more words than the first (a cheap test before the key)
                words = phrase_key(head)
                if words and (comma or len(words) > 1):
                    families.setdefault(words[0], []).append(ui)
        for word, members in families.items():
            if len(members) < 3 or (word,) in self._keys or _ADJECTIVE_SHAPE.search(word):
                continue
            for ui in members:
                root = self.descriptor(ui)
                name = root.heading.split()
                if (
                    len(name) != 2
                    or ", " in root.heading
                    or "-" in name[0]
                    # a qualifier that is no term of its own ("Mellitus"), not a class ("Autoimmune Diseases")
                    or phrase_key(name[1]) in self._keys
                ):
                    continue
                others = [self.descriptor(o) for o in members if o != ui]
                if 2 * sum(_filed_under(o, root) for o in others) > len(others):
                    self._keys[(word,)] = [(_RANK["entry term"], ui)]
                    self._without_qualifier.add((word,))
                    break

    def _drop_inverted_readings_of_natural_terms(self) -> None:
        """A key that one descriptor writes in natural order names that descriptor, not another whose
        inverted term only reads so word for word: "nursing homes" is Nursing Homes, never Home
        Nursing through "Nursing, Home" (nor "nursing school" School Nursing)."""
        for key, ui in self._inverted_pairs - self._natural_pairs:
            entries = self._keys.get(key, [])
            if any(other != ui and (key, other) in self._natural_pairs for _, other in entries):
                self._keys[key] = [entry for entry in entries if entry[1] != ui]
        self._natural_pairs = set()
        self._inverted_pairs = set()

    def _count_form_uses(self, term: str) -> None:
        words = _WORD.findall(natural_order(term).lower())
        for at, word in enumerate(words):
            self._form_uses.setdefault(word, [0, 0])[at == len(words) - 1] += 1

    def _add_acronym(self, short: str, ui: str) -> None:
        self._acronyms.setdefault(short.upper(), set()).add(ui)
        self._acronym_spellings.add(short)

    def _add(self, term: str, how: str, ui: str) -> None:
        match = _ACRONYM_IN_PARENS.match(term)
        if match:  # "Electrocorticography (EcoG)": the long form, and the acronym
            long, short = match.group("long"), match.group("short").strip()
            if (
                how != "heading"
                and _SENSE_GLOSS.search(short)
                and not is_acronym(short)
                and not is_acronym(long)
                and len(phrase_key(long)) == 1
            ):
                self._sensed_words.append((long, how, ui))  # see `_add_unambiguous_sensed_words`
                return
            self._add(long, how, ui)
            if is_acronym(short):
                self._add_acronym(short, ui)
            return
        short = leading_acronym(term)
        if short:  # "ICU Intensive Care Units", "RSV Respiratory Syncytial Virus": NLM's acronym entries
            self._add_acronym(short, ui)
        if joined := joined_acronym(term):  # "Hb A1c": HbA1c
            self._add_acronym(joined, ui)
        words = term.split(", ")[0].split()
        if len(words) == 2 and words[1].lower() in _ACRONYM_COMPANIONS and is_acronym(words[0]):
            # "MRI Scans", "PET Scan", "CT Scan, X-Ray": the acronym names the technique on its own
            self._add_acronym(words[0], ui)
        elif (
            len(words) > 1
            and how != "heading"
            and is_acronym(words[0])
            and _initials_of(words[0], self.descriptor(ui).heading)
        ):
            # "CPAP Ventilation", "CGM Device", "CRRT Technique": an acronym of the heading's own words,
            # written in an entry term of it, names the descriptor on its own
            self._add_acronym(words[0], ui)
        if is_acronym(term):
            self._add_acronym(term, ui)
            key = phrase_key(term)
            if len(key) > 1:  # "COVID-19", "HIV-1": several words in the text, as specific as written
                entries = self._keys.setdefault(key, [])
                if (_RANK[how], ui) not in entries:
                    entries.append((_RANK[how], ui))
            return
        natural = phrase_key(natural_order(term))  # "Gestational Diabetes": the last word is the head
        if natural:
            self._last_words[natural[-1]] = self._last_words.get(natural[-1], 0) + 1
            self._endings.setdefault(natural[-1], set()).add(ui)
            if ", " not in natural_order(term):  # "Death, Sudden, Cardiac" ends with no head noun
                self._tails.add(natural, ui)
            for word in natural[:-1]:
                self._inner_words[word] = self._inner_words.get(word, 0) + 1
        for form in {term, natural_order(term)}:
            key = phrase_key(form)
            if key and len(key) <= MAX_WORDS:
                entries = self._keys.setdefault(key, [])
                if (_RANK[how], ui) not in entries:
                    entries.append((_RANK[how], ui))
                (self._natural_pairs if form == natural_order(term) else self._inverted_pairs).add((key, ui))
            shortened = _HYPHENED_PARTICIPLE.sub("", form)  # only the few terms with such a participle
            for loose in (loose_key(key), *([loose_key(phrase_key(shortened))] if shortened != form else [])):
                if loose is not None:
                    entries = self._loose.setdefault(loose, [])
                    if (_RANK["permuted term"], ui) not in entries:
                        entries.append((_RANK["permuted term"], ui))

    # ------------------------------------------------------------------------------------------

    def descriptor(self, ui: str) -> MeshDescriptor:
        return self.file.get(ui)

    def term_keys(self) -> Iterable[tuple[tuple[str, ...], list[tuple[int, str]]]]:
        """Every normalised term key with its (rank, descriptor ui) entries."""
        return self._keys.items()

    def is_term_key(self, key: tuple[str, ...]) -> bool:
        """True when some heading, entry term or permuted term has this normalised key."""
        return key in self._keys

    def lookup(self, phrase: str) -> list[MeshDescriptor]:
        """Descriptors whose heading or entry term is `phrase` after normalisation, best first."""
        if is_acronym(phrase.strip()):
            return [self.descriptor(ui) for ui in sorted(self._acronyms.get(phrase.strip().upper(), ()))]
        hits = sorted(self._keys.get(phrase_key(phrase), []))
        return [self.descriptor(ui) for ui in dict.fromkeys(ui for _, ui in hits)]

    def knows(self, phrase: str) -> bool:
        """True when `phrase` is a heading or entry term (normalised), or an acronym one of them writes."""
        if is_acronym(phrase.strip()):
            return phrase.strip().upper() in self._acronyms
        return phrase_key(phrase) in self._keys

    def is_modifier(self, word: str) -> bool:
        """True for a word MeSH writes before other words and (almost) never as the head of a term:
        an adjective or a modifier ("rapid", "physical", "healthy", "cardiac", "urinary"), which names
        no concept alone and has no plural."""
        key = word_key(word)
        inner = self._inner_words.get(key, 0)
        return inner >= MODIFIER_MIN_USES and self._last_words.get(key, 0) * MODIFIER_RATIO <= inner

    def knows_word(self, word: str) -> bool:
        """True for a word some heading or entry term contains ("perovskite", "chatbot" are not)."""
        key = word_key(word)
        return key in self._inner_words or key in self._last_words

    def writes_form(self, word: str) -> bool:
        """True when some heading or entry term writes the word in exactly this form ("interfaces"
        and "interface" both; "hypertension" but never "hypertensions")."""
        return word.lower() in self._forms

    def words_beginning(self, prefix: str) -> list[str]:
        """The words MeSH writes that begin with `prefix`, lower case and sorted ("telerehab":
        "telerehabilitation")."""
        start = prefix.lower()
        return sorted(w for w in self._forms if w.startswith(start))

    def is_head_word(self, word: str) -> bool:
        """True for a noun MeSH ends terms with (at least `HEAD_MIN_DESCRIPTORS` of them: "care" in
        "Critical Care", "health" in "Public Health"), not only an adjective such as "clinical"."""
        return len(self._endings.get(word_key(word), ())) >= HEAD_MIN_DESCRIPTORS

    def ending_in(self, word: str) -> list[MeshDescriptor]:
        """The descriptors with a heading or entry term that ends in `word` ("caries": Dental Caries,
        Root Caries)."""
        return [self.descriptor(ui) for ui in sorted(self._endings.get(word_key(word), ()))]

    def head_role(self, word: str) -> ConceptRole | None:
        """The role of what a phrase ending in `word` names, when MeSH agrees on it: at least
        `HEAD_MIN_DESCRIPTORS` descriptors have a term ending in the word and `HEAD_SHARE` of them have
        that role ("fractures" ends Hip Fractures, Spinal Fractures ...: a condition; "stones", "lesions"
        too), else None ("tests", "radiographs" end terms of several roles or too few)."""
        uis = self._endings.get(word_key(word), set())
        if len(uis) < HEAD_MIN_DESCRIPTORS:
            return None
        roles: dict[ConceptRole, int] = {}
        for ui in uis:
            role = role_of(self.descriptor(ui))
            roles[role] = roles.get(role, 0) + 1
        role, count = max(roles.items(), key=lambda item: item[1])
        return role if count >= HEAD_SHARE * len(uis) else None

    def body_part(self, word: str) -> MeshDescriptor | None:
        """The body part a word names, by one of its one-word names or an adjective formed on one
        ("vertebral": Spine; `agent.language.body_parts`), or None."""
        ui = self._parts().part_of(word)
        return self.descriptor(ui) if ui is not None else None

    def _parts(self) -> BodyPartIndex:
        if self._body_parts is None:
            self._body_parts = BodyPartIndex(self.file.records())
        return self._body_parts

    def word_variants(self) -> dict[str, frozenset[str]]:
        """Words MeSH writes interchangeably (`_attested_variants`), each with its variants."""
        return self._variants

    def recognize(
        self,
        text: str,
        defined: dict[str, str] | None = None,
        prefer: tuple[str, ...] = (),
        *,
        complete: bool = False,
        context: Sequence[MeshDescriptor] = (),
    ) -> list[MeshMatch]:
        """The descriptors named in `text`, longest match first, non-overlapping, in text order.

        `defined` maps acronyms to the long forms the text gives them ("ECoG" -> "electrocorticography");
        such an acronym is recognised as its long form wherever it stands alone. `prefer` names tree
        prefixes the caller expects (a method: "E", "L"): among descriptors sharing a matched key, one
        under them wins ("neural networks" of an algorithm is Neural Networks, Computer, not Nerve Net).
        `complete` also names phrases MeSH writes only as the end of its terms (`TailIndex.complete`:
        "computed tomography", "ultrasound"): what a searcher indexes a concept with, asked for by the
        search's concepts; the understanding tells slots apart by exact names only. `context` holds
        the descriptors named elsewhere in the description: a word of two senses takes the one whose
        trees sit nearest to them (`_choose`).
        """
        normalised = _as_recognised(text)
        # "face-to-face", "side-by-side", "peer-to-peer": a manner, no face, side or peer
        normalised = REDUPLICATED.sub(lambda m: " " * len(m.group()), normalised)
        tokens = tokenize(normalised)
        found: list[tuple[int, int, str, list[str], str]] = []  # start, end token, how, candidates
        index = 0
        while index < len(tokens):
            step = 1
            for length in range(min(MAX_WORDS, len(tokens) - index), 0, -1):
                window = tokens[index : index + length]
                if length > 1 and crosses_a_break(normalised, window):
                    continue
                entries = (
                    self._keys.get(tuple(t.key for t in window))
                    or self._act_of_gerund(window)
                    or self._act_of_participle(window)
                )
                if entries and length == 1 and is_acronym(window[0].text):
                    # an acronym as written ("PET", "FDG") names only descriptors that write it so, never
                    # the word it spells in lower case ("Pets")
                    spelled = self._acronyms.get(window[0].text.upper(), set())
                    entries = [entry for entry in entries if entry[1] in spelled]
                if entries:
                    best = min(rank for rank, _ in entries)
                    how = "heading" if best == 0 else "entry term"
                    candidates = list(dict.fromkeys(ui for _, ui in sorted(entries)))
                    written = normalised[window[0].start : window[-1].end]
                    found.append((index, index + length, how, self._written_first(candidates, written), ""))
                    step = length
                    break
                if length == 1:
                    uis = self._acronym_uis(window[0].text, defined or {}) or self._misspelt_drug(
                        window[0].text
                    )
                    if uis:
                        how = "acronym" if is_acronym(window[0].text) else "spelling"
                        found.append((index, index + 1, how, uis, ""))
            index += step
        found = [f for f in found if not self._modifies_a_compound_head(normalised, tokens, f[1])]
        found = self._add_loose_matches(normalised, tokens, found)
        chosen = self._compose(normalised, tokens, _choose(found, self, prefer, context))
        if complete:
            chosen = self._tails.complete(normalised, tokens, chosen, self.descriptor)
        chosen = [
            match
            for match in chosen
            if not self._cut_short(normalised, tokens, match)
            and not self._adjective_of_a_plural(normalised, tokens, match)
        ]
        return [self._match(normalised, tokens, start, end, how, ui) for start, end, how, ui in chosen]

    def _written_first(self, candidates: list[str], written: str) -> list[str]:
        """Candidates that write the words exactly as the text does ahead of those reached only by
        normalising number or spelling: "glasses" is Eyeglasses (entry term "Glasses") before Glass,
        "tetracyclines" the class Tetracyclines before the drug Tetracycline, "turkeys" the birds
        before the country. The plural of a word is often a sense of its own, and MeSH writes that
        sense's number; the description's other concepts still choose first (`_choose`)."""
        if len(candidates) < 2:
            return candidates
        form = written.lower()

        def writes_it(ui: str) -> bool:
            descriptor = self.descriptor(ui)
            terms = (descriptor.heading, *descriptor.entry_terms)
            return any(form in (term.lower(), natural_order(term).lower()) for term in terms)

        return sorted(candidates, key=lambda ui: not writes_it(ui))

    def _act_of_gerund(self, window: Sequence[Token]) -> list[tuple[int, str]]:
        """The entries of a window that ends in a gerund MeSH does not write, read with the verb as
        the noun of its act: "bathing" is Baths, "home visiting" House Calls ("Home Visit"). English
        names an act by the gerund or by the bare verb as a noun, and MeSH often only by the noun.
        Only acts are taken (procedures, behaviour, phenomena, activities, health care:
        `_ACT_TREES`), never a thing the verb's noun also names ("toileting" is no Bathroom
        Equipment, "charging" no Fees and Charges)."""
        *before, last = window
        for verb in gerund_bases(last.text):
            entries = self._keys.get((*(t.key for t in before), word_key(verb)), [])
            acts = [e for e in entries if _an_act(self.descriptor(e[1]))]
            if acts:
                return acts
        return []

    def _act_of_participle(self, window: Sequence[Token]) -> list[tuple[int, str]]:
        """The entries of a window ending in an "-ly" adverb and a past participle, read as the
        adjective and the noun of the act: "mechanically ventilated" is Respiration, Artificial
        ("Mechanical Ventilation"), "orally administered" Administration, Oral. English says of people
        what was done to them with the participle, and MeSH names the act with the noun. Acts only, as
        for `_act_of_gerund`."""
        if len(window) < 2:
            return []
        *before, adverb, last = window
        adjective = adjective_of_adverb(adverb.text)
        if adjective is None:
            return []
        for verb in participle_bases(last.text):
            for noun in action_nouns(verb):
                key = (*(t.key for t in before), word_key(adjective), word_key(noun))
                acts = [e for e in self._keys.get(key, []) if _an_act(self.descriptor(e[1]))]
                if acts:
                    return acts
        return []

    def _match(
        self, text: str, tokens: Sequence[Token], start: int, end: int, how: str, ui: str
    ) -> MeshMatch:
        """The match of tokens `start` to `end` (exclusive) of `text` for descriptor `ui`."""
        return MeshMatch(
            text=text[tokens[start].start : tokens[end - 1].end],
            start=tokens[start].start,
            end=tokens[end - 1].end,
            descriptor=self.descriptor(ui),
            via=how,
            parents=self._named_parents(self.descriptor(ui), tokens[start:end]),
        )

    def reaching_the_head(self, text: str, match: MeshMatch) -> MeshMatch | None:
        """A term that starts inside a match of several words and runs on to the last word of `text`,
        which no match holds: "bone fracture healing" is Fracture Healing, where recognition found
        Fractures, Bone beside a lone "healing". English compounds grow to the right, so the term that
        reaches the head names what the phrase is about; the words it leaves before it modify it.
        The caller asks only where the head is a word that names something (not "management")."""
        normalised = _as_recognised(text)
        tokens = tokenize(normalised)
        inside = [i for i, t in enumerate(tokens) if match.start <= t.start and t.end <= match.end]
        if len(inside) < 2 or inside[-1] + 1 >= len(tokens):
            return None
        found = self._term_through(normalised, tokens, inside[0] + 1, inside[-1] + 1)
        if found is None or found[1] != len(tokens):
            return None
        begin, stop, how, candidates, _ = found
        return self._match(normalised, tokens, begin, stop, how, candidates[0])

    def _term_through(
        self, text: str, tokens: Sequence[Token], first: int, end: int
    ) -> tuple[int, int, str, list[str], str] | None:
        """The longest term (heading or entry term, exact key) that starts at a token from `first` to
        `end - 1` and ends after `end`, or None."""
        for stop in range(min(len(tokens), first + MAX_WORDS), end, -1):
            for begin in range(first, end):
                window = tokens[begin:stop]
                if len(window) > MAX_WORDS or crosses_a_break(text, window):
                    continue
                entries = [e for e in self._keys.get(tuple(t.key for t in window), []) if e[0] < 2]
                if entries:
                    best = min(rank for rank, _ in entries)
                    candidates = list(dict.fromkeys(ui for _, ui in sorted(entries)))
                    return (begin, stop, "heading" if best == 0 else "entry term", candidates, "")
        return None

    def _modifies_a_compound_head(self, text: str, tokens: Sequence[Token], end: int) -> bool:
        """Whether a match ending before token `end` is only the first part of a hyphenated compound
        whose second part is a noun MeSH ends terms with more often than it writes it inside them:
        "water-loss" is a kind of loss, not Water; "COVID-19-related", "insulin-resistant" and
        "trauma-induced" end in words MeSH writes inside terms, and name what their first part names."""
        if end >= len(tokens) or not joined_by_hyphen(text, tokens[end - 1], tokens[end]):
            return False
        key = tokens[end].key
        return self._last_words.get(key, 0) > self._inner_words.get(key, 0)

    def _cut_short(self, text: str, tokens: Sequence[Token], match: tuple[int, int, str, str]) -> bool:
        """Whether a match is the start of its descriptor's heading, named by an entry term ("Magnetic
        Resonance" of Magnetic Resonance Spectroscopy) or completed as a tail, where the text goes on
        with a word that is a name of its own: the words begin another name ("magnetic resonance
        arthrography"). A word that only ends names ("testing", "tests") is what is done with the named
        thing: "human papillomavirus testing" names Human Papillomavirus Viruses."""
        start, end, how, ui = match
        if how != "entry term" or end >= len(tokens) or crosses_a_break(text, tokens[end - 1 : end + 1]):
            return False
        following = tokens[end].key
        if self.is_modifier(following) or not any(rank == 0 for rank, _ in self._keys.get((following,), [])):
            # "magnetic resonance in children": no name follows; "opioid consumption": "consumption" is
            # only an entry term (of Economics), a word for what is done with the named thing
            return False
        written = tuple(t.key for t in tokens[start:end])
        heading = phrase_key(natural_order(self.descriptor(ui).heading))
        size = len(written)
        if len(heading) <= size or heading[:size] != written or self.is_modifier(heading[size]):
            return False  # "Bone and Bones" goes on with "and": "bone" is the whole name, cut nothing short
        if written in self._without_qualifier:
            return False  # "diabetes": the heading goes on only with a qualifier usage drops ("Mellitus")
        return heading[size] != following

    def _adjective_of_a_plural(
        self, text: str, tokens: Sequence[Token], match: tuple[int, int, str, str]
    ) -> bool:
        """Whether a one-word match is an adjective read as the singular of a plural entry term:
        "marine fish" is no Marines (Military Personnel), "transient elastography" no Transients. The
        word stands before another word of the phrase, the descriptor's terms never write it in this
        form (only "Marines"), and MeSH writes this form as a modifier: inside at least
        `MODIFIER_MIN_USES` terms and inside more than it ends ("Marine Biology", "Marine Toxins").
        A noun before a noun keeps its descriptor: "immigrant health" (MeSH writes "immigrant" nowhere)."""
        start, end, how, ui = match
        if how != "entry term" or end - start != 1 or end >= len(tokens):
            return False
        if crosses_a_break(text, tokens[start : end + 1]):
            return False
        written = tokens[start].text.lower()
        descriptor = self.descriptor(ui)
        if any(written in _WORD.findall(t.lower()) for t in (descriptor.heading, *descriptor.entry_terms)):
            return False
        inside, ending = self._form_uses.get(written, (0, 0))
        return inside >= MODIFIER_MIN_USES and inside > ending

    def _compose(
        self, text: str, tokens: Sequence[Token], chosen: list[tuple[int, int, str, str]]
    ) -> list[tuple[int, int, str, str]]:
        """Two neighbouring matches whose headings together name one descriptor: "oral cavity" (Mouth)
        + "cancer" (Neoplasms) is "Mouth Neoplasms", as MeSH pre-coordinates a site and a disease."""
        composed: list[tuple[int, int, str, str]] = []
        for match in chosen:
            if composed:
                start, end, _, left = composed[-1]
                between = text[tokens[end - 1].end : tokens[match[0]].start]
                if end == match[0] and between.strip(" -") == "":
                    ui = self._heading_pair(left, match[3]) or self._organ_kind(
                        left, match[3], tuple(t.key for t in tokens[match[0] : match[1]])
                    )
                    if ui is not None:
                        composed[-1] = (start, match[1], "entry term", ui)
                        continue
            composed.append(match)
        return composed

    def _organ_kind(self, organ: str, technique: str, written: tuple[str, ...]) -> str | None:
        """The kind of a technique (or of what MeSH ends its terms with the technique's words) that MeSH
        names after an organ written before it: "chest" (Thorax) + "X-ray" is Radiography, Thoracic,
        whose term "Thoracic Radiography" is a word of the organ's family ("thora-") before the heading
        of Radiography, which MeSH writes "Diagnostic X-Ray". None unless exactly one descriptor."""
        body = self.descriptor(organ)
        if not any(t.startswith("A") for t in body.tree_numbers):
            return None
        # the words that name the organ itself ("Placentoma, Normal" gives "placentoma", not "normal")
        stems = {
            w[:ORGAN_STEM]
            for term in [body.heading, *body.entry_terms]
            for w in phrase_key(term)
            if self._parts().part_of(w) == organ
        }
        stems.discard("")
        kinds: set[str] = set()
        for ui in {technique, *self._tails.candidates(written)}:
            heading = phrase_key(natural_order(self.descriptor(ui).heading))
            for child in self._children_of(ui):
                descriptor = self.descriptor(child)
                for term in [descriptor.heading, *descriptor.entry_terms]:
                    key = phrase_key(natural_order(term))
                    if key[1:] == heading and len(key[0]) >= ORGAN_STEM and key[0][:ORGAN_STEM] in stems:
                        kinds.add(child)
        return next(iter(kinds)) if len(kinds) == 1 else None

    def _children_of(self, ui: str) -> set[str]:
        if self._children is None:
            children: dict[str, set[str]] = {}
            for child, row in self.file.records().items():
                for number in row.get("tree_numbers") or []:
                    if "." in number and (parent := self.file.by_tree_number(number.rsplit(".", 1)[0])):
                        children.setdefault(parent.ui, set()).add(child)
            self._children = children
        return self._children.get(ui, set())

    def children(self, descriptor: MeshDescriptor) -> list[MeshDescriptor]:
        """The descriptors filed right below `descriptor` in any of its trees (the kinds MeSH files of it)."""
        return [self.descriptor(ui) for ui in sorted(self._children_of(descriptor.ui))]

    def _heading_pair(self, left: str, right: str) -> str | None:
        """The descriptor whose heading or entry term is the two headings written one after the other."""
        first, second = self.descriptor(left).heading, self.descriptor(right).heading
        if "," in first or "," in second:
            return None  # inverted headings ("Tomography, X-Ray Computed") compose no natural phrase
        entries = self._keys.get(phrase_key(f"{first} {second}"))
        return min(entries)[1] if entries else None

    def _add_loose_matches(
        self, text: str, tokens: Sequence[Token], found: list[tuple[int, int, str, list[str], str]]
    ) -> list[tuple[int, int, str, list[str], str]]:
        """Windows that match only in another word order or derived form (`loose_key`) where no exact
        match of several words starts at or before them ("kidney transplant recipients": Kidney
        Transplantation), or with a word swapped for a variant (`word_variants`) where that makes a
        longer match than the exact ones inside ("common bile duct stones" = "Common Bile Duct
        Calculi"), or turned around (`_inverted_entries`): a loose form may replace single words."""
        exact = [(start, end) for start, end, *_ in found if end - start > 1]
        loose: list[tuple[int, int, str, list[str], str]] = []
        index = 0
        while index < len(tokens):
            step = 1
            for length in range(min(VARIANT_MAX_WORDS, len(tokens) - index), 1, -1):
                window = tokens[index : index + length]
                if crosses_a_break(text, window):
                    continue
                overlapping = [(s, e) for s, e in exact if s < index + length and e > index]
                entries = None
                if all(index < s for s, _ in overlapping):
                    key = loose_key([t.key for t in window])
                    entries = self._loose.get(key) if key is not None else None
                if not entries and all(
                    index <= s and e <= index + length and e - s < length for s, e in overlapping
                ):
                    entries = self._variant_entries([t.key for t in window])
                    entries = entries or self._inverted_entries([t.key for t in window])
                    # "vertebral fracture": MeSH writes the body part's other adjective ("Spinal Fractures")
                    entries = entries or self._parts().site_entries([t.key for t in window], self.term_keys)
                if entries:
                    candidates = list(dict.fromkeys(ui for _, ui in sorted(entries)))
                    loose.append((index, index + length, "entry term", candidates, ""))
                    step = length
                    break
            index += step
        if not loose:
            return found
        kept = [f for f in found if not any(s <= f[0] < e for s, e, *_ in loose)]
        return sorted(kept + loose, key=lambda f: f[0])

    def _inverted_entries(self, keys: list[str]) -> list[tuple[int, str]]:
        """The entries of "X with Y" and "X of (the) Y" written as "Y X" ("dementia with Lewy bodies" =
        "Lewy Body Dementia", "fracture of the hip" = "Hip Fractures")."""
        for connector in ("with", "of"):
            if connector in keys[1:-1]:
                at = keys.index(connector, 1)
                after = keys[at + 1 :]
                if after[:1] == ["the"] and len(after) > 1:
                    after = after[1:]
                return self._keys.get((*after, *keys[:at]), [])
        return []

    def _variant_entries(self, keys: list[str]) -> list[tuple[int, str]]:
        """The entries of the window with one word swapped for a variant (`word_variants`), or for the
        heading MeSH gives that word as an entry term (`_one_word_synonyms`: "gastrointestinal
        bleeding" is Gastrointestinal Hemorrhage, because "Bleeding" is an entry term of Hemorrhage)."""
        variants = self._variants
        for index, word in enumerate(keys):
            others: list[tuple[str, ...]] = [
                (other,)
                for other in sorted(variants.get(word, ()))
                # the head of a phrase of several words swaps only for a variant MeSH writes at heads
                if index < len(keys) - 1
                or len(keys) == 1
                or other in self._variants_at_the_head.get(word, ())
            ]
            if word in self._synonym_words:
                others.append(self._synonym_words[word])
            for other in others:
                swapped = (*keys[:index], *other, *keys[index + 1 :])
                if swapped in self._inverted_keys:
                    # "care hospitals" -> "referral hospitals" is "Referral, Hospital" only as NLM
                    # inverts it (Hospital Referrals): a swap must meet a term as it is written
                    continue
                entries = self._keys.get(swapped)
                if entries:
                    return [entry for entry in entries if entry[0] < _RANK["permuted term"]] or entries
        return self._head_variant_entries(keys)

    @cached_property
    def _head_variants(self) -> dict[str, frozenset[str]]:
        """Built at the first window that needs it (about a second for the whole of MeSH), not at load."""
        return with_trouble_heads(attested_head_variants(self._keys, self._inverted_keys))

    def _head_variant_entries(self, keys: list[str]) -> list[tuple[int, str]]:
        """The entries of the window with its head swapped for a head variant
        (`agent.language.head_variants`), where the words before the head are a term themselves
        ("mental health care" = Mental Health Services)."""
        if len(keys) < 2 or tuple(keys[:-1]) not in self._keys:
            return []
        for other in sorted(self._head_variants.get(keys[-1], ())):
            swapped = (*keys[:-1], other)
            entries = [] if swapped in self._inverted_keys else self._keys.get(swapped, [])
            if entries:
                return [entry for entry in entries if entry[0] < _RANK["permuted term"]] or entries
        return []

    def _one_word_synonyms(self) -> dict[str, tuple[str, ...]]:
        """Words that are a one-word entry term of exactly one descriptor, with that descriptor's
        heading in natural order ("bleeding" -> "hemorrhage", "tumor" -> "neoplasm"): MeSH declares
        them the same, so a term written with one is written with the other."""
        synonyms: dict[str, tuple[str, ...]] = {}
        for key, entries in self._keys.items():
            uis = {ui for _, ui in entries}
            if len(key) != 1 or len(uis) != 1 or min(rank for rank, _ in entries) != _RANK["entry term"]:
                continue
            heading = phrase_key(natural_order(self.descriptor(next(iter(uis))).heading))
            if heading and heading != key:
                synonyms[key[0]] = heading
        return synonyms

    def _named_parents(
        self, descriptor: MeshDescriptor, window: Sequence[Token]
    ) -> tuple[MeshDescriptor, ...]:
        """Ancestors of `descriptor` (`ancestors`) that words of the match name: the broader headings a
        searcher adds beside the specific one, and the ones records were indexed with before a combined
        heading existed. The words ending at the match's head name a broader kind of the same thing
        ("back pain" and "pain" in "low back pain", not "life" in "quality of life"); a run of words
        before the head, of two words or more or an acronym, names a technique a combined one is made of
        ("PET" in "PET-CT", "computed tomography" in "computed tomography angiography") by a heading or
        entry term, an acronym MeSH writes for one descriptor only, or a phrase MeSH writes only as the
        end of its terms (`TailIndex`); the longest such run wins. One word before the head only
        modifies it ("reagent" in "reagent strips")."""
        parents = {p.ui: p for p in self.ancestors(descriptor)}
        named: dict[str, MeshDescriptor] = {}
        keys = [t.key for t in window]
        # the head comes before a preposition: "quality of life", "return to sport" (not Sports)
        head = next((i - 1 for i, key in enumerate(keys) if i and key in _POST_MODIFIER), len(keys) - 1)
        naming: list[tuple[int, int]] = []  # runs before the head that named a parent: the longest wins
        for length in range(len(window) - 1, 0, -1):
            for start in range(0, head - length + 2):
                end = start + length
                at_head = end == head + 1
                if not at_head and any(s <= start and end <= e for s, e in naming):
                    continue  # "tomography" inside "computed tomography": the longer run said it
                run = window[start:end]
                if at_head:
                    uis = [ui for _, ui in self._keys.get(tuple(t.key for t in run), [])]
                elif len(run) > 1 or is_acronym(run[0].text):
                    uis = self._window_uis(run)
                else:
                    continue  # one word before the head modifies it ("reagent strips") or is its kind
                for ui in uis:
                    if ui in parents:
                        named.setdefault(ui, parents[ui])
                        if not at_head:
                            naming.append((start, end))
        return tuple(named.values())

    def _window_uis(self, words: Sequence[Token]) -> list[str]:
        """The descriptors a run of words inside a match names on its own (see `_named_parents`)."""
        uis = [ui for _, ui in self._keys.get(tuple(t.key for t in words), [])]
        if len(words) == 1 and is_acronym(words[0].text):
            spelled = self._acronyms.get(words[0].text.upper(), set())
            uis = [ui for ui in uis if ui in spelled] + (sorted(spelled) if len(spelled) == 1 else [])
        elif not uis:
            tail = self._tails.resolve(tuple(t.key for t in words), self.descriptor)
            uis = [tail] if tail is not None else []
        return uis

    def _misspelt_drug(self, word: str) -> list[str]:
        """The drug a word MeSH does not know misspells ("levitiracetam": Levetiracetam), if only one
        is near it (`agent.language.drug_spelling`)."""
        if is_acronym(word) or self.knows_word(word) or not word.isalpha() or english_word(word):
            return []  # an English word MeSH does not use ("elections", "pressing") is no misspelling
        if self._drug_spelling is None:
            self._drug_spelling = DrugSpelling(
                (term, ui)
                for ui, row in self.file.records().items()
                if any(t.startswith("D") for t in row.get("tree_numbers") or [])
                for term in [row["heading"], *(row.get("entry_terms") or [])]
                if " " not in term
            )
        ui = self._drug_spelling.drug_of(word)
        return [ui] if ui is not None else []

    def _acronym_uis(self, word: str, defined: dict[str, str]) -> list[str]:
        if not is_acronym(word):
            return []
        if word in defined:
            return [d.ui for d in self.lookup(defined[word])][:1]
        if is_chemical_formula(word) and word not in self._acronym_spellings:
            return []  # "GaN" is gallium nitride, no "GAN" (Giant Axonal Neuropathy)
        uis = self._acronyms.get(word.upper(), set())
        if not uis:
            return self._initials_uis(word)
        if len(uis) == 1:
            return sorted(uis)
        named = [ui for ui in sorted(uis) if self.descriptor(ui).heading.upper() == word.upper()]
        if len(named) == 1:  # "HIV" is the heading HIV, not "HIV Envelope Protein gp120" (entry "HIV gp120")
            return named
        family = _family_root([self.descriptor(ui) for ui in sorted(uis)])
        return [family.ui] if family else []  # ambiguous in MeSH and undefined in the text: no

    @cached_property
    def _initials(self) -> dict[str, set[str]]:
        """Every heading's and entry term's `spelled_initials` -> the descriptors with such a term."""
        found: dict[str, set[str]] = {}
        for ui, row in self.file.records().items():
            for term in (row["heading"], *(row.get("entry_terms") or [])):
                spelled = spelled_initials(term)
                if spelled is not None:
                    found.setdefault(spelled, set()).add(ui)
        return found

    def _initials_uis(self, word: str) -> list[str]:
        """The descriptor an acronym no MeSH term writes stands for when the initials of the words of
        exactly one descriptor's heading or entry terms spell it (TAVR: Transcatheter Aortic Valve
        Replacement; DLBCL, T2DM, NSCLC): titles write such acronyms unexplained. Capitals (and digits)
        only, and no English word ("CARE"). Three capitals spell descriptors' words by chance (VTE spelt
        Vascular Tissue Expander, ROP Oncogene Proteins v-rel, MTB a Malignant Tumor of Breast beside
        Multitasking Behavior): they count only when the one descriptor they spell is a condition
        (`_CONDITIONS`), the thing titles abbreviate unexplained ("adults with OUD": Opioid-Related
        Disorders; UTI, DVT), not an acronym of something else that spells one by chance beside
        others (AKI also spells Aspartate Kinase; "Xpert MTB/RIF", OIT, NMP stay as written)."""
        if len(word) < 3 or not word.isalnum() or word != word.upper() or word.isdigit():
            return []
        if english_word(word.lower()):
            return []
        uis = self._initials.get(word, set())
        if len(uis) != 1:
            return []
        if len(word) == 3 and not any(
            t.startswith(_CONDITIONS) for ui in uis for t in self.descriptor(ui).tree_numbers
        ):
            return []
        return sorted(uis)

    def ancestors(self, descriptor: MeshDescriptor) -> list[MeshDescriptor]:
        """What a searcher might explode beside the descriptor: its direct tree parents, and the
        ancestors above them that are still specific (`SPECIFIC_DEPTH`: "Pain" above "Back Pain" above
        "Low Back Pain", but not "Neoplasms" at the top of its tree)."""
        found: dict[str, MeshDescriptor] = {}
        for number in descriptor.tree_numbers:
            level = 0
            while "." in number:
                number, level = number.rsplit(".", 1)[0], level + 1
                ancestor = self.file.by_tree_number(number)
                if ancestor is None or ancestor.ui in found:
                    continue
                if level == 1 or any(t.count(".") >= SPECIFIC_DEPTH for t in ancestor.tree_numbers):
                    found[ancestor.ui] = ancestor
        return list(found.values())


def _attested_variants(
    keys: dict[tuple[str, ...], list[tuple[int, str]]],
) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """Words MeSH writes interchangeably: two words are variants when, in the same place between the
    same other words, they give terms of one descriptor, in at least `VARIANT_MIN_SUPPORT`
    descriptors ("Kidney Calculi" / "Kidney Stones", "Renal Transplantation" / "Kidney
    Transplantation"), and never terms of two different descriptors ("Alpha Cells" / "Beta Cells").
    Second, the variants attested so as the last word of terms, in as many descriptors: a term's head
    is another place than its modifiers ("Tertiary Care Centers" / "Tertiary Referral Centers" make
    "care" and "referral" variants before "centers", never at the head: "hospital care" is no
    Hospital Referral)."""
    places: dict[tuple[tuple[str, ...], tuple[str, ...]], list[tuple[str, frozenset[str]]]] = {}
    for key, entries in keys.items():
        if len(key) < 2:
            continue
        uis = frozenset(ui for _, ui in entries)
        for index, word in enumerate(key):
            if word.isalpha() and len(word) >= 3:
                places.setdefault((key[:index], key[index + 1 :]), []).append((word, uis))
    support: dict[tuple[str, str], set[str]] = {}
    at_the_head: dict[tuple[str, str], set[str]] = {}
    conflicts: set[tuple[str, str]] = set()
    for (_, after), words in places.items():
        for index, (first, first_uis) in enumerate(words):
            for second, second_uis in words[index + 1 :]:
                pair = (first, second) if first < second else (second, first)
                if first_uis & second_uis:
                    support.setdefault(pair, set()).update(first_uis & second_uis)
                    if not after:
                        at_the_head.setdefault(pair, set()).update(first_uis & second_uis)
                else:
                    conflicts.add(pair)
    variants: dict[str, set[str]] = {}
    head_variants: dict[str, set[str]] = {}
    for (first, second), descriptors in support.items():
        if len(descriptors) >= VARIANT_MIN_SUPPORT and (first, second) not in conflicts:
            variants.setdefault(first, set()).add(second)
            variants.setdefault(second, set()).add(first)
            if len(at_the_head.get((first, second), ())) >= VARIANT_MIN_SUPPORT:
                head_variants.setdefault(first, set()).add(second)
                head_variants.setdefault(second, set()).add(first)
    return (
        {word: frozenset(others) for word, others in variants.items()},
        {word: frozenset(others) for word, others in head_variants.items()},
    )


def _family_root(candidates: list[MeshDescriptor]) -> MeshDescriptor | None:
    """The candidate most of the others are narrower kinds of: "CT" is written for Tomography, X-Ray
    Computed and for its spiral and cone-beam kinds (and once for emission tomography), so it names the
    family's root. None when no candidate has more than half of the others under it."""
    best, most = None, 0
    for candidate in candidates:
        below = sum(is_under(other, candidate) for other in candidates if other.ui != candidate.ui)
        if below > most:
            best, most = candidate, below
    return best if most * 2 > len(candidates) - 1 else None


def tree_distance(a: MeshDescriptor, b: MeshDescriptor) -> int:
    """Steps between the closest tree positions of two descriptors (0 = same, large = other branch)."""
    best = 99
    for x in a.tree_numbers:
        for y in b.tree_numbers:
            xs, ys = x.split("."), y.split(".")
            if xs[0][0] != ys[0][0]:
                continue
            common = 0
            for p, q in zip(xs, ys, strict=False):
                if p != q:
                    break
                common += 1
            best = min(best, len(xs) + len(ys) - 2 * common)
    return best


def _choose(
    found: list[tuple[int, int, str, list[str], str]],
    vocabulary: MeshVocabulary,
    prefer: tuple[str, ...] = (),
    context: Sequence[MeshDescriptor] = (),
) -> list[tuple[int, int, str, str]]:
    """One descriptor per match: the candidate under a preferred tree, then the sense nearest to the
    unambiguous matches and to the `context` (the other concepts of the description), then the best
    ranked (heading before entry term). Candidates of which one sits below another in a tree are one
    sense at two levels ("Insulins", "Insulin"): they share the distance of the nearer, so that
    proximity never trades a specific heading for its broader one."""
    settled = [vocabulary.descriptor(c[0]) for _, _, _, c, _ in found if len(c) == 1] + list(context)
    chosen = []
    for start, end, how, candidates, _ in found:
        if len(candidates) == 1:
            chosen.append((start, end, how, candidates[0]))
            continue
        descriptors = {ui: vocabulary.descriptor(ui) for ui in candidates}
        distance = {
            ui: min((tree_distance(d, s) for s in settled if s.ui not in descriptors), default=99)
            for ui, d in descriptors.items()
        }
        sense = {
            ui: min(distance[other] for other, o in descriptors.items() if other == ui or _related(d, o))
            for ui, d in descriptors.items()
        }
        scored = sorted(
            candidates,
            key=lambda ui: (
                not any(t.startswith(prefer) for t in descriptors[ui].tree_numbers) if prefer else False,
                sense[ui],
                candidates.index(ui),
            ),
        )
        chosen.append((start, end, how, scored[0]))
    return chosen


def _related(a: MeshDescriptor, b: MeshDescriptor) -> bool:
    """Whether one descriptor sits below the other in some MeSH tree."""
    return is_below(a, b) or is_below(b, a)


_SHARED: dict[str, MeshVocabulary] = {}
_SHARED_LOCK = threading.Lock()


def vocabulary_for(mesh_file: MeshFile) -> MeshVocabulary:
    """One vocabulary per MeSH file path in this process (building it takes a few seconds)."""
    key = str(mesh_file.path.resolve())
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = MeshVocabulary(mesh_file)
        return _SHARED[key]


def attested_terms(vocabulary: MeshVocabulary, texts: Iterable[str]) -> list[str]:
    """The texts the vocabulary knows (for ranking translations and candidates)."""
    return [t for t in texts if vocabulary.knows(t)]


def rebuild_vocabulary(source: Path, out: Path | None = None, year: int | None = None) -> BuildReport:
    """Rebuild the MeSH table recognition reads (the shipped one unless `out` is given) from NLM's
    descriptor XML or a JSONL table; `MeshBuildError` says what is wrong with the source."""
    return build(source, out or EMBEDDED_MESH, year)


# the tree number of Humans (B01...400.400): people are a population, other organisms a condition's host
HUMANS_TREE = "B01.050.150.900.649.313.988.400.112.400.400"  # Humans, under Organisms (B)
PERSONS_TREE = "M01"  # Persons: people by age, occupation, condition, origin ("Refugees", "Women", "Child")
# functions of the body or mind: behaviour (F01), psychological and physiological phenomena (F02, G)
FUNCTION_TREES = ("F01", "F02", "G")

# Places where a study is done, under Environment (N06.230): caves, cities, coral reefs, forests,
# grassland, tundra, wetlands, fresh waters (lakes, ponds, rivers), islands. A habitat is the setting
# of "microplastics in fish of urban rivers", not an outcome (their G16 trees would say outcome).
PLACE_TREES = (
    *("N06.230.066", "N06.230.069", "N06.230.124.130", "N06.230.124.343", "N06.230.124.390"),
    *("N06.230.124.531", "N06.230.124.625", "N06.230.232", "N06.230.295"),
)


def _filed_under(descriptor: MeshDescriptor, broader: MeshDescriptor) -> bool:
    """Whether a disease sits below another in a tree of diseases (C)."""
    return is_below(descriptor, broader) and any(number.startswith("C") for number in broader.tree_numbers)


def is_anatomy(descriptor: MeshDescriptor) -> bool:
    """Whether every tree of the descriptor is under Anatomy (A): a body part, tissue or fluid."""
    trees = descriptor.tree_numbers
    return bool(trees) and all(t.startswith("A") for t in trees)


# Vital Statistics (Mortality, Incidence, Morbidity, Birth Rate) and Hospitalization (Patient
# Readmission, Length of Stay, Patient Discharge): MeSH files them among techniques (E), but they are
# events counted in the people studied, the outcomes a review measures
EVENT_TREES = ("E05.318.308.985", "E02.760.400")

# The course of a disease (Recurrence, Disease Progression, Convalescence, and below them Reinfection,
# Clinical Deterioration, Pathologic Complete Response): MeSH files them among diseases (C23), but they
# are what happens to those who have one, the outcomes a review observes ("relapse in depression")
DISEASE_COURSE_TREES = ("C23.550.291.937", "C23.550.291.656", "C23.550.291.562")
# Death itself (not the kinds below it, Stillbirth or Sudden Infant Death, which a review studies as a
# condition): the end of any disease's course, which a title names as what is counted ("human rabies
# deaths", "cardiovascular death"); MeSH counts it under Mortality, whose entry terms include "Death Rate"
DEATH_TREE = "C23.550.260"


def role_of(descriptor: MeshDescriptor) -> ConceptRole:
    """A descriptor's role by its tree numbers (the most telling branch wins)."""
    trees = descriptor.tree_numbers
    letters = {t[0] for t in trees}

    def under(*prefixes: str) -> bool:
        return any(t.startswith(prefixes) for t in trees)

    disease_trees = [t for t in trees if t.startswith("C")]
    if disease_trees and all(t.startswith(DISEASE_COURSE_TREES) or t == DEATH_TREE for t in disease_trees):
        return ConceptRole.OUTCOME
    if "C" in letters or under("F03"):
        return ConceptRole.CONDITION
    if "B" in letters and not under(HUMANS_TREE):
        return ConceptRole.CONDITION if under("B03", "B04", "B05") else ConceptRole.POPULATION
    if "D" in letters:
        return ConceptRole.INTERVENTION
    if under(*EVENT_TREES) and all(t.startswith((*EVENT_TREES, "N")) for t in trees):
        return ConceptRole.OUTCOME  # Mortality, Incidence, Patient Readmission: what is counted, not how
    if "E" in letters or "L" in letters or under("J01"):
        return ConceptRole.METHOD
    if under(PERSONS_TREE) or under(HUMANS_TREE):
        return ConceptRole.POPULATION
    if "A" in letters:
        return ConceptRole.ANATOMY
    if under(*PLACE_TREES):
        return ConceptRole.SETTING
    if letters & {"G", "F"}:
        return ConceptRole.OUTCOME
    if letters & {"I", "H", "K"}:
        return ConceptRole.INTERVENTION if under("I03") else ConceptRole.METHOD
    if letters & {"N", "Z"}:
        return ConceptRole.SETTING
    return ConceptRole.METHOD
