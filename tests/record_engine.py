"""Seeded hands of random legal play, recorded so that a faster engine can be checked to
play exactly as before (``tests/test_engine_recorded.py``; issue 20).

    .venv/bin/python -m tests.record_engine           # rewrite tests/data/engine_hands.json.gz
    .venv/bin/python scripts/compare_engine.py        # many more hands against a commit

Hand ``i`` is drawn from ``random.Random(i)`` alone: 2 to 7 seats on random seat numbers
(so the button may be an empty seat), stacks from "600 each" to "a few chips each" (all-ins
on the ante, short all-ins under and over the half rule, side pots), now and then other
stakes, a full pack or only the cards the hand can use, and a style of play (uniform as
the benchmark plays, or leaning to fold, to call, to raise: raising heads-up is uncapped,
R-B6, and long hands reach the showdown's order of R-S5).

A hand's record is a list of lines: at every decision the seat and turn, every legal
action (kind, put, to, all in), what a dropped seat would do (R-C1) and, now and then,
the error an illegal try raises (``IllegalAction``'s message names the legal actions);
then every event (its kind and its ``stud-hh/1`` object) and the table the public
attributes show after each step (street, high, cap count, pots, every seat's chips and
cards).  The fixture keeps a CRC of the record of each of the first ``DIGESTS`` hands,
and the whole records of the first ``FULL`` hands, to show where a change went wrong.

Only the engine's public API is used, the one of the commit the fixture was made from,
so that ``scripts/compare_engine.py`` can run this file against an older engine.
"""

from __future__ import annotations

import gzip
import json
import random
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from common.cards import deal_cards, shuffled_deck
from common.engine import Hand
from common.events import ActionKind, IllegalAction, Stakes

FIXTURE = Path(__file__).resolve().parent / "data" / "engine_hands.json.gz"
DIGESTS = 3000
"""Hands whose record's CRC the fixture keeps."""
FULL = 120
"""Hands whose whole record the fixture keeps (the first ones), but for the table lines
(``=``), which only their CRC holds: they would make the fixture several times larger."""

_OTHER_STAKES = (
    Stakes(2, 5, 10, 20),
    Stakes(1, 3, 6, 12),
    Stakes(0, 2, 4, 8),
    Stakes(1, 2, 5, 10),
    Stakes(1, 3, 7, 15),
)
_KINDS = tuple(ActionKind)
# Weights of each action kind, by style (bring-in, complete, bet, raise, call, check, fold).
_STYLES: dict[str, dict[str, int]] = {
    "uniform": {},
    "folder": {"fold": 4},
    "caller": {"call": 6, "check": 6, "fold": 1},
    "raiser": {"raise": 6, "bet": 6, "complete": 6, "fold": 1},
    "sticky": {"call": 4, "raise": 3, "bet": 3, "complete": 2, "check": 2, "fold": 0},
}


def _table(rng: random.Random) -> tuple[dict[int, int], int, Stakes, str]:
    seats = sorted(rng.sample(range(7), rng.randint(2, 7)))
    profile = rng.choice(("deep", "deep", "short", "mixed", "edges"))
    if profile == "deep":
        stacks = dict.fromkeys(seats, 600)
    elif profile == "short":
        stacks = {s: rng.randint(1, 40) for s in seats}
    elif profile == "mixed":
        stacks = {s: rng.choice((rng.randint(1, 30), rng.randint(1, 700))) for s in seats}
    else:  # around the bring-in, the completion and the half bets
        stacks = {
            s: rng.choice((1, 2, 4, 5, 6, 9, 10, 11, 14, 15, 16, 25, 30, 35, 600)) for s in seats
        }
    stakes = rng.choice(_OTHER_STAKES) if rng.random() < 0.1 else Stakes()
    return stacks, rng.randrange(7), stakes, rng.choice(tuple(_STYLES))


def _cards(cards: Any) -> str:
    return " ".join(map(str, cards))


def _state(hand: Hand) -> str:
    seats = ";".join(
        f"{s}:{st.stack},{st.street_total},{st.hand_total},{int(st.folded)}{int(st.all_in)}"
        f"{int(st.acted)},{st.full_mark},{st.last_action},{_cards(st.down)}/{_cards(st.up)}"
        f"/{_cards(st.cards)},{int(st.can_bet)}"
        for s, st in hand.seats.items()
    )
    pots = " ".join(f"{p.amount}{list(p.seats)}" for p in hand.pots())
    return (
        f"= st{hand.street} to{hand.to_act} t{hand.turn} hi{hand.high} fc{hand.full_count}"
        f" op{int(hand.opened)} bi{hand.bring_in_seat} over{int(hand.is_over)}"
        f" pot{hand.pot_total} in{hand.in_hand} pots[{pots}] | {seats}"
    )


def _event(event: Any) -> str:
    return f"{type(event).__name__} {json.dumps(event.to_dict(), sort_keys=True)}"


def hand_record(index: int) -> list[str]:
    """The record of hand ``index`` (see the module docstring)."""
    rng = random.Random(index)
    stacks, button, stakes, style = _table(rng)
    weights = _STYLES[style]
    n = len(stacks)
    deck = shuffled_deck(rng) if rng.random() < 0.5 else deal_cards(rng, 7 * n)
    lines = [f"hand {index}: {stacks} button {button} {stakes} {style} {_cards(deck)}"]
    hand = Hand(stacks=stacks, button=button, deck=deck, stakes=stakes)
    lines.append(f"order {list(hand.order)} legal{hand.legal_actions()} {_state(hand)}")
    emitted = list(hand.start())
    lines += map(_event, emitted)
    lines.append(_state(hand))
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        buttons = " ".join(f"{a.kind}:{a.put}:{a.to}:{int(a.all_in)}" for a in legal)
        same = legal == hand.legal_actions(seat) and all(
            hand.legal_actions(o) == () for o in hand.seats if o != seat
        )
        lines.append(f"? s{seat} t{hand.turn} [{buttons}] {same} {hand.default_action(seat)}")
        lines.append("  " + " / ".join(a.describe() for a in legal))
        if rng.random() < 0.08:
            wrong_seat = rng.choice([o for o in (*hand.seats, 7) if o != seat])
            for who, what in ((wrong_seat, legal[0].kind), (seat, rng.choice((*_KINDS, "nap")))):
                try:
                    out = hand.apply(who, what)
                except IllegalAction as exc:
                    lines.append(f"! {exc} {exc.seat} {exc.action} {len(exc.legal)}")
                    lines.append(_state(hand))
                    continue
                # A legal kind was drawn: it was played, carry on from there.
                lines.append(f"played {who} {what}")
                emitted += out
                lines += map(_event, out)
                lines.append(_state(hand))
            continue
        pick = rng.choices(legal, [weights.get(a.kind.value, 2) + 0.01 for a in legal])[0]
        out = hand.apply(seat, pick.kind.value if rng.random() < 0.5 else pick.kind)
        emitted += out
        lines += map(_event, out)
        lines.append(_state(hand))
        assert len(lines) < 5000, "every hand ends"
    lines.append(f"events {len(hand.events)} {list(hand.events) == emitted}")
    lines.append(f"final {hand.final_stacks()} {hand.legal_actions()}")
    try:
        hand.apply(0, "check")
    except IllegalAction as exc:
        lines.append(f"! {exc}")
    return lines


def digest(lines: list[str]) -> int:
    return zlib.crc32("\n".join(lines).encode())


def brief(lines: list[str]) -> list[str]:
    """A record without its table lines, as the fixture keeps the first hands."""
    return [line for line in lines if not line.startswith("=")]


def digests(start: int, stop: int) -> Iterator[int]:
    for index in range(start, stop):
        yield digest(hand_record(index))


def record() -> dict[str, Any]:
    return {
        "digests": "".join(f"{d:08x}" for d in digests(0, DIGESTS)),
        "full": [brief(hand_record(i)) for i in range(FULL)],
    }


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    return data


if __name__ == "__main__":
    data = record()
    FIXTURE.write_bytes(gzip.compress(json.dumps(data, separators=(",", ":")).encode(), mtime=0))
    print(f"{FIXTURE.name}: {DIGESTS} digests, {FULL} full hands, {FIXTURE.stat().st_size} bytes")
