"""The idle loop (issue 20): it sleeps without waking for nothing, and draws only when
something on screen may have changed: input, a word from the network thread, or a
scene's clock coming due.  Asserts what was drawn, never how long anything took."""

from __future__ import annotations

import threading

import pygame
import pytest

from client.app import App
from client.pacing import FlagOnly, Nap, Pacer, SdlWait, waiter_for
from tests import demo
from tests.clientkit import feed, hover

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(autouse=True)
def _quiet(app) -> None:
    app.pacer.waiter = FlagOnly()  # the dummy driver's own way to sleep, whatever STUD_IDLE says


def settle(app: App) -> None:
    app.title.until = 0.0  # the title's "your turn" flash is over
    pygame.event.get()  # the window's own first events
    app.step(max_wait=0.01)
    assert not app.dirty


def test_the_way_to_sleep_follows_the_driver(monkeypatch) -> None:
    monkeypatch.delenv("STUD_IDLE", raising=False)
    assert isinstance(waiter_for("dummy"), FlagOnly)  # no input can come: no polling
    assert isinstance(waiter_for("kmsdrm"), Nap)  # unknown: polled as before
    native = waiter_for("x11")  # (pygame is up: the app fixture's, as for every test here)
    assert isinstance(native, (SdlWait, Nap))  # SdlWait wherever SDL is reached
    monkeypatch.setenv("STUD_IDLE", "poll")
    assert isinstance(waiter_for("x11"), Nap)
    monkeypatch.setenv("STUD_IDLE", "flag")
    assert isinstance(waiter_for("x11"), FlagOnly)


def test_a_wake_ends_the_wait_and_says_so() -> None:
    pacer = Pacer()
    pacer.waiter = FlagOnly()
    pygame.event.get()
    assert pacer.idle_wait(0.02) == [] and not pacer.woken
    threading.Timer(0.01, pacer.wake).start()
    assert pacer.idle_wait(30.0) == [] and pacer.woken  # not the 30 s
    pygame.event.post(pygame.event.Event(pygame.USEREVENT))
    assert [e.type for e in pacer.idle_wait(30.0)] == [pygame.USEREVENT]


def test_an_idle_table_is_not_drawn_again(app) -> None:
    feed(app, demo.mid_hand())
    app.top().motion.anims.clear()
    clocks = app.session.clocks
    clocks.ours, clocks.turn = None, None
    clocks.dropped.clear()
    settle(app)
    frames = app.frames
    for _ in range(3):
        app.step(max_wait=0.01)
    assert app.frames == frames, "nothing changed, yet the table was drawn again"
    app.pacer.wake()  # a word from the network thread (or the table finder)
    app.step(max_wait=5.0)
    assert app.frames == frames + 1
    hover(app, (3, 3), step=False)
    app.step(max_wait=5.0)
    assert app.frames == frames + 2


def test_a_scene_clock_coming_due_is_drawn(app) -> None:
    """Our turn's clock (``wake_in``) is drawn again as it comes due, idle or not."""
    feed(app, demo.mid_hand())
    app.top().motion.anims.clear()
    assert app.top().wake_in() is not None
    settle(app)
    frames = app.frames
    app.step(max_wait=5.0)  # sleeps only until the clock's next quarter second
    assert app.frames == frames + 1
