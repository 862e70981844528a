"""The house plan's import rules (ARCHITECTURE.md, "Layers"), read from the source with `ast`.

- the layers: server -> graph -> agent -> tools, nothing imports upwards; `tools/` takes only the two
  import-free modules `agent/models.py` and `agent/errors.py` from `agent/`;
- inside `agent/`, the packages form a chain with no cycle (`language` <- `understanding` <- `keywords`, ...);
- an import inside a function says why in a comment (an optional or heavy dependency, a start-up cost);
- every exception class of the product derives from `agent.errors.ScholarMapError` and is drawn in the
  tree of `agent/errors.py`'s docstring.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent import errors
from tests.paths import REPO

PRODUCT = ("agent", "tools", "graph", "server", "prompts")
LAYER = {"server": 3, "graph": 2, "agent": 1, "tools": 0, "prompts": 0}
TOOLS_MAY_USE = {"agent.models", "agent.errors"}
# which agent packages each agent package may import (besides the root modules and tools)
AGENT_PACKAGES: dict[str, set[str]] = {
    "language": set(),
    "understanding": {"language"},
    "keywords": {"language", "understanding"},
    "runs": set(),
    "search": {"language", "runs"},
    "ask": {"language", "runs", "search"},
    "academic_map": {"language", "runs"},
}
AGENT_ROOT = {"models", "errors", "settings", "llm", "prompts", "db", "step_deadline"}


def _modules() -> Iterator[tuple[str, Path, ast.Module]]:
    for top in PRODUCT:
        for path in sorted((REPO / top).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path, ast.parse(path.read_text(encoding="utf-8"))


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for (
                alias
            ) in node.names:  # `from agent import errors` names a module, `from agent.x import y` a value
                submodule = f"{node.module}.{alias.name}"
                yield node, submodule if _is_module(submodule) else node.module


def _is_module(name: str) -> bool:
    path = REPO / name.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


MODULES = list(_modules())


def test_layers_point_downwards() -> None:
    wrong = []
    for name, path, tree in MODULES:
        top = name.split(".")[0]
        for node, target in _imports(tree):
            target_top = target.split(".")[0]
            if target_top not in LAYER or not _is_module(target):
                continue
            if top == "tools" and target_top == "agent":
                if target not in TOOLS_MAY_USE:
                    wrong.append(
                        f"{path.relative_to(REPO)}:{node.lineno} imports {target} (tools take models/errors)"
                    )
            elif LAYER[target_top] > LAYER[top]:
                wrong.append(f"{path.relative_to(REPO)}:{node.lineno} imports {target} (a higher layer)")
    assert wrong == []


def test_evals_never_import_the_tests() -> None:
    """`python -m evals.fake_sources` and every evaluation run outside the checkout's root too, where
    `tests/` is no importable package: evals take their paths from `evals.paths`."""
    offending = [
        f"{path.relative_to(REPO)}: {name}"
        for path in sorted((REPO / "evals").rglob("*.py"))
        for _, name in _imports(ast.parse(path.read_text(encoding="utf-8")))
        if name == "tests" or name.startswith("tests.")
    ]
    assert offending == []


def test_agent_packages_form_a_chain() -> None:
    packages = {p.name for p in (REPO / "agent").iterdir() if (p / "__init__.py").is_file()}
    assert packages == set(AGENT_PACKAGES), "a new agent package: add its rule here and to ARCHITECTURE.md"
    roots = {p.stem for p in (REPO / "agent").glob("*.py") if p.stem != "__init__"}
    assert roots == AGENT_ROOT, "agent/ root holds only the shared foundations (ARCHITECTURE.md)"
    wrong = []
    for name, path, tree in MODULES:
        parts = name.split(".")
        if parts[0] != "agent" or len(parts) < 2:
            continue
        own = parts[1] if parts[1] in AGENT_PACKAGES else None
        for node, target in _imports(tree):
            target_parts = target.split(".")
            if target_parts[0] != "agent" or len(target_parts) < 2 or not _is_module(target):
                continue
            package = target_parts[1]
            if package not in AGENT_PACKAGES or package == own:
                continue
            if own is None or package not in AGENT_PACKAGES[own]:
                wrong.append(f"{path.relative_to(REPO)}:{node.lineno} imports {target}")
    assert wrong == []


def _says_why(lines: list[str], index: int) -> bool:
    """A comment on the import's line, or above the block of imports it belongs to."""
    if "#" in lines[index]:
        return True
    while index > 0 and lines[index - 1].strip().startswith(("import ", "from ")):
        index -= 1
    return index > 0 and lines[index - 1].strip().startswith("#")


def test_imports_inside_functions_say_why() -> None:
    silent = []
    for _, path, tree in MODULES:
        lines = path.read_text(encoding="utf-8").splitlines()
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    continue
                if not _says_why(lines, node.lineno - 1):
                    silent.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert silent == [], "an import inside a function needs a comment saying why (or move it to the top)"


def _exception_classes() -> Iterator[tuple[str, type[BaseException]]]:
    for name, _, tree in MODULES:
        defined = [
            node.name
            for node in tree.body
            if isinstance(node, ast.ClassDef) and (node.name.endswith(("Error", "Exception")) or node.bases)
        ]
        if not defined:
            continue
        module = importlib.import_module(name)
        for class_name in defined:
            value = getattr(module, class_name, None)
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name:
                yield f"{name}.{class_name}", value


@pytest.mark.parametrize("qualified,exception", list(_exception_classes()), ids=lambda v: str(v))
def test_every_exception_has_the_one_root(qualified: str, exception: type[BaseException]) -> None:
    assert issubclass(exception, errors.ScholarMapError), (
        f"{qualified} must derive from a branch of agent.errors"
    )
    assert f" {exception.__name__}" in (errors.__doc__ or ""), (
        f"{qualified} is missing from agent/errors.py's tree"
    )
