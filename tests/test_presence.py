"""A seat's presence as a table: every state × every move -> the state after, or the
refusal and its wire error code (R-C1..R-C4, ``server.presence``).

The grid below is written out by hand from the rules (not read back from
``server.presence.TRANSITIONS``): a cell is the state after the move, or ``!code`` for a
refusal.  ``bad_state`` marks a move only the table itself makes (a timer, a match
starting) that cannot happen in that state.
"""

from __future__ import annotations

import pytest

from common.match import SeatKind
from common.presence import Presence, from_wire
from server.presence import RULE, TRANSITIONS, Actor, Move, Refused, act_refusal, actor, step
from server.seats import Seat

P = Presence
M = Move

_S = {
    "playing": P.PLAYING,
    "dropped": P.DROPPED,
    "asked": P.AWAY_ASKED,
    "clock": P.AWAY_CLOCK,
    "away_dropped": P.AWAY_DROPPED,
    "taken": P.TAKEN,
    "next": P.NEXT_MATCH,
}
_X = "!bad_state"
_NOT_AWAY, _ALREADY, _TAKEN, _NO_MATCH = "!not_away", "!already_away", "!seat_taken", "!no_match"
# The moves a person or a connection makes (R-C1, R-C2) ...
_PEOPLE = (M.DROP, M.RECONNECT, M.STEP_AWAY, M.LEAVE, M.BACK, M.ALIVE_V1)
# fmt: off
_PEOPLE_GRID = {
    #                drop            reconnect  step_away  leave           back       alive_v1
    "playing":      ("dropped",      "playing", "asked",   "asked",        _NOT_AWAY, "playing"),
    "dropped":      ("dropped",      "playing", "asked",   "dropped",      _NOT_AWAY, "dropped"),
    "asked":        ("asked",        "asked",   _ALREADY,  "asked",        "playing", "asked"),
    "clock":        ("clock",        "clock",   _ALREADY,  "clock",        "playing", "playing"),
    "away_dropped": ("away_dropped", "playing", _ALREADY,  "away_dropped", "playing", "playing"),
    "taken":        ("taken",        "taken",   _TAKEN,    "taken",        _TAKEN,    "taken"),
    "next":         (_NO_MATCH,      "next",    _NO_MATCH, _NO_MATCH,      _NOT_AWAY, "next"),
}
# ... and those of the table's timers and its host (R-C1, R-C3, R-C4).
_TABLE = (M.GRACE_OVER, M.CLOCK_OUT, M.TAKE, M.MATCH_START, M.MATCH_END, M.SIT_LATE)
_TABLE_GRID = {
    #                grace_over      clock_out  take         match_start  match_end  sit_late
    "playing":      (_X,             "clock",   "taken",     "playing",   "playing", "next"),
    "dropped":      ("away_dropped", _X,        "taken",     "playing",   "playing", _X),
    "asked":        (_X,             _X,        "taken",     "playing",   "playing", _X),
    "clock":        (_X,             _X,        "taken",     "playing",   "playing", _X),
    "away_dropped": (_X,             _X,        "taken",     "playing",   "playing", _X),
    "taken":        (_X,             _X,        _TAKEN,      "playing",   "playing", _X),
    "next":         (_X,             _X,        "!bad_seat", "playing",   "next",    _X),
}
# fmt: on


def _cells() -> list[tuple[str, Move, str]]:
    out = []
    for columns, grid in ((_PEOPLE, _PEOPLE_GRID), (_TABLE, _TABLE_GRID)):
        for state, row in grid.items():
            out.extend((state, move, cell) for move, cell in zip(columns, row, strict=True))
    return out


def _case_id(state: str, move: Move, cell: str) -> str:
    after = f"refused-{cell[1:]}" if cell.startswith("!") else cell
    return f"{RULE[move]}-{state}-{move.value}-{after}"


CASES = [pytest.param(_S[s], m, c, id=_case_id(s, m, c)) for s, m, c in _cells()]


def test_the_grid_covers_every_state_and_every_move() -> None:
    assert set(_S.values()) == set(Presence)
    assert set(_PEOPLE) | set(_TABLE) == set(Move)
    assert set(_PEOPLE_GRID) == set(_TABLE_GRID) == set(_S)
    assert len({(s, m) for s, m, _ in _cells()}) == len(CASES) == len(Presence) * len(Move)


@pytest.mark.parametrize(("state", "move", "cell"), CASES)
def test_presence_transition(state: Presence, move: Move, cell: str) -> None:
    if cell.startswith("!"):
        with pytest.raises(Refused) as refused:
            step(state, move)
        assert refused.value.code == cell[1:]
        assert str(refused.value)  # a message a person can read
        assert (state, move) not in TRANSITIONS
    else:
        assert step(state, move) is _S[cell]


@pytest.mark.parametrize(
    ("state", "stand_in", "who"),
    [
        pytest.param(P.PLAYING, False, Actor.PERSON, id="R-C4-playing-its-person"),
        pytest.param(P.PLAYING, True, Actor.PERSON, id="R-C4-playing-its-person-stand-ins-on"),
        pytest.param(P.DROPPED, False, Actor.GRACE, id="R-C1-dropped-waits-its-grace"),
        pytest.param(P.DROPPED, True, Actor.GRACE, id="R-C1-dropped-waits-its-grace-stand-ins-on"),
        pytest.param(P.AWAY_ASKED, False, Actor.DEFAULT, id="R-C2-asked-default-at-once"),
        pytest.param(P.AWAY_CLOCK, False, Actor.DEFAULT, id="R-C2-clock-default-at-once"),
        pytest.param(P.AWAY_DROPPED, False, Actor.DEFAULT, id="R-C2-away-dropped-default-at-once"),
        pytest.param(P.TAKEN, False, Actor.DEFAULT, id="R-C3-taken-default-at-once"),
        pytest.param(P.AWAY_ASKED, True, Actor.STAND_IN, id="R-C3-asked-stand-in"),
        pytest.param(P.AWAY_CLOCK, True, Actor.STAND_IN, id="R-C3-clock-stand-in"),
        pytest.param(P.AWAY_DROPPED, True, Actor.STAND_IN, id="R-C3-away-dropped-stand-in"),
        pytest.param(P.TAKEN, True, Actor.STAND_IN, id="R-C3-taken-stand-in"),
    ],
)  # fmt: skip
def test_who_plays_the_turn(state: Presence, stand_in: bool, who: Actor) -> None:
    assert actor(state, stand_in=stand_in) is who


def test_a_seat_for_the_next_match_has_no_turn() -> None:
    with pytest.raises(Refused):
        actor(P.NEXT_MATCH, stand_in=False)


@pytest.mark.parametrize(
    ("state", "protocol", "code"),
    [
        pytest.param(P.PLAYING, 2, None, id="playing-may-act"),
        pytest.param(P.DROPPED, 2, None, id="dropped-may-act-once-back"),
        pytest.param(P.NEXT_MATCH, 2, None, id="next-told-not-your-turn-by-the-table"),
        pytest.param(P.AWAY_ASKED, 2, "not_your_turn", id="R-C2-asked-send-back-first"),
        pytest.param(P.AWAY_CLOCK, 2, "not_your_turn", id="R-C2-clock-send-back-first"),
        pytest.param(P.AWAY_DROPPED, 2, "not_your_turn", id="R-C2-away-dropped-send-back-first"),
        pytest.param(P.TAKEN, 2, "seat_taken", id="R-C3-taken"),
        pytest.param(P.TAKEN, 1, "not_your_turn", id="R-C3-taken-protocol-1-code"),
    ],
)
def test_may_a_person_act(state: Presence, protocol: int, code: str | None) -> None:
    refused = act_refusal(state, protocol=protocol)
    assert (refused.code if refused else None) == code


@pytest.mark.parametrize("state", list(Presence), ids=lambda s: s.value)
def test_the_wire_reads_back_the_same_state(state: Presence) -> None:
    """A lobby seat's fields, as ``Seat.public`` writes them, read back by ``from_wire``
    (a dropped seat is the one whose connection is gone)."""
    seat = Seat(0, "ann", kind=SeatKind.HUMAN, presence=state)
    public = seat.public(host=None).encode()
    assert list(public)[:8] == [
        "seat", "name", "kind", "connected", "host", "away", "away_why", "stand_in"
    ]  # fmt: skip
    back = from_wire(
        connected=state is not P.DROPPED,
        away=public["away"],
        away_why=public["away_why"],
        next_match=public.get("next", False),
    )
    assert back is state
