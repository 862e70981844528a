"""Print the README's settings table from the Settings model, so the README never drifts from the code.

.venv/bin/python scripts/settings_table.py            # print the table
.venv/bin/python scripts/settings_table.py --write    # replace the table in README.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.settings import Settings

README = Path(__file__).resolve().parents[1] / "README.md"
BEGIN, END = "<!-- settings-table:begin -->", "<!-- settings-table:end -->"


def env_name(name: str, field) -> str:
    alias = field.validation_alias
    choices = getattr(alias, "choices", None)
    if choices:
        return " / ".join(f"`{c}`" for c in reversed(choices))
    return f"`SCHOLARMAP_{name.upper()}`"


def default_text(name: str, field) -> str:
    if name == "data_dir":
        return "`~/.scholarmap`"
    if field.default_factory is not None:
        return "`" + repr(field.default_factory()) + "`"
    if field.default is None:
        return "unset"
    return f"`{field.default}`"


def table() -> str:
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for name, field in Settings.model_fields.items():
        description = (field.description or "").replace("|", "\\|")
        if name.endswith("_base_url") and not description:
            description = f"base URL of {name.removesuffix('_base_url').replace('_', ' ')} (tests point it at the fake server)"
        rows.append(f"| {env_name(name, field)} | {default_text(name, field)} | {description} |")
    return "\n".join(rows)


def main() -> int:
    text = table()
    if "--write" not in sys.argv:
        print(text)
        return 0
    readme = README.read_text(encoding="utf-8")
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in readme:
        readme = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), lambda _: block, readme, flags=re.DOTALL)
    else:
        readme = readme.replace("SETTINGS_TABLE", block)
    README.write_text(readme, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
