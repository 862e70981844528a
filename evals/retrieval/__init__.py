"""Retrieval benchmark: nDCG@10 / Recall@100 on BEIR-layout sets, BM25 speed, synthetic latency.

Run `python -m evals.retrieval --help`.
"""
