"""Issue 33 point 1 over real processes on a real full disk (``tests/test_server_disk.py``
on a fake one, a match ending on a full disk included): ``python -m server`` with its
histories on a small tmpfs that fills up mid-match, killed meanwhile.  Mounting one needs
root: skipped otherwise.  ``slow`` (about 10 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from common.protocol import Act
from tests.serverkit import Client, choose, roundtrip, run, take_turns, until
from tests.serverproc import ServerProcess
from tests.test_journal_process import (
    caught_up,
    check_history,
    comeback,
    last_table,
    play_out,
    same_table,
    sit,
)  # fmt: skip

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

NAME = "Full table"


@contextlib.contextmanager
def small_disk(tmp: Path, size: str = "256k") -> Iterator[Path]:
    """A tmpfs of ``size`` at ``tmp/disk``, unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    where = tmp / "disk"
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to its last byte; the file that does it."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for chunk in (65536, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def server(tmp: Path, disk: Path, *, hands: int, port: int = 0) -> ServerProcess:
    return ServerProcess(
        tmp,
        "--computer", "1", "--start-when", "3", "--hands", str(hands),
        "--history-dir", str(disk), "--name", NAME, "--bot-delay", "0",
        "--hand-pause", "0.2", "--turn-time", "0", "--grace", "30", "--seed", "9",
        port=port,
    )  # fmt: skip


async def play_until_waiting(players: list[Client], asked: Client, turn: dict[str, Any]) -> None:
    """Answer ``asked``'s ``turn`` (``take_turns`` stopped at it), then every turn, until
    the table says it waits for its disk."""
    asked.send(Act(turn["turn"], choose(turn, asked.rng)).encode())

    def waits() -> bool:
        return any(p.of_type("waiting") for p in players)

    play = asyncio.get_running_loop().create_task(take_turns(players))
    try:
        assert await until(lambda: waits() or play.done(), timeout=60) and waits(), (
            "the table never said it waits" if not play.done() else "the match ended"
        )
    finally:
        play.cancel()


def steps_seen(players: list[Client], logs: dict[str, list[dict[str, Any]]]) -> None:
    """Every ``table`` frame each person was sent, over all its connections, never goes
    back: no step rewound or shown again."""
    for p in players:
        seen = [(m["hand"], m["step"]) for m in logs[p.name] + p.log if m["type"] == "table"]
        assert seen == sorted(seen), f"{p.name} saw the table go back: {seen}"


@run
async def test_a_full_disk_holds_the_table_and_a_kill_meanwhile_rewinds_nothing(
    tmp_path: Path,
) -> None:
    players = [Client("Ann", seed=1), Client("Bob", seed=2)]
    logs: dict[str, list[dict[str, Any]]] = {p.name: [] for p in players}
    with small_disk(tmp_path) as disk:
        servers = [server(tmp_path, disk, hands=8)]
        try:
            await sit(players, servers[0].port)
            asked, turn = await take_turns(players, lambda p, t: last_table(p)["hand"] >= 2)
            assert turn["type"] == "turn"
            filler = fill(disk)  # during hand 2
            await play_until_waiting(players, asked, turn)
            assert servers[-1].says("cannot save")
            waiting = players[0].of_type("waiting")[-1]
            assert waiting["why"] == "disk_full" and waiting["waiting"] is True
            before = await caught_up(players)  # all that came before the table waits
            print("the players last saw hand", before["Ann"]["hand"], "step", before["Ann"]["step"])
            servers[-1].kill()
            for p in players:
                logs[p.name] += p.log
            # Started again while the disk is still full: it starts and resumes.
            servers.append(server(tmp_path, disk, hands=8, port=servers[-1].port))
            assert servers[-1].says(f"resumed match {before['Ann']['match']} at hand")
            await comeback(players, servers[-1].port, servers[-1].started)
            for p in players:
                await p.seen("lobby")
                await roundtrip(p)
                shown = p.of_type("table")
                if shown and shown[0]["step"] == before[p.name]["step"]:
                    same_table(shown[0], before[p.name])
            print(
                "back after the restart on the full disk:",
                [(m["hand"], m["step"]) for m in players[0].of_type("table")],
                "waiting:", [m["waiting"] for m in players[0].of_type("waiting")],
            )  # fmt: skip
            filler.unlink()  # room again: the table goes on by itself
            standings = await play_out(players)
            steps_seen(players, logs)
            check_history(disk, standings)
            assert standings["hands_played"] == 8
        finally:
            for p in players:
                await p.close()
            for s in servers:
                if s.proc.poll() is None:
                    s.kill()
