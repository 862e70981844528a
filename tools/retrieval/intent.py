"""Step 2: what kind of question this is — a title, a content fragment, or an entity — and how to search.

Rules, not a model: the cues are few and visible (a quoted title, "who", an author the Run knows),
every decision lists its evidence, and it costs microseconds. The strategy it returns names the
legs, the section kinds to boost (methods for "what sample sizes", results for "how accurate"),
and per-leg weight multipliers (an entity question leans on the term graph).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .text import ENGLISH_STOPWORDS, latin_words
from .types import LEGS, Intent, NormalizationTrace, RetrievalStrategy

_EN_QUESTION_START = frozenset(
    [
        "what",
        "which",
        "how",
        "why",
        "when",
        "where",
        "who",
        "whom",
        "whose",
        "does",
        "do",
        "did",
        "is",
        "are",
        "was",
        "were",
        "can",
        "could",
        "should",
        "will",
        "would",
        "has",
        "have",
        "list",
        "name",
        "find",
        "show",
    ]
)
_ZH_QUESTION = re.compile(r"什么|哪|如何|怎么|怎样|为什么|为何|吗|是否|多少|几[个种篇]|谁|[?？]")
_EN_ENTITY_ASK = re.compile(
    r"\bwho\b|\bwhose\b|\bwhich\s+(?:authors?|labs?|groups?|teams?|institutions?|universit\w+|centers?|centres?|"
    r"hospitals?|researchers?|investigators?|countries)\b|\b(?:papers?|work|studies|articles?)\s+(?:by|from)\b",
    re.IGNORECASE,
)
_ZH_ENTITY_ASK = re.compile(
    r"谁|哪些?(?:位)?(?:作者|学者|团队|课题组|实验室|机构|单位|大学|医院|研究者|国家)|哪家"
)
_TITLE_CUE = re.compile(
    r"\b(?:titled|entitled|the paper called|title)\b|题为|题目|标题|论文《", re.IGNORECASE
)
_QUOTED = re.compile(r"[\"“”《](.{8,}?)[\"“”》]")

# Which section kinds a question is about, by its wording.
_FIELD_CUES: list[tuple[re.Pattern[str], list[str]]] = [
    (
        re.compile(
            r"sample size|participants?|subjects?|patients?|cohort|how many|\bn\s*=|method|protocol|dataset|"
            r"recruit|inclusion|exclusion|electrode|recorded|measured|样本|受试者|被试|患者|方法|实验|数据集|招募",
            re.IGNORECASE,
        ),
        ["methods"],
    ),
    (
        re.compile(
            r"result|accuracy|performance|effect|outcome|found|finding|improv|significan|error rate|"
            r"结果|准确率|效果|性能|发现|显著",
            re.IGNORECASE,
        ),
        ["results", "conclusion"],
    ),
    (re.compile(r"\btables?\b|表格|表\d", re.IGNORECASE), ["table"]),
    (re.compile(r"\bfig(?:ure)?s?\b|图\d|图表", re.IGNORECASE), ["figure"]),
]


def _is_question(text: str, language: str) -> tuple[bool, str]:
    words = [w.lower() for w in latin_words(text)]
    if words and words[0] in _EN_QUESTION_START:
        return True, words[0]
    match = _ZH_QUESTION.search(text)
    if match:
        return True, match.group(0)
    if text.rstrip().endswith(("?", "？")):
        return True, "?"
    return False, ""


def _title_case_ratio(text: str) -> float:
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", text) if w.lower() not in ENGLISH_STOPWORDS]
    if len(words) < 3:
        return 0.0
    return sum(1 for w in words if w[0].isupper()) / len(words)


def classify(
    trace: NormalizationTrace,
    entities: Sequence[tuple[str, str]] = (),
    *,
    legs: Sequence[str] = LEGS,
) -> Intent:
    """Classify a normalised question; `entities` are the (graph node, surface) pairs it names."""
    original = trace.original
    text = trace.whitespace_normalized
    is_question, question_cue = _is_question(original, trace.language)
    evidence: list[str] = []
    if is_question:
        evidence.append(f"question word: {question_cue}")

    # -- title -----------------------------------------------------------------------------------
    title_score = 0.0
    quoted = _QUOTED.search(original)
    if _TITLE_CUE.search(original):
        title_score = 0.9
        evidence.append("asks for a title")
    elif quoted and len(quoted.group(1).split()) >= 3:
        title_score = 0.85
        evidence.append(f"quoted: {quoted.group(1)}")
    elif not is_question and trace.language == "en" and _title_case_ratio(original) >= 0.6:
        title_score = 0.7
        evidence.append("written in Title Case")

    # -- entity ----------------------------------------------------------------------------------
    entity_score = 0.0
    people = [surface for node, surface in entities if node.split(":", 1)[0] in ("author", "inst")]
    asks_entity = bool(_EN_ENTITY_ASK.search(text) or _ZH_ENTITY_ASK.search(text))
    if asks_entity:
        entity_score = 0.9 if people else 0.8
        evidence.append("asks who / which group")
    if people:
        entity_score = max(entity_score, 0.8)
        evidence.append("names " + ", ".join(people))
    if entities:
        # a question that is little more than the Run's terms ("ECoG speech decoding") is an entity lookup
        content = [t for t in trace.tokens if t.lower() not in ENGLISH_STOPWORDS]
        covered = sum(len(surface.split()) for _, surface in entities)
        coverage = min(1.0, covered / max(1, len(content)))
        if coverage >= 0.7 and not is_question:
            entity_score = max(entity_score, 0.6 + 0.3 * coverage)
            evidence.append(f"mostly Run terms ({coverage:.0%})")

    # -- content (the default) --------------------------------------------------------------------
    content_score = 0.75 if is_question else 0.6
    boost_fields: list[str] = []
    for pattern, fields in _FIELD_CUES:
        match = pattern.search(text)
        if match:
            boost_fields.extend(f for f in fields if f not in boost_fields)
            evidence.append(f"about {'/'.join(fields)}: {match.group(0)}")
    if boost_fields:
        content_score += 0.1

    scores = {"title": title_score, "entity": entity_score, "content": content_score}
    kind = max(scores, key=lambda k: (scores[k], k == "content"))  # ties go to content, the safe default
    margin = scores[kind] - max(v for k, v in scores.items() if k != kind)
    # confidence: the winning score, discounted when another reading is close behind it
    confidence = round(min(0.99, scores[kind] * (0.6 + 0.4 * min(1.0, margin / 0.3))), 2)

    if kind == "title":
        # titles are searched inside the front sections that carry them ("abstract" covers those)
        strategy = RetrievalStrategy(
            legs=list(legs), boost_fields=["title", "abstract"], boost=1.3, weight_overrides={"bm25": 1.2}
        )
    elif kind == "entity":
        strategy = RetrievalStrategy(
            legs=list(legs),
            boost_fields=boost_fields or ["title", "abstract"],
            boost=1.1,
            weight_overrides={"graph": 2.0},
        )
    else:
        strategy = RetrievalStrategy(
            legs=list(legs), boost_fields=boost_fields, boost=1.15 if boost_fields else 1.0
        )
    if "graph" in strategy.legs and not entities:
        strategy.legs = [leg for leg in strategy.legs if leg != "graph"]  # nothing to start a walk from
    return Intent(
        kind=kind,
        confidence=confidence,
        evidence=evidence,
        entities=[node for node, _ in entities],
        strategy=strategy,
    )
