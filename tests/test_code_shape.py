"""The code-shape check of ``make lint`` (issue 17) can fail: what is new or grown is reported."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "lint"))

from code_shape import Shape, _cycles, _imports, over_budget


def test_new_or_grown_items_are_over_budget_and_known_ones_are_not() -> None:
    budget = {
        "long_modules": {"a.py": 700},
        "long_functions": {"a.py::f": 100},
        "cycles": [["m.a", "m.b"]],
        "private_imports": 12,
    }
    same = Shape({"a.py": 700}, {"a.py::f": 100}, [["m.a", "m.b"]], ["x"] * 12)
    assert over_budget(same, budget) == []
    worse = Shape(
        {"a.py": 701, "b.py": 601},
        {"a.py::f": 100, "b.py::g": 81},
        [["m.a", "m.b"], ["m.c", "m.d"]],
        ["x"] * 13,
    )
    problems = over_budget(worse, budget)
    assert problems == [
        "a.py: 701 lines (at most 700)",
        "b.py: 601 lines (at most 600)",
        "b.py::g: 81 lines (at most 80)",
        "import cycle: m.c <-> m.d",
        "13 private names imported across modules (at most 12); the newest are listed by --verbose",
    ]


def test_a_lazy_import_is_a_dependency_and_type_checking_imports_are_not() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .b import B\n"
        "def f():\n    from .c import C\n"
    )
    assert sorted(n.module or "" for n in _imports(tree) if isinstance(n, ast.ImportFrom)) == ["c", "typing"]
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
