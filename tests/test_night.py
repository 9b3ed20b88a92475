"""A whole night at one table: late arrivals, the night's scoreboard, rematches.

Late arrivals sit in at the next match (and watch this one); the night's
scoreboard adds every match (R-T6 standings) and lives beside the hand
histories, so a restarted server carries it on; a rematch keeps the seats of
the people still there and frees the seats of those who left.
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from pathlib import Path

import pytest

from common.match import Standing
from server.night import Night, evening_of, night_path
from tests.serverkit import Client, config, run, running
from tests.test_rules_away import seated

pytestmark = pytest.mark.timeout(90)


def _has_seat(seats: list[dict], **want: object) -> bool:
    """A seat entry with these keys and values (entries carry more keys than these)."""
    return any(all(entry.get(k) == v for k, v in want.items()) for entry in seats)


async def _standings_both(*clients: Client) -> list[dict]:
    return list(await asyncio.gather(*(c.play() for c in clients)))


@run
async def test_a_late_arrival_sits_in_at_the_next_match(tmp_path: Path) -> None:
    """A free seat (R-T1) taken mid-match plays from the next match, with 600 chips (R-T3)
    like everyone; meanwhile it sees only what a spectator sees."""
    async with running(config(tmp_path, computer=1)) as (_server, port):
        (ann,) = await seated(port, "Ann")
        ann.send({"type": "start"})
        await ann.expect("match_start")
        bob = Client("Bob")
        welcome = await bob.hello(port)
        assert welcome["seat"] == 1 and welcome["watch"] is False
        lobby = await bob.expect("lobby")
        assert lobby["running"] and _has_seat(
            lobby["seats"], seat=1, name="Bob", kind="human", connected=True, next=True
        )
        _, seen = await ann.seen("lobby", running=True)
        _, seen = await ann.seen("lobby", start=ann.log.index(seen) + 1)
        assert any(s["name"] == "Bob" and s.get("next") for s in seen["seats"])
        start = await bob.expect("match_start")
        assert {s["name"] for s in start["seats"]} == {"Ann", "Ada"}
        table = await bob.expect("table")
        assert table["view"]["you"] is None  # watching meanwhile: the public view
        assert 1 not in {s["seat"] for s in table["view"]["seats"]}
        first = await ann.play()
        assert {r["name"] for r in first["standings"]} == {"Ann", "Ada"}
        after = await bob.expect("lobby", running=False)
        assert [s.get("next") for s in after["seats"]] == [None, True, None]  # still new
        ann.send({"type": "start"})
        second = await bob.expect("match_start")
        assert {s["name"] for s in second["seats"]} == {"Ann", "Bob", "Ada"}
        assert not any(s.get("next") for s in second["seats"])  # Bob plays this one
        a, b = await _standings_both(ann, bob)
        assert a == b and {r["name"] for r in a["standings"]} == {"Ann", "Bob", "Ada"}
        await ann.close()
        await bob.close()


@run
async def test_the_nights_scoreboard_over_three_matches_and_a_restart(tmp_path: Path) -> None:
    """Each match's standings (R-T6: ties share the win) add up into the night's totals."""

    async def one_match(port: int, ann: Client) -> dict:
        ann.send({"type": "start"})
        await ann.expect("match_start")
        return await ann.play()

    cfg = config(tmp_path, computer=2, name="Friday")
    nets: dict[str, int] = {}
    wins: dict[str, int] = {}
    results = []
    async with running(cfg) as (_server, port):
        (ann,) = await seated(port, "Ann")
        lobby = await ann.expect("lobby")
        assert lobby["table"] == "Friday"
        assert lobby["night"]["played"] == 0 and lobby["night"]["totals"] == []
        for _ in range(2):
            results.append(await one_match(port, ann))
        lobby = await ann.expect("lobby", running=False)
        assert lobby["night"]["played"] == 2
        await ann.close()
    files = list(tmp_path.glob("night-*-friday.json"))
    assert len(files) == 1 and len(json.loads(files[0].read_text())["matches"]) == 2
    async with running(cfg) as (_server, port):  # the same evening, restarted
        (ann,) = await seated(port, "Ann")
        lobby = await ann.expect("lobby")
        assert lobby["night"]["played"] == 2
        results.append(await one_match(port, ann))
        await ann.close()
    for result in results:
        assert sum(r["net"] for r in result["standings"]) == 0  # chips only change hands
        for r in result["standings"]:
            nets[r["name"]] = nets.get(r["name"], 0) + r["net"]
            wins[r["name"]] = wins.get(r["name"], 0) + (1 if r["winner"] else 0)
    night = results[-1]["night"]
    assert night["played"] == 3 and night["table"] == "Friday"
    assert [m["number"] for m in night["matches"]] == [1, 2, 3]
    assert [m["winners"] for m in night["matches"]] == [
        [r["name"] for r in res["standings"] if r["winner"]] for res in results
    ]
    assert {t["name"]: (t["net"], t["wins"], t["matches"]) for t in night["totals"]} == {
        name: (nets[name], wins[name], 3) for name in nets
    }
    assert [t["net"] for t in night["totals"]] == sorted(nets.values(), reverse=True)
    assert {t["name"]: t["kind"] for t in night["totals"]} == {
        "Ann": "human",
        "Ada": "computer",
        "Babbage": "computer",
    }


FRIDAY = datetime(2026, 11, 27, 21, 0)


def _add_match(
    night: Night, match_id: str, rival: str = "Bob", net: int = 50, kind: str = "human"
) -> None:
    """A match of four hands Ann (a person) won by ``net`` chips from ``rival``."""
    night.add(
        match_id=match_id,
        ended=FRIDAY,
        hands=4,
        standings=[
            Standing(1, 0, "Ann", 600 + net, net, True),
            Standing(2, 1, rival, 600 - net, -net, False),
        ],
        kind_of=lambda seat: "human" if seat == 0 else kind,
    )


def test_a_night_is_an_evening_from_noon_to_noon(tmp_path: Path) -> None:
    assert evening_of(FRIDAY) == evening_of(datetime(2026, 11, 28, 1, 30)) == "2026-11-27"
    night = Night.load(tmp_path, "Friday", FRIDAY)
    assert night.path == night_path(tmp_path, "2026-11-27", "Friday")
    assert night.label() == "Friday 27 November"
    _add_match(night, "m1")
    after_midnight = Night.load(tmp_path, "Friday", datetime(2026, 11, 28, 1, 30))
    assert after_midnight.summary()["played"] == 1
    assert after_midnight.totals()[0] == {
        "name": "Ann",
        "kind": "human",
        "matches": 1,
        "wins": 1,
        "net": 50,
    }
    assert Night.load(tmp_path, "Den", FRIDAY).summary()["played"] == 0  # another table
    saturday = Night.load(tmp_path, "Friday", datetime(2026, 11, 28, 13, 0))
    assert saturday.evening == "2026-11-28" and saturday.summary()["played"] == 0


def test_an_unreadable_night_file_is_set_aside(tmp_path: Path) -> None:
    path = night_path(tmp_path, "2026-11-27", "Friday")
    path.write_text('{"format": "seventh-street-night/1", "evening": "2026-11-27", "matches": 5}')
    night = Night.load(tmp_path, "Friday", FRIDAY)
    assert night.matches == [] and len(list(tmp_path.glob(f"{path.name}.broken-*"))) == 1
    path.write_text("[1, 2]")  # JSON, but not a night
    assert Night.load(tmp_path, "Friday", FRIDAY).matches == []
    assert len(list(tmp_path.glob(f"{path.name}.broken-*"))) == 2  # the first one kept


@run
async def test_a_rematch_frees_the_seat_of_someone_who_left(tmp_path: Path) -> None:
    """R-C1 keeps a dropped seat to the end of its match; the rematch has no ghost in it."""
    async with running(config(tmp_path, computer=1)) as (_server, port):
        ann, bob, cy = await seated(port, "Ann", "Bob", "Cy")
        assert (ann.seat, bob.seat, cy.seat) == (0, 1, 2)
        ann.send({"type": "start"})
        await cy.expect("match_start")
        await cy.close()  # Cy goes home mid-match; R-C1 plays the seat out
        a, b = await _standings_both(ann, bob)
        assert {r["name"] for r in a["standings"]} == {"Ann", "Bob", "Cy", "Ada"}
        lobby = await ann.expect("lobby", running=False)
        assert [(s["seat"], s["name"]) for s in lobby["seats"]] == [
            (0, "Ann"),
            (1, "Bob"),
            (6, "Ada"),
        ]
        assert lobby["can_start"]
        ann.send({"type": "start"})  # the rematch: one message, the same seats
        rematch = await bob.expect("match_start")
        assert [(s["seat"], s["name"]) for s in rematch["seats"]] == [
            (0, "Ann"),
            (1, "Bob"),
            (6, "Ada"),
        ]
        dee = Client("Dee")
        assert (await dee.hello(port))["seat"] == 2  # Cy's chair, free again
        a, b = await _standings_both(ann, bob)
        assert {r["name"] for r in a["standings"]} == {"Ann", "Bob", "Ada"}
        for c in (ann, bob, dee):
            await c.close()


@run
async def test_the_host_frees_a_computer_seat_for_a_person(tmp_path: Path) -> None:
    async with running(config(tmp_path, computer=6)) as (_server, port):
        (ann,) = await seated(port, "Ann")
        watcher = Client("Zed")
        await watcher.hello(port, watch=True)
        watcher.send({"type": "sit"})
        assert (await watcher.expect("error"))["code"] == "table_full"
        bob = Client("Bob")
        assert (await bob.hello(port))["code"] == "table_full"
        watcher.send({"type": "free_seat", "seat": 6})
        assert (await watcher.expect("error"))["code"] == "not_host"
        ann.send({"type": "free_seat", "seat": 0})
        assert (await ann.expect("error"))["code"] == "bad_seat"
        ann.send({"type": "free_seat", "seat": 6})
        lobby = await ann.expect("lobby")
        assert 6 not in {s["seat"] for s in lobby["seats"]}
        watcher.send({"type": "sit"})
        welcome = await watcher.expect("welcome")
        assert welcome["seat"] == 6 and welcome["token"] and not welcome["watch"]
        lobby = await ann.expect("lobby")
        assert _has_seat(lobby["seats"], seat=6, name="Zed", kind="human", host=False)
        assert not any(entry.get("next") for entry in lobby["seats"])  # no match played yet
        for c in (ann, watcher, bob):
            await c.close()


def test_a_long_night_keeps_its_totals_and_only_the_latest_matches(tmp_path: Path) -> None:
    # Nothing grows without bound (issue 8, point 10): past KEPT_MATCHES the oldest
    # matches leave memory and the file, the count and everyone's totals stay whole,
    # and a restart carries them on.
    from server.night import KEPT_MATCHES

    night = Night.load(tmp_path, "Friday", FRIDAY)
    n = KEPT_MATCHES + 25
    for i in range(n):
        _add_match(night, f"m{i}", rival="Ada", net=10, kind="computer")
    assert len(night.matches) == KEPT_MATCHES and night.matches[0]["match"] == "m25"
    again = Night.load(tmp_path, "Friday", FRIDAY)
    for carried in (night, again):
        summary = carried.summary()
        assert summary["played"] == n
        assert summary["matches"][-1]["number"] == n
        ann = next(t for t in summary["totals"] if t["name"] == "Ann")
        assert (ann["matches"], ann["wins"], ann["net"]) == (n, n, 10 * n)
    assert len(again.matches) == KEPT_MATCHES


def test_the_nights_scoreboard_is_written_0600_in_a_0700_folder(tmp_path: Path) -> None:
    """It names everyone who played: only its owner reads it, like the histories."""
    folder = tmp_path / "histories"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)  # there before, with looser modes
    night = Night.load(folder, "Friday", FRIDAY)
    _add_match(night, "m1")
    assert night.path.stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700
    assert [p.name for p in folder.iterdir()] == [night.path.name]  # no .tmp left
