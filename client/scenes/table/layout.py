"""Where the table's side panel puts its widgets for one window size, from the top: the deck
and rules row, cards seen and replay, the volume, the controls, the cards-seen panel, the
log, and the chat line at the foot."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from client.render.layout import TableLayout
from client.render.seenpanel import SeenPanel

__all__ = ["PanelPlaces", "lower_panel", "panel_places"]


@dataclass(frozen=True, slots=True)
class PanelPlaces:
    leave: pygame.Rect
    rules: pygame.Rect
    four: pygame.Rect
    chat: pygame.Rect
    seen_box: pygame.Rect
    replay: pygame.Rect
    volume: pygame.Rect
    controls_top: int  # where the away and host rows start


def panel_places(lay: TableLayout) -> PanelPlaces:
    """The panel's fixed widgets: the top rows and the chat line."""
    p = lay.panel
    leave = pygame.Rect(p.right - lay.px(104), p.y + lay.px(12), lay.px(92), lay.px(38))
    four = pygame.Rect(p.x + lay.px(14), p.y + lay.px(16), lay.px(170), lay.px(30))
    rules = pygame.Rect(0, 0, lay.px(68), leave.h)
    rules.topright = (leave.x - lay.px(8), leave.y)
    four.w = min(four.w, rules.x - lay.px(6) - four.x)
    return PanelPlaces(
        leave=leave,
        rules=rules,
        four=four,
        chat=pygame.Rect(p.x + lay.px(12), p.bottom - lay.px(54), p.w - lay.px(24), lay.px(42)),
        seen_box=pygame.Rect(p.x + lay.px(14), p.y + lay.px(58), lay.px(150), lay.px(30)),
        replay=pygame.Rect(p.right - lay.px(130), p.y + lay.px(56), lay.px(118), lay.px(34)),
        volume=pygame.Rect(p.x + lay.px(14), p.y + lay.px(98), p.w - lay.px(28), lay.px(26)),
        controls_top=p.y + lay.px(134),
    )


def lower_panel(
    lay: TableLayout, top: int, chat: pygame.Rect, *, seen_shown: bool
) -> tuple[pygame.Rect, pygame.Rect]:
    """(the cards-seen panel, the log) from ``top``, where the controls end, down to the
    chat line; the log takes what the cards-seen panel leaves, or all of it."""
    p = lay.panel
    seen = pygame.Rect(p.x + lay.px(10), top, p.w - lay.px(20), SeenPanel.height(lay.s))
    if seen_shown:
        top = seen.bottom + lay.px(12)
    log = pygame.Rect(p.x + lay.px(14), top, p.w - lay.px(28), chat.top - lay.px(10) - top)
    return seen, log
