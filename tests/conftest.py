"""Shared test setup: client tests run headless, whatever the shell says, and nothing
multicasts.

Set before any test module imports pygame, so no window or sound device is
ever opened (STYLE: client tests run with SDL_VIDEODRIVER=dummy).  ``STUD_MDNS=off``
turns table announcing and browsing off for every server and client the tests
start, subprocesses included; only the tests in ``tests/netns.py``'s private
network namespaces turn it on, there.
"""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.netns import only_loopback  # noqa: E402

if os.environ.get("STUD_NETNS") != "1" or not only_loopback():
    os.environ["STUD_MDNS"] = "off"
    os.environ.pop("STUD_NETNS", None)
