"""Understanding a research description as the PRD's fixed slots (stage 1 of the flow).

Owns: `description` (understand, clarify, interpretation and doubts), `rules` + `lexicon` (the offline slot
extractor every user without an LLM gets), `slot_translation` (Chinese slot phrases in English) and
`facets` (which slots a query must AND).
May import: `agent` root modules and `agent.language`; never `agent.keywords` or later stages.
"""
