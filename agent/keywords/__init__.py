"""From confirmed slots to a search strategy: concepts, synonyms and one query per database (stage 2).

Owns: `concepts` (what to AND, what to OR, what to leave out), `phrase_words` (the words of a phrase
that name no concept), `concept_roles` (a concept's role and whether the query requires it),
`coordination` (the words alternatives listed together share: "hip and knee osteoarthritis"),
`treatment_names` (what a discipline or a drug-class adjective names in MeSH: "acupuncture"),
`synonyms` (attested synonyms checked by hit counts), `querybuild` (pure query text per database),
`query_check` (counted blocks), `review` (the researcher's edits) and `plan` (description ->
understanding -> queries in one call).
May import: `agent` root modules, `agent.language`, `agent.understanding` and `tools`.
"""
