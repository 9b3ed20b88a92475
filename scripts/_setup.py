"""Make ``.venv`` on first run and (re)install the game whenever pyproject.toml changes.

The one setup behind ``scripts/play``, ``scripts/test`` and ``scripts/serve`` (through
``_setup.sh``) and behind ``scripts/play.py`` and ``scripts/test.py``, which need no bash
(Windows).  Standard library only: it runs before anything is installed.

A player sees two lines (what is being set up, roughly how long it takes); pip's own
output goes to ``.venv/setup.log``, whose last lines are shown if a step fails.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
STAMP = ".seventh-street-installed"
LOG = "setup.log"

Run = Callable[[Sequence[str], IO[str]], int]


def venv_python(venv: Path) -> Path:
    """The virtual environment's python: ``bin/python``, or ``Scripts\\python.exe`` on Windows."""
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def wanted(root: Path, extras: str) -> str:
    """What the stamp says once this pyproject.toml is installed with these extras."""
    digest = hashlib.sha256((root / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest}-{extras}"


def _run(cmd: Sequence[str], log: IO[str]) -> int:
    log.write(f"$ {' '.join(cmd)}\n")
    log.flush()
    return subprocess.run(list(cmd), stdout=log, stderr=subprocess.STDOUT, check=False).returncode


def _fail(what: str, log_path: Path, out: IO[str]) -> SystemExit:
    try:
        tail = log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
    except OSError:
        tail = []
    print(f"Setting up failed ({what}). The last lines of {log_path}:", file=out)
    for line in tail:
        print(f"  {line}", file=out)
    return SystemExit(1)


def setup(
    root: Path = ROOT,
    extras: str | None = None,
    *,
    python: str = sys.executable,
    run: Run = _run,
    out: IO[str] = sys.stderr,
) -> Path:
    """Make sure ``root/.venv`` holds the game with ``extras``; return its python."""
    extras = extras or os.environ.get("SETUP_EXTRAS") or "test"
    venv = root / ".venv"
    py = venv_python(venv)
    stamp = venv / STAMP
    first = not py.exists()
    had = stamp.read_text(encoding="utf-8").strip() if stamp.is_file() else "-"
    had_digest, _, had_list = had.partition("-")  # as wanted() writes it
    had_extras, want_extras = set(had_list.split(",")) - {""}, set(extras.split(",")) - {""}
    if not first and had_digest == wanted(root, "")[:-1] and want_extras <= had_extras:
        if stale_catalogs(root):
            compile_catalogs(root, py, run)
        return py  # this pyproject.toml, with these extras (or more) installed
    # The extras installed before stay: ./scripts/bundle's build beside the tests' test.
    extras = ",".join(sorted(want_extras | had_extras))
    want = wanted(root, extras)
    if first:
        print("Setting up Seventh Street in .venv (first run only; about a minute):", file=out)
        print("  making a Python environment and installing pygame, msgpack, zeroconf...", file=out)
    else:
        print("pyproject.toml changed: updating the game in .venv (a few seconds)...", file=out)
    out.flush()
    venv.mkdir(parents=True, exist_ok=True)
    log_path = venv / LOG
    failed = ""
    with log_path.open("w", encoding="utf-8") as log:
        if first and run([python, "-m", "venv", str(venv)], log) != 0:
            failed = "making .venv"
        else:
            run([str(py), "-m", "pip", "install", "--upgrade", "pip"], log)  # best effort
            if run([str(py), "-m", "pip", "install", "-e", f"{root}[{extras}]"], log) != 0:
                failed = "installing the game"
        if not failed:
            compile_catalogs(root, py, run, log)
    if failed:
        raise _fail(failed, log_path, out)
    stamp.write_text(want + "\n", encoding="utf-8")
    if first:
        print("Set up. (Details in .venv/setup.log.)", file=out)
    return py


def stale_catalogs(root: Path) -> bool:
    """Some ``client/locale/*/LC_MESSAGES/stud.po`` has no ``.mo`` or a newer one."""
    for po in (root / "client" / "locale").glob("*/LC_MESSAGES/stud.po"):
        mo = po.with_suffix(".mo")
        if not mo.is_file() or mo.stat().st_mtime < po.stat().st_mtime:
            return True
    return False


def compile_catalogs(root: Path, py: Path, run: Run, log: IO[str] | None = None) -> None:
    """Compile the translations' ``.mo`` files (best effort: the game compiles a missing
    or stale one in memory, so a failure here costs only a moment at start)."""
    cmd = [str(py), str(root / "scripts" / "i18n.py"), "compile"]
    if log is not None:
        run(cmd, log)
        return
    with (py.parent.parent / LOG).open("a", encoding="utf-8") as tail:
        run(cmd, tail)


def main() -> int:
    os.chdir(ROOT)
    setup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
