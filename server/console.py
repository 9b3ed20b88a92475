"""The host's terminal: one command line of a headless server's stdin (R-C3).

``message(line)`` reads ``pause``, ``resume``, ``take N`` (a seat number), ``give N`` /
``refuse N`` (an ask for a seat back, ``server.asks``), ``host N`` (the host's role to
a connected person), ``stand-in on|off``, ``plain never|allow`` and ``odds on|off`` as
the host's message each stands for (``Table.console`` sends it as the host's, so it is
refused for the same reasons, whoever is host and with no host at all); ``status`` and
anything else are words to print.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from server.seats import Seat
from server.turns import TableOptions

__all__ = ["HELP", "message", "status"]

HELP = (
    "commands: pause, resume, take SEAT, give SEAT, refuse SEAT, host SEAT, stand-in on|off,"
    " plain never|allow, odds on|off, status"
)
_SEAT = {"take": "take_seat", "give": "give_seat", "refuse": "refuse_seat", "host": "make_host"}
_OPTIONS: dict[tuple[str, str], dict[str, Any]] = {
    ("stand-in", "on"): {"stand_in": True},
    ("stand-in", "off"): {"stand_in": False},
    ("plain", "never"): {"plain": "never"},
    ("plain", "allow"): {"plain": "allow"},
    ("odds", "on"): {"odds": True},
    ("odds", "off"): {"odds": False},
}


def message(line: str) -> dict[str, Any] | str | None:
    """The host's message ``line`` stands for (as the wire spells it), ``"status"``, the
    words to print instead (a usage, ``HELP``), or None for an empty line."""
    words = line.split()
    if not words:
        return None
    cmd, args = words[0].lower(), words[1:]
    if cmd in ("pause", "resume", "status"):
        return {"type": cmd} if cmd != "status" else cmd
    if cmd in _SEAT:
        if len(args) != 1 or not args[0].isdigit():
            return f"usage: {cmd} SEAT (a seat number, 0 to 6)"
        return {"type": _SEAT[cmd], "seat": int(args[0])}
    options = _OPTIONS.get((cmd, args[0])) if len(args) == 1 else None
    return HELP if options is None else {"type": "options", **options}


def status(
    state: str,
    seats: Mapping[int, Seat],
    options: TableOptions,
    *,
    plain: str,
    asks: Iterable[str],
) -> str:
    """The terminal's ``status``: the table's life, options and seats, and open asks."""
    listed = ", ".join(
        f"{s.seat} {s.name}" + (f" (away: {why})" if (why := s.presence.away_why) else "")
        for s in sorted(seats.values(), key=lambda s: s.seat)
    )
    said = f"{state}; options {options.to_dict()}"
    said += (f"; {plain}" if plain else "") + ("; odds allowed" if options.odds else "")
    said += f"; seats: {listed or 'none'}"
    asked = "; ".join(asks)
    return f"{said}; {asked}" if asked else said
