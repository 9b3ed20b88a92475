"""The scenes' host and registry (issue 15): scenes open each other by name, and the app
is a ``client.host.Host``."""

from __future__ import annotations

import inspect

import pytest

from client.app import App
from client.host import Host
from client.registry import Registry
from client.scenes import register_scenes
from client.settings import Settings


def test_every_scene_is_registered_under_its_name() -> None:
    reg = register_scenes(Registry())
    assert reg.names() == sorted(
        ["start", "connecting", "lobby", "table", "results", "replayer", "recap", "histories"]
    )


def test_an_unknown_name_or_a_second_registration_is_refused() -> None:
    reg = register_scenes(Registry())
    with pytest.raises(KeyError, match="no scene 'nope'"):
        reg.make("nope", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="already registered"):
        reg.register("table", lambda host: None)  # type: ignore[arg-type,return-value]


def test_the_app_has_everything_a_host_offers() -> None:
    """Every name of the Host protocol is on App (what scenes may use, and no more)."""
    wanted = {
        n
        for n, _ in inspect.getmembers(Host)
        if not n.startswith("_") and n not in dir(object) and n != "register"
    } | {n for part in Host.__mro__ for n in getattr(part, "__annotations__", {})}
    app = App(Settings(name="Ann"), size=(1280, 800), save_settings=False)
    missing = sorted(n for n in wanted if not hasattr(App, n) and n not in vars(app))
    assert missing == []
    assert {"session", "send", "now", "open", "connect"} <= wanted  # the three parts' names
