"""Understanding a research description as the PRD's fixed slots (stage 1 of the flow).

Owns: `description` (understand, clarify, interpretation and doubts), `rules` + `lexicon` (the offline slot
extractor every user without an LLM gets) and `slot_translation` (Chinese slot phrases in English).
May import: `agent` root modules (models, settings, llm, prompts, text), `agent.bilingual`, `agent.keywords`
(MeSH recognition as evidence of a phrase's role); never `agent.search`, `agent.runs`, `agent.ask`.
"""
