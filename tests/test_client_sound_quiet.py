"""The game starts quietly on a machine without a sound card (issues 33, 36): no lines of ALSA's
C library on the terminal, one line in the game's words that there is no sound.

A real start of the game (``client.__main__.main``, its loop left out), in a subprocess with
SDL's own choice of audio driver (``scripts/test`` sets ``SDL_AUDIODRIVER=dummy``: unset
here) and with ALSA's, its stderr read whole (issue 36 point 6).  On a machine with a
sound card the same start says nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from client.sound import NO_SOUND, quiet_stderr
from tests.clientkit import ROOT

START = """
import sys
from client.app import App
App.run = lambda self: None  # the start screen made, then out
from client.__main__ import main
main(sys.argv[1:])  # the window, and the sound as the settings have it (on)
from client import sound
sound.init(enabled=True)  # a way in chosen: the sound made again
import pygame
print("mixer" if pygame.mixer.get_init() else "silent")
"""


@pytest.mark.parametrize("driver", [None, "alsa"], ids=["SDL's choice", "alsa"])
@pytest.mark.timeout(120)
def test_the_game_starts_without_library_noise_and_says_no_sound_once(tmp_path, driver) -> None:
    """``stud`` as a person starts it: no pygame banner, no ALSA lines (forced
    with ``alsa``, which SDL would try where there is no sound card), no log stamps."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("SDL_AUDIODRIVER", "PYGAME_HIDE_SUPPORT_PROMPT")}  # fmt: skip
    env.update(SDL_VIDEODRIVER="dummy", STUD_MDNS="off", XDG_CONFIG_HOME=str(tmp_path / "c"),
               XDG_DATA_HOME=str(tmp_path / "d"))  # fmt: skip
    if driver is not None:
        env["SDL_AUDIODRIVER"] = driver
    done = subprocess.run([sys.executable, "-c", START, "--name", "Ann"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=100, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    if done.stdout.strip() == "mixer":  # a machine with sound: nothing to say
        assert done.stderr == ""
    else:
        assert done.stderr == f"{NO_SOUND}\n"


def test_the_quiet_block_gives_stderr_back_even_after_an_error(capfd) -> None:
    with quiet_stderr():
        os.write(2, b"ALSA lib inside\n")
    with pytest.raises(RuntimeError), quiet_stderr():
        os.write(2, b"ALSA lib inside again\n")
        raise RuntimeError("the probe failed")
    os.write(2, b"said after\n")
    assert capfd.readouterr().err == "said after\n"
