"""The asker's way to a lost seat: a join refused with ``name_taken`` for a seat that is
dropped or away offers "Ask for your seat back": the game joins again to watch under the
same name and, once welcomed, sends ``ask_seat``; given, the server's ``welcome`` seats it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.host import Host
from client.i18n import gettext as _
from client.model import Session
from client.overlays import ConfirmDialog
from common.protocol import AskSeat

__all__ = ["ask_once_welcomed", "lost_seat", "offer"]


def lost_seat(s: Session | None) -> int | None:
    """The seat a refused join may ask back, or None."""
    return s.lobby.lost_seat if s is not None and not s.welcomed else None


def offer(host: Host, where: tuple[str, int], password: str, seat: int, name: str) -> None:
    """Ask the player whether to ask the host for seat ``seat`` back."""

    def ask() -> None:
        host.connect(where[0], where[1], password=password, watch=True)
        if host.session is not None:
            host.session.lobby.asking = seat  # asked once welcomed as a watcher

    dialog = ConfirmDialog(
        host,
        title=_("Ask for your seat back"),
        body=lambda: _(
            "{name}'s seat is waiting for its player. If it is yours, ask the host to"
            " give it back: you watch the table until the host answers."
        ).format(name=name),
        yes=_("Ask for your seat back"),
        no=_("Not now"),
        on_yes=ask,
        kind="ask_seat",
    )
    dialog.yes.style, dialog.no.style = "primary", "normal"  # asking is no danger
    host.modal = dialog
    host.dirty = True


def ask_once_welcomed(s: Session | None, send: Callable[[dict[str, Any]], bool]) -> bool:
    """A watcher welcomed to ask for a lost seat (``LobbyState.asking``) asks, once."""
    if s is None or s.lobby.asking is None or not s.watch or s.lobby.ask is not None:
        return False
    seat = s.lobby.asked_now()
    return seat is not None and send(AskSeat(seat).encode())
