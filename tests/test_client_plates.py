"""The seat plates' names, measured as drawn (issue 17 point 4): a name is cut only when
the plate has no room for it, whatever the window size."""

from __future__ import annotations

from types import SimpleNamespace

import pygame
import pytest

from client.lobbystate import Player
from client.render import tablepaint
from client.render.cards import CardArt
from client.render.layout import TableLayout
from client.render.picture import TablePicture
from server.config import ServerConfig
from tests.demo import NAMES
from tests.drawn import words_drawn

COMPUTER_NAMES = sorted(set(NAMES) | set(ServerConfig().computer_names))


@pytest.fixture(autouse=True)
def _display():
    pygame.init()
    yield
    pygame.quit()


def drawn_plates(size, names, stack=1000):
    seats = list(range(len(names)))
    lay = TableLayout(size, seats, you=None)
    players = {i: Player(i, n, kind="computer", level="shark") for i, n in enumerate(names)}
    pic = TablePicture(view=None, players=players)
    painter = tablepaint.TablePainter(CardArt())
    surf = pygame.Surface(size)
    out = []
    for spot in lay.spots.values():
        sv = SimpleNamespace(stack=stack, folded=False, all_in=False)
        with words_drawn(tablepaint) as drawn:
            painter.plate(surf, lay, spot, sv, players[spot.seat], pic=pic)  # type: ignore[arg-type]
        out.append((spot, drawn))
    return out


@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (1600, 1000), (1920, 1080)])
def test_computer_names_are_cut_only_when_the_plate_has_no_room(size) -> None:
    assert "Babbage" in COMPUTER_NAMES and len(COMPUTER_NAMES) >= 7
    names = COMPUTER_NAMES[:7]
    for spot, drawn in drawn_plates(size, names):
        plate = spot.plate_rect()
        (name, name_r), (stack, stack_r) = drawn[:2]
        assert stack == "1,000"  # the thousands mark of the language (client.i18n.chips)
        assert plate.contains(name_r) and plate.contains(stack_r), (size, name, plate)
        assert name_r.right < stack_r.left, (size, name, name_r, stack_r)
        if size != (800, 500):  # room enough: every name in full
            assert "…" not in name, (size, name, plate)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
def test_the_dealer_button_lies_wholly_on_the_table(seats: int) -> None:
    # Issue 33: on the right-hand seat the button straddled the table and the side panel.
    # Measured as drawn, for the button on every seat, seated or watching, at the three
    # window sizes: inside the table's area, over no plate, no card's place and no bet.
    from tests.drawn import BlitLog

    pygame.display.set_mode((8, 8))  # the button's image is converted for the display
    painter = tablepaint.TablePainter(CardArt())
    for size in [(800, 500), (1280, 800), (1600, 1000)]:
        for you in (0, None):
            lay = TableLayout(size, list(range(seats)), you=you)
            taken = [r for spot in lay.spots.values() for r in (spot.plate_rect(),
                     *spot.card_rects(7))]  # fmt: skip
            bets = [lay.chip_box(spot.bet_at) for spot in lay.spots.values()]
            for seat, spot in lay.spots.items():
                surf = BlitLog(size)
                painter.dealer_button(surf, lay, spot)
                ((_, r),) = surf.blits
                where = (size, you, seat, r)
                assert lay.area.contains(r), where
                assert r.collidelist(taken) < 0, (where, taken[r.collidelist(taken)])
                assert r.collidelist(bets) < 0, (where, bets[r.collidelist(bets)])
