"""The cards-seen panel's suit signs read on its dark ground (issue 17 point 5): measured
on the drawn pixels, in both decks, at a few scales."""

from __future__ import annotations

import pygame
import pytest

from client.render.seenpanel import GRID_SUITS, SeenPanel


def luminance(c) -> float:
    def ch(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def contrast(a, b) -> float:
    lo, hi = sorted((luminance(a), luminance(b)))
    return (hi + 0.05) / (lo + 0.05)


@pytest.fixture(autouse=True)
def _display():
    pygame.init()
    yield
    pygame.quit()


@pytest.mark.parametrize("four", [True, False])
@pytest.mark.parametrize("s", [0.625, 1.0, 1.25])
def test_every_suit_row_sign_reads_on_the_panel(four, s) -> None:
    px = lambda v: max(1, round(v * s))  # noqa: E731  (the panel's own rounding)
    rect = pygame.Rect(0, 0, round(300 * s), SeenPanel.height(s))
    table = pygame.Surface((rect.w, rect.h))
    table.fill((14, 60, 40))  # the felt under the panel
    SeenPanel().draw(table, rect, s, four=four)
    ground = table.get_at((rect.x + px(4), rect.bottom - px(4)))[:3]
    top, ch = px(28), px(24)
    for row, suit in enumerate(GRID_SUITS):
        sign = pygame.Rect(px(7), top + row * ch, px(18), ch)
        best = max(contrast(table.get_at((x, y))[:3], ground)
                   for x in range(sign.left, sign.right)
                   for y in range(sign.top, sign.bottom))  # fmt: skip
        assert best >= 3.0, (suit, four, s, best)  # WCAG 1.4.11: a sign, not body text


def test_one_other_card_seen_is_one_card() -> None:
    # Issue 33: heads-up on third street the panel said "1 other cards seen".
    from client.render import seenpanel
    from common.views import seat_view
    from tests.drawn import words_drawn
    from tests.stacking import new_hand

    panel = SeenPanel()
    panel.update(seat_view(new_hand(0, {0: "As Kd 2c", 1: "?? ?? 9h"}), 0))
    rect = pygame.Rect(0, 0, 300, SeenPanel.height(1.0))
    with words_drawn(seenpanel) as drawn:
        panel.draw(pygame.Surface(rect.size), rect, 1.0, four=False)
    assert "1 other card seen" in [t for t, _ in drawn]
    panel.update(seat_view(new_hand(0, {0: "As Kd 2c", 1: "?? ?? 9h", 2: "?? ?? 3d"}), 0))
    assert panel.lines[0] == "2 other cards seen"
