"""The window's minimum (issue 17 point 7): made smaller than 800×500 by the window
manager, the same window is grown back in place, through the app's event path, never made
again with ``set_mode`` (that destroys and recreates the window under the player's drag)."""

from __future__ import annotations

import pygame
import pytest

from client import window


@pytest.mark.parametrize(("w", "h"), [(640, 400), (700, 900), (1200, 300)])
def test_a_window_made_too_small_is_held_at_the_minimum_in_place(app, monkeypatch, w, h):
    pygame.display.set_mode((w, h), pygame.RESIZABLE)  # the window manager let it shrink
    assert pygame.display.get_surface().get_size() == (w, h)
    shown = pygame.display.get_surface()
    sizes: list[tuple[int, int]] = []
    monkeypatch.setattr(app.top(), "resize", sizes.append)  # what the scenes are told
    made: list[tuple[int, int]] = []
    real = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda *a, **k: made.append(a) or real(*a, **k))
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(w, h), w=w, h=h))
    pygame.event.post(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=w, y=h))
    app.step(max_wait=0.001)
    want = window.clamp((w, h))
    assert made == []  # the window was not made again
    assert pygame.display.get_surface() is shown and shown.get_size() == want
    assert app.screen.get_size() == want and sizes and set(sizes) == {want}
