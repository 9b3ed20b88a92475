"""The way to one table: the connection, the session it fills and the comeback tokens.

``TableLink`` holds the ``client.net.Connection``, the ``Session`` the server's messages
build and what the next hello says (our name, the seat's token, the password, watching).
It never touches the window: the app asks it to apply a message, then shows it.

A seat's token is kept on disk (``client.seatkeys``) from its ``welcome``, with the match
once ``match_start`` names it, so that joining that table again by any way, even after a
crash, sits down in the same seat, cards too (R-C1); every hello says the password typed,
else the one kept with the token.  A key is forgotten when the match ends, when the seat
is freed, when we leave between matches and on ``bad_token``; leaving mid-match keeps it.

The table's key (TLS) is checked before any hello (``check_key``): a key typed with the
address, or announced on the network, must be the table's; then a pin of this table
(``client.pins``) with another key refuses the join (``key_problem``; a changed key may be
trusted, ``trust_new_key``).  A key never met, typed or trusted is pinned only once the
table welcomes us (``key_welcomed``), after its password proof.  Our own server is not
pinned.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from client.i18n import gettext as _
from client.model import Session
from client.net import Connection, Status, TableKey
from client.pins import Pin, Pins, pin_host
from client.seatkeys import SeatKey, SeatKeys, normal_ip
from client.settings import Settings
from common.protocol import Hello, Leave
from common.protocol import server_messages as r
from common.seal import normal_short_key, same_key, short_key
from common.version import __version__

__all__ = ["Expect", "KeyProblem", "TableLink"]


@dataclass(frozen=True, slots=True)
class KeyProblem:
    """A join refused before its hello for the table's key: ``changed`` (a pin of this table
    has another key: it may be trusted), ``typed`` or ``announced`` (not the table's)."""

    kind: str
    table: str  # the table's name, as known for this join
    known: tuple[str, ...]  # the short keys expected (pinned, typed or announced)
    new: str  # the short key the table showed
    pin: Pin  # what trusting the new key keeps
    join: dict[str, Any]  # ``connect``'s keywords, to join again

    @property
    def trustable(self) -> bool:
        return self.kind == "changed"


@dataclass(frozen=True, slots=True)
class Expect:
    """What one join knows of the table's key before it meets it (its own, so that a join
    made meanwhile changes nothing of it): ``connect``'s keywords."""

    key: str
    announced: str
    table: str
    own: bool
    own_table: str
    join: dict[str, Any]  # to join again
    trusted: str = ""


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

    def key_for(self, host: str, port: int, *, name: str = "") -> SeatKey | None:
        """Our seat's key at ``host``:``port``, under ``name`` (by default the settings')."""
        name = name or self.settings.name
        return self.keys.find(host=host, ip=normal_ip(host), port=port, name=name)

    def _find(self, conn: Connection, name: str, **own: Any) -> SeatKey | None:
        """Our seat's key kept for the table ``conn`` reached, under ``name``."""
        ip = normal_ip(conn.peer) or normal_ip(conn.host)
        return self.keys.find(host=conn.host, ip=ip, port=conn.port, name=name, **own)

    @property
    def _password(self) -> str:
        """Every hello's, the reconnects' too: typed, else kept with the seat found on disk."""
        return self.password or (self.found.password if self.found is not None else "")

    def _hello(self, conn: Connection, s: Session) -> dict[str, Any]:
        """The hello for ``conn`` (from its thread): the token of ``s``, the session it was
        made for, or on the first try the one kept on disk for this table."""
        token = s.token
        password = self._password
        if not token and not self.watch and s.name:
            key = self._find(conn, s.name, own=self.own, table=self.own_table)
            if key is not None:
                self.found = key
                token = key.token
                password = password or key.password
        return Hello(
            name=s.name,
            token=token or None,
            password=password or None,
            watch=self.watch and not token,
            version=__version__,  # said back should the table not play with this game
        ).encode()

    def hello(self) -> dict[str, Any]:
        assert self.conn is not None and self.session is not None
        return self._hello(self.conn, self.session)

    def connect(
        self,
        host: str,
        port: int,
        *,
        password: str = "",
        watch: bool = False,
        remember: str = "",
        own: bool = False,
        own_table: str = "",
        key: str = "",
        announced: str = "",
        table: str = "",
        trusted: str = "",
    ) -> None:
        """Talk to ``host``:``port`` with a fresh session; ``own``: our own server, its table
        ``own_table``; ``key``: the table's short key as typed, ``announced``: as the table
        announces it (the Join list), ``table``: its name there; ``trusted``: the
        fingerprint the person chose to trust in place of the pinned one."""
        again = dict(
            host=host,
            port=port,
            password=password,
            watch=watch,
            remember=remember,
            key=key,
            announced=announced,
            table=table,
        )
        expect = Expect(
            key, announced, table.strip(), own, own_table if own else "", again, trusted.lower()
        )
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

    def _pin_of(self, conn: Connection, seen: TableKey, expect: Expect) -> Pin:
        """The table's key as a pin, under the table's name known for this join (the Join
        list, our own server's, a seat key's), else its certificate's."""
        name = expect.table or expect.own_table
        if not name:
            key = self._find(conn, self.settings.name)
            name = (key.table if key is not None else "") or seen.name
        return Pin(
            name=name.strip()[:80],
            host=pin_host(normal_ip(conn.peer) or seen.host or conn.host),
            port=seen.port or conn.port,
            fingerprint=seen.fingerprint.lower(),
        )

    def check_key(self, conn: Connection, seen: TableKey, expect: Expect) -> str | None:
        """None when the table's key is the one expected (pinned on first use), else the
        refusal shown to the player (``key_problem`` says it in parts)."""
        try:
            return self._check_key(conn, seen, expect)
        except Exception:  # a bug here must not let an unchecked key through
            log.exception("checking the table's key failed")
            return _("the table's key could not be checked")

    def _check_key(self, conn: Connection, seen: TableKey, expect: Expect) -> str | None:
        if expect.own:
            return None  # our own server, on this computer
        pin = self._pin_of(conn, seen, expect)
        new = short_key(seen.fingerprint)
        title = pin.name or f"{conn.host}:{conn.port}"
        wanted, source = (expect.key, "typed") if expect.key else (expect.announced, "announced")
        if wanted and not same_key(wanted, seen.fingerprint):
            known = normal_short_key(wanted) or wanted.strip()[:40]
            self._problem(conn, KeyProblem(source, title, (known,), new, pin, expect.join))
            if source == "typed":
                words = _("{table} shows the key {new}, not {known} as typed: not joined. Ask"
                          " the host to read their table key from their lobby.")  # fmt: skip
            else:
                words = _("{table} shows the key {new}, not {known} as announced on the"
                          " network: not joined. Ask the host to read their table key from"
                          " their lobby.")  # fmt: skip
            return words.format(table=title, new=new, known=known)
        if wanted and source == "typed":
            return None  # the person checked it against the host's screen: kept once welcomed
        if expect.trusted and expect.trusted == pin.fingerprint:
            return None  # the person chose to trust it: it replaces the old once welcomed
        verdict = self.pins.check(pin)
        if verdict.state == "mismatch":
            known_short = tuple(short_key(fp) for fp in verdict.known)
            self._problem(conn, KeyProblem("changed", title, known_short, new, pin, expect.join))
            words = _("{table}'s key has changed: it was {known}, it is now {new}. Not joined.")
            return words.format(table=title, known=", ".join(known_short), new=new)
        return None  # a key never met is kept once the table has let us in

    def key_welcomed(self, conn: Connection, seen: TableKey, expect: Expect) -> None:
        """The table welcomed us (network thread): a key typed or trusted replaces that
        table's pins; one never met is pinned."""
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
        """The join to make again (``connect``'s keywords) trusting the key the last join
        was refused for, pinned once the table welcomes us; or None."""
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
            password=self._password,
        )

    def _keep_keys(self, msg: r.ServerMessage, s: Session) -> None:
        if isinstance(msg, r.Welcome | r.MatchStart):  # at a match_start, with its match
            key = self._key(s)
            found = self.found if isinstance(msg, r.Welcome) else None
            if found is not None and (key is None or found.token != s.token):
                self.keys.forget(found.token)  # a newcomer after all
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
        """Close the connection and forget the session (returned); a seat's token is kept
        only mid-match (R-C1)."""
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
