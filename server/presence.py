"""How a seat's presence changes (R-C1..R-C4), and who plays its turn: a pure state machine.

The states are ``common.presence.Presence``; this module holds the only way they change,
``step(state, move)``, and the question the table asks at a seat's turn, ``actor``.  No
I/O, no clock, no table: the table feeds it what happened and acts on the answer, the
way h11 keeps its connection states apart from the sockets.  Invariants:

- Each move is named after the rule that drives it (``RULE``); ``TRANSITIONS`` lists
  every (state, move) pair the rules allow, and every other pair is refused with a
  ``Refused`` whose ``code`` is the error code a client is sent for it (``seat_taken``,
  ``not_away``, ``already_away``, ``no_match``, ``bad_seat``), or ``bad_state`` for a
  move only the table itself makes (a timer), which a correct table never hits.
- A refused move changes nothing: the state is a value, and ``step`` returns a new one.
- Moves that do not change an away spell map a state to itself: a drop, a comeback, a
  ``leave`` or a protocol 1 client's sign of life leave an away seat away (R-C2: only
  "I'm back" ends a spell its person began, and a taken seat stays taken, R-C3).
- Every away spell, and a seat taken away, lasts the match only: ``MATCH_START`` and
  ``MATCH_END`` end them; a seat waiting for the next match waits through a match's end
  and plays from the next start.
- A seat starts ``PLAYING``; one taken once the table has begun a match moves to
  ``NEXT_MATCH`` at once (``SIT_LATE``), so no state is set around ``step``.
"""

from __future__ import annotations

from enum import Enum

from common.presence import Presence

__all__ = ["RULE", "TRANSITIONS", "Actor", "Move", "Refused", "act_refusal", "actor", "step"]


class Move(Enum):
    """What happened to a seat, as the table tells the state machine."""

    DROP = "drop"
    """Its connection went, mid-match (R-C1)."""
    RECONNECT = "reconnect"
    """Its person came back with the seat's token (R-C1)."""
    GRACE_OVER = "grace_over"
    """Its turn came while dropped and the grace ran out (R-C1, then R-C2)."""
    STEP_AWAY = "step_away"
    """Its person said ``away`` (R-C2)."""
    LEAVE = "leave"
    """Its person said ``leave`` mid-match: away at once, no grace (R-C2)."""
    BACK = "back"
    """Its person said ``back`` (R-C2)."""
    ALIVE_V1 = "alive_v1"
    """A protocol 1 client (which has no ``back``) said anything (R-C2)."""
    CLOCK_OUT = "clock_out"
    """Its turn clock and time bank ran out (R-C4, then R-C2)."""
    TAKE = "take"
    """The host took the seat away for the rest of the match (R-C3)."""
    SIT_LATE = "sit_late"
    """A person took a free seat once the table had begun a match: it plays from the
    next one (R-T1: the seats are the match's from its start)."""
    MATCH_START = "match_start"
    MATCH_END = "match_end"


RULE: dict[Move, str] = {
    Move.DROP: "R-C1",
    Move.RECONNECT: "R-C1",
    Move.GRACE_OVER: "R-C1",
    Move.STEP_AWAY: "R-C2",
    Move.LEAVE: "R-C2",
    Move.BACK: "R-C2",
    Move.ALIVE_V1: "R-C2",
    Move.CLOCK_OUT: "R-C4",
    Move.TAKE: "R-C3",
    Move.SIT_LATE: "R-T1",
    Move.MATCH_START: "R-C2",
    Move.MATCH_END: "R-C2",
}
"""The rule each move is named after."""


class Refused(ValueError):
    """A move the rules do not allow from this state; ``code`` is the wire's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Actor(Enum):
    """Who plays a seat's turn (``actor``)."""

    PERSON = "person"
    """Its person: send the turn and run the clock (R-C4)."""
    DEFAULT = "default"
    """The default action, at once (R-C2)."""
    STAND_IN = "stand_in"
    """A computer brain standing in for the person (R-C3)."""
    GRACE = "grace"
    """Nobody yet: wait out the grace of a dropped seat (R-C1)."""


P = Presence
_AWAY_BY_PERSON = (P.AWAY_ASKED, P.AWAY_CLOCK, P.AWAY_DROPPED)
_IN_MATCH = (P.PLAYING, P.DROPPED, *_AWAY_BY_PERSON, P.TAKEN)

TRANSITIONS: dict[tuple[Presence, Move], Presence] = {
    # R-C1: a drop starts the grace of a seat playing its own turns; an away seat stays away.
    (P.PLAYING, Move.DROP): P.DROPPED,
    (P.DROPPED, Move.DROP): P.DROPPED,
    **{(s, Move.DROP): s for s in (*_AWAY_BY_PERSON, P.TAKEN)},
    # R-C1: a comeback ends the grace, and the away spell a drop began (R-C2).
    (P.PLAYING, Move.RECONNECT): P.PLAYING,  # a second connection took the seat over
    (P.DROPPED, Move.RECONNECT): P.PLAYING,
    (P.AWAY_DROPPED, Move.RECONNECT): P.PLAYING,
    (P.AWAY_ASKED, Move.RECONNECT): P.AWAY_ASKED,
    (P.AWAY_CLOCK, Move.RECONNECT): P.AWAY_CLOCK,
    (P.TAKEN, Move.RECONNECT): P.TAKEN,
    (P.NEXT_MATCH, Move.RECONNECT): P.NEXT_MATCH,
    # R-C1 then R-C2: still gone when the grace ends.
    (P.DROPPED, Move.GRACE_OVER): P.AWAY_DROPPED,
    # R-C2: stepping away, leaving, and back.
    (P.PLAYING, Move.STEP_AWAY): P.AWAY_ASKED,
    (P.DROPPED, Move.STEP_AWAY): P.AWAY_ASKED,
    (P.PLAYING, Move.LEAVE): P.AWAY_ASKED,
    (P.DROPPED, Move.LEAVE): P.DROPPED,  # no connection to say it with: the grace runs on
    **{(s, Move.LEAVE): s for s in (*_AWAY_BY_PERSON, P.TAKEN)},
    **{(s, Move.BACK): P.PLAYING for s in _AWAY_BY_PERSON},
    # R-C2 for protocol 1: any message ends a spell its clock or its drop began.
    (P.AWAY_CLOCK, Move.ALIVE_V1): P.PLAYING,
    (P.AWAY_DROPPED, Move.ALIVE_V1): P.PLAYING,
    **{(s, Move.ALIVE_V1): s for s in (P.PLAYING, P.DROPPED, P.AWAY_ASKED, P.TAKEN)},
    (P.NEXT_MATCH, Move.ALIVE_V1): P.NEXT_MATCH,
    # R-C4 then R-C2: the clock and the bank ran out.
    (P.PLAYING, Move.CLOCK_OUT): P.AWAY_CLOCK,
    # R-C3: the host takes a seat of the match away.
    **{(s, Move.TAKE): P.TAKEN for s in (P.PLAYING, P.DROPPED, *_AWAY_BY_PERSON)},
    # R-T1: a seat taken once a match began waits for the next one.
    (P.PLAYING, Move.SIT_LATE): P.NEXT_MATCH,
    # Every away spell, and a seat taken away, lasts one match.
    **{(s, Move.MATCH_START): P.PLAYING for s in Presence},
    **{(s, Move.MATCH_END): P.PLAYING for s in _IN_MATCH},
    (P.NEXT_MATCH, Move.MATCH_END): P.NEXT_MATCH,
}
"""Every allowed move: (state, move) -> the state after it."""

_TAKEN_TEXT = "the host took this seat away for the match"
_NEXT_TEXT = "this seat plays from the next match"


def _refusal(state: Presence, move: Move) -> Refused:
    """Why ``move`` is refused from ``state``, with today's error code for it."""
    if move in (Move.STEP_AWAY, Move.BACK):
        if state is P.TAKEN:
            return Refused("seat_taken", _TAKEN_TEXT)
        if move is Move.BACK:
            return Refused("not_away", "this seat is not away")
        if state is P.NEXT_MATCH:
            return Refused("no_match", f"{_NEXT_TEXT}: nothing to step away from")
        return Refused("already_away", "this seat is already away")
    if move is Move.TAKE:
        if state is P.TAKEN:
            return Refused("seat_taken", "this seat is already taken away")
        return Refused("bad_seat", f"{_NEXT_TEXT}: it has nothing to take away yet")
    if move in (Move.DROP, Move.LEAVE) and state is P.NEXT_MATCH:
        return Refused("no_match", f"{_NEXT_TEXT}: the table frees it instead")
    return Refused("bad_state", f"{move.value} cannot happen to a seat {state.value}")


def step(state: Presence, move: Move) -> Presence:
    """The state after ``move``; raises ``Refused`` (changing nothing) if the rules do not
    allow it.

    >>> step(Presence.PLAYING, Move.DROP)
    <Presence.DROPPED: 'dropped'>
    >>> step(Presence.TAKEN, Move.BACK)
    Traceback (most recent call last):
    ...
    server.presence.Refused: the host took this seat away for the match
    """
    after = TRANSITIONS.get((state, move))
    if after is None:
        raise _refusal(state, move)
    return after


def actor(state: Presence, *, stand_in: bool) -> Actor:
    """Who plays the turn of a seat in ``state`` that is to act now (``stand_in``: the host
    chose a computer to play away seats, R-C3).  A seat waiting for the next match is
    not in the match and has no turn."""
    if state is P.PLAYING:
        return Actor.PERSON
    if state is P.DROPPED:
        return Actor.GRACE
    if state.away:
        return Actor.STAND_IN if stand_in else Actor.DEFAULT
    raise Refused("bad_state", f"a seat {state.value} has no turn in this match")


def act_refusal(state: Presence, *, protocol: int = 2) -> Refused | None:
    """Why a seat's person may not ``act`` at all now (None: it may, on its turn): a taken
    seat's person only watches (R-C3; protocol 1 knows no ``seat_taken`` and is told
    ``not_your_turn``), and an away seat's turns are played for it (R-C2)."""
    if state is P.TAKEN:
        return Refused("not_your_turn" if protocol == 1 else "seat_taken", _TAKEN_TEXT)
    if state.away:
        return Refused("not_your_turn", "this seat is away: send back first")
    return None
