"""A crowd at a table's door, as a process of its own: ``python -m tests.crowd PORT KIND N``.

``N`` source addresses 127.2.x.y (loopback only: Linux routes all of 127.0.0.0/8 to
``lo``), each holding ``--each`` connections to 127.0.0.1:``PORT`` and opening another
as soon as one is closed, until killed.  ``KIND``:

- ``silent``: a TCP connection that sends nothing;
- ``halfopen``: a TLS ClientHello, then nothing (the table's handshake left unfinished).

Every second it prints one line to stdout: ``opened N``.  ``crowd(port, kind, n)`` runs
one for a test and reads its reports (``Crowd``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from tests.serverkit import Client, client_hello

ROOT = Path(__file__).resolve().parent.parent


def address(n: int) -> str:
    """The ``n``-th address of the crowd: 127.2.x.y."""
    return f"127.2.{n // 250}.{n % 250 + 1}"


class _Door:
    """The crowd's side, in its own process."""

    def __init__(self, port: int, kind: str) -> None:
        self.port = port
        self.kind = kind
        self.opened = 0
        self.hello = client_hello()

    async def one(self, source: str, n: int) -> None:
        while True:
            c = Client(f"G{n}")
            try:
                await c.connect(self.port, source=source)
            except OSError:
                await asyncio.sleep(0.05)  # (the door's backlog is full: knock again)
                continue
            self.opened += 1
            if self.kind == "halfopen":
                c.send_raw(self.hello)  # the table's answer is TLS: never read as frames
            with contextlib.suppress(TimeoutError):
                await c.wait_closed(timeout=3600)
            await c.close()

    async def report(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            print(f"opened {self.opened}", flush=True)


async def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("kind", choices=("silent", "halfopen"))
    ap.add_argument("addresses", type=int)
    ap.add_argument("--each", type=int, default=1)
    args = ap.parse_args(argv)
    crowd = _Door(args.port, args.kind)
    tasks = [
        asyncio.create_task(crowd.one(address(n), n))
        for n in range(args.addresses)
        for _ in range(args.each)
    ]
    print("ready", flush=True)
    await crowd.report()
    await asyncio.gather(*tasks)


class Crowd:
    """``python -m tests.crowd PORT KIND N`` run for a test, its reports in ``lines``."""

    def __init__(self, port: int, kind: str, addresses: int, *, each: int = 1) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.crowd", str(port), kind, str(addresses),
             "--each", str(each)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.ready.wait(30), "the crowd did not start"

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.strip())
            if line.startswith("ready"):
                self.ready.set()

    def opened(self) -> int:
        """The connections it has opened, so far (as last reported)."""
        found = re.match(r"opened (\d+)", self.lines[-1] if self.lines else "")
        return int(found.group(1)) if found else 0

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)


@contextlib.contextmanager
def crowd(port: int, kind: str, addresses: int, *, each: int = 1) -> Iterator[Crowd]:
    c = Crowd(port, kind, addresses, each=each)
    try:
        yield c
    finally:
        c.stop()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(sys.argv[1:]))
