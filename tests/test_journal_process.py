"""Issue 16 items 3 and 6 over real processes: ``python -m server`` killed with SIGKILL
at several points of a match and started again on the same history folder resumes the
match; its people come back with their tokens and see the very same table (their own
``table`` frame, field by field; presence may differ), and the match plays to the end
with a valid history, each hand once, the chips adding up and the standings right.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from common.match import START_STACK
from common.protocol import Start
from tests import hhcheck
from tests.serverkit import LOOPBACK, Client, history, roundtrip, run, take_turns, until
from tests.serverproc import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
NAME = "Kill table"
PRESENCE = {"connected", "away", "away_why", "stand_in"}

pytestmark = pytest.mark.timeout(120)


def Server(tmp: Path, *, port: int = 0, hand_pause: float = 0.2) -> ServerProcess:  # noqa: N802
    return ServerProcess(
        tmp,
        "--computer", "1", "--start-when", "3", "--hands", "4",
        "--history-dir", str(tmp / "histories"), "--name", NAME, "--bot-delay", "0",
        "--hand-pause", str(hand_pause), "--turn-time", "0", "--grace", "30", "--seed", "5",
        port=port,
    )  # fmt: skip


def last_table(client: Client) -> dict[str, Any]:
    return client.of_type("table")[-1]


def same_table(got: dict[str, Any], want: dict[str, Any]) -> None:
    """The seat's own ``table`` frame, field by field; presence fields may differ."""
    for key in ("match", "hand", "hands", "step"):
        assert got[key] == want[key], key
    for key, value in want["view"].items():
        assert got["view"][key] == value, f"view.{key}: {got['view'][key]!r} != {value!r}"
    assert got["view"].keys() == want["view"].keys()
    for mine, theirs in zip(got["players"], want["players"], strict=True):
        for key, value in theirs.items():
            if key not in PRESENCE:
                assert mine[key] == value, f"players.{key}"


async def sit(players: list[Client], port: int) -> None:
    for p in players:
        assert (await p.hello(port))["type"] == "welcome"


async def caught_up(players: list[Client]) -> dict[str, dict[str, Any]]:
    """Every frame sent to each person has come: the last ``table`` each saw."""
    for p in players:
        await roundtrip(p)
    return {p.name: last_table(p) for p in players}


async def comeback(players: list[Client], port: int, started: float) -> float:
    """Every person back with its token, on a new connection (in place in ``players``);
    seconds from ``started`` (the server process started again) until the first was let in."""
    first = 0.0
    for i, p in enumerate(players):
        await p.close()
        players[i] = p.again()
        welcome = await players[i].hello(port, token=p.token)
        assert welcome["type"] == "welcome" and welcome["seat"] == p.seat, welcome
        first = first or time.monotonic() - started
    return first


async def play_out(players: list[Client]) -> dict[str, Any]:
    _, standings = await take_turns(players)
    assert standings["type"] == "standings"
    return standings


def check_history(folder: Path, standings: dict[str, Any]) -> None:
    """The match's one history in ``folder``: each hand once, valid, adding up to the
    standings; and no journal left."""
    hands = history(folder)
    assert [h["hand"] for h in hands] == list(range(1, len(hands) + 1))
    assert standings["hands_played"] == len(hands)
    for h in hands:
        assert hhcheck.problems(h) == []
        assert sum(s["stack"] for s in h["final"]) == sum(s["stack"] for s in h["seats"])
    final = {s["seat"]: s["stack"] for s in hands[-1]["final"]}
    for row in standings["standings"]:
        assert final.get(row["seat"], 0) == row["stack"]
    assert sum(row["stack"] for row in standings["standings"]) == 3 * START_STACK
    assert not list(folder.glob("*.journal"))  # finished: no journal left


async def _killed_at(tmp: Path, wheres: list[str]) -> list[float]:
    """Play a match, killing the server at each of ``wheres`` in turn and starting it
    again; the seconds from each start to the first comeback let in."""
    pause = 1.0 if "during a showdown's pause" in wheres else 0.2
    servers = [Server(tmp, hand_pause=pause)]
    players = [Client("Ann", seed=1), Client("Bob", seed=2)]
    took: list[float] = []
    try:
        await sit(players, servers[0].port)
        for where in wheres:
            await _reach(players, where)
            # Every frame of the last step has reached everyone (the server writes to
            # one connection after another; nothing moves on while it waits for the
            # turn), then it moves no further: a showdown's pause must not run out.
            before = await caught_up(players)
            servers[-1].freeze()
            servers[-1].kill()
            # Started again on the same folder, asked for any port: it takes its old one.
            servers.append(Server(tmp, hand_pause=pause))
            assert servers[-1].port == servers[-2].port
            took.append(await comeback(players, servers[-1].port, servers[-1].started))
            assert servers[-1].said(f"resumed match {before['Ann']['match']} at hand")
            for p, table in (await caught_up(players)).items():
                same_table(table, before[p])
        check_history(tmp / "histories", await play_out(players))
        return took
    finally:
        for p in players:
            await p.close()
        for server in servers:
            if server.proc.poll() is None:
                server.kill()


async def _reach(players: list[Client], where: str) -> None:
    """Play on until the kill point ``where``: the server is waiting on a person's turn
    (or in the pause after a showdown) when this returns."""
    if where == "during a showdown's pause":
        await answer_until_showdown(players)
        return
    acted = [0, -1]  # persons' actions this hand; the hand number

    def stop(p: Client, turn: dict[str, Any]) -> bool:
        hand = last_table(p)["hand"]
        if hand != acted[1]:
            acted[:] = [0, hand]
        if where == "mid-street":
            hit = hand >= 2 and acted[0] >= 3
        elif where == "right after an action":
            other = next(o for o in players if o is not p)
            last = [e for m in p.of_type("events") for e in m["events"]][-1:]
            hit = acted[0] >= 2 and bool(last) and last[0].get("seat") == other.seat
        else:
            assert where == "during the last hand"
            hit = hand == 4
        acted[0] += not hit
        return hit

    _, stopped = await take_turns(players, stop)
    assert stopped["type"] == "turn", f"the match ended before {where}"


async def answer_until_showdown(players: list[Client]) -> None:
    """Play until a hand ends in a showdown (its pause is on, the cards on the table)."""

    def shown() -> bool:
        return any(m["shows"] for m in players[0].of_type("hand_end"))

    play = asyncio.get_running_loop().create_task(take_turns(players))
    try:
        assert await until(lambda: shown() or play.done(), timeout=60) and shown()
    finally:
        play.cancel()


def test_a_server_killed_four_times_finishes_its_match(tmp_path: Path) -> None:
    """Killed right after an action, in a showdown's pause, mid-street and during the
    last hand: the journal a resumed table rewrote resumes again, and again."""
    wheres = ["right after an action", "during a showdown's pause", "mid-street",
              "during the last hand"]  # fmt: skip
    took = asyncio.run(_killed_at(tmp_path, wheres))
    print("comebacks after four kills:", ", ".join(f"{t:.2f} s" for t in took))


def host(over: dict[str, Any], **settings: Any) -> Any:
    """The game hosting a friends' table, "Night", four hands and a computer seat."""
    from client.localserver import LocalServer
    from client.settings import Settings

    local = LocalServer(over)
    failed = local.start_host(
        Settings(name="Ann", **settings), hands=4, computers=1, password="", port=0,
        bind=LOOPBACK, name="Night",
    )  # fmt: skip
    assert failed is None
    return local


@run
async def test_the_game_hosting_again_resumes_its_match(tmp_path: Path) -> None:
    """The game hosting a friends' table dies mid-hand and hosts it again."""
    over = {"history_dir": tmp_path / "histories", "announce": False, "bot_delay": 0,
            "hand_pause": 0.2, "seed": 4}  # fmt: skip
    local = host(over, host_turn_time=0)
    players = [Client("Ann", seed=3), Client("Bob", seed=4)]
    try:
        await sit(players, local.handle.port)
        players[0].send(Start().encode())
        turns = [0]

        def stop(p: Client, turn: dict[str, Any]) -> bool:
            turns[0] += 1
            return turns[0] > 6

        assert (await take_turns(players, stop))[1]["type"] == "turn"
        before = await caught_up(players)
        port = local.handle.port
        # The game dies: its server thread goes without ending the match (no forget).
        await asyncio.to_thread(local.handle.stop, reason="crash")
        started = time.monotonic()
        local = host(over, host_turn_time=0)
        assert local.handle.server.resumed and local.handle.port == port
        took = await comeback(players, port, started)
        print(f"comeback after hosting again: {took:.2f} s")
        for p, table in (await caught_up(players)).items():
            same_table(table, before[p])
        check_history(tmp_path / "histories", await play_out(players))
    finally:
        for p in players:
            await p.close()
        await asyncio.to_thread(local.stop, "Ann")


@run
async def test_closing_the_table_on_purpose_ends_its_match(tmp_path: Path) -> None:
    over = {"history_dir": tmp_path, "announce": False, "bot_delay": 0}
    local = host(over)
    ann = Client("Ann")
    await ann.hello(local.handle.port)
    ann.send(Start().encode())
    await ann.expect("turn", timeout=10)
    assert list(tmp_path.glob("*.journal"))
    await asyncio.to_thread(local.stop, "Ann")
    await ann.close()
    assert not list(tmp_path.glob("*.journal"))
    again = host(over)
    try:
        assert not again.handle.server.resumed
    finally:
        await asyncio.to_thread(again.stop, "Ann")
