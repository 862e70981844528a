"""Which MeSH matches inside a phrase name a concept of it, and which only look as if they did.

Step 3 of `agent.keywords.concepts` (recognise) finds descriptors by their words; a searcher then
reads each match in its phrase: a one-word technique before another is part of its name ("laser
photocoagulation"), a place after a phenomenon is a figure ("urban heat islands"), a people word before
an organism tells the organism's kind ("native bird populations"), a one-word synonym modified by a
word MeSH never writes names something outside MeSH ("perovskite films"), a word outside the trees its
slot expects is another sense ("reinforcement learning"), a condition also filed under health care is
the kind of a thing ("emergency admissions"), and an adjective of old age before a people word is the
age group ("community-dwelling older adults"); and a phrase the understanding cut inside a name gets
back the words of the name the description writes before it ("home residents" of "nursing home
residents"); people named by a participle of what is done to them are that procedure ("hospitalised
patients": Hospitalization); and where a thing is based is a concept beside it when MeSH names the place
only with the thing's head ("home-based palliative care": "home care", Home Care Services), as is a term
MeSH names with the words around a descriptor ("occupational heat exposure": Occupational Exposure, and
the heat); the medium a treatment is delivered through is a concept beside it when MeSH files it
under information science ("app-based mindfulness programmes": Mobile Applications, "web-based CBT":
Internet-Based Intervention, which MeSH names "Web-based Intervention"), and care at a distance named
with tele- and a word MeSH does not write with it is the descriptor of the longer word it begins
("telerehab": Telerehabilitation) or else telehealth ("telemonitoring": Telemedicine); and a broader heading the words name is searched unexploded beside a condition or a
diagnostic procedure, whose papers may leave the kind unsaid, not beside a drug, a food or a therapy of
its own kind ("sugar-sweetened beverages": no Beverages). The rules read MeSH's trees, not lists of
topics.
"""

from __future__ import annotations

import re

from agent.keywords.age_groups import AGE_GROUP_NAMES, qualified_by_an_age
from agent.keywords.concept_roles import INTERVENTION_HEADS, SLOT_TREES
from agent.keywords.phrase_words import FUNCTION_WORDS, GENERIC_PEOPLE, content_words, without_change_head
from agent.language.adjective_nouns import condition_of_adjective
from agent.language.mesh_recognition import HUMANS_TREE, PERSONS_TREE, PLACE_TREES, MeshMatch, MeshVocabulary
from agent.language.morphology import is_acronym
from agent.language.text import word_set
from agent.models import MeshDescriptor
from agent.understanding.lexicon import GIVEN_FORM_NOUNS

# Behavioral Symptoms (F01.145.126): Depression, Aggression, Stress, Psychological, Delusions, ...
BEHAVIORAL_SYMPTOMS_TREE = "F01.145.126"

# Analytical, Diagnostic and Therapeutic Techniques and Equipment: a technique is named after what it
# is done with ("laser photocoagulation", "ultrasound elastography")
_NAMED_AFTER_TREES = ("E",)
# conditions and diagnostic procedures: trees whose headings papers are indexed under when they leave
# the kind unsaid (`indexed_under_when_unspecified`)
_KINDS_LEFT_UNSAID = ("C", "F03", "E01")
# the fewest entry terms NLM writes for a parent that papers name unspecified (see
# `indexed_under_when_unspecified`)
NAMED_PARENT_ENTRIES = 2


def without_name_parts(matches: list[MeshMatch], text: str) -> list[MeshMatch]:
    """A one-word descriptor of a technique or its equipment (E) written right before a last match that
    is a technique too is a part of its name, not a concept beside it: "laser photocoagulation" searches
    Light Coagulation, not Lasers OR Light Coagulation. Only there: two persons are both who is studied
    ("refugee children": Refugees and Child), substances join equals ("methenamine hippurate"), and a
    phenomenon before a place names no kind of the place ("heat islands")."""
    if len(matches) < 2:
        return matches
    last = matches[-1]
    head = {t[0] for t in last.descriptor.tree_numbers} & set(_NAMED_AFTER_TREES)

    def part_of_name(match: MeshMatch) -> bool:
        return (
            len(match.text.split()) == 1
            and match.descriptor.ui != last.descriptor.ui
            and text[match.end : last.start].strip(" -") == ""
            and bool(head & {t[0] for t in match.descriptor.tree_numbers})
        )

    return [m for m in matches[:-1] if not part_of_name(m)] + [last]


def place_in_a_figure(match: MeshMatch, matches: list[MeshMatch], text: str) -> bool:
    """Whether a one-word place (a habitat or a geographic heading: Islands, Deserts) ends the phrase
    right after a descriptor that is neither a place nor a living thing: "urban heat islands" are no
    islands, "food deserts" no deserts; the compound names something MeSH files nowhere, and its words
    are searched as written. A place after an organism or another place stays ("coral islands",
    "river deltas"), and so does one after an adjective, which matches nothing here ("tropical
    islands")."""
    if len(match.text.split()) != 1 or match is not matches[-1] or text[match.end :].strip():
        return False
    if not _a_place(match.descriptor):
        return False
    before = [m for m in matches if m.end <= match.start and not text[m.end : match.start].strip(" -")]
    return bool(before) and not any(
        _a_place(m.descriptor) or any(t.startswith("B") for t in m.descriptor.tree_numbers) for m in before
    )


def form_of_a_given_substance(match: MeshMatch, matches: list[MeshMatch], text: str) -> bool:
    """Whether a match names only the form a substance is given in (`GIVEN_FORM_NOUNS`), written right
    after a substance (MeSH's chemicals and drugs, D): "ketamine infusion" is ketamine given so, no
    Infusions, Parenteral a search would require. Alone, or after anything but a substance, the form
    stays what MeSH names it ("intravenous infusion", "anti-VEGF injections")."""
    if any(word.lower() not in GIVEN_FORM_NOUNS for word in match.text.split()):
        return False
    return any(
        m.end <= match.start
        and not text[m.end : match.start].strip(" -")
        and any(tree.startswith("D") for tree in m.descriptor.tree_numbers)
        for m in matches
    )


def people_word_of_an_organism(match: MeshMatch, matches: list[MeshMatch], text: str) -> bool:
    """Whether a one-word descriptor of persons (M01) stands right before a descriptor of other
    organisms: "native bird populations" are no Indigenous Peoples, "migrant birds" no Transients and
    Migrants; the word tells the animals' or plants' kind, searched with them as written."""
    if len(match.text.split()) != 1:
        return False
    after = next((m for m in matches if m.start >= match.end), None)
    return (
        after is not None
        and not text[match.end : after.start].strip(" -")
        and _people_of_other_organisms(match.descriptor, after.descriptor)
    )


def _people_of_other_organisms(people: MeshDescriptor, organism: MeshDescriptor) -> bool:
    """Whether a descriptor of persons (M01) is said of other organisms, whose kind it then tells."""
    return (
        all(t.startswith(PERSONS_TREE) for t in people.tree_numbers)
        and any(t.startswith("B") for t in organism.tree_numbers)
        and not any(t.startswith((HUMANS_TREE, PERSONS_TREE)) for t in organism.tree_numbers)
    )


def _a_place(descriptor: MeshDescriptor) -> bool:
    return any(t.startswith((*PLACE_TREES, "Z01")) for t in descriptor.tree_numbers)


def beyond_mesh(match: MeshMatch, text: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether a one-word synonym match is modified by a word MeSH never uses ("perovskite films" is no
    Motion Pictures, "tafenoquine schedule" no Appointments and Schedules): the phrase names something
    outside MeSH, and its words are searched as written."""
    if vocabulary is None or match.via != "entry term" or len(match.text.split()) != 1:
        return False
    before = content_words(text[: match.start])
    return bool(before) and not is_acronym(before[-1]) and not vocabulary.knows_word(before[-1])


def other_sense(match: MeshMatch, text: str, slot: str, vocabulary: MeshVocabulary | None = None) -> bool:
    """Whether one word of a longer phrase names a descriptor outside the trees its slot expects, and
    nothing concrete (no anatomy, organism, disease, substance or behavioural symptom): another sense of the
    word ("reinforcement learning" as an algorithm is neither
    Reinforcement, Psychology nor Learning; "hospital data" as a measurement is no Hospitals), so the
    phrase is searched as written. Not when the other words only say whose it is by their age
    ("childhood vaccination" is vaccination: `_names_an_age`)."""
    expected = SLOT_TREES.get(slot, ())
    if not expected or len(match.text.split()) != 1 or len(content_words(text)) < 2:
        return False
    trees = match.descriptor.tree_numbers
    # anatomy, organisms, diseases, substances, and the symptoms people show (Behavioral Symptoms:
    # "perinatal depression", "patient aggression"), which are what people have as a disease is
    concrete = any(t.startswith(("A", "B", "C", "D", BEHAVIORAL_SYMPTOMS_TREE)) for t in trees)
    if concrete or any(t.startswith(expected) for t in trees):
        return False
    others = [w for w in content_words(text) if w.lower() != match.text.lower()]
    return vocabulary is None or not all(_names_an_age(w, vocabulary) for w in others)


def _names_an_age(word: str, vocabulary: MeshVocabulary) -> bool:
    """A word for an age group MeSH names (Age Groups, M01.060): "adolescent", "youth", or its abstract
    noun ("childhood", "adulthood": -hood; "infancy": -ancy for -ant)."""
    stems = [word]
    if word.lower().endswith("hood"):
        stems.append(word[:-4])
    if word.lower().endswith("ancy"):
        stems.append(word[:-4] + "ant")
    return any(
        t.startswith(_AGE_GROUPS_TREE)
        for stem in stems
        for d in vocabulary.lookup(stem)
        for t in d.tree_numbers
    )


def health_care_sense(match: MeshMatch) -> bool:
    """Whether a condition descriptor is also filed under health care (N): "emergency" in "emergency
    hospital admissions" is the kind of admission (Emergencies, N06), not a condition beside it; such
    a word modifying a head MeSH does not name stays in the phrase, which is searched as written."""
    return any(t.startswith("N") for t in match.descriptor.tree_numbers)


# English adjectives of old age, which MeSH writes only as "Elderly" (an entry term of Aged): "older
# adults", "older people", "old patients", "older women" are the age group, a population, as "elderly
# people" is
_OLD_AGE = frozenset({"old", "older", "oldest", "elder"})
_AGE_GROUPS_TREE = PERSONS_TREE + ".060"  # Age Groups: "older children" are children, not the aged


def _names_people(word: str, vocabulary: MeshVocabulary) -> bool:
    """A generic people word, or a word MeSH files under Persons but not as an age group ("women")."""
    if word.lower() in GENERIC_PEOPLE:
        return True
    trees = [t for d in vocabulary.lookup(word) for t in d.tree_numbers]
    return any(t.startswith(PERSONS_TREE) for t in trees) and not any(
        t.startswith(_AGE_GROUPS_TREE) for t in trees
    )


def age_group(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The age group a phrase ending in an adjective of old age and a people word names ("older adults",
    "community-dwelling older adults": the words before qualify them), as a match of those two words,
    or []. People MeSH names as a group of their own keep it beside their age ("older inpatients":
    Aged, a match of the adjective alone, and Inpatients)."""
    words = text.split()
    if len(words) < 2 or words[-2].lower() not in _OLD_AGE or not _names_people(words[-1], vocabulary):
        return []
    start = len(text) - len(" ".join(words[-2:]))
    aged = vocabulary.lookup("elderly")[:1]
    named = vocabulary.lookup(words[-1])
    if words[-1].lower() not in GENERIC_PEOPLE and named and not any(qualified_by_an_age(d) for d in named):
        # "older inpatients": the age of people MeSH names a group of its own, searched by the age
        # group's usual name (the adjective alone is no term)
        end = start + len(words[-2])
        return [
            MeshMatch(AGE_GROUP_NAMES.get(d.heading, text[start:end]), start, end, d, "entry term")
            for d in aged
        ]
    return [MeshMatch(text[start:], start, len(text), d, "entry term") for d in aged]


def people_defined_by(reaching: MeshMatch, replaced: MeshMatch) -> bool:
    """Whether a term of persons (M01) that reaches the head of a phrase from inside a longer match
    names people the match defines: "kidney transplant recipients" are the recipients of a Kidney
    Transplantation, not any Transplant Recipients; "organ" + "procedure" + "people" is searched as the
    procedure, and the people word is generic beside it. A term that is no persons descriptor takes
    the head as before ("bone fracture healing": Fracture Healing)."""
    persons = all(t.startswith(PERSONS_TREE) for t in reaching.descriptor.tree_numbers)
    return persons and replaced.start < reaching.start and replaced.descriptor.ui != reaching.descriptor.ui


def reading_to_the_head(
    matches: list[MeshMatch], text: str, words: list[str], vocabulary: MeshVocabulary | None
) -> tuple[list[MeshMatch], bool]:
    """The matches of a phrase read up to its head, and whether they hold the head. "blood pressure
    control": what is done to a descriptor's thing; the thing is the concept. "bone fracture healing":
    Fracture Healing, which takes the head in, replaces Fractures, Bone; but people a match defines
    keep it ("kidney transplant recipients": `people_defined_by`)."""
    covered = {w.lower() for m in matches for w in content_words(m.text)}
    if without_change_head(words)[-1].lower() in covered or a_class_noun_after(text, matches[-1]):
        return matches, True
    reaching = vocabulary.reaching_the_head(text, matches[-1]) if vocabulary is not None else None
    if reaching is None:
        return matches, False
    if people_defined_by(reaching, matches[-1]):
        return matches, True
    return [*matches[:-1], reaching], True


# nouns that only say that what the words before them name is a method of its kind ("machine learning
# models", "deep learning algorithms", "regression models"), or how a condition shows ("anxiety
# symptoms", searched as Anxiety as "depressive symptoms" is an entry term of Depression): English heads
# that add no concept, each after the kind of descriptor it classes
CLASS_NOUNS = word_set(
    "model models system systems algorithm algorithms approach approaches method methods technique techniques"
)
SYMPTOM_NOUNS = word_set("symptom symptoms")
# the trees of methods a class noun names again (techniques and therapies, mathematical and computing
# methods, the organisation and delivery of care: "continuity of care models"); after anything else a
# "model" is a model of the thing ("large language models" are no Language, "climate models" no Climate)
_METHOD_TREES = ("E", "G17", "L01.224", "N02", "N03", "N04", "N05")
# the trees of conditions whose symptoms are the condition (diseases, behaviours and mental disorders)
_CONDITION_TREES = ("C", "F01", "F03")


def a_class_noun_after(text: str, match: MeshMatch) -> bool:
    """Whether `text` ends in one class noun written right after `match` ("machine learning models":
    Machine Learning itself; "anxiety symptoms": Anxiety). A class noun after a word MeSH names with it
    is matched whole before this is asked ("animal models": Models, Animal)."""
    at = text.casefold().rfind(match.text.casefold())
    after = text[(at + len(match.text) if at >= 0 else match.end) :].split()
    if len(after) != 1:
        return False
    trees = match.descriptor.tree_numbers
    noun = after[0].lower()
    if noun in SYMPTOM_NOUNS:
        return any(t.startswith(_CONDITION_TREES) for t in trees)
    return noun in CLASS_NOUNS and any(t.startswith(_METHOD_TREES) for t in trees)


# the one or two words the description writes right before a phrase, in the same clause
_WORDS_BEFORE = re.compile(r"(?:^|[\s(])((?:[A-Za-z][\w'-]*\s+){1,2})$")


def widened_to_a_name(text: str, description: str, vocabulary: MeshVocabulary | None) -> str:
    """`text` with the word (or two) the description writes right before it, where a MeSH term starts
    in those words and ends inside `text`: the understanding cut the phrase inside a name ("home
    residents" of "nursing home residents" is cut inside Nursing Homes); else `text` unchanged. The MeSH
    term starts at a word, never inside a hyphenated one: "hypotension" of "spinal anaesthesia-induced
    hypotension" is the effect `_cause_and_effect` split off, not a cut of Induced Hypotension (widened
    so, the split came back to it without end)."""
    at = description.casefold().find(text.casefold()) if text.strip() else -1
    found = _WORDS_BEFORE.search(description[:at]) if at > 0 and vocabulary is not None else None
    if found is None or vocabulary is None:
        return text
    words = found.group(1).split()
    for count in (1, 2)[: len(words)]:
        before = words[-count:]
        if any(w.lower() in FUNCTION_WORDS for w in before):
            break
        prefix = " ".join(before) + " "
        widened = prefix + text
        starts = {0} | {i + 1 for i, c in enumerate(prefix) if c == " "}
        if any(
            m.start in starts and m.start < len(prefix) - 1 < m.end - 1 for m in vocabulary.recognize(widened)
        ):
            return widened
    return text


# English nouns of action from participles: "hospitalised" -> "hospitalisation", "vaccinated" -> "vaccination"
_PARTICIPLE_TO_ACTION = ((re.compile(r"(i[sz])ed$"), r"\1ation"), (re.compile(r"ated$"), "ation"))
_PROCEDURES = "E"  # Analytical, Diagnostic and Therapeutic Techniques: what is done to people


def procedure_undergone(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The procedure a participle before a generic people word names, where MeSH has the participle's
    noun of action as a procedure ("hospitalised patients" -> Hospitalization, "intubated patients" ->
    Intubation; not "ventilated patients": Ventilation is the air's); [] otherwise, and where the people
    word is no generic one ("vaccinated children": the children are the concept)."""
    words = text.split()
    if len(words) != 2 or words[1].lower() not in GENERIC_PEOPLE:
        return []
    for pattern, replacement in _PARTICIPLE_TO_ACTION:
        noun = pattern.sub(replacement, words[0].lower())
        if noun == words[0].lower():
            continue
        found = [d for d in vocabulary.lookup(noun) if any(t.startswith(_PROCEDURES) for t in d.tree_numbers)]
        if len(found) == 1:
            return [MeshMatch(words[0], 0, len(words[0]), found[0], "entry term")]
    return []


def condition_of_people(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The condition an adjective before a generic people word names by its noun, where MeSH has that
    noun as a condition or a state of the person (`agent.language.adjective_nouns`: "obese adults" ->
    Obesity, "hypertensive patients" -> Hypertension): the people are searched by what they have; []
    otherwise, and where the people word is no generic one."""
    words = text.split()
    if len(words) != 2 or words[1].lower() not in GENERIC_PEOPLE:
        return []
    found = condition_of_adjective(words[0], vocabulary)
    return [MeshMatch(words[0], 0, len(words[0]), found, "entry term")] if found is not None else []


_AGE_GROUPS_TREE = PERSONS_TREE + ".060"  # people by age: `age_groups` reads them from the ages written


def people_named_by_adjective(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The people an adjective before a generic people word names, where MeSH writes the adjective
    with "people" or "persons" as the entry term of a heading of persons ("homeless adults" ->
    Ill-Housed Persons, as "homeless people"; "transgender adults" -> Transgender Persons): the adjective
    is who is studied, the people word only its head; [] otherwise, and for the age groups."""
    words = text.split()
    if len(words) != 2 or words[1].lower() not in GENERIC_PEOPLE:
        return []
    found = {
        d.ui: d
        for noun in ("people", "persons")
        for d in vocabulary.lookup(f"{words[0]} {noun}")
        if people_of_a_kind(d) and not any(t.startswith(_AGE_GROUPS_TREE) for t in d.tree_numbers)
    }
    if len(found) != 1:
        return []
    (descriptor,) = found.values()
    return [MeshMatch(text, 0, len(text), descriptor, "entry term")]


# how MeSH names the specialty of nurses and of doctors: "Oncology Nursing", "Emergency Medicine"
_SPECIALTY_NAMES = {
    "nurse": "nursing",
    "nurses": "nursing",
    "physician": "medicine",
    "physicians": "medicine",
    "doctor": "medicine",
    "doctors": "medicine",
}
_HEALTH_OCCUPATIONS = "H02"


def professionals_of_a_specialty(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """Nurses or doctors named by their specialty, where MeSH names the specialty with the field's
    words ("oncology nurses" -> Oncology Nursing, "intensive care nurses" -> Critical Care Nursing,
    "emergency physicians" -> Emergency Medicine): MeSH indexes the studies of those professionals
    under the specialty, and the field's words alone name another thing ("emergency" is Emergencies,
    a situation) or nothing at all ("oncology" had been dropped). [] when MeSH names no such specialty."""
    words = text.split()
    name = _SPECIALTY_NAMES.get(words[-1].lower()) if len(words) > 1 else None
    if name is None:
        return []
    found = [
        d
        for d in vocabulary.lookup(" ".join([*words[:-1], name]))
        if any(t.startswith(_HEALTH_OCCUPATIONS) for t in d.tree_numbers)
    ]
    return [MeshMatch(text, 0, len(text), found[0], "entry term")] if len(found) == 1 else []


# the second half of a compound adjective a match opens: "-led", "-delivered", "-run"
_COMPOUND_REST = re.compile(r"^-[a-z]+\s+", re.IGNORECASE)


def words_after(text: str, end: int) -> str:
    """The words of `text` after a match that ends at `end`, without the rest of a compound adjective
    the match opens ("Nurse-led telephone follow-up": "telephone follow-up", not "-led telephone
    follow-up"): a fragment no abstract writes alone."""
    return _COMPOUND_REST.sub("", text[end:])


# "home-based", "school-based": what a thing is based in, written before it
_BASED_IN = re.compile(r"\b([^\W\d_]+)[-\s]based\b", re.IGNORECASE)


def based_in_a_name(text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary) -> MeshMatch | None:
    """Where a thing is based, when MeSH names it only with the thing's head: "home-based specialist
    palliative care" is care at home, and "home care" is an entry term of Home Care Services, a concept
    beside Palliative Care that "home" alone names nothing of. None when a match already holds the word
    ("school-based programmes": Schools) or MeSH names no such phrase ("web-based therapy")."""
    found = _BASED_IN.search(text)
    if found is None or any(m.start <= found.start(1) < m.end for m in matches):
        return None
    after = text[found.end() :].split()
    for size in range(min(2, len(after) - 1), 0, -1):  # the head: its last one or two words
        phrase = f"{found.group(1)} {' '.join(after[-size:])}"
        named = vocabulary.recognize(phrase)
        if len(named) == 1 and named[0].text.casefold() == phrase.casefold():
            return MeshMatch(found.group(0), found.start(), found.end(), named[0].descriptor, named[0].via)
    return None


# "app-based", "web-based", "internet-delivered": the medium a treatment reaches people through
_DELIVERED_THROUGH = re.compile(r"\b([^\W\d_]+)[-\s](?:based|delivered)\b", re.IGNORECASE)
# Information Science (L01): the media MeSH files an intervention's channel under (Internet, Mobile
# Applications, Internet-Based Intervention), not what the treatment is
_MEDIA_TREE = "L01"
# how MeSH names an intervention by its medium ("Web-based Intervention", "Online Intervention")
_BY_MEDIUM = ("{}-based intervention", "{} intervention")
# Therapeutics (E02) and Behavioral Disciplines and Activities (F04, psychotherapy): what a medium
# delivers; not all of E, whose data collection ("web-based surveys") is no treatment
_THERAPY_TREES = ("E02", "F04")


def medium_of_delivery(text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary) -> MeshMatch | None:
    """The medium a treatment is delivered through, a concept beside the treatment: "app-based
    mindfulness programmes" are mindfulness AND Mobile Applications, "web-based cognitive behavioural
    therapy" CBT AND Internet-Based Intervention. The medium is the word before "-based" or
    "-delivered" that no match holds, read as MeSH names an intervention by its medium ("Web-based
    Intervention", "Online Intervention") or, failing that, as the one descriptor whose terms all end in
    it ("app": "Mobile Apps", "Smartphone Apps" of Mobile Applications); only a descriptor of
    information science (L01), so that "psychological" ("Psychological Intervention") or "home" is
    none, and only before a treatment: an intervention head, an acronym ("web-based CBT") or a match of
    a therapy (E02, F04) after it ("web-based surveys" name no medium of care)."""
    found = _DELIVERED_THROUGH.search(text)
    if found is None or any(m.start <= found.start(1) < m.end for m in matches):
        return None
    after = [m for m in matches if m.start >= found.end()]
    rest = text[found.end() :].split()
    treated = any(w.casefold() in INTERVENTION_HEADS or is_acronym(w) for w in rest) or any(
        t.startswith(_THERAPY_TREES) for m in after for t in m.descriptor.tree_numbers
    )
    if not treated:
        return None
    word = found.group(1)

    def media(descriptors: list[MeshDescriptor]) -> list[MeshDescriptor]:
        return [d for d in descriptors if any(t.startswith(_MEDIA_TREE) for t in d.tree_numbers)]

    named = {d.ui: d for name in _BY_MEDIUM for d in media(vocabulary.lookup(name.format(word)))}
    if not named:
        ending = vocabulary.ending_in(word)
        named = {d.ui: d for d in media(ending)} if len(ending) == 1 else {}
    if len(named) != 1:
        return None
    (descriptor,) = named.values()
    return MeshMatch(found.group(0), found.start(), found.end(), descriptor, "entry term")


# "telemonitoring", "telerehab", "tele-practice": care at a distance, named with the prefix tele-
_TELE_WORD = re.compile(r"\btele-?([^\W\d_]{4,})\b", re.IGNORECASE)
# MeSH's own tele- word for care at a distance in general (an entry term of Telemedicine)
_AT_A_DISTANCE = "telehealth"


def at_a_distance(text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary) -> MeshMatch | None:
    """Care at a distance a description names with the prefix tele- and a word MeSH does not write
    with it: the one descriptor MeSH names with a longer word the tele- word begins ("telerehab":
    Telerehabilitation), else, when the rest is a word MeSH writes ("telemonitoring", "telepractice"),
    telehealth, MeSH's Telemedicine. Such words had been searched as free text alone, or dropped. None
    for a tele- word MeSH knows ("telephone") or a match holds, and for a rest MeSH never writes
    ("teleost")."""
    for found in _TELE_WORD.finditer(text):
        if vocabulary.knows(found.group(0)) or any(m.start <= found.start() < m.end for m in matches):
            continue
        rest = found.group(1)
        longer = {d.ui: d for w in vocabulary.words_beginning(f"tele{rest}") for d in vocabulary.lookup(w)}
        if len(longer) != 1:
            longer = (
                {d.ui: d for d in vocabulary.lookup(_AT_A_DISTANCE)} if vocabulary.knows_word(rest) else {}
            )
        if len(longer) == 1:
            (descriptor,) = longer.values()
            return MeshMatch(found.group(0), found.start(), found.end(), descriptor, "entry term")
    return None


def named_around(text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary) -> MeshMatch | None:
    """A term MeSH names with the words on either side of a descriptor, which stands inside it:
    "occupational heat exposure" is heat AND an occupational exposure (Occupational Exposure, its entry
    term "occupational exposure" written around Hot Temperature's "heat"). Only one plain word each side
    that no other match holds ("school-based physical activity programmes": Schools holds "school"), and
    only where the two words are exactly one descriptor's name, not people said of other organisms
    ("native bird populations": no Indigenous Peoples, as in `people_word_of_an_organism`)."""
    for match in matches:
        before = re.search(r"([A-Za-z]+)\s+$", text[: match.start])
        after = re.match(r"\s+([A-Za-z]+)\b", text[match.end :])
        if before is None or after is None:
            continue
        start, end = before.start(1), match.end + after.end(1)
        if any(m is not match and m.start < end and start < m.end for m in matches):
            continue
        phrase = f"{before.group(1)} {after.group(1)}"
        named = vocabulary.recognize(phrase)
        if (
            len(named) == 1
            and named[0].text.casefold() == phrase.casefold()
            # "native bird populations": no Indigenous Peoples written around Birds
            and not _people_of_other_organisms(named[0].descriptor, match.descriptor)
        ):
            return MeshMatch(text[start:end], start, end, named[0].descriptor, named[0].via)
    return None


# a kind of people MeSH divides into this many kinds or more right below it is a category of kinds
PEOPLE_CATEGORY_KINDS = 10


def people_of_a_kind(descriptor: MeshDescriptor) -> bool:
    """Whether `descriptor` is a heading of persons (M01), whose tree parent is no broader search for
    them: MeSH's age groups are bands side by side ("Child" is 6 to 12 years, "Child, Preschool" 2
    to 5 years below it in the tree; "Infant" and "Infant, Newborn" likewise), and people of a kind
    ("pregnant women", "primary care physicians", "community health nurses") are indexed as that kind,
    so that their parent group (Women, Physicians, Nurses) unexploded adds only the other people."""
    return any(t.startswith(PERSONS_TREE + ".") for t in descriptor.tree_numbers)


def indexed_under_when_unspecified(parent: MeshDescriptor) -> bool:
    """Whether papers on a narrower heading may be indexed under `parent` when they leave the kind
    unsaid, so that a searcher adds the parent unexploded beside it: MeSH's conditions (C, F03: a paper on
    "tuberculosis" in the lungs, on "lung cancer" of one cell type) and diagnostic procedures (E01:
    "tomography" before a named kind of it). Elsewhere the narrower heading names another thing than
    its parent left unspecified: a drug of its own (Heparin, Low-Molecular-Weight), a food or a diet
    (Sugar-Sweetened Beverages, Diet, Mediterranean), a phenomenon or a social category (Child
    Mortality, Intimate Partner Violence), a therapy or a service (Rehabilitation, Vocational), and
    the parent unexploded adds only its other kinds.

    Only a parent that NLM writes under `NAMED_PARENT_ENTRIES` entry terms or more is a name papers use
    for the unspecified thing (Tuberculosis: "Koch's disease"; Pain; Back Pain; Dementia); a parent
    with at most one entry term is a node that groups its kinds (Dermatitis, Embolism, Infarction,
    Thromboembolism, Tomography), under which a paper that names no kind is rarely indexed, because
    papers name the kind ("atopic dermatitis", "pulmonary embolism"): on the training topics 15 of 17
    such parents were headings the expert did not search."""
    return (
        any(t.startswith(_KINDS_LEFT_UNSAID) for t in parent.tree_numbers)
        and len(parent.entry_terms) >= NAMED_PARENT_ENTRIES
    )


def people_category(descriptor: MeshDescriptor, vocabulary: MeshVocabulary) -> bool:
    """Whether `descriptor` is a heading of persons (M01) that MeSH divides into many kinds right below
    it (Occupational Groups: Health Personnel, Farmers, Sex Workers, ... 25 of them; Population
    Groups), so that the one word it is written with ("workers", "employees") names no group of people
    a search is about: "link workers" and "peer support workers" are no Occupational Groups a searcher
    would explode, and "healthcare workers" is Health Personnel without Occupational Groups beside it.
    A kind of people MeSH files flat (Refugees, Women, Caregivers) is a concept."""
    return any(t.startswith(PERSONS_TREE + ".") and t.count(".") == 1 for t in descriptor.tree_numbers) and (
        len(vocabulary.children(descriptor)) >= PEOPLE_CATEGORY_KINDS
    )
