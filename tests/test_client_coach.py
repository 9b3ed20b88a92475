"""The coach on screen (issue 19): its box and key, the setting, a line clicked opening the
rules at its rule, and its lines never over a card or a plate, measured as drawn."""

from __future__ import annotations

import pygame
import pytest

from client.app import App
from client.model import Session
from client.overlays import RulesOverlay
from client.render.picture import picture_of
from common.history import decode_events
from tests import demo
from tests.clientkit import at_table, click, feed, hover, key

pytestmark = pytest.mark.timeout(60)

THIRD = "1:bring_in 2:complete"  # Bo brings in (2 of clubs), Cy completes: Ann's turn
FIFTH = "1:bring_in 2:complete 0:call 1:call 0:check 1:check 2:check"  # Ann acts first


def make(app: App, size=(1280, 800), *, coach=False, kind="computer", steps=THIRD) -> App:
    """Ann at the computer table (``kind``), three seats, the hand played to ``steps``."""
    at_table(app, demo.coached(steps), size=size, kind=kind, coach=coach)
    return app


def test_on_for_the_first_computer_table_match_only(app) -> None:
    app = make(app)
    scene = app.top()
    assert app.settings.coach_first and scene.coach_on() and scene.panel.coach.box.value
    assert [ln.rule for ln in scene.coach_lines()] == ["R-O1"]
    # The next match: off, as the setting says, until the person turns it on.
    msgs = demo.coached(THIRD)
    for m in msgs:
        if m["type"] == "match_start":
            m["match"] = "next"
    feed(app, msgs)
    app.step(max_wait=0.001)
    assert not app.top().coach_on() and app.top().coach_lines() == []
    key(app, pygame.K_i)
    assert app.settings.coach and app.top().coach_on()
    key(app, pygame.K_i)
    assert not app.settings.coach and not app.top().coach_on()


def test_off_at_a_friends_table(app) -> None:
    app = make(app, kind="")
    scene = app.top()
    assert not app.settings.coach_first and not scene.coach_on()
    box = scene.panel.coach.box
    click(app, box.rect)
    assert app.settings.coach and scene.coach_on() and box.value
    assert scene.panel.coach.rect.h > 0


def test_a_line_clicked_opens_the_rules_at_its_rule(app) -> None:
    app = make(app, coach=True)
    app.show_rules(at="R-A2")
    assert isinstance(app.modal, RulesOverlay) and app.modal.at == "R-A2"
    for rid in ("R-O1", "R-O2", "R-O3", "R-B2", "R-B5", "R-B6", "R-A2", "R-A3", "R-S1", "R-S5"):
        assert rid in app.modal.anchors, rid  # every rule id the coach names has its place
    key(app, pygame.K_ESCAPE)
    assert app.modal is None
    scene = app.top()
    lines = scene.coach_lines()
    rows = scene.panel.coach.rows(lines)
    assert rows and rows[0][0] == "R-O1"
    click(app, rows[0][2])
    assert isinstance(app.modal, RulesOverlay)
    rules = app.modal
    assert rules.at == "R-O1" and rules.offset == min(rules.anchors["R-O1"], rules.max_offset)
    assert rules.offset > 0
    on_top = [ln for ln in rules.visible() if ln[0] == "R-O1"]
    assert on_top, "the rule's line is on screen"
    assert rules.go_to("R-S5") and rules.at == "R-S5"
    assert not rules.go_to("nowhere")


def _drawn_rects(app: App) -> tuple[list[pygame.Rect], list[pygame.Rect]]:
    """(every card's and plate's drawn rect, the coach's drawn rects): each seat's cards
    and plate drawn alone on a clear surface and measured by the pixels they touch."""
    scene = app.top()
    s = app.session
    assert s is not None and s.view is not None
    pic = picture_of(s, app.now())
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
def test_the_coach_covers_no_card_and_no_plate(app, size, steps) -> None:
    app = make(app, size, coach=True, steps=steps)
    scene = app.top()
    # The pointer on the last action button: the longest lines.
    if scene.bar.buttons:
        hover(app, scene.bar.buttons[-1].rect.center)
    lines = scene.coach_lines()
    assert len(lines) == 2
    taken, coach = _drawn_rects(app)
    assert len(taken) >= 6 and len(coach) >= 3  # the box and its words
    texts = coach[1:]
    assert all(scene.panel.coach.rect.contains(r) for r in texts), "the words stay in the box"
    for r in coach:
        assert r.collidelist(taken) < 0, (size, r, taken)
        assert app.screen.get_rect().contains(r)


def test_the_hovered_button_is_the_last_line(app) -> None:
    app = make(app, coach=True)
    scene = app.top()
    raise_button = next(b for b in scene.bar.buttons if b.id == "raise")
    hover(app, raise_button.rect.center)
    last = scene.coach_lines()[-1]
    assert last.rule == "R-B6"
    assert last.text == "Raise to 20: 10 to call and 10 more; two raises left before the cap"


def test_the_session_keeps_the_hands_events_once() -> None:
    """A comeback's events are the whole hand so far: the coach's list is not doubled."""
    s = Session("Ann")
    msgs = demo.coached(THIRD)
    feed(s, msgs)
    wire = [m for m in msgs if m["type"] == "events"][0]["events"]
    events = decode_events(wire)
    assert s.hand_events == events and len(events) == len(wire)
    s.reset_for_reconnect()
    feed(s, msgs)
    assert s.hand_events == events
    feed(s, [{"type": "events", "hand": 2, "step": 1, "events": wire[:1]}])
    assert s.hand_events == events[:1]
