from agent.ask.knowledge import build_retrieval_engine, local_reranker, reranker_is_local
from agent.settings import load_settings


def test_reranker_must_be_on_this_machine(tmp_path):
    assert reranker_is_local(str(tmp_path))
    assert not reranker_is_local("example-org/not-a-cached-model")
    reranker, note = local_reranker("example-org/not-a-cached-model")
    assert reranker is None and "not on this machine" in note


async def test_engine_from_settings_without_a_local_reranker(database, tmp_path):
    settings = load_settings(data_dir=tmp_path, reranker_model="example-org/not-a-cached-model")

    class TinyEmbedder:
        dimension = 384

        def encode(self, texts):  # pragma: no cover - not called here
            raise AssertionError

    engine, notes = build_retrieval_engine(settings, database, embedder=TinyEmbedder())
    assert engine.reranker is None
    assert notes and "answering without rerank" in notes[0]
    assert not await engine.run_has_index("20260101T000000-abcdef")
