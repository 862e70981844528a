"""Institution normalisation: full names, acronyms, aliases and translated names become one institution.

Two registries share one matcher:

- an optional registry file in ROR's form (the compact table in ../shared/data/ror/, a ROR v2 dump as
  JSON or JSON Lines, gzipped or not), configured with SCHOLARMAP_ROR_REGISTRY. It gives ROR ids,
  names, aliases, acronyms, labels in other languages (清华大学), city, country and coordinates;
- a small built-in table of major Chinese institutions with their English and Chinese names, so
  that 中国科学院 and "Chinese Academy of Sciences" meet even when no registry is configured. Chinese
  names built from a place ("郑州大学", "河北医科大学") are translated by rule ("Zhengzhou University").

Matching a parsed affiliation: every run of words of the string that is a name in the registry is a
candidate (so "University of California, Berkeley" matches across its comma); candidates in a
country other than the one the address names are dropped; a name shared by several institutions
must be settled by the city or country (named outside the name itself), else no match is made (a
wrong institution on a map is worse than an unplaced one). Acronyms count only when the country settles them; near-misses
("Univertsität") are found by fuzzy matching of the institution segment, with the same checks.

A match's score is a calibrated confidence (tuned on the Crossref train split): it drops when the
name is only part of its segment, when the string does not confirm where the institution is, when
another institution of the string rivals it, when the name is made of common words, when the words
around it name another institution ("Leiden University Medical Center"), and when a university the
registry could not match follows it ("Institute of Cognitive Science, University of Osnabrück").

The package: `records` (name keys, registry files), `builtin` (the built-in table, translated
names), `matcher` (`InstitutionRegistry`), `resolver` (`InstitutionResolver`).
"""

from agent.academic_map.institutions.builtin import builtin_records, translate_chinese_name
from agent.academic_map.institutions.matcher import (
    InstitutionRegistry,
    MatchKind,
    RegistryMatch,
    builtin_registry,
    load_registry,
)
from agent.academic_map.institutions.records import (
    RegistryRecord,
    load_records,
    name_key,
    record_from_compact,
    record_from_v2,
)
from agent.academic_map.institutions.resolver import InstitutionResolver, ResolvedInstitution, name_id

__all__ = [
    "InstitutionRegistry",
    "InstitutionResolver",
    "MatchKind",
    "RegistryMatch",
    "RegistryRecord",
    "ResolvedInstitution",
    "builtin_records",
    "builtin_registry",
    "load_records",
    "load_registry",
    "name_id",
    "name_key",
    "record_from_compact",
    "record_from_v2",
    "translate_chinese_name",
]
