"""``stud-hh/1`` hands in other formats: PHH (variant ``F7S``) and PokerStars-style text.

PHH is the open TOML format of the poker hand history specification
(https://phh.readthedocs.io).  Players are numbered ``p1``, ``p2``, ... in
deal order (the record's ``seats`` order: the first seat clockwise after the
button), which is the order the format's stud deals and pokerkit's
``FixedLimitSevenCardStud`` use.  Antes, returns of uncalled bets and the
pots' payment are the reader's to work out, so they are not written; every
card dealt is (``????`` style ``??`` for a down card the record does not
know, as in a seat's own record), and so is every action and every hand
shown.  Our seat numbers, names and final stacks go in the optional
``seats``, ``players`` and ``finishing_stacks`` fields.

>>> rec = {"format": "stud-hh/1", "match": "m", "hand": 1, "time": "2026-11-30T20:14:03+01:00",
...        "stakes": {"ante": 1, "bring_in": 4, "small_bet": 10, "big_bet": 20}, "button": 1,
...        "seats": [{"seat": 0, "name": "Ann", "kind": "human", "stack": 600},
...                  {"seat": 1, "name": "Bo", "kind": "computer", "stack": 600}],
...        "events": [{"ev": "deal", "seat": 0, "street": 3, "card": "Ah", "up": False},
...                   {"ev": "act", "seat": 1, "street": 3, "action": "bring_in", "put": 4,
...                    "to": 4, "all_in": False}], "final": []}
>>> [line for line in to_phh(rec).splitlines() if line.startswith("  '")]
["  'd dh p1 Ah',", "  'p2 pb',"]
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

__all__ = ["phh_name", "to_phh", "to_pokerstars"]


def _toml_str(value: str) -> str:
    """A TOML basic string (JSON's escaping is valid TOML for these)."""
    return json.dumps(value, ensure_ascii=False)


def phh_name(record: Mapping[str, Any], ext: str = "phh") -> str:
    """``2026-11-29-205404-6513-03.phh``: the match id and the hand number."""
    match = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(record.get("match", "")))
    return f"{match or 'hand'}-{int(record.get('hand', 0)):02d}.{ext}"


def _actions(record: Mapping[str, Any]) -> list[str]:
    player = {s["seat"]: f"p{i + 1}" for i, s in enumerate(record["seats"])}
    out: list[str] = []
    for ev in record["events"]:
        kind = ev.get("ev")
        if kind == "deal":
            card = ev.get("card")
            out.append(f"d dh {player[ev['seat']]} {card if isinstance(card, str) else '??'}")
        elif kind == "act":
            p = player[ev["seat"]]
            action = ev["action"]
            if action == "bring_in":
                out.append(f"{p} pb")
            elif action in ("complete", "bet", "raise"):
                out.append(f"{p} cbr {ev['to']}")
            elif action in ("call", "check"):
                out.append(f"{p} cc")
            elif action == "fold":
                out.append(f"{p} f")
        elif kind == "show":
            out.append(f"{player[ev['seat']]} sm {''.join(ev['cards'])}")
    return out


def to_phh(record: Mapping[str, Any]) -> str:
    """One hand as a PHH file (TOML text, variant ``F7S``)."""
    stakes = record["stakes"]
    seats = record["seats"]
    final = {f["seat"]: f["stack"] for f in record.get("final", [])}
    lines = [
        "variant = 'F7S'",
        f"antes = [{', '.join(str(min(stakes['ante'], s['stack'])) for s in seats)}]",
        f"bring_in = {stakes['bring_in']}",
        f"small_bet = {stakes['small_bet']}",
        f"big_bet = {stakes['big_bet']}",
        f"starting_stacks = [{', '.join(str(s['stack']) for s in seats)}]",
        "actions = [",
        *(f"  '{a}'," for a in _actions(record)),
        "]",
        f"players = [{', '.join(_toml_str(str(s.get('name', ''))) for s in seats)}]",
        f"seats = [{', '.join(str(s['seat'] + 1) for s in seats)}]",
        "seat_count = 7",
        f"hand = {int(record.get('hand', 0))}",
        f"event = {_toml_str('Seventh Street match ' + str(record.get('match', '')))}",
    ]
    if final and all(s["seat"] in final for s in seats):
        lines.append(f"finishing_stacks = [{', '.join(str(final[s['seat']]) for s in seats)}]")
    try:
        when = datetime.fromisoformat(str(record.get("time", "")))
    except ValueError:
        when = None
    if when is not None:
        lines += [f"day = {when.day}", f"month = {when.month}", f"year = {when.year}"]
        lines.append(f"time = {when:%H:%M:%S}")
        if when.utcoffset() is not None:
            lines.append(f"time_zone = {_toml_str(when.strftime('UTC%z'))}")
    lines.append(f"_match = {_toml_str(str(record.get('match', '')))}")
    return "\n".join(lines) + "\n"


_PS_ACTS = {"bring_in": "brings in for", "call": "calls", "bet": "bets", "check": "checks",
            "fold": "folds", "complete": "completes it to", "raise": "raises"}  # fmt: skip
_PS_STREETS = {3: "3rd STREET", 4: "4th STREET", 5: "5th STREET", 6: "6th STREET",
               7: "RIVER"}  # fmt: skip


def to_pokerstars(record: Mapping[str, Any], *, hand_id: int | None = None) -> str:
    """One hand as PokerStars-style text, for tracking software that reads stud hands.

    Play chips, no rake; ``Seat N`` is our seat number plus one.  The cards a
    record does not know are left out, as a site leaves out the others' down cards.
    """
    stakes = record["stakes"]
    names = {s["seat"]: str(s.get("name") or f"Seat {s['seat'] + 1}") for s in record["seats"]}
    try:
        when = datetime.fromisoformat(str(record.get("time", "")))
        stamp = f"{when:%Y/%m/%d %H:%M:%S}"
    except ValueError:
        stamp = "1970/01/01 00:00:00"
    number = hand_id if hand_id is not None else int(record.get("hand", 0))
    small, big = stakes["small_bet"], stakes["big_bet"]
    out = [
        f"PokerStars Hand #{number}:  7 Card Stud Limit ({small}/{big}) - {stamp}",
        f"Table 'Seventh Street {record.get('match', '')}' 7-max",
    ]
    for s in sorted(record["seats"], key=lambda s: s["seat"]):
        out.append(f"Seat {s['seat'] + 1}: {names[s['seat']]} ({s['stack']} in chips)")
    street = 0
    cards: dict[int, list[str]] = {s: [] for s in names}
    fresh: dict[int, list[str]] = {}
    high = 0
    won: dict[int, int] = {}

    def flush() -> None:
        for seat in [s["seat"] for s in record["seats"]]:
            new = fresh.get(seat)
            if new:
                before = cards[seat][: len(cards[seat]) - len(new)]
                head = f"[{' '.join(before)}] " if before else ""
                out.append(f"Dealt to {names[seat]} {head}[{' '.join(new)}]")
        fresh.clear()

    for ev in record["events"]:
        kind = ev.get("ev")
        name = names.get(ev.get("seat"), "?")
        if kind != "deal":
            flush()
        if kind == "ante":
            out.append(f"{name}: posts the ante {ev['amount']}")
        elif kind == "deal":
            if ev["street"] != street:
                flush()
                street = ev["street"]
                high = 0
                out.append(f"*** {_PS_STREETS.get(street, str(street))} ***")
            card = ev.get("card")
            if isinstance(card, str):
                cards[ev["seat"]].append(card)
                fresh.setdefault(ev["seat"], []).append(card)
        elif kind == "act":
            action = ev["action"]
            text = f"{name}: {_PS_ACTS.get(action, action)}"
            if action in ("bring_in", "call", "bet"):
                text += f" {ev['put']}"
            elif action == "raise":
                text += f" {ev['to'] - high} to {ev['to']}"
            elif action == "complete":
                text += f" {ev['to']}"
            if action in ("bring_in", "complete", "bet", "raise"):
                high = ev["to"]
            if ev.get("all_in"):
                text += " and is all-in"
            out.append(text)
        elif kind == "return":
            out.append(f"Uncalled bet ({ev['amount']}) returned to {name}")
        elif kind == "show":
            if street != 8:
                street = 8
                out.append("*** SHOW DOWN ***")
            out.append(f"{name}: shows [{' '.join(ev['cards'])}] ({ev['hand']})")
        elif kind == "award":
            won[ev["seat"]] = won.get(ev["seat"], 0) + ev["amount"]
            pot = "pot" if ev["pot"] == 0 else f"side pot-{ev['pot']}"
            out.append(f"{name} collected {ev['amount']} from {pot}")
    flush()
    total = sum(won.values())
    out += ["*** SUMMARY ***", f"Total pot {total} | Rake 0"]
    for s in sorted(names):
        if s in won:
            out.append(f"Seat {s + 1}: {names[s]} collected ({won[s]})")
    return "\n".join(out) + "\n\n"
