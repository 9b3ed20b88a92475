"""The hands of this match as our seat saw them, and the opened books: ``stud-hh/1`` records.

``HandBook.take(msg)`` follows the server's messages: each hand's events, as sent (another
seat's down card has no ``card``), become a record with the seats' stacks before the ante
and, at ``hand_end``, the final stacks, for the replayer and the recap; a ``books``
message brings a hand's full record after the match.  A seen record holds only what the
messages held (R-S1), and every record has been through ``common.history.clean_record``.
Pure: no pygame, no sockets, no clock.
"""

from __future__ import annotations

from typing import Any

from common import history
from common.events import Act, Ante, Award, Return, Stakes
from common.history import FORMAT
from common.protocol import server_messages as r

__all__ = ["HandBook", "full_record"]

MAX_EVENTS = history.MAX_EVENTS


def full_record(record: dict[str, Any]) -> bool:
    """Every card of the hand is in the record: opened books, or a history file."""
    return all("card" in e for e in record["events"] if e["ev"] == "deal")


class HandBook:
    """This match's hands: as our seat saw them, and (after the match) the opened books."""

    def __init__(self) -> None:
        self.match = ""
        self.stakes = Stakes()
        self.names: dict[int, tuple[str, str]] = {}
        self.seen: dict[int, dict[str, Any]] = {}
        self.books: dict[int, dict[str, Any]] = {}
        self.books_expected = 0
        self._moved: dict[int, dict[int, int]] = {}  # chips each seat moved in a seen hand

    # ---- queries

    def finished(self) -> list[dict[str, Any]]:
        """The hands we saw to the end, in order (ours, not the books)."""
        return [rec for _, rec in sorted(self.seen.items()) if rec["final"]]

    def opened(self) -> list[dict[str, Any]]:
        """The opened books, in hand order (empty unless the host opened them)."""
        return [rec for _, rec in sorted(self.books.items())]

    def best(self) -> list[dict[str, Any]]:
        """What to replay: the opened books once every hand has come, else what we saw."""
        books = self.opened()
        if books and len(books) >= self.books_expected:
            return books
        return self.finished()

    # ---- following the messages

    def take(self, m: r.ServerMessage) -> None:
        match m:
            case r.MatchStart():
                if m.match != self.match:
                    self.match = m.match
                    self.seen.clear()
                    self.books.clear()
                    self.books_expected = 0
                else:  # a comeback: the hand being played comes again, whole, in one events
                    self.seen = {h: rec for h, rec in self.seen.items() if rec["final"]}
                self.stakes = m.stakes
                self._names(m.seats)
            case r.Events():
                self._events(m)
            case r.Table():
                self._names(m.players)
                self._seats(m)
            case r.HandEnd():
                self._hand_end(m)
            case r.Books():
                self.books[m.hand] = m.record
                self.books_expected = m.hands or len(self.books)

    def _names(self, seats: Any) -> None:
        for p in seats:
            self.names[p.seat] = (p.name, p.kind)

    def _events(self, m: r.Events) -> None:
        hand = m.hand or 0
        if hand <= 0:
            return
        rec = self.seen.get(hand)
        if rec is None:
            rec = self.seen[hand] = {
                "format": FORMAT, "match": self.match, "hand": hand, "time": "",
                "stakes": self.stakes.to_dict(), "button": None, "seats": [], "events": [],
                "final": [],
            }  # fmt: skip
            self._moved[hand] = {}
        if rec["final"]:
            return  # over: nothing more belongs to it
        moved = self._moved[hand]
        for ev in m.events[: MAX_EVENTS - len(rec["events"])]:
            rec["events"].append(ev.to_dict())
            # The stack before the ante: the stack now, plus what went in, less what came back.
            if isinstance(ev, Ante | Return | Award):
                put = ev.amount if isinstance(ev, Ante) else -ev.amount
            else:
                put = ev.put if isinstance(ev, Act) else 0
            moved[ev.seat] = moved.get(ev.seat, 0) + put

    def _seats(self, m: r.Table) -> None:
        rec = self.seen.get(m.hand or 0)
        if rec is None or rec["seats"]:
            return
        rec["button"] = m.view.button
        moved = self._moved.get(rec["hand"], {})
        rec["seats"] = []
        for s, entry in m.view.seats.items():
            name, kind = self.names.get(s, (f"Seat {s + 1}", "human"))
            stack = entry.stack + moved.get(s, 0)
            rec["seats"].append({"seat": s, "name": name, "kind": kind, "stack": stack})

    def _hand_end(self, m: r.HandEnd) -> None:
        rec = self.seen.get(m.hand)
        if rec is None or not rec["seats"]:
            return
        dealt = [s["seat"] for s in rec["seats"]]
        if all(s in m.stacks for s in dealt):
            final = [{"seat": s, "stack": m.stacks[s]} for s in dealt]
            try:
                self.seen[m.hand] = history.clean_record({**rec, "final": final})
            except ValueError:
                self.seen.pop(m.hand, None)
