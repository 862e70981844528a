"""The rules of the English phrase cutter (`agent.understanding.english_phrases`), one function per construction.

`reading` holds what the cutter knows while it reads (`PhraseReading`); the rules are grouped by what
they decide: `no_term` (words and spans that make no term), `noun_phrase` (whether a noun phrase goes on),
`effects` (exposure and outcome of effects and relations), `clause_cues` (the cues clauses and function
words give). `word_context` tests one word in its place; `phrase_roles` gives phrases already cut the
role a later word shows. May import what `agent.understanding` may.
"""
