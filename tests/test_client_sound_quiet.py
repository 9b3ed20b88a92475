"""The game starts quietly on a machine without a sound card (issue 33): no lines of ALSA's
C library on the terminal, one line in the game's words that there is no sound.

A real start of the game's window and sound, in a subprocess with SDL's own choice of
audio driver (``scripts/test`` sets ``SDL_AUDIODRIVER=dummy``: unset here), its stderr
counted line by line.  On a machine with a sound card the same start says nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from client.sound import quiet_stderr
from tests.clientkit import ROOT

START = """
import logging
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
from client.app import App
from client.settings import Settings
app = App(Settings(name="Ann"), size=(800, 500), save_settings=False)
app.init_display()  # the window, and the sound as the settings have it (on)
from client import sound
sound.init(enabled=True)  # a way in chosen: the sound made again
sound.set_muted(False)
import pygame
print("mixer" if pygame.mixer.get_init() else "silent")
"""


@pytest.mark.timeout(120)
def test_the_game_starts_without_alsa_noise_and_says_no_sound_once(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"}
    env.update(SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1", STUD_MDNS="off",
               XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"))  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", START], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=100, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stderr.splitlines()
    assert not [line for line in lines if "ALSA lib" in line], done.stderr
    if done.stdout.strip() == "mixer":  # a machine with sound: nothing to say
        assert lines == [], done.stderr
    else:
        assert len(lines) == 1, done.stderr
        assert "No sound" in lines[0] and "in silence" in lines[0], lines[0]


def test_the_quiet_block_gives_stderr_back_even_after_an_error(capfd) -> None:
    with quiet_stderr():
        os.write(2, b"ALSA lib inside\n")
    with pytest.raises(RuntimeError), quiet_stderr():
        os.write(2, b"ALSA lib inside again\n")
        raise RuntimeError("the probe failed")
    os.write(2, b"said after\n")
    assert capfd.readouterr().err == "said after\n"
