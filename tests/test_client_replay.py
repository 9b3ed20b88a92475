"""The replayer, the recap, the histories list, the cards-seen panel and the standings box,
headless.

Scenes are driven by key presses and clicks through the real loop
(``App.step``); assertions look at their state, not at pixels.
"""

from __future__ import annotations

import json

import pygame
import pytest

from client.app import App
from client.model import Session
from client.render import seenpanel
from client.render.seenpanel import GRID_SUITS, SeenPanel
from client.scenes import recap as recap_module
from client.scenes import results as results_module
from client.scenes.histories import HistoriesScene, list_matches
from client.scenes.recap import RecapScene
from client.scenes.replayer import ReplayerScene
from client.scenes.results import ResultsScene
from common.recap import moments
from common.replay import positions, seen_record, street_starts, table_after
from common.views import seat_view
from tests import demo
from tests.clientkit import apart, click, feed, key, session_from, simulated
from tests.drawn import BlitLog, cards_drawn, words_drawn
from tests.stacking import new_hand

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(autouse=True)
def _sim(app, tmp_path, monkeypatch) -> None:
    """The game is "Sim 1"'s, the name of the simulated histories' seat 0."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app.settings.name = "Sim 1"


def test_the_replayer_shows_the_table_as_it_was_at_every_stop(app: App) -> None:
    records = [seen_record(r, 0) for r in simulated()]
    scene = ReplayerScene(app, records, viewer=0)
    app.push(scene)
    assert app.top() is scene
    for k, rec in enumerate(records):
        stops = positions(rec)
        for i, stop in enumerate(stops):
            assert (scene.hand_i, scene.pos_i) == (k, i)
            assert scene.shown.view == table_after(rec, stop.upto, 0)
            app.draw()  # every stop draws
            key(app, pygame.K_RIGHT)
        assert scene.pos_i == len(stops) - 1  # Right stops at the end of the hand
        key(app, pygame.K_LEFT)
        assert scene.pos_i == len(stops) - 2
        key(app, pygame.K_HOME)
        for start in street_starts(stops)[1:]:  # Down: street by street
            key(app, pygame.K_DOWN)
            assert scene.pos_i == start
        key(app, pygame.K_UP)
        assert scene.pos_i == street_starts(stops)[-2]
        key(app, pygame.K_PAGEDOWN)
    assert scene.hand_i == len(records) - 1
    key(app, pygame.K_ESCAPE)
    assert app.top().name == "start"


def test_the_replayer_exports_every_hand_to_phh(app: App, tmp_path) -> None:
    records = simulated()
    scene = ReplayerScene(app, records)
    where = scene.export(tmp_path / "out")
    files = sorted(p.name for p in where.glob("*.phh"))
    assert len(files) == len(records) and "Wrote" in scene.notice
    (text,) = where.glob("*.txt")
    assert text.read_text().count("PokerStars Hand #") == len(records)
    assert scene.title == "Every hole card shown"


def test_the_recap_replays_the_hand_of_each_moment(app: App) -> None:
    records = simulated(seed=5)
    recap = RecapScene(app, records, viewer=0)
    app.push(recap)
    assert [b.id for b in recap.buttons()][: len(moments(records))] == [
        f"moment:{i}" for i in range(len(moments(records)))
    ]
    for i, m in enumerate(moments(records)):
        click(app, recap.moment_buttons[i].rect)
        top = app.top()
        assert isinstance(top, ReplayerScene) and int(top.record["hand"]) == m.hand
        key(app, pygame.K_o)  # the recap again, over the replayer (O, issue 17)
        recap = app.top()
        assert isinstance(recap, RecapScene)
    # A click on the chart replays the hand under it.
    x = recap.chart.x + recap.chart.w * 2.5 / len(records)
    click(app, (round(x), recap.chart.centery))
    assert isinstance(app.top(), ReplayerScene) and app.top().hand_i == 2
    assert sum(isinstance(s, ReplayerScene) for s in app.scenes) == 1


def test_the_start_screen_lists_the_histories_and_replays_a_file(app: App, tmp_path) -> None:
    folder = tmp_path / "hh"
    folder.mkdir()
    records = simulated()
    text = "".join(json.dumps(r) + "\n" for r in records)
    (folder / "2026-11-30-201500-0001.jsonl").write_text(text + "not json\n", encoding="utf-8")
    (folder / "junk.jsonl").write_text('{"format": "other"}\n', encoding="utf-8")
    assert len(list_matches(folder)) == 1
    key(app, pygame.K_h)  # from the start screen (H, the hands: issue 17)
    scene = app.top()
    assert isinstance(scene, HistoriesScene) and len(scene.matches) == 1
    assert [b.id for b in scene.buttons()] == ["replay:0", "recap:0", "close"]
    click(app, scene.buttons()[0].rect)
    rep = app.top()
    assert isinstance(rep, ReplayerScene) and len(rep.records) == len(records)
    assert rep.viewer == 0  # "Sim 1" sits in seat 0: the replay puts it at the bottom
    # A file shows every hole card: every seat's down cards are faces.
    assert all(sv.hole for sv in rep.shown.view.seats.values())


def test_the_cards_seen_panel_toggles_with_s_and_shows_only_what_the_seat_saw(app) -> None:
    app.link.session = Session("Ann")
    feed(app, demo.mid_hand())
    app.step(max_wait=0.001)
    table = app.top()
    assert table.name == "table" and app.settings.seen_panel
    seen = table.panel.seen.seen
    view = app.session.view
    allowed = {c for sv in view.seats.values() for c in sv.up} | set(view.seats[0].hole or [])
    assert seen == allowed  # every up card (folded seats' too) and our hole cards
    assert set(table.panel.seen.mine) == {"Ac", "Qs", "Kh", "Kd", "7s"}
    assert any(line.startswith("Trips (kings)") for line in table.panel.seen.lines)
    log_top = table.panel.log.rect.top
    key(app, pygame.K_u)  # U, the cards-seen panel (issue 17)
    assert app.settings.seen_panel is False and table.panel.log.rect.top < log_top
    key(app, pygame.K_u)  # U, the cards-seen panel (issue 17)
    assert app.settings.seen_panel is True


def test_a_watcher_panel_holds_up_cards_only(app) -> None:
    app.link.session = Session("Zed")
    feed(app, demo.watching(demo.mid_hand()))
    app.step(max_wait=0.001)
    panel = app.top().panel.seen
    ups = {c for sv in app.session.view.seats.values() for c in sv.up}
    assert panel.seen == ups and panel.mine == []
    assert panel.lines == ["Watching: up cards and shown hands only"]


def test_play_steps_once_a_second_then_stops_at_the_end_and_a_click_picks_a_stop(app: App) -> None:
    records = simulated()
    scene = ReplayerScene(app, records)
    app.push(scene)
    key(app, pygame.K_p)
    assert scene.playing and scene.animating() and scene.pos_i == 0
    for i in range(1, len(scene.stops)):
        for _ in range(60):  # one second of fixed steps
            scene.update(1 / 60)
        assert scene.pos_i == i
    scene.update(1.0)
    assert not scene.playing and scene.pos_i == len(scene.stops) - 1
    key(app, pygame.K_p)  # at the end, Play starts the hand again
    assert scene.playing and scene.pos_i == 0
    key(app, pygame.K_LEFT)
    assert not scene.playing
    # A click on a stop in the list goes there.
    key(app, pygame.K_HOME)
    line, first, room = scene._steps_window()
    k = min(len(scene.stops), first + room) - 1
    assert scene.pos_i != k
    click(app, (scene.steps_rect.x + 10, scene.steps_rect.y + (k - first) * line + line // 2))
    assert scene.pos_i == k


@pytest.mark.parametrize("seats", [2, 4, 6, 7])
def test_the_replayer_banners_cover_no_seat_plate(app: App, seats: int) -> None:
    # Issue 17 point 3: the banners over the table, as drawn, leave every plate in view;
    # mid-match the hand count is the match's, not the hands in the file so far.
    records = simulated(seats=seats, hands=4, seed=5)[:1]  # the first hand of 4, mid-match
    app.link.session = session = session_from(
        [{"type": "welcome", "seat": 0, "token": "t", "name": "Sim 1", "hands": 4},
         {"type": "match_start", "match": records[0]["match"], "hands": 4, "seats": []}]
    )  # fmt: skip
    session.my_turn = lambda: True  # type: ignore[method-assign]  # the table waits on us
    scene = ReplayerScene(app, records, viewer=0)
    assert scene.shown.hand == 1 and scene.shown.hands == 4
    for size in [(800, 500), (1280, 800), (1600, 1000)]:
        scene.resize(size)
        scene.goto(0, 3)
        scene.draw(pygame.Surface(size))
        assert len(scene.banners()) == 2
        window = pygame.Rect(0, 0, *size)
        for banner in scene.banners():
            assert window.contains(banner), (size, banner)
            for seat, spot in scene.lay.spots.items():
                assert not banner.colliderect(spot.plate_rect()), (size, seat, banner)
            buttons = [b.rect for b in scene.buttons()] + [r for _k, r in scene.hand_rows]
            assert not any(banner.colliderect(r) for r in buttons), (size, banner)
            assert banner.w >= scene.lay.px(200), (size, banner)


def test_the_recap_chart_fits_its_axis_to_the_chips_and_labels_sit_under_the_points(app) -> None:
    # Issue 17 point 6: the chip axis holds the data with a small margin; each hand's
    # label is drawn under its point (the chips after that hand), not between two.
    records = simulated(seed=5)
    recap = RecapScene(app, records, viewer=0)
    chips = [v for line in recap.lines for v in line.chips]
    for size in [(800, 500), (1280, 800), (1600, 1000)]:
        recap.resize(size)
        with words_drawn(recap_module) as drawn:
            recap.draw(pygame.Surface(size))
        c = recap.chart
        axis = [int(t.replace(",", "")) for t, r in drawn
                if t.replace(",", "").isdigit() and r.right <= c.x]  # fmt: skip
        assert min(axis) < min(chips) and max(axis) > max(chips), (axis, min(chips), max(chips))
        data = max(chips) - min(chips)
        assert max(axis) - min(axis) <= 1.5 * data + 20, (axis, min(chips), max(chips))
        step = c.w / len(records)
        under = [(t, r) for t, r in drawn if r.top > c.bottom and r.top < c.bottom + 40]
        for k, rec in enumerate(records):
            x = c.x + round(step * (k + 1))
            t, r = under[k]
            assert t.endswith(str(rec["hand"])), (t, rec["hand"])
            if k:
                assert abs(r.centerx - x) <= 1, (size, t, r, x)
            else:
                assert r.left <= x <= r.right + 4, (size, t, r, x)
        apart(under, None, size)


def _books_hand(seats: int) -> dict:
    """A hand of ``seats`` seats with every hole card in it (open books) that went to the
    showdown with a seat folded on the way: the longest of a few seeded ones."""
    recs = simulated(seats=seats, hands=8, seed=11)

    def folds(r: dict) -> int:
        return sum(e["ev"] == "act" and e["action"] == "fold" for e in r["events"])

    shown = [r for r in recs if any(e["ev"] == "show" for e in r["events"])] or recs
    return max(shown, key=lambda r: (min(folds(r), 1), len(r["events"])))


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
def test_open_books_show_every_card_of_every_seat_at_every_stop(app: App, seats: int) -> None:
    # Issue 33 point 3: with the books open, a rival's face-up hole cards were drawn again
    # over its row, hiding its third-street up card.  Measured as drawn: every card of the
    # view is blitted, and no card drawn later covers the corner (rank and suit) of one
    # drawn before it, whoever's it is.
    record = _books_hand(seats)
    scene = ReplayerScene(app, [record], viewer=0)
    assert scene.title == "Every hole card shown"
    for size in [(800, 500), (1280, 800), (1600, 1000)]:
        scene.resize(size)
        for i in range(len(scene.stops)):
            scene.goto(0, i)
            view = scene.shown.view
            surf = BlitLog(size)
            with cards_drawn(app.art, surf) as drawn:
                scene.draw(surf)
            want = sorted(c for sv in view.seats.values() for c, _ in sv.cards())
            assert sorted(code for code, _ in drawn) == want, (size, i)
            for k, (code, r) in enumerate(drawn):
                corner = pygame.Rect(r.x, r.y, round(r.w * 0.45), round(r.h * 0.5))
                over = [c for c, later in drawn[k + 1 :] if later.colliderect(corner)]
                assert not over, (size, scene.stops[i].label, code, "under", over)


def test_h_opens_the_hands_on_the_last_one_first(app: App) -> None:
    # Issue 33: the README promises H opens "this match's hands (the last one first)";
    # from the standings and from the recap it opened the first.
    records = [seen_record(r, 0) for r in simulated()]
    s = session_from(
        [{"type": "welcome", "seat": 0, "token": "t", "name": "Sim 1"},
         {"type": "standings", "match": "m", "hands_played": len(records), "standings": [
             {"place": 1, "seat": 0, "name": "Sim 1", "stack": 600, "net": 0, "winner": True}]}]
    )  # fmt: skip
    s.book.best = lambda: records  # type: ignore[method-assign]
    app.link.session = s
    h = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h", scancode=0)
    results = ResultsScene(app)
    app.push(results)
    results.handle_event(h)
    rep = app.top()
    assert isinstance(rep, ReplayerScene) and rep.hand_i == len(records) - 1
    assert rep.pos_i == 0  # the hand from its start
    app.pop(rep)
    recap = RecapScene(app, records, viewer=0)
    app.push(recap)
    recap.handle_event(h)
    rep = app.top()
    assert isinstance(rep, ReplayerScene) and rep.hand_i == len(records) - 1
    # Over the replayer (O), H goes back to it where it was.
    rep.goto(2, 3)
    recap = RecapScene(app, records, viewer=0)
    app.push(recap)
    recap.handle_event(h)
    assert app.top() is rep and (rep.hand_i, rep.pos_i) == (2, 3)


# ------------------------------------------------------------------ the cards-seen panel as drawn
# Its suit signs read on its dark ground (issue 17 point 5): measured on the drawn pixels,
# in both decks, at a few scales.


def luminance(c) -> float:
    def ch(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def contrast(a, b) -> float:
    lo, hi = sorted((luminance(a), luminance(b)))
    return (hi + 0.05) / (lo + 0.05)


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
    panel = SeenPanel()
    panel.update(seat_view(new_hand(0, {0: "As Kd 2c", 1: "?? ?? 9h"}), 0))
    rect = pygame.Rect(0, 0, 300, SeenPanel.height(1.0))
    with words_drawn(seenpanel) as drawn:
        panel.draw(pygame.Surface(rect.size), rect, 1.0, four=False)
    assert "1 other card seen" in [t for t, _ in drawn]
    panel.update(seat_view(new_hand(0, {0: "As Kd 2c", 1: "?? ?? 9h", 2: "?? ?? 3d"}), 0))
    assert panel.lines[0] == "2 other cards seen"


# ------------------------------------------------------------------ the standings box
# Measured as drawn (issue 17 point 6): as tall as what it holds, with no wide empty band,
# and no word under a button, at every size.


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
