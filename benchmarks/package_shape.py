"""The package's shape in a few counts, for a structural change's before and after.

    .venv/bin/python benchmarks/package_shape.py [PACKAGE_DIR]

- names imported across modules: every name of a `from pytest_llmfaith... import X` in the package
  (type-checking imports included: they are coupling a reader follows too);
- lines: every line of the package's .py files (`find pytest_llmfaith -name '*.py' | xargs wc -l`);
- `is_local`: the lines that name it, by file (the backend is chosen in one place, the offline judge
  knows itself; everything else asks the backend's traits).
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def counts(package: Path) -> tuple[int, int, Counter[str]]:
    imported = lines = 0
    is_local: Counter[str] = Counter()
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines += len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith(package.name):
                imported += len(node.names)
        shown = str(path.relative_to(package.parent))
        is_local.update({shown: sum("is_local" in line for line in text.splitlines())} if "is_local" in text else {})
    return imported, lines, is_local


def main() -> None:
    package = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "pytest_llmfaith"
    imported, lines, is_local = counts(package)
    print(f"names imported across modules: {imported}")
    print(f"package lines: {lines} in {sum(1 for _ in package.rglob('*.py'))} files")
    print(f"is_local: {sum(is_local.values())} lines in {len(is_local)} files: "
          + ", ".join(f"{name} ({n})" for name, n in sorted(is_local.items())))


if __name__ == "__main__":
    main()
