"""Where an English phrase starts and ends, and the roles sentence structure gives it (rules fallback).

No domain dictionary: a description is cut into noun phrases at function words, verbs and punctuation,
and that is grammar, not vocabulary: a participle after people opens a relative clause ("children
receiving ECMO"), a past participle before a preposition is a verb ("isolated from"), an adverb before a
modifier stays in its noun phrase ("critically ill"), "use" after a noun is a noun ("social media use"),
a MeSH term holding a function word stays whole ("quality of life"); sentence structure names roles
("the effect of X on Y", "X can be used to", "such as", "in terms of"), and a sentence about the user
("I'm a nurse") names no concept. A stance adverb ("ideally") is never part of a noun phrase; "with"
after a participle of giving ("treated with") names what is given, after one of measuring ("measured
with") the method; what is used "as a biomarker" is the feature. A gerund that opens a phrase is a task
on its object ("decoding speech" -> "speech decoding"). What something is compared with ("compare X
with Y", "X compared with Y", "instead of Y", "rather than Y", "better than Y") gets the cue
"comparator" (`agent.understanding.rules` gives it X's role); a verb after the subject of a whether/if
clause or a question ends the subject and, as an effect verb does, makes it the exposure and its
object the outcome; an effect verb with no object makes its subject the outcome; the word after a
modal or after "want to" is a verb; the unit after a number or "per" is no concept. Tokens come from
`english_tokens`; each construction is one rule in `english_phrase_rules` (RULES below gives their
order: the first rule that takes a token decides it, and a token no rule takes goes on the phrase being
read); `english_clauses` then reads the roles whole clauses give, and `english_phrase_merges` joins and
re-reads neighbouring phrases. Whether a word that may be a noun or a verb ("cover", "transport",
"healing") is a verb in its place is `english_pos.verb_here`'s decision. Each phrase leaves with its
cue; `slot_roles` puts it in a slot.
"""

from __future__ import annotations

from collections.abc import Callable

from agent.understanding.english_clauses import clause_roles
from agent.understanding.english_phrase_merges import merge_phrases
from agent.understanding.english_phrase_rules import clause_cues, effects, no_term, noun_phrase
from agent.understanding.english_phrase_rules.phrase_roles import people_acting_on_people
from agent.understanding.english_phrase_rules.reading import PhraseReading
from agent.understanding.english_tokens import description_tokens
from agent.understanding.phrase import Phrase

# The rules in the order they are asked about each token; the order matters where two could take the
# same token (a number before a unit is a size before it is a count; a function word ends a phrase only
# when no construction before it claimed the word).
RULES: tuple[Callable[[PhraseReading], bool], ...] = (
    no_term.unit_after_per,
    no_term.rest_of_a_read_span,
    no_term.request_for_papers,
    no_term.age_range,
    noun_phrase.graded_range,
    no_term.purpose_in_order_to,
    no_term.purpose_opens_sentence,
    clause_cues.delivered_by,
    no_term.manner_of_delivery,
    clause_cues.people_to_deliver,
    clause_cues.people_delivering,
    noun_phrase.effect_verb_object_modifier,
    no_term.condition_verb_after_who,
    no_term.verb_after_who,
    noun_phrase.word_inside_a_title,
    no_term.frequency_adverb,
    clause_cues.as_adjective_as,
    clause_cues.adjective_after_how,
    no_term.judgement_before_outcome,
    no_term.degree_after_how,
    no_term.scope_word,
    no_term.note_interjection,
    no_term.per_ends_phrase,
    clause_cues.x_based_method,
    clause_cues.comparing_opened,
    clause_cues.place_left,
    clause_cues.punctuation,
    clause_cues.adjusting_for,
    clause_cues.predictor_asked_about,
    clause_cues.task_verb,
    clause_cues.task_verb_in_question,
    effects.kind_of_effect,
    effects.effect_of,
    effects.effects_on_after_noun,
    effects.in_terms_of,
    clause_cues.example_list,
    no_term.user_about_themselves,
    no_term.role_opens_sentence,
    no_term.research_after_user,
    no_term.research_after_the_role,
    no_term.adverb_after_subject,
    no_term.verb_after_modal,
    effects.relates_to,
    effects.relate_opens,
    no_term.gerund_after_preposition,
    no_term.participle_clause_verb,
    no_term.participle_before_article,
    no_term.participle_after_noun,
    no_term.infinitive_after_wanting,
    effects.relate_to,
    noun_phrase.preposition_before_to,
    clause_cues.versus_between_phrases,
    clause_cues.passive_use,
    clause_cues.comparative_than,
    clause_cues.compared_with,
    clause_cues.verb_ends_subject,
    clause_cues.verb_after_plural_subject,
    no_term.relative_clause_verb,
    effects.effect_of_on,
    effects.association_with,
    effects.looking_at,
    effects.association_between,
    effects.between_and,
    no_term.verb_after_pronoun,
    noun_phrase.measure_to,
    noun_phrase.movement_to,
    noun_phrase.care_property_of,
    noun_phrase.generic_head_after_care,
    noun_phrase.duration_of,
    noun_phrase.noun_before_its_concept,
    noun_phrase.care_at_home,
    effects.change_in,
    effects.quantity_of,
    effects.risk_of,
    noun_phrase.gerund_object_participle,
    noun_phrase.participle_adjective,
    noun_phrase.comparative_adjective,
    effects.effect_verb,
    effects.leads_to,
    effects.happened_to,
    effects.varying_by,
    no_term.number_before_unit,
    no_term.sample_size,
    no_term.counted_places,
    no_term.each_sampling_place,
    no_term.years_after_noun,
    no_term.bare_number,
    no_term.unit_after_number,
    no_term.age_after_unit,
    clause_cues.study_of_method,
    noun_phrase.noun_after_participles,
    noun_phrase.test_as_noun,
    noun_phrase.noun_or_verb_as_noun,
    noun_phrase.plural_noun_not_verb,
    noun_phrase.reduced_relative_after_people,
    noun_phrase.participle_after_condition,
    noun_phrase.reduced_relative_after_things,
    noun_phrase.relative_after_record_noun,
    clause_cues.judging_adjective_after_subject,
    noun_phrase.gerund_head_noun,
    noun_phrase.no_verb_after_article,
    noun_phrase.bare_verb_as_noun,
    clause_cues.gerund_of_use_opens_subject,
    no_term.passive_participle_after_be,
    clause_cues.function_word_or_verb,
    clause_cues.verb_before_article,
)


def english_phrases(text: str) -> list[Phrase]:
    """The noun phrases of an English description, each with the cue its place in the sentence gives."""
    reading = PhraseReading(description_tokens(text))
    for index in range(len(reading.tokens)):
        reading.read(index)
        if not any(rule(reading) for rule in RULES):
            reading.current.append(reading.token)
    reading.index = len(reading.tokens)
    reading.flush()
    people_acting_on_people(reading.phrases, reading.tokens)
    return merge_phrases(clause_roles(reading.phrases, reading.tokens))
