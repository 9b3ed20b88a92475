"""Client speed (a benchmark, not a test): frames per second and idle CPU.

    .venv/bin/python scripts/bench_client.py [--against PATH] [--seconds 1] [--rounds 5]

1. Frames per second drawing the seven-seat table mid-hand at 1280x800 with the dummy
   video driver: the table still, and with the turn clock running (every frame 1/60 s
   later than the one before: the clock's words and bar change as they do in play).
   What a player feels is a frame that takes longer than the screen's 1/60 s: the
   target is a frame well inside it (>= 120 frames/s, half of a 60 Hz frame).
2. CPU time per second of wall time while the table sits idle in the real loop,
   nothing on screen changing (target <= 1 % of one core), with the way the loop
   sleeps under this driver (``client.pacing``) and with the polling nap a driver
   without SDL's wait gets.

``--against PATH``: the same measures, round by round in turn, of the game in another
checkout (a ``git worktree add`` of main, say), and the ratios of this one's to that
one's.  Each measure runs in a process of its own (``--worker``), so the two games
never share a pygame or a cache.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
TARGET_FPS = 120
TARGET_IDLE = 1.0
MEASURES = ("still", "clock", "idle", "idle-poll")


class Clock:
    """The window's clock: the real one, or one moved 1/60 s a frame."""

    def __init__(self) -> None:
        self.now: float | None = None

    def monotonic(self) -> float:
        return time.monotonic() if self.now is None else self.now

    __call__ = monotonic


def _table(clock: Clock) -> Any:
    """The game at ``sys.path[0]``'s checkout, at the seven-seat table mid-hand."""
    from client.app import App
    from client.model import Session
    from client.scenes.table import scene as table_scene
    from client.settings import Settings

    try:  # this checkout: the demo in tests/, messages decoded once, the clock passed in
        from common.protocol.server_messages import decode_server
        from tests import demo

        app = App(Settings(name="Ann", sound=False), size=(1280, 800), save_settings=False,
                  clock=clock)  # fmt: skip
    except ImportError:  # an older one: the demo in client/, dicts, the scene's ``time``
        from client import demo  # type: ignore[no-redef]

        decode_server = None  # type: ignore[assignment]
        table_scene.time = clock  # type: ignore[attr-defined]
        app = App(Settings(name="Ann", sound=False), size=(1280, 800), save_settings=False)
    app.init_display()
    app.link.session = Session("Ann")
    for msg in demo.mid_hand():
        app.on_message(decode_server(msg) if decode_server is not None else msg)
    app.top().motion.anims.clear()
    return app


def _fps(app: Any, clock: Clock, seconds: float, *, running: bool) -> float:
    clock.now = time.monotonic() if running else None
    for _ in range(5):
        app.draw()
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if clock.now is not None:
            clock.now += 1 / 60
        app.draw()
        n += 1
    return n / (time.perf_counter() - start)


def _idle(app: Any, seconds: float, *, poll: bool) -> float:
    """Percent of one core the real loop takes while nothing on screen changes."""
    import pygame

    from client.pacing import Nap, waiter_for

    s = app.session
    if hasattr(s, "clocks"):
        s.clocks.ours, s.clocks.turn = None, None
        s.clocks.dropped.clear()
        s.log.recent.clear()
    else:
        s.time_left, s.clock = None, None
        s.presence.clear()
        s.recent.clear()
    if hasattr(app, "title"):  # the title's "your turn" flash (2.4 s) is over
        app.title.until = 0.0
    else:
        app._flash_until = 0.0
    app.pacer.waiter = Nap() if poll else waiter_for(pygame.display.get_driver())
    app.step(max_wait=0.01)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall0 < seconds:
        app.step()
    return 100 * (time.process_time() - cpu0) / (time.perf_counter() - wall0)


def worker(root: Path, measure: str, seconds: float) -> float:
    sys.path.insert(0, str(root))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()
    os.environ["STUD_MDNS"] = "off"  # measures drawing: nothing browsed or announced
    clock = Clock()
    app = _table(clock)
    if measure in ("still", "clock"):
        return _fps(app, clock, seconds, running=measure == "clock")
    return _idle(app, seconds, poll=measure == "idle-poll")


def _run(root: Path, measure: str, seconds: float) -> float:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", measure, "--root", str(root),
         "--seconds", str(seconds)],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": ""},
    )  # fmt: skip
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", type=Path, help="another checkout to measure in turn")
    ap.add_argument("--seconds", type=float, default=1.0, help="per round and measure")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--worker", choices=MEASURES, help=argparse.SUPPRESS)
    ap.add_argument("--root", type=Path, default=HERE, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.root, args.worker, args.seconds)))
        return 0
    roots = [HERE] + ([args.against.resolve()] if args.against else [])
    got: dict[tuple[Path, str], list[float]] = {(r, m): [] for r in roots for m in MEASURES}
    for _ in range(args.rounds):
        for measure in MEASURES:
            for root in roots:  # in turn: a busy moment of the machine falls on both
                seconds = args.seconds * (3 if measure.startswith("idle") else 1)
                got[root, measure].append(_run(root, measure, seconds))
    words = {"still": "draw, 7 seats mid-hand, 1280x800, still",
             "clock": "draw, the turn clock running, 1/60 s a frame",
             "idle": "idle table, as this driver sleeps",
             "idle-poll": "idle table, polling (no SDL wait)"}  # fmt: skip
    for measure in MEASURES:
        idle = measure.startswith("idle")
        mine = got[HERE, measure]
        med = statistics.median(mine)
        unit = "% of one core" if idle else "frames/s"
        met = med <= TARGET_IDLE if idle else med >= TARGET_FPS
        line = (
            f"{words[measure]}: {med:.2f} {unit}" if idle else f"{words[measure]}: {med:.0f} {unit}"
        )
        line += f" (rounds {', '.join(f'{v:.2f}' if idle else f'{v:.0f}' for v in mine)})"
        if args.against:
            theirs = got[roots[1], measure]
            ratios = [a / b for a, b in zip(mine, theirs, strict=True) if b]
            line += f"; against {roots[1].name}: {statistics.median(theirs):.2f}"
            line += f", ratio {statistics.median(ratios):.2f}x" if ratios else ""
        target = f"<= {TARGET_IDLE:.0f} %" if idle else f">= {TARGET_FPS}"
        print(f"{line}; target {target}: {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
