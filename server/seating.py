"""Who sits where, as people come and go: a hello let in, a seat taken from the lobby,
left, dropped or freed, given back by the host (R-C1, R-C2, R-T0).

``Seating`` carries out what the way in (``server.hello``) and the host's answer to an
ask (``server.asks``) decide: a comeback takes its seat back, cards included; a watcher
watches; a newcomer sits in the lowest free seat, is welcomed and sent the table's
state (``state``); everyone else's lobby says what changed (``lobby``).  Invariants:

- ``seats`` holds every filled seat (people and computer seats) by seat number.  A
  person's seat has a secret ``token``; whoever presents it owns the seat, and a seat
  has at most one live connection (``conn``).
- A comeback takes its seat from any connection still holding it and, during a match,
  tells everyone first (``server.turns``: ``presence``, the end of a drop's away spell).
- While a match runs no seat joins it or is freed: a seat whose connection is gone is
  *dropped* (R-C1) and plays on by the default action after the grace, then is away
  (R-C2) until its person comes back; a person who says ``leave`` is away at once.  A
  person seated once a match has begun plays from the next one (``SIT_LATE``) and is
  freed when it leaves.
- A seat taken for the next match, freed, or given a new token during a match is in the
  journal (``Dealer.record``) before anyone is told of it.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable

from common import protocol as p
from common.match import SeatKind
from common.presence import Presence
from server import journal
from server.asks import SeatAsks
from server.dealer import Dealer
from server.guard import Door
from server.hostrole import HostRole
from server.life import Life
from server.lobby import ComputerChairs
from server.net import Connection
from server.presence import Move, step
from server.rebuild import Rebuilt
from server.seats import Seat, first_free, token_digest
from server.turns import TableOptions, Turns

__all__ = ["Seating"]

log = logging.getLogger("server.table")


class Seating:
    """The seats' comings and goings, for one table."""

    def __init__(
        self,
        seats: dict[int, Seat],
        *,
        options: TableOptions,
        start_when: int | None,
        door: Door,
        turns: Turns,
        role: HostRole,
        asks: SeatAsks,
        chairs: ComputerChairs,
        dealer: Dealer,
        state: Callable[[Connection], None],
        lobby: Callable[..., None],
    ) -> None:
        self.seats = seats
        self._options = options
        self._start_when = start_when
        self._door = door
        self._turns = turns
        self._role = role
        self._asks = asks
        self._chairs = chairs
        self._dealer = dealer
        self._state = state
        self._lobby = lobby

    # ------------------------------------------------------------ coming in

    def admit(self, conn: Connection, hello: p.Hello, seat: Seat | None) -> None:
        """``conn`` let in: back to ``seat``, to watch, or to the lowest free seat (a match
        starting once there are ``start_when`` seats)."""
        if seat is not None:
            seat.token = seat.token or hello.token  # a seat rebuilt from the journal
            self.comeback(conn, seat)
        elif hello.watch:
            conn.mark_greeted()
            conn.name = hello.name
            hands = self._options.hands
            conn.send_message(p.Welcome(None, "", hello.name, False, True, hands,
                                        hello.protocol).encode())  # fmt: skip
            self._state(conn)
        else:
            self.newcomer(conn, hello.name)
            enough = self._start_when
            if enough is not None and self._dealer.match is None and len(self.seats) >= enough:
                self._dealer.start()

    def comeback(self, conn: Connection, seat: Seat) -> None:
        """R-C1: the seat's person is back with its token, cards included."""
        old, seat.conn = seat.conn, None
        if old is not None:
            old.seat = None
            old.fail("taken_over", "another connection took this seat with its token")
        running = self._dealer.life.running
        if running:  # tell the others first: the comeback's own state says it
            self._turns.reconnected(seat)
        took_role = self._sit(conn, seat)
        log.info("seat %d (%s) is back from %s", seat.seat, seat.name, conn.peer)
        if took_role or not running:
            self._lobby(but=conn)  # it has just had its own
        if running:
            self._turns.rejoined(seat)

    def give_back(self, conn: Connection, seat: Seat) -> None:
        """The host gave ``seat`` back to ``conn``: a new token, and in as a comeback."""
        seat.token = secrets.token_urlsafe(18)
        self.token_changed(seat)
        self.comeback(conn, seat)

    def token_changed(self, seat: Seat) -> None:
        """``seat``'s token was replaced: the journal keeps the new one's hash."""
        assert seat.token is not None
        seat.token_hash = None  # a resumed seat's old hash is no way back either
        log.info("seat %d (%s) has a new token", seat.seat, seat.name)
        self._dealer.record(journal.token_record(seat.seat, token_digest(seat.token)))

    def newcomer(self, conn: Connection, name: str) -> None:
        """Seat ``conn`` in the lowest free seat (for the next match, once one has begun)."""
        free = first_free(self.seats)
        assert free is not None
        seat = Seat(free, name, SeatKind.HUMAN, token=secrets.token_urlsafe(18))
        if self._dealer.match is not None:
            seat.presence = step(seat.presence, Move.SIT_LATE)
        self.seats[seat.seat] = seat
        self._sit(conn, seat)
        when = " for the next match" if seat.presence is Presence.NEXT_MATCH else ""
        log.info("%s sits in seat %d%s from %s", seat.name, seat.seat, when, conn.peer)
        self._lobby(but=conn)  # it has just had its own

    def _sit(self, conn: Connection, seat: Seat) -> bool:
        """``conn`` holds ``seat`` now: its welcome and the table's state; whether it took
        the host's role."""
        conn.mark_greeted()
        conn.seat, conn.name, seat.conn = seat.seat, seat.name, conn
        assert seat.token is not None
        if seat.presence is Presence.NEXT_MATCH:  # for the next match
            note = journal.sit_record(seat.seat, seat.name, token_digest(seat.token))
            self._dealer.record(note)
        self._asks.seat_back(seat.seat)  # back by its token: nobody need ask for it now
        took_role = self._role.seated(seat)
        host = seat.seat == self._role.seat
        conn.send_message(p.Welcome(seat.seat, seat.token, seat.name, host, False,
                                    self._options.hands, conn.protocol).encode())  # fmt: skip
        self._state(conn)
        if host:
            self._asks.tell(conn)
        self._door.seated(seat.seat, conn.address)
        return took_role

    # ------------------------------------------------------------ going

    def of(self, conn: Connection) -> Seat | None:
        seat = self.seats.get(conn.seat) if conn.seat is not None else None
        return seat if seat is not None and seat.conn is conn else None

    def gone(self, conn: Connection) -> None:
        """``conn`` closed: a seat it held is dropped during a match (R-C1), else freed."""
        seat = self.of(conn)
        if seat is None:
            return
        seat.conn = None
        if self._dealer.life is Life.CLOSED:  # a shutdown's last word was its bye
            return
        if self._dealer.life.running and seat.presence is not Presence.NEXT_MATCH:
            self.dropped(seat)
        else:
            self.free(seat.seat)

    def dropped(self, seat: Seat) -> None:
        """A person's connection is gone during a match (or not back after a resume):
        R-C1 keeps the seat."""
        log.info("seat %d (%s) dropped; R-C1 keeps the seat", seat.seat, seat.name)
        self._turns.dropped(seat)
        self._role.dropped(seat)

    def leave(self, conn: Connection) -> None:
        """``leave``: between matches the seat is freed; during one it is away (R-C2)."""
        seat = self.seats.get(conn.seat) if conn.seat is not None else None
        between = not self._dealer.life.running
        if seat is not None and (between or seat.presence is Presence.NEXT_MATCH):
            self.free(seat.seat)
            conn.seat = None
        elif seat is not None:
            self._turns.move(seat, Move.LEAVE)  # gone on purpose: no grace to wait out
            self._role.left(seat.seat)
        conn.close()

    def free(self, seat_no: int) -> None:
        seat = self.seats.pop(seat_no, None)
        if seat is None:
            return
        log.info("seat %d (%s) is free", seat_no, seat.name)
        if seat.presence is Presence.NEXT_MATCH:
            self._dealer.record(journal.free_record(seat_no))
        self._asks.seat_back(seat_no, "the seat is free now")
        if self._role.freed(seat_no):  # R-T0: a host's role to the next one clockwise
            self._asks.tell_new_host()
        self._lobby()

    def match_over(self) -> None:
        """The match is over: asks end, and the seats of people gone are freed (and the
        host's role with them)."""
        self._asks.end_all("The match is over")
        for seat in [s for s in self.seats.values() if not s.connected]:
            self.free(seat.seat)

    # ------------------------------------------------------------ a resumed match

    def rebuilt(self, got: Rebuilt, rng: random.Random, *, night: str) -> list[Seat]:
        """The seats of a rebuilt match (computer seats with fresh brains and RNGs drawn
        from ``rng``), those seated for the next one, and its host; the match's seats."""
        self.seats.clear()
        for s in got.seats:
            seat = Seat(s.seat, s.name, s.kind, level=s.level, token_hash=s.token_sha256)
            if seat.kind is SeatKind.COMPUTER:
                seat.rng = random.Random(rng.getrandbits(64))
            self.seats[s.seat] = seat
        playing = list(self.seats.values())
        self._chairs.seat([s for s in playing if s.kind is SeatKind.COMPUTER], night=night)
        for s in got.waiting.values():
            seat = Seat(s.seat, s.name, s.kind, token_hash=s.token_sha256)
            seat.presence = step(seat.presence, Move.SIT_LATE)
            self.seats[s.seat] = seat
        self._role.restore(got.host if got.host in self.seats else None)
        return playing
