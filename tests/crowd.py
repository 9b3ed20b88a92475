"""A crowd at a table's door, as a process of its own: ``python -m tests.crowd PORT KIND N``.

``N`` source addresses 127.2.x.y (loopback only: Linux routes all of 127.0.0.0/8 to
``lo``), each holding ``--each`` connections to 127.0.0.1:``PORT`` and opening another
as soon as one is closed, until killed.  ``KIND``:

- ``silent``: a TCP connection that sends nothing;
- ``halfopen``: a TLS ClientHello, then nothing (the table's handshake left unfinished);
- ``guess``: a plain ``hello`` with a wrong password, again as soon as it is answered.

Every ``--report`` seconds it prints one line to stdout: ``opened N answers CODE=N …``
(the error codes it was answered with, ``bad_password`` being a guess the table checked).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ssl
import sys
from collections import Counter

from common.protocol import FrameDecoder, encode_frame
from common.seal import client_context

__all__ = ["address", "client_hello"]


def address(n: int, base: int = 2) -> str:
    """The ``n``-th address of the crowd: 127.``base``.x.y."""
    return f"127.{base}.{n // 250}.{n % 250 + 1}"


def client_hello() -> bytes:
    """The first flight of a TLS client (its ClientHello), as the game's client sends it."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = client_context().wrap_bio(incoming, outgoing, server_side=False)
    with contextlib.suppress(ssl.SSLWantReadError):
        tls.do_handshake()
    return outgoing.read()


class Crowd:
    def __init__(self, port: int, kind: str) -> None:
        self.port = port
        self.kind = kind
        self.opened = 0
        self.answers: Counter[str] = Counter()
        self.hello = client_hello()

    async def one(self, source: str, n: int) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(source, 0)
                )
            except OSError:
                await asyncio.sleep(0.05)
                continue
            self.opened += 1
            try:
                if self.kind == "halfopen":
                    writer.write(self.hello)
                elif self.kind == "guess":
                    msg = {"type": "hello", "protocol": 1, "name": f"G{n}", "password": f"x{n}"}
                    writer.write(encode_frame(msg))
                decoder = FrameDecoder()
                while data := await reader.read(65536):
                    if self.kind == "halfopen":
                        continue  # the table's handshake: never answered
                    with contextlib.suppress(ValueError):
                        for msg in decoder.feed(data):
                            if msg.get("type") == "error":
                                self.answers[str(msg.get("code"))] += 1
            except OSError:
                pass
            finally:
                writer.close()

    async def report(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            counts = " ".join(f"{k}={v}" for k, v in sorted(self.answers.items()))
            print(f"opened {self.opened} answers {counts}", flush=True)


async def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("kind", choices=("silent", "halfopen", "guess"))
    ap.add_argument("addresses", type=int)
    ap.add_argument("--each", type=int, default=1)
    ap.add_argument("--base", type=int, default=2)
    ap.add_argument("--report", type=float, default=1.0)
    args = ap.parse_args(argv)
    crowd = Crowd(args.port, args.kind)
    tasks = [
        asyncio.create_task(crowd.one(address(n, args.base), n))
        for n in range(args.addresses)
        for _ in range(args.each)
    ]
    print("ready", flush=True)
    await crowd.report(args.report)
    await asyncio.gather(*tasks)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(sys.argv[1:]))
