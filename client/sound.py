"""A short chime for "your turn", synthesised at start-up (no sound files, no numpy).

Every call is safe without an audio device: the chime is then silently skipped.
"""

from __future__ import annotations

import array
import contextlib
import functools
import logging
import math

import pygame

__all__ = ["init", "play_turn"]

log = logging.getLogger(__name__)
_chime: pygame.mixer.Sound | None = None


@functools.cache  # pure Python synthesis: init() runs each time a way to a table is chosen
def _samples(rate: int, channels: int) -> bytes:
    notes = ((880.0, 0.0), (1318.5, 0.11))  # A5 then E6
    length = int(rate * 0.42)
    data = array.array("h", [0] * (length * channels))
    for freq, start in notes:
        s0 = int(start * rate)
        for i in range(s0, length):
            t = (i - s0) / rate
            env = math.exp(-t * 9.0) * min(1.0, t * 400)
            v = int(9000 * env * math.sin(2 * math.pi * freq * t))
            for c in range(channels):
                j = i * channels + c
                data[j] = max(-32767, min(32767, data[j] + v))
    return data.tobytes()


def init(*, enabled: bool = True) -> None:
    global _chime
    _chime = None
    if not enabled:
        return
    try:
        if not pygame.mixer.get_init():
            pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
        rate, size, channels = pygame.mixer.get_init()
        if size != -16:
            return
        _chime = pygame.mixer.Sound(buffer=_samples(rate, channels))
        _chime.set_volume(0.6)
    except Exception as exc:  # no audio device: play on in silence
        log.info("no sound: %s", exc)
        _chime = None


def play_turn() -> None:
    if _chime is not None:
        with contextlib.suppress(Exception):
            _chime.play()
