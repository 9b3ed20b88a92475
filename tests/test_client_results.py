"""The standings box (issue 17 point 6), measured as drawn: as tall as what it holds,
with no wide empty band, and no word under a button, at every size."""

from __future__ import annotations

import pygame
import pytest

from client.app import App
from client.scenes import results as results_module
from client.scenes.results import ResultsScene
from tests.clientkit import session_from
from tests.drawn import words_drawn


def standings(n: int) -> list[dict]:
    return [{"place": i + 1, "seat": i, "name": f"Seat {i + 1}", "stack": 600 + 40 * (n - i),
             "net": 40 * (n - i) - 20 * n, "winner": i == 0} for i in range(n)]  # fmt: skip


@pytest.mark.parametrize("rows", [2, 4, 7])
def test_the_standings_box_holds_its_rows_without_an_empty_band(app: App, rows: int) -> None:
    app.link.session = session_from([
        {"type": "welcome", "seat": 0, "token": "t", "name": "Ann"},
        {"type": "standings", "match": "m", "hands_played": 4, "standings": standings(rows)},
    ])  # fmt: skip
    scene = ResultsScene(app)
    for size in [(800, 500), (1280, 800), (1600, 1000)]:
        scene.resize(size)
        scene.update(0.0)
        with words_drawn(results_module) as drawn:
            scene.draw(pygame.Surface(size))
        box, f = scene.box, lambda v: max(14, round(v * scene.s))
        assert pygame.Rect(0, 0, *size).contains(box), (size, box)
        buttons = [b.rect for b in scene.buttons()]
        top = min(r.top for r in buttons)
        for t, r in drawn:
            assert box.contains(r), (size, t, r, box)
            assert not any(r.colliderect(b) for b in buttons), (size, t, r)
        words_end = max(r.bottom for _t, r in drawn if r.bottom <= top)
        assert top - words_end <= f(60), (size, rows, top - words_end)
