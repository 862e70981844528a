"""The template of review titles, "X for Y in Z": what is done or tested, what for, and in whom.

Cochrane and most systematic reviews name their question this way ("Metformin for gestational
diabetes in pregnant women", "Red flags to screen for malignancy in patients with low-back pain",
"Urine tests for Down's syndrome screening"), and so do many research descriptions. Where a sentence
is written so, its X is what a searcher requires as the intervention or the test and its Y the topic,
whichever slots the understanding filed the phrases in (`agent.keywords.concepts` reads roles from
it). A sentence with a clause ("Is there evidence that tamsulosin improves stone passage for ...") is
no such title: there the verbs say the roles (`agent.keywords.concept_roles.is_exposure`).
"""

from __future__ import annotations

import re

from agent.keywords.phrase_words import APPROVAL_WORDS, PEOPLE_NOUNS, content_words
from agent.language.mesh_recognition import MeshVocabulary
from agent.language.text import NOT_A_GENUS_INITIAL, word_set
from agent.models import MeshDescriptor, Term
from agent.understanding.lexicon import EFFECT_VERBS, EN_PREPOSITIONS

# "for" that does not start the purpose of a title: "for whom surgery is considered", "for example"
# (nor a time: "for 2015-2022", "for 9 months")
_FOR = re.compile(r"\bfor\s+(?!whom\b|which\b|example\b|instance\b|all\b|\d)", re.IGNORECASE)


# a sentence (or a title before its colon) ends at a full stop before a space ("PM2.5" goes on), at ; ! ?
# or a colon, and at their Chinese forms
_SENTENCE_END = re.compile(rf"[.!?:]{NOT_A_GENUS_INITIAL}(?:\s+|$)|[。！？;；：]\s*|\n+")


# Words of a clause: a sentence whose "X" or "Y" has one ("Is there evidence that tamsulosin improves
# stone passage for ...", "Our NICU is considering ... for preterm infants") is no title "X for Y"
_CLAUSE_WORDS = word_set(
    "is are was were am be been do does did has have had can could will would shall should must "
    "we i you they our my your their us me there how what whether why compares compare"
) | frozenset(w for w in EFFECT_VERBS if w.endswith("s"))


# what the X does without, or instead of, is not done ("Continual learning without catastrophic forgetting")
_X_END = re.compile(r"\s(?:without|instead\s+of|rather\s+than)\s", re.IGNORECASE)


# what an X says of a thing is not done, the thing is ("usability of low-cost eye trackers", "diagnostic
# accuracy of laparoscopy"): the X starts after its last "of"
_X_OF = re.compile(r".*\sof\s", re.IGNORECASE | re.DOTALL)


# where the "Y" of "X for Y" ends: the people or setting of "in Z", "among Z", "with Z", "who ..."
_PURPOSE_END = re.compile(
    r"\s(?:in|among|amongst|with|without|who|whose|that|which|during|at)\s", re.IGNORECASE
)


# a request to the assistant opening a sentence ("Can you find papers about X for Y?", "Could you please
# search ..."): an imperative, whose object may be written as a title; its auxiliary and "you" are no clause
_REQUEST = re.compile(r"^\s*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+)", re.IGNORECASE)


def _x_y_z(description: str) -> list[tuple[str, str, str]]:
    """The "X", "Y" and "Z" of each sentence written "X for Y (in Z)", the template of review titles
    ("Metformin for gestational diabetes in pregnant women", "Red flags to screen for malignancy in
    patients with low-back pain"): what is done or tested, what for, and in whom ("" when not said). A
    "Y" that ends with people ("for hospitalised adults", "for low-risk women") is whom it is for: no
    purpose, all "Z"."""
    found = []
    for sentence in _SENTENCE_END.split(description):
        sentence = _REQUEST.sub("", sentence)
        purpose = _FOR.search(sentence)
        if purpose is None:
            continue
        x, rest = sentence[: purpose.start()], sentence[purpose.end() :]
        end = _PURPOSE_END.search(rest)
        y, z = (rest[: end.start()], rest[end.start() :]) if end else (rest, "")
        words = re.findall(r"[^\W\d_]+", y)
        if words and words[-1].casefold() in PEOPLE_NOUNS:
            # "for hospitalised adults with heart failure", "for low-risk women": the people it is for are
            # the "Z" of whom, not what the question is for
            y, z = "", rest
        if any(w.lower() in _CLAUSE_WORDS for w in re.findall(r"[^\W\d_]+", x + " " + y)):
            continue  # a sentence, not a title: "Time to passage and need for intervention are ..."
        cut = _X_END.search(x)
        x = x[: cut.start()] if cut else x
        of = _X_OF.match(x)
        found.append((x[of.end() :] if of else x, y, z))
    return found


def written_in(phrase: str, text: str) -> bool:
    """Whether `phrase` is written in `text` as whole words, whatever the case."""
    return bool(phrase.strip()) and bool(
        re.search(r"(?<!\w)" + re.escape(phrase.strip()) + r"(?!\w)", text, re.IGNORECASE)
    )


def written_as_the_user_wrote(term: Term, text: str) -> bool:
    """Whether `text` writes a term rendered from Chinese in the words the user wrote (`Term.original`)."""
    return bool(term.original) and term.original in text


def purposes(description: str) -> list[str]:
    """The "Y" of each sentence written "X for Y in Z" (`_x_y_z`)."""
    return [y for _, y, _ in _x_y_z(description)]


# a title's subtitle starts after its first colon, when at least three words come before it
# ("Pulmonary rehabilitation after ... (COPD): readmissions, mortality ..."), not a label's ("Aim: ...")
_COLON = re.compile(r"[:：]\s+")
_SUBTITLE_AFTER_WORDS = 3


def subtitle(description: str) -> str:
    """What a title writes after its colon ("", when it has none): what it reports or how it was
    made ("a systematic review"), said after the question itself."""
    text = description.strip()
    colon = _COLON.search(text)
    if colon is None or len(re.findall(r"[^\W_]+", text[: colon.start()])) < _SUBTITLE_AFTER_WORDS:
        return ""
    return text[colon.end() :].split("\n", 1)[0].strip()


def named_before_for(phrase: str, description: str) -> bool:
    """Whether `phrase` is written in the "X" of "X for Y" (`_x_y_z`): what is done or tested
    ("Metformin", "Red flags", "Urine tests"), which a searcher requires whichever slot the
    understanding filed it in."""
    return any(written_in(phrase, x) for x, _, _ in _x_y_z(description))


# the generic head of a test's name: "serum tests", "Urine tests", "first trimester screening test"
_TEST_HEAD = r"(?:tests?|testing)"


def qualifies_the_test(phrase: str, description: str) -> bool:
    """Whether `phrase` is written in the "X" of "X for Y" before a test's generic head, within two
    words of it ("Second trimester" and "serum" of "Second trimester serum tests for Down's syndrome
    screening", "Urine" of "Urine tests for ..."): it says when or on what the test is done, a
    qualifier of the test the question asks about, not a concept of its own to AND beside the
    target condition."""
    if not phrase.strip():
        return False
    before_head = re.compile(
        r"(?<!\w)" + re.escape(phrase.strip()) + r"(?:\s+[\w'-]+){0,2}?\s+" + _TEST_HEAD + r"\s*$",
        re.IGNORECASE,
    )
    return any(before_head.search(x.strip()) for x, _, _ in _x_y_z(description))


def named_as_the_purpose(phrase: str, description: str) -> bool:
    """Whether `phrase` is written in the "Y" of "X for Y in Z" (`_x_y_z`): what the question is
    for ("malignancy" in "Red flags to screen for malignancy in patients with low-back pain"), which
    defines the topic, as the people "in Z" do not."""
    return any(written_in(phrase, y) for _, y, _ in _x_y_z(description))


# a preposition or "of" ends a title's opening noun phrase ("Thermal modification | of wood")
_OPENING_ENDS = re.compile(r"\b(?:of|" + "|".join(sorted(EN_PREPOSITIONS)) + r")\b|[.?!:;,]", re.IGNORECASE)


def opens_the_title(phrase: str, description: str) -> bool:
    """Whether every content word of `phrase` is written in the noun phrase a description opens with,
    before its first preposition ("Friction and wear | of graphene", "Supply chain disruption and
    resilience | during the pandemic"): the head of a title is what it is about, never only where."""
    words = {w.casefold() for w in content_words(phrase)}
    opening = _OPENING_ENDS.split(description.strip(), maxsplit=1)[0]
    return bool(words) and words <= {w.casefold() for w in content_words(opening)}


# the verbs a researcher says what they study with, right before its object ("I'm a pharmacist studying
# adherence to X", "we investigate burnout in ICU nurses", "our lab works on ..."), and the literature
# they ask for ("and want papers on dendrite suppression")
_STUDYING = re.compile(
    r"\b(?:study|studies|studying|investigate|investigates|investigating|examine|examines|examining|"
    r"research|researches|researching|explore|explores|exploring|(?:work|works|working|focus|focuses|"
    r"focusing)\s+on|(?:papers|articles|studies|literature|publications|evidence|research)\s+"
    r"(?:on|about|regarding))\s+(?:the\s+)?",
    re.IGNORECASE,
)


def named_as_studied(phrase: str, description: str) -> bool:
    """Whether `phrase` is written right after a verb of studying ("studying adherence to direct oral
    anticoagulants"): what the researcher says they study is the topic, as the purpose of a title is."""
    return bool(phrase.strip()) and any(
        description[m.end() :].casefold().startswith(phrase.strip().casefold())
        for m in _STUDYING.finditer(description)
    )


# "caregivers of people with dementia", "parents of children who have autism", "partners of men living
# with prostate cancer": people named by whom they are related to, whose condition is the other people's
_OF_THE_ILL = r"\w*\s+of\s+(?:the\s+|their\s+)?(?:[\w-]+\s+){1,3}?(?:with|who\s+have|who\s+had|living\s+with|affected\s+by)\b"


def related_to_the_ill(phrase: str, description: str) -> bool:
    """Whether the description names `phrase`'s people by a relation to people with a condition
    ("family caregivers of people with dementia"): the condition does not define who is studied, so the
    people are required beside it, as a searcher ANDs Caregivers with Dementia."""
    return bool(phrase.strip()) and bool(
        re.search(rf"\b{re.escape(phrase.strip())}{_OF_THE_ILL}", description, re.IGNORECASE)
    )


# a title that opens with what it measures: "Prevalence of depression among ...", "Risk factors for
# pressure ulcers in ...": at most three words before "of", "for" or "among"
_OPENING_MEASURE = re.compile(
    r"^\s*((?:[\w'-]+\s+){0,2}?[\w'-]+)\s+(?:of|for|among|amongst)\s", re.IGNORECASE
)
_EPIDEMIOLOGIC_METHODS = "E05.318"  # Prevalence, Incidence, Risk Factors, Mortality ...
# the words of an outcome's chance ("Risk of stroke in ...", "Odds of ..."): every study of the outcome
# measures it, so the title asks about the outcome, not for a kind of study (Risk is no block to AND)
_CHANCE_WORDS = word_set("risk risks odds likelihood probability chance chances")


def measure_asked(description: str, vocabulary: MeshVocabulary | None) -> MeshDescriptor | None:
    """The epidemiological measure a title opens with, as MeSH names it under Epidemiologic Methods
    ("Prevalence of depression among medical students": Prevalence; "Risk factors for pressure ulcers":
    Risk Factors): the kind of question, which a searcher ANDs for a review of prevalence, incidence
    or risk factors (the words are generic elsewhere and set aside); None when the title opens so with
    no such heading, or with the chance of its outcome ("Risk of stroke in ...": `_CHANCE_WORDS`)."""
    first = _SENTENCE_END.split(description, maxsplit=1)[0]
    opening = _OPENING_MEASURE.match(first)
    if opening is None or vocabulary is None or opening.group(1).lower() in _CHANCE_WORDS:
        return None
    found = [
        d
        for d in vocabulary.lookup(opening.group(1))
        if any(t.startswith(_EPIDEMIOLOGIC_METHODS) for t in d.tree_numbers)
    ]
    return found[0] if len(found) == 1 else None


# the words that make what follows them the outcome a review predicts: "Frailty as a prognostic factor
# for postoperative mortality", "Prognostic factors for visual outcome", "predictors of death",
# "Is obesity an independent prognostic factor for in-hospital death"
_PREDICTED_AFTER = re.compile(
    r"\b(?:prognostic|predictive)\s+(?:factors?|markers?|indicators?|value|significance)\s+(?:for|of)\s"
    r"|\bpredictors?\s+(?:of|for)\s",
    re.IGNORECASE,
)


# a modifier of what is predicted is no preposition or conjunction ("mortality in older adults": the
# adults are not predicted)
_JOINING_WORDS = EN_PREPOSITIONS | {"and", "or"}


def named_as_predicted(phrase: str, description: str) -> bool:
    """Whether the first sentence writes `phrase` as what is predicted, after the words of a prognostic
    question (`_PREDICTED_AFTER`) and at most three modifiers ("prognostic factor for in-hospital
    death"): the outcome is then what the review is about, even a measure every study reports
    (mortality, death, functional outcome), and a searcher ANDs it beside the condition."""
    first = _SENTENCE_END.split(description, maxsplit=1)[0]
    modifier = rf"(?!(?:{'|'.join(sorted(_JOINING_WORDS))})\s)[\w'-]+\s+"
    return bool(phrase.strip()) and any(
        re.match(rf"(?:{modifier}){{0,3}}?{re.escape(phrase.strip())}\b", first[found.end() :], re.IGNORECASE)
        for found in _PREDICTED_AFTER.finditer(first)
    )


# the nouns of what hinders or helps a practice, a closed class of English ("barriers and facilitators to
# implementing X", "enablers of Y", "obstacles to Z"), and their singulars
_HINDER_OR_HELP = ("barrier", "facilitator", "enabler", "obstacle")
_FACTORS_OF_A_PRACTICE = re.compile(
    r"\b(?:" + "|".join(_HINDER_OR_HELP) + r")s\s+(?:(?:and|or)\s+\w+\s+)?(?:to|of|for)\s",
    re.IGNORECASE,
)


def factors_of_a_practice_asked(description: str) -> list[str]:
    """The nouns of hindrance and help (`_HINDER_OR_HELP`) when the first sentence asks for what hinders
    or helps something ("Barriers and facilitators to implementing X", "Enablers of Y"): the kind of
    question, which a searcher ANDs as those words (MeSH has no heading for them), as a review of risk
    factors ANDs Risk Factors (`measure_asked`); empty otherwise, or where the words name something else
    ("the blood-brain barriers to drugs", "barrier methods": after a hyphenated word, or no preposition
    after them)."""
    first = _SENTENCE_END.split(description, maxsplit=1)[0]
    found = _FACTORS_OF_A_PRACTICE.search(first)
    if found is None or "-" in (first[: found.start()].split() or [""])[-1]:
        return []
    return [noun + "s" for noun in _HINDER_OR_HELP]


# the nouns a qualitative review names its phenomenon of interest with, a closed class of English
# ("Experiences and perceptions of X", "Views of Y", "Parents' perspectives on Z"): what its interviews
# ask about, which a searcher writes as words of the qualitative block (experience*, perception*), not
# as a heading of its own (MeSH's Perception is the psychology of the senses)
PHENOMENON_NOUNS = word_set(
    """
    experience experiences perception perceptions view views perspective perspectives attitude attitudes
    belief beliefs opinion opinions
    """
)


def names_a_phenomenon(term: Term) -> bool:
    """Whether a term is only one of the nouns of a qualitative review's phenomenon (`PHENOMENON_NOUNS`)."""
    return term.canonical.strip().casefold() in PHENOMENON_NOUNS


# a review of qualitative evidence: "a qualitative systematic review", "a qualitative evidence
# synthesis", "a meta-synthesis of qualitative studies", "a meta-ethnography"; not a review that also
# takes quantitative studies ("mixed-methods", "qualitative and quantitative"), nor "qualitative" of
# another kind ("qualitative analysis" of a sample by chromatography)
_QUALITATIVE = re.compile(
    r"\bqualitative\s+(?:systematic\s+)?(?:review|synthes[ie]s|evidence|studies|research)\b"
    r"|\bmeta[- ]?synthes[ie]s\b|\bmeta[- ]?ethnograph",
    re.IGNORECASE,
)
# quantitative studies asked for too, or the qualitative ones only approved beside others ("Qualitative
# studies welcome", "qualitative research is also fine")
_NOT_ONLY_QUALITATIVE = re.compile(
    r"\bquantitative\b|\bmixed[- ]methods?\b"
    r"|\bqualitative\s+(?:studies|research|evidence|data)\s+(?:(?:are|is)\s+)?(?:also\s+)?"
    rf"(?:{'|'.join(sorted(APPROVAL_WORDS))})\b",
    re.IGNORECASE,
)


def qualitative_evidence_asked(description: str, vocabulary: MeshVocabulary | None) -> MeshDescriptor | None:
    """Qualitative Research, when the description asks for qualitative evidence only (`_QUALITATIVE`):
    the studies such a review is made of are interviews and focus groups, and a searcher ANDs the
    design of those primary studies (as a review of trials needs no "trial" block, since trials say so
    in PubMed's publication types, while qualitative studies are found only by their heading and words).
    None otherwise, or without the heading."""
    if (
        vocabulary is None
        or not _QUALITATIVE.search(description)
        or _NOT_ONLY_QUALITATIVE.search(description)
    ):
        return None
    found = vocabulary.lookup("qualitative research")
    return found[0] if len(found) == 1 else None
