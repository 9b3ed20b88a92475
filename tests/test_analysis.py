"""The analysis after the match (``common.analysis``): chances per street, marked decisions.

Stacked hands (``tests.stacking``) where the right answer is clear: button 0,
seat 1 (the viewer) and seat 2, deal and turn order 1, 2; seat 1's low up card
brings it in (R-O1), seat 2's pair showing acts first from fourth street (R-O2).
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from common import analysis
from common.analysis import (
    EXACT_BUDGET,
    FOLD_MARGIN,
    MatchAnalysis,
    analyse_hand,
    drawing_dead,
    floor_value,
)
from common.cards import full_deck, parse_many
from common.equity import exact_shares
from common.hands import evaluate
from common.history import load
from common.replay import positions, seen_record
from scripts.simulate import simulate
from tests.stacking import check_record, new_hand, passive, play

FLUSH = {1: "Ah 9h 4h 2h Jh 7c", 2: "?? ?? Kc Kd 8s 3d"}
"""Seat 1 makes a heart flush on fifth street; seat 2 shows a pair of kings."""
DEAD = {1: "2c 3d 4h 9s Jd 8c", 2: "?? ?? Kc Kd 7s 7d"}
"""Seat 2 shows kings and sevens by sixth street; seat 1 can make one pair at best."""
THROUGH_FIFTH = "1:bring_in 2:call 2:bet 1:call 2:bet 1:call"


def hand_record(cards: dict[int, str], steps: str) -> dict[str, Any]:
    """The hand played by ``steps``, then checked and called to its end."""
    hand = new_hand(0, cards)
    play(hand, steps)
    passive(hand)
    return check_record(hand)


def marks_of(rec: dict[str, Any], viewer: int = 1, seed: int = 1) -> list[analysis.Mark]:
    return analyse_hand(rec, viewer, random.Random(seed)).marks


# ------------------------------------------------------------------ folds


def test_a_fold_with_a_made_flush_against_a_pair_showing_is_marked() -> None:
    """Sixth street: seat 2 bets 20 into 90 (R-B5); seat 1 folds a flush against a board
    of K K 8 3 that can only beat it by filling up."""
    rec = hand_record(FLUSH, THROUGH_FIFTH + " 2:bet 1:fold")
    (mark,) = marks_of(rec)
    assert (mark.kind, mark.action, mark.street, mark.hand) == ("fold", "fold", 6, 1)
    assert rec["events"][mark.event] == {"ev": "act", "seat": 1, "street": 6,
                                         "action": "fold", "put": 0, "to": 0,
                                         "all_in": False}  # fmt: skip
    assert mark.need == pytest.approx(20 / 110)
    assert mark.chance is not None and mark.chance > 0.8  # only a full house beats it
    assert mark.chance >= mark.need + FOLD_MARGIN
    assert mark.cost == pytest.approx(mark.chance * 110 - 20)
    assert mark.big_bets == pytest.approx(mark.cost / 20)
    pct = round(100 * mark.chance)
    assert mark.text == f"You folded with about {pct}% facing 20 to win 90: you needed 18%."


@pytest.mark.parametrize(
    "steps",
    [
        pytest.param("2:check 1:check 2:check 1:check 2:bet 1:fold", id="fold-drawing-dead"),
        # Fourth street with nothing: a fold of 2c 3d 4h 9s against K K is fine.
        pytest.param("2:bet 1:fold", id="fold-facing-odds-it-could-not-meet"),
        # Fifth street against K K 7: seat 1 can still make two pair with two cards to come.
        pytest.param("2:check 1:check 2:bet 1:call", id="call-with-live-outs"),
        pytest.param("2:check 1:check 2:check 1:check 2:check 1:check", id="bring-in-and-checks"),
    ],
)
def test_what_is_not_marked(steps: str) -> None:
    """A correct fold, a call with live outs; the bring-in and checks are never judged."""
    assert marks_of(hand_record(DEAD, "1:bring_in 2:call " + steps)) == []


# ------------------------------------------------------------------ no live outs


def test_a_call_with_no_live_outs_is_marked() -> None:
    rec = hand_record(DEAD, "1:bring_in 2:call 2:check 1:check 2:check 1:check 2:bet 1:call")
    (mark,) = marks_of(rec)
    assert (mark.kind, mark.action, mark.street, mark.cost) == ("dead_call", "call", 6, 20.0)
    assert mark.text == (
        "You called 20 with no live outs: Seat 2 shows two pair, kings and sevens, and the "
        "best you could still make is one pair, jacks."
    )


def test_a_bet_into_a_showing_hand_that_beats_every_draw_is_marked() -> None:
    rec = hand_record(DEAD, "1:bring_in 2:call 2:check 1:check 2:check 1:check 2:check 1:bet")
    (mark,) = marks_of(rec)
    assert (mark.kind, mark.action, mark.street, mark.cost) == ("dead_bet", "bet", 6, 20.0)
    assert "into Seat 2's two pair, kings and sevens showing" in mark.text


def test_floor_is_what_the_up_cards_alone_guarantee() -> None:
    """The floor is at most every hand the up cards can end in (R-S2): exactly the
    weakest for two pair showing, below it where kickers are missing."""
    rng = random.Random(5)
    deck = full_deck()
    for _ in range(400):
        rng.shuffle(deck)
        n = rng.randint(1, 4)
        up, rest = deck[:n], deck[n:7]
        assert floor_value(up) <= evaluate([*up, *rest])
    assert floor_value(parse_many("Kc Kd 7s 7d")) == evaluate(parse_many("Kc Kd 7s 7d 2c"))
    assert floor_value(parse_many("Kc Kd 7s")) < evaluate(parse_many("Kc Kd 7s 2c 3d"))
    assert floor_value(parse_many("Kc Kd 7s 7d")) > evaluate(parse_many("Qc Qd Js Jd Ac"))


def test_drawing_dead_is_decided_over_every_completion() -> None:
    mine = parse_many("2c 3d 4h 9s Jd 8c")
    board = parse_many("Kc Kd 7s 7d")
    assert drawing_dead(mine, [board], [*mine, *board]) is not None
    fifth = parse_many("2c 3d 4h 9s Jd")  # two to come: two pair beats K K 7
    assert drawing_dead(fifth, [board[:3]], [*fifth, *board[:3]]) is None
    # Queens with one to come: only a third queen beats kings and sevens.  Its outs are
    # live until both are seen (on the table, or folded up cards: dead).
    queens = parse_many("Qc Qd 4h 9s 2d 8c")
    seen = [*queens, *board]
    assert drawing_dead(queens, [board], seen) is None
    assert drawing_dead(queens, [board], [*seen, *parse_many("Qh")]) is None
    who, best = drawing_dead(queens, [board], [*seen, *parse_many("Qh Qs")]) or (9, 0)
    assert who == 0 and best == evaluate(parse_many("Qc Qd 9s 9d 8c 4h 2d"))


# ------------------------------------------------------------------ chances


def test_true_chances_at_each_street_add_up_and_end_exact() -> None:
    rec = hand_record(FLUSH, THROUGH_FIFTH + " 2:bet 1:call 2:check 1:check")
    a = analyse_hand(rec, 1, random.Random(3))
    assert a.full
    deal_stops = [p.upto for p in positions(rec) if p.label.endswith("the deal")]
    assert [s.street for s in a.streets] == [3, 4, 5, 6, 7]
    assert [s.upto for s in a.streets] == deal_stops
    for st in a.streets:
        assert sum(c.share for c in st.chances) == pytest.approx(1.0)
    river = a.streets[-1]
    ones = {c.seat: c.share for c in river.chances}
    winner = next(e["seat"] for e in rec["events"] if e["ev"] == "award")
    assert ones[winner] == 1.0 and all(c.exact for c in river.chances)
    sixth = a.streets[3]  # heads-up sixth street is counted: the exact fraction
    cards = {s: [e["card"] for e in rec["events"][: sixth.upto]
                 if e["ev"] == "deal" and e["seat"] == s] for s in (1, 2)}  # fmt: skip
    exact = exact_shares([parse_many(cards[1]), parse_many(cards[2])])
    assert [c.share for c in sixth.chances] == pytest.approx([float(x) for x in exact])


def test_a_card_dealt_twice_leaves_out_the_streets_it_spoils_and_raises_nothing() -> None:
    """A hostile server's books or a damaged file: the replayer's analysis still ends."""
    rec = hand_record(FLUSH, THROUGH_FIFTH + " 2:bet 1:call 2:check 1:check")
    events = rec["events"]
    i = next(i for i, e in enumerate(events) if e["ev"] == "deal" and e["street"] == 4)
    events.insert(i, dict(events[i]))
    assert [s.street for s in analyse_hand(rec, 1, random.Random(3)).streets] == [3]


def test_closed_books_give_the_viewers_chance_only() -> None:
    rec = hand_record(FLUSH, THROUGH_FIFTH + " 2:bet 1:call 2:check 1:check")
    a = analyse_hand(seen_record(rec, 1), 1, random.Random(3))
    assert not a.full
    assert [[c.seat for c in s.chances] for s in a.streets] == [[1]] * 5
    assert analyse_hand(seen_record(rec, None), None, random.Random(3)).streets == []


def test_the_same_seed_gives_the_same_analysis_however_it_is_stepped() -> None:
    rec = hand_record(FLUSH, THROUGH_FIFTH + " 2:bet 1:fold")
    one = MatchAnalysis([rec, rec], 1, random.Random(9)).run()
    other = MatchAnalysis([rec, rec], 1, random.Random(9))
    other.prefer(1)  # the second hand first: the figures do not depend on the order
    while not other.step():
        pass
    assert [h.streets for h in one.hands] == [h.streets for h in other.hands]
    assert one.marks() == other.marks()
    third = MatchAnalysis([rec], 1, random.Random(10)).run()
    assert third.hands[0].streets != one.hands[0].streets  # another seed, other samples


def test_a_step_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """No step counts more than ``EXACT_BUDGET`` deals nor samples more than one batch,
    so a window can run one between two frames."""
    calls: list[tuple[int, int, int]] = []
    real_all, real_one = analysis.all_equities, analysis.equity

    def spy_all(hands: Any, dead: Any, rng: Any, **kw: Any) -> Any:
        calls.append((analysis.deal_count(hands, dead), kw.get("budget", 0),
                      kw.get("max_samples", 0)))  # fmt: skip
        return real_all(hands, dead, rng, **kw)

    def spy_one(mine: Any, rivals: Any, dead: Any, rng: Any, **kw: Any) -> Any:
        calls.append((analysis.deal_count([mine, *rivals], dead), kw.get("budget", 0),
                      kw.get("max_samples", 0)))  # fmt: skip
        return real_one(mine, rivals, dead, rng, **kw)

    monkeypatch.setattr(analysis, "all_equities", spy_all)
    monkeypatch.setattr(analysis, "equity", spy_one)
    rec = hand_record(FLUSH, THROUGH_FIFTH + " 2:bet 1:call 2:check 1:check")
    job = MatchAnalysis([rec, seen_record(rec, 1)], 1, random.Random(2))
    steps = 0
    while True:
        before = len(calls)
        done = job.step()
        assert len(calls) - before <= 1
        steps += 1
        if done:
            break
    assert steps > 10
    for deals, budget, samples in calls:
        assert budget <= EXACT_BUDGET
        assert deals <= budget or 0 < samples <= analysis.WORK // 2


# ------------------------------------------------------------------ knowledge


def _unused(rec: dict[str, Any]) -> list[str]:
    used = {e["card"] for e in rec["events"] if e["ev"] == "deal" and "card" in e}
    return [str(c) for c in full_deck() if str(c) not in used]


def _swap_down_card(rec: dict[str, Any], seat: int, new: str, k: int) -> dict[str, Any]:
    """``rec`` with ``seat``'s ``k``-th down card replaced by ``new`` (its show too)."""
    events, seen, old = [], 0, None
    for e in rec["events"]:
        if e["ev"] == "deal" and e["seat"] == seat and not e["up"]:
            if seen == k:
                old, e = e["card"], {**e, "card": new}
            seen += 1
        events.append(e)
    events = [
        {**e, "cards": [new if c == old else c for c in e["cards"]]}
        if e["ev"] == "show" and e["seat"] == seat
        else e
        for e in events
    ]
    return {**rec, "events": events}


def _figures(a: analysis.HandAnalysis) -> tuple[Any, ...]:
    return tuple(a.streets), tuple(a.marks)


@pytest.mark.parametrize("seed", [1, 2])
def test_no_figure_from_a_closed_book_uses_a_card_the_viewer_did_not_see(seed: int) -> None:
    """Property over simulated hands and every viewer: with the books closed
    (``seen_record``) another seat's down card changed changes no chance and no mark;
    with them open it changes no mark (decisions are judged on the viewer's knowledge)."""
    out = io.StringIO()
    simulate(seats=3, hands=2, seed=seed, out=out)
    rng = random.Random(seed)
    for rec in load(out.getvalue())[:2]:
        seats = [s["seat"] for s in rec["seats"]]
        for viewer in seats:
            rival = rng.choice([s for s in seats if s != viewer])
            changed = _swap_down_card(rec, rival, rng.choice(_unused(rec)), rng.randrange(2))
            a = analyse_hand(seen_record(rec, viewer), viewer, random.Random(7))
            b = analyse_hand(seen_record(changed, viewer), viewer, random.Random(7))
            assert _figures(a) == _figures(b)
            full_a = analyse_hand(rec, viewer, random.Random(7), chances=False)
            full_b = analyse_hand(changed, viewer, random.Random(7), chances=False)
            assert full_a.marks == full_b.marks
            assert full_a.marks == a.marks  # the books add no knowledge to a decision
