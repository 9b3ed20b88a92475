#!/usr/bin/env python3
"""Play many seeded random hands on this tree's engine and on a commit's, and compare.

    .venv/bin/python scripts/compare_engine.py                       # 100,000 hands vs 54a70ec
    .venv/bin/python scripts/compare_engine.py --ref main --hands 20000 --start 5000

Each hand is ``tests/record_engine.py``'s record (every decision's legal actions, every
event, the table after every step): the commit's ``common`` package is taken out of git
into a temporary folder and the same recorder runs on it in a child process, which
prints one CRC per hand; this tree's engine does the same; the first hands that differ
are printed line by line.  The default commit is the one before the engine was made
faster (issue 20), so "0 differ" means legality and events are unchanged.
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = "54a70ec"
"""The commit before the engine was made faster."""

_CHILD = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("record_engine", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
start, stop, full = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
if full:
    for i in map(int, full):
        print("\\x00".join(mod.hand_record(i)))
else:
    for d in mod.digests(start, stop):
        print(f"{d:08x}")
"""


def _run(tree: Path, *args: object) -> list[str]:
    """Run the recorder with ``tree``'s ``common`` package; its lines of output."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONSAFEPATH": "1"}
    recorder = ROOT / "tests" / "record_engine.py"
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(recorder), *map(str, args)],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.splitlines()


def _extract(ref: str, into: Path) -> None:
    tar = subprocess.run(
        ["git", "archive", ref, "common"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--ref", default=BASE, help=f"commit to compare with (default {BASE})")
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--start", type=int, default=0, help="first hand's index")
    parser.add_argument("--show", type=int, default=3, help="differing hands to print")
    args = parser.parse_args(argv)
    stop = args.start + args.hands
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        _extract(args.ref, base)
        started = time.perf_counter()
        # The two trees' recorders run side by side, one process each.
        theirs_proc = subprocess.Popen(
            [sys.executable, __file__, "--child", str(base), str(args.start), str(stop)],
            stdout=subprocess.PIPE,
            text=True,
        )
        ours = _run(ROOT, args.start, stop)
        theirs = theirs_proc.communicate()[0].splitlines()
        if theirs_proc.returncode:
            return theirs_proc.returncode
        seconds = time.perf_counter() - started
        if len(ours) != len(theirs) or len(ours) != args.hands:
            print(
                f"expected {args.hands} digests, got {len(ours)} here, {len(theirs)} at {args.ref}"
            )
            return 1
        bad = [args.start + i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
        print(
            f"hands {args.start}..{stop - 1}: {args.hands - len(bad)} the same,"
            f" {len(bad)} differ (this tree vs {args.ref}; {seconds:.0f} s)"
        )
        if bad:
            shown = bad[: args.show]
            print(f"first differing hands: {bad[:20]}")
            mine = _run(ROOT, 0, 0, *shown)
            old = _run(base, 0, 0, *shown)
            for index, a, b in zip(shown, mine, old, strict=True):
                print(f"\n--- hand {index} at {args.ref}\n+++ hand {index} here")
                diff = difflib.unified_diff(b.split("\x00"), a.split("\x00"), lineterm="", n=2)
                print("\n".join(list(diff)[2:60]))
    return 1 if bad else 0


def _child(argv: list[str]) -> int:
    tree, start, stop = Path(argv[0]), int(argv[1]), int(argv[2])
    print("\n".join(_run(tree, start, stop)))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        sys.exit(_child(sys.argv[2:]))
    sys.exit(main())
