"""The match in play: its hands, every step on disk before anyone sees it, and the
table's life.

``Dealer`` starts a match, deals each hand from a secure shuffle (R-T2), applies every
action through the engine, puts each step in the journal (``record``, the one way into
it) and only then has the table show it (``show``), and asks the turn's owner for the
next decision (``server.turns``).  A finished hand goes into the history before the
next deal (``DealTimer``), a finished match onto the night's scoreboard.  It keeps
the table's life (``server.life``): paused (R-C3) or waiting for a write
(``server.saving``), the clock and the next deal stand still.  A killed table's match
comes back through ``rebuilt`` and ``resume``.  Invariants:

- ``step`` grows by one for every step of a match; the turn id is ``server.turns``'s.
- Every step of a match (its start, a hand's deck, an action, a token or host change)
  is in the journal, ``fsync``ed, before any client is sent a frame of it (``pending``
  meanwhile: a connection that joins then is sent the table once the step is shown);
  every finished hand is in the history before the next is dealt; a match that ends
  leaves no journal.
- A write that fails holds the step: nobody is shown it, no one may act, the clocks
  stand still and everyone is told why, until it is written (``Life.WAITING``).
- A resumed match goes on from its journal's last whole line with nothing written
  again, and each finished hand is in the history once (``server.records``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from datetime import datetime
from functools import partial
from typing import Any

from common import protocol as p
from common.cards import deal_cards
from common.events import Event
from common.match import Match, SeatInfo, SeatKind
from server import frames, journal
from server.config import ServerConfig
from server.hostrole import HostRole
from server.journal import Journal
from server.life import Life, Move, after
from server.lobby import ComputerChairs
from server.rebuild import JournalError, Rebuilt, SeatRecord, rebuild
from server.records import MatchRecords
from server.saving import Problem, Saver
from server.seats import Seat
from server.timers import Clock, Handle
from server.turns import TableOptions, Turns

__all__ = ["Dealer"]

log = logging.getLogger("server.table")


RESUME_PAUSE = 1.0  # at most this long between the host's resume and a held deal


class DealTimer:
    """The pause after a hand: the next deal, or the standings after the last one; at
    most one waited for, and held while the table is paused (R-C3) until ``resume``."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._timer: Handle | None = None
        self.held = False  # a deal is due but the table is paused

    def after(self, seconds: float, then: Callable[[], None], *, paused: bool) -> None:
        if paused:
            self.held = True
            return
        self._timer = self._clock.call_later(seconds, self._fire, then)

    def hold(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self.held = True

    def resume(self, hand_pause: float, then: Callable[[], None]) -> None:
        if self.held:
            self.held = False
            self._timer = self._clock.call_later(min(RESUME_PAUSE, hand_pause), self._fire, then)

    def reset(self) -> None:
        self.held = False

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fire(self, then: Callable[[], None]) -> None:
        self._timer = None
        then()


class Dealer:
    """One table's matches, from the first record to the standings."""

    def __init__(
        self,
        config: ServerConfig,
        name: str,
        *,
        rng: random.Random,
        clock: Clock,
        seats: dict[int, Seat],
        options: TableOptions,
        turns: Turns,
        chairs: ComputerChairs,
        role: HostRole,
        broadcast: Callable[..., None],
        begun: Callable[[], None],
        show: Callable[[list[Event]], None],
        over: Callable[[], None],
        one_write: Callable[[], AbstractContextManager[None]],
    ) -> None:
        self.config = config
        self.records = MatchRecords(config.history_dir, name, open_books=config.open_books)
        self.journal = Journal(config.history_dir, name, enabled=config.journal)
        self.saver = Saver(clock, self._saving)
        self.deals = DealTimer(clock)  # the pause after a hand
        self.life = Life.LOBBY
        self.match: Match | None = None
        self.hand_no = 0
        self.hand_time = ""
        self.step = 0
        self.port: int | None = None
        self.pending = False
        """A step is being written: nobody has been shown it yet."""
        self._rng = rng
        self._seats = seats
        self._options = options
        self._turns = turns
        self._chairs = chairs
        self._role = role
        self._broadcast = broadcast
        self._begun = begun
        self._show = show
        self._over = over
        self._one_write = one_write

    def _move(self, move: Move) -> None:
        self.life = after(self.life, move)

    def _infos(self) -> dict[int, SeatInfo]:
        """Every seat as the engine and the history know it."""
        return {s: seat.info() for s, seat in self._seats.items()}

    def record(self, note: dict[str, Any], then: Callable[[], None] | None = None) -> None:
        """``note`` in the journal, on disk before ``then`` runs (``server.saving``): the one
        way into the journal.  Between matches, and once closed, nothing is written."""
        if self.life.running:
            self.saver.save(partial(self.journal.write, note), then)

    # ------------------------------------------------------------ a match

    def start(self) -> None:
        """A match of every seat there is (``begun`` once its first record is on disk)."""
        with self._one_write():
            self._chairs.match_starts(self.records.tonight(running=False).evening)
            self.deals.reset()
            self._turns.match_start(self._seats.values())  # late arrivals play from now on
            seats = self._seats
            match = Match(
                seats=self._infos(),
                rng=self._rng,
                hands=self._options.hands,
            )
            self.match = match
            match_id = self.records.match_starts(self._rng)
            self._move(Move.START)
            log.info("match %s starts: %d seats, %d hands", match_id, len(seats), match.hands)
            history = self.records.history_path
            head = journal.match_record(
                match, match_id=match_id, history=history.name if history else "",
                options=self._options.to_dict(), host=self._role.seat, port=self.port,
                turn=self._turns.turn_id, step=self.step,
                seats=[SeatRecord(n, s.name, s.kind, s.level, s.digest())
                       for n, s in sorted(seats.items())],
            )  # fmt: skip
            self.record(head, self._match_begun)

    def _match_begun(self) -> None:
        with self._one_write():
            self._begun()
            self._next_hand()

    def _next_hand(self) -> None:
        match = self.match
        if match is None or not self.life.running:
            return
        if match.is_over:
            self._end_match()  # the last hand's pause was held by a pause (R-C3)
            return
        self.hand_no = match.hands_played + 1
        # R-T2: shuffle from the secure source unless a seed was asked for.
        deck = deal_cards(self._rng, 7 * len(match.seats_in))
        hand = match.next_hand(deck)
        self.hand_time = datetime.now().astimezone().isoformat(timespec="seconds")
        log.debug("hand %d: button %d", self.hand_no, hand.button)
        note = journal.hand_record(self.hand_no, self.hand_time, (c.code for c in deck))
        self._after_step(list(hand.events), note)

    def apply(self, seat: int, action: str) -> None:
        """Play ``action`` for ``seat`` (``IllegalAction``: nothing changed)."""
        assert self.match is not None
        events = self.match.apply(seat, action)
        self._after_step(events, journal.act_record(seat, str(action)))

    def _after_step(self, events: list[Event], note: dict[str, Any]) -> None:
        """The engine moved on (``note`` says how): the turn, the journal, then every
        screen and the next decision."""
        assert self.match is not None and self.match.hand is not None
        self.step += 1
        turn = self._turns.advance(self.match.hand)
        banks = {s.seat: s.bank for s in self._seats.values() if s.kind is SeatKind.HUMAN}
        self.pending = True
        note = journal.stepped(note, turn=turn, step=self.step, banks=banks)
        self.record(note, partial(self._show_step, events))  # it shows in one write

    def _show_step(self, events: list[Event]) -> None:
        with self._one_write():
            self.pending = False
            self._show(events)
            self.play_on()

    def play_on(self) -> None:
        """After a step (or a resume): the next hand, the hand's end, or its decision."""
        assert self.match is not None
        hand = self.match.hand
        if hand is None:
            self._next_hand()
        elif hand.is_over:
            self._end_hand()
        else:
            assert hand.to_act is not None
            self._turns.ask(self._seats[hand.to_act])

    def _end_hand(self) -> None:
        assert self.match is not None and self.match.hand is not None
        self._chairs.hand_over(self.match.hand)
        write = partial(
            self.records.hand_over,
            self.match.hand,
            number=self.hand_no,
            time=self.hand_time,
            seats=self._infos(),
        )
        self.saver.save(write, self._hand_written)

    def _hand_written(self) -> None:
        assert self.match is not None
        self._broadcast(frames.hand_end(self.match, self.hand_no))
        cfg, paused = self.config, self.life.paused
        if self.match.is_over:
            # The last showdown stays on the table as long as every other one before
            # the standings cover it (and, paused, until the host resumes: R-C3, when
            # _next_hand ends the match).
            pause = cfg.hand_pause if cfg.final_pause is None else cfg.final_pause
            self.deals.after(pause, self._end_match, paused=paused)
        else:  # the next hand after the pause between hands, unless the host paused
            self.deals.after(cfg.hand_pause, self._next_hand, paused=paused)

    def _end_match(self) -> None:
        if self.life.running and self.match is not None:
            self.saver.save(partial(self.records.match_over, self.match), self._match_written)

    def _match_written(self) -> None:
        if self.match is None or not self.life.running:
            return
        match, records = self.match, self.records
        log.info("match %s is over after %d hands", records.match_id, match.hands_played)
        self.journal.remove()  # every hand is in the history: nothing to resume
        self._broadcast(
            frames.standings(match, records.match_id, records.history_path, records.night.summary())
        )
        self._move(Move.END)
        self.deals.reset()
        self._turns.match_end(self._seats.values())
        self._over()

    # ------------------------------------------------------------ paused, or waiting

    def pause(self, on: bool) -> None:
        """The host pauses (``on``) or resumes the table (R-C3); a resume while a write
        waits leaves the clock and the deal to the write (``_saving``)."""
        clock = self._turns.turn_clock
        if on:
            if self.life.paused:
                raise p.MessageError("already_paused", "the table is already paused", "pause")
            self._move(Move.PAUSE)
            clock.freeze()
            self.deals.hold()  # between hands: hold the next deal
            log.info("the host pauses the table (R-C3)")
            self._broadcast(p.Paused(True, self._role.name()).encode(), newer=True)
            self._turns.broadcast_clock()
            return
        if not self.life.paused:
            raise p.MessageError("not_paused", "the table is not paused", "resume")
        self._move(Move.RESUME)
        log.info("the host resumes the table")
        self._go_on(p.Paused(False, self._role.name()))

    def _saving(self, problem: Problem | None) -> None:
        """The table waits for a write (``problem``), or goes on (None); everyone is told."""
        if problem is None:
            self._move(Move.SAVED)
            self._go_on(p.Waiting(False))
            return
        if not self.life.paused:
            self._turns.turn_clock.freeze()
            self.deals.hold()
        self._move(Move.WAIT)
        self._broadcast(p.Waiting(True, problem.why, problem.message).encode(), newer=True)
        self._turns.broadcast_clock()

    def _go_on(self, told: p.Paused | p.Waiting) -> None:
        """Resumed, or a write done: everyone is ``told``, and unless the table is still
        paused or waiting the clock runs again and a held deal comes."""
        still = self.life.paused or self.life.waiting
        if not still:
            self._turns.turn_clock.thaw()
        self._broadcast(told.encode(), newer=True)
        self._turns.again()  # the same turn, with the clock running again
        if not still:
            self.deals.resume(self.config.hand_pause, self._next_hand)

    def listening(self, port: int) -> None:
        """The table listens on ``port``; another than the journal's is journaled."""
        if port != self.port:
            self.record(journal.port_record(port))
        self.port = port

    def close(self) -> None:
        self._move(Move.CLOSE)
        self.saver.cancel()
        self.deals.cancel()

    # ------------------------------------------------------------ a killed table's match

    def rebuilt(self) -> Rebuilt | None:
        """The journal's unfinished match, replayed; None (a bad journal set aside)."""
        records = self.journal.load()
        if not records:
            return None
        try:
            return rebuild(records)
        except JournalError as exc:
            self.journal.set_aside(str(exc))
            return None

    def resume(self, got: Rebuilt, seats: Iterable[Seat]) -> None:
        """Play on with the match ``got`` from its decision, writing nothing again."""
        self.match = got.match
        # The history beside the journal, wherever the folder is now (a plain name).
        history = self.config.history_dir / got.history if got.history else None
        self.records.resume(got.match_id, history)
        self._turns.match_start(seats, got.banks)
        self._turns.resume(got.turn_id, got.match.hand)
        self.step, self.hand_no, self.hand_time = got.step, got.hand_no, got.hand_time
        self.port = got.port
        self._move(Move.START)
        self.saver.save(self.journal.carry_on)  # after its whole lines: nothing written again
        info = self._infos()
        for number, time, done in got.finished:
            if done is not got.match.hand:  # the hand in play, over, is written at its end
                write = partial(self.records.hand_over, done, number=number, time=time, seats=info)
                self.saver.save(write)
