"""The one authoritative table: a façade over the parts that run a night.

``Table`` is the ``Handler`` behind every ``Connection``; it runs entirely in the event
loop, one message or one timer at a time.  It owns the seats and the connections, and
hands every job to a part with a narrow interface (``docs/architecture.md`` lists them):
the way in (``server.hello``) decides who comes in, the dealer (``server.dealer``) plays
the match and keeps it on disk, the turn's owner (``server.turns``) asks for each
decision.  The parts never write the table's fields: they answer with a decision (a
hello let in, a role passed on, a step to show) or act on what they own, and the table
does the rest.  Every timer runs off one clock (``server.timers``, given as ``clock=``).
Invariants:

- ``seats`` holds every filled seat (people and computer seats) by seat number.  A
  person's seat has a secret ``token``; whoever presents it owns the seat, and a seat
  has at most one live connection (``conn``).  A comeback takes its seat from any
  connection still holding it and tells everyone first (``presence``).
- While a match runs no seat joins it or is freed; a seat whose connection is gone is
  *dropped* (R-C1) and plays on by the default action after ``grace``, then is away
  (R-C2, ``server.turns``) until its person comes back.  A person seated meanwhile plays
  from the next match (``NEXT_MATCH``).
- Each connection is sent only ``common.views`` output for its own seat (``None`` for a
  spectator, built by ``server.frames``), so a card it may not see never leaves here;
  all one step sends it goes out in one write (``_one_write``).
- Once closed, the table does nothing more: a shutdown's last word is its ``bye``.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from common import protocol as p
from common.events import Event
from common.match import Match, SeatKind
from common.presence import Presence
from common.schema import LobbySeat
from server import books, frames, journal
from server.announce import short_hostname
from server.asks import SeatAsks
from server.chat import said
from server.computer import Chooser, ComputerSeats, default_chooser
from server.config import ServerConfig
from server.console import console
from server.dealer import Dealer
from server.guard import Door, DoorLimits
from server.hello import Reception
from server.hostctl import HostControls
from server.hostrole import HostRole
from server.life import Life
from server.lobby import ComputerChairs
from server.net import Connection
from server.presence import Move, step
from server.seats import Seat, computer_seats, first_free, public_seats, token_digest
from server.timers import Clock, LoopClock
from server.turns import TableOptions, Turns

__all__ = ["Table"]

log = logging.getLogger("server.table")


class Table:
    """Seats people as they connect, runs matches and sends each seat its view."""

    def __init__(
        self, config: ServerConfig, *, chooser: Chooser | None = None, clock: Clock | None = None
    ) -> None:
        self.config = config
        self.clock: Clock = clock if clock is not None else LoopClock()
        self.name = config.name or f"{short_hostname()}'s table"
        self.port: int | None = None  # the port listened on, once known (the journal's)
        seeded = config.seed is not None
        self.rng: random.Random = random.Random(config.seed) if seeded else secrets.SystemRandom()
        self.seats: dict[int, Seat] = {}
        self.conns: set[Connection] = set()
        self.options = TableOptions(
            config.turn_time,
            config.time_bank,
            config.stand_in,
            config.plain_at_start,
            config.odds,
            hands=config.hands,
        )
        self._late: set[Connection] = set()
        """Connections that (re)joined while a step was being written: sent the whole
        table once it is shown, instead of the step's frames."""
        self.computers = ComputerSeats(
            chooser or default_chooser(),
            delay=config.bot_delay,
            rng=self.rng,
            current=lambda turn: self.turns.current(turn),
            apply=self.apply,
            clock=self.clock,
        )
        self.turns = Turns(
            self.options,
            grace=config.grace,
            clock=self.clock,
            rng=self.rng,
            broadcast=self._broadcast,
            apply=self.apply,
            computer=self.computers.play,
        )
        self.door = Door(DoorLimits.of(config))
        self.reception = Reception(
            config, self.door, self.options, self.seats, self.conns,
            clock=self.clock, admit=self._admit,
        )  # fmt: skip
        self.role = HostRole(
            self.seats, clock=self.clock, grace=config.grace, record=self.record,
            passed=self._host_passed,
        )  # fmt: skip
        self.asks = SeatAsks(self.seats, self.role, clock=self.clock, give=self._give_back)
        self.chairs = ComputerChairs(
            self.seats,
            own_brains=chooser is None,
            host=lambda: self.host,
            running=lambda: self.running,
            night=lambda: self.records.tonight(running=self.running).evening,
        )
        self.dealer = Dealer(
            config, self.name, rng=self.rng, clock=self.clock, seats=self.seats,
            options=self.options, turns=self.turns, chairs=self.chairs, role=self.role,
            broadcast=self._broadcast, begun=self._begun, show=self._show, over=self._over,
            one_write=self._one_write,
        )  # fmt: skip
        self.records, self.journal, self.saver = (
            self.dealer.records, self.dealer.journal, self.dealer.saver
        )  # fmt: skip
        self.controls = HostControls(
            self.options, self.seats, self.conns, role=self.role, turns=self.turns,
            password=config.password is not None, running=lambda: self.running,
            pause=self.dealer.pause, lobby_changed=self._broadcast_lobby,
        )  # fmt: skip
        self.chairs.seat(
            computer_seats(config.computer, config.computer_names, self.rng, config.computer_levels)
        )

    # ------------------------------------------------------------ what the table is

    @property
    def running(self) -> bool:
        """A match is being played (``server.life``)."""
        return self.dealer.life.running

    @property
    def paused(self) -> bool:
        return self.dealer.life.paused

    @property
    def match(self) -> Match | None:
        return self.dealer.match

    @property
    def hand_no(self) -> int:
        return self.dealer.hand_no

    @property
    def hand_time(self) -> str:
        return self.dealer.hand_time

    @property
    def step(self) -> int:
        return self.dealer.step

    @property
    def hands(self) -> int:
        """The length of the match in play, or of the next one (R-T4)."""
        return self.options.hands

    @property
    def host(self) -> int | None:
        return self.role.seat

    @property
    def turn_id(self) -> int:
        return self.turns.turn_id

    @property
    def turn_seat(self) -> int | None:
        """The seat whose decision is asked for now (``server.turns``)."""
        seat = self.turns.to_act
        return None if seat is None else seat.seat

    @property
    def bot_times(self) -> list[float]:
        """How long the computer seats' last choices took, in seconds."""
        return list(self.computers.times)

    def apply(self, seat: int, action: str) -> None:
        """Play ``action`` for ``seat`` (``Dealer.apply``)."""
        self.dealer.apply(seat, action)

    def record(self, note: dict[str, Any]) -> None:
        """``note`` in the journal of the match in play (``Dealer.record``)."""
        self.dealer.record(note)

    # ------------------------------------------------------------ connections

    def on_open(self, conn: Connection) -> bool:
        if self.dealer.life is Life.CLOSED:
            conn.send_message(p.Bye("server shutting down").encode())
            return False
        refused = self.door.admit(conn, self.conns)
        if refused is not None:
            conn.send_message(p.Error("server_busy", refused).encode())
            return False
        if self.door.cut_off(conn.address, self.clock.now()):
            # A flooder back at once is held, unread, until its handshake time is up:
            # it waits on a full socket instead of reconnecting as fast as it can.
            conn.tarpit()
        self.conns.add(conn)
        return True

    def on_close(self, conn: Connection) -> None:
        self.conns.discard(conn)
        if conn.flooded:
            wait = self.door.flooded(conn.address, self.clock.now())
            log.warning("%s flooded; its new connections are cut off for %.0f s", conn.peer, wait)
        self.asks.conn_gone(conn)
        seat = self._seat_of(conn)
        if seat is None:
            return
        seat.conn = None
        if self.dealer.life is Life.CLOSED:
            return
        if self.running and seat.presence is not Presence.NEXT_MATCH:
            self._dropped(seat)
        else:
            self._free(seat.seat)

    def _seat_of(self, conn: Connection) -> Seat | None:
        """The seat ``conn`` holds, if it still does."""
        seat = self.seats.get(conn.seat) if conn.seat is not None else None
        return seat if seat is not None and seat.conn is conn else None

    def _dropped(self, seat: Seat) -> None:
        """A seated person's connection is gone during a match (or the match was resumed
        from its journal and its person is not back yet): R-C1 keeps the seat; a host's
        role waits out the grace, then passes on."""
        log.info("seat %d (%s) dropped; R-C1 keeps the seat", seat.seat, seat.name)
        self.turns.dropped(seat)
        self.role.dropped(seat)

    def on_message(self, conn: Connection, raw: dict[str, Any]) -> None:
        """One message: whatever it makes the table say goes out to its sender in one
        write, and a step it sets off to everyone in one write each (``_one_write``)."""
        conn.cork()
        try:
            self._message(conn, raw)
        finally:
            conn.uncork()

    def _message(self, conn: Connection, raw: dict[str, Any]) -> None:
        if raw.get("type") == "proof" and self.reception.proving(conn):
            proof = p.decode_client(raw)
            assert isinstance(proof, p.Proof)
            self.reception.proof(conn, proof)  # the password proof its hello waits for
            return
        if not conn.greeted and raw.get("type") != "hello":
            kind = raw.get("type")
            conn.fail("no_hello", "say hello first", kind[:20] if isinstance(kind, str) else None)
            return
        msg = p.decode_client(raw)
        if not conn.greeted:
            assert isinstance(msg, p.Hello)
            self.reception.hello(conn, msg)
            return
        if conn.protocol == 1:
            if isinstance(msg, p.NEWER_MESSAGES):  # not a type of protocol 1
                raise p.MessageError("unknown_type", f"unknown message type '{msg.TYPE}'", msg.TYPE)
            seat = self._seat_of(conn)
            if seat is not None:  # it cannot say "back": anything it says will do (R-C2)
                self.turns.move(seat, Move.ALIVE_V1)
        if isinstance(msg, p.Act):
            self._act(conn, msg)
        elif isinstance(msg, p.Chat):
            cfg = self.config
            line = said(conn, msg, burst=cfg.chat_burst, per_second=cfg.chat_per_second)
            self._broadcast(line.encode())
        elif isinstance(msg, p.Ping):
            conn.send_message(p.Pong(msg.id).encode())
        elif isinstance(msg, p.Start):
            self._start(conn, msg)
        elif isinstance(msg, p.SetLevel):
            self.chairs.set_level(conn, msg)
            self._broadcast_lobby()
        elif isinstance(msg, p.Sit):
            self.reception.may_sit(conn)
            self._seat_newcomer(conn, conn.name or "Player")
        elif isinstance(msg, p.FreeSeat):
            self.chairs.may_free(conn, msg)
            self._free(msg.seat)
        elif isinstance(msg, p.CONTROL_MESSAGES):
            self.controls.control(conn, msg)
        elif isinstance(msg, p.AskSeat):
            self.asks.ask(conn, msg, running=self.running)
        elif isinstance(msg, p.GiveSeat | p.RefuseSeat):
            self.asks.answer(conn, msg)
        elif isinstance(msg, p.MakeHost):
            self.role.asked(conn, msg)
        elif isinstance(msg, p.Proof):
            self.reception.proof(conn, msg)  # none waits: refused
        elif isinstance(msg, p.Leave):
            self._leave(conn)
        else:
            conn.send_message(p.Error("already_hello", "hello only once", "hello").encode())

    def _leave(self, conn: Connection) -> None:
        seat = self.seats.get(conn.seat) if conn.seat is not None else None
        if seat is not None and (not self.running or seat.presence is Presence.NEXT_MATCH):
            self._free(seat.seat)
            conn.seat = None
        elif seat is not None:
            self.turns.move(seat, Move.LEAVE)  # R-C2: gone on purpose, so away at once
            self.role.left(seat.seat)  # a goodbye waits no grace: the role passes now
        conn.close()

    # ------------------------------------------------------------ seats

    def _admit(self, conn: Connection, hello: p.Hello, seat: Seat | None) -> None:
        """The way in let ``conn`` in (``server.hello``): back to ``seat`` by its token,
        to watch, or to the lowest free seat."""
        if seat is not None:
            seat.token = seat.token or hello.token  # a seat rebuilt from the journal
            self._comeback(conn, seat)
        elif hello.watch:
            conn.mark_greeted()
            conn.name = hello.name
            welcome = p.Welcome(None, "", hello.name, False, True, self.hands, hello.protocol)
            conn.send_message(welcome.encode())
            self._send_state(conn)
        else:
            self._seat_newcomer(conn, hello.name)
            start_when = self.config.start_when
            if start_when is not None and self.match is None and len(self.seats) >= start_when:
                self.dealer.start(port=self.port)

    def _comeback(self, conn: Connection, seat: Seat) -> None:
        """R-C1: the seat's person is back with its token, cards included."""
        old, seat.conn = seat.conn, None
        if old is not None:
            old.seat = None
            old.fail("taken_over", "another connection took this seat with its token")
        if self.running:  # tell the others first: the comeback's own state says it
            self.turns.reconnected(seat)
        took_role = self._sit(conn, seat)
        log.info("seat %d (%s) is back from %s", seat.seat, seat.name, conn.peer)
        if took_role or not self.running:
            self._broadcast_lobby(but=conn)  # it has just had its own
        if self.running:
            self.turns.rejoined(seat)

    def _give_back(self, conn: Connection, seat: Seat) -> None:
        """The host gave ``seat`` back to ``conn``, which asked for it by name
        (``server.asks``): a new token, and in as a token's comeback would be."""
        seat.token = secrets.token_urlsafe(18)
        self.token_changed(seat)
        self._comeback(conn, seat)

    def token_changed(self, seat: Seat) -> None:
        """``seat``'s token was replaced: the journal keeps its hash, so the new token is
        the one a resumed table takes back."""
        assert seat.token is not None
        seat.token_hash = None  # a resumed seat's old hash is no way back either
        log.info("seat %d (%s) has a new token", seat.seat, seat.name)
        self.record(journal.token_record(seat.seat, token_digest(seat.token)))

    def _seat_newcomer(self, conn: Connection, name: str) -> None:
        """Seat ``conn`` in the lowest free seat.  Once a match has been played here, a new
        seat is marked for the next match (``next`` in the lobby): during a match it
        watches until then."""
        free = first_free(self.seats)
        assert free is not None
        seat = Seat(free, name, SeatKind.HUMAN, token=secrets.token_urlsafe(18))
        if self.match is not None:
            seat.presence = step(seat.presence, Move.SIT_LATE)
        self.seats[seat.seat] = seat
        self._sit(conn, seat)
        when = " for the next match" if seat.presence is Presence.NEXT_MATCH else ""
        log.info("%s sits in seat %d%s from %s", seat.name, seat.seat, when, conn.peer)
        self._broadcast_lobby(but=conn)  # it has just had its own

    def _sit(self, conn: Connection, seat: Seat) -> bool:
        """``conn`` holds ``seat`` now: its welcome and the table's state.  Returns
        whether it took the host's role (nobody held it)."""
        conn.mark_greeted()
        conn.seat, conn.name, seat.conn = seat.seat, seat.name, conn
        assert seat.token is not None
        if seat.presence is Presence.NEXT_MATCH:  # for the next match
            self.record(journal.sit_record(seat.seat, seat.name, token_digest(seat.token)))
        self.asks.seat_back(seat.seat)  # back by its token: nobody need ask for it now
        took_role = self.role.seated(seat)
        host = seat.seat == self.host
        welcome = p.Welcome(seat.seat, seat.token, seat.name, host, False, self.hands,
                            conn.protocol)  # fmt: skip
        conn.send_message(welcome.encode())
        self._send_state(conn)
        if host:
            self.asks.tell(conn)
        self.door.seated(seat.seat, conn.address)
        return took_role

    def _free(self, seat_no: int) -> None:
        seat = self.seats.pop(seat_no, None)
        if seat is None:
            return
        log.info("seat %d (%s) is free", seat_no, seat.name)
        if seat.presence is Presence.NEXT_MATCH:
            self.record(journal.free_record(seat_no))
        self.asks.seat_back(seat_no, "the seat is free now")
        if self.role.freed(seat_no):  # R-T0: a host's role to the next one clockwise
            self.asks.tell_new_host()
        self._broadcast_lobby()

    def _host_passed(self) -> None:
        """The host's role passed on: everyone's lobby says so, the new host hears of
        every open ask."""
        self._broadcast_lobby()
        self.asks.tell_new_host()

    # ------------------------------------------------------------ what everyone is sent

    def _lobby(self) -> dict[str, Any]:
        opts = self.options
        return frames.lobby(
            self._players(),
            host=self.host,
            hands=self.hands,
            start_when=self.config.start_when,
            running=self.running,
            open_books=self.config.open_books,
            books_to_watchers=self.config.books_to_watchers,
            options=opts.to_dict(),
            paused=self.paused,
            table=self.name,
            night=self.records.tonight(running=self.running).summary(),
            plain=opts.plain,
            password=self.config.password is not None,
            odds=opts.odds,
        )

    def _players(self) -> list[LobbySeat]:
        """The seats as the lobby and every ``table`` list them."""
        return public_seats(self.seats, self.host, self.options.stand_in)

    def _broadcast_lobby(self, *, but: Connection | None = None) -> None:
        if self.dealer.life is not Life.CLOSED:  # a shutdown's last word to everyone is its bye
            self._broadcast(self._lobby(), but=but)

    def _send_state(self, conn: Connection) -> None:
        """Everything a (re)joining connection needs: lobby, match, hand so far, its turn."""
        conn.send_message(self._lobby())
        problem = self.saver.problem
        if problem is not None and conn.protocol != 1:
            conn.send_message(p.Waiting(True, problem.why, problem.message).encode())
        if not self.running or self.match is None or self.match.hand is None:
            return
        if self.dealer.pending:  # the step on screen is not on disk yet
            self._late.add(conn)
            return
        conn.send_message(frames.match_start(self.match, self.records.match_id, self._players()))
        viewer = self._viewer(conn)
        out = self._step_frames(self.match.hand.events, {viewer})
        conn.send(out[viewer])
        if conn.protocol != 1:
            if self.paused:
                conn.send_message(p.Paused(True, self.role.name()).encode())
            clock = self.turns.clock_message()
            if clock is not None:
                conn.send_message(clock)

    def _viewer(self, conn: Connection) -> int | None:
        """Whose cards ``conn`` may see: its seat if that seat plays this match, else none."""
        if conn.seat is None or self.match is None or conn.seat not in self.match.seats:
            return None
        return conn.seat

    def _step_frames(
        self, events: list[Event], viewers: set[int | None]
    ) -> dict[int | None, bytes]:
        """One ``events`` + ``table`` frame pair per viewing seat (``frames.step_frames``)."""
        assert self.match is not None
        return frames.step_frames(
            self.match,
            events,
            viewers,
            match_id=self.records.match_id,
            hand_no=self.hand_no,
            step=self.step,
            turn_id=self.turns.turn_id,
            players=self._players(),
        )

    def _broadcast(
        self, msg: dict[str, Any] | bytes, *, but: Connection | None = None, newer: bool = False
    ) -> None:
        """``msg`` (or its frame, already made) to every greeted connection; ``newer``: a
        protocol 2 message type, which protocol 1 connections are not sent."""
        frame = msg if isinstance(msg, bytes) else p.encode_frame(msg)
        for conn in list(self.conns):
            if conn.greeted and conn is not but and not (newer and conn.protocol == 1):
                conn.send(frame)

    @contextmanager
    def _one_write(self) -> Iterator[None]:
        """Every connection corked while inside (``Connection.cork``): what it is sent
        goes out in one write at the end."""
        conns = list(self.conns)
        for conn in conns:
            conn.cork()
        try:
            yield
        finally:
            for conn in conns:
                conn.uncork()

    # ------------------------------------------------------------ the match

    def _start(self, conn: Connection, start: p.Start) -> None:
        if conn.seat is None or conn.seat != self.host:
            raise p.MessageError("not_host", "only the host starts the match", "start")
        if self.running:
            raise p.MessageError("match_running", "a match is already running", "start")
        if len(self.seats) < 2:
            raise p.MessageError("not_enough_seats", "a match needs two seats or more", "start")
        if start.hands is not None:
            self.options.hands = start.hands
        self.dealer.start(port=self.port)

    def _begun(self) -> None:
        """The match's first record is on disk: every lobby and screen says it began."""
        assert self.match is not None
        self._broadcast_lobby()
        self._broadcast(frames.match_start(self.match, self.records.match_id, self._players()))

    def _show(self, events: list[Event]) -> None:
        """A step is on disk: its frames to every screen (the whole table to one that
        joined while it was being written)."""
        late, self._late = self._late, set()
        sent = [(c, self._viewer(c)) for c in self.conns if c.greeted and c not in late]
        out = self._step_frames(events, {viewer for _, viewer in sent})
        for conn, viewer in sent:
            conn.send(out[viewer])
        for conn in late:
            if conn in self.conns:
                self._send_state(conn)

    def _act(self, conn: Connection, act: p.Act) -> None:
        if conn.seat is None:
            raise p.MessageError("not_seated", "a spectator cannot act", "act")
        problem = self.saver.problem
        if self.dealer.life.waiting and problem is not None:  # nothing moves (server.saving)
            raise p.MessageError("table_waits", problem.message, "act")
        self.turns.act(self.seats.get(conn.seat), conn.seat, act, protocol=conn.protocol)
        conn.budget.refund()  # the table asked for it: its pace is the table's, not a flood

    def _over(self) -> None:
        """The match is over and its standings shown: asks end, the seats whose people
        are gone are freed, and the books open if the table keeps them open."""
        self.asks.end_all("The match is over")
        # _free passes the host's role on to the next connected person clockwise, so
        # every person left is connected and the host is one of them (or there is none).
        for seat in [s for s in self.seats.values() if not s.connected]:
            self._free(seat.seat)
        self._broadcast_lobby()
        records, match = self.records, self.match
        if self.config.open_books and records.hands and match is not None:
            watchers = self.config.books_to_watchers
            books.open_books(
                self.conns, records.hands, records.match_id, seated=match.seats, watchers=watchers
            )

    def resume(self) -> bool:
        """Before listening: the unfinished match the journal holds, if any, played on
        from the exact decision it stopped at (``Dealer.rebuilt``).  Every person's seat
        is dropped (R-C1) until its person comes back with the token whose hash the
        journal kept; computer seats play on with fresh brains and an RNG drawn from the
        table's; a person seated for the next match waits for it again."""
        got = self.dealer.rebuilt()
        if got is None:
            return False
        self.seats.clear()
        for s in got.seats:
            seat = Seat(s.seat, s.name, s.kind, level=s.level, token_hash=s.token_sha256)
            self.seats[s.seat] = seat
        computers = [s for s in self.seats.values() if s.kind is SeatKind.COMPUTER]
        for seat in computers:
            seat.rng = random.Random(self.rng.getrandbits(64))
        self.chairs.seat(computers)
        playing = list(self.seats.values())
        opts = self.options  # the match's; plain connections and odds stay the host's
        opts.hands, opts.turn_time, opts.time_bank = got.match.hands, got.turn_time, got.time_bank
        opts.stand_in = got.stand_in
        for s in got.waiting.values():  # they play from the next match, as before
            seat = Seat(s.seat, s.name, s.kind, token_hash=s.token_sha256)
            seat.presence = step(seat.presence, Move.SIT_LATE)
            self.seats[s.seat] = seat
        self.port = got.port
        self.role.restore(got.host if got.host in self.seats else None)
        self.dealer.resume(got, playing)
        for seat in playing:
            if seat.kind is SeatKind.HUMAN:
                self._dropped(seat)
        hand = got.match.hand
        log.info(
            "resumed match %s at hand %d, turn %d: %d seats, %d of %d hands played, %s",
            got.match_id, got.hand_no, got.turn_id, len(got.seats), got.match.hands_played,
            got.match.hands,
            "hand over" if hand is None or hand.is_over else f"seat {hand.to_act} to act",
        )  # fmt: skip
        self.dealer.play_on()
        return True

    def listening(self, port: int) -> None:
        """The table listens on ``port``; a resumed match that had to take another than
        its journal's journals it, so that its players' games find it there."""
        if port != self.port:
            self.record(journal.port_record(port))
        self.port = port

    # ------------------------------------------------------------ the host's terminal

    def console(self, line: str) -> str:
        """One command from the host's terminal (a headless server's stdin): ``pause``,
        ``resume``, ``take N`` (seat number), ``stand-in on|off``, ``status`` or ``help``.
        Returns what to print; a refused command changes nothing."""
        return console(
            self.controls,
            self.seats,
            line,
            running=self.running,
            paused=self.paused,
            asks=self.asks,
            make_host=self.role.make_host,
        )

    def shutdown(self, reason: str = "the host closed the table") -> None:
        """Tell everyone, stop timers and computer seats, close every connection."""
        self.dealer.close()
        self.turns.turn_clock.cancel()
        self.computers.cancel()
        self.asks.cancel()
        self.role.cancel()
        bye = p.encode_frame(p.Bye(reason).encode())
        for conn in list(self.conns):
            conn.send(bye)
            conn.close()
