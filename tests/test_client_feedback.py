"""Issue 17, "Feedback": what the screens say matches what happens (points 9 to 15; point 8, a
wrong password said in the dialog, is in tests/test_client_join_refusals.py).

Headless (SDL dummy driver); tables are built from ``tests.demo``'s hand-made server
messages or from an in-process server on 127.0.0.1.  Each test names its point.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from client import keys
from client.overlays import RulesOverlay
from client.render.text import font
from client.render.widgets import TextInput
from client.scenes.recap import RecapScene
from client.scenes.replayer import ReplayerScene
from client.scenes.results import books_note
from client.scenes.start import StartScene
from client.settings import Settings
from tests import demo
from tests.clientkit import feed, key, run, simulated

pytestmark = pytest.mark.timeout(90)


# ------------------------------------------------------------------ 9: books for the seated


def test_9_a_watcher_without_the_books_is_told_they_are_for_the_seated(app) -> None:
    def books(to_watchers: bool) -> None:
        lobby = demo._lobby(True, open_books=True, books_to_watchers=to_watchers)
        feed(app, [lobby])

    feed(app, demo.final_showdown())
    books(to_watchers=False)
    s = app.session
    assert s is not None and s.view is not None and s.view.you in s.view.seats
    assert books_note(s) == "The books are opening…"  # a seated player: they come
    s.view = replace(s.view, you=None)  # a watcher
    assert "seated" in books_note(s) and "opening" not in books_note(s)
    books(to_watchers=True)  # watchers get them too: they are coming
    assert books_note(s) == "The books are opening…"
    books(to_watchers=False)
    late = max(s.view.seats) + 1  # seated for the next match, not at this one
    s.view = replace(s.view, you=late)
    assert "seated" in books_note(s)


# ------------------------------------------------------------------ 10: paused between hands


def test_10_paused_between_hands_the_footer_agrees_with_the_banner(app) -> None:
    feed(app, demo.river_end())
    table = app.top()
    assert table.between_hands() == "Next hand soon…"
    feed(app, [{"type": "paused", "paused": True, "name": "Ann"}])
    assert app.session is not None and app.session.clocks.paused
    words = table.between_hands()
    assert "soon" not in words and "host" in words
    feed(app, [{"type": "paused", "paused": False, "name": "Ann"}])
    assert table.between_hands() == "Next hand soon…"


# ------------------------------------------------------------------ 12: one key, one meaning


def _letter(k: str) -> bool:
    return len(k) == 1 and k.isalpha()


def test_12_no_letter_is_written_twice_in_the_keyboard_tables() -> None:
    """A dict literal that names a letter twice keeps the last silently: one meaning
    would vanish from MEANING and a scene's button would press the other's action."""
    tree = ast.parse(Path(keys.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            names = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_12_every_scene_key_table_means_one_thing_and_the_rules_list_them(app) -> None:
    # Across the scenes' own tables, a letter presses one meaning only.
    meanings: dict[str, set[str]] = {}
    for scene, bound in keys.SCENES.items():
        for k in bound:
            assert k in keys.MEANING, (scene, k)
            meanings.setdefault(k, set()).add(keys.MEANING[k])
    assert all(len(m) == 1 for m in meanings.values())
    # The buttons drawn show the key their scene's table gives them, and no other letter.
    records = simulated(hands=4)
    start = StartScene(app)
    replayer = ReplayerScene(app, records, viewer=0)
    recap = RecapScene(app, records, viewer=0)
    feed(app, demo.final_showdown())
    table = app.top()
    feed(app, [demo.standings()])
    results = app.top()
    assert results.name == "results"
    for name, scene in [("start", start), ("replayer", replayer), ("results", results),
                        ("table", table), ("recap", recap)]:  # fmt: skip
        shown = {b.id: b.key for b in scene.buttons() if _letter(b.key)}
        if name == "start":
            shown |= {b.id: b.key for b in (start.resume,)}
        for bid, k in shown.items():
            want = "away" if bid == "back" else bid
            assert keys.SCENES[name].get(k) == want, (name, bid, k)
    # The named clashes of issue 17 are gone.
    assert keys.key_of("results", "recap") == keys.key_of("replayer", "recap") == "O"
    assert keys.key_of("results", "rematch") not in ("R", "H", "M")
    assert keys.key_of("start", "histories") == keys.key_of("results", "replay") == "H"
    assert keys.key_of("start", "play") != keys.key_of("table", "pause")
    # The rules overlay (F1) lists every key with its meaning.
    overlay = RulesOverlay(app)
    listed = [b.text for b in overlay.blocks]
    assert "Keys" in listed
    for k, meaning in keys.lines():
        assert f"{k}: {meaning}" in listed
    drawn = {line[0] for line in overlay.lines}
    assert "O: The match's recap" in drawn
    # Issue 19: I, the coach; W, the odds: at the table only, and the rules list them.
    for letter, action in (("I", "coach"), ("W", "odds")):
        assert keys.key_of("table", action) == letter and action in keys.MEANING[letter].lower()
        assert (letter, keys.MEANING[letter]) in keys.lines()
        assert sum(letter in table for table in keys.SCENES.values()) == 1
    # And the keys press what their table says.
    app.push(replayer)
    key(app, pygame.K_o)
    assert isinstance(app.top(), RecapScene)
    key(app, pygame.K_ESCAPE)
    assert app.top() is replayer
    key(app, pygame.K_r)  # R is Raise at the table: the replayer does nothing with it
    assert app.top() is replayer


# ------------------------------------------------------------------ 14: the name field


def _down(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def _type(field, text: str) -> None:
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=text))


def test_14_the_default_name_is_selected_on_first_focus_and_typing_replaces_it(app) -> None:
    app.settings = Settings()
    start = StartScene(app)
    name = start.name_in
    assert name.value == "Player" and name.select_first
    app.draw()
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=name.rect.center)
    start.handle_event(click)
    assert name.focused and name.selection() == (0, 6)
    _type(name, "J")
    _type(name, "o")
    assert name.value == "Jo"


def test_14_ctrl_a_selects_all_and_a_click_places_the_cursor(app) -> None:
    field = TextInput("name", "Charlotte", max_len=20, size=26)
    field.rect = pygame.Rect(100, 100, 300, 48)
    surf = pygame.Surface((600, 300))
    # A click between "Char" and "lotte" puts the cursor there, not at the end.
    x = field.rect.x + 10 + font(26).size("Char")[0]
    field.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, 120)))
    assert field.focused and field.at() == 4 and field.selection() == (4, 4)
    _type(field, "X")
    assert field.value == "CharXlotte"
    field.handle_event(_down(pygame.K_BACKSPACE))
    assert field.value == "Charlotte" and field.at() == 4
    field.draw(surf)  # the cursor drawn mid-word
    # Ctrl+A selects it all; typing replaces it; Backspace on a selection clears it.
    assert field.handle_event(_down(pygame.K_a, pygame.KMOD_LCTRL))
    assert field.selection() == (0, 9) and field.value == "Charlotte"  # no "a" typed
    field.draw(surf)
    _type(field, "Bo")
    assert field.value == "Bo" and field.at() == 2
    field.handle_event(_down(pygame.K_a, pygame.KMOD_LCTRL))
    field.handle_event(_down(pygame.K_BACKSPACE))
    assert field.value == ""
    # A name of one's own is not selected on first focus.
    own = TextInput("name", "Ann")
    own.focused = True
    own.draw(surf)
    assert own.selection() == (3, 3)


# ------------------------------------------------------------------ 11: the computer table


def test_11_the_computer_table_shows_only_what_means_something_there(make_client) -> None:
    app = make_client("Tess", bot_delay=0.05)
    app.play_computer(2, 4)
    assert run([app], lambda: app.top().name == "table" and app.session.view is not None)
    table = app.top()
    app.draw()
    ids = [b.id for b in table._control_buttons()]
    assert ids == ["pause"]  # no Step away, no Take a seat… (Pause: a solo player's break)
    assert table.panel.solo and table.controls.pause.rect.w > table.panel.leave.rect.w
    # No chat line: Enter does not open one and typing goes nowhere.
    key(app, pygame.K_RETURN)
    assert not table.panel.chat.focused
    assert table.panel.log.rect.bottom > table.panel.chat.rect.top  # the log has its room
    key(app, "a")  # A, Step away, means nothing here
    assert not app.session.away()
