"""The client's connection thread on its own, against hand-made servers on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import time

from client.net import Connection
from common.protocol import FrameDecoder, encode_frame
from tests.serverkit import table_context


def _silent_server() -> tuple[socket.socket, list[dict], threading.Event]:
    """Accepts, welcomes, then reads everything and never answers: a link gone quiet."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    received: list[dict] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            try:  # the game's client seals its links
                conn.settimeout(5)
                conn = table_context().wrap_socket(conn, server_side=True)
            except OSError:
                conn.close()
                continue
            conn.settimeout(0.05)
            decoder = FrameDecoder()
            welcomed = False
            while not stop.is_set():
                try:
                    data = conn.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if not data:
                    break
                received.extend(decoder.feed(data))
                if not welcomed:
                    welcome = {"type": "welcome", "seat": 0, "token": "t", "protocol": 1}
                    conn.sendall(encode_frame(welcome))
                    welcomed = True
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return listener, received, stop


def test_a_silent_link_is_noticed_by_pings_and_retried() -> None:
    listener, received, stop = _silent_server()
    port = listener.getsockname()[1]
    hello = {"type": "hello", "protocol": 1, "name": "Ann"}
    conn = Connection(
        "127.0.0.1", port, lambda: dict(hello), retry_for=5, ping_every=0.05, silence_limit=0.3
    )
    conn.start()
    states: list[str] = []
    deadline = time.monotonic() + 10
    try:
        while time.monotonic() < deadline and "retrying" not in states[1:]:
            for kind, item in conn.poll():
                if kind == "status":
                    states.append(item.state)
            time.sleep(0.02)
    finally:
        conn.close()
        stop.set()
        listener.close()
    assert "retrying" in states[1:], states
    assert any(m.get("type") == "ping" for m in received), "it pinged while waiting"
