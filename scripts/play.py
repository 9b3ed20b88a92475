"""``scripts/play`` without bash (Windows: ``py scripts\\play.py``): set up ``.venv`` on the
first run, then open the Seventh Street window.  Arguments go to ``stud``:
``py scripts\\play.py --computer 2 --hands 8``.  Standard library only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _setup  # noqa: E402


def main(argv: list[str]) -> int:
    py = _setup.setup()
    return subprocess.call([str(py), "-m", "client", *argv], cwd=_setup.ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
