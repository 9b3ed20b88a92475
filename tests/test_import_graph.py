"""No import circle among the modules of ``common``, ``server`` and ``client`` (issue 15),
and no I/O in ``common`` (issue 34).

Every ``import`` statement counts, wherever it is: at the top of a module, inside a
function (the old way of hiding a circle) and under ``if TYPE_CHECKING:``.  An edge is
resolved the way Python resolves it:

- ``import a.b.c`` is an edge to the module ``a.b.c``;
- ``from a.b import c`` is an edge to ``a.b.c`` when that is a module, else to ``a.b``;
- relative imports (``from . import x``, ``from ..y import z``) are resolved against the
  importing module's package first.

The one rule about packages: a package's ``__init__`` that imports its own submodules
(to re-export their names) is the package's face, not a dependency of its own, so those
edges are left out; a module outside the package importing it counts as importing the
``__init__`` and every submodule the ``__init__`` imports.  A submodule importing its own
package's ``__init__`` keeps that edge, so a package can never depend on itself through
something outside it without the test seeing the circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("common", "server", "client")


IO_MODULES = frozenset({
    "argparse", "asyncio", "concurrent", "fcntl", "glob", "http", "io", "logging", "mmap",
    "multiprocessing", "os", "pathlib", "platformdirs", "pygame", "select", "selectors",
    "shutil", "signal", "socket", "socketserver", "subprocess", "sys", "tempfile", "threading",
    "time", "urllib", "zeroconf"
})  # fmt: skip
"""Modules whose job is I/O (files, sockets, processes, the terminal, clocks, logs)."""
IO_CALLS = frozenset({"open", "print", "input", "breakpoint"})
"""Built-in functions that read or write outside the process."""
IO_METHODS = frozenset({
    "load_cert_chain", "load_verify_locations", "wrap_socket", "read_text", "read_bytes",
    "write_text", "write_bytes", "now", "today", "utcnow"
})  # fmt: skip
"""Methods that reach a file or a clock through a module allowed for its pure parts
(``ssl`` for TLS in memory, ``datetime`` for dates read from a record)."""


def _modules() -> dict[str, Path]:
    """Every module of the three packages: dotted name -> file."""
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _imports(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of ours that ``name`` imports, anywhere in its file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if _is_package(path) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                yield sub if sub in modules else mod


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports, with the package rule of the docstring."""
    modules = _modules()
    raw: dict[str, set[str]] = {}
    for name, path in modules.items():
        raw[name] = {m for m in _imports(name, path, modules) if m in modules and m != name}

    def inside(mod: str, pkg: str) -> bool:
        return mod.startswith(pkg + ".")

    packages = {n for n, p in modules.items() if _is_package(p)}
    # What each package's face re-exports: the submodules its __init__ imports.
    faces = {p: {m for m in raw[p] if inside(m, p)} for p in packages}
    graph: dict[str, set[str]] = {}
    for name, deps in raw.items():
        out: set[str] = set()
        for dep in deps:
            if name in packages and inside(dep, name):
                continue  # the package's own face
            out.add(dep)
            if dep in packages and not inside(name, dep):
                out |= faces[dep]
        graph[name] = out
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other (Tarjan), largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups, key=len, reverse=True)


def io_in(path: Path) -> list[str]:
    """What in ``path`` does I/O: imports of ``IO_MODULES`` (anywhere in the file) and
    calls of ``IO_CALLS`` or ``IO_METHODS``, each as ``line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call):
            fn = node.func
            if isinstance(fn, ast.Name) and fn.id in IO_CALLS:
                found.append(f"{node.lineno}: {fn.id}()")
            elif isinstance(fn, ast.Attribute) and fn.attr in IO_METHODS:
                found.append(f"{node.lineno}: .{fn.attr}()")
        found += [f"{node.lineno}: import {n}" for n in names if n.split(".")[0] in IO_MODULES]
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_common_does_no_io() -> None:
    """``common`` is the game: no file, socket, process, terminal, clock or log (issue 34);
    the server and the game do that around it."""
    where = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "common").rglob("*.py"))
        if (found := io_in(path))
    }
    assert not where, "I/O in common/:\n" + "\n".join(
        f"  {file}:{line}" for file, lines in where.items() for line in lines
    )


def test_io_is_seen_wherever_it_is(tmp_path) -> None:
    """The check itself: an I/O import in a function, ``from os import path``, ``open()``
    and a certificate file loaded through ``ssl`` are each found; pure code is not."""
    path = tmp_path / "m.py"
    path.write_text(
        "import ssl, json\nfrom os import path\n"
        "def f():\n    import socket\n    return open('x')\n"
        "def g(ctx):\n    ctx.load_cert_chain('k.pem')\n    return json.dumps({})\n"
    )
    assert io_in(path) == [
        "2: import os",
        "4: import socket",
        "5: open()",
        "7: .load_cert_chain()",
    ]
    path.write_text("import hashlib, ssl\nfrom common.cards import Card\nprint = len\n")
    assert io_in(path) == []


def test_the_graph_sees_every_kind_of_import() -> None:
    """The walk itself: imports in functions and under TYPE_CHECKING are edges too."""
    graph = import_graph()
    assert "client.app" in graph and "common.engine" in graph and "server.table" in graph
    assert any(deps for deps in graph.values())


def test_no_import_circle() -> None:
    """Issue 15: no module of ours reaches itself through its imports."""
    groups = strongly_connected(import_graph())
    assert not groups, "import circles:\n" + "\n".join(
        f"  {len(g)} modules: {', '.join(g)}" for g in groups
    )


def test_a_circle_is_named() -> None:
    """The check itself: a circle hidden in a function is found and named."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_imports_resolve_as_python_does(tmp_path) -> None:
    """``from . import x``, ``from ..y import z`` and ``from a.b import c`` (a module or a
    name), wherever they are written."""
    files = {
        "p/__init__.py": "from p.sub import thing\n",
        "p/sub.py": "def f():\n    from . import other\n    from ..q import mod\n",
        "p/other.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import q.mod\n",
        "q/__init__.py": "",
        "q/mod.py": "from q import mod as again\nfrom p.sub import f\n",
    }
    modules = {}
    for rel, source in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        name = rel[:-3].replace("/", ".").removesuffix(".__init__")
        modules[name] = path
    found = {n: set(_imports(n, p, modules)) & set(modules) for n, p in modules.items()}
    assert found["p"] == {"p.sub"}
    assert found["p.sub"] == {"p.other", "q.mod"}
    assert found["p.other"] == {"q.mod"}
    assert found["q.mod"] == {"q.mod", "p.sub"}
