"""The one authoritative table: a façade over the parts that run a night.

``Table`` is the ``Handler`` behind every ``Connection``; it runs entirely in the event
loop, one message or one timer at a time.  It hands every message to the part whose job
it is (``docs/architecture.md`` lists them) and sends what each connection is shown:
the way in (``server.hello``) decides who comes in and ``server.seating`` seats them;
the dealer (``server.dealer``) plays the match and keeps it on disk; the turn's owner
(``server.turns``) asks for each decision.  The parts never write the table's fields:
they answer with a decision or act on what they own, and call back only to have
something shown.  Every timer runs off one clock (``server.timers``, ``clock=``).
Invariants:

- Each connection is sent only ``common.views`` output for its own seat (``None`` for a
  spectator, built by ``server.frames``), so a card it may not see never leaves here;
  all one step sends it goes out in one write (``_one_write``).
- A step is shown only once the dealer has it on disk; a connection that joins while
  one is being written is sent the whole table once it is shown, not the step.
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
from common.events import Event, IllegalAction
from common.match import Match, SeatKind
from common.schema import LobbySeat
from server import books, frames
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
from server.presence import Move
from server.seating import Seating
from server.seats import Seat, computer_seats, public_seats
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
        self._listed: tuple[tuple[object, ...], list[LobbySeat]] = ((), [])
        """Connections that (re)joined while a step was being written."""
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
        self.role = HostRole(
            self.seats, clock=self.clock, grace=config.grace, record=self.record,
            passed=self._host_passed,
        )  # fmt: skip
        self.asks = SeatAsks(
            self.seats, self.role, clock=self.clock,
            give=lambda conn, seat: self.seating.give_back(conn, seat),
        )  # fmt: skip
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
        self.records = self.dealer.records
        self.journal = self.dealer.journal
        self.saver = self.dealer.saver
        self.door = Door(DoorLimits.of(config))
        self.seating = Seating(
            self.seats, options=self.options, start_when=config.start_when, door=self.door,
            turns=self.turns, role=self.role, asks=self.asks, chairs=self.chairs,
            dealer=self.dealer, state=self._send_state, lobby=self._broadcast_lobby,
        )  # fmt: skip
        self.reception = Reception(
            config, self.door, self.options, self.seats, self.conns,
            clock=self.clock, admit=self.seating.admit,
        )  # fmt: skip
        self.controls = HostControls(
            self.options, self.seats, self.conns, role=self.role, turns=self.turns,
            dealer=self.dealer, password=config.password is not None,
            lobby_changed=self._broadcast_lobby,
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
        self.seating.gone(conn)

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
            seat = self.seating.of(conn)
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
            self.seating.newcomer(conn, conn.name or "Player")
        elif isinstance(msg, p.FreeSeat):
            self.chairs.may_free(conn, msg)
            self.seating.free(msg.seat)
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
            self.seating.leave(conn)
        else:
            conn.send_message(p.Error("already_hello", "hello only once", "hello").encode())

    def _start(self, conn: Connection, start: p.Start) -> None:
        if conn.seat is None or conn.seat != self.host:
            raise p.MessageError("not_host", "only the host starts the match", "start")
        if self.running:
            raise p.MessageError("match_running", "a match is already running", "start")
        if len(self.seats) < 2:
            raise p.MessageError("not_enough_seats", "a match needs two seats or more", "start")
        if start.hands is not None:
            self.options.hands = start.hands
        self.dealer.start()

    def _act(self, conn: Connection, act: p.Act) -> None:
        if conn.seat is None:
            raise p.MessageError("not_seated", "a spectator cannot act", "act")
        problem = self.saver.problem
        if self.dealer.life.waiting and problem is not None:  # nothing moves (server.saving)
            raise p.MessageError("table_waits", problem.message, "act")
        self.turns.check_act(self.seats.get(conn.seat), conn.seat, act, protocol=conn.protocol)
        try:
            self.dealer.apply(conn.seat, act.action)
        except IllegalAction as exc:
            raise p.MessageError("illegal_action", str(exc), "act") from None
        conn.budget.refund()  # the table asked for it: its pace is the table's, not a flood

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
        """The seats as the lobby and every ``table`` list them, made again only when
        something they say has changed (``Seat.listed``): every step sends them to every
        seat, and they seldom change.  Made afresh each step, they cost an act about 50 us
        of the 1 ms it may take at seven seats with 16 watchers (``scripts/bench_server.py``)."""
        key = (self.host, self.options.stand_in, *(s.listed() for s in self.seats.values()))
        if key != self._listed[0]:
            self._listed = (key, public_seats(self.seats, self.host, self.options.stand_in))
        return self._listed[1]

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

    def _host_passed(self) -> None:
        """The host's role passed on: everyone's lobby says so, the new host hears of
        every open ask."""
        self._broadcast_lobby()
        self.asks.tell_new_host()

    def _over(self) -> None:
        """The match is over and its standings shown: the seats of people gone are freed,
        every lobby says so, and the books open if the table keeps them open."""
        self.seating.match_over()
        self._broadcast_lobby()
        records, match = self.records, self.match
        if self.config.open_books and records.hands and match is not None:
            watchers = self.config.books_to_watchers
            books.open_books(
                self.conns, records.hands, records.match_id, seated=match.seats, watchers=watchers
            )

    # ------------------------------------------------------------ starting and stopping

    def resume(self) -> bool:
        """Before listening: the unfinished match the journal holds, if any, played on
        from the exact decision it stopped at (``Dealer.rebuilt``).  Every person's seat
        is dropped (R-C1) until its person comes back with the token whose hash the
        journal kept."""
        got = self.dealer.rebuilt()
        if got is None:
            return False
        playing = self.seating.rebuilt(got, self.rng)
        opts = self.options  # the match's; plain connections and odds stay the host's
        opts.hands, opts.turn_time, opts.time_bank = got.match.hands, got.turn_time, got.time_bank
        opts.stand_in = got.stand_in
        self.dealer.resume(got, playing)
        for seat in playing:
            if seat.kind is SeatKind.HUMAN:
                self.seating.dropped(seat)
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
        """The table listens on ``port`` (``Dealer.listening``)."""
        self.dealer.listening(port)

    def console(self, line: str) -> str:
        """One command from the host's terminal (``server.console``); what to print."""
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
