"""The recap's figures come from the hand histories: chips per hand and the moments."""

from __future__ import annotations

import io

from common.cards import parse_many
from common.hands import evaluate
from common.history import load
from common.recap import chip_lines, moments
from common.replay import seen_record
from scripts.simulate import simulate


def _match(seed: int, seats: int = 4, stack: int = 600) -> list[dict]:
    out = io.StringIO()
    simulate(seats=seats, hands=8, seed=seed, out=out, stack=stack)
    records = load(out.getvalue())
    first = records[0]["match"]
    return [r for r in records if r["match"] == first]


def test_chip_lines_follow_each_hands_final_stacks() -> None:
    for seed in range(6):
        records = _match(seed, stack=80)
        lines = {line.seat: line for line in chip_lines(records)}
        assert all(len(line.chips) == len(records) + 1 for line in lines.values())
        for k, rec in enumerate(records):
            for s in rec["seats"]:
                assert lines[s["seat"]].chips[k] == s["stack"]
            for f in rec["final"]:
                assert lines[f["seat"]].chips[k + 1] == f["stack"]
        total = sum(line.chips[0] for line in lines.values())
        assert all(sum(line.chips[k] for line in lines.values()) == total
                   for k in range(len(records) + 1))  # fmt: skip


def test_moments_are_the_biggest_pot_the_best_hand_and_the_most_wins() -> None:
    for seed in range(6):
        records = _match(seed)
        got = {m.title: m for m in moments(records)}
        pots = [sum(e["amount"] for e in r["events"] if e["ev"] == "award") for r in records]
        big = records[pots.index(max(pots))]
        assert got["Biggest pot"].hand == big["hand"]
        assert f"{max(pots)} chips" in got["Biggest pot"].text
        shows = [(evaluate(parse_many(e["cards"])), r["hand"], e["hand"])
                 for r in records for e in r["events"] if e["ev"] == "show"]  # fmt: skip
        if shows:
            value, hand, name = max(shows, key=lambda t: t[0])
            best = got["Best hand shown"]
            shown = next(
                e["cards"]
                for r in records
                if r["hand"] == best.hand
                for e in r["events"]
                if e["ev"] == "show" and e["seat"] == best.seat
            )
            assert evaluate(parse_many(shown)) == value
            assert name in got["Best hand shown"].text
        wins: dict[int, int] = {}
        for r in records:
            for s in {e["seat"] for e in r["events"] if e["ev"] == "award"}:
                wins[s] = wins.get(s, 0) + 1
        assert f"{max(wins.values())} hand" in got["Most hands won"].text
        assert wins[got["Most hands won"].seat] == max(wins.values())


def test_a_seats_own_records_give_the_same_recap() -> None:
    records = _match(3)
    mine = [seen_record(r, 0) for r in records]
    assert moments(mine) == moments(records)
    assert chip_lines(mine) == chip_lines(records)
