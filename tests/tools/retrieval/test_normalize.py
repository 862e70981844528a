"""Step 1: width, punctuation, whitespace, synonyms, stop words, jieba with the Run's terms."""

from __future__ import annotations

import jieba

from agent.models import KeywordPlan, Synonym, Term
from tools.retrieval.normalize import Normalizer, Segmenter, TermVocabulary, get_segmenter
from tools.retrieval.text import (
    clean,
    detect_language,
    english_tokens,
    standardize_punctuation,
    standardize_whitespace,
    to_half_width,
)


def test_the_design_documents_worked_example() -> None:
    # requirements 001, step 1: the full-width space and question mark, 的/是什么 removed
    trace = Normalizer.for_plan(None).normalize("CHO细胞宿主蛋白检测试剂盒　的产品特点是什么？")
    assert trace.width_normalized == "CHO细胞宿主蛋白检测试剂盒 的产品特点是什么?"
    assert trace.whitespace_normalized == "CHO细胞宿主蛋白检测试剂盒的产品特点是什么"
    assert trace.stopwords_removed == "CHO细胞宿主蛋白检测试剂盒产品特点"
    assert trace.tokens == ["CHO", "细胞", "宿主", "蛋白", "检测", "试剂盒", "产品", "特点"]
    assert set(trace.removed_words) == {"的", "是", "什么"}
    assert trace.language == "zh"
    steps = trace.steps()
    assert list(steps) == [
        "full_half_width_conversion",
        "punctuation_standardization",
        "whitespace_standardization",
        "synonym_standardization",
        "low_info_word_removal",
        "jieba_segmentation",
    ]


def test_run_terms_stay_whole_in_jieba_without_touching_the_global_dictionary() -> None:
    plan = KeywordPlan(
        terms=[
            Term(canonical="CHO细胞", slot="subject_population"),
            Term(canonical="host cell protein", slot="signal_feature", synonyms=[Synonym(text="宿主蛋白")]),
        ]
    )
    trace = Normalizer.for_plan(plan).normalize("CHO细胞宿主蛋白检测试剂盒的产品特点是什么？")
    assert "CHO细胞" in trace.tokens
    # the synonym 宿主蛋白 became its canonical English term, kept as one token
    assert trace.synonyms_canonicalized == "CHO细胞host cell protein检测试剂盒的产品特点是什么"
    assert "host cell protein" in trace.tokens
    assert [(r.surface, r.canonical) for r in trace.replacements] == [("宿主蛋白", "host cell protein")]
    # the BM25 query keeps the original surface as well, so Chinese documents still match
    assert "宿主蛋白" in trace.bm25_tokens and "cho" in trace.bm25_tokens
    # jieba's shared dictionary is untouched: another Run still cuts the words apart
    assert "CHO细胞" not in jieba.lcut("CHO细胞宿主蛋白")
    assert "CHO细胞" not in jieba.dt.FREQ


def test_english_and_mixed_questions() -> None:
    plan = KeywordPlan(
        terms=[
            Term(
                canonical="electrocorticography", slot="method_measurement", synonyms=[Synonym(text="ECoG")]
            ),
            Term(canonical="high-gamma activity", slot="signal_feature"),
        ]
    )
    trace = Normalizer.for_plan(plan).normalize(
        "Which papers decode speech from High-Gamma activity in ECoG?"
    )
    assert (
        trace.synonyms_canonicalized
        == "Which papers decode speech from High-Gamma activity in electrocorticography"
    )
    assert "High-Gamma activity" in trace.tokens  # an English phrase term stays one token too
    assert trace.stopwords_removed == "decode speech High-Gamma activity electrocorticography"
    assert {"decod", "speech", "gamma", "electrocorticographi", "ecog"} <= set(trace.bm25_tokens)
    assert "which" not in trace.bm25_tokens and "papers" not in trace.tokens
    assert trace.language == "en"

    mixed = Normalizer.for_plan(plan).normalize("ECoG 的语音解码方法有哪些？")
    assert mixed.language in ("zh", "mixed")
    assert mixed.stopwords_removed == "electrocorticography语音解码方法"
    assert "哪些" in mixed.removed_words


def test_text_primitives() -> None:
    assert to_half_width("ＡＢＣ１２３，（ｘ）") == "ABC123,(x)"
    assert standardize_punctuation("“quoted” — text…").split() == ["quoted", "-", "text"]
    assert standardize_whitespace("a  b \n c 中 文 字") == "a b c中文字"
    assert clean("p = 0.05, CD4+ cells?") == "p 0.05 CD4+ cells"
    assert detect_language("hello world") == "en"
    assert detect_language("脑机接口") == "zh"
    assert detect_language("基于 ECoG signals 的研究") == "mixed"
    assert english_tokens("The decoding of speeches and 256 electrodes") == [
        "decod",
        "speech",
        "256",
        "electrod",
    ]


def test_index_tokens_match_between_documents_and_questions() -> None:
    segmenter = Segmenter(["脑机接口"])
    doc = segmenter.index_tokens("本研究使用脑机接口技术对汉语语音进行解码 with ECoG grids")
    question = Normalizer(TermVocabulary(), segmenter).normalize("脑机接口如何解码语音？").bm25_tokens
    assert "脑机接口" in doc and "ecog" in doc and "grid" in doc
    assert set(question) <= set(doc) | {"如何"}
    assert "的" not in segmenter.index_tokens("我们的研究")


def test_segmenters_are_shared_per_word_set() -> None:
    a = get_segmenter(["脑机接口", "ECoG"])
    assert get_segmenter(["脑机接口"]) is a  # only Chinese words matter to jieba
    assert get_segmenter([]) is not a
    assert a.user_words == ("脑机接口",)


def test_vocabulary_ignores_dropped_synonyms_and_keeps_the_first_owner() -> None:
    plan = KeywordPlan(
        terms=[
            Term(canonical="electrocorticography", slot="a", synonyms=[Synonym(text="ECoG")]),
            Term(
                canonical="other", slot="b", synonyms=[Synonym(text="ecog"), Synonym(text="gone", kept=False)]
            ),
        ]
    )
    vocabulary = TermVocabulary.from_plan(plan)
    assert vocabulary.canonical_of["ecog"] == "electrocorticography"
    assert "gone" not in vocabulary.canonical_of
    assert [s for _, _, s in vocabulary.find("ECoG and ecog, not ECoGs")] == ["ECoG", "ecog"]
