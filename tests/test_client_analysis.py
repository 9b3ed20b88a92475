"""The analysis after the match in the window: the computer table's open books, the
replayer's chance bars and marked decisions, the recap's decisions worth a look.

Hands are stacked (``tests.test_analysis``) where the marks must be clear; the
analysis is run to its end (``job.run()``) where a test is not about its pacing.
"""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from client import analysing
from client.analysing import BUDGET, GAP, Analysing, analysis_for
from client.app import App
from client.render.chances import chance_words, status_lines
from client.scenes.recap import RecapScene
from client.scenes.replayer import ReplayerScene
from common.analysis import Chance
from common.replay import positions, seen_record
from tests.clientkit import key, simulated
from tests.test_analysis import DEAD, FLUSH, THROUGH_FIFTH, hand_record

pytestmark = pytest.mark.timeout(90)


def _stacked() -> list[dict[str, Any]]:
    """Two hands of one match: seat 1 calls drawing dead, then folds a flush (R-O1, R-O2)."""
    dead = hand_record(DEAD, "1:bring_in 2:call 2:check 1:check 2:check 1:check 2:bet 1:call")
    flush = hand_record(FLUSH, THROUGH_FIFTH + " 2:bet 1:fold")
    flush["hand"] = 2
    return [dead, flush]


@pytest.fixture(autouse=True)
def _fresh() -> None:
    """Each test's hands are analysed anew (the window keeps the last few analyses)."""
    analysing._CACHE.clear()


# ------------------------------------------------------------------ the replayer


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
def test_the_chance_bars_cover_no_card_no_plate_and_no_banner(app: App, seats: int) -> None:
    records = simulated(seats=seats, hands=1, seed=3)
    scene = ReplayerScene(app, records, viewer=0)
    for size in [(800, 500), (1280, 800), (1600, 1000)]:
        scene.resize(size)
        lay = scene.lay
        window = pygame.Rect(0, 0, *size)
        assert set(scene.slots) == set(lay.spots)
        others = [b.rect for b in scene.buttons()] + [lay.panel] + scene.banners()
        for seat, bar in scene.slots.items():
            assert window.contains(bar), (size, seat, bar)
            for other, spot in lay.spots.items():
                assert not bar.colliderect(spot.plate_rect()), (size, seat, other)
                assert bar.collidelist(spot.card_rects(7)) < 0, (size, seat, other)
                assert not bar.colliderect(scene.painter.shown_box(lay, spot, _seven(scene, other)))
            assert bar.collidelist(others) < 0, (size, seat, bar)
            assert all(not bar.colliderect(b) for s, b in scene.slots.items() if s != seat)


def _seven(scene: ReplayerScene, seat: int) -> Any:
    """The seat at the end of the hand (its shown hand's label, if it showed)."""
    from common.replay import table_after

    rec = scene.record
    return table_after(rec, len(rec["events"]), 0).seats[seat]


def test_the_bars_show_each_seats_chance_at_the_street_on_screen(app: App) -> None:
    records = _stacked()
    scene = ReplayerScene(app, records, viewer=1)
    app.push(scene)
    assert scene.chance_bars() == []  # nothing counted yet: no bar
    scene.analysing.job.run()
    fifth = next(i for i, p in enumerate(scene.stops) if p.label == "Fifth street: the deal")
    scene.goto(0, fifth)
    bars = scene.chance_bars()
    st = scene.analysing.job.hands[0].chances_at(scene.stops[fifth].upto)
    assert st is not None and st.street == 5
    assert [(seat, c) for seat, _, c in bars] == [(c.seat, c) for c in st.chances]
    app.draw()
    # With the books closed, our own bar only, and the panel says why.
    closed = [seen_record(r, 1) for r in records]
    scene = ReplayerScene(app, closed, viewer=1)
    scene.analysing.job.run()
    scene.goto(0, fifth)
    assert [seat for seat, _, _ in scene.chance_bars()] == [1]
    said = "Chances from your seat's view: the books were closed"
    assert status_lines(scene.analysing)[0] == said
    assert chance_words(Chance(1, 0.004, 0.01, False)) == "<1%"
    assert chance_words(Chance(1, 1.0, 0.0, True)) == "100%"


def test_v_goes_to_each_marked_decision_and_the_panel_says_why(app: App) -> None:
    records = _stacked()
    scene = ReplayerScene(app, records, viewer=1)
    app.push(scene)
    scene.analysing.job.run()
    marks = scene.analysing.job.marks()
    assert [(m.hand, m.kind) for m in marks] == [(1, "dead_call"), (2, "fold")]
    assert scene.mark_here() is None and not scene.why_lines()[1]
    for mark in [*marks, marks[0]]:  # the last, then the first again
        key(app, pygame.K_v)
        here = scene.stops[scene.pos_i]
        assert records[scene.hand_i]["hand"] == mark.hand
        assert here.upto == mark.event + 1  # the stop of the decision itself
        assert scene.mark_here() == mark
        words, marked = scene.why_lines()
        assert marked and " ".join(words) == mark.text
        app.draw()
    assert scene.marks_of(0) == {scene.pos_i: marks[0]}


def test_the_analysis_never_takes_a_frame_longer_than_its_budget() -> None:
    """A fake clock: each step takes 5 ms of it; a frame's work stops at the budget plus
    one step, and a second call in the same frame does nothing."""
    now = [0.0]

    def clock() -> float:
        now[0] += 0.005
        return now[0]

    job = Analysing(_stacked(), 1, clock=clock)
    steps = 0
    real = job.job.step

    def counted() -> bool:
        nonlocal steps
        steps += 1
        return real()

    job.job.step = counted  # type: ignore[method-assign]
    assert job.work()
    assert steps <= BUDGET / 0.005 + 1
    first = steps
    now[0] -= 0.005  # the same frame: closer than GAP to the last work
    assert GAP > 0.0 and not job.work() and steps == first
    while job.work() or not job.done:
        now[0] += GAP
    assert job.done and not job.work()


def test_the_same_hands_share_one_analysis() -> None:
    records = _stacked()
    one = analysis_for(records, 1)
    assert analysis_for([dict(r) for r in records], 1) is one  # the same hands again
    assert analysis_for(records, 2) is not one
    assert len(analysing._CACHE) <= analysing.KEEP


# ------------------------------------------------------------------ the recap


def test_the_recap_lists_the_decisions_worth_a_look_each_a_key_from_its_moment(app) -> None:
    records = _stacked()
    recap = RecapScene(app, records, viewer=1)
    app.push(recap)
    assert recap.look_words().startswith("Looking over your decisions")
    while not recap.analysing.job.decisions_done:
        recap.analysing.job.step()
    recap.update(0)
    assert recap.look_words() == "2 decisions worth a look"
    assert [m.kind for m in recap.looks] == ["fold", "dead_call"]  # the costliest first
    assert len(recap.look_rows) == 2
    for size in [(800, 500), (1600, 1000), (1280, 800)]:  # the rows fit, one under another
        recap.resize(size)
        first, second = recap.look_rows
        assert first.bottom < second.top and second.bottom < recap.replay_all.rect.top
        assert second.right <= size[0] and first.x > recap.chart.right
    app.draw()
    key(app, pygame.K_1)
    rep = app.top()
    assert isinstance(rep, ReplayerScene) and rep.hand_i == 1
    assert rep.mark_here() == recap.looks[0]
    # From the replayer to the recap and a click on the second line: the same replayer.
    rep.choose("recap")
    recap = app.top()
    assert isinstance(recap, RecapScene)
    recap.update(0)
    row = recap.look_rows[1]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=row.center))
    app.step(max_wait=0.001)
    assert app.top() is rep and rep.hand_i == 0 and rep.mark_here() == recap.looks[1]


def test_a_match_without_marks_says_so(app) -> None:
    rec = hand_record(DEAD, "1:bring_in 2:call 2:bet 1:fold")
    recap = RecapScene(app, [rec], viewer=1)
    recap.analysing.job.run()
    recap.update(0)
    assert recap.look_words() == "No decision worth a second look" and recap.look_rows == []
    watcher = RecapScene(app, [seen_record(rec, None)], viewer=None)
    assert not watcher.analysing.judged()
    assert positions(rec)  # the hand replays
