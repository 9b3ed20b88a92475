"""Client speed (a benchmark, not a test): frames per second and idle CPU, issue 20.

    .venv/bin/python scripts/bench_client.py [--seconds 1] [--rounds 5] [--idle 5]

1. Frames per second drawing the seven-seat table mid-hand at 1280x800 with
   the dummy video driver, in interleaved rounds: the client as it is (the felt
   kept as a layer, plates and buttons from stamps: ``client.render.stamp``)
   against the anchor, the earlier drawing path in the same process (only the
   caches the client had before: words, cards, the felt's background, the side
   panel's pictures; ``set_caching(True, stamps=False)``).  Paired medians, the
   ratio and the target (>= 500 frames/s).  Also the same with the turn clock
   running, every frame 1/60 s later than the one before (a 60 Hz screen's worst
   case: the clock's words and bar change as they do in play).
2. CPU time per second of wall time while the table sits idle in the real loop,
   nothing on screen changing (target <= 1 % of one core): with the way the loop
   sleeps under this driver (``client.pacing``; the dummy driver has no input,
   so it sleeps on the wake-up flag), and with the polling nap a driver without
   SDL's wait gets, for comparison.  A desktop driver blocks in SDL's own wait,
   which this machine (no display) cannot measure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_FPS = 500
TARGET_IDLE = 1.0


class Clock:
    """The table scene's ``time``: the real one, or one moved 1/60 s a frame."""

    def __init__(self) -> None:
        self.now: float | None = None

    def monotonic(self) -> float:
        return time.monotonic() if self.now is None else self.now


def fps(app: Any, seconds: float, *, clock: Clock | None = None) -> float:
    for _ in range(5):
        app.draw()
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if clock is not None and clock.now is not None:
            clock.now += 1 / 60
        app.draw()
        n += 1
    return n / (time.perf_counter() - start)


def idle_cpu(app: Any, seconds: float) -> tuple[float, int]:
    app.step(max_wait=0.01)
    frames0 = app.frames
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall0 < seconds:
        app.step()
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    return 100 * cpu / wall, app.frames - frames0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0, help="per round and path")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--idle", type=float, default=5.0, help="seconds of idle loop, each way")
    args = ap.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()
    os.environ["STUD_MDNS"] = "off"  # measures drawing: nothing browsed or announced
    from client.app import App
    from client.model import Session
    from client.pacing import Nap, waiter_for
    from client.render import stamp
    from client.scenes.table import scene as table_scene
    from client.settings import Settings
    from tests import demo

    clock = Clock()
    table_scene.time = clock  # type: ignore[assignment]
    app = App(Settings(name="Ann", sound=False), size=(1280, 800), save_settings=False)
    app.init_display()
    app.link.session = Session("Ann")
    for msg in demo.mid_hand():
        app.on_message(msg)
    table = app.top()
    table.anims.clear()

    def pair(running: bool) -> tuple[list[float], list[float]]:
        new, old = [], []
        for _ in range(args.rounds):
            for mine in (True, False):
                stamp.set_caching(True, stamps=mine)
                clock.now = time.monotonic() if running else None
                (new if mine else old).append(fps(app, args.seconds, clock=clock))
        stamp.set_caching(True)
        clock.now = None
        return new, old

    for label, running in (("still", False), ("clock running, 1/60 s a frame", True)):
        new, old = pair(running)
        ratios = [a / b for a, b in zip(new, old, strict=True)]
        med = statistics.median(new)
        print(
            f"draw, 7 seats mid-hand, 1280x800, {label}: {med:.0f} frames/s "
            f"(rounds {', '.join(f'{v:.0f}' for v in new)}); anchor, the earlier path: "
            f"{statistics.median(old):.0f} (rounds {', '.join(f'{v:.0f}' for v in old)}); "
            f"ratio {statistics.median(ratios):.2f}x; target >= {TARGET_FPS}: "
            f"{'met' if med >= TARGET_FPS else 'NOT met'}"
        )

    # Idle: the real loop with nothing moving (no clock on screen, no animation).
    s = app.session
    s.time_left = None
    s.clock = None
    s.presence.clear()
    s.recent.clear()
    driver = __import__("pygame").display.get_driver()
    for label, waiter in (
        (f"as this driver ({driver}) sleeps", waiter_for(driver)),
        (f"polling every {1000 * 0.025:.0f} ms (no SDL wait)", Nap()),
    ):
        app.pacer.waiter = waiter
        pct, frames = idle_cpu(app, args.idle)
        print(
            f"idle table, {label} [{waiter.kind}]: {pct:.2f} % of one core "
            f"({frames} frames in {args.idle:.0f} s); target <= {TARGET_IDLE:.0f} %: "
            f"{'met' if pct <= TARGET_IDLE else 'NOT met'}"
        )
    app.link.session = None
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
