"""The night's scoreboard: the matches played, each player's wins and chips over the night
(best first; our own row kept when rows run short) and the latest matches' winners."""

from __future__ import annotations

import pygame

from client.i18n import chips, evening, ngettext
from client.i18n import gettext as _
from client.render.text import blit_text, fit, font
from client.render.widgets import GOLD, INK, MUTED, panel
from common.protocol.server_messages import Night

__all__ = ["draw_night", "net_look"]

WON = (110, 220, 130)
LOST = (235, 110, 100)


def net_look(net: int) -> tuple[str, tuple[int, int, int]]:
    """Chips won or lost, signed, and their colour: ``"+164"`` green, ``"-64"`` red."""
    said = ("+" if net > 0 else "-") + chips(abs(net)) if net else "0"
    return said, WON if net > 0 else LOST if net < 0 else MUTED


def draw_night(
    surf: pygame.Surface, rect: pygame.Rect, night: Night, *, me: str = "", size: int = 24
) -> None:
    panel(surf, rect, (8, 22, 18, 210), max(6, size // 2))
    pad = max(8, size * 2 // 3)
    x, y = rect.x + pad, rect.y + pad
    played = ngettext("Tonight · {n} match", "Tonight · {n} matches", night.played)
    title = blit_text(surf, played.format(n=night.played), size, (x, y), GOLD, bold=True)
    if night.label:  # the date right of the title, in a shorter form where the long is too wide
        at, small = (rect.right - pad, y + size // 6), max(12, size * 3 // 4)
        room = at[0] - title.right - pad
        forms = [evening(night.evening, night.label, form) for form in ("full", "long", "medium")]
        label = next(
            (d for d in forms if font(small).size(d)[0] <= room), fit(forms[-1], small, room)
        )
        blit_text(surf, label, small, at, MUTED, anchor="topright")
    y += round(size * 1.5)
    small = max(12, size * 4 // 5)
    line_h = round(small * 1.35)
    footer = round(small * 1.5) if night.matches else 0
    room = max(0, (rect.bottom - pad - footer - y) // line_h)
    rows = list(night.totals)
    if len(rows) > room:
        mine = next((r for r in rows if r.name == me), None)
        rows = rows[:room]
        if mine is not None and mine not in rows and room:
            rows[-1] = mine
    for r in rows:
        color = GOLD if r.name == me else INK
        label = _("{name} (computer)").format(name=r.name) if r.computer else r.name
        stars = ngettext("{n} win", "{n} wins", r.wins).format(n=r.wins) if r.wins else ""
        net, net_color = net_look(r.net)
        blit_text(surf, net, small, (rect.right - pad, y), net_color, bold=True, anchor="topright")
        star_x = rect.right - pad - small * 4
        if stars:
            blit_text(surf, stars, small, (star_x, y), GOLD, anchor="topright")
        name_w = star_x - x - small * 4
        blit_text(surf, fit(label, small, max(20, name_w)), small, (x, y), color)
        y += line_h
    if night.matches:
        latest = list(night.matches)[-4:]
        won = "  ".join(f"{m.number}: {' & '.join(m.winners) or '—'}" for m in latest)
        won = fit(_("Won: {matches}").format(matches=won), small, rect.w - 2 * pad)
        blit_text(surf, won, small, (x, rect.bottom - pad), MUTED, anchor="bottomleft")
