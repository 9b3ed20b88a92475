#!/usr/bin/env python3
"""Replay ``stud-hh/1`` hand histories through pokerkit and report where it disagrees.

    python scripts/replay_pokerkit.py hands.jsonl [--limit N] [--show K]

An independent cross-check of the engine: every hand is rebuilt as a pokerkit
``FixedLimitSevenCardStud`` state (ante 1, bring-in 4, bets 10/20) with the
history's seats in deal order as pokerkit players 0, 1, ... (pokerkit's stud
has no button: it deals and rotates the turn in increasing player index, so
deal order is clockwise order).  Antes, bet collection, burning, showing,
killing and chip pushing/pulling are automated; the cards are dealt exactly as
the history's ``deal`` events say, and every ``act`` is applied in turn,
checking that pokerkit agrees whose turn it is, that the action is legal there
with the same ``to`` amount, and at the end that the stacks equal ``final``.

The first divergence of each hand is classified against ``../shared/RULES.md``:

- ``OUR BUG``: the history breaks a rule of RULES.md.
- ``POKERKIT DIFFERS``: pokerkit follows another convention and RULES.md
  clearly supports the history (the rule is cited).
- ``AMBIGUOUS``: RULES.md is silent or unclear.
- ``UNCLASSIFIED``: no known pattern matched; read the example.

pokerkit is NOT a project dependency: ``pip install pokerkit`` (tested with
0.7.7) into the environment that runs this script.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

try:
    from pokerkit import Automation, FixedLimitSevenCardStud
except ImportError:  # pragma: no cover
    sys.exit("replay_pokerkit.py needs pokerkit: pip install pokerkit")

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.CARD_BURNING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
RANKS = "23456789TJQKA"
SUITS = "cdhs"  # R-O1: clubs, diamonds, hearts, spades, lowest first

OUR_BUG, PK_DIFFERS, AMBIGUOUS, UNCLASSIFIED = (
    "OUR BUG",
    "POKERKIT DIFFERS",
    "AMBIGUOUS",
    "UNCLASSIFIED",
)


# --- an independent reading of RULES.md, only for classifying divergences ---------------


def card_key(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


def showing_key(up: list[str]) -> tuple:
    """R-O2: kind, then the ranks making it, then the others high first, then the suit."""
    counts = Counter(c[0] for c in up)
    ranks = sorted(counts, key=lambda r: (counts[r], RANKS.index(r)), reverse=True)
    pattern = sorted(counts.values(), reverse=True)
    kind = {4: 4, 3: 3}.get(pattern[0], 0)
    if pattern[0] == 2:
        kind = 2 if pattern[:2] == [2, 2] else 1
    top = max(up, key=card_key)
    return (kind, tuple(RANKS.index(r) for r in ranks), SUITS.index(top[1]))


def showing_key_no_suit(up: list[str]) -> tuple:
    return showing_key(up)[:2]


@dataclass
class Seat:
    seat: int
    index: int
    stack: int
    up: list[str] = field(default_factory=list)
    folded: bool = False
    total: int = 0  # this street
    acted: bool = False

    @property
    def can_bet(self) -> bool:
        return not self.folded and self.stack > 0


@dataclass
class Divergence:
    where: str
    cls: str
    kind: str
    message: str
    context: list[str]


class Table:
    """What the history says so far, tracked independently of both engines."""

    def __init__(self, hh: dict) -> None:
        self.seats = [Seat(s["seat"], i, s["stack"]) for i, s in enumerate(hh["seats"])]
        self.by_seat = {s.seat: s for s in self.seats}
        self.street = 3
        self.acts: list[dict] = []  # this street's acts
        self.log: list[str] = ["3rd:"]  # every act, readable

    def clockwise_from(self, start: Seat) -> list[Seat]:
        n = len(self.seats)
        return [self.seats[(start.index + k) % n] for k in range(n)]

    def expected_opener(self, street: int) -> tuple[Seat, Seat, bool]:
        """(first to act by RULES.md, the seat whose cards decide it, suit decided it)."""
        live = [s for s in self.seats if not s.folded]
        if street == 3:
            low = min(live, key=lambda s: card_key(s.up[0]))
            decider, by_suit = low, sum(s.up[0][0] == low.up[0][0] for s in live) > 1
        else:
            decider = max(live, key=lambda s: showing_key(s.up))
            nosuit = showing_key_no_suit(decider.up)
            by_suit = sum(showing_key_no_suit(s.up) == nosuit for s in live) > 1
        first = next(s for s in self.clockwise_from(decider) if s.can_bet)
        return first, decider, by_suit

    def new_street(self, street: int) -> None:
        self.street = street
        self.log.append(f"| {street}th:")
        self.acts = []
        for s in self.seats:
            s.total = 0
            s.acted = False

    def apply(self, ev: dict) -> None:
        s = self.by_seat[ev["seat"]]
        s.stack -= ev["put"]
        s.total = ev["to"]
        s.acted = True
        if ev["action"] == "fold":
            s.folded = True
        self.acts.append(ev)
        tag = " all-in" if ev["all_in"] else ""
        self.log.append(f"s{ev['seat']} {ev['action']} {ev['to']}{tag};")

    @property
    def live_count(self) -> int:
        return sum(not s.folded for s in self.seats)

    def full_wagers(self) -> tuple[int, int]:
        """(full bets/completions/raises, short all-in wagers) on this street (R-A2, R-B6)."""
        high, full, short = 0, 0, 0
        for a in self.acts:
            if a["action"] in ("complete", "bet", "raise"):
                if self.is_full(a, high, full > 0):
                    full += 1
                else:
                    short += 1
            if a["action"] != "fold":
                high = max(high, a["to"])
        return full, short

    def is_full(self, a: dict, high: int, opened: bool) -> bool:
        """R-A2: a wager is full unless it is an all-in that lifts ``high`` by less than half
        a bet and does not reach the full amount (the bet or completion, or high + a bet)."""
        bet = 10 if self.street <= 4 else 20
        full_to = high + bet if opened else bet
        return not a["all_in"] or 2 * (a["to"] - high) >= bet or a["to"] >= full_to

    def short_all_in_before_completion(self) -> bool:
        """A short all-in over the bring-in that did not complete (R-B3)."""
        opened = False
        for a in self.acts:
            if a["action"] in ("complete", "bet", "raise"):
                if a["all_in"] and a["to"] < 9:  # lifts 4 by less than 5
                    return not opened
                opened = True
        return False


# --- the replay --------------------------------------------------------------------------


def new_state(hh: dict):
    st = hh["stakes"]
    return FixedLimitSevenCardStud.create_state(
        AUTOMATIONS,
        True,
        st["ante"],
        st["bring_in"],
        st["small_bet"],
        st["big_bet"],
        tuple(s["stack"] for s in hh["seats"]),
        len(hh["seats"]),
    )


def pk_expectation(state, table: Table) -> str:
    """What pokerkit would accept now, in words."""
    if state.actor_index is None:
        if state.can_deal_hole():
            return f"pokerkit expects a card dealt to s{table.seats[state.hole_dealee_index].seat}"
        return "pokerkit expects no action (betting round over / hand over)"
    who = f"s{table.seats[state.actor_index].seat}"
    opts = []
    if state.can_post_bring_in():
        opts.append(f"bring_in {state.effective_bring_in_amount}")
    if state.can_fold():
        opts.append("fold")
    if state.can_check_or_call():
        amt = state.checking_or_calling_amount
        opts.append("check" if amt == 0 else f"call +{amt}")
    if state.can_complete_bet_or_raise_to():
        opts.append(f"complete/bet/raise to {state.min_completion_betting_or_raising_to_amount}")
    else:
        try:
            state.verify_completion_betting_or_raising_to()
        except ValueError as exc:
            opts.append(f"no wager ({exc})")
    return f"pokerkit: {who} to act, may " + ", ".join(opts)


def apply_act(state, ev: dict, table: Table, idx: int) -> str | None:
    """Apply one act; an error message if pokerkit refuses or disagrees on the amount."""
    action, to = ev["action"], ev["to"]
    before = state.bets[idx]
    try:
        if action == "bring_in":
            if not state.can_post_bring_in():
                state.verify_bring_in_posting()
            if state.effective_bring_in_amount != to:
                return f"bring-in amount {state.effective_bring_in_amount} != {to}"
            state.post_bring_in()
        elif action in ("complete", "bet", "raise"):
            state.verify_completion_betting_or_raising_to(to)
            state.complete_bet_or_raise_to(to)
        elif action in ("call", "check"):
            state.verify_checking_or_calling()
            amt = state.checking_or_calling_amount
            if before + amt != to:
                return f"{action} would go to {before + amt}, history says {to}"
            if (amt == 0) != (action == "check"):
                return f"pokerkit's check_or_call amount is {amt} for a {action}"
            state.check_or_call()
        elif action == "fold":
            state.verify_folding()
            state.fold()
        else:
            return f"unknown action {action!r}"
    except ValueError as exc:
        return str(exc)
    return None


def classify_turn(table: Table, ev: dict, pk_seat: int | None) -> tuple[str, str, str]:
    """(class, kind, explanation) for a disagreement on whose turn it is."""
    first_of_street = not table.acts
    if first_of_street and pk_seat is not None:
        ours, decider, by_suit = table.expected_opener(table.street)
        if ours.seat != ev["seat"]:
            rule = "R-O1/R-O3" if table.street == 3 else "R-O2/R-O3"
            return (
                OUR_BUG,
                f"opener-{table.street == 3 and 'bring-in' or 'street'}",
                (f"RULES ({rule}) make s{ours.seat} act first, history has s{ev['seat']}"),
            )
        pk = table.by_seat[pk_seat]
        if table.street == 3:
            return UNCLASSIFIED, "bring-in seat", "pokerkit picks another bring-in seat"
        # pokerkit: the first live player index with the best showing hand, suits ignored
        live = [s for s in table.seats if not s.folded]
        best = max(showing_key_no_suit(s.up) for s in live)
        pk_decider = next(s for s in live if showing_key_no_suit(s.up) == best)
        pk_first = next(s for s in table.clockwise_from(pk_decider) if s.can_bet)
        if by_suit and pk_first is pk and showing_key_no_suit(decider.up) == best:
            skip = ""
            if pk_decider is not pk:
                skip = f" (s{pk_decider.seat} is all in, R-O3 skip to s{pk.seat})"
            return (
                PK_DIFFERS,
                "opener tie on 4th-7th",
                (
                    f"equal showing hands s{decider.seat} {decider.up} vs s{pk_decider.seat} "
                    f"{pk_decider.up}: R-O2 breaks the tie by the suit of the highest up card; "
                    "pokerkit (Opening.HIGH_HAND) ignores suits and takes the lowest player "
                    f"index, i.e. the first seat after the button{skip}; that is Robert's "
                    "Rules' tie-break"
                ),
            )
        return UNCLASSIFIED, "opener", "showing-hand ranking differs"
    return UNCLASSIFIED, "turn mid-street", "pokerkit and history disagree on the next seat"


def classify_act(table: Table, ev: dict, err: str, state) -> tuple[str, str, str]:
    full, short = table.full_wagers()
    action = ev["action"]
    if "No more completion" in err:
        if table.live_count == 2:
            return (
                PK_DIFFERS,
                "cap heads-up",
                (
                    f"pokerkit caps at 4 wagers even with two seats in the hand; R-B6: 'With two "
                    f"seats left in the hand, raising is not capped' ({full} full wagers so far)"
                ),
            )
        if full < 4:
            return (
                PK_DIFFERS,
                "cap counts short all-in",
                (
                    f"pokerkit counted {full + short} wagers, {short} of them short all-ins; "
                    "R-A2: a short all-in 'does not count toward the cap of R-B6'"
                ),
            )
        return OUR_BUG, "cap exceeded", f"{full} full wagers already, {table.live_count} in hand"
    bet = 10 if table.street <= 4 else 20
    high = max((s.total for s in table.seats), default=0)
    if "below the minimum" in err or "above the maximum" in err:
        mn = state.min_completion_betting_or_raising_to_amount
        if table.street == 3 and table.short_all_in_before_completion() and ev["to"] == 10:
            return (
                PK_DIFFERS,
                "completion after short all-in",
                (
                    "after an all-in that lifted the bring-in by less than 5, pokerkit treats it "
                    f"as the completion and wants a raise to {mn}; R-B3: 'the seats after it may "
                    "still complete to 10'"
                ),
            )
        if table.street > 3 and full == 0 and short and ev["to"] == bet:
            return (
                PK_DIFFERS,
                "bet after short all-in bet",
                (
                    f"an all-in bet of less than half a bet ({high}) opened the street; pokerkit "
                    f"makes the next seat raise to {mn} (all-in + one bet); R-A2: such an all-in "
                    "'is not a bet or raise', so by R-B5 the next seat may still bet "
                    f"{bet} (the 3rd-street analogue is explicit in R-B3)"
                ),
            )
        return UNCLASSIFIED, f"{action} amount", f"pokerkit's only amount is {mn}"
    if "Short all-in cannot be raised" in err or "non-full all-in" in err:
        # R-A2 reopens the betting for the seat when any all-in wager since its last
        # action was full (half a bet or more, or the full amount); pokerkit reopens
        # only on a full-sized raise.
        wagers = ("complete", "bet", "raise")
        mine = [i for i, a in enumerate(table.acts) if a["seat"] == ev["seat"]]
        since = mine[-1] + 1 if mine else 0
        last, prev_high, hi, opened = None, 0, 0, False
        for i, a in enumerate(table.acts):
            if a["action"] in wagers:
                full = table.is_full(a, hi, opened)
                if i >= since and a["all_in"] and full:
                    last, prev_high = a, hi
                opened = opened or full
            if a["action"] != "fold":
                hi = max(hi, a["to"])
        lift = last["to"] - prev_high if last else 0
        if last:
            return (
                PK_DIFFERS,
                "raise after half-bet all-in",
                (
                    f"s{last['seat']} went all in to {last['to']}, lifting {prev_high} by {lift} "
                    f"(half a bet is {bet // 2}; or it reached the full amount); pokerkit only "
                    "reopens on a full raise, R-A2: 'An all-in that lifts the highest total by "
                    "half a bet or more, or that reaches the full amount ... counts as a full "
                    "bet, completion or raise' (Robert's Rules' limit half-bet rule agrees)"
                ),
            )
        return (
            OUR_BUG,
            "re-raise after short all-in",
            (
                "R-A2: after an all-in of less than half a bet a seat that already acted may only "
                f"call or fold ({err})"
            ),
        )
    if "no reason to fold" in err.lower() or "no reason for this player to fold" in err:
        return OUR_BUG, "fold when check is free", "R-B5: fold is not offered when checking is free"
    if "bring-in" in err.lower():
        return UNCLASSIFIED, f"{action} vs bring-in", err
    return UNCLASSIFIED, f"{action} refused", err


def coerce_turn(state, idx: int) -> None:
    """Make it ``idx``'s turn, the others following clockwise (pokerkit index order)."""
    n = len(state.stacks)
    waiting = set(state.actor_indices) | {idx}
    state.actor_indices = deque(j for j in ((idx + k) % n for k in range(n)) if j in waiting)
    state.opener_index = idx


def coerce_wager(state, ev: dict, full: int) -> None:
    """Make pokerkit accept the history's wager amount, with our count of full wagers."""
    state.completion_betting_or_raising_count = min(full, 3)
    state.consecutive_short_all_in_amounts.clear()
    state.completion_betting_or_raising_amount = 0
    state.acted_player_indices.discard(state.actor_index)
    state.completion_status = ev["to"] == state.street.min_completion_betting_or_raising_amount


def replay(hh: dict) -> list[Divergence]:
    """The hand's divergences: past each POKERKIT DIFFERS one pokerkit is coerced to follow
    the history, and the replay goes on; any other divergence ends it."""
    found: list[Divergence] = []
    where = f"{hh['match']}#{hh['hand']}"
    table = Table(hh)
    idx_of = {s.seat: s.index for s in table.seats}
    state = new_state(hh)

    def ctx() -> list[str]:
        seats = ", ".join(
            f"s{s['seat']}:{s['stack']}" + ("" if i else "(first after button)")
            for i, s in enumerate(hh["seats"])
        )
        lines = [f"seats in deal order (stack): {seats}, button s{hh['button']}"]
        lines.append("up cards: " + ", ".join(f"s{s.seat} {' '.join(s.up)}" for s in table.seats))
        lines.append("acts: " + " ".join(table.log[-24:]))
        return lines

    def div(cls: str, kind: str, msg: str) -> Divergence:
        return Divergence(where, cls, kind, msg, [*ctx(), pk_expectation(state, table)])

    for ev in hh["events"]:
        if found and found[-1].cls != PK_DIFFERS:
            return found
        e = ev["ev"]
        if e == "ante":
            i = idx_of[ev["seat"]]
            table.by_seat[ev["seat"]].stack -= ev["amount"]
            if state.stacks[i] != hh["seats"][i]["stack"] - ev["amount"]:
                return found + [div(UNCLASSIFIED, "ante", f"ante of s{ev['seat']} differs")]
        elif e == "deal":
            if ev["street"] != table.street:
                table.new_street(ev["street"])
            i = idx_of[ev["seat"]]
            if not state.can_deal_hole(ev["card"], i):
                if state.actor_index is not None:
                    table.log.append(f"[street {ev['street']} dealt]")
                    return found + [
                        div(
                            UNCLASSIFIED,
                            "round ended early",
                            f"history ends the betting and deals street {ev['street']}, "
                            f"pokerkit still wants s{table.seats[state.actor_index].seat} to act",
                        )
                    ]
                return found + [
                    div(UNCLASSIFIED, "deal", f"pokerkit cannot deal {ev['card']} to s{ev['seat']}")
                ]
            up = state.hole_dealing_statuses[i][0]
            if up != ev["up"]:
                return found + [
                    div(UNCLASSIFIED, "up/down", f"card {ev['card']} up={ev['up']}, pokerkit {up}")
                ]
            state.deal_hole(ev["card"], i)
            if ev["up"]:
                table.by_seat[ev["seat"]].up.append(ev["card"])
        elif e == "act":
            i = idx_of[ev["seat"]]
            pk = state.actor_index
            if pk != i:
                pk_seat = None if pk is None else table.seats[pk].seat
                cls, kind, why = classify_turn(table, ev, pk_seat)
                who = "nobody (round over)" if pk is None else f"s{pk_seat}"
                msg = f"history: s{ev['seat']} {ev['action']}; pokerkit turn: {who}. {why}"
                found.append(div(cls, kind, msg))
                if cls != PK_DIFFERS:
                    return found
                coerce_turn(state, i)
            err = apply_act(state, ev, table, i)
            if err:
                cls, kind, why = classify_act(table, ev, err, state)
                msg = f"s{ev['seat']} {ev['action']} to {ev['to']} refused: {err}. {why}"
                found.append(div(cls, kind, msg))
                if cls != PK_DIFFERS:
                    return found
                coerce_wager(state, ev, table.full_wagers()[0])
                err = apply_act(state, ev, table, i)
                if err:
                    found.append(div(UNCLASSIFIED, "coercion failed", err))
                    return found
            table.apply(ev)
    if state.status:
        return found + [
            div(UNCLASSIFIED, "unfinished", "history ended, pokerkit hand still running")
        ]
    want = {f["seat"]: f["stack"] for f in hh["final"]}
    got = {s.seat: state.stacks[s.index] for s in table.seats}
    if want != got:
        diff = ", ".join(f"s{s}: ours {want[s]} pk {got[s]}" for s in want if want[s] != got[s])
        awards = [ev for ev in hh["events"] if ev["ev"] == "award"]
        split = Counter(a["pot"] for a in awards)
        if any(n > 2 for n in split.values()):
            return found + [
                div(
                    PK_DIFFERS,
                    "odd chips of a split",
                    f"final stacks differ ({diff}); a pot split three or more ways: pokerkit gives "
                    "every odd chip to the first tied player, R-S3 gives them one at a time "
                    "clockwise",
                )
            ]
        return found + [div(UNCLASSIFIED, "final stacks", f"final stacks differ: {diff}")]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="replay only the first N hands")
    parser.add_argument("--show", type=int, default=2, help="examples to print per kind")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # pokerkit warns when given cards its own burn took
    by_kind: dict[tuple[str, str], list[Divergence]] = defaultdict(list)
    later: dict[tuple[str, str], list[Divergence]] = defaultdict(list)
    hands = 0
    with args.file.open(encoding="utf-8") as f:
        for line in f:
            if args.limit is not None and hands >= args.limit:
                break
            hh = json.loads(line)
            assert hh["format"] == "stud-hh/1", hh["format"]
            hands += 1
            try:
                found = replay(hh)
            except Exception as exc:  # noqa: BLE001 - a crash is a finding too
                where = f"{hh['match']}#{hh['hand']}"
                found = [Divergence(where, UNCLASSIFIED, "crash", repr(exc), [])]
            if found:
                by_kind[(found[0].cls, found[0].kind)].append(found[0])
            for d in found[1:]:
                later[(d.cls, d.kind)].append(d)
    total = sum(map(len, by_kind.values()))
    print(f"{args.file}: {hands} hands, {hands - total} agree, {total} diverge (first per hand)")
    per_class: Counter[str] = Counter()
    for (cls, _), ds in by_kind.items():
        per_class[cls] += len(ds)
    for cls, n in per_class.most_common():
        print(f"  {cls}: {n}")
    for title, table in (
        ("first divergence per hand", by_kind),
        ("later divergences, pokerkit coerced past POKERKIT DIFFERS ones", later),
    ):
        print(f"\n##### {title}: {sum(map(len, table.values()))}")
        for (cls, kind), ds in sorted(table.items(), key=lambda kv: -len(kv[1])):
            print(f"\n== {cls} / {kind}: {len(ds)} hands")
            for d in ds[: args.show]:
                print(f"-- {d.where}: {d.message}")
                for c in d.context:
                    print(f"     {c}")
    bad = sum(len(ds) for (cls, _), ds in (*by_kind.items(), *later.items()) if cls != PK_DIFFERS)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
