"""MeSH recognition inside free text, on the MeSH table ScholarMap ships."""

from __future__ import annotations

import pytest

from agent.language.mesh_recognition import (
    MeshVocabulary,
    joined_acronym,
    leading_acronym,
    natural_order,
    phrase_key,
    role_of,
    spelled_initials,
    tree_distance,
    word_key,
)
from agent.models import ConceptRole, MeshDescriptor


def headings(
    vocabulary: MeshVocabulary, text: str, defined: dict[str, str] | None = None
) -> list[tuple[str, str]]:
    return [(m.text, m.descriptor.heading) for m in vocabulary.recognize(text, defined)]


@pytest.mark.parametrize(
    ("written", "normalised"),
    [
        ("Oesophageal", "esophageal"),
        ("haemorrhage", "hemorrhage"),
        ("tumours", "tumor"),
        ("randomised", "randomized"),
        ("centre", "center"),
        ("person-centred", "person-centered"),  # the participle of "centre"
        ("hatred", "hatred"),
        ("β", "beta"),  # MeSH spells Greek letters: "TNF-α" is Tumor Necrosis Factor-alpha
        ("α", "alpha"),
        ("modelling", "modeling"),
        ("programmes", "program"),
        ("neurones", "neuron"),  # the British neuron, also inside "motoneurone"
        ("motoneurone", "motoneuron"),
        ("hormone", "hormone"),
        ("studies", "study"),
        ("children", "child"),
        ("diabetes", "diabetes"),  # not a plural
        ("sepsis", "sepsis"),
        ("metastases", "metastasis"),  # a Greek plural of "-sis"
        ("babies", "infant"),  # everyday words for people are MeSH's words
        ("Kids", "child"),
        ("mums", "mother"),
    ],
)
def test_words_are_normalised_for_spelling_and_number(written: str, normalised: str) -> None:
    assert word_key(written) == normalised


def test_phrases_lose_possessives_hyphens_and_inversions() -> None:
    assert phrase_key("Down's Syndrome") == phrase_key("down syndrome")
    assert phrase_key("low-back pain") == phrase_key("low back pain")
    assert natural_order("Diabetes, Gestational") == "Gestational Diabetes"
    assert (
        natural_order("Chorionic Gonadotropin, beta Subunit, Human")
        == "Chorionic Gonadotropin, beta Subunit, Human"
    )


def test_longest_match_in_a_sentence(vocabulary: MeshVocabulary) -> None:
    found = headings(
        vocabulary, "Metformin versus insulin for gestational diabetes mellitus in Down's syndrome"
    )
    assert (
        "gestational diabetes mellitus",
        "Diabetes, Gestational",
    ) in found  # the longest, not "diabetes mellitus"
    assert ("Metformin", "Metformin") in found
    assert ("Down's syndrome", "Down Syndrome") in found


def test_british_spelling_and_plural_find_the_heading(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "macular oedema") == [("macular oedema", "Macular Edema")]
    assert headings(vocabulary, "epilepsies") == [("epilepsies", "Epilepsy")]
    assert headings(vocabulary, "motor neurone disease") == [
        ("motor neurone disease", "Motor Neuron Disease")
    ]


def test_everyday_words_for_people_find_their_heading(vocabulary: MeshVocabulary) -> None:
    """Everyday words for people ("kids", "babies", "mums") are read as MeSH writes them; MeSH's own "baby"
    terms keep their sense."""
    assert headings(vocabulary, "kids") == [("kids", "Child")]
    assert headings(vocabulary, "preterm babies") == [("preterm babies", "Infant, Premature")]
    assert headings(vocabulary, "mums") == [("mums", "Mothers")]
    assert headings(vocabulary, "baby teeth") == [("baby teeth", "Tooth, Deciduous")]
    assert headings(vocabulary, "shaken baby syndrome") == [("shaken baby syndrome", "Shaken Baby Syndrome")]


def test_a_word_written_as_mesh_writes_it_takes_that_sense(vocabulary: MeshVocabulary) -> None:
    """A plural that is a sense of its own: the descriptor writing the text's number wins the tie."""
    assert headings(vocabulary, "blue light filtering glasses")[-1] == ("glasses", "Eyeglasses")
    assert headings(vocabulary, "glass") == [("glass", "Glass")]
    assert headings(vocabulary, "tetracyclines") == [("tetracyclines", "Tetracyclines")]
    assert headings(vocabulary, "tetracycline") == [("tetracycline", "Tetracycline")]


def test_acronyms_only_when_attested(vocabulary: MeshVocabulary) -> None:
    # defined in the text itself
    assert headings(vocabulary, "ECoG", {"ECoG": "electrocorticography"}) == [
        ("ECoG", "Electrocorticography")
    ]
    # an entry term of exactly one descriptor ("Electrocorticography (EcoG)")
    assert headings(vocabulary, "ECoG") == [("ECoG", "Electrocorticography")]
    # a made-up acronym is not recognised
    assert headings(vocabulary, "HSWR") == []


def test_acronyms_nlm_writes_before_their_long_form(vocabulary: MeshVocabulary) -> None:
    """An entry term "ICU Intensive Care Units" attests ICU: without it, "ICU" was only the tail of
    "Pediatric ICU" and "Neonatal ICU" and took the narrower heading."""
    assert leading_acronym("ICU Intensive Care Units") == "ICU"
    assert leading_acronym("NERD Non-Erosive Reflux Disease") == "NERD"
    assert leading_acronym("ALS - Amyotrophic Lateral Sclerosis") == "ALS"
    # a first word that is part of the name, or initials that do not fit
    assert leading_acronym("CC Chemokine Receptor") is None and leading_acronym("AL Amyloidosis") is None
    assert leading_acronym("DNA Data Bank of Japan") is None and leading_acronym("Intensive Care") is None
    assert headings(vocabulary, "ICU patients") == [("ICU", "Intensive Care Units"), ("patients", "Patients")]


def test_an_acronym_of_the_heading_an_entry_term_opens_with_is_attested(vocabulary: MeshVocabulary) -> None:
    """ "CPAP Ventilation", "CGM Device", "CRRT Technique": the heading's initials, written in an entry
    term, name the descriptor alone ("CPAP in preterm infants" had searched CPAP[tiab] only); not an
    English word a text in capitals writes ("FAST Exam" of Focused Assessment with Sonography for Trauma)."""
    assert headings(vocabulary, "CPAP") == [("CPAP", "Continuous Positive Airway Pressure")]
    assert headings(vocabulary, "CGM") == [("CGM", "Continuous Glucose Monitoring")]
    assert headings(vocabulary, "FAST") == []


def test_an_unattested_acronym_of_one_descriptors_initials_names_it(vocabulary: MeshVocabulary) -> None:
    """Titles write TAVR, DLBCL and T2DM unexplained; no MeSH term writes them, but the initials of
    exactly one descriptor's heading or entry term spell them (a number kept whole), so they name it
    (had searched the bare acronym, or nothing). Three capitals spell unrelated descriptors by chance
    (VTE: a tissue expander), and initials several descriptors share name none."""
    assert spelled_initials("Type 2 Diabetes Mellitus") == "T2DM"
    assert spelled_initials("Diffuse Large B-Cell Lymphoma") == "DLBCL"
    assert spelled_initials("Lymphoma, Large B-Cell, Diffuse") is None and spelled_initials("Aged") is None
    assert headings(vocabulary, "TAVR") == [("TAVR", "Transcatheter Aortic Valve Replacement")]
    assert headings(vocabulary, "relapsed DLBCL") == [("DLBCL", "Lymphoma, Large B-Cell, Diffuse")]
    assert ("T2DM", "Diabetes Mellitus, Type 2") in headings(vocabulary, "adults with T2DM")
    assert headings(vocabulary, "VTE") == []
    assert headings(vocabulary, "HSWR") == []


def test_three_capitals_name_the_one_condition_their_initials_spell(vocabulary: MeshVocabulary) -> None:
    """Titles write OUD and UTI unexplained: where the one descriptor three capitals spell is a
    disease or mental disorder, they name it. They spell unrelated descriptors by chance, so initials
    several descriptors share name nothing (MTB of "Xpert MTB/RIF" spells Breast Neoplasms beside
    Multitasking Behavior; OIT Osteogenesis Imperfecta beside Oxygen Inhalation Therapy), nor does one
    descriptor that is no condition (VTE: a tissue expander)."""
    assert ("OUD", "Opioid-Related Disorders") in headings(vocabulary, "adults with OUD")
    assert ("UTI", "Urinary Tract Infections") in headings(vocabulary, "recurrent UTI in women")
    assert headings(vocabulary, "VTE") == [] and headings(vocabulary, "PCI") == []
    assert headings(vocabulary, "MTB") == [] and headings(vocabulary, "OIT") == []


def test_an_entry_term_spaced_into_two_parts_is_attested_as_authors_write_it(
    vocabulary: MeshVocabulary,
) -> None:
    """NLM writes "Hb A1c" and "Apo E4"; papers write HbA1c and ApoE4, which had no heading. A second part
    that is an ordinary word is no symbol's part: nobody writes "GMOFood" or "NKTCell"."""
    assert joined_acronym("Hb A1c") == "HbA1c" and joined_acronym("CaM KII") == "CaMKII"
    assert joined_acronym("GMO Food") is None and joined_acronym("NKT Cell") is None
    assert joined_acronym("Hb A1c Test Kit") is None and joined_acronym("ICU") is None
    assert [d.heading for d in vocabulary.lookup("HbA1c")] == ["Glycated Hemoglobin"]
    assert headings(vocabulary, "HbA1c and body weight") == [
        ("HbA1c", "Glycated Hemoglobin"),
        ("body weight", "Body Weight"),
    ]


def test_a_word_glossed_with_a_sense_is_that_sense_only_where_mesh_has_no_other(
    vocabulary: MeshVocabulary,
) -> None:
    """NLM writes "Transfer (Psychology)" because "transfer" has other senses in MeSH (Embryo Transfer,
    Nerve Transfer): the bare word named Transfer, Psychology in "conditional cash transfer", and
    "physiotherapy" (Physical Therapy Modalities or Physical Therapy Specialty) the modalities."""
    assert headings(vocabulary, "conditional cash transfer programmes") == [("programmes", "Program")]
    assert headings(vocabulary, "usual physiotherapy") == []
    # a word glossed only in one branch of the trees keeps its sense
    assert headings(vocabulary, "transference") == [("transference", "Transference, Psychology")]
    # a gloss that is an acronym still attests it, and its long form stays a term
    assert headings(vocabulary, "ECoG") == [("ECoG", "Electrocorticography")]


def test_a_parenthesis_against_a_word_is_part_of_the_name(vocabulary: MeshVocabulary) -> None:
    """ "p21(ras)" and "Poly(rU)" are names: "p21" alone (CDKN1A as often as Ras) and "poly" (in "poly-
    and perfluoroalkyl") are not their descriptors."""
    assert headings(vocabulary, "p21 expression") == []
    assert [d.heading for d in vocabulary.lookup("poly")] == []
    assert [d.heading for d in vocabulary.lookup("Poly(rU)")] == ["Poly U"]


def test_an_acronym_of_a_family_names_its_root(vocabulary: MeshVocabulary) -> None:
    """ "CT Scan, X-Ray", "CT Scan, Spiral", "CT Scan, Cone-Beam" ...: CT names several descriptors,
    most of them kinds of Tomography, X-Ray Computed, so it names that heading."""
    assert headings(vocabulary, "low-dose CT") == [("CT", "Tomography, X-Ray Computed")]
    assert headings(vocabulary, "tRNA") == [("tRNA", "RNA, Transfer")]
    # the descriptor whose heading is the acronym itself, among the proteins that write it
    assert headings(vocabulary, "HIV") == [("HIV", "HIV")]
    # candidates of unrelated meanings stay unresolved
    assert headings(vocabulary, "RIP") == []


def test_a_reduplicated_compound_names_a_manner(vocabulary: MeshVocabulary) -> None:
    """ "face-to-face", "peer-to-peer": how something is done, no Face and no Peer Group."""
    assert headings(vocabulary, "online versus face-to-face therapy") == [("therapy", "Therapeutics")]
    assert headings(vocabulary, "peer-to-peer support for nurses") == [("nurses", "Nurses")]
    assert ("face", "Face") in headings(vocabulary, "pressure injuries of the face")


def test_an_acronym_never_names_the_word_it_spells(vocabulary: MeshVocabulary) -> None:
    # "PET" is positron emission tomography, not the heading Pets that the word "pets" names
    assert headings(vocabulary, "pets in care homes") == [("pets", "Pets")]
    assert "Pets" not in [
        heading for _, heading in headings(vocabulary, "11C-PIB PET in mild cognitive impairment")
    ]
    assert headings(vocabulary, "PET", {"PET": "positron emission tomography"}) == [
        ("PET", "Positron-Emission Tomography")
    ]


def test_a_chemical_formula_is_no_acronym_mesh_writes_in_other_capitals(vocabulary: MeshVocabulary) -> None:
    # "GaN" is gallium nitride: upper-cased it is the "GAN" of Giant Axonal Neuropathy, which MeSH
    # writes in capitals only; an acronym in MeSH's own capitals is still recognised
    assert "Giant Axonal Neuropathy" not in [
        heading for _, heading in headings(vocabulary, "GaN high electron mobility transistors")
    ]
    assert ("GAN", "Giant Axonal Neuropathy") in headings(vocabulary, "GAN in children")


def test_words_across_a_comma_are_not_one_term(vocabulary: MeshVocabulary) -> None:
    assert ("low back pain", "Low Back Pain") not in headings(vocabulary, "low back, pain")


def test_tree_distance() -> None:
    a = MeshDescriptor(ui="D1", heading="a", tree_numbers=["C10.228.140"])
    b = MeshDescriptor(ui="D2", heading="b", tree_numbers=["C10.228.140.490"])
    c = MeshDescriptor(ui="D3", heading="c", tree_numbers=["E01.370"])
    assert tree_distance(a, b) == 1 and tree_distance(a, c) == 99


def test_a_word_of_two_senses_takes_the_one_near_the_other_concepts(vocabulary: MeshVocabulary) -> None:
    # "squash" is a racquet sport (Squash (Sport)) and a plant (Squashes): the description decides
    def sense(context: str) -> list[str]:
        return [
            m.descriptor.heading for m in vocabulary.recognize("squash", context=vocabulary.lookup(context))
        ]

    assert sense("tennis") == ["Racquet Sports"]
    assert sense("watermelon") == ["Cucurbita"]
    # one sense at two levels ("Insulin" below "Insulins") is no choice of sense: the specific stays
    assert [
        m.descriptor.heading for m in vocabulary.recognize("insulin", context=vocabulary.lookup("glucagon"))
    ] == ["Insulin"]


def test_a_term_written_in_natural_order_is_never_another_heading_read_inverted(
    vocabulary: MeshVocabulary,
) -> None:
    # "Nursing, Home" (Home Nursing) reads "nursing home" word for word, but Nursing Homes writes it so
    assert [d.heading for d in vocabulary.lookup("nursing homes")] == ["Nursing Homes"]
    assert [d.heading for d in vocabulary.lookup("home nursing")] == ["Home Nursing"]
    assert [d.heading for d in vocabulary.lookup("school nursing")] == ["School Nursing"]
    # the restraint of people (E02, beside Home Nursing in the tree) does not pull the place there
    context = vocabulary.lookup("physical restraint")
    assert [m.descriptor.heading for m in vocabulary.recognize("nursing homes", context=context)] == [
        "Nursing Homes"
    ]
    # an inverted term no natural one shares still reads both ways
    assert [d.heading for d in vocabulary.lookup("diabetes gestational")] == ["Diabetes, Gestational"]


def test_a_head_swaps_only_for_a_variant_mesh_writes_at_heads(vocabulary: MeshVocabulary) -> None:
    # "Tertiary Care Centers" / "Tertiary Referral Centers": "care" and "referral" are variants before
    # "centers", not as the head of a phrase ("Hospital Referrals" is no "hospital care")
    assert headings(vocabulary, "tertiary referral centre") == [
        ("tertiary referral centre", "Tertiary Care Centers")
    ]
    assert headings(vocabulary, "hospital care") == [("hospital", "Hospitals")]
    # heads MeSH writes interchangeably at the end of terms still swap
    assert headings(vocabulary, "kidney stones") == [("kidney stones", "Kidney Calculi")]


def test_of_the_reads_as_mesh_s_of(vocabulary: MeshVocabulary) -> None:
    # MeSH writes "Transurethral Resection of Prostate" and "Cancer of the Cervix": the article after
    # "of" is no word of a term, in the text or in MeSH
    assert headings(vocabulary, "transurethral resection of the prostate (TURP)") == [
        ("transurethral resection of the prostate", "Transurethral Resection of Prostate"),
        ("TURP", "Transurethral Resection of Prostate"),
    ]
    assert [d.heading for d in vocabulary.lookup("cancer of cervix")] == ["Uterine Cervical Neoplasms"]
    assert [d.heading for d in vocabulary.lookup("cancer of the cervix")] == ["Uterine Cervical Neoplasms"]
    # elsewhere "the" stays a word: no term is made by leaving it out
    assert headings(vocabulary, "the prostate") == [("prostate", "Prostate")]


def test_an_organ_before_a_technique_names_the_kind_mesh_names_after_it(vocabulary: MeshVocabulary) -> None:
    # "Thoracic Radiography" is a word of the organ's family before the heading of Radiography, which
    # MeSH also writes "Diagnostic X-Ray": the examination, not the rays (X-Rays) beside the chest
    assert headings(vocabulary, "chest X-ray") == [("chest X-ray", "Radiography, Thoracic")]
    assert headings(vocabulary, "chest radiography") == [("chest radiography", "Radiography, Thoracic")]
    assert headings(vocabulary, "abdomen X-ray") == [("abdomen X-ray", "Radiography, Abdominal")]
    # no such kind: the two stay apart
    assert headings(vocabulary, "brain MRI") == [("brain", "Brain"), ("MRI", "Magnetic Resonance Imaging")]
    # only the words naming the organ make its family: Placenta's entry term "Placentoma, Normal" made
    # "normal" one, and "placenta weight" read as "Normal Body Weight" (Ideal Body Weight)
    assert headings(vocabulary, "placenta weight")[0] == ("placenta", "Placenta")


def test_knows_and_lookup(vocabulary: MeshVocabulary) -> None:
    assert vocabulary.knows("gestational diabetes") and not vocabulary.knows("speech decoding")
    assert [d.heading for d in vocabulary.lookup("Brain Machine Interfaces")] == ["Brain-Computer Interfaces"]
    parents = [p.heading for p in vocabulary.ancestors(vocabulary.lookup("Epilepsy")[0])]
    assert parents == ["Brain Diseases"]


def test_ancestors_named_inside_a_match(vocabulary: MeshVocabulary) -> None:
    (low_back,) = vocabulary.recognize("low back pain")
    assert [p.heading for p in low_back.parents] == ["Back Pain", "Pain"]  # "Pain" is still specific
    (lung,) = vocabulary.recognize("lung cancer")
    assert "Neoplasms" not in [p.heading for p in lung.parents]  # the top of its tree: too broad
    (tb,) = vocabulary.recognize("pulmonary tuberculosis")
    assert [p.heading for p in tb.parents] == ["Tuberculosis"]
    # the head of a term comes before its preposition: the words after it name no broader kind of it
    (sport,) = vocabulary.recognize("return to sport")
    assert sport.parents == ()  # not Sports
    (lewy,) = vocabulary.recognize("dementia with Lewy bodies")
    assert [p.heading for p in lewy.parents] == ["Dementia"]


def test_a_combined_technique_names_the_techniques_it_is_made_of(vocabulary: MeshVocabulary) -> None:
    # the run before the head names a parent by an acronym or a phrase MeSH ends its terms with; the
    # longest run wins ("computed tomography", not also "tomography")
    (pet_ct,) = vocabulary.recognize("PET-CT")
    assert [p.heading for p in pet_ct.parents] == ["Positron-Emission Tomography"]
    (cta,) = vocabulary.recognize("computed tomography angiography")
    assert [p.heading for p in cta.parents] == ["Tomography, X-Ray Computed"]
    # one word before the head only modifies it
    (strips,) = vocabulary.recognize("reagent strips")
    assert strips.parents == ()


def test_the_article_after_of_is_read_as_english_writes_it(vocabulary: MeshVocabulary) -> None:
    # MeSH leaves it out of most terms and keeps it in a few; a description writes it either way
    assert headings(vocabulary, "transurethral resection of the prostate") == [
        ("transurethral resection of the prostate", "Transurethral Resection of Prostate")
    ]
    assert headings(vocabulary, "developmental dysplasia of hip") == [
        ("developmental dysplasia of hip", "Developmental Dysplasia of the Hip")
    ]
    assert headings(vocabulary, "quality of life") == [("quality of life", "Quality of Life")]


def test_derived_forms_and_greek_letters_match_where_no_exact_form_does(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "kidney transplant") == [("kidney transplant", "Kidney Transplantation")]
    assert headings(vocabulary, "vulval cancer") == [("vulval cancer", "Vulvar Neoplasms")]
    assert headings(vocabulary, "plasma amyloid beta") == [
        ("plasma", "Plasma"),
        ("amyloid beta", "Amyloid beta-Peptides"),
    ]
    # other words keep their order, and an exact match of several words is never broken up
    assert ("care homes", "Home Care Services") not in headings(vocabulary, "pets in care homes")
    assert headings(vocabulary, "transplant recipients") == [
        ("transplant recipients", "Transplant Recipients")
    ]


def test_a_term_matches_without_the_participle_a_hyphen_joins_to_its_word(vocabulary: MeshVocabulary) -> None:
    # "Direct-Acting Oral Anticoagulants" (Factor Xa Inhibitors) is written "direct oral anticoagulants":
    # the phrase names the term, not only its head Anticoagulants
    assert headings(vocabulary, "direct oral anticoagulants") == [
        ("direct oral anticoagulants", "Factor Xa Inhibitors")
    ]
    assert headings(vocabulary, "oral anticoagulants") != [("oral anticoagulants", "Factor Xa Inhibitors")]


def test_neighbouring_headings_compose_a_precoordinated_one(vocabulary: MeshVocabulary) -> None:
    # "oral cavity" is an entry term of Mouth, "cancer" of Neoplasms: together MeSH's "Mouth Neoplasms"
    assert headings(vocabulary, "oral cavity cancer") == [("oral cavity cancer", "Mouth Neoplasms")]
    # headings that compose nothing stay two
    assert [h for _, h in headings(vocabulary, "bone scintigraphy")] == [
        "Bone and Bones",
        "Radionuclide Imaging",
    ]


def test_modifiers_are_words_mesh_writes_only_before_a_head(vocabulary: MeshVocabulary) -> None:
    assert all(vocabulary.is_modifier(w) for w in ("rapid", "Physical", "healthy", "cardiac", "urinary"))
    assert not any(
        vocabulary.is_modifier(w) for w in ("tests", "galactomannan", "water", "stages", "syndrome")
    )


def test_acronyms_of_several_words_are_recognised_in_text(vocabulary: MeshVocabulary) -> None:
    # "COVID-19" is an acronym-shaped heading the text writes as two words: it was only ever looked up
    assert headings(vocabulary, "COVID-19 in care homes")[0] == ("COVID-19", "COVID-19")
    assert headings(vocabulary, "IL-6 levels") == [("IL-6", "Interleukin-6")]


def test_british_adjectives_in_our_match(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "cognitive behavioural therapy") == [
        ("cognitive behavioural therapy", "Cognitive Behavioral Therapy")
    ]


def test_an_acronym_an_entry_term_writes_with_a_technique_word_is_attested(
    vocabulary: MeshVocabulary,
) -> None:
    # "MRI Scans" and "PET Scan" are entry terms: MRI and PET alone name their descriptors
    assert headings(vocabulary, "brain MRI") == [("brain", "Brain"), ("MRI", "Magnetic Resonance Imaging")]
    assert headings(vocabulary, "18F-FDG PET")[-1] == ("PET", "Positron-Emission Tomography")


def test_oea_endings_and_heads_of_of_phrases(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "diarrhoea") == [("diarrhoea", "Diarrhea")]
    (quality,) = vocabulary.recognize("quality of life")
    assert quality.parents == ()  # "life" is not what "quality of life" is a kind of


def test_words_mesh_writes_interchangeably_find_the_heading(vocabulary: MeshVocabulary) -> None:
    variants = vocabulary.word_variants()
    assert "calculi" in variants["stone"] and "kidney" in variants["renal"]
    # words that tell descriptors apart are never variants
    assert "beta" not in variants.get("alpha", ()) and "malignant" not in variants.get("benign", ())
    assert headings(vocabulary, "endoscopic ultrasound for staging") == [
        ("endoscopic ultrasound", "Endosonography")
    ]
    # a longer match through a variant beats the shorter exact one inside it
    assert headings(vocabulary, "common bile duct stones") == [("common bile duct stones", "Gallstones")]
    # an exact match of the whole window is never replaced
    assert headings(vocabulary, "kidney stones") == [("kidney stones", "Kidney Calculi")]
    # a swap meets terms as they are written, not NLM's inverted order: "care" is a variant of
    # "referral" ("Tertiary Care Centers"), but "Referral, Hospital" is Hospital Referrals
    assert headings(vocabulary, "acute care hospitals") == [("hospitals", "Hospitals")]


def test_head_words_tell_the_role_mesh_gives_the_terms_they_end(vocabulary: MeshVocabulary) -> None:
    assert vocabulary.head_role("fractures") is ConceptRole.CONDITION
    assert vocabulary.head_role("stones") is ConceptRole.CONDITION
    assert vocabulary.head_role("tests") is ConceptRole.METHOD
    assert vocabulary.head_role("radiographs") is None  # too few terms end with it to tell


def test_x_with_y_is_the_heading_mesh_writes_as_y_x(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "dementia with Lewy bodies") == [
        ("dementia with Lewy bodies", "Lewy Body Disease")
    ]
    assert headings(vocabulary, "fracture of the hip") == [("fracture of the hip", "Hip Fractures")]
    assert headings(vocabulary, "quality of life") == [
        ("quality of life", "Quality of Life")
    ]  # as written first
    assert headings(vocabulary, "anaemia with iron deficiency") == [
        ("anaemia with iron deficiency", "Anemia, Iron-Deficiency")
    ]


def test_a_substances_ics_is_a_plural_a_fields_is_not(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "microplastic pollution") == [("microplastic", "Microplastics")]
    assert headings(vocabulary, "genetic factors") == []  # "genetic" is no Genetics


def test_a_one_word_entry_term_stands_for_its_heading_inside_a_longer_term(
    vocabulary: MeshVocabulary,
) -> None:
    # "Bleeding" is an entry term of Hemorrhage; MeSH writes no "Gastrointestinal Bleeding"
    assert headings(vocabulary, "upper gastrointestinal bleeding") == [
        ("gastrointestinal bleeding", "Gastrointestinal Hemorrhage")
    ]
    assert headings(vocabulary, "bleeding") == [("bleeding", "Hemorrhage")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "loss" is a noun MeSH ends its terms with: "water-loss" is a kind of loss, not Water
        ("water-loss dehydration", [("dehydration", "Dehydration")]),
        # "related", "resistant" and "induced" are written inside terms: the first part is the concept
        ("COVID-19-related anxiety", [("COVID-19", "COVID-19"), ("anxiety", "Anxiety")]),
        ("insulin-resistant", [("insulin", "Insulin")]),
        ("water loss", [("water", "Water")]),  # two words: no compound, each part names itself
    ],
)
def test_the_first_part_of_a_hyphenated_noun_compound_only_modifies_it(
    vocabulary: MeshVocabulary, text: str, expected: list[tuple[str, str]]
) -> None:
    assert headings(vocabulary, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "Magnetic Resonance" is an entry term that cuts Magnetic Resonance Spectroscopy short; followed by
        # another name's word it begins that name, not the spectroscopy
        ("magnetic resonance arthrography", [("arthrography", "Arthrography")]),
        # "consumption" is only an entry term (of Economics), no name "opioid" would begin: the opioid stays
        ("opioid consumption", [("opioid", "Analgesics, Opioid"), ("consumption", "Economics")]),
        (
            "magnetic resonance spectroscopy",
            [("magnetic resonance spectroscopy", "Magnetic Resonance Spectroscopy")],
        ),
        (
            "magnetic resonance in children",
            [("magnetic resonance", "Magnetic Resonance Spectroscopy"), ("children", "Child")],
        ),
        # "testing" ends names ("Genetic Testing") but is none on its own: what is done with the virus
        (
            "human papillomavirus testing",
            [("human papillomavirus", "Human Papillomavirus Viruses")],
        ),
    ],
)
def test_a_shortened_name_followed_by_another_names_word_is_not_that_name(
    vocabulary: MeshVocabulary, text: str, expected: list[tuple[str, str]]
) -> None:
    assert headings(vocabulary, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "marine" and "transient" are MeSH's modifiers (Marine Toxins, Transient Ischemic Attack); only
        # their plurals are entry terms (Marines of Military Personnel, Transients of Transients and Migrants)
        ("marine fish", [("fish", "Fishes")]),
        ("transient elastography", [("elastography", "Elasticity Imaging Techniques")]),
        # the plural as written, or the word at the end of the phrase, is the noun
        ("marines", [("marines", "Military Personnel")]),
        ("health of transients", [("health", "Health"), ("transients", "Transients and Migrants")]),
        # a noun before a noun keeps its descriptor: MeSH writes "immigrant" nowhere as a modifier
        ("immigrant health", [("immigrant", "Emigrants and Immigrants"), ("health", "Health")]),
    ],
)
def test_an_adjective_is_not_the_singular_of_a_plural_entry_term(
    vocabulary: MeshVocabulary, text: str, expected: list[tuple[str, str]]
) -> None:
    assert headings(vocabulary, text) == expected


def test_a_greek_plural_meets_its_singular_term(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "lymph node metastases") == [
        ("lymph node metastases", "Lymphatic Metastasis")
    ]


def test_a_term_can_reach_the_head_a_match_leaves_alone(vocabulary: MeshVocabulary) -> None:
    """ "bone fracture healing": Fracture Healing starts inside Fractures, Bone and takes "healing" in."""
    text = "bone fracture healing"
    (match,) = vocabulary.recognize(text)
    longer = vocabulary.reaching_the_head(text, match)
    assert longer is not None and (longer.text, longer.descriptor.heading) == (
        "fracture healing",
        "Fracture Healing",
    )
    assert vocabulary.reaching_the_head("breast cancer", vocabulary.recognize("breast cancer")[0]) is None


def test_a_derived_form_takes_its_modifier_before_an_exact_match_to_its_right(
    vocabulary: MeshVocabulary,
) -> None:
    """ "kidney transplant recipients": the derived form "kidney transplant" (Kidney Transplantation)
    starts before the exact "transplant recipients" it overlaps, as a longer exact match would win a
    left-to-right reading; "kidney" is not left alone as an organ."""
    assert headings(vocabulary, "potential kidney transplant recipients") == [
        ("kidney transplant", "Kidney Transplantation")
    ]
    # an exact match that starts at or before the window still blocks the derived form
    assert headings(vocabulary, "cancer screening programmes")[0] == (
        "cancer screening",
        "Early Detection of Cancer",
    )


def test_a_british_programme_is_mesh_s_program(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "needle exchange programmes") == [
        ("needle exchange programmes", "Needle-Exchange Programs")
    ]


def _role(vocabulary: MeshVocabulary, heading: str) -> ConceptRole:
    return role_of(next(d for d in vocabulary.lookup(heading) if d.heading == heading))


def test_vital_statistics_and_hospital_stays_are_outcomes_not_techniques(vocabulary: MeshVocabulary) -> None:
    """MeSH files Mortality and Patient Readmission among techniques (E05, E02), but they are what is
    counted in the people studied; a care setting (N only) stays a setting, a registry a method."""
    assert _role(vocabulary, "Mortality") is ConceptRole.OUTCOME
    assert _role(vocabulary, "Patient Readmission") is ConceptRole.OUTCOME
    assert _role(vocabulary, "Length of Stay") is ConceptRole.OUTCOME
    assert _role(vocabulary, "Emergency Service, Hospital") is ConceptRole.SETTING
    assert _role(vocabulary, "Registries") is ConceptRole.METHOD


def test_the_course_of_a_disease_is_an_outcome_not_a_condition(vocabulary: MeshVocabulary) -> None:
    """Recurrence ("relapse") and Disease Progression are filed among diseases (C23), but they are what
    happens to those who have one: an outcome observed, not who is studied."""
    assert _role(vocabulary, "Recurrence") is ConceptRole.OUTCOME
    assert _role(vocabulary, "Disease Progression") is ConceptRole.OUTCOME
    assert _role(vocabulary, "Chronic Disease") is ConceptRole.CONDITION
    assert _role(vocabulary, "Depressive Disorder") is ConceptRole.CONDITION


def test_death_itself_is_an_outcome_its_kinds_stay_conditions(vocabulary: MeshVocabulary) -> None:
    """Death (C23) is the end of any disease's course, what a title counts ("human rabies deaths"): an
    outcome; the kinds below it that a review studies in their own right stay conditions."""
    assert _role(vocabulary, "Death") is ConceptRole.OUTCOME
    assert _role(vocabulary, "Sudden Infant Death") is ConceptRole.CONDITION
    assert _role(vocabulary, "Stillbirth") is ConceptRole.CONDITION


def test_an_adverb_and_participle_name_the_act_mesh_names_with_a_noun(vocabulary: MeshVocabulary) -> None:
    """ "mechanically ventilated patients" are patients on Mechanical Ventilation (Respiration, Artificial)."""
    assert ("mechanically ventilated", "Respiration, Artificial") in headings(
        vocabulary, "mechanically ventilated patients"
    )
    assert ("endotracheally intubated", "Intubation, Intratracheal") in headings(
        vocabulary, "endotracheally intubated neonates"
    )
    assert headings(vocabulary, "newly diagnosed") == []  # no "new diagnosis" in MeSH
    assert ("critically ill", "Critical Illness") in headings(vocabulary, "critically ill adults")


def test_a_gerund_mesh_does_not_write_is_the_noun_of_its_act(vocabulary: MeshVocabulary) -> None:
    assert headings(vocabulary, "chlorhexidine bathing") == [
        ("chlorhexidine", "Chlorhexidine"),
        ("bathing", "Baths"),
    ]
    assert ("home visiting", "House Calls") in headings(vocabulary, "community health worker home visiting")
    # a thing or a price the verb's noun also names is no act
    assert headings(vocabulary, "scheduled toileting") == []  # not Bathroom Equipment ("toilet")
    assert headings(vocabulary, "electric vehicle charging") == []  # not Fees and Charges ("charge")
    # a gerund MeSH writes keeps its own heading
    assert headings(vocabulary, "tube feeding") == [("tube feeding", "Enteral Nutrition")]


def test_a_syndrome_named_by_its_disease_is_named_without_the_class_word(vocabulary: MeshVocabulary) -> None:
    found = headings(vocabulary, "women at risk of hereditary breast and ovarian cancer")
    assert ("hereditary breast and ovarian cancer", "Hereditary Breast and Ovarian Cancer Syndrome") in found
    # the rest names something else than the disease the syndrome is filed under: no name
    assert not any(heading == "Vipoma" for _, heading in headings(vocabulary, "watery diarrhea"))
    assert headings(vocabulary, "irritable bowel") == []


def test_a_virus_named_after_its_disease_and_infection_name_the_disease(vocabulary: MeshVocabulary) -> None:
    """ "hepatitis C virus infection": MeSH writes the virus "Hepatitis C virus" (an entry term of
    Hepacivirus) and the disease Hepatitis C; the virus and "infection" name the disease (it had been
    the virus and a bare Infections, searched as Virus Diseases)."""
    for text, heading in (
        ("hepatitis C virus infection", "Hepatitis C"),
        ("herpes simplex virus infections", "Herpes Simplex"),
    ):
        assert headings(vocabulary, text) == [(text, heading)]
    # the virus alone stays the organism
    assert headings(vocabulary, "hepatitis C virus") == [("hepatitis C virus", "Hepacivirus")]


def test_a_species_written_with_its_genus_initial_is_the_organism(vocabulary: MeshVocabulary) -> None:
    """ "S. aureus", "K. pneumoniae": the initial and the epithet name the species MeSH writes in full
    (none had been found; "S. aureus" had been read as a tail of Vancomycin-Resistant Staphylococcus
    aureus), and the initial's full stop ends no sentence ("E. coli" is an entry term written "E coli");
    a full stop after a word still breaks a match."""
    found = {
        p: [m.descriptor.heading for m in vocabulary.recognize(p)] for p in ("S. aureus", "K. pneumoniae")
    }
    assert found == {"S. aureus": ["Staphylococcus aureus"], "K. pneumoniae": ["Klebsiella pneumoniae"]}
    assert [m.descriptor.heading for m in vocabulary.recognize("E. coli from poultry")] == [
        "Escherichia coli",
        "Poultry",
    ]
    assert [m.text for m in vocabulary.recognize("vitamin D. Children")] == ["vitamin D", "Children"]


def test_a_disease_said_without_its_qualifier_is_its_heading(vocabulary: MeshVocabulary) -> None:
    """ "diabetes": MeSH has no term that is the word alone, only Diabetes Mellitus (the root of most
    headings the word starts) and Diabetes Insipidus; "Does exercise help diabetes?" had been searched
    as diabetes[tiab] only, and "diagnosing diabetes" too (the word had been read as Diabetes Mellitus
    cut short). An adjective names no disease ("ovarian": Ovarian Diseases), nor does a class's
    modifier ("autoimmune": Autoimmune Diseases)."""
    headings = {p: [m.descriptor.heading for m in vocabulary.recognize(p)] for p in ("diabetes", "angina")}
    assert headings == {"diabetes": ["Diabetes Mellitus"], "angina": ["Angina Pectoris"]}
    assert "Diabetes Mellitus" in [m.descriptor.heading for m in vocabulary.recognize("diabetes diagnosis")]
    assert [m.descriptor.heading for m in vocabulary.recognize("diabetes insipidus")] == [
        "Diabetes Insipidus"
    ]
    assert not vocabulary.recognize("ovarian") and not vocabulary.recognize("autoimmune")


def test_the_words_mesh_writes_from_their_beginning(vocabulary: MeshVocabulary) -> None:
    """A clipped word ("telerehab") is the beginning of the word MeSH writes in full."""
    assert vocabulary.words_beginning("telerehab") == ["telerehabilitation"]
    assert vocabulary.words_beginning("Telerehab") == ["telerehabilitation"]
    assert vocabulary.words_beginning("xqzt") == []
