"""From confirmed slots to a search strategy: concepts, synonyms, MeSH and one query per database (stage 2).

Owns: `concepts` (what to AND, what to OR, what to leave out), `mesh_recognition` (the embedded MeSH
vocabulary), `synonyms` (attested synonyms checked by hit counts), `morphology`, `querybuild` (pure query
text per database), `query_check` (counted blocks), `review` (the researcher's edits) and `plan`.
May import: `agent` root modules, `agent.bilingual`, and `tools` (through `agent.search.sources` for clients).
"""
