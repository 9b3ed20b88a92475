"""The one authoritative table: a façade over the parts that run a night.

``Table`` is the ``Handler`` behind every ``Connection``, in the event loop, one message
or timer at a time.  It hands every message to the part whose job it is
(``docs/architecture.md`` lists them) and sends what each connection is shown.  The
parts never write the table's fields: they answer with a decision or act on what they
own, and call back only to have something shown.  Every timer runs off one clock
(``server.timers``).  Invariants:

- Each connection is sent only ``common.views`` output for its own seat (``None`` for a
  spectator, built by ``server.frames``), so a card it may not see never leaves here;
  all one step sends it goes out in one write (``_one_write``).
- A step is shown only once the dealer has it on disk; a connection that joins while
  one is being written is sent the whole table once it is shown, not the step.
- Only the host sends the host's messages (``HOSTS``), checked here once; the host's
  terminal (``console``) sends the same messages as the host, whoever hosts.
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
from common.match import SeatKind
from common.schema import LobbySeat
from server import console, frames
from server.announce import short_hostname
from server.asks import SeatAsks
from server.chat import said
from server.computer import Chooser, ComputerSeats, default_chooser
from server.config import ServerConfig
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

__all__ = ["HOSTS", "Table"]

log = logging.getLogger("server.table")

BETWEEN, DURING = "between", "during"
HOSTS: dict[str, tuple[str, str | None, str]] = {
    "start": ("starts the match", BETWEEN, "a match is already running"),
    "options": ("sets the table", BETWEEN, "the table is set between matches"),
    "level": ("sets computer levels", BETWEEN, "a match is already running"),
    "free_seat": ("frees a computer seat", BETWEEN, "wait for the match to end"),
    "pause": ("may pause", DURING, "no match is being played"),
    "resume": ("may resume", DURING, "no match is being played"),
    "take_seat": ("may take seat", DURING, "no match is being played"),
    "give_seat": ("gives a seat back", None, ""),
    "refuse_seat": ("gives a seat back", None, ""),
    "make_host": ("hands the host's role on", None, ""),
}
"""The host's messages: the ``not_host`` error's words, whether between matches or during
one only, and the ``match_running`` or ``no_match`` error's words."""


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
        """Connections that (re)joined while a step was being written."""
        self._listed: tuple[tuple[object, ...], list[LobbySeat]] = ((), [])
        self.computers = ComputerSeats(
            chooser or default_chooser(),
            delay=config.bot_delay,
            rng=self.rng,
            current=lambda turn: self.turns.current(turn),
            apply=lambda seat, action: self.dealer.apply(seat, action),
            clock=self.clock,
        )
        self.turns = Turns(
            self.options,
            grace=config.grace,
            clock=self.clock,
            rng=self.rng,
            broadcast=self._broadcast,
            apply=lambda seat, action: self.dealer.apply(seat, action),
            computer=self.computers.play,
        )
        self.role = HostRole(
            self.seats, clock=self.clock, grace=config.grace,
            record=lambda note: self.dealer.record(note), passed=self._host_passed,
        )  # fmt: skip
        self.asks = SeatAsks(self.seats, self.role, clock=self.clock)
        self.chairs = ComputerChairs(self.seats, own_brains=chooser is None)
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
            self.options, self.seats, self.conns, turns=self.turns,
            password=config.password is not None,
        )  # fmt: skip
        chairs = computer_seats(
            config.computer, config.computer_names, self.rng, config.computer_levels
        )
        self.chairs.seat(chairs, night=self.records.tonight(running=False).evening)

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
        """One message; what it makes the table say goes out in one write per connection."""
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
        if msg.TYPE in HOSTS:
            self._hosts(conn, msg)
            self._host_says(msg, sealed=conn.sealed)
        elif isinstance(msg, p.Act):
            self._act(conn, msg)
        elif isinstance(msg, p.Chat):
            cfg = self.config
            line = said(conn, msg, burst=cfg.chat_burst, per_second=cfg.chat_per_second)
            self._broadcast(line.encode())
        elif isinstance(msg, p.Ping):
            conn.send_message(p.Pong(msg.id).encode())
        elif isinstance(msg, p.Sit):
            self.reception.may_sit(conn)
            self.seating.newcomer(conn, conn.name or "Player")
        elif isinstance(msg, p.Away | p.Back):
            seat = self._seat_of(conn, msg.TYPE)
            back, running = isinstance(msg, p.Back), self.dealer.life.running
            self.controls.away_or_back(seat, back=back, running=running)
        elif isinstance(msg, p.AskSeat):
            self.asks.ask(conn, msg, running=self.dealer.life.running)
        elif isinstance(msg, p.Proof):
            self.reception.proof(conn, msg)  # none waits: refused
        elif isinstance(msg, p.Leave):
            self.seating.leave(conn)
        else:
            conn.send_message(p.Error("already_hello", "hello only once", "hello").encode())

    def _hosts(self, conn: Connection | None, msg: p.ClientMessage) -> None:
        """Whether ``msg``, one of the host's, may be sent now by ``conn`` (None: the
        host's terminal, which may whoever hosts); else ``MessageError``."""
        what, when, refusal = HOSTS[msg.TYPE]
        ref = msg.TYPE
        if conn is not None:
            if when is DURING:
                self._seat_of(conn, ref)
            if conn.seat is None or conn.seat != self.role.seat:
                raise p.MessageError("not_host", f"only the host {what}", ref)
        running = self.dealer.life.running
        if when is BETWEEN and running:
            raise p.MessageError("match_running", refusal, ref)
        if when is DURING and not running:
            raise p.MessageError("no_match", refusal, ref)

    def _seat_of(self, conn: Connection, ref: str) -> Seat:
        seat = self.seats.get(conn.seat) if conn.seat is not None else None
        if seat is None:
            raise p.MessageError("not_seated", "a spectator has no seat to do that with", ref)
        return seat

    def _host_says(self, msg: p.ClientMessage, *, sealed: bool) -> None:
        """One of the host's messages, checked (``_hosts``); ``sealed``: not plain."""
        if isinstance(msg, p.Start):
            if len(self.seats) < 2:
                raise p.MessageError("not_enough_seats", "a match needs two seats or more", "start")
            if msg.hands is not None:
                self.options.hands = msg.hands
            self.dealer.start()
        elif isinstance(msg, p.Options):
            self.controls.set_options(msg, sealed=sealed)
            self._broadcast_lobby()
        elif isinstance(msg, p.SetLevel):
            self.chairs.set_level(msg)
            self._broadcast_lobby()
        elif isinstance(msg, p.FreeSeat):
            self.chairs.computer(msg.seat, ref=msg.TYPE)
            self.seating.free(msg.seat)
        elif isinstance(msg, p.Pause | p.Resume):
            self.dealer.pause(isinstance(msg, p.Pause))
        elif isinstance(msg, p.TakeSeat):
            self.controls.take_seat(msg.seat, host=self.role.seat)
        elif isinstance(msg, p.GiveSeat | p.RefuseSeat):
            given = self.asks.decide(msg.seat, give=isinstance(msg, p.GiveSeat), ref=msg.TYPE)
            if given is not None:
                self.seating.give_back(*given)
        elif isinstance(msg, p.MakeHost):
            self.role.make_host(msg.seat, ref=msg.TYPE)

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
        opts, cfg, life = self.options, self.config, self.dealer.life
        return frames.lobby(
            self._players(),
            host=self.role.seat,
            hands=opts.hands,
            start_when=cfg.start_when,
            running=life.running,
            open_books=cfg.open_books,
            books_to_watchers=cfg.books_to_watchers,
            options=opts.to_dict(),
            paused=life.paused,
            table=self.name,
            night=self.records.tonight(running=life.running).summary(),
            plain=opts.plain,
            password=cfg.password is not None,
            odds=opts.odds,
        )

    def _players(self) -> list[LobbySeat]:
        """The seats as the lobby and every ``table`` list them, made again only when
        ``Seat.listed`` changes: afresh each step they cost an act about 50 us of its 1 ms
        (seven seats, 16 watchers: ``scripts/bench_server.py``)."""
        host, stand_in = self.role.seat, self.options.stand_in
        key = (host, stand_in, *(s.listed() for s in self.seats.values()))
        if key != self._listed[0]:
            self._listed = (key, public_seats(self.seats, host, stand_in))
        return self._listed[1]

    def _broadcast_lobby(self, *, but: Connection | None = None) -> None:
        if self.dealer.life is not Life.CLOSED:  # a shutdown's last word to everyone is its bye
            self._broadcast(self._lobby(), but=but)

    def _send_state(self, conn: Connection) -> None:
        """A (re)joining connection's lobby, match, hand so far and clock."""
        conn.send_message(self._lobby())
        dealer, problem = self.dealer, self.saver.problem
        if problem is not None and conn.protocol != 1:
            conn.send_message(p.Waiting(True, problem.why, problem.message).encode())
        match = dealer.match
        if not dealer.life.running or match is None or match.hand is None:
            return
        if dealer.pending:  # the step on screen is not on disk yet
            self._late.add(conn)
            return
        conn.send_message(frames.match_start(match, self.records.match_id, self._players()))
        viewer = self._viewer(conn)
        conn.send(self._step_frames(match.hand.events, {viewer})[viewer])
        if conn.protocol != 1:
            if dealer.life.paused:
                conn.send_message(p.Paused(True, self.role.name()).encode())
            clock = self.turns.clock()
            if clock is not None:
                conn.send_message(clock.encode())

    def _viewer(self, conn: Connection) -> int | None:
        """``conn``'s seat if it plays this match, else None (a watcher's view)."""
        match = self.dealer.match
        if conn.seat is None or match is None or conn.seat not in match.seats:
            return None
        return conn.seat

    def _step_frames(
        self, events: list[Event], viewers: set[int | None]
    ) -> dict[int | None, bytes]:
        dealer = self.dealer
        assert dealer.match is not None
        return frames.step_frames(
            dealer.match,
            events,
            viewers,
            match_id=self.records.match_id,
            hand_no=dealer.hand_no,
            step=dealer.step,
            turn_id=self.turns.turn_id,
            players=self._players(),
        )

    def _broadcast(
        self, msg: dict[str, Any] | bytes, *, but: Connection | None = None, newer: bool = False
    ) -> None:
        """``msg`` (or its frame) to every greeted connection; ``newer``: not to protocol 1."""
        frame = msg if isinstance(msg, bytes) else p.encode_frame(msg)
        for conn in list(self.conns):
            if conn.greeted and conn is not but and not (newer and conn.protocol == 1):
                conn.send(frame)

    @contextmanager
    def _one_write(self) -> Iterator[None]:
        """Every connection corked while inside (``Connection.cork``)."""
        conns = list(self.conns)
        for conn in conns:
            conn.cork()
        try:
            yield
        finally:
            for conn in conns:
                conn.uncork()

    def _begun(self) -> None:
        match = self.dealer.match
        assert match is not None
        self._broadcast_lobby()
        self._broadcast(frames.match_start(match, self.records.match_id, self._players()))

    def _show(self, events: list[Event]) -> None:
        """A step is on disk: its frames to every screen (the whole table to a late one)."""
        late, self._late = self._late, set()
        sent = [(c, self._viewer(c)) for c in self.conns if c.greeted and c not in late]
        out = self._step_frames(events, {viewer for _, viewer in sent})
        for conn, viewer in sent:
            conn.send(out[viewer])
        for conn in late:
            if conn in self.conns:
                self._send_state(conn)

    def _host_passed(self) -> None:
        self._broadcast_lobby()
        self.asks.tell_new_host()

    def _over(self) -> None:
        self.seating.match_over()
        self._broadcast_lobby()
        records, match, cfg = self.records, self.dealer.match, self.config
        if not cfg.open_books or not records.hands or match is None:
            return
        # The books: every hand, hole cards and all, once the match is over (never before:
        # R-S1), to the connections seated at it, and to watchers with books_to_watchers.
        out = frames.books(records.hands, records.match_id)
        for conn in list(self.conns):
            watcher = conn.seat is None
            if conn.greeted and (cfg.books_to_watchers if watcher else conn.seat in match.seats):
                conn.send(out)

    # ------------------------------------------------------------ starting and stopping

    def resume(self) -> bool:
        """Before listening: the journal's unfinished match, if any, played on from the
        decision it stopped at; every person's seat is dropped (R-C1) until its token
        comes back."""
        got = self.dealer.rebuilt()
        if got is None:
            return False
        night = self.records.tonight(running=False).evening
        playing = self.seating.rebuilt(got, self.rng, night=night)
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
        self.dealer.listening(port)

    def console(self, line: str) -> str:
        """One line of the host's terminal (``server.console``), sent as the host's
        message it stands for; what to print."""
        said = console.message(line)
        if said is None:
            return ""
        if isinstance(said, str):
            if said != "status":
                return said
            life = self.dealer.life
            return console.status(
                "paused" if life.paused else "playing" if life.running else "in the lobby",
                self.seats,
                self.options,
                plain=self.controls.plain_words(),
                asks=self.asks.lines(),
            )
        try:
            msg = p.decode_client(said)
            self._hosts(None, msg)
            self._host_says(msg, sealed=True)
        except p.MessageError as exc:
            return f"refused: {exc}"
        return "ok"

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
