"""The scene interface: the app keeps scenes on a stack and talks to the top one.  A scene
knows its host (``client.host.Host``) and opens others by name; ``draw`` changes nothing,
click targets are laid out in ``resize``, ``update`` or on a message."""

from __future__ import annotations

from typing import Any

import pygame

from client.host import Host
from client.render.layout import Scale
from common.protocol.server_messages import ServerMessage

__all__ = ["Scene"]


class Scene(Scale):
    """One screen, laid out on the 1280x800 design (``Scale``).  ``draw`` must change
    nothing; ``update`` advances time."""

    name = "scene"
    opaque = True  # False: the scene below is drawn first (overlays)
    overlay = False  # True: opened over the others with ``Host.open``, closed with ``pop``

    def __init__(self, host: Host) -> None:
        self.host = host

    def enter(self) -> None:
        """Called when the scene becomes the top of the stack."""

    def resize(self, size: tuple[int, int]) -> None:
        """Called on enter and whenever the window changes size."""

    def handle_event(self, event: pygame.event.Event) -> None:
        pass

    def on_message(self, msg: ServerMessage) -> None:
        """A server message the session has just applied."""

    def update(self, dt: float) -> None:
        pass

    def animating(self) -> bool:
        """True while something moves: the app then runs at 60 fps instead of waiting."""
        return False

    def spare(self, seconds: float) -> None:
        """Work in the background in what is left of this frame: about ``seconds`` (0: one
        small slice).  Called once a frame, after drawing, while the window animates."""

    def wake_in(self) -> float | None:
        """Seconds until the scene's picture changes on its own (a clock), None if never."""
        return None

    def draw(self, surface: pygame.Surface) -> None:
        pass

    # For tests and shortcuts: the buttons the player could press now.
    def buttons(self) -> list[Any]:
        return []
