"""A killed table's match, rebuilt from its journal (``server.journal``) and resumed.

``rebuild`` is pure: from the journal's records it replays the match through the
engine (``common.match``): the seats, the button, every hand from its journaled deck
with every action applied again, so the stacks, the pots, whose turn it is and the
cards dealt and still to come are those the killed server had.  ``resume`` hands the
result to a new ``Table`` before it listens.  Invariants:

- Replaying never trusts the journal: a record that does not fit (a missing field, a
  field of the wrong type, a number that is not finite, a card twice, an illegal
  action) raises ``JournalError``, and the journal is set aside.
- The match's history is always ``<history_dir>/<match id>.jsonl``: the match id must
  be a plain name and the ``history`` the journal records must name that very file
  (``server.histories.history_name``), else the journal is set aside; no path read
  from the journal is ever opened.
- The table's ``turn_id`` and ``step`` are those after the last whole record; the banks
  (R-C4) are those after the last action, so the seat to act gets its clock back with
  what it had when its turn began.
- Each finished hand is in the history file once: the file is read for the hands it
  holds (a crash can fall between its line and the journal's) and only the missing
  ones are appended.
- Every person's seat is dropped (R-C1) until its person comes back with the token
  whose hash the journal kept; computer seats play on with fresh brains and an RNG
  drawn from the table's.  A person seated for the next match (``sit``, until its
  ``free``) waits for it again, unconnected, and is freed at the match's end unless
  back by then.
- The paused state is not journaled: a resumed table is not paused.
- Nothing is written again: the journal goes on after its last whole line (a torn one is
  cut off), so a table resumes on a full disk too, and waits (``server.saving``) only
  when it next has something to write.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from common.cards import Card
from common.engine import Hand
from common.events import IllegalAction
from common.match import Match, SeatInfo, SeatKind
from common.presence import Presence
from server.config import ServerConfig
from server.histories import history_name
from server.journal import Journal, JournalError
from server.lobby import ComputerChairs
from server.records import MatchRecords
from server.saving import Saver
from server.seats import Seat, token_digest
from server.turns import TableOptions, Turns

__all__ = ["Rebuilt", "ResumeTable", "SeatRecord", "match_record", "rebuild", "resume"]

log = logging.getLogger("server.table")


class ResumeTable(Protocol):
    """What a resume reads and sets of the table (``server.table.Table``)."""

    config: ServerConfig
    journal: Journal
    records: MatchRecords
    saver: Saver
    chairs: ComputerChairs
    turns: Turns
    rng: random.Random
    seats: dict[int, Seat]
    match: Match | None
    hands: int
    turn_id: int
    step: int
    hand_no: int
    hand_time: str
    running: bool
    port: int | None

    @property
    def host(self) -> int | None: ...
    @host.setter
    def host(self, seat: int | None) -> None: ...
    def _dropped(self, seat: Seat) -> None: ...
    def play_on(self) -> None: ...


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat as the journal keeps it: never its token, only the token's hash."""

    seat: int
    name: str
    kind: SeatKind
    level: str | None
    token_sha256: str | None


@dataclass(slots=True)
class Rebuilt:
    """The match a journal replays to, and the table's counters after its last record."""

    match_id: str
    history: Path | None
    hands: int
    options: TableOptions
    seats: list[SeatRecord]
    match: Match
    host: int | None
    port: int | None
    turn_id: int
    step: int
    hand_no: int = 0
    hand_time: str = ""
    banks: dict[int, float] = field(default_factory=dict)
    finished: list[tuple[int, str, Hand]] = field(default_factory=list)
    """Every finished hand: its number, time string and the hand."""
    waiting: dict[int, SeatRecord] = field(default_factory=dict)
    """People seated during the match for the next one (``NEXT_MATCH``)."""
    records: list[dict[str, Any]] = field(default_factory=list)
    """The match record and every record after it, as read."""


def match_record(table: ResumeTable) -> dict[str, Any]:
    """The ``match`` record of the match ``table`` has just started."""
    match = table.match
    assert match is not None
    return {
        "t": "match",
        "match": table.records.match_id,
        "history": table.records.history_path.name if table.records.history_path else "",
        "hands": match.hands,
        "options": table.turns.options.to_dict(),
        "button": match.button,
        "host": table.host,
        "port": table.port,
        "turn": table.turn_id,
        "step": table.step,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind.value,
                "level": s.level,
                "token_sha256": s.token_hash if s.token is None else token_digest(s.token),
            }
            for n, s in sorted(table.seats.items())
            if n in match.seats
        ],
    }


def _int(record: dict[str, Any], key: str) -> int:
    value = record[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise JournalError(f"{record.get('t')}: {key} is not a whole number")
    return value


def _opt_int(record: dict[str, Any], key: str) -> int | None:
    return None if record.get(key) is None else _int(record, key)


def _seconds(value: Any, *, low: float = -1e9) -> float:
    """A time in seconds from the journal: a finite number (not a flag, not text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise JournalError(f"{value!r:.40} is not a number of seconds")
    seconds = float(value)  # OverflowError for an integer of 400 digits
    if not low <= seconds < 1e9:  # the journal holds no NaN or Infinity (safejson)
        raise JournalError(f"{seconds:.3g} seconds is out of bounds")
    return seconds


def _text(value: Any, *, optional: bool = False) -> Any:
    """A name, level, token hash, time or action from the journal: text (or None)."""
    if (value is None and optional) or isinstance(value, str):
        return value
    raise JournalError(f"{value!r:.40} is not text")


def rebuild(records: list[dict[str, Any]]) -> Rebuilt:
    """Replay a journal's records (header left out); ``JournalError`` if they do not fit."""
    try:
        return _rebuild(records)
    except JournalError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, RuntimeError, ArithmeticError) as exc:
        raise JournalError(f"cannot replay it: {type(exc).__name__}: {exc}") from None
    except IllegalAction as exc:
        raise JournalError(f"cannot replay it: {exc}") from None


def _rebuild(records: list[dict[str, Any]]) -> Rebuilt:
    if not records or records[0].get("t") != "match":
        raise JournalError("no match record after the header")
    head = records[0]
    seats = [
        SeatRecord(
            seat=_int(s, "seat"),
            name=_text(s["name"]),
            kind=SeatKind(s["kind"]),
            level=_text(s.get("level"), optional=True),
            token_sha256=_text(s.get("token_sha256"), optional=True),
        )
        for s in head["seats"]
    ]
    opts = head["options"]
    turn_time = opts["turn_time"]
    options = TableOptions(
        None if turn_time is None else _seconds(turn_time, low=0),
        _seconds(opts["time_bank"], low=0),
        opts["stand_in"] is True,
    )
    match = Match(
        seats={s.seat: SeatInfo(s.name, s.kind) for s in seats},
        rng=random.Random(0),  # the button is the journal's, not a new draw
        hands=_int(head, "hands"),
    )
    button = _int(head, "button")
    if button not in match.seats:
        raise JournalError(f"the button {button} is no seat of the match")
    match.button = button
    match_id = _text(head["match"])
    history = history_name(head.get("history"), match_id)
    out = Rebuilt(
        match_id=match_id,
        history=Path(history) if history else None,
        hands=match.hands,
        options=options,
        seats=seats,
        match=match,
        host=_opt_int(head, "host"),
        port=_opt_int(head, "port"),
        turn_id=_int(head, "turn"),
        step=_int(head, "step"),
        banks={s.seat: options.time_bank for s in seats if s.kind is SeatKind.HUMAN},
        records=list(records),
    )
    by_seat = {s.seat: s for s in seats}
    for record in records[1:]:
        kind = record.get("t")
        if kind == "hand":
            if _int(record, "no") != match.hands_played + 1:
                raise JournalError(f"hand {record['no']} after {match.hands_played} hands")
            deck = [Card(code) for code in record["deck"]]
            if len(deck) != 7 * len(match.seats_in):
                raise JournalError(f"hand {record['no']}'s deck has {len(deck)} cards")
            out.hand_no, out.hand_time = match.hands_played + 1, _text(record["time"])
            match.next_hand(deck)
        elif kind == "act":
            match.apply(_int(record, "seat"), _text(record["action"]))
            for seat, bank in dict(record.get("banks") or {}).items():
                if int(seat) in out.banks:
                    out.banks[int(seat)] = max(0.0, _seconds(bank))
        elif kind == "token":
            number, digest = _int(record, "seat"), _text(record["token_sha256"])
            for seats_now in (by_seat, out.waiting):
                if number in seats_now:
                    was = seats_now[number]
                    seats_now[number] = SeatRecord(number, was.name, was.kind, was.level, digest)
            continue
        elif kind == "sit":  # a person seated for the next match
            number = _int(record, "seat")
            if number in by_seat:
                raise JournalError(f"seat {number} sits but plays in the match")
            out.waiting[number] = SeatRecord(
                number, _text(record["name"]), SeatKind.HUMAN, None, _text(record["token_sha256"])
            )
            continue
        elif kind == "free":
            out.waiting.pop(_int(record, "seat"), None)
            continue
        elif kind == "host":
            out.host = _opt_int(record, "seat")
            continue
        elif kind == "port":
            out.port = _opt_int(record, "port")
            continue
        else:
            raise JournalError(f"a record of unknown kind {kind!r}")
        out.turn_id, out.step = _int(record, "turn"), _int(record, "step")
        hand = match.hand
        assert hand is not None
        if hand.is_over and not any(done is hand for _, _, done in out.finished):
            out.finished.append((out.hand_no, out.hand_time, hand))
    out.seats = [by_seat[s.seat] for s in seats]
    hand = match.hand
    if hand is not None and hand.is_over is False and hand.to_act is None:
        raise JournalError("the hand in play waits on no one")
    return out


def resume(table: ResumeTable) -> Rebuilt | None:
    """Rebuild ``table``'s unfinished match from its journal and play on from the exact
    decision it stopped at; None when there is none (or it was set aside)."""
    records = table.journal.load()
    if not records:
        return None
    try:
        got = rebuild(records)
    except JournalError as exc:
        table.journal.set_aside(str(exc))
        return None
    table.seats.clear()
    chairs = []
    for s in got.seats:
        seat = Seat(s.seat, s.name, s.kind, level=s.level, token_hash=s.token_sha256)
        if s.kind is SeatKind.COMPUTER:
            seat.rng = random.Random(table.rng.getrandbits(64))
            chairs.append(seat)
        table.seats[s.seat] = seat
    table.chairs.seat(chairs)
    table.hands = got.hands
    got.options.plain = table.turns.options.plain  # the host's choice, not the match's
    got.options.odds = table.turns.options.odds  # likewise
    table.turns.options = got.options
    table.match = got.match
    # The history beside the journal, wherever the folder is now (a plain name: rebuild).
    history = None if got.history is None else table.config.history_dir / got.history.name
    table.records.resume(got.match_id, history)
    table.turns.match_start(list(table.seats.values()))
    for n, bank in got.banks.items():
        table.seats[n].bank = bank
    for s in got.waiting.values():  # they play from the next match, as before
        table.seats[s.seat] = Seat(
            s.seat, s.name, s.kind, token_hash=s.token_sha256, presence=Presence.NEXT_MATCH
        )
    table.turn_id, table.step = got.turn_id, got.step
    table.hand_no, table.hand_time = got.hand_no, got.hand_time
    table.host = got.host if got.host in table.seats else None  # before: no record of it
    table.running = True
    table.saver.save(table.journal.carry_on)  # after its whole lines: nothing written again
    info = {s: seat.info() for s, seat in table.seats.items()}
    hand = got.match.hand
    for number, time, done in got.finished:
        if done is not hand:  # the hand in play, over, is written by the table's own end
            write = partial(table.records.hand_over, done, number=number, time=time, seats=info)
            table.saver.save(write)
    for seat in table.seats.values():
        if seat.kind is SeatKind.HUMAN and seat.presence is not Presence.NEXT_MATCH:
            table._dropped(seat)
    log.info(
        "resumed match %s at hand %d, turn %d: %d seats, %d of %d hands played, %s",
        got.match_id,
        got.hand_no,
        got.turn_id,
        len(got.seats),
        got.match.hands_played,
        got.hands,
        "hand over" if hand is None or hand.is_over else f"seat {hand.to_act} to act",
    )
    table.play_on()
    return got
