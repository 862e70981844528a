"""Running a strategy: every database at once, one merged evidence-keeping list, ranked (stage 3).

Owns: `executor` (one Run end to end), `sources` (outside clients built from settings), `merge`, `ranking`,
`similarity`, `snowball` (citation chasing), `guard` (nothing to search) and `gc_tuning`.
May import: `agent` root modules, `agent.keywords`, `agent.runs` (to save the Run) and `tools`.
"""
