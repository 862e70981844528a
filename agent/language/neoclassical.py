"""Neoclassical English words for Chinese compounds of a body part and a bound procedure morpheme.

Why: Chinese writes an organ's procedures with a bound head after the organ's plain name (腹腔|镜 "abdominal
cavity" + "mirror", 肝|切除术 "liver" + "excision technique", 气管|切开术), where English writes one
neoclassical word: a Greek or Latin combining form of the organ and an ending (laparo-scopy, hepat-ectomy,
tracheo-tomy). CC-CEDICT lists a few such words (胃镜 gastroscope) and lacks most, so a composition of the
parts' senses gave "abdominal cavity mirror" and "liver excise technique", which no searcher writes.

Two closed classes of word formation make the English word:
- `PROCEDURE_HEADS`: the Chinese bound heads and the English endings they take (镜 -oscopy/-oscope, 切除术
  -ectomy, 切开术 -otomy, 造口术 -ostomy, 成形术 -oplasty, a cell body's 体 -osome, and the verbs of arising
  发生, 新生, 生成 -ogenesis: 神经|发生 neurogenesis, 血管|新生 angiogenesis);
- `COMBINING_FORMS`: the Greek and Latin combining forms English builds these words on, by the plain English
  word of the body part (abdomen, abdominal -> lapar-, celi-; bladder -> cyst-; uterus -> hyster-); an
  organ's own name or its Latin adjective's stem is tried as well (disk -> disk-ectomy, thoracic -> thorac-).

The same word formation makes the modifiers of many other terms: a Chinese morpheme before a head is,
in English, a Greek or Latin combining form closed up with the head (脂|多糖 "fat" + "polysaccharide" is
"lipopolysaccharide", 小|胶质|细胞 "small colloid cell" is "microglial cell"), and a lineage after a tissue
is an "-oid" adjective (髓|系 "marrow system" is "myeloid", 淋巴|系 "lymphoid"). `MORPHEME_FORMS` holds
these forms by the Chinese morpheme (a closed-up prefix ends in "+", as in the glossary) and
`LINEAGE_ENDINGS` the endings; both are used only inside a span the vocabulary attests whole.

An immature cell of a tissue is written in Chinese as the tissue and 母细胞 "mother cell", in English as
the tissue's combining form and "-blast" (神经|母|细胞 "neuroblast"), its tumour with 瘤 as "-blastoma"
(胶质|母|细胞|瘤 "glioblastoma", 视网膜|母|细胞|瘤 "retinoblastoma", 肝|母|细胞|瘤 "hepatoblastoma"):
`blast_words` makes these words, which the caller keeps where the vocabulary attests them.

A place or time relative to a thing is written in Chinese as the thing and a localizer after it (牙|周
"tooth" + "around", 学龄|前 "school age" + "before", 绝经|后 "menopause" + "after", 肋|间 "rib" + "between"),
in English as a Latin preposition prefixed to the thing's word or its combining form's adjective
(peri-odont-al, pre-school age, post-menopaus-al, inter-cost-al; outside, 外, extra- or Greek para-, whose
"a" elides before a vowel: par-enter-al); inside an organ English may also write the organ's adjective
alone (肠|内|营养 "enteral nutrition"), tried after the prefixed forms: `LOCATIVE_PREFIXES` and
`located_words`; the caller keeps a word only where the vocabulary writes it.

The forms made are guesses: the caller (`agent.language.bilingual`) keeps one only where its vocabulary
(MeSH) attests it, so "lobectomy", which MeSH does not write, is not made up, and "cystectomy" is not taken
for a gall bladder whose whole name has a form of its own (gall bladder -> cholecyst-).
"""

from __future__ import annotations

from agent.language.body_parts import adjective_stems, noun_stem

# Chinese bound heads of procedures on an organ (one dictionary key, or two joined: 切除|术) and the endings
# English writes for them, the procedure first (腹腔镜 is the instrument and, before a head, the approach)
PROCEDURE_HEADS: dict[str, tuple[str, ...]] = {
    "镜": ("oscopy", "oscope"),
    "切除术": ("ectomy",),
    "切开术": ("otomy",),
    "造口术": ("ostomy",),
    "造瘘术": ("ostomy",),
    "成形术": ("oplasty",),
    # not a procedure but the same word formation: a cell body named by what it does or holds (自噬|体
    # autophago-some, 内|体 endo-some, 外泌|体 exo-some)
    "体": ("osome",),
    # nor is the coming into being of a tissue or an organ (神经|发生 neuro-genesis, 血管|新生 angio-genesis,
    # 骨|生成 osteo-genesis): English writes one word with "-genesis" where Chinese writes the part and a verb
    # of arising
    "发生": ("ogenesis",),
    "新生": ("ogenesis",),
    "生成": ("ogenesis",),
}
MAX_HEAD_KEYS = 2

# Greek and Latin combining forms of body parts, by the English words a dictionary renders the part with
# (nouns and their adjectives). English word formation, like the Latin adjective endings of `body_parts`.
COMBINING_FORMS: dict[str, tuple[str, ...]] = {
    "abdomen": ("lapar", "celi"),
    "abdominal": ("lapar", "celi"),
    "belly": ("lapar",),
    "bladder": ("cyst",),
    "urinary bladder": ("cyst",),
    "gall bladder": ("cholecyst",),
    "gallbladder": ("cholecyst",),
    "uterus": ("hyster",),
    "womb": ("hyster",),
    "uterine": ("hyster",),
    "kidney": ("nephr",),
    "renal": ("nephr",),
    "stomach": ("gastr",),
    "gastric": ("gastr",),
    "liver": ("hepat",),
    "hepatic": ("hepat",),
    "lung": ("pneumon", "pneum"),
    "pulmonary": ("pneumon", "pneum"),
    "chest": ("thorac",),
    "thorax": ("thorac",),
    "thoracic": ("thorac",),
    "pleura": ("pleur",),
    "joint": ("arthr",),
    "throat": ("laryng", "pharyng"),
    "larynx": ("laryng",),
    "pharynx": ("pharyng",),
    "windpipe": ("trache",),
    "trachea": ("trache",),
    "bronchus": ("bronch",),
    "esophagus": ("esophag",),
    "oesophagus": ("esophag",),
    "intestine": ("enter",),
    "bowel": ("enter", "col"),
    "small intestine": ("enter",),
    "large intestine": ("col",),
    "colon": ("col", "colon"),
    "rectum": ("proct", "rect"),
    "anus": ("proct",),
    "duodenum": ("duoden",),
    "appendix": ("append", "appendic"),
    "spleen": ("splen",),
    "pancreas": ("pancreat",),
    "prostate": ("prostat",),
    "breast": ("mast", "mamm"),
    "ovary": ("oophor", "ovari"),
    "fallopian tube": ("salping",),
    "vagina": ("colp",),
    "nose": ("rhin",),
    "nasal": ("rhin",),
    "sinus": ("sinus",),
    "ear": ("ot",),
    "tonsil": ("tonsill",),
    "thyroid": ("thyroid",),
    "gland": ("aden",),
    "vein": ("phleb", "ven"),
    "artery": ("arteri",),
    "blood vessel": ("angi",),
    "heart": ("cardi",),
    "pericardium": ("pericardi",),
    "brain": ("encephal",),
    "skull": ("crani",),
    "cranium": ("crani",),
    "bone": ("oste",),
    "vertebra": ("vertebr", "spondyl"),
    "spine": ("spondyl",),
    "disk": ("disk", "disc"),
    "disc": ("disc", "disk"),
    "intervertebral disk": ("disk", "disc"),
    "intervertebral disc": ("disc", "disk"),
    "nerve": ("neur",),
    "cell": ("cellul",),
    "tooth": ("odont", "dent"),
    "teeth": ("odont", "dent"),
    "rib": ("cost",),
    "eye socket": ("orbit",),
    "orbit": ("orbit",),
    "muscle": ("my",),
    "ureter": ("ureter",),
    "urethra": ("urethr",),
    "outside": ("exo",),
    "external": ("exo",),
    "inside": ("endo",),
    "inner": ("endo",),
    "internal": ("endo",),
}
MAX_FORMS = 12

# Greek and Latin forms of Chinese morphemes before a head: closed-up prefixes ("+") and the adjectives
# English writes for the morpheme in terms (胶质 "colloid" is "glial" in neuroscience's terms). English
# word formation of a closed class (size, number, the body's tissues), not any case's words.
MORPHEME_FORMS: dict[str, tuple[str, ...]] = {
    "小": ("micro+",),
    "微": ("micro+",),
    "大": ("macro+",),
    "巨": ("macro+", "mega+"),
    "多": ("poly+", "multi+"),
    "单": ("mono+",),
    "双": ("bi+", "di+"),
    "半": ("semi+", "hemi+"),
    "全": ("pan+",),
    "超": ("ultra+", "hyper+"),
    "高": ("hyper+",),
    "低": ("hypo+",),
    "抗": ("anti+",),
    "异": ("hetero+", "allo+"),
    "同": ("homo+", "iso+"),
    "自": ("auto+",),
    "内": ("endo+", "intra+"),
    "外": ("exo+", "extra+"),
    "脂": ("lipo+", "lipid"),
    "糖": ("glyco+",),
    "髓": ("myelo+",),
    "胶质": ("glial", "glio+"),
    "吞噬": ("phagocytic", "phago+"),
    "细胞": ("cyto+", "cellular"),
    "光": ("photo+",),
    "热": ("thermo+",),
    "水": ("hydro+",),
    "电": ("electro+",),
    "血": ("hemo+", "hemato+"),
    "肝": ("hepato+",),
    "肾": ("nephro+", "reno+"),
    "心": ("cardio+",),
    "肺": ("pneumo+",),
    "骨": ("osteo+",),
    "肌": ("myo+",),
    "神经": ("neuro+",),
    "淋巴": ("lympho+",),
    "红": ("erythro+",),
    # a sac of the body is Greek kystis: 囊|性 "cystic", 多|囊 "polycystic", 胆|囊 "cholecyst-"
    "囊": ("cystic", "cysto+"),
}
# endings a morpheme after a blood-forming tissue takes as one English adjective (髓|系 "myeloid", 淋巴|系
# "lymphoid", 红|系 "erythroid"), built on the tissue's forms in `MORPHEME_FORMS` only; after any other
# word 系 is a system or a line (细胞|系 "cell line")
LINEAGE_ENDINGS: dict[str, tuple[str, ...]] = {"系": ("oid",)}
LINEAGE_TISSUES = frozenset(["髓", "淋巴", "红"])


def morpheme_forms(chinese: str) -> tuple[str, ...]:
    """The Greek and Latin forms of a Chinese morpheme before a head (脂 -> "lipo+", "lipid"); none for
    most words."""
    return MORPHEME_FORMS.get(chinese, ())


def lineage_words(chinese: str, ending_key: str) -> tuple[str, ...]:
    """The "-oid" adjectives of a tissue morpheme and a lineage ending (髓, 系 -> "myeloid"); guesses that
    a caller keeps only inside a term its vocabulary attests."""
    out: list[str] = []
    if chinese not in LINEAGE_TISSUES:
        return ()
    for ending in LINEAGE_ENDINGS.get(ending_key, ()):
        for form in morpheme_forms(chinese):
            if not form.endswith("+"):
                continue
            stem = form[:-1]
            stem = stem[:-1] if stem.endswith("o") and ending.startswith("o") else stem
            out.append(stem + ending)
    return tuple(dict.fromkeys(out))


# the keys of the "mother cell" an immature cell is named with (胶质|母|细胞) and the endings English writes
BLAST_KEYS = ("母", "细胞")
BLAST_ENDING = "blast"
BLAST_TUMOUR_KEY = "瘤"  # after the cell: its tumour, "-blastoma"


def blast_head(keys: list[str], start: int) -> int:
    """How many keys an immature cell's head takes at `start` after a word: 2 for 母|细胞 ("-blast"), 3 for
    母|细胞|瘤 ("-blastoma"), 0 elsewhere."""
    if start == 0 or tuple(keys[start : start + 2]) != BLAST_KEYS:
        return 0
    return 3 if keys[start + 2 : start + 3] == [BLAST_TUMOUR_KEY] else 2


def blast_words(chinese: str, senses: tuple[str, ...], tumour: bool) -> tuple[str, ...]:
    """The neoclassical words of a tissue (its Chinese morpheme and English senses) and "-blast" ("glio+" ->
    "glioblast", retina -> "retinoblast"), with "-oma" for its tumour ("glioblastoma"). Guesses: a caller
    keeps only those its vocabulary attests."""
    stems = [form[:-1] for form in morpheme_forms(chinese) if form.endswith("+")]
    stems += [stem for sense in senses for stem in _stems(sense) if len(stem) >= 3]
    ending = BLAST_ENDING + ("oma" if tumour else "")
    words = [stem + ending if stem.endswith("o") else stem + "o" + ending for stem in dict.fromkeys(stems)]
    return tuple(dict.fromkeys(words))[:MAX_FORMS]


# localizers written after a thing and the Latin prefixes English writes before its word (a closed class)
LOCATIVE_PREFIXES: dict[str, tuple[str, ...]] = {
    "前": ("pre",),
    "后": ("post",),
    "周": ("peri",),
    # inside an organ, English may write the organ's Latin or Greek adjective alone (肠|内 "enteral", as in
    # enteral nutrition; the prefix-less form is the empty prefix)
    "内": ("intra", ""),
    "间": ("inter",),
    # outside an organ: Latin extra- (extracranial), or Greek para- "beside", whose "a" elides before a
    # vowel (肠|外 "parenteral")
    "外": ("extra", "para", "par"),
}
PLACE_LOCALIZERS = frozenset("周内间外")  # the others (前, 后) are times too
_LOCATIVE_ENDINGS = ("al", "ic", "ar", "")
_ADJECTIVE_ENDINGS = ("al", "ic", "ar", "ive", "ous", "ary", "ed")


def located_words(senses: tuple[str, ...], localizer: str) -> tuple[str, ...]:
    """The English words of a thing's senses and a localizer after it (tooth, 周 -> "periodontal"; school
    age, 前 -> "preschool age"; menopause, 后 -> "postmenopausal"): the prefix before the first word of a
    sense, or before its combining forms with an adjective ending; the rest of the sense follows. Guesses:
    a caller keeps a word only where its vocabulary writes it."""
    # each prefix's forms in turn, each cut at the limit: a later prefix (the bare adjective of 内) is tried
    # after the earlier one's, never instead of them
    out = [form for prefix in LOCATIVE_PREFIXES.get(localizer, ()) for form in _prefixed(senses, prefix)]
    return tuple(dict.fromkeys(out))


def _prefixed(senses: tuple[str, ...], prefix: str) -> tuple[str, ...]:
    out: list[str] = []
    for sense in senses:
        words = sense.lower().split()
        if not words or not all(word.isalpha() and word.isascii() for word in words):
            continue
        first, rest = words[0], words[1:]
        if rest and first.endswith(_ADJECTIVE_ENDINGS):
            continue  # the prefix goes on a noun: "medical treatment" is no "premedical treatment"
        stems = [first, *COMBINING_FORMS.get(" ".join(words), ()), *COMBINING_FORMS.get(first, ())]
        stems += [noun_stem(first), *adjective_stems(first)]
        for stem in dict.fromkeys(s for s in stems if len(s) >= 2):
            for ending in _LOCATIVE_ENDINGS:
                if ending and stem == first or not (prefix or ending):
                    continue  # "preschoolal": an ending goes on a stem, not on the whole word
                out.append(" ".join([prefix + stem + ending, *rest]))
    return tuple(dict.fromkeys(out))[: MAX_FORMS * 2]


def procedure_head(keys: list[str], start: int) -> tuple[str, int] | None:
    """The procedure head at `start` (in one key or two: 切除|术) after at least one key, and how many keys
    it takes; None elsewhere."""
    if start == 0:
        return None
    for size in range(MAX_HEAD_KEYS, 0, -1):
        if start + size <= len(keys):
            head = "".join(keys[start : start + size])
            if head in PROCEDURE_HEADS:
                return head, size
    return None


def _stems(sense: str) -> list[str]:
    """The combining forms a sense of a body part may take: the table's, by the whole sense or else by each
    of its words, then its one word's own stem and its adjective's stem (disk, thorac-ic)."""
    text = sense.lower().strip()
    if text in COMBINING_FORMS:
        return list(COMBINING_FORMS[text])
    words = text.split()
    out = [form for word in words for form in COMBINING_FORMS.get(word, ())]
    if len(words) == 1 and text.isalpha() and text.isascii():
        out += [text, noun_stem(text), *adjective_stems(text)]
    return out


def _join(stem: str, ending: str) -> str:
    """A stem and an ending: the ending's linking "o" merges with a stem's own (endo + oscopy)."""
    if ending.startswith("o") and stem.endswith("o"):
        return stem + ending[1:]
    return stem + ending


def procedure_words(senses: tuple[str, ...], head: str) -> tuple[str, ...]:
    """The neoclassical words of a body part's senses with a procedure head (abdominal cavity + 镜:
    "laparoscopy", "laparoscope", "celioscopy", ...). Guesses: most are no words, so a caller keeps only
    those its vocabulary attests."""
    endings = PROCEDURE_HEADS.get(head, ())
    stems = list(dict.fromkeys(stem for sense in senses for stem in _stems(sense) if len(stem) >= 2))
    words = [_join(stem, ending) for stem in stems for ending in endings]
    return tuple(dict.fromkeys(words))[:MAX_FORMS]


def procedure_adjective(word: str) -> str | None:
    """The adjective of a procedure word before a head ("laparoscopy" -> "laparoscopic"), None for a word
    English uses as it is there ("hepatectomy patients")."""
    if word.endswith("scopy"):
        return word[:-1] + "ic"
    if word.endswith("scope"):
        return word[:-1] + "ic"
    return None
