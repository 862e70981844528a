"""Understanding a research description as the PRD's fixed slots (stage 1 of the flow).

Owns: `description` (understand, clarify, interpretation and doubts), the offline slot extractor every
user without an LLM gets (`rules`, its entry; `english_tokens`, what one English token is;
`english_phrases` and `chinese_phrases`, where phrases start and end and the roles sentences give them,
the English one as ordered rules in `english_phrase_rules`;
`english_clauses`, the roles English clauses give across sentences; `slot_evidence`, what cues, head
words, acronyms and MeSH say; `slot_roles`, the slot each phrase goes in; `phrase`, their shared unit;
`lexicon`, the word classes), `slot_translation` (Chinese slot phrases in English) and `facets` (which slots a query must AND).
May import: `agent` root modules and `agent.language`; never `agent.keywords` or later stages.
"""
