"""What the table painter draws from: one frozen picture of the table at one moment, built
from the live session each frame (``picture_of``, clocks read at ``now``) or by the replayer
from a hand-history record.  The painter never reads a ``Session``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from client.i18n import gettext as _
from client.lobbystate import Player
from client.model import Session
from common.schema import SeatView

__all__ = ["TablePicture", "picture_of"]


@dataclass(frozen=True, slots=True)
class TablePicture:
    view: SeatView | None
    players: Mapping[int, Player] = field(default_factory=dict)
    hand: int = 0
    hands: int = 0
    recent: Mapping[int, str] = field(default_factory=dict)  # what a seat did this street
    dropped: Mapping[int, float | None] = field(default_factory=dict)  # seat -> grace left
    clocks: Mapping[int, tuple[float, float]] = field(default_factory=dict)  # R-C4
    seconds_left: float | None = None  # our turn's seconds (a server without clocks)
    turn_time: float = 0.0
    time_bank: float = 0.0
    paused: bool = False  # R-C3

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        p = self.players.get(seat)
        return p.name if p else _("Seat {number}").format(number=seat + 1)


def picture_of(session: Session, now: float) -> TablePicture:
    """The live table as ``session`` has it at ``now`` (the clocks run down with it)."""
    view, opts = session.view, session.lobby.options
    clocks: dict[int, tuple[float, float]] = {}
    if view is not None and view.to_act is not None:
        left = session.clock_left(view.to_act, now)
        if left is not None:
            clocks[view.to_act] = left
    return TablePicture(
        view=view,
        players=session.players,
        hand=session.hand,
        hands=session.hands,
        recent=session.log.recent,
        dropped={seat: session.clocks.grace_left(seat, now) for seat in session.clocks.dropped},
        clocks=clocks,
        seconds_left=session.seconds_left(now),
        turn_time=(opts.turn_time or 0.0) if opts is not None else 0.0,
        time_bank=opts.time_bank if opts is not None else 0.0,
        paused=session.clocks.paused,
    )
