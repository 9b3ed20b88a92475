"""The way to one table: the connection, the session it fills and the comeback tokens.

``TableLink`` owns what the window knows of the table it is at: the
``client.net.Connection`` (which reconnects and retries on its own thread),
the ``Session`` the server's messages build, and what the next hello says
(our name, the seat's token, the password, watching or not).

A seat left in the middle of a match keeps its token here, by address, so
that joining that table again sits down in the same seat, cards too (R-C1);
a stale token just sits down anew.  Nothing here touches the window or the
scenes: the app asks the link to apply a message and then shows it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from client.model import Session
from client.net import Connection, Status
from client.settings import Settings
from common.protocol import Hello, Leave

__all__ = ["TableLink"]

log = logging.getLogger("client")


class TableLink:
    def __init__(self, settings: Settings, *, retry_for: float, wake: Callable[[], None]) -> None:
        self.settings = settings
        self.retry_for = retry_for
        self.wake = wake  # called from the network thread when something arrives
        self.session: Session | None = None
        self.conn: Connection | None = None
        self.status = Status("idle")
        self.password = ""  # what the next hello says: set by connect()
        self.watch = False
        self.joining = ""  # the address typed to join, remembered once it works
        self.left_seats: dict[tuple[str, int], str] = {}  # tokens of seats left mid-match

    @property
    def address(self) -> tuple[str, int] | None:
        return (self.conn.host, self.conn.port) if self.conn is not None else None

    def hello(self) -> dict[str, Any]:
        s = self.session
        assert s is not None
        return Hello(
            name=s.name,
            token=s.token or None,
            password=self.password or None,
            watch=self.watch and not s.token,
        ).encode()

    def connect(self, host: str, port: int, *, password: str, watch: bool, remember: str) -> None:
        """Start talking to ``host``:``port`` with a fresh session (hang up first)."""
        self.joining = remember
        self.session = Session(self.settings.name)
        if not watch:  # back to a seat we left mid-match (a stale token sits down anew)
            self.session.token = self.left_seats.pop((host, port), None)
        self.password = password
        self.watch = watch
        self.status = Status("connecting")
        self.conn = Connection(host, port, self.hello, wake=self.wake, retry_for=self.retry_for)
        self.conn.start()

    def send(self, msg: dict[str, Any]) -> bool:
        return self.conn.send(msg) if self.conn is not None else False

    def apply(self, msg: Any) -> str | None:
        """Apply a server message to the session: its kind, or None when there is no
        session or the message is bad (logged and dropped, STYLE)."""
        session = self.session
        if session is None:
            return None
        try:
            kind = session.apply(msg, time.monotonic())
        except Exception as exc:  # malformed or unknown: log it and go on (STYLE)
            log.warning("ignored a server message: %s (%.200r)", exc, msg)
            return None
        if kind == "welcome":
            self.status = Status("connected")
        return kind

    def remember_joined(self) -> bool:
        """Once welcomed: keep the address typed among the recent ones (True if kept)."""
        if not self.joining:
            return False
        self.settings.remember_address(self.joining)
        self.joining = ""
        return True

    def on_status(self, status: Status) -> bool:
        """A word from the connection's thread; True when the table is gone for good."""
        self.status = status
        if status.state == "retrying" and self.session is not None:
            self.session.reset_for_reconnect()
        return status.state in ("failed", "gone")

    def hang_up(self, *, send_leave: bool, keep_seat: bool) -> Session | None:
        """Close the connection and forget the session (returned).  ``keep_seat``: a seat
        left mid-match keeps its token for a comeback (not at our own server)."""
        s = self.session
        if self.conn is not None:
            mid_match = s is not None and s.running and s.standings is None
            if keep_seat and mid_match and s is not None and s.token:
                self.left_seats[(self.conn.host, self.conn.port)] = s.token  # R-C1
            if send_leave:
                self.conn.send(Leave().encode())
            self.conn.close()
            self.conn = None
        self.session = None
        self.status = Status("idle")
        self.joining = ""
        return s
