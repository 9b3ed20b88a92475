"""A whole night at one table: late arrivals, the night's scoreboard, rematches.

Late arrivals sit in at the next match (and watch this one); the night's
scoreboard adds every match (R-T6 standings) and lives beside the hand
histories, so a restarted server carries it on; a rematch keeps the seats of
the people still there and frees the seats of those who left.
"""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path

import pytest

from common.match import Standing
from server.night import Night, evening_of, night_path
from server.table import Table
from server.timers import FakeClock
from tests.serverkit import Link, clocked_table, config, drive, run, settle
from tests.test_rules_away import seated

pytestmark = pytest.mark.timeout(90)


def _has_seat(seats: list[dict], **want: object) -> bool:
    """A seat entry with these keys and values (entries carry more keys than these)."""
    return any(all(entry.get(k) == v for k, v in want.items()) for entry in seats)


async def one_match(table: Table, clock: FakeClock, *links: Link) -> dict:
    """The host starts a match and the links play it at random: its standings."""
    links[0].send({"type": "start"})
    await drive(table, clock, list(links), random.Random(3))
    return links[0].last("standings")


@run
async def test_a_late_arrival_sits_in_at_the_next_match(tmp_path: Path) -> None:
    """A free seat (R-T1) taken mid-match plays from the next match, with 600 chips (R-T3)
    like everyone; meanwhile it sees only what a spectator sees."""
    table, clock = await clocked_table(config(tmp_path, computer=1))
    (ann,) = await seated(table, "Ann")
    ann.send({"type": "start"})
    await settle(table, ann)
    mark = len(ann.log)
    bob = Link(table, "Bob")
    welcome = bob.hello()
    assert welcome["seat"] == 1 and welcome["watch"] is False
    lobby = bob.last("lobby")
    assert lobby["running"] and _has_seat(
        lobby["seats"], seat=1, name="Bob", kind="human", connected=True, next=True
    )
    assert _has_seat(ann.last("lobby")["seats"], name="Bob", next=True)
    assert ann.log.index(ann.last("lobby")) >= mark
    assert {s["name"] for s in bob.last("match_start")["seats"]} == {"Ann", "Ada"}
    await settle(table, ann, bob)
    view = bob.last("table")["view"]
    assert view["you"] is None  # watching meanwhile: the public view
    assert 1 not in {s["seat"] for s in view["seats"]}
    await drive(table, clock, [ann, bob], random.Random(3))
    assert {r["name"] for r in ann.last("standings")["standings"]} == {"Ann", "Ada"}
    after = bob.last("lobby", running=False)
    assert [s.get("next") for s in after["seats"]] == [None, True, None]  # still new
    second = await one_match(table, clock, ann, bob)
    start = bob.last("match_start")
    assert {s["name"] for s in start["seats"]} == {"Ann", "Bob", "Ada"}
    assert not any(s.get("next") for s in start["seats"])  # Bob plays this one
    assert bob.last("standings") == second
    assert {r["name"] for r in second["standings"]} == {"Ann", "Bob", "Ada"}
    table.shutdown()


@run
async def test_the_nights_scoreboard_over_three_matches_and_a_restart(tmp_path: Path) -> None:
    """Each match's standings (R-T6: ties share the win) add up into the night's totals."""
    cfg = config(tmp_path, computer=2, name="Friday")
    table, clock = await clocked_table(cfg)
    (ann,) = await seated(table, "Ann")
    lobby = ann.last("lobby")
    assert lobby["table"] == "Friday"
    assert lobby["night"]["played"] == 0 and lobby["night"]["totals"] == []
    results = [await one_match(table, clock, ann), await one_match(table, clock, ann)]
    assert ann.last("lobby", running=False)["night"]["played"] == 2
    table.shutdown()
    files = list(tmp_path.glob("night-*-friday.json"))
    assert len(files) == 1 and len(json.loads(files[0].read_text())["matches"]) == 2
    table, clock = await clocked_table(cfg)  # the same evening, restarted
    (ann,) = await seated(table, "Ann")
    assert ann.last("lobby")["night"]["played"] == 2
    results.append(await one_match(table, clock, ann))
    table.shutdown()
    nets: dict[str, int] = {}
    wins: dict[str, int] = {}
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
    kinds = {t["name"]: t["kind"] for t in night["totals"]}
    assert kinds == {"Ann": "human", "Ada": "computer", "Babbage": "computer"}


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


def test_a_night_is_an_evening_from_noon_to_noon_kept_private(tmp_path: Path) -> None:
    """Its scoreboard names everyone who played: only its owner reads it (0600 in a 0700
    folder), like the histories."""
    assert evening_of(FRIDAY) == evening_of(datetime(2026, 11, 28, 1, 30)) == "2026-11-27"
    folder = tmp_path / "histories"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)  # there before, with looser modes
    night = Night.load(folder, "Friday", FRIDAY)
    assert night.path == night_path(folder, "2026-11-27", "Friday")
    assert night.label() == "Friday 27 November"
    _add_match(night, "m1")
    assert night.path.stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700
    assert [p.name for p in folder.iterdir()] == [night.path.name]  # no .tmp left
    after_midnight = Night.load(folder, "Friday", datetime(2026, 11, 28, 1, 30))
    assert after_midnight.summary()["played"] == 1
    assert after_midnight.totals()[0] == {
        "name": "Ann",
        "kind": "human",
        "matches": 1,
        "wins": 1,
        "net": 50,
    }
    assert Night.load(folder, "Den", FRIDAY).summary()["played"] == 0  # another table
    saturday = Night.load(folder, "Friday", datetime(2026, 11, 28, 13, 0))
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
    table, clock = await clocked_table(config(tmp_path, computer=1))
    ann, bob, cy = await seated(table, "Ann", "Bob", "Cy")
    assert (ann.seat, bob.seat, cy.seat) == (0, 1, 2)
    ann.send({"type": "start"})
    await settle(table, ann, bob, cy)
    cy.drop()  # Cy goes home mid-match; R-C1 plays the seat out
    await drive(table, clock, [ann, bob], random.Random(3))
    assert {r["name"] for r in ann.last("standings")["standings"]} == {"Ann", "Bob", "Cy", "Ada"}
    lobby = ann.last("lobby", running=False)
    seats = [(0, "Ann"), (1, "Bob"), (6, "Ada")]
    assert [(s["seat"], s["name"]) for s in lobby["seats"]] == seats
    assert lobby["can_start"]
    result = await one_match(table, clock, ann, bob)  # the rematch: one message, the same seats
    assert [(s["seat"], s["name"]) for s in bob.last("match_start")["seats"]] == seats
    assert {r["name"] for r in result["standings"]} == {"Ann", "Bob", "Ada"}
    assert Link(table, "Dee").hello()["seat"] == 2  # Cy's chair, free again
    table.shutdown()


@run
async def test_the_host_frees_a_computer_seat_for_a_person(tmp_path: Path) -> None:
    table, _clock = await clocked_table(config(tmp_path, computer=6))
    (ann,) = await seated(table, "Ann")
    watcher = Link(table, "Zed")
    watcher.hello(watch=True)
    watcher.send({"type": "sit"})
    assert watcher.last("error")["code"] == "table_full"
    assert Link(table, "Bob").hello()["code"] == "table_full"
    watcher.send({"type": "free_seat", "seat": 6})
    assert watcher.log[-1]["code"] == "not_host"
    ann.send({"type": "free_seat", "seat": 0})
    assert ann.last("error")["code"] == "bad_seat"
    ann.send({"type": "free_seat", "seat": 6})
    assert 6 not in {s["seat"] for s in ann.last("lobby")["seats"]}
    watcher.send({"type": "sit"})
    welcome = watcher.last("welcome")
    assert welcome["seat"] == 6 and welcome["token"] and not welcome["watch"]
    lobby = ann.last("lobby")
    assert _has_seat(lobby["seats"], seat=6, name="Zed", kind="human", host=False)
    assert not any(entry.get("next") for entry in lobby["seats"])  # no match played yet
    table.shutdown()


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
