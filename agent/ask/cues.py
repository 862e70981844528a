"""What kind of answer a question wants, and which sentences have that shape.

"What sample sizes were used?" shares only generic words ("used") with most sentences of a paper; the
sentence that answers it is the one with a number of participants. So each information need is a pair:
a question cue (what the question asks for) and an answer cue (what a sentence that answers it looks
like). The extractive answer adds a bonus to sentences of the wanted shape; a question matching no cue
is scored on its terms alone; otherwise a sentence of the wanted shape goes first. The table is general (sizes, quantities, effects, methods, time, place,
dose), in English and Chinese, not tuned to any one question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PEOPLE = (
    r"participants?|patients?|subjects?|individuals?|adults?|children|adolescents?|infants?|women|men|"
    r"volunteers?|cases?|controls?|people|persons?|respondents?|users?|students?|workers?|twins|"
    r"mice|rats|animals?|samples?|pairs|families|households|cohorts?|recordings?|sessions?|trials?|studies"
)


@dataclass(frozen=True)
class AnswerCue:
    name: str
    question: re.Pattern[str]
    answer: re.Pattern[str]


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


CUES: tuple[AnswerCue, ...] = (
    AnswerCue(
        "sample_size",
        _re(
            r"sample sizes?|how many (?:\w+ )?(?:" + _PEOPLE + r")|number of (?:" + _PEOPLE + r")|"
            r"\bcohort size|enrol+ed|recruited|样本量|样本数|样本|多少(?:名|例|位|个)?(?:患者|受试者|被试|参与者|人)|受试者|被试|病例数"
        ),
        _re(
            r"\b\d[\d,.]*\s+(?:[a-z-]+\s+){0,3}(?:" + _PEOPLE + r")\b|\bn\s*=\s*\d|"
            r"\b(?:total|sample) of \d|\d+\s*(?:例|名|位|人)"
        ),
    ),
    AnswerCue(
        "performance",
        _re(
            r"accura|how (?:well|accurate|precise)|performance|precision|recall|error rate|\bauc\b|准确率|精度|性能"
        ),
        _re(
            r"\d+(?:\.\d+)?\s*%|\baccuracy\b|\bauc\b|sensitivity|specificity|f1|error rate|correlation|r\s*=\s*0?\.\d|百分之|准确率(?:为|达|是)"
        ),
    ),
    AnswerCue(
        "effect",
        _re(
            r"effects?\b|impact|influence|associat|affect|increase|decrease|reduce|improve|risk|"
            r"影响|效果|作用|改善|关联|风险"
        ),
        _re(
            r"associated with|increas|decreas|reduc|improv|significant|p\s*[<=]\s*0?\.\d|odds ratio|hazard ratio|"
            r"relative risk|\bor\b\s*[=:]|\bhr\b\s*[=:]|显著|增加|降低|改善"
        ),
    ),
    AnswerCue(
        "method",
        _re(
            r"\bhow (?:did|do|does|were|was|is|are|to)\b|methods?\b|approach|technique|which (?:model|algorithm|design)|"
            r"what (?:model|algorithm|design|technique)|方法|如何|怎样|模型|算法"
        ),
        _re(
            r"\b(?:we|were|was)\s+(?:\w+\s+)?(?:used|applied|performed|measured|trained|developed|assessed|estimated)\b|"
            r"\busing\b|\bbased on\b|randomi[sz]ed|regression|采用|使用|基于"
        ),
    ),
    AnswerCue(
        "time",
        _re(r"\bwhen\b|what year|duration|how long|follow-?up|多久|何时|时间|多长"),
        _re(
            r"\b(?:19|20)\d\d\b|\b\d+(?:\.\d+)?\s*(?:days?|weeks?|months?|years?|hours?|minutes?)\b|\d+\s*(?:天|周|个月|年)"
        ),
    ),
    AnswerCue(
        "dose",
        _re(r"\bdoses?\b|dosage|how much|剂量"),
        _re(r"\d+(?:\.\d+)?\s*(?:mg|g|ml|µg|mcg|iu|mg/kg|mmol)\b|\d+\s*(?:毫克|克)"),
    ),
    AnswerCue(
        "place",
        _re(r"\bwhere\b|which countr|what countr|哪里|哪个国家|哪些国家"),
        _re(r"\b(?:in|from) (?:the )?[A-Z][a-z]+|countr|nationwide|multicent|hospital|国家|医院"),
    ),
)


def cues_for(question: str) -> list[AnswerCue]:
    """The information needs a question expresses (possibly none)."""
    return [cue for cue in CUES if cue.question.search(question)]


def cue_matches(sentence: str, cues: list[AnswerCue]) -> list[str]:
    """Names of the wanted answer shapes a sentence has."""
    return [cue.name for cue in cues if cue.answer.search(sentence)]
