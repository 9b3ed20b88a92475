"""The table's life, a pure state machine: between matches, playing, paused, waiting to
save, closed.

``after(life, move)`` is the only way a ``Life`` changes, the way ``server.presence``
moves a seat; the dealer makes the move and acts on the answer.  Invariants:

- ``TRANSITIONS`` lists every (life, move) pair that can happen; any other is a bug in
  the table and raises ``KeyError``.
- A match runs (``running``) from ``START`` to ``END``: while playing, paused by the host
  (R-C3), waiting for a write that failed (``server.saving``), or both.  The clocks and
  the next deal stand still in every one of those but ``PLAYING``.
- A write may fail (``WAIT``) or be done (``SAVED``) at any time, paused or not.
- ``CLOSED`` is for good: every move leaves it closed.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["TRANSITIONS", "Life", "Move", "after"]


class Life(Enum):
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
        return self in _RUNNING

    @property
    def paused(self) -> bool:
        return self in (Life.PAUSED, Life.PAUSED_WAITING)

    @property
    def waiting(self) -> bool:
        return self in (Life.WAITING, Life.PAUSED_WAITING)


class Move(Enum):
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


def after(life: Life, move: Move) -> Life:
    """The life after ``move``.

    >>> after(Life.WAITING, Move.PAUSE)
    <Life.PAUSED_WAITING: 'paused_waiting'>
    """
    return TRANSITIONS[life, move]
