"""The table's life as a table (``server.life``): every life × every move -> the life
after it, or ``None`` for a move that cannot happen there (a bug: ``KeyError``).

Written out by hand from what the table does: the host pauses and resumes a match
whether or not a write waits (R-C3, issue 33's saver), a match ends only while it runs,
and closed is for good.
"""

from __future__ import annotations

import pytest

from server.life import Life, Move, after

_S = {
    "lobby": Life.LOBBY,
    "playing": Life.PLAYING,
    "paused": Life.PAUSED,
    "waiting": Life.WAITING,
    "both": Life.PAUSED_WAITING,
    "closed": Life.CLOSED,
}
_MOVES = (Move.START, Move.PAUSE, Move.RESUME, Move.WAIT, Move.SAVED, Move.END, Move.CLOSE)
_X = None
# fmt: off
_GRID = {
    #           start      pause     resume     wait       saved      end       close
    "lobby":   ("playing", _X,       _X,        "lobby",   "lobby",   _X,       "closed"),
    "playing": (_X,        "paused", _X,        "waiting", "playing", "lobby",  "closed"),
    "paused":  (_X,        _X,       "playing", "both",    "paused",  "lobby",  "closed"),
    "waiting": (_X,        "both",   _X,        "waiting", "playing", "lobby",  "closed"),
    "both":    (_X,        _X,       "waiting", "both",    "paused",  "lobby",  "closed"),
    "closed":  ("closed",) * 7,
}
# fmt: on
CASES = [
    pytest.param(_S[life], move, cell and _S[cell], id=f"{life}-{move.value}-{cell or 'bug'}")
    for life, row in _GRID.items()
    for move, cell in zip(_MOVES, row, strict=True)
]


def test_the_grid_covers_every_life_and_every_move() -> None:
    assert set(_S.values()) == set(Life) and set(_GRID) == set(_S) and set(_MOVES) == set(Move)


@pytest.mark.parametrize(("life", "move", "cell"), CASES)
def test_life_transition(life: Life, move: Move, cell: Life | None) -> None:
    if cell is None:
        with pytest.raises(KeyError):
            after(life, move)
    else:
        assert after(life, move) is cell


@pytest.mark.parametrize("life", list(Life), ids=lambda life: life.value)
def test_what_each_life_holds(life: Life) -> None:
    """A match runs from its start to its end; the clocks stand still while paused or
    waiting, and only then."""
    assert life.running is (life not in (Life.LOBBY, Life.CLOSED))
    assert life.paused is (life in (Life.PAUSED, Life.PAUSED_WAITING))
    assert life.waiting is (life in (Life.WAITING, Life.PAUSED_WAITING))
