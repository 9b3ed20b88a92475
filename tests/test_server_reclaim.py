"""A seat asked back by name (issue 16, item 2): only on the host's word, never a hole card
before it.  R-C1: a dropped seat stays its person's; R-C2: away until its person is back;
R-C3: a seat the host took away may not be asked for.  A table on a fake clock, no sockets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from common.protocol import Act
from server.asks import ASK_TIMEOUT
from tests.serverkit import (
    Link,
    advance,
    cards_in,
    clocked_table,
    config,
    run,
    seat_to_act,
    settle,
)

pytestmark = pytest.mark.timeout(60)


class Night:
    """Ann (the host, seat 0), Bob (seat 1) and a computer seat; Ann plays her turns."""

    def __init__(self, table: Any, clock: Any, *links: Link) -> None:
        self.table, self.clock, self.links = table, clock, list(links)
        self.bob_down: dict[int, set[str]] = {}  # Bob's seat's down cards, by hand
        self.answered: set[int] = set()

    def add(self, link: Link) -> Link:
        self.links.append(link)
        return link

    def note(self) -> None:
        match = self.table.dealer.match
        if match is not None and match.hand is not None and 1 in match.hand.seats:
            held = self.bob_down.setdefault(self.table.dealer.hand_no, set())
            held.update(str(c) for c in match.hand.seats[1].down)

    async def step(self, seconds: float = 0.5) -> None:
        """Every link whose turn it is plays its first offered action; then time moves."""
        for link in self.links:
            turns = link.of_type("turn")
            if turns and not link.conn.closed and link.seat == seat_to_act(self.table):
                turn = turns[-1]
                if turn["turn"] == self.table.turns.turn_id and turn["turn"] not in self.answered:
                    self.answered.add(turn["turn"])
                    names = [a["action"] for a in turn["legal"]]
                    link.send(Act(turn["turn"], "call" if "call" in names else names[0]).encode())
        self.note()
        await advance(self.table, self.clock, seconds, *self.links)
        self.note()

    async def until(self, done: Any, *, limit: int = 2000) -> None:
        for _ in range(limit):
            if done():
                return
            await self.step()
        raise AssertionError("it never happened")


async def night(
    tmp_path: Path, *names: str, ann_protocol: int = 2, **kw: Any
) -> tuple[Night, list[Link]]:
    """The match begun: ``names`` (Ann and Bob unless named) in seats 0 on and a computer
    seat; the first (the host) speaks ``ann_protocol``."""
    names = names or ("Ann", "Bob")
    kw.setdefault("grace", 2.0)
    cfg = config(tmp_path, computer=1, start_when=len(names) + 1, hands=12, **kw)
    table, clock = await clocked_table(cfg)
    links = [Link(table, name) for name in names]
    for i, link in enumerate(links):
        link.hello(protocol=ann_protocol if i == 0 else 2)
    n = Night(table, clock, *links)
    await settle(table, *links)
    await n.until(lambda: table.dealer.hand_no > 0)
    return n, links


def leaked(asker: Link, down: dict[int, set[str]], upto: int | None = None) -> set[str]:
    """Bob's down cards in any frame sent to ``asker`` (before index ``upto``), hand by
    hand, except those shown to everyone at that hand's showdown."""
    log = asker.log[:upto]
    shown: dict[int, set[str]] = {}
    for m in log:
        if m["type"] == "hand_end":
            shown.setdefault(m["hand"], set()).update(cards_in(m["shows"]))
        if m["type"] == "events":
            shows = [e for e in m["events"] if e["ev"] == "show"]
            shown.setdefault(m["hand"], set()).update(cards_in(shows))
    every = set().union(*down.values()) if down else set()
    out: set[str] = set()
    for m in log:
        hand = m.get("hand") if m["type"] in ("events", "table", "hand_end") else None
        if hand is None:
            out |= cards_in(m) & every  # no hand of its own: no card at all
        else:
            out |= (cards_in(m) & down.get(hand, set())) - shown.get(hand, set())
    return out


async def asker_waits(n: Night, bob: Link) -> Link:
    """Bob's link drops; "Bob" from another laptop meets name_taken, watches, asks."""
    bob.drop()
    await n.step()
    new = n.add(Link(n.table, "Bob"))
    refused = new.hello(name="Bob")
    assert refused["code"] == "name_taken" and refused["seat"] == 1
    again = n.add(Link(n.table, "Bob"))
    welcome = again.hello(name="Bob", watch=True)
    assert welcome["watch"] is True and welcome["seat"] is None
    again.send({"type": "ask_seat", "seat": 1})
    await settle(n.table, *n.links)
    assert again.last("ask_answer") == {
        "type": "ask_answer",
        "seat": 1,
        "answer": "waiting",
        "message": "Waiting for the host to give the seat back",
    }
    return again


@run
async def test_a_seat_asked_back_goes_only_on_the_hosts_give(tmp_path: Path) -> None:
    n, (ann, bob) = await night(tmp_path)
    old_token = bob.token
    asker = await asker_waits(n, bob)
    assert ann.last("seat_asked") == {"type": "seat_asked", "seat": 1, "name": "Bob",
                                      "open": True}  # fmt: skip
    # The host thinks it over while hands are played: the asker only watches.
    await n.until(lambda: n.table.dealer.hand_no >= 3)
    assert not asker.of_type("welcome")[1:]
    assert n.table.seats[1].conn is None
    before = len(asker.log)
    assert not leaked(asker, n.bob_down), "a hole card went to the asker before the give"
    ann.send({"type": "give_seat", "seat": 1})
    await settle(n.table, *n.links)
    assert leaked(asker, n.bob_down, before) == set()
    assert asker.log[before]["type"] == "ask_answer" and asker.log[before]["answer"] == "given"
    (welcome,) = [m for m in asker.log[before:] if m["type"] == "welcome"]
    assert welcome["seat"] == 1
    assert welcome["token"] != old_token and welcome["token"]
    assert ann.last("seat_asked")["open"] is False
    assert ann.last("presence", seat=1)["connected"] is True
    # Its state, its own cards included, now that the host said so (R-C1).
    table = [m for m in asker.log[before:] if m["type"] == "table"][-1]
    (mine,) = [s for s in table["view"]["seats"] if s["seat"] == 1]
    hand = n.table.dealer.match.hand
    assert mine["hole"][:2] == [str(c) for c in hand.seats[1].down[:2]]
    # The old token is dead; the new one works.
    stale = Link(n.table, "Bob")
    assert stale.hello(token=old_token)["code"] == "bad_token"
    asker.seat = 1
    await n.until(lambda: seat_to_act(n.table) == 1 and asker.of_type("turn"))


@run
async def test_the_terminal_gives_a_seat_back(tmp_path: Path) -> None:
    n, (ann, bob) = await night(tmp_path)
    asker = await asker_waits(n, bob)
    status = n.table.console("status")
    assert "Bob asks for seat 1" in status
    assert n.table.console("give 5").startswith("refused: nobody is asking for seat 5")
    assert n.table.console("give 1") == "ok"
    await settle(n.table, *n.links)
    assert asker.last("welcome")["seat"] == 1
    assert n.table.seats[1].conn is asker.conn


@pytest.mark.parametrize("how", ["refused", "terminal", "timeout", "asker_leaves", "token"])
@run
async def test_an_ask_refused_or_unanswered_gets_nothing(tmp_path: Path, how: str) -> None:
    n, (ann, bob) = await night(tmp_path, hand_pause=30)  # a match longer than the wait
    old_token = bob.token
    asker = await asker_waits(n, bob)
    await n.step()
    if how == "refused":
        ann.send({"type": "refuse_seat", "seat": 1})
    elif how == "terminal":
        assert n.table.console("refuse 1") == "ok"
    elif how == "timeout":
        for _ in range(int(ASK_TIMEOUT / 0.5) - 4):
            await n.step()
        assert n.table.asks.pending and n.table.dealer.life.running
        for _ in range(6):
            await n.step()
    elif how == "asker_leaves":
        asker.drop()
    else:
        back = n.add(Link(n.table, "Bob"))
        assert back.hello(token=old_token)["seat"] == 1
    await settle(n.table, *n.links)
    assert not n.table.asks.pending
    assert ann.last("seat_asked")["open"] is False
    if how != "asker_leaves":
        answer = asker.last("ask_answer")
        refusal = how in ("refused", "terminal")
        assert answer["answer"] == ("refused" if refusal else "unanswered")
        assert answer["message"]
    # Nothing else: it watches on, with no seat and no hole card of Bob's.
    for _ in range(20):
        await n.step()
    assert len(asker.of_type("welcome")) == 1 and asker.of_type("welcome")[0]["seat"] is None
    assert not asker.of_type("turn")
    assert not leaked(asker, n.bob_down)
    if how != "token":
        assert n.table.seats[1].conn is None and n.table.seats[1].token == old_token
    # A give after the end is refused to the host only.
    mark = len(asker.log)
    if how != "token":
        ann.send({"type": "give_seat", "seat": 1})
        await settle(n.table, *n.links)
        assert ann.last("error")["code"] == "no_ask"
        assert n.table.seats[1].conn is None
    assert not [m for m in asker.log[mark:] if m["type"] in ("welcome", "error")]


@run
async def test_bad_asks_are_errors_to_the_sender_only(tmp_path: Path) -> None:
    n, (ann, bob) = await night(tmp_path)
    carl = n.add(Link(n.table, "Carl"))
    carl.hello(watch=True)

    async def refused(link: Link, msg: dict[str, Any]) -> str:
        marks = {id(x): len(x.log) for x in n.links}
        link.send(msg)
        await settle(n.table, *n.links)
        for other in n.links:
            if other is not link:
                new = other.log[marks[id(other)] :]
                assert not [m for m in new if m["type"] in ("error", "seat_asked")], other.name
        return str(link.last("error")["code"])

    ask = {"type": "ask_seat", "seat": 1}
    assert await refused(carl, {"type": "ask_seat", "seat": 9}) == "bad_seat"
    assert await refused(carl, {"type": "ask_seat", "seat": 6}) == "bad_seat"  # a computer
    assert await refused(carl, {"type": "ask_seat", "seat": 3}) == "bad_seat"  # empty
    assert await refused(carl, ask) == "seat_connected"  # Bob is there
    assert await refused(bob, {"type": "ask_seat", "seat": 0}) == "already_seated"
    assert await refused(carl, {"type": "ask_seat", "seat": "1"}) == "bad_message"
    bob.drop()
    await n.step()
    assert await refused(carl, ask) == "wrong_name"  # a name that isn't the seat's
    bobs = n.add(Link(n.table, "bob"))
    bobs.hello(watch=True)
    bobs.send(ask)
    await settle(n.table, *n.links)
    assert bobs.last("ask_answer")["answer"] == "waiting"
    other = n.add(Link(n.table, "BOB"))
    other.hello(watch=True)
    assert await refused(other, ask) == "already_asked"  # one pending ask per seat
    assert await refused(bobs, ask) == "already_asked"
    assert await refused(bobs, {"type": "give_seat", "seat": 1}) == "not_host"
    assert await refused(ann, {"type": "give_seat", "seat": 2}) == "no_ask"
    # R-C3: once the host takes Bob's seat away, nobody may ask for it.
    ann.send({"type": "refuse_seat", "seat": 1})
    await n.step()
    ann.send({"type": "take_seat", "seat": 1})
    await n.step()
    assert await refused(other, ask) == "seat_taken"
    # The table plays on.
    hand = n.table.dealer.hand_no
    await n.until(lambda: n.table.dealer.hand_no > hand)


@run
async def test_a_protocol_1_client_sees_nothing_new(tmp_path: Path) -> None:
    n, (ann, bob) = await night(tmp_path, ann_protocol=1)
    table = n.table
    bob.drop()
    await n.step()
    one = n.add(Link(table, "Bob"))
    refused = one.hello(name="Bob", protocol=1)
    assert refused["code"] == "name_taken" and "seat" not in refused
    watcher = n.add(Link(table, "Bob"))
    watcher.hello(name="Bob", watch=True, protocol=1)
    watcher.send({"type": "ask_seat", "seat": 1})
    await settle(table, *n.links)
    assert watcher.last("error")["code"] == "unknown_type"
    two = n.add(Link(table, "Bob"))
    two.hello(name="Bob", watch=True)
    two.send({"type": "ask_seat", "seat": 1})
    await n.step()
    # Ann, the host, speaks protocol 1: she is never sent a seat_asked; the terminal answers.
    assert not ann.of_type("seat_asked") and not ann.of_type("ask_answer")
    assert table.console("give 1") == "ok"
    await settle(table, *n.links)
    assert two.last("welcome")["seat"] == 1
