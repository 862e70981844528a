"""Affiliation text before it is parsed: cleaning, postcodes, and what kind of organisation a segment names."""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Literal

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_EMAIL_LABEL = re.compile(
    r"(?:electronic\s+address|e-?mail(?:\s+address)?|email|correspondence|邮箱|电子邮件|電子郵件)\s*[:：]?\s*$",
    re.IGNORECASE,
)
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_PHONE = re.compile(r"\b(?:tel|phone|fax|ph)\.?\s*[:.]?\s*\+?[\d\s()./-]{6,}", re.IGNORECASE)
_MARKER = re.compile(r"^\s*(?:[\[(]?\d{1,3}[\])]?[.:]?\s*|[a-h][\s.)]\s*(?=[A-Z])|[*†‡§¶#¹²³⁴⁵⁶⁷⁸⁹⁰]+\s*)")
_POSTCODES = (
    re.compile(r"\b(?:P\.?\s?O\.?\s*Box|Box|BP|B\.P\.|CP|C\.P\.|Postfach|Apartado)\s*\d+\b", re.IGNORECASE),
    re.compile(r"\bCEDEX\s*\d*\b", re.IGNORECASE),
    re.compile(r"\b[A-Z]{1,3}-\s?\d{3,6}\b"),  # D-50939, CH-5232, F-75005
    # "CH 1015 Lausanne": European country prefixes that are not US state codes
    re.compile(
        r"\b(?:D|F|I|A|B|S|N|E|P|L|H|CH|NL|DK|FIN|CZ|SK|PL|HR|SI|GR|FR|IT|ES|PT|BE|AT|SE|NO|FI|LU|RO|BG|LT|LV|EE|HU|CY|IS)\s\d{4,5}\b"
    ),
    re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b"),  # UK: SW7 2AZ
    re.compile(r"\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b"),  # Canada: M5S 1A8
    re.compile(r"\b\d{4}\s?[A-Z]{2}\b(?=\s+[A-Z])"),  # Netherlands: 1098 XG Amsterdam
    re.compile(r"\b\d{5}-\d{3,4}\b"),  # Brazil 01246-903, US ZIP+4
    re.compile(r"\b\d{3}-\d{4}\b"),  # Japan 351-0198
    re.compile(r"\b\d{2}-\d{3}\b"),  # Poland 02-097
    re.compile(r"\b\d{3}\s\d{2}\b(?=\s+[A-Z])"),  # Sweden, Czechia, Slovakia: 171 77 Stockholm
    re.compile(r"(?<![\w.-])\d{4,6}(?![\w-])"),  # plain 4-6 digit postcodes (China 100871, US 02118)
    re.compile(r"(?<=[\u4e00-\u9fff\s])\d{6}(?!\d)"),  # 100871 right after Chinese text
)
STREET = re.compile(
    r"\b(?:street|str\.|strasse|straße|st\.|avenue|ave\.?|road|rd\.?|boulevard|blvd|lane|drive|way|place|"
    r"square|platz|weg|gasse|allee|rue|via|viale|calle|avenida|avda|rua|plaza|piazza|campus|building|"
    r"bldg|floor|room|suite|no\.|hwy|highway|parkway|ulica|ul\.)\b",
    re.IGNORECASE,
)


def clean(raw: str) -> tuple[str, list[str]]:
    """The string without e-mails, URLs, phone numbers and markup; returns (text, e-mails)."""
    text = unicodedata.normalize("NFKC", html.unescape(raw or ""))
    text = re.sub(r"<[^>]+>", " ", text)
    emails = _EMAIL.findall(text)
    text = _EMAIL.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _PHONE.sub(" ", text)
    # "... China. Electronic address: " is left once the address itself is gone
    text = re.sub(
        r"(?:electronic\s+address|e-?mail(?:\s+address)?|email)\s*[:：]?\s*(?=[.;,]|$)", " ", text, flags=re.I
    )
    text = re.sub(r"\s+", " ", text).strip(" ,;.")
    return text, emails


def strip_marker(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = _MARKER.sub("", text, count=1).strip()
    return text


def remove_postcodes(text: str) -> tuple[str, str | None]:
    """Remove postcodes and post boxes; returns (text, the first postcode).

    A postcode separates what precedes it from the city that follows ("... Sciences D-48565
    Steinfurt"), so it is replaced by a comma: the city becomes a segment of its own.
    """
    found: str | None = None
    for pattern in _POSTCODES:
        match = pattern.search(text)
        if match and found is None:
            found = match.group(0).strip()
        text = pattern.sub(" , ", text)
    text = re.sub(r"\s*,(?:\s*,)+", ",", re.sub(r"\s+", " ", text))
    return text.strip(" ,.-"), found


INSTITUTION_WORDS = re.compile(
    r"\b(?:universit\w*|univ\.?|universidad\w*|universidade|università|universita|université|universite|"
    r"universität|universitat|universiteit|universitet\w*|uniwersytet\w*|univerzit\w*|univerza|yliopisto|"
    r"egyetem|hochschule|polytechnic\w*|politecnico|polytechnique|hospital\w*|hôpital\w*|hopital\w*|"
    r"ospedale|klinikum|kliniken|infirmary|clinic|clinics|klinik|medical cent(?:er|re)|health system|"
    r"institutet|institute|institut|instituto|istituto|academy|akademie|academia|académie|academie|"
    r"council|national laborator(?:y|ies)|observatory|museum|foundation|fondation|fondazione|stiftung|"
    r"ministry|agency|inc|ltd|llc|gmbh|corporation|corp|company|co\.|plc|s\.a\.|s\.p\.a\.|b\.v\.|"
    r"trust|nhs|cnrs|inserm|csic|cnr|riken|inra|inrae|cea|ird|nih|cdc|who|college|school|"
    r"research cent(?:er|re)|cent(?:er|re)|centro|zentrum|centrum|laborator(?:y|ies)|labs|ag|kk)\b",
    re.IGNORECASE,
)
# Strong words make a segment the institution even when department words are present as well.
STRONG = re.compile(
    r"\b(?:universit\w*|univ\.?|universidad\w*|universidade|università|universita|université|universite|"
    r"universität|universitat|universiteit|universitet\w*|uniwersytet\w*|univerzit\w*|yliopisto|"
    r"hochschule|hospital\w*|hôpital\w*|hopital\w*|ospedale|klinikum|infirmary|medical cent(?:er|re)|"
    r"institutet|academy|akademie|academia|académie|inc|ltd|llc|gmbh|corporation|company|plc|"
    r"cnrs|inserm|csic|riken|nih|polytechnic|politecnico)\b",
    re.IGNORECASE,
)
DEPARTMENT_START = re.compile(
    r"^(?:the\s+)?(?:dept\.?|department|departments|division|section|unit|laborator(?:y|ies)|lab\.?|group|"
    r"program(?:me)?|faculty|school of|college of|graduate school|cent(?:er|re) for|cent(?:er|re) of|"
    r"chair|service|services|core|key laboratory|state key laboratory|departamento|departament|"
    r"département|departement|dipartimento|abteilung|fachbereich|institut für|institut fur|lehrstuhl|"
    r"laboratoire|unité|unite|équipe|equipe|servicio|servei|clinic of|clinic for|klinik für|klinik fur|"
    r"research group|research unit|research center for|research centre for|branch|team|ward|"
    r"division of|discipline|sector|area|program in|academic unit|nucleo|núcleo|grupo|cátedra|catedra)\b",
    re.IGNORECASE,
)


SegmentKind = Literal["institution", "department", "other"]


def segment_kind(segment: str) -> SegmentKind:
    """What a comma-separated segment names: an institution, a department inside one, or neither."""
    if DEPARTMENT_START.match(segment):
        tail = DEPARTMENT_START.sub("", segment, count=1)
        return "institution" if STRONG.search(tail) else "department"
    if INSTITUTION_WORDS.search(segment):
        return "institution"
    return "other"
