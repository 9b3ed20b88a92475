"""A seat's presence at the table: one state, the same words on the server and the client.

The server keeps one ``Presence`` per person's seat and moves it only through the
transitions of ``server.presence``; the client reads the same state back from a lobby
seat's wire fields with ``from_wire``.  Invariants:

- A computer seat is always ``PLAYING``.
- ``DROPPED`` is the only state whose connection is gone while no away spell has begun:
  the grace of R-C1 is running.  Every other state says nothing about the connection
  (an away person may be connected or not).
- Every away state (``AWAY_ASKED``, ``AWAY_CLOCK``, ``AWAY_DROPPED``, ``TAKEN``) has its
  turns played for it, at once, by the default or by a stand-in (R-C2, R-C3).
- ``NEXT_MATCH`` is a seat taken after a match began: it watches the match running and
  plays from the next one.

The wire is older than this module and stays as it was: a lobby seat says
``connected``, ``away``, ``away_why`` and, only when true, ``next`` (``docs/protocol.md``).
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Presence", "from_wire"]


class Presence(Enum):
    """Where a seat's person is, as far as the table is concerned."""

    PLAYING = "playing"
    """At the table and playing its own turns (in the lobby: seated)."""
    DROPPED = "dropped"
    """Its connection is gone mid-match and the grace is running (R-C1)."""
    AWAY_ASKED = "asked"
    """Its person stepped away, or left the match (R-C2)."""
    AWAY_CLOCK = "clock"
    """Its clock and time bank ran out (R-C4, then R-C2)."""
    AWAY_DROPPED = "away_dropped"
    """It was still dropped when its grace ended (R-C1, then R-C2)."""
    TAKEN = "taken"
    """The host took the seat away for the rest of the match (R-C3)."""
    NEXT_MATCH = "next_match"
    """Seated after the match began: plays from the next match on."""

    @property
    def away(self) -> bool:
        """True in every state whose turns are played for the seat (R-C2, R-C3)."""
        return self in _AWAY_WHY

    @property
    def away_why(self) -> str | None:
        """The wire's ``away_why`` word for an away state, else None."""
        return _AWAY_WHY.get(self)


_AWAY_WHY = {
    Presence.AWAY_ASKED: "asked",
    Presence.AWAY_CLOCK: "clock",
    Presence.AWAY_DROPPED: "dropped",
    Presence.TAKEN: "taken",
}
_BY_WHY = {why: state for state, why in _AWAY_WHY.items()}


def from_wire(
    *, connected: bool, away: bool, away_why: str | None, next_match: bool = False
) -> Presence:
    """The state a lobby seat's wire fields describe (an unknown ``away_why`` of an away
    seat reads as ``AWAY_ASKED``, the mildest).

    >>> from_wire(connected=False, away=False, away_why=None)
    <Presence.DROPPED: 'dropped'>
    >>> from_wire(connected=True, away=True, away_why="taken")
    <Presence.TAKEN: 'taken'>
    """
    if next_match:
        return Presence.NEXT_MATCH
    if away:
        return _BY_WHY.get(away_why or "", Presence.AWAY_ASKED)
    return Presence.PLAYING if connected else Presence.DROPPED
