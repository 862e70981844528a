"""What a phrase's own words say about its slot: head words, cues, acronym shapes and MeSH trees.

The evidence the phrase cutters and the classifier of the rules fallback share:

- the cue — the word before a phrase: "using X", "with X", "from X" -> a method; "in X patients",
  "among X" -> the population; "for X", "towards X" -> the context; "into X", "predict X" -> the output
  target; in Chinese 采用/使用/利用/基于/通过 -> a method, 针对/对于 -> the population, 在/面向/用于 -> the
  context (`cue_slot`);
- the head word — the last word of the phrase, by the grammatical kind of head the slot takes:
  nominalised tasks ("decoding", "prediction", "segmentation"; 解码, 预测, 检测), people and units of
  study ("patients", "mice", "households"; 患者, 小鼠, 农户), measurement nouns and suffixes
  ("recordings", "-graphy", "-scopy", "survey"; 成像, 测序, 问卷), model nouns ("network", "regression";
  网络, 模型, 算法), signal nouns ("activity", "oscillations"; 活动, 频段) and outcome nouns
  (`en_head_slot`, `zh_head_slot`);
- the shape of an acronym: initials ending in G (…graphy/…gram: EEG, ECoG, sEEG), MRI, CT, PET or NIRS
  name a recording method, initials ending in N or M (…network, …model, …machine) an algorithm
  (`acronym_slot`);
- MeSH (the shipped table): the tree of the descriptor that ends the phrase gives its kind
  (`mesh_kind`: organisms and people are studied, drugs and therapies are given, techniques measure,
  phenomena and behaviour are outcomes, places are the setting; a condition is the population after
  "in"/"among", the exposure before an effect verb, else the outcome: `mesh_slot`).
"""

from __future__ import annotations

import re
from functools import cache

from agent.language.bilingual import render
from agent.language.cedict import dictionary_senses
from agent.language.chinese_segmentation import tokenize
from agent.language.mesh_recognition import FUNCTION_TREES, HUMANS_TREE
from agent.language.morphology import is_acronym, singular
from agent.understanding import lexicon as lex
from agent.understanding.phrase import CJK
from agent.understanding.slot_translation import embedded_vocabulary


def acronym_slot(token: str) -> str | None:
    upper = token.upper()
    if upper.endswith(("G", "MRI", "CT", "PET", "NIRS", "OCT", "SPECT", "EIT")):
        return "method_measurement"
    if upper.endswith(lex.MEASUREMENT_ACRONYMS) or upper.endswith("-MS"):
        return "method_measurement"
    if upper.endswith(("NN", "N", "LSTM", "SVM", "HMM", "GMM", "LLM", "GAN", "VAE", "GPT", "BERT", "FT")):
        return "method_algorithm"
    if upper in lex.ALGORITHM_ACRONYMS or upper.endswith(tuple("-" + a for a in lex.ALGORITHM_ACRONYMS)):
        return "method_algorithm"
    return None


_SOFTWARE_NAME = re.compile(r"^[A-Z][a-z]{2,}[A-Z]|^[A-Z]{2,}[a-z]{3,}|[a-z]\d[a-z]")


def software_name(word: str) -> bool:
    """A name written as software is ("MaxEnt", "LightGBM", "XGBoost", "word2vec", "AlphaFold"): a
    capitalised word with a capital after two lower-case letters or more, capitals before a lower-case
    word, or a digit inside letters. Instruments and places are not written so; acronyms with one
    lower-case letter ("InSAR", "ECoG") and the lower-case prefixes of biology ("eDNA", "scRNA") do not
    count."""
    return bool(_SOFTWARE_NAME.search(word))


def head_forms(word: str) -> frozenset[str]:
    """The word, its singular, and the word without a plural "s" that `singular` keeps for the "-ics"
    nouns it takes as uncountable ("physics") but a role noun can be ("metrics", "clinics")."""
    lower = word.lower()
    forms = {lower, singular(lower)}
    if lower.endswith("ics"):
        forms.add(lower[:-1])
    return frozenset(forms)


def _head(words: list[str]) -> str:
    last = words[-1]
    if is_acronym(last):
        return last
    return singular(last.lower().split("-")[-1]) if "-" in last else singular(last.lower())


def is_population(words: list[str]) -> bool:
    if not words:
        return False
    last = words[-1].lower()
    return (
        singular(last) in lex.EN_POPULATION_HEADS
        or last in lex.EN_POPULATION_HEADS
        # a closed compound ending in a people, organism or material noun: "schoolchildren",
        # "farmworkers", "honeybees", "superalloys", "nanocomposites"
        or (last.isalpha() and last.endswith(lex.STUDIED_COMPOUND_ENDINGS))
    )


def en_head_slot(words: list[str]) -> str | None:
    """The slot the head word of an English phrase names, in either spelling of English: the tables
    list a word in one ("randomization", "modelling"), a description may write the other
    ("Mendelian randomisation")."""
    slot = _en_head_slot(words)
    if slot is None and words:
        for other in other_spellings(words[-1]):
            slot = _en_head_slot([*words[:-1], other])
            if slot is not None:
                break
    return slot


# British and American endings of the same word ("-isation"/"-ization", "-yse"/"-yze", "-our"/"-or",
# "-tre"/"-ter"), each way round
_SPELLING_ENDINGS = (
    ("isation", "ization"),
    ("isations", "izations"),
    ("ising", "izing"),
    ("ise", "ize"),
    ("yse", "yze"),
    ("our", "or"),
    ("ours", "ors"),
    ("tre", "ter"),
    ("tres", "ters"),
)


def other_spellings(word: str) -> list[str]:
    """The word in the other spelling of English by its ending ("randomisation" -> "randomization",
    "behavior" -> "behaviour", "centre" -> "center"); words of a few letters are left alone ("hour")."""
    lower = word.lower()
    if len(lower) < 6 or not lower.replace("-", "").isalpha():
        return []
    out = []
    for british, american in _SPELLING_ENDINGS:
        for ending, other in ((british, american), (american, british)):
            if ending != other and lower.endswith(ending):
                out.append(lower[: -len(ending)] + other)
    return out


# heads that name the act of analysing, which a technique before them makes a method, not a task
_ANALYSING_HEADS = frozenset({"analysis", "analyses", "estimation", "modelling", "modeling"})


# task nouns that, with a modifier naming what or how, name an intervention people are given
_GIVEN_ACTIVITIES = frozenset({"training", "treatment"})


def _en_head_slot(words: list[str]) -> str | None:
    head = _head(words)
    raw = words[-1].lower()
    if is_acronym(words[-1]):
        return acronym_slot(words[-1])
    if head in _ANALYSING_HEADS and (
        any(w.lower() in lex.ANALYSIS_TECHNIQUES or w.lower() in lex.ALGORITHM_MODIFIERS for w in words[:-1])
        or (len(words) > 1 and en_head_slot(words[:-1]) == "method_algorithm")
    ):
        # "survival analysis", "principal component analysis", "a difference-in-differences analysis",
        # "difference-in-differences estimation", "Bayesian modelling": a technique
        return "method_algorithm"
    if (
        raw in _GIVEN_ACTIVITIES
        and len(words) > 1
        and not any(
            w.lower() in lex.EN_ALGORITHM_HEADS or w.lower() in lex.ALGORITHM_MODIFIERS for w in words[:-1]
        )
    ):
        # "pelvic floor muscle training", "two-visit treatment": what people are given, like a
        # therapy (not "model training", "neural network training")
        return "context"
    if raw in lex.EN_TASK_HEADS or (head in lex.EN_TASK_HEADS and singular(raw) == raw):
        # an activity is named in the singular; a plural task noun names things ("cash transfers",
        # "randomized evaluations", "treatments")
        return "task"
    if head == "variable" and any(w.lower() in {"instrumental", "latent"} for w in words[:-1]):
        return "method_algorithm"  # "instrumental variables", "latent variable models": an analysis
    if head == "tree" and any(
        w.lower() in lex.TREE_MODEL_WORDS or w.lower() in lex.ALGORITHM_MODIFIERS for w in words[:-1]
    ):
        # "gradient-boosted trees", "decision trees", "a Bayesian event tree": models, not plants
        return "method_algorithm"
    if (
        head == "network"
        and len(words) > 1
        and not any(
            w.lower() in lex.ALGORITHM_MODIFIERS
            or w.lower() in lex.NETWORK_MODEL_WORDS
            or w.lower() in lex.EN_TASK_HEADS  # "segmentation networks", "detection network"
            or is_acronym(w)
            for w in words[:-1]
        )
    ):
        return None  # "urban road networks", "social networks": what is studied, not a model
    if is_population(words):
        return "subject_population"
    if head in lex.EN_FEATURE_HEADS or raw in lex.EN_FEATURE_HEADS or raw.endswith("gamma"):
        return "signal_feature"
    if head in lex.EN_MEASUREMENT_HEADS or raw.endswith(lex.EN_MEASUREMENT_SUFFIXES):
        return "method_measurement"
    if raw == "baselines" and len(words) > 1:
        return "method_algorithm"  # "XGBoost baselines": the methods a proposed one is compared with
    if head == "learning" and not machine_learning(words):
        return None
    if head in lex.EN_ALGORITHM_HEADS or raw in lex.EN_ALGORITHM_HEADS or raw.endswith("regression"):
        return "method_algorithm"
    if head == "forest" and any(w.lower() == "random" for w in words):
        return "method_algorithm"
    if head in {"effect", "event"} and len(words) > 1 and words[-2].isalpha():
        return "output_target"  # "rapid antidepressant effects", "adverse events": what is observed
    if head in lex.EN_OUTPUT_HEADS:
        return "output_target"
    if head in lex.EN_CONTEXT_HEADS:
        return "context"
    return None


def machine_learning(words: list[str]) -> bool:
    """A phrase headed by "learning" names a method of machine learning when a modifier names its
    paradigm ("deep learning", "self-supervised contrastive learning", "meta-learning"); otherwise
    it is learning by people or animals ("blended learning", "service-learning", "social learning")."""
    parts = [part for word in words for part in word.lower().split("-")][:-1]
    modifiers = {w.lower() for w in words[:-1]} | set(parts)
    return any(m in lex.LEARNING_PARADIGMS or m in lex.ALGORITHM_MODIFIERS for m in modifiers)


def agent_plural(word: str) -> bool:
    """A plural agent noun ("readers", "smokers", "dentists", "physicians", "migrants", "trainees")."""
    lower = word.lower()
    return lower.isalpha() and len(lower) > 5 and lower.endswith(("ers", "ists", "ians", "ants", "ees"))


def is_process(words: list[str]) -> bool:
    """A noun of a process made from a verb in "-ize" ("diarization", "parameterisation"): a task."""
    return words[-1].lower().endswith(("ization", "isation")) and len(words[-1]) > 9


@cache
def _word_insides(text: str) -> frozenset[int]:
    """Offsets inside a general-language word (CC-CEDICT's) that ends before the phrase does: a head is a
    word, so it begins at none of them (成功|率 "success rate" ends in no 功率 "power"; 癫痫患者 read as one
    word still ends in 患者). A glossary compound cut off a bound head may be cut wrong (光催化|剂 is
    光|催化剂 "photocatalyst"), so it bounds nothing."""
    insides: set[int] = set()
    end = 0
    for token in tokenize(text):
        start = text.find(token.text, end)
        if start < 0:
            return frozenset()  # a token written otherwise than the text (normalised): no word bounds known
        end = start + len(token.text)
        if end < len(text) and dictionary_senses(token.text):
            insides.update(range(start + 1, end))
    return frozenset(insides)


def zh_head_slot(text: str) -> str | None:
    tables = (
        ("task", lex.ZH_TASK_HEADS),
        ("subject_population", lex.ZH_POPULATION_HEADS),
        ("signal_feature", lex.ZH_FEATURE_HEADS),
        ("method_measurement", lex.ZH_MEASUREMENT_HEADS),
        ("method_algorithm", lex.ZH_ALGORITHM_HEADS),
        ("output_target", lex.ZH_OUTPUT_HEADS),
        ("context", lex.ZH_CONTEXT_HEADS),
    )
    best: tuple[int, str] | None = None
    inside = _word_insides(text)
    for slot, heads in tables:
        for head in heads:
            if (
                text.endswith(head)
                and (best is None or len(head) > best[0])
                and len(text) - len(head) not in inside
            ):
                best = (len(head), slot)
    # 高通量测序方法, qPCR方法, 问卷调查法: "method" names no kind of method, the technique before it does
    stem = _before_method_word(text) if best and best[1] == "method_algorithm" else None
    if stem and zh_head_slot(stem) == "method_measurement":
        return "method_measurement"
    if best and best[1] == "subject_population" and names_a_community(text):
        return None  # 肠道菌群 "gut microbiota": 群 heads a community observed, not who is studied
    if best:
        return best[1]
    tail = re.search(r"([A-Za-z][A-Za-z0-9\-]*)$", text)
    return acronym_slot(tail.group(1)) if tail and is_acronym(tail.group(1)) else None


# MeSH: Biodiversity, under which it files the communities of organisms (Biota, Microbiota, Microbial
# Consortia) as ecological phenomena, apart from the organisms themselves (B)
COMMUNITIES_TREE = "G16.500.275.157.049"


@cache
def zh_english(text: str) -> str | None:
    """The best English rendering of a Chinese phrase (MeSH as judge), for classifying it."""
    vocabulary = embedded_vocabulary()
    return render(text, vocabulary.knows if vocabulary is not None else None).best


@cache
def names_a_community(chinese: str) -> bool:
    """True when a Chinese phrase whose head word names a group (群: 人群 "population", 菌群 "microbiota")
    renders as a term MeSH files under communities of organisms (肠道菌群 "gut microbiota", 热河生物群
    "Jehol biota"): what is observed in or around those studied (its composition, its diversity), which
    MeSH keeps apart from people and organisms; a group of people (高危人群) is no such community."""
    english = zh_english(chinese)
    return english is not None and any(t.startswith(COMMUNITIES_TREE) for t in ending_trees(english))


# the words "method" (方法, 法) that follow the name of any kind of method
_METHOD_WORDS = ("方法", "法")


def _before_method_word(text: str) -> str | None:
    """The words before a closing "method" word (高通量测序|方法), else None."""
    ending = next((w for w in _METHOD_WORDS if text.endswith(w) and len(text) > len(w)), None)
    return text[: -len(ending)] if ending else None


# the cue `english_phrases` gives what a model is trained or fitted on ("trained on slope"); a method by
# the cue alone, a feature when its words name a variable (`model_inputs`)
LEARNED_ON = "learned-on"


def cue_slot(cue: str | None, chinese: bool) -> str | None:
    if cue is None:
        return None
    if cue.startswith("task:"):
        return "task"
    if cue == "exposure":
        return "context"
    if cue == "outcome":
        return "output_target"
    if cue in {"data", "reference", LEARNED_ON}:
        return "method_measurement"  # what a study has, or validates against
    if cue == "predictor":
        return "signal_feature"  # "Do training loads predict injuries?"
    if chinese or CJK.search(cue):
        if cue in lex.ZH_METHOD_CUES:
            return "method_measurement"
        if cue in lex.ZH_POPULATION_CUES:
            return "subject_population"
        if cue in lex.ZH_CONTEXT_CUES:
            return "context"
        if cue in lex.ZH_OUTCOME_CUES:
            return "output_target"
        return None
    if cue in lex.METHOD_CUES:
        return "method_measurement"
    if cue in lex.CONTEXT_CUES:
        return "context"
    if cue in lex.OUTPUT_CUES or cue in lex.OUTCOME_CUES:
        return "output_target"
    return None


# The MeSH trees as evidence for a slot (tree prefix -> slot), the first that fits wins; "condition" is
# decided by the cue (see `mesh_slot`). Organisms and people are studied (B, M01; not Humans itself),
# cells too (A11); drugs, chemicals, therapies and surgery are given or met
# (an intervention or exposure: the setting); diagnostic and investigative techniques and equipment
# measure; mathematical concepts and artificial intelligence analyse; phenomena, processes, behaviour
# and psychological phenomena are outcomes (not food, G07.203, nor physical phenomena such as time or
# vibration, G01); places (Z: the setting whatever the cue), health care and social phenomena are the
# setting.
# MeSH's equipment (E07) that is applied to or worn by those studied rather than used to observe them:
# Bandages, Catheters, Contraceptive Devices, Exoskeleton Device, Gastric Balloon, Infusion Pumps,
# Intermittent Pneumatic Compression Devices, Nebulizers and Vaporizers, Oxygenators, Prostheses and
# Implants, Protective Devices, Self-Help Devices, Sensory Aids, Tourniquets, Transdermal Patch,
# Ventilators, Mechanical; and the Orthopedic Equipment of Surgical Equipment (orthoses, canes,
# crutches, walkers, artificial limbs, fixation devices), fitted to the patient
_GIVEN_DEVICE_TREES = (
    "E07.101",
    "E07.132",
    "E07.190",
    "E07.341",
    "E07.430",
    "E07.505",
    "E07.515",
    "E07.605",
    "E07.652",
    "E07.695",
    "E07.700",
    "E07.796",
    "E07.814",
    "E07.858.442",
    "E07.926",
    "E07.935",
    "E07.950",
)
_TREE_SLOTS: tuple[tuple[tuple[str, ...], str | None], ...] = (
    (("C", "F03"), "condition"),
    (
        (HUMANS_TREE, "A11.284"),
        None,
    ),  # Humans itself; cell parts (dendrites, membranes) are not studied units
    (("B", "M01", "A11"), "subject_population"),
    (("D23.101",), "signal_feature"),
    (("G17", "L01.224.050.375", "E05.318.740", "E05.599"), "method_algorithm"),
    (("E02", "E04", "F04.754", "D"), "context"),
    # devices given to those studied (dressings, catheters, implants, hearing aids, ventilators, masks)
    # are interventions; the rest of equipment (diagnostic, radiation, optical, electrical) measures
    (_GIVEN_DEVICE_TREES, "context"),
    (("E01", "E05", "E07", "F04.711"), "method_measurement"),
    (("G07.203", "G01"), None),
    (("G", "F01", "F02"), "output_target"),
    (("Z",), "place"),
    (("N", "I"), "context"),
)


def _tree_slot(tree_numbers: tuple[str, ...] | list[str]) -> str | None:
    for prefixes, slot in _TREE_SLOTS:
        if any(t.startswith(prefixes) for t in tree_numbers):
            return slot
    return None


def mesh_kind(text: str) -> str | None:
    """The slot MeSH suggests for a phrase by the descriptor its head word ends ("condition" for
    diseases and mental disorders), or None when no descriptor ends the phrase (the shipped table)."""
    vocabulary = embedded_vocabulary()
    if vocabulary is None or not text.strip():
        return None
    if _trouble_of_a_function(text):
        return "condition"
    matches = vocabulary.recognize(text)
    if not matches or not text.rstrip().endswith(matches[-1].text):
        studied = _species_of_known_genus(text) or _organism_head(text)
        return "subject_population" if studied else None
    kind = _tree_slot(matches[-1].descriptor.tree_numbers)
    return "context" if kind == "place" else kind


# Nouns of trouble that after a function of the body or mind name its disorder ("sleep problems")
_TROUBLE_HEADS = frozenset({"problem", "difficulty", "disturbance"})


def _trouble_of_a_function(text: str) -> bool:
    """ "sleep problems", "swallowing difficulties", "behaviour problems": a noun of trouble after words
    ending a descriptor MeSH files as a function of the body or mind names a disorder of it, which MeSH
    may not list under these words ("routing problem" is none: routing is no function of anyone)."""
    words = text.split()
    if len(words) < 2 or singular(words[-1].lower()) not in _TROUBLE_HEADS:
        return False
    trees = ending_trees(" ".join(words[:-1]))
    return any(t.startswith(FUNCTION_TREES) for t in trees)


def _species_of_known_genus(text: str) -> bool:
    """ "Anopheles funestus", "Cuon alpinus": a Latin binomial (a capitalised genus, a lower-case
    epithet) whose genus MeSH files as an organism names a species MeSH may not list."""
    words = text.split()
    if (
        len(words) < 2
        or not re.fullmatch(r"[A-Z][a-z]{2,}", words[-2])
        or not re.fullmatch(r"[a-z]{3,}", words[-1])
    ):
        return False
    vocabulary = embedded_vocabulary()
    matches = vocabulary.recognize(words[-2]) if vocabulary is not None else []
    return (
        bool(matches)
        and matches[-1].text == words[-2]
        and any(t.startswith("B") for t in matches[-1].descriptor.tree_numbers)
    )


# the share of the descriptors whose terms a word ends that must be organisms for the word to name one
ORGANISM_HEAD_SHARE = 0.8
# vertebrates (B01.050.150.900) and plants (B01.875)
ORGANISM_HEAD_TREES = ("B01.050.150.900", "B01.875")


def _organism_head(text: str) -> bool:
    """ "stream-breeding frogs", "Scots pine": a phrase no MeSH term ends, whose last word is the head
    noun of MeSH's names of vertebrates or plants ("Frogs, True", "Poison Frogs", "Pine Tree") and of
    little else; MeSH files a kind of organism under its Latin name and writes the common noun only
    inside longer names, so the common noun alone is no term. Invertebrates are left out: MeSH writes
    their common nouns as terms of their own ("Bees", "Aphids"), and those it writes only inside longer
    names are the ones English also uses in other senses ("Bed Bugs" beside software "bugs"); so are
    microbes ("strains", "isolates" also name samples) and humans."""
    vocabulary = embedded_vocabulary()
    words = text.split()
    if vocabulary is None or not words or not words[-1].isalpha() or words[-1].isupper():
        return False
    descriptors = vocabulary.ending_in(words[-1])
    organisms = [
        d
        for d in descriptors
        if any(t.startswith(ORGANISM_HEAD_TREES) for t in d.tree_numbers)
        and not any(t.startswith(HUMANS_TREE) for t in d.tree_numbers)
    ]
    return bool(organisms) and len(organisms) >= ORGANISM_HEAD_SHARE * len(descriptors)


def analyses_matter(words: list[str]) -> bool:
    """An analysis whose modifier names matter or a physical quantity measures ("stable isotope
    analysis", "thermogravimetric analysis", "acoustic analysis"): MeSH files the modifier, or the science or technique its "-ic" adjective is derived from
    ("acoustic" -> Acoustics, "thermogravimetric" -> Thermogravimetry), under substances (D), physical
    phenomena (G01), physics or chemistry (H01.671, H01.181) or analytical techniques (E05.196);
    statistical and textual analyses ("thematic", "event history", "social network") are none of
    these."""
    vocabulary = embedded_vocabulary()
    if vocabulary is None or len(words) < 2:
        return False
    modifier = words[:-1]
    texts = [" ".join(modifier)]
    last = modifier[-1].lower()
    if last.endswith("ic"):
        texts += [" ".join([*modifier[:-1], last + form]) for form in ("s", "al")] + [
            " ".join([*modifier[:-1], last[:-2] + "y"])
        ]
    for text in texts:
        for match in vocabulary.recognize(text):
            if any(tree.startswith(_MATTER_TREES) for tree in match.descriptor.tree_numbers):
                return True
    return False


_MATTER_TREES = ("D", "G01", "H01.671", "H01.181", "E05.196")


def given_device(text: str) -> bool:
    """True when the descriptor ending the phrase is equipment applied to or worn by those studied
    (`_GIVEN_DEVICE_TREES`: "silicone foam dressings", "hearing aids"): an intervention even after
    "using", which otherwise names the study's method."""
    return any(tree.startswith(_GIVEN_DEVICE_TREES) for tree in ending_trees(text))


def names_a_procedure(text: str) -> bool:
    """True when a descriptor filed only under Therapeutics or Surgical Procedures (E02, E04) ends the
    phrase and is matched over two words or more ("endovascular aneurysm repair", "hernia repair"):
    the phrase names a treatment given, whatever its head word ("repair", "management") names alone."""
    vocabulary = embedded_vocabulary()
    if vocabulary is None or not text.strip():
        return False
    matches = vocabulary.recognize(text)
    if not matches or not text.rstrip().endswith(matches[-1].text) or len(matches[-1].text.split()) < 2:
        return False
    trees = matches[-1].descriptor.tree_numbers
    return bool(trees) and all(tree.startswith(("E02", "E04")) for tree in trees)


def ending_trees(text: str) -> tuple[str, ...]:
    """The tree numbers of the MeSH descriptor that ends the phrase (none when none ends it)."""
    vocabulary = embedded_vocabulary()
    if vocabulary is None or not text.strip():
        return ()
    matches = vocabulary.recognize(text)
    if not matches or not text.rstrip().endswith(matches[-1].text):
        return ()
    return tuple(matches[-1].descriptor.tree_numbers)


def is_place(text: str) -> bool:
    """True when the descriptor ending the phrase is a geographic one (Z): "Germany", "Beijing"."""
    vocabulary = embedded_vocabulary()
    if vocabulary is None or not text.strip():
        return False
    matches = vocabulary.recognize(text)
    return (
        bool(matches)
        and text.rstrip().endswith(matches[-1].text)
        and _tree_slot(matches[-1].descriptor.tree_numbers) == "place"
    )


# states a person is in that MeSH files as behaviour, not disease (Depression, Anxiety, Loneliness:
# Behavioral Symptoms, Emotions)
_PERSON_STATE_TREES = ("F01.145.126", "F01.470")
_IN_PEOPLE_CUES = frozenset({"in", "among", "amongst"})


def mesh_slot(text: str, cue: str | None) -> str | None:
    """The slot of a phrase with no telling head word, by MeSH: a condition is the population after
    "in", "among" or "with", the setting after "during", otherwise the outcome studied (also the target
    after "the diagnosis of"); a quantity MeSH files as measured is the outcome when the sentence
    makes it what an effect acts on. A state a person is in (depression, anxiety) is studied as an outcome,
    but after "in" or "among" it says who is studied, as a disease does ("relapse in depression")."""
    kind = mesh_kind(text)
    if cue in {"exposure", "outcome"} and kind in {"output_target", "context"}:
        return cue_slot(cue, False)  # "how loneliness affects sleep": the sentence says which is which
    if cue == "outcome" and kind == "method_measurement":
        # "the effect of exercise on blood pressure", "on weight": what MeSH files beside its measuring
        # (Blood Pressure, Heart Rate; Weights and Measures) is, as what an effect acts on, the outcome
        return "output_target"
    person_state = any(number.startswith(_PERSON_STATE_TREES) for number in ending_trees(text))
    if kind == "output_target" and cue in _IN_PEOPLE_CUES and person_state:
        return "subject_population"
    if kind != "condition":
        return kind
    if cue in lex.CONDITION_POPULATION_CUES:
        return "subject_population"  # "in tuberculosis", "patients with X"; "diagnosis of X" names a target
    if cue in lex.SETTING_CONDITION_CUES:
        return "context"  # "during COVID-19"; "obesity and the risk of X": the exposure
    return "output_target"
