"""What the start screen's Join column says besides its boxes (issue 33): the tables found
where this game keeps a seat to take back, and where a join that did not get in is said.

Pure bookkeeping for ``client.scenes.start``: no drawing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.host import Host
from client.render.tablelist import PasswordPrompt

__all__ = ["PASSWORD_CODES", "KeptSeats", "place"]

PASSWORD_CODES = ("bad_password", "password_wait")
"""A join's refusals that the password dialog says, for another try (``client.reach``)."""


class KeptSeats:
    """The tables found (their ``key``) where a join takes our own seat back: a token kept
    under the name typed, from a match, at a table running a match now (a seat dropped
    between matches is freed, R-C1).  Looked up when the tables or the name change."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._asked: object = None
        self._kept: frozenset[str] = frozenset()

    def of(self, tables: Sequence[Any], name: str) -> frozenset[str]:
        asked = (tuple(tables), name)
        if asked != self._asked:
            keys = {t.key: self.host.seat_key(t.host, t.port, name=name) for t in tables
                    if t.running}  # fmt: skip
            self._kept = frozenset(k for k, key in keys.items() if key and key.match is not None)
            self._asked = asked
        return self._kept

    def forget(self) -> None:
        """A table left meanwhile may have dropped a seat: look again."""
        self._asked = None


def place(
    refusal: tuple[str, str] | None, asked: PasswordPrompt | None
) -> tuple[PasswordPrompt | None, str]:
    """Where a join that did not get in is said: (the password dialog it came from, opened
    again with the refusal for another try: a wrong password, a wait), else (None, the
    words for the Join box); (None, "") with nothing to say."""
    if refusal is None:
        return None, ""
    code, words = refusal
    words = words[:1].upper() + words[1:]
    if asked is not None and code in PASSWORD_CODES:
        asked.error = words
        asked.input.value, asked.input.focused = "", True
        return asked, ""
    return None, words
