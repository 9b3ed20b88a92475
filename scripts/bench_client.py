"""Client speed (a benchmark, not a test).

    .venv/bin/python scripts/bench_client.py [--seconds 3]

1. Frames per second drawing the seven-seat table mid-hand at 1280x800 with
   the dummy video driver (target >= 200, so that 60 fps costs little).
2. CPU time per second of wall time while the table sits idle in the real
   loop (target <= 2 % of one core).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()
    os.environ["STUD_MDNS"] = "off"  # measures drawing: nothing browsed or announced
    from client import demo
    from client.app import App
    from client.model import Session
    from client.settings import Settings

    app = App(Settings(name="Ann", sound=False), size=(1280, 800), save_settings=False)
    app.init_display()
    app.session = Session("Ann")
    for msg in demo.mid_hand():
        app.on_message(msg)
    table = app.top()
    table.anims.clear()
    for _ in range(10):  # warm the caches
        app.draw()
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        app.draw()
        n += 1
    fps = n / (time.perf_counter() - start)
    print(f"draw, 7 seats mid-hand, 1280x800: {fps:.0f} frames/s (target >= 200)")

    # Idle: the real loop with nothing moving (no clock on screen, no animation).
    app.session.time_left = None
    app.session.clock = None
    app.session.presence.clear()
    app.session.recent.clear()
    app.step(max_wait=0.01)
    frames0 = app.frames
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall0 < args.seconds:
        app.step()
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    frames = app.frames - frames0
    print(f"idle table: {100 * cpu / wall:.2f} % of one core ({frames} frames in {wall:.1f} s)")
    app.session = None
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
