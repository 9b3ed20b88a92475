"""The server's ``error`` codes in the player's language (``docs/protocol.md``, Error
codes): the game words each code it knows itself; the server's English ``message`` is
only the fallback for a code this game does not know (a newer server's)."""

from __future__ import annotations

import re

from client.i18n import N_
from client.i18n import gettext as _
from common.version import __version__

__all__ = ["ERRORS", "error_words", "version_words"]

# Translators: the table's refusals and complaints, as the player reads them.
ERRORS = {
    "bad_frame": N_("The game and the table could not understand each other."),
    "frame_too_large": N_("The game sent the table more than it takes at once."),
    "bad_message": N_("The table could not read what the game sent."),
    "unknown_type": N_("The table does not know that request: it may be an older version."),
    "no_hello": N_("The game spoke before saying hello to the table."),
    "handshake_timeout": N_("The table did not hear from the game in time."),
    "already_hello": N_("The game said hello twice."),
    "bad_name": N_("That name cannot be used: type a name with letters."),
    "protocol_version": N_("This table runs another version of the game."),
    "bad_password": N_("Wrong password: check it with the host."),
    "password_wait": N_("Too many wrong passwords lately: wait a little and try again."),
    "name_taken": N_("Someone at this table already has that name."),
    "bad_token": N_("The table does not know this seat any more."),
    "table_full": N_("The table is full: all seven seats are taken."),
    "match_running": N_("Not while a match is being played."),
    "already_seated": N_("You already have a seat."),
    "server_busy": N_("The table is busy: try again in a moment."),
    "taken_over": N_("Your seat was taken up from another window or computer."),
    "not_seated": N_("Only a seated player can do that."),
    "not_your_turn": N_("It is not your turn."),
    "table_waits": N_("The table waits for the host's disk: no actions for now."),
    "stale_turn": N_("Too late: that turn is over."),
    "illegal_action": N_("That action is not allowed now."),
    "not_host": N_("Only the host can do that."),
    "not_enough_seats": N_("A match needs at least two players."),
    "chat_rate": N_("Too many chat lines too fast: wait a moment."),
    "no_match": N_("There is no match being played."),
    "already_away": N_("Your seat is already away."),
    "not_away": N_("Your seat is not away."),
    "seat_taken": N_("The host took this seat away for the match."),
    "already_paused": N_("The game is already paused."),
    "not_paused": N_("The game is not paused."),
    "bad_seat": N_("That seat cannot be chosen for this."),
    "seat_connected": N_("That seat's player is connected."),
    "wrong_name": N_("Only the player of that seat, by its name, can ask for it back."),
    "already_asked": N_("That seat has already been asked for."),
    "no_ask": N_("Nobody is asking for that seat any more."),
    "too_long": N_("That chat line is too long."),
    "flood": N_("The game sent too much too fast and was disconnected."),
    "tls_required": N_("This table takes sealed connections only."),
    "server_error": N_("The table failed on that request (the host's log says why)."),
}


_WAIT = re.compile(r"try again in (\d+) s")
_CLASH = re.compile(r"(.{1,40}?) is already at the table")
_RUNS = re.compile(r"The table runs (?:Seventh Street ([^;\s]{1,20})|another version)")


def version_words(table: str, *, game_newer: bool) -> str:
    """Why this game cannot play at a table of version ``table`` ("": unknown), in the
    player's language (``common.protocol.version_refusal`` says it in English)."""
    if not table:
        if game_newer:
            words = _("The table runs an older Seventh Street; this game is {game}: ask the "
                      "host to update the table's game to play there")  # fmt: skip
        else:
            words = _("The table runs a newer Seventh Street; this game is {game}: update "
                      "your game to play there")  # fmt: skip
    elif game_newer:
        words = _("The table runs Seventh Street {table}; this game is {game}: ask the host "
                  "to update the table's game to play there")  # fmt: skip
    else:
        words = _("The table runs Seventh Street {table}; this game is {game}: update your "
                  "game to play there")  # fmt: skip
    return words.format(table=table, game=__version__)


def error_words(code: str, message: str = "") -> str:
    """What an ``error`` means, in the player's language: a known ``code``'s sentence,
    else the server's own ``message`` (else the code).  A ``password_wait`` keeps the
    wait its message names, a ``name_taken`` the name (the wire has no field for them)."""
    wait = _WAIT.search(message) if code == "password_wait" else None
    if wait is not None:
        if "guessing" in message:
            words = _("Someone is guessing the password: the table checks only a few a "
                      "minute; try again in {seconds} s")  # fmt: skip
        else:
            words = _("Too many wrong passwords from your address: try again in {seconds} s")
        return words.format(seconds=wait.group(1))
    runs = _RUNS.match(message) if code == "protocol_version" else None
    if runs is not None:  # the table's version, and who updates, as the table said them
        return version_words(runs.group(1) or "", game_newer="ask the host" in message)
    clash = _CLASH.match(message) if code == "name_taken" else None
    if clash is not None:  # the seat's name as the table knows it (the data's own words)
        if "watch" in message:
            words = _("{name} is already at the table: watch under another name")
        else:
            words = _("{name} is already at the table: choose another name")
        return words.format(name=clash.group(1))
    known = ERRORS.get(code)
    if known is not None:
        return _(known)
    return message.strip() or code
