"""The Join panel lists the tables announced on the network (a table hosted from the game
under its host's name) and joins one with a click.

These tests multicast, so each runs in a private network namespace of its own
(``tests.netns``); the client runs headless (SDL_VIDEODRIVER=dummy) and the
clicks go through pygame's event queue and the real loop.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from client.app import App
from client.render.tablelist import TableList
from client.settings import Settings
from server.app import run_in_thread
from tests.clientkit import click, key, post, run
from tests.netns import in_netns
from tests.serverkit import config

pytestmark = pytest.mark.timeout(120)


def _app(tmp_path: Path, monkeypatch, name: str = "Gus", *, offscreen: bool = False) -> App:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = App(Settings(name=name), size=(1280, 800), save_settings=False, retry_for=5.0)
    app.init_display(offscreen=offscreen)
    return app


def _row_of(found: TableList, name: str) -> pygame.Rect:
    return next(r for t, r in found.rows() if t.name == name)


def test_the_join_panel_lists_the_tables_joins_one_by_click_and_a_hosted_one_by_name(
    request, tmp_path: Path, monkeypatch
) -> None:
    if not in_netns(request):
        return
    den = run_in_thread(config(tmp_path / "den", name="Den", announce=True, computer=2))
    friday = run_in_thread(
        config(tmp_path / "fri", name="Friday", announce=True, password="swordfish", computer=1)
    )
    app = _app(tmp_path, monkeypatch)
    host = _app(tmp_path, monkeypatch, "Hana", offscreen=True)  # a second game, no window
    try:
        start = app.top()
        assert start.name == "start" and app.finder is not None and app.finder.running
        assert run([app], lambda: len(start.found.tables) == 2, timeout=30)
        app.draw()
        assert [t.name for t in start.found.tables] == ["Den", "Friday"]
        d, f = start.found.tables
        assert (d.port, d.seats, d.free, d.password) == (den.port, 2, 5, False)
        assert (f.port, f.seats, f.password) == (friday.port, 1, True)
        # Friday needs a password: the click asks for it, Esc takes the box away.
        click(app, _row_of(start.found, "Friday"), step=False)
        assert run([app], lambda: start.prompt is not None, timeout=5)
        app.draw()
        key(app, pygame.K_ESCAPE, step=False)
        assert run([app], lambda: start.prompt is None, timeout=5)
        assert app.session is None
        # Den needs none: one click and we sit at Den.
        click(app, _row_of(start.found, "Den"), step=False)
        assert run([app], lambda: app.top().name == "lobby" and app.session.lobby.said, timeout=15)
        assert (app.link.conn.host, app.link.conn.port) == ("127.0.0.1", den.port)
        assert app.session.lobby.table == "Den"
        assert [p.name for p in app.session.lobby.seats if p.kind == "human"] == ["Gus"]
        app.draw()
        # Back at the start screen, Den's entry follows the seat we took while we sat there.
        app.leave_table(notice="", send_leave=True)
        assert run([app], lambda: app.top().name == "start", timeout=5)
        # Friday, with its password typed in the box.
        click(app, _row_of(start.found, "Friday"), step=False)
        assert run([app], lambda: start.prompt is not None, timeout=5)
        post(app, pygame.TEXTINPUT, step=False, text="swordfish")
        key(app, pygame.K_RETURN, step=False)
        assert run([app], lambda: app.top().name == "lobby" and app.session.lobby.said, timeout=15)
        assert app.link.conn.port == friday.port and app.session.lobby.table == "Friday"
        # A table that goes away goes from the list.
        den.stop()
        assert run([app], lambda: [t.name for t in start.found.tables] == ["Friday"], timeout=20)
        # A table hosted from the game is announced under its host's name.
        host.top().table_name.value = ""
        host.server_overrides = {"history_dir": tmp_path / "hh", "bot_delay": 0.0}
        host.host_table(hands=4, computers=0, password="", port=0, bind="127.0.0.1")
        assert run([host], lambda: host.top().name == "lobby", timeout=10)
        port = host.server.port
        hanas = lambda: [(t.name, t.seats) for t in start.found.tables if t.port == port]  # noqa: E731
        assert run([app, host], lambda: hanas() == [("Hana's table", 1)], timeout=30)
    finally:
        host.shutdown()
        app.shutdown()
        den.stop()
        friday.stop()
