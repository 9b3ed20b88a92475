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
- ``step_frames`` is ``p.encode_frame`` of each viewer's ``events`` and ``table``
  messages byte for byte (``tests/test_wire_bytes.py``, ``tests/test_step_streams.py``),
  but packs each part once: what everyone sees once a step, a seat's own parts for it,
  and a seat entry or the players list only when it changed (``common.views`` hands the
  same objects again while they are unchanged; the bytes made of them are kept here).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]

from common import protocol as p
from common import schema
from common.cards import Card
from common.engine import Hand
from common.events import Award, Deal, Event, Show
from common.match import Match
from common.schema import LegalAction, LobbySeat, SeatView, TableSeat
from common.views import event_view, public_seats

__all__ = [
    "clock_frame",
    "hand_end",
    "legal_packed",
    "lobby",
    "match_start",
    "standings",
    "step_frames",
    "turn_frame",
    "view_for",
]

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


_HEADER = struct.Struct(">I")
_SEAT_NO = [bytes([n]) for n in range(8)]  # a seat number, packed
_NIL, _EMPTY = b"\xc0", b"\x90"  # None and [], packed


def _packed(value: Any) -> bytes:
    out: bytes = msgpack.packb(value, use_bin_type=True)
    return out


def _inside(items: dict[str, Any]) -> bytes:
    """A map's keys and values, packed, without its header (fewer than 16 keys)."""
    return _packed(items)[1:]


def _frame(*parts: bytes) -> bytes:
    body = b"".join(parts)
    return _HEADER.pack(len(body)) + body


_EV_KEY, _SEATS_KEY, _AWARDS_KEY, _YOU_KEY, _LEGAL_KEY, _PLAYERS_KEY = map(
    _packed, ("events", "seats", "awards", "you", "legal", "players")
)

_HOLE_KEY, _POTS_KEY, _OVER_KEY, _VIEW_KEY = map(_packed, ("hole", "pots", "over", "view"))
_TRUE, _FALSE = b"\xc3", b"\xc2"

_CARDS: dict[Card, bytes] = {}  # a card's code, packed


class _Packed:
    """A public seat entry packed, and the seat's own entry (its down cards added) once
    asked for: ``common.views`` hands the same entry again while the seat is unchanged,
    and an entry's down cards are counted in it, so both are made once an entry."""

    __slots__ = ("entry", "own", "public")

    def __init__(self, entry: TableSeat) -> None:
        self.entry = entry
        self.public = _packed(entry.encode())
        self.own: bytes | None = None

    def with_hole(self, hole: Sequence[Card]) -> bytes:
        """The seat's own entry as it sees it (``hole`` is the last key of an entry,
        ``TableSeat.encode``)."""
        own = self.own
        if own is None:
            public = self.public
            assert public[0] < 0x8F  # a fixmap: ten keys or eleven
            cards = [_CARDS.get(c) or _CARDS.setdefault(c, _packed(str(c))) for c in hole]
            head = bytes([public[0] + 1])
            own = head + public[1:] + _HOLE_KEY + bytes([0x90 | len(cards)]) + b"".join(cards)
            self.own = own
        return own


_seats_last: dict[int, _Packed] = {}
"""Each seat's entry as last packed: made again only for an entry that is new."""


_players_last: tuple[tuple[LobbySeat, ...], bytes] = ((), _packed([]))


def _players_packed(players: Players) -> bytes:
    """``players`` encoded and packed; the table hands the same seats again while they
    are unchanged (``server.table``), and those are packed once."""
    global _players_last, _players_list
    if players is _players_list[0]:  # the very list packed last time (nobody changes it)
        return _players_list[1]
    last, packed = _players_last
    if len(last) != len(players) or not all(a is b for a, b in zip(last, players, strict=True)):
        packed = _packed(_lobby_seats(players))
        _players_last = (tuple(players), packed)
    _players_list = (players, packed)
    return packed


_players_list: tuple[Players | None, bytes] = (None, b"")
"""The list ``_players_packed`` was last handed, and its bytes."""


def _pots_packed(hand: Hand) -> bytes:
    """The view's ``pots`` packed (``Hand.pots``)."""
    if hand.is_over:
        return _EMPTY
    return _packed([{"amount": pot.amount, "seats": pot.seats} for pot in hand.pots()])


_awards_last: tuple[tuple[schema.Award, ...], bytes] = ((), _EMPTY)


def _awards_packed(awards: tuple[schema.Award, ...]) -> bytes:
    """The view's ``awards`` packed; ``common.views`` hands the same tuple again while
    no award is new."""
    global _awards_last
    if _awards_last[0] is awards:
        return _awards_last[1]
    packed = _packed([a.encode() for a in awards])
    _awards_last = (awards, packed)
    return packed


_prefixes: dict[tuple[str, str, int, int], bytes] = {}


def _prefix(kind: str, match_id: str, hand_no: int, hands: int) -> bytes:
    """What an ``events`` frame (a map of four) or a ``table`` frame (of seven) says
    before its ``step``'s value, the same for every step of a hand: packed once."""
    key = (kind, match_id, hand_no, hands)
    made = _prefixes.get(key)
    if made is None:
        if len(_prefixes) > 64:
            _prefixes.clear()
        if kind == "events":
            made = b"\x84" + _inside({"type": kind, "hand": hand_no, "step": None})[:-1]
        else:
            head = {"type": kind, "match": match_id, "hand": hand_no, "hands": hands, "step": None}
            made = b"\x87" + _inside(head)[:-1]
        _prefixes[key] = made
    return made


def _events_prefix(hand_no: int) -> bytes:
    return _prefix("events", "", hand_no, 0)


def _table_prefix(match_id: str, hand_no: int, hands: int) -> bytes:
    return _prefix("table", match_id, hand_no, hands)


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
    legal: bytes | None = None,
) -> dict[int | None, bytes]:
    """One ``events`` + ``table`` frame pair per viewing seat; spectators share one.
    ``legal``: ``legal_packed`` of the seat to act, when the caller has it already.

    The bytes are ``p.encode_frame`` of the two messages exactly, but each part is packed
    once for everyone who sees it: an ``events`` frame differs between viewers only for
    a seat dealt a down card in it, and a seat's ``table`` frame from the public one only
    in its own seat (its down cards), ``you`` and ``legal`` (``view_for``), so those are
    packed for the seat and the rest is the public frame's own bytes.  The public view
    is packed straight from the hand (``common.views.public_seats`` for its seats and
    awards): the same fields, in the same order, as ``seat_view(hand, None).encode()``.
    """
    assert match.hand is not None
    hand = match.hand
    seats, awards = public_seats(hand)

    # The events frame: a map of four, its last value the list of events, packed one
    # event at a time (a list's bytes are its header and its items' one after another),
    # so that a seat dealt a down card has only its own deals put back.
    packed_step = _packed(step)
    ev_head = _events_prefix(hand_no) + packed_step + _EV_KEY
    pieces, own_deals = _events_packed(events)
    ev_list = _array_head(len(pieces))
    public_events = _frame(ev_head, ev_list, *pieces)

    # The table frame: a map of seven with the view (a map of fourteen) inside.  The
    # wire's turn id, not the hand's own count, so that a client may answer from the
    # snapshot as well as from the ``turn`` message.
    # Each seat's entry packed (made again only for an entry that is new) and where its
    # bytes are in the public frame's body, in one pass.
    last = _seats_last
    seat_bytes: list[bytes] = []
    where: dict[int, tuple[_Packed, int, int]] = {}
    at = 0
    for s, entry in seats.items():
        packed = last.get(s)
        if packed is None or packed.entry is not entry:
            packed = last[s] = _Packed(entry)
        piece = packed.public
        seat_bytes.append(piece)
        end = at + len(piece)
        where[s] = (packed, at, end)
        at = end
    to_act = hand.to_act
    first = {
        "street": hand.street,
        "button": hand.button,
        "order": hand.order,
        "bring_in": hand.bring_in_seat,
        "to_act": to_act,
        "turn": turn_id if to_act is not None else None,
        "high": hand.high,
        "pot": hand.pot_total,
    }
    head = b"".join(
        (
            _table_prefix(match_id, hand_no, match.hands),
            packed_step,
            _VIEW_KEY,  # the view's value follows
            b"\x8e",
            _inside(first),
            _POTS_KEY,
            _pots_packed(hand),
            _OVER_KEY,
            _TRUE if hand.is_over else _FALSE,
            _SEATS_KEY,
            bytes([0x90 | len(seat_bytes)]),
        )
    )
    awards_you = _AWARDS_KEY + _awards_packed(awards) + _YOU_KEY
    lobby_seats = _PLAYERS_KEY + _players_packed(players)
    no_legal = _LEGAL_KEY + _EMPTY + lobby_seats

    # The public table frame's body up to its ``you``, once; a seat's own is the same
    # bytes with its own entry (its down cards) put in place of the public one.
    out: dict[int | None, bytes] = {}
    public = b"".join((head, *seat_bytes, awards_you))
    size = len(public) + len(no_legal) + 1  # a seat number is one byte packed
    if None in viewers:
        out[None] = b"".join((public_events, _HEADER.pack(size), public, _NIL, no_legal))
    skip = len(head)
    states = hand.seats
    for viewer in viewers:
        if viewer is None:
            continue
        rest, grow = no_legal, 0
        if viewer == to_act:
            packed_legal = legal if legal is not None else legal_packed(hand, viewer)
            rest = _LEGAL_KEY + packed_legal + lobby_seats
            grow = len(rest) - len(no_legal)
        if 0 <= viewer < len(_SEAT_NO):
            you = _SEAT_NO[viewer]
        else:
            you = _packed(viewer)
            grow += len(you) - 1
        seen = public_events
        mine_deals = own_deals.get(viewer)
        if mine_deals is not None:
            mine_pieces = list(pieces)
            for i, packed_deal in mine_deals:
                mine_pieces[i] = packed_deal
            seen = _frame(ev_head, ev_list, *mine_pieces)
        place = where.get(viewer)
        if place is None:
            out[viewer] = b"".join((seen, _HEADER.pack(size + grow), public, you, rest))
            continue
        packed, start, end = place
        own = packed.own or packed.with_hole(states[viewer].down)
        grow += len(own) - (end - start)
        out[viewer] = b"".join(
            (
                seen,
                _HEADER.pack(size + grow),
                public[: skip + start],
                own,
                public[skip + end :],
                you,
                rest,
            )
        )
    return out


def legal_packed(hand: Hand, seat: int) -> bytes:
    """``seat``'s legal actions as the wire has them (``LegalAction.encode``), packed: its
    ``table`` view's ``legal`` and its ``turn``'s, the same bytes."""
    legal = [  # LegalAction.encode; str() of a StrEnum is its value, and quicker
        {"action": str(a.kind), "put": a.put, "to": a.to, "all_in": a.all_in}
        for a in hand.legal_actions(seat)
    ]
    return _packed(legal)


_TURN_HEAD = b"\x86" + _packed("type") + _packed("turn") + _packed("turn")  # a map of six
_SEAT_ITEM, _LEGAL_ITEM, _LEFT_ITEM, _BANK_ITEM = map(
    _packed, ("seat", "legal", "time_left", "bank")
)
_CLOCK_HEAD = b"\x86" + _packed("type") + _packed("clock") + _SEAT_ITEM  # a map of six
_TURN_ITEM, _RUNNING_ITEM = _packed("turn"), _packed("running")


def _small_int(n: int) -> bytes:
    return _SEAT_NO[n] if 0 <= n < len(_SEAT_NO) else _packed(n)


def turn_frame(
    turn: int, seat: int, legal: bytes, time_left: float | None, bank: float | None
) -> bytes:
    """``p.encode_frame(p.Turn(turn, seat, legal, time_left, bank).encode())`` with the
    legal actions already packed (``legal_packed``)."""
    return _frame(
        _TURN_HEAD,
        _packed(turn),
        _SEAT_ITEM,
        _small_int(seat),
        _LEGAL_ITEM,
        legal,
        _LEFT_ITEM,
        _packed(time_left),
        _BANK_ITEM,
        _packed(bank),
    )


def clock_frame(seat: int, turn: int, time_left: float, bank: float, running: bool) -> bytes:
    """``p.encode_frame(p.Clock(seat, turn, time_left, bank, running).encode())``, packed
    a field at a time."""
    return _frame(
        _CLOCK_HEAD,
        _small_int(seat),
        _TURN_ITEM,
        _packed(turn),
        _LEFT_ITEM,
        _packed(time_left),
        _BANK_ITEM,
        _packed(bank),
        _RUNNING_ITEM,
        _TRUE if running else _FALSE,
    )


def _array_head(n: int) -> bytes:
    """A msgpack array's header for ``n`` items."""
    return bytes([0x90 | n]) if n < 16 else b"\xdc" + n.to_bytes(2, "big")


_deals_last: dict[int, tuple[Event, bytes, bytes | None]] = {}
"""Each event packed as everyone sees it, and a down card's deal as its seat does (None
for every other event), by the event's id, with the event (so that an id is never
another's): events are never changed, and the engine hands the same ones again."""


def _events_packed(events: list[Event]) -> tuple[list[bytes], dict[int, list[tuple[int, bytes]]]]:
    """Each event as everyone sees it, packed, and for each seat dealt a down card in
    them where its own deals are and what they are as it sees them (``event_view``).
    An event is packed once (``_deals_last``)."""
    pieces: list[bytes] = []
    own: dict[int, list[tuple[int, bytes]]] = {}
    kept = _deals_last
    for i, event in enumerate(events):
        last = kept.get(id(event))
        if last is None or last[0] is not event:
            if len(kept) > 4096:
                kept.clear()
            whole = _packed(event.to_dict())
            if type(event) is Deal and not event.up:
                last = (event, _packed(event_view(event, None)), whole)
            else:
                last = (event, whole, None)
            kept[id(event)] = last
        pieces.append(last[1])
        if last[2] is not None:
            own.setdefault(event.seat, []).append((i, last[2]))
    return pieces, own


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
    ``options``: the table's clock and stand-in (R-C3, R-C4); ``plain``: whether plain
    connections may join (said when ``never``, and when allowed at a table with a
    ``password``, whose plain hellos carry it in the clear); ``odds``: odds on request
    are allowed (said only when they are)."""
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
        plain=plain if plain == "never" or password else None,
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
