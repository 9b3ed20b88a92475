"""The host's terminal: one command line of a headless server's stdin (R-C3).

``console(controls, seats, line)`` reads ``pause``, ``resume``, ``take N`` (a seat
number), ``give N`` / ``refuse N`` (an ask for a seat back, ``server.asks``), ``host N``
(the host's role to a connected person), ``stand-in on|off``, ``plain never|allow`` (plain
connections turned off, closing those there, or allowed), ``odds on|off`` (odds on request
allowed or not), ``status`` or ``help`` and
returns what to print.  A refused command changes nothing and says why; the commands are
the host's controls (``server.hostctl``), so they are refused for the same reasons as the
messages.  The terminal keeps them whoever is host, and with no host at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from common import protocol as p
from server.asks import SeatAsks
from server.hostctl import HostControls
from server.seats import Seat

__all__ = ["HELP", "console"]

HELP = (
    "commands: pause, resume, take SEAT, give SEAT, refuse SEAT, host SEAT, stand-in on|off,"
    " plain never|allow, odds on|off, status"
)


def console(
    controls: HostControls,
    seats: Mapping[int, Seat],
    line: str,
    *,
    running: bool,
    paused: bool,
    asks: SeatAsks | None = None,
    make_host: Callable[[int], None] | None = None,
) -> str:
    """One command from the host's terminal; returns what to print."""
    words = line.split()
    if not words:
        return ""
    cmd, args = words[0].lower(), words[1:]
    try:
        if cmd in ("give", "refuse", "host") and (asks is not None or cmd == "host"):
            if len(args) != 1 or not args[0].isdigit():
                return f"usage: {cmd} SEAT (a seat number, 0 to 6)"
            if cmd == "host":
                if make_host is None:
                    return HELP
                make_host(int(args[0]))
            else:
                assert asks is not None
                asks.decide(int(args[0]), give=cmd == "give")
            return "ok"
        if cmd in ("pause", "resume", "take"):
            if not running:
                raise p.MessageError("no_match", "no match is being played")
            if cmd == "pause":
                controls.pause()
            elif cmd == "resume":
                controls.resume()
            else:
                if len(args) != 1 or not args[0].isdigit():
                    return "usage: take SEAT (a seat number, 0 to 6)"
                controls.take_seat(int(args[0]))
            return "ok"
        if cmd == "stand-in" and args and args[0] in ("on", "off"):
            controls.set_stand_in(args[0] == "on")
            return "ok"
        if cmd == "plain" and len(args) == 1 and args[0] in ("never", "allow"):
            controls.set_plain(args[0])
            return "ok"
        if cmd == "odds" and len(args) == 1 and args[0] in ("on", "off"):
            controls.set_odds(args[0] == "on")
            return "ok"
    except p.MessageError as exc:
        return f"refused: {exc}"
    if cmd == "status":
        state = "paused" if paused else "playing" if running else "in the lobby"
        listed = ", ".join(
            f"{s.seat} {s.name}" + (f" (away: {why})" if (why := s.presence.away_why) else "")
            for s in sorted(seats.values(), key=lambda s: s.seat)
        )
        asked = "; ".join(asks.lines()) if asks is not None else ""
        plain = f"; {words}" if (words := controls.plain_words()) else ""
        odds = "; odds allowed" if controls.options.odds else ""
        out = (
            f"{state}; options {controls.options.to_dict()}{plain}{odds}; seats: {listed or 'none'}"
        )
        return f"{out}; {asked}" if asked else out
    return HELP
