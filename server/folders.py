"""Where the game keeps a player's files: one answer for the client and the server.

Paths only, from platformdirs (``client.relocate`` moves the settings from where an
older version kept them):

- ``settings_path()``: the client's settings, in the user *config* folder.
- ``history_dir()``: the hand histories and the nights' scoreboards beside them, in the
  user *data* folder; ``exports_dir()`` (the replayer's exports) is its sibling.
- ``server_dir()``: the server's own files (the table's key), another sibling: apart
  from the histories, which people zip and send to each other.

On Linux these are what they always were (``$XDG_CONFIG_HOME/seventh-street``,
``$XDG_DATA_HOME/seventh-street/histories``).  ``old_settings_path()`` names where an
older client kept its settings when that differs (``~/.config`` on macOS and Windows).
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

# appauthor=False: no vendor folder above ours on Windows.  roaming=True: the settings
# and the histories (small, the player's own record) belong with the player on any
# machine of a domain, and have always lived in the roaming %APPDATA%.


def config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP, appauthor=False, roaming=True))


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP, appauthor=False, roaming=True))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def history_dir() -> Path:
    return data_dir() / "histories"


def exports_dir() -> Path:
    return data_dir() / "exports"


def server_dir() -> Path:
    return data_dir() / "server"


def old_settings_path() -> Path | None:
    """Where the client kept its settings before platformdirs, when not ``settings_path()``."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(Path.home(), ".config")
    old = Path(base) / APP / "settings.json"
    return None if old == settings_path() else old
