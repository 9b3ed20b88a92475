"""Time from start to the first frame: the standalone bundle against ``./scripts/play``.

    .venv/bin/python scripts/starttime.py [--runs 7] [--bundle dist/seventh-street-...]

Each run starts ``stud --smoke`` (``client/smoke.py``: it says ``smoke: first frame`` once
the start screen is drawn, then quits) and waits for that line; the two take turns so a
busy machine slows both alike.  Each run has a fresh HOME (no settings, nothing kept);
the window is SDL's dummy one unless DISPLAY is set.  Prints each one's median and range.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def first_frame(command: list[str], home: str) -> float:
    """Seconds from starting ``command`` to its ``smoke: first frame`` line."""
    env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": f"{home}/config",
           "XDG_DATA_HOME": f"{home}/data", "STUD_MDNS": "off",
           "SDL_AUDIODRIVER": "dummy"}  # fmt: skip
    if not env.get("DISPLAY"):
        env["SDL_VIDEODRIVER"] = "dummy"
    started = time.perf_counter()
    proc = subprocess.Popen([*command, "--smoke"], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    assert proc.stdout is not None
    took = None
    for line in proc.stdout:
        if line.startswith("smoke: first frame") and took is None:
            took = time.perf_counter() - started
    proc.wait(60)
    if took is None:
        raise SystemExit(f"{command[0]} never drew its first frame")
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--bundle", type=Path, help="an unpacked bundle (default: the newest in dist/)")
    args = ap.parse_args()
    folders = [p for p in (ROOT / "dist").glob("seventh-street-*") if p.is_dir()]
    bundle = args.bundle or max(folders, key=lambda p: p.stat().st_mtime, default=None)
    if bundle is None:
        raise SystemExit("no bundle in dist/: ./scripts/bundle makes one")
    commands = {"bundle": [str(Path(bundle).resolve() / "stud")],
                "./scripts/play": [str(ROOT / "scripts" / "play")]}  # fmt: skip
    times: dict[str, list[float]] = {name: [] for name in commands}
    first_frame(commands["./scripts/play"], tempfile.mkdtemp())  # .venv set up, if need be
    for _ in range(args.runs):
        for name, command in commands.items():
            with tempfile.TemporaryDirectory() as home:
                times[name].append(first_frame(command, home))
    for name, took in times.items():
        print(f"{name:>15}: median {statistics.median(took):.2f} s to the first frame "
              f"({min(took):.2f} to {max(took):.2f} s, {len(took)} runs)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
