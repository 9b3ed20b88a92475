"""Where the game keeps a player's files: one answer for the client and the server.

Paths only, read from the environment and the platform (not in ``common``, which does
no I/O), never a file: ``client.relocate`` moves the settings from where an older version
kept them.
The folders come from platformdirs, the same on Linux, macOS and Windows:

- ``settings_path()``: the client's settings, in the user *config* folder.
- ``history_dir()``: the hand histories and the nights' scoreboards beside them, in the
  user *data* folder; ``exports_dir()`` (the replayer's exports) is its sibling.
- ``server_dir()``: the server's own files (the table's key), another sibling: apart
  from the histories, which people zip and send to each other.

On Linux these are what they always were: ``$XDG_CONFIG_HOME/seventh-street/settings.json``
(or ``~/.config/...``) and ``$XDG_DATA_HOME/seventh-street/histories`` (or
``~/.local/share/...``), and the histories are where the server always kept them on
macOS and Windows too.  ``old_settings_path()`` names where an older client kept its
settings when that differs from today's place (under ``~/.config`` on macOS and Windows).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

__all__ = [
    "APP",
    "config_dir",
    "data_dir",
    "exports_dir",
    "history_dir",
    "old_settings_path",
    "server_dir",
    "settings_path",
]

APP = "seventh-street"

# appauthor=False: no vendor folder above ours on Windows (%APPDATA%\seventh-street, as
# the server has always used).  roaming=True on Windows, for both folders, deliberately:
# the settings (a name, addresses, a window size) are the player's and belong with them on
# any machine of a domain, and the hand histories are the player's own record of their
# nights, small text files (a match is tens of kilobytes), not a cache to rebuild; they
# have always lived in the roaming %APPDATA%, so nobody's histories move.


def config_dir() -> Path:
    """The user's config folder for the game."""
    return Path(platformdirs.user_config_dir(APP, appauthor=False, roaming=True))


def data_dir() -> Path:
    """The user's data folder for the game."""
    return Path(platformdirs.user_data_dir(APP, appauthor=False, roaming=True))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def history_dir() -> Path:
    """Each match's hand history, and each night's scoreboard (``server.night``)."""
    return data_dir() / "histories"


def exports_dir() -> Path:
    return data_dir() / "exports"


def server_dir() -> Path:
    """The server's own data: the table's key (``server.identity``), never shared."""
    return data_dir() / "server"


def _old_settings_path() -> Path:
    # What the client wrote to before platformdirs, on every platform.
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(Path.home(), ".config")
    return Path(base) / APP / "settings.json"


def old_settings_path() -> Path | None:
    """Where an older version kept the settings, when that is not ``settings_path()``."""
    old = _old_settings_path()
    return None if old == settings_path() else old
