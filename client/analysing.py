"""The analysis after the match in the window: ``common.analysis`` worked on between frames.

``analysis_for(records, viewer)`` is the one ``Analysing`` of those hands for that seat
(the replayer and the recap share it).  ``work()`` runs bounded steps for at most
``BUDGET`` seconds, and not again until ``GAP`` has passed, so no frame stalls.  It is
seeded by the match's id (the same figures every time), and the hands of a match still
being played get none (``held``), whatever the table's odds option.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from client.handbook import full_record
from client.i18n import N_, ngettext
from client.i18n import gettext as _
from client.model import Session
from client.tablewords import percent
from common.analysis import Mark, MatchAnalysis

__all__ = ["BUDGET", "GAP", "HELD", "Analysing", "analysis_for", "during_match"]

BUDGET = 0.012  # seconds of analysis a frame may run
GAP = 0.004  # seconds between two frames' work: calls closer are the same frame's
KEEP = 4  # analyses kept for hands opened again (the replayer, then the recap, then back)
HELD = N_("The analysis comes once the match is over")


def during_match(session: Session | None, records: Sequence[dict[str, Any]]) -> bool:
    """These hands are of the match the session is playing, and it is not over."""
    if session is None or not session.match_id or session.standings is not None:
        return False
    return any(rec["match"] == session.match_id for rec in records)


class Analysing:
    """One match's analysis for one seat, worked on a frame's share at a time."""

    def __init__(
        self,
        records: Sequence[dict[str, Any]],
        viewer: int | None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        held: bool = False,
    ) -> None:
        seed = records[0]["match"] if records else ""
        self.viewer = viewer
        self.held = held
        self.job = MatchAnalysis(
            records, None if held else viewer, random.Random(seed), chances=not held
        )
        self.clock = clock
        self._last = float("-inf")
        self.seats = {s["seat"] for rec in records for s in rec["seats"]}

    @property
    def done(self) -> bool:
        return self.job.done

    def work(self) -> bool:
        """This frame's share of the work; True when some was done."""
        if self.job.done:
            return False
        now = self.clock()
        if now - self._last < GAP:
            return False
        end = now + BUDGET
        while not self.job.step() and self.clock() < end:
            pass
        self._last = self.clock()
        return True

    def judged(self) -> bool:
        """The viewer has decisions in these hands to judge (a seat of its own)."""
        return not self.held and self.viewer is not None and self.viewer in self.seats

    def knowledge(self) -> str:
        """What the chances know, in words for the screen."""
        if self.held:
            return _(HELD)
        if self.job.full:
            return _("Bars: each seat's chance to win, every hole card known")
        if self.judged():
            return _("Chances from your seat's view: the books were closed")
        return _("No chances: the books were closed")

    def summary(self) -> str:
        """``"3 decisions worth a look"``, or how far the looking has come."""
        job = self.job
        if self.held:
            return ""
        if not self.judged():
            return _("No seat of yours to look over")
        if not job.decisions_done:
            words = _("Looking over your decisions… {percent}")
            return words.format(percent=percent(round(job.progress, 2)))
        n = len(job.worth_a_look())
        if n == 0:
            return _("No decision worth a second look")
        return ngettext("{n} decision worth a look", "{n} decisions worth a look", n).format(n=n)

    def progress(self) -> str:
        """``"Counting the chances… 40%"`` while counting, else ``""``."""
        if self.job.done:
            return ""
        words = _("Counting the chances… {percent}")
        return words.format(percent=percent(round(self.job.progress, 2)))

    def worth_a_look(self) -> list[Mark]:
        return self.job.worth_a_look() if self.job.decisions_done else []


_CACHE: OrderedDict[tuple[Any, ...], Analysing] = OrderedDict()


def analysis_for(
    records: Sequence[dict[str, Any]], viewer: int | None, *, session: Session | None = None
) -> Analysing:
    """The analysis of ``records`` for ``viewer``: the one already begun for the same
    hands, or a new one; none (``held``) while ``session`` still plays their match."""
    if during_match(session, records):
        return Analysing(records, viewer, held=True)
    key = viewer, tuple((rec["match"], rec["hand"], full_record(rec)) for rec in records)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = Analysing(records, viewer)
    _CACHE.move_to_end(key)
    while len(_CACHE) > KEEP:
        _CACHE.popitem(last=False)
    return found
