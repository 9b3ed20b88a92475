"""The caches change no pixel (issue 20): every frame drawn from kept pictures (stamps,
words, cards, the felt, the side panel's pictures) is the frame drawn from nothing.

``client.render.stamp.set_caching(False)`` turns every drawn-picture cache off; each
scene is drawn cached (twice, so the second frame is all from the caches), then the
state is changed and the frame drawn cached again must equal the one drawn with the
caches off, pixel for pixel: a cache kept past what it shows would show here.  The
table's clock is frozen (``FrozenTime``) so both frames are drawn at the same moment.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from typing import Any

import pygame
import pytest

from client import demo
from client.app import App
from client.demo_hands import demo_match
from client.model import Session
from client.render import stamp
from client.scenes.table import scene as table_scene
from client.settings import Settings
from common.replay import seen_record
from common.schema import SeatView

pytestmark = pytest.mark.timeout(120)

SIZE = (1280, 800)


class FrozenTime:
    """What ``time`` is for the table scene: a clock that moves only when told."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def app(tmp_path, monkeypatch) -> Iterator[App]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    clock = FrozenTime()
    monkeypatch.setattr(table_scene, "time", clock)
    a = App(Settings(name="Ann", sound=False), size=SIZE, save_settings=False)
    a.init_display()
    a.clock = clock  # type: ignore[attr-defined]
    monkeypatch.setattr(a, "send", lambda msg: True)
    stamp.set_caching(True)
    yield a
    stamp.set_caching(True)
    a.session = None
    a.modal = None
    pygame.quit()


def frame(app: App, *, cached: bool = True) -> bytes:
    stamp.set_caching(cached)
    try:
        app.draw()
    finally:
        stamp.set_caching(True)
    assert app.screen is not None
    return pygame.image.tobytes(app.screen, "RGB")


def where_they_differ(a: bytes, b: bytes) -> str:
    w = SIZE[0]
    diff = [i // 3 for i in range(0, len(a), 3) if a[i : i + 3] != b[i : i + 3]]
    if not diff:
        return "same"
    xs, ys = [i % w for i in diff], [i // w for i in diff]
    return f"{len(diff)} pixels differ, within x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}"


def same_as_uncached(app: App, what: str = "") -> None:
    """The frame drawn from the caches is the frame drawn without them (after what the
    loop does before a frame: the scenes updated; nothing laid out again)."""
    for scene in app.scenes:
        scene.update(0.0)
    cached = frame(app)
    fresh = frame(app, cached=False)
    assert cached == fresh, f"{what}: {where_they_differ(cached, fresh)}"


def feed(app: App, msgs: list[dict[str, Any]]) -> None:
    app.session = Session("Ann")
    for m in msgs:
        app.on_message(m)
    for scene in app.scenes:
        scene.resize(app.window_size)
    still(app)


def still(app: App) -> None:
    """Nothing in flight: the table as it lies."""
    for scene in app.scenes:
        anims = getattr(scene, "anims", None)
        if anims is not None:
            anims.clear()


def warm(app: App) -> None:
    """Two cached frames: the second is drawn from what the first kept."""
    frame(app)
    frame(app)


def _replayer(app: App) -> None:
    records = [seen_record(r, 0) for r in demo_match()]
    app.open("replayer", records=records, viewer=0, start=2)


def _lobby(app: App) -> None:
    feed(app, [demo.host_lobby()[0], {**demo.host_lobby()[1], "running": False}])


def _seen(app: App) -> None:
    app.settings.seen_panel = True
    feed(app, demo.mid_hand())


def _coach(app: App) -> None:
    app.settings.coach = True
    feed(app, demo.coached("1:bring_in 2:complete"))
    for b in app.top().bar.buttons:
        b.hover = b.id == "raise"


SCENES: dict[str, Callable[[App], None]] = {
    "start": lambda app: None,
    "lobby": _lobby,
    "mid-hand, 7 seats": lambda app: feed(app, demo.mid_hand()),
    "the cards-seen panel": _seen,
    "the coach": _coach,
    "a showdown": lambda app: feed(app, demo.showdown()),
    "the clock's bank, host's controls": lambda app: feed(app, demo.away_and_clock()),
    "paused": lambda app: feed(app, demo.paused()),
    "we are away": lambda app: feed(app, demo.you_are_away()),
    "the replayer": _replayer,
}


@pytest.mark.parametrize("state", list(SCENES), ids=list(SCENES))
def test_a_cached_frame_is_the_uncached_frame(app, state) -> None:
    SCENES[state](app)
    warm(app)
    same_as_uncached(app, state)


# ---------------------------------------------------------------- state changes


def new_view(app: App, **changes: Any) -> None:
    """The table message again, its view changed (``seats`` maps seat -> field changes)."""
    s = app.session
    assert s is not None and s.view is not None
    seats = dict(s.view.seats)
    for seat, fields in changes.pop("seats", {}).items():
        seats[seat] = dataclasses.replace(seats[seat], **fields)
    view: SeatView = dataclasses.replace(s.view, seats=seats, **changes)
    msg = {"type": "table", "match": "demo", "hand": s.hand, "hands": s.hands,
           "step": 50, "view": view.encode(), "players": demo._players()}  # fmt: skip
    app.on_message(msg)
    still(app)


def _stack(app: App) -> None:
    new_view(app, seats={5: {"stack": 1431}})


def _bet(app: App) -> None:
    new_view(app, seats={6: {"bet": 20, "stack": 521}}, pot=266)


def _deal(app: App) -> None:
    s = app.session
    assert s is not None and s.view is not None
    sv = s.view.seats[1]
    new_view(app, seats={1: {"up": [*sv.up, "Qc"]}})


def _fold(app: App) -> None:
    new_view(app, seats={6: {"folded": True}})


def _name(app: App) -> None:
    s = app.session
    assert s is not None
    s.players[2] = dataclasses.replace(s.players[2], name="Bartholomew")


def _clock(app: App) -> None:
    app.clock.now += 3.3  # type: ignore[attr-defined]


def _hover(app: App) -> None:
    table = app.top()
    call = next(b for b in table.buttons() if b.id == "call")
    app.handle_event(
        pygame.event.Event(pygame.MOUSEMOTION, pos=call.rect.center, rel=(0, 0), buttons=(0, 0, 0))
    )
    assert call.hover or any(b.hover for b in table.buttons())


def _resize(app: App) -> None:
    app.screen = pygame.display.set_mode((1100, 700))
    app.resized()


def _four(app: App) -> None:
    app.set_four_color(True)
    app.top().panel.follow(app.settings)


def _seen_toggle(app: App) -> None:
    app.top().toggle_seen()


def _chat(app: App) -> None:
    app.on_message({"type": "chat", "seat": 1, "name": "Bo", "text": "nice hand"})


def _typing(app: App) -> None:
    chat = app.top().chat
    chat.focused = True
    chat.value = "gl"


def _unhover(app: App) -> None:
    _hover(app)
    frame(app)
    app.handle_event(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0))
    )


def _dialog(app: App) -> None:
    """The rules over the table, then closed: the table must not keep the dialog."""
    app.show_rules()
    frame(app)
    app.modal = None


def _standings(app: App) -> None:
    """The results over the table, then gone back to the lobby's table."""
    app.on_message({"type": "standings", "match": "demo", "hands_played": 8,
                    "standings": [{"place": 1, "seat": 1, "name": "Bo", "stack": 764,
                                   "net": 164, "winner": True}]})  # fmt: skip
    frame(app)
    s = app.session
    assert s is not None
    s.standings = None
    app.sync_scenes()


# Changes after which the table may look as it did before.
LOOK_THE_SAME = {"hover, then away", "a dialog, closed", "the results, gone"}

CHANGES: dict[str, Callable[[App], None]] = {
    "a stack": _stack,
    "a bet": _bet,
    "a card dealt": _deal,
    "a fold": _fold,
    "a name": _name,
    "the clock": _clock,
    "hover": _hover,
    "a window resize": _resize,
    "the deck's colours": _four,
    "the cards-seen panel": _seen_toggle,
    "a chat line": _chat,
    "typing": _typing,
    "hover, then away": _unhover,
    "a dialog, closed": _dialog,
    "the results, gone": _standings,
}


@pytest.mark.parametrize("change", list(CHANGES), ids=list(CHANGES))
def test_a_change_shows_at_once(app, change) -> None:
    feed(app, demo.mid_hand())
    warm(app)
    before = frame(app)
    CHANGES[change](app)
    if change == "a window resize":
        assert app.screen is not None and app.screen.get_size() == (1100, 700)
        for scene in app.scenes:
            scene.resize(app.window_size)
        cached = frame(app)
        fresh = frame(app, cached=False)
        assert cached == fresh
        return
    same_as_uncached(app, change)
    if change not in LOOK_THE_SAME:
        assert frame(app) != before, f"{change} changed nothing on screen: it tests nothing"


def test_the_clock_runs_down_on_the_plate_and_in_the_bar(app) -> None:
    """Second by second: each frame from the caches is the frame drawn fresh."""
    feed(app, demo.away_and_clock())
    warm(app)
    for _ in range(6):
        app.clock.now += 0.7  # type: ignore[attr-defined]
        same_as_uncached(app, "the bank's clock")


def test_stamps_are_used_and_switched_off(app) -> None:
    """The mid-hand table is drawn from stamps, and with the caches off from none."""
    feed(app, demo.mid_hand())
    painter = app.top().painter
    painter._plates.clear()
    frame(app, cached=False)
    assert len(painter._plates) == 0
    frame(app)
    assert len(painter._plates) == 7
