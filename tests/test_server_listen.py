"""One port for every address family, and what is logged or shown is what listens.

Issue 9, point 1: ``serve --port 0`` listened on 0.0.0.0:46605 and [::]:38121
and logged only 38121, which IPv4 clients could not reach.

The loopback tests bind 127.0.0.1 and ::1 only.  The test of the real CLI
with every interface (``--port 0`` and no ``--host``) runs inside a network
namespace of its own (``unshare --net``, loopback only), as root; elsewhere
it is skipped.
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import pytest

from server import listen
from server.app import run_in_thread
from server.config import ServerConfig

pytestmark = pytest.mark.timeout(120)
ROOT = Path(__file__).resolve().parent.parent
BOTH = [(socket.AF_INET, ("127.0.0.1", 0)), (socket.AF_INET6, ("::1", 0, 0, 0))]


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


needs_v6 = pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback here")


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=5):
            return True
    except OSError:
        return False


@needs_v6
def test_port_0_gives_both_families_the_same_port() -> None:
    socks = listen.listen_sockets(BOTH, 0)
    try:
        ports = {s.getsockname()[1] for s in socks}
        assert len(socks) == 2 and len(ports) == 1
        (port,) = ports
        assert _reachable("127.0.0.1", port) and _reachable("::1", port)
    finally:
        for s in socks:
            s.close()


@needs_v6
def test_a_port_found_free_on_one_family_but_taken_on_the_other_is_tried_again(
    monkeypatch,
) -> None:
    real = listen._bind
    taken: list[int] = []

    def bind(family, addr, port):
        if family == socket.AF_INET6 and not taken:
            taken.append(port)  # as if another program held [::1]:port
            raise OSError(errno.EADDRINUSE, "Address already in use")
        return real(family, addr, port)

    monkeypatch.setattr(listen, "_bind", bind)
    socks = listen.listen_sockets(BOTH, 0)
    try:
        ports = {s.getsockname()[1] for s in socks}
        assert len(socks) == 2 and len(ports) == 1 and taken
    finally:
        for s in socks:
            s.close()


@needs_v6
def test_a_fixed_port_taken_on_the_second_family_fails_and_frees_the_first() -> None:
    with socket.socket(socket.AF_INET6) as squatter:
        squatter.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        squatter.bind(("::1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        with pytest.raises(OSError) as err:
            listen.listen_sockets(BOTH, port)
        assert err.value.errno == errno.EADDRINUSE
    # Nothing is left listening on the IPv4 side.
    assert not _reachable("127.0.0.1", port)


def test_shown_addresses_are_typed_as_people_type_them() -> None:
    assert listen.shown_address("192.168.1.20", 7777) == "192.168.1.20:7777"
    assert listen.shown_address("fd00::2", 7777) == "[fd00::2]:7777"


def test_the_table_server_reports_what_listens(tmp_path: Path) -> None:
    handle = run_in_thread(ServerConfig(host="127.0.0.1", port=0, history_dir=tmp_path))
    try:
        assert handle.server.listening == ["127.0.0.1"]
        assert handle.join_addresses() == ["127.0.0.1"]
        assert _reachable("127.0.0.1", handle.port)
    finally:
        handle.stop()
