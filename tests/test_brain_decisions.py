"""The computer seats play exactly as recorded: the same view, the same memory and the
same RNG state give the same choice, and draw the same random numbers (issue 15).

The fixture (``tests/data/decisions.json``) was recorded by ``tests/record_decisions.py``
from the brain as it was before it became one package; remake it only on purpose
(``python -m tests.record_decisions``), when a level is meant to play differently.
"""

from __future__ import annotations

import json

import pytest

from common.levels import LEVEL_IDS
from tests.record_decisions import (
    FIXTURE,
    letter,
    memory_crc,
    play_points,
    play_session,
    rng_crc,
    session_of,
    view_crc,
)

RECORDED = json.loads(FIXTURE.read_text())
SESSIONS = [session_of(entry) for entry in RECORDED["sessions"]]


def _chunks(text: str) -> list[str]:
    return [text[i : i + 8] for i in range(0, len(text), 8)]


def test_the_fixture_is_a_few_thousand_decisions_of_every_kind() -> None:
    turns = sum(len(s["actions"]) for s in RECORDED["sessions"])
    assert turns + len(RECORDED["points"]["actions"]) > 3000
    assert {len(s.players) for s in SESSIONS} == {2, 4, 7}
    kinds = {kind for s in SESSIONS for _, kind in s.players}
    assert kinds == {*LEVEL_IDS, "solid", "blunder"}
    assert all(s.matches >= 2 for s in SESSIONS if len(s.players) < 7)  # memory is kept


@pytest.mark.parametrize("index", range(len(SESSIONS)), ids=[s.name for s in SESSIONS])
def test_seeded_matches_replay_every_choice(index: int) -> None:
    session, want = SESSIONS[index], RECORDED["sessions"][index]
    views, rngs, memories = _chunks(want["views"]), _chunks(want["rngs"]), _chunks(want["memories"])
    turn = hand = 0
    for what, obj, action, rng in play_session(session):
        if what == "end":
            assert f"{memory_crc(obj):08x}" == memories[hand], f"memory after hand {hand}"
            hand += 1
            continue
        where = f"{session.name}, decision {turn}"
        # A different view means the engine or the views changed, not the brain.
        assert f"{view_crc(obj):08x}" == views[turn], f"{where}: not the recorded view"
        assert letter(action) == want["actions"][turn], f"{where}: chose {action}"
        assert f"{rng_crc(rng):08x}" == rngs[turn], f"{where}: drew other random numbers"
        turn += 1
    assert turn == len(want["actions"]) and hand == len(memories)


def test_random_points_replay_every_choice() -> None:
    want = RECORDED["points"]
    views, rngs = _chunks(want["views"]), _chunks(want["rngs"])
    i = point = 0
    last = None
    for view, kind, action, rng in play_points(want["count"], want["kinds"]):
        if view is not last:
            assert f"{view_crc(view):08x}" == views[point], f"point {point}: not the recorded view"
            point += 1
            last = view
        where = f"point {point - 1}, {kind}"
        assert letter(action) == want["actions"][i], f"{where}: chose {action}"
        assert f"{rng_crc(rng):08x}" == rngs[i], f"{where}: drew other random numbers"
        i += 1
    assert i == len(want["actions"]) and point == len(views)
