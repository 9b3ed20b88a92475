"""Shared test setup: client tests run headless, whatever the shell says, nothing
multicasts, and nothing is kept in the user's own data folder.

Set before any test module imports pygame, so no window or sound device is
ever opened (STYLE: client tests run with SDL_VIDEODRIVER=dummy).  ``STUD_MDNS=off``
turns table announcing and browsing off for every server and client the tests
start, subprocesses included; only the tests in ``tests/netns.py``'s private
network namespaces turn it on, there.
"""

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# A server started by a test without a --data-dir keeps its table key in the user data
# folder (server.config.default_data_dir): a folder of the tests' own, never the user's.
_data = os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="stud-tests-data-")
atexit.register(shutil.rmtree, _data, True)

from tests.netns import only_loopback  # noqa: E402

os.environ["STUD_MDNS"] = "off"  # even under scripts/netns, which exports it on: each
# test that multicasts turns it on for itself only (tests.netns.in_netns)
if os.environ.get("STUD_NETNS") != "1" or not only_loopback():
    os.environ.pop("STUD_NETNS", None)

os.environ["LANGUAGE"] = "en"  # the game's language (client.i18n.system_language), here
# and in the games the tests start: English, whatever the machine speaks

import gc  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

_pygame_quit = pygame.quit


def _quit_closing_fonts() -> None:
    """``pygame.quit`` that first lets go of the cached fonts: a font freed after pygame
    has quit keeps its file open, and the tests open hundreds of windows in one process
    (past 1024 descriptors ``select`` fails in unrelated tests)."""
    from client.render import text

    text.clear()
    gc.collect()
    _pygame_quit()


pygame.quit = _quit_closing_fonts


@pytest.fixture(autouse=True)
def _english():
    """Each test starts in English (one that picks a language leaves it behind)."""
    yield
    from client.i18n import set_language

    set_language("en")


@pytest.fixture
def make_client(tmp_path, monkeypatch):
    """Make headless ``client.app.App``s against in-process servers (computer seats at once,
    short pauses, histories in ``tmp_path``); each leaves its table afterwards."""
    import pygame

    from client.app import App
    from client.settings import Settings

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    apps: list[App] = []

    def make(name: str = "Tess", *, offscreen: bool = False, size=(1280, 800), **over) -> App:
        overrides = {"bot_delay": 0.0, "hand_pause": 0.02, "history_dir": tmp_path / "hh", **over}
        app = App(Settings(name=name), size=size, server_overrides=overrides, retry_for=8.0)
        app.init_display(offscreen=offscreen)
        apps.append(app)
        return app

    yield make
    for app in reversed(apps):
        app.leave_table(notice="", send_leave=True)
    pygame.quit()


@pytest.fixture
def app(tmp_path, monkeypatch):
    """Ann's game at 1280x800, headless, with an empty session, its own settings folder
    and histories in ``tmp_path``; what it sends is kept in ``app.sent`` (``True``: as
    a link that took it).  ``tests.clientkit`` feeds it messages and the player's input."""
    from client.app import App
    from client.model import Session
    from client.settings import Settings

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    a = App(Settings(name="Ann"), size=(1280, 800), save_settings=False,
            server_overrides={"history_dir": tmp_path / "hh"})  # fmt: skip
    a.init_display()
    a.link.session = Session("Ann")
    a.sent = []  # type: ignore[attr-defined]
    monkeypatch.setattr(a, "send", lambda msg: a.sent.append(msg) or True)
    yield a
    a.link.session = None
    a.modal = None
    pygame.quit()
