"""A Chinese phrase closed by a verb of change (血压|升高, 认知功能|下降, 风险|增加): English writes a state.

Why: Chinese names an outcome as subject + predicate, the thing and what happens to it ("血压升高" blood
pressure rises, "不孕风险增加" the risk of infertility increases). Composed in Chinese order with the verb
as the head's gerund, these read "blood pressure raising", "infertility risk raising", "thyroid function
ebbing": no searcher writes them. English names such an outcome by the participle of the change before
the noun ("increased risk", "elevated blood pressure", "improved symptoms") or by the change's noun after
it ("cognitive decline", "lung function decline").

How: a verb is a verb of change when one of its dictionary senses is an English verb of change (a closed
class of English: increase, rise, decline, reduce, improve, worsen ...); the first such sense decides the
direction, and the direction gives the English forms. Nothing here depends on a Chinese word list: the
dictionary says what the verb means, English grammar how a state of change is written.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Change", "change_of", "state_phrases"]


@dataclass(frozen=True)
class Change:
    """The English of one direction of change: the participle before the noun, the noun after it, and
    which comes first (English writes "increased risk" but "cognitive decline")."""

    participle: str
    noun: str
    noun_first: bool = False


_UP = Change("increased", "increase")
_RISE = Change("increased", "rise", noun_first=True)  # "sea level rise", "temperature rise"
_RAISED = Change("elevated", "increase")  # "elevated blood pressure"
_DOWN = Change("decreased", "decline", noun_first=True)
_BETTER = Change("improved", "improvement")
_WORSE = Change("worsened", "worsening")

# English verbs of change (a closed class of English), each with the English its state is written in
_CHANGE_VERBS: dict[str, Change] = {
    **dict.fromkeys(["increase", "grow in number", "mount"], _UP),
    **dict.fromkeys(["rise", "go up", "ascend"], _RISE),
    **dict.fromkeys(["raise", "heighten", "elevate"], _RAISED),
    **dict.fromkeys(
        [
            "decrease",
            "decline",
            "drop",
            "fall",
            "go down",
            "reduce",
            "lower",
            "lessen",
            "ebb",
            "diminish",
            "weaken",
            "bring down",
        ],
        _DOWN,
    ),
    **dict.fromkeys(["improve", "make better", "ameliorate"], _BETTER),
    **dict.fromkeys(["worsen", "aggravate", "deteriorate", "become more serious"], _WORSE),
}


def change_of(senses: list[tuple[str, bool]]) -> Change | None:
    """The change a verb names, from its dictionary senses (text, is a verb sense) in the dictionary's
    order: the first verb sense that is an English verb of change decides; None when the word's first sense
    is no verb (衰退 "decline", "recession": a noun, named as it is) or no sense is a verb of change."""
    if not senses or not senses[0][1]:
        return None
    for text, verb in senses:
        change = _CHANGE_VERBS.get(text.lower()) if verb else None
        if change is not None:
            return change
    return None


def state_phrases(subject: list[str], change: Change) -> list[str]:
    """The English of "subject + change", best first: "increased infertility risk", "cognitive function
    decline" (the subject's renderings in their order, each in both forms)."""
    participles = [f"{change.participle} {s}" for s in subject]
    nouns = [f"{s} {change.noun}" for s in subject]
    first, second = (nouns, participles) if change.noun_first else (participles, nouns)
    return [*first, *second]
