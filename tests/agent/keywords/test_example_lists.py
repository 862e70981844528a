from __future__ import annotations

from agent.keywords.example_lists import (
    kinds_after_a_generic_class,
    kinds_given_as_examples,
    kinds_of_an_unnamed_class,
)
from agent.models import Concept, ConceptRole, Term


def _concepts(*labels: str) -> tuple[list[Concept], list[Term]]:
    concepts = [
        Concept(id=f"c{i}", label=label, role=ConceptRole.CONDITION) for i, label in enumerate(labels)
    ]
    terms = [Term(canonical=label, slot="output_target", concept=f"c{i}") for i, label in enumerate(labels)]
    return concepts, terms


def test_the_examples_written_after_a_class_are_its_kinds() -> None:
    """'adverse birth outcomes such as preterm birth and low birth weight': both examples join the class;
    the exposure before it does not."""
    concepts, terms = _concepts("fracking", "adverse birth outcomes", "preterm birth", "low birth weight")
    text = "Living near fracking sites and adverse birth outcomes such as preterm birth and low birth weight."
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c1": ["c2", "c3"]}


def test_examples_end_where_the_people_of_the_sentence_start() -> None:
    """'biologics, including adalimumab, in children with Crohn's disease': the children are no example."""
    concepts, terms = _concepts("biologics", "adalimumab", "children", "Crohn's disease")
    text = "Biologics, including adalimumab, in children with Crohn's disease"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c0": ["c1"]}
    text = "Mind-body exercise (e.g. adalimumab) for children"
    concepts, terms = _concepts("mind-body exercise", "adalimumab", "children")
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c0": ["c1"]}


def test_examples_end_at_the_verb_they_are_the_subject_of() -> None:
    """'exercise programmes such as tai chi or balance training prevent falls': the falls the examples
    prevent are no example of exercise."""
    concepts, terms = _concepts("exercise programmes", "tai chi", "balance training", "falls")
    text = "Do exercise programmes such as tai chi or balance training prevent falls in older people?"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c0": ["c1", "c2"]}


def test_no_examples_without_a_cue_right_after_the_class() -> None:
    """'we would like to study X' (the verb 'like') and a list after another word name no kinds."""
    concepts, terms = _concepts("nurses", "burnout", "depression")
    text = "Nurses would like to know about burnout and depression"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {}


def test_a_concept_left_out_is_neither_class_nor_kind_and_a_listed_one_no_class() -> None:
    concepts, terms = _concepts("outcomes of care", "mortality", "falls")
    text = "outcomes of care such as mortality and falls"
    assert kinds_given_as_examples(concepts, terms, text, {"c1"}, set()) == {"c0": ["c2"]}
    assert kinds_given_as_examples(concepts, terms, text, set(), {"c0"}) == {}
    assert kinds_given_as_examples(concepts, terms, text, set(), {"c1", "c2"}) == {"c0": ["c1", "c2"]}


def test_a_list_in_brackets_after_a_class_names_its_kinds() -> None:
    """'fluoroquinolones (ciprofloxacin, levofloxacin) and the risk of aortic dissection': the drugs in
    brackets join the class, and a list ends where 'and the' starts a new phrase."""
    concepts, terms = _concepts("fluoroquinolones", "ciprofloxacin", "levofloxacin", "aortic dissection")
    text = "Fluoroquinolones (ciprofloxacin, levofloxacin) and the risk of aortic dissection"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c0": ["c1", "c2"]}
    text = "Fluoroquinolones such as ciprofloxacin and levofloxacin and the risk of aortic dissection"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c0": ["c1", "c2"]}


def test_one_name_in_brackets_is_no_list_of_kinds() -> None:
    """'ticagrelor (Brilinta)': another name of the drug, not a kind of it (`bracketed_aliases`)."""
    concepts, terms = _concepts("ticagrelor", "Brilinta")
    assert kinds_given_as_examples(concepts, terms, "ticagrelor (Brilinta) after PCI", set(), set()) == {}


def test_the_kinds_of_a_kind_join_the_class_above_it() -> None:
    """'water pills (thiazides e.g. bendroflumethiazide)': one block of the three; and a term written
    before the class too is no kind of it ('taxes on sugary drinks (soda taxes, levies)')."""
    concepts, terms = _concepts("water pills", "thiazides", "bendroflumethiazide", "gout")
    text = "Do water pills (thiazides e.g. bendroflumethiazide, or others) bring on gout?"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c0": ["c1", "c2"]}
    concepts, terms = _concepts("taxes", "sugary drinks", "levies")
    text = "Do taxes on sugary drinks (soda taxes, levies) work?"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c1": ["c2"]}


def test_a_bracketed_list_after_a_singular_noun_names_no_kinds() -> None:
    """'cancer screening (cervical, breast and bowel)': modifiers of the screening, not kinds to OR in."""
    concepts, terms = _concepts("cancer screening", "cervical", "breast")
    text = "How do adults experience cancer screening (cervical, breast and bowel)?"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {}


def test_examples_of_a_class_left_unnamed_are_one_block() -> None:
    """'- exercise, home modification, that kind of thing' and 'I'm thinking of things like A, B and C':
    examples of a class the description does not name are alternatives, ORed into the first one's
    block; what stands before the list and the people after it are no example."""
    concepts, terms = _concepts("falls prevention", "older people", "exercise", "home modification")
    text = "falls prevention in older people - exercise, home modification, that kind of thing"
    assert kinds_of_an_unnamed_class(concepts, terms, text, set()) == {"c2": ["c3"]}
    concepts, terms = _concepts("vaccine hesitancy", "reminder letters", "education sessions", "parents")
    text = (
        "What reduces vaccine hesitancy? I'm thinking of things like reminder letters and education "
        "sessions for parents."
    )
    assert kinds_of_an_unnamed_class(concepts, terms, text, set()) == {"c1": ["c2"]}
    assert kinds_of_an_unnamed_class(concepts, terms, "Reminder letters and education sessions", set()) == {}


def test_examples_after_the_prepositional_phrases_of_a_class_of_acts_are_its_kinds() -> None:
    """'non-pharmacological interventions for delirium in ICU patients, such as early mobilisation and
    sleep promotion': the examples are of the interventions (a generic plural head), not of the
    delirium or the patients the phrases between name (each example had been a block of its own)."""
    concepts, terms = _concepts(
        "ICU", "early mobilisation", "sleep promotion", "delirium", "non-pharmacological interventions"
    )
    text = (
        "We focus on non-pharmacological interventions for delirium in ICU patients, such as early "
        "mobilisation and sleep promotion"
    )
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c4": ["c1", "c2"]}
    # a class named by its own noun takes only the examples written right after it
    concepts, terms = _concepts("statins", "atorvastatin")
    text = "statins for secondary prevention, such as atorvastatin"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {}


def test_examples_a_chinese_description_gives_after_a_class_are_its_kinds() -> None:
    """'非药物干预，比如早期活动和睡眠改善' (non-drug interventions, such as early mobilisation and better
    sleep): the examples, matched by the Chinese each term was rendered from, join the class."""
    concepts, terms = _concepts("delirium", "non-drug intervention", "activity", "sleep")
    for term, original in zip(terms, ["谵妄", "非药物干预", "早期活动", "睡眠"], strict=True):
        term.original = original
    text = "我们关注ICU患者谵妄的非药物干预，比如早期活动和睡眠改善"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c1": ["c2", "c3"]}


def test_a_bracket_after_a_chinese_class_lists_its_kinds() -> None:
    """'SGLT2抑制剂（dapagliflozin、empagliflozin）' and 'GLP-1受体激动剂（如 liraglutide、semaglutide）': the
    drugs in the bracket, with 如 or with no cue, are members of the class written right before it; one
    name alone in a bracket lists nothing."""
    concepts, terms = _concepts("heart failure", "SGLT2 inhibitor", "dapagliflozin", "empagliflozin")
    terms[0].original, terms[1].original = "心力衰竭", "SGLT2抑制剂"
    text = "SGLT2抑制剂（dapagliflozin、empagliflozin）治疗心力衰竭的 cost-effectiveness 分析"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c1": ["c2", "c3"]}
    text = "SGLT2抑制剂（如 dapagliflozin、empagliflozin）治疗心力衰竭"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {"c1": ["c2", "c3"]}
    text = "SGLT2抑制剂（dapagliflozin）治疗心力衰竭，以及 empagliflozin"
    assert kinds_given_as_examples(concepts, terms, text, set(), set()) == {}


def test_a_list_after_the_colon_of_a_generic_class_is_one_block_of_kinds() -> None:
    """'Interventions to improve ...: mobile apps, text reminders, family-based programmes': the listed
    kinds of what is done had each been a block AND'ed; they are one, in the order written. A title
    opened by a topic ("Medication adherence ...: apps and reminders") lists no examples of a class."""
    concepts, terms = _concepts("family", "medication adherence", "mobile apps", "text reminders")
    text = (
        "Interventions to improve medication adherence in adolescents with type 1 diabetes: mobile apps, "
        "text reminders, family-based programmes"
    )
    assert kinds_after_a_generic_class(concepts, terms, text, set()) == ["c2", "c3", "c0"]
    text = "Medication adherence in adolescents with type 1 diabetes: mobile apps and text reminders"
    assert kinds_after_a_generic_class(concepts, terms, text, set()) == []
