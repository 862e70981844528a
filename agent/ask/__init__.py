"""Questions on a Run: hybrid retrieval, full text in tiers, cited answers, abstention (stage 4).

Owns: `answer` (the streamed, cited answer), `search` + `trace` (retrieval steps and their trace), `text` and
`cues` (extractive answers), `answerability` (the calibrated "no answer" decision), `citation_check`,
`knowledge` (the retrieval engine from settings), `fulltext*` (tiers of requirement 002) and `probes`.
May import: `agent` root modules, `agent.runs`, `agent.language.chinese_sentences` (and `cedict`), `agent.search.sources` and `tools`.
"""
