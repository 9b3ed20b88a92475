"""The brain is one package whose modules import only public names, in one order, and
read the view in one place (issue 15)."""

from __future__ import annotations

import ast
from pathlib import Path

import server.brain

PACKAGE = Path(server.brain.__file__).parent
ORDER = ("reading", "starting", "rivals", "equity", "style", "policy", "levels")
"""A module may import only from the modules before it (the package docstring's order)."""
VIEW_KEYS = {
    "legal", "seats", "you", "street", "pot", "high", "bring_in", "up", "hole", "down",
    "folded", "bet", "last_action", "shown", "cards", "action", "put", "to", "all_in", "seat",
}  # fmt: skip
"""Keys of ``common.views.seat_view``: only ``reading`` may look them up."""


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text()) for p in sorted(PACKAGE.glob("*.py"))}


def test_every_module_is_listed_in_order() -> None:
    assert set(_modules()) == {*ORDER, "__init__"}


def test_no_private_name_and_no_later_module_is_imported() -> None:
    """Of the project, the brain imports only ``common`` and itself."""
    for name, tree in _modules().items():
        for node in ast.walk(tree):  # imports inside functions count too
            if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
                continue
            module = node.module or ""
            for alias in node.names:
                assert not alias.name.startswith("_"), f"{name} imports {module}.{alias.name}"
            if module.startswith("server.brain.") and name != "__init__":
                other = module.rsplit(".", 1)[1]
                assert ORDER.index(other) < ORDER.index(name), f"{name} imports {other}"
            if module.split(".")[0] in ("server", "client", "scripts", "tests"):
                assert module.startswith("server.brain"), f"{name} imports {module}"


def test_only_reading_reads_the_view() -> None:
    for name, tree in _modules().items():
        if name == "reading":
            continue
        for node in ast.walk(tree):
            key = None
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                key = node.slice.value
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                key = node.args[0].value
            assert key not in VIEW_KEYS, f"{name} reads view key {key!r} (line {node.lineno})"


def test_the_public_names_are_exported() -> None:
    for name in server.brain.__all__:
        assert hasattr(server.brain, name), name
    for wanted in ("brain", "level_id", "LEVELS", "DEFAULT_LEVEL", "choose_action", "Brain"):
        assert wanted in server.brain.__all__
