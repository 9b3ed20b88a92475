"""What the table sends: each viewer's messages after a step, and the broadcast messages.

Each message is its dataclass from ``common.protocol``, made from the match and
``common.views``, and packed by msgpack (``p.encode_frame``); nothing here touches a
connection or a clock.  Invariants:

- A viewer's ``events`` and ``table`` carry only ``common.views`` output for it (a seat,
  or ``None`` for a watcher and a seat that does not play this match): another seat's
  down card never appears in them.
- A step's frames are packed once per distinct viewer (``step_frames``).
- The ``turn`` in a step's table view is the wire's turn id, the one an ``act`` must
  name (None once no seat is to act), not the hand's own count (``Hand.turn``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from common import protocol as p
from common.engine import Hand
from common.events import Award, Deal, Event, Show
from common.match import Match
from common.schema import LegalAction, LobbySeat
from common.views import event_view, seat_view

__all__ = ["books", "hand_end", "lobby", "match_start", "standings", "step_frames", "turn"]

Players = Sequence[LobbySeat]  # as the table lists them (``server.seats.Seat.public``)


def step_frames(
    match: Match,
    events: list[Event],
    viewers: set[int | None],
    *,
    match_id: str,
    hand_no: int,
    step: int,
    turn_id: int,
    players: Players,
) -> dict[int | None, bytes]:
    """Each viewer's ``events`` and ``table`` frames for a step, as it may see them: the
    public ones packed once, a seat's own view once (and its events, if dealt a down card)."""
    hand = match.hand
    assert hand is not None
    turn = turn_id if hand.to_act is not None else None  # the wire's turn id
    view = replace(seat_view(hand, None), turn_id=turn)
    public = p.Table(match_id, hand_no, match.hands, step, view, list(players)).encode()
    everyones = _events_frame(events, None, hand_no, step)
    out: dict[int | None, bytes] = {}
    for viewer in viewers:
        table = public
        if viewer is not None:
            table = {**public, "view": _own_view(hand, viewer, public["view"])}
        dealt = any(isinstance(e, Deal) and not e.up and e.seat == viewer for e in events)
        seen = _events_frame(events, viewer, hand_no, step) if dealt else everyones
        out[viewer] = seen + p.encode_frame(table)
    return out


def _events_frame(events: list[Event], viewer: int | None, hand_no: int, step: int) -> bytes:
    seen = [event_view(e, viewer) for e in events]
    return p.encode_frame(p.Events(hand_no, step, seen).encode())


def _own_view(hand: Hand, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """``seat_view(hand, seat).encode()`` made from the ``public`` one: its own entry's
    ``hole``, ``you`` and ``legal`` added (``tests/test_server_views.py`` holds the two
    equal at every step).  At seven seats with 16 watchers an act costs 2.6 M
    instructions this way, 3.9 M with ``seat_view`` for each seat, which misses the 1 ms
    of CPU an act may cost (``scripts/bench_server.py``)."""
    view = dict(public)
    if seat in hand.seats:
        hole = [str(c) for c in hand.seats[seat].down]
        view["seats"] = [{**e, "hole": hole} if e["seat"] == seat else e for e in view["seats"]]
    view["you"] = seat
    view["legal"] = [LegalAction.of(a).encode() for a in hand.legal_actions(seat)]
    return view


def turn(
    hand: Hand, seat: int, turn_id: int, time_left: float | None, bank: float | None
) -> dict[str, Any]:
    """The ``turn`` message: ``seat``'s legal actions (R-B1) and its clock (R-C4)."""
    legal = [LegalAction.of(a) for a in hand.legal_actions(seat)]
    return p.Turn(turn_id, seat, legal, time_left, bank).encode()


def lobby(
    players: Players,
    *,
    host: int | None,
    hands: int,
    start_when: int | None,
    running: bool,
    open_books: bool = False,
    books_to_watchers: bool = False,
    options: dict[str, Any] | None = None,
    paused: bool = False,
    table: str = "",
    night: dict[str, Any] | None = None,
    plain: str = "allow",
    password: bool = False,
    odds: bool = False,
) -> dict[str, Any]:
    """The lobby message; a match may start with two seats or more, one a person's.
    ``plain`` is said when ``never`` or at a table with a ``password``; ``odds`` only
    when allowed."""
    people = any(pl.kind == "human" for pl in players)
    return p.Lobby(
        table=table,
        night=night,
        seats=list(players),
        host=host,
        hands=hands,
        can_start=not running and people and len(players) >= 2,
        start_when=start_when,
        running=running,
        open_books=open_books,
        books_to_watchers=books_to_watchers,
        options=None if options is None else p.TableOptions(**options),
        paused=paused,
        plain=plain if plain == "never" or password else None,
        odds=odds,
    ).encode()


def match_start(match: Match, match_id: str, players: Players) -> dict[str, Any]:
    return p.MatchStart(
        match=match_id,
        hands=match.hands,
        seats=[pl for pl in players if pl.seat in match.seats],
        stakes=match.stakes,
        stack=match.start_stack,
    ).encode()


def hand_end(match: Match, hand_no: int) -> dict[str, Any]:
    assert match.hand is not None
    events = match.hand.events
    shows = [e for e in events if isinstance(e, Show)]
    awards = [e for e in events if isinstance(e, Award)]
    return p.HandEnd(hand_no, awards, shows, dict(sorted(match.stacks.items()))).encode()


def standings(
    match: Match, match_id: str, history_path: Path | None, night: dict[str, Any] | None = None
) -> dict[str, Any]:
    return p.Standings(
        match_id,
        match.standings(),
        match.hands_played,
        history_path.name if history_path else None,
        night,
    ).encode()


def books(records: Sequence[dict[str, Any]], match_id: str) -> bytes:
    """One ``books`` frame per hand of a finished match, in hand order (``open_books``)."""
    count = len(records)
    return b"".join(
        p.encode_frame(p.Books(match_id, int(r["hand"]), count, r).encode()) for r in records
    )
