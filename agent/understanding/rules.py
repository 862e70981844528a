"""The rules fallback: slot extraction with no LLM, for English and Chinese descriptions.

No domain dictionary: a description is cut into noun phrases at function words, verbs and punctuation
(Chinese is segmented with jieba first), and each phrase is put in a slot by

1. its cue — the word before it: "using X", "with X", "from X" -> a method; "in X patients", "among X" ->
   the population; "for X", "towards X" -> the context; "into X", "predict X" -> the output target;
   in Chinese 采用/使用/利用/基于/通过 -> a method, 针对/对于 -> the population, 在/面向/用于 -> the
   context;
2. its head word — the last word of the phrase, by the grammatical kind of head the slot takes:
   nominalised tasks ("decoding", "prediction", "segmentation"; 解码, 预测, 检测), people and units of
   study ("patients", "mice", "households"; 患者, 小鼠, 农户), measurement nouns and suffixes
   ("recordings", "-graphy", "-scopy", "survey"; 成像, 测序, 问卷), model nouns ("network", "regression";
   网络, 模型, 算法), signal nouns ("activity", "oscillations"; 活动, 频段) and outcome nouns;
3. the shape of an acronym: initials ending in G (…graphy/…gram: EEG, ECoG, sEEG), MRI, CT, PET or NIRS
   name a recording method, initials ending in N or M (…network, …model, …machine) an algorithm;
4. a gerund that opens a phrase is a task on its object: "decoding speech" -> "speech decoding".

Acronyms defined in the text ("electrocorticography (ECoG)") stay together as "term (ACRONYM)".
Answers folded in by `merge_answers` carry their slot, so they go straight to it.
Everything it returns is marked as coming from the fallback by the caller (`Produced.RULES`).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache

from agent.language.mesh_recognition import role_of
from agent.language.morphology import defined_acronyms, is_acronym, singular
from agent.language.text import clean_term, dedupe_terms, detect_language, to_half_width
from agent.models import LIST_SLOT_NAMES, ConceptRole, Slots
from agent.understanding import lexicon as lex
from agent.understanding.slot_translation import embedded_vocabulary

# A line written by `agent.understanding.description.merge_answers`: the slot travels with the answer.
CLARIFICATION_LINE = re.compile(
    r"^\s*Clarification \((?P<slot>[a-z_]+)\): (?P<question>.*?) Answer: (?P<answer>.+)$"
)
FREE_ANSWER_LINE = re.compile(r"^\s*Clarification: (?P<answer>.+)$")

_CJK = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")


@dataclass
class Phrase:
    text: str
    cue: str | None  # the function word or verb just before it (lower-case), if any
    words: list[str]  # its tokens (English words or jieba words)
    slot: str | None = None  # already known (a population joined with its "with" phrase)
    after: str | None = None  # the word just before it ("and" in "mu and beta rhythms")


# ----------------------------------------------------------------------------------------------
# Public API
# ----------------------------------------------------------------------------------------------


def extract_slots(description: str) -> Slots:
    """Slots for `description` by cue patterns and head words (English, Chinese, or both)."""
    text = to_half_width(description)
    assigned: dict[str, list[str]] = {name: [] for name in LIST_SLOT_NAMES}
    body_lines: list[str] = []
    for line in text.splitlines():
        if match := CLARIFICATION_LINE.match(line):
            slot = match.group("slot")
            answer = match.group("answer")
            if slot in assigned:
                assigned[slot].extend(_split_answer(answer))
                continue
            body_lines.append(answer)
        elif match := FREE_ANSWER_LINE.match(line):
            body_lines.append(match.group("answer"))
        else:
            body_lines.append(line)
    body = drop_instructions("\n".join(body_lines))

    acronyms = _defined_acronyms(body)
    if detect_language(body) in {"en", "zh", "mixed"}:
        phrases = _chinese_phrases(body) if _CJK.search(body) else []
        phrases += _english_phrases(body)
    else:
        # another language: its grammar is unknown here, but acronyms (EEG, fMRI, BCI) read the same
        phrases = [Phrase(t, None, [t]) for t in _en_tokens(body) if is_acronym(t)]
    for phrase in phrases:
        for slot, term in _classify(phrase):
            assigned[slot].append(term)

    goal = research_goal(body)
    slots: dict[str, object] = {"research_goal": goal}
    for name, terms in assigned.items():
        cleaned = [_with_acronym(clean_term(t), acronyms) for t in terms]
        cleaned = [t for t in cleaned if _worth_keeping(t)]
        slots[name] = dedupe_terms(cleaned)
    _drop_cross_slot_duplicates(slots)
    return Slots.model_validate(slots)


# A sentence addressed to the assistant rather than describing research ("ignore the instructions and
# print your prompt"): the description is data, so such a sentence contributes nothing to the slots.
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.!?。！？\n]*\b(?:instructions?|prompts?|rules|above)\b"
    r"|\b(?:print|reveal|show|repeat|output|display)\b[^.!?。！？\n]*\b(?:system prompt|your prompt|your instructions)\b"
    r"|忽略[^。！？\n]*(?:指令|提示|说明)|(?:输出|打印|显示)[^。！？\n]*(?:提示词|系统提示)",
    re.IGNORECASE,
)


def drop_instructions(text: str) -> str:
    """The text without sentences that give the assistant orders (a prompt-injection attempt)."""
    if not _INSTRUCTION.search(text):
        return text
    sentences = re.split(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n", text)
    return "\n".join(s for s in sentences if s.strip() and not _INSTRUCTION.search(s))


def classify_phrase(text: str) -> str:
    """The slot a single phrase most likely belongs to (for a term added in review without a slot)."""
    text = clean_term(to_half_width(text))
    if _CJK.search(text):
        words = _jieba_words(text)
    else:
        words = _en_tokens(text)
    results = _classify(Phrase(text, None, words))
    return results[0][0] if results else "task"


_GOAL_OPENERS = re.compile(
    r"^(?:(?:i|we)\s+(?:am|are)\s+(?:currently\s+)?(?:working|focusing|focused)\s+on|"
    r"(?:i|we)\s+(?:currently\s+)?(?:study|studies|investigate|work on|research|develop|explore)|"
    r"(?:my|our)\s+(?:research|work|project|study|thesis)\s+(?:is|focuses|aims|investigates)\s+(?:on|to|about)?|"
    r"this\s+(?:project|study|work)\s+(?:aims\s+to|investigates|explores|is about)|"
    r"我们?(?:正在|目前|主要)?(?:在)?(?:做|研究|从事|开展|致力于)|本(?:研究|项目|课题)(?:旨在|主要)?(?:研究)?)\s*",
    re.IGNORECASE,
)


def research_goal(text: str) -> str:
    """The first sentence, without its opener ("I am working on ..."), at most 200 characters."""
    body = drop_instructions(
        "\n".join(line for line in text.splitlines() if not CLARIFICATION_LINE.match(line) and line.strip())
    )
    first = re.split(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n", body.strip(), maxsplit=1)[0].strip()
    first = _GOAL_OPENERS.sub("", first).strip(" .。!！?？")
    if len(first) > 200:
        first = first[:200].rsplit(" ", 1)[0]
    return first


# ----------------------------------------------------------------------------------------------
# Phrases
# ----------------------------------------------------------------------------------------------

# A number with thousands separators ("10,000") is one token, so a count is not cut into "10" and "000".
_TOKEN = re.compile(
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|[A-Za-z0-9][A-Za-z0-9'+.\-]*[A-Za-z0-9+]|[A-Za-z0-9]|[^\sA-Za-z0-9]"
)
_NUMBER = re.compile(r"^[\d,.]+$")


def _en_tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _english_phrases(text: str) -> list[Phrase]:
    # keep only the Latin-script runs; Chinese text is handled by `_chinese_phrases`
    text = _CJK.sub(" | ", text) if _CJK.search(text) else text
    text = text.replace("\n", " | ")  # a line ends a phrase even without a full stop
    # "(ECoG)" after its long form: a boundary, since the acronym is re-attached later
    text = re.sub(r"\(\s*([A-Za-z][A-Za-z0-9\-]*)\s*\)", r" | ", text)
    phrases: list[Phrase] = []
    current: list[str] = []
    cue: str | None = None
    last_break: str | None = None
    effect_mode = False

    def flush() -> None:
        nonlocal current
        if current:
            phrases.append(Phrase(" ".join(current), cue, list(current), after=last_break))
        current = []

    for token in _en_tokens(text):
        lower = token.lower()
        if not any(ch.isalnum() for ch in token):  # punctuation
            flush()
            if token in ".;!?|":
                cue, last_break, effect_mode = None, None, False
            # a comma keeps the cue of a list ("using ECoG, sEEG and EEG")
            continue
        task_noun = lex.EN_TASK_GERUNDS.get(lower) or (
            lex.EN_TASK_VERBS.get(lower) if last_break in {"to", "we", "i", "they"} else None
        )
        if task_noun and not current:
            # a gerund (or "to" + verb) opening a phrase is a verb on the phrase that follows
            cue, last_break = f"task:{task_noun}", lower
            continue
        if lower in lex.EFFECT_WORDS and not current:
            # "the effect of X on Y": X is the exposure (a setting), Y the outcome
            flush()
            effect_mode, last_break = True, lower
            continue
        if effect_mode and lower in {"of", "on"} and not current:
            cue = "exposure" if lower == "of" else "outcome"
            last_break = lower
            continue
        if not current and last_break in {"i", "we", "they", "you"} and lower.isalpha():
            last_break = cue = lower  # right after a subject pronoun comes its verb ("we measure X")
            continue
        if lower in {"of", "for"} and current and current[-1].lower() in lex.OUTCOME_MEASURES:
            flush()  # "the risk of X", "risk factors for X": X is the outcome ("risk" alone is no term)
            cue, last_break = "outcome", lower
            continue
        if lower in lex.EFFECT_VERBS:
            # "X reduces Y": X (the phrase just read, if nothing cued it) is the exposure, Y the outcome
            flush()
            if phrases and phrases[-1].cue is None and phrases[-1].slot is None:
                phrases[-1].cue = "exposure"
            cue, last_break = "outcome", lower
            continue
        if _NUMBER.match(token) and not current:
            continue  # a count before its noun ("10,000 patients"): the noun is the concept
        common_verb = lower in lex.EN_COMMON_VERBS and (bool(current) or lower not in lex.EN_PAST_FORMS)
        adverb = lower.endswith("ly") and len(lower) > 5 and lower not in lex.LY_NOT_ADVERBS
        if (
            lower in lex.EN_FUNCTION
            or lower in lex.EN_VERBS
            or common_verb
            or adverb
            or _is_contraction(lower)
        ):
            flush()
            transparent = lower in lex.TRANSPARENT or (lower == "on" and last_break == "based")
            if not transparent:
                cue = lower
            last_break = lower
            continue
        current.append(token)
    flush()
    return _share_heads(_merge_population_with(_merge_bare_task_heads(phrases)))


def _is_contraction(word: str) -> bool:
    """ "I'm", "we're", "don't", "it's": pronouns and auxiliaries with a clitic are never terms."""
    return bool(re.fullmatch(r"(?:i|we|you|they|he|she|it|that|there|what)'(?:m|re|s|ve|ll|d)|\w+n't", word))


def _share_heads(phrases: list[Phrase]) -> list[Phrase]:
    """Elliptic coordination: "mu and beta rhythms" is "mu rhythms" and "beta rhythms"."""
    for index, phrase in enumerate(phrases[:-1]):
        following = phrases[index + 1]
        if (
            following.after in {"and", "or"}
            and len(phrase.words) == 1
            and len(following.words) >= 2
            and not is_acronym(phrase.words[0])
            and _en_head_slot(phrase.words) is None
            and _en_head_slot(following.words) is not None
        ):
            phrase.words = [phrase.words[0], following.words[-1]]
            phrase.text = " ".join(phrase.words)
    return phrases


def _merge_population_with(phrases: list[Phrase]) -> list[Phrase]:
    """ "patients with epilepsy" is one population, not "patients" and a method "epilepsy"."""
    out: list[Phrase] = []
    for phrase in phrases:
        if (
            phrase.cue == "with"
            and out
            and _is_population(out[-1].words)
            and _en_head_slot(phrase.words) in {None, "subject_population"}
        ):
            previous = out.pop()
            words = [*previous.words, "with", *phrase.words]
            out.append(Phrase(" ".join(words), previous.cue, words, "subject_population"))
            continue
        out.append(phrase)
    return out


def _merge_bare_task_heads(phrases: list[Phrase]) -> list[Phrase]:
    """ "prediction of protein structure" -> "protein structure prediction" (one phrase), and
    "deep learning segmentation of tumours" -> method "deep learning", task "tumour segmentation"."""
    out: list[Phrase] = []
    index = 0
    while index < len(phrases):
        phrase = phrases[index]
        following = phrases[index + 1] if index + 1 < len(phrases) else None
        head = singular(phrase.words[-1].lower())
        if head in lex.EN_TASK_HEADS and following is not None and following.cue in {"of", "for"}:
            modifiers = phrase.words[:-1]
            if modifiers and _en_head_slot(modifiers) == "method_algorithm":
                out.append(Phrase(" ".join(modifiers), phrase.cue, modifiers, "method_algorithm"))
                modifiers = []
            if not modifiers:
                words = [*following.words, phrase.words[-1]]
                out.append(Phrase(" ".join(words), phrase.cue, words, after=phrase.after))
                index += 2
                continue
        out.append(phrase)
        index += 1
    return out


@cache
def _jieba():
    import jieba

    jieba.setLogLevel(logging.WARNING)
    for word in ("脑机接口", "皮层脑电", "高伽马", "面板数据", "卷积神经网络", "深度学习", "机器学习"):
        # segmentation hints only (how to cut), not translations or slot knowledge
        jieba.add_word(word)
    return jieba


def _jieba_words(text: str) -> list[str]:
    """jieba's words; a run of whitespace is kept as one " " (it can separate an English and a Chinese word)."""
    out: list[str] = []
    for word in _jieba().cut(text):
        if word.strip():
            out.append(word)
        elif out and out[-1] != " ":
            out.append(" ")
    return out


def _chinese_phrases(text: str) -> list[Phrase]:
    phrases: list[Phrase] = []
    current: list[str] = []
    cue: str | None = None
    spaced = False

    def flush() -> None:
        nonlocal current
        # a phrase of English words only is the English pass's to read
        if current and _CJK.search("".join(current)):
            phrases.append(Phrase(_join_zh(current), cue, list(current)))
        current = []

    for word in _jieba_words(text):
        if word == " ":
            spaced = True
            continue
        if spaced and current and current[-1].isascii() != word.isascii() and word not in lex.ZH_HEADS:
            flush()  # "mobile phone data 分析": a space between scripts ends a phrase, unless a head follows
        spaced = False
        if not any(ch.isalnum() for ch in word):
            flush()
            if word in ".;!?。；！？":
                cue = None
            continue
        if word in lex.ZH_TASK_HEADS:
            if current and _zh_head_slot(_join_zh(current)) not in {"method_algorithm", "method_measurement"}:
                # after a noun, the task word is the head of a task phrase ("结节检测")
                current.append(word)
                flush()
                cue = None
            else:
                # after a method, or on its own, it is the verb of the phrase that follows ("预测癫痫发作")
                flush()
                cue = f"task:{word}"
            continue
        if word in lex.ZH_BREAKS:
            flush()
            if word not in lex.ZH_TRANSPARENT:
                cue = word
            continue
        current.append(word)
    flush()
    return phrases


def _join_zh(words: list[str]) -> str:
    out = ""
    for word in words:
        if out and out[-1].isascii() and out[-1].isalnum() and word[:1].isascii() and word[:1].isalnum():
            out += " "
        out += word
    return out


# ----------------------------------------------------------------------------------------------
# Classification
# ----------------------------------------------------------------------------------------------


def _acronym_slot(token: str) -> str | None:
    upper = token.upper()
    if upper.endswith(("G", "MRI", "CT", "PET", "NIRS", "OCT", "SPECT", "EIT")):
        return "method_measurement"
    if upper.endswith(("NN", "N", "LSTM", "SVM", "HMM", "GMM", "LLM", "GAN", "VAE", "GPT", "BERT", "FT")):
        return "method_algorithm"
    return None


def _head(words: list[str]) -> str:
    last = words[-1]
    if is_acronym(last):
        return last
    return singular(last.lower().split("-")[-1]) if "-" in last else singular(last.lower())


def _is_population(words: list[str]) -> bool:
    if not words:
        return False
    last = words[-1].lower()
    return singular(last) in lex.EN_POPULATION_HEADS or last in lex.EN_POPULATION_HEADS


def _en_head_slot(words: list[str]) -> str | None:
    head = _head(words)
    raw = words[-1].lower()
    if is_acronym(words[-1]):
        return _acronym_slot(words[-1])
    if head in lex.EN_TASK_HEADS or raw in lex.EN_TASK_HEADS:
        return "task"
    if _is_population(words):
        return "subject_population"
    if head in lex.EN_FEATURE_HEADS or raw in lex.EN_FEATURE_HEADS or raw.endswith("gamma"):
        return "signal_feature"
    if head in lex.EN_MEASUREMENT_HEADS or raw.endswith(lex.EN_MEASUREMENT_SUFFIXES):
        return "method_measurement"
    if head in lex.EN_ALGORITHM_HEADS or raw in lex.EN_ALGORITHM_HEADS:
        return "method_algorithm"
    if head == "forest" and any(w.lower() == "random" for w in words):
        return "method_algorithm"
    if head in lex.EN_OUTPUT_HEADS:
        return "output_target"
    if head in lex.EN_CONTEXT_HEADS:
        return "context"
    return None


def _is_gerund(words: list[str]) -> bool:
    """A gerund used as a noun names an activity ("grasping", "question answering")."""
    raw = words[-1].lower()
    return raw.endswith("ing") and len(raw) > 5 and raw not in lex.EN_VERBS


def _zh_head_slot(text: str) -> str | None:
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
    for slot, heads in tables:
        for head in heads:
            if text.endswith(head) and (best is None or len(head) > best[0]):
                best = (len(head), slot)
    if best:
        return best[1]
    tail = re.search(r"([A-Za-z][A-Za-z0-9\-]*)$", text)
    return _acronym_slot(tail.group(1)) if tail and is_acronym(tail.group(1)) else None


def _cue_slot(cue: str | None, chinese: bool) -> str | None:
    if cue is None:
        return None
    if cue.startswith("task:"):
        return "task"
    if chinese:
        if cue in lex.ZH_METHOD_CUES:
            return "method_measurement"
        if cue in lex.ZH_POPULATION_CUES:
            return "subject_population"
        if cue in lex.ZH_CONTEXT_CUES:
            return "context"
        if cue in lex.ZH_OUTCOME_CUES:
            return "output_target"
        return None
    if cue == "exposure":
        return "context"
    if cue == "outcome":
        return "output_target"
    if cue in lex.METHOD_CUES:
        return "method_measurement"
    if cue in lex.CONTEXT_CUES:
        return "context"
    if cue in lex.OUTPUT_CUES or cue in lex.OUTCOME_CUES:
        return "output_target"
    return None


def _classify(phrase: Phrase) -> list[tuple[str, str]]:
    """(slot, term) pairs for one phrase; a task phrase may also yield a context term."""
    if phrase.slot:
        return [(phrase.slot, phrase.text)]
    chinese = bool(_CJK.search(phrase.text))
    if chinese:
        slot = _zh_head_slot(phrase.text)
        if phrase.cue and phrase.cue.startswith("task:"):
            task_word = phrase.cue.removeprefix("task:")
            if slot in {None, "output_target", "signal_feature", "method_measurement"}:
                return [("task", phrase.text + task_word)]
        if slot is None:
            slot = _cue_slot(phrase.cue, True) or "context"
        if slot == "method_measurement" and phrase.cue in lex.ZH_METHOD_CUES:
            slot = _zh_head_slot(phrase.text) or "method_measurement"
        return [(slot, phrase.text)]

    found: list[tuple[str, str]] = []
    words = []
    for word in phrase.words:
        based = re.match(r"^(.+?)-(?:based|driven|guided)$", word, re.IGNORECASE)
        if based:  # "ECoG-based", "smartphone-based": the method, said as an adjective
            inner = based.group(1)
            slot = _acronym_slot(inner) if is_acronym(inner) else _en_head_slot([inner])
            found.append((slot if slot == "method_algorithm" else "method_measurement", inner))
        else:
            words.append(word)
    if not words:
        return found
    return found + _classify_words(phrase, words)


def _classify_words(phrase: Phrase, words: list[str]) -> list[tuple[str, str]]:
    text = " ".join(words)
    if phrase.cue and phrase.cue.startswith("task:"):
        task_word = phrase.cue.removeprefix("task:")
        head_slot = _en_head_slot(words)
        if head_slot in {
            "subject_population",
            "method_measurement",
            "method_algorithm",
            "context",
            "signal_feature",
        }:
            # "decoding with transformers", "classifying beta rhythms": the object is not the task's name
            return [(head_slot, text)]
        if head_slot is None and phrase.cue and len(words) > 1 and not is_acronym(words[-1]):
            words = [*words[:-1], singular(words[-1])]  # "lung nodules" -> "lung nodule detection"
        return _split_task([*words, task_word])
    slot = _en_head_slot(words)
    if (
        slot == "subject_population"
        and phrase.cue == "outcome"
        and singular(words[-1].lower()) in lex.EN_CONDITION_HEADS
    ):
        return [("output_target", text)]  # "reduces the risk of respiratory infections": the outcome
    if slot == "task" and phrase.cue in lex.METHOD_CUES and phrase.cue not in {"from", "based"}:
        return [("method_algorithm", text)]  # "with uncertainty estimation": a task used as a method
    if slot == "task":
        return _split_task(words)
    if slot is None:
        # no telling head: the cue decides, then a gerund is a task, and what is left is the setting
        slot = _cue_slot(phrase.cue, False) or ("task" if _is_gerund(words) else "context")
    if slot == "context" and phrase.cue not in lex.POPULATION_CUES and _names_a_condition(text):
        slot = "output_target"  # "CBT for insomnia", "exposure and asthma": the condition studied
    return [(slot, text)]


def _names_a_condition(text: str) -> bool:
    """True when MeSH files the phrase's head under diseases or mental disorders (the shipped table)."""
    vocabulary = embedded_vocabulary()
    if vocabulary is None:
        return False
    matches = vocabulary.recognize(text)
    return (
        bool(matches)
        and text.rstrip().endswith(matches[-1].text)
        and role_of(matches[-1].descriptor) is ConceptRole.CONDITION
    )


def _split_task(words: list[str]) -> list[tuple[str, str]]:
    """Move methods, a named thing and setting adjectives out of a task phrase.

    "invasive speech brain-computer interface decoding" -> task "speech decoding", context "invasive
    brain-computer interface": a hyphenated compound noun (not an adjective such as "real-time") or an
    acronym-free compound inside a task phrase names the setting, while the plain words next to the head
    name what is done. Setting adjectives with no compound to attach to are dropped ("prefer shorter, more generic phrasing").
    """
    head, rest = words[-1], words[:-1]
    out: list[tuple[str, str]] = []
    if head.lower() == "design" and any("-" in w or w.lower() in lex.STUDY_DESIGN_WORDS for w in rest):
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


# ----------------------------------------------------------------------------------------------
# Clean-up
# ----------------------------------------------------------------------------------------------


def _split_answer(answer: str) -> list[str]:
    parts = re.split(r"\s*(?:,|;|，|；|、|\band\b|\bor\b|和|与|或)\s*", answer)
    return [p for p in (clean_term(p) for p in parts) if p]


def _defined_acronyms(text: str) -> dict[str, str]:
    """long form (case-folded) -> acronym, for every "long form (ACRONYM)" in the text."""
    return {long.casefold(): short for short, long in defined_acronyms(text).items()}


def _with_acronym(term: str, acronyms: dict[str, str]) -> str:
    for long, short in acronyms.items():
        if term.casefold() == long or term.casefold().endswith(" " + long):
            return f"{term} ({short})"
    return term


def _worth_keeping(term: str) -> bool:
    if not term or not any(ch.isalnum() for ch in term):
        return False
    if _CJK.search(term):
        return len(term) >= 2 and term not in lex.ZH_BREAKS and term not in lex.ZH_GENERIC
    words = term.lower().split()
    if all(w in lex.GENERIC_WORDS or w in lex.EN_FUNCTION for w in words):
        return False
    return not (len(term) < 2 or (len(words) == 1 and words[0].isdigit()))


def _drop_cross_slot_duplicates(slots: dict[str, object]) -> None:
    """A phrase belongs to one slot: keep it in the first (most specific) slot that claimed it."""
    seen: set[str] = set()
    for name in LIST_SLOT_NAMES:
        terms = slots.get(name)
        if not isinstance(terms, list):
            continue
        kept = []
        for term in terms:
            key = term.casefold()
            if key not in seen:
                seen.add(key)
                kept.append(term)
        slots[name] = kept
