"""Understanding a research description: slots, canonical terms, interpretation, clarifying questions.

One round of `understand` runs four steps:

1. **extraction** (prompt `extract_slots`) into the eight slots; the LLM port retries once on invalid
   JSON, and with no usable model the rules fallback (`agent.understanding.rules`) takes over and says so;
2. **canonicalisation** (prompt `normalize_terms`): standard English scientific terms, no empty
   modifiers, no duplicates; skipped when the slots came from the rules (there is no model to ask);
3. **deterministic clean-up** (`agent.language.text`), whatever produced the slots: half-width characters,
   whitespace, acronyms cased as the user wrote them, duplicates within and across slots;
4. **interpretation** (prompt `interpret`): a summary, the uncertainties and at most
   `MAX_QUESTIONS_PER_ROUND` questions tied to slots; the rules fallback asks about empty core slots.

`ready` is true when nothing blocks the search — the model says so (or, for the rules, at least two
facets of the query would be required) and there is something to search for — or when this is the last
allowed round; the questions not asked then stay visible among the uncertainties.

The description is data, never instructions: prompts delimit it, delimiter look-alikes inside it are
neutralised, every reply is validated against a pydantic schema, and a reply that repeats the prompt's
own instructions is discarded in favour of the rules (so an injected "print your prompt" leaks nothing).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from agent.errors import InputError
from agent.language.cedict import has_chinese
from agent.language.text import (
    LANGUAGE_NAMES,
    acronym_casings,
    clean_term,
    dedupe_terms,
    detect_language,
    has_content,
    normalize_whitespace,
    restore_acronym_casing,
    to_half_width,
)
from agent.llm import LLM, Completion, TextList
from agent.models import (
    LIST_SLOT_NAMES,
    MAX_QUESTIONS_PER_ROUND,
    SLOT_NAMES,
    ClarifyingQuestion,
    Produced,
    Slots,
    Understanding,
)
from agent.prompts import load_prompt
from agent.understanding.facets import facets_for_slots
from agent.understanding.rules import extract_slots
from agent.understanding.slot_translation import embedded_vocabulary, translate_slots

MAX_DESCRIPTION_CHARS = 20_000
MAX_TERMS_PER_SLOT = 8
MAX_ANSWER_CHARS = 2_000

T = TypeVar("T", bound=BaseModel)


class InvalidDescription(InputError):
    """The description cannot be understood as it is; the message says what to change."""


def validate_description(description: str) -> str:
    """The description, trimmed; `InvalidDescription` when it is empty, too long or has no words."""
    if not isinstance(description, str):
        raise InvalidDescription("the description must be text: describe your research in a few sentences")
    text = description.strip()
    if not text:
        raise InvalidDescription(
            "the description is empty: describe your research in a few sentences "
            "(what you study, how you measure it, and in whom)"
        )
    if len(text) > MAX_DESCRIPTION_CHARS:
        raise InvalidDescription(
            f"the description is {len(text):,} characters long; shorten it to at most "
            f"{MAX_DESCRIPTION_CHARS:,} characters (a few sentences are enough)"
        )
    if not has_content(text):
        raise InvalidDescription(
            "the description contains no words (only punctuation, symbols or emoji): "
            "describe your research in English or Chinese"
        )
    return text


# ----------------------------------------------------------------------------------------------
# The model's interpretation reply (lenient on purpose: the caps are enforced here, not by failing)
# ----------------------------------------------------------------------------------------------


class ProposedQuestion(BaseModel):
    model_config = ConfigDict(extra="ignore")

    slot: str = ""
    question: str = ""
    options: TextList = Field(default_factory=list)


class Interpretation(BaseModel):
    """What the `interpret` prompt returns; any number of questions is accepted and then capped."""

    model_config = ConfigDict(extra="ignore")

    summary: str = ""
    uncertainties: TextList = Field(default_factory=list)
    questions: list[ProposedQuestion] = Field(default_factory=list)
    ready: bool = False


# ----------------------------------------------------------------------------------------------
# The round
# ----------------------------------------------------------------------------------------------


async def understand(
    description: str,
    llm: LLM,
    *,
    round: int = 1,
    max_rounds: int = 3,
    previous: Understanding | None = None,
) -> Understanding:
    """One round of understanding; see the module docstring for the steps and the `ready` rule."""
    text = validate_description(description)
    notes: list[str] = []
    language = detect_language(text)
    if language not in {"en", "zh", "mixed"}:
        notes.append(
            f"The description seems to be in {LANGUAGE_NAMES.get(language, language)}; ScholarMap reads "
            "English and Chinese best. It was processed as written: please check the extracted terms."
        )

    extraction = await _complete_safely(
        llm,
        "extract_slots",
        {"description": _as_data(text)},
        Slots,
        lambda: extract_slots(text),
        text,
    )
    slots = extraction.value
    produced_by = extraction.produced_by
    _note(notes, extraction)
    if produced_by is not Produced.RULES and not _has_terms(slots):
        rules_slots = extract_slots(text)
        if _has_terms(rules_slots):
            notes.append("The model found no searchable terms; the rules fallback's terms are used instead.")
            slots, produced_by = rules_slots, Produced.RULES

    if produced_by is not Produced.RULES:
        before = slots
        normalised = await _complete_safely(
            llm,
            "normalize_terms",
            {"slots_json": _as_data(slots.model_dump_json())},
            Slots,
            lambda: before,
            text,
        )
        _note(notes, normalised, "canonicalisation skipped")
        slots = _keep_dropped_slots(before, normalised.value, notes)

    originals: dict[str, str] = {}
    if any(has_chinese(p) for name in LIST_SLOT_NAMES for p in getattr(slots, name)):
        vocabulary = await asyncio.to_thread(embedded_vocabulary)
        slots, originals, translation_notes = translate_slots(slots, vocabulary)
        notes += translation_notes

    slots = clean_slots(slots, text, notes)
    asked = list(previous.questions) if previous else []
    interpretation, interpretation_produced = await _interpret(
        llm, text, slots, language, round, max_rounds, asked, notes
    )
    decided = _decide(
        text, slots, interpretation, interpretation_produced, round, max_rounds, asked, produced_by, notes
    )
    decided.originals = {en: zh for en, zh in originals.items() if en in _all_phrases(decided.slots)}
    return decided


def _all_phrases(slots: Slots) -> set[str]:
    return {phrase for name in LIST_SLOT_NAMES for phrase in getattr(slots, name)}


def _note(notes: list[str], completion: Completion[Any], prefix: str | None = None) -> None:
    """Add the completion's note once: a reason every step shares ("no LLM is configured") is said once."""
    if completion.note and completion.note not in notes:
        notes.append(f"{prefix}: {completion.note}" if prefix else completion.note)


def _has_terms(slots: Slots) -> bool:
    return any(getattr(slots, name) for name in LIST_SLOT_NAMES)


def _keep_dropped_slots(before: Slots, after: Slots, notes: list[str]) -> Slots:
    """Canonicalisation must not lose a whole slot: where it emptied one, the extracted terms stay."""
    data = after.model_dump()
    for name in LIST_SLOT_NAMES:
        if getattr(before, name) and not data[name]:
            data[name] = getattr(before, name)
            notes.append(f"Canonicalisation dropped every {name} term; the extracted ones are kept.")
    if before.research_goal and not data["research_goal"]:
        data["research_goal"] = before.research_goal
    return Slots.model_validate(data)


def clean_slots(slots: Slots, description: str, notes: list[str] | None = None) -> Slots:
    """The deterministic clean-up of every slot (see `agent.language.text`), and one slot per phrase."""
    casings = acronym_casings(description)
    seen: set[str] = set()
    data: dict[str, Any] = {"research_goal": normalize_whitespace(to_half_width(slots.research_goal))[:300]}
    for name in LIST_SLOT_NAMES:
        terms = [restore_acronym_casing(clean_term(t), casings) for t in getattr(slots, name)]
        terms = [t for t in dedupe_terms(t for t in terms if has_content(t)) if t.casefold() not in seen]
        if len(terms) > MAX_TERMS_PER_SLOT:
            if notes is not None:
                notes.append(f"{name} had {len(terms)} terms; the first {MAX_TERMS_PER_SLOT} are kept.")
            terms = terms[:MAX_TERMS_PER_SLOT]
        seen.update(t.casefold() for t in terms)
        data[name] = terms
    return Slots.model_validate(data)


# ----------------------------------------------------------------------------------------------
# Calling the model safely
# ----------------------------------------------------------------------------------------------

_DELIMITER = re.compile(r"<<<\s*[A-Z]+|[A-Z]+\s*>>>")


def _as_data(text: str) -> str:
    """Text to be placed between <<<NAME and NAME>>> lines: any delimiter look-alike in it is neutralised."""
    return _DELIMITER.sub("[delimiter removed]", text)


def _shingles(text: str, size: int = 6) -> set[str]:
    words = re.findall(r"\w+", text.casefold())
    return {" ".join(words[i : i + size]) for i in range(max(0, len(words) - size + 1))}


def _strings_in(value: Any) -> list[str]:
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings_in(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings_in(v)]
    return []


# The prompts of this module and the placeholders each one takes.
PROMPTS: dict[str, frozenset[str]] = {
    "extract_slots": frozenset({"description"}),
    "normalize_terms": frozenset({"slots_json"}),
    "interpret": frozenset(
        {"description", "slots_json", "language", "max_questions", "asked", "round", "max_rounds"}
    ),
}


@cache
def _instruction_shingles() -> frozenset[str]:
    return frozenset(
        s for name, fields in PROMPTS.items() for s in _shingles(load_prompt(name, fields).system)
    )


def repeats_prompt(value: Any, description: str) -> bool:
    """True when the reply quotes six or more consecutive words of any of our prompts' instructions that
    the description itself does not contain (a leaked prompt, not an overlap of topic words)."""
    secret = _instruction_shingles() - _shingles(description)
    return any(_shingles(text) & secret for text in _strings_in(value))


async def _complete_safely(
    llm: LLM,
    prompt: str,
    values: dict[str, Any],
    schema: type[T],
    fallback: Callable[[], T],
    description: str,
) -> Completion[T]:
    completion = await llm.complete_or_fallback(prompt, values, schema, fallback)
    if completion.produced_by is not Produced.RULES and repeats_prompt(completion.value, description):
        return Completion(
            fallback(),
            Produced.RULES,
            f"the model's reply to '{prompt}' repeated its instructions and was discarded",
        )
    return completion


# ----------------------------------------------------------------------------------------------
# Interpretation and questions
# ----------------------------------------------------------------------------------------------

_SLOT_LABELS = {
    "en": {
        "research_goal": "research goal",
        "task": "task",
        "method_measurement": "measurement or data-collection method",
        "method_algorithm": "analysis method or model",
        "subject_population": "subjects or population",
        "signal_feature": "signal or feature",
        "output_target": "output or outcome",
        "context": "context or application",
    },
    "zh": {
        "research_goal": "研究目标",
        "task": "研究任务",
        "method_measurement": "测量或数据采集方法",
        "method_algorithm": "分析方法或模型",
        "subject_population": "研究对象",
        "signal_feature": "信号或特征",
        "output_target": "输出或结局",
        "context": "应用场景",
    },
}

# What the rules ask about an empty slot (user-facing text, not a prompt).
_RULE_QUESTIONS = {
    "en": {
        "task": "What exactly do you want to do or find out (for example decode, predict, classify, compare)?",
        "method_measurement": "How are the data collected or measured (for example EEG, fMRI, a survey, sequencing)?",
        "subject_population": "Who or what is studied (for example patients with a condition, mice, households, a material)?",
        "context": "In which setting or application does the work take place (for example clinical, rehabilitation, policy)?",
        "output_target": "What outcome or quantity do you predict, decode or measure?",
        "method_algorithm": "Which analysis methods or models do you use or want to compare?",
        "signal_feature": "Which signals or features do you focus on?",
        "research_goal": "What is the overall aim of the research?",
    },
    "zh": {
        "task": "您具体想完成什么任务（例如解码、预测、分类、比较）？",
        "method_measurement": "数据是如何采集或测量的（例如脑电、fMRI、问卷调查、测序）？",
        "subject_population": "研究对象是谁或什么（例如某类患者、小鼠、家庭、某种材料）？",
        "context": "研究在什么场景或应用中进行（例如临床、康复、政策）？",
        "output_target": "您要预测、解码或测量的结局或目标是什么？",
        "method_algorithm": "您使用或想比较哪些分析方法或模型？",
        "signal_feature": "您关注哪些信号或特征？",
        "research_goal": "这项研究的总体目标是什么？",
    },
}
_QUESTION_ORDER = (
    "task",
    "method_measurement",
    "subject_population",
    "context",
    "output_target",
    "method_algorithm",
)


def _ui_language(language: str) -> str:
    return "zh" if language in {"zh", "mixed"} else "en"


async def _interpret(
    llm: LLM,
    description: str,
    slots: Slots,
    language: str,
    round: int,
    max_rounds: int,
    asked: list[ClarifyingQuestion],
    notes: list[str],
) -> tuple[Interpretation, Produced]:
    ui = _ui_language(language)
    values = {
        "description": _as_data(description),
        "slots_json": json.dumps(slots.model_dump(), ensure_ascii=False),
        "language": "Simplified Chinese" if ui == "zh" else "English",
        "max_questions": MAX_QUESTIONS_PER_ROUND,
        "asked": json.dumps([q.question for q in asked], ensure_ascii=False) if asked else "none",
        "round": round,
        "max_rounds": max_rounds,
    }
    completion = await _complete_safely(
        llm,
        "interpret",
        values,
        Interpretation,
        lambda: rules_interpretation(slots, language, asked, description),
        description,
    )
    _note(notes, completion, "interpretation")
    return completion.value, completion.produced_by


def rules_interpretation(
    slots: Slots, language: str, asked: list[ClarifyingQuestion] | None = None, description: str = ""
) -> Interpretation:
    """Summary, doubts and questions from the slots alone (no model)."""
    ui = _ui_language(language)
    labels = _SLOT_LABELS[ui]
    asked_slots = {q.slot for q in asked or []}
    parts = [
        f"{labels[name]}: {', '.join(getattr(slots, name))}"
        for name in LIST_SLOT_NAMES
        if getattr(slots, name)
    ]
    summary = _rules_summary(slots.research_goal, parts, ui)
    uncertainties = [
        f"描述中没有提到{labels[name]}。"
        if ui == "zh"
        else f"No {labels[name]} is stated in the description."
        for name in _missing_core(slots)
    ]
    for name in asked_slots:
        if name in SLOT_NAMES and not getattr(slots, name):
            uncertainties.append(
                f"已询问{labels[name]}，但回答中没有可检索的术语。"
                if ui == "zh"
                else f"You were asked about the {labels[name]}, but the answer named no searchable term."
            )
    casings = acronym_casings(description)
    defined = re.findall(r"\(\s*([A-Za-z][A-Za-z0-9\-]*)\s*\)", to_half_width(description))
    for short in sorted(set(casings.values()) - set(defined)):
        if len(short) <= 4 and short.isupper():
            uncertainties.append(
                f"缩写 {short} 未给出全称，可能有多种含义。"
                if ui == "zh"
                else f"The acronym {short} is not spelled out; it may have several meanings."
            )
    required = [f for f in facets_for_slots(slots) if f.required]
    questions = []
    if len(required) < 2:
        for name in _QUESTION_ORDER:
            if not getattr(slots, name) and name not in asked_slots:
                questions.append(ProposedQuestion(slot=name, question=_RULE_QUESTIONS[ui][name]))
            if len(questions) == MAX_QUESTIONS_PER_ROUND:
                break
    return Interpretation(
        summary=summary, uncertainties=uncertainties, questions=questions, ready=len(required) >= 2
    )


# A direct question opens with an auxiliary ("Does X improve Y") or a wh-word and an auxiliary ("How does
# X affect Y"); "how X affects Y" or "whether X improves Y" is an indirect one, a goal like any other.
_AUXILIARY = r"(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have|may|might|must)"
_QUESTION_START = re.compile(
    rf"^(?:{_AUXILIARY}|(?:how|what|which|why|when|where|who)(?:\s+\w+)?\s+{_AUXILIARY})\b",
    re.IGNORECASE,
)


def _rules_summary(goal: str, parts: list[str], ui: str) -> str:
    """ "You are working on …" (or "Your question: …?" when the goal is a question), then one short
    sentence per slot with terms."""
    goal = goal.strip().rstrip("。.")
    if ui == "zh":
        if goal.endswith(("？", "?")):
            summary = f"您的问题：{goal.rstrip('?？')}？"
        else:
            summary = f"您的研究：{goal}。" if goal else "您的研究描述。"
        return summary + ("；".join(parts) + "。" if parts else "")
    if not goal:
        summary = "Your research description."
    elif goal.endswith("?") or _QUESTION_START.match(goal):
        summary = f"Your question: {goal[:1].upper()}{goal[1:].rstrip('?')}?"
    else:
        first = goal.split()[0]
        lowered = first if first.isupper() or any(ch.isupper() for ch in first[1:]) else first.lower()
        summary = f"You are working on {lowered}{goal[len(first) :]}."
    return " ".join([summary, *(f"{part[:1].upper()}{part[1:]}." for part in parts)])


# What a searcher needs to know, and the slots any of which tells it: what is done or studied, in whom
# or what, and how it is measured or what comes out. A doubt is raised only when none of them is filled:
# "does intermittent fasting improve insulin sensitivity" names what is done (an exposure, kept in the
# context slot) and what is measured (the outcome), though it names no "task" or "method".
_CORE = (
    ("task", ("task", "context", "method_algorithm", "method_measurement")),
    ("subject_population", ("subject_population",)),
    ("method_measurement", ("method_measurement", "output_target", "signal_feature")),
)


def _missing_core(slots: Slots) -> list[str]:
    return [name for name, telling in _CORE if not any(getattr(slots, slot) for slot in telling)]


def _valid_questions(
    proposed: list[ProposedQuestion], asked: list[ClarifyingQuestion]
) -> list[ClarifyingQuestion]:
    """Questions on known slots, not empty, not asked before, one text once; capped per round."""
    seen = {normalize_whitespace(q.question).casefold() for q in asked}
    out: list[ClarifyingQuestion] = []
    for item in proposed:
        slot = item.slot.strip().lower().replace(" ", "_")
        text = normalize_whitespace(item.question)
        if slot not in SLOT_NAMES or not text or text.casefold() in seen:
            continue
        seen.add(text.casefold())
        out.append(
            ClarifyingQuestion(slot=slot, question=text, options=[o.strip() for o in item.options[:4]])
        )
        if len(out) == MAX_QUESTIONS_PER_ROUND:
            break
    return out


def _decide(
    description: str,
    slots: Slots,
    interpretation: Interpretation,
    interpretation_by: Produced,
    round: int,
    max_rounds: int,
    asked: list[ClarifyingQuestion],
    produced_by: Produced,
    notes: list[str],
) -> Understanding:
    questions = _valid_questions(interpretation.questions, asked)
    dropped = len(interpretation.questions) - len(questions)
    if dropped > 0 and interpretation_by is not Produced.RULES:
        notes.append(
            f"{dropped} proposed question(s) were not asked (over the limit, repeated or without a slot)."
        )
    uncertainties = [normalize_whitespace(u) for u in interpretation.uncertainties if u.strip()]
    ready = interpretation.ready
    if not _has_terms(slots):
        ready = False  # nothing to search for yet, whatever the model thinks
        if not questions:
            fallback = rules_interpretation(slots, detect_language(description), asked, description)
            questions = _valid_questions(fallback.questions, asked)
    if not ready and not questions:
        ready = True  # nothing left to ask: searching is the only way forward
    if not ready and round >= max_rounds:
        ready = True
        uncertainties += [f"Still open: {q.question}" for q in questions]
        notes.append(
            f"Clarification stopped after round {round} of {max_rounds}; the open questions are listed."
        )
    if ready:
        questions = []
    return Understanding(
        description=description,
        slots=slots,
        summary=normalize_whitespace(interpretation.summary),
        uncertainties=uncertainties,
        questions=questions,
        round=round,
        ready=ready,
        produced_by=produced_by,
        notes=notes,
    )


# ----------------------------------------------------------------------------------------------
# Answers
# ----------------------------------------------------------------------------------------------


def merge_answers(
    description: str,
    questions: list[ClarifyingQuestion],
    answers: list[str] | dict[str, str] | str,
) -> str:
    """The description with the answers appended, one line each, naming the slot the question was about.

    `answers` is a list in question order, a mapping (slot name, question text, or 1-based number ->
    answer), or free text (numbered or line-separated answers are paired with the questions in order).
    """
    pairs: list[tuple[ClarifyingQuestion | None, str]] = []
    if isinstance(answers, str):
        items = _numbered_items(answers)
        if len(questions) == 1:
            pairs = [(questions[0], answers)]
        elif questions and len(items) == len(questions):
            pairs = list(zip(questions, items, strict=True))
        else:
            pairs = [(None, answers)]
    elif isinstance(answers, Mapping):
        for key, value in answers.items():
            pairs.append((_question_for(str(key), questions), str(value)))
    else:
        for index, value in enumerate(answers):
            pairs.append((questions[index] if index < len(questions) else None, str(value)))

    lines = [description.rstrip()]
    budget = MAX_DESCRIPTION_CHARS - len(lines[0])
    for question, answer in pairs:
        text = normalize_whitespace(answer)[:MAX_ANSWER_CHARS]
        if not has_content(text) or is_non_answer(text):
            continue  # "I don't know" names nothing to search for; the slot is not asked again
        question_text = normalize_whitespace(question.question).replace(" Answer: ", " ") if question else ""
        line = (
            f"Clarification ({question.slot}): {question_text} Answer: {text}"
            if question
            else f"Clarification: {text}"
        )
        if len(line) + 1 > budget:
            break  # the description must stay within the length a round accepts
        budget -= len(line) + 1
        lines.append(line)
    return "\n".join(lines)


# Answers that decline to answer, in English and Chinese ("I don't know", "skip", 不知道, 随便).
_NON_ANSWER = re.compile(
    r"^(?:(?:i|we)\s+(?:really\s+)?(?:do\s*n[o']?t|dont|cannot|can'?t)\s+(?:know|say|tell)(?:\s+yet)?"
    r"|(?:i'?m\s+|i\s+am\s+)?(?:not\s+sure|unsure)(?:\s+yet)?|no\s+idea|don'?t\s+know|dunno|unknown"
    r"|skip(?:\s+(?:this|it))?|pass|n/?a|none|nothing|no\s+preference|any|anything|whatever"
    r"|doesn'?t\s+matter|not\s+applicable|no\s+answer|\?+"
    r"|不知道|不清楚|不确定|不太清楚|跳过|无|没有|随便|都可以|不好说|暂无)"
    r"[\s.!?。！？,，]*$",
    re.IGNORECASE,
)


def is_non_answer(text: str) -> bool:
    """True for an answer that declines to answer: it must not become a search term."""
    return bool(_NON_ANSWER.match(normalize_whitespace(to_half_width(text))))


def _numbered_items(text: str) -> list[str]:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) > 1:
        return [re.sub(r"^\s*(?:\d+[.)、:：]|[-*•])\s*", "", line) for line in lines]
    parts = re.split(r"(?:^|\s)\d+[.)、:：]\s*", text.strip())
    return [p.strip() for p in parts if p.strip()]


def _question_for(key: str, questions: list[ClarifyingQuestion]) -> ClarifyingQuestion | None:
    key = key.strip()
    if key.isdigit() and 1 <= int(key) <= len(questions):
        return questions[int(key) - 1]
    for question in questions:
        if (
            key == question.slot
            or normalize_whitespace(key).casefold() == normalize_whitespace(question.question).casefold()
        ):
            return question
    if key in SLOT_NAMES:
        return ClarifyingQuestion(slot=key, question="")
    return None
