"""The hands of this match as our seat saw them, and the opened books: ``stud-hh/1`` records.

``HandBook.take(kind, msg)`` follows the server's messages.  Each hand's
``events`` (exactly as the server sent them: another seat's down card has no
``card``) become a record in the ``stud-hh/1`` shape, with the seats, their
stacks before the ante and, at ``hand_end``, the final stacks; the replayer
and the recap read these.  A ``books`` message (open the books, after the
match) brings a hand's full record, every hole card in it.

Invariants:

- A seen record holds only what the messages held, so replaying it shows
  only what this seat saw (R-S1); the books hold more only because the
  server sent them, which it does only after a match with the option.
- Every record here has been through ``clean_record``: well-typed seats,
  events and cards, so the replayer never meets a value it cannot draw.
- Pure: no pygame, no sockets, no clock.
"""

from __future__ import annotations

from typing import Any

from common.events import ProtocolError
from common.history import FORMAT
from common.reading import as_int, as_list, as_seat, as_str

__all__ = ["HandBook", "clean_record"]

MAX_EVENTS = 400
_CARD_RANKS, _CARD_SUITS = "23456789TJQKA", "cdhs"
_ACTIONS = ("bring_in", "complete", "bet", "raise", "call", "check", "fold")


def _card(value: Any) -> str | None:
    if (
        isinstance(value, str)
        and len(value) == 2
        and value[0] in _CARD_RANKS
        and value[1] in _CARD_SUITS
    ):
        return value
    return None


def _cards(value: Any, most: int = 7) -> list[str] | None:
    items = as_list(value)
    cards = [_card(c) for c in items[:most]]
    return None if any(c is None for c in cards) or not cards else [c for c in cards if c]


def clean_event(ev: Any) -> dict[str, Any] | None:
    """One ``stud-hh/1`` event with checked fields, or None when it is not one."""
    if not isinstance(ev, dict):
        return None
    kind = ev.get("ev")
    seat = as_seat(ev.get("seat"))
    if seat is None:
        return None
    if kind == "ante":
        return {"ev": "ante", "seat": seat, "amount": as_int(ev.get("amount"), 0, lo=0),
                "all_in": ev.get("all_in") is True}  # fmt: skip
    if kind == "deal":
        out = {"ev": "deal", "seat": seat, "street": as_int(ev.get("street"), 3, lo=3, hi=7),
               "up": ev.get("up") is True}  # fmt: skip
        card = _card(ev.get("card"))
        if card is not None:
            out["card"] = card
        elif out["up"]:
            return None  # an up card is always named
        return out
    if kind == "act":
        action = ev.get("action")
        if action not in _ACTIONS:
            return None
        return {
            "ev": "act",
            "seat": seat,
            "street": as_int(ev.get("street"), 3, lo=3, hi=7),
            "action": action,
            "put": as_int(ev.get("put"), 0, lo=0),
            "to": as_int(ev.get("to"), 0, lo=0),
            "all_in": ev.get("all_in") is True,
        }
    if kind == "return":
        return {"ev": "return", "seat": seat, "amount": as_int(ev.get("amount"), 0, lo=0)}
    if kind == "show":
        cards, best = _cards(ev.get("cards")), _cards(ev.get("best"), 5)
        if cards is None or best is None:
            return None
        return {"ev": "show", "seat": seat, "cards": cards, "best": best,
                "hand": as_str(ev.get("hand"), "", 60)}  # fmt: skip
    if kind == "award":
        return {"ev": "award", "seat": seat, "amount": as_int(ev.get("amount"), 0, lo=0),
                "pot": as_int(ev.get("pot"), 0, lo=0, hi=8)}  # fmt: skip
    return None


def clean_record(value: Any) -> dict[str, Any]:
    """A ``stud-hh/1`` hand with every field checked; raises ``ProtocolError`` if it is not one."""
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise ProtocolError("not a stud-hh/1 hand")
    seats = []
    for s in as_list(value.get("seats"))[:7]:
        if isinstance(s, dict) and as_seat(s.get("seat")) is not None:
            seats.append(
                {
                    "seat": s["seat"],
                    "name": as_str(s.get("name"), f"Seat {s['seat'] + 1}", 20),
                    "kind": "computer" if s.get("kind") == "computer" else "human",
                    "stack": as_int(s.get("stack"), 0, lo=0),
                }
            )
    if len(seats) < 2 or len({s["seat"] for s in seats}) != len(seats):
        raise ProtocolError("a hand needs two seats or more")
    dealt = {s["seat"] for s in seats}
    events = []
    for ev in as_list(value.get("events"))[:MAX_EVENTS]:
        clean = clean_event(ev)
        if clean is not None and clean["seat"] in dealt:
            events.append(clean)
    stakes = value.get("stakes") if isinstance(value.get("stakes"), dict) else {}
    final = [
        {"seat": f["seat"], "stack": as_int(f.get("stack"), 0, lo=0)}
        for f in as_list(value.get("final"))[:7]
        if isinstance(f, dict) and f.get("seat") in dealt
    ]
    return {
        "format": FORMAT,
        "match": as_str(value.get("match"), "", 80),
        "hand": as_int(value.get("hand"), 0, lo=0),
        "time": as_str(value.get("time"), "", 40),
        "stakes": {k: as_int(stakes.get(k), d, lo=0)
                   for k, d in (("ante", 1), ("bring_in", 4), ("small_bet", 10), ("big_bet", 20))},
        "button": as_seat(value.get("button")),
        "seats": seats,
        "events": events,
        "final": final,
    }  # fmt: skip


class HandBook:
    """This match's hands: as our seat saw them, and (after the match) the opened books."""

    def __init__(self) -> None:
        self.match = ""
        self.stakes: dict[str, int] = {"ante": 1, "bring_in": 4, "small_bet": 10, "big_bet": 20}
        self.names: dict[int, tuple[str, str]] = {}
        self.seen: dict[int, dict[str, Any]] = {}
        self.books: dict[int, dict[str, Any]] = {}
        self.books_expected = 0

    # ---- queries

    def finished(self) -> list[dict[str, Any]]:
        """The hands we saw to the end, in order (ours, not the books)."""
        return [r for _, r in sorted(self.seen.items()) if r["final"]]

    def opened(self) -> list[dict[str, Any]]:
        """The opened books, in hand order (empty unless the host opened them)."""
        return [r for _, r in sorted(self.books.items())]

    def best(self) -> list[dict[str, Any]]:
        """What to replay: the opened books once every hand has come, else what we saw."""
        books = self.opened()
        if books and len(books) >= self.books_expected:
            return books
        return self.finished()

    # ---- following the messages

    def take(self, kind: str, msg: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(msg)

    def _on_match_start(self, msg: dict[str, Any]) -> None:
        match = as_str(msg.get("match"), "", 80)
        if match != self.match:
            self.match = match
            self.seen.clear()
            self.books.clear()
            self.books_expected = 0
        else:  # a reconnection: the hand being played comes again, whole, in one events
            self.seen = {h: r for h, r in self.seen.items() if r["final"]}
        stakes = msg.get("stakes")
        if isinstance(stakes, dict):
            self.stakes = {k: as_int(stakes.get(k), v, lo=0) for k, v in self.stakes.items()}
        self._names(msg.get("seats"))

    def _names(self, players: Any) -> None:
        for p in as_list(players)[:7]:
            if isinstance(p, dict) and as_seat(p.get("seat")) is not None:
                kind = "computer" if p.get("kind") == "computer" else "human"
                self.names[p["seat"]] = (as_str(p.get("name"), f"Seat {p['seat'] + 1}", 20), kind)

    def _record(self, hand: int) -> dict[str, Any]:
        rec = self.seen.get(hand)
        if rec is None:
            rec = {"format": FORMAT, "match": self.match, "hand": hand, "time": "",
                   "stakes": dict(self.stakes), "button": None, "seats": [], "events": [],
                   "final": []}  # fmt: skip
            self.seen[hand] = rec
        return rec

    def _on_events(self, msg: dict[str, Any]) -> None:
        hand = as_int(msg.get("hand"), 0, lo=0)
        if hand <= 0:
            return
        rec = self._record(hand)
        if rec["final"]:
            return  # over: nothing more belongs to it
        for ev in as_list(msg.get("events"))[:MAX_EVENTS]:
            clean = clean_event(ev)
            if clean is not None and len(rec["events"]) < MAX_EVENTS:
                rec["events"].append(clean)

    def _on_table(self, msg: dict[str, Any]) -> None:
        hand = as_int(msg.get("hand"), 0, lo=0)
        view = msg.get("view")
        self._names(msg.get("players"))
        if hand <= 0 or not isinstance(view, dict) or hand not in self.seen:
            return
        rec = self.seen[hand]
        if rec["seats"]:
            return
        rec["button"] = as_seat(view.get("button"))
        # The stack before the ante: now, plus what it put in, less what came back.
        moved: dict[int, int] = {}
        for ev in rec["events"]:
            sign = {"ante": 1, "return": -1, "award": -1}.get(ev["ev"], 0)
            amount = ev.get("amount", 0) if ev["ev"] != "act" else ev["put"]
            if ev["ev"] == "act":
                sign = 1
            moved[ev["seat"]] = moved.get(ev["seat"], 0) + sign * amount
        seats = []
        for entry in as_list(view.get("seats"))[:7]:
            if not isinstance(entry, dict) or as_seat(entry.get("seat")) is None:
                continue
            s = entry["seat"]
            name, kind = self.names.get(s, (f"Seat {s + 1}", "human"))
            stack = as_int(entry.get("stack"), 0, lo=0) + moved.get(s, 0)
            seats.append({"seat": s, "name": name, "kind": kind, "stack": stack})
        rec["seats"] = seats

    def _on_hand_end(self, msg: dict[str, Any]) -> None:
        hand = as_int(msg.get("hand"), 0, lo=0)
        rec = self.seen.get(hand)
        if rec is None or not rec["seats"]:
            return
        stacks = {}
        for s in as_list(msg.get("stacks"))[:7]:
            if isinstance(s, dict) and as_seat(s.get("seat")) is not None:
                stacks[s["seat"]] = as_int(s.get("stack"), 0, lo=0)
        dealt = [s["seat"] for s in rec["seats"]]
        if all(s in stacks for s in dealt):
            try:
                self.seen[hand] = clean_record(
                    {**rec, "final": [{"seat": s, "stack": stacks[s]} for s in dealt]}
                )
            except ProtocolError:
                self.seen.pop(hand, None)

    def _on_books(self, msg: dict[str, Any]) -> None:
        rec = clean_record(msg.get("record"))
        hand = as_int(msg.get("hand"), rec["hand"], lo=1, hi=99)
        self.books[hand] = rec
        self.books_expected = as_int(msg.get("hands"), len(self.books), lo=1, hi=99)
