"""Institutions known without a registry file: major Chinese institutions, and names translated by rule."""

from __future__ import annotations

import re
from functools import lru_cache

from agent.academic_map.affiliations import CN_PROVINCES
from agent.academic_map.institutions.records import RegistryRecord
from tools.geocode import fold, get_gazetteer

# (English name, acronyms, Chinese names, country, city). Small on purpose: a configured ROR file is
# the real source; this lets translated names meet without one.
# fmt: off
_BUILTIN: tuple[tuple[str, tuple[str, ...], tuple[str, ...], str, str], ...] = (
    ("Chinese Academy of Sciences", ("CAS",), ("中国科学院", "中國科學院"), "CN", "Beijing"),
    ("University of Chinese Academy of Sciences", ("UCAS",), ("中国科学院大学",), "CN", "Beijing"),
    ("Chinese Academy of Medical Sciences", ("CAMS",), ("中国医学科学院",), "CN", "Beijing"),
    ("Chinese Academy of Social Sciences", ("CASS",), ("中国社会科学院",), "CN", "Beijing"),
    ("Chinese Academy of Agricultural Sciences", ("CAAS",), ("中国农业科学院",), "CN", "Beijing"),
    ("Institute of Automation, Chinese Academy of Sciences", ("CASIA",), ("中国科学院自动化研究所",), "CN", "Beijing"),
    ("Institute of Physics, Chinese Academy of Sciences", (), ("中国科学院物理研究所",), "CN", "Beijing"),
    ("Institute of Chemistry, Chinese Academy of Sciences", ("ICCAS",), ("中国科学院化学研究所",), "CN", "Beijing"),
    ("Institute of Computing Technology, Chinese Academy of Sciences", (), ("中国科学院计算技术研究所",), "CN", "Beijing"),
    ("Shenzhen Institutes of Advanced Technology", ("SIAT",), ("中国科学院深圳先进技术研究院",), "CN", "Shenzhen"),
    ("Kunming Institute of Zoology", ("KIZ",), ("中国科学院昆明动物研究所",), "CN", "Kunming"),
    ("Peking University", ("PKU",), ("北京大学", "北京大學"), "CN", "Beijing"),
    ("Tsinghua University", ("THU",), ("清华大学", "清華大學"), "CN", "Beijing"),
    ("Fudan University", (), ("复旦大学", "復旦大學"), "CN", "Shanghai"),
    ("Shanghai Jiao Tong University", ("SJTU",), ("上海交通大学", "上海交通大學"), "CN", "Shanghai"),
    ("Zhejiang University", ("ZJU",), ("浙江大学", "浙江大學"), "CN", "Hangzhou"),
    ("University of Science and Technology of China", ("USTC",), ("中国科学技术大学",), "CN", "Hefei"),
    ("Sun Yat-sen University", ("SYSU",), ("中山大学", "中山大學"), "CN", "Guangzhou"),
    ("Huazhong University of Science and Technology", ("HUST",), ("华中科技大学",), "CN", "Wuhan"),
    ("Xi'an Jiaotong University", ("XJTU",), ("西安交通大学",), "CN", "Xi'an"),
    ("Harbin Institute of Technology", ("HIT",), ("哈尔滨工业大学",), "CN", "Harbin"),
    ("Beijing Normal University", ("BNU",), ("北京师范大学",), "CN", "Beijing"),
    ("East China Normal University", ("ECNU",), ("华东师范大学",), "CN", "Shanghai"),
    ("Central South University", ("CSU",), ("中南大学",), "CN", "Changsha"),
    ("China Agricultural University", ("CAU",), ("中国农业大学",), "CN", "Beijing"),
    ("South China University of Technology", ("SCUT",), ("华南理工大学",), "CN", "Guangzhou"),
    ("Dalian University of Technology", ("DUT",), ("大连理工大学",), "CN", "Dalian"),
    ("Northeastern University", ("NEU",), ("东北大学",), "CN", "Shenyang"),
    ("Northwestern Polytechnical University", ("NWPU",), ("西北工业大学",), "CN", "Xi'an"),
    ("Southern University of Science and Technology", ("SUSTech",), ("南方科技大学",), "CN", "Shenzhen"),
    ("Capital Medical University", ("CCMU",), ("首都医科大学",), "CN", "Beijing"),
    ("Peking Union Medical College", ("PUMC",), ("北京协和医学院",), "CN", "Beijing"),
    ("Peking Union Medical College Hospital", ("PUMCH",), ("北京协和医院", "中国医学科学院北京协和医院"), "CN", "Beijing"),
    ("Chinese PLA General Hospital", (), ("中国人民解放军总医院",), "CN", "Beijing"),
    ("Chinese Center for Disease Control and Prevention", ("China CDC",), ("中国疾病预防控制中心",), "CN", "Beijing"),
    ("National Center for Nanoscience and Technology", ("NCNST",), ("国家纳米科学中心",), "CN", "Beijing"),
    ("Ocean University of China", ("OUC",), ("中国海洋大学",), "CN", "Qingdao"),
    ("Kunming University of Science and Technology", ("KUST",), ("昆明理工大学",), "CN", "Kunming"),
    ("University of Hong Kong", ("HKU",), ("香港大学", "香港大學"), "HK", "Hong Kong"),
    ("Chinese University of Hong Kong", ("CUHK",), ("香港中文大学", "香港中文大學"), "HK", "Hong Kong"),
    ("Hong Kong University of Science and Technology", ("HKUST",), ("香港科技大学", "香港科技大學"), "HK", "Hong Kong"),
    ("National Taiwan University", ("NTU",), ("國立臺灣大學", "国立台湾大学", "臺灣大學"), "TW", "Taipei"),
    ("National Cheng Kung University", ("NCKU",), ("國立成功大學", "国立成功大学"), "TW", "Tainan"),
    ("University of Macau", ("UM",), ("澳门大学", "澳門大學"), "MO", "Macau"),
)
# fmt: on

# "<place>医科大学" -> "<Place> Medical University": Chinese names built from a place and a kind.
# fmt: off
_ZH_KINDS: tuple[tuple[str, str], ...] = (
    ("中医药大学", "{} University of Chinese Medicine"),
    ("医科大学", "{} Medical University"),
    ("师范大学", "{} Normal University"),
    ("理工大学", "{} University of Technology"),
    ("工业大学", "{} University of Technology"),
    ("科技大学", "{} University of Science and Technology"),
    ("农业大学", "{} Agricultural University"),
    ("财经大学", "{} University of Finance and Economics"),
    ("交通大学", "{} Jiaotong University"),
    ("大学", "{} University"),
)
# fmt: on


# fmt: off
_ORDINALS = {
    "一": "First", "二": "Second", "三": "Third", "四": "Fourth", "五": "Fifth", "六": "Sixth", "七": "Seventh",
    "八": "Eighth", "九": "Ninth", "十": "Tenth",
}
# fmt: on
_AFFILIATED_HOSPITAL = re.compile(
    r"^(.+?(?:大学|大學))(?:医学院|醫學院)?(?:附属)?第([一二三四五六七八九十])(?:附属)?医院$"
)


def translate_chinese_name(name: str) -> str | None:
    """English name of a Chinese institution named after its place, or None ('郑州大学' -> 'Zhengzhou
    University'; '郑州大学第一附属医院' -> 'The First Affiliated Hospital of Zhengzhou University')."""
    hospital = _AFFILIATED_HOSPITAL.match(name)
    if hospital:
        university = translate_chinese_name(hospital.group(1))
        ordinal = _ORDINALS[hospital.group(2)]
        return f"The {ordinal} Affiliated Hospital of {university}" if university else None
    gazetteer = get_gazetteer()
    for suffix, template in _ZH_KINDS:
        if not name.endswith(suffix):
            continue
        place = name[: -len(suffix)].removesuffix("省").removesuffix("市")
        province = next((en for en, zh in CN_PROVINCES.items() if place in zh), None)
        if province:
            return template.format(province)
        city = gazetteer.best(place, "CN")
        if city is not None and 2 <= len(place) <= 4:
            return template.format(city.name)
        return None
    return None


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9\u4e00-\u9fff]+", "-", fold(text)).strip("-")[:80] or "institution"


@lru_cache(maxsize=1)
def builtin_records() -> tuple[RegistryRecord, ...]:
    gazetteer = get_gazetteer()
    records = []
    for name, acronyms, labels, country, city in _BUILTIN:
        place = gazetteer.best(city, country)
        records.append(
            RegistryRecord(
                id=f"builtin:{slug(name)}",
                name=name,
                acronyms=list(acronyms),
                labels=list(labels),
                city=place.name if place else city,
                country_code=country,
                latitude=place.latitude if place else None,
                longitude=place.longitude if place else None,
                types=["education"],
            )
        )
    return tuple(records)
