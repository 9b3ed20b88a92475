"""The per-user folders (``server.folders``) and the settings' one-time move (``client.relocate``).

Linux keeps exactly the paths it always had (XDG honoured); macOS and Windows are run
here through platformdirs' own classes for those platforms, with HOME and the Windows
folders pointed into ``tmp_path``.  The client's settings on macOS and Windows used to be
under ``~/.config``: they move once, at first use, and never over a newer file.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sys
from pathlib import Path

import platformdirs
import platformdirs.macos
import platformdirs.unix
import platformdirs.windows
import pytest

from client import relocate
from client.settings import Settings, config_path
from server import folders
from server.config import ServerConfig, default_history_dir

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="platformdirs picks its Linux rules on Linux"
)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home with no XDG variables, and a move not yet looked for."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "APPDATA", "LOCALAPPDATA"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(relocate, "_seen", set())
    return home


def _as(monkeypatch: pytest.MonkeyPatch, platform: str, dirs: type) -> None:
    """Answer as platformdirs does on ``platform``, with its class for that platform."""
    monkeypatch.setattr(sys, "platform", platform)

    def config(app: str, **opts: bool) -> str:
        return str(dirs(app, **opts).user_config_dir)

    def data(app: str, **opts: bool) -> str:
        return str(dirs(app, **opts).user_data_dir)

    monkeypatch.setattr(platformdirs, "user_config_dir", config)
    monkeypatch.setattr(platformdirs, "user_data_dir", data)


@pytest.fixture
def macos(monkeypatch: pytest.MonkeyPatch) -> None:
    _as(monkeypatch, "darwin", platformdirs.macos.MacOS)


@pytest.fixture
def windows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Windows, its known folders read from APPDATA / LOCALAPPDATA; returns the profile."""
    profile = tmp_path / "Users" / "ann" / "AppData"
    monkeypatch.setenv("APPDATA", str(profile / "Roaming"))
    monkeypatch.setenv("LOCALAPPDATA", str(profile / "Local"))
    monkeypatch.setattr(
        platformdirs.windows, "get_win_folder", platformdirs.windows.get_win_folder_from_env_vars
    )
    _as(monkeypatch, "win32", platformdirs.windows.Windows)
    return profile


# -- Linux: today's paths, exactly ------------------------------------------------------


@linux_only
def test_linux_honours_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert config_path() == tmp_path / "cfg" / "seventh-street" / "settings.json"
    assert default_history_dir() == tmp_path / "data" / "seventh-street" / "histories"
    assert ServerConfig().history_dir == tmp_path / "data" / "seventh-street" / "histories"
    assert folders.exports_dir() == tmp_path / "data" / "seventh-street" / "exports"
    assert ServerConfig().data_dir == tmp_path / "data" / "seventh-street" / "server"
    assert folders.old_settings_path() is None


@linux_only
@pytest.mark.parametrize("xdg", [None, ""], ids=["unset", "empty"])
def test_linux_defaults_under_home(home: Path, monkeypatch: pytest.MonkeyPatch, xdg) -> None:
    if xdg is not None:  # an empty XDG variable means the default
        monkeypatch.setenv("XDG_CONFIG_HOME", xdg)
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    assert str(config_path()) == f"{home}/.config/seventh-street/settings.json"
    assert str(default_history_dir()) == f"{home}/.local/share/seventh-street/histories"
    assert folders.old_settings_path() is None


@linux_only
def test_linux_moves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    Settings(name="Ann").save()
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    assert Settings.load().name == "Ann"
    default_history_dir()
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


# -- macOS and Windows -----------------------------------------------------------------


@pytest.mark.parametrize("platform", ["macos", "windows"])
def test_macos_and_windows_folders(home: Path, platform: str, request) -> None:
    profile = request.getfixturevalue(platform)
    if platform == "macos":
        own = home / "Library" / "Application Support" / "seventh-street"
    else:  # roaming
        own = profile / "Roaming" / "seventh-street"
    assert config_path() == own / "settings.json"
    assert default_history_dir() == own / "histories"
    assert ServerConfig().data_dir == own / "server"  # the table's key, not shared
    assert folders.old_settings_path() == home / ".config" / "seventh-street" / "settings.json"


def test_windows_old_settings_path_honoured_xdg(
    tmp_path: Path, windows: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "x"))
    assert folders.old_settings_path() == tmp_path / "x" / "seventh-street" / "settings.json"


# -- the move ---------------------------------------------------------------------------


def _write_old(home: Path, name: str) -> Path:
    old = home / ".config" / "seventh-street" / "settings.json"
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps({"name": name, "hands": 12}), encoding="utf-8")
    return old


@pytest.mark.parametrize("platform", ["macos", "windows"])
def test_old_settings_move_over_once(
    home: Path, platform: str, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    request.getfixturevalue(platform)
    old = _write_old(home, "Ann")
    with caplog.at_level(logging.INFO, logger="client.relocate"):
        loaded = Settings.load()
    assert (loaded.name, loaded.hands) == ("Ann", 12)
    assert not old.exists()
    assert json.loads(config_path().read_text(encoding="utf-8"))["name"] == "Ann"
    moved = [r for r in caplog.records if r.getMessage().startswith("moved ")]
    assert len(moved) == 1 and str(old) in moved[0].getMessage()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="client.relocate"):
        assert Settings.load().name == "Ann"
    assert caplog.records == []  # once: nothing more to move, nothing said


def test_a_newer_settings_file_is_never_overwritten(
    home: Path, macos: None, caplog: pytest.LogCaptureFixture
) -> None:
    old = _write_old(home, "Old")
    Settings(name="New").save()
    with caplog.at_level(logging.INFO, logger="client.relocate"):
        assert Settings.load().name == "New"
    assert json.loads(old.read_text(encoding="utf-8"))["name"] == "Old"  # left as it was
    assert any(r.getMessage().startswith("kept ") for r in caplog.records)


def test_settings_saved_after_a_move_stay_in_the_new_place(home: Path, windows: Path) -> None:
    _write_old(home, "Ann")
    s = Settings.load()
    s.name = "Bea"
    s.save()
    assert Settings.load().name == "Bea"
    assert not (home / ".config" / "seventh-street" / "settings.json").exists()


def test_move_to_another_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def cross(*_: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cross)
    monkeypatch.setattr(os, "rename", cross)
    old, new = tmp_path / "a" / "x", tmp_path / "b" / "c" / "x"
    old.parent.mkdir()
    old.write_text("hand", encoding="utf-8")
    assert relocate.move_once(old, new) is True
    assert not old.exists()
    assert new.read_text(encoding="utf-8") == "hand"


def test_a_failed_move_is_logged_and_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def fail(*_: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(relocate, "_move", fail)
    old = tmp_path / "old.json"
    old.write_text("{}", encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="client.relocate"):
        assert relocate.move_once(old, tmp_path / "new" / "s.json") is False
    assert old.exists()
    assert any(r.levelno == logging.WARNING for r in caplog.records)


def test_nothing_to_move(tmp_path: Path, home: Path, macos: None) -> None:
    assert Settings.load() == Settings()  # no old file: nothing happens
    assert not config_path().exists()
    assert relocate.move_once(None, tmp_path / "x") is False
    assert relocate.move_once(tmp_path / "x", tmp_path / "x") is False
    assert relocate.move_once(tmp_path / "missing", tmp_path / "x") is False
    assert not (tmp_path / "x").exists()
