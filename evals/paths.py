"""Where the shared fixtures and evaluation data live (never copied into the repository).

`SCHOLARMAP_SHARED_DIR` names the folder; otherwise the `shared/` folder beside the checkout is used,
then `/work/shared`.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _find_shared() -> Path:
    configured = os.environ.get("SCHOLARMAP_SHARED_DIR")
    candidates = [Path(configured)] if configured else []
    candidates += [REPO.parent / "shared", Path("/work/shared")]
    for candidate in candidates:
        if (candidate / "fixtures").is_dir():
            return candidate
    return candidates[0]


SHARED = _find_shared()
FIXTURES = SHARED / "fixtures"
DATA = SHARED / "data"
