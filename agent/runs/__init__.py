"""Projects and their immutable Runs on disk, and the Run's exports.

Owns: `store` (Projects, Runs, their files) and `exports` (CSV, RIS, BibTeX, JSON).
May import: `agent` root modules only (models, settings, text).
"""
