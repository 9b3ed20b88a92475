"""One port for every address family, and what is logged or shown is what listens
(issue 9, point 1: ``serve --port 0`` listened on two ports and logged one).

The real CLI on every interface runs in a network namespace of its own (``tests.netns``).
"""

from __future__ import annotations

import errno
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from server import listen
from server.app import run_in_thread
from server.config import ServerConfig
from tests.netns import in_netns

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


# ------------------------------------------------------------------ every interface, for real


def test_serve_port_0_is_joinable_at_the_logged_addresses(request, tmp_path: Path) -> None:
    """The README's command: the game joins at the logged IPv4 address and starts the
    4-hand match; a watcher joins at the logged IPv6 address and sees it begin."""
    if not in_netns(request):
        return
    os.environ["STUD_MDNS"] = "off"  # in_netns turned it on; it sets it back
    from tests.clientkit import run

    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", "0", "--hands", "4", "--computer", "2",
         "--bot-delay", "0", "--hand-pause", "0.05", "--history-dir", str(tmp_path / "hh")],
        stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        lines = []
        for line in proc.stderr:
            lines.append(line)
            if "hand histories go to" in line:
                break
        text = "".join(lines)
        port = int(re.search(r"listening on port (\d+)", text).group(1))
        # Both families listen, on the one port that is logged.
        assert f"0.0.0.0:{port}" in text and f"[::]:{port}" in text, text
        logged = re.findall(r"^\S+ \S+ INFO +server:     (\S+)$", text, re.M)
        assert f"127.0.0.1:{port}" in logged and f"[::1]:{port}" in logged, text
        assert "a 4-hand match" in text
        assert "no network address found: only this machine can join" in text

        import pygame

        from client.app import App
        from client.settings import Settings

        os.environ["XDG_CONFIG_HOME"] = str(tmp_path / "config")
        host = App(Settings(name="Ann"), size=(1280, 800), retry_for=8.0)
        host.init_display()
        watcher = App(Settings(name="Cy"), size=(1280, 800), retry_for=8.0)
        watcher.init_display(offscreen=True)
        try:
            start = host.top()
            start.address.value = f"127.0.0.1:{port}"  # exactly as logged
            start.choose("join")
            assert run([host], lambda: host.top().name == "lobby" and host.session.lobby.said)
            assert host.session.lobby.said.hands == 4 and host.top().choices.hands.value == 4
            wstart = watcher.top()
            wstart.address.value = f"[::1]:{port}"
            wstart.choose("watch")
            assert run(
                [host, watcher],
                lambda: watcher.top().name == "lobby" and watcher.session.lobby.said,
            )
            assert watcher.session.lobby.said.hands == 4
            assert watcher.link.conn.host == "::1" and watcher.link.conn.port == port
            assert host.top().press_start()
            assert run([host, watcher], lambda: {host.top().name, watcher.top().name} == {"table"})
            assert host.session.hands == 4 and watcher.session.hands == 4  # match_start's
        finally:
            watcher.leave_table(notice="", send_leave=True)
            host.leave_table(notice="", send_leave=True)
            pygame.quit()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        finally:
            proc.kill()


def test_hosting_from_the_client_while_7777_is_taken(request, tmp_path: Path) -> None:
    """The lobby showed "fd00::2 port 44887" while IPv6 listened on 44011: now every
    address the lobby shows joins, on the one port both families listen on."""
    if not in_netns(request):
        return
    os.environ["STUD_MDNS"] = "off"  # in_netns turned it on; it sets it back
    import pygame

    from client.app import App
    from client.settings import Settings
    from tests.clientkit import run

    os.environ["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    squatters = []
    for family, addr in ((socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")):
        s = socket.socket(family)
        if family == socket.AF_INET6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        s.bind((addr, 7777))  # someone else's program holds the default port
        s.listen()
        squatters.append(s)
    app = App(
        Settings(name="Hana"),
        size=(1280, 800),
        server_overrides={"bot_delay": 0.0, "history_dir": tmp_path / "hh"},
    )
    app.init_display()
    try:
        app.host_table(hands=4, computers=1, password="")  # every interface, 7777 first
        assert run([app], lambda: app.top().name == "lobby" and app.session.seat == 0)
        port = app.server.port
        assert port != 7777
        assert sorted(app.server.server.listening) == ["0.0.0.0", "::"]
        shown = [t for t, *_ in app.top().header()]
        assert shown == ["No network found: only this computer can join, at",
                         f"127.0.0.1:{port}", f"[::1]:{port}"]  # fmt: skip
        for host in ("127.0.0.1", "::1"):
            with socket.create_connection((host, port), timeout=5):
                pass
    finally:
        app.leave_table(notice="", send_leave=True)
        pygame.quit()
        for s in squatters:
            s.close()


def test_a_family_the_machine_cannot_listen_on_is_left_out(monkeypatch) -> None:
    real = listen._bind

    def bind(family, addr, port):
        if family == socket.AF_INET6:
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return real(family, addr, port)

    monkeypatch.setattr(listen, "_bind", bind)
    socks = listen.listen_sockets(BOTH, 0)
    try:
        assert [s.family for s in socks] == [socket.AF_INET]
    finally:
        for s in socks:
            s.close()


def test_join_addresses_are_only_of_families_that_listen(monkeypatch, tmp_path: Path) -> None:
    from server import app as server_app

    monkeypatch.setattr(server_app, "lan_addresses", lambda: ["192.168.1.20", "fd00::2"])
    server = server_app.TableServer(ServerConfig(history_dir=tmp_path))
    server.listening = ["0.0.0.0"]  # no IPv6 here: its address would be refused
    assert server.join_addresses() == ["192.168.1.20"]
    server.listening = ["0.0.0.0", "::"]
    assert server.join_addresses() == ["192.168.1.20", "fd00::2"]
    server.listening = ["::"]
    assert server.join_addresses() == ["fd00::2"]
    monkeypatch.setattr(server_app, "lan_addresses", lambda: [])
    assert server.join_addresses() == ["::1"]  # no network: this machine only
