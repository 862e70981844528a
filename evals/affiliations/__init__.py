"""Evaluation of affiliation parsing (country, city) and institution matching (ROR ids).

Run `python -m evals.affiliations --gold FILE [--gold FILE ...] [--ror FILE]`; see `__main__.py`.
"""
