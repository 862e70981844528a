"""What "we compare X with Y" compares first is the question's intervention, whatever slot holds it."""

from __future__ import annotations

from agent.keywords.concept_roles import is_compared_first
from agent.keywords.concepts import build_concepts
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding


def test_what_a_verb_of_comparing_names_before_with_is_compared_first() -> None:
    text = "We compare thulium fibre enucleation of the prostate (ThuFLEP) with bipolar resection in men."
    assert is_compared_first("thulium fibre enucleation", text)
    assert not is_compared_first("bipolar resection", text)
    assert is_compared_first("early mobilisation", "Comparing early mobilisation to bed rest after surgery")
    # what is compared between two arms is measured, not done
    assert not is_compared_first("mortality", "We compare mortality between open and closed units.")


def test_the_first_side_of_a_comparison_is_a_required_intervention(vocabulary: MeshVocabulary) -> None:
    """A free-text procedure MeSH does not name, held in the context, had been an optional setting."""
    description = (
        "We compare thulium fibre enucleation of the prostate (ThuFLEP) with bipolar resection in men with "
        "benign prostatic hyperplasia."
    )
    result = build_concepts(
        Understanding(
            description=description,
            slots=Slots(
                context=["thulium fibre enucleation", "bipolar resection"],
                subject_population=["men with benign prostatic hyperplasia"],
            ),
        ),
        vocabulary,
    )
    found = {c.label: (c.role.value, c.required) for c in result.concepts}
    assert found["thulium fibre enucleation"] == ("intervention", True)


def test_the_subject_of_the_intransitive_compare_is_compared_first() -> None:
    """ "How does X compare with Y": X is what is compared, as after the transitive "we compare X with Y"."""
    text = "Among women with abdominal aortic aneurysm, how does EVAR compare with open surgical repair?"
    assert is_compared_first("EVAR", text)
    assert not is_compared_first("open surgical repair", text)
    assert is_compared_first(
        "tele-rehabilitation", "Tele-rehabilitation compares favourably with clinic visits."
    )
    assert not is_compared_first("women", text)


def test_what_is_measured_before_an_intransitive_compare_stays_an_outcome(vocabulary: MeshVocabulary) -> None:
    """ "How do visual outcomes compare with X": the outcomes are what the arms are compared on, not given."""
    description = (
        "Anti-VEGF injections for diabetic macular oedema: how do visual outcomes compare with laser?"
    )
    result = build_concepts(
        Understanding(
            description=description,
            slots=Slots(
                context=["anti-VEGF injections", "laser"],
                subject_population=["diabetic macular oedema"],
                output_target=["visual outcomes"],
            ),
        ),
        vocabulary,
    )
    found = {c.label: (c.role.value, c.required) for c in result.concepts}
    assert found["visual outcomes"] == ("outcome", False)
