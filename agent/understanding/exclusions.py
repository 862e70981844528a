"""What the user says they do not want, set aside before the phrases are read.

Researchers close a description with what to leave out, as they would tell a librarian: "Not
interested in military veterans.", "Exclude sciatica/radicular pain.", "We don't want animal studies",
"不要动物研究", "排除儿童". Read as words, what follows the cue became a required concept ("veterans",
"sciatica" and "animal" were AND'ed into the query, the opposite of the wish). A review search leaves an
exclusion to screening, as a librarian does (NOT drops relevant records that merely mention the word), so
the sentence or clause the cue opens names no concept and is cut from the text.

Grammar of refusing, not topics: only a cue that opens a sentence or clause counts, so a verb of the
research itself stays ("D-dimer for excluding pulmonary embolism", "D-二聚体排除肺栓塞").

A sentence may also close on what it sets aside after a comma: "Steroids for sudden hearing loss -
adults, not children." made children a required block; "not" and at most three words before the stop
are cut, while "not just X" and "not only X" add to what came before and stay.

Two shorter shapes say the same inside a sentence. A bracket that opens with a negation names what the
user sets aside ("advanced heart failure (not cancer)", "(excluding twins)"): the bracket is cut. People
said "without X" (or "with no X", "free of X") are the people, X their eligibility: "people without a
history of stroke", "patients without T2DM" made stroke and T2DM required blocks, a concept the studies
wanted do not have. The people stay, the negated phrase goes, up to a stop or a word that opens the
next part of the phrase ("recipients without diabetes before transplantation" -> "recipients before
transplantation"). Only after a noun for people, so "surgery without drains" or "cobalt-free
batteries" keep what they compare.
"""

from __future__ import annotations

import re

# a sentence opens at the text's start or after a stop; in Chinese a clause after a comma too
_EN_SENTENCE_START = r"(?:^|(?<=[.!?;\n]))[ \t]*"
_ZH_CLAUSE_START = r"(?:^|(?<=[。！？；，,.!?;\n]))[ \t]*"
# the user refusing: "(I'm|we're) not interested in", "not looking for", "(please) exclude", "excluding",
# "(we) don't want", "no need for"
_EN_REFUSING = (
    r"(?:(?:but\s+)?(?:(?:i|we)(?:'m|'re|\s+am|\s+are)\s+)?not\s+(?:interested|looking)\s+(?:in|for|at)"
    r"|(?:please\s+)?(?:exclude|excluding|omit|leave\s+out)"
    r"|(?:(?:i|we)\s+)?(?:do\s+not|don't|dont)\s+(?:want|need|include)"
    r"|no\s+need\s+for)\b"
)
# the rest of the sentence the cue opens, with its stop
_EN_EXCLUSION = re.compile(f"{_EN_SENTENCE_START}{_EN_REFUSING}[^.!?;\n]*[.!?;]?", re.IGNORECASE)
# the same refusal as a clause after a comma ("in preterm infants, excluding animal studies", "RCTs only,
# no general anaesthesia studies.", "adults, not children." closing a sentence with "not" and at most
# three words; "not just/only ..." adds rather than refuses), and a telegraphic sentence of at most three
# words opening with "No" ("No animal studies.")
_EN_EXCLUDING_CLAUSE = re.compile(
    r",\s*(?:(?:excluding|except(?:\s+for)?|but\s+not|not\s+including|other\s+than)\b[^.!?;\n]*"
    r"|not\s+(?!(?:just|only|merely|simply|necessarily|always|yet|least|even|so|too|as|all)\b)"
    r"(?:in\s+)?(?:[\w-]+\s+){0,2}[\w-]+\s*(?=[.!?;\n]|$)"
    r"|no\s+(?:[\w-]+\s+){0,2}[\w-]+\s*(?=[.!?;\n]|$))",
    re.IGNORECASE,
)
_EN_NO_SENTENCE = re.compile(
    rf"{_EN_SENTENCE_START}no\s+(?:[\w-]+\s+){{0,2}}[\w-]+\s*(?:[.!?;]|$)", re.IGNORECASE
)
# 不要, 不需要, 不考虑, 不包括, 排除, 除去, 请勿纳入 opening a clause, up to the clause's end
_ZH_EXCLUSION = re.compile(
    f"{_ZH_CLAUSE_START}(?:请|我们?|最好)?(?:不要|不需要|不想要|不考虑|不包括|不纳入|请勿纳入|排除|除去)"
    r"[^。！？；，,.!?;\n]*[。！？；，,.!?;]?"
)

# a bracket opening with a negation: "(not cancer)", "(excluding twins)", "(no dialysis)"
_EN_NEGATED_BRACKET = re.compile(
    r"\s*\(\s*(?:not|no|excluding|except|exclude|but\s+not|other\s+than)\b[^()]*\)", re.IGNORECASE
)
# nouns for the people a study enrols, singular or plural ("pts" as clinicians write it)
_PEOPLE = (
    r"(?:patients?|pts|people|persons?|individuals?|adults?|children|child|kids|infants?|neonates?"
    r"|adolescents?|women|woman|men|man|subjects?|participants?|recipients?|residents?|survivors?"
    r"|users?|smokers?|workers?|pregnancies|mothers?|girls?|boys?|veterans?|athletes?)"
)
# what ends the negated phrase: a stop, a bracket, or a word opening the phrase's next part
_NEGATED_END = (
    r"(?=\s+(?:who|whom|that|which|undergoing|receiving|treated|taking|on|in|at|after|before|during"
    r"|from|for|to|and\s+(?:with|in|who))\b|[.,;:!?()]|$)"
)
_EN_PEOPLE_WITHOUT = re.compile(
    rf"\b({_PEOPLE})\s+(?:without|with\s+no|free\s+of)\s+[^.,;:!?()]*?{_NEGATED_END}", re.IGNORECASE
)


def without_exclusions(text: str) -> str:
    """`text` without the sentences and clauses in which the user says what to leave out ("X in Y. Not
    interested in Z." -> "X in Y."), brackets that open with a negation, and what people are said to be
    without ("in patients without T2DM" -> "in patients")."""
    text = _EN_PEOPLE_WITHOUT.sub(r"\1", _EN_NEGATED_BRACKET.sub("", text))
    text = _EN_NO_SENTENCE.sub("", _EN_EXCLUDING_CLAUSE.sub("", text))
    return _ZH_EXCLUSION.sub("", _EN_EXCLUSION.sub("", text))
