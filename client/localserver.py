"""The table this window runs itself: the computer table, or a friends' table we host.

Both are a ``server.app`` server on a thread of this process
(``run_in_thread``), stopped when we leave.  ``overrides`` (tests, scripts)
are laid over every config: short pauses, a histories folder.

A hosted table keeps its match in play in a journal (``server.journal``): if the game
dies mid-match, hosting the same table again (same name, same histories folder) resumes
it, on the port it had when that port is free, so friends' games find it again.  Closing
the table on purpose (``stop``) ends the match for good.  The computer table keeps no
journal: each one is a new game.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from client.settings import Settings
from common.protocol import DEFAULT_PORT

__all__ = ["LocalServer"]

log = logging.getLogger("client")


class LocalServer:
    def __init__(self, overrides: dict[str, Any] | None = None) -> None:
        self.overrides = dict(overrides or {})
        self.handle: Any = None  # server.app.ServerHandle while one runs
        self.kind = ""  # "computer" or "host"

    def _start(self, **kwargs: Any) -> Any:
        from server.app import run_in_thread
        from server.config import ServerConfig

        cfg = {**kwargs, **self.overrides}
        return run_in_thread(ServerConfig(**cfg))

    def start_computer(self, computers: int, hands: int, level: str) -> Any:
        """A computer table on 127.0.0.1 (``computers`` clamped to 1-3); raises if it
        cannot start."""
        computers = min(3, max(1, computers))
        # Alone with the computer no one waits on you: no turn clock (R-C4).
        self.handle = self._start(
            host="127.0.0.1",
            port=0,
            computer=computers,
            computer_levels=(level,),
            hands=hands,
            start_when=computers + 1,
            name="Computer table",  # its own night, apart from any friends' table's
            turn_time=None,
            journal=False,
        )
        self.kind = "computer"
        return self.handle

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
        """A friends' table on every interface (``bind`` narrows it), on ``port`` or, if
        that is taken, any free one; the last error if neither could be had.  A match
        this table left unfinished resumes, first trying the port it was played on."""
        from server.config import MAX_TABLE_NAME, default_history_dir
        from server.journal import recorded_port

        last: Exception | None = None
        table = " ".join((name.strip() or f"{settings.name}'s table").split())[:MAX_TABLE_NAME]
        folder = self.overrides.get("history_dir") or default_history_dir()
        ports: list[int] = []
        for q in (recorded_port(Path(folder), table), port, 0):
            if q is not None and q not in ports:
                ports.append(q)
        for p in ports:
            try:
                st = settings
                self.handle = self._start(
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
                    turn_time=st.host_turn_time or None,
                    time_bank=st.host_time_bank,
                    stand_in=st.host_stand_in,
                )
                break
            except OSError as exc:
                last = exc
        if self.handle is None:
            return last
        self.kind = "host"
        return None

    def stop(self, who: str) -> None:
        """Close our table, telling everyone at it that ``who`` did."""
        if self.handle is None:
            return
        try:
            self.handle.stop(reason=f"{who} closed the table", forget=True)
        except Exception:
            log.exception("stopping the local server failed")
        self.handle = None
        self.kind = ""
