"""Shared test setup: client tests run headless, whatever the shell says.

Set before any test module imports pygame, so no window or sound device is
ever opened (STYLE: client tests run with SDL_VIDEODRIVER=dummy).
"""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
