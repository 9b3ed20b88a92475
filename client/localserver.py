"""The table this window runs itself: the computer table, or a friends' table we host.

Both are a ``server.app`` server on a thread of this process, stopped when we leave;
``overrides`` (tests, scripts) are laid over every config.  Each journals its match in
play (``server.journal``): a hosted table started again (same name, same folder) resumes
it, on the port it had when that is free; the computer table's unfinished match
(``unfinished_computer``) resumes only when asked, a new match dropping it first.
Closing the table on purpose (``stop``) ends its match for good.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from client.seatkeys import SeatKey
from client.settings import Settings
from common.protocol import DEFAULT_PORT

if TYPE_CHECKING:
    from server.journal import Unfinished

__all__ = ["COMPUTER_TABLE", "LocalServer", "seat_key_of"]

log = logging.getLogger("client")

COMPUTER_TABLE = "Computer table"  # its own night and journal, apart from a friends' table's


def seat_key_of(found: Unfinished, keys: Iterable[SeatKey]) -> SeatKey | None:
    """Our latest kept key for a seat of the unfinished match ``found`` (an own server's)."""
    fits = [k for k in keys if k.own and found.has_token(k.token)]
    return max(fits, key=lambda k: k.saved, default=None)


class LocalServer:
    def __init__(self, overrides: dict[str, Any] | None = None) -> None:
        self.overrides = dict(overrides or {})
        self.handle: Any = None  # server.app.ServerHandle while one runs
        self.kind = ""  # "computer" or "host"

    def _start(self, kind: str, **config: Any) -> Any:
        from server.app import run_in_thread
        from server.config import ServerConfig

        self.handle = run_in_thread(ServerConfig(**{**config, **self.overrides}))
        self.kind = kind
        return self.handle

    def history_dir(self) -> Path:
        """The folder of our tables' histories and journals."""
        from server.config import default_history_dir

        return Path(self.overrides.get("history_dir") or default_history_dir())

    def unfinished_computer(self) -> Unfinished | None:
        """The computer table's unfinished match on disk, if one can be resumed (read only)."""
        from server.journal import unfinished

        return unfinished(self.history_dir(), COMPUTER_TABLE)

    def drop_computer(self) -> None:
        """Give up the computer table's unfinished match (one that cannot be read is left
        for the table to set aside)."""
        from server.journal import give_up

        if give_up(self.history_dir(), COMPUTER_TABLE):
            log.info("the unfinished computer match was dropped for a new one")

    def start_computer(
        self, computers: int, hands: int, level: str, *, resume: bool = False
    ) -> Any:
        """A computer table on 127.0.0.1 (raises if it cannot start), resuming its unfinished
        match if ``resume``.  No turn clock: no one waits on you (R-C4).  Its books open
        after the match: the analysis reads the computer seats' hole cards."""
        computers = min(3, max(1, computers))
        if not resume:
            self.drop_computer()
        return self._start(
            "computer",
            host="127.0.0.1",
            port=0,
            name=COMPUTER_TABLE,
            computer=computers,
            computer_levels=(level,),
            hands=hands,
            start_when=computers + 1,
            turn_time=None,
            open_books=True,
            odds=True,
        )

    def start_host(
        self,
        settings: Settings,
        *,
        hands: int,
        computers: int,
        password: str,
        port: int = DEFAULT_PORT,
        bind: str | None = None,
        level: str = "regular",
        name: str = "",
        open_books: bool = False,
        books_to_watchers: bool = False,
    ) -> Exception | None:
        """A friends' table on every interface (``bind`` narrows it), on the port its
        unfinished match was played on, else ``port``, else any free one; the last error
        if none could be had."""
        from server.config import MAX_TABLE_NAME
        from server.journal import recorded_port

        last: Exception | None = None
        table = " ".join((name.strip() or f"{settings.name}'s table").split())[:MAX_TABLE_NAME]
        tried = (recorded_port(self.history_dir(), table), port, 0)
        for p in dict.fromkeys(q for q in tried if q is not None):
            try:
                self._start(
                    "host",
                    host=bind,
                    port=p,
                    computer=computers,
                    computer_levels=(level,),
                    hands=hands,
                    password=password or None,
                    name=table,
                    announce=True,
                    open_books=open_books,
                    books_to_watchers=open_books and books_to_watchers,
                    turn_time=settings.host_turn_time or None,
                    time_bank=settings.host_time_bank,
                    stand_in=settings.host_stand_in,
                    odds=settings.host_odds,
                )
                return None
            except OSError as exc:
                last = exc
        return last

    def stop(self, who: str, *, forget: bool = True) -> None:
        """Close our table, telling everyone at it that ``who`` did; its match in play ends
        for good unless not ``forget`` (the game going down by accident)."""
        if self.handle is None:
            return
        try:
            self.handle.stop(reason=f"{who} closed the table", forget=forget)
        except Exception:
            log.exception("stopping the local server failed")
        self.handle = None
        self.kind = ""
