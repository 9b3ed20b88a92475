"""The table this window runs itself: the computer table, or a friends' table we host.

Both are a ``server.app`` server on a thread of this process
(``run_in_thread``), stopped when we leave.  ``overrides`` (tests, scripts)
are laid over every config: short pauses, a histories folder.
"""

from __future__ import annotations

import logging
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
        that is taken, any free one; the last error if neither could be had."""
        last: Exception | None = None
        for p in (port, 0):
            try:
                st = settings
                self.handle = self._start(
                    host=bind,
                    port=p,
                    computer=computers,
                    computer_levels=(level,),
                    hands=hands,
                    password=password or None,
                    name=name.strip() or f"{settings.name}'s table",
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
            self.handle.stop(reason=f"{who} closed the table")
        except Exception:
            log.exception("stopping the local server failed")
        self.handle = None
        self.kind = ""
