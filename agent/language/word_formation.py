"""Chinese word formation that English writes as one word or a hyphenated compound (no dictionary has it).

Why: a composition of dictionary senses renders each Chinese word alone, in Chinese order. Two classes of
words do not compose so: a verb after a noun that is its agent or means (机器人辅助 "robot-assisted", not
"robot supplementary"), and a head morpheme that English fuses to the word before it as a neoclassical
ending (黑色素瘤 "melanoma", 视网膜病变 "retinopathy"). Both are closed classes of Chinese word formation,
listed here like the anion prefixes of inorganic names; the fused forms are guesses that the caller uses
only when its vocabulary (MeSH) attests them.
"""

from __future__ import annotations

# verbs that, written after a noun inside a term, make it the agent or means of the verb: English says
# "noun-participle" (机器人辅助手术 "robot-assisted surgery", 阿霉素诱导 "doxorubicin-induced", 氮掺杂
# "nitrogen-doped", 护士主导 "nurse-led", 数据驱动 "data-driven"). A closed class of Chinese word
# formation, like the anion prefixes of `agent.language.bilingual`; any other verb there is its object's action (语音|解码
# "speech decoding").
PARTICIPLES = {
    "辅助": "assisted",
    "诱导": "induced",
    "介导": "mediated",
    "驱动": "driven",
    "主导": "led",
    "引导": "guided",
    "依赖": "dependent",
    "依赖性": "dependent",
    "掺杂": "doped",
    "负载": "loaded",
    "修饰": "modified",
    "包覆": "coated",
    "增强": "enhanced",
    "靶向": "targeted",
    "相关": "related",
}
# bound suffixes that make an adjective of the word before them (阻塞|性 "obstructive", 生成|式 "generative"):
# a lone one after a word is its suffix, not the first character of a word after it (缺血|性 "ischemic",
# not 缺 + 血性 "brave")
ADJECTIVE_SUFFIXES = frozenset("性式")
MAX_PARTICIPLE_KEYS = 2  # 掺杂 may reach the parts cut into its characters (掺|杂)
# nouns that are such a participle only before a head (干细胞|来源|外泌体 "stem cell-derived exosomes"): at the
# end of a phrase they are what they name (数据|来源 "data source")
# 样 "-like" takes the same place (焦虑|样|行为 "anxiety-like behavior", 抑郁|样|症状 "depression-like symptoms"), and
# so does 相关性, which jieba keeps whole: before a head it is 相关 "-related" with the adjective suffix 性
# (导管|相关性|血栓 "catheter-related thrombosis", 年龄|相关性|黄斑变性 "age-related macular degeneration"); at
# the end of a phrase it is the noun "correlation" (A与B的相关性)
HEADED_PARTICIPLES = {"来源": "derived", "衍生": "derived", "样": "like", "相关性": "related"}


def participle(keys: list[str], start: int) -> tuple[str, int] | None:
    """The English participle of a verb at `start` that is not the phrase's first word (in one key or
    cut into characters: 掺|杂), and how many keys it takes; None for any other word."""
    for size in range(MAX_PARTICIPLE_KEYS, 0, -1):
        verb = "".join(keys[start : start + size])
        if start > 0 and len(keys[start : start + size]) == size and verb in PARTICIPLES:
            return PARTICIPLES[verb], size
        if start > 0 and start + size < len(keys) and verb in HEADED_PARTICIPLES:
            return HEADED_PARTICIPLES[verb], size
    return None


# head morphemes that English fuses to the word before them as a neoclassical ending (黑色素|瘤 melanin +
# -oma "melanoma", 视网膜|病变 retina + -opathy "retinopathy", 视网膜|炎 "retinitis", 淋巴|瘤 "lymphoma")
COMBINING_ENDINGS = {
    "瘤": ("oma",),
    "炎": ("itis",),
    "病变": ("opathy", "pathy"),
    "病": ("opathy", "pathy"),
    # a field named by what it counts or surveys whole (蛋白质|组学 "proteomics", 代谢|组学 "metabolomics",
    # 科学|计量学 "scientometrics"): jieba cuts these endings into 组|学 and 计量|学 (see `BOUND_ENDINGS`)
    "组学": ("omics",),
    "计量学": ("ometrics", "metrics"),
}
# the combining endings written in two dictionary keys, joined back before they are rendered
BOUND_ENDINGS = {("组", "学"): "组学", ("计量", "学"): "计量学"}
_BOUND_ENDING_SENSES = {"组学": "omics", "计量学": "metrics"}


def bound_ending(keys: list[str], start: int) -> tuple[str, str, int] | None:
    """A combining ending cut into two keys at `start` (组|学), after a word: the ending, its plain English
    ("omics"), and how many keys it takes; None elsewhere."""
    if start == 0 or start + 1 >= len(keys):
        return None
    ending = BOUND_ENDINGS.get((keys[start], keys[start + 1]))
    if ending is None:
        return None
    return ending, _BOUND_ENDING_SENSES[ending], 2


_STEM_CUT = 3  # letters a stem may lose before the ending (melanin -> melan-oma)
_MIN_STEM = 4
MAX_FUSED = 8


def fused_forms(senses: tuple[str, ...], morpheme: str) -> tuple[str, ...]:
    """The one-word forms of the senses before `morpheme` fused with its endings, longest stems first
    (retina + -opathy: "retinaopathy", "retinopathy", ...). Guesses: most are no words, so a caller keeps
    only those its vocabulary attests."""
    endings = COMBINING_ENDINGS.get(morpheme, ())
    out: list[str] = []
    for sense in senses:
        word = sense.lower()
        if not endings or not word.isalpha() or not word.isascii():
            continue
        for size in range(len(word), max(_MIN_STEM, len(word) - _STEM_CUT) - 1, -1):
            out += [word[:size] + ending for ending in endings if word[:size] + ending not in out]
    return tuple(out[:MAX_FUSED])


# bound morphemes that close a term and that English leaves unsaid once the word before names the thing
# (生存|期 "survival", not "survival period"; 置换|术 "replacement", 切除|术 "resection"): the span without
# them is tried, and only kept where the vocabulary attests it
SILENT_HEADS = frozenset(["期", "术"])

# noun endings a Latin adjective replaces (ischem-ia -> ischem-ic, prostat-e -> prostat-ic, cortex ->
# cortic-al), and the adjective endings tried, most frequent first
_NOUN_ENDINGS = ("ia", "ium", "um", "us", "is", "a", "e", "y")
_LATIN_ADJECTIVES = ("ic", "al", "ar", "ary", "ous", "ial")
MAX_ADJECTIVES = 4


def adjective_guesses(noun: str) -> tuple[str, ...]:
    """Latin adjectives a one-word noun may take before a head (ischemia -> "ischemic", prostate ->
    "prostatic", cortex -> "cortical"). Guesses: a caller keeps one only inside a term its vocabulary
    attests ("ischemic stroke", "benign prostatic hyperplasia")."""
    word = noun.lower()
    if not word.isalpha() or not word.isascii() or len(word) < 5:
        return ()
    if word.endswith(("ence", "ance")):
        return (word[:-2] + "t",)  # coherence -> coherent, resistance -> resistant
    stems = [word[: -len(e)] for e in _NOUN_ENDINGS if word.endswith(e) and len(word) - len(e) >= _MIN_STEM]
    if word.endswith("x"):
        stems.append(word[:-2] + "ic" if word.endswith("ex") else word[:-1] + "c")  # cortex, thorax
    out = [stem + ending for stem in stems or [word] for ending in _LATIN_ADJECTIVES]
    return tuple(form for form in dict.fromkeys(out) if form != word)[:MAX_ADJECTIVES]


# regular action nouns that the "-ation"/"-ment" rules of `agent.language.english_forms` do not make:
# (verb ending, noun ending), tried as guesses only (survive -> survival, resect -> resection, excise ->
# excision, deny -> denial, inhibit -> inhibition, accept -> acceptance): a caller keeps one where its
# vocabulary attests the term, or where English is known to use the word (`english_forms.verb_nouns`)
_ACTION_ENDINGS = (
    ("ive", "ival"),
    ("ive", "ivation"),  # deprive -> deprivation, derive -> derivation
    ("ove", "oval"),
    ("ect", "ection"),
    ("ect", "ectation"),  # expect -> expectation
    ("ise", "ision"),
    ("ide", "ision"),
    ("uce", "uction"),
    ("ibe", "iption"),
    ("ume", "umption"),
    ("ain", "ention"),
    ("vent", "vention"),  # prevent -> prevention, invent -> invention
    ("y", "ial"),
    ("act", "action"),  # extract -> extraction
    ("ict", "iction"),  # predict -> prediction
    ("ibit", "ibition"),  # inhibit -> inhibition
    ("mit", "mission"),  # transmit -> transmission
    ("ess", "ession"),  # suppress -> suppression
    ("ept", "eptance"),  # accept -> acceptance
    ("ert", "ersion"),  # convert -> conversion
)


def action_noun_guesses(verb: str) -> tuple[str, ...]:
    """Action nouns a one-word verb may take at the head of a term (survive -> "survival", resect ->
    "resection", excise -> "excision"): guesses a caller keeps only where its vocabulary attests them."""
    word = verb.lower()
    if not word.isalpha() or not word.isascii() or len(word) < 4:
        return ()
    return tuple(
        word[: -len(ending)] + noun
        for ending, noun in _ACTION_ENDINGS
        if word.endswith(ending) and len(word) - len(ending) >= 2
    )


def span_action_noun_guesses(verb: str) -> tuple[str, ...]:
    """The action nouns a verb may take inside a term a vocabulary attests whole: the regular guesses
    and the "-ment" noun English forms from many verbs (replace -> "replacement" in "renal replacement
    therapy", engage -> "engagement"), which no ending of the verb predicts, so it is only ever tried where
    the judge knows the whole term."""
    word = verb.lower()
    guesses = action_noun_guesses(verb)
    if not word.isalpha() or not word.isascii() or len(word) < 4:
        return guesses
    return (*guesses, word + "ment")


# a condition of the blood named by what is in it (钙|血症 calcium + -emia, 菌|血症 "bacteremia"), too low or
# too high (低|钙|血症 "hypocalcemia", 高|尿酸|血症 "hyperuricemia"): Greek and Latin fuse the three
BLOOD_ENDING = ("血", "症")
LEVEL_PREFIXES = {"低": "hypo", "高": "hyper"}
_MAX_BLOOD_SUBSTANCE_KEYS = 2  # 尿|酸 "uric acid"


def blood_condition(keys: list[str], start: int) -> tuple[str, int, int] | None:
    """A blood condition starting at `start` (低|钙|血|症, 菌|血症): its Greek prefix ("hypo", "hyper" or ""),
    and the key ranges of the substance (start, end); the ending takes the keys after it to "症". None
    elsewhere."""
    prefix = LEVEL_PREFIXES.get(keys[start], "")
    first = start + 1 if prefix else start
    for end in range(first + 1, min(len(keys), first + _MAX_BLOOD_SUBSTANCE_KEYS) + 1):
        rest = keys[end : end + 2]
        if rest[:1] == ["血症"] or rest == list(BLOOD_ENDING):
            return prefix, first, end
    return None


def blood_condition_forms(substances: tuple[str, ...], prefix: str) -> tuple[str, ...]:
    """The one-word names of a blood condition (calcium, "hypo" -> "hypocalcemia", "hypocalciumemia", ...):
    guesses a caller keeps only where its vocabulary attests them."""
    out: list[str] = []
    for substance in substances:
        word = substance.lower().split()[0] if substance.strip() else ""
        if not word.isalpha() or not word.isascii():
            continue
        for size in range(len(word), max(_MIN_STEM - 1, len(word) - _STEM_CUT) - 1, -1):
            for ending in ("emia", "aemia"):
                form = prefix + word[:size] + ending
                if form not in out:
                    out.append(form)
    return tuple(out[: MAX_FUSED * 2])
