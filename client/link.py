"""The way to one table: the connection, the session it fills and the comeback tokens.

``TableLink`` owns what the window knows of the table it is at: the
``client.net.Connection`` (which reconnects and retries on its own thread),
the ``Session`` the server's messages build, and what the next hello says
(our name, the seat's token, the password, watching or not).

Each seat's token is kept on disk (``client.seatkeys``) from the moment its
``welcome`` arrives, with the match once ``match_start`` names it, so that
joining that table again, by any way and even after the game crashed, sits
down in the same seat, cards too (R-C1).  The first ``hello`` of a join looks
the key up by the address actually connected to (``Connection.peer``), the
host as typed and our name.  A key is forgotten when the match ends
(``standings``), when the seat is freed (a ``welcome`` without it, a ``lobby``
without it), when we leave between matches, and when the server no longer
knows the token (``bad_token``: the join goes on as a newcomer).  Leaving, or
losing the table, in the middle of a match keeps it.  Nothing here touches
the window or the scenes: the app asks the link to apply a message and then
shows it.

The link is sealed (TLS) and the table shows its key before any hello: the
connection asks ``check_key``.  A key expected for this join (typed with the
address, or announced by the table on the network) must be that key; then the
pins (``client.pins``): one that differs from a pin of this table is refused, and
``key_problem`` says what the player is shown (both short keys; a changed key may be
trusted, ``trust_new_key``, and joined again).  A key never met goes on, and is
pinned only once the table welcomes us (``key_welcomed``): at a table with a password
that is after the table proved it knows it, so a failed proof (``no_proof``: a wrong
password, or someone in the middle showing its own key), a refusal or a close before
the welcome pins nothing.  A key typed that matches (the person's own check against the host's
screen) and a key the person chose to trust replace the pins of that table, on the
welcome too.  Our own server (the computer table, a table we host) is not pinned: it
is this computer's own.

Every hello of a join, the automatic reconnects' too, says the password typed, else
the one kept beside the seat's token (``client.seatkeys``): a game started again that
found its seat without the password keeps it through the table's restart.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from client.model import Session
from client.net import Connection, Status, TableKey
from client.pins import Pin, Pins, pin_host
from client.seatkeys import SeatKey, SeatKeys, normal_ip
from client.settings import Settings
from common.protocol import Hello, Leave
from common.protocol import server_messages as r
from common.seal import normal_short_key, same_key, short_key

__all__ = ["Expect", "KeyProblem", "TableLink"]


@dataclass(frozen=True, slots=True)
class KeyProblem:
    """Why a join was refused before its hello: the table showed an unexpected key.

    ``kind``: ``changed`` (a pin of this table has another key: the person may
    trust the new one), ``typed`` or ``announced`` (the key typed with the address,
    or the one the table's announcement gives, is not the table's: no trusting)."""

    kind: str
    table: str  # the table's name, as known for this join
    known: tuple[str, ...]  # the short keys expected (pinned, typed or announced)
    new: str  # the short key the table showed
    pin: Pin  # what trusting the new key keeps
    join: dict[str, Any] = dataclasses.field(default_factory=dict)  # ``connect`` again

    @property
    def trustable(self) -> bool:
        return self.kind == "changed"


@dataclass(frozen=True, slots=True)
class Expect:
    """What one join knows of the table's key before it meets it (kept by its connection's
    callback, so that a join made meanwhile changes nothing of it)."""

    key: str  # the short key typed with the address, or ""
    announced: str  # the short key the table's announcement gives, or ""
    table: str  # the table's name as known for the join (the Join list), or ""
    own: bool  # our own server
    own_table: str
    join: dict[str, Any]  # ``connect``'s keywords, to join again
    trusted: str = ""  # the fingerprint the person chose to trust (``trust_new_key``)


log = logging.getLogger("client")


class TableLink:
    def __init__(
        self,
        settings: Settings,
        *,
        retry_for: float,
        wake: Callable[[], None],
        keys: SeatKeys | None = None,
        pins: Pins | None = None,
    ) -> None:
        self.settings = settings
        self.retry_for = retry_for
        self.wake = wake  # called from the network thread when something arrives
        self.keys = keys or SeatKeys(None)  # the seats' tokens (on disk: the app's)
        self.session: Session | None = None
        self.conn: Connection | None = None
        self.status = Status("idle")
        self.password = ""  # what the next hello says: set by connect()
        self.watch = False
        self.own = False  # the table is our own server's
        self.own_table = ""  # and that server's table name (its keys are apart by it)
        self.joining = ""  # the address typed to join, remembered once it works
        self.found: SeatKey | None = None  # the key the first hello took its token from
        self.pins = pins or Pins(None)  # the tables' keys met (on disk: the app's)
        self.key_problem: KeyProblem | None = None  # the last join refused for its key

    @property
    def address(self) -> tuple[str, int] | None:
        return (self.conn.host, self.conn.port) if self.conn is not None else None

    def key_for(self, host: str, port: int, *, own: bool = False, name: str = "") -> SeatKey | None:
        """Our seat's key at ``host``:``port`` (an address as found or typed), if any, under
        ``name`` (by default the settings' name)."""
        name = name or self.settings.name
        return self.keys.find(host=host, ip=normal_ip(host), port=port, name=name, own=own)

    def _hello(self, conn: Connection, s: Session) -> dict[str, Any]:
        """The hello for ``conn`` (called from its thread, once connected): the token of
        ``s``, the session it was made for, or on the first try the one kept on disk for
        this table.  (The thread may connect once more after a hang-up has dropped the
        link's session: its hello is then the old session's, on a link that closes.)"""
        token = s.token
        # The reconnects' hellos too: a seat found on disk keeps its table's password.
        password = self.password or (self.found.password if self.found is not None else "")
        if not token and not self.watch and s.name:
            ip = normal_ip(conn.peer) or normal_ip(conn.host)
            key = self.keys.find(
                host=conn.host, ip=ip, port=conn.port, name=s.name, own=self.own,
                table=self.own_table,
            )  # fmt: skip
            if key is not None:
                self.found = key
                token = key.token
                password = password or key.password
        return Hello(
            name=s.name,
            token=token or None,
            password=password or None,
            watch=self.watch and not token,
        ).encode()

    def hello(self) -> dict[str, Any]:
        assert self.conn is not None and self.session is not None
        return self._hello(self.conn, self.session)

    def connect(
        self,
        host: str,
        port: int,
        *,
        password: str,
        watch: bool,
        remember: str,
        own: bool = False,
        own_table: str = "",
        key: str = "",
        announced: str = "",
        table: str = "",
        trusted: str = "",
    ) -> None:
        """Start talking to ``host``:``port`` with a fresh session (hang up first); ``own``:
        the server is ours (its port may differ from the last run's), its table named
        ``own_table``; ``key``: the table's short key as typed, ``announced``: as the
        table announces it (the Join list), ``table``: its name there; ``trusted``: the
        key's fingerprint the person chose to trust in place of the pinned one."""
        again = dict(host=host, port=port, password=password, watch=watch, remember=remember,
                     key=key, announced=announced, table=table)  # fmt: skip
        expect = Expect(key, announced, table.strip(), own, own_table if own else "", again,
                        trusted.lower())  # fmt: skip
        self.key_problem = None
        self.joining = remember
        self.session = session = Session(self.settings.name)
        self.password = password
        self.watch = watch
        self.own = own
        self.own_table = own_table if own else ""
        self.found = None
        self.status = Status("connecting")
        conn = Connection(
            host,
            port,
            lambda: self._hello(conn, session),
            wake=self.wake,
            retry_for=self.retry_for,
            resume_after_bye=not own,  # our own server stopped: nobody starts it again
            on_stale=self._stale,
            check_key=lambda seen: self.check_key(conn, seen, expect),
            on_welcome=lambda seen: self.key_welcomed(conn, seen, expect),
        )
        self.conn = conn
        conn.start()

    # ---- the table's key (network thread, after the TLS handshake, before the hello)

    def table_name_for(self, conn: Connection, seen: TableKey, expect: Expect) -> str:
        """The table's name for its pin: the one known for this join (the Join list, our
        own server's, a seat key's), else the certificate's."""
        if expect.table or expect.own_table:
            return expect.table or expect.own_table
        ip = normal_ip(conn.peer) or normal_ip(conn.host)
        key = self.keys.find(host=conn.host, ip=ip, port=conn.port, name=self.settings.name)
        return (key.table if key is not None else "") or seen.name

    def check_key(self, conn: Connection, seen: TableKey, expect: Expect) -> str | None:
        """None when the table's key is the one expected (pinned on first use), else the
        refusal shown to the player (``key_problem`` says it in parts)."""
        try:
            return self._check_key(conn, seen, expect)
        except Exception:  # a bug here must not let an unchecked key through
            log.exception("checking the table's key failed")
            return "the table's key could not be checked"

    def _pin_of(self, conn: Connection, seen: TableKey, expect: Expect) -> Pin:
        return Pin(
            name=self.table_name_for(conn, seen, expect).strip()[:80],
            host=pin_host(normal_ip(conn.peer) or seen.host or conn.host),
            port=seen.port or conn.port,
            fingerprint=seen.fingerprint.lower(),
        )

    def _check_key(self, conn: Connection, seen: TableKey, expect: Expect) -> str | None:
        if expect.own:
            return None  # our own server, on this computer
        name = self.table_name_for(conn, seen, expect)
        pin = self._pin_of(conn, seen, expect)
        new = short_key(seen.fingerprint)
        title = name or f"{conn.host}:{conn.port}"
        wanted, source = (expect.key, "typed") if expect.key else (expect.announced, "announced")
        if wanted and not same_key(wanted, seen.fingerprint):
            known = normal_short_key(wanted) or wanted.strip()[:40]
            how = "typed" if source == "typed" else "announced on the network"
            self._problem(conn, KeyProblem(source, title, (known,), new, pin, expect.join))
            return (
                f"{title} shows the key {new}, not {known} as {how}: not joined."
                " Ask the host to read their table key from their lobby."
            )
        if wanted and source == "typed":
            return None  # the person checked it against the host's screen: kept once welcomed
        if expect.trusted and expect.trusted == pin.fingerprint:
            return None  # the person chose to trust it: it replaces the old once welcomed
        verdict = self.pins.check(pin)
        if verdict.state == "mismatch":
            known_short = tuple(short_key(fp) for fp in verdict.known)
            self._problem(conn, KeyProblem("changed", title, known_short, new, pin, expect.join))
            return (
                f"{title}'s key has changed: it was {', '.join(known_short)}, it is now {new}."
                " Not joined."
            )
        return None  # a key never met is kept once the table has let us in

    def key_welcomed(self, conn: Connection, seen: TableKey, expect: Expect) -> None:
        """The table welcomed us (network thread), having proven it knows the password if
        we made the proof: now its key is kept.  A key typed with the address or trusted
        by the person replaces that table's pins; one never met is pinned."""
        if expect.own:
            return
        pin = self._pin_of(conn, seen, expect)
        if self.pins.check(pin).ok:
            return
        title, new = pin.name or f"{conn.host}:{conn.port}", short_key(pin.fingerprint)
        typed = bool(expect.key) and same_key(expect.key, seen.fingerprint)
        if typed or expect.trusted == pin.fingerprint:
            self.pins.trust(pin)
            log.info("%s's key %s is kept in place of any other", title, new)
        elif self.pins.pin(pin):
            log.info("first meeting with %s: its key %s is kept", title, new)

    def _problem(self, conn: Connection, problem: KeyProblem) -> None:
        if conn is self.conn:  # (a join given up meanwhile says nothing)
            self.key_problem = problem

    def trust_new_key(self) -> dict[str, Any] | None:
        """The person trusts the key the last join was refused for: the join to make again
        (``connect``'s keywords), which lets that key through and pins it in place of the
        old ones once the table welcomes us (so a table that then fails its password proof
        replaces nothing); or None."""
        problem = self.key_problem
        if problem is None or not problem.trustable:
            return None
        self.key_problem = None
        return dict(problem.join, trusted=problem.pin.fingerprint)

    def _stale(self, token: str) -> None:
        """The server does not know ``token`` (network thread): drop its key quietly."""
        if self.keys.forget(token):
            log.info("the table no longer knows our seat's token: joining anew")

    # ---- the keys, as the messages come

    def _key(self, s: Session) -> SeatKey | None:
        conn = self.conn
        if conn is None or s.seat is None or not s.token or s.watch:
            return None
        return SeatKey(
            host=conn.host,
            ip=normal_ip(conn.peer) or normal_ip(conn.host),
            port=conn.port,
            name=s.name,
            token=s.token,
            match=s.match_id if s.running else None,
            seat=s.seat,
            own=self.own,
            table=self.own_table,
            password=self.password or (self.found.password if self.found else ""),
        )

    def _keep_keys(self, msg: r.ServerMessage, s: Session) -> None:
        if isinstance(msg, r.Welcome):
            if self.found is not None and self.found.token != s.token:
                self.keys.forget(self.found.token)  # a newcomer after all
            key = self._key(s)
            if key is not None:
                self.keys.keep(key)
            elif self.found is not None:
                self.keys.forget(self.found.token)
        elif isinstance(msg, r.MatchStart):
            key = self._key(s)  # the match is known now (a new match keeps it again)
            if key is not None:
                self.keys.keep(key)
        elif isinstance(msg, r.Standings) and s.token:
            self.keys.forget(s.token, match=s.match_id)  # the match is over (R-T6)
        elif isinstance(msg, r.Lobby) and s.token and s.seat is not None and s.welcomed:
            mine = any(p.seat == s.seat and p.name == s.name for p in s.lobby.seats)
            if not mine:
                self.keys.forget(s.token)  # our seat was freed

    def send(self, msg: dict[str, Any]) -> bool:
        return self.conn.send(msg) if self.conn is not None else False

    def apply(self, msg: r.ServerMessage, now: float) -> bool:
        """Apply a server message to the session; False when there is none."""
        session = self.session
        if session is None:
            return False
        session.apply(msg, now)
        if isinstance(msg, r.Welcome):
            self.status = Status("connected")
        try:
            self._keep_keys(msg, session)
        except Exception:  # the tokens on disk must never stop the game
            log.exception("keeping the seat's token failed")
        return True

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

    def hang_up(self, *, send_leave: bool) -> Session | None:
        """Close the connection and forget the session (returned).  A seat left in the
        middle of a match keeps its token on disk for a comeback (R-C1); between matches
        it is forgotten."""
        s = self.session
        if self.conn is not None:
            mid_match = s is not None and s.running and s.standings is None
            if s is not None and s.token and not mid_match:
                self.keys.forget(s.token)
            if send_leave:
                self.conn.send(Leave().encode())
            self.conn.close()
            self.conn = None
        self.session = None
        self.status = Status("idle")
        self.joining = ""
        self.found = None
        return s
