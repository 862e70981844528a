"""Which slot a phrase goes in (rules fallback), from its cue, head word, acronym shape and MeSH.

The order of evidence: a slot the phrase cutter already knows; for Chinese, the head word, then a
people word, then the English rendering (head word, MeSH); for English, a "-based" method adjective
("ECoG-based"), then under a task cue the object of the task, then the head word, then MeSH, then the
cue, and what is left is the setting. A task phrase is split: methods, a named thing and setting
adjectives leave it ("invasive speech brain-computer interface decoding" -> task "speech decoding",
context "invasive brain-computer interface"). A method named only by its cue is an analysis when an
algorithmic modifier ("probabilistic", "Bayesian") or a software-shaped name ("MaxEnt", "LightGBM")
says so; an unknown gerund with no cue is the setting (the task gerunds are listed).
"""

from __future__ import annotations

import re

from agent.language.mesh_recognition import HUMANS_TREE, PERSONS_TREE
from agent.language.morphology import is_acronym, singular
from agent.understanding import lexicon as lex
from agent.understanding.chinese_phrases import zh_english, zh_people
from agent.understanding.english_clauses import is_clause_verb
from agent.understanding.english_word_forms import is_past_participle
from agent.understanding.phrase import CJK, Phrase
from agent.understanding.slot_evidence import (
    acronym_slot,
    agent_plural,
    analyses_matter,
    cue_slot,
    en_head_slot,
    ending_trees,
    given_device,
    is_place,
    is_population,
    is_process,
    mesh_kind,
    mesh_slot,
    names_a_procedure,
    software_name,
    zh_head_slot,
)
from agent.understanding.slot_translation import embedded_vocabulary

_BASED_ON = "基于"
_SIMULATION_WORDS = ("模拟", "仿真")


def classify(phrase: Phrase) -> list[tuple[str, str]]:
    """(slot, term) pairs for one phrase; a task phrase may also yield a context term. A Chinese phrase
    about the user ("我是一名麻醉科医生") names no concept, as an English one does (`_classify_words`)."""
    if phrase.cue == "self" and CJK.search(phrase.text):
        return []
    if phrase.slot:
        return [(phrase.slot, phrase.text)]
    chinese = bool(CJK.search(phrase.text))
    if chinese:
        text = phrase.text
        for ending in lex.ZH_GENERIC_HEADS:
            if text.endswith(ending) and zh_head_slot(text[: -len(ending)]) == "task":
                # "小目标检测方法": a method *for* a task is the task
                return [("task", text[: -len(ending)])]
        slot = zh_head_slot(phrase.text)
        if slot is None and zh_people(phrase.text):
            slot = "subject_population"  # 水稻 "rice", 大学生 "college students": by the English rendering
        if phrase.cue and phrase.cue.startswith("task:"):
            task_word = phrase.cue.removeprefix("task:")
            if slot in {None, "output_target", "signal_feature", "method_measurement"}:
                return [("task", phrase.text + task_word)]
        if slot is None:
            # no Chinese head word the tables know: the English rendering's head word or MeSH decides
            slot = _english_evidence(phrase)
            if slot == "method_measurement" and phrase.cue == "exposure":
                # "眼晶状体受照剂量与白内障的关系": a dose or level the sentence makes act on the outcome is
                # the exposure, though MeSH files "radiation dosage" as a measurement
                slot = "context"
        if slot is None:
            slot = cue_slot(phrase.cue, True) or "context"
        if slot == "method_measurement" and phrase.cue in lex.ZH_METHOD_CUES:
            slot = zh_head_slot(phrase.text) or "method_measurement"
        if slot == "task" and phrase.cue in lex.ZH_SOURCE_CUES:
            slot = "method_measurement"  # "数据来自动态血压监测": the monitoring the data come from
        if slot == "task" and phrase.after == _BASED_ON and phrase.text.endswith(_SIMULATION_WORDS):
            # "基于CFD数值模拟的|阻力预测", "基于有限元仿真的|抗震性能评估": a simulation a study is based on is
            # its method, though 模拟 heads tasks elsewhere ("模拟降雨"); a task verb after 基于 X is the
            # task (基于…影像组学特征|预测…: "prediction")
            slot = "method_measurement"
        return [(slot, phrase.text)]

    found: list[tuple[str, str]] = []
    words = []
    derived = False  # "satellite-derived burn severity": what is derived from a method is a feature
    for word in phrase.words:
        based = re.match(r"^(.+?)-(?:based|driven|guided|derived|assisted|enabled)$", word, re.IGNORECASE)
        inner = based.group(1) if based else ""
        slot = (
            (acronym_slot(inner) if is_acronym(inner) else en_head_slot([inner]) or mesh_kind(inner))
            if based
            else None
        )
        if based and not (is_acronym(inner) or slot in {"method_measurement", "method_algorithm"}):
            based = None  # "nickel-based superalloys", "school-based": a modifier, not a method
        if based:  # "ECoG-based", "smartphone-based": the method, said as an adjective
            found.append((slot if slot == "method_algorithm" else "method_measurement", inner))
            derived = derived or word.lower().endswith("-derived")
        else:
            words.append(word)
    if not words:
        return found
    if derived and en_head_slot(words) in {None, "signal_feature", "output_target"}:
        return [*found, ("signal_feature", " ".join(words))]  # "GPS-derived training loads"
    return found + _classify_words(phrase, words)


def _classify_words(phrase: Phrase, words: list[str]) -> list[tuple[str, str]]:
    if phrase.cue == "self":
        return []
    if _measure_phrase(words):
        # "time to repair", "distance to roads": the measure is the head, whatever ends the phrase; a
        # variable, the outcome or exposure when the sentence says so, never a method or a task
        said = cue_slot(phrase.cue, False)
        return [(said if said in _VARIABLE_ROLES else "signal_feature", " ".join(words))]
    found = _classify_head(phrase, words)
    if [slot for slot, _ in found] == ["method_algorithm"] and (task := _task_of_model(words)):
        found.append(("task", task))  # "a risk prediction model": the model, and the task it does
    studied = _studied_modifier(words)
    if (
        studied
        and found
        and found[0][0] in {"task", "output_target", "signal_feature"}
        # "peanut allergy", "lice infestations", "millet consumption": the organism or food is the cause
        # or what is taken, not who is studied (people who take it are: "household consumption")
        and mesh_kind(" ".join(words)) != "condition"
        and (singular(words[-1].lower()) not in lex.EN_ACTION_HEADS or is_population(studied.split()))
    ):
        # "bird biodiversity", "firm innovation": what is measured or done belongs to those studied
        found.append(("subject_population", studied))
    return found


# facilities MeSH files that people are admitted, received or moved into: health facilities (N02.278),
# schools (I02.783) and other facilities (J03: prisons, housing)
_FACILITY_TREES = ("N02.278", "I02.783", "J03")


def _entered_facility(cue: str | None, text: str) -> bool:
    """ "screened at reception into prison", "admission into hospital": what one goes into is the
    setting, not an outcome (the output cue "into" is for what is made: "transcribe X into MIDI")."""
    return cue == "into" and any(tree.startswith(_FACILITY_TREES) for tree in ending_trees(text))


def _task_of_model(words: list[str]) -> str | None:
    """ "risk prediction model" -> "risk prediction", "sepsis detection system" -> "sepsis detection":
    a model noun after a task noun with its object names the task the model does."""
    if len(words) < 3 or singular(words[-1].lower()) not in _MODEL_NOUNS:
        return None
    if singular(words[-2].lower()) not in lex.EN_TASK_HEADS or words[-2].lower() in lex.EN_ALGORITHM_HEADS:
        return None
    obj = [
        w
        for w in words[:-2]
        if en_head_slot([w]) not in {"method_algorithm", "method_measurement"}
        and not is_acronym(w)
        and w.islower()
    ]
    return " ".join([*obj, words[-2]]) if obj else None


_MODEL_NOUNS = frozenset({"model", "classifier", "algorithm", "system", "tool", "score"})


def _measure_phrase(words: list[str]) -> bool:
    """ "time to repair", "distance to the coast", "time in range": a measure noun whose "to" or "in"
    names its end point; "days of antibiotic therapy": a duration (read as one phrase by
    `english_phrases`)."""
    if len(words) > 2 and words[0].lower() in lex.TIME_SPAN_UNITS and words[1].lower() == "of":
        return True
    return any(
        w.lower() in lex.MEASURE_TO_NOUNS and nxt.lower() in {"to", "in"}
        for w, nxt in zip(words, words[1:], strict=False)
    )


_VARIABLE_ROLES = frozenset({"output_target", "signal_feature", "context"})


def _studied_modifier(words: list[str]) -> str | None:
    """The organisms or people a phrase names before its head ("bird" in "bird biodiversity monitoring",
    "firm" in "firm innovation"): one or two leading words that are a population by the head word
    tables or by MeSH (organisms, persons; not a condition). A possessive names them too ("women's
    empowerment", "farmers' income")."""
    for size in (2, 1):
        if len(words) <= size:
            continue
        prefix = [*words[: size - 1], _POSSESSIVE.sub("", words[size - 1])]
        if any(w.lower() in lex.EN_FUNCTION or not w.isalpha() for w in prefix):
            continue
        head = singular(prefix[-1].lower())
        if head in lex.EN_CONDITION_HEADS or head in lex.EN_NOT_PEOPLE or head in lex.EN_GENERIC_PEOPLE:
            continue
        if prefix[0].lower() in lex.EVALUATIVE_ADJECTIVES:
            continue  # "minor cervical lesions": a grade, not the singular of Minors
        text = " ".join(prefix)
        if is_population(prefix) or mesh_kind(text) == "subject_population":
            return text
    return None


_POSSESSIVE = re.compile(r"(?<=s)'$|'s$")

# tasks that put a number or a map on what they name: what they predict, estimate or map is also the
# outcome the study observes ("predicting compressive strength", "mapping surface velocity")
_MEASURING_TASKS = frozenset(
    {
        "prediction",
        "forecasting",
        "estimation",
        "mapping",
        "quantification",
        "characterisation",
        "characterization",
        "simulation",
        "projection",
        "nowcasting",
    }
)
# head-word slots a phrase after "undergoing"/"receiving" keeps: people and organisms ("receiving
# donor cells"), models and signals are no procedure
_PROCEDURE_NOT_SETTING = frozenset({"subject_population", "method_algorithm", "signal_feature"})


def _classify_head(phrase: Phrase, words: list[str]) -> list[tuple[str, str]]:
    text = " ".join(words)
    if phrase.cue and phrase.cue.startswith("task:"):
        task_word = phrase.cue.removeprefix("task:")
        head_slot = en_head_slot(words)
        if head_slot == "subject_population" and (
            singular(words[-1].lower()) in lex.EN_CONDITION_HEADS or mesh_kind(text) == "condition"
        ):
            head_slot = None  # "monitoring minimal residual disease": a condition names the task
        if head_slot in {"context", "signal_feature"}:
            # "classifying beta rhythms", "detect whale song units": the object keeps the slot its head
            # word names and the verb still names the task done on it ("beta rhythm classification",
            # once for coordinated objects); what a measuring task puts a number on is the outcome
            # ("predicting avalanche activity")
            measured = head_slot == "signal_feature" and task_word in _MEASURING_TASKS
            found = [("output_target" if measured else head_slot, text)]
            if phrase.after not in {"and", "or"}:
                found.append(("task", " ".join([*words[:-1], singular(words[-1]), task_word])))
            return found
        if head_slot in {"subject_population", "method_measurement", "method_algorithm"}:
            # "decoding with transformers", "monitoring mussel populations": the object is no task's name
            return [(head_slot, text)]
        predicted = []
        if (task_word in _MEASURING_TASKS or task_word in lex.EN_CARE_TASKS) and (
            mesh_kind(text) == "condition"
            or (head_slot in {None, "output_target"} and mesh_kind(text) in {None, "output_target"})
        ):
            # "predict non-contact injuries", "predicting compressive strength": the task, and what it
            # predicts is the outcome studied; so is what a task of care prevents or treats ("the
            # prevention of suicide")
            predicted = [("output_target", text)]
        if head_slot is None and phrase.cue and len(words) > 1 and not is_acronym(words[-1]):
            words = [*words[:-1], singular(words[-1])]  # "lung nodules" -> "lung nodule detection"
        return _split_task([*words, task_word]) + predicted
    slot = en_head_slot(words)
    if slot == "method_measurement" and given_device(text):
        slot = "context"  # "cochlear implants": MeSH files it as a device given, not an instrument
    if slot == "task" and phrase.cue != "outcome" and names_a_procedure(text):
        # "compare endovascular aneurysm repair with X": MeSH files the phrase as a treatment given, not
        # a task done (what a sentence makes its outcome stays one: "improve glycaemic control")
        slot = "context"
    if phrase.cue in lex.UNDERGOING_CUES and slot not in _PROCEDURE_NOT_SETTING:
        # "patients undergoing colonoscopy", "adults receiving chemotherapy": the procedure or treatment
        # those studied go through is the setting of the study, even when its head word names a method
        return [("context", text)]
    named = words[:-1] if len(words) > 1 and words[-1].lower() in lex.GENERIC_HEADS else words
    if (
        phrase.cue in lex.BUILDING_VERBS
        and en_head_slot(named) is None
        and mesh_kind(" ".join(named)) in {None, "method_algorithm", "method_measurement"}
    ):
        # "we are building a chatbot", "we develop a triage app": what the researchers make is their
        # method (a vaccine or a programme, which MeSH or its head word files as an intervention, stays
        # in the setting)
        return [("method_algorithm", text)]
    if singular(words[-1].lower()) in lex.DIAGNOSTIC_MEASURES:
        return [("output_target", text)]  # "its sensitivity", "the specificity of X": how well it performs
    if slot == "subject_population" and is_place(text):
        return [("context", text)]  # "in the United States": a named place is the setting
    if slot == "task" and phrase.cue == "exposure":
        # "Does continuous glucose monitoring reduce X?": what acts on the outcome is the intervention
        return [("context", text)]
    if slot == "output_target" and phrase.cue in {"after", "following"}:
        # "readmissions after hospitalisation", "recovery after surgery": what comes after "after" is
        # the event the study starts from (the setting); the outcome is what follows it
        return [("context", text)]
    if slot == "output_target" and phrase.cue == "exposure":
        slot = "context"  # "how sea ice loss affects X": the sentence makes the loss the exposure
    if slot in {"output_target", "context"} and phrase.cue == "predictor" and not is_place(text):
        # "whether microbiome composition predicts sepsis", "adjusting for education": what predicts,
        # or what the model is adjusted for, is a variable it takes in
        slot = "signal_feature"
    if slot == "subject_population" and phrase.cue == "exposure" and _not_people(text):
        # "whether beaver dams change X", "Do cover crops increase X": a thing or organism that acts on
        # the outcome is the intervention or exposure (people who act stay those studied)
        return [("context", text)]
    if slot == "task" and phrase.cue == "outcome":
        slot = "output_target"  # "the effect of X on glycaemic control": what is affected
    if len(words) > 1 and words[-1].lower() in lex.GENERIC_HEADS:
        slot = _generic_head_slot(phrase, slot)
    if (
        slot == "subject_population"
        and phrase.cue == "outcome"
        and singular(words[-1].lower()) in lex.EN_CONDITION_HEADS
    ):
        return [("output_target", text)]  # "reduces the risk of respiratory infections": the outcome
    if slot == "task" and phrase.cue in lex.METHOD_CUES and phrase.cue not in {"from", "based"}:
        # "with uncertainty estimation": a task used as a method (MeSH may say it measures)
        kind = mesh_kind(text)
        if kind not in {"method_measurement", "method_algorithm"} and len(words) > 1:
            # "with RFID tracking", "with GPS tracking": the instrument before the task word says which
            kind = en_head_slot(words[:-1])
        if kind not in {"method_measurement", "method_algorithm"} and analyses_matter(words):
            kind = "method_measurement"  # "by thermogravimetric analysis": what is analysed is matter
        return [(kind if kind in {"method_measurement", "method_algorithm"} else "method_algorithm", text)]
    if (
        slot == "task"
        and phrase.cue in lex.PEOPLE_CUES
        and len(words) == 1
        and words[0].islower()
        and words[0] not in lex.STUDY_KIND_WORDS
    ):
        return [("context", text)]  # "trained in simulation", "seen in practice": where it happens
    if slot == "task":
        return _split_task(words)
    if slot is None and phrase.cue in lex.PEOPLE_CUES and agent_plural(words[-1]):
        slot = "subject_population"  # "in bilingual readers", "among night-shift workers"
    if slot is None and phrase.cue == "exposure" and _doers(words[-1]):
        # "how younger speakers perceive X", "whether care leavers find Y": people who do what the
        # clause's verb says are those studied, not an exposure
        slot = "subject_population"
    if slot is None:
        # no telling head word: what MeSH files the head under (a setting or an outcome only when the
        # cue says nothing), then the cue, then a process noun in "-ization" is a task, and what is
        # left is the setting: a gerund no table knows is as often an intervention or exposure ("hourly
        # rounding", "peer tutoring") as a task, and the task gerunds are listed (`EN_TASK_HEADS`)
        slot = mesh_slot(text, phrase.cue)
        if (
            slot in {"context", "output_target"}
            and cue_slot(phrase.cue, False) is not None
            and not is_place(text)
            and not given_device(text)
            and not _entered_facility(phrase.cue, text)
        ):
            slot = None
    if (
        slot in {None, "context"}
        and phrase.cue == "data-on"
        and mesh_kind(text) in {None, "subject_population", "context"}
        and not is_place(text)
        and not _substance(text)
    ):
        # "monthly panel data on hotels", "data on nursing homes": the units the data describe
        slot = "subject_population"
    if slot is None and phrase.cue in lex.STUDYING_CUES and not is_process(words):
        slot = "output_target"  # "we study code-switching": the topic studied is what is observed
    if (
        slot is None
        # no cue names its role ("under humidity" is the condition; "relate X to sea surface temperature"
        # the exposure)
        and cue_slot(phrase.cue, False) is None
        and _measured_quantity(words, per_another=False)
    ):
        # "indoor temperature", "transmembrane pressure" with no cue naming their role: a measured
        # variable, which is no intervention or setting; with no outcome cue, it is read as a feature
        # ("at low temperatures" gives the quantity's value: a condition of the study, its setting)
        slot = "signal_feature"
    if slot is None and phrase.cue == "exposure" and _measured_quantity(words):
        # "how do injection rate and wellhead pressure relate to X", "how does photoperiod affect
        # yield": a quantity the clause makes act on the outcome is a variable read against it (a
        # predictor), not an intervention given or a setting
        slot = "signal_feature"
    if slot is None and cue_slot(phrase.cue, False) is None and _part_of_organism(words):
        # "pig carcasses", "zebrafish embryos": a part, stage or product of organisms MeSH names is
        # studied like the organisms, not the setting left when no head word or MeSH descriptor says
        slot = "subject_population"
    if slot is None:
        slot = cue_slot(phrase.cue, False) or ("task" if is_process(words) else "context")
        if slot == "method_measurement" and any(
            w.lower() in lex.ALGORITHM_MODIFIERS or software_name(w) for w in words
        ):
            # only the cue said "a method": "with probabilistic projections", "using Bayesian
            # hierarchical models" are analyses, not instruments
            slot = "method_algorithm"
    if (
        slot == "context"
        and phrase.cue not in lex.POPULATION_CUES
        and phrase.cue not in lex.SETTING_CONDITION_CUES
        and mesh_kind(text) == "condition"
    ):
        slot = "output_target"  # "CBT for insomnia", "exposure and asthma": the condition studied
    return [(slot, text)]


def _measured_quantity(words: list[str], per_another: bool = True) -> bool:
    """ "injection rate", "wellhead pressure", "red:blue light ratios", "photoperiod": a phrase headed by
    a measured quantity, or (`per_another`) by a rate or ratio (a quantity of something per another),
    whose first word gives no value of it ("high temperatures" is a condition set)."""
    head = singular(words[-1].lower())
    heads = (
        lex.MEASURED_QUANTITY_HEADS | lex.PER_QUANTITY_HEADS if per_another else lex.MEASURED_QUANTITY_HEADS
    )
    return head in heads and words[0].lower() not in lex.VALUE_ADJECTIVES


def _part_of_organism(words: list[str]) -> bool:
    """ "pig carcasses", "zebrafish embryos": a noun no table or MeSH reads, after one or two lower-case
    words MeSH files as organisms (B), not people; a gerund, a participle, a land unit or a unit of time
    after them names an activity, a clause, a place or a period ("cattle grazing", "fish released",
    "pig farms", "maize seasons" keep their own evidence)."""
    head = words[-1].lower()
    if (
        len(words) < 2
        or not head.isalpha()
        or head.endswith("ing")  # "cattle grazing": an activity
        or is_past_participle(head)  # "fish released": a clause about them
        or singular(head) in lex.LAND_UNIT_HEADS | lex.TIME_UNITS  # "pig farms", "maize seasons"
    ):
        return False
    modifier = _studied_modifier(words)
    if modifier is None or not modifier.islower():  # "Raven Pro": a proper name, no organism
        return False
    trees = ending_trees(modifier)
    return any(t.startswith("B") for t in trees) and not any(t.startswith(HUMANS_TREE) for t in trees)


def _generic_head_slot(phrase: Phrase, slot: str | None) -> str | None:
    """The slot of a phrase a generic head ends ("deep learning system", "EEG-based approach"): the
    slot of what the head names; a tool or approach for a task is the method that does it ("static
    analysis tools", "a re-ranking approach"); naming nothing known after a cue of means, the cue's
    ("measured with an automated soil gas flux system": an instrument, whatever "system" says)."""
    named = phrase.words[:-1]
    kind = en_head_slot(named) or mesh_kind(" ".join(named))
    if kind is None and phrase.cue in lex.METHOD_CUES:
        kind = cue_slot(phrase.cue, False)
    kind = kind or slot
    if kind == "condition":
        return None
    return "method_algorithm" if kind == "task" else kind


def _doers(word: str) -> bool:
    """A plural noun of people by its form: "-ists", "-ians", or "-ers" on a verb ("speakers",
    "leavers", "developers"; not "transfers" or "barriers", whose stem is no verb)."""
    lower = word.lower()
    if not lower.isalpha() or len(lower) < 6:
        return False
    if lower.endswith(("ists", "ians")):
        return True
    stem = lower[:-3]
    return lower.endswith("ers") and (is_clause_verb(stem) or is_clause_verb(stem + "e"))


def _not_people(text: str) -> bool:
    """True when the head names things ("dams", "states") or organisms ("cover crops", "mycorrhizal
    fungi"), not people: no people word, agent noun ("teachers") or MeSH person (M01, Humans) ends it."""
    head = text.split()[-1]
    if singular(head.lower()) in lex.EN_GENERIC_PEOPLE or agent_plural(head):
        return False
    vocabulary = embedded_vocabulary()
    matches = vocabulary.recognize(text) if vocabulary is not None else []
    if not matches or not text.rstrip().endswith(matches[-1].text):
        return True
    return not any(t.startswith((PERSONS_TREE, HUMANS_TREE)) for t in matches[-1].descriptor.tree_numbers)


def _substance(text: str) -> bool:
    """True when the MeSH descriptor ending the phrase is a chemical or drug (tree D): "antibiotics"."""
    vocabulary = embedded_vocabulary()
    matches = vocabulary.recognize(text) if vocabulary is not None else []
    return (
        bool(matches)
        and text.rstrip().endswith(matches[-1].text)
        and any(t.startswith("D") for t in matches[-1].descriptor.tree_numbers)
    )


def _english_evidence(phrase: Phrase) -> str | None:
    """The slot of a Chinese phrase by its English rendering: the head word tables, then MeSH (a
    condition is the population after 针对/对于, otherwise the outcome)."""
    english = zh_english(phrase.text)
    if not english:
        return None
    words = english.split()
    slot = en_head_slot(words)
    if slot == "subject_population" and singular(words[-1].lower()) in lex.EN_CONDITION_HEADS:
        slot = None  # "hand, foot and mouth disease": a condition, whose role the cue decides
    if slot is None:
        kind = mesh_kind(english) or (
            "condition" if singular(words[-1].lower()) in lex.EN_CONDITION_HEADS else None
        )
        if kind == "condition":
            slot = (
                "subject_population"
                if phrase.cue in lex.ZH_POPULATION_CUES
                else "context"
                if phrase.cue == "exposure"
                else "output_target"
            )
        else:
            slot = kind
    if slot in {"task", "context"}:
        return None  # weak evidence in a rendering: the cue decides first
    if phrase.cue in {"exposure", "outcome"} and slot == "output_target":
        return None  # "A与B的关系": the sentence (and `_relation_roles`) said which is which
    return slot


def _split_task(words: list[str]) -> list[tuple[str, str]]:
    """Move methods, a named thing and setting adjectives out of a task phrase.
    "invasive speech brain-computer interface decoding" -> task "speech decoding", context "invasive
    brain-computer interface": a hyphenated compound noun (not an adjective such as "real-time") or an
    acronym-free compound inside a task phrase names the setting, while the plain words next to the head
    name what is done. Setting adjectives with no compound to attach to are dropped ("prefer shorter, more generic phrasing").
    """
    head, rest = words[-1], words[:-1]
    out: list[tuple[str, str]] = []
    if head.lower() == "design" and any(
        "-in-" in w or w.lower() in lex.STUDY_DESIGN_WORDS or w.lower().endswith(lex.DESIGN_ENDINGS)
        for w in rest
    ):
        return [*out, ("method_algorithm", " ".join([*rest, head]))]  # "difference-in-differences design"
    adjectives = [w for w in rest if w.lower() in lex.EN_CONTEXT_ADJECTIVES]
    rest = [w for w in rest if w.lower() not in lex.EN_CONTEXT_ADJECTIVES]
    compound: list[str] = []
    for index, word in enumerate(rest):
        if "-" in word and not lex.ADJECTIVAL_HYPHEN.search(word) and not is_acronym(word):
            compound = rest[index : index + 2]
            break
    plain = [w for w in rest if w not in compound]
    if compound and plain:
        out.append(("context", " ".join([*adjectives, *compound])))
        rest = plain
    return [("task", " ".join([*rest, head])), *out]
