"""The simulator writes exact ``stud-hh/1`` lines, and the same seed writes the same file."""

from __future__ import annotations

import io
import json

import pytest

from scripts.simulate import simulate
from tests.hhcheck import problems


def _run(**kwargs: int) -> str:
    out = io.StringIO()
    simulate(out=out, **kwargs)
    return out.getvalue()


@pytest.mark.parametrize(
    ("seats", "stack", "match_hands"),
    [(2, 600, 8), (4, 60, 4), (7, 60, 12), (7, 8, 8)],
    ids=["heads-up", "four-short", "seven-short", "seven-tiny"],
)
def test_every_line_obeys_the_format(seats: int, stack: int, match_hands: int) -> None:
    text = _run(
        seats=seats, hands=400, seed=seats * 1000 + stack, stack=stack, match_hands=match_hands
    )
    lines = text.splitlines()
    assert len(lines) == 400
    matches: dict[str, list[int]] = {}
    for line in lines:
        record = json.loads(line)
        assert problems(record) == [], record
        matches.setdefault(record["match"], []).append(record["hand"])
    for numbers in matches.values():
        assert numbers == list(range(1, len(numbers) + 1))
        assert len(numbers) <= match_hands  # R-T4, R-T6


def test_same_seed_same_file() -> None:
    assert _run(seats=5, hands=50, seed=7) == _run(seats=5, hands=50, seed=7)
    assert _run(seats=5, hands=50, seed=7) != _run(seats=5, hands=50, seed=8)
