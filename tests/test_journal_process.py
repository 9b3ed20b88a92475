"""Issue 16 items 3 and 6 over real processes: ``python -m server`` killed with SIGKILL
at several points of a match and started again on the same history folder resumes the
match; its people come back with their tokens and see the very same table (their own
``table`` frame, field by field; presence may differ), and the match plays to the end
with a valid history, each hand once, the chips adding up and the standings right.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from common.match import START_STACK
from common.protocol import Act
from tests import hhcheck
from tests.serverkit import LOOPBACK, Client, choose
from tests.serverproc import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
NAME = "Kill table"
PRESENCE = {"connected", "away", "away_why", "stand_in"}

pytestmark = pytest.mark.timeout(120)


def Server(tmp: Path, *, port: int = 0, hand_pause: float = 0.2) -> ServerProcess:  # noqa: N802
    """The kill tests' server: fast options, seeded, one computer seat, four hands."""
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


class Player:
    """A person at the table: answers its turns at random until told to stop."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.client = Client(name)
        self.token = ""
        self.seat: int | None = None


async def expect_or_none(c: Client, *types: str, timeout: float) -> dict[str, Any] | None:
    try:
        return await c.expect(*types, timeout=timeout)
    except TimeoutError:
        return None


async def answer(players: list[Player], stop: Any) -> Player | None:
    while True:
        for p in players:
            msg = await expect_or_none(p.client, "turn", "standings", timeout=0.02)
            if msg is None:
                continue
            if msg["type"] == "standings":
                return None
            if stop(p, msg):
                return p
            p.client.send(Act(msg["turn"], choose(msg, p.rng)).encode())


async def comeback(players: list[Player], port: int, started: float) -> float:
    """Every person back with its token; seconds from ``started`` (the server process
    started again) until the first was let in."""
    first = 0.0
    for p in players:
        p.client = Client(p.name)
        welcome = await p.client.hello(port, token=p.token, name=p.name)
        assert welcome["type"] == "welcome" and welcome["seat"] == p.seat, welcome
        first = first or time.monotonic() - started
    return first


def check_history(tmp: Path, standings: dict[str, Any]) -> None:
    files = list((tmp / "histories").glob("*.jsonl"))
    assert len(files) == 1
    hands = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert [h["hand"] for h in hands] == list(range(1, len(hands) + 1))
    assert standings["hands_played"] == len(hands)
    for h in hands:
        assert hhcheck.problems(h) == []
        assert sum(s["stack"] for s in h["final"]) == sum(s["stack"] for s in h["seats"])
    final = {s["seat"]: s["stack"] for s in hands[-1]["final"]}
    for row in standings["standings"]:
        assert final.get(row["seat"], 0) == row["stack"]
    assert sum(row["stack"] for row in standings["standings"]) == 3 * START_STACK
    assert not list((tmp / "histories").glob("*.journal"))  # finished: no journal left


async def _killed_at(tmp: Path, wheres: list[str]) -> list[float]:
    """Play a match, killing the server at each of ``wheres`` in turn and starting it
    again; the seconds from each start to the first comeback let in."""
    pause = 1.0 if "during a showdown's pause" in wheres else 0.2
    servers = [Server(tmp, hand_pause=pause)]
    players = [Player("Ann", 1), Player("Bob", 2)]
    took: list[float] = []
    try:
        for p in players:
            welcome = await p.client.hello(servers[0].port, name=p.name)
            p.token, p.seat = welcome["token"], welcome["seat"]
        for where in wheres:
            await _reach(players, where)
            # The step that asked for this turn has reached everyone: the server writes
            # to one connection after another, so the one who was asked may hear of it
            # before the others do.  (Nothing moves on while it waits for the turn.)
            await every_table_at(players, max(last_table(p.client)["step"] for p in players))
            servers[-1].freeze()  # a showdown's pause must not run out meanwhile
            await asyncio.sleep(0.1)  # every frame of the last step has come
            before = {p.name: last_table(p.client) for p in players}
            servers[-1].kill()
            # Started again on the same folder, asked for any port: it takes its old one.
            servers.append(Server(tmp, hand_pause=pause))
            assert servers[-1].port == servers[-2].port
            took.append(await comeback(players, servers[-1].port, servers[-1].started))
            assert servers[-1].said(f"resumed match {before['Ann']['match']} at hand")
            await asyncio.sleep(0.1)
            for p in players:
                same_table(last_table(p.client), before[p.name])
        assert await answer(players, lambda p, t: False) is None
        check_history(tmp, (await players[0].client.seen("standings", timeout=10))[1])
        return took
    finally:
        for p in players:
            await p.client.close()
        for server in servers:
            if server.proc.poll() is None:
                server.kill()


async def every_table_at(players: list[Player], step: int, timeout: float = 10.0) -> None:
    """Wait until every player's last ``table`` frame is of ``step`` or later."""
    end = time.monotonic() + timeout
    while any(last_table(p.client)["step"] < step for p in players):
        assert time.monotonic() < end, f"not every player saw step {step}"
        await asyncio.sleep(0.01)


async def _reach(players: list[Player], where: str) -> None:
    """Play on until the kill point ``where``: the server is waiting on a person's turn
    (or in the pause after a showdown) when this returns."""
    if where == "during a showdown's pause":
        await answer_until_showdown(players)
        return
    acted = [0, -1]  # persons' actions this hand; the hand number

    def stop(p: Player, turn: dict[str, Any]) -> bool:
        hand = last_table(p.client)["hand"]
        if hand != acted[1]:
            acted[:] = [0, hand]
        if where == "mid-street":
            hit = hand >= 2 and acted[0] >= 3
        elif where == "right after an action":
            other = next(o for o in players if o is not p)
            last = [e for m in p.client.of_type("events") for e in m["events"]][-1:]
            hit = acted[0] >= 2 and bool(last) and last[0].get("seat") == other.seat
        else:
            assert where == "during the last hand"
            hit = hand == 4
        acted[0] += not hit
        return hit

    assert await answer(players, stop) is not None, f"the match ended before {where}"


async def answer_until_showdown(players: list[Player]) -> None:
    """Play until a hand ends in a showdown (its pause is on, the cards on the table)."""
    while not any(m["shows"] for m in players[0].client.of_type("hand_end")):
        assert not players[0].client.of_type("standings"), "no showdown in the match"
        for p in players:
            msg = await expect_or_none(p.client, "turn", timeout=0.02)
            if msg is not None:
                p.client.send(Act(msg["turn"], choose(msg, p.rng)).encode())


@pytest.mark.parametrize(
    "where",
    ["mid-street", "right after an action", "during a showdown's pause", "during the last hand"],
)
def test_a_killed_server_resumes_the_match(tmp_path: Path, where: str) -> None:
    took = asyncio.run(_killed_at(tmp_path, [where]))
    print(f"comeback after a kill {where}: {took[0]:.2f} s")


def test_a_server_killed_three_times_finishes_its_match(tmp_path: Path) -> None:
    """The journal a resumed table rewrote resumes again, and again."""
    took = asyncio.run(
        _killed_at(tmp_path, ["right after an action", "mid-street", "during the last hand"])
    )
    print("comebacks after three kills:", ", ".join(f"{t:.2f} s" for t in took))


async def _host_again(tmp: Path) -> None:
    """The game hosting a friends' table dies mid-hand and hosts it again."""
    from client.localserver import LocalServer
    from client.settings import Settings
    from common.protocol import Start

    over = {"history_dir": tmp / "histories", "announce": False, "bot_delay": 0,
            "hand_pause": 0.2, "seed": 4}  # fmt: skip
    settings = Settings(name="Ann", host_turn_time=0)

    def host() -> LocalServer:
        local = LocalServer(over)
        failed = local.start_host(
            settings, hands=4, computers=1, password="", port=0, bind=LOOPBACK, name="Night"
        )
        assert failed is None
        return local

    local = host()
    players = [Player("Ann", 3), Player("Bob", 4)]
    try:
        for p in players:
            welcome = await p.client.hello(local.handle.port, name=p.name)
            p.token, p.seat = welcome["token"], welcome["seat"]
        players[0].client.send(Start().encode())
        turns = [0]

        def stop(p: Player, turn: dict[str, Any]) -> bool:
            turns[0] += 1
            return turns[0] > 6

        assert await answer(players, stop) is not None
        await asyncio.sleep(0.1)
        before = {p.name: last_table(p.client) for p in players}
        port = local.handle.port
        # The game dies: its server thread goes without ending the match (no forget).
        await asyncio.to_thread(local.handle.stop, reason="crash")
        started = time.monotonic()
        local = host()
        assert local.handle.server.resumed and local.handle.port == port
        took = await comeback(players, port, started)
        print(f"comeback after hosting again: {took:.2f} s")
        await asyncio.sleep(0.1)
        for p in players:
            same_table(last_table(p.client), before[p.name])
        assert await answer(players, lambda p, t: False) is None
        check_history(tmp, (await players[0].client.seen("standings", timeout=10))[1])
    finally:
        for p in players:
            await p.client.close()
        await asyncio.to_thread(local.stop, "Ann")


def test_the_game_hosting_again_resumes_its_match(tmp_path: Path) -> None:
    asyncio.run(_host_again(tmp_path))


def test_closing_the_table_on_purpose_ends_its_match(tmp_path: Path) -> None:
    from client.localserver import LocalServer
    from client.settings import Settings
    from common.protocol import Start

    async def scenario() -> None:
        over = {"history_dir": tmp_path, "announce": False, "bot_delay": 0}
        local = LocalServer(over)
        assert local.start_host(Settings(name="Ann"), hands=4, computers=1, password="",
                                port=0, bind=LOOPBACK, name="Night") is None  # fmt: skip
        ann = Client("Ann")
        await ann.hello(local.handle.port)
        ann.send(Start().encode())
        await ann.expect("turn", timeout=10)
        assert list(tmp_path.glob("*.journal"))
        await asyncio.to_thread(local.stop, "Ann")
        await ann.close()
        assert not list(tmp_path.glob("*.journal"))
        again = LocalServer(over)
        assert again.start_host(Settings(name="Ann"), hands=4, computers=1, password="",
                                port=0, bind=LOOPBACK, name="Night") is None  # fmt: skip
        try:
            assert not again.handle.server.resumed
        finally:
            await asyncio.to_thread(again.stop, "Ann")

    asyncio.run(scenario())
