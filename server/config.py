"""What the host sets: one frozen value shared by the CLI, the table and the tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from common.protocol import DEFAULT_PORT, HAND_COUNTS, MAX_FRAME
from server import folders

__all__ = [
    "MAX_TABLE_NAME",
    "PLAIN_CHOICES",
    "ServerConfig",
    "default_data_dir",
    "default_history_dir",
]

MAX_TABLE_NAME = 40
PLAIN_CHOICES = ("auto", "allow", "never")
"""``ServerConfig.plain``: whether connections without TLS may say hello (``auto``:
never at a table with a password, allowed at one without)."""


default_history_dir = folders.history_dir
default_data_dir = folders.server_dir


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Every knob of a table server.  Times are in seconds."""

    host: str | None = None
    port: int = DEFAULT_PORT
    hands: int = 8
    computer: int = 0
    computer_levels: tuple[str, ...] = ("regular",)
    """Level of each computer seat, seat 6 first; the last one repeats."""
    password: str | None = None
    start_when: int | None = None
    grace: float = 30.0
    """R-C1: how long a dropped seat's turn waits before it checks or folds."""
    turn_time: float | None = 30.0
    """R-C4: seconds for each decision; None or 0 turns the clock off."""
    time_bank: float = 90.0
    stand_in: bool = False
    """R-C3: a computer plays away seats, with the seat's chips."""
    history_dir: Path = field(default_factory=default_history_dir)
    data_dir: Path = field(default_factory=default_data_dir)
    """The table's key (``server.identity``)."""
    seed: int | None = None
    bot_delay: float = 0.8
    """Mean pause before a computer seat acts, so people can follow."""
    hand_pause: float = 4.0
    final_pause: float | None = None
    """Pause between the last hand's end and the standings; ``None``: ``hand_pause``."""
    max_frame: int = MAX_FRAME
    max_connections: int = 32
    """Connections that have said hello (a comeback is let in past it)."""
    max_pending: int = 32
    pending_per_address: int = 8
    max_watchers: int = 16
    watchers_per_address: int = 4
    handshake_timeout: float = 5.0
    frame_timeout: float = 5.0
    queue_limit: int = 1024 * 1024
    heartbeat_every: float = 5.0
    link_timeout: float = 12.0
    """R-C1: a link silent or unacknowledged this long is gone and its seat dropped."""
    budget_burst: float = 60.0
    budget_per_second: float = 20.0
    password_backoff: float = 1.0
    """After a wrong password an address waits this long, doubling with each miss."""
    chat_burst: int = 5
    chat_per_second: float = 1.0
    open_books: bool = False
    """After a match, send everyone seated the full hand histories."""
    books_to_watchers: bool = False
    computer_names: tuple[str, ...] = ("Ada", "Babbage", "Cray", "Dijkstra", "Eckert", "Floyd")
    name: str = ""
    journal: bool = True
    """Keep the match in play in a journal (``server.journal``): a table started again
    with the same ``history_dir`` and ``name`` resumes it."""
    announce: bool = False
    """Announce the table over multicast DNS (``server.announce``); off here, so that
    tests and embedders never multicast by accident."""
    plain: str = "auto"
    """``allow``: plain (unencrypted) connections may join, as older clients need;
    ``never``: only sealed ones (TLS); ``auto``: never at a table with a password, whose
    plain hello would carry it in the clear.  The host may change it between matches
    (``plain_at_start`` is the choice it starts with)."""
    odds: bool = False
    """Odds on request (``common.odds``); the host may change it between matches."""

    @property
    def plain_at_start(self) -> str:
        """``allow`` or ``never``: ``plain`` with ``auto`` settled by the password."""
        if self.plain != "auto":
            return self.plain
        return "never" if self.password is not None else "allow"

    def __post_init__(self) -> None:
        # Accept a plain string path too (callers embedding the server pass one).
        object.__setattr__(self, "history_dir", Path(self.history_dir))
        object.__setattr__(self, "data_dir", Path(self.data_dir))
        if self.hands not in HAND_COUNTS:
            raise ValueError("hands must be 4, 8 or 12 (R-T4)")
        if not 0 <= self.computer <= 6:
            raise ValueError("computer seats: 0 to 6")
        from server.brain import level_id

        if isinstance(self.computer_levels, str):
            object.__setattr__(self, "computer_levels", (self.computer_levels,))
        levels = tuple(level_id(lv) for lv in self.computer_levels) or ("regular",)
        object.__setattr__(self, "computer_levels", levels)
        if self.start_when is not None and not max(2, self.computer + 1) <= self.start_when <= 7:
            raise ValueError("--start-when must be 2 to 7 and leave a seat for a person")
        object.__setattr__(self, "name", " ".join(self.name.split())[:MAX_TABLE_NAME])
        if self.hand_pause < 0 or (self.final_pause is not None and self.final_pause < 0):
            raise ValueError("pauses cannot be negative")
        if self.turn_time == 0:
            object.__setattr__(self, "turn_time", None)  # 0: the clock is off (R-C4)
        if self.grace < 0 or self.time_bank < 0 or (self.turn_time or 0) < 0:
            raise ValueError("times must be positive (0 turns the turn clock off)")
        if self.plain not in PLAIN_CHOICES:
            raise ValueError("plain connections: auto, allow or never")
