"""``stud-hh/1`` hands in other formats: PHH (variant ``F7S``) and PokerStars-style text.

PHH is the open TOML format of the poker hand history specification
(https://phh.readthedocs.io).  Players are numbered ``p1``, ``p2``, ... in deal order
(the record's ``seats`` order), as the format's stud deals and pokerkit's
``FixedLimitSevenCardStud`` have them.  Antes, returns and the pots' payment are the
reader's to work out; every card dealt is written (``??`` for a down card the record
does not know), every action and every hand shown.  Our seat numbers, names and final
stacks go in the optional ``seats``, ``players`` and ``finishing_stacks`` fields.

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

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from common.replay import seat_names, won_by

__all__ = ["phh_name", "pokerstars_number", "to_phh", "to_pokerstars"]


def _toml_str(value: str) -> str:
    """A TOML basic string (JSON's escaping is valid TOML for these)."""
    return json.dumps(value, ensure_ascii=False)


def phh_name(record: Mapping[str, Any], ext: str = "phh") -> str:
    """``2026-11-29-205404-6513-03.phh``: the match id and the hand number."""
    match = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(record.get("match", "")))
    return f"{match or 'hand'}-{int(record.get('hand', 0)):02d}.{ext}"


def _runout_from(events: list[Mapping[str, Any]]) -> int | None:
    """Where the seats still in were all in with cards still to come (R-D5): the index of
    the event after which the PHH showdown goes, or None when the hand went on to
    seventh street's betting or was not shown down.

    That is the last betting action when cards are dealt after it, or, where no one
    could bet at all (every seat but one all in on its ante), the last card of third
    street.
    """
    if not any(ev.get("ev") == "show" for ev in events):
        return None
    acts = [i for i, ev in enumerate(events) if ev.get("ev") == "act"]
    if acts:
        last = acts[-1]
    else:
        third = [i for i, ev in enumerate(events) if ev.get("ev") == "deal" and ev["street"] == 3]
        if not third:
            return None
        last = third[-1]
    return last if any(ev.get("ev") == "deal" for ev in events[last + 1 :]) else None


_PHH_ACTS = {"bring_in": "pb", "complete": "cbr", "bet": "cbr", "raise": "cbr", "call": "cc",
             "check": "cc", "fold": "f"}  # fmt: skip


def _actions(record: Mapping[str, Any]) -> list[str]:
    """The PHH actions of one hand, in the order the specification reads them.

    When the seats still in are all in before the last card, the specification puts
    the showdown (``sm``) right after they are all in, before the cards still to come:
    each shows the cards it holds then.  A face-down card dealt after that (seventh
    street's) is shown at the end, with the whole hand.
    """
    player = {s["seat"]: f"p{i + 1}" for i, s in enumerate(record["seats"])}
    events = list(record["events"])
    runout = _runout_from(events)
    shows = [ev for ev in events if ev.get("ev") == "show"]
    held: dict[int, int] = {}  # cards dealt so far, per seat
    shown: set[int] = set()  # seats that showed at the runout
    hidden: set[int] = set()  # of those, the ones dealt a down card since
    out: list[str] = []
    for i, ev in enumerate(events):
        kind = ev.get("ev")
        if kind == "deal":
            seat = ev["seat"]
            held[seat] = held.get(seat, 0) + 1
            if seat in shown and not ev.get("up"):
                hidden.add(seat)
            card = ev.get("card")
            out.append(f"d dh {player[seat]} {card if isinstance(card, str) else '??'}")
        elif kind == "act" and (code := _PHH_ACTS.get(ev["action"])):
            p = player[ev["seat"]]
            out.append(f"{p} cbr {ev['to']}" if code == "cbr" else f"{p} {code}")
        elif kind == "show" and (runout is None or ev["seat"] in hidden):
            out.append(f"{player[ev['seat']]} sm {''.join(ev['cards'])}")
        if i == runout:
            for show in shows:
                seat = show["seat"]
                shown.add(seat)
                out.append(f"{player[seat]} sm {''.join(show['cards'][: held.get(seat, 0)])}")
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


def pokerstars_number(record: Mapping[str, Any]) -> int:
    """The hand's number in PokerStars text: 15 digits from the match id and the hand.

    Tracking software keys hands by this number, so it must differ between any two
    hands of any matches on any machines and stay the same on every export: a hash of
    the match id (its date, time and random bits) and the hand number.  Digits only,
    no leading zero, below 2**53, so that readers that keep it as a 64-bit integer,
    or a JavaScript number, read it exactly.

    >>> pokerstars_number({"match": "2026-11-29-205404-6513", "hand": 3})
    443471293978778
    """
    key = f"{record.get('match', '')}#{int(record.get('hand', 0))}".encode()
    digest = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
    return 10**14 + digest % (9 * 10**14)


def to_pokerstars(
    record: Mapping[str, Any], *, table: str | None = None, hand_id: int | None = None
) -> str:
    """One hand as PokerStars-style text, for tracking software that reads stud hands.

    Play chips, no rake; ``Seat N`` is our seat number plus one.  The cards a
    record does not know are left out, as a site leaves out the others' down cards.
    The hand's number is ``pokerstars_number`` (``hand_id`` to choose another) and
    the header names ``table`` (the match id when the table's name is not known).
    """
    stakes = record["stakes"]
    names = seat_names(record)
    try:
        when = datetime.fromisoformat(str(record.get("time", "")))
        stamp = f"{when:%Y/%m/%d %H:%M:%S}"
    except ValueError:
        stamp = "1970/01/01 00:00:00"
    number = hand_id if hand_id is not None else pokerstars_number(record)
    small, big = stakes["small_bet"], stakes["big_bet"]
    # Readers take the table's name between the quotes: none inside it, and one line.
    table_name = table or f"Seventh Street {record.get('match', '')}"
    table_name = " ".join(table_name.replace("'", "\u2019").split())
    out = [
        f"PokerStars Hand #{number}:  7 Card Stud Limit ({small}/{big}) - {stamp}",
        f"Table '{table_name}' 7-max",
    ]
    for s in sorted(record["seats"], key=lambda s: s["seat"]):
        out.append(f"Seat {s['seat'] + 1}: {names[s['seat']]} ({s['stack']} in chips)")
    street = 0
    cards: dict[int, list[str]] = {s: [] for s in names}
    fresh: dict[int, list[str]] = {}
    high = 0

    def flush() -> None:
        for seat in names:  # the record's seats, in order
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
            pot = "pot" if ev["pot"] == 0 else f"side pot-{ev['pot']}"
            out.append(f"{name} collected {ev['amount']} from {pot}")
    flush()
    won = won_by(record)
    out += ["*** SUMMARY ***", f"Total pot {sum(won.values())} | Rake 0"]
    for s in sorted(names):
        if s in won:
            out.append(f"Seat {s + 1}: {names[s]} collected ({won[s]})")
    return "\n".join(out) + "\n\n"
