"""What kind of model a local sentence-transformers folder holds, read from its own files.

Shared by the embedder (`sentence`) and the ONNX export (`onnx`), so neither imports the other's internals.
"""

from __future__ import annotations

import json
from pathlib import Path

_PLAIN_MODULES = frozenset(
    {
        "sentence_transformers.models.Transformer",
        "sentence_transformers.models.Pooling",
        "sentence_transformers.models.Normalize",
    }
)


def plain_transformer_pooling(path: str) -> str | None:
    """'mean' or 'cls' when a local sentence-transformers folder is just transformer + pooling (+ normalise).

    Such models (MiniLM, bge, e5 ...) are run with `transformers` directly: the same vectors, without
    importing sentence-transformers, whose dependencies (scikit-learn, scipy) double the process's memory.
    """
    folder = Path(path)
    try:
        modules = json.loads((folder / "modules.json").read_text())
        types = {module["type"] for module in modules}
        pooling_dir = next(m["path"] for m in modules if m["type"].endswith("Pooling"))
        pooling = json.loads((folder / pooling_dir / "config.json").read_text())
    except (OSError, ValueError, KeyError, StopIteration):
        return None
    if not types <= _PLAIN_MODULES or "sentence_transformers.models.Normalize" not in types:
        return None
    modes = {key for key, value in pooling.items() if key.startswith("pooling_mode") and value}
    if modes == {"pooling_mode_mean_tokens"}:
        return "mean"
    if modes == {"pooling_mode_cls_token"}:
        return "cls"
    return None
