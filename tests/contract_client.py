"""An independent wire client written only from docs/protocol.md.

Raw socket + msgpack, own framing: a 4-byte big-endian length, then one
msgpack map with string keys.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time

import msgpack

MAX_FRAME = 65536


class Closed(Exception):
    """The server closed the connection."""


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"port {port} never opened")


def encode(msg: dict) -> bytes:
    body = msgpack.packb(msg, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


class ContractClient:
    def __init__(self, port: int, timeout: float = 5.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""
        self.log: list[dict] = []

    # -- raw ---------------------------------------------------------------
    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, msg: dict) -> None:
        self.send_raw(encode(msg))

    def _fill(self, n: int, deadline: float) -> None:
        while len(self.buf) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame in time")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError as e:
                raise Closed() from e
            if not chunk:
                raise Closed()
            self.buf += chunk

    def recv(self, timeout: float = 5.0) -> dict:
        """The next message, past any ``heartbeat`` (the document: ignore it)."""
        deadline = time.monotonic() + timeout
        while (msg := self._recv_one(deadline)).get("type") == "heartbeat":
            pass
        return msg

    def _recv_one(self, deadline: float) -> dict:
        self._fill(4, deadline)
        (n,) = struct.unpack(">I", self.buf[:4])
        assert n <= MAX_FRAME * 16, f"absurd frame length {n}"
        self._fill(4 + n, deadline)
        body, self.buf = self.buf[4 : 4 + n], self.buf[4 + n :]
        msg = msgpack.unpackb(body, raw=False, strict_map_key=True)
        assert isinstance(msg, dict), f"frame is not a map: {msg!r}"
        assert all(isinstance(k, str) for k in msg), f"non-string key: {msg!r}"
        self.log.append(msg)
        return msg

    def recv_until(self, pred, timeout: float = 5.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if pred(msg):
                return msg

    def recv_type(self, type_: str, timeout: float = 5.0) -> dict:
        return self.recv_until(lambda m: m.get("type") == type_, timeout)

    def drain(self, quiet: float = 0.2) -> list[dict]:
        out = []
        while True:
            try:
                out.append(self.recv(quiet))
            except TimeoutError:
                return out

    def closed_soon(self, timeout: float = 2.0) -> bool:
        """True if the server closes within timeout (frames read meanwhile stay in log)."""
        deadline = time.monotonic() + timeout
        try:
            while True:
                self.recv(max(0.01, deadline - time.monotonic()))
        except Closed:
            return True
        except TimeoutError:
            return False

    # -- protocol ------------------------------------------------------------
    def hello(self, name: str, **extra) -> dict:
        self.send({"type": "hello", "protocol": 1, "name": name, **extra})
        return self.recv()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def frame_has(buf: bytes) -> bool:
    if len(buf) < 4:
        return False
    (n,) = struct.unpack(">I", buf[:4])
    return len(buf) >= 4 + n


def poll(clients: list[ContractClient], timeout: float) -> list[tuple[ContractClient, dict]]:
    """Every complete frame now available on any of the clients, in arrival order per client."""
    import select

    ready = [c for c in clients if frame_has(c.buf)]
    if not ready:
        r, _, _ = select.select([c.sock for c in clients], [], [], timeout)
        ready = [c for c in clients if c.sock in r]
    out = []
    for c in ready:
        if not frame_has(c.buf):
            c.sock.settimeout(0.5)
            chunk = c.sock.recv(65536)
            if not chunk:
                raise Closed()
            c.buf += chunk
        while frame_has(c.buf):
            out.append((c, c.recv(1.0)))
    return out
