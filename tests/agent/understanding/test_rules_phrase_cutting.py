"""Where the English rules fallback ends a phrase, by grammar alone: each mechanism tested on
sentences of its own (not evaluation cases).

A noun phrase holds no article after its first word, so a word right before an article is a verb; an
"-ing" word before an article is a verb on its object; a plural noun that is also a verb ("tests") is
the noun when no object follows it; a task verb after "and" in a sentence with a subject is a second
verb; "X based Y" written apart says what "X-based Y" says; an article after "and" still joins a list.
"""

from __future__ import annotations

from agent.models import LIST_SLOT_NAMES, Slots
from agent.understanding.english_phrases import english_phrases
from agent.understanding.rules import extract_slots


def _all_terms(slots: Slots) -> list[str]:
    return [term for name in LIST_SLOT_NAMES for term in getattr(slots, name)]


def test_the_word_before_an_article_is_a_verb() -> None:
    slots = extract_slots("We ask whether doping levels tune the band gap.")
    assert "doping levels" in slots.signal_feature  # a measured level acting on the outcome
    assert "band gap" in slots.output_target
    assert "Sea walls" in _all_terms(extract_slots("Sea walls slow the erosion of beaches."))


def test_an_ing_word_before_an_article_is_a_verb_not_a_term() -> None:
    slots = extract_slots("We survey rural clinics, documenting the waiting times.")
    assert "documenting" not in _all_terms(slots)
    assert "waiting times" in _all_terms(slots)


def test_a_plural_noun_that_is_also_a_verb_is_a_noun_before_a_joiner() -> None:
    slots = extract_slots("Welded plates go through fatigue tests and hardness scans.")
    assert "fatigue tests" in slots.method_measurement


def test_a_task_verb_after_and_is_a_second_verb_of_the_subject() -> None:
    slots = extract_slots("We will stain the tissue and classify cell types with a CNN.")
    assert "cell type classification" in slots.task
    # a task verb that is as often a noun stays a noun without an article after it
    assert "count data" in _all_terms(extract_slots("We use heat maps and count data."))


def test_x_based_written_apart_names_the_method() -> None:
    slots = extract_slots("Drone based surveys of seabird colonies on rocky islands.")
    assert "Drone" in slots.method_measurement


def test_an_article_after_and_does_not_end_a_list() -> None:
    slots = extract_slots("We fit Prophet and a recurrent neural network to weekly sales.")
    assert "Prophet" in slots.method_algorithm


def test_a_measure_and_its_end_point_are_one_variable() -> None:
    slots = extract_slots("We record time to healing of foot ulcers and distance to clinics.")
    terms = _all_terms(slots)
    assert "time to healing" in terms
    assert "distance to clinics" in slots.signal_feature
    assert not any("time to" in t for t in slots.method_measurement + slots.method_algorithm + slots.task)


def test_time_points_sampling_places_and_together_name_no_concept() -> None:
    slots = extract_slots(
        "Pain scores are compared before and after implementation, with soil moisture logged at "
        "each site together with air temperature."
    )
    terms = [t.lower() for t in _all_terms(slots)]
    assert "implementation" not in terms
    assert "site" not in terms
    assert "together" not in terms


def test_what_a_change_is_in_is_the_outcome() -> None:
    slots = extract_slots("The primary endpoint is the mean change in serum ferritin after twelve weeks.")
    assert "serum ferritin" in slots.output_target
    assert not any("change" in t.lower() for t in _all_terms(slots))


def test_the_word_after_plural_people_in_a_whether_clause_is_their_verb() -> None:
    slots = extract_slots("We ask whether older drivers process road signs more slowly at night.")
    assert "older drivers" in slots.subject_population
    assert "road signs" in _all_terms(slots)
    assert not any("process" in term for term in _all_terms(slots))


def test_an_ed_effect_form_opening_a_noun_phrase_is_its_adjective() -> None:
    slots = extract_slots("We ask whether protected marine areas increase reef fish biomass.")
    assert "protected marine areas" in slots.context
    assert "reef fish biomass" in slots.output_target


def test_a_participle_after_plural_things_opens_a_relative_clause() -> None:
    slots = extract_slots("We train controllers for quadruped robots walking on icy slopes.")
    terms = _all_terms(slots)
    assert "quadruped robots" in terms
    assert not any("walking" in term for term in terms)


def test_a_versus_left_at_the_edge_of_a_cut_phrase_is_no_term() -> None:
    terms = _all_terms(extract_slots("Stool antigen testing versus repeat endoscopy for dyspepsia in adults"))
    assert not any(term.lower().split()[0] in {"versus", "vs"} for term in terms)
    assert not any(term.lower().split()[-1] in {"versus", "vs"} for term in terms)
    assert "dyspepsia" in " ".join(terms).lower()


def test_a_grade_before_a_head_is_no_population() -> None:
    """ "minor" before "cervical lesions" grades them; it is not the singular of Minors."""
    slots = extract_slots("HPV testing for triage of minor cytological cervical lesions")
    assert "minor" not in slots.subject_population


def test_an_ing_word_ending_a_phrase_after_a_singular_modifier_is_its_head_noun() -> None:
    # no object follows it, so it is no verb: "fatigue testing and X", "hardness testing will ..."
    slots = extract_slots("Welded joints were characterised by fatigue testing and X-ray diffraction.")
    assert "fatigue testing" in slots.method_measurement
    modal = extract_slots("Hardness testing will quantify the effect of annealing on copper wires.")
    assert "Hardness testing" in modal.method_measurement
    # people doing something are plural: a relative clause still ends the phrase
    people = extract_slots("We follow older adults walking and cycling in Copenhagen.")
    assert "older adults" in people.subject_population


def test_a_change_noun_mesh_names_with_its_adjective_is_a_term() -> None:
    # "cognitive decline" is an entry term of Cognitive Dysfunction: the outcome itself, not a change of
    # the people after "in" (it was dropped whole, and the query lost its outcome)
    slots = extract_slots("Mediterranean diet and cognitive decline in older adults")
    assert slots.output_target == ["cognitive decline"]
    assert slots.subject_population == ["older adults"]
    # a change no term names still gives what changes after "in" as the outcome
    assert extract_slots("We model trends in obesity among children.").output_target == ["obesity"]


def test_a_subordinating_word_is_no_part_of_a_term() -> None:
    # "because of", "despite", "although": they open a reason or a concession, never a noun phrase's word
    terms = _all_terms(extract_slots("Hospital admissions of older adults rose because of influenza."))
    assert not any("because" in term for term in terms)
    assert "influenza" in terms
    terms = _all_terms(extract_slots("Wheat yields fell despite irrigation in dry summers."))
    assert not any("despite" in term for term in terms)


def test_a_word_that_may_be_a_verb_after_an_article_or_preposition_modifies_the_next_noun() -> None:
    # no finite verb follows an article or a preposition (a bare infinitive only "to"): "repeat",
    # "study", "plan" there modify the noun after them
    terms = _all_terms(extract_slots("We fit a hedonic price model with repeat sales of homes."))
    assert "repeat sales" in terms and "sales" not in terms
    visits = _all_terms(
        extract_slots("Asthma control in children with repeat visits to emergency departments.")
    )
    assert "repeat visits" in visits and "visits" not in visits
    # after "to" the word is still the verb of an infinitive
    aim = _all_terms(extract_slots("We want to study soil erosion in vineyards."))
    assert "soil erosion" in aim and not any(t.startswith("study") for t in aim)


def test_a_word_placing_a_time_span_goes_with_the_span() -> None:
    # "the last 400 years" is a span of the study: "last" is no concept of its own, with the count
    # written in digits or in words
    for text in (
        "Drought over the last 400 years in the Pyrenees.",
        "Drought over the last four decades in the Pyrenees.",
    ):
        terms = _all_terms(extract_slots(text))
        assert "Drought" in terms and not any("last" in term.split() for term in terms)
    assert "past" not in _all_terms(extract_slots("Obesity in children over the past 5 years."))


def test_an_action_mesh_names_with_its_modifiers_keeps_its_of_object_apart() -> None:
    """ "mass drug administration of ivermectin": MeSH names "mass drug administration" whole, so the
    "of" object is not put inside it ("mass drug ivermectin administration")."""
    texts = [p.text for p in english_phrases("Mass drug administration of ivermectin in rural villages")]
    assert "Mass drug administration" in texts and "ivermectin" in texts
    # an action MeSH does not name with its modifiers still takes its object inside
    assert "vitamin D administration" in [
        p.text for p in english_phrases("Administration of vitamin D to infants")
    ]


def test_an_ing_noun_mesh_names_is_no_modifier_of_a_name_mesh_knows_whole() -> None:
    """ "Bullying and post-traumatic stress disorder": Bullying is a heading and "post-traumatic stress
    disorder" a name, so no "Bullying stress disorder"; before a phrase MeSH does not name whole the
    head stays shared ("housing and hoof-trimming risk factors")."""
    texts = [p.text for p in english_phrases("Bullying and post-traumatic stress disorder in schoolchildren")]
    assert "Bullying" in texts and "post-traumatic stress disorder" in texts
    shared = [p.text for p in english_phrases("We identify housing and hoof-trimming risk factors on farms.")]
    assert "housing risk factors" in shared


def test_a_capital_letter_after_a_noun_is_the_letter_of_a_name_not_an_article() -> None:
    """ "Vitamin A", "hepatitis A": a capital letter written after a word is part of a name MeSH knows,
    not the article that would cut the phrase ("Vitamin" | "supplementation")."""
    slots = extract_slots(
        "Vitamin A supplementation in children for preventing all-cause mortality, diarrhoea and measles"
    )
    assert "Vitamin A supplementation" in slots.context + slots.method_algorithm + slots.signal_feature
    slots = extract_slots("Hepatitis A vaccination of food handlers")
    assert any(term.startswith("Hepatitis A") for name in LIST_SLOT_NAMES for term in getattr(slots, name))
    # a lower-case "a" after a word is still the article
    slots = extract_slots("Effects of a walking programme on blood pressure")
    assert not any(" a " in f" {term} " for name in LIST_SLOT_NAMES for term in getattr(slots, name))


def test_a_comparative_inside_a_noun_phrase_is_no_verb() -> None:
    """ "acute lower respiratory infections": "lower" between a singular word of the phrase and a noun is
    the adjective (a bare verb needs a plural subject or a question), so "acute" is not left alone."""
    texts = [p.text for p in english_phrases("The risk of acute lower respiratory infections in children")]
    assert "acute lower respiratory infections" in texts and "acute" not in texts
    # the verb stays a verb with a plural subject, after "to" and in a question
    assert [p.text for p in english_phrases("Statins lower cholesterol in older adults")][:2] == [
        "Statins",
        "cholesterol",
    ]
    assert "risk" in [p.text for p in english_phrases("Does a Mediterranean diet lower the risk of stroke?")]


def test_a_head_is_shared_only_by_a_modifier_right_before_the_conjunction() -> None:
    texts = [p.text for p in english_phrases("We compare oat and barley cover crops.")]
    assert "oat cover crops" in texts
    texts = [
        p.text
        for p in english_phrases("We use sales receipts from Lyon for 2019 and store loyalty card logs.")
    ]
    assert "Lyon" in texts
    assert not any(t.startswith("Lyon ") for t in texts)


def test_an_ing_word_after_a_possessive_modifies_the_next_noun() -> None:
    texts = [p.text for p in english_phrases("Unions negotiate their working hours.")]
    assert "working hours" in texts


def test_what_a_sense_of_is_about_is_the_concept() -> None:
    slots = extract_slots("We ask how remote work shapes employees' sense of belonging.")
    assert "belonging" in slots.output_target
    assert "sense" not in [
        t for terms in slots.model_dump().values() if isinstance(terms, list) for t in terms
    ]


def test_care_given_at_home_is_one_name() -> None:
    texts = [p.text for p in english_phrases("We evaluate rehabilitation at home after hip fracture.")]
    assert "rehabilitation at home" in texts
    texts = [p.text for p in english_phrases("Twins who hear Welsh at home learn it faster.")]
    assert not any(t.endswith("at home") for t in texts)


def test_an_effect_noun_before_a_noun_modifies_it() -> None:
    # "link" opens "the link between X and Y", but before a noun it is that noun's modifier
    slots = extract_slots(
        "We evaluate whether link workers improve wellbeing in people with long-term conditions."
    )
    assert "link workers" in slots.subject_population + slots.context
    assert "workers" not in slots.subject_population + slots.context
    pooled = extract_slots("We pool effect sizes from trials of exercise for depression.")
    assert any(
        "effect sizes" in t for slot in pooled.model_dump().values() if isinstance(slot, list) for t in slot
    )
    # with a preposition after it the effect noun still opens the frame
    frame = extract_slots("We study the link between screen time and myopia in schoolchildren.")
    assert "screen time" in frame.context
    assert "myopia" in frame.output_target


def test_a_bare_verb_after_a_singular_noun_is_a_noun_of_the_phrase() -> None:
    # "lead" is a verb of the lists, but a bare verb does not agree with the singular "blood"
    slots = extract_slots("We measure blood lead levels in children living near abandoned mines.")
    assert "blood lead levels" in slots.output_target
    # after a question's auxiliary, a plural subject or a causative the bare form stays the verb
    question = extract_slots("Does exercise improve sleep in older adults?")
    assert question.context == ["exercise"] and question.output_target == ["sleep"]
    helped = extract_slots("We help the patient manage pain after surgery.")
    assert "pain" in helped.output_target


def test_what_people_with_a_condition_live_or_go_through_is_no_word_of_them() -> None:
    # the participle after a "with" phrase opens a reduced relative clause
    slots = extract_slots("Exercise for people with dementia living at home")
    assert slots.subject_population == ["people with dementia", "dementia"] and "home" in slots.context
    slots = extract_slots("Wound healing in patients with diabetes receiving insulin")
    assert slots.subject_population == ["patients with diabetes", "diabetes"]
    # a compound with an "-ing" head after "with" is no clause
    assert "machine learning" in extract_slots("Prediction with machine learning for sepsis").method_algorithm


def test_an_age_range_after_aged_is_no_part_of_the_people() -> None:
    slots = extract_slots(
        "We ask whether school breakfast clubs improve attention in pupils aged 7 to 11 in Leeds, and "
        "recruit parents aged between 25 and 40 years for interviews."
    )
    assert "pupils" in slots.subject_population
    assert "parents" in slots.subject_population
    terms = [t for name in LIST_SLOT_NAMES for t in getattr(slots, name)]
    assert not any("aged" in t or "11" in t for t in terms)


def test_a_past_participle_after_be_and_before_an_adverb_is_the_passive_verb() -> None:
    slots = extract_slots("Wound size is photographed weekly with a smartphone camera.")
    assert "smartphone camera" in slots.method_measurement
    assert not any("photographed" in t for name in LIST_SLOT_NAMES for t in getattr(slots, name))
    soil = extract_slots("Soil cores were digested overnight in nitric acid.")
    assert not any(
        "digested" in t or "overnight" in t for name in LIST_SLOT_NAMES for t in getattr(soil, name)
    )


def test_an_ing_verb_after_a_noun_before_a_preposition_ends_the_nouns_term() -> None:
    """ "clarithromycin interacting with statins": the participle opens a clause about the drug ("clarithromycin
    interacting" had been one term, searched as a phrase no paper writes); a verb the lists know ("living
    in") keeps its own reading."""
    terms = _all_terms(
        extract_slots("Studies on clarithromycin interacting with statins and rhabdomyolysis.")
    )
    assert "clarithromycin" in terms and "statins" in terms
    assert not any("interacting" in term for term in terms)


def test_a_noun_mesh_names_alone_does_not_share_a_whole_term_after_and() -> None:
    # "nausea and weight gain" is no "nausea gain"; "lung and bladder cancer" still shares
    slots = extract_slots("Effects of iron supplements on nausea and weight gain in pregnant women.")
    assert {"nausea", "weight gain"} <= set(slots.output_target)
    shared = extract_slots("Smoking cessation and lung and bladder cancer in older men.")
    assert "lung cancer" in _all_terms(shared)


def test_a_noun_mesh_names_alone_keeps_its_own_head_before_an_adjective_and_its_noun() -> None:
    # "pain and emotional wellbeing": no "pain wellbeing"; a body part still shares its head
    # ("kidney and hepatic function" is kidney function and hepatic function)
    slots = extract_slots("Effects of music on pain and emotional wellbeing in burn patients.")
    assert "pain" in _all_terms(slots)
    assert "pain wellbeing" not in _all_terms(slots)
    organ = extract_slots("Drug dosing and kidney and hepatic function in older inpatients.")
    assert "kidney function" in _all_terms(organ)


def test_a_name_of_several_words_before_and_is_a_head_of_its_own() -> None:
    # "working memory", a name MeSH knows whole, does not take "anxiety symptoms" from the next phrase
    slots = extract_slots("Working memory and child anxiety symptoms.")
    assert "Working memory" in _all_terms(slots)
    assert not any(term.startswith("Working memory ") for term in _all_terms(slots))


def test_a_short_participle_after_be_is_the_passive_verb_not_a_term() -> None:
    slots = extract_slots("Coatings are aged at 70 °C in salt spray and examined by electron microscopy.")
    assert not any(t.lower() == "aged" for name in LIST_SLOT_NAMES for t in getattr(slots, name))
    assert "Coatings" in slots.subject_population + slots.context
    kept = extract_slots("Loneliness among the aged in rural care homes.")
    assert "aged" in kept.subject_population


def test_a_language_named_with_its_role_for_learners_is_one_term() -> None:
    slots = extract_slots("Peer feedback on writing for Korean as a heritage language learners in Canada.")
    terms = [t for name in LIST_SLOT_NAMES for t in getattr(slots, name)]
    assert "Korean as a heritage language learners" in terms
    assert not any(t.lower() in {"korean", "heritage language"} for t in terms)


def test_since_and_until_are_prepositions_that_end_a_phrase() -> None:
    texts = [p.text for p in english_phrases("Coal miners; progressive massive fibrosis since 2000.")]
    assert "progressive massive fibrosis" in texts
    assert not any("since" in t or "2000" in t for t in texts)
    texts = [p.text for p in english_phrases("Dairy herds, milk yield until 2015.")]
    assert "milk yield" in texts


def test_indefinite_pronouns_and_place_adverbs_name_no_concept() -> None:
    terms = _all_terms(extract_slots("Ethics committees and genomic studies. Anything from 2015 onwards."))
    assert not any(t.lower().startswith("anything") for t in terms)
    texts = [p.text for p in english_phrases("Hospitals send blood samples abroad for testing.")]
    assert "blood samples" in texts


def test_years_written_after_a_noun_are_a_time_span_not_part_of_the_term() -> None:
    texts = [p.text for p in english_phrases("Rents, panel data 2015-2022, diff-in-diff.")]
    assert "panel data" in texts
    assert not any("2015" in t for t in texts)
    texts = [p.text for p in english_phrases("Crop yields, household survey 2019 and farm records.")]
    assert "household survey" in texts
    # a year after a capitalised word may belong to a name
    assert "EU Horizon 2020 funding" in [
        p.text for p in english_phrases("EU Horizon 2020 funding and patents.")
    ]


def test_the_word_after_a_questions_do_opens_its_subject() -> None:
    texts = [p.text for p in english_phrases("What role do thought experiments play in early physics?")]
    assert "thought experiments" in texts
    assert not any("play" in t for t in texts)


def test_old_after_a_number_and_its_unit_is_an_age_not_a_term() -> None:
    texts = [p.text for p in english_phrases("Past tense errors in English-speaking 4-7 year olds.")]
    assert "olds" not in texts
    assert "old" not in [p.text for p in english_phrases("Children 5 years old with asthma.")]
    assert "old mice" in [p.text for p in english_phrases("Bone loss in old mice.")]


def test_an_exposure_listed_beside_a_condition_does_not_take_its_population_slot() -> None:
    slots = extract_slots("Heavy drinking and liver disease.")
    assert "Heavy drinking" not in slots.subject_population
    assert "liver disease" in slots.subject_population
    # people listed together still share who is studied
    slots = extract_slots("Smallholder farmers and pastoralists in Kenya: drought coping.")
    assert "pastoralists" in slots.subject_population


def test_a_plural_after_a_question_do_ends_the_subject_and_is_no_verb() -> None:
    # after "do", "does" or "did" the question's verb is a base form: "measures" is the plural noun
    slots = extract_slots("What do dispersion measures tell us about the intergalactic medium?")
    terms = [t.lower() for name in LIST_SLOT_NAMES for t in getattr(slots, name)]
    assert "dispersion measures" in terms
    assert "tell" not in terms and "dispersion" not in terms


def test_places_listed_after_a_measurement_are_the_setting() -> None:
    slots = extract_slots("Mostly looking at pre/post tests, UK and Australia.")
    assert "UK" in slots.context and "Australia" in slots.context
    assert "UK" not in slots.method_measurement


def test_the_verb_of_who_whose_gerund_mesh_names_is_the_condition() -> None:
    # "children who stammer": the verb says what the people have; its gerund is a MeSH entry term
    # (stammering -> Stuttering), so it is a phrase, where before the verb was taken and lost
    phrases = english_phrases("What works for children who stammer before they start school?")
    assert ("stammering", "who") in [(p.text, p.cue) for p in phrases]
    assert "smoking" in [p.text for p in english_phrases("nicotine patches for adults who smoke")]
    assert "falling" in [p.text for p in english_phrases("older people who fall at home")]
    # a verb with its complement preposition relates the people to something, and a verb whose gerund
    # MeSH does not name ("living") says no condition
    assert "caring" not in [p.text for p in english_phrases("support for people who care for relatives")]
    assert "living" not in [p.text for p in english_phrases("children who live in rural areas")]
    # a verb with an object: the object is the concept, not the act
    assert "swallowing" not in [p.text for p in english_phrases("children who swallow button batteries")]
    # the gerund with the word after it as a term MeSH names ("living alone": Home Environment) is one
    assert "living alone" in [p.text for p in english_phrases("falls in older people who live alone")]
    assert "living in" not in [p.text for p in english_phrases("children who live in rural areas")]
    # such a phrase shares no head with the phrase after "and"
    texts = [p.text for p in english_phrases("adults who smoke and lung function")]
    assert "smoking" in texts and "smoking function" not in texts


def test_an_adjective_a_relative_clause_gives_people_joins_them() -> None:
    # "people who are homeless" says what "homeless people" says: one population, where before the
    # adjective was read as a complement naming no concept and the condition was lost
    assert extract_slots("Housing First for people who are homeless").subject_population == [
        "homeless people"
    ]
    assert extract_slots("support for women who are pregnant").subject_population == ["pregnant women"]
    # not after a thing: "which are common in X" still names no concept
    assert "common" not in _all_terms(extract_slots("diseases which are common in Africa"))
