"""Step 2: title, content or entity question, with evidence and the strategy it implies."""

from __future__ import annotations

from tools.retrieval.intent import classify
from tools.retrieval.normalize import Normalizer


def _intent(question: str, entities: list[tuple[str, str]] | None = None):
    return classify(Normalizer.for_plan(None).normalize(question), entities or [])


def test_content_questions_boost_the_sections_they_ask_about() -> None:
    intent = _intent("What sample sizes were used in speech decoding studies?")
    assert intent.kind == "content"
    assert intent.strategy.boost_fields == ["methods"]
    assert intent.strategy.boost > 1.0
    assert "graph" not in intent.strategy.legs  # no entity to start a walk from
    results = _intent("模型的解码准确率是多少？")
    assert results.kind == "content" and "results" in results.strategy.boost_fields
    plain = _intent("how does the cortex encode pitch")
    assert plain.kind == "content" and plain.strategy.boost_fields == [] and plain.strategy.boost == 1.0


def test_title_questions() -> None:
    quoted = _intent('Find the paper "Speech synthesis from neural decoding of spoken sentences"')
    assert quoted.kind == "title" and quoted.strategy.boost_fields == ["title", "abstract"]
    assert quoted.confidence >= 0.5
    titled = _intent("论文题为脑机接口的语音解码研究")
    assert titled.kind == "title"
    title_case = _intent("Speech Synthesis From Neural Decoding Of Spoken Sentences")
    assert title_case.kind == "title"
    # a claim in sentence case is content, not a title
    assert _intent("Neural decoding of spoken sentences improves speech synthesis.").kind == "content"


def test_entity_questions_lean_on_the_graph() -> None:
    who = _intent("Which papers did Chang write?", [("author:edward f chang", "Chang")])
    assert who.kind == "entity"
    assert who.entities == ["author:edward f chang"]
    assert who.strategy.weight_overrides == {"graph": 2.0}
    assert "graph" in who.strategy.legs
    assert any("Chang" in e for e in who.evidence)
    group = _intent("哪些团队研究脑机接口？", [("term:脑 机 接 口", "脑机接口")])
    assert group.kind == "entity"
    terms_only = _intent(
        "ECoG speech decoding", [("term:ecog", "ECoG"), ("term:speech decoding", "speech decoding")]
    )
    assert terms_only.kind == "entity"
    assert 0.0 < terms_only.confidence <= 0.99
