#!/usr/bin/env python3
"""A friends' night that crashes twice and loses nothing: the issue's "done when", run.

    STUD_MDNS=off scripts/crash_night.py [--hands 8] [--keep DIR]

Two people, Ann and Bob (``scripts/bot_client.py`` processes that keep their seat tokens on disk, as
the game does) and a computer seat play one match at a headless ``stud-server`` on
127.0.0.1 (never announced).  In hand 2 Bob's process is killed with SIGKILL and started
again; in hand 4 the server itself is killed with SIGKILL mid-hand and started again on
the same history folder and port; the people's processes, trying again meanwhile, come
back by themselves.  The match must
play to its end with every seat back in its place; then the history is checked: each hand
exactly once, every line valid by ``tests/hhcheck.py``, chips conserved, and the
standings equal to the last hand's stacks.  It prints how long each comeback took and
exits non-zero if anything is wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.protocol import PROTOCOL_VERSION, FrameDecoder, Hello, encode_frame  # noqa: E402
from tests.hhcheck import problems  # noqa: E402

TABLE = "Crash night"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Night:
    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.folder = folder
        self.port = free_port()
        self.histories = folder / "histories"
        self.env = dict(os.environ, STUD_MDNS="off", PYTHONUNBUFFERED="1")
        self.server: subprocess.Popen[bytes] | None = None
        self.people: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: list[Any] = []

    def _log(self, name: str) -> Any:
        f = open(self.folder / f"{name}.log", "ab")  # noqa: SIM115 - closed at the end
        self.logs.append(f)
        return f

    def start_server(self) -> None:
        cmd = [
            sys.executable, "-m", "server",
            "--host", "127.0.0.1", "--port", str(self.port), "--no-announce",
            "--history-dir", str(self.histories), "--data-dir", str(self.folder / "server"),
            "--name", TABLE,
            "--computer", "1", "--hands", str(self.args.hands), "--start-when", "3",
            "--bot-delay", "0.1", "--hand-pause", "0.5", "--grace", "3",
        ]  # fmt: skip
        out = self._log("server")
        self.server = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=out, stderr=out)

    def start_person(self, name: str) -> None:
        cmd = [
            sys.executable, str(ROOT / "scripts" / "bot_client.py"),
            "--host", "127.0.0.1", "--port", str(self.port), "--name", name,
            "--keep-token", str(self.folder / f"{name}.token"),
            "--delay", "0.15", "--retry-for", "60",
        ]  # fmt: skip
        out = self._log(name)
        self.people[name] = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=out, stderr=out)

    def kill(self, proc: subprocess.Popen[bytes] | None) -> None:
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()

    def close(self) -> None:
        for proc in [self.server, *self.people.values()]:
            self.kill(proc)
        for f in self.logs:
            f.close()


async def watch(port: int, until: Any, timeout: float = 60.0) -> dict[str, Any]:
    """Watch the table (no hole cards) until ``until(lobby, table)`` says so; the last
    lobby and table view seen.  Retries while the server is not up yet."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)
    hello = Hello(name="Watcher", watch=True).encode()
    hello["protocol"] = PROTOCOL_VERSION
    writer.write(encode_frame(hello))
    decoder = FrameDecoder()
    seen: dict[str, Any] = {"lobby": {}, "table": {}, "standings": None, "seats": {}}
    try:
        while time.monotonic() < deadline:
            data = await asyncio.wait_for(reader.read(65536), deadline - time.monotonic())
            if not data:
                raise ConnectionError("the table closed the watcher")
            for msg in decoder.feed(data):
                kind = msg.get("type")
                if kind == "lobby":
                    seen["lobby"] = msg
                    seen["seats"] = {pl["seat"]: dict(pl) for pl in msg["seats"]}
                elif kind == "table":
                    seen["table"] = msg
                    seen["seats"] = {pl["seat"]: dict(pl) for pl in msg["players"]}
                elif kind == "presence" and msg["seat"] in seen["seats"]:
                    seen["seats"][msg["seat"]]["connected"] = msg["connected"]
                elif kind == "standings":
                    seen["standings"] = msg
                if until(seen):
                    return seen
        raise TimeoutError("the table did not get there in time")
    finally:
        writer.close()


def mid_hand(hand: int, steps: int = 2):  # noqa: ANN201
    """Ready in hand ``hand`` or a later one, ``steps`` steps past its deal and still in
    play (a hand that everyone folds at once is too quick to be caught)."""
    first: dict[int, int] = {}

    def ready(seen: dict[str, Any]) -> bool:
        t = seen["table"]
        if not t or t.get("hand", 0) < hand:
            return False
        start = first.setdefault(t["hand"], t["step"])
        return t["step"] - start >= steps and not t["view"]["over"]

    return ready


def all_back(names: set[str]):  # noqa: ANN201
    def ready(seen: dict[str, Any]) -> bool:
        seats = seen["seats"].values()
        return {s["name"] for s in seats if s["connected"] and s["kind"] == "human"} >= names

    return ready


def check_history(folder: Path, hands: int) -> list[str]:
    files = sorted(folder.glob("*.jsonl"))
    if len(files) != 1:
        return [f"expected one history file, found {len(files)}"]
    lines = [json.loads(line) for line in files[0].read_text().splitlines()]
    out = [f"hand {r['hand']}: {p}" for r in lines for p in problems(r)]
    numbers = [r["hand"] for r in lines]
    if numbers != list(range(1, len(numbers) + 1)):
        out.append(f"hand numbers {numbers}: each hand must be there once, in order")
    if len(numbers) != hands:
        out.append(f"{len(numbers)} hands in the history, the match had {hands}")
    for r in lines:
        start = sum(s["stack"] for s in r["seats"])
        end = sum(f["stack"] for f in r["final"])
        if start != end:
            out.append(f"hand {r['hand']}: {start} chips in, {end} out")
    leftovers = list(folder.glob("*.journal"))
    if leftovers:
        out.append(f"a finished match left a journal behind: {leftovers}")
    return out


async def run(args: argparse.Namespace, folder: Path) -> int:
    night = Night(args, folder)
    times: dict[str, float] = {}
    try:
        night.start_server()
        await watch(night.port, lambda seen: bool(seen["lobby"]), timeout=20)
        for name in ("Ann", "Bob"):
            night.start_person(name)
        seen = await watch(night.port, mid_hand(2))
        print(f"hand {seen['table']['hand']} in play: Bob's game is killed and started again")
        night.kill(night.people["Bob"])
        await watch(night.port, lambda seen: not all_back({"Bob"})(seen), timeout=10)
        t0 = time.monotonic()
        night.start_person("Bob")
        await watch(night.port, all_back({"Ann", "Bob"}), timeout=30)
        times["a person's game killed and started again"] = time.monotonic() - t0

        seen = await watch(night.port, mid_hand(4), timeout=120)
        print(f"hand {seen['table']['hand']} in play: the server is killed and started again")
        night.kill(night.server)
        t0 = time.monotonic()
        night.start_server()  # the people's processes try again by themselves
        await watch(night.port, all_back({"Ann", "Bob"}), timeout=30)
        times["the server killed and started again"] = time.monotonic() - t0

        end = await watch(night.port, lambda seen: seen["standings"] is not None, timeout=300)
    finally:
        night.close()
    for what, took in times.items():
        print(f"comeback after {what}: {took:.2f} s (process start to every seat back)")
    standings = end["standings"]["standings"]
    print("standings:", ", ".join(f"{r['name']} {r['stack']}" for r in standings))
    wrong = check_history(night.histories, args.hands)
    lines = sorted(night.histories.glob("*.jsonl"))
    if lines:
        last = json.loads(lines[0].read_text().splitlines()[-1])
        final = {f["seat"]: f["stack"] for f in last["final"]}
        shown = {r["seat"]: r["stack"] for r in standings}
        if any(shown.get(s, 0) != n for s, n in final.items()):
            wrong.append(f"standings {shown} differ from the last hand's stacks {final}")
    for line in wrong:
        print("WRONG:", line)
    print("history: OK" if not wrong else f"{len(wrong)} problems")
    return 1 if wrong else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, choices=(4, 8, 12), default=8)
    ap.add_argument("--keep", type=Path, help="keep the folder (logs, history) here")
    args = ap.parse_args()
    if args.hands < 8:
        ap.error("the night crashes in hands 2 and 4: play 8 or 12")
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        return asyncio.run(run(args, args.keep))
    with tempfile.TemporaryDirectory(prefix="crash-night-") as tmp:
        return asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
