"""The table's budget of password guesses (``server.guesses``) and the door's memory of
them (``server.guard``), on a fake clock: guessing is slow for everyone together, a wait
that runs is never forgotten, and a seated player, or a friend, is never kept out.

``Link`` clients from many addresses (plain hellos with ``password``, at tables that
allow them: the cheapest guesses there are); the clock is advanced, never slept on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from common.protocol import Hello, Start
from server.guesses import FRIENDS, STRANGERS, Guesses, Rate
from tests.serverkit import Link, advance, clocked_table, config, run, settle

pytestmark = pytest.mark.timeout(120)

PASSWORD = "swordfish"
FRIEND = "127.0.0.3"


def address(n: int) -> str:
    """The ``n``-th stranger's address: 127.1.x.y."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


def guess(table: Any, name: str, address: str, password: str = "guess") -> Link:
    """A plain protocol-1 hello with ``password`` from ``address`` (its answer may be held)."""
    link = Link(table, name, address=address)
    link.send({"type": "hello", "protocol": 1, "name": name, "password": password})
    return link


def answer(link: Link) -> str | None:
    """The code of the error a hello got, ``welcome``, or None (no answer yet: held)."""
    for m in link.log:
        if m["type"] == "welcome":
            return "welcome"
        if m["type"] == "error":
            return str(m["code"])
    return None


def test_the_budget_gives_at_most_its_burst_and_rate_in_any_minute() -> None:
    guesses = Guesses(strangers=Rate(4, 10), friends=Rate(2, 4))
    assert guesses.most_a_minute == 20 == STRANGERS.most_a_minute + FRIENDS.most_a_minute
    taken = []
    for tenth in range(1200):  # two minutes, asking ten times a second
        now = tenth / 10
        if guesses.take(f"10.0.0.{tenth % 200}", now, within=0) is not None:
            taken.append(now)
    windows = [sum(1 for t in taken if start <= t <= start + 60) for start in range(61)]
    assert max(windows) == 14  # strangers' 4 + 10
    assert len(taken) <= 4 + 20  # two minutes: the burst, then 10 a minute


@run
async def test_wrong_passwords_from_100_addresses_are_checked_at_most_20_a_minute(
    tmp_path: Path,
) -> None:
    """Each of 100 addresses guesses again as soon as it has an answer, for a minute: the
    table checks 14 of them in all (strangers' turns), not 500.  Meanwhile a seated
    player comes back by token at once, and a friend (an address that gave the right
    password before) gets in within seconds; a stranger with the right password is told
    to wait, with the time."""
    cfg = config(tmp_path, password=PASSWORD, plain="allow", hands=12, grace=1000.0)
    table, clock = await clocked_table(cfg)
    ann = Link(table, "Ann", address=FRIEND)
    assert ann.hello(password=PASSWORD)["type"] == "welcome"
    bob = Link(table, "Bob")
    assert bob.hello(password=PASSWORD)["type"] == "welcome"
    ann.send(Start().encode())
    await settle(table, ann)
    ann.drop()
    guessing: dict[int, Link] = {}
    asked = checked = 0
    friend = stranger = back = None
    for second in range(60):
        for n in range(100):
            old = guessing.get(n)
            if old is not None and answer(old) is None:
                continue  # held: its answer is still to come
            if old is not None and answer(old) == "bad_password":
                checked += 1
            guessing[n] = guess(table, f"G{n}", address(n), f"x{n}")
            asked += 1
        if second == 30:  # the friend, a stranger and a comeback, in the thick of it
            friend = Link(table, "Ann2", address=FRIEND)
            friend.send(Hello(name="Ann2", password=PASSWORD, watch=True).encode())
            stranger = Link(table, "Cy", address="127.9.9.9")
            stranger.send(Hello(name="Cy", password=PASSWORD).encode())
            back = Link(table, "Ann", address="127.8.8.8")
            back.hello(password=PASSWORD, token=ann.token)
            await settle(table, back)
            assert back.last("welcome")["seat"] == 0  # at once: the clock has not moved
        await advance(table, clock, 1.0)
        if second == 34:
            assert friend is not None and answer(friend) == "welcome"  # within 4 s
            assert stranger is not None
            refused = stranger.last("error")
            assert refused["code"] == "password_wait"
            assert "someone is guessing" in refused["message"]
            assert "try again in" in refused["message"]
    checked += sum(1 for link in guessing.values() if answer(link) == "bad_password")
    assert asked > 5000
    assert checked <= table.door.guesses.most_a_minute
    assert checked == STRANGERS.most_a_minute
    assert table.door.remembered <= checked


@run
async def test_a_waiting_address_still_waits_after_4200_others_tried_once(tmp_path: Path) -> None:
    """One address earns a 16 s wait; then 4,200 others try once each.  Its next guess is
    not checked before its wait is over, and its waits keep doubling (32 s next)."""
    cfg = config(tmp_path, password=PASSWORD, plain="allow", handshake_timeout=30.0)
    table, clock = await clocked_table(cfg)
    door = table.door
    first = "127.0.0.9"
    for _ in range(5):
        await advance(table, clock, door.wait_left(first, clock.now()))
        link = guess(table, "A", first)
        await settle(table, link)
        assert answer(link) == "bad_password"
    assert door.wait_left(first, clock.now()) == 16.0
    for n in range(4200):
        guess(table, "G", address(n))
    await settle(table)
    assert door.wait_left(first, clock.now()) == 16.0
    again = guess(table, "A", first)
    await settle(table, again)
    assert answer(again) == "password_wait"  # a 16 s wait is not held: refused unread
    await advance(table, clock, 16.0)
    late = guess(table, "A", first)
    await advance(table, clock, 8.0, late)
    assert answer(late) == "bad_password"
    assert door.wait_left(first, clock.now()) > 16.0  # 32 s, less what has passed
    # Only the checked guesses are remembered: far below the bound (146).
    assert door.remembered <= STRANGERS.most_a_minute + 1


@run
async def test_right_passwords_use_no_turns(tmp_path: Path) -> None:
    """Fifty people give the right password one after another at the same moment: all
    are in at once, and the strangers' turns are all still there."""
    cfg = config(tmp_path, password=PASSWORD, plain="allow", max_connections=60, max_watchers=60)
    table, clock = await clocked_table(cfg)
    for n in range(50):
        link = Link(table, f"W{n}", address=address(n))
        welcome = link.hello(password=PASSWORD, watch=True)
        assert welcome["type"] == "welcome"
    guesses = table.door.guesses
    assert guesses.wait("127.99.0.1", clock.now()) == 0.0
    for n in range(STRANGERS.burst):
        link = Link(table, f"G{n}", address=f"127.99.0.{n + 1}")
        assert link.hello(password="guess")["code"] == "bad_password"
    assert guesses.wait("127.99.0.99", clock.now()) > 0


@run
async def test_a_held_hello_is_checked_when_its_turn_comes(tmp_path: Path) -> None:
    """Strangers' turns used up: the next stranger is held until its turn (6 s at 10 a
    minute) and then checked; the one after would wait 12 s, beyond ``MAX_HOLD``:
    refused."""
    cfg = config(tmp_path, password=PASSWORD, plain="allow", handshake_timeout=30.0)
    table, clock = await clocked_table(cfg)
    for n in range(STRANGERS.burst):
        link = Link(table, f"G{n}", address=address(n))
        assert link.hello(password="guess")["code"] == "bad_password"
    held = guess(table, "Held", address(10), PASSWORD)
    refused = guess(table, "Refused", address(11), PASSWORD)
    await settle(table, held, refused)
    assert answer(held) is None and not held.transport.reading
    assert answer(refused) == "password_wait"
    await advance(table, clock, 5.9, held)
    assert answer(held) is None
    await advance(table, clock, 0.2, held)
    assert answer(held) == "welcome"
