"""Hybrid retrieval over a Run's papers (issue #7, steps 1–6 of the 001 design).

`engine.RetrievalEngine` is the entry point: `ingest` a Run's papers into PostgreSQL (sections,
BM25 tokens, pgvector embeddings, term graph), `search` a question (normalise → intent → BM25 ‖
dense ‖ graph → section-level fusion → optional cross-encoder rerank), `expand_sections` to whole
sections. The data shapes are in `types`; each step has its own module. Nothing is imported here,
so that importing the package stays cheap.
"""
