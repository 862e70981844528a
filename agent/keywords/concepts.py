"""From understood slots to search concepts: what a searcher ANDs, what they OR, and what they leave out.

Slots are the PRD's schema for *understanding* a description; a Boolean query is built from
*concepts*. A slot may hold several concepts ("CBT versus antidepressants for major depression" has
an intervention, a comparator and a condition), and a concept is one OR block of a heading and its
synonyms. The steps, for every phrase of every slot:

1. **cut** the phrase where it compares or qualifies: "versus", "vs", "compared with" separate
   concepts, whose sides share a head or modifier where MeSH names the result ("regional versus
   general anaesthesia": regional anaesthesia, `coordination.distribute`); "with" separates a population from its condition ("patients with epilepsy": the
   condition is searched, the people word is no term beside it), and an action from the means it is
   done with ("vector control with Wolbachia": an intervention); a participle that starts a
   post-modifier separates the noun it qualifies from its complement ("therapy delivered online",
   "E. coli isolated from broiler chickens": `phrase_words.cut_after_participle`);
2. **set aside** what is not a concept (`agent.keywords.phrase_words`): words that say which *kind
   of study* is wanted (systematic review, meta-analysis, randomised trial, diagnostic accuracy: kept
   as `StudyFilter`s the user can switch on, never AND'ed), counts and time spans ("6046 women", "six
   decades"), and generic words that every paper of a field shares ("treatment", "patients",
   "detection", "tests"), except a measuring head after a word MeSH writes only inside its terms, which
   names a task of another field ("intrusion detection", "fault diagnosis": `phrase_words.names_a_task`);
   a word MeSH only writes before a head ("rapid", "physical") takes its head
   from the description ("rapid tests") or stays an optional concept, never a required one, as does a
   phrase of general words beside an abstract noun or a participle ("resectability diagnosis",
   "resistance detection");
3. **recognise** MeSH descriptors inside what is left (`agent.language.mesh_recognition`), not the noun
   of a hyphenated modifier before another noun ("early-life exposure": no Life); a
   descriptor's tree gives the concept's **role** (`ConceptRole`, `agent.keywords.concept_roles`): C
   and F03 a condition, D an intervention, E and L a method, M01 a population, A anatomy, G/F01/F02 an
   outcome, N and Z a setting, as is a population phrase headed by a place or an organisation ("in
   technology firms": where the people are, not who). A phrase whose last word is not part of a descriptor ("speech
   decoding"), or in which a noun no descriptor holds stands between two ("fatigue crack growth":
   no Fatigue AND Growth), stays one free-text concept whose role is its slot's, searched as written OR
   as the compound it is built on (`phrase_words.searchable_core`: "adaptive traffic signal control",
   "soil moisture retrieval": traffic signal control, soil moisture) (a context phrase headed by a
   disease noun is a condition: "scaphoid fractures"; one headed by a word that only one family of
   headings ends is that family's root, the phrase searched beside it: "dentine caries", Dental Caries,
   `mesh_families.head_family_root`); a descriptor with extra modifiers ("invasive
   aspergillosis") keeps the phrase as a term beside the heading, and one noun before the head outside
   the trees whose kinds are searched by the head's word makes the phrase the words searched, the bare
   head left to the heading ("minimum wage": Salaries and Fringe Benefits OR "minimum wage"; the one descriptor before an
   intervention noun is the concept: "gait training" is Gait, what the training is done on), as does a
   phrase MeSH does not name built on a descriptor ("mindfulness-based stress reduction": Mindfulness; but when its head is a word no MeSH
   term holds, a kind of that thing, a concept of its own beside what it is made with: "bacteria-based
   self-healing concrete" is the concrete AND the bacteria; and a thing based in a place MeSH files
   as a setting is no kind of the place: "community-based walking groups" is the community AND the
   walking groups), except that a kind of a computing
   method MeSH files under one coarse heading ("graph neural networks") is searched as written. Where one
   phrase may name several descriptors, the one under the trees its slot expects wins (`SLOT_TREES`). A context phrase the
   description names as an exposure ("the effect of X on Y", "effectiveness of X", "exposure to X",
   "X and the risk of Y", "does X improve Y": any verb of effect) is an intervention (`is_exposure`), as is a free-text phrase headed by an
   intervention noun ("peer support programmes"), and so is the head of the "X" of a title "X for Y"
   whose role comes out weak ("Red flags to screen for malignancy", "Exercise for depression": what is
   done, or in a diagnostic question the test, a method; `named_before_for`), as is an algorithm
   written there ("Federated learning for intrusion detection": the method); a descriptor MeSH files
   as a setting takes the role of the slot holding it ("employment" as the outcome); a specimen or
   organ before an acronym MeSH does not know is a concept apart from it ("Blood CEA levels": CEA,
   measured in blood); and an adjective left beside a descriptor whose noun MeSH files as a condition
   ("recurrent colorectal cancer": Recurrence, `agent.language.adjective_nouns`) is a condition apart;
4. **group** (`agent.keywords.concept_grouping`): terms of one role from one slot are one concept when the description lists them
   together ("ECoG and sEEG", "bursa, tendon or labrum" are one block each); different roles, the two
   sides of "versus" (but not the tests a question of diagnosis compares: a comparative accuracy review
   takes the studies of either; nor two active treatments of one MeSH category, "family-based treatment
   versus individual CBT", "DOACs versus warfarin", which a searcher ORs into one intervention block,
   also when the understanding read the sides as two phrases: `_alternatives`), phrases the description writes apart ("red flags to screen for vertebral
   fracture") and the descriptors of one compound phrase from different MeSH trees ("sugar-sweetened
   beverage taxes": the drinks and the tax) are different concepts; a prediction of another concept
   ("formation energy prediction" beside "formation energy") joins that concept's block; a second name
   the title writes in brackets after a phrase ("natural gas development (fracking)", "graduated driver
   licensing (GDL)") is the user's synonym of that phrase's term (`agent.keywords.bracketed_aliases`);
5. **decide which are required** (`concept_roles.decide_required`), as a searcher does: conditions,
   organisms, interventions and methods are AND'ed (after the ages the description writes are folded
   into one population block of the MeSH age groups they overlap, `agent.keywords.age_groups`:
   "children under five" is Infant OR Child, Preschool; an age range within adulthood, "adults aged 40
   to 70", only narrows); outside a question of a test's accuracy, so are the
   people and the place a review names by a heading of their own ("in preterm infants", "in the
   emergency department": `concept_roles.named_who_or_where`), and the epidemiological measure a
   title opens with ("Prevalence of ...", "Risk factors for ...": `title_template.measure_asked`), a
   concept of its own although its words are generic elsewhere, as is the design of the primary
   studies a qualitative review asks for (Qualitative Research and "qualitative":
   `title_template.qualitative_evidence_asked`); otherwise a population is AND'ed only when there is no
   condition (the condition usually *is* the population of a review; not a microbe beside the animals
   it is found in: "Salmonella from poultry", where the host and, with no disease, the outcome are
   required), and never when it is only
   generic people words; in a diagnostic question a condition named only as who is tested ("in
   people with mild cognitive impairment") only narrows when another condition is the target the test
   must find; an outcome is AND'ed when there is no condition (it names the topic:
   "vitamin D and fracture risk") or when the description writes it as the "Y" of "X for Y in Z", what
   the question is for ("Red flags to screen for malignancy in patients with low-back pain":
   `named_as_the_purpose`), unless it is one of the outcomes a title lists, after its colon or several
   as its purpose ("...: recurrence and major bleeding", "for speech perception and quality of life":
   `outcome_lists`), which the studies report and a searcher leaves out (but the kinds a subtitle
   lists of a class of outcomes named before its colon join that class's block: "adverse birth
   outcomes: preterm birth, low birth weight and birth defects"); so is a context phrase the
   understanding could file nowhere else when it is that "Y" ("for autonomous driving": the topic, not
   a place that narrows); the analysis algorithm the
   user applies, other outcomes, anatomy
   and settings only narrow and are optional, as are what the studies are compared with ("compared
   with health education", "than placebo"), a comparator of "versus" named only by a generic head
   ("versus usual care") and the instrument an outcome is measured with ("STAI scores"), except that an
   algorithm is required when no intervention or method names what is done ("building a chatbot to
   reduce depressive symptoms"), and that while fewer than two concepts are required they are promoted
   in that order. A concept a description names only where it says how its own study is done ("We
   would use motion-triggered cameras ...", "Disease severity will be scored in field trials in
   Ethiopia": `agent.keywords.study_procedures`) only narrows, unless the rest names too little to
   search on. (A zero-hit block is relaxed or dropped, with a note, when the
   databases are counted: `agent.keywords.query_check`.) Nothing is dropped silently: an optional
   concept stays in the plan, marked, with the reason;
6. **split a site from its lesion** (`agent.keywords.site_and_lesion`): a required condition named by
   a body part and a lesion MeSH files it under ("oral cavity cancer", "hepatic fibrosis") gets the
   site as a required block beside it, both blocks keeping the condition's terms, so the query finds
   the heading or the site and the lesion written apart ("carcinoma of the mouth"); a required free-text
   concept headed by an adjective of a body part ("urinary biomarkers") is the part AND the rest
   (`split_named_parts`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from agent.keywords.age_groups import age_population, only_adulthood
from agent.keywords.bracketed_aliases import add_bracketed_aliases
from agent.keywords.care_acts import act_of_patient_care
from agent.keywords.concept_grouping import (
    Draft,
    concept_id,
    fold_predictions_into_what_they_predict,
    group_drafts,
    merge_drafts,
)
from agent.keywords.concept_roles import (
    INTERVENTION_HEADS,
    MIN_REQUIRED,
    PLACE_HEADS,
    REQUIRED_ROLES,
    SLOT_ROLE,
    SLOT_TREES,
    a_period_of_life_named,
    a_time_of_an_epidemic,
    apart_in_mesh,
    asks_about_a_test,
    asks_for_a_diagnosis,
    characteristics_of_the_thing,
    decide_required,
    head_is_a_condition,
    in_a_control_arm,
    is_acted_on,
    is_chinese_comparator,
    is_comparator,
    is_compared_first,
    is_detected,
    is_exposure,
    is_generic_people,
    is_prevented,
    is_usual_care,
    kinds_of_people,
    left_out_reason,
    looks_for_the_pathogen,
    meant,
    named_who_or_where,
    names_a_study_design,
    names_a_tradition,
    names_nothing,
    names_only_organisms,
    names_the_concept,
    names_their_specialty,
    study_filter,
    taken_either_way,
    the_peoples_one_condition,
)
from agent.keywords.coordination import (
    alternatives,
    around_an_alias,
    distribute,
    kinds_of_one_head,
    listed_together,
    modifiers_after_their_head,
    related_pairs,
    slashed_series,
)
from agent.keywords.example_lists import (
    kinds_after_a_generic_class,
    kinds_given_as_examples,
    kinds_of_an_unnamed_class,
)
from agent.keywords.field_of_description import (
    another_fields_sense,
    compound_before,
    entry_of_another_field,
    names_biomedicine,
)
from agent.keywords.outcome_lists import (
    CAUSE_PARTICIPLE,
    kinds_listed_after_the_colon,
    listed_outcomes,
    outcomes_listed_with_a_condition,
)
from agent.keywords.phrase_matches import (
    a_class_noun_after,
    age_group,
    at_a_distance,
    based_in_a_name,
    beyond_mesh,
    condition_of_people,
    form_of_a_given_substance,
    health_care_sense,
    indexed_under_when_unspecified,
    medium_of_delivery,
    named_around,
    other_sense,
    people_category,
    people_named_by_adjective,
    people_of_a_kind,
    people_word_of_an_organism,
    place_in_a_figure,
    procedure_undergone,
    professionals_of_a_specialty,
    reading_to_the_head,
    widened_to_a_name,
    without_name_parts,
    words_after,
)
from agent.keywords.phrase_words import (
    AGENT_PARTICIPLES,
    EVALUATIVE_WORDS,
    GENERIC_PEOPLE,
    GENERIC_WORDS,
    PEOPLE_NOUNS,
    PROVISION_HEADS,
    a_source_of_evidence_beside_a_design,
    content_words,
    cut_after_participle,
    names_its_agent,
    noun_between,
    only_comparative,
    people_only,
    publication_years,
    searchable_core,
    set_aside,
    strip_generic_edges,
    turned_back,
    with_head,
    without_approval,
    without_take_up,
    without_the_act_of_taking,
)
from agent.keywords.reference_standards import reference_standards
from agent.keywords.repeated_acronyms import join_repeated_acronyms
from agent.keywords.routine_outcomes import routine_outcomes
from agent.keywords.secondary_questions import asked_only_secondarily, joins_of_the_same_role
from agent.keywords.site_and_lesion import one_word_names, sites_of_treatments, split_named_parts, split_sites
from agent.keywords.study_procedures import analysed_with, named_only_in_procedures
from agent.keywords.title_template import (
    factors_of_a_practice_asked,
    measure_asked,
    named_as_predicted,
    named_as_studied,
    named_as_the_purpose,
    named_before_for,
    names_a_phenomenon,
    opens_the_title,
    qualifies_the_test,
    qualitative_evidence_asked,
    related_to_the_ill,
    written_in,
)
from agent.keywords.treatment_names import (
    agents_of_adjective,
    agents_of_plural,
    inhibitors_of_anti,
    procedure_of_discipline,
    technique_of_adjective,
    vaccine_of_vaccination,
)
from agent.language.adjective_nouns import condition_of_adjective, names_complications
from agent.language.drug_stems import english_drug_class
from agent.language.elided_words import elided_match, kinds_match
from agent.language.injured_parts import injuries_by_their_nouns
from agent.language.mesh_compounds import named_with_its_class
from agent.language.mesh_families import family_root, head_family_root
from agent.language.mesh_organisms import is_organism, searched_beside
from agent.language.mesh_places import place_of_people
from agent.language.mesh_recognition import (
    PERSONS_TREE,
    MeshMatch,
    MeshVocabulary,
    is_anatomy,
    phrase_key,
    role_of,
    tokenize,
)
from agent.language.mesh_resistance import is_resistance_of_organism, resistance_before_organism
from agent.language.mesh_tails import is_under
from agent.language.morphology import defined_acronyms, find_expansion, is_acronym
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
from agent.understanding.english_pos import is_adjective
from agent.understanding.lexicon import GIVEN_FORM_NOUNS, HANDING_NOUNS, OUTCOME_MEASURES, PRESENCE_NOUNS

# "versus" sets two concepts side by side; "compared with" subordinates the later one (its comparator)
_CUT = re.compile(r"\s+(versus|vs\.?|v\.|compared with|compared to|against)\s+", re.IGNORECASE)
_VERSUS = frozenset({"versus", "vs", "vs.", "v."})  # the cues of two things compared as equals


_WITH = re.compile(r"\s+(?:with|without|who have|having)\s+", re.IGNORECASE)


@dataclass
class _Part:
    """One piece of a slot phrase that may hold one or more concepts."""

    text: str
    slot: str
    group: int  # the two sides of "versus" get different groups
    original: str = ""  # the Chinese the phrase was rendered from
    phrase: str = ""  # the slot phrase the part comes from
    compared_with: bool = False  # what the studies compare with ("... compared with usual care")
    side: bool = False  # one of the things "X versus Y" compares: something done, whatever its slot
    # written before the "for" of "X for Y" (the template of review titles): something done or tested
    done: bool = False
    # what an action is done with ("vector control with Wolbachia", "therapy with metformin"): the means,
    # something done to the people or their setting, whatever its tree (`_MEANS_BEFORE_WITH`)
    means: bool = False
    # a modifier compared before a head it shares ("cemented" of "cemented vs uncemented
    # hemiarthroplasty", `kinds_of_one_head`): the modifiers are one block whatever roles MeSH gives them
    kind: bool = False
    # the head those modifiers share ("rectal cancer surgery" of "robotic versus laparoscopic rectal cancer
    # surgery"): listed with them, but its words are concepts as anywhere else, not one block with them
    head_of_kinds: bool = False
    # the words the description has for the part: its slot phrase, or the part itself where the
    # understanding rewrote the phrase ("diagnosis of X" -> "X diagnosis"); how lists are found
    written: str = ""


@dataclass
class Concepts:
    """The result: concepts, their terms, the study filters set aside, and notes for the user."""

    concepts: list[Concept] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    study_filters: list[StudyFilter] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    biomedical: bool = True  # whether the description names anything of medicine (`field_of_description`)


def _compared_with_in_chinese(phrase: str, understanding: Understanding) -> bool:
    """Whether a Chinese description names the phrase as what the studies compare with
    (`is_chinese_comparator`: "与NIV相比", "二甲双胍与胰岛素…比较"), unless the side before 与 is a lone word
    and the phrase a longer one whose head it may share ("腹腔镜与开腹肝切除术", laparoscopic versus open
    hepatectomy: the hepatectomy is both sides', as in `_alternatives`)."""
    description = understanding.description
    original = understanding.originals.get(phrase, phrase)
    if not is_chinese_comparator(original, description):
        return False
    phrases = [p for slot in LIST_SLOT_NAMES for p in getattr(understanding.slots, slot)]
    return not any(
        len(other.split()) == 1
        and not is_acronym(other)  # "EVT与单纯药物治疗": an acronym names a thing of its own
        and len(phrase.split()) > 1
        and re.search(
            re.escape(understanding.originals.get(other, other))
            + r"\s*(?:与|和|同|跟)\s*"
            + re.escape(original),
            description,
            re.IGNORECASE,
        )
        for other in phrases
        if other != phrase
    )


def _join_sides_written_apart(
    parts: list[_Part], series: dict[str, int], description: str, vocabulary: MeshVocabulary | None
) -> None:
    """Put in one series (`listed_together`) the phrases of two slots the description writes either side
    of "versus" ("thickened fluids" and "free water protocol" of "Thickened fluids versus a free water
    protocol for ...", which the understanding read as two phrases) when they are alternatives a searcher
    ORs (`_alternatives`), as the sides of one phrase are."""
    written = list(dict.fromkeys(part.written for part in parts if part.written))
    for first in written:
        for later in written:
            if first == later or series.get(first, -1) == series.get(later, -2):
                continue
            pattern = rf"(?<!\w){re.escape(first)}\s+(?:versus|vs\.?|v\.)\s+(?:(?:a|an|the)\s+)?{re.escape(later)}(?!\w)"
            if re.search(pattern, description, re.IGNORECASE) and _alternatives(
                [first, later], description, False, vocabulary
            ):
                number = series.get(first, -1)
                if number < 0:
                    number = max(series.values(), default=0) + 1
                series[first] = series[later] = number


def _alternatives(sides: list[str], description: str, kinds: bool, vocabulary: MeshVocabulary | None) -> bool:
    """Whether the sides of "X versus Y" are alternatives a searcher ORs into one block: active
    treatments of one kind ("family-based treatment versus individual CBT", both psychotherapies;
    "DOACs versus warfarin"; "thickened fluids versus a free water protocol"), so that a paper of either
    is a candidate (a trial's abstract may name only the arm it is about). Not when a side is the control
    arm (usual care, placebo, no treatment: `is_usual_care`, `in_a_control_arm`), which is left out
    instead, nor for kinds of one head ("cemented versus uncemented hemiarthroplasty": `kinds_of_one_head`
    makes their block), nor when MeSH files the sides in different categories (`_treatments_of_one_kind`:
    "CBT versus antidepressants", a psychotherapy and drugs, two blocks as librarians AND them). A later side
    named by a generic head or by who delivers it ("versus intensive medical therapy", "versus
    inpatient hospital care", "versus clinician-delivered therapy") is the usual care a trial compares
    with, left out (`_draft`); and a lone word set against a longer phrase may be a modifier of that
    phrase's head ("telephone versus face-to-face genetic counselling": telephone counselling), not a
    thing of its own to OR with it."""
    words = [side.split() for side in sides]
    return (
        len(sides) > 1
        and not kinds
        and not any(is_usual_care(side) or in_a_control_arm(side, description) for side in sides)
        and not any(_named_by_a_generic_head(side, vocabulary) for side in sides[1:])
        and not (len(words[0]) == 1 and any(len(side) > 1 for side in words[1:]))
        and (vocabulary is None or _treatments_of_one_kind(sides, vocabulary))
    )


def _named_by_a_generic_head(side: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether a side of "versus" ends in a generic head ("therapy", "care") that no descriptor takes in
    with the words before it ("intensive medical therapy", "inpatient hospital care"; not "cognitive
    behavioural therapy", which MeSH names whole), or in a word that names who delivers it ("clinician-delivered therapy")."""
    words = side.split()
    if not words:
        return False
    head = words[-1].lower()
    if names_its_agent(head):
        return True
    if head not in GENERIC_WORDS:
        return False
    end = len(side.rstrip())
    head_start = end - len(words[-1])
    return vocabulary is None or not any(
        match.end >= end and match.start < head_start for match in vocabulary.recognize(side)
    )


# the trees of what is tested or measured, not given: tests compared outside a question of diagnosis
# ("computed tomography versus MRI versus bone scintigraphy") are left as they were (`asks_for_a_diagnosis`
# decides when a comparative accuracy review ORs them)
_TESTS = ("E01", "E05")


def _treatments_of_one_kind(sides: list[str], vocabulary: MeshVocabulary) -> bool:
    """Whether MeSH files the things the sides name in one category (the first letter of a tree number:
    D drugs, E techniques, F psychotherapies, ...) and none is only a test, a side MeSH names nothing in
    counting as any kind ("DOACs", "a free water protocol": free words a searcher ORs with the other
    side's)."""
    trees = [
        {number for match in vocabulary.recognize(side) for number in match.descriptor.tree_numbers}
        for side in sides
    ]
    if any(numbers and all(n.startswith(_TESTS) for n in numbers) for numbers in trees):
        return False
    named = [{n[0] for n in numbers} for numbers in trees if numbers]
    return not named or bool(set.intersection(*named))


def _parts(
    understanding: Understanding, vocabulary: MeshVocabulary | None = None
) -> tuple[list[_Part], list[str]]:
    parts: list[_Part] = []
    study_types: list[str] = []
    compared = 0  # each later side of a "versus" is a concept of its own ...
    lacking = 0  # ... and so is each thing the people are "without" (negative groups: no side of a "versus")
    # ... except in a question of a test's accuracy: "ultrasound versus liver function tests for common
    # bile duct stones" wants the studies of either test (a comparative accuracy review takes both), so
    # its tests are one block
    either_test = asks_for_a_diagnosis(understanding.description)
    for slot in LIST_SLOT_NAMES:
        for phrase in getattr(understanding.slots, slot):
            if vocabulary is not None:  # "compare regional with general anaesthesia": the regional one
                phrase = _with_the_shared_head(
                    phrase, getattr(understanding.slots, slot), understanding, vocabulary
                )
            text, found = set_aside(to_half_width(phrase))
            study_types += found
            design = without_approval(text)  # "interrupted time series welcome": the design
            if text and not design:  # "... case-crossover studies welcome": the approval read apart
                continue
            if (vocabulary is not None and names_a_study_design(design, vocabulary)) or (
                a_source_of_evidence_beside_a_design(design, understanding.description)
            ):
                study_types.append(re.sub(r"^(?:and|or)\s+", "", design, flags=re.IGNORECASE))
                continue
            sides_and_cues = _CUT.split(text)
            sides = sides_and_cues[::2]
            kinds = None  # "cemented vs uncemented hemiarthroplasty": the head, and the modifiers saying which kinds
            if vocabulary is not None:  # "regional versus general anaesthesia": both are anaesthesia
                sides = distribute(sides, vocabulary)
                kinds = kinds_of_one_head(sides, vocabulary)
                if kinds and not all(content_words(kind) for kind in kinds[1:]):
                    # "early versus delayed enteral feeding": with one side a generic word ("early"), the
                    # other alone would be a block of its own ("delayed"); the head is what is compared
                    kinds = [kinds[0]]
                sides = kinds or sides
            # the cue before and after each side: "" at the ends, else "versus", "compared with", ...
            cues = ["", *(cue.casefold() for cue in sides_and_cues[1::2]), ""]
            if kinds:  # the head alone, then the modifiers compared, one block apart from the head's
                cues = ["", *(["versus"] * (len(kinds) - 1)), ""]
            written_compared = is_comparator(phrase, understanding.description) or _compared_with_in_chinese(
                phrase, understanding
            )
            # "family-based treatment versus individual CBT": two active treatments set side by side are
            # the alternatives of one block, as the tests of a diagnostic question are (`_alternatives`)
            alternatives = either_test or _alternatives(
                sides, understanding.description, bool(kinds), vocabulary
            )
            for index, side in enumerate(sides):
                before, after = cues[index], cues[index + 1]
                apart = (index or written_compared) and not (alternatives and before in _VERSUS)
                if apart and not (kinds and index > 1):
                    compared += 1
                group = compared if apart else 0
                # "X versus usual physiotherapy": the usual care is the control arm, as after "compared with"
                # ... or one of the alternatives of such an arm ("versus sham or conventional therapy")
                usual = (
                    is_usual_care(side) and not all(is_usual_care(other) for other in sides)
                ) or in_a_control_arm(side, understanding.description)
                comparator = before.startswith("compared") or (written_compared and not index) or usual
                if kinds and index > 0 and usual:
                    continue  # "hypofractionated versus conventional radiotherapy": the usual kind is the control
                # "X versus Y": both sides are what is compared; "X compared with Y": only Y is
                compared_side = bool(before or after) and not any(
                    c.startswith("compared") for c in (before, after)
                )
                pieces = [side] if _names_with(side, vocabulary) else _WITH.split(side)
                joins = _WITH.findall(side) if len(pieces) > 1 else []  # what stands between the pieces
                means = {
                    i + 1
                    for i, (piece, join) in enumerate(zip(pieces, joins, strict=False))
                    if join.strip().lower() == "with" and _names_an_action(piece)
                }
                # "patients with type 2 diabetes without cardiovascular disease": what the people do not
                # have is a concept of its own (never OR'ed with what they have; `not_had` leaves it out)
                lacked = {i + 1 for i, join in enumerate(joins) if join.strip().lower() == "without"}
                # "therapy delivered online": the therapy is the concept, how it is delivered another
                # ... and "minor lesions triage", turned from "triage of minor lesions": two concepts
                cuts = [
                    (i, turned)
                    for i, piece in enumerate(pieces)
                    for cut in cut_after_participle(piece)
                    for turned in turned_back(cut, understanding.description)
                ]
                with_content = any(content_words(piece) for _, piece in cuts)
                for position, piece in cuts:
                    # "patients with epilepsy": the condition is the concept, the people word only says who
                    if content_words(piece) or (people_only(piece) and not with_content):
                        if position in lacked:
                            lacking -= 1
                        parts.append(
                            _Part(
                                piece.strip(),
                                slot,
                                lacking if position in lacked else group,
                                understanding.originals.get(phrase, ""),
                                phrase,
                                compared_with=comparator,
                                # what is measured is compared between the arms, not given ("how do
                                # visual outcomes compare with ..."), and how the thing compared is
                                # given is no side ("does CBT delivered online compare with ...")
                                side=compared_side
                                or (
                                    not index
                                    and side.strip().casefold().startswith(piece.strip().casefold())
                                    and slot != "output_target"
                                    and is_compared_first(side, understanding.description)
                                ),
                                done=named_before_for(piece.strip(), understanding.description),
                                means=position in means,
                                kind=bool(kinds) and index > 0,
                                head_of_kinds=bool(kinds) and index == 0,
                            )
                        )
    return parts, study_types


def _with_the_shared_head(
    phrase: str, slot_phrases: list[str], understanding: Understanding, vocabulary: MeshVocabulary
) -> str:
    """A lone modifier the understanding cut from the head it shares with the phrase compared or listed
    right after it ("compare regional with general anaesthesia": "regional"), given that head where MeSH
    names the result under it (`coordination.distribute`: "regional anaesthesia", Anesthesia,
    Conduction), or the design noun it shares with a study design ("qualitative and quantitative
    studies": "qualitative studies", a kind of study asked for, not a concept); otherwise the phrase as
    it is."""
    if len(phrase.split()) != 1 or vocabulary.recognize(phrase):
        return phrase
    # a design may stand in another slot than the modifier cut from it ("case-control and cohort
    # studies": "case-control" a task, "cohort studies" a method): the design noun is shared all the same
    others = [*slot_phrases, *(p for s in LIST_SLOT_NAMES for p in getattr(understanding.slots, s))]
    for at, other in enumerate(others):
        written = rf"\b{re.escape(phrase)}\s+(?:with|versus|vs\.?|to|and|or)\s+{re.escape(other)}\b"
        if other != phrase and re.search(written, understanding.description, re.IGNORECASE):
            design = f"{phrase} {other.split()[-1]}"
            if set_aside(other)[1] and set_aside(design) == ("", [design]):
                return design
            if at < len(slot_phrases):
                return distribute([phrase, other], vocabulary)[0]
    return phrase


# Head nouns of an action whose "with" names the means it is done with ("vector control with Wolbachia",
# "treatment with metformin"), not the people's condition ("patients with epilepsy")
_MEANS_BEFORE_WITH = INTERVENTION_HEADS | word_set(
    "control management prevention vaccination immunization immunisation"
)


def _names_an_action(piece: str) -> bool:
    """Whether `piece` ends in an action noun whose "with" names its means ("vector control")."""
    words = piece.split()
    return bool(words) and words[-1].lower() in _MEANS_BEFORE_WITH


def _names_with(text: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether MeSH names a phrase "X with Y" of the text as one concept ("dementia with Lewy bodies"):
    then "with" joins, it does not separate people from their condition."""
    if vocabulary is None or not _WITH.search(text):
        return False
    return any(_WITH.search(match.text) for match in vocabulary.recognize(text))


def build_concepts(understanding: Understanding, vocabulary: MeshVocabulary | None) -> Concepts:
    """Concepts and their terms for a confirmed understanding (see the module docstring)."""
    description = understanding.description
    defined = defined_acronyms(to_half_width(description))
    parts, study_types = _parts(understanding, vocabulary)
    for part in parts:
        part.written = _as_written(part, description, understanding.originals)
    series = listed_together(description, [part.written for part in parts], understanding.originals)
    _join_sides_written_apart(parts, series, description, vocabulary)
    shared = _share_words(parts, series, description, vocabulary) if vocabulary is not None else set()
    shared |= {series[part.written] for part in parts if part.kind and part.written in series}
    shared |= slashed_series(description, series)  # "kangaroo care / skin-to-skin contact": one concept
    named = [vocabulary.recognize(part.text, defined) if vocabulary else [] for part in parts]
    # without MeSH nothing tells another field's words apart: the description is taken as medicine's
    biomedical = vocabulary is None or names_biomedicine([part.text for part in parts], named, vocabulary)
    drafts_parts = [
        (draft, part)
        for index, part in enumerate(parts)
        for draft in _drafts_for(
            part,
            vocabulary,
            defined,
            description,
            [m.descriptor for other, matches in enumerate(named) if other != index for m in matches],
            biomedical,
        )
    ]
    # the kinds compared are one block whatever their roles (`shared`); the head they share is a list of
    # its own, whose words group as any phrase's do
    own_series = {id(part): max(series.values(), default=0) + 1 + i for i, part in enumerate(parts)}
    for draft, part in drafts_parts:
        draft.series = own_series[id(part)] if part.head_of_kinds else series.get(part.written, -1)
        for term in draft.terms:
            term.original = part.original
    drafts = [draft for draft, _ in drafts_parts]
    result = Concepts(
        study_filters=[study_filter(t, vocabulary) for t in _unique(study_types)]
        + [
            StudyFilter(text=text, first_year=first, last_year=last)
            for text, first, last in publication_years(description)
        ],
        biomedical=biomedical,
    )
    if study_types:
        result.notes.append(
            "the kind of study asked for (" + ", ".join(_unique(study_types)) + ") is a filter you can "
            "switch on in the review, not a concept the query requires"
        )
    years = [f.text for f in result.study_filters if f.limits_years]
    if years:
        result.notes.append(
            "the publication years asked for (" + ", ".join(years) + ") are a filter you can switch on in "
            "the review"
        )
    result.concepts, result.terms, comparators = merge_drafts(
        group_drafts(drafts, shared, related_pairs(description, series) - shared)
    )
    # "normothermic machine perfusion ... does NMP lower ...": the acronym is the phrase's synonym
    result.concepts, result.terms = join_repeated_acronyms(result.concepts, result.terms, defined)
    result.concepts, result.terms, ages = age_population(
        result.concepts, result.terms, description, vocabulary
    )
    pieces = {id(t) for t in add_bracketed_aliases(result.terms, description)}
    if pieces:  # "otitis media with effusion (glue ear)": "glue" and "ear" are the second name's words
        gone = {t.concept for t in result.terms if id(t) in pieces}
        result.terms = [t for t in result.terms if id(t) not in pieces]
        kept = {t.concept for t in result.terms}
        result.concepts = [c for c in result.concepts if c.id not in gone or c.id in kept]
    _add_the_measure(result, measure_asked(description, vocabulary))
    qualitative = qualitative_evidence_asked(description, vocabulary)
    _add_the_measure(result, qualitative, written="qualitative")
    _fold_the_phenomena(result, qualitative)
    _add_the_factors(result, factors_of_a_practice_asked(description), description)
    fold_predictions_into_what_they_predict(result.concepts, result.terms)
    left_out = {
        c.id: reason
        for c in result.concepts
        if (reason := left_out_reason(c, result.terms, c.id in comparators, description))
    }
    listed = listed_outcomes(result.concepts, result.terms, description)
    for into, kinds in outcomes_listed_with_a_condition(
        result.concepts, result.terms, description, listed
    ).items():
        _join_kinds(result, into, kinds)  # "for preventing falls and pressure ulcers": one block
        listed = {cid: reason for cid, reason in listed.items() if cid not in kinds}
    classes = kinds_given_as_examples(result.concepts, result.terms, description, set(left_out), set(listed))
    if (
        colon := kinds_listed_after_the_colon(result.concepts, result.terms, description, listed)
    ) is not None:
        classes.setdefault(colon[0], []).extend(k for k in colon[1] if k not in classes)
    for into, kinds in kinds_of_an_unnamed_class(
        result.concepts, result.terms, description, set(left_out)
    ).items():
        if into not in classes and not set(kinds) & set(classes):  # "I'm thinking of things like A, B and C"
            classes[into] = kinds
    for into, kinds in classes.items():  # "adverse birth outcomes: preterm birth, low birth weight ..."
        _join_kinds(result, into, kinds)  # "... such as preterm birth and low birth weight"
        listed = {cid: reason for cid, reason in listed.items() if cid not in kinds}
    if examples := kinds_after_a_generic_class(result.concepts, result.terms, description, set(left_out)):
        # "Interventions to improve ...: mobile apps, text reminders and family-based programmes": the
        # kinds of what is done, one block, required as what is done (never outcomes the title lists)
        _join_kinds(result, examples[0], examples[1:])
        listed = {cid: reason for cid, reason in listed.items() if cid not in examples}
        if (joined := next((c for c in result.concepts if c.id == examples[0]), None)) is not None:
            joined.role = ConceptRole.INTERVENTION
    left_out = listed | left_out
    if ages and only_adulthood([t.mesh.heading for t in result.terms if t.concept == ages and t.mesh]):
        left_out[ages] = "an age range within adulthood: it only narrows the search"
    if asks_for_a_diagnosis(description):
        left_out |= _conditions_of_the_people(result)
    left_out |= reference_standards(result.concepts, result.terms, description)
    tested = [
        t.mesh for t in result.terms if t.mesh is not None and named_before_for(t.canonical, description)
    ]
    of_a_test = asks_about_a_test(description, tested)
    if of_a_test:
        left_out |= _qualifiers_of_the_test(result, description)
    # "I'm also curious about pharmacy-based programs": kept, not AND'ed
    secondary = asked_only_secondarily(result.concepts, result.terms, description)
    secondary |= {  # "low back pain, with or without sciatica": sciatica joins the pain's block or waits
        c.id: "written 'with or without': the question takes papers either way"
        for c in result.concepts
        if c.id not in left_out
        and taken_either_way([t for t in result.terms if t.concept == c.id], description)
    }
    for kind, into in joins_of_the_same_role(result.concepts, secondary, set(left_out)).items():
        # "... for sore throats? And does it help sleep-disordered breathing?": one block of conditions
        _join_kinds(result, into, [kind])
        del secondary[kind]
    left_out |= secondary
    generic = {c.id: is_generic_people(result.terms, c.id) for c in result.concepts}
    modifiers = {
        c.id for c in result.concepts if names_nothing(result.terms, c.id, vocabulary, result.biomedical)
    }
    pathogens = _pathogens_of_hosts(result, understanding.description)
    # "during the COVID-19 pandemic": a time, not the people's condition; it no more stands in for the
    # question's condition than a pathogen found in a host does
    pathogens |= {c.id for c in result.concepts if a_time_of_an_epidemic(c, result.terms, description)}
    # "improves quality of life in heart failure": a measure every trial in the condition reports, unless
    # the title asks what predicts it ("prognostic factor for in-hospital death")
    predicted = {t.concept for t in result.terms if named_as_predicted(t.canonical, description)}
    routine = routine_outcomes(result.concepts, result.terms, pathogens) - predicted
    defining = {
        c.id
        for c in result.concepts
        if c.id not in listed | secondary.keys() | routine
        and _defines_the_topic(c, result.terms, description)
    }
    # "antibiotic-resistant E. coli": the resistance restricts the organism, in a list or not
    defining |= {t.concept for t in result.terms if is_resistance_of_organism(t.canonical, t.mesh)}
    relatives = {t.concept for t in result.terms if related_to_the_ill(t.canonical, description)}
    relatives |= kinds_of_people(result.terms)
    who_or_where = {
        c.id
        for c in result.concepts
        if c.id not in secondary
        and named_who_or_where(c, result.terms, description, of_a_test, result.biomedical)
    }
    for concept in result.concepts:
        if concept.id not in left_out and a_period_of_life_named(concept, result.terms, description):
            concept.role = ConceptRole.POPULATION  # "in pregnancy": who is studied
            who_or_where.add(concept.id)
    procedures = named_only_in_procedures(result.concepts, result.terms, description)
    treated = sites_of_treatments(result.concepts, result.terms, description, procedures | left_out.keys())
    procedures |= analysed_with(result.concepts, result.terms, description, result.biomedical)
    decide_required(
        result.concepts,
        generic,
        modifiers,
        procedures | left_out,
        defining,
        pathogens,
        relatives,
        who_or_where,
    )
    if procedures and sum(c.required for c in result.concepts) < MIN_REQUIRED:
        # the topic's sentences name too little to search on: what the study uses is the search
        decide_required(
            result.concepts, generic, modifiers, left_out, defining, pathogens, relatives, who_or_where
        )
    for concept in result.concepts:
        if (
            (site_reason := treated.get(concept.id))
            and concept.id not in left_out | procedures
            and not concept.required
        ):
            concept.required, concept.reason = True, site_reason  # "foot massage": which massage
    split_sites(result, vocabulary, concept_id)
    split_named_parts(result, vocabulary, concept_id)
    return result


def _join_kinds(result: Concepts, into: str, kinds: list[str]) -> None:
    """The kinds of a class the description lists (as examples, or after a title's colon) join the
    class's block (`example_lists`, `outcome_lists.kinds_listed_after_the_colon`). A class no heading
    names, only a setting by its slot, is what its kinds are ("gabapentinoids (pregabalin, gabapentin)":
    the drugs say it is an intervention)."""
    roles = {c.id: c.role for c in result.concepts}
    for concept in result.concepts:
        if concept.id == into and concept.role is ConceptRole.SETTING:
            named = not any(t.concept == into and t.mesh is not None for t in result.terms)
            kind_roles = {roles[k] for k in kinds if k in roles} - {ConceptRole.SETTING}
            if named and len(kind_roles) == 1:
                concept.role = kind_roles.pop()
    for term in result.terms:
        if term.concept in kinds:
            term.concept = into
    result.concepts = [c for c in result.concepts if c.id not in kinds]


def _add_the_measure(result: Concepts, measure: MeshDescriptor | None, written: str = "") -> None:
    """The epidemiological measure the title asks for (`title_template.measure_asked`: "Prevalence of
    ..."), or the design of the primary studies a qualitative review asks for
    (`title_template.qualitative_evidence_asked`: Qualitative Research, searched also as the word the
    description `written` it with), a concept of its own, unless a term already holds its heading."""
    if measure is None or any(t.mesh is not None and t.mesh.ui == measure.ui for t in result.terms):
        return
    measure_id = concept_id(measure.heading, {c.id for c in result.concepts})
    term = Term(canonical=measure.heading, slot="task", mesh=measure, concept=measure_id)
    if written:
        term.synonyms.append(Synonym(text=written, origins=[SynonymOrigin.USER]))
    result.terms.append(term)
    result.concepts.append(Concept(id=measure_id, label=measure.heading, role=ConceptRole.METHOD))


def _fold_the_phenomena(result: Concepts, qualitative: MeshDescriptor | None) -> None:
    """In a review of qualitative evidence (`qualitative`: Qualitative Research), the concepts written
    only with the nouns of its phenomenon of interest (`title_template.names_a_phenomenon`:
    "Experiences and perceptions of PrEP use") join the qualitative block as the words written: they
    had been blocks of their own ("Perception"[Mesh], "Views"[tiab])."""
    block = next(
        (t for t in result.terms if qualitative and t.mesh is not None and t.mesh.ui == qualitative.ui), None
    )
    if block is None:
        return
    folded = {
        c.id
        for c in result.concepts
        if c.id != block.concept
        and (members := [t for t in result.terms if t.concept == c.id])
        and all(names_a_phenomenon(t) for t in members)
    }
    said = {s.text.casefold() for s in block.synonyms}
    for term in result.terms:
        if term.concept in folded and (word := term.canonical.strip().lower()) not in said:
            block.synonyms.append(Synonym(text=word, origins=[SynonymOrigin.USER]))
            said.add(word)
    result.terms = [t for t in result.terms if t.concept not in folded]
    result.concepts = [c for c in result.concepts if c.id not in folded]


def _add_the_factors(result: Concepts, nouns: list[str], description: str = "") -> None:
    """What hinders or helps the practice a title asks about (`title_template.factors_of_a_practice_asked`:
    "Barriers and facilitators to implementing X"): one concept of the kind of question, searched as all
    those words; the understanding's phrases of them ("Barriers", "facilitators") join it. What the
    understanding put in one slot with them and grouping joined to them ("rural areas" of "Barriers
    to telehealth in rural and remote areas") stays a concept of its own (`_leave_apart`): the place or
    the people of the practice, not a word of hindrance; what the description lists with them ("stigma
    and barriers to accessing care") is a hindrance of a kind, and stays in their block."""
    if not nouns:
        return
    written = [
        t for t in result.terms if t.mesh is None and t.canonical.casefold().rstrip("s") + "s" in nouns
    ]
    if not written:
        written = [
            Term(
                canonical=nouns[0], slot="task", concept=concept_id(nouns[0], {c.id for c in result.concepts})
            )
        ]
        result.terms.append(written[0])
        result.concepts.append(Concept(id=written[0].concept, label=nouns[0], role=ConceptRole.METHOD))
    _leave_apart(result, written, description)
    kept = written[0].concept
    joined = {t.concept for t in written} - {kept}
    result.concepts = [c for c in result.concepts if c.id not in joined]
    said = {t.canonical.casefold() for t in written} | {
        s.text.casefold() for t in written for s in t.synonyms
    }
    for term in written:
        term.concept = kept
    written[0].synonyms.extend(Synonym(text=n, origins=[SynonymOrigin.USER]) for n in nouns if n not in said)
    for concept in result.concepts:
        if concept.id == kept:
            concept.role = ConceptRole.METHOD


def _leave_apart(result: Concepts, written: list[Term], description: str) -> None:
    """The first written word of hindrance or help, taken out of a concept that holds other terms too
    into a concept of its own (the others keep theirs, labelled by what is left of them), unless the
    description lists every other term together with it (`listed_together`)."""
    first = written[0]
    left = [t for t in result.terms if t.concept == first.concept and not any(t is w for w in written)]
    series = listed_together(description, [first.canonical, *(t.canonical for t in left)])
    if not left or all(series.get(t.canonical, -1) == series.get(first.canonical, -2) for t in left):
        return
    first.concept = concept_id(first.canonical, {c.id for c in result.concepts})
    result.concepts.append(Concept(id=first.concept, label=first.canonical, role=ConceptRole.METHOD))
    for concept in result.concepts:
        if concept.id == left[0].concept:
            concept.label = " / ".join(t.canonical for t in left) if len(left) <= 3 else left[0].canonical


def _pathogens_of_hosts(result: Concepts, description: str) -> set[str]:
    """The conditions that are only organisms ("Salmonella", "Escherichia coli") when the description
    also names the organisms they are found in ("from poultry", "isolated from broiler chickens"): the
    microbe says what is found, the host who is studied, and neither stands in for the other nor for
    the outcome ("antimicrobial resistance"). The infection searched beside an organism (Salmonella
    Infections, not written) does not count."""
    folded = description.casefold()

    def organisms(concept: Concept, people: bool) -> bool:
        written = [
            t
            for t in result.terms
            if t.concept == concept.id
            and (t.mesh is None or t.canonical != t.mesh.heading or t.canonical.casefold() in folded)
        ]
        return names_only_organisms(written, people=people)

    if not any(c.role is ConceptRole.POPULATION and organisms(c, False) for c in result.concepts):
        return set()
    return {c.id for c in result.concepts if c.role is ConceptRole.CONDITION and organisms(c, True)}


def _share_words(
    parts: list[_Part], series: dict[str, int], description: str, vocabulary: MeshVocabulary
) -> set[int]:
    """Whole phrases the description lists together ("hip", "knee osteoarthritis" from "hip and knee
    osteoarthritis") get the head or modifier they share where MeSH names the result
    (`agent.keywords.coordination.distribute`); the understanding cuts such a list into phrases. The
    series in which a word was shared: one concept, whatever roles MeSH gives its members."""
    shared: set[int] = set()
    groups: dict[int, list[_Part]] = {}
    for part in parts:
        if part.text == part.phrase.strip() and series.get(part.written, -1) >= 0:
            groups.setdefault(series[part.written], []).append(part)
    folded = description.casefold()
    for members in groups.values():
        members.sort(key=lambda part: _written_at(part.written, folded))
        if _kinds_of_one_head(members):
            shared.add(series[members[0].written])
        texts = distribute([m.text for m in members], vocabulary)
        if len({m.slot for m in members}) == 1:  # one list the understanding read: "X, A or B" are kinds of X
            texts = modifiers_after_their_head(texts, vocabulary)
        for part, text in zip(members, texts, strict=True):
            if text != part.text:
                shared.add(series[part.written])
            part.text = text
    return shared


def _written_at(phrase: str, folded: str) -> int:
    """Where the (case-folded) description writes a phrase, a bracketed alias inside it allowed."""
    at = folded.find(phrase.casefold())
    if at < 0 and (around := around_an_alias(phrase, folded)) is not None:
        return around[0]
    return at


# the heads a list of kinds of what is done shares ("water, sanitation and hygiene interventions"): a
# generic noun that names no kind itself, only that the words before it are kinds of something done
_KIND_HEADS = word_set("intervention interventions programme programmes program programs strategy strategies")


def _kinds_of_one_head(members: list[_Part]) -> bool:
    """Whether a list ends in a generic head of what is done that its earlier members lack: "water,
    sanitation and hygiene interventions" lists kinds of one intervention (water interventions,
    sanitation interventions, ...), OR'ed in one block whatever trees MeSH files each kind under."""
    last = members[-1].text.split()
    return (
        len(members) > 1
        and len(last) > 1
        and last[-1].lower() in _KIND_HEADS
        and all(
            len(m.text.split()) <= 2 and last[-1].lower() not in m.text.lower().split() for m in members[:-1]
        )
    )


def _defines_the_topic(concept: Concept, terms: list[Term], description: str) -> bool:
    """Whether the description writes the concept as what its question is about: the Y of "X for Y in
    Z" (`named_as_the_purpose`), what the researcher says they study (`named_as_studied`), what an
    exposure acts on (`is_acted_on`), what is prevented (`is_prevented`), what a test finds
    (`is_detected`) or a prognostic factor predicts (`named_as_predicted`), or a setting a title opens
    with (`opens_the_title`: "Thermal modification of wood")."""
    return any(
        named_as_the_purpose(t.canonical, description)
        or named_as_studied(t.canonical, description)
        or is_acted_on(t.canonical, description, t.original)
        or is_prevented(t.canonical, description)
        or is_detected(t.canonical, description)
        or named_as_predicted(t.canonical, description)
        or (concept.role is ConceptRole.SETTING and opens_the_title(t.canonical, description))
        for t in terms
        if t.concept == concept.id
    )


def _as_written(part: _Part, description: str, originals: dict[str, str]) -> str:
    """The slot phrase when the description contains it (or the Chinese it was rendered from), else the
    part's own words when the description has those: "groin lymph node involvement" of the rewritten
    "groin lymph node involvement diagnosis" is a phrase written apart from "Sentinel node assessment"."""
    folded = description.casefold()
    if part.phrase.casefold() in folded or originals.get(part.phrase, "\0").casefold() in folded:
        return part.phrase
    for own in (part.text, strip_generic_edges(part.text)):
        if own and own.casefold() in folded:
            return own
    return part.phrase


def _conditions_of_the_people(result: Concepts) -> dict[str, str]:
    """In a diagnostic question, conditions named only as who is tested ("... in people with mild
    cognitive impairment") while another condition is what the test must find ("the diagnosis of
    Alzheimer's disease dementia"): the people's condition is the setting of the test (who is
    selected), which a searcher leaves out. (In a question of treatment the people's condition is
    who is treated, and stays: "antidepressants for depression in people with dementia"; so it does
    when the target is a process that happens in it, `_a_process`: "lymph node metastases in patients
    with non-small cell lung cancer" are that cancer's.)"""
    slots = {c.id: {t.slot for t in result.terms if t.concept == c.id} for c in result.concepts}
    conditions = [c for c in result.concepts if c.role is ConceptRole.CONDITION]
    targets = [c for c in conditions if slots[c.id] - {"subject_population"}]
    if not targets or all(_a_process(c, result.terms) for c in targets):
        return {}
    return {
        c.id: "the condition of the people studied: the target condition defines the topic"
        for c in conditions
        if slots[c.id] == {"subject_population"}
    }


def _qualifiers_of_the_test(result: Concepts, description: str) -> dict[str, str]:
    """In a question of a test's accuracy, the concepts of a role a query does not require by itself
    (an outcome, a body part, a setting) that only qualify the test's generic head ("Second trimester"
    and "serum" of "Second trimester serum tests for Down's syndrome screening":
    `title_template.qualifies_the_test`): when or on what the test is done, which a searcher does
    not AND beside the target condition and the test, so none is promoted to fill the query."""
    return {
        c.id: "it says when or on what the test is done: a qualifier of the test, not a topic"
        for c in result.concepts
        if c.role not in REQUIRED_ROLES
        and (members := [t for t in result.terms if t.concept == c.id])
        and all(qualifies_the_test(t.canonical, description) for t in members)
    }


# Pathologic Processes (C23.550) and Neoplastic Processes (C04.697): metastasis, recurrence, invasion,
# residual disease, inflammation: what happens in a disease, not a disease of its own
_PROCESS_TREES = ("C23.550.", "C04.697.")


def _a_process(concept: Concept, terms: list[Term]) -> bool:
    """Whether every heading of a concept is filed only under the processes of a disease (Neoplasm
    Metastasis, Lymphatic Metastasis): the target is incomplete without the disease it happens in."""
    headings = [t.mesh for t in terms if t.concept == concept.id and t.mesh is not None]
    return bool(headings) and all(
        all(n.startswith(_PROCESS_TREES) for n in h.tree_numbers) for h in headings if h.tree_numbers
    )


# "anti-VEGF", "anti-TNF": what the phrase names acts against the descriptor; it is not the descriptor;
# "non-cancer pain": the pain of anything but cancer, not Cancer Pain
_ANTI = re.compile(r"\b(?:anti|non)-?\s*$", re.IGNORECASE)
# "mindfulness-based", "exercise-based": the descriptor is what the phrase's thing is built from
_BASED = re.compile(r"^[-\s]based\b", re.IGNORECASE)


def _closing_acronym(text: str, defined: dict[str, str]) -> tuple[str, str | None]:
    """The phrase without the acronym the description defines in brackets at its end, and that acronym
    when it names the whole phrase (None when it names only the phrase's last words, or there is
    none). Left in, the acronym stands as the phrase's head that no heading covers, and the whole
    phrase is searched as one free term ("deprescribing proton pump inhibitors (PPIs)",
    "polyfluoroalkyl substances (PFAS)"): an acronym of the last words is theirs, which
    `add_bracketed_aliases` gives their term; one of the whole phrase is the user's synonym of
    what the phrase is read as."""
    main, short = split_parenthetical(text)
    named = phrase_key(main)
    if short is None or short not in defined or not named:
        return text, None
    spelled = phrase_key(defined[short])
    of_the_last_words = 0 < len(spelled) < len(named) and named[-len(spelled) :] == spelled
    return main, None if of_the_last_words else short


# "pharmacist-led interventions", "nurse-delivered care", "peer-run": the participle says who does it
_LED = re.compile(rf"^-(?:{'|'.join(sorted(AGENT_PARTICIPLES))})\b", re.IGNORECASE)
# "psilocybin-assisted therapy", "MDMA-assisted psychotherapy": the substance given with the therapy
_ASSISTED = re.compile(r"^-assisted\b", re.IGNORECASE)
# "ultrasound-guided nerve blocks", "CT-guided biopsy": the imaging that guides the procedure
_GUIDED = re.compile(r"^[-\s]guided\s+\w", re.IGNORECASE)


def _guide(
    match: MeshMatch, matches: list[MeshMatch], text: str, vocabulary: MeshVocabulary
) -> MeshMatch | None:
    """The match as the guide of the procedure after it, where the text writes "X-guided Y" and MeSH names
    Y too: the guidance is a concept of its own, AND'ed, searched under MeSH's interventional heading of
    the imaging when it has one ("ultrasound-guided": Ultrasonography, Interventional, as indexers file
    it). Both are techniques (E), so without this they had been one block that OR'ed every ultrasound
    paper in beside the nerve blocks. None when the match guides nothing MeSH names."""
    if match is matches[-1] or not _GUIDED.match(text[match.end :]):
        return None
    interventional = f"{match.descriptor.heading}, Interventional".casefold()
    variant = next(
        (d for d in vocabulary.lookup(interventional) if d.heading.casefold() == interventional), None
    )
    return replace(match, descriptor=variant) if variant is not None else match


def _leads(match: MeshMatch, text: str) -> bool:
    """Whether the match names who or what a thing is done by: a person or group before "-led",
    "-delivered" ... (`_LED`), or a substance before "-assisted" (a drug-assisted therapy is the drug's,
    which its papers name; a device before it says how the thing is done: "computer-assisted")."""
    after = text[match.end :]
    return bool(_LED.match(after)) or (
        bool(_ASSISTED.match(after)) and any(t.startswith("D") for t in match.descriptor.tree_numbers)
    )


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        seen.setdefault(item.casefold().replace("-", " "), item)
    return list(seen.values())


def _drafts_for(
    part: _Part,
    vocabulary: MeshVocabulary | None,
    defined: dict[str, str],
    description: str,
    context: list[MeshDescriptor] | None = None,
    biomedical: bool = True,
) -> list[Draft]:
    """The concepts of one phrase part: its descriptors by role, or the phrase itself. `context` holds
    the descriptors the other parts name: a word of two senses takes the one nearest to them in the
    MeSH trees; `biomedical` says whether the description names anything of medicine or biology
    (`field_of_description`)."""
    text, acronym = _closing_acronym(part.text, defined)
    drafts = _drafts_for_text(replace(part, text=text), vocabulary, defined, description, context, biomedical)
    if acronym is not None and not any(t.mesh for d in drafts for t in d.terms):
        # no heading the acronym hid: the phrase is searched as written, with its acronym
        return _drafts_for_text(part, vocabulary, defined, description, context, biomedical)
    if acronym is not None and drafts and drafts[-1].terms:
        last = drafts[-1].terms[-1]
        if acronym.casefold() not in {s.text.casefold() for s in last.synonyms}:
            last.synonyms.append(Synonym(text=acronym, origins=[SynonymOrigin.USER]))
    if part.group > 0 and _where_the_usual_care_is(part.text, drafts):
        for draft in drafts:
            draft.comparator = True
    return drafts


def _where_the_usual_care_is(text: str, drafts: list[Draft]) -> bool:
    """Whether a later side of "X versus Y" is named by a generic head no term reaches, with only who
    receives it or where as its words ("versus inpatient hospital care": Inpatients, Hospitals, the
    care left unnamed): the usual care of a setting, a comparator every trial names, not a concept."""
    words = text.split()
    head = words[-1].lower() if words else ""
    return (
        head in GENERIC_WORDS
        and bool(terms := [t for d in drafts for t in d.terms])
        and all(t.mesh is not None and _who_or_where(t.mesh) for t in terms)
        and not any(t.canonical.lower().split()[-1:] == [head] for t in terms)
    )


# MeSH's trees of people (M01 Persons), health facilities (N02.278) and places (Z01)
_WHO_AND_WHERE_TREES = ("M01", "N02.278", "Z01")


def _who_or_where(descriptor: MeshDescriptor) -> bool:
    """Whether MeSH files a descriptor only among people, health facilities or places."""
    numbers = descriptor.tree_numbers
    return bool(numbers) and all(n.startswith(_WHO_AND_WHERE_TREES) for n in numbers)


# what people differ by, before "-related": "age-related hearing loss" is a kind of the loss, with no
# cause a paper must name beside it
_PEOPLES_ATTRIBUTES = word_set("age sex gender")
# "X-related Y": the participle after the cause, and the effect's first word after it
_CAUSED_BY = re.compile(rf"(?<=[^\W_)]){CAUSE_PARTICIPLE}\s+(?=[^\W_])", re.IGNORECASE)


def _cause_and_effect(text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary) -> list[str] | None:
    """The cause and the effect of "X-related Y", "X-induced Y", "X-associated Y" when MeSH does not
    name the whole ("cancer-related fatigue", "chemotherapy-induced peripheral neuropathy", "HIV-related
    stigma"): two concepts a searcher ANDs, since papers write the effect "in patients with" the cause as
    often as the compound, and neither alone is the topic. None where MeSH names the whole (a match runs
    across the participle: "ventilator-associated pneumonia", "work-related stress"; or the effect with
    the cause's class: "catheter-associated urinary tract infections" is Catheter-Related Infections),
    where the effect is a technique's name ("constraint-induced movement therapy"), where one side holds
    no content word, or where the "cause" is what people differ by ("age-related hearing loss")."""
    found = _CAUSED_BY.search(text)
    if found is None or any(m.start < found.start() < m.end for m in matches):
        return None
    if named_with_its_class(text, matches, vocabulary) is not None:
        return None
    cause, effect = text[: found.start()].strip(), text[found.end() :].strip()
    if not content_words(cause) or not content_words(effect) or cause.casefold() in _PEOPLES_ATTRIBUTES:
        return None
    head = split_parenthetical(effect)[0].split()[-1:]  # "... therapy (CIMT)": the acronym is the name's
    if head and head[0].lower() in INTERVENTION_HEADS:
        return None  # "constraint-induced movement therapy": the name of a technique, not a cause
    return [cause, effect]


def _facets_around_an_acronym(text: str) -> list[str] | None:
    """The facets of a noun phrase with an acronym inside it followed by a compound of two or more
    words: the words before the acronym (when they hold a content word), the acronym, and the compound
    after it ("Piezoelectric MEMS energy harvesters": Piezoelectric / MEMS / energy harvesters; "GaN high
    electron mobility transistors": GaN / high electron mobility transistors). A searcher ANDs them: the
    papers name the material, the technology and the device apart. None when the phrase has no such
    acronym ("massive MIMO systems", "GNSS positioning": one word after it is the acronym's own head)."""
    words = text.split()
    for index, word in enumerate(words):
        after = words[index + 1 :]
        if (
            is_acronym(word)
            and not any(ch.isdigit() for ch in word)
            and len(after) >= 2
            and not any(is_acronym(w) for w in after)
            and len(content_words(" ".join(after))) >= 2
        ):
            before = " ".join(words[:index])
            return [*([before] if content_words(before) else []), word, " ".join(after)]
    return None


# a hyphenated modifier of two words ("dual-band", "non-precious", "solid-state", "Sentinel-1"); a
# participle after the hyphen that says what the thing is built on, led by, caused by or guided by has
# rules of its own ("-based", "-led", "-related", "-guided", "-assisted")
_COMPOUND_MODIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9]*[A-Za-z0-9]$")
_OWN_RULE_PARTICIPLES = frozenset(
    {
        "based",
        "related",
        "induced",
        "associated",
        "attributable",
        "guided",
        "assisted",
        "led",
        "delivered",
        "run",
        "driven",
        "facilitated",
        "administered",
        "like",
    }
)


def _facets_after_a_compound_modifier(text: str) -> list[str] | None:
    """The two facets of a noun phrase opening with a hyphenated modifier before a compound of two or
    more words: the modifier and the compound ("Dual-band microstrip patch antennas": dual-band /
    microstrip patch antennas; "Non-precious metal electrocatalysts"; "solid-state hydrogen storage";
    "Sentinel-1 synthetic aperture radar"). Outside medicine the modifier is a property or a kind papers write apart from the device
    or process ("a compact antenna operating in two bands"), so a searcher ANDs the two and the phrase
    whole is a term few papers write. None when the compound after it is one word ("lithium-ion
    batteries", "transit-oriented development": the modifier and its head are one name), when an acronym
    follows (`_facets_around_an_acronym`) or when the hyphen joins a participle with a rule of its own."""
    words = text.split()
    if len(words) < 3 or not _COMPOUND_MODIFIER.match(words[0]):
        return None
    if words[0].rsplit("-", 1)[1].lower() in _OWN_RULE_PARTICIPLES:
        return None
    after = words[1:]
    if any(is_acronym(w) or "-" in w for w in after) or len(content_words(" ".join(after))) < 2:
        return None
    return [words[0], " ".join(after)]


def _acronym_before_a_heading(text: str, vocabulary: MeshVocabulary | None) -> list[str] | None:
    """The two facets of an acronym MeSH does not know written before one word that a MeSH heading is
    named by alone ("UAV photogrammetry": UAV / photogrammetry; "HEPA filtration"): outside medicine the
    acronym names the platform or the technology the method is done with, which papers write apart
    from it ("photogrammetry from an unmanned aerial vehicle"), so a searcher ANDs the two; the heading
    alone would drop the acronym's facet. None for a word that ends many headings' terms, a class the
    acronym is the kind of ("IoT devices", "NHS hospitals"), or a generic word ("ISO method")."""
    words = text.split()
    if vocabulary is None or len(words) != 2:
        return None
    acronym, word = words
    if not is_acronym(acronym) or any(ch.isdigit() for ch in acronym) or vocabulary.knows(acronym):
        return None
    if not word.isalpha() or not word.islower() or word in GENERIC_WORDS:
        return None
    return [acronym, word] if vocabulary.knows(word) and not vocabulary.is_head_word(word) else None


def _drafts_for_text(
    part: _Part,
    vocabulary: MeshVocabulary | None,
    defined: dict[str, str],
    description: str,
    context: list[MeshDescriptor] | None,
    biomedical: bool,
) -> list[Draft]:
    """`_drafts_for` of a phrase without a closing acronym."""
    # "home residents" of "nursing home residents": the understanding cut the phrase inside a name
    widened = widened_to_a_name(part.text, description, vocabulary)
    if widened != part.text and part.text in (_facets_after_a_compound_modifier(widened) or ()):
        widened = part.text  # "supply chains" of "agri-food supply chains": a facet, not a cut name
    pieces = [
        p
        for p in alternatives(widened, vocabulary)
        if (content_words(p) or people_only(p)) and not only_comparative(p)
    ]
    drafts: list[Draft] = []
    for index, piece in enumerate(pieces):
        text = without_take_up(clean_term(piece), vocabulary)  # "vaccination uptake": the vaccination
        text = without_the_act_of_taking(text, vocabulary)  # "coffee drinking": the coffee
        text = injuries_by_their_nouns(text, vocabulary)  # "broken hip": a hip fracture
        compound = f"{part.phrase}\n{index}"  # the drafts of one compound phrase are AND'ed, never OR'ed
        if not biomedical and (
            facets := _facets_around_an_acronym(text)
            or _facets_after_a_compound_modifier(text)
            or _acronym_before_a_heading(text, vocabulary)
        ):
            # "piezoelectric MEMS energy harvesters": outside medicine, an acronym before a compound of
            # its own names the technology the compound is built on; each facet is a concept (AND'ed)
            for facet in facets:
                for draft in _drafts_for(
                    replace(part, text=facet), vocabulary, defined, description, context, biomedical
                ):
                    draft.compounds.add(compound)
                    drafts.append(draft)
            continue
        if not biomedical and (built := _built_on_a_word_of_another_field(text, vocabulary)) is not None:
            # "magnetorquer-based attitude control": outside medicine, what a thing is built on, a word
            # MeSH writes nowhere, is a technology of its own, and the thing is a concept beside it
            means, thing = built
            drafts.append(_free_draft(means, part, description, vocabulary))
            drafts[-1].role = ConceptRole.INTERVENTION
            drafts[-1].compounds.add(compound)
            for draft in _drafts_for(
                replace(part, text=thing), vocabulary, defined, description, context, biomedical
            ):
                draft.compounds.add(compound)
                drafts.append(draft)
            continue
        matches = (
            vocabulary.recognize(
                text, defined, SLOT_TREES.get(part.slot, ()), complete=True, context=context or ()
            )
            if vocabulary
            else []
        )
        if vocabulary is not None and (causes := _cause_and_effect(text, matches, vocabulary)) is not None:
            # "cancer-related fatigue", "HIV-related stigma": what causes it and what it causes, AND'ed
            for at, facet in enumerate(causes):
                for draft in _drafts_for(
                    replace(part, text=facet), vocabulary, defined, description, context, biomedical
                ):
                    draft.compounds.add(compound)
                    if at == 0 and draft.role in (ConceptRole.OUTCOME, ConceptRole.SETTING):
                        draft.role = ConceptRole.INTERVENTION  # "chemotherapy-induced": an exposure
                    drafts.append(draft)
            continue
        if vocabulary is not None and (named := _named_without_based(text, vocabulary)) is not None:
            # "simulation-based training": MeSH names the thing without its "-based" (Simulation Training)
            drafts.append(_mesh_draft(named, text, part, description, defined, vocabulary))
            drafts[-1].terms[0].synonyms.insert(
                0, Synonym(text=clean_term(text), origins=[SynonymOrigin.USER])
            )
            continue
        if vocabulary is not None:
            procedures = [procedure_of_discipline(m, vocabulary, text) for m in matches]
            # "elective surgery": the procedure's match takes in the words before "surgery"
            matches = [
                m
                for m in procedures
                if not any(o is not m and o.start <= m.start and m.end <= o.end for o in procedures)
            ]
        found = matches
        matches = [
            m
            for m in matches
            # "School-based programmes": what a thing is based in is meant, however shallow its heading
            if (meant(m) or _BASED.match(text[m.end :]) or _site_of_a_procedure(m, found, text))
            and not characteristics_of_the_thing(m)  # "community" is no Residence Characteristics
            and not beyond_mesh(m, text, vocabulary)
            # "pharmacist-led services": who leads a thing is a person whatever the slot expects
            and (_LED.match(text[m.end :]) or not other_sense(m, text, part.slot, vocabulary))
            and not _ANTI.search(text[: m.start])
            and not _inside_a_compound_modifier(m, text, vocabulary)
            # "link workers": the one word of a category of people names no group a search is about
            and not (
                vocabulary is not None
                and " " not in m.text.strip()
                and people_category(m.descriptor, vocabulary)
            )
        ]
        matches = without_name_parts(matches, text)
        matches = [
            m
            for m in matches
            if not place_in_a_figure(m, matches, text)
            and not people_word_of_an_organism(m, matches, text)
            and not form_of_a_given_substance(m, matches, text)
        ]
        if vocabulary is not None and (kind_of_people := people_named_by_adjective(text, vocabulary)):
            matches = kind_of_people  # "homeless adults": Ill-Housed Persons, not Adult
        if (
            vocabulary is not None
            and not any(m.start == 0 and m.end == len(text) for m in matches)  # "community health nurses"
            and (specialty := professionals_of_a_specialty(text, vocabulary))
        ):
            matches = specialty  # "emergency physicians": Emergency Medicine, not Emergencies
        # "older women": the age group, whatever MeSH names the people word
        if vocabulary is not None and (aged := age_group(text, vocabulary)):
            kept = [m for m in matches if m.end <= aged[0].start or m.start >= aged[-1].end]
            matches = sorted(kept + aged, key=lambda m: m.start)
        if vocabulary is not None:
            matches = vaccine_of_vaccination(text, matches, vocabulary)  # "HPV vaccination": the vaccine
        if not matches and vocabulary is not None:
            matches = agents_of_adjective(text, content_words(text), vocabulary)
        if not matches and vocabulary is not None:
            matches = agents_of_plural(text, vocabulary)  # "sulfonylureas": Sulfonylurea Compounds
        if not matches and vocabulary is not None:
            matches = inhibitors_of_anti(text, vocabulary)  # "anti-TNF therapy": TNF Inhibitors
        if not matches and vocabulary is not None:
            matches = procedure_undergone(text, vocabulary)  # "hospitalised patients": Hospitalization
        if not matches and vocabulary is not None:
            matches = condition_of_people(text, vocabulary)  # "obese adults": Obesity
        if not matches and vocabulary is not None:
            matches = place_of_people(text, vocabulary)  # "rural areas": Rural Population
        if vocabulary is not None and biomedical and (acts := act_of_patient_care(text, vocabulary)):
            matches = acts  # "readmissions": Patient Readmission; "hospital discharge": not Hospitals
        if not matches and vocabulary is not None and (root := family_root(text, vocabulary)):
            matches = [MeshMatch(text, 0, len(text), root, "entry term")]  # "fractures": Fractures, Bone
        elif not matches and vocabulary is not None and (measured := _before_a_measure(text, vocabulary)):
            matches = [measured]  # "fracture risk": the risk of fractures (Fractures, Bone)
        # "cardiac testing", "Rapid" (+ "tests" from the description): a word MeSH writes in a pattern left out
        if (
            not matches
            and vocabulary
            and (elided := elided_match(with_head(text, description, vocabulary), vocabulary))
        ):
            text, matches = elided[0].text, elided
        if not matches and vocabulary is not None and part.side:
            # "laparoscopic versus open appendectomy": a side that is a technique's adjective alone
            matches = technique_of_adjective(text, vocabulary)
        if vocabulary is not None and biomedical and (distant := at_a_distance(text, matches, vocabulary)):
            if not matches:
                # "telerehab physiotherapy": Telerehabilitation, and the phrase as written beside it
                drafts.append(_mesh_draft(distant, text, part, description, defined, vocabulary))
                continue
            matches = sorted([*matches, distant], key=lambda m: m.start)  # "telemonitoring": Telemedicine
        if vocabulary and (kinds := kinds_match(text, vocabulary)):
            matches = (
                kinds  # "shift work": what MeSH's Night and Rotating Shift Work share, the longest match
            )
        other_senses = (
            [m for m in matches if another_fields_sense(m, text, matches, vocabulary)]
            if not biomedical and vocabulary is not None
            else []
        )
        if other_senses:
            # "monetary policy shocks": outside medicine, a word MeSH holds in a medical sense is the
            # other field's word, and the phrase is searched as written, OR the compound before it
            drafts.append(
                _free_draft(text, part, description, vocabulary, compound_before(text, other_senses))
            )
            continue
        if matches and vocabulary is not None and (where := based_in_a_name(text, matches, vocabulary)):
            drafts.append(_mesh_draft(where, "", part, description, defined, vocabulary))  # "home-based"
        if vocabulary is not None and (medium := medium_of_delivery(text, matches, vocabulary)):
            drafts.append(_mesh_draft(medium, "", part, description, defined, vocabulary))  # "app-based"
        around = named_around(text, matches, vocabulary) if matches and vocabulary is not None else None
        if around is not None:
            # "occupational heat exposure": an occupational exposure, AND the heat inside it
            drafts.append(_mesh_draft(around, "", part, description, defined, vocabulary))
            drafts[-1].compounds.add(compound)
        kind = named_with_its_class(text, matches, vocabulary) if matches and vocabulary is not None else None
        if kind is not None:
            # "catheter-associated urinary tract infections": Catheter-Related Infections, AND the kind
            drafts.append(_mesh_draft(kind, text, part, description, defined, vocabulary))
            drafts[-1].compounds.add(compound)
            # the compound's own words name nothing apart ("catheter" is no Catheters); the kind stays
            matches = [m for m in matches if m.end <= kind.start or m.end >= kind.end]
        resisted = resistance_before_organism(text, matches, vocabulary) if matches and vocabulary else None
        if resisted is not None:
            # "antibiotic-resistant E. coli": Drug Resistance, Bacterial AND the organism; no antibiotics
            drafts.append(_mesh_draft(resisted, "", part, description, defined, vocabulary))
            drafts[-1].compounds.add(compound)
            matches = [m for m in matches if m.end <= resisted.start or m.start >= resisted.end]
        words = content_words(text) or [w for w in text.split() if w.lower() in GENERIC_PEOPLE]
        if vocabulary is not None and (family := _head_family(text, matches, vocabulary)) is not None:
            # "dentine caries": its head ends only Dental Caries and its kinds, a dental caries
            drafts.append(_mesh_draft(family, text, part, description, defined, vocabulary))
            continue
        if not matches or not content_words(text):
            drafts.append(
                _free_draft(with_head(text, description, vocabulary), part, description, vocabulary)
            )
            continue
        if _a_named_technique(text, matches):
            # "constraint-induced movement therapy": the technique's name, not Movement
            drafts.append(_free_draft(text, part, description, vocabulary))
            drafts[-1].terms = [new_term(clean_term(text), part.slot, description)]  # "therapy" is its name's
            drafts[-1].role = ConceptRole.INTERVENTION
            continue
        matches, head_covered = reading_to_the_head(matches, text, words, vocabulary)
        conditions = [
            m for m in matches if role_of(m.descriptor) is ConceptRole.CONDITION and not health_care_sense(m)
        ]
        # "brain tumour segmentation": a disease is a concept of its own, the head names the task; "Blood
        # CEA levels": a specimen or organ before an acronym MeSH does not know is where the named thing is
        # measured, and the acronym is the concept
        apart = conditions or (
            [m for m in matches if role_of(m.descriptor) is ConceptRole.ANATOMY]
            if is_acronym(words[-1])
            else []
        )
        based = next((m for m in matches if _BASED.match(text[m.end :])), None)
        if not head_covered and based is not None and role_of(based.descriptor) is ConceptRole.SETTING:
            # "community-based walking groups": a thing based in a place is no kind of the place; the
            # place is a concept of its own, and the thing is what the phrase names
            drafts.append(_mesh_draft(based, "", part, description, defined, vocabulary))
            rest = clean_term(_BASED.sub("", text[based.end :]))
            if content_words(rest):
                drafts.append(_free_draft(rest, part, description, vocabulary))
            continue
        if based is not None and (not head_covered or _narrows_the_head(based, matches)):
            # "mindfulness-based stress reduction": a kind of what it is based on, searched with its heading;
            # "mindfulness-based cognitive therapy": MeSH files Mindfulness under the head's Cognitive
            # Behavioral Therapy, so the phrase names that narrower kind, not every cognitive therapy
            drafts.append(_mesh_draft(based, text, part, description, defined, vocabulary))
            if vocabulary is not None and not vocabulary.knows_word(words[-1]):
                # "bacteria-based self-healing concrete": a head no MeSH term holds is a thing of another
                # field, and the phrase names a kind of it: the thing is a concept of its own, and what it
                # is based on is what it is made with (not a disease the bacteria would be)
                drafts[-1].role = ConceptRole.INTERVENTION
                rest = clean_term(_BASED.sub("", text[based.end :]))
                drafts.append(_free_draft(rest, part, description, vocabulary))
            continue
        agent = next((m for m in matches if _leads(m, text)), None)
        if agent is not None:
            # "community pharmacist-led interventions": who delivers them is a concept MeSH names (the
            # pharmacists), and what they deliver is one of its own unless it is only a generic head,
            # recognised as any phrase is ("pharmacist-led anticoagulation management services": the
            # services' own words, whatever MeSH names in them); "ketamine-assisted psychotherapy" is the
            # drug's, the therapy it assists no block beside it (it had been OR'ed with the drug)
            drafts.append(_mesh_draft(agent, "", part, description, defined, vocabulary))
            rest = clean_term(_LED.sub("", text[agent.end :]))
            if content_words(rest) and not _ASSISTED.match(text[agent.end :]):
                drafts += _drafts_for(
                    replace(part, text=rest), vocabulary, defined, description, context, biomedical
                )
            continue
        first, _, rest = text.partition(" ")
        if (
            names_its_agent(first)
            and matches
            and content_words(strip_generic_edges(rest, vocabulary))
            and not any(m.start < len(first) < m.end for m in matches)
        ):
            # "peer-led HIV prevention interventions": who delivers them, a word MeSH has no person for,
            # names the kind of intervention (papers write "peer-led" of their programmes); what they
            # deliver is a concept of its own. Not where a MeSH term runs on from the word ("nurse-led
            # clinics" is Practice Patterns, Nurses' whole: its rest, "clinics", had been widened back
            # to the whole phrase, and the recursion never ended)
            delivered = _drafts_for(
                replace(part, text=rest), vocabulary, defined, description, context, biomedical
            )
            agent_draft = _free_draft(first, part, description, vocabulary)
            agent_draft.role = ConceptRole.INTERVENTION
            # "... versus clinician-delivered therapy": who delivers the comparator is left out with it
            agent_draft.comparator = part.compared_with or (
                part.group > 0 and rest.split()[-1].lower() in GENERIC_WORDS
            )
            drafts += [agent_draft, *delivered]
            continue
        if not head_covered and apart:
            rest = text
            for match in reversed(apart):
                rest = rest[: match.start] + " " + rest[match.end :]
            drafts += [_mesh_draft(m, "", part, description, defined, vocabulary) for m in apart]
            if content_words(rest) and not only_comparative(clean_term(rest)):  # "bed sores faster"
                drafts.append(_free_draft(clean_term(rest), part, description, vocabulary))
            continue
        if not head_covered and (done := _done_with(text, matches)) is not None:
            # "gait training": what an intervention noun is done with or on is what a paper about it
            # names, searched by its heading (the intervention noun is generic: the phrase adds nothing);
            # "fracking sites": a provision or place named by what it holds keeps the role of what it holds
            drafts.append(_mesh_draft(done, text, part, description, defined, vocabulary))
            if words[-1].lower() not in PROVISION_HEADS:
                drafts[-1].role = ConceptRole.INTERVENTION
            continue
        if not head_covered or noun_between(text, [(m.start, m.end) for m in matches]):
            # "speech decoding": the descriptors only modify the phrase's head, which MeSH does not know;
            # "fatigue crack growth": a noun no descriptor holds stands between two, so the phrase is one
            # compound MeSH does not name (not Fatigue AND Growth)
            drafts.append(
                _free_draft(with_head(text, description, vocabulary), part, description, vocabulary)
            )
            continue
        said = _conditions_said_by_adjectives(text, matches, vocabulary)
        guides = {
            id(m): g
            for m in matches
            if vocabulary is not None and (g := _guide(m, matches, text, vocabulary))
        }
        matches = [guides.get(id(m), m) for m in matches]
        # the last match's own words: from the end of the match before it ("mobile phone text
        # messaging": Text Messaging's phrase is "text messaging", not the Cell Phone before it)
        last_words = words_after(text, matches[-2].end) if len(matches) > 1 else text
        own = [
            _mesh_draft(
                match, last_words if match is matches[-1] else "", part, description, defined, vocabulary
            )
            for match in matches
        ]
        for match, draft in zip(matches, own, strict=True):
            if (
                own[-1].role is ConceptRole.INTERVENTION
                and draft.role in _ACTED_ON_ROLES
                and not is_prevented(match.text, description)  # "fall prevention programmes": the purpose
            ):
                # "sugar-sweetened beverage taxes": what a policy or programme is applied to is part
                # of what is done, not a measured outcome
                draft.role = ConceptRole.INTERVENTION
            if draft.role is ConceptRole.CONDITION and names_their_specialty(match, matches):
                draft.role = ConceptRole.SETTING  # "emergency physicians": where they work
            if draft.role is ConceptRole.POPULATION and names_a_tradition(match, matches):
                continue  # "Chinese herbal medicine": whose tradition the thing is, no people studied
            if apart_in_mesh(match, matches) or said or guides or around is not None or kind is not None:
                draft.compounds.add(compound)
            if not biomedical and entry_of_another_field(match.descriptor, match.via):
                draft.terms = [_as_written_only(term) for term in draft.terms]
            drafts.append(draft)
        for match in said:
            # "recurrent colorectal cancer": the cancer AND its recurrence, a condition of its own
            draft = _mesh_draft(match, "", part, description, defined, vocabulary)
            draft.compounds.add(compound)
            draft.apart = True
            drafts.append(draft)
    return drafts


# the written plans an intervention is delivered by ("enhanced recovery after surgery protocols", "sepsis
# care bundles"): after the one descriptor of what is done they add nothing a paper must write (alone,
# "trial protocol", they name no intervention, so they are no `INTERVENTION_HEADS`)
_PLAN_HEADS = frozenset({"protocol", "protocols", "bundle", "bundles", "pathway", "pathways"})


_BASED_BETWEEN = re.compile(r"(?<=\w)[-\s]based\s+(?=\w)", re.IGNORECASE)
# "magnetorquer-based attitude control": one word, "-based", and the thing built on it
_BUILT_ON_ONE_WORD = re.compile(r"^(?P<means>[A-Za-z]{3,})-based\s+(?P<thing>\S.*)$", re.IGNORECASE)


def _built_on_a_word_of_another_field(text: str, vocabulary: MeshVocabulary | None) -> tuple[str, str] | None:
    """The word a phrase "X-based Y" is built on and the thing Y, when X is one word no MeSH term holds
    (not an acronym): a technology of another field ("magnetorquer-based attitude control", "adjoint-based
    shape optimization"), which papers name apart from the thing ("attitude control with magnetorquers").
    A word MeSH writes is read by its heading elsewhere ("bacteria-based", "community-based",
    "mindfulness-based"); without a vocabulary nothing is cut."""
    found = _BUILT_ON_ONE_WORD.match(text.strip())
    if vocabulary is None or found is None:
        return None
    means, thing = found.group("means"), found.group("thing").strip()
    if is_acronym(means) or vocabulary.knows_word(means) or not content_words(thing):
        return None
    return means, thing


def _named_without_based(text: str, vocabulary: MeshVocabulary) -> MeshMatch | None:
    """The one descriptor MeSH names for all of "X-based Y" written without its "-based" ("simulation-based
    training": Simulation Training), where MeSH does not name the phrase as written; else None."""
    if not _BASED_BETWEEN.search(text) or vocabulary.knows(text):
        return None
    collapsed = _BASED_BETWEEN.sub(" ", text).strip()
    matches = vocabulary.recognize(collapsed, complete=True)
    if len(matches) == 1 and matches[0].text.casefold() == collapsed.casefold():
        return matches[0]
    return None


def _before_a_measure(text: str, vocabulary: MeshVocabulary) -> MeshMatch | None:
    """The family root (`family_root`) the first of two words names before a noun of what is measured of it
    (`OUTCOME_MEASURES`: "fracture risk", "fracture rates"), where MeSH knows neither the phrase nor the
    word alone: the measure is the outcome's, the word its concept."""
    words = text.split()
    if len(words) != 2 or words[1].lower() not in OUTCOME_MEASURES:
        return None
    root = family_root(words[0], vocabulary)
    return MeshMatch(words[0], 0, len(words[0]), root, "entry term") if root is not None else None


def _done_with(text: str, matches: list[MeshMatch]) -> MeshMatch | None:
    """The phrase's one match when all that follows it is intervention nouns (`INTERVENTION_HEADS`: "gait
    training", "gait training programmes"; `_PLAN_HEADS`: "ERAS protocols"), the organisational nouns of a provision or place
    (`PROVISION_HEADS`: "fracking sites", "pay-for-performance schemes"), or after a substance nouns of
    handing it over, of the form it is given in or of its presence too (`HANDING_NOUNS`: "take-home
    naloxone distribution programmes"; `GIVEN_FORM_NOUNS`: "chlorhexidine bathing", "take-home naloxone
    kits"; `PRESENCE_NOUNS`: "microplastic contamination", "arsenic levels"): the intervention is done
    with or on what the match names, which every paper of it writes. None when the phrase holds more matches or a word before the match
    other than a hyphenated compound (or, before a substance given, an adjective: "prophylactic
    phenylephrine infusion"), or the match is a condition (a concept apart: "dementia care
    programmes")."""
    given = bool(matches) and role_of(matches[0].descriptor) is ConceptRole.INTERVENTION
    if (
        len(matches) != 1
        or role_of(matches[0].descriptor) is ConceptRole.CONDITION
        # "inspiratory muscle training" is no training of Muscles; a hyphenated compound before the
        # match says how it is done ("robot-assisted gait training": gait training, robot-assisted), as
        # adjectives say how a substance is given ("prophylactic phenylephrine infusion")
        or any(
            "-" not in word and not (given and is_adjective(word.lower()))
            for word in text[: matches[0].start].split()
        )
    ):
        return None
    rest = content_words(text[matches[0].end :])
    # a substance handed over: "take-home naloxone distribution programmes" are naloxone's
    heads = (
        INTERVENTION_HEADS
        | _PLAN_HEADS
        | PROVISION_HEADS
        | (HANDING_NOUNS | GIVEN_FORM_NOUNS | PRESENCE_NOUNS if given else set())
    )
    if not rest or any(word.lower() not in heads for word in rest):
        return None
    return matches[0]


# the trees of what a body or mind does (phenomena and processes, behaviour, psychological phenomena),
# and of examining it (E01: Gait is also filed among the diagnostic examinations)
_FUNCTION_TREES = ("G", "F01", "F02")
_FUNCTION_OR_EXAMINATION_TREES = (*_FUNCTION_TREES, "E01")


def _site_of_a_procedure(match: MeshMatch, matches: list[MeshMatch], text: str) -> bool:
    """Whether a one-word match naming a body part stands right before a procedure MeSH names ("lung
    biopsy", "liver biopsy", "lung ultrasound"): the organ the procedure is done on is a concept of
    its own, however near the top of its tree (Lung, Liver and Skin are one level under their
    systems, too shallow for a word alone elsewhere: `names_the_concept`). Without it "lung biopsy"
    searched every biopsy."""
    following = next((m for m in matches if m.start > match.start), None)
    return (
        is_anatomy(match.descriptor)
        and " " not in match.text.strip()
        and following is not None
        and not text[match.end : following.start].strip()
        and role_of(following.descriptor) is ConceptRole.METHOD
        and any(t.startswith("E") for t in following.descriptor.tree_numbers)
    )


def _a_function(descriptor: MeshDescriptor) -> bool:
    """Whether MeSH files a descriptor only as a function of the body or mind ("Movement", "Gait",
    "Memory"; not a therapy filed in F04 as well, such as Mindfulness, nor a thing or technique)."""
    trees = descriptor.tree_numbers
    return any(t.startswith(_FUNCTION_TREES) for t in trees) and all(
        t.startswith(_FUNCTION_OR_EXAMINATION_TREES) for t in trees
    )


def _narrows_the_head(based: MeshMatch, matches: list[MeshMatch]) -> bool:
    """Whether what an "X-based" phrase is based on is filed in MeSH under the descriptor of the phrase's
    head (the last match): then X names the kind of the head the phrase means."""
    head = matches[-1]
    return (
        head is not based
        and head.descriptor.ui != based.descriptor.ui
        and is_under(based.descriptor, head.descriptor)
    )


def _a_named_technique(text: str, matches: list[MeshMatch]) -> bool:
    """Whether a phrase is the name of a technique around the one function MeSH names in it: a
    hyphenated compound before the function and only intervention nouns after it ("constraint-induced
    movement therapy", "robot-assisted gait training"). The compound says which technique it is, and
    the function (Movement, Gait) is what its papers measure, not the technique: the phrase is the
    concept, searched as written. Without a compound ("gait training") the act is done on the function."""
    if len(matches) != 1 or not _a_function(matches[0].descriptor):
        return False
    # the acronym written after the name ("... therapy (CIMT)") is the name's too
    before, after = text[: matches[0].start].split(), split_parenthetical(text[matches[0].end :])[0].split()
    return (
        any("-" in word.strip("-") for word in before)
        and bool(after)
        and all(word.lower() in INTERVENTION_HEADS for word in after)
    )


def _inside_a_compound_modifier(match: MeshMatch, text: str, vocabulary: MeshVocabulary | None) -> bool:
    """Whether a one-word match is the noun of a hyphenated modifier opened by a word MeSH writes only as
    a modifier, or by a word MeSH never writes, or that MeSH never writes with it, before another noun
    ("early-life exposure", "high-risk groups", "low-income households", "brand-name drugs", "call-light
    use"): the compound qualifies the noun after it, and its own noun (Life, Risk, Income, Names,
    Light) is no concept."""
    before, after = text[: match.start], text[match.end :]
    opener = before[:-1].split()[-1] if before[:-1].split() else ""
    return (
        vocabulary is not None
        and " " not in match.text.strip()
        and before.endswith("-")
        and bool(re.match(r"\s+[A-Za-z]", after))
        and (
            vocabulary.is_modifier(opener)
            or (opener.isalpha() and not vocabulary.knows(f"{opener} {match.text.strip()}"))
        )
    )


def _as_written_only(term: Term) -> Term:
    """The term without its heading: the words as written and the synonyms the user gave."""
    user = [s for s in term.synonyms if SynonymOrigin.USER in s.origins]
    return Term(canonical=term.canonical, slot=term.slot, synonyms=user, original=term.original)


def _head_family(text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary) -> MeshMatch | None:
    """The whole phrase as a match of the family its head word names (`head_family_root`: "dentine
    caries", Dental Caries), when no match reaches the head; a phrase MeSH matches nowhere is read
    without its generic edges first ("proximal caries detection": the proximal caries detected)."""
    if not matches:
        text = strip_generic_edges(text, vocabulary)
    tokens = tokenize(text)
    if len(tokens) < 2 or any(m.end >= tokens[-1].end for m in matches):
        return None
    root = head_family_root(tokens[-1].text, vocabulary)
    return MeshMatch(text, 0, len(text), root, "entry term") if root is not None else None


# weak roles a modifier of an intervention's head takes on as what the intervention is applied to
_ACTED_ON_ROLES = frozenset({ConceptRole.OUTCOME, ConceptRole.SETTING})


def _conditions_said_by_adjectives(
    text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary | None
) -> list[MeshMatch]:
    """The conditions the words of `text` outside its matches name by their nouns ("recurrent":
    Recurrence, `agent.language.adjective_nouns`), as matches of those words; not an adjective that names
    the complications of a disease (`names_complications`: "diabetic")."""
    if vocabulary is None:
        return []
    said = []
    for token in tokenize(text):
        if any(m.start <= token.start < m.end for m in matches):
            continue
        found = condition_of_adjective(token.text, vocabulary)
        if (
            found is not None
            and all(m.descriptor.ui != found.ui for m in matches)
            # "diabetic macular oedema": a complication, not Diabetes Mellitus AND Macular Edema
            and not names_complications(token.text, vocabulary)
        ):
            said.append(MeshMatch(token.text, token.start, token.end, found, "entry term"))
    return said


def _role(
    role: ConceptRole,
    part: _Part,
    description: str,
    text: str = "",
    descriptor: MeshDescriptor | None = None,
    head: bool = True,
) -> ConceptRole:
    """The role the search gives a concept, from the tree (MeSH) or the slot, corrected by what the
    description says: an exposure is an intervention, whichever slot holds it (`is_exposure`); a phrase
    headed by an intervention noun is one ("exercise training"), and so is the head of a side of
    "versus" whose role comes out weak ("low-dose CT versus chest X-ray": what is compared is done to
    the people, not where or what is measured; `head` is False for a modifier such as "chest",
    which keeps its role); a descriptor MeSH files only under
    the humanities, social sciences, health care or geography (H, I, K, N, Z: "Employment", "Quality of
    Life") takes the role of the slot that holds it when that slot is not the context; a descriptor
    filed in several branches takes the role of the branch its slot expects (Blood Pressure, filed
    under diagnostic techniques and physiological phenomena, is what is measured in the outcome)."""
    if (
        descriptor is not None
        and part.slot != "context"
        and all(t[0] in "HIKNZ" for t in descriptor.tree_numbers)
    ):
        role = SLOT_ROLE.get(part.slot, role)
    elif descriptor is not None:
        role = _role_in_slot_branch(descriptor, part.slot, role)
    weak = role in {ConceptRole.SETTING, ConceptRole.OUTCOME}
    if (
        role is ConceptRole.OUTCOME
        and part.slot == "subject_population"
        and (_said_with(part.phrase, text) or _said_of_the_people(part.phrase, text))
    ):
        # "adults with depression", "postmenopausal women": what the people have or are, not what is measured
        return ConceptRole.CONDITION
    if head and part.side and (weak or role is ConceptRole.ANATOMY):
        return ConceptRole.INTERVENTION
    if head and part.means and role is not ConceptRole.POPULATION:
        return ConceptRole.INTERVENTION  # "vector control with Wolbachia": what the control is done with
    if head and part.done and weak:
        # the "X" of "X for Y": a test in a question of diagnosis, else what is done to the people (a body
        # fluid or organ, "urine tests", stays the anatomy a sample is taken from)
        return ConceptRole.METHOD if asks_for_a_diagnosis(description) else ConceptRole.INTERVENTION
    if head and part.done and role is ConceptRole.ALGORITHM:
        # "Federated learning for intrusion detection": the algorithm a title is about is the method, not
        # one that only narrows ("... predicted with random forests" stays an algorithm)
        return ConceptRole.METHOD
    if weak and is_exposure(part.phrase or part.text, description, part.original):
        return ConceptRole.INTERVENTION
    if role is ConceptRole.SETTING and is_prevented(text, description):
        return ConceptRole.OUTCOME  # "fall prevention": what is prevented is the outcome, whatever its tree
    words = text.split()
    if weak and words and words[-1].lower() in INTERVENTION_HEADS:
        return ConceptRole.INTERVENTION
    if role is ConceptRole.SETTING and part.slot != "context":
        return SLOT_ROLE.get(part.slot, role)
    return role


def _role_in_slot_branch(descriptor: MeshDescriptor, slot: str, role: ConceptRole) -> ConceptRole:
    """For a slot of what is measured, the role of the descriptor's trees under the branches the slot
    expects, when only some of its trees are there; else `role`. (A population's or a method's slot
    keeps the tree's role: "households" is a population whatever branch Family Characteristics is in.)"""
    if SLOT_ROLE.get(slot) is not ConceptRole.OUTCOME:
        return role
    expected = SLOT_TREES.get(slot, ())
    inside = [t for t in descriptor.tree_numbers if t.startswith(expected)] if expected else []
    if not inside or len(inside) == len(descriptor.tree_numbers):
        return role
    return role_of(descriptor.model_copy(update={"tree_numbers": inside}))


def _had(text: str) -> bool:
    """Whether free words could name what people have: an acronym ("PCOS"), or a phrase of several
    words that are no people and no measured value. A lone word MeSH does not name is a modifier cut
    from its noun ("severe" of "with severe to profound hearing loss"), and "BMI 35-40" an inclusion
    criterion a searcher leaves out."""
    if is_acronym(text):
        return True
    return len(text.split()) > 1 and not people_only(text) and not any(ch.isdigit() for ch in text)


def _said_with(phrase: str, text: str) -> bool:
    """True when `text` stands after "with" in `phrase` ("adults with depression")."""
    before, _, after = phrase.casefold().partition(" with ")
    return bool(after) and bool(text) and text.casefold() in after


def _said_of_the_people(phrase: str, text: str) -> bool:
    """True when `text` stands right before the people's word in `phrase` ("postmenopausal women",
    "pregnant adolescents"): the state that makes them the people studied."""
    found = re.search(rf"\b{re.escape(text)}\s+([^\W\d_]+)", phrase, re.IGNORECASE) if text else None
    return found is not None and found.group(1).lower() in PEOPLE_NOUNS


def _free_draft(
    text: str,
    part: _Part,
    description: str,
    vocabulary: MeshVocabulary | None = None,
    core: str | None = None,
) -> Draft:
    """A phrase MeSH does not name: one free-text term whose role is its slot's, except that a context
    or population phrase whose head noun names diseases is a condition ("... for clinically suspected
    scaphoid fractures", "pancreatic and periampullary cancer": people named by their disease are that
    condition). (Not an outcome: "relieve symptoms" only narrows.) `core`, when given, is the compound
    searched beside the phrase, else `searchable_core` finds it."""
    term = new_term(strip_generic_edges(text, vocabulary), part.slot, description)
    if (core := core or searchable_core(term.canonical, vocabulary)) is not None:
        term.synonyms.append(Synonym(text=core, origins=[SynonymOrigin.USER]))
    role = _role(SLOT_ROLE.get(part.slot, ConceptRole.METHOD), part, description, text)
    if role in {ConceptRole.SETTING, ConceptRole.POPULATION} and (
        any(head_is_a_condition(phrase, vocabulary) for phrase in (term.canonical, text))
        or the_peoples_one_condition(term.canonical, part.phrase, vocabulary)
    ):  # the phrase as written tells the head's role where its modifiers went ("clinically evident lesions")
        role = ConceptRole.CONDITION
    if role is ConceptRole.CONDITION and (too_broad := _too_broad_heading(term.canonical, vocabulary)):
        # "patients with cancer": the word is searched as written, with the heading's other one-word
        # names a searcher ORs beside it (tumor, neoplasm, malignancy)
        term.synonyms += [
            Synonym(text=w, origins=[SynonymOrigin.MESH]) for w in one_word_names(too_broad, term.canonical)
        ]
    if role is ConceptRole.POPULATION and _had(term.canonical) and _said_with(part.phrase, text):
        # "women with PCOS", "adults with CKD", "neonates with respiratory distress": what MeSH does not
        # name, after the "with" of the people, is what they have (an acronym had been an optional
        # population beside their other condition, and words OR'ed into the people's block)
        role = ConceptRole.CONDITION
    head = term.canonical.split()[-1].lower() if term.canonical.split() else ""
    if (drug := _drug_built_on(term.canonical)) is not None:
        term.synonyms.append(Synonym(text=drug, origins=[SynonymOrigin.USER]))
    if role in {ConceptRole.SETTING, ConceptRole.OUTCOME} and (english_drug_class(head) or drug):
        # "dupilumab", "tirzepatide"-like names MeSH has no descriptor for: a drug by its INN stem is
        # given, like a descriptor of the drugs tree (D)
        role = ConceptRole.INTERVENTION
    if role is ConceptRole.POPULATION and head in PLACE_HEADS:
        role = ConceptRole.SETTING  # "in technology firms": where the people are, not who they are
    # "bariatric surgery versus intensive medical therapy": what the studies compare with is left out
    # (so is a side that names only who delivers it: "versus clinician-delivered therapy")
    comparator = part.compared_with or (part.group > 0 and (head in GENERIC_WORDS or names_its_agent(head)))
    return Draft(role, part.slot, part.group, [term], comparator=comparator)


def _too_broad_heading(word: str, vocabulary: MeshVocabulary | None) -> MeshDescriptor | None:
    """The one condition heading a single word names but is too broad to search on ("cancer":
    Neoplasms, `names_the_concept`), or None."""
    if vocabulary is None or len(word.split()) != 1:
        return None
    named = [d for d in vocabulary.lookup(word) if role_of(d) is ConceptRole.CONDITION]
    if len(named) != 1 or names_the_concept(named[0], word):
        return None
    return named[0]


# the second part of a compound that names a regimen by the drug it is built on ("dolutegravir-based ART")
_BUILT_ON = ("based", "containing")


def _drug_built_on(phrase: str) -> str | None:
    """The drug, by its INN stem, a regimen is built on: "dolutegravir" in "dolutegravir-based ART" or
    "tenofovir-containing regimens" (searched beside the phrase, which papers rarely write whole)."""
    for word in phrase.split()[:-1]:
        first, _, rest = word.partition("-")
        if rest.lower() in _BUILT_ON and english_drug_class(first) is not None:
            return first
    return None


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
    match: MeshMatch,
    phrase: str,
    part: _Part,
    description: str,
    defined: dict[str, str],
    vocabulary: MeshVocabulary | None = None,
) -> Draft:
    canonical = defined.get(match.text, match.text) if match.via == "acronym" else match.text
    # an ancestor named by a generic word ("Adult" in "young adults", "Records") would not narrow anything
    broader = [
        parent
        for parent in match.parents
        if names_the_concept(parent, parent.heading, via="heading")
        and not (vocabulary is not None and people_category(parent, vocabulary))  # "healthcare workers"
        and not people_of_a_kind(match.descriptor)  # "preschool children" are no Child (aged 6-12)
        and indexed_under_when_unspecified(parent)  # no Beverages beside Sugar-Sweetened Beverages
    ]
    # the nearest of them: "low back pain" adds Back Pain, not Pain above it as well
    broader = [b for b in broader if not any(o.ui != b.ui and is_under(o, b) for o in broader)]
    term = Term(canonical=canonical, slot=part.slot, mesh=match.descriptor, broader=broader)
    if match.via == "acronym" and canonical != match.text:
        term.synonyms.append(Synonym(text=match.text, origins=[SynonymOrigin.USER]))
    for short, long in defined.items():  # "electrocorticography (ECoG)": the user's acronym is a synonym
        if match.via != "acronym" and phrase_key(long) == phrase_key(match.text):
            term.synonyms.append(Synonym(text=short, origins=[SynonymOrigin.USER]))
        elif match.via != "acronym" and phrase and phrase_key(long) == phrase_key(phrase):
            # "Direct oral anticoagulants (DOACs)": an acronym the description defines for the whole
            # phrase makes the phrase a name, searched as written beside the broader heading it holds
            term.synonyms += [
                Synonym(text=long, origins=[SynonymOrigin.USER]),
                Synonym(text=short, origins=[SynonymOrigin.USER]),
            ]
    extra = strip_generic_edges(phrase, vocabulary) if phrase else ""
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
    role = _role(
        role_of(match.descriptor),
        part,
        description,
        phrase or match.text,
        match.descriptor,
        head=bool(phrase),
    )
    if (
        term.synonyms
        and term.synonyms[0].text == extra
        and _coarse_heading(match.descriptor)
        and not a_class_noun_after(phrase, match)  # "machine learning models": Machine Learning itself
        and _done_with(phrase, [match]) is None  # "virtual reality training": done with Virtual Reality
    ):
        # "graph neural networks": MeSH files every kind of network under one heading, and the kind
        # is what the user means; the phrase is searched, not the heading that would find them all
        term = Term(canonical=extra, slot=part.slot, synonyms=term.synonyms[1:])
    elif (
        term.synonyms
        and term.synonyms[0].text == extra
        and vocabulary is not None
        and _a_noun_names_the_kind(extra, match, vocabulary)
    ):
        # "minimum wage" (Salaries and Fringe Benefits), "sugar taxes" (Taxes): the heading names
        # only the head noun; the words keep the noun that makes the phrase a kind of it, as a
        # librarian writes them, and the bare head is left to the heading
        term = Term(
            canonical=extra, slot=part.slot, mesh=term.mesh, broader=term.broader, synonyms=term.synonyms[1:]
        )
    draft = Draft(role, part.slot, part.group, [term], comparator=part.compared_with)
    companion = searched_beside(match.descriptor, vocabulary) if vocabulary is not None else None
    if (
        companion is not None
        and is_organism(match.descriptor)
        and is_acronym(match.text.strip())
        and written_in(match.text, companion.heading)
        and not looks_for_the_pathogen(description)
    ):
        # "people living with HIV": an acronym the infection's own heading writes (HIV Infections) names
        # the infection as often as the virus; outside a question of finding the pathogen the infection
        # is searched, not the virus
        term.mesh, term.broader = companion, []
        return draft
    if (
        companion is not None
        and role is ConceptRole.CONDITION
        and (not is_organism(companion) or looks_for_the_pathogen(description))
    ):
        # "invasive aspergillosis" in a question of its diagnosis: the block a searcher writes ORs the
        # organism the infection is named after; "human papillomavirus testing": the infection named
        # after the organism
        draft.companions.append(Term(canonical=companion.heading, slot=part.slot, mesh=companion))
    if vocabulary is not None and (state := _state_of_the_people(match, vocabulary)) is not None:
        # "pregnant women": the people MeSH names (Pregnant Women) OR what they are in (Pregnancy), the
        # heading the papers about them are indexed with
        draft.companions.append(Term(canonical=state.heading, slot=part.slot, mesh=state))
    return draft


def _state_of_the_people(match: MeshMatch, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The condition or state a heading of people names by its adjective ("Pregnant Women": Pregnancy,
    `agent.language.adjective_nouns`), or None: a heading under Persons of two words or more whose
    first word is that adjective."""
    words = match.descriptor.heading.split()
    if len(words) < 2 or not any(t.startswith(PERSONS_TREE) for t in match.descriptor.tree_numbers):
        return None
    state = condition_of_adjective(words[0], vocabulary)
    return state if state is not None and state.ui != match.descriptor.ui else None


# MeSH's computing and mathematical concepts (Information Science L01, Mathematical Concepts G17) have
# one heading for a whole family of methods ("Neural Networks, Computer" for graph, convolutional and
# recurrent networks alike), unlike its clinical techniques, whose kinds searchers OR under the heading
_COARSE_TREES = ("L01", "G17")


# the trees whose kinds a searcher ORs under the head's own word ("childhood asthma": asthma; "university
# students": students; "freshwater fish": fish; "serum urate" is urate measured in serum): conditions,
# people, organisms, anatomy
_HEAD_WORD_TREES = ("C", "F03", "M01", "B", "A")
# A hyphenated grade of a property before a material ("high-strength steels", "high-entropy alloys",
# "low-carbon steel", "ultra-high-performance concrete"): materials science names a class of the
# material so, and the papers write the class, not the bare material. Only before a heading MeSH files
# under technology and industry (J01: Steel, Alloys, Ceramics, Polymers), never before a drug or a
# condition ("low-dose aspirin", "high-risk pregnancy" keep their heading's word). Grammar, not topics.
_GRADED_PROPERTY = re.compile(r"(?:ultra-?)?(?:high|low)-[a-z]{3,}")
# English adjective and participle endings: a modifier so formed grades or places the head ("advanced",
# "resistant", "antenatal", "occupational") rather than naming a kind of it as a noun does
_NOT_A_NOUN_ENDINGS = (
    "al",
    "ic",
    "ive",
    "ous",
    "ary",
    "ory",
    "able",
    "ible",
    "ful",
    "ant",
    "ent",
    "ed",
    "ing",
)


def _a_noun_names_the_kind(phrase: str, match: MeshMatch, vocabulary: MeshVocabulary) -> bool:
    """Whether `phrase` is the match's words after one noun that makes them a kind the heading does
    not name ("minimum wage" of Salaries and Fringe Benefits, "soda taxes" of Taxes, "video
    consultations"), outside the trees whose kinds are searched by the head's word (`_HEAD_WORD_TREES`)."""
    words, head = phrase_key(phrase), phrase_key(match.text)
    written = phrase.split()[0]
    modifier = written.casefold()
    if (
        _GRADED_PROPERTY.fullmatch(modifier)
        and phrase_key(" ".join(phrase.split()[1:])) == head
        and any(t.startswith("J01") for t in match.descriptor.tree_numbers)
    ):
        return True  # "high-strength steels", "high-entropy alloys": a class of the material, as written
    if len(words) != len(head) + 1 or words[1:] != head:
        return False
    return (
        modifier.isalpha()
        and not is_acronym(written)  # "IVF clinic audit": the acronym is a name of its own
        # "time series", "energy consumption": another field's thing, searched by its words alone
        and not entry_of_another_field(match.descriptor, match.via)
        and not modifier.endswith(_NOT_A_NOUN_ENDINGS)
        and not is_adjective(modifier)
        and vocabulary.head_role(modifier) is not ConceptRole.CONDITION  # "acute", "chronic": a course
        and modifier not in GENERIC_WORDS | EVALUATIVE_WORDS
        and not any(role_of(d) is ConceptRole.ANATOMY for d in vocabulary.lookup(modifier))
        and (
            not any(t.startswith(_HEAD_WORD_TREES) for t in match.descriptor.tree_numbers)
            # "diamondback moth", "codling moth": a noun MeSH writes in none of its terms before an
            # organism's word is the common name of one species, not a kind the head's word finds
            # ("freshwater fish", "reef fish", "honey bees" are searched by their head)
            or (
                is_organism(match.descriptor)
                and all(t.startswith("B") for t in match.descriptor.tree_numbers)
                and not vocabulary.knows_word(modifier)
            )
        )
    )


def _coarse_heading(descriptor: MeshDescriptor) -> bool:
    return bool(descriptor.tree_numbers) and all(t.startswith(_COARSE_TREES) for t in descriptor.tree_numbers)


def concept_for_term(term: Term, taken: set[str]) -> Concept:
    """A concept of its own for a term added in the review (its role from MeSH, else from its slot)."""
    role = role_of(term.mesh) if term.mesh else SLOT_ROLE.get(term.slot, ConceptRole.METHOD)
    concept = Concept(id=concept_id(term.canonical, set(taken)), label=term.canonical, role=role)
    concept.required = role in REQUIRED_ROLES
    concept.reason = "added in the review"
    return concept
