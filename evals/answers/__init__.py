"""Answer-quality evaluation on SciFact: abstention, citations, Chinese questions (`python -m evals.answers`)."""
