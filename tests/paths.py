from evals.paths import DATA, FIXTURES, REPO, SHARED

__all__ = ["DATA", "FIXTURES", "REPO", "SHARED"]
