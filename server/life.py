"""The table's life, a pure state machine: between matches, playing, paused, waiting to
save, closed.

One ``Life`` value says where the table is; ``after(life, move)`` is the only way it
changes, the way ``server.presence`` moves a seat.  No I/O, no clock: the table
(``server.dealer``) makes the move and acts on the answer.  Invariants:

- ``TRANSITIONS`` lists every (life, move) pair that can happen; any other is a bug in
  the table and raises ``KeyError``.
- A match runs (``running``) from ``START`` to ``END``: while playing, paused by the host
  (R-C3), waiting for a write that failed (``server.saving``), or both.  The clocks and
  the next deal stand still in every one of those but ``PLAYING``.
- A write may fail (``WAIT``) or be done (``SAVED``) at any time in a match, and the host
  pauses and resumes either way; in the lobby the saver only says so (a match's last
  write done while a later one waits).
- ``CLOSED`` is for good: every move leaves it closed.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["TRANSITIONS", "Life", "Move", "after"]


class Life(Enum):
    """Where the table is in its life."""

    LOBBY = "lobby"
    """No match: seats come and go, the host sets the table."""
    PLAYING = "playing"
    PAUSED = "paused"
    """The host paused the match (R-C3): the hand in play finishes, no hand is dealt."""
    WAITING = "waiting"
    """A write failed: nobody is shown the step, no one may act, until it is written."""
    PAUSED_WAITING = "paused_waiting"
    CLOSED = "closed"

    @property
    def running(self) -> bool:
        """A match is being played (paused or waiting too)."""
        return self in _RUNNING

    @property
    def paused(self) -> bool:
        return self in (Life.PAUSED, Life.PAUSED_WAITING)

    @property
    def waiting(self) -> bool:
        return self in (Life.WAITING, Life.PAUSED_WAITING)


class Move(Enum):
    """What happens to the table."""

    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    WAIT = "wait"
    """A write failed (or failed again)."""
    SAVED = "saved"
    """Every write that waited is done."""
    END = "end"
    CLOSE = "close"


L = Life
_RUNNING = (L.PLAYING, L.PAUSED, L.WAITING, L.PAUSED_WAITING)

TRANSITIONS: dict[tuple[Life, Move], Life] = {
    (L.LOBBY, Move.START): L.PLAYING,
    (L.PLAYING, Move.PAUSE): L.PAUSED,
    (L.WAITING, Move.PAUSE): L.PAUSED_WAITING,
    (L.PAUSED, Move.RESUME): L.PLAYING,
    (L.PAUSED_WAITING, Move.RESUME): L.WAITING,
    (L.PLAYING, Move.WAIT): L.WAITING,
    (L.PAUSED, Move.WAIT): L.PAUSED_WAITING,
    **{(life, Move.WAIT): life for life in (L.LOBBY, L.WAITING, L.PAUSED_WAITING)},
    (L.WAITING, Move.SAVED): L.PLAYING,
    (L.PAUSED_WAITING, Move.SAVED): L.PAUSED,
    **{(life, Move.SAVED): life for life in (L.LOBBY, L.PLAYING, L.PAUSED)},
    **{(life, Move.END): L.LOBBY for life in _RUNNING},
    **{(life, Move.CLOSE): L.CLOSED for life in Life},
    **{(L.CLOSED, move): L.CLOSED for move in Move},
}
"""Every move that can happen: (life, move) -> the life after it."""


def after(life: Life, move: Move) -> Life:
    """The life after ``move``.

    >>> after(Life.WAITING, Move.PAUSE)
    <Life.PAUSED_WAITING: 'paused_waiting'>
    """
    return TRANSITIONS[life, move]
