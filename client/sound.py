"""The table's sounds, synthesised at start-up: no sound files, no downloads, no numpy.

``play(name)`` plays one of ``SOUNDS`` under one master volume (0–100) and a mute switch,
both kept in the settings.  Every call is safe without an audio device: the sounds are
then skipped, said once in the log.  The probes for a device run with stderr sent to the
null device (``quiet_stderr``: ALSA's C library prints a dozen lines where there is no
sound card), and a device found missing is not looked for again in the same run.
"""

from __future__ import annotations

import array
import contextlib
import functools
import logging
import math
import os
import random
import sys
from collections.abc import Callable, Iterator

import pygame

__all__ = ["NO_SOUND", "SOUNDS", "init", "play", "quiet_stderr", "samples", "set_muted",
           "set_volume", "start_pygame", "state"]  # fmt: skip

log = logging.getLogger(__name__)

_sounds: dict[str, pygame.mixer.Sound] = {}
_volume = 0.7  # master, 0..1
_muted = False
_no_device = False  # the mixer could not open a device: not looked for again this run
NO_SOUND = "No sound: this computer has no audio device the game can use; it plays on in silence"
"""The one line a start says where there is no sound device (the player's terminal)."""

Wave = Callable[[int], list[float]]  # sample rate -> mono samples in -1..1


def _tone(
    rate: int, freq: float, length: float, decay: float, *, attack: float = 400
) -> list[float]:
    """A decaying sine; the envelope and the sine run as recurrences (no math per sample)."""
    n = int(rate * length)
    k = math.exp(-decay / rate)  # the envelope's factor per sample
    c, sn = math.cos(2 * math.pi * freq / rate), math.sin(2 * math.pi * freq / rate)
    x, y, env = 1.0, 0.0, 1.0  # (cos, sin) of the phase, rotated each sample
    ramp = max(1, int(rate / attack))
    out = [0.0] * n
    for i in range(n):
        out[i] = env * y * (i / ramp if i < ramp else 1.0)
        x, y = x * c - y * sn, x * sn + y * c
        env *= k
    return out


def _noise(rate: int, length: float, decay: float, *, smooth: float, seed: int) -> list[float]:
    """Decaying noise through a one-pole low-pass (``smooth`` near 1: duller)."""
    rng = random.Random(seed)
    n = int(rate * length)
    k = math.exp(-decay / rate)
    ramp = max(1, rate // 2000)
    out, y, env = [0.0] * n, 0.0, 1.0
    for i in range(n):
        y = smooth * y + (1 - smooth) * (rng.random() * 2 - 1)
        out[i] = y * env * (i / ramp if i < ramp else 1.0)
        env *= k
    return out


def _mix(rate: int, parts: list[tuple[float, float, list[float]]]) -> list[float]:
    """Sum ``(start seconds, gain, samples)`` parts into one buffer."""
    end = max(int(start * rate) + len(s) for start, _, s in parts)
    out = [0.0] * end
    for start, gain, s in parts:
        k = int(start * rate)
        out[k : k + len(s)] = [a + gain * b for a, b in zip(out[k : k + len(s)], s, strict=True)]
    return out


def _card(rate: int) -> list[float]:
    return _mix(rate, [(0, 2.2, _noise(rate, 0.07, 60, smooth=0.55, seed=1))])


def _click(rate: int, freq: float, seed: int) -> list[float]:
    return _mix(
        rate,
        [(0, 0.6, _tone(rate, freq, 0.06, 70, attack=3000)),
         (0, 0.8, _noise(rate, 0.03, 140, smooth=0.2, seed=seed))],
    )  # fmt: skip


@functools.cache
def _chips(rate: int) -> list[float]:
    return _mix(
        rate,
        [(0.0, 0.9, _click(rate, 3150, 2)), (0.045, 0.7, _click(rate, 4050, 3)),
         (0.08, 0.55, _click(rate, 3600, 4))],
    )  # fmt: skip


def _check(rate: int) -> list[float]:
    def knock(seed: int) -> list[float]:
        return _mix(
            rate,
            [(0, 1.0, _tone(rate, 150, 0.12, 38, attack=1500)),
             (0, 0.9, _noise(rate, 0.05, 90, smooth=0.85, seed=seed))],
        )  # fmt: skip

    return _mix(rate, [(0.0, 0.9, knock(5)), (0.12, 0.75, knock(6))])


def _fold(rate: int) -> list[float]:
    rng = random.Random(7)
    out, y = [], 0.0
    n = int(rate * 0.22)
    for i in range(n):
        u = i / n
        y = 0.8 * y + 0.2 * rng.uniform(-1, 1)
        out.append(1.6 * y * math.sin(math.pi * u) ** 2)  # a soft swish up and away
    return out


def _win(rate: int) -> list[float]:
    arpeggio = [(0.10 + 0.08 * i, 0.45, _tone(rate, f, 0.45, 7)) for i, f in
                enumerate((1046.5, 1318.5, 1568.0, 2093.0))]  # fmt: skip
    return _mix(rate, [(0.0, 1.0, _chips(rate)), (0.05, 0.8, _chips(rate)), *arpeggio])


def _turn(rate: int) -> list[float]:
    return _mix(rate, [(0.0, 0.28, _tone(rate, 880.0, 0.42, 9)),
                       (0.11, 0.28, _tone(rate, 1318.5, 0.31, 9))])  # fmt: skip


SOUNDS: dict[str, tuple[Wave, float]] = {  # name -> (synthesis, its level under the master)
    "turn": (_turn, 0.85),
    "card": (_card, 0.35),
    "chips": (_chips, 0.5),
    "check": (_check, 0.6),
    "fold": (_fold, 0.35),
    "win": (_win, 0.6),
}


@functools.cache  # pure Python synthesis: init() runs each time a way to a table is chosen
def samples(name: str, rate: int, channels: int) -> bytes:
    """16-bit interleaved PCM of sound ``name`` at ``rate`` Hz."""
    wave, _ = SOUNDS[name]
    mono = array.array("h", [max(-32767, min(32767, int(v * 12000))) for v in wave(rate)])
    if channels == 1:
        return mono.tobytes()
    out = array.array("h", bytes(2 * len(mono) * channels))
    for c in range(channels):
        out[c::channels] = mono
    return out.tobytes()


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Inside the block, file descriptor 2 goes to the null device (another thread's words
    too: keep it to a probe); without a descriptor 2 the block runs as it is."""
    with contextlib.suppress(Exception):
        if sys.stderr is not None:
            sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
        finally:
            os.close(null)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def start_pygame() -> None:
    """``pygame.init()``, its probe for an audio device quiet (the display's words are not)."""
    pygame.display.init()
    with quiet_stderr():
        pygame.init()


def init(*, enabled: bool = True, volume: int | None = None) -> None:
    """Open the mixer and make the sounds; ``enabled`` False is muted (the mixer is left
    closed until the sound is turned on), ``volume`` 0–100."""
    global _muted
    _muted = not enabled
    if volume is not None:
        set_volume(volume)
    _sounds.clear()  # Sound objects die with the mixer (pygame.quit): make them again
    if enabled:
        _load()


def _load() -> None:
    global _no_device
    if _no_device:
        return
    try:
        if not pygame.mixer.get_init():
            with quiet_stderr():
                pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
    except Exception as exc:  # no audio device: play on in silence, said once
        _no_device = True
        log.debug("the mixer could not open an audio device: %s", exc)
        log.info(NO_SOUND)
        return
    try:
        rate, size, channels = pygame.mixer.get_init()
        if size != -16:
            return
        for name in SOUNDS:
            _sounds[name] = pygame.mixer.Sound(buffer=samples(name, rate, channels))
        _apply_volume()
    except Exception as exc:  # a device that will not take our sounds: silence too
        log.info("No sound: %s", exc)
        _sounds.clear()


def _apply_volume() -> None:
    for name, snd in _sounds.items():
        with contextlib.suppress(Exception):
            snd.set_volume(_volume * SOUNDS[name][1])


def set_volume(volume: int) -> None:
    """The master volume, 0 (silent) to 100."""
    global _volume
    _volume = max(0, min(100, int(volume))) / 100
    _apply_volume()


def set_muted(muted: bool) -> None:
    global _muted
    _muted = muted
    if not muted and not _sounds and pygame.get_init():
        _load()


def state() -> tuple[int, bool]:
    """(master volume 0–100, muted)."""
    return round(_volume * 100), _muted


def play(name: str) -> bool:
    """Play sound ``name``; False when muted, silent or without a device."""
    snd = _sounds.get(name)
    if snd is None or _muted or _volume <= 0:
        return False
    with contextlib.suppress(Exception):
        snd.play()
        return True
    return False
