"""Long soaks, left out of the default run: ``./scripts/test -m slow``.

The simulator's 20,000-hand run of the issue, every line checked against the
format, and (when pokerkit is installed) replayed through pokerkit, where no
divergence may be our bug.
"""

from __future__ import annotations

import importlib.util
import io
import json

import pytest

from scripts.simulate import simulate
from tests.hhcheck import problems

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def seven_short_stacks() -> list[dict]:
    out = io.StringIO()
    simulate(seats=7, hands=20_000, seed=1, out=out, stack=60)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_twenty_thousand_seven_seat_hands_are_exact(seven_short_stacks: list[dict]) -> None:
    assert len(seven_short_stacks) == 20_000
    bad = [(r["match"], r["hand"], p) for r in seven_short_stacks if (p := problems(r))]
    assert bad == []


@pytest.mark.skipif(importlib.util.find_spec("pokerkit") is None, reason="pip install pokerkit")
@pytest.mark.filterwarnings("ignore::UserWarning")  # pokerkit's "not recommended to be dealt"
def test_pokerkit_finds_no_bug_of_ours(seven_short_stacks: list[dict]) -> None:
    from scripts.replay_pokerkit import replay

    ours = [
        d
        for record in seven_short_stacks[:5000]
        for d in replay(record)
        if d.cls not in ("POKERKIT DIFFERS",)
    ]
    assert ours == []
