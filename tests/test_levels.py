"""Computer-seat levels: legal and sensible at every level, and how the shark reads its
rivals.  That every level is deterministic is ``tests/test_brain_decisions.py``'s (every
choice as recorded); the memory kept for the night and fed only with what its seat saw
is ``tests/test_memory.py``'s."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.cards import full_deck, parse_many
from common.engine import Hand
from common.levels import LEVEL_IDS
from common.protocol import MessageError, SetLevel, decode_client
from server.__main__ import _parser, config_from_args
from server.brain import LEVELS, Brain, brain, exact_seventh, level_id
from server.brain.rivals import Range, RivalModel
from server.computer import default_chooser
from server.config import ServerConfig
from server.seats import computer_seats
from server.table import Table
from server.timers import FakeClock
from tests.record_decisions import random_point
from tests.serverkit import Link, config, run
from tests.stacking import seat, view
from tests.stacking import view_dict as seat_view

# ---------------------------------------------------------------- helpers


def play_match(players: dict[int, Any], deals: int, seed: int) -> list[tuple[int, str]]:
    """``deals`` hands from 600 chips each, every player shown its view of each end."""
    rng = random.Random(seed)
    rngs = {s: random.Random(seed * 100 + s) for s in players}
    log: list[tuple[int, str]] = []
    for d in range(deals):
        deck = full_deck()
        rng.shuffle(deck)
        hand = Hand(stacks={s: 600 for s in players}, button=d % len(players), deck=deck)
        hand.start()
        while not hand.is_over:
            s = hand.to_act
            assert s is not None
            action = players[s](seat_view(hand, s), rngs[s])
            log.append((s, action))
            hand.apply(s, action)
        for s, p in players.items():
            if hasattr(p, "observe"):
                p.observe(seat_view(hand, s))
    return log


def station(v: Any, rng: random.Random) -> str:
    """A calling station: brings in, checks or calls."""
    names = [a["action"] for a in v["legal"]]
    return next(n for n in ("check", "bring_in", "call") if n in names)


# ---------------------------------------------------------------- every level is legal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), level=st.sampled_from(LEVEL_IDS))
def test_every_level_returns_a_legal_action_never_folding_a_free_check(
    seed: int, level: str
) -> None:
    """R-B1, R-B5: only an offered button, and never a fold when checking is free."""
    hand, rng_seed = random_point(seed)
    if hand.is_over:
        return
    s = hand.to_act
    assert s is not None
    v = seat_view(hand, s)
    before = copy.deepcopy(v)
    player = brain(level)
    choice = player(v, random.Random(rng_seed))
    names = [a["action"] for a in v["legal"]]
    assert choice in names
    if "check" in names:
        assert choice != "fold"
    assert v == before  # the view is read, never changed
    hand.apply(s, choice)  # and the engine takes it


@pytest.mark.parametrize(
    ("mine", "theirs", "buttons", "pot"),
    [
        pytest.param(0, 40, "fold 0/0, call 40/40, raise 60/60", 300, id="a-bet-and-a-raise"),
        # Heads-up raising is not capped (R-B6).
        pytest.param(180, 200, "fold 0/180, call 20/200, raise 40/220", 800, id="ten-raises"),
    ],
)
@pytest.mark.parametrize("level", LEVEL_IDS)
def test_no_level_folds_the_nuts_on_seventh_street(
    level: str, mine: int, theirs: int, buttons: str, pot: int
) -> None:
    """A royal flush facing raises: no rival can beat it, so never a fold."""
    me = seat(0, "Kh Qh Jh 2c", "Ah Th 3d", down=3, bet=mine, last_action="raise" if mine else None)
    rival = seat(1, "9s 9d 9c 4h", down=3, bet=theirs, last_action="raise")
    v = view(7, [me, rival], buttons, pot=pot, high=theirs)
    for seed in range(10):
        assert brain(level)(v, random.Random(seed)) in ("call", "raise")


def test_exact_seventh_street_knows_the_nuts() -> None:
    from server.brain import Range

    mine = parse_many("Ah Kh Qh Jh Th 2c 3d")
    rival = Range(parse_many("9s 9d 9c 4h"), 3, True, True, 0.3, 0.3)
    eq, beatable = exact_seventh(mine, rival, [])
    assert eq == 1.0 and not beatable
    weak = parse_many("2h 3h 5d 7c 9h Jc Kd")
    eq, beatable = exact_seventh(weak, rival, [])
    assert eq == 0.0 and beatable  # trip nines showing beat king high


def test_shark_defends_heads_up_against_a_completion() -> None:
    """Heads-up, a completion from any door card is often a steal: Ts 2d [Ks] calls."""
    v = view(
        3,
        [
            seat(0, "Ks", "Ts 2d", bet=4, last_action="bring_in"),
            seat(1, "5s", bet=10, last_action="complete"),
        ],
        "fold 0/4, call 6/10, raise 16/20",
        pot=16,
        high=10,
        bring_in=0,
    )
    assert brain("shark")(v, random.Random(1)) in ("call", "raise")


def _big_pair_facing_the_bring_in() -> dict[str, Any]:
    """Heads-up third street: seat 0 holds kings (class 4), seat 1 brought in."""
    return view(
        3,
        [seat(0, "Kh", "Kd 7c"), seat(1, "3c", bet=4, last_action="bring_in")],
        "fold 0/0, call 4/4, complete 10/10",
        pot=6,
        bring_in=1,
    )


def _facing_a_completion(hole: str) -> dict[str, Any]:
    """Heads-up third street: seat 0 brought in with ``hole`` under a deuce, seat 1
    completed with a king."""
    return view(
        3,
        [
            seat(0, "2h", hole, bet=4, last_action="bring_in"),
            seat(1, "Kc", bet=10, last_action="complete"),
        ],
        "fold 0/4, call 6/10, raise 16/20",
        pot=16,
        high=10,
        bring_in=0,
    )


def _shark(*, answered_third: int = 0, gave_up_third: int = 0, completed: int = 0) -> Brain:
    """A shark that has seen rival seat 1 answer ``answered_third`` of its third-street
    wagers (folding ``gave_up_third``) and complete ``completed`` of 50 hands."""
    shark = brain("shark")
    m = shark.memory.rival(1)
    m.answered_third, m.gave_up_third = answered_third, gave_up_third
    m.dealt, m.completed = (50, completed) if completed else (0, 0)
    return shark


def test_shark_slow_plays_strong_hands_heads_up_unless_the_rival_never_folds() -> None:
    """Heads-up third street, a completion folds the hands a rival would pay the big bets
    with: a big pair only calls the bring-in (R-B3) or a completion (R-B4), unless the
    rival has shown it never folds to a completion; then the shark wagers for value."""
    hands = range(20)
    assert {_shark()(_big_pair_facing_the_bring_in(), random.Random(k)) for k in hands} == {"call"}
    assert {_shark()(_facing_a_completion("Ad As"), random.Random(k)) for k in hands} == {"call"}
    station_read = {"answered_third": 20, "gave_up_third": 0}
    completes = _shark(**station_read)(_big_pair_facing_the_bring_in(), random.Random(1))
    assert completes == "complete"
    assert _shark(**station_read)(_facing_a_completion("Ad As"), random.Random(1)) == "raise"


def test_shark_re_steals_only_from_a_rival_that_completes_too_often() -> None:
    """Trash facing a lone completion: re-raised when the rival completed 20 of its 50
    hands and folds to completions, never when it completed 1 of them (it has a hand)."""
    assert _shark(completed=20)(_facing_a_completion("Ts 3d"), random.Random(1)) == "raise"
    assert _shark(completed=1)(_facing_a_completion("Ts 3d"), random.Random(1)) != "raise"
    maniac_read = {"completed": 20, "answered_third": 20, "gave_up_third": 0}
    assert _shark(**maniac_read)(_facing_a_completion("Ts 3d"), random.Random(1)) != "raise"


def _fifth_street_checked_to() -> dict[str, Any]:
    """Heads-up fifth street, checked to seat 0 holding nothing: no pair, no draw."""
    return view(
        5,
        [
            seat(0, "9h Js 4c", "2c 7d"),
            seat(1, "Kd 8s 3h", last_action="check"),
        ],
        "check 0/0, bet 20/20",
        pot=60,
    )


def test_shark_never_bluffs_a_rival_who_never_folds_but_stabs_at_one_who_does() -> None:
    """A rival that called every wager of ours is sticky: no bluff; one that folds to
    most of them draws a stab now and then."""

    def bets(answered: int, gave_up: int) -> int:
        out = 0
        for k in range(40):
            shark = brain("shark")
            m = shark.memory.rival(1)
            m.answered, m.gave_up = answered, gave_up
            m.faced, m.folded_to_us = answered, gave_up
            out += shark(_fifth_street_checked_to(), random.Random(k)) == "bet"
        return out

    assert bets(20, 0) == 0
    assert bets(20, 16) > 0


def test_shark_counts_who_folds_to_its_wagers_on_every_street() -> None:
    """Every wager of the shark's that a rival answers is counted, and a calling
    station soon reads as one; a level that does not read its rivals keeps no count."""

    shark, regular = brain("shark"), brain("regular")
    play_match({0: shark, 1: station}, deals=12, seed=4)
    m = shark.memory.rivals[1]
    assert m.answered >= 5 and m.gave_up == 0
    assert m.gives_up < LEVELS["shark"].style.reads.sticky_folds  # type: ignore[union-attr]
    play_match({0: regular, 1: station}, deals=12, seed=4)
    assert regular.memory.rivals[1].answered == 0


def test_shark_counts_a_rivals_completions_once_a_hand() -> None:
    """A rival that completes whenever it may is seen completing (once a hand at most),
    a calling station never."""

    def completer(v: Any, rng: random.Random) -> str:
        names = [a["action"] for a in v["legal"]]
        return "complete" if "complete" in names else station(v, rng)

    shark = brain("shark")
    play_match({0: shark, 1: completer}, deals=12, seed=4)
    m = shark.memory.rivals[1]
    assert 6 <= m.completed <= m.dealt == 12
    assert m.completes > LEVELS["shark"].style.reads.resteal  # type: ignore[union-attr]
    shark = brain("shark")
    play_match({0: shark, 1: station}, deals=12, seed=4)
    assert shark.memory.rivals[1].completed == 0


def test_a_sound_rivals_late_wager_is_rarely_one_pair() -> None:
    """``Range.w_pair``: from fifth street on, a wager's one-pair holdings weigh less,
    two pair and better (and no-pair bluffs, by ``w_bluff``) as before."""
    rival = Range(parse_many("Kd 8s 3h"), 2, False, True, 1.0, 0.3, 0.5)
    assert rival.weight(parse_many("Ks 2c")) == 0.5  # a pair of kings
    assert rival.weight(parse_many("Ks 8c")) == 1.0  # two pair
    assert rival.weight(parse_many("Qs 2c")) == 0.3  # nothing


def test_a_rival_that_stood_a_wager_with_nothing_weighs_less() -> None:
    """``Range.w_stood``: a rival that called our fifth-street wager is weighed by what
    its first five cards were then: nothing (no pair, no four-card draw) weighs
    ``w_stood``, a pair or a draw as before; its later cards do not matter."""
    rival = Range(parse_many("Kd 8d 3h 5c"), 2, False, False, 1.0, 1.0)
    rival.stood, rival.w_stood = 5, 0.2
    assert rival.weight(parse_many("Qs 2c")) == 0.2  # Q-2-K-8-3 on fifth: nothing
    assert rival.weight(parse_many("Ks 2c")) == 1.0  # a pair of kings
    assert rival.weight(parse_many("Qd 2d")) == 1.0  # four diamonds
    assert rival.weight(parse_many("Qs 5s")) == 0.2  # the pair of fives came on sixth
    later = Range(parse_many("Kd 8d 3h 5c"), 2, False, False, 1.0, 1.0)
    later.stood, later.w_stood = 6, 0.2
    assert later.weight(parse_many("Qs 5s")) == 1.0  # stood on sixth with the pair


def test_exact_seventh_weighs_what_a_rival_stood_our_wager_with() -> None:
    """Heads-up seventh street: king high beats only the rival's no-pair hands, so the
    less a rival that stood our sixth-street wager can be holding nothing, the less
    king high is worth."""
    mine = parse_many("Kh Jd 9c 7s 5h 3d 2c")
    up = parse_many("Qd Ts 6h 4c")
    loose = Range(up, 3, False, False, 1.0, 1.0)
    tight = Range(up, 3, False, False, 1.0, 1.0)
    tight.stood, tight.w_stood = 6, 0.1
    eq_loose, _ = exact_seventh(mine, loose, [])
    eq_tight, _ = exact_seventh(mine, tight, [])
    assert 0.0 < eq_tight < eq_loose


def test_exact_seventh_counts_the_rivals_hands_by_kind() -> None:
    """``by_kind``: the weight of each kind of hand the rival can hold and the share of
    it ours wins add up to the share of the pot ``exact_seventh`` returns."""
    mine = parse_many("Ac Ad 2s 9h Jc 7d 3s")
    rival = Range(parse_many("Kd Qs 8h 6c"), 3, True, False, 0.3, 1.0)
    by_kind = ([0.0] * 9, [0.0] * 9)
    eq, _ = exact_seventh(mine, rival, [], by_kind)
    weights, won = by_kind
    assert sum(won) / sum(weights) == pytest.approx(eq)
    assert weights[0] > 0 and won[0] == weights[0]  # aces beat every high-card hand
    assert weights[2] > 0 and won[2] == 0.0  # and lose to every two pair


def _river(shark: Brain, rival_bet: int) -> str:
    """Heads-up seventh street, the shark holding a pair of aces against the rival's board
    Kd Qs 8h 6c, which checked (``rival_bet`` 0) or bet."""
    if rival_bet:
        rival = seat(1, "Kd Qs 8h 6c", down=3, bet=rival_bet, last_action="bet")
        buttons = "fold 0/0, call 20/20, raise 40/40"
    else:
        rival = seat(1, "Kd Qs 8h 6c", down=3, last_action="check")
        buttons = "check 0/0, bet 20/20"
    me = seat(0, "9h Jc 7d 3s", "Ac Ad 2s", down=3)
    v = view(7, [me, rival], buttons, pot=80 + rival_bet, high=rival_bet)
    return shark(v, random.Random(3))


def test_shark_bets_the_river_for_value_by_what_the_rival_calls_with() -> None:
    """Heads-up on seventh street, checked to: a bet is worth what it wins from the
    rival's calls with worse and its folds, against what it loses to its calls with
    better.  Aces bet into a rival whose shown river calls were high card, and check to
    one whose calls were all two pair."""
    calls_light, calls_two_pair = brain("shark"), brain("shark")
    calls_light.memory.rival(1).river["call"] = [20, 0, 0, 0, 0]
    calls_two_pair.memory.rival(1).river["call"] = [0, 0, 20, 0, 0]
    assert _river(calls_light, 0) == "bet"
    assert _river(calls_two_pair, 0) == "check"


def _river_wager_faced(shark: Brain, wagers: int, calls: int) -> str:
    """A seventh-street bet from a rival seen to wager ``wagers`` times and check or call
    ``calls`` times tonight."""
    m = shark.memory.rival(1)
    m.wagers, m.calls = wagers, calls
    return _river(shark, 20)


def test_a_rival_that_wagers_seldom_wagers_seventh_street_for_value() -> None:
    """Before it has shown any seventh-street wager, a rival that wagers seldom is read
    as betting the river with two pair or better nearly always, one that wagers often
    as bluffing at times; what a rival shows outweighs that read as it grows."""
    honest, wild = RivalModel(wagers=2, calls=30), RivalModel(wagers=20, calls=5)
    assert honest.aggression < 0.45 < 0.65 < wild.aggression
    h, w = honest.river_weights("wager"), wild.river_weights("wager")
    assert h[0] < w[0] / 3 and h[1] < w[1] / 3  # high card and one pair
    assert h[2] > w[2] and h[3] > w[3]  # two pair and trips
    honest.river["wager"] = [8, 0, 0, 0, 0]  # eight bluffs shown down
    assert honest.river_weights("wager")[0] > w[0]
    assert RivalModel().river_weights("check") == wild.river_weights("check")  # wagers only


def test_shark_folds_one_pair_to_a_seldom_wagering_rivals_river_bet() -> None:
    """A pair of aces facing a seventh-street bet: folded against a rival that wagers
    seldom (a value bet), called against one that wagers often."""
    assert _river_wager_faced(brain("shark"), wagers=2, calls=30) == "fold"
    assert _river_wager_faced(brain("shark"), wagers=20, calls=5) == "call"


def _stands_with_something(v: Any, rng: random.Random) -> str:
    """Checks when free; facing a wager, calls with a pair or a four-card draw (from its
    down and up cards), else folds."""
    names = [a["action"] for a in v["legal"]]
    me = next(e for e in v["seats"] if e["seat"] == v["you"])
    cards = parse_many(" ".join(me["hole"] + me["up"]))
    ranks = [c.rank for c in cards]
    suits = [c.suit for c in cards]
    mask = 0
    for r in ranks:
        mask |= 1 << r
    mask = (mask << 1) | (mask >> 12)
    straight = any(bin((mask >> lo) & 31).count("1") >= 4 for lo in range(10))
    something = len(set(ranks)) < len(ranks) or max(map(suits.count, suits)) >= 4 or straight
    for name in ("check", "bring_in"):
        if name in names:
            return name
    return "call" if something or v["street"] == 3 else "fold"


def test_shark_learns_who_stands_its_wagers_with_nothing() -> None:
    """Each hand shown down after standing a wager of the shark's on fourth to sixth
    street is counted, with whether it was nothing then: a calling station soon reads
    as standing with anything, a rival that stands only with a pair or a draw as one
    that never stands with nothing; a level that does not read its rivals keeps no
    count."""

    shark = brain("shark")
    play_match({0: shark, 1: station}, deals=40, seed=4)
    m = shark.memory.rivals[1]
    assert sum(m.stood[0::2]) >= 10 and sum(m.stood[1::2]) >= 2
    loose = max(m.stands_on_nothing(s) for s in (4, 5, 6))  # where it stood most
    assert loose > 0.6
    shark = brain("shark")
    play_match({0: shark, 1: _stands_with_something}, deals=40, seed=4)
    m = shark.memory.rivals[1]
    assert sum(m.stood[0::2]) >= 5 and sum(m.stood[1::2]) == 0
    assert max(m.stands_on_nothing(s) for s in (4, 5, 6)) < loose
    unseen = copy.copy(m)
    unseen.stood = [0] * 6  # the same rival before any of its hands was shown
    for street in (4, 5, 6):
        if m.stood[2 * (street - 4)]:
            assert m.stands_on_nothing(street) < unseen.stands_on_nothing(street)
    regular = brain("regular")
    play_match({0: regular, 1: station}, deals=40, seed=4)
    assert regular.memory.rivals[1].stood == [0] * 6


# ---------------------------------------------------------------- picking levels


def test_levels_have_names_and_descriptions() -> None:
    assert len(LEVELS) >= 3 and tuple(LEVELS) == LEVEL_IDS
    for lv in LEVELS.values():
        assert lv.name and lv.description and len(lv.description) < 100
    assert level_id("Shark") == "shark" and level_id(None) == "regular"
    with pytest.raises(ValueError):
        level_id("godlike")


def test_command_line_sets_each_computer_seats_level() -> None:
    args = _parser().parse_args(["--computer", "3", "--computer-level", "shark,newcomer"])
    cfg = config_from_args(args)
    assert cfg.computer_levels == ("shark", "newcomer")
    seats = computer_seats(3, cfg.computer_names, random.Random(1), cfg.computer_levels)
    assert [(s.seat, s.level) for s in seats] == [(6, "shark"), (5, "newcomer"), (4, "newcomer")]
    assert seats[0].public(None).encode()["level"] == "shark"
    assert seats[0].public(None).encode()["level_name"] == "Shark"
    with pytest.raises(ValueError):
        ServerConfig(computer=1, computer_levels=("godlike",))


def test_level_message_decodes_and_checks_its_fields() -> None:
    assert decode_client({"type": "level", "seat": 6, "level": "shark"}) == SetLevel(6, "shark")
    with pytest.raises(MessageError):
        decode_client({"type": "level", "seat": "6", "level": "shark"})
    with pytest.raises(MessageError):
        decode_client({"type": "level", "seat": 6})


def test_the_old_chooser_interface_still_works() -> None:
    """Stand-in seats and older callers use ``choose(view, rng)``: it still plays."""
    chooser = default_chooser()
    hand, rng_seed = random_point(4)
    while hand.is_over:
        hand, rng_seed = random_point(rng_seed % 1000)
    v = seat_view(hand, hand.to_act)
    assert chooser(v, random.Random(1)) in [a["action"] for a in v["legal"]]
    assert isinstance(brain("shark"), Brain)


@run
async def test_host_sets_levels_in_the_lobby_and_the_table_keeps_models_for_the_night(
    tmp_path: Path,
) -> None:
    cfg = config(tmp_path, computer=2, computer_levels=("newcomer",))
    table = Table(cfg, clock=FakeClock())  # real brains, one per computer seat
    assert {s.seat: s.level for s in table.seats.values()} == {6: "newcomer", 5: "newcomer"}
    host = Link(table, "Ann")
    host.hello()
    host.send({"type": "level", "seat": 6, "level": "Shark"})
    levels = {p["seat"]: p.get("level") for p in host.last("lobby")["seats"]}
    assert levels == {0: None, 5: "newcomer", 6: "shark"}
    host.send({"type": "level", "seat": 0, "level": "shark"})
    assert host.last("error")["code"] == "bad_message" and host.last("error")["ref"] == "level"
    shark = table.seats[6].brain
    assert isinstance(shark, Brain) and shark.level.id == "shark"
    shark.memory.rival(0).dealt = 99
    host.send({"type": "start", "hands": 4})
    assert host.of_type("match_start")
    assert shark.memory.rivals["Ann"].dealt >= 99  # the same night: not forgotten
    host.send({"type": "level", "seat": 6, "level": "regular"})
    assert host.last("error")["code"] == "match_running"
    table.shutdown()
