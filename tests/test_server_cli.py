"""The headless CLI, the in-process API, the turn clock and address discovery."""

from __future__ import annotations

import asyncio
import ipaddress
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from server.__main__ import _parser, config_from_args
from server.app import lan_addresses, run_in_thread
from server.config import ServerConfig
from tests.serverkit import LOOPBACK, Client, config, run, wait_until
from tests.serverproc import ServerProcess

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parent.parent


def test_help_names_every_option() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "server", "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode == 0
    options = [
        "--host", "--port", "--hands", "--computer", "--password", "--password-file",
        "--start-when", "--grace", "--turn-time", "--time-bank", "--stand-in", "--history-dir",
        "--seed", "--bot-delay", "--name", "--no-announce",
    ]  # fmt: skip
    assert [option for option in options if option not in out.stdout] == []


@pytest.mark.parametrize(
    ("argv", "want"),
    [
        ([], {"plain": "auto", "odds": False, "open_books": False, "books_to_watchers": False}),
        (["--plain", "never"], {"plain": "never"}),
        (["--plain", "allow"], {"plain": "allow"}),
        (["--odds"], {"odds": True}),
        (["--open-books"], {"open_books": True, "books_to_watchers": False}),
        (["--open-books", "--books-to-watchers"], {"open_books": True, "books_to_watchers": True}),
        (["--books-to-watchers"], {"open_books": False, "books_to_watchers": False}),
    ],
)
def test_the_command_line_sets_the_table(argv: list[str], want: dict[str, object]) -> None:
    cfg = config_from_args(_parser().parse_args(argv))
    assert {key: getattr(cfg, key) for key in want} == want


def test_the_defaults_and_what_is_refused() -> None:
    """Plain connections ``auto`` (allowed at a table without a password), no odds."""
    assert ServerConfig().plain == "auto" and ServerConfig().plain_at_start == "allow"
    assert ServerConfig().odds is False
    with pytest.raises(ValueError, match="auto, allow or never"):
        ServerConfig(plain="sometimes")
    with pytest.raises(SystemExit):
        _parser().parse_args(["--plain", "maybe"])


@run
async def test_sigterm_says_bye_and_exits_zero(tmp_path: Path) -> None:
    """The installed ``stud-server``, as the README starts it."""
    stud_server = [str(ROOT / ".venv" / "bin" / "stud-server")]
    options = ["--computer", "1", "--history-dir", str(tmp_path), "--bot-delay", "0"]
    with ServerProcess(tmp_path, *options, "--name", "Friday", program=stud_server) as server:
        at = next(i for i, line in enumerate(server.lines) if "listening on port" in line)
        assert "INFO" in server.lines[at]
        assert wait_until(lambda: len(server.lines) > at + 1)
        assert f"127.0.0.1:{server.port}" in server.lines[at + 1]
        ann = Client("Ann")
        await ann.hello(server.port)
        await ann.expect("lobby")
        server.proc.send_signal(signal.SIGTERM)
        await ann.expect("bye")  # before the close
        assert server.proc.wait(10) == 0


def test_run_in_thread_hosts_a_table_for_a_synchronous_caller(tmp_path: Path) -> None:
    handle = run_in_thread(config(tmp_path, computer=3, start_when=4))
    try:

        async def play() -> dict:
            me = Client("me")
            await me.hello(handle.port)
            return await me.play()

        result = asyncio.run(play())
        assert sum(r["stack"] for r in result["standings"]) == 4 * 600
    finally:
        handle.stop()
        handle.stop()
    assert not handle.thread.is_alive()


def test_lan_addresses_are_reachable_addresses_found_without_traffic() -> None:
    for text in lan_addresses():
        addr = ipaddress.ip_address(text)
        assert not addr.is_loopback and not addr.is_link_local and not addr.is_unspecified


def _server(tmp_path: Path, port: int, **kw) -> subprocess.Popen:
    args = [sys.executable, "-m", "server", "--host", LOOPBACK, "--port", str(port),
            "--history-dir", str(tmp_path), "--no-announce", "--bot-delay", "0"]  # fmt: skip
    return subprocess.Popen(args, stderr=subprocess.PIPE, text=True, cwd=ROOT, **kw)


def test_a_taken_port_says_what_to_do(tmp_path: Path) -> None:
    """Issue 17, point 15: a second server on a taken port says how to start anyway."""
    with socket.socket() as taken:
        taken.bind((LOOPBACK, 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = _server(tmp_path, port, stdin=subprocess.DEVNULL)
        try:
            _, err = proc.communicate(timeout=30)
        finally:
            proc.kill()
    assert proc.returncode == 1
    assert f"port {port} is taken" in err and "--port 0" in err


def _host_commands_line(proc: subprocess.Popen) -> str:
    """The server's log line that says where its host commands come from."""
    assert proc.stderr is not None
    return next(line for line in proc.stderr if "host commands" in line)


def test_host_commands_are_read_from_a_pipe(tmp_path: Path) -> None:
    """Issue 17, point 15: stdin a pipe, not a terminal: ``status`` is still answered,
    two lines written together both read, and the end of input said."""
    proc = _server(tmp_path, 0, stdin=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stderr is not None
        line = _host_commands_line(proc)
        assert "standard input" in line and "status" in line
        proc.stdin.write("status\nbogus\n")
        proc.stdin.flush()
        said = [proc.stderr.readline() for _ in range(2)]
        assert "in the lobby" in said[0] and "seats: none" in said[0]
        assert "commands: pause" in said[1]  # the help for an unknown word
        proc.stdin.close()
        assert "no more host commands" in proc.stderr.readline()
    finally:
        proc.kill()
        proc.wait()


def test_no_host_commands_without_a_pipe_or_terminal_is_said(tmp_path: Path) -> None:
    proc = _server(tmp_path, 0, stdin=subprocess.DEVNULL)
    try:
        assert "no host commands" in _host_commands_line(proc)
    finally:
        proc.kill()
        proc.wait()
