"""Head words MeSH writes interchangeably after the same modifiers: "care" and "services".

A title writes a concept with the head word it likes ("mental health care", "dental health care")
where MeSH writes the same concept with another ("Mental Health Services", "Dental Health Services").
The variants of `mesh_recognition._attested_variants` cannot say so: they admit a swap only where it
never tells two descriptors apart, and "Health Care" and "Health Services" are two descriptors. But
MeSH's own terms show which head words it mostly uses for one thing: "Ambulatory Care" and
"Ambulatory Services", "Postnatal Care" and "Postnatal Services", "Child Care" and "Child Services"
are each one descriptor's terms. Two head words are **head variants** when, after the same words,
they end terms of one descriptor for at least `HEAD_VARIANT_MIN_SUPPORT` descriptors, at least
`HEAD_VARIANT_MAJORITY` times as often as they end terms of two different ones, and they part two
descriptors after at most `HEAD_VARIANT_MAX_CONFLICTS` modifiers: "protein" and "receptor" end one
descriptor's terms often (33) but after 14 modifiers end terms of two ("Nuclear Proteins", "Nuclear
Receptors"), so "collagen proteins" stays Collagen and Proteins, not Receptors, Collagen.

The nouns of trouble a title writes after a function ("sleep problems", "language difficulties") are
head variants of "disorder" too, by the grammar of English rather than by MeSH's terms (`TROUBLE_HEADS`).

Recognition swaps a head only where the phrase as written is no term and the words before its head
are a MeSH term themselves ("mental health" is Mental Health): the swap then names a kind of a concept
the text already names, which a looser rule (any modifier, any head) would not guarantee ("chronic
infection" is no Chronic Disease).
"""

from __future__ import annotations

from collections.abc import Mapping

# nouns of trouble English writes after a function or a part where MeSH writes "disorders" ("sleep
# problems", "language difficulties", "swallowing difficulties"): NLM's terms rarely use them, so no
# count of its terms can attest the swap, but they are the lay head of the same concept
TROUBLE_HEADS = frozenset({"problem", "difficulty"})
DISORDER_HEAD = "disorder"

HEAD_VARIANT_MIN_SUPPORT = 3  # descriptors whose terms must attest the swap of heads
HEAD_VARIANT_MAJORITY = 2  # attesting descriptors per pair of modifiers where the heads part descriptors
HEAD_VARIANT_MAX_CONFLICTS = 3  # modifiers after which the two heads may name two descriptors


def attested_head_variants(
    keys: Mapping[tuple[str, ...], list[tuple[int, str]]], inverted: set[tuple[str, ...]]
) -> dict[str, frozenset[str]]:
    """Head words MeSH writes interchangeably after the same modifiers (see the module doc), each with
    its variants. `keys` maps every normalised term key to its (rank, descriptor ui) entries; the keys
    in `inverted` are terms as NLM inverts them ("Referral, Hospital"), whose last word is no head."""
    places: dict[tuple[str, ...], list[tuple[str, frozenset[str]]]] = {}
    for key, entries in keys.items():
        head = key[-1]
        if len(key) < 2 or key in inverted or not head.isalpha() or len(head) < 3:
            continue
        places.setdefault(key[:-1], []).append((head, frozenset(ui for _, ui in entries)))
    support: dict[tuple[str, str], set[str]] = {}
    conflicts: dict[tuple[str, str], int] = {}
    for heads in places.values():
        for index, (first, first_uis) in enumerate(heads):
            for second, second_uis in heads[index + 1 :]:
                pair = (first, second) if first < second else (second, first)
                if first_uis & second_uis:
                    support.setdefault(pair, set()).update(first_uis & second_uis)
                else:
                    conflicts[pair] = conflicts.get(pair, 0) + 1
    variants: dict[str, set[str]] = {}
    for (first, second), descriptors in support.items():
        attested, parted = len(descriptors), conflicts.get((first, second), 0)
        if attested >= HEAD_VARIANT_MIN_SUPPORT and parted <= min(
            attested / HEAD_VARIANT_MAJORITY, HEAD_VARIANT_MAX_CONFLICTS
        ):
            variants.setdefault(first, set()).add(second)
            variants.setdefault(second, set()).add(first)
    return {word: frozenset(others) for word, others in variants.items()}


def with_trouble_heads(variants: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """The attested head variants, and "disorder" for each noun of trouble (`TROUBLE_HEADS`)."""
    joined = dict(variants)
    for trouble in TROUBLE_HEADS:
        joined[trouble] = joined.get(trouble, frozenset()) | {DISORDER_HEAD}
    return joined
