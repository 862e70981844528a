"""The feature exploration's scoring (`evals.answers.explore`): entities, AUC and cross-validated F1."""

from __future__ import annotations

import numpy as np

from evals.answers.explore import abstention_f1, auc, cross_validate, entities


def test_entities_are_words_with_digits_or_inner_capitals():
    assert entities("IL-6 and CD4+ T cells respond to 10 mg of aspirin in HIV-1 patients") == {
        "il-6",
        "cd4",
        "10",
        "hiv-1",
    }
    assert entities("Aspirin lowers fever.") == set()


def test_auc_counts_ties_as_half():
    labels = np.array([1, 1, 0, 0])
    assert auc(np.array([0.9, 0.8, 0.2, 0.1]), labels) == 1.0
    assert auc(np.array([0.5, 0.5, 0.5, 0.5]), labels) == 0.5
    assert auc(np.array([0.1, 0.2, 0.8, 0.9]), labels) == 0.0


def test_abstention_is_the_positive_class():
    labels = np.array([1, 1, 0, 0])  # 1 = answerable
    assert abstention_f1(np.array([0.9, 0.9, 0.1, 0.1]), labels, 0.5) == 1.0
    # abstaining everywhere: precision 0.5, recall 1
    assert abs(abstention_f1(np.array([0.1, 0.1, 0.1, 0.1]), labels, 0.5) - 2 / 3) < 1e-9


def test_cross_validation_separates_a_signal_from_noise():
    rng = np.random.default_rng(0)
    labels = [int(i % 2) for i in range(200)]
    rows = [{"signal": label + rng.normal(0, 0.3), "noise": float(rng.normal())} for label in labels]
    f1_signal, auc_signal = cross_validate(rows, labels, ["signal"])
    f1_noise, auc_noise = cross_validate(rows, labels, ["noise"])
    assert f1_signal > 0.9 and auc_signal > 0.95
    assert f1_noise < 0.75 and 0.35 < auc_noise < 0.65
