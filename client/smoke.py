"""``stud --smoke``: the game runs itself through, saying on stdout where it is.

For checks without a person at the window (``tests/test_bundle.py``, which runs the
standalone build; ``scripts/starttime.py``, which times the first frame): one line
``smoke: first frame`` when the start screen is first drawn, one for the rules (F1), then
with ``--computer`` one line for each phase the table goes through; our own seat checks
or calls on each of its turns, and the window closes once the standings are drawn
(``smoke: standings`` and one line a seat).  Without ``--computer`` it closes after the
rules.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from common.protocol import Act

__all__ = ["Smoke"]

PREFERRED = ("check", "call", "bring_in", "complete", "fold")  # the first one offered


class Smoke:
    def __init__(self, app: Any, *, table: bool, out: IO[str] = sys.stdout) -> None:
        self.app, self.table, self.out = app, table, out
        self.phase = ""
        self.acted: int | None = None  # the turn id we last answered

    def say(self, words: str) -> None:
        print(f"smoke: {words}", file=self.out, flush=True)

    def first_frame(self) -> None:
        """Draw the start screen once and say so (before any table is started), then the
        rules (F1) over it: how many rule ids they show."""
        app = self.app
        app.step(max_wait=0.0)
        self.say(f"first frame ({app.top().name})")
        app.show_rules()
        app.step(max_wait=0.0)
        rules = [b.rid for b in getattr(app.modal, "blocks", []) if b.rid]
        self.say(f"rules: {len(rules)} rule ids, {rules[0] if rules else 'none'} first")
        app.show_rules()  # F1 again: closed

    def after_step(self) -> None:
        app = self.app
        if not self.table:
            app.running = False
            return
        s = app.session
        phase = "start" if s is None else s.phase
        if phase != self.phase:
            self.phase = phase
            self.say(phase)
            if phase == "standings":
                app.step(max_wait=0.0)  # drawn once before we go
                for row in s.standings:
                    self.say(f"{row.place}. {row.name} {row.stack} ({row.net:+d})")
                app.running = False
            elif phase == "start" and app.notice:
                self.say(f"notice: {app.notice}")
                app.running = False
        if s is not None and s.my_turn() and s.turn != self.acted:
            offered = [a.action for a in s.actions()]
            action = next((a for a in PREFERRED if a in offered), offered[0])
            if app.send(Act(s.turn, action).encode()):
                self.acted = s.turn
