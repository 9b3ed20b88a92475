"""The game's version (issue 36, point 5): said in one place, ``common.version``, and read
from there by the package, both commands and the wire."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from client.__main__ import main as stud
from common.version import __version__
from server.__main__ import main as stud_server

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_reads_the_version_from_common_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "common.version.__version__"}
    assert metadata.version("seventh-street") == __version__  # as .venv installed it


@pytest.mark.parametrize("main", [stud, stud_server], ids=["stud", "stud-server"])
def test_both_commands_print_the_version(main, capsys) -> None:
    with pytest.raises(SystemExit) as end:
        main(["--version"])
    assert end.value.code == 0 and capsys.readouterr().out == f"Seventh Street {__version__}\n"
