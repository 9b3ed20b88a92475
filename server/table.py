"""The one authoritative table: the lobby, the match, turns and timers.

``Table`` is the ``Handler`` behind every ``Connection``; it runs entirely in
the event loop, so its state changes one message or one timer at a time.  It
is the façade over six helpers: ``server.seats`` (the seat record and who
sits where), ``server.frames`` (what each seat is sent), ``server.histories``
(the hand-history files), ``server.clock`` (the turn clock and grace timer),
``server.computer`` (computer seats' turns) and ``server.chat`` (the chat rate
limit).  Invariants:

- ``seats`` holds every filled seat (people and computer seats) by seat
  number.  A person's seat has a secret ``token``; whoever presents it owns
  the seat, and a seat has at most one live connection (``conn``).
- While a match runs no seat is added or freed; a seat whose connection is
  gone is *dropped* (R-C1) and plays on by the default action after ``grace``,
  then is away (R-C2, ``server.controls``) until its person comes back.
- ``turn_id`` grows by one for every decision the table asks for, across
  hands and matches; an ``act`` counts only if it names the current one, and
  so do a timer's default action and a computer seat's choice.
- Each connection is sent only ``common.views`` output for its own seat
  (``None`` for a spectator, built by ``server.frames``), so a card it may
  not see never leaves here.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import random
import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

from common import protocol as p
from common.engine import Hand
from common.events import Event, IllegalAction
from common.history import hand_record
from common.match import Match, SeatKind
from common.views import seat_view_dict as seat_view
from server import books, frames, histories
from server.announce import short_hostname
from server.chat import clean_text, spend_line
from server.clock import TurnClock
from server.computer import Chooser, ComputerSeats, default_chooser
from server.config import ServerConfig
from server.controls import TableControls
from server.guard import Door, DoorLimits
from server.levels import brain, level_id
from server.names import taken_by
from server.net import Connection
from server.night import Night, evening_of
from server.seats import Seat, computer_seats, first_free, next_host, public_seats

__all__ = ["Table"]

log = logging.getLogger("server.table")

_MAX_HOLD = 8.0
"""A hello in its address's password back-off waits at most this long for its answer;
past it, the hello is refused (``password_wait``) without its password being looked at."""


class Table(TableControls):
    """Seats people as they connect, runs matches and sends each seat its view.

    Away and back, the host's controls and the turn clock's bank (R-C2..R-C4)
    are ``server.controls.TableControls``."""

    def __init__(self, config: ServerConfig, *, chooser: Chooser | None = None) -> None:
        self.config = config
        self.name = config.name or f"{short_hostname()}'s table"
        self.night = Night.load(config.history_dir, self.name, datetime.now().astimezone())
        seeded = config.seed is not None
        self.rng: random.Random = random.Random(config.seed) if seeded else secrets.SystemRandom()
        self.seats: dict[int, Seat] = {}
        self.conns: set[Connection] = set()
        self.proto1: set[Connection] = set()  # said protocol 1: sent no message type of 2
        self.host: int | None = None
        self.hands = config.hands
        self.match: Match | None = None
        self.match_id = ""
        self.history_path: Path | None = None
        self.records: list[dict[str, Any]] = []  # this match's hands, kept for open books
        self.hand_no = 0
        self.hand_time = ""
        self.step = 0
        self.turn_id = 0
        self.turn_seat: int | None = None
        self.running = False
        self.closing = False
        self.clock = TurnClock(self._time_up)
        self.computers = ComputerSeats(
            chooser or default_chooser(),
            delay=config.bot_delay,
            rng=self.rng,
            current=self._current_hand,
            apply=self.apply,
        )
        self._deal_timer: asyncio.TimerHandle | None = None  # the pause after a hand
        self.door = Door(
            DoorLimits(
                max_connections=config.max_connections,
                max_pending=config.max_pending,
                pending_per_address=config.pending_per_address,
                max_watchers=config.max_watchers,
                watchers_per_address=config.watchers_per_address,
                first_backoff=config.password_backoff,
            )
        )
        self._init_controls()
        # A chooser passed in plays every computer seat (tests); otherwise each seat
        # gets a brain of its own level, which remembers its rivals for one match.
        self._own_brains = chooser is None
        for seat in computer_seats(
            config.computer, config.computer_names, self.rng, config.computer_levels
        ):
            self._give_brain(seat)
            self.seats[seat.seat] = seat

    def _give_brain(self, seat: Seat) -> None:
        if self._own_brains and seat.level is not None:
            seat.brain = brain(seat.level)

    # ------------------------------------------------------------ connections

    def on_open(self, conn: Connection) -> bool:
        if self.closing:
            conn.send_message(p.Bye("server shutting down").encode())
            return False
        refused = self.door.admit(conn, self.conns)
        if refused is not None:
            conn.send_message(p.Error("server_busy", refused).encode())
            return False
        if self.door.cut_off(conn.address):
            # A flooder back at once is held, unread, until its handshake time is up:
            # it waits on a full socket instead of reconnecting as fast as it can.
            conn.tarpit()
        self.conns.add(conn)
        return True

    def on_close(self, conn: Connection) -> None:
        self.conns.discard(conn)
        if conn.flooded:
            wait = self.door.flooded(conn.address)
            log.warning("%s flooded; its new connections are cut off for %.0f s", conn.peer, wait)
        self.proto1.discard(conn)
        seat = self.seats.get(conn.seat) if conn.seat is not None else None
        if seat is None or seat.conn is not conn:
            return
        seat.conn = None
        if self.running and not seat.waiting:
            log.info("seat %d (%s) dropped; R-C1 keeps the seat", seat.seat, seat.name)
            self._broadcast(p.Presence(seat.seat, False, self.config.grace).encode())
            if self.turn_seat == seat.seat and seat.away is None:
                self._stop_clock(seat.seat)
                self.clock.arm(self.config.grace, self.turn_id)
        else:
            self._free(seat.seat)

    def on_message(self, conn: Connection, raw: dict[str, Any]) -> None:
        if not conn.greeted and raw.get("type") != "hello":
            kind = raw.get("type")
            conn.fail("no_hello", "say hello first", kind[:20] if isinstance(kind, str) else None)
            return
        msg = p.decode_client(raw)
        if not conn.greeted:
            assert isinstance(msg, p.Hello)
            self._hello(conn, msg)
            return
        if conn in self.proto1:
            self._proto1_alive(conn)  # it cannot say "back": anything it says will do
        if isinstance(msg, p.Act):
            self._act(conn, msg)
        elif isinstance(msg, p.Chat):
            self._chat(conn, msg)
        elif isinstance(msg, p.Ping):
            conn.send_message(p.Pong(msg.id).encode())
        elif isinstance(msg, p.Start):
            self._start(conn, msg)
        elif isinstance(msg, p.SetLevel):
            self._set_level(conn, msg)
        elif isinstance(msg, p.Sit):
            self._sit(conn)
        elif isinstance(msg, p.FreeSeat):
            self._free_seat(conn, msg)
        elif isinstance(msg, p.CONTROL_MESSAGES):
            self._control(conn, msg)
        elif isinstance(msg, p.Leave):
            if conn.seat is not None and (not self.running or self._waiting(conn.seat)):
                self._free(conn.seat)
                conn.seat = None
            elif conn.seat is not None:
                self._leave_match(conn.seat)  # R-C2: gone on purpose, so away at once
            conn.close()
        else:
            conn.send_message(p.Error("already_hello", "hello only once", "hello").encode())

    # ------------------------------------------------------------ lobby

    def _hello(self, conn: Connection, hello: p.Hello) -> None:
        cfg = self.config
        if hello.protocol not in p.PROTOCOLS:
            conn.fail(
                "protocol_version",
                f"this server speaks protocol 1 or {p.PROTOCOL_VERSION}",
                "hello",
            )
            return
        if hello.protocol == 1:
            self.proto1.add(conn)
        seat = None
        if hello.token is not None:
            seat = next((s for s in self.seats.values() if s.token == hello.token), None)
        # A seat's own token skips the back-off: a stranger's misses at the same
        # address must not keep a seated player out.
        wait = self.door.wait_left(conn.address) if cfg.password is not None else 0.0
        if wait > 0 and seat is None:
            if wait > _MAX_HOLD:
                conn.fail(
                    "password_wait",
                    f"too many wrong passwords from your address: try again in {wait:.0f} s",
                    "hello",
                )
            else:  # answered once the wait is over, as if the hello came then
                conn.hold(wait, lambda: self._hello(conn, hello))
            return
        if cfg.password is not None:
            if not hmac.compare_digest((hello.password or "").encode(), cfg.password.encode()):
                wait = self.door.password_failed(conn.address)
                log.info("wrong password from %s; it waits %.0f s", conn.address, wait)
                conn.fail("bad_password", "wrong password", "hello")
                return
            self.door.password_ok(conn.address)
        conn.beats = hello.heartbeat
        if hello.token is not None:
            if seat is None:
                conn.fail(
                    "bad_token", "no seat has that token (it ends when the seat is freed)", "hello"
                )
                return
            old = seat.conn
            seat.conn = None
            if old is not None:
                old.seat = None
                old.fail("taken_over", "another connection took this seat with its token")
            if self.running:  # tell the others first: the comeback's own state says it
                self._broadcast(p.Presence(seat.seat, True, None).encode())
                self._back_from_drop(seat)
            self._seat_conn(conn, seat)
            log.info("seat %d (%s) is back from %s", seat.seat, seat.name, conn.peer)
            if self.running:
                if self.turn_seat == seat.seat and seat.away is None:
                    self._start_clock(seat)
                    self._send_turn(seat)
            else:
                self._broadcast(self._lobby(), but=conn)  # it has just had its own
            return
        if hello.watch:
            refused = self.door.may_watch(conn, self.conns)
            if refused is not None:
                conn.fail("server_busy", refused, "hello")
                return
            conn.mark_greeted()
            conn.name = hello.name
            conn.send_message(
                p.Welcome(None, "", hello.name, False, True, self.hands, hello.protocol).encode()
            )
            self._send_state(conn)
            return
        if first_free(self.seats) is None:
            conn.fail("table_full", "all seven seats are taken", "hello")
            return
        clash = taken_by(hello.name, (s.name for s in self.seats.values()))
        if clash is not None:
            conn.fail(
                "name_taken", f"{clash} is already at the table: choose another name", "hello"
            )
            return
        refused = self.door.may_seat(conn, self.conns)
        if refused is not None:
            conn.fail("server_busy", refused, "hello")
            return
        self._seat_newcomer(conn, hello.name)
        if cfg.start_when is not None and self.match is None and len(self.seats) >= cfg.start_when:
            self._start_match()

    def _seat_newcomer(self, conn: Connection, name: str) -> None:
        """Seat ``conn`` in the lowest free seat.  Once a match has been played here, a new
        seat is marked for the next match (``next`` in the lobby): during a match it
        watches until then."""
        free = first_free(self.seats)
        assert free is not None
        seat = Seat(free, name, SeatKind.HUMAN, token=secrets.token_urlsafe(18))
        seat.waiting = self.match is not None
        self.seats[seat.seat] = seat
        if self.host is None:
            self.host = seat.seat
        self._seat_conn(conn, seat)
        when = " for the next match" if seat.waiting else ""
        log.info("%s sits in seat %d%s from %s", seat.name, seat.seat, when, conn.peer)
        self._broadcast(self._lobby(), but=conn)  # it has just had its own

    def _waiting(self, seat_no: int) -> bool:
        seat = self.seats.get(seat_no)
        return seat is not None and seat.waiting

    def _sit(self, conn: Connection) -> None:
        """A spectator takes a free seat (for the next match if one is running)."""
        if conn.seat is not None:
            raise p.MessageError("already_seated", "you have a seat", "sit")
        if first_free(self.seats) is None:
            raise p.MessageError("table_full", "all seven seats are taken", "sit")
        clash = taken_by(conn.name or "Player", (s.name for s in self.seats.values()))
        if clash is not None:
            raise p.MessageError(
                "name_taken", f"{clash} is already at the table: watch under another name", "sit"
            )
        self._seat_newcomer(conn, conn.name or "Player")

    def _free_seat(self, conn: Connection, msg: p.FreeSeat) -> None:
        """The host lets a computer seat give its chair to a person, between matches."""
        self._hosts_computer_seat(
            conn, msg.seat, "free_seat", "frees a computer seat", "wait for the match to end",
            bad="bad_seat",
        )  # fmt: skip
        self._free(msg.seat)

    def _hosts_computer_seat(
        self, conn: Connection, number: int, ref: str, what: str, running: str, *, bad: str
    ) -> Seat:
        """The computer seat ``number`` for a lobby change only the host may make between
        matches; otherwise a ``MessageError`` (``not_host``, ``match_running``, ``bad``)."""
        if conn.seat is None or conn.seat != self.host:
            raise p.MessageError("not_host", f"only the host {what}", ref)
        if self.running:
            raise p.MessageError("match_running", running, ref)
        seat = self.seats.get(number)
        if seat is None or seat.kind is not SeatKind.COMPUTER:
            raise p.MessageError(bad, f"seat {number} is not a computer seat", ref)
        return seat

    def _seat_conn(self, conn: Connection, seat: Seat) -> None:
        conn.mark_greeted()
        conn.seat = seat.seat
        conn.name = seat.name
        seat.conn = conn
        assert seat.token is not None
        conn.send_message(
            p.Welcome(
                seat.seat,
                seat.token,
                seat.name,
                seat.seat == self.host,
                False,
                self.hands,
                1 if conn in self.proto1 else p.PROTOCOL_VERSION,
            ).encode()
        )
        self._send_state(conn)

    def _free(self, seat_no: int) -> None:
        seat = self.seats.pop(seat_no, None)
        if seat is None:
            return
        log.info("seat %d (%s) is free", seat_no, seat.name)
        if self.host == seat_no:
            self.host = next_host(self.seats)
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
            options=self.options.to_dict(),
            paused=self.paused,
            table=self.name,
            night=self._night().summary(),
        )

    def _night(self) -> Night:
        """Tonight's scoreboard; between matches a new evening starts a new one."""
        now = datetime.now().astimezone()
        if not self.running and evening_of(now) != self.night.evening:
            self.night = Night.load(self.config.history_dir, self.name, now)
        return self.night

    def _players(self) -> list[dict[str, Any]]:
        return public_seats(self.seats, self.host, self.options.stand_in)

    def _broadcast_lobby(self) -> None:
        self._broadcast(self._lobby())

    def _send_state(self, conn: Connection) -> None:
        """Everything a (re)joining connection needs: lobby, match, hand so far, its turn."""
        conn.send_message(self._lobby())
        if not self.running or self.match is None or self.match.hand is None:
            return
        conn.send_message(frames.match_start(self.match, self.match_id, self._players()))
        viewer = self._viewer(conn)
        out = self._step_frames(self.match.hand.events, {viewer})
        conn.send(out[viewer])
        self._send_controls(conn)

    def _viewer(self, conn: Connection) -> int | None:
        """Whose cards ``conn`` may see: its seat if that seat plays this match, else none."""
        if conn.seat is None or self.match is None or conn.seat not in self.match.seats:
            return None
        return conn.seat

    def _chat(self, conn: Connection, chat: p.Chat) -> None:
        # Stripped of escape sequences and control characters before anyone sees it.
        text = clean_text(chat.text, limit=p.MAX_CHAT)
        if not text:
            raise p.MessageError("bad_message", "chat text is empty", "chat")
        cfg = self.config
        if not spend_line(conn, burst=cfg.chat_burst, per_second=cfg.chat_per_second):
            raise p.MessageError("chat_rate", "slow down: too many chat lines", "chat")
        # A watcher's line says so, so that no one mistakes it for a seat's.
        said = p.ChatSaid(conn.seat, conn.name, text, watching=conn.seat is None)
        self._broadcast(said.encode())

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

    def _set_level(self, conn: Connection, msg: p.SetLevel) -> None:
        """The host picks a computer seat's level in the lobby."""
        seat = self._hosts_computer_seat(
            conn, msg.seat, "level", "sets computer levels", "a match is already running",
            bad="bad_message",
        )  # fmt: skip
        try:
            level = level_id(msg.level)
        except ValueError as exc:
            raise p.MessageError("bad_message", str(exc), "level") from None
        seat.level = level
        self._give_brain(seat)
        log.info("seat %d (%s) plays at level %s", seat.seat, seat.name, level)
        self._broadcast_lobby()

    def _start_match(self) -> None:
        for seat in self.seats.values():
            reset = getattr(seat.brain, "reset", None)
            if reset is not None:
                reset()  # a new match: the opponent model starts empty
        self._controls_match_start()
        for seat in self.seats.values():
            seat.waiting = False  # late arrivals play from this match on
        self.match = Match(
            seats={s: seat.info() for s, seat in self.seats.items()},
            rng=self.rng,
            hands=self.hands,
        )
        self.match_id = histories.new_match_id(self.rng)
        self.history_path = histories.match_path(self.config.history_dir, self.match_id)
        self.records = []
        self.running = True
        log.info("match %s starts: %d seats, %d hands", self.match_id, len(self.seats), self.hands)
        self._broadcast_lobby()
        self._broadcast(frames.match_start(self.match, self.match_id, self._players()))
        self._next_hand()

    def _next_hand(self) -> None:
        self._deal_timer = None
        match = self.match
        if match is not None and match.is_over and self.running and not self.closing:
            self._end_match()  # the last hand's pause was held by a pause (R-C3)
            return
        if match is None or self.closing or match.is_over:
            return
        self.hand_no = match.hands_played + 1
        # R-T2: shuffle from the secure source unless a seed was asked for.
        hand = match.next_hand(rng=self.rng)
        self.hand_time = datetime.now().astimezone().isoformat(timespec="seconds")
        log.debug("hand %d: button %d", self.hand_no, hand.button)
        self._after_step(list(hand.events))

    def apply(self, seat: int, action: str) -> None:
        """Play ``action`` for ``seat`` (raises ``IllegalAction``, changing nothing)."""
        assert self.match is not None
        events = self.match.apply(seat, action)
        self._stop_clock(seat)
        self._after_step(events)

    def _after_step(self, events: list[Event]) -> None:
        assert self.match is not None and self.match.hand is not None
        hand = self.match.hand
        self.step += 1
        self.turn_seat = None
        if not hand.is_over:
            self.turn_id += 1  # before the snapshot, whose "turn" must be this id
        out = self._step_frames(events, {self._viewer(c) for c in self.conns if c.greeted})
        for conn in list(self.conns):
            if conn.greeted:
                conn.send(out[self._viewer(conn)])
        if hand.is_over:
            self._end_hand()
            return
        assert hand.to_act is not None
        seat = self.seats[hand.to_act]
        self.turn_seat = seat.seat
        if seat.kind is SeatKind.COMPUTER:
            self.computers.play(seat, self.turn_id)
        else:
            self._person_turn(seat)

    def _step_frames(
        self, events: list[Event], viewers: set[int | None]
    ) -> dict[int | None, bytes]:
        """One ``events`` + ``table`` frame pair per viewing seat (``frames.step_frames``)."""
        assert self.match is not None
        return frames.step_frames(
            self.match,
            events,
            viewers,
            match_id=self.match_id,
            hand_no=self.hand_no,
            step=self.step,
            turn_id=self.turn_id,
            players=self._players(),
        )

    def _send_turn(self, seat: Seat) -> None:
        assert self.match is not None and self.match.hand is not None and seat.conn is not None
        legal = [a.to_dict() for a in self.match.hand.legal_actions(seat.seat)]
        left, bank = self._turn_clock()
        seat.conn.send_message(p.Turn(self.turn_id, seat.seat, legal, left, bank).encode())

    def _act(self, conn: Connection, act: p.Act) -> None:
        if conn.seat is None:
            raise p.MessageError("not_seated", "a spectator cannot act", "act")
        hand = self.match.hand if self.running and self.match else None
        seat = self.seats.get(conn.seat)
        if seat is not None and seat.away == "taken":
            code = "not_your_turn" if conn in self.proto1 else "seat_taken"  # a code v1 knows
            raise p.MessageError(code, "the host took this seat away for the match", "act")
        if seat is not None and seat.away is not None:  # R-C2: its turns are played for it
            raise p.MessageError("not_your_turn", "this seat is away: send back first", "act")
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
        for seat in self.seats.values():
            observe = getattr(seat.brain, "observe", None)
            if observe is not None:  # what this seat sees of the hand's end, nothing more
                observe(seat_view(self.match.hand, seat.seat))
        if self.history_path is not None:
            histories.append_hand(
                self.history_path,
                match_id=self.match_id,
                number=self.hand_no,
                time=self.hand_time,
                hand=self.match.hand,
                seats={s: seat.info() for s, seat in self.seats.items()},
            )
        if self.config.open_books:
            self.records.append(
                hand_record(
                    match_id=self.match_id,
                    number=self.hand_no,
                    time=self.hand_time,
                    hand=self.match.hand,
                    seats={s: seat.info() for s, seat in self.seats.items()},
                )
            )
        self._broadcast(frames.hand_end(self.match, self.hand_no))
        cfg = self.config
        if self.match.is_over:
            # The last showdown stays on the table as long as every other one before
            # the standings cover it (and, paused, until the host resumes: R-C3).
            pause = cfg.hand_pause if cfg.final_pause is None else cfg.final_pause
            if self.paused:
                self._deal_pending = True  # resume calls _next_hand, which ends the match
            else:
                self._deal_timer = asyncio.get_running_loop().call_later(pause, self._end_match)
        else:
            self._schedule_deal()

    def _end_match(self) -> None:
        self._deal_timer = None
        if self.closing or self.match is None:
            return
        match = self.match
        log.info("match %s is over after %d hands", self.match_id, match.hands_played)
        now = datetime.now().astimezone()
        if evening_of(now) != self.night.evening:  # the first match of a new evening
            self.night = Night.load(self.config.history_dir, self.name, now)
        self.night.add(
            match_id=self.match_id,
            ended=now,
            hands=match.hands_played,
            standings=match.standings(),
            kind_of=lambda s: match.seats[s].kind.value,
        )
        self._broadcast(
            frames.standings(match, self.match_id, self.history_path, self.night.summary())
        )
        self.running = False
        self.turn_seat = None
        self._controls_match_end()
        # _free passes the host on to the lowest connected person, so every person
        # left is connected and the host is one of them (or there is none).
        for seat in [s for s in self.seats.values() if not s.connected]:
            self._free(seat.seat)
        self._broadcast_lobby()
        if self.config.open_books and self.records:
            self._open_books(match)

    def _open_books(self, match: Match) -> None:
        """The match is over: its full histories to those who may have them (``books``)."""
        out = books.book_frames(self.records, self.match_id)
        for conn in list(self.conns):
            if conn.greeted and books.may_open(
                conn.seat, seated=match.seats, watchers=self.config.books_to_watchers
            ):
                conn.send(out)

    # ------------------------------------------------------------ timers and computer seats

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

    def _broadcast(
        self, msg: dict[str, Any], *, but: Connection | None = None, newer: bool = False
    ) -> None:
        """``msg`` to every greeted connection; ``newer``: a protocol 2 message type, which
        protocol 1 connections are not sent."""
        frame = p.encode_frame(msg)
        for conn in list(self.conns):
            if conn.greeted and conn is not but and not (newer and conn in self.proto1):
                conn.send(frame)

    def shutdown(self, reason: str = "the host closed the table") -> None:
        """Tell everyone, stop timers and computer seats, close every connection."""
        self.closing = True
        self.clock.cancel()
        if self._deal_timer is not None:
            self._deal_timer.cancel()
        self.computers.cancel()
        bye = p.encode_frame(p.Bye(reason).encode())
        for conn in list(self.conns):
            conn.send(bye)
            conn.close()
