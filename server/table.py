"""The one authoritative table: the lobby, the match, turns and timers.

``Table`` is the ``Handler`` behind every ``Connection``; it runs entirely in
the event loop, so its state changes one message or one timer at a time.  It
is a façade: each job is a module with a narrow interface that it calls.

- ``server.hello``: the way in (protocol, token comeback, password back-off, watchers,
  names, a full table) and ``sit``;
- ``server.turns``: a person's turn, its clock and bank (R-C4), and each seat's
  presence (``server.presence``, R-C1..R-C3);
- ``server.hostctl``: the host's controls and away/back; ``server.console``: the
  headless server's terminal; ``server.hostrole``: who is host, and the role passed on;
  ``server.asks``: a seat asked back by name, given or refused by the host;
- ``server.dealing``: the pause between hands; ``server.computer``: computer seats'
  turns; ``server.lobby``: their brains and the host's changes to them;
- ``server.records``: the hand histories, the open books' hands and the night;
- ``server.journal``: the match in play on disk, each record before any frame of it
  leaves; ``server.resume``: a killed table's match rebuilt from it (``resume``);
  ``server.saving``: what must be on disk before the table goes on, and the waiting
  while it cannot be;
- ``server.seats`` (the seat record), ``server.frames`` (what each seat is sent),
  ``server.books``, ``server.chat``.

Every timer runs off one clock (``server.timers``), given as ``clock=`` (the real one by
default), so tests advance time instead of sleeping.  Invariants:

- ``seats`` holds every filled seat (people and computer seats) by seat
  number.  A person's seat has a secret ``token``; whoever presents it owns
  the seat, and a seat has at most one live connection (``conn``).
- While a match runs no seat is added or freed; a seat whose connection is
  gone is *dropped* (R-C1) and plays on by the default action after ``grace``,
  then is away (R-C2, ``server.turns``) until its person comes back.
- ``turn_id`` grows by one for every decision the table asks for, across
  hands and matches; an ``act`` counts only if it names the current one, and
  so do a timer's default action and a computer seat's choice.
- Every step of a match (its start, a hand's deck, an action, a token or host change)
  is in the journal, ``fsync``ed, before any client is sent a frame of it, and every
  finished hand is in the history before the next is dealt; a match that ends leaves
  none.  A write that fails holds the step (``server.saving``): nobody is shown it, no
  one may act, the clocks stand still and everyone is told why, until it is written.
- Each connection is sent only ``common.views`` output for its own seat
  (``None`` for a spectator, built by ``server.frames``), so a card it may
  not see never leaves here.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from typing import Any

from common import protocol as p
from common.cards import deal_cards
from common.engine import Hand
from common.events import Event, IllegalAction
from common.match import Match, SeatKind
from common.presence import Presence
from common.schema import LobbySeat
from server import books, frames, journal, resume
from server.announce import short_hostname
from server.asks import SeatAsks
from server.chat import said
from server.computer import Chooser, ComputerSeats, default_chooser
from server.config import ServerConfig
from server.console import console
from server.dealing import DealTimer
from server.guard import Door, DoorLimits
from server.hello import Reception
from server.hostctl import HostControls
from server.hostrole import HostRole
from server.journal import Journal
from server.lobby import ComputerChairs
from server.net import Connection
from server.presence import act_refusal
from server.records import MatchRecords
from server.saving import Problem, Saver
from server.seats import Seat, computer_seats, public_seats, token_digest
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
        self.records = MatchRecords(config.history_dir, self.name, open_books=config.open_books)
        self.journal = Journal(config.history_dir, self.name, enabled=config.journal)
        self.port: int | None = None  # the port listened on, once known (the journal's)
        seeded = config.seed is not None
        self.rng: random.Random = random.Random(config.seed) if seeded else secrets.SystemRandom()
        self.seats: dict[int, Seat] = {}
        self.conns: set[Connection] = set()
        self.proto1: set[Connection] = set()  # said protocol 1: sent no message type of 2
        self.hands = config.hands
        self.match: Match | None = None
        self.hand_no = 0
        self.hand_time = ""
        self.step = 0
        self.turn_id = 0
        self.turn_seat: int | None = None
        self.running = False
        self.paused = False
        self.closing = False
        self.saver = Saver(self.clock, self._saving)
        self._unshown: set[Connection] | None = None
        """While a step waits to be written: the connections that (re)joined meanwhile,
        sent the whole table once it is shown instead of the step's frames."""
        self._listed: tuple[tuple[object, ...], list[LobbySeat]] = ((), [])
        self.computers = ComputerSeats(
            chooser or default_chooser(),
            delay=config.bot_delay,
            rng=self.rng,
            current=self._current_hand,
            apply=self.apply,
            clock=self.clock,
        )
        self.turns = Turns(
            self,
            TableOptions(
                config.turn_time,
                config.time_bank,
                config.stand_in,
                config.plain_at_start,
                config.odds,
            ),
            grace=config.grace,
            clock=self.clock,
            rng=self.rng,
            broadcast=self._broadcast,
            apply=self.apply,
            stand_in=self.computers.play,
        )
        self.deals = DealTimer(self.clock)  # the pause after a hand
        self.controls = HostControls(
            self,
            self.turns,
            self.deals,
            hand_pause=config.hand_pause,
            broadcast=self._broadcast,
            broadcast_lobby=self._broadcast_lobby,
            send_turn=self._send_turn,
            next_hand=self._next_hand,
        )
        self.door = Door(DoorLimits.of(config))
        self.reception = Reception(
            self,
            self.door,
            self.turns,
            clock=self.clock,
            broadcast=self._broadcast,
            lobby=self._lobby,
            seat_conn=self._seat_conn,
            send_state=self._send_state,
            send_turn=self._send_turn,
            start_match=self._start_match,
        )
        self.asks = SeatAsks(
            self,
            clock=self.clock,
            give=self.reception.take_back,
            token_changed=self.token_changed,
            is_proto1=self.proto1.__contains__,
        )
        self.role = HostRole(
            self,
            clock=self.clock,
            grace=config.grace,
            record=self.record,
            asks=self.asks,
            broadcast=self._broadcast,
            lobby=self._lobby,
        )
        self.chairs = ComputerChairs(
            self.seats,
            own_brains=chooser is None,
            host=lambda: self.host,
            running=lambda: self.running,
            night=lambda: self.records.tonight(running=self.running).evening,
        )
        self.chairs.seat(
            computer_seats(config.computer, config.computer_names, self.rng, config.computer_levels)
        )

    # ------------------------------------------------------------ connections

    def on_open(self, conn: Connection) -> bool:
        if self.closing:
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
        self.proto1.discard(conn)
        self.asks.conn_gone(conn)
        seat = self.seats.get(conn.seat) if conn.seat is not None else None
        if seat is None or seat.conn is not conn:
            return
        seat.conn = None
        if self.running and seat.presence is not Presence.NEXT_MATCH:
            self._dropped(seat)
        else:
            self._free(seat.seat)

    def _dropped(self, seat: Seat) -> None:
        """A seated person's connection is gone during a match (or the match was resumed
        from its journal and its person is not back yet): R-C1 keeps the seat; a host's
        role waits out the grace, then passes on."""
        log.info("seat %d (%s) dropped; R-C1 keeps the seat", seat.seat, seat.name)
        self._broadcast(p.Presence(seat.seat, False, self.config.grace).encode())
        self.turns.dropped(seat)
        self.role.dropped(seat)

    @property
    def host(self) -> int | None:
        """The host's seat (``server.hostrole``); setting it journals the change."""
        return self.role.seat

    @host.setter
    def host(self, seat: int | None) -> None:
        self.role.seat = seat

    def token_changed(self, seat: Seat) -> None:
        """``seat``'s token was replaced (a reclaim the host gave): the journal keeps its
        hash, so the new token is the one a resumed table takes back."""
        assert seat.token is not None
        seat.token_hash = None  # a resumed seat's old hash is no way back either
        log.info("seat %d (%s) has a new token", seat.seat, seat.name)
        if self.running:
            self.record(journal.token_record(seat.seat, token_digest(seat.token)))

    def record(self, note: dict[str, Any], then: Callable[[], None] | None = None) -> None:
        """``note`` in the journal, on disk before ``then`` runs (``server.saving``)."""
        self.saver.save(partial(self.journal.append, note), then)

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
        if conn in self.proto1:
            if isinstance(msg, p.NEWER_MESSAGES):  # not a type of protocol 1
                raise p.MessageError("unknown_type", f"unknown message type '{msg.TYPE}'", msg.TYPE)
            self.turns.alive_v1(conn)  # it cannot say "back": anything it says will do
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
            self.reception.sit(conn)
        elif isinstance(msg, p.FreeSeat):
            self.chairs.may_free(conn, msg)
            self._free(msg.seat)
        elif isinstance(msg, p.CONTROL_MESSAGES):
            self.controls.control(conn, msg)
        elif isinstance(msg, p.AskSeat):
            self.asks.ask(conn, msg)
        elif isinstance(msg, p.GiveSeat | p.RefuseSeat):
            self.asks.answer(conn, msg)
        elif isinstance(msg, p.MakeHost):
            self.role.asked(conn, msg)
        elif isinstance(msg, p.Proof):
            self.reception.proof(conn, msg)  # none waits: refused
        elif isinstance(msg, p.Leave):
            if conn.seat is not None and (not self.running or self._waiting(conn.seat)):
                self._free(conn.seat)
                conn.seat = None
            elif conn.seat is not None:
                self.turns.left(conn.seat)  # R-C2: gone on purpose, so away at once
                self.role.left(conn.seat)  # a goodbye waits no grace: the role passes now
            conn.close()
        else:
            conn.send_message(p.Error("already_hello", "hello only once", "hello").encode())

    # ------------------------------------------------------------ lobby

    def _waiting(self, seat_no: int) -> bool:
        seat = self.seats.get(seat_no)
        return seat is not None and seat.presence is Presence.NEXT_MATCH

    def _seat_conn(self, conn: Connection, seat: Seat) -> None:
        conn.mark_greeted()
        conn.seat = seat.seat
        conn.name = seat.name
        seat.conn = conn
        assert seat.token is not None
        if self.running and seat.presence is Presence.NEXT_MATCH:  # for the next match
            self.record(journal.sit_record(seat.seat, seat.name, token_digest(seat.token)))
        self.asks.seat_back(seat.seat)  # back by its token: nobody need ask for it now
        took_role = self.role.seated(seat)
        conn.send_message(
            p.Welcome(
                seat.seat,
                seat.token,
                seat.name,
                seat.seat == self.host,
                False,
                self.hands,
                self._protocol(conn),
            ).encode()
        )
        self._send_state(conn)
        self.role.welcomed(conn, seat, took_role=took_role)

    def _free(self, seat_no: int) -> None:
        seat = self.seats.pop(seat_no, None)
        if seat is None:
            return
        log.info("seat %d (%s) is free", seat_no, seat.name)
        if self.running and seat.presence is Presence.NEXT_MATCH:
            self.record(journal.free_record(seat_no))
        self.asks.seat_back(seat_no, "the seat is free now")
        self.role.freed(seat_no)  # R-T0: a host's role to the next one clockwise
        if not self.closing:  # a shutdown's last word to everyone is its bye
            self._broadcast_lobby()

    def _lobby(self) -> dict[str, Any]:
        return frames.lobby(
            self._players(),
            host=self.host,
            hands=self.hands,
            start_when=self.config.start_when,
            running=self.running,
            open_books=self.config.open_books,
            books_to_watchers=self.config.books_to_watchers,
            options=self.turns.options.to_dict(),
            paused=self.paused,
            table=self.name,
            night=self.records.tonight(running=self.running).summary(),
            plain=self.turns.options.plain,
            password=self.config.password is not None,
            odds=self.turns.options.odds,
        )

    def _players(self) -> list[LobbySeat]:
        """The seats as the lobby and every ``table`` list them: the same list (and the
        same seats) again while nothing they say has changed, so that ``server.frames``
        packs them once.  Nobody changes the list."""
        stand_in = self.turns.options.stand_in
        key = (self.host, stand_in, *(s.listed() for s in self.seats.values()))
        if key != self._listed[0]:
            self._listed = (key, public_seats(self.seats, self.host, stand_in))
        return self._listed[1]

    def _broadcast_lobby(self) -> None:
        self._broadcast(self._lobby())

    def _send_state(self, conn: Connection) -> None:
        """Everything a (re)joining connection needs: lobby, match, hand so far, its turn."""
        conn.send_message(self._lobby())
        problem = self.saver.problem
        if problem is not None and conn not in self.proto1:
            conn.send_message(p.Waiting(True, problem.why, problem.message).encode())
        if not self.running or self.match is None or self.match.hand is None:
            return
        if self._unshown is not None:  # the step on screen is not on disk yet
            self._unshown.add(conn)
            return
        conn.send_message(frames.match_start(self.match, self.records.match_id, self._players()))
        viewer = self._viewer(conn)
        out = self._step_frames(self.match.hand.events, {viewer})
        conn.send(out[viewer])
        if conn not in self.proto1:
            for msg in self.controls.rejoin_messages():
                conn.send_message(msg)

    def _viewer(self, conn: Connection) -> int | None:
        """Whose cards ``conn`` may see: its seat if that seat plays this match, else none."""
        if conn.seat is None or self.match is None or conn.seat not in self.match.seats:
            return None
        return conn.seat

    # ------------------------------------------------------------ the match

    def _start(self, conn: Connection, start: p.Start) -> None:
        if conn.seat is None or conn.seat != self.host:
            raise p.MessageError("not_host", "only the host starts the match", "start")
        if self.running:
            raise p.MessageError("match_running", "a match is already running", "start")
        if len(self.seats) < 2:
            raise p.MessageError("not_enough_seats", "a match needs two seats or more", "start")
        if start.hands is not None:
            self.hands = start.hands
        self._start_match()

    def _start_match(self) -> None:
        with self._one_write():
            self._start_the_match()

    def _start_the_match(self) -> None:
        self.chairs.match_starts()
        self.paused = False
        self.deals.reset()
        self.turns.match_start(list(self.seats.values()))  # late arrivals play from now on
        self.match = Match(
            seats={s: seat.info() for s, seat in self.seats.items()},
            rng=self.rng,
            hands=self.hands,
        )
        match_id = self.records.match_starts(self.rng)
        self.running = True
        log.info("match %s starts: %d seats, %d hands", match_id, len(self.seats), self.hands)
        head = resume.match_record(self)
        self.saver.save(partial(self.journal.begin, head), self._match_begun)

    def _match_begun(self) -> None:
        assert self.match is not None
        with self._one_write():
            self._broadcast_lobby()
            self._broadcast(frames.match_start(self.match, self.records.match_id, self._players()))
            self._next_hand()

    def _next_hand(self) -> None:
        match = self.match
        if match is not None and match.is_over and self.running and not self.closing:
            self._end_match()  # the last hand's pause was held by a pause (R-C3)
            return
        if match is None or self.closing or match.is_over:
            return
        self.hand_no = match.hands_played + 1
        # R-T2: shuffle from the secure source unless a seed was asked for.
        deck = deal_cards(self.rng, 7 * len(match.seats_in))
        hand = match.next_hand(deck)
        self.hand_time = datetime.now().astimezone().isoformat(timespec="seconds")
        log.debug("hand %d: button %d", self.hand_no, hand.button)
        note = journal.hand_record(self.hand_no, self.hand_time, (c.code for c in deck))
        self._after_step(list(hand.events), note)

    def apply(self, seat: int, action: str) -> None:
        """Play ``action`` for ``seat`` (raises ``IllegalAction``, changing nothing)."""
        assert self.match is not None
        events = self.match.apply(seat, action)
        self.turns.stop_clock(seat)
        self._after_step(events, journal.act_record(seat, str(action)))

    def _after_step(self, events: list[Event], note: dict[str, Any]) -> None:
        """The engine has moved on (``note`` says how): the journal first, then every
        screen, then the next decision; each connection is sent all the step says in
        one write (``_one_write``, spelled out: this runs every step), after the journal
        has it."""
        conns = list(self.conns)
        for conn in conns:
            conn.cork()
        try:
            self._step(events, note)
        finally:
            for conn in conns:
                conn.uncork()

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

    def _step(self, events: list[Event], note: dict[str, Any]) -> None:
        assert self.match is not None and self.match.hand is not None
        hand = self.match.hand
        self.step += 1
        self.turn_seat = None
        if not hand.is_over:
            self.turn_id += 1  # before the snapshot, whose "turn" must be this id
        banks = {s.seat: s.bank for s in self.seats.values() if s.kind is SeatKind.HUMAN}
        note = journal.stepped(note, turn=self.turn_id, step=self.step, banks=banks)
        self._unshown = set()
        self.record(note, partial(self._show_step, events))

    def _show_step(self, events: list[Event]) -> None:
        """The step is on disk: every screen, then the next decision."""
        assert self.match is not None and self.match.hand is not None
        late, self._unshown = self._unshown or set(), None
        with self._one_write():
            sent = [(c, self._viewer(c)) for c in self.conns if c.greeted and c not in late]
            out = self._step_frames(events, {viewer for _, viewer in sent})
            for conn, viewer in sent:
                conn.send(out[viewer])
            for conn in late:
                if conn in self.conns:
                    self._send_state(conn)
            self.play_on()

    def resume(self) -> bool:
        """Before listening: resume the unfinished match the journal holds, if any."""
        return resume.resume(self) is not None

    def play_on(self) -> None:
        """After a step (or a resume): the first hand, the hand's end, or its next
        decision asked for."""
        assert self.match is not None
        hand = self.match.hand
        if hand is None:
            self._next_hand()
            return
        if hand.is_over:
            self._end_hand()
            return
        assert hand.to_act is not None
        seat = self.seats[hand.to_act]
        self.turn_seat = seat.seat
        if seat.kind is SeatKind.COMPUTER:
            self.computers.play(seat, self.turn_id)
        else:
            self.turns.person_turn(seat, self._send_turn)

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
            turn_id=self.turn_id,
            players=self._players(),
        )

    def _send_turn(self, seat: Seat) -> None:
        assert seat.conn is not None
        seat.conn.send_message(self.turns.turn_message(seat))

    def _act(self, conn: Connection, act: p.Act) -> None:
        if conn.seat is None:
            raise p.MessageError("not_seated", "a spectator cannot act", "act")
        problem = self.saver.problem
        if problem is not None:  # nothing moves until the host can save (server.saving)
            raise p.MessageError("table_waits", problem.message, "act")
        hand = self.match.hand if self.running and self.match else None
        seat = self.seats.get(conn.seat)
        refused = act_refusal(seat.presence, protocol=self._protocol(conn)) if seat else None
        if refused is not None:  # taken (R-C3), or away: its turns are played for it (R-C2)
            raise p.MessageError(refused.code, str(refused), "act")
        if hand is None or hand.to_act != conn.seat or self.turn_seat != conn.seat:
            raise p.MessageError("not_your_turn", f"it is not seat {conn.seat}'s turn", "act")
        if act.turn != self.turn_id:
            raise p.MessageError(
                "stale_turn", f"turn {act.turn} is over; this is turn {self.turn_id}", "act"
            )
        try:
            self.apply(conn.seat, act.action)
        except IllegalAction as exc:
            raise p.MessageError("illegal_action", str(exc), "act") from None
        conn.budget.refund()  # the table asked for it: its pace is the table's, not a flood

    def _end_hand(self) -> None:
        assert self.match is not None and self.match.hand is not None
        self.chairs.hand_over(self.match.hand)
        write = partial(
            self.records.hand_over,
            self.match.hand,
            number=self.hand_no,
            time=self.hand_time,
            seats={s: seat.info() for s, seat in self.seats.items()},
        )
        self.saver.save(write, self._hand_written)

    def _hand_written(self) -> None:
        """The hand is in the history: its end on every screen, then the next one."""
        assert self.match is not None
        self._broadcast(frames.hand_end(self.match, self.hand_no))
        cfg = self.config
        if self.match.is_over:
            # The last showdown stays on the table as long as every other one before
            # the standings cover it (and, paused, until the host resumes: R-C3, when
            # _next_hand ends the match).
            pause = cfg.hand_pause if cfg.final_pause is None else cfg.final_pause
            self.deals.after(pause, self._end_match, paused=self.paused)
        else:  # the next hand after the pause between hands, unless the host paused
            self.deals.after(cfg.hand_pause, self._next_hand, paused=self.paused)

    def _end_match(self) -> None:
        if self.closing or self.match is None:
            return
        self.saver.save(partial(self.records.match_over, self.match), self._match_written)

    def _match_written(self) -> None:
        """The match is on the night's scoreboard: its journal goes, its standings show."""
        if self.closing or self.match is None or not self.running:
            return
        match = self.match
        records = self.records
        log.info("match %s is over after %d hands", records.match_id, match.hands_played)
        self.journal.remove()  # every hand is in the history: nothing to resume
        self._broadcast(
            frames.standings(match, records.match_id, records.history_path, records.night.summary())
        )
        self.running = False
        self.turn_seat = None
        self.paused = False
        self.deals.reset()
        self.turns.match_end(list(self.seats.values()))
        self.asks.end_all("The match is over")
        # _free passes the host's role on to the next connected person clockwise, so
        # every person left is connected and the host is one of them (or there is none).
        for seat in [s for s in self.seats.values() if not s.connected]:
            self._free(seat.seat)
        self._broadcast_lobby()
        if self.config.open_books and self.records.hands:
            watchers = self.config.books_to_watchers
            books.open_books(
                self.conns, records.hands, records.match_id, seated=match.seats, watchers=watchers
            )

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

    # ------------------------------------------------------------ computer seats

    @property
    def bot_times(self) -> list[float]:
        """How long the computer seats' last choices took, in seconds."""
        return list(self.computers.times)

    def _current_hand(self, turn: int) -> Hand | None:
        """The hand while ``turn`` is still the one being asked for, else None."""
        if turn != self.turn_id or self.match is None:
            return None
        return self.match.hand

    # ------------------------------------------------------------ broadcast and shutdown

    def _protocol(self, conn: Connection) -> int:
        return 1 if conn in self.proto1 else p.PROTOCOL_VERSION

    def _broadcast(
        self, msg: dict[str, Any] | bytes, *, but: Connection | None = None, newer: bool = False
    ) -> None:
        """``msg`` (or its frame, already made) to every greeted connection; ``newer``: a
        protocol 2 message type, which protocol 1 connections are not sent."""
        frame = msg if isinstance(msg, bytes) else p.encode_frame(msg)
        proto1 = self.proto1 if newer else ()
        for conn in list(self.conns):
            if conn.greeted and conn is not but and conn not in proto1:
                conn.send(frame)

    def _saving(self, problem: Problem | None) -> None:
        """The table waits for a write (``problem``), or goes on (None): the clocks stand
        still meanwhile (unless the host's pause holds them already) and everyone is told."""
        clock = self.turns.turn_clock
        if not self.paused:
            if problem is not None:
                clock.freeze()
                self.deals.hold()
            else:
                clock.thaw()
        told = (
            p.Waiting(False) if problem is None else p.Waiting(True, problem.why, problem.message)
        )
        self._broadcast(told.encode(), newer=True)
        self.turns.broadcast_clock()
        seat = self.seats.get(self.turn_seat) if self.turn_seat is not None else None
        if (
            problem is None
            and seat is not None
            and seat.conn is not None
            and clock.left() is not None
        ):
            self._send_turn(seat)  # the same turn, with the clock running again
        if problem is None and not self.paused:
            self.deals.resume(self.config.hand_pause, self._next_hand)

    def shutdown(self, reason: str = "the host closed the table") -> None:
        """Tell everyone, stop timers and computer seats, close every connection."""
        self.closing = True
        self.saver.cancel()
        self.turns.turn_clock.cancel()
        self.deals.cancel()
        self.computers.cancel()
        self.asks.cancel()
        self.role.cancel()
        bye = p.encode_frame(p.Bye(reason).encode())
        for conn in list(self.conns):
            conn.send(bye)
            conn.close()
