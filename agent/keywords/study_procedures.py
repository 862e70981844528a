"""Sentences that say how the researcher's own study is done, and the concepts named only there.

A researcher describing a project writes what it is about and then, often, how it will be done: "We
want to use 16S sequencing and shotgun metagenomics", "Transmembrane pressure will be logged
continuously", "Disease severity would be scored in field trials at two locations in Ethiopia". A
searcher builds the query from the topic; the instruments, assays, scores and field sites of the
user's own study narrow it to papers that happen to share them (the plans of 60 English dev
descriptions had AND'ed five to ten concepts in 32 of them). So a concept named *only* in such a
sentence is optional: shown, used for ranking, and one click from being required again.

The first sentence states the topic, but may close on its instruments after a comma (", using a
national panel survey", ", assessed with faecal egg count reduction tests", ", measured by HR-pQCT").
After it, a procedure clause (`procedure_parts`: a sentence, or one of its clauses after ", and")
- plans a measurement in the passive: a modal or a form of "be" before a participle of measuring
  ("will be logged", "are sequenced", "would be scored", "are aged at 85 °C and characterised"), or
- has "we"/"I" (with a modal or a verb of intending between) do it: measure, record, collect, score,
  sequence... or use/employ something without a purpose after it ("We would use motion-triggered
  cameras", but not "We use deep learning to segment tumours", where the method is the work), or
- has an instrument do it after a modal ("Rumen temperature boluses ... will indicate heat load"),
and that asks no question and states no hypothesis or aim (whether, how, which, hypothesise, expect,
suspect, aim): "We will measure whether exercise changes sleep" is the topic.
Chinese sentences (after 。；！？) open with a verb of using or adopting (采用, 利用, 使用, 拟采用, 将采用)
or a planned measurement (将测量, 将记录, 拟检测, 将采集): the same role, as does the first sentence's
closing clause of using ("...的关系，采用16S rRNA测序分析粪便样本").

The statistics a study is analysed with are part of how it is done wherever they are written ("how
housing costs influence fertility intentions ..., using a national panel survey and multilevel logistic
regression"): a method concept whose headings MeSH files only under Statistics as Topic (Logistic
Models, Propensity Score, Bayes Theorem: `analysed_with`) only narrows, unless the description asks
about the method itself, as the "X" of "X for Y" ("Bayesian hierarchical models for small-area
estimation") or as what is compared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from agent.keywords.outcome_lists import OUTCOME_NOUNS
from agent.keywords.title_template import named_before_for, written_in
from agent.language.cedict import has_chinese
from agent.models import Concept, ConceptRole, SynonymOrigin, Term

# participles of collecting and measuring data; not those of the question itself (investigated,
# explored, evaluated, compared, tested, identified, predicted: "the efficacy of X will be evaluated"
# is a topic), nor of assigning people (randomised, recruited: the interventions and populations)
_MEASURED = (
    r"measured|recorded|collected|obtained|acquired|analy[sz]ed|estimated|characteri[sz]ed|imaged|scanned|"
    r"quantified|monitored|detected|profiled|sequenced|genotyped|surveyed|captured|tracked|calibrated|"
    r"stained|label+ed|scored|graded|sampled|trapped|counted|weighed|logged|coded|transcribed|"
    r"calculated|computed|fitted|validated|assayed|photographed|audio-recorded|video-recorded|processed"
)
_MEASURE = (
    r"measure|record|collect|obtain|acquire|analy[sz]e|estimate|characteri[sz]e|image|scan|quantify|"
    r"monitor|detect|profile|sequence|genotype|survey|capture|track|calibrate|stain|label|score|grade|"
    r"sample|trap|count|weigh|log|code|transcribe|calculate|compute|fit|validate|assay|photograph|indicate"
)
# participles of the question's own verbs, which name an instrument only with one after them:
# "Reading is assessed with EGRA" (but "the efficacy of X will be evaluated" is a topic)
_CHECKED_WITH = r"(?:assessed|evaluated|determined|confirmed|identified|tested)\s+(?:with|by|using|from|on)\b"
_MODAL = r"(?:will|would|shall|can|could|should|may|might|must|'ll|'d)"
_INTEND = r"(?:want|plan|intend|aim|hope|propose|need|are going|am going)\s+to"
_PASSIVE = re.compile(
    rf"\b(?:{_MODAL}\s+(?:\w+ly\s+|also\s+|then\s+|first\s+)?be|is|are|was|were|being)\s+"
    rf"(?:\w+ly\s+|also\s+|then\s+|first\s+|\w+ed\b[^,;.]*?\band\s+)?(?:{_MEASURED}|{_CHECKED_WITH})\b",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(
    rf"\b(?:we|i)\s+(?:{_MODAL}\s+|{_INTEND}\s+|also\s+|then\s+|first\s+)*"
    rf"(?:(?:{_MEASURE}|run|conduct|perform|carry out)(?:s|es|d|ed)?\b|(?P<use>use|employ|apply)\b)",
    re.IGNORECASE,
)
_INSTRUMENT = re.compile(rf"\b{_MODAL}\s+(?:also\s+|then\s+)?(?:{_MEASURE})\b", re.IGNORECASE)
# "use X to segment": the method is the work; "use X at lit sites": an instrument of the study
_PURPOSE_AFTER = re.compile(r"\bto\s+(?!be\b)[a-z]+", re.IGNORECASE)
_TOPIC = re.compile(
    r"\b(?:whether|if|how|why|what|hypothes\w+|expect\w*|suspect\w*|aims?|goal|objective|question)\b"
    r"|(?<!at )(?<!in )(?<!by )(?<!of )(?<!to )(?<!for )(?<!from )(?<!with )(?<!on )\bwhich\b",
    re.IGNORECASE,
)
# what the study reports or where its data come from: "Outcomes are lice counts per fish, ...",
# "Time to passage and need for intervention are secondary endpoints", "Data would come from ..."
_OUTCOMES_OR_DATA = re.compile(
    rf"^(?:the\s+|our\s+)?{OUTCOME_NOUNS}\b"
    r"|\b(?:is|are)\s+(?:the\s+)?(?:primary|secondary|main)\s+(?:outcomes?|end\s?points?)\b"
    r"|^(?:the\s+|our\s+)?data\b.*\b(?:come|comes|came|drawn|taken|sourced)\s+from\b",
    re.IGNORECASE,
)
_CHINESE = re.compile(
    r"^(?:我们|本研究|本课题)?(?:将|拟|计划)?(?:采用|利用|使用|运用|(?:测量|记录|检测|采集|收集|测定))"
)
# sentence ends: ". " before a capital, a digit or a quote (not "e.g. the", not "2.5"), and the
# Chinese full stops
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|(?<=[。！？；;])\s*")


def sentences(description: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(description) if s and s.strip()]


def is_procedure(sentence: str) -> bool:
    """Whether a sentence or clause (not of the description's first sentence) says how the study is
    done (module doc)."""
    if _TOPIC.search(sentence):
        return False
    if _CHINESE.match(sentence.strip()):
        return not _CHINESE_TASK.search(sentence)  # "采用深度学习识别癫痫发作": the task is the work
    if _OUTCOMES_OR_DATA.search(sentence):
        return True
    if _PASSIVE.search(sentence) or _INSTRUMENT.search(sentence):
        return True
    found = _FIRST_PERSON.search(sentence)
    if found is None:
        return False
    return not (found.group("use") and _PURPOSE_AFTER.search(sentence, found.end()))


# the first sentence's closing clause of instruments: ", using a national panel survey and ...", ",
# assessed with faecal egg count reduction tests", ", estimated from hunter-harvested samples"
_INSTRUMENT_CLAUSE = re.compile(
    rf",\s+(?:(?:by\s+)?using|(?:{_MEASURED})\s+(?:with|by|using|from|on)|{_CHECKED_WITH})\s[^,;]*$",
    re.IGNORECASE,
)
# the same in Chinese: "本研究探讨肠道菌群与帕金森病便秘的关系，采用16S rRNA测序分析粪便样本" (not a clause that
# asks: 是否 whether, 如何 how)
_CHINESE_INSTRUMENT = re.compile(
    r"[，,]\s*(?:我们)?(?:将|拟)?(?:采用|利用|使用|运用)(?:(?!是否|如何)[^，,；;])*$"
)
# what a Chinese clause of using does: measures or analyses (the study's procedure), or the task itself
# ("利用脑电信号识别癫痫发作": EEG used to recognise seizures is the work, as "using X to segment" is)
_CHINESE_MEASURING = re.compile(r"分析|测定|测量|评估|评价|记录|收集|采集|检测|监测|测序")
_CHINESE_TASK = re.compile(r"识别|预测|诊断|分类|分割|检出|预警|重建|生成")
# a clause without a subject that goes on measuring: "..., and measure short-chain fatty acids in faeces"
_CONTINUED = re.compile(
    rf"^(?:and|but)\s+(?:also\s+|then\s+)?(?:(?:{_MEASURE}|use|employ|apply|run|conduct|perform)\b)",
    re.IGNORECASE,
)
# a sentence's clauses: "Particles will be processed in RELION, and we want to compare the apo and
# bound states to see how the pore opens" plans a procedure, then states the topic
_CLAUSE_END = re.compile(r"[,;]\s+(?=(?:and|but|while|whereas)\s)", re.IGNORECASE)


def _only_measures(clause: str) -> bool:
    """Whether a closing clause of using only measures: not "using X to segment tumours" (a purpose),
    nor a Chinese clause whose verb is a task's (`_CHINESE_TASK`) or names no measuring."""
    if has_chinese(clause):
        return bool(_CHINESE_MEASURING.search(clause)) and not _CHINESE_TASK.search(clause)
    return not _PURPOSE_AFTER.search(clause)


def procedure_parts(description: str) -> tuple[list[str], list[str]]:
    """The clauses that say how the researcher's own study is done, and the rest of the description
    (its first sentence whole)."""
    found = sentences(description)
    topic, procedures = found[:1], list[str]()
    if (
        found
        and (instrument := _INSTRUMENT_CLAUSE.search(found[0]) or _CHINESE_INSTRUMENT.search(found[0]))
        and not _TOPIC.search(instrument.group())
        and _only_measures(instrument.group())
    ):
        # "Prevalence of anthelmintic resistance in sheep in New Zealand, assessed with faecal egg count
        # reduction tests": the first sentence's topic, then how it is measured
        topic, procedures = [found[0][: instrument.start()]], [instrument.group()]
    for sentence in found[1:]:
        after_procedure = False
        for clause in _CLAUSE_END.split(sentence):
            # "We want to use 16S sequencing, and measure short-chain fatty acids": the same subject
            continued = after_procedure and bool(_CONTINUED.match(clause)) and not _TOPIC.search(clause)
            after_procedure = continued or is_procedure(clause)
            (procedures if after_procedure else topic).append(clause)
    return procedures, topic


def _written(form: str, sentence: str) -> bool:
    """Whether the sentence writes `form`: as whole words, or anywhere for Chinese (no spaces)."""
    return form in sentence if has_chinese(form) else written_in(form, sentence)


def _written_forms(term: Term) -> Iterable[str]:
    yield term.canonical
    if term.original:
        yield term.original
    yield from (s.text for s in term.synonyms if SynonymOrigin.USER in s.origins)


def named_only_in_procedures(concepts: list[Concept], terms: list[Term], description: str) -> dict[str, str]:
    """The concepts every term of which the description writes only in procedure sentences, with the
    reason a searcher leaves them out; a term written nowhere as it stands keeps its concept."""
    procedures, topic = procedure_parts(description)
    if not procedures:
        return {}
    found: dict[str, str] = {}
    for concept in concepts:
        own = [t for t in terms if t.concept == concept.id]
        if own and all(
            any(_written(form, s) for form in _written_forms(t) for s in procedures)
            and not any(_written(form, s) for form in _written_forms(t) for s in topic)
            for t in own
        ):
            found[concept.id] = (
                "named only where the description says how its own study is done: it narrows the "
                "search, which is for the topic"
            )
    return found


# Statistics as Topic, in the three trees MeSH files it under (analytical methods, epidemiologic
# methods, health-care statistics), the humanities' statistics and Models, Statistical; a heading
# there may also be filed among the algorithms (Latent Class Analysis), not only there (Deep Learning)
_STATISTICS = ("E05.318.740", "N05.715.360.750", "N06.850.520.830", "H01.548.832", "E05.599.835")
_ALGORITHMS = ("G17.035", "L01.224.050")


def _statistical(trees: list[str]) -> bool:
    return any(t.startswith(_STATISTICS) for t in trees) and all(
        t.startswith(_STATISTICS + _ALGORITHMS) for t in trees
    )


def analysed_with(
    concepts: list[Concept], terms: list[Term], description: str, biomedical: bool = True
) -> dict[str, str]:
    """The method concepts whose every heading is a statistical method (module doc), with the reason.
    Outside biomedicine (`biomedical` false) a statistical method the understanding reads as the
    algorithm of the task ("Fault detection in chemical processes using principal component analysis")
    is the method the papers are about, the way engineering and data science use statistics, not how
    the user's own study is analysed: it stays."""
    found: dict[str, str] = {}
    for concept in concepts:
        own = [t for t in terms if t.concept == concept.id]
        if not biomedical and any(t.slot == "method_algorithm" for t in own):
            continue
        if (
            concept.role is ConceptRole.METHOD
            and own
            and all(
                t.mesh is not None and all(n.startswith(_STATISTICS) for n in t.mesh.tree_numbers)
                for t in own
            )
            and not any(named_before_for(t.canonical, description) for t in own)
        ):
            found[concept.id] = (
                "a statistical method the study is analysed with: it narrows the search, which is for the topic"
            )
    return found
