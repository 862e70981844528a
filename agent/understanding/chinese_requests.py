"""A Chinese request to the assistant for papers, set aside before the phrases are read.

Users write to ScholarMap as they would to a librarian: "请检索二甲双胍治疗多囊卵巢综合征的随机对照试验",
"帮我找一些关于正念训练对大学生焦虑影响的文献", "我想看看机器学习预测脓毒症的论文". The request (请检索, 帮我找,
看看) and the papers asked for (的文献, 的论文) name no concept, but read as words they became terms: 检索 a
task ("retrieval", which MeSH files under organ harvesting), 论文 the object of a prediction ("paper").
The English reader passes its requests token by token (`english_phrase_rules.no_term.request_for_papers`);
Chinese has no spaces to pass, so the request is cut from the text before it is segmented. Grammar of
asking, not topics: a design asked for (随机对照试验) stays, and is read where it stands.
"""

from __future__ import annotations

import re

# a sentence opens at the text's start or after a stop; a clause after a comma or colon too
_SENTENCE_START = r"(?:^|(?<=[。！？；.!?;\n]))\s*"
_CLAUSE_START = r"(?:^|(?<=[。！？；，,.!?;:：\n]))\s*"
# who is asked and how politely (请, 麻烦, 帮我, 能否, 我想)
_POLITE = r"(?:请|麻烦|帮忙|帮我|请帮我|能否|能不能|可否|可以|我想|我要|想)"
# verbs of searching the literature, a request wherever a sentence opens with them
_SEARCHING = r"(?:检索|搜索|查找|查询)"
# verbs of looking for anything, a request only after the polite words: "帮我找X" asks, while "寻找与X相关的
# 位点" is what a study does, and "找到了三个基因" and "查体" report
_LOOKING = r"(?:寻找|看看|列出|给我|找找|找|搜|查)(?![到出了过体])"
_AMOUNT = r"(?:一下|一些|几篇|一批|下)?"
_ABOUT = r"(?:有关|关于|相关的?)?"
_OPENING = re.compile(
    f"(?:{_SENTENCE_START}{_POLITE}*{_SEARCHING}|{_CLAUSE_START}{_POLITE}+(?:{_SEARCHING}|{_LOOKING}))"
    + _AMOUNT
    + _ABOUT
)
# the papers asked for, closing the clause: "...的文献", "...相关论文" (not 资料, which a study collects)
_PAPERS = re.compile(r"(?:的)?(?:相关)?(?:文献|论文|文章)(?=\s*(?:[。！？；，,.!?;]|$))")


def without_requests(text: str) -> str:
    """`text` without the requests for papers that open or close its clauses ("请检索X的论文" -> "X")."""
    if not re.search(f"{_SEARCHING}|{_LOOKING}|文献|论文|文章", text):
        return text
    return _PAPERS.sub("", _OPENING.sub("", text))
