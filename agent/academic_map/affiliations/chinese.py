"""Parsing an affiliation in Chinese: institution, its departments and the address, without separators."""

from __future__ import annotations

import re

from agent.academic_map.affiliations.lexicon import CN_PROVINCES, lexicon
from agent.academic_map.affiliations.parsed import CitySource, CountrySource, ParsedAffiliation, fill
from agent.academic_map.affiliations.text import remove_postcodes
from tools.geocode import Place, get_gazetteer, has_cjk

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
ZH_ORG_HINT = re.compile(rf"(?:{'|'.join(_ZH_STRONG)}|学院|學院|系|科|中心|实验室|實驗室|研究所|部|室|所)")
_ZH_MUNICIPALITIES = {"Beijing", "Shanghai", "Tianjin", "Chongqing"}


def _zh_starts_with_place(text: str) -> bool:
    gazetteer = get_gazetteer()
    lex = lexicon()
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
    lex = lexicon()
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


def parse_chinese(text: str, raw: str) -> ParsedAffiliation:
    lex = lexicon()
    text, postcode = remove_postcodes(text)
    parsed = ParsedAffiliation(raw=raw, postcode=postcode, language="zh")
    segments = [s for s in re.split(r"[,，、;；\s]+", text) if s]
    country: str | None = None
    country_source: CountrySource = "none"
    region: str | None = None
    org_segments: list[str] = []
    address: list[str] = []
    for segment in segments:
        is_org = bool(ZH_ORG_HINT.search(segment)) and has_cjk(segment)
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

    return fill(
        parsed,
        institution=institution,
        departments=departments,
        organisations=organisations,
        country=(country, country_source),
        region=region,
        city=(city, city_text, city_source),
    )
