"""Word lists the generated universe draws from: institutions, people, journals, MeSH headings.

The institutions are real (names, ROR ids and city coordinates copied from the shared ROR registry
extract) so that affiliation parsing and geocoding tests see the values real services return. The
people are invented; the Chinese names are common pinyin surnames and given names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Institution:
    name: str
    name_zh: str | None
    ror: str  # bare ROR id
    openalex_id: str  # "I..." (invented but stable)
    city: str
    city_zh: str | None
    region: str | None
    country_code: str
    country: str
    latitude: float
    longitude: float
    postcode: str
    email_domain: str
    kind: str = "education"


INSTITUTIONS: tuple[Institution, ...] = (
    Institution("Zhejiang University", "浙江大学", "00a2xv884", "I76130692", "Hangzhou", "杭州", "Zhejiang", "CN", "China", 30.29365, 120.16142, "310058", "zju.edu.cn"),
    Institution("Peking University", "北京大学", "02v51f717", "I20231570", "Beijing", "北京", "Beijing", "CN", "China", 39.9075, 116.39723, "100871", "pku.edu.cn"),
    Institution("Tsinghua University", "清华大学", "03cve4549", "I99065089", "Beijing", "北京", "Beijing", "CN", "China", 39.9075, 116.39723, "100084", "tsinghua.edu.cn"),
    Institution("Fudan University", "复旦大学", "013q1eq08", "I24943067", "Shanghai", "上海", "Shanghai", "CN", "China", 31.22222, 121.45806, "200433", "fudan.edu.cn"),
    Institution("Sun Yat-sen University", "中山大学", "0064kty71", "I157773358", "Guangzhou", "广州", "Guangdong", "CN", "China", 23.11667, 113.25, "510080", "mail.sysu.edu.cn"),
    Institution("Shanghai Jiao Tong University", "上海交通大学", "0220qvk04", "I183067930", "Shanghai", "上海", None, "CN", "China", 31.22222, 121.45806, "200240", "sjtu.edu.cn"),
    Institution("Wuhan University", "武汉大学", "033vjfk17", "I37461747", "Wuhan", "武汉", None, "CN", "China", 30.58333, 114.26667, "430072", "whu.edu.cn"),
    Institution("Sichuan University", "四川大学", "011ashp19", "I24185976", "Chengdu", "成都", "Sichuan", "CN", "China", 30.66667, 104.06667, "610041", "scu.edu.cn"),
    Institution("Chinese Academy of Sciences", "中国科学院", "034t30j35", "I19820366", "Beijing", "北京", "Beijing", "CN", "China", 39.9075, 116.39723, "100190", "cas.cn", "government"),
    Institution("Harvard University", None, "03vek6s52", "I136199984", "Cambridge", None, "Massachusetts", "US", "United States", 42.3751, -71.10561, "MA 02138", "harvard.edu"),
    Institution("Stanford University", None, "00f54p054", "I97018004", "Stanford", None, "California", "US", "United States", 37.42411, -122.16608, "CA 94305", "stanford.edu"),
    Institution("Massachusetts Institute of Technology", None, "042nb2s44", "I63966007", "Cambridge", None, "Massachusetts", "US", "United States", 42.3751, -71.10561, "MA 02139", "mit.edu"),
    Institution("University of Oxford", None, "052gg0110", "I40120149", "Oxford", None, "England", "GB", "United Kingdom", 51.75222, -1.25596, "OX3 9DU", "ox.ac.uk"),
    Institution("University of Cambridge", None, "013meh722", "I241749", "Cambridge", None, "England", "GB", "United Kingdom", 52.2, 0.11667, "CB2 0QQ", "cam.ac.uk"),
    Institution("Karolinska Institutet", None, "056d84691", "I28166907", "Stockholm", None, "Stockholm", "SE", "Sweden", 59.32938, 18.06871, "171 77", "ki.se"),
    Institution("Charité - Universitätsmedizin Berlin", None, "001w7jn25", "I7877124", "Berlin", None, "State of Berlin", "DE", "Germany", 52.52437, 13.41053, "10117", "charite.de", "healthcare"),
    Institution("University of Toronto", None, "03dbr7087", "I185261750", "Toronto", None, "Ontario", "CA", "Canada", 43.70643, -79.39864, "ON M5S 1A8", "utoronto.ca"),
    Institution("McGill University", None, "01pxwe438", "I5023651", "Montreal", None, "Quebec", "CA", "Canada", 45.50884, -73.58781, "QC H3A 0G4", "mcgill.ca"),
    Institution("Seoul National University", None, "04h9pn542", "I139264467", "Seoul", None, "Seoul", "KR", "South Korea", 37.566, 126.9784, "08826", "snu.ac.kr"),
    Institution("Utrecht University", None, "04pp8hn57", "I193662353", "Utrecht", None, "Utrecht", "NL", "The Netherlands", 52.09083, 5.12222, "3584 CS", "uu.nl"),
    Institution("University of Copenhagen", None, "035b05819", "I124055696", "Copenhagen", None, "Capital Region", "DK", "Denmark", 55.67594, 12.56553, "2200", "ku.dk"),
    Institution("ETH Zurich", None, "05a28rw58", "I35440088", "Zurich", None, "Zurich", "CH", "Switzerland", 47.36667, 8.55, "8092", "ethz.ch"),
    Institution("National University of Singapore", "新加坡国立大学", "01tgyzw49", "I165932596", "Singapore", None, None, "SG", "Singapore", 1.28967, 103.85007, "117597", "nus.edu.sg"),
    Institution("University of Cape Town", None, "03p74gp79", "I185163786", "Rondebosch", None, "Western Cape", "ZA", "South Africa", -33.96333, 18.47639, "7701", "uct.ac.za"),
)  # fmt: skip

CHINESE_INSTITUTIONS = tuple(i for i, inst in enumerate(INSTITUTIONS) if inst.country_code == "CN")
OTHER_INSTITUTIONS = tuple(i for i, inst in enumerate(INSTITUTIONS) if inst.country_code != "CN")

# (English, Chinese) department names
DEPARTMENTS: tuple[tuple[str, str], ...] = (
    ("Department of Cardiology", "心内科"),
    ("School of Medicine", "医学院"),
    ("Department of Computer Science", "计算机科学系"),
    ("School of Public Health", "公共卫生学院"),
    ("Department of Neurology", "神经内科"),
    ("Department of Biomedical Engineering", "生物医学工程系"),
    ("Institute of Automation", "自动化研究所"),
    ("Department of Epidemiology", "流行病学系"),
    ("State Key Laboratory of Brain and Cognitive Science", "脑与认知科学国家重点实验室"),
    ("Department of Electrical Engineering", "电子工程系"),
    ("Department of Pharmacology", "药理学系"),
    ("Center for Data Science", "数据科学中心"),
)

CHINESE_FAMILY = (
    "Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou",
    "Xu", "Sun", "Ma", "Zhu", "Hu", "Guo", "He", "Lin", "Gao", "Luo",
)  # fmt: skip
CHINESE_GIVEN = (
    "Wei", "Fang", "Min", "Jing", "Lei", "Jun", "Yang", "Yan", "Tao", "Ming", "Chao", "Xiaoming",
    "Jianguo", "Hui", "Yuxin", "Zhiwei", "Xinyu", "Haoran", "Yiting", "Qiang", "Li", "Na",
)  # fmt: skip
OTHER_FAMILY = (
    "Smith", "Johnson", "Müller", "García", "Rossi", "Dubois", "Andersson", "Kowalski", "Tanaka", "Kim",
    "Patel", "Silva", "Nguyen", "O'Brien", "van der Berg", "Schmidt", "Novak", "Cohen", "Murphy", "Larsen",
    "Park", "Jensen", "Martin", "Brown", "Okafor", "Hernández",
)  # fmt: skip
OTHER_GIVEN = (
    "James", "Maria", "Anna", "David", "Sophie", "Lukas", "Elena", "Thomas", "Sarah", "Jonas",
    "Aisha", "Pierre", "Yuki", "Min-jun", "Priya", "Carlos", "Emma", "Oliver", "Ingrid", "Mateo",
)  # fmt: skip

COLLECTIVE_NAMES = (
    "CHARM Investigators",
    "China Kadoorie Biobank Collaborative Group",
    "Global Burden of Disease Study Collaborators",
    "ENIGMA Consortium",
)

# (title, ISO abbreviation, ISSN, NLM country)
JOURNALS: tuple[tuple[str, str, str, str], ...] = (
    ("Nature communications", "Nat Commun", "2041-1723", "England"),
    ("Scientific reports", "Sci Rep", "2045-2322", "England"),
    ("PloS one", "PLoS One", "1932-6203", "United States"),
    ("IEEE journal of biomedical and health informatics", "IEEE J Biomed Health Inform", "2168-2194", "United States"),
    ("Frontiers in neuroscience", "Front Neurosci", "1662-4548", "Switzerland"),
    ("The Lancet. Digital health", "Lancet Digit Health", "2589-7500", "England"),
    ("Journal of the American Medical Informatics Association : JAMIA", "J Am Med Inform Assoc", "1067-5027", "England"),
    ("Chinese medical journal", "Chin Med J (Engl)", "0366-6999", "China"),
    ("NeuroImage", "Neuroimage", "1053-8119", "United States"),
    ("Bioinformatics (Oxford, England)", "Bioinformatics", "1367-4803", "England"),
    ("Medical image analysis", "Med Image Anal", "1361-8415", "Netherlands"),
    ("BMJ open", "BMJ Open", "2044-6055", "England"),
)  # fmt: skip

# DOI registrant prefix and a journal code used to shape a plausible DOI suffix
DOI_PREFIXES: tuple[tuple[str, str], ...] = (
    ("10.1038", "s41467-{year}-{num}"),
    ("10.1016", "j.neuroimage.{year}.{num}"),
    ("10.1371", "journal.pone.{num}"),
    ("10.1109", "JBHI.{year}.{num}"),
    ("10.3389", "fnins.{year}.{num}"),
    ("10.1093", "bioinformatics/btab{num}"),
    ("10.1136", "bmjopen-{year}-{num}"),
    ("10.1002", "SIM.{num}"),
)

# A few real MeSH descriptors (UI, heading) for generated PubMed records.
MESH: tuple[tuple[str, str], ...] = (
    ("D006801", "Humans"),
    ("D008297", "Male"),
    ("D005260", "Female"),
    ("D008875", "Middle Aged"),
    ("D000368", "Aged"),
    ("D000328", "Adult"),
    ("D000077321", "Deep Learning"),
    ("D016571", "Neural Networks, Computer"),
    ("D000069550", "Machine Learning"),
    ("D004562", "Electrocardiography"),
    ("D001281", "Atrial Fibrillation"),
    ("D006973", "Hypertension"),
    ("D003920", "Diabetes Mellitus"),
    ("D008279", "Magnetic Resonance Imaging"),
    ("D012372", "ROC Curve"),
    ("D015203", "Reproducibility of Results"),
    ("D002681", "China"),
    ("D035843", "Biomarkers"),
    ("D011379", "Prognosis"),
    ("D012189", "Retrospective Studies"),
)

QUALIFIERS: tuple[tuple[str, str], ...] = (
    ("Q000000981", "diagnostic imaging"),
    ("Q000175", "diagnosis"),
    ("Q000379", "methods"),
    ("Q000503", "physiopathology"),
    ("Q000453", "epidemiology"),
)

TOPIC_WORDS = (
    "cohort", "multicentre", "prospective", "explainable", "federated", "transformer", "wearable",
    "longitudinal", "self-supervised", "multimodal", "real-world", "population-based", "benchmark",
    "robust", "interpretable", "lightweight", "graph-based", "attention-based", "contrastive", "external",
    "validation", "screening", "early", "automated", "bayesian", "causal", "temporal", "spatial",
)  # fmt: skip
DESIGNS = (
    "a retrospective cohort study", "a randomized controlled trial", "a systematic review and meta-analysis",
    "a cross-sectional study", "a multicentre validation study", "a deep learning approach",
    "a prospective observational study", "a benchmark study",
)  # fmt: skip
POPULATIONS = (
    "adults", "older adults", "children", "patients with heart failure", "Chinese adults", "pregnant women",
    "intensive care patients", "primary care", "a national registry", "rural communities",
)  # fmt: skip
SENTENCES = {
    "BACKGROUND": (
        "{topic} remains a major challenge for clinical practice and research.",
        "Evidence on {topic} in {population} is limited and inconsistent.",
        "Reliable methods for {topic} are needed to support decisions at scale.",
    ),
    "METHODS": (
        "We analysed {n} participants from {sites} sites and developed a {word} model for {topic}.",
        "Data from {n} {population} were split into training, validation and external test sets.",
        "We compared {word} methods with conventional approaches using cross-validation.",
    ),
    "RESULTS": (
        "The model achieved an AUC of 0.{auc} (95% CI 0.{lo}-0.{hi}) in the external test set.",
        "{topic} was associated with a hazard ratio of 1.{hr} after adjustment for confounders.",
        "Performance was consistent across subgroups defined by age, sex and site.",
    ),
    "CONCLUSIONS": (
        "{topic} can be performed accurately with {word} methods.",
        "These findings support the use of {word} approaches for {topic} in {population}.",
    ),
}
NLM_CATEGORY = {
    "BACKGROUND": "BACKGROUND",
    "METHODS": "METHODS",
    "RESULTS": "RESULTS",
    "CONCLUSIONS": "CONCLUSIONS",
}

FIELDS_OF_STUDY = ("Medicine", "Computer Science", "Biology", "Engineering", "Psychology")
