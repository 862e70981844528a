"""Fixtures for the retrieval tests: one embedding model per session, small Runs built in code."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.models import (
    AbstractSection,
    Affiliation,
    AggregatedPaper,
    Author,
    KeywordPlan,
    MeshDescriptor,
    MeshHeading,
    Paper,
    Synonym,
    Term,
)
from tools.embeddings.sentence import Embedder, get_embedder
from tools.retrieval.types import FullTextSection


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The packaged all-MiniLM-L6-v2, loaded once for every test that needs real vectors."""
    model = get_embedder()
    model.encode(["warm up"])
    return model


@pytest.fixture
def plan() -> KeywordPlan:
    return KeywordPlan(
        terms=[
            Term(
                canonical="electrocorticography",
                slot="method_measurement",
                synonyms=[Synonym(text="ECoG"), Synonym(text="intracranial EEG")],
                mesh=MeshDescriptor(
                    ui="D000081282", heading="Electrocorticography", entry_terms=["ECoG recording"]
                ),
            ),
            Term(
                canonical="brain-computer interface",
                slot="task",
                synonyms=[
                    Synonym(text="脑机接口"),
                    Synonym(text="BCI"),
                    Synonym(text="dropped one", kept=False),
                ],
            ),
            Term(canonical="speech decoding", slot="output_target", synonyms=[Synonym(text="语音解码")]),
        ]
    )


@pytest.fixture
def papers() -> list[AggregatedPaper]:
    ucsf = Affiliation(institution="University of California San Francisco", country_code="US")
    return [
        AggregatedPaper(
            key="doi:10.1000/ecog",
            paper=Paper(
                title="Speech decoding from high-gamma ECoG activity",
                year=2019,
                doi="10.1000/ecog",
                abstract_sections=[
                    AbstractSection(
                        label="BACKGROUND", text="Decoding speech from the cortex remains difficult."
                    ),
                    AbstractSection(
                        label="METHODS",
                        text="We recorded electrocorticography from five participants with epilepsy. "
                        "The sample size was five patients implanted with subdural grids.",
                    ),
                    AbstractSection(
                        label="RESULTS", text="The word error rate reached 25 percent on held-out sentences."
                    ),
                ],
                authors=[
                    Author(name="Edward F Chang", family="Chang", position=1, affiliations=[ucsf]),
                    Author(name="David Moses", family="Moses", position=2, affiliations=[ucsf]),
                ],
                mesh_headings=[
                    MeshHeading(descriptor="Electrocorticography"),
                    MeshHeading(descriptor="Epilepsy"),
                ],
            ),
        ),
        AggregatedPaper(
            key="doi:10.1000/zh",
            paper=Paper(
                title="基于脑机接口的汉语语音解码研究",
                year=2021,
                doi="10.1000/zh",
                abstract="本研究使用脑机接口技术对汉语语音进行解码。共有十名受试者参与实验，解码准确率达到百分之七十。",
            ),
        ),
        AggregatedPaper(
            key="doi:10.1000/eeg",
            paper=Paper(
                title="Deep learning for EEG motor imagery classification",
                year=2020,
                doi="10.1000/eeg",
                abstract="Convolutional neural networks classify motor imagery from scalp EEG recordings of fifty "
                "healthy subjects. Accuracy improved over filter-bank baselines.",
                keywords=["motor imagery", "convolutional neural network"],
            ),
        ),
    ]


@pytest.fixture
def fulltext() -> dict[str, list[FullTextSection]]:
    methods = " ".join(
        f"Participant {i} was implanted with a subdural grid of 256 electrodes over the left hemisphere."
        for i in range(1, 31)
    )
    return {
        "doi:10.1000/ecog": [
            FullTextSection(kind="methods", title="2 Methods", text=methods),
            FullTextSection(
                kind="table",
                title="Table 1",
                caption="Table 1. Participant demographics",
                text="P1 34 F; P2 41 M",
            ),
            FullTextSection(
                kind="figure", title="Figure 2", caption="Figure 2. Electrode locations", text=""
            ),
        ]
    }


@pytest.fixture(scope="session")
def tiny_reranker_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny BERT cross-encoder (random weights) saved the way Hugging Face models are distributed."""
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    folder = tmp_path_factory.mktemp("tiny-reranker")
    words = [
        "the",
        "a",
        "of",
        "and",
        "in",
        "to",
        "with",
        "from",
        "speech",
        "decoding",
        "ecog",
        "electrocorticography",
        "eeg",
        "motor",
        "imagery",
        "sample",
        "size",
        "participants",
        "patients",
        "results",
        "methods",
        "accuracy",
        "what",
        "which",
        "how",
        "were",
        "was",
        "used",
        "deep",
        "learning",
    ]
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(words))]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    BertTokenizer(vocab_file=str(folder / "vocab.txt"), do_lower_case=True).save_pretrained(folder)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=256,
        num_labels=1,
    )
    import torch

    torch.manual_seed(0)
    BertForSequenceClassification(config).save_pretrained(folder)
    return folder
