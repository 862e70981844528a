"""A coordinated phrase cut into its alternatives, with the word they share given to each.

"hip and knee osteoarthritis" lists two diseases that share their head noun, "hepatic fibrosis and
cirrhosis" two that share their modifier, and "head and neck cancer" is one disease whose name holds
an "and". A searcher reads "hip osteoarthritis" (Osteoarthritis, Hip) and "hepatic cirrhosis" (Liver
Cirrhosis), not the joint Hip beside Osteoarthritis, Knee, nor Fibrosis for a lone "cirrhosis". The
shared word is given to an alternative only where MeSH agrees: the phrase it makes is one descriptor
(an exact name) *under* the one the alternative or the shared word names alone, so distributing can
only narrow a concept to what MeSH itself files below it, or, where the shared word names nothing
alone, one descriptor at all ("patient and public involvement": Patient Participation, whose entry term
is "Patient Involvement", and "public involvement", one concept whatever their roles), or where MeSH files
a sibling of the last alternative's descriptor with the modifier swapped ("hip and knee arthroplasty":
Arthroplasty, Replacement, Hip beside ..., Knee, though MeSH writes no "hip arthroplasty"); a phrase MeSH
names as one descriptor across its "and" is not cut at all. Modifiers coordinated before one head share
it whatever MeSH names ("cemented vs uncemented hemiarthroplasty", "early or late tracheostomy": the
kinds of one procedure compared, `kinds_of_one_head`): a lone adjective or participle names no concept
of its own, so the head is the concept and the modifiers only say which kinds. Which phrases of a description are listed together at all
(`listed_together`) is read here too: a searcher ORs them in one block; phrases written with a slash
between them ("kangaroo care / skin-to-skin contact", "ranibizumab/aflibercept/bevacizumab") are
alternatives of one concept whatever roles MeSH gives each (`slashed_series`), while two phrases a bare
"and" joins as a whole topic ("universal basic income and mental health") or as the conditions of people
"with" both may be two things related (`related_pairs`).
"""

from __future__ import annotations

import re

from agent.language.mesh_recognition import MeshVocabulary
from agent.language.mesh_tails import is_under
from agent.language.morphology import is_acronym
from agent.understanding.english_pos import is_adjective
from agent.understanding.english_word_forms import is_past_participle

# a slash between two capitals or digits joins one name ("MTB/RIF", "PET/CT", "HIV/AIDS"), elsewhere it lists;
# an "and" or "or" inside a hyphenated compound is part of one word ("soap-and-water", "trial-and-error")
COORDINATION = re.compile(
    r"\s*(?:,|(?<!-)\band\b(?!-)|(?<!-)\bor\b(?!-)|\band/or\b|(?-i:(?<![A-Z0-9])/|/(?![A-Z0-9])))\s*",
    re.IGNORECASE,
)
SHARED_MAX_WORDS = 3  # words of a shared head ("cell carcinoma", "aortic valve replacement") or modifier


def alternatives(text: str, vocabulary: MeshVocabulary | None) -> list[str]:
    """The alternatives a coordinated phrase lists, each with the head or modifier they share where
    MeSH names the result (see the module doc); the phrase itself when MeSH names it across a
    coordinator ("head and neck cancer")."""
    pieces = [piece.strip() for piece in COORDINATION.split(text) if piece and piece.strip()]
    if vocabulary is None or len(pieces) < 2:
        return pieces
    if any(COORDINATION.search(match.text) for match in vocabulary.recognize(text)):
        return [text.strip()]
    return distribute(pieces, vocabulary)


def distribute(pieces: list[str], vocabulary: MeshVocabulary) -> list[str]:
    """Alternatives listed together ("hip", "knee osteoarthritis"), each given the head the last one
    ends with or the modifier the first one starts with, where MeSH names the result (`_narrows`)."""
    result = list(pieces)
    if len(pieces) < 2:
        return result
    last, first = pieces[-1].split(), pieces[0].split()
    for index, piece in enumerate(pieces[:-1]):  # "hip and knee osteoarthritis"
        for size in range(min(SHARED_MAX_WORDS, len(last) - 1), 0, -1):
            head = " ".join(last[-size:])
            if _narrows(f"{piece} {head}", head, vocabulary):
                result[index] = f"{piece} {head}"
                break
            if size == len(last) - 1 and (sibling := _sibling_named(piece, pieces[-1], vocabulary)):
                result[index] = sibling
                break
    for index, piece in enumerate(pieces[1:], start=1):  # "hepatic fibrosis and cirrhosis"
        for size in range(min(SHARED_MAX_WORDS, len(first) - 1), 0, -1):
            modifier = " ".join(first[:size])
            if _narrows(f"{modifier} {piece}", piece, vocabulary):
                result[index] = f"{modifier} {piece}"
                break
    return result


def _sibling_named(modifier: str, last: str, vocabulary: MeshVocabulary) -> str | None:
    """The name of the descriptor beside the one `last` names whole, whose heading swaps `last`'s
    modifier for `modifier`: in "hip and knee arthroplasty" MeSH names "knee arthroplasty" (Arthroplasty,
    Replacement, Knee) but not "hip arthroplasty", and its sibling Arthroplasty, Replacement, Hip is the
    hip's. The name returned is the sibling's shortest name recognition reads back whole, one with the
    head the user wrote first ("Total Hip Arthroplasty"); None where no sibling has exactly those words."""
    matches = vocabulary.recognize(last)
    written = last.split()
    if len(matches) != 1 or matches[0].text.casefold() != last.casefold() or len(modifier.split()) != 1:
        return None
    named = matches[0].descriptor
    words = {w.casefold() for w in named.heading.replace(",", " ").split()}
    swapped = written[0].casefold()
    if swapped not in words:
        return None
    wanted = (words - {swapped}) | {modifier.casefold()}
    head = written[1:]
    for parent in vocabulary.ancestors(named):
        for sibling in vocabulary.children(parent):
            if {w.casefold() for w in sibling.heading.replace(",", " ").split()} != wanted:
                continue
            names = [
                term
                for term in (sibling.heading, *sibling.entry_terms)
                if "," not in term and [m.descriptor.ui for m in vocabulary.recognize(term)] == [sibling.ui]
            ]
            # the name that keeps the words the user wrote ("Total Hip Arthroplasty" for "... arthroplasty")
            names.sort(key=lambda term: (not all(w.casefold() in term.casefold() for w in head), len(term)))
            return names[0] if names else None
    return None


def kinds_of_one_head(pieces: list[str], vocabulary: MeshVocabulary) -> list[str] | None:
    """The head and the modifiers of "A vs B head" / "A or B head" where A and B are modifiers
    ("cemented", "uncemented hemiarthroplasty": "hemiarthroplasty", "cemented", "uncemented"); None
    where an earlier piece is no lone modifier (a noun, a name MeSH knows, an acronym: "aspirin vs
    clopidogrel therapy", "RYGB vs sleeve gastrectomy") or the last piece does not open with one."""
    *earlier, last = [piece.split() for piece in pieces]
    if not earlier or len(last) < 2 or not _lone_modifier(last[0], vocabulary):
        return None
    if not all(len(words) == 1 and _lone_modifier(words[0], vocabulary) for words in earlier):
        return None
    head = " ".join(last[1:])
    return [head, *(words[0] for words in earlier), last[0]]


def modifiers_after_their_head(pieces: list[str], vocabulary: MeshVocabulary) -> list[str]:
    """A list that names a thing and then its kinds by lone modifiers ("cash transfers, conditional or
    unconditional", "pain, acute or chronic"): each modifier given the phrase it follows ("conditional
    cash transfers"), as `kinds_of_one_head` reads them written before it; a lone adjective names no
    concept of its own. The pieces as they were where the first is itself a lone modifier or ends in an
    acronym ("IV or topical": two routes, not "topical IV")."""
    first = pieces[0].split() if pieces else []
    if not first or _lone_modifier(first[-1], vocabulary) or is_acronym(first[-1]):
        return list(pieces)
    return [
        f"{piece} {pieces[0]}"
        if index and len(piece.split()) == 1 and _lone_modifier(piece, vocabulary)
        else piece
        for index, piece in enumerate(pieces)
    ]


# the measures a hyphenated compound grades a treatment by ("high-dose", "short-course", "low-intensity")
_MEASURES = frozenset({"dose", "intensity", "frequency", "volume", "duration", "course", "fraction"})


def _lone_modifier(word: str, vocabulary: MeshVocabulary) -> bool:
    """A lower-case adjective or participle ("open", "restrictive", "cemented") that MeSH names nothing by,
    or a compound that grades a treatment by a measure ("high-dose", "standard-dose", "short-course": the
    kinds of one vaccine or regimen compared, whatever MeSH finds in its first word)."""
    lower = word.lower()
    grade, hyphen, measure = lower.partition("-")
    if hyphen and grade.isalpha() and measure in _MEASURES and (word.islower() or word[1:].islower()):
        return True
    return (
        word.isalpha()
        and (word.islower() or word == word.capitalize())
        and (is_adjective(lower) or is_past_participle(lower))
        and not vocabulary.recognize(word)
    )


# what stands between two alternatives that share a word: a comma or a conjunction
_BETWEEN = r"(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or|and/or)\s+)"
_OTHER_WORDS = r"[\w'-]+(?:(?:\s*,\s*|\s+)[\w'-]+){0,3}"


def written_distributed(phrase: str, text: str) -> bool:
    """Whether `text` writes `phrase` as one alternative of a coordination whose shared word it was
    given (`distribute`): "maternal outcomes" in "maternal and perinatal outcomes", "hepatic cirrhosis"
    in "hepatic fibrosis and cirrhosis", "hip osteoarthritis" in "hip, knee or hand osteoarthritis"; the
    other alternatives are at most four words."""
    words = phrase.split()
    for cut in range(1, len(words)):
        first = r"\s+".join(re.escape(w) for w in words[:cut])
        last = r"\s+".join(re.escape(w) for w in words[cut:])
        shared_head = rf"{first}{_BETWEEN}{_OTHER_WORDS}\s+{last}"
        shared_modifier = rf"{first}\s+{_OTHER_WORDS}{_BETWEEN}{last}"
        for pattern in (shared_head, shared_modifier):
            if re.search(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE):
                return True
    return False


def _narrows(phrase: str, alone: str, vocabulary: MeshVocabulary) -> bool:
    """Whether MeSH names all of `phrase` as one descriptor under the one it names for `alone`."""
    whole, base = vocabulary.recognize(phrase), vocabulary.recognize(alone)
    if len(whole) != 1 or whole[0].text.casefold() != phrase.strip().casefold():
        return False
    # "involvement" names nothing: "patient [involvement]" is Patient Participation; nor does MeSH name
    # "aortic valve replacement" whole (only the valve in it): "transcatheter [aortic valve replacement]"
    # is Transcatheter Aortic Valve Replacement
    if not any(m.start == 0 and m.end >= len(alone.rstrip()) for m in base):
        return True
    if len(base) != 1:
        return False
    return whole[0].descriptor.ui != base[0].descriptor.ui and is_under(
        whole[0].descriptor, base[0].descriptor
    )


# what separates the items of a list: a comma or a conjunction, never nothing ("2型糖尿病患者认知功能障碍":
# the cognitive dysfunction *of* the patients, two concepts side by side, no list)
_LIST_GAP = re.compile(
    r"^\s*(?:[,;、，]\s*(?:(?:and/or|and|or|as well as|&)\s+)?|(?:and/or|and|or|as well as|&)\s+|/\s*|"
    r"(?:或者|或|以及|及))(?:the\s+)?$",
    re.IGNORECASE,
)


def listed_together(
    description: str, phrases: list[str], originals: dict[str, str] | None = None
) -> dict[str, int]:
    """Which slot phrases the description lists together ("Procalcitonin, C-reactive protein, and
    erythrocyte sedimentation rate", "bursa, tendon or labrum", "X、Y或Z"): alternatives a searcher ORs
    in one block. Phrases found in the description (as written, or as the Chinese in `originals` they
    were rendered from) get a series number shared by neighbours that only a comma, "and", "or", 、 or
    或 separates (Chinese 与/和 join what a sentence relates: "X与Y的关系"); a phrase the description
    does not contain is alone (series -1, grouped as its slot and role say)."""
    folded = description.casefold()
    spans: list[tuple[int, int, str]] = []
    for phrase in dict.fromkeys(phrases):
        written = phrase
        at = folded.find(phrase.casefold()) if phrase else -1
        if at < 0 and (original := (originals or {}).get(phrase, "")):
            written, at = original, folded.find(original.casefold())
        if at >= 0:
            spans.append((at, at + len(written), phrase))
        elif (around := around_an_alias(phrase, description)) is not None:
            spans.append((*around, phrase))
    spans.sort()
    series: dict[str, int] = {}
    number = 0
    previous_end = None
    for start, end, phrase in spans:
        if (
            previous_end is None
            or start < previous_end
            or not _LIST_GAP.match(description[previous_end:start])
        ):
            number += 1
        series[phrase] = number
        previous_end = end
    return series


def around_an_alias(phrase: str, description: str) -> tuple[int, int] | None:
    """Where the description writes `phrase` with a bracketed alias inside it, or None: "hygiene (WASH)
    interventions" is the phrase "hygiene interventions", the brackets an aside within it."""
    words = phrase.split()
    if len(words) < 2:
        return None
    pattern = r"\s+(?:\([^()]*\)\s+)?".join(re.escape(word) for word in words)
    found = re.search(rf"(?<!\w){pattern}(?!\w)", description, re.IGNORECASE)
    return found.span() if found else None


def slashed_series(description: str, series: dict[str, int]) -> set[int]:
    """The series of `listed_together` whose phrases the description writes with a slash between two of
    them: the user's "X/Y" offers one concept by two names or kinds, one block however MeSH files each."""
    return {
        number
        for number, phrases in _members(series).items()
        if len(phrases) > 1
        and any(
            re.search(rf"(?<!\w){re.escape(a)}\s*/\s*{re.escape(b)}(?!\w)", description, re.IGNORECASE)
            for a in phrases
            for b in phrases
            if a != b
        )
    }


# a pair that is a whole topic: from the start of its clause, "about" or "between" ("My thesis is about X and
# Y") to the end of the clause or where it happens ("X and Y in adolescents")
_BEFORE_A_TOPIC = re.compile(r"(?:^|[.:;?!]\s*|\b(?:about|between)\s+)(?:the\s+)?$", re.IGNORECASE)
_AFTER_A_TOPIC = re.compile(r"^\s*(?:$|[.:;?!,]|(?:in|among)\b)", re.IGNORECASE)
# people "with" two conditions have both, the first named in at most three words: "adults with chronic kidney
# disease and metabolic acidosis", "patients with resistant hypertension and sleep apnoea"
_WITH_THE_FIRST = re.compile(r"\bwith\s+(?:[\w-]+\s+){0,2}[\w-]+$", re.IGNORECASE)


def related_pairs(description: str, series: dict[str, int]) -> set[int]:
    """The series of `listed_together` that are two phrases joined by a bare "and" where the "and" may
    relate them rather than list two kinds of one thing: the pair is the whole topic of its clause
    ("universal basic income and mental health", "My thesis is about X and Y", "social media use and
    depression in adolescents"), or the conditions of people "with" both. A pair that opens a longer
    title ("Prompted voiding and scheduled toileting versus usual care", "Barriers and facilitators to
    help-seeking") or is the object of another word ("the impact of Airbnb on housing prices and rents")
    lists alternatives, as does any series with a comma or an "or"."""
    found: set[int] = set()
    for number, phrases in _members(series).items():
        if len(phrases) != 2:
            continue
        for first, second in (phrases, phrases[::-1]):
            pattern = rf"(?<!\w){re.escape(first)}\s+and\s+{re.escape(second)}(?!\w)"
            match = re.search(pattern, description, re.IGNORECASE)
            if match is None:
                continue
            before, after = description[: match.start()], description[match.end() :]
            if _WITH_THE_FIRST.search(before + match.group(0)[: len(first)]) or (
                _BEFORE_A_TOPIC.search(before) and _AFTER_A_TOPIC.match(after)
            ):
                found.add(number)
    return found


def _members(series: dict[str, int]) -> dict[int, list[str]]:
    """The phrases of each series of `listed_together`."""
    members: dict[int, list[str]] = {}
    for phrase, number in series.items():
        members.setdefault(number, []).append(phrase)
    return members
