"""Formulas written with element symbols are told apart from acronyms written in mixed case."""

from __future__ import annotations

from agent.language.inorganic_names import is_chemical_formula


def test_a_formula_is_element_symbols_with_their_counts() -> None:
    assert all(is_chemical_formula(word) for word in ("GaN", "TiO2", "MoS2", "NiFe", "SiC"))


def test_mixed_case_acronyms_and_capitals_alone_are_no_formula() -> None:
    assert not any(is_chemical_formula(word) for word in ("ECoG", "IgG", "HbA1c", "mRNA", "CaM", "GAN"))
