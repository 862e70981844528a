"""Offline Chinese -> English: the renderings that let Chinese descriptions and questions reach English databases.

Owns: `render` (phrases and questions in English, MeSH as judge), `cedict` (CC-CEDICT and the shipped
scientific glossary in `data/`). May import: `agent` root modules and `agent.keywords.mesh_recognition`.
"""
