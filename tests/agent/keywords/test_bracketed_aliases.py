from __future__ import annotations

from agent.keywords.bracketed_aliases import add_bracketed_aliases
from agent.models import Synonym, SynonymOrigin, Term


def _synonyms(term: Term) -> list[str]:
    return [s.text for s in term.synonyms]


def test_a_name_in_brackets_joins_the_term_written_before_it() -> None:
    """'unconventional natural gas development (fracking)': the nickname is the user's synonym of the
    phrase before it, not of the outcome after it."""
    gas = Term(canonical="Residential proximity to unconventional natural gas development", slot="context")
    births = Term(canonical="adverse birth outcomes", slot="output_target")
    add_bracketed_aliases(
        [gas, births],
        "Residential proximity to unconventional natural gas development (fracking) and adverse birth outcomes",
    )
    assert _synonyms(gas) == ["fracking"] and _synonyms(births) == []
    assert gas.synonyms[0].origins == [SynonymOrigin.USER]


def test_an_acronym_joins_the_term_that_opens_its_long_form() -> None:
    """'Graduated driver licensing (GDL) programmes': the term written as the long form gets GDL, and
    '(CBT-I)' after 'cognitive behavioural therapy for insomnia' names the therapy, not the insomnia."""
    licensing = Term(
        canonical="licensing",
        slot="context",
        synonyms=[Synonym(text="graduated driver licensing", origins=[SynonymOrigin.USER])],
    )
    add_bracketed_aliases([licensing], "Graduated driver licensing (GDL) programmes for novice drivers")
    assert "GDL" in _synonyms(licensing)
    therapy = Term(canonical="cognitive behavioural therapy", slot="context")
    insomnia = Term(canonical="insomnia", slot="subject_population")
    add_bracketed_aliases(
        [therapy, insomnia],
        "Digital cognitive behavioural therapy for insomnia (CBT-I) in adults with insomnia",
    )
    assert _synonyms(therapy) == ["CBT-I"] and _synonyms(insomnia) == []


def test_what_is_no_name_stays_out() -> None:
    """Counts, ages, examples, alternatives and negations in brackets are no second name; nor is one
    already named."""
    falls = Term(canonical="falls", slot="output_target")
    add_bracketed_aliases(
        [falls],
        "Exercise for preventing falls (aged 65 or over) and falls (e.g. slips) and falls (n = 30)"
        " and falls (not fractures)",
    )
    assert _synonyms(falls) == []
    copd = Term(
        canonical="chronic obstructive pulmonary disease",
        slot="subject_population",
        synonyms=[Synonym(text="COPD", origins=[SynonymOrigin.USER])],
    )
    add_bracketed_aliases([copd], "Rehabilitation in chronic obstructive pulmonary disease (COPD)")
    assert _synonyms(copd) == ["COPD"]


def test_the_words_of_a_second_name_are_no_terms_of_their_own() -> None:
    """'otitis media with effusion (glue ear)': "glue" and "ear", written only inside the bracket, are
    the second name's words (they had been AND'ed as Adhesives); a word also written outside it stays."""
    effusion = Term(canonical="otitis media with effusion", slot="output_target")
    glue, ear = Term(canonical="glue", slot="context"), Term(canonical="ear", slot="context")
    tubes = Term(canonical="Tympanostomy tubes", slot="context")
    pieces = add_bracketed_aliases(
        [effusion, glue, ear, tubes],
        "Tympanostomy tubes versus watchful waiting for otitis media with effusion (glue ear) in children",
    )
    assert _synonyms(effusion) == ["glue ear"]
    assert pieces == [glue, ear]
    effusion = Term(canonical="otitis media with effusion", slot="output_target")
    ear = Term(canonical="ear", slot="context")
    assert add_bracketed_aliases([effusion, ear], "otitis media with effusion (glue ear) and ear pain") == []


def test_alternatives_written_with_a_slash_are_no_second_name() -> None:
    """'anti-VEGF injections (ranibizumab/aflibercept/bevacizumab)': the drugs are kinds of the
    injections, searched as themselves, not one phrase synonym whose words are no terms."""
    injections = Term(canonical="anti-VEGF injections", slot="context")
    drug = Term(canonical="ranibizumab", slot="context")
    pieces = add_bracketed_aliases(
        [injections, drug], "anti-VEGF injections (ranibizumab/aflibercept/bevacizumab) for macular oedema"
    )
    assert _synonyms(injections) == [] and pieces == []
