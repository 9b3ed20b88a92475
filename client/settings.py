"""The player's remembered settings: name, last addresses, deck colours, table sizes.

Kept as JSON in the user's config folder (``server.folders``; a file an older version
left elsewhere moves there at first use).  A missing or broken file gives the defaults
(a broken one set aside, ``server.files``); a setting of the wrong type or out of range
takes its default.  A file that cannot be written is not an error.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from client.i18n import LANGUAGES
from client.relocate import move_once
from common.levels import LEVEL_IDS
from common.protocol import HAND_COUNTS
from server import folders
from server.files import read_json

__all__ = ["Settings", "config_path"]

log = logging.getLogger(__name__)

MAX_RECENT = 6
MAX_BYTES = 1024 * 1024  # the largest settings file read: ours are under 2 KiB
_RANGES = {"computers": (1, 3), "host_computers": (0, 5), "volume": (0, 100),
           "host_turn_time": (0, 600), "host_time_bank": (0, 3600)}  # fmt: skip
_CHOICES = {"level": LEVEL_IDS, "host_level": LEVEL_IDS, "hands": HAND_COUNTS,
            "host_hands": HAND_COUNTS}  # fmt: skip


def config_path() -> Path:
    return folders.settings_path()


@dataclass(slots=True)
class Settings:
    name: str = "Player"
    computers: int = 2
    hands: int = 8
    host_computers: int = 0
    level: str = "regular"
    """Computer seats' level at the computer table (``server.brain``)."""
    host_level: str = "regular"
    host_hands: int = 8
    host_password: str = ""
    table_name: str = ""  # the name a hosted table announces ("" : "<name>'s table")
    host_open_books: bool = False  # open the books after each match (off by default)
    host_books_to_watchers: bool = False  # ... to watchers too (only with host_open_books)
    host_turn_time: int = 30  # R-C4: 0 is no turn clock
    host_time_bank: int = 90
    host_stand_in: bool = False
    join_address: str = "127.0.0.1"
    join_port: int = 7777
    recent: list[str] = field(default_factory=list)
    four_color: bool = False
    seen_panel: bool = True  # the cards-seen panel at the table (key S)
    coach: bool = False  # the coach at the table (client.coach), as the person chose it
    odds: bool = False  # the odds readout at the table (key W), as the person chose it
    host_odds: bool = False  # the host allows odds on request (the lobby's choice)
    coach_first: bool = False
    """The first match at the computer table has begun: the coach was on for it alone."""
    sound: bool = True  # False: muted
    volume: int = 70  # the one master volume for every sound, 0-100
    window: list[int] = field(default_factory=lambda: [1280, 800])
    language: str = ""  # client.i18n: "en", "de", "fr", "es"; "" the system's language

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        if path is None:
            path = config_path()
            move_once(folders.old_settings_path(), path)
        data = read_json(
            path,
            what="the settings",
            then="the game starts with the defaults",
            limit=MAX_BYTES,
            check=_an_object,
            logger=log,
        )
        out, default = cls(), cls()
        if data is None:
            return out
        for f in fields(cls):
            value = data.get(f.name)
            if value is not None and type(value) is type(getattr(default, f.name)):
                setattr(out, f.name, value)
        out.name = out.name.strip()[:20] or "Player"
        out.recent = [str(a)[:80] for a in out.recent if isinstance(a, str)][:MAX_RECENT]
        for name, (lo, hi) in _RANGES.items():
            setattr(out, name, min(hi, max(lo, getattr(out, name))))
        for name, allowed in _CHOICES.items():
            if getattr(out, name) not in allowed:
                setattr(out, name, getattr(default, name))
        if out.language not in LANGUAGES:
            out.language = ""
        if len(out.window) != 2 or not all(type(v) is int and 0 < v < 20000 for v in out.window):
            out.window = cls().window  # the window opens at this size: it must be two ints
        return out

    def save(self, path: Path | None = None) -> None:
        path = path or config_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.to_dict(), indent=1), encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            log.warning("could not save settings to %s: %s", path, exc)

    def remember_address(self, address: str) -> None:
        address = address.strip()
        if not address:
            return
        self.recent = [address] + [a for a in self.recent if a != address]
        self.recent = self.recent[:MAX_RECENT]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _an_object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data
