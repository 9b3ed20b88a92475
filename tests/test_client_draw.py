"""``draw`` changes nothing, and the click targets exist before any draw (STYLE, issue 15).

For every scene and dialog, in a state worth drawing: after ``resize`` and
``update`` (what the loop does before it draws), the scene's attributes are
taken apart, deep, into plain values; ``draw`` twice in a row must leave
them as they were.  A drawn picture kept for the next frame (a cache: any
value that holds a ``pygame.Surface``) is the one thing draw may fill.  Then,
on a fresh scene that was never drawn, its buttons are where ``handle_event``
looks for them, and a click on one does what it says.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import deque
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from client.app import App
from client.model import Session
from client.overlays import RulesOverlay
from common.replay import seen_record
from tests import demo
from tests.clientkit import feed, handle_click, simulated

pytestmark = pytest.mark.timeout(90)

SIZE = (1280, 800)
PICTURE = "<picture>"  # a value holding a drawn surface: a cache draw may fill


def snapshot(obj: Any, path: tuple[int, ...] = ()) -> Any:
    """``obj`` as plain, comparable values, attribute by attribute (the host left out)."""
    if isinstance(obj, pygame.Surface):
        return PICTURE
    if obj is None or isinstance(obj, (bool, int, float, str, bytes, enum.Enum)):
        return obj
    if isinstance(obj, pygame.Rect):
        return ("Rect", tuple(obj))
    if callable(obj) and not hasattr(obj, "__dict__") and not hasattr(obj, "__slots__"):
        return "<callable>"
    if id(obj) in path:
        return "<cycle>"
    path = (*path, id(obj))
    if isinstance(obj, (list, tuple, deque)):
        items = [snapshot(x, path) for x in obj]
        return PICTURE if PICTURE in items else (type(obj).__name__, items)
    if isinstance(obj, (set, frozenset)):
        return ("set", sorted(repr(snapshot(x, path)) for x in obj))
    if isinstance(obj, dict):
        items = [(repr(snapshot(k, path)), snapshot(v, path)) for k, v in obj.items()]
        if any(v == PICTURE for _, v in items):
            return PICTURE
        return ("dict", sorted(items, key=lambda kv: kv[0]))
    if isinstance(obj, (App, pygame.font.Font)) or callable(obj) and not _has_state(obj):
        return "<" + type(obj).__name__ + ">"
    return (type(obj).__name__, {k: snapshot(v, path) for k, v in _attributes(obj).items()})


def _has_state(obj: Any) -> bool:
    return bool(_attributes(obj)) and not isinstance(obj, type)


def _attributes(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            out[f.name] = getattr(obj, f.name)
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if name not in out and hasattr(obj, name) and not name.startswith("__"):
                out[name] = getattr(obj, name)
    out.update(getattr(obj, "__dict__", {}))
    out.pop("host", None)  # the app is not the scene's state
    return out


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    """Where two snapshots differ; a picture on either side is a cache and not compared."""
    if a == b or PICTURE in (a, b):
        return []
    alike = isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) == 2 and a[0] == b[0]
    if alike and isinstance(a[1], dict) and isinstance(b[1], dict):  # an object: by attribute
        keys = sorted(set(a[1]) | set(b[1]))
        return [d for k in keys for d in differences(a[1].get(k), b[1].get(k), f"{where}.{k}")]
    if alike and isinstance(a[1], list) and isinstance(b[1], list) and len(a[1]) == len(b[1]):
        pairs = enumerate(zip(a[1], b[1], strict=True))  # a list or tuple: item by item
        return [d for i, (x, y) in pairs for d in differences(x, y, f"{where}[{i}]")]
    return [f"{where or 'value'}: {a!r:.200} -> {b!r:.200}"]


@pytest.fixture(autouse=True)
def _finder(app) -> None:
    app.finder = demo.DemoFinder()  # the start screen's Join list: two tables found


def _fresh(app: App, msgs: list[dict[str, Any]]) -> None:
    app.link.session = Session("Ann")
    feed(app, msgs)


def _connecting(app: App) -> None:
    app.link.session = Session("Ann")
    app.sync_scenes()


def _seen_demo_match() -> list[dict[str, Any]]:
    return [seen_record(r, 0) for r in simulated()]


LOBBY_WITH_LEVELS = [demo.host_lobby()[0], {**demo.host_lobby()[1], "running": False}]
"""The host's lobby with two computer seats: their level chips are click targets."""

SCENES: dict[str, Callable[[App], Any]] = {
    "start": lambda app: None,
    "connecting": _connecting,
    "lobby": lambda app: _fresh(app, LOBBY_WITH_LEVELS),
    "table mid-hand": lambda app: _fresh(app, demo.mid_hand()),
    "table, host's controls and the bank": lambda app: _fresh(app, demo.away_and_clock()),
    "table at a showdown": lambda app: _fresh(app, demo.showdown()),
    "table paused": lambda app: _fresh(app, demo.paused()),
    "table, we are away": lambda app: _fresh(app, demo.you_are_away()),
    "results": lambda app: _fresh(app, [*demo.final_showdown(), demo.standings()]),
    "replayer": lambda app: app.open("replayer", records=_seen_demo_match(), viewer=0, start=2),
    "recap": lambda app: app.open("recap", records=_seen_demo_match(), viewer=0),
    "histories": lambda app: app.open("histories"),
}


def _settle(app: App) -> None:
    """What the loop does before a frame: every scene resized and updated."""
    for scene in app.scenes:
        scene.resize(app.window_size)
    for scene in app.scenes:
        scene.update(1 / 60)
    if app.modal is not None:
        app.modal.resize(app.window_size)
        app.modal.update(1 / 60)


@pytest.mark.parametrize("state", list(SCENES), ids=list(SCENES))
def test_the_buttons_are_laid_out_before_any_draw_and_draw_changes_nothing(app, state) -> None:
    SCENES[state](app)
    _settle(app)
    window = pygame.Rect((0, 0), SIZE)
    for b in app.top().buttons():  # never drawn: every button on offer has its place
        assert b.rect.w > 10 and b.rect.h > 10 and window.contains(b.rect), (state, b.id)
    assert app.frames == 0
    for scene in app.scenes:
        if scene.name == "table":
            scene.motion.anims.clear()  # a still table: draw must not move it either way
    surf = pygame.Surface(SIZE)
    for scene in app.scenes:
        before = snapshot(scene)
        scene.draw(surf)
        first = snapshot(scene)
        scene.draw(surf)
        second = snapshot(scene)
        assert differences(before, first) == [], f"{scene.name}: the first draw changed it"
        assert differences(first, second) == [], f"{scene.name}: the second draw changed it"


@pytest.mark.parametrize(
    "make", ["rules", "leave?"], ids=["the rules", "are you sure you want to leave"]
)
def test_a_dialog_draw_changes_nothing(app, make) -> None:
    feed(app, demo.mid_hand())
    if make == "rules":
        app.show_rules()
    else:
        app.ask_leave()
    assert app.modal is not None
    _settle(app)
    surf = pygame.Surface(SIZE)
    before = snapshot(app.modal)
    app.modal.draw(surf)
    app.modal.draw(surf)
    assert differences(before, snapshot(app.modal)) == []
    assert isinstance(app.modal, RulesOverlay) or app.modal.kind == "leave"


def test_the_lobby_level_chips_are_clicked_without_a_draw(app) -> None:
    """The host clicks a computer seat's level before the lobby was ever drawn (issue 10)."""
    SCENES["lobby"](app)
    _settle(app)
    lobby = app.top()
    assert lobby.name == "lobby" and lobby.level_chips, "the chips are laid out in update"
    seat, chip = lobby.level_chips[0]
    handle_click(app, chip)
    assert app.frames == 0
    assert [m for m in app.sent if m.get("type") == "level" and m.get("seat") == seat]


def test_the_table_buttons_are_clicked_without_a_draw(app) -> None:
    """Our turn at the table: a click on Call sends it, the scene never drawn."""
    feed(app, demo.mid_hand())
    _settle(app)
    table = app.top()
    call = next(b for b in table.buttons() if b.id == "call")
    handle_click(app, call.rect)
    assert app.frames == 0
    assert [m for m in app.sent if m.get("type") == "act" and m.get("action") == "call"]


def test_the_start_screen_placeholder_follows_the_name_without_a_draw(app) -> None:
    start = app.top()
    start.name_in.value = "Zoe"
    start.update(0.0)
    assert start.table_name.placeholder == "Zoe's table"
