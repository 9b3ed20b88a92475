"""Leaving a table (the Leave buttons, Esc on the results, the window's close button).

The player is asked first where leaving costs something, in words that say what it does:
the host of a table hosted here closes it for everyone; a seat in a match keeps its chips
and plays by the default until its person comes back (R-C2); the computer match ends
unfinished.  Anyone else leaves at once.
"""

from __future__ import annotations

from client.host import Host
from client.i18n import gettext as _
from client.i18n import listing, ngettext, pgettext
from client.overlays import ConfirmDialog

__all__ = ["ask", "needs_asking", "words"]


def _others(app: Host) -> list[str]:
    """The names of the other people at our table (computer seats are not cut off)."""
    s = app.session
    if s is None:
        return []
    seats = {p.seat: p for p in s.lobby.seats}
    if s.running:
        seats.update(s.players)
    return [
        p.name
        for p in seats.values()
        if p.kind == "human" and p.seat != s.seat and p.connected and p.seat not in s.clocks.dropped
    ]


def _playing(app: Host) -> bool:
    s = app.session
    return bool(s is not None and s.running and s.standings is None)


def needs_asking(app: Host) -> bool:
    s = app.session
    if s is None or not s.welcomed:
        return False
    if app.server_kind == "host" and app.server is not None:
        return bool(_others(app)) or _playing(app)
    if s.seat is None:  # watching
        return False
    return _playing(app)


def words(app: Host, *, quitting: bool = False) -> tuple[str, str, str]:
    """(title, what leaving does, the yes button's label) for the table we are at."""
    s = app.session
    if app.server_kind == "host" and app.server is not None:
        others = _others(app)
        names, n = listing(others), len(others)
        if quitting and others:
            body = ngettext(
                "You are hosting this table. Closing the window closes it for everyone:"
                " {names} will be disconnected.",
                "You are hosting this table. Closing the window closes it for everyone:"
                " {names} will be disconnected.", n).format(names=names)  # fmt: skip
        elif others:
            body = ngettext(
                "You are hosting this table. Leaving closes it for everyone: {names} will be"
                " disconnected.",
                "You are hosting this table. Leaving closes it for everyone: {names} will be"
                " disconnected.", n).format(names=names)  # fmt: skip
        elif quitting:
            body = _("You are hosting this table. Closing the window closes it for everyone.")
        else:
            body = _("You are hosting this table. Leaving closes it for everyone.")
        if _playing(app):
            body += " " + _("The match in play ends here, unfinished, with no winner.")
        yes = _("Quit and close") if quitting else _("Close the table")
        return _("Close your table?"), body, yes
    leave = _("Leave the match?"), _("Quit") if quitting else pgettext("button", "Leave")
    if app.server_kind == "computer":
        if s is not None and s.hand and quitting:
            body = _("Closing the window ends this match here, unfinished, in hand {hand} of"
                     " {hands}. Its chips are not kept.")  # fmt: skip
        elif s is not None and s.hand:
            body = _("Leaving ends this match here, unfinished, in hand {hand} of {hands}. Its"
                     " chips are not kept.")  # fmt: skip
        elif quitting:
            body = _("Closing the window ends this match here, unfinished. Its chips are not"
                     " kept.")  # fmt: skip
        else:
            body = _("Leaving ends this match here, unfinished. Its chips are not kept.")
        hand, hands = (s.hand, s.hands) if s is not None else (0, 0)
        return leave[0], body.format(hand=hand, hands=hands), leave[1]
    if s is not None and s.lobby.options is not None and s.lobby.options.stand_in:
        body = _("The match goes on without you. Your seat keeps its chips and antes, and a"
                 " computer plays it for you from its next turn (R-C2, R-C3).")  # fmt: skip
    else:
        body = _("The match goes on without you. Your seat keeps its chips and antes, and at"
                 " each of its turns it checks, or folds when it cannot check (R-C2).")  # fmt: skip
    if quitting:
        body += " " + _("Join this table again before the match ends to take your seat back.")
    else:
        body += " " + _("Join this table again before the match ends to take your seat back,"
                        " cards too.")  # fmt: skip
    return leave[0], body, leave[1]


def ask(app: Host, *, quit_after: bool) -> None:
    """Leave (and quit, for the window's close button), asking first if it costs something."""

    def go() -> None:
        notice = ""
        if app.server_kind == "host" and app.server is not None:
            notice = _("You closed your table.")
        elif _playing(app):
            notice = _("You left the table.")
        app.leave_table(notice="" if quit_after else notice, send_leave=True)
        if quit_after:
            app.running = False

    if not needs_asking(app):
        go()
        return
    title, _body, yes = words(app, quitting=quit_after)
    app.modal = ConfirmDialog(
        app,
        title=title,
        body=lambda: words(app, quitting=quit_after)[1] if app.session is not None else "",
        yes=yes,
        on_yes=go,
        kind="quit" if quit_after else "leave",
    )
    app.dirty = True
