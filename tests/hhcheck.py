"""A checker for ``stud-hh/1`` lines, written from the format document alone.

``problems(record)`` returns what is wrong with one hand object (an empty
list when nothing is).  It checks the format's own arithmetic and shape
(``../shared/hand-history.md``) and the dealer's duties that can be read off
the line: deal order, who brings in and opens (R-O1..R-O3), the pots and who
wins them (R-A3, R-S3), and the order of showing (R-S5).  It replays the
chips from the events alone and never looks at engine state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from common.cards import parse, parse_many
from common.hands import bring_in_key, evaluate, hand_name, showing_value

KEYS = ["format", "match", "hand", "time", "stakes", "button", "seats", "events", "final"]
ACTIONS = {"bring_in", "complete", "bet", "raise", "call", "check", "fold"}


def _clockwise_from(seats: list[int], after: int) -> list[int]:
    return sorted(seats, key=lambda s: (s - after - 1) % 7)


def problems(rec: dict[str, Any]) -> list[str]:  # noqa: C901 - one pass over one hand
    out: list[str] = []
    if list(rec) != KEYS:
        return [f"keys {list(rec)} != {KEYS}"]
    if rec["format"] != "stud-hh/1":
        out.append("format")
    stakes = rec["stakes"]
    if stakes != {"ante": 1, "bring_in": 4, "small_bet": 10, "big_bet": 20}:
        out.append(f"stakes {stakes}")
    order = [s["seat"] for s in rec["seats"]]
    if order != _clockwise_from(order, rec["button"]):
        out.append(f"seats not in deal order from button {rec['button']}: {order}")
    start = {s["seat"]: s["stack"] for s in rec["seats"]}
    stack = dict(start)
    put_total: Counter[int] = Counter()
    street_total: dict[int, int] = {}
    folded: set[int] = set()
    cards: dict[int, list[tuple[str, bool]]] = {s: [] for s in order}
    seen_cards: set[str] = set()
    returned = 0
    awarded = 0
    awards: list[dict[str, Any]] = []
    shows: list[dict[str, Any]] = []
    phase = "ante"
    street = 3
    acts_by_street: dict[int, list[dict[str, Any]]] = {}
    deals_by_street: dict[int, list[dict[str, Any]]] = {}
    for i, ev in enumerate(rec["events"]):
        kind = ev.get("ev")
        where = f"event {i} {ev}"
        if kind == "ante":
            if phase != "ante":
                out.append(f"{where}: ante after other events")
            amount = min(stakes["ante"], start[ev["seat"]])
            if ev["amount"] != amount:
                out.append(f"{where}: ante should be {amount}")
            stack[ev["seat"]] -= ev["amount"]
            put_total[ev["seat"]] += ev["amount"]
            if ev["all_in"] != (stack[ev["seat"]] == 0):
                out.append(f"{where}: all_in flag")
        elif kind == "deal":
            phase = "deal"
            if ev["street"] < street:
                out.append(f"{where}: street goes back")
            if ev["street"] > street:
                street = ev["street"]
                street_total = {}
            if ev["card"] in seen_cards:
                out.append(f"{where}: card dealt twice")
            seen_cards.add(ev["card"])
            if ev["seat"] in folded:
                out.append(f"{where}: card to a folded seat")
            cards[ev["seat"]].append((ev["card"], ev["up"]))
            deals_by_street.setdefault(ev["street"], []).append(ev)
        elif kind == "act":
            phase = "act"
            seat = ev["seat"]
            if ev["street"] != street or ev["action"] not in ACTIONS:
                out.append(f"{where}: street or action")
            if seat in folded:
                out.append(f"{where}: folded seat acts")
            before = street_total.get(seat, 0)
            if ev["action"] == "fold":
                folded.add(seat)
                if ev["put"] != 0 or ev["to"] != before:
                    out.append(f"{where}: fold put/to")
            if ev["to"] != before + ev["put"]:
                out.append(f"{where}: to != previous total + put")
            if ev["put"] > stack[seat]:
                out.append(f"{where}: puts more than its stack")
            stack[seat] -= ev["put"]
            put_total[seat] += ev["put"]
            street_total[seat] = ev["to"]
            if ev["all_in"] != (stack[seat] == 0 and ev["action"] != "fold"):
                out.append(f"{where}: all_in flag")
            acts_by_street.setdefault(street, []).append(ev)
        elif kind == "return":
            stack[ev["seat"]] += ev["amount"]
            returned += ev["amount"]
            street_total[ev["seat"]] = street_total.get(ev["seat"], 0) - ev["amount"]
            put_total[ev["seat"]] -= ev["amount"]
        elif kind == "show":
            shows.append(ev)
        elif kind == "award":
            stack[ev["seat"]] += ev["amount"]
            awarded += ev["amount"]
            awards.append(ev)
        else:
            out.append(f"{where}: unknown event")
    total_in = sum(put_total.values())
    if awarded != total_in:
        out.append(f"awards {awarded} + returns {returned} do not add up to chips put in")
    final = {f["seat"]: f["stack"] for f in rec["final"]}
    if [f["seat"] for f in rec["final"]] != order:
        out.append("final not in seat order of seats")
    if final != stack:
        out.append(f"final {final} != replayed {stack}")
    if any(v < 0 for v in stack.values()):
        out.append("negative stack")

    # Deal order: third street three full rounds, later streets one card each (R-D2, R-D3).
    for st, deals in deals_by_street.items():
        live = [d["seat"] for d in deals]
        rounds = 3 if st == 3 else 1
        per_round = len(live) // rounds
        first = live[:per_round]
        if first != [s for s in order if s in first] or live != first * rounds:
            out.append(f"street {st}: deal order {live}")
        ups = [d["up"] for d in deals]
        want = [False] * 2 * per_round + [True] * per_round if st == 3 else [st != 7] * per_round
        if ups != want:
            out.append(f"street {st}: up flags {ups}")

    # Who brings in (R-O1, R-O3) and who opens later streets (R-O2, R-O3).
    for st, acts in acts_by_street.items():
        first = acts[0]
        if st == 3:
            if first["action"] not in ("bring_in", "complete"):  # R-B2
                out.append("third street does not start with the bring-in")
            ups = {d["seat"]: d["card"] for d in deals_by_street[3] if d["up"]}
            lowest = min(ups, key=lambda s: bring_in_key(parse(ups[s])))
            expected = _first_can_bet(rec, lowest, st, order, folded_before(rec, 3))
            if first["seat"] != expected:
                out.append(f"bring-in by {first['seat']}, expected {expected}")
        else:
            gone = folded_before(rec, st)
            live = [s for s in order if s not in gone]
            best = max(live, key=lambda s: showing_value(up_cards(rec, s, st)))
            expected = _first_can_bet(rec, best, st, order, gone)
            if first["seat"] != expected:
                out.append(f"street {st} opened by {first['seat']}, expected {expected}")

    # Showdown: every live seat shows its seven cards, best five and name (R-S1, R-S2).
    live = [s for s in order if s not in folded]
    if len(live) > 1:
        if sorted(s["seat"] for s in shows) != sorted(live):
            out.append("not every live seat shows")
        for sh in shows:
            mine = [c for c, _ in cards[sh["seat"]]]
            if sh["cards"] != mine:
                out.append(f"show {sh['seat']}: cards {sh['cards']} != dealt {mine}")
            value = evaluate(parse_many(mine))
            if sh["hand"] != hand_name(value):
                out.append(f"show {sh['seat']}: name {sh['hand']} != {hand_name(value)}")
            if evaluate(parse_many(sh["best"])) != value or not set(sh["best"]) <= set(mine):
                out.append(f"show {sh['seat']}: best five")
        out.extend(_check_pots(rec, order, folded, put_total, shows, awards))
        want = _showing_order(rec, order, live, acts_by_street.get(7, []))
        if [sh["seat"] for sh in shows] != want:
            out.append(f"order of showing {[sh['seat'] for sh in shows]}, expected {want} (R-S5)")
    elif shows:
        out.append("a seat shows although everyone else folded (R-S4)")
    return out


def folded_before(rec: dict[str, Any], street: int) -> set[int]:
    return {
        e["seat"]
        for e in rec["events"]
        if e["ev"] == "act" and e["action"] == "fold" and e["street"] < street
    }


def up_cards(rec: dict[str, Any], seat: int, street: int) -> list[Any]:
    return [
        parse(e["card"])
        for e in rec["events"]
        if e["ev"] == "deal" and e["seat"] == seat and e["up"] and e["street"] <= street
    ]


def _chips_before_street(rec: dict[str, Any], seat: int, street: int) -> int:
    """The seat's stack when ``street``'s betting starts: replay up to that street's deal."""
    chips = next(s["stack"] for s in rec["seats"] if s["seat"] == seat)
    for e in rec["events"]:
        if e["ev"] == "deal" and e["street"] == street:
            break
        if e.get("seat") != seat:
            continue
        if e["ev"] == "ante":
            chips -= e["amount"]
        elif e["ev"] == "act":
            chips -= e["put"]
        elif e["ev"] == "return":
            chips += e["amount"]
    return chips


def _first_can_bet(
    rec: dict[str, Any], seat: int, street: int, order: list[int], gone: set[int]
) -> int:
    """R-O3: the seat itself if it can bet, else the first clockwise after it that can."""
    for s in [seat, *_clockwise_from([x for x in order if x != seat], seat)]:
        if s not in gone and _chips_before_street(rec, s, street) > 0:
            return s
    return -1


def _showing_order(
    rec: dict[str, Any], order: list[int], live: list[int], acts: list[dict[str, Any]]
) -> list[int]:
    """R-S5, read from the seventh street's ``act`` events.

    The last seat still in with a full bet or raise (R-A2: an all-in is full
    when it lifts the highest total by half a bet or more, or reaches the full
    bet, or the raise-to of R-B7); else, if chips went in, the first seat still
    in clockwise from the first to act (itself included); else the best
    showing hand (R-O2).  Then clockwise.
    """
    bet = rec["stakes"]["big_bet"]
    high, opened, full_by = 0, False, []
    for a in acts:
        if a["action"] in ("complete", "bet", "raise"):
            full_to = high + bet if opened else bet
            if not a["all_in"] or a["to"] - high >= (bet + 1) // 2 or a["to"] >= full_to:
                full_by.append(a["seat"])
                opened = True
        if a["action"] != "fold":
            high = max(high, a["to"])
    first = next((s for s in reversed(full_by) if s in live), None)
    if first is None and any(a["put"] > 0 for a in acts):
        opener = acts[0]["seat"]
        first = next(s for s in [opener, *_clockwise_from(order, opener)] if s in live)
    if first is None:
        first = max(live, key=lambda s: showing_value(up_cards(rec, s, 7)))
    return [first, *_clockwise_from([s for s in live if s != first], first)]


def _check_pots(
    rec: dict[str, Any],
    order: list[int],
    folded: set[int],
    put_total: Counter[int],
    shows: list[dict[str, Any]],
    awards: list[dict[str, Any]],
) -> list[str]:
    """Pots from the all-in levels of live seats (the format's rule), each to its best hand."""
    out: list[str] = []
    live = [s for s in order if s not in folded]
    all_in = {
        e["seat"]
        for e in rec["events"]
        if e["ev"] in ("ante", "act") and e["all_in"] and e["seat"] in live
    }
    levels = sorted({put_total[s] for s in all_in})
    pots: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    for level in [*levels, None]:
        if level is None:
            amount = sum(max(0, t - prev) for t in put_total.values())
            who = tuple(sorted(s for s in live if put_total[s] > prev))
        else:
            amount = sum(min(t, level) - min(t, prev) for t in put_total.values())
            who = tuple(sorted(s for s in live if put_total[s] >= level))
        if amount and who:
            if pots and pots[-1][1] == who:
                pots[-1] = (pots[-1][0] + amount, who)
            else:
                pots.append((amount, who))
        if level is not None:
            prev = level
    values = {sh["seat"]: evaluate(parse_many(sh["cards"])) for sh in shows}
    for index, (amount, who) in enumerate(pots):
        got = [a for a in awards if a["pot"] == index]
        if sum(a["amount"] for a in got) != amount:
            out.append(f"pot {index}: awarded {got}, pot is {amount} for {who}")
            continue
        best = max(values[s] for s in who)
        winners = _clockwise_from([s for s in who if values[s] == best], rec["button"])
        share, odd = divmod(amount, len(winners))
        want = [(s, share + (1 if i < odd else 0)) for i, s in enumerate(winners)]
        if sorted((a["seat"], a["amount"]) for a in got) != sorted(want):
            out.append(f"pot {index}: awards {got}, want {want}")
    if len(pots) != len({a["pot"] for a in awards}):
        out.append("award pot numbers")
    return out
