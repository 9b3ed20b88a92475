"""Why a join did not reach its table, in the game's own words (shown by the Join box):
what it means at a friends' table and what to check, the system's words going to the log.
Someone in the middle is mentioned only when the password proof (``common.proof``) shows
a relay, or cannot tell it from a wrong password.
"""

from __future__ import annotations

import errno
import socket

from client.address import joinable
from client.errorwords import error_words
from client.i18n import N_
from client.i18n import gettext as _

__all__ = ["NO_PROOF", "NO_PROOF_WELCOME", "RELAYED", "WRONG_PASSWORD", "not_a_table",
           "refusal_words", "unreachable"]  # fmt: skip

# The table proved another password than the one typed (or refused ours): a typo.
WRONG_PASSWORD = N_("Wrong password: check it with the host.")
# The table knows the password typed, but proved it over another link.
RELAYED = N_(
    "Not joined: someone in the middle relays the link to this table (the password is right)."
)
# A table that sends no ``pw_mac`` (older) cannot be told apart from a relay.
NO_PROOF = N_("Wrong password, or someone in the middle: the table could not prove it knows it.")
NO_PROOF_WELCOME = N_(
    "Not joined: the table let us in without proving it knows the password"
    " (someone may be in the middle)."
)

_UNREACHABLE = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN, errno.EHOSTDOWN}


def unreachable(host: str, port: int, exc: OSError) -> str:
    """Why ``host``:``port`` could not be reached (``exc`` from ``create_connection``)."""
    at = joinable(host, port)
    if isinstance(exc, socket.gaierror):  # no such name, or no name server to ask
        words = _("No computer called {host} on this network: check the address the host's game"
                  " shows.")  # fmt: skip
        return words.format(host=host)
    if isinstance(exc, ConnectionRefusedError):
        return _("No table answers at {address} — is the host's game open?").format(address=at)
    if isinstance(exc, TimeoutError):
        words = _("No answer from {address}: is the host's computer on, and on your network?")
        return words.format(address=at)
    if exc.errno in _UNREACHABLE:
        return _("{host} cannot be reached from here: are you on the host's network?").format(
            host=host
        )
    why = exc.strerror or str(exc) or type(exc).__name__
    return _("Could not reach {address} ({error}).").format(address=at, error=why)


def not_a_table(host: str, port: int, exc: BaseException) -> str:
    """Why the connection to ``host``:``port`` could not be sealed (``exc`` from the TLS
    handshake): something answered, but not as a table does."""
    at = joinable(host, port)
    if isinstance(exc, TimeoutError):
        words = _("No answer from {address} in time: is it the host's game, on the right port?")
        return words.format(address=at)
    words = _("Something answers at {address}, but not as a Seventh Street table: check the port.")
    return words.format(address=at)


def refusal_words(code: str, message: str) -> str:
    """A table's refusal of our ``hello`` as the player reads it."""
    return error_words(code, message)  # the game's words for each code (client.errorwords)
