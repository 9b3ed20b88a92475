"""Every screen in the pseudo-language (issue 37): every string of the catalog 40% longer
and accented (``client.i18n.pseudo``), drawn at 800x500, 1280x800 and 1600x1000.

What is checked on each: every text drawn on the window (``blit_text``) inside it and over
no other text or button; every button inside the window, apart from the others and its
label whole (not cut with an ellipsis); and no English word of the catalog on screen (a
string drawn without going through the catalog stays English: found here).  The players'
and tables' names are the data's own words.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pygame
import pytest
from babel.messages.pofile import read_po

from client import i18n, keywarn
from client.app import App
from client.link import KeyProblem
from client.model import Session
from client.net import Status
from client.pins import Pin
from client.render import text as text_module
from client.render.tablelist import PasswordPrompt
from common.replay import seen_record
from tests import demo
from tests.clientkit import feed, resize, simulated

pytestmark = pytest.mark.timeout(120)

SIZES = [(800, 500), (1280, 800), (1600, 1000)]
WORD = re.compile(r"[^\W\d_]+")
with i18n.po_path("de").open("rb") as _fp:  # (every catalog holds the same msgids)
    ENGLISH = {w.lower() for m in read_po(_fp) if m.id
               for s in ([m.id] if isinstance(m.id, str) else m.id)
               for w in WORD.findall(s) if len(w) > 3}  # fmt: skip
DATA = {*demo.NAMES, *(t.name for t in demo.found_tables()), "Hana's table", "Seventh Street",
        "back in a sec, phone"}  # fmt: skip
"""What the data says (players, tables, a chat line): the same in every language."""


def _table(msgs: list[dict[str, Any]]) -> Callable[[App], None]:
    def setup(app: App) -> None:
        app.link.session = Session("Ann")
        feed(app, msgs)

    return setup


def _start(app: App) -> None:
    app.finder = demo.DemoFinder()


def _prompt(app: App) -> None:
    app.finder = demo.DemoFinder()
    app.top().prompt = PasswordPrompt(demo.found_tables()[1])


def _bad_address(app: App) -> None:
    start = app.top()
    start.address.value = "127.0.0.1:99999"  # a port that is not one, said under the box
    start.update(0.0)
    start.choose("join")


def _unfinished(app: App, *, ask: bool = False) -> None:
    ada, cray = SimpleNamespace(name="Ada"), SimpleNamespace(name="Cray")
    found = SimpleNamespace(levels=("shark", "regular"), in_play=True, hand=3, hands=8,
                            hands_played=2, computers=(ada, cray))  # fmt: skip
    app.unfinished_match = lambda: found  # type: ignore[method-assign]
    app.top().enter()
    if ask:
        app.top().choose("play")  # a new match drops it: asked first


def _coach(app: App) -> None:
    app.settings.coach = True
    _table(demo.coached("1:bring_in 2:complete 0:call 1:call 0:bet 1:call 2:raise"))(app)


def _key_changed(app: App) -> None:
    pin = Pin("Hana's table", "192.168.1.31", 7777, "b7c4" * 16)
    keywarn.show(app, KeyProblem("changed", "Hana's table", ("3F9A-3F9A-3F9A-3F9A",),
                                 "B7C4-B7C4-B7C4-B7C4", pin, {}))  # fmt: skip


def _lost(app: App) -> None:
    _table(demo.mid_hand())(app)
    app.link.status = Status("retrying", i18n.gettext("connection lost"), 3, until=app.now() + 99)


def _night_lobby(app: App) -> None:
    app.local.kind = "host"
    app.local.handle = SimpleNamespace(port=7777, stop=lambda **k: None,  # type: ignore[assignment]
                                       server=SimpleNamespace(announcer=1))  # fmt: skip
    _table(demo.night_lobby())(app)
    app.top().addresses = ["192.168.1.20"]


def _leave(app: App) -> None:
    _table(demo.mid_hand())(app)
    app.ask_leave()


def _records() -> list[dict[str, Any]]:
    return [seen_record(r, 0) for r in simulated(seats=7)]


SCREENS: dict[str, Callable[[App], Any]] = {
    "start": _start,
    "join password": _prompt,
    "start, a bad address": _bad_address,
    "start, an unfinished match": _unfinished,
    "drop the unfinished match?": lambda app: _unfinished(app, ask=True),
    "connecting": lambda app: (setattr(app.link, "session", Session("Ann")), app.sync_scenes()),
    "host lobby": _table(demo.host_lobby()),
    "night lobby": _night_lobby,
    "table mid-hand": _table(demo.mid_hand()),
    "showdown": _table(demo.showdown()),
    "away and clock": _table(demo.away_and_clock()),
    "paused": _table(demo.paused()),
    "you away": _table(demo.you_are_away()),
    "coach": _coach,
    "seat asked": lambda app: (
        _table(demo.away_and_clock())(app),
        feed(app, [{"type": "seat_asked", "seat": 2, "name": "Eve", "open": True}]),
    ),  # fmt: skip
    "lost table": _lost,
    "leave": _leave,
    "results": _table([*demo.final_showdown(), demo.standings()]),
    "replayer": lambda app: app.open("replayer", records=_records(), viewer=0, start=2),
    "recap": lambda app: app.open("recap", records=_records(), viewer=0),
    "histories": lambda app: app.open("histories"),
    "rules": lambda app: app.show_rules(),
    "key changed": _key_changed,
}


@contextmanager
def drawn(app: App) -> Iterator[tuple[list[tuple[str, pygame.Rect]], list[str]]]:
    """Inside the block: every text drawn on the window, with its rect, and every string
    made into a picture anywhere (buttons, plates, the log)."""
    placed: list[tuple[str, pygame.Rect]] = []
    made: list[str] = []
    real_blit, real_text = text_module.blit_text, text_module.text

    def blit_text(surf, s, *a, **k):  # type: ignore[no-untyped-def]
        rect = real_blit(surf, s, *a, **k)
        if surf is app.screen and s.strip():
            placed.append((s, rect))
        return rect

    def text(s, *a, **k):  # type: ignore[no-untyped-def]
        made.append(s)
        return real_text(s, *a, **k)

    patched = [(m, n, getattr(m, n)) for m in list(sys.modules.values())
               if (getattr(m, "__name__", "") or "").startswith("client.")
               for n, fake in (("blit_text", blit_text), ("text", text))
               if getattr(m, n, None) in (real_blit, real_text)]  # fmt: skip
    for m, n, _real in patched:
        setattr(m, n, blit_text if n == "blit_text" else text)
    try:
        yield placed, made
    finally:
        for m, n, real in patched:
            setattr(m, n, real)


def english(s: str) -> list[str]:
    """The catalog's English words in ``s`` (the data's names taken out first; a folder's
    path is the data's too)."""
    if os.sep in s and " " not in s:
        return []
    for name in DATA:
        s = s.replace(name, " ")
    return [w for w in WORD.findall(s) if w.isascii() and w.lower() in ENGLISH]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_screen_in_the_pseudo_language_keeps_its_words_in_their_boxes(app, screen) -> None:
    app.finder = demo.DemoFinder()
    app.set_language(i18n.PSEUDO)
    SCREENS[screen](app)
    wrong: list[tuple[Any, ...]] = []
    for size in SIZES:
        resize(app, size)
        app.step(max_wait=0.001)
        window = app.screen.get_rect()
        top = max(i for i, s in enumerate(app.scenes) if s.opaque)
        for layer in [*app.scenes[top:], *([app.modal] if app.modal is not None else [])]:
            for draw, pressed in parts(layer):  # each layer over the one below: on its own
                with drawn(app) as (placed, made):
                    draw(app.screen)
                buttons = [(b.label, b.rect) for b in pressed]
                wrong += [(size, *w) for w in laid_out(window, placed, buttons)]
                wrong += [(size, "cut", b.label) for b in pressed if b.shown()[0] != b.label]
                found = sorted({w for s in made for w in english(s)})
                wrong += [(size, getattr(layer, "name", layer), "English", found)] if found else []
    assert wrong == []


def parts(layer: Any) -> list[tuple[Callable[[pygame.Surface], None], list[Any]]]:
    """What a scene or dialog draws, and its buttons: the start screen's password box (over
    the rest of the screen) apart."""
    prompt = getattr(layer, "prompt", None)
    if prompt is None:
        return [(layer.draw, layer.buttons())]

    def below(surf: pygame.Surface) -> None:
        layer.prompt = None
        try:
            layer.draw(surf)
        finally:
            layer.prompt = prompt

    return [(below, layer.buttons()), (prompt.draw, [prompt.join, prompt.cancel])]


def laid_out(window: pygame.Rect, placed: list, buttons: list) -> Iterator[tuple[Any, ...]]:
    """What is wrong: a text or button outside the window, or over another."""
    for i, (label, rect) in enumerate(buttons):
        if not window.contains(rect):
            yield "outside", label, rect
        yield from (("over", label, o) for o, r in buttons[i + 1 :] if rect.colliderect(r))
    for i, (s, rect) in enumerate(placed):
        if not window.contains(rect):
            yield "outside", s, rect
        yield from (("over", s, rect, o, r) for o, r in placed[i + 1 :]
                    if rect.colliderect(r) and (o, r) != (s, rect))  # fmt: skip
        yield from (("over", s, rect, o, r) for o, r in buttons if rect.colliderect(r))
