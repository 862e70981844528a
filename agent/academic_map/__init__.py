"""The academic map of a Run: countries -> cities -> institutions -> researchers (stage 5).

Owns: `build` (the map), `researchers` (one person per institution, PI guess, career, summary),
`affiliations/` (parsing raw affiliation strings) and `institutions/` (registry matching).
May import: `agent` root modules, `agent.runs` and `tools` (geocoding).
"""
