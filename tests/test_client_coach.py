"""The coach on screen (issue 19): its box and key, the setting, a line clicked opening the
rules at its rule, and its lines never over a card or a plate, measured as drawn."""

from __future__ import annotations

import time

import pygame
import pytest

from client import demo
from client.app import App
from client.keys import MEANING, SCENES, key_of
from client.model import Session
from client.overlays import RulesOverlay
from client.render.picture import picture_of
from client.settings import Settings

pytestmark = pytest.mark.timeout(60)

THIRD = "1:bring_in 2:complete"  # Bo brings in (2 of clubs), Cy completes: Ann's turn
FIFTH = "1:bring_in 2:complete 0:call 1:call 0:check 1:check 2:check"  # Ann acts first


def make(tmp_path, monkeypatch, size=(1280, 800), *, coach=False, kind="computer", steps=THIRD):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    settings = Settings(name="Ann")
    settings.coach = coach
    app = App(settings, size=size, save_settings=False)
    app.init_display()
    app.server_kind = kind
    feed(app, steps)
    return app


def feed(app: App, steps: str) -> None:
    app.session = Session("Ann")
    for msg in demo.coached(steps):
        app.on_message(msg)
    app.step(max_wait=0.001)
    scene = app.top()
    assert scene.name == "table"
    scene.resize(app.screen.get_size())
    scene.anims.clear()


def post(app: App, kind: int, **attrs) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))
    app.step(max_wait=0.001)


def press(app: App, k: int) -> None:
    post(app, pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def test_the_key_is_one_of_the_key_map() -> None:
    assert key_of("table", "coach") == "I"
    assert "I" in MEANING and "coach" in MEANING["I"].lower()
    letters = [k for table in SCENES.values() for k in table]
    assert all(k in MEANING for k in letters)


def test_on_for_the_first_computer_table_match_only(tmp_path, monkeypatch) -> None:
    app = make(tmp_path, monkeypatch)
    scene = app.top()
    assert app.settings.coach_first and scene.coach_on() and scene.panel.coach.box.value
    assert [ln.rule for ln in scene.coach_lines()] == ["R-O1"]
    # The next match: off, as the setting says, until the person turns it on.
    msgs = demo.coached(THIRD)
    for m in msgs:
        if m["type"] == "match_start":
            m["match"] = "next"
        app.on_message(m)
    app.step(max_wait=0.001)
    assert not app.top().coach_on() and app.top().coach_lines() == []
    press(app, pygame.K_i)
    assert app.settings.coach and app.top().coach_on()
    press(app, pygame.K_i)
    assert not app.settings.coach and not app.top().coach_on()
    pygame.quit()


def test_off_at_a_friends_table(tmp_path, monkeypatch) -> None:
    app = make(tmp_path, monkeypatch, kind="")
    scene = app.top()
    assert not app.settings.coach_first and not scene.coach_on()
    box = scene.panel.coach.box
    post(app, pygame.MOUSEBUTTONDOWN, pos=box.rect.center, button=1)
    assert app.settings.coach and scene.coach_on() and box.value
    assert scene.panel.coach.rect.h > 0
    pygame.quit()


def test_the_setting_is_remembered(tmp_path) -> None:
    path = tmp_path / "settings.json"
    st = Settings()
    assert st.coach is False and st.coach_first is False
    st.coach, st.coach_first = True, True
    st.save(path)
    again = Settings.load(path)
    assert again.coach and again.coach_first


def test_a_line_clicked_opens_the_rules_at_its_rule(tmp_path, monkeypatch) -> None:
    app = make(tmp_path, monkeypatch, coach=True)
    scene = app.top()
    lines = scene.coach_lines()
    rows = scene.panel.coach.rows(lines)
    assert rows and rows[0][0] == "R-O1"
    post(app, pygame.MOUSEBUTTONDOWN, pos=rows[0][2].center, button=1)
    assert isinstance(app.modal, RulesOverlay)
    rules = app.modal
    assert rules.at == "R-O1" and rules.offset == min(rules.anchors["R-O1"], rules.max_offset)
    assert rules.offset > 0
    on_top = [ln for ln in rules.visible() if ln[0] == "R-O1"]
    assert on_top, "the rule's line is on screen"
    assert rules.go_to("R-S5") and rules.at == "R-S5"
    assert not rules.go_to("nowhere")


def test_every_rule_id_of_the_rules_has_an_anchor(tmp_path, monkeypatch) -> None:
    app = make(tmp_path, monkeypatch, coach=True)
    app.show_rules(at="R-A2")
    assert isinstance(app.modal, RulesOverlay) and app.modal.at == "R-A2"
    for rid in ("R-O1", "R-O2", "R-O3", "R-B2", "R-B5", "R-B6", "R-A2", "R-A3", "R-S1", "R-S5"):
        assert rid in app.modal.anchors, rid


def _drawn_rects(app: App) -> tuple[list[pygame.Rect], list[pygame.Rect]]:
    """(every card's and plate's drawn rect, the coach's drawn rects): each seat's cards
    and plate drawn alone on a clear surface and measured by the pixels they touch."""
    scene = app.top()
    s = app.session
    assert s is not None and s.view is not None
    pic = picture_of(s, time.monotonic())
    taken: list[pygame.Rect] = []
    for seat, spot in scene.lay.spots.items():
        sv = s.view.seats.get(seat)
        for draw in ("cards", "plate"):
            clear = pygame.Surface(app.screen.get_size(), pygame.SRCALPHA)
            if draw == "cards" and sv is not None:
                scene.painter.seat_cards(clear, spot, sv, hidden=set(), showdown=False)
            elif draw == "plate":
                scene.painter.plate(clear, scene.lay, spot, sv, s.players.get(seat), pic=pic)
            r = clear.get_bounding_rect()
            if r.w and r.h:
                taken.append(r)
    surf = app.screen.copy()
    coach = scene.panel.coach.draw(surf, scene.coach_lines())
    return taken, coach


@pytest.mark.parametrize("size", [(800, 500), (1280, 800)])
@pytest.mark.parametrize("steps", [THIRD, FIFTH])
def test_the_coach_covers_no_card_and_no_plate(tmp_path, monkeypatch, size, steps) -> None:
    app = make(tmp_path, monkeypatch, size, coach=True, steps=steps)
    scene = app.top()
    # The pointer on the last action button: the longest lines.
    if scene.bar.buttons:
        post(app, pygame.MOUSEMOTION, pos=scene.bar.buttons[-1].rect.center, rel=(0, 0),
             buttons=(0, 0, 0))  # fmt: skip
    lines = scene.coach_lines()
    assert len(lines) == 2
    taken, coach = _drawn_rects(app)
    assert len(taken) >= 6 and len(coach) >= 3  # the box and its words
    texts = coach[1:]
    assert all(scene.panel.coach.rect.contains(r) for r in texts), "the words stay in the box"
    for r in coach:
        assert r.collidelist(taken) < 0, (size, r, taken)
        assert app.screen.get_rect().contains(r)
    pygame.quit()


def test_the_hovered_button_is_the_last_line(tmp_path, monkeypatch) -> None:
    app = make(tmp_path, monkeypatch, coach=True)
    scene = app.top()
    raise_button = next(b for b in scene.bar.buttons if b.id == "raise")
    post(app, pygame.MOUSEMOTION, pos=raise_button.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    last = scene.coach_lines()[-1]
    assert last.rule == "R-B6"
    assert last.text == "Raise to 20: 10 to call and 10 more; two raises left before the cap"
    pygame.quit()


def test_the_session_keeps_the_hands_events_once() -> None:
    """A comeback's events are the whole hand so far: the coach's list is not doubled."""
    s = Session("Ann")
    msgs = demo.coached(THIRD)
    for m in msgs:
        s.apply(m)
    events = [m for m in msgs if m["type"] == "events"][0]["events"]
    assert s.hand_events == events
    s.reset_for_reconnect()
    for m in msgs:
        s.apply(m)
    assert s.hand_events == events
    s.apply({"type": "events", "hand": 2, "step": 1, "events": events[:1]})
    assert s.hand_events == events[:1]
