"""What a match leaves behind: its hand-history file, its hands kept for open books,
and tonight's scoreboard.

``MatchRecords`` writes the history (``server.histories``), keeps the hands the books
open with (``ServerConfig.open_books``) and adds the match to the night (``server.night``).
Invariants:

- ``match_id`` and ``history_path`` name the match being played, or the last one.
- Each hand is written to the history once: a resumed match (``resume``) reads which
  hands its file holds and writes only the others.
- ``hands`` holds this match's hand records only when the table opens its books, and
  is emptied when a match starts; a resumed match's starts with the hands its file
  holds, so its books open with every hand, once each.
- Between matches, a new evening starts a new night; a match ending adds to the night
  of its end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from common.engine import Hand
from common.history import hand_record
from common.match import Match, SeatInfo
from server import histories
from server.night import Night, evening_of

__all__ = ["MatchRecords"]


class MatchRecords:
    """The hand histories, the open books' hands and the night of one table."""

    def __init__(self, history_dir: Path, table: str, *, open_books: bool) -> None:
        self._dir = history_dir
        self._table = table
        self._open_books = open_books
        self.night = Night.load(history_dir, table, datetime.now().astimezone())
        self.match_id = ""
        self.history_path: Path | None = None
        self.hands: list[dict[str, Any]] = []  # this match's hands, kept for open books
        self._written: set[int] = set()  # the hand numbers in this match's history file
        self._counted = ""  # the match last added to the night

    def tonight(self, *, running: bool) -> Night:
        """Tonight's scoreboard (between matches a new evening starts a new one)."""
        now = datetime.now().astimezone()
        if not running and evening_of(now) != self.night.evening:
            self.night = Night.load(self._dir, self._table, now)
        return self.night

    def match_starts(self, rng: random.Random) -> str:
        self.match_id = histories.new_match_id(rng)
        self.history_path = histories.match_path(self._dir, self.match_id)
        self.hands = []
        self._written = set()
        return self.match_id

    def resume(self, match_id: str, history_path: Path | None) -> None:
        """A match resumed from its journal, and the hands its history holds."""
        self.match_id = match_id
        self.history_path = history_path
        self.hands = []
        if history_path is not None:
            hands = histories.match_hands(history_path, match_id)
            self._written = {record["hand"] for record in hands}
            if self._open_books:  # the books open with every hand, the ones before too
                self.hands = hands

    def hand_over(
        self, hand: Hand, *, number: int, time: str, seats: Mapping[int, SeatInfo]
    ) -> None:
        """Append the hand to the history unless it holds it, and keep it for the open
        books (``OSError``: called again, it writes it then, kept once)."""
        if self.history_path is not None and number not in self._written:
            histories.append_hand(
                self.history_path,
                match_id=self.match_id,
                number=number,
                time=time,
                hand=hand,
                seats=seats,
            )
            self._written.add(number)
        if self._open_books and all(r["hand"] != number for r in self.hands):
            self.hands.append(
                hand_record(
                    match_id=self.match_id, number=number, time=time, hand=hand, seats=seats
                )
            )

    def match_over(self, match: Match) -> None:
        """Add the match to the night it ends in (``OSError``: called again, it only saves)."""
        if self._counted == self.match_id:
            self.night.save()
            return
        now = datetime.now().astimezone()
        if evening_of(now) != self.night.evening:  # the first match of a new evening
            self.night = Night.load(self._dir, self._table, now)
        self._counted = self.match_id
        self.night.add(
            match_id=self.match_id,
            ended=now,
            hands=match.hands_played,
            standings=match.standings(),
            kind_of=lambda s: match.seats[s].kind.value,
        )
