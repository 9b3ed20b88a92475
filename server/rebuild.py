"""A journal's records replayed: the match a killed table had, rebuilt exactly.

``rebuild`` is pure: it replays a journal's records (``server.journal``) through the
engine (``common.match``), every hand from its journaled deck with every action, so the
stacks, the pots, whose turn it is and the cards still to come are the killed server's.
It is the one replay: ``Dealer.resume`` and ``journal.unfinished`` both read its
``Rebuilt``.  Invariants:

- Replaying never trusts the journal: a record that does not fit (a missing field or
  one of the wrong type, a number not finite, a card twice, an illegal action) raises
  ``JournalError``, and the table sets the journal aside.
- The match's history is always ``<history_dir>/<match id>.jsonl``: the match id must be
  a plain name and the ``history`` recorded must name that very file
  (``server.histories.history_name``); no path read from the journal is ever opened.
- The ``turn_id`` and ``step`` are those after the last whole record; the banks (R-C4)
  are those after the last action, so the seat to act gets back what it had when its
  turn began.  Each finished hand is listed once, with its number and time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from common.cards import Card
from common.engine import Hand
from common.events import IllegalAction
from common.match import Match, SeatInfo, SeatKind
from server.histories import history_name

__all__ = ["JournalError", "Rebuilt", "SeatRecord", "rebuild"]

Record = dict[str, Any]


class JournalError(ValueError):
    """A journal that cannot be read or replayed: it is set aside."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat as the journal keeps it: never its token, only its hash."""

    seat: int
    name: str
    kind: SeatKind
    level: str | None
    token_sha256: str | None

    def to_dict(self) -> Record:
        return {"seat": self.seat, "name": self.name, "kind": self.kind.value,
                "level": self.level, "token_sha256": self.token_sha256}  # fmt: skip

    @classmethod
    def read(cls, s: dict[str, Any]) -> SeatRecord:
        """A ``match`` record's seat, checked (``JournalError``)."""
        level, digest = s.get("level"), s.get("token_sha256")
        return cls(_int(s, "seat"), _text(s["name"]), SeatKind(s["kind"]),
                   _text(level, optional=True), _text(digest, optional=True))  # fmt: skip


@dataclass(slots=True)
class Rebuilt:
    """The match a journal replays to, and the table's counters after its last record."""

    match_id: str
    history: str
    """The history file's name, beside the journal."""
    match: Match
    turn_time: float | None
    time_bank: float
    stand_in: bool
    seats: list[SeatRecord]
    """The match's seats, with their tokens' hashes as the last record says them."""
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
    """People seated during the match for the next one."""


def _int(record: dict[str, Any], key: str) -> int:
    value = record[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise JournalError(f"{record.get('t')}: {key} is not a whole number")
    return value


def _opt_int(record: dict[str, Any], key: str) -> int | None:
    return None if record.get(key) is None else _int(record, key)


def _seconds(value: Any, *, low: float = -1e9) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise JournalError(f"{value!r:.40} is not a number of seconds")
    seconds = float(value)  # OverflowError for an integer of 400 digits
    if not low <= seconds < 1e9:  # the journal holds no NaN or Infinity (safejson)
        raise JournalError(f"{seconds:.3g} seconds is out of bounds")
    return seconds


def _text(value: Any, *, optional: bool = False) -> Any:
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
    seats = {seat.seat: seat for seat in map(SeatRecord.read, head["seats"])}
    opts = head["options"]
    turn_time = None if opts["turn_time"] is None else _seconds(opts["turn_time"], low=0)
    match = Match(
        seats={n: SeatInfo(s.name, s.kind) for n, s in seats.items()},
        rng=random.Random(0),  # the button is the journal's, not a new draw
        hands=_int(head, "hands"),
    )
    button = _int(head, "button")
    if button not in match.seats:
        raise JournalError(f"the button {button} is no seat of the match")
    match.button = button
    match_id = _text(head["match"])
    out = Rebuilt(
        match_id=match_id,
        history=history_name(head.get("history"), match_id),
        match=match,
        turn_time=turn_time,
        time_bank=_seconds(opts["time_bank"], low=0),
        stand_in=opts["stand_in"] is True,
        seats=[],
        host=_opt_int(head, "host"),
        port=_opt_int(head, "port"),
        turn_id=_int(head, "turn"),
        step=_int(head, "step"),
    )
    out.banks = {n: out.time_bank for n, s in seats.items() if s.kind is SeatKind.HUMAN}
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
            for seats_now in (seats, out.waiting):
                if number in seats_now:
                    was = seats_now[number]
                    seats_now[number] = SeatRecord(number, was.name, was.kind, was.level, digest)
            continue
        elif kind == "sit":  # a person seated for the next match
            number = _int(record, "seat")
            if number in seats:
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
    out.seats = list(seats.values())
    hand = match.hand
    if hand is not None and hand.is_over is False and hand.to_act is None:
        raise JournalError("the hand in play waits on no one")
    return out
