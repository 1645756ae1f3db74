"""Every ```python block of the repo-root README.md and py/README.md runs.

The blocks of one file run in order in one namespace, as a reader would type
them. A file without such blocks (or not written yet) is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
READMES = [REPO / "README.md", REPO / "py" / "README.md"]
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


def python_blocks(path: Path) -> list[str]:
    if not path.is_file():
        return []
    return BLOCK.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("readme", READMES, ids=lambda path: str(path.relative_to(REPO)))
def test_readme_python_blocks_run(readme: Path) -> None:
    blocks = python_blocks(readme)
    if not blocks:
        pytest.skip(f"{readme.relative_to(REPO)} has no python blocks")
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for index, block in enumerate(blocks):
        code = compile(block, f"{readme.relative_to(REPO)} block {index + 1}", "exec")
        exec(code, namespace)
