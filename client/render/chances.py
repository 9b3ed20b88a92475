"""The analysis after the match as the replayer shows it (``client.analysing``): each
seat's chance bar, the panel's two lines on what the chances know and what the looking
found, and the box saying why the decision on screen is worth a look."""

from __future__ import annotations

import pygame

from client.analysing import Analysing
from client.i18n import gettext as _
from client.render.layout import TableLayout
from client.render.text import blit_text, fit, wrap
from client.render.widgets import GOLD, INK, MUTED, panel
from client.tablewords import mark_text, percent
from common.analysis import Chance, Mark

__all__ = [
    "MARK",
    "WHY_LINES",
    "chance_words",
    "draw_bar",
    "draw_status",
    "status_lines",
    "why_lines",
]

MARK = (246, 146, 70)  # a decision worth a look: its marker, its line
WHY_LINES = 4  # the lines the panel keeps for why a decision is worth a look


def chance_words(c: Chance) -> str:
    """``"62%"``; a sampled chance never says 0% or 100% (``"<1%"``, ``">99%"``)."""
    pct = round(100 * c.share)
    if not c.exact and pct <= 0:
        return percent(0.001)
    if not c.exact and pct >= 100:
        return percent(0.999)
    return percent(pct / 100)


def draw_bar(
    surf: pygame.Surface, lay: TableLayout, r: pygame.Rect, c: Chance, *, own: bool, dim: bool
) -> None:
    """A seat's chance: its percentage, then a bar filled that far (grey: folded)."""
    panel(surf, r, (6, 16, 14, 235), r.h // 2)
    pygame.draw.rect(surf, (90, 110, 104), r, 1, border_radius=r.h // 2)
    size = max(12, r.h - 4)
    label = blit_text(
        surf,
        chance_words(c),
        size,
        (r.x + lay.px(8), r.centery),
        MUTED if dim else INK,
        bold=True,
        anchor="midleft",
    )
    track = pygame.Rect(label.right + lay.px(6), 0, 0, max(4, r.h // 3))
    track.w = max(4, r.right - lay.px(8) - track.x)
    track.centery = r.centery
    pygame.draw.rect(surf, (44, 58, 54), track, border_radius=track.h // 2)
    fill = track.copy()
    fill.w = round(track.w * max(0.0, min(1.0, c.share)))
    if fill.w:
        color = (110, 116, 114) if dim else GOLD if own else (120, 200, 150)
        pygame.draw.rect(surf, color, fill, border_radius=track.h // 2)


def status_lines(a: Analysing) -> tuple[str, str]:
    """The panel's two lines on the analysis: what the chances know, and what the looking
    found (or how far it has come)."""
    counting = a.job.decisions_done and not a.done
    return a.knowledge(), a.progress() if counting else a.summary()


def why_lines(
    a: Analysing, mark: Mark | None, next_key: str, size: int, room: int
) -> tuple[list[str], bool]:
    """The words in the why box, wrapped to ``room``: the marked decision's (True), or a
    hint (False); ``next_key`` goes to the next decision worth a look."""
    if mark is not None:
        return wrap(mark_text(mark), size, room)[:WHY_LINES], True
    if a.held:
        words = _("Your decisions are looked over once the match is over.")
    elif not a.judged():
        words = _("Decisions are looked over for a seat of your own: none here.")
    elif not a.job.decisions_done:
        words = _("Your decisions are being looked over…")
    elif not a.job.marks():
        words = _("None of your decisions in these hands is worth a second look.")
    else:
        words = _("Stops marked with a dot are decisions worth a look: {key} goes to the next "
                  "one.").format(key=next_key)  # fmt: skip
    return wrap(words, size, room)[:WHY_LINES], False


def draw_status(
    surf: pygame.Surface,
    lay: TableLayout,
    r: pygame.Rect,
    box: pygame.Rect,
    a: Analysing,
    why: tuple[list[str], bool],
) -> None:
    """The status lines in ``r``, and the why box ``box`` with ``why`` (``why_lines``)."""
    size = lay.font(18)
    first, second = status_lines(a)
    line = r.h // 3
    y = r.y + line // 2
    for words in wrap(first, size, r.w)[:2]:
        blit_text(surf, fit(words, size, r.w), size, (r.x, y), MUTED, anchor="midleft")
        y += line
    blit_text(
        surf, fit(second, size, r.w, bold=True), size, (r.x, y), GOLD, bold=True, anchor="midleft"
    )
    words, marked = why
    panel(surf, box, (8, 20, 16, 220), lay.px(8))
    if marked:
        pygame.draw.rect(surf, MARK, box, 2, border_radius=lay.px(8))
    y = box.y + lay.px(6)
    step = (box.h - lay.px(12)) // WHY_LINES
    for text in words:
        blit_text(surf, text, size, (box.x + lay.px(8), y), INK if marked else MUTED)
        y += step
