"""The recap of a match, computed from its ``stud-hh/1`` hands alone.

``chip_lines(records)`` is every seat's chips before the first hand and after
each hand (the chart), and ``moments(records)`` the match's moments: the
biggest pot (who won it, with what), the best hand shown and the most hands
won, each naming the hand to replay.  Works on full records and on the
records a seat saw (``common.replay.seen_record``): it reads only stacks,
awards and shows, which every seat sees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common.cards import parse_many
from common.hands import evaluate
from common.replay import seat_names, won_by

__all__ = ["ChipLine", "Moment", "chip_lines", "moments"]


@dataclass(frozen=True, slots=True)
class ChipLine:
    """One seat's chips: ``chips[0]`` before hand 1, ``chips[k]`` after hand ``hands[k - 1]``."""

    seat: int
    name: str
    chips: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of the match worth replaying: ``hand`` is its hand number."""

    title: str
    text: str
    hand: int
    seat: int
    kind: str = ""
    """``biggest_pot``, ``best_hand`` or ``most_won``: what the facts below mean."""
    names: tuple[str, ...] = ()
    """Who: the pot's winners, the hand's owner, or the seats that won the most."""
    chips: int = 0
    """The pot's chips, or how many hands the leaders won."""
    shown: str = ""
    """The hand (``stud-hh/1``'s name) the pot was won with or the best one shown."""
    of: int = 0
    """The match's hands (the most won: of how many)."""


def _names(records: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    return {seat: name for rec in records for seat, name in seat_names(rec).items()}


def chip_lines(records: Sequence[Mapping[str, Any]]) -> list[ChipLine]:
    """Each seat's chips over the match, seat order.  A seat out of chips (R-T5) is
    dealt no more hands; its line stays at 0."""
    names = _names(records)
    now: dict[int, int] = {}
    for rec in records:  # a seat's first stack is the one it was first dealt in with
        for s in rec["seats"]:
            now.setdefault(s["seat"], s["stack"])
    lines: dict[int, list[int]] = {s: [now[s]] for s in sorted(now)}
    for rec in records:
        for f in rec["final"]:
            now[f["seat"]] = f["stack"]
        for s in lines:
            lines[s].append(now[s])
    return [ChipLine(s, names[s], tuple(v)) for s, v in lines.items()]


def moments(records: Sequence[Mapping[str, Any]]) -> list[Moment]:
    """The biggest pot, the best hand shown and the most hands won (when there are any)."""
    names = _names(records)
    out: list[Moment] = []
    if not records:
        return out
    # The biggest pot: the most chips awarded in one hand; the first such hand on a tie.
    big = max(records, key=lambda r: (sum(won_by(r).values()), -int(r["hand"])))
    won = won_by(big)
    if won:
        shows = {e["seat"]: e["hand"] for e in big["events"] if e.get("ev") == "show"}
        top = max(won, key=lambda s: won[s])
        who = " and ".join(names[s] for s in won)
        how = f"with {shows[top]}" if top in shows else "uncontested"
        text = f"{sum(won.values())} chips, hand {big['hand']}: {who} {how}"
        winners = tuple(names[s] for s in won)
        out.append(Moment("Biggest pot", text, int(big["hand"]), top, "biggest_pot", winners,
                          sum(won.values()), shows.get(top, "")))  # fmt: skip
    # The best hand shown at a showdown.
    best: tuple[int, Mapping[str, Any], Mapping[str, Any]] | None = None
    for rec in records:
        for e in rec["events"]:
            if e.get("ev") == "show":
                value = evaluate(parse_many(e["cards"]))
                if best is None or value > best[0]:
                    best = (value, e, rec)
    if best is not None:
        _, show, rec = best
        text = f"{names[show['seat']]}: {show['hand']}, hand {rec['hand']}"
        out.append(Moment("Best hand shown", text, int(rec["hand"]), show["seat"], "best_hand",
                          (names[show["seat"]],), shown=show["hand"]))  # fmt: skip
    # The most hands won (a split pot counts for each winner); replay that seat's biggest.
    count: dict[int, int] = {}
    for rec in records:
        for s in won_by(rec):
            count[s] = count.get(s, 0) + 1
    if count:
        most = max(count.values())
        leaders = [s for s in sorted(count) if count[s] == most]
        lead = leaders[0]
        their = max(records, key=lambda r: (won_by(r).get(lead, 0), -int(r["hand"])))
        who = " and ".join(names[s] for s in leaders)
        text = f"{who}: {most} {'hand' if most == 1 else 'hands'} of {len(records)}"
        out.append(Moment("Most hands won", text, int(their["hand"]), lead, "most_won",
                          tuple(names[s] for s in leaders), most, of=len(records)))  # fmt: skip
    return out
