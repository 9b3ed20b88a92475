"""Issue 36: the standalone Linux game, built by ``scripts/bundle.py`` and used as a person
would: unpacked in a fresh folder and run with a clean environment (no .venv, no project
on any path).  Slow: the build takes a minute or two (``-m slow``).  STUD_BUNDLE=ARCHIVE
tests an archive already built instead."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from client.icon import APP_ID
from tests.serverkit import Client, run
from tests.serverproc import ROOT, ServerProcess

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900),  # the first test waits on the build
              pytest.mark.skipif(sys.platform != "linux", reason="Linux")]  # fmt: skip


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The unpacked game's folder."""
    archive = os.environ.get("STUD_BUNDLE")
    if not archive:
        pytest.importorskip("PyInstaller", reason="the build extra: pip install -e .[build]")
        subprocess.run([sys.executable, "scripts/bundle.py"], cwd=ROOT, check=True)
        archive = str(next((ROOT / "dist").glob("seventh-street-*-linux-*.tar.gz")))
    where = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(archive) as tar:
        tar.extractall(where, filter="tar")
    return next(where.iterdir())


def clean_env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy", "STUD_MDNS": "off"}  # fmt: skip


def stud(bundle: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(bundle / "stud"), *args], cwd=home, env=clean_env(home),
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_the_bundle_shows_its_start_screen_and_plays_a_computer_match(bundle, tmp_path):
    done = stud(bundle, tmp_path, "--smoke", "--computer", "1", "--hands", "4")
    said = done.stdout.splitlines()
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert said[:2] == ["smoke: first frame (start)", "smoke: rules: 40 rule ids, R-T0 first"]
    assert said[2:5] == ["smoke: connecting", "smoke: playing", "smoke: standings"]
    assert len(said) == 7 and said[5].startswith("smoke: 1. ")  # a line for each seat


@run
async def test_the_bundled_server_serves_a_match_to_its_end(bundle, tmp_path):
    options = ("--computer", "1", "--start-when", "2", "--hands", "4", "--bot-delay", "0",
               "--hand-pause", "0.2", "--turn-time", "0")  # fmt: skip
    program = [str(bundle / "stud-server")]
    with ServerProcess(tmp_path, *options, program=program, env=clean_env(tmp_path)) as server:
        ann = Client("Ann")
        assert (await ann.hello(server.port))["type"] == "welcome"
        standings = await ann.play()
        assert standings["hands_played"] == 4 and len(standings["standings"]) == 2
        await ann.close()


def test_both_programs_say_the_version(bundle, tmp_path):
    version = pytest.importorskip("common.version", reason="branch i36-version").__version__
    for program in ("stud", "stud-server"):
        done = subprocess.run([str(bundle / program), "--version"], env=clean_env(tmp_path),
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        assert done.returncode == 0 and version in done.stdout


def test_the_bundle_speaks_german(bundle, tmp_path):  # issue 37: its catalogs and CLDR data
    done = stud(bundle, tmp_path, "--lang", "de", "--help")
    assert done.returncode == 0 and "Seven Card Stud mit Freunden." in done.stdout


def test_the_menu_entry_starts_this_bundle(bundle, tmp_path):
    assert stud(bundle, tmp_path, "--install-menu-entry").returncode == 0
    entry = tmp_path / ".local/share/applications" / f"{APP_ID}.desktop"
    assert f"Exec={bundle / 'stud'}\n" in entry.read_text()
    assert (tmp_path / ".local/share/icons/hicolor/16x16/apps" / f"{APP_ID}.png").is_file()


def test_the_bundle_is_small_and_carries_its_licenses(bundle):
    size = sum(f.lstat().st_size for f in bundle.rglob("*"))
    assert size < 80 * 2**20, f"{size / 2**20:.0f} MB unpacked"
    said = (bundle / "licenses" / "README.txt").read_text()
    for part in ("python", "pygame", "msgpack", "zeroconf", "cryptography", "spake2"):
        assert f"\n{part} " in said.lower()
    assert not list(bundle.rglob("__pycache__")) and not list(bundle.rglob("tests"))
