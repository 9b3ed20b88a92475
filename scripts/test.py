"""``scripts/test`` without bash (Windows: ``py scripts\\test.py``): set up ``.venv`` on the
first run, then run the test suite the same way.  Extra arguments go to pytest.
Standard library only."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _setup  # noqa: E402

_ONE_PROCESS = {"-n", "no:xdist", "--pdb", "--trace", "-s", "--capture=no"}


def command(py: Path, args: list[str], env: Mapping[str, str]) -> list[str]:
    """The pytest command ``scripts/test`` runs: one xdist worker per core unless the
    arguments choose (``-n N``) or need one process (``--pdb``, ``-s``...)."""
    workers = ["-n", env.get("STUD_TEST_WORKERS", "auto"), "--dist", "loadgroup"]
    for arg in args:
        if arg in _ONE_PROCESS or arg.startswith(("-n", "--numprocesses")):
            workers = []
    return [str(py), "-m", "pytest", "-q", *workers, *args]


def environment(env: Mapping[str, str]) -> dict[str, str]:
    """The tests' environment, as ``scripts/test`` sets it: nothing multicasts, no window,
    no sound device, no pygame banner."""
    out = dict(env)
    out["STUD_MDNS"] = "off"
    out.setdefault("SDL_VIDEODRIVER", "dummy")
    out.setdefault("SDL_AUDIODRIVER", "dummy")
    out["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    return out


def main(argv: list[str]) -> int:
    py = _setup.setup()
    env = environment(os.environ)
    return subprocess.call(command(py, argv, env), cwd=_setup.ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
