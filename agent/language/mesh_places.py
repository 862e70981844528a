"""A place named with another of English's nouns of where people live than the one MeSH writes.

English names the people of a kind of place and the place itself with any of a few interchangeable
nouns: "rural areas", "rural settings", "rural regions", "rural communities", "the rural population"
are one concept to a searcher, who searches Rural Population (and its kin) for all of them. MeSH writes
only some of them: Rural Population has the entry terms "Rural Communities" and "Rural Residence", but
no "Rural Areas"; Urban Population has "Urban Residence", no "Urban Areas". Exact recognition
(`agent.language.mesh_recognition`) finds nothing for the phrase, and the setting a title requires
("... in rural areas of low- and middle-income countries") is searched as bare words, or lost.

`place_of_people` reads a two-word phrase "<modifier> <noun of habitation>" that MeSH does not know as
the one descriptor whose heading opens with the same modifier and one of whose terms writes that
modifier with another noun of habitation (`HABITATION_NOUNS`, a closed class of English: area, region,
setting, community, population, residence, district, locality, location, zone). The heading must open
with the modifier: "Low-Income Population" is an entry term of Poverty and "Disadvantaged Populations"
of Vulnerable Populations, whose headings say something else than "low-income areas" would; such a
modifier names no place here. And the descriptor must be filed where MeSH files people and places
(`_PEOPLE_AND_PLACES`: Population Characteristics, Persons, Geographic Locations): "Therapeutic
Community" is a psychotherapy, and "therapeutic areas" no place of it. Nothing here is a list of
places: the places are MeSH's own terms.
"""

from __future__ import annotations

from functools import lru_cache

from agent.language.mesh_recognition import MeshMatch, MeshVocabulary, phrase_key, word_key
from agent.language.text import word_set
from agent.models import MeshDescriptor

# English nouns of where people live, or of the people living there, that a kind of place takes
# interchangeably ("rural areas" = "rural communities" = "rural population"); normalised keys
HABITATION_NOUNS = frozenset(
    map(
        word_key,
        word_set("area region setting community population residence district locality location zone"),
    )
)

# Population Characteristics (N01: Rural Population), Persons (M01: Indigenous Peoples), Geographic
# Locations (Z01: Arctic Regions)
_PEOPLE_AND_PLACES = ("N01", "M01", "Z01")


def _people_or_place(descriptor: MeshDescriptor) -> bool:
    return any(number.startswith(_PEOPLE_AND_PLACES) for number in descriptor.tree_numbers)


@lru_cache(maxsize=4)
def _places_by_modifier(vocabulary: MeshVocabulary) -> dict[str, frozenset[str]]:
    """Modifier key -> the descriptors of people or places whose heading opens with it and that have a
    two-word term of the modifier and a noun of habitation ("rural" -> Rural Population, by "Rural
    Communities")."""
    places: dict[str, set[str]] = {}
    for key, entries in vocabulary.term_keys():
        if len(key) != 2 or key[1] not in HABITATION_NOUNS:
            continue
        for _rank, ui in entries:
            descriptor = vocabulary.descriptor(ui)
            if phrase_key(descriptor.heading)[:1] == key[:1] and _people_or_place(descriptor):
                places.setdefault(key[0], set()).add(ui)
    return {modifier: frozenset(uis) for modifier, uis in places.items()}


def place_of_people(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The whole phrase as a match of the place MeSH names with the same modifier and another noun of
    habitation ("rural areas", "rural settings": Rural Population; "urban areas": Urban Population),
    or nothing: when MeSH knows the phrase itself, when it is not two words ending in such a noun, or
    when no descriptor, or more than one, is that place."""
    key = phrase_key(text)
    if len(key) != 2 or key[1] not in HABITATION_NOUNS or vocabulary.is_term_key(key):
        return []
    uis = _places_by_modifier(vocabulary).get(key[0], frozenset())
    if len(uis) != 1:
        return []
    (ui,) = uis
    return [MeshMatch(text, 0, len(text), vocabulary.descriptor(ui), "entry term")]
