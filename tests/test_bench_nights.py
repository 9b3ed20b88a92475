"""The strength bench plays nights as the table does (issue 21, point 2): its players
sit in the table's own computer seats (``server.lobby.ComputerChairs``), keep their
memory over a night's matches, forget it at the next night, and draw from random
sources made for the night, so a night's result does not depend on the nights before.
"""

from __future__ import annotations

import random

from scripts.bench_bots import Night, deal_cards, play_hand, run_chunk
from server.brain import Brain


def test_a_bench_night_keeps_memory_over_its_matches_and_forgets_at_the_next() -> None:
    table = Night(["shark", "tag"])
    shark = table.players[0]
    assert isinstance(shark, Brain)
    for night in ("first", "second"):
        table.begin(night, {0: random.Random(1), 1: random.Random(2)})
        for match in range(2):
            table.chairs.match_starts(table.night)
            assert shark.memory.hands == 4 * match  # kept over the night, reset at a new one
            for h in range(4):
                cards = deal_cards(1, 4 * match + h, 2)
                play_hand(table, button=h % 2, cards=cards)
        assert set(shark.memory.rivals) == {"tag 1"} and shark.memory.rivals["tag 1"].dealt == 8


def test_a_nights_result_does_not_depend_on_the_nights_before_it() -> None:
    both = run_chunk("shark", "tag", 2, 3, 0, 2, 2, 4)
    assert both == run_chunk("shark", "tag", 2, 3, 0, 1, 2, 4) + run_chunk(
        "shark", "tag", 2, 3, 1, 1, 2, 4
    )
