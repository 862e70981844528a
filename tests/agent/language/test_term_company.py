"""Word-level evidence for a sense inside a compound: the words MeSH writes in terms together.

Phrases of their own, not evaluation cases.
"""

from __future__ import annotations

from collections.abc import Iterable

from agent.language.bilingual import WordJudge, render
from agent.language.term_company import company_of, loose_stem
from agent.understanding.slot_translation import embedded_vocabulary


class _Judge:
    """Knows "faculty" alone (a heading of another field) and "system" only beside "cell"."""

    def __call__(self, english: str) -> bool:
        return english == "faculty"

    def together(self, sense: str, others: Iterable[str]) -> bool:
        return sense == "system" and "cell" in others

    def writes(self, word: str) -> bool:
        return False


def test_a_sense_used_with_the_other_words_beats_one_attested_alone() -> None:
    assert isinstance(_Judge(), WordJudge)
    assert render("细胞系", attested=_Judge()).english[0] == "cell system"
    # a plain judge of whole phrases keeps today's ranking: the lone attested sense comes first (前庭 "front
    # courtyard; vestibule"; 系 has the glossary's order since the glossary defines it: "system", "line")
    assert render("前庭功能", attested=lambda term: term == "vestibule").english[0] == "vestibule function"
    assert render("细胞系", attested=lambda term: term == "faculty").english[0] == "cell system"


def test_the_characters_of_one_word_are_not_weighed_together() -> None:
    class Everything(_Judge):
        def together(self, sense: str, others: Iterable[str]) -> bool:
            return sense == "anxiety"

    # 考|虑 "consider": its characters' senses are no words of a term ("test anxiety")
    assert render("考虑", attested=Everything()).english == render("考虑", attested=lambda t: False).english


def test_mesh_writes_system_with_cell_and_no_courtyard_at_all() -> None:
    vocabulary = embedded_vocabulary()
    assert vocabulary is not None
    company = company_of(vocabulary)
    assert company.together("system", ["cell", "cellular"])  # Cell-Free System
    assert not company.together("faculty", ["cell", "cellular"])
    assert company.together("vestibule", ["function"])  # Vestibular Function Tests: one stem
    assert not company.together("front courtyard", ["function"])
    assert company("cell-free system") and not company("front courtyard")


def test_an_adjective_and_its_noun_share_a_stem() -> None:
    assert loose_stem("vestibular") == loose_stem("vestibule") == "vestibul"
    assert loose_stem("microscopic") == loose_stem("microscopy") == loose_stem("microscope")


class _PrefixJudge:
    """Knows "heart" alone, and "multicenter" only as a word of its terms (Multicenter Study)."""

    def __call__(self, english: str) -> bool:
        return english == "heart"

    def together(self, sense: str, others: Iterable[str]) -> bool:
        return False

    def writes(self, word: str) -> bool:
        return word in {"multicenter", "heart"}


def test_after_a_closed_up_prefix_the_sense_whose_word_mesh_writes_comes_first() -> None:
    # 多 "multi+" closes up with its head: "multicenter", not "multiheart" for MeSH's lone Heart
    assert render("多中心影像", attested=_PrefixJudge()).english[0].startswith("multicenter ")
    assert render("多中心影像", attested=lambda term: term == "heart").english[0].startswith("multiheart ")
    vocabulary = embedded_vocabulary()
    assert vocabulary is not None
    judge = company_of(vocabulary)
    assert judge.writes("multicenter") and not judge.writes("multiheart")


def test_mesh_spells_a_word_only_in_the_forms_its_terms_write() -> None:
    vocabulary = embedded_vocabulary()
    assert vocabulary is not None
    judge = company_of(vocabulary)
    assert judge.spells("periodontal") and judge.spells("intracellular")
    # the loose stem of "intracellular" is written, the made-up form is not spelled
    assert judge.writes("intracellulal") and not judge.spells("intracellulal")
    # with MeSH as the judge the localizer's Latin prefix renders the compound
    assert render("牙周健康", attested=judge).english[0] == "periodontal health"
