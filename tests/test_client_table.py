"""The table scene's side panel, headless (SDL_VIDEODRIVER=dummy), without a server.

The table is built from ``tests.demo``'s hand-made messages; input is posted
to pygame's queue and goes through the real loop (``App.step``).  Assertions
look at the scene's state (the log view's lines and offset, the checkbox), not
at pixels.
"""

from __future__ import annotations

import pygame
import pytest

from client.app import App
from client.model import Session
from client.render.logview import WHEEL_LINES
from client.tablelog import MAX_LOG
from tests import demo
from tests.clientkit import click, feed, hover, key, post, run

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def table(app):
    """A seven-seat table mid-hand with a log far longer than the panel."""
    feed(app, demo.mid_hand())
    for i in range(100):
        words = "a long line that wraps over two rows of the panel" if i % 4 == 0 else "gg"
        say(app, f"{i}: {words}")
    app.step(max_wait=0.001)
    scene = app.top()
    assert scene.name == "table"
    assert len(scene.panel.log.lines) > 2 * scene.panel.log.room  # room to scroll
    return app


def say(app: App, words: str, name: str = "Cy") -> None:
    feed(app, [{"type": "chat", "seat": 3, "name": name, "text": words}])


def wheel(app: App, notches: int, at: tuple[int, int]) -> None:
    hover(app, at)
    post(app, pygame.MOUSEWHEEL, x=0, y=notches, flipped=False)


def texts(app: App) -> list[str]:
    return [t for t, _ in app.top().panel.log.visible()]


def test_the_panel_follows_the_newest_line_and_the_wheel_over_it_scrolls_back(table) -> None:
    scene = table.top()
    assert scene.panel.log.following
    assert texts(table)[-1] == "Cy: 99: gg"
    say(table, "hello")
    assert texts(table)[-1] == "Cy: hello"
    before = texts(table)
    wheel(table, 2, at=scene.lay.area.center)  # over the felt
    assert scene.panel.log.following
    wheel(table, 2, at=scene.lay.panel.center)
    assert scene.panel.log.offset == 2 * WHEEL_LINES
    after = texts(table)
    lines = [t for t, _ in scene.panel.log.lines]
    assert after == lines[-scene.panel.log.room - 2 * WHEEL_LINES : -2 * WHEEL_LINES]
    assert after[0] != before[0]
    wheel(table, -1, at=scene.lay.panel.center)
    assert scene.panel.log.offset == WHEEL_LINES


def test_page_up_scrolls_a_page_unless_the_chat_box_has_the_keys(table) -> None:
    scene = table.top()
    log = scene.panel.log
    key(table, pygame.K_PAGEUP)
    assert log.offset == log.room - 1
    key(table, pygame.K_PAGEUP)
    assert log.offset == 2 * (log.room - 1)
    key(table, pygame.K_PAGEDOWN)
    assert log.offset == log.room - 1
    key(table, pygame.K_RETURN)  # into the chat box
    assert scene.panel.chat.focused
    key(table, pygame.K_PAGEUP)
    assert log.offset == log.room - 1


def test_the_whole_log_can_be_reached_and_no_further(table) -> None:
    scene = table.top()
    for _ in range(200):
        wheel(table, 5, at=scene.lay.panel.center)
    first_entry = table.session.log.lines[0].text
    assert texts(table)[0] == first_entry[: len(texts(table)[0])]
    assert scene.panel.log.offset == len(scene.panel.log.lines) - scene.panel.log.room


def test_new_lines_do_not_move_a_scrolled_back_view_until_it_follows_again(table) -> None:
    scene = table.top()
    key(table, pygame.K_PAGEUP)
    shown = texts(table)
    for i in range(5):
        say(table, f"late {i} " + "and long enough to wrap onto a second row" * (i % 2))
        table.step(max_wait=0.001)
        assert texts(table) == shown
    assert scene.panel.log.unseen == 5
    assert not scene.panel.log.following
    click(table, scene.panel.log.hint_rect())  # the newest bar
    assert scene.panel.log.following
    # Scrolling down to the end follows again too.
    key(table, pygame.K_PAGEUP)
    say(table, "while away")
    for _ in range(50):
        wheel(table, -1, at=scene.lay.panel.center)
    assert scene.panel.log.following and scene.panel.log.unseen == 0
    assert texts(table)[-1] == "Cy: while away"
    say(table, "and now")
    assert texts(table)[-1] == "Cy: and now"


def test_the_view_stays_put_while_old_lines_fall_off_the_full_log(table) -> None:
    scene = table.top()
    for i in range(MAX_LOG):
        say(table, f"filler {i}")
    key(table, pygame.K_PAGEUP)
    shown = texts(table)
    for i in range(20):
        say(table, f"more {i}")
    assert len(table.session.log.lines) == MAX_LOG
    assert texts(table) == shown
    assert scene.panel.log.unseen == 20


def test_drawing_changes_nothing(table) -> None:
    scene = table.top()
    key(table, pygame.K_PAGEUP)
    say(table, "unseen")
    log, four = scene.panel.log, scene.panel.four
    state = (log.offset, log.unseen, list(log.lines), four.value)
    for _ in range(3):
        table.draw()
    assert (log.offset, log.unseen, list(log.lines), four.value) == state


def test_a_new_log_starts_the_panel_at_the_newest_line(table) -> None:
    scene = table.top()
    key(table, pygame.K_PAGEUP)
    table.link.session = Session("Ann")  # the scene stays; its log is another one
    feed(table.session, demo.mid_hand())
    assert run([table], lambda: scene.panel.log.following, timeout=2)
    assert texts(table)[-1] == table.session.log.lines[-1].text


def test_the_four_colour_box_follows_the_setting_wherever_it_changes(table) -> None:
    scene = table.top()
    assert scene.panel.four.value is False
    table.set_four_color(True)  # as the start screen does
    assert run([table], lambda: scene.panel.four.value is True, timeout=2)
    table.settings.four_color = False
    assert run([table], lambda: scene.panel.four.value is False, timeout=2)
    click(table, scene.panel.four.rect)
    assert scene.panel.four.value is True
    assert table.settings.four_color is True and table.art.four_color is True
