"""What the table sends: each seat's frames after a step, and the broadcast messages.

Pure functions of the match state; nothing here touches a connection or a
clock.  Invariants:

- A seat's frames carry only ``common.views`` output for that seat (``None``
  for a spectator): another seat's down card never appears in them.
- ``view_for(hand, seat_view(hand, None), seat) == seat_view(hand, seat)``;
  a test holds the two equal at every step of many hands.
- The ``turn`` in a step's table view is the wire's turn id (``SeatView.turn_id``),
  the one an ``act`` must name, and ``None`` once no seat is to act; not the
  hand's own count of decisions (``Hand.turn``).
- ``players`` are ``common.schema.LobbySeat`` values (``server.seats.Seat.public``),
  sent as the lobby lists them.
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
from common.schema import LegalAction, LobbySeat, SeatView
from common.views import event_view, seat_view

__all__ = ["hand_end", "lobby", "match_start", "standings", "step_frames", "view_for"]

Players = Sequence[LobbySeat]
"""Lobby seats as the table lists them (``server.seats.Seat.public``)."""


def view_for(hand: Hand, public: SeatView, seat: int) -> SeatView:
    """``seat_view(hand, seat)`` made from the public view: add the seat's own down cards,
    ``you`` and its legal actions.  Seven full ``seat_view`` calls per step cost more
    than the rest of the step together; every other seat's entry is shared."""
    seats = public.seats
    if seat in seats:
        own = seats[seat].with_hole([str(c) for c in hand.seats[seat].down])
        seats = {s: own if s == seat else entry for s, entry in seats.items()}
    return public.seen_by(seat, [LegalAction.of(a) for a in hand.legal_actions(seat)], seats)


def _lobby_seats(players: Players) -> list[dict[str, Any]]:
    return [pl.encode() for pl in players]


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
    """One ``events`` + ``table`` frame pair per viewing seat; spectators share one.

    The public parts are built once: an event differs between viewers only when it
    deals a down card, and a seat's view differs from the public one only by its
    own down cards, ``you`` and ``legal`` (``view_for``), and is encoded over the
    public one (``SeatView.encode_over``).
    """
    assert match.hand is not None
    hand = match.hand
    shared = [None if isinstance(e, Deal) and not e.up else event_view(e, None) for e in events]
    # The wire's turn id, not the hand's own count, so that a client may answer
    # from the snapshot as well as from the ``turn`` message.
    public = replace(seat_view(hand, None), turn_id=turn_id if hand.to_act is not None else None)
    public_wire = public.encode()
    seats = _lobby_seats(players)
    out: dict[int | None, bytes] = {}
    for viewer in viewers:
        seen = [
            d if d is not None else event_view(e, viewer)
            for d, e in zip(shared, events, strict=True)
        ]
        ev = p.Events(hand_no, step, seen)
        table = p.Table(
            match=match_id,
            hand=hand_no,
            hands=match.hands,
            step=step,
            view=public_wire
            if viewer is None
            else view_for(hand, public, viewer).encode_over(public, public_wire),
            players=seats,
        )
        out[viewer] = p.encode_frame(ev.encode()) + p.encode_frame(table.encode())
    return out


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
    odds: bool = False,
) -> dict[str, Any]:
    """The lobby message; a match may start with two seats or more, one a person's.
    ``options``: the table's clock and stand-in (R-C3, R-C4); ``plain``: whether plain
    connections may join (said only when ``never``); ``odds``: odds on request are
    allowed (said only when they are)."""
    people = any(pl.kind == "human" for pl in players)
    return p.Lobby(
        table=table,
        night=night,
        seats=_lobby_seats(players),
        host=host,
        hands=hands,
        can_start=not running and people and len(players) >= 2,
        start_when=start_when,
        running=running,
        open_books=open_books,
        books_to_watchers=books_to_watchers,
        options=options,
        paused=paused,
        plain="never" if plain == "never" else None,
        odds=True if odds else None,
    ).encode()


def match_start(match: Match, match_id: str, players: Players) -> dict[str, Any]:
    """The match's seats only: a late arrival waiting for the next match is not in it."""
    return p.MatchStart(
        match=match_id,
        hands=match.hands,
        seats=_lobby_seats([pl for pl in players if pl.seat in match.seats]),
        stakes=match.stakes.to_dict(),
        stack=match.start_stack,
    ).encode()


def hand_end(match: Match, hand_no: int) -> dict[str, Any]:
    """Who won what, the hands shown, and every stack after the hand."""
    assert match.hand is not None
    events = match.hand.events
    shows = [e.to_dict() for e in events if isinstance(e, Show)]
    awards = [e.to_dict() for e in events if isinstance(e, Award)]
    stacks = [{"seat": s, "stack": c} for s, c in sorted(match.stacks.items())]
    return p.HandEnd(hand_no, awards, shows, stacks).encode()


def standings(
    match: Match, match_id: str, history_path: Path | None, night: dict[str, Any] | None = None
) -> dict[str, Any]:
    return p.Standings(
        match_id,
        [s.to_dict() for s in match.standings()],
        match.hands_played,
        history_path.name if history_path else None,
        night,
    ).encode()
