"""The engine plays seeded random hands exactly as recorded: the same legal actions at every
decision, the same events, the same table after every step (issue 20: a faster engine must
not change legality or events).

The fixture (``tests/data/engine_hands.json.gz``) was recorded by ``tests/record_engine.py``
from the engine before it was made faster; remake it only on purpose
(``python -m tests.record_engine``), when the rules are meant to change.
``scripts/compare_engine.py`` compares many more hands against any commit.
"""

from __future__ import annotations

import collections
import json
import re

import pytest

from tests.record_engine import DIGESTS, FULL, brief, digests, hand_record, load

RECORDED = load()
CHUNK = 500


def _first_difference(got: list[str], want: list[str]) -> str:
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return f"line {i}:\n  got  {a}\n  want {b}"
    return f"lengths {len(got)} != {len(want)}"


@pytest.mark.parametrize("index", range(FULL))
def test_full_hands_replay_line_for_line(index: int) -> None:
    got, want = brief(hand_record(index)), RECORDED["full"][index]
    assert got == want, f"hand {index}, {_first_difference(got, want)}"


@pytest.mark.parametrize("start", range(0, DIGESTS, CHUNK))
def test_every_recorded_hand_has_the_same_record(start: int) -> None:
    want = RECORDED["digests"][8 * start : 8 * (start + CHUNK)]
    got = "".join(f"{d:08x}" for d in digests(start, start + CHUNK))
    assert len(want) == len(got) == 8 * CHUNK
    bad = [start + i // 8 for i in range(0, len(got), 8) if got[i : i + 8] != want[i : i + 8]]
    assert not bad, f"hands {bad[:10]} differ ({len(bad)} of {CHUNK})"


def test_the_fixture_covers_the_hard_cases() -> None:
    """2 to 7 seats, antes all in, short and full all-in wagers (R-A2), side pots (R-A3),
    uncalled bets (R-A4), uncapped raising heads-up (R-B6), showdowns after a bet or
    checks on seventh street (R-S5), other stakes and illegal tries."""
    seen: collections.Counter[str] = collections.Counter()
    for lines in RECORDED["full"]:
        text = "\n".join(lines)
        seats = len(re.match(r"hand \d+: \{([^}]*)\}", lines[0]).group(1).split(","))
        seen[f"{seats} seats"] += 1
        acts = [json.loads(line.split(" ", 1)[1]) for line in lines if line.startswith("Act ")]
        raises = collections.Counter(a["street"] for a in acts if a["action"] == "raise")
        seventh = [a["action"] for a in acts if a["street"] == 7]
        features = {
            "ante all in": '"all_in": true, "amount"' in text,
            "all-in wager": any(
                a["all_in"] and a["action"] in ("complete", "bet", "raise") for a in acts
            ),
            "side pot": '"pot": 1' in text,
            "second side pot": '"pot": 2' in text,
            "return": "Return " in text,
            "four raises on a street": any(n >= 4 for n in raises.values()),
            "showdown": "Show " in text,
            "showdown after a bet": "Show " in text and "bet" in seventh,
            "showdown after checks": "Show " in text and seventh and set(seventh) == {"check"},
            "other stakes": "small_bet=10, big_bet=20)" not in lines[0],
            "illegal try": "! seat" in text,
        }
        seen.update(name for name, present in features.items() if present)
    for seats in range(2, 8):
        assert seen[f"{seats} seats"] >= 5, seen
    for name in ("ante all in", "second side pot", "four raises on a street", "other stakes"):
        assert seen[name] >= 3, (name, seen)
    for name in ("all-in wager", "side pot", "return", "showdown", "showdown after a bet"):
        assert seen[name] >= 10, (name, seen)
    assert seen["showdown after checks"] >= 1, seen
    assert seen["illegal try"] >= 100, seen
