"""The replayer's table equals the live table at every step, and shows no card it may not.

Random hands are played on the engine; after every engine step the replay of
the finished ``stud-hh/1`` record, cut to the same number of events and to
what the viewer saw (``seen_record``), must equal ``seat_view`` for that
viewer (``turn_id`` and ``legal`` aside).  The cards-seen panel's cards
(``common.seen.cards_seen``) and every replay view hold only cards the viewer
may see (R-S1: down cards are private until shown).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.cards import shuffled_deck
from common.engine import Hand
from common.history import hand_record
from common.match import SeatInfo
from common.replay import hand_label, positions, seen_record, street_starts, table_after
from common.schema import SeatView
from common.seen import cards_seen, draws, viewer_cards
from common.views import seat_view
from tests.stacking import check_record, passive
from tests.test_engine_properties import _cards_in, _visible_cards, tables


def _play(stacks: dict[int, int], button: int, seed: int, data: st.DataObject) -> tuple:
    """Play one random hand; returns the hand, the record, and after each step the
    number of events so far and every viewer's live view then."""
    rng = random.Random(seed)
    hand = Hand(stacks=stacks, button=button, deck=shuffled_deck(rng))
    hand.start()
    viewers = [*stacks, None]
    steps = []

    def snap() -> None:
        views = {v: seat_view(hand, v) for v in viewers}
        allowed = {v: _visible_cards(hand, v) for v in viewers}
        steps.append((len(hand.events), views, allowed))

    snap()
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(hand.to_act, data.draw(st.sampled_from(legal), label="action").kind)
        snap()
    return hand, json.loads(json.dumps(check_record(hand))), steps


def _strip(view: SeatView) -> tuple[SeatView, list[int]]:
    """The view without its turn id and legal actions, and its seats' order."""
    return replace(view, turn_id=None, legal=[]), list(view.seats)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_replay_matches_the_live_table_event_by_event(table, data) -> None:
    stacks, button, seed = table
    hand, record, steps = _play(stacks, button, seed, data)
    for viewer in [*stacks, None]:
        seen = seen_record(record, viewer)
        for upto, views, allowed in steps:
            replayed = table_after(seen, upto, viewer)
            live = views[viewer]
            assert _strip(replayed) == _strip(live), (viewer, upto)
            assert replayed.encode() == {**live.encode(), "turn": None, "legal": []}
            # R-S1: nothing in the replay or the cards-seen panel the viewer may not see.
            assert _cards_in(replayed.encode()) <= allowed[viewer]
            assert cards_seen(replayed) <= allowed[viewer]
            assert cards_seen(live) <= allowed[viewer]
            # The client's panel reads the view as the wire brings it the same way.
            panel = cards_seen(SeatView.decode(live.encode()))
            assert panel == cards_seen(live)
            for d in draws(viewer_cards(replayed), cards_seen(replayed), 7):
                assert not set(d.wanted) & cards_seen(replayed), "a seen card is never live"
        # Every event's replay holds only what the viewer saw by then.
        for n in range(len(seen["events"]) + 1):
            cards = _cards_in(table_after(seen, n, viewer).encode())
            assert cards <= _cards_in(seen["events"][:n]) | {
                c for s in seen["events"][:n] if s.get("ev") == "show" for c in s["cards"]
            }
    # The full record replays to the final stacks.
    end = table_after(record, len(record["events"]))
    assert {s.seat: s.stack for s in end.seats.values()} == {
        f["seat"]: f["stack"] for f in record["final"]
    }
    assert end.over and end.pot == 0


def _stacked_record() -> dict:
    """A hand played to a showdown on a fixed deck (three seats)."""
    rng = random.Random(5)
    hand = Hand(stacks={0: 600, 2: 600, 4: 600}, button=4, deck=shuffled_deck(rng))
    hand.start()
    passive(hand)
    rec = hand_record(
        match_id="m",
        number=3,
        time="2026-11-30T20:00:00+01:00",
        hand=hand,
        seats={s: SeatInfo(n) for s, n in ((0, "Ann"), (2, "Bo"), (4, "Cy"))},
    )
    return json.loads(json.dumps(rec))


def test_positions_step_street_by_street_and_action_by_action() -> None:
    rec = _stacked_record()
    stops = positions(rec)
    acts = [e for e in rec["events"] if e["ev"] == "act"]
    shows = [e for e in rec["events"] if e["ev"] == "show"]
    streets = sorted({e["street"] for e in rec["events"] if e["ev"] == "deal"})
    # One stop per deal of a street, per action, per hand shown, and one for the pots.
    assert len(stops) == len(streets) + len(acts) + len(shows) + 1
    assert [stops[k].street for k in street_starts(stops)] == [*streets, 8]
    assert stops[0].label == "Third street: the deal"
    assert stops[-1].upto == len(rec["events"])
    assert all(a.upto < b.upto for a, b in zip(stops, stops[1:], strict=False))
    first_act = stops[1]
    who = {0: "Ann", 2: "Bo", 4: "Cy"}[acts[0]["seat"]]
    assert first_act.label == f"{who} brings in 4"
    view = table_after(rec, first_act.upto)
    assert view.pot == 3 + 4 and view.to_act == acts[1]["seat"]
    assert hand_label(rec).startswith("Hand 3: ")


def test_a_seat_replays_only_what_it_saw() -> None:
    rec = _stacked_record()
    folded_hole = [
        e["card"] for e in rec["events"] if e["ev"] == "deal" and not e["up"] and e["seat"] == 2
    ]
    mine = seen_record(rec, 0)
    hidden = [e for e in mine["events"] if e["ev"] == "deal" and not e["up"] and e["seat"] != 0]
    assert hidden and all("card" not in e for e in hidden)
    mid = table_after(mine, positions(mine)[1].upto, 0)
    seats = mid.seats
    assert seats[0].hole is not None and seats[2].hole is None and seats[4].hole is None
    assert not set(folded_hole) & _cards_in(mid.encode())
    # The full record (open books, a file) shows every hole card.
    full = table_after(rec, positions(rec)[1].upto, 0)
    assert all(s.hole is not None for s in full.seats.values())
