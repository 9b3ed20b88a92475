"""Helpers for the tests of a real table process under a crowd (``tests/test_server_crowd.py``):
a sealed hello as the game's client says it (TLS, then the password proof), from a chosen
loopback address, and a crowd (``tests.crowd``) run as a process of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

from common.proof import ClientProof, ProofFailed
from common.protocol import FrameDecoder, encode_frame
from common.seal import channel_binding, client_context
from tests.serverproc import ROOT

__all__ = ["Crowd", "sealed_hello"]


async def sealed_hello(
    port: int,
    *,
    name: str,
    password: str,
    source: str = "127.0.0.1",
    token: str | None = None,
    watch: bool = False,
    timeout: float = 20.0,
) -> dict[str, Any]:
    """One sealed connection from ``source``: its hello (with ``token``, the password
    proved, not sent) and the answer: the ``welcome``, the ``error``, or ``{"type":
    "closed"}`` / ``{"type": "timeout"}``.  The connection is closed after."""
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, ssl=client_context(), server_hostname="table",
                local_addr=(source, 0), ssl_handshake_timeout=timeout,
            )  # fmt: skip
            tls = writer.get_extra_info("ssl_object")
            proof = ClientProof(password, channel_binding(tls.getpeercert(binary_form=True)))
            hello: dict[str, Any] = {"type": "hello", "protocol": 2, "name": name,
                                     "pake": proof.start(), "heartbeat": False}  # fmt: skip
            if token is not None:
                hello["token"] = token
            if watch:
                hello["watch"] = True
            writer.write(encode_frame(hello))
            decoder = FrameDecoder()
            while data := await reader.read(65536):
                for msg in decoder.feed(data):
                    if msg["type"] == "proof":
                        try:
                            mac = proof.finish(msg["pake"], msg["mac"])
                        except ProofFailed:
                            return {"type": "error", "code": "no_proof"}
                        writer.write(encode_frame({"type": "proof", "mac": mac}))
                    elif msg["type"] in ("welcome", "error"):
                        return dict(msg)
            return {"type": "closed"}
    except TimeoutError:
        return {"type": "timeout"}
    except (OSError, ssl_errors()) as exc:
        return {"type": "closed", "why": str(exc)}
    finally:
        if writer is not None:
            writer.close()


def ssl_errors() -> type[Exception]:
    import ssl

    return ssl.SSLError


class Crowd:
    """``python -m tests.crowd PORT KIND N``: its last report line in ``last``."""

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

    @property
    def last(self) -> str:
        return self.lines[-1] if self.lines else ""

    def answers(self) -> dict[str, int]:
        """The error codes its connections were answered with, so far (as last reported)."""
        return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", self.last)}

    def opened(self) -> int:
        """The connections it has opened, so far (as last reported)."""
        found = re.match(r"opened (\d+)", self.last)
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
