"""The head exploration (`evals.answers.explore_head`): term pairs, rank shape, the nested head."""

from __future__ import annotations

import numpy as np

from evals.answers.explore_head import nested_head, pair_features, shape_features, source_groups


def test_pairs_count_only_when_both_terms_share_a_sentence():
    idf = {"metformin": 3.0, "lactat": 2.0, "the": 0.0}  # stemmed, as `term_idf` holds them
    together = pair_features(idf, ["Metformin raises lactate in mice. Other text."])
    apart = pair_features(idf, ["Metformin was given. Lactate was measured."])
    assert together["pair_cov_first"] == 1.0 and together["rare_pair_first"] == 1.0
    assert apart["pair_cov_first"] == 0.0 and apart["rare_pair_first"] == 0.0
    # the best of the first papers counts a later paper that has the pair
    assert (
        pair_features(idf, ["Metformin was given. Lactate rose.", "Metformin and lactate."])["pair_cov_best"]
        == 1.0
    )


def test_shape_reads_the_fall_off_of_each_list():
    shape = shape_features({"dense": [0.7, 0.6, 0.5, 0.45, 0.4], "bm25": [10.0, 5.0]}, [1.0, 0.5, 0.2])
    assert abs(shape["dense_gap5"] - 0.3) < 1e-9
    assert shape["dense_above_0.5"] == 3.0
    assert shape["bm25_gap5"] == 0.5
    assert abs(shape["fused_gap3"] - 0.8) < 1e-9


def test_nested_head_learns_an_interaction_signal_and_not_noise():
    rng = np.random.default_rng(0)
    labels = [int(i % 2) for i in range(150)]
    rows = [{name: float(rng.normal()) for name in ("bm25_margin", "coverage_gap")} for _ in labels]
    signal = np.array([[label + rng.normal(0, 0.3), *rng.normal(size=5)] for label in labels])
    f1, area, head_area, penalties = nested_head(rows, labels, signal)
    assert head_area > 0.9 and area > 0.9 and len(penalties) == 5
    noise = rng.normal(size=(150, 6))
    _, _, noise_area, _ = nested_head(rows, labels, noise)
    assert 0.3 < noise_area < 0.7


def test_claims_sharing_a_source_are_one_group_and_one_fold():
    groups = source_groups([["a"], ["b"], ["a", "c"], ["c"], ["d"]])
    assert groups[0] == groups[2] == groups[3]
    assert len({groups[0], groups[1], groups[4]}) == 3


def test_grouped_folds_expose_a_head_that_only_memorises_its_sources():
    rng = np.random.default_rng(1)
    groups = np.repeat(np.arange(50), 4)  # four claims per source, one label per source
    labels = [int(g % 2) for g in groups]
    source_vectors = rng.normal(size=(50, 120))  # enough dimensions to tell 50 sources apart
    x = source_vectors[groups] + rng.normal(0, 0.05, size=(200, 120))  # the source, not the label
    rows = [{"bm25_margin": float(rng.normal())} for _ in labels]
    _, _, by_index, _ = nested_head(rows, labels, x)
    _, _, grouped, _ = nested_head(rows, labels, x, groups)
    assert by_index > 0.8  # recognises sources seen with another claim
    assert grouped < 0.7  # nothing to recognise in an unseen source
