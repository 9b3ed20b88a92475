"""Issue 17, "Feedback": what the screens say matches what happens (points 8 to 15).

Headless (SDL dummy driver); tables are built from ``client.demo``'s hand-made server
messages or from an in-process server on 127.0.0.1.  Each test names its point.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from client import demo
from client.app import App
from client.model import Session
from client.scenes.results import books_note
from client.settings import Settings

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    a = App(Settings(name="Ann"), size=(1280, 800), save_settings=False)
    a.init_display()
    a.session = Session("Ann")
    yield a
    a.session = None
    pygame.quit()


def feed(app: App, msgs: list[dict]) -> None:
    for m in msgs:
        app.on_message(m)


# ------------------------------------------------------------------ 9: books for the seated


def test_9_a_watcher_without_the_books_is_told_they_are_for_the_seated(app) -> None:
    feed(app, demo.final_showdown())
    s = app.session
    assert s is not None and s.view is not None and s.view.you in s.view.seats
    s.open_books, s.books_to_watchers = True, False
    assert books_note(s) == "The books are opening…"  # a seated player: they come
    s.view = replace(s.view, you=None)  # a watcher
    assert "seated" in books_note(s) and "opening" not in books_note(s)
    s.books_to_watchers = True  # watchers get them too: they are coming
    assert books_note(s) == "The books are opening…"
    s.books_to_watchers = False
    late = max(s.view.seats) + 1  # seated for the next match, not at this one
    s.view = replace(s.view, you=late)
    assert "seated" in books_note(s)


# ------------------------------------------------------------------ 10: paused between hands


def test_10_paused_between_hands_the_footer_agrees_with_the_banner(app) -> None:
    feed(app, demo.river_end())
    table = app.top()
    assert table.between_hands() == "Next hand soon…"
    app.on_message({"type": "paused", "paused": True, "name": "Ann"})
    assert app.session is not None and app.session.paused
    words = table.between_hands()
    assert "soon" not in words and "host" in words
    app.on_message({"type": "paused", "paused": False, "name": "Ann"})
    assert table.between_hands() == "Next hand soon…"
