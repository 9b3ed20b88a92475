"""The table's log: what happened, in lines for people, and what each seat just did.

``TableLog`` keeps the last ``MAX_LOG`` lines and each seat's last words on this street
(``recent``, the labels over the seats): a street's name when its first card comes, each
action in ``client.wording``'s words, one winner line per pot (R-S3).  Pure.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from client.i18n import gettext as _
from client.i18n import ngettext
from client.wording import LogLine, act_line, act_words, award_lines, describe_event, street_name
from common.events import Act, Award, Deal, Event, Show

__all__ = ["MAX_LOG", "TableLog"]

MAX_LOG = 300


class TableLog:
    def __init__(self) -> None:
        self.lines: deque[LogLine] = deque(maxlen=MAX_LOG)
        self.recent: dict[int, str] = {}  # each seat's words on this street
        self._hand = 0  # the last hand whose number was said
        self._street = (0, 0)  # the last (hand, street) whose name was said
        self._shown: tuple[int, dict[int, str]] = (0, {})  # a hand's shows, for its winners

    def say(self, text: str | None, kind: str = "info") -> None:
        """A line, if there is one to say (the parts' words are None when there is not)."""
        if text is not None:
            self.lines.append(LogLine(text, kind))

    def new_match(self, hands: int) -> None:
        self.recent.clear()
        self._hand, self._street, self._shown = 0, (0, 0), (0, {})
        words = ngettext("A match of {hands} hand begins", "A match of {hands} hands begins", hands)
        self.say(words.format(hands=hands), "street")

    def hand(self, hand: int, hands: int) -> None:
        """Say the hand's number once, when it starts."""
        if hand != self._hand and hand > 0:
            self._hand = hand
            self.say(_("Hand {hand} of {hands}").format(hand=hand, hands=hands), "street")

    def events(self, hand: int, events: Iterable[Event], name_of: Callable[[int], str]) -> None:
        """Lines for a hand's events that came (each only once: a comeback's replay of
        the hand so far is cut to what is new by the caller)."""
        if hand != self._shown[0]:
            self._shown = (hand, {})
            self.recent.clear()
        shown = self._shown[1]
        awards: list[tuple[int, int, int]] = []
        for ev in events:
            if isinstance(ev, Deal) and (hand, ev.street) != self._street:
                self._street = (hand, ev.street)
                self.recent.clear()  # each street starts clean: no last street's words
                self.say(street_name(ev.street) or None, "street")
            if isinstance(ev, Show):
                shown[ev.seat] = ev.hand
            if isinstance(ev, Award):
                awards.append((ev.seat, ev.amount, ev.pot))
            elif isinstance(ev, Act):
                # One set of words for the log line and the label over the seat.
                words = act_words(ev)
                self.lines.append(act_line(name_of(ev.seat), ev))
                self.recent[ev.seat] = words
            elif (line := describe_event(ev, name_of)) is not None:
                self.lines.append(line)
        for line in award_lines(awards, shown, name_of):
            self.say(line, "win")
