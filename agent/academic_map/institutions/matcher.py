"""The registry's matcher: which institution of the registry a parsed affiliation names, and how sure it is."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from agent.academic_map.affiliations import ParsedAffiliation, segment_kind
from agent.academic_map.affiliations.text import SegmentKind
from agent.academic_map.institutions.builtin import builtin_records
from agent.academic_map.institutions.records import RegistryRecord, load_records, name_key, strip_ror
from tools.geocode import fold, has_cjk


def _words(text: str) -> frozenset[str]:
    """A word list written as text (kept readable; one word per line would be hundreds of lines)."""
    return frozenset(text.split())


MatchKind = Literal["ror_id", "name", "acronym", "fuzzy"]
_STRONG_COUNTRY = frozenset({"name", "code", "region"})
_MAX_NAME_TOKENS = 14
_GENERIC_DF = 25  # a word in more names than this says little about which institution is meant


# Words that name no particular institution: a name made only of them is too generic to match.
_GENERIC_WORDS = _words(
    """
    university hospital hospitals general medical center centre college institute school national
    research clinic clinics academy science sciences technology health system state central regional
    children childrens women public community faculty department laboratory laboratories foundation
    council ministry agency polytechnic international federal teaching district county city
    provincial municipal military army naval veterans affairs cancer heart institutes universities
    studies graduate advanced applied engineering medicine biology chemistry physics agriculture
    education management business economics law arts humanities social new old royal saint
    """
)


def _is_typo(written: list[str], name: list[str]) -> bool:
    """Do two names differ by a misspelling of one word (at most two edits, same first letter)?"""
    differing = [(a, b) for a, b in zip(written, name, strict=True) if a != b]
    if len(differing) != 1:
        return False
    a, b = differing[0]
    return min(len(a), len(b)) >= 5 and a[0] == b[0] and Levenshtein.distance(a, b) <= 2


# What a part of an institution adds to its parent's name ("Stanford University School of Medicine").
_SUBUNIT_WORDS = frozenset({"school", "faculty", "college", "medical", "cancer", "medicine"})


# "University" in the languages of the registry's names, as name_key writes them.
_UNIVERSITY_WORDS = _words(
    """
    university universitat universite universidad universidade universita universiteit universitet
    uniwersytet univerzita universiti
    """
)
# Words that make a name the name of an institution ("Stanford University", "Mayo Clinic"), unlike
# "King's" in "King's College London", which is only the start of another name.
_HEAD_WORDS = _UNIVERSITY_WORDS | _words(
    "college institute institut instituto istituto hospital clinic center academy school"
)


def _is_subunit(tokens: list[tuple[str, int]], child: _Candidate, parent: _Candidate) -> bool:
    """Does the longer name `child` name a part of the institution named by `parent` inside it?
    "Stanford University School of Medicine": the words added follow a whole institution's name and
    name a school of it. "King's College London" is not a part of "King's": that is no institution."""
    if child.start != parent.start:
        return False
    inner = [t for t, _ in tokens[parent.start : parent.end]]
    extra = [t for t, _ in tokens[parent.end : child.end]]
    return bool(extra) and extra[0] in _SUBUNIT_WORDS and any(w in _HEAD_WORDS for w in inner)


@dataclass
class RegistryMatch:
    record: RegistryRecord
    kind: MatchKind
    score: float
    matched: str  # the words of the string that matched
    signals: dict[str, float] = field(default_factory=dict)


@dataclass
class _Candidate:
    ids: list[str]
    start: int
    end: int
    aligned: bool  # starts and ends at segment boundaries
    segment: int

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass
class InstitutionRegistry:
    """Institutions indexed by name key, acronym and rare word, with a matcher for parsed affiliations."""

    records: dict[str, RegistryRecord] = field(default_factory=dict)
    source: str = ""

    def __post_init__(self) -> None:
        self._names: dict[str, list[str]] = defaultdict(list)
        self._acronyms: dict[str, list[str]] = defaultdict(list)
        self._tokens: dict[str, list[str]] = defaultdict(list)
        self._name_keys: dict[str, list[str]] = {}  # id -> keys of all its names (for fuzzy matching)
        self._children: dict[str, list[RegistryRecord]] = defaultdict(list)
        for record in self.records.values():
            self._index(record)
            for parent in record.parents:
                self._children[parent].append(record)

    @classmethod
    def from_records(cls, records: Iterable[RegistryRecord], source: str = "") -> InstitutionRegistry:
        return cls({r.id: r for r in records}, source)

    @classmethod
    def load(cls, path: Path | str) -> InstitutionRegistry:
        return cls.from_records(load_records(Path(path)), str(path))

    def __len__(self) -> int:
        return len(self.records)

    def _index(self, record: RegistryRecord) -> None:
        keys = set()
        for name in record.names():
            key = name_key(name)
            if key:
                keys.add(key)
            # "University of California, Berkeley" is also written "UC Berkeley"; the parenthesised
            # part of "Charité (Berlin)" is dropped by name_key already
        for key in keys:
            if record.id not in self._names[key]:
                self._names[key].append(record.id)
        for acronym in record.acronyms:
            self._acronyms[acronym.replace(".", "").upper()].append(record.id)
        self._name_keys[record.id] = sorted(keys)
        for token in set(" ".join(keys).split()):
            self._tokens[token].append(record.id)

    def get(self, ror_or_id: str | None) -> RegistryRecord | None:
        if not ror_or_id:
            return None
        return self.records.get(strip_ror(ror_or_id) or ror_or_id)

    def by_name(self, name: str) -> list[RegistryRecord]:
        return [self.records[i] for i in self._names.get(name_key(name), [])]

    # -- matching ---------------------------------------------------------------------------------

    def match(self, parsed: ParsedAffiliation) -> RegistryMatch | None:
        """The registry institution a parsed affiliation names, or None when it is not sure."""
        text = parsed.raw
        strong_country = parsed.country_code if parsed.country_source in _STRONG_COUNTRY else None
        folded_text = fold(text)
        segments = [s for s in re.split(r"\s*[,;\n]\s*|\s+/\s+", text) if s.strip()]
        tokens: list[tuple[str, int]] = []
        for index, segment in enumerate(segments):
            if has_cjk(segment) and not re.search(r"[A-Za-z]", segment):
                tokens.extend((unit, index) for unit in _cjk_units(segment, parsed))
            else:
                tokens.extend((word, index) for word in name_key(segment).split())
        candidates = self._name_candidates(tokens)
        best = self._choose(candidates, tokens, parsed, strong_country, folded_text)
        if best is not None:
            return best
        acronym = self._acronym_match(text, parsed, strong_country)
        if acronym is not None:
            return acronym
        return self._fuzzy_match(parsed, strong_country, folded_text)

    def _name_candidates(self, tokens: list[tuple[str, int]]) -> list[_Candidate]:
        candidates = []
        words = [t for t, _ in tokens]
        for start in range(len(words)):
            for end in range(min(len(words), start + _MAX_NAME_TOKENS), start, -1):
                key = " ".join(words[start:end])
                ids = self._names.get(key)
                if not ids:
                    continue
                first_segment, last_segment = tokens[start][1], tokens[end - 1][1]
                aligned = (start == 0 or tokens[start - 1][1] != first_segment) and (
                    end == len(tokens) or tokens[end][1] != last_segment
                )
                # a name across a comma ("University of California, Berkeley") only when it starts
                # where its first segment starts: "... Medical Science, The University of Tokyo" is not
                # "Science University of Tokyo"
                if first_segment != last_segment and start > 0 and tokens[start - 1][1] == first_segment:
                    continue
                # a one-word name ("Science", "Charité") only when it is a whole segment
                if end - start == 1 and not aligned and not has_cjk(key):
                    continue
                if all(word in _GENERIC_WORDS for word in words[start:end]):
                    continue  # "University Hospital", "Institute of Science": many places have one
                candidates.append(_Candidate(list(ids), start, end, aligned, last_segment))
        return candidates

    def _settle(
        self,
        ids: list[str],
        parsed: ParsedAffiliation,
        strong_country: str | None,
        folded_text: str,
        place_named: Callable[[str], bool] | None = None,
    ) -> str | None:
        """One id out of the institutions sharing a name, or None if geography cannot tell them apart.

        `place_named(city)` says whether the string names a city outside the matched name: the words
        of a shared name are the same for all who share it, so "Newcastle University" says nothing of
        which Newcastle it is in."""
        named = place_named or (lambda city: _mentions(folded_text, city))
        records = [self.records[i] for i in ids]
        if strong_country:
            records = [r for r in records if r.country_code == strong_country]
        elif parsed.country_code:
            same = [r for r in records if r.country_code == parsed.country_code]
            records = same or records
        if len(records) > 1:
            in_city = [r for r in records if r.city and named(r.city)]
            records = in_city or records
        if len(records) > 1:
            active = [r for r in records if r.status == "active"]
            records = active or records
        if len(records) > 1:
            # several share the name; the one whose own (display) name it is, is what it means ("Paris
            # 8" is not "Paris": a numbered name is nobody's plain name)
            shared = self._shared_keys(ids)
            own = [r for r in records if not re.search(r"\d", r.name) and name_key(r.name) in shared]
            records = own if len(own) == 1 else records
        return records[0].id if len(records) == 1 else None

    def _campus(self, record: RegistryRecord, parsed: ParsedAffiliation, folded_text: str) -> RegistryRecord:
        """'Mayo Clinic, Jacksonville, FL' is Mayo Clinic in Florida: a child of the matched institution
        in the city the address names, when the matched one is elsewhere. A child of another kind is no
        campus: the University of Miami's health system in Miami is not the university."""
        if not parsed.city or (record.city and fold(record.city) == fold(parsed.city)):
            return record
        children = self._children.get(record.id, [])
        local = [
            c
            for c in children
            if c.city
            and fold(c.city) == fold(parsed.city)
            and c.status == "active"
            and (not (c.types and record.types) or set(c.types) & set(record.types))
        ]
        return local[0] if len(local) == 1 else record

    def _shared_keys(self, ids: list[str]) -> list[str]:
        common = set(self._name_keys.get(ids[0], []))
        for other in ids[1:]:
            common &= set(self._name_keys.get(other, []))
        return sorted(common)

    def _choose(
        self,
        candidates: list[_Candidate],
        tokens: list[tuple[str, int]],
        parsed: ParsedAffiliation,
        strong_country: str | None,
        folded_text: str,
    ) -> RegistryMatch | None:
        words = [t for t, _ in tokens]

        def outside(candidate: _Candidate) -> Callable[[str], bool]:
            return lambda city: _named_outside(words, candidate.start, candidate.end, city)

        settled: list[tuple[_Candidate, RegistryRecord]] = []
        for candidate in candidates:
            chosen = self._settle(candidate.ids, parsed, strong_country, folded_text, outside(candidate))
            if chosen is not None:
                settled.append((candidate, self.records[chosen]))
        # a name inside a longer matched name ("Massachusetts General Hospital" in "... Hospital Cancer
        # Center") is part of it, not a second institution
        # ... unless the longer one is a part of it: "Stanford University School of Medicine" is
        # Stanford University's school, so the university is the institution
        kept = []
        for c, r in settled:
            containers = [
                (o, q) for o, q in settled if o.start <= c.start and c.end <= o.end and o.size > c.size
            ]
            if all(_is_subunit(tokens, o, c) for o, q in containers):
                kept.append((c, r))
        children = {
            id(o)
            for c, r in kept
            for o, q in settled
            if o.start <= c.start and c.end <= o.end and o.size > c.size and _is_subunit(tokens, o, c)
        }
        kept = [(c, r) for c, r in kept if id(c) not in children]
        if not kept:
            return None
        ids = {r.id for _, r in kept}
        kinds = _segment_kinds(parsed.raw)
        scored: list[tuple[tuple[float, ...], RegistryMatch, _Candidate]] = []
        for candidate, record in kept:
            city_ok = bool(record.city and _mentions(folded_text, record.city))
            country_ok = parsed.country_code is not None and record.country_code == parsed.country_code
            # the parent of another institution named in the string is what it belongs to
            is_parent = any(record.id in self.records[other].parents for other in ids if other != record.id)
            score = (
                float(candidate.size >= 2 or has_cjk(tokens[candidate.start][0])),
                float(kinds[candidate.segment] != "department"),
                float(is_parent),
                float(candidate.aligned),
                float(candidate.segment),
                float(candidate.aligned),
                float(city_ok or country_ok),
                float(candidate.size),
            )
            record = self._campus(record, parsed, folded_text)
            matched = " ".join(t for t, _ in tokens[candidate.start : candidate.end])
            scored.append((score, RegistryMatch(record, "name", 0.0, matched), candidate))
        scored.sort(key=lambda item: item[0], reverse=True)
        top_score, top, top_candidate = scored[0]
        related = {top.record.id, *top.record.parents} | {c.id for c in self._children.get(top.record.id, [])}
        # a rival elsewhere, where the string does not place it, while the string confirms where the
        # top one is ("Institute of Ecology and Evolution, University of Oregon"): a same-named unit
        # of another country, not a second institution
        rivals = {
            m.record.id
            for sc, m, _c in scored[1:]
            if m.record.id not in related
            and not (top_score[6] and not sc[6] and m.record.country_code != top.record.country_code)
        }
        close = [m for sc, m, _c in scored[1:] if m.record.id in rivals and sc[:3] == top_score[:3]]
        aligned, geo, department = top_score[5], top_score[6], 1.0 - top_score[1]
        top.signals = {
            "aligned": aligned,
            "rivals": float(len(rivals)),
            "close_rivals": float(len(close)),
            "geography_agrees": geo,
            "department": department,
        }
        # Calibrated on the Crossref train split: a whole segment naming one institution whose city or
        # country the string confirms is right ~93% of the time; each doubt lowers that.
        confidence = 0.95
        confidence *= 1.0 if aligned else 0.85
        confidence *= 1.0 if geo else 0.95
        confidence *= 0.82 if rivals else 1.0
        confidence *= 0.85 if close else 1.0
        confidence *= 0.7 if department else 1.0
        # "Institute on Aging", "Cardiovascular Research Institute": every word of the name is common in
        # the registry, so the name may mean another institution that the registry lacks
        city_named = bool(top.record.city and _mentions(folded_text, top.record.city))
        generic = min((len(self._tokens.get(w, ())) for w in top.matched.split()), default=0) > _GENERIC_DF
        top.signals["generic_name"] = float(generic)
        confidence *= 0.8 if generic and not city_named else 1.0
        # "Institute of Cognitive Science, University of Osnabrück", "Howard Hughes Medical Institute,
        # University of California": a university named after the match, which the registry does not
        # know by that name (or cannot tell from its namesakes), is usually what the string means
        matched_segments = {c.segment for c, _r in kept} | {tokens[c.start][1] for c, _r in kept}
        later_university = any(
            index > top_candidate.segment
            and index not in matched_segments
            and any(w in _UNIVERSITY_WORDS for w in {t for t, i in tokens if i == index})
            for index in {i for _t, i in tokens}
        )
        top.signals["unmatched_university_after"] = float(later_university)
        confidence *= 0.7 if later_university else 1.0
        # "Leiden University Medical Center", "Medical University of Innsbruck": the string names the
        # university's medical centre or medical university, another institution the registry may lack
        extended = _extended_name(tokens, top_candidate)
        top.signals["extended_name"] = float(extended)
        confidence *= 0.8 if extended else 1.0
        top.score = round(confidence, 3)
        return top

    def _acronym_match(
        self, text: str, parsed: ParsedAffiliation, strong_country: str | None
    ) -> RegistryMatch | None:
        country = strong_country
        if not country:
            return None  # an acronym alone names too many things ("NTU", "UM", "CSU")
        segments = {s.strip(" .") for s in re.split(r"[,;()/]", text)}
        for acronym in re.findall(r"\b[A-Z][A-Z&]{2,9}\b", text):
            if acronym not in segments:
                continue  # an acronym inside a longer name is usually a network or a lab ("IRCCS")
            ids = [
                i
                for i in self._acronyms.get(acronym.replace("&", "").upper(), [])
                if self.records[i].country_code == country
            ]
            active = [i for i in ids if self.records[i].status == "active"] or ids
            if len(active) == 1:
                return RegistryMatch(self.records[active[0]], "acronym", 0.72, acronym)
        return None

    def _fuzzy_match(
        self, parsed: ParsedAffiliation, strong_country: str | None, folded_text: str
    ) -> RegistryMatch | None:
        """A near-miss of a registry name ("Heinrich-Heine-Universty") among the organisation segments."""
        best: RegistryMatch | None = None
        # the parser's organisations first, then any other segment: a misspelt name ("Universty")
        # may have been read as part of the address
        segments = [s.strip() for s in re.split(r"\s*[,;\n]\s*", parsed.raw) if len(s.split()) >= 2]
        candidates = [parsed.institution, *parsed.organisations, *segments]
        for written in list(dict.fromkeys(c for c in candidates if c))[:6]:
            found = self._fuzzy_one(written, parsed, strong_country, folded_text)
            if found is not None and (best is None or found.score > best.score):
                best = found
        return best

    def _fuzzy_one(
        self, written: str, parsed: ParsedAffiliation, strong_country: str | None, folded_text: str
    ) -> RegistryMatch | None:
        key = name_key(written)
        words = key.split()
        if len(words) < 2 or key in self._names:
            return None  # an exact name was already judged (and found ambiguous) by the name matcher
        # institutions sharing the string's rarest word (a proper name, usually) are the candidates
        rare = sorted((w for w in words if w in self._tokens), key=lambda w: len(self._tokens[w]))
        if not rare or len(self._tokens[rare[0]]) > 3000:
            return None
        pool = {i for w in rare[:2] for i in self._tokens[w]}
        if strong_country:
            pool = {i for i in pool if self.records[i].country_code == strong_country}
        # a misspelling keeps the number of words; "University of California" is not a near-miss of
        # "University of California System" but a different (and ambiguous) name
        choices = {
            (record_id, k): k
            for record_id in pool
            for k in self._name_keys[record_id]
            if len(k.split()) == len(words)
        }
        found = process.extractOne(key, choices, scorer=fuzz.ratio, score_cutoff=90)
        if found is None:
            return None
        matched_key, score = found[0], found[1]
        if not _is_typo(words, matched_key.split()):
            return None  # "Universidad de California", "South Carolina": a different name, not a misspelling
        # the same name may belong to another institution too: settle it like an exact name
        same = sorted({i for (i, _n), k in choices.items() if k == matched_key})
        settled = self._settle(same, parsed, strong_country, folded_text)
        if settled is None:
            return None
        record = self.records[settled]
        agrees = (parsed.country_code is not None and record.country_code == parsed.country_code) or bool(
            record.city and _mentions(folded_text, record.city)
        )
        # a near-miss is trusted only when the address confirms where the institution is, and when the
        # string says all that the institution's own name says: "University of Colorado" is a near-miss
        # of "Universidad de Colorado", a label of the University of Colorado *System*, but may as well
        # mean one of its campuses
        confidence = 0.8 * score / 100 if agrees and not _unsaid_words(record, parsed.raw) else 0.6
        return RegistryMatch(record, "fuzzy", round(confidence, 3), written, {"fuzzy_ratio": score})


def _segment_kinds(text: str) -> list[SegmentKind]:
    segments = [s for s in re.split(r"\s*[,;\n]\s*|\s+/\s+", text) if s.strip()]
    return [segment_kind(s.strip()) for s in segments] + ["other"]


# Words that, written next to an institution's name, name another institution: its medical centre,
# hospital or medical university ("Leiden University Medical Center", "Medical University of Graz").
_EXTENSIONS_AFTER: tuple[tuple[str, ...], ...] = (
    ("medical", "center"),
    ("medical", "centers"),
    ("medical", "sciences"),
    ("hospital",),
    ("hospitals",),
)
_EXTENSIONS_BEFORE = frozenset({"medical"})


def _extended_name(tokens: list[tuple[str, int]], candidate: _Candidate) -> bool:
    """Is the matched name, within its segment, the start or end of a longer name of another
    institution ("Vanderbilt University" in "Vanderbilt University Medical Center")?"""
    last_segment = tokens[candidate.end - 1][1]
    after = tuple(t for t, i in tokens[candidate.end : candidate.end + 2] if i == last_segment)
    if any(after[: len(ext)] == ext for ext in _EXTENSIONS_AFTER):
        return True
    if candidate.start == 0:
        return False
    word, segment = tokens[candidate.start - 1]
    return segment == tokens[candidate.start][1] and word in _EXTENSIONS_BEFORE


def _unsaid_words(record: RegistryRecord, text: str) -> list[str]:
    """Distinctive words of a record's display name that the string does not say, even misspelt
    ("system" and "park" for "University of Maryland, College Park" in "... University of Maryland")."""
    said = set(name_key(text).split())
    return [
        word
        for word in name_key(record.name).split()
        if word not in said
        and word not in _HEAD_WORDS
        and not any(Levenshtein.distance(word, other) <= 2 for other in said)
    ]


def _named_outside(words: list[str], start: int, end: int, place: str) -> bool:
    """Do the string's words name `place` outside words[start:end] (the matched institution name)?"""
    key = name_key(place).split()
    n = len(key)
    return bool(n) and any(
        words[i : i + n] == key and (i + n <= start or i >= end) for i in range(len(words) - n + 1)
    )


def _mentions(folded_text: str, name: str) -> bool:
    key = fold(name)
    return bool(key) and re.search(rf"(?<![0-9a-z]){re.escape(key)}(?![0-9a-z])", folded_text) is not None


def _cjk_units(segment: str, parsed: ParsedAffiliation) -> list[str]:
    """Chinese text has no spaces: its 'words' for matching are the parsed organisation units."""
    units = [u for u in parsed.organisations if u and u in segment]
    return units or [segment]


@lru_cache(maxsize=4)
def _load_cached(path: str, mtime: float) -> InstitutionRegistry:
    return InstitutionRegistry.load(path)


def load_registry(path: Path | str | None) -> InstitutionRegistry | None:
    """The registry file at `path`, loaded once per process (reloaded when the file changes)."""
    if path is None:
        return None
    path = Path(path).expanduser()
    if not path.exists():
        raise FileNotFoundError(f"ROR registry file {path} does not exist (SCHOLARMAP_ROR_REGISTRY)")
    return _load_cached(str(path), path.stat().st_mtime)


@lru_cache(maxsize=1)
def builtin_registry() -> InstitutionRegistry:
    return InstitutionRegistry.from_records(builtin_records(), "built-in")
