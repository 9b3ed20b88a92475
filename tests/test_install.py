"""The game installed and set up off this machine (issue 17, points 20, 21, 22, 23).

An installed game (a wheel, ``pip install .``) reads the house rules from the package,
not from the source folder; the setup needs no ``sha256sum`` (macOS) and, through
``scripts/play.py`` and ``scripts/test.py``, no bash (Windows); its first run says in a few
lines what it does and keeps pip's output in ``.venv/setup.log``; the suite passes inside
``scripts/netns`` too.
"""

from __future__ import annotations

import importlib.util
import io
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import IO

import pytest

from client import overlays
from client.overlays import load_rules, packaged_rules, rules_path

ROOT = Path(__file__).resolve().parent.parent
DOCS_RULES = ROOT / "docs" / "rules.md"


def _script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module (they import ``_setup`` next to them)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(
            f"_stud_{name}", ROOT / "scripts" / f"{name}.py"
        )
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "scripts"))


# ------------------------------------------------------------ 20: the rules, packaged


def test_the_rules_are_package_data_equal_to_docs_rules() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["client"]
    assert any(Path("assets/rules.md").match(p) for p in patterns), patterns
    shipped = packaged_rules()
    assert shipped.is_file()
    assert shipped.read_text(encoding="utf-8") == DOCS_RULES.read_text(encoding="utf-8"), (
        "client/assets/rules.md must be a copy of docs/rules.md: copy it again"
    )


def test_without_the_source_folder_the_rules_come_from_the_package(monkeypatch) -> None:
    monkeypatch.setattr(overlays, "_SOURCE_RULES", ROOT / "no-such-folder" / "rules.md")
    assert rules_path() == packaged_rules()
    blocks = load_rules()
    assert not any("missing" in b.text for b in blocks)
    assert blocks == load_rules(DOCS_RULES)


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


@pytest.mark.slow
def test_a_wheel_installed_in_a_fresh_venv_shows_the_rules(tmp_path: Path) -> None:
    """Build the wheel, install it (no editable link, no source folder) in a new venv, and
    read the rules there through the client's own loader, from a folder outside the game's."""
    source = tmp_path / "source"  # a copy: building leaves build/ behind it
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in ("common", "server", "client"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = wheels.glob("seventh_street-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    py = str(_venv_python(venv))
    subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True, timeout=120)  # fmt: skip
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    subprocess.run([py, "-m", "pip", "install", "-q", *deps],
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import client, client.overlays as o, client.i18n as i; "
        "i.set_language('de'); print(i.gettext('Rules')); i.set_language('en'); "
        "print(client.__file__); print(o.rules_path()); "
        "print('\\n'.join(f'{b.kind}|{b.rid}|{b.text}' for b in o.load_rules()))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["SDL_VIDEODRIVER"] = "dummy"
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    out = subprocess.run([py, "-c", probe], cwd=elsewhere, env=env, check=True,
                         capture_output=True, text=True, timeout=60).stdout  # fmt: skip
    german, package, where, *lines = out.splitlines()
    assert german == "Regeln"  # the catalogs are in the package (a .mo, or the .po compiled)
    assert Path(package).is_relative_to(venv), package
    assert Path(where).is_relative_to(venv), where
    assert "The rules file is missing" not in out
    assert lines == [f"{b.kind}|{b.rid}|{b.text}" for b in load_rules(DOCS_RULES)]


# ------------------------------------------------- 21 and 23: the setup, with or without bash


class FakeRun:
    """Stands for the setup's commands: records them, writes pip-like noise to the log."""

    def __init__(self, fail: str = "") -> None:
        self.cmds: list[list[str]] = []
        self.fail = fail

    def __call__(self, cmd: Sequence[str], log: IO[str]) -> int:
        self.cmds.append(list(cmd))
        log.write("BuildBackendWarning: Editable installation.\n" + "  ****\n" * 30)
        if cmd[1:3] == ["-m", "venv"]:
            py = Path(cmd[3]) / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
            py.parent.mkdir(parents=True, exist_ok=True)
            py.write_text("")
        if self.fail and self.fail in cmd:
            log.write("ERROR: no matching distribution found for pygame\n")
            return 1
        return 0


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "game"
    root.mkdir()
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def test_the_first_setup_says_what_it_does_in_a_few_lines(tmp_path: Path) -> None:
    setup = _script("_setup")
    root = _project(tmp_path)
    run, out = FakeRun(), io.StringIO()
    py = setup.setup(root, "test", python="base-python", run=run, out=out)
    assert py == setup.venv_python(root / ".venv")
    shown = out.getvalue().splitlines()
    assert 1 < len(shown) <= 4, shown
    assert "first run" in shown[0] and "minute" in shown[0]
    assert not any("editable" in line.lower() or "*" in line for line in shown)
    assert "Editable installation" in (root / ".venv" / "setup.log").read_text()
    assert run.cmds[0] == ["base-python", "-m", "venv", str(root / ".venv")]
    assert run.cmds[-2] == [str(py), "-m", "pip", "install", "-e", f"{root}[test]"]
    assert run.cmds[-1] == [str(py), str(root / "scripts" / "i18n.py"), "compile"]  # the .mo
    again, out2 = FakeRun(), io.StringIO()
    setup.setup(root, "test", python="base-python", run=again, out=out2)
    assert again.cmds == [] and out2.getvalue() == ""  # installed: nothing to do, nothing said
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + "\n# new\n")
    setup.setup(root, "test", python="base-python", run=again, out=out2)
    assert [c[-1] for c in again.cmds] == ["pip", f"{root}[test]", "compile"]  # no new venv
    assert len(out2.getvalue().splitlines()) == 1
    po = root / "client" / "locale" / "de" / "LC_MESSAGES" / "stud.po"
    po.parent.mkdir(parents=True)
    po.write_text("")  # a catalog changed since its .mo was made: compiled, silently
    setup.setup(root, "test", python="base-python", run=again, out=out2)
    assert again.cmds[-1][-1] == "compile" and len(out2.getvalue().splitlines()) == 1


def test_a_failed_setup_shows_the_end_of_its_log_and_stays_unstamped(tmp_path: Path) -> None:
    setup = _script("_setup")
    root = _project(tmp_path)
    out = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        setup.setup(root, "test", python="p", run=FakeRun(fail=f"{root}[test]"), out=out)
    assert exc.value.code == 1
    said = out.getvalue()
    assert "setup.log" in said and "no matching distribution found for pygame" in said
    assert len(said.splitlines()) <= 20
    assert not (root / ".venv" / setup.STAMP).exists()  # the next run tries again


def test_setup_sh_needs_no_sha256sum(tmp_path: Path) -> None:
    """macOS has no ``sha256sum``: ``_setup.sh`` runs with only bash, dirname and python3."""
    root = _project(tmp_path)
    (root / "scripts").mkdir()
    for name in ("_setup.sh", "_setup.py"):
        shutil.copy(ROOT / "scripts" / name, root / "scripts" / name)
    setup = _script("_setup")
    venv_py = setup.venv_python(root / ".venv")
    venv_py.parent.mkdir(parents=True)
    venv_py.write_text("")
    (root / ".venv" / setup.STAMP).write_text(setup.wanted(root, "test") + "\n")
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("bash", "dirname"):
        found = shutil.which(tool)
        assert found
        (tools / tool).symlink_to(found)
    (tools / "python3").symlink_to(sys.executable)
    proc = subprocess.run(
        [str(tools / "bash"), "-c", f'source "{root}/scripts/_setup.sh" && echo ready'],
        env={"PATH": str(tools), "HOME": str(tmp_path)}, capture_output=True, text=True,
        timeout=30,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ready" and proc.stderr == ""


def test_test_py_runs_pytest_as_scripts_test_does() -> None:
    test = _script("test")
    py = Path("venv/python")
    assert test.command(py, ["-q"], {}) == [
        "venv/python", "-m", "pytest", "-q", "-n", "auto", "--dist", "loadgroup", "-q"
    ]  # fmt: skip
    assert test.command(py, [], {"STUD_TEST_WORKERS": "2"})[4:6] == ["-n", "2"]
    for one in (["-n", "0"], ["-p", "no:xdist"], ["--pdb"], ["-s"], ["-n4"]):
        assert "--dist" not in test.command(py, one, {}), one
    env = test.environment({"STUD_MDNS": "on", "SDL_VIDEODRIVER": "x11", "PATH": "p"})
    assert env["STUD_MDNS"] == "off" and env["SDL_VIDEODRIVER"] == "x11"
    assert env["SDL_AUDIODRIVER"] == "dummy" and env["PATH"] == "p"


def test_play_py_opens_the_game_with_the_venvs_python(monkeypatch, tmp_path: Path) -> None:
    play = _script("play")
    calls: list[list[str]] = []
    monkeypatch.setattr(play._setup, "setup", lambda: tmp_path / "py")
    monkeypatch.setattr(play.subprocess, "call", lambda cmd, cwd: calls.append(cmd) or 0)
    assert play.main(["--computer", "2"]) == 0
    assert calls == [[str(tmp_path / "py"), "-m", "client", "--computer", "2"]]


# ------------------------------------------------------- 22: the suite inside scripts/netns


class _Request:
    def __init__(self) -> None:
        self.finalizers: list = []
        self.node = SimpleNamespace(nodeid="tests/test_x.py::test_x")

    def addfinalizer(self, f) -> None:
        self.finalizers.append(f)


def test_in_a_namespace_each_mdns_test_turns_mdns_on_for_itself_only(monkeypatch) -> None:
    """``./scripts/netns ./scripts/test``: one namespace for every worker, whose tables would
    see each other's; so a test is re-run in a namespace of its own, told which it is, and
    there turns multicast DNS on for itself only."""
    from tests import netns

    monkeypatch.setenv("STUD_NETNS", "1")
    monkeypatch.setenv("STUD_MDNS", "off")
    monkeypatch.delenv("STUD_MDNS_IFACES", raising=False)
    monkeypatch.setattr(netns, "only_loopback", lambda: True)
    monkeypatch.setattr(netns, "_can_unshare", lambda: "")
    runs: list[dict] = []

    def run(cmd, **kw):
        runs.append(kw["env"])
        return SimpleNamespace(returncode=0, stdout="1 passed", stderr="")

    monkeypatch.setattr(netns.subprocess, "run", run)
    assert not netns.in_netns(_Request())  # type: ignore[arg-type]
    assert [env["STUD_NETNS_TEST"] for env in runs] == ["tests/test_x.py::test_x"]
    monkeypatch.setenv("STUD_NETNS_TEST", "tests/test_x.py::test_x")  # the re-run
    request = _Request()
    assert netns.in_netns(request)  # type: ignore[arg-type]
    assert os.environ["STUD_MDNS"] == "on" and os.environ["STUD_MDNS_IFACES"] == "127.0.0.1"
    for f in request.finalizers:
        f()
    assert os.environ["STUD_MDNS"] == "off" and "STUD_MDNS_IFACES" not in os.environ
    assert len(runs) == 1  # the re-run runs itself, no other
