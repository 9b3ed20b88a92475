"""Why a join did not reach its table, in the game's own words (shown by the Join box):
what it means at a friends' table and what to check, the system's words going to the log.
Someone in the middle is mentioned only when the password proof (``common.proof``) shows
a relay, or cannot tell it from a wrong password.
"""

from __future__ import annotations

import errno
import socket

from client.address import joinable

__all__ = ["NO_PROOF", "NO_PROOF_WELCOME", "RELAYED", "WRONG_PASSWORD", "not_a_table",
           "refusal_words", "unreachable"]  # fmt: skip

# The table proved another password than the one typed (or refused ours): a typo.
WRONG_PASSWORD = "Wrong password: check it with the host."
# The table knows the password typed, but proved it over another link.
RELAYED = "Not joined: someone in the middle relays the link to this table (the password is right)."
# A table that sends no ``pw_mac`` (older) cannot be told apart from a relay.
NO_PROOF = "Wrong password, or someone in the middle: the table could not prove it knows it."
NO_PROOF_WELCOME = (
    "Not joined: the table let us in without proving it knows the password"
    " (someone may be in the middle)."
)

_UNREACHABLE = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN, errno.EHOSTDOWN}


def unreachable(host: str, port: int, exc: OSError) -> str:
    """Why ``host``:``port`` could not be reached (``exc`` from ``create_connection``)."""
    at = joinable(host, port)
    if isinstance(exc, socket.gaierror):  # no such name, or no name server to ask
        return (
            f"No computer called {host} on this network: check the address the host's game shows."
        )
    if isinstance(exc, ConnectionRefusedError):
        return f"No table answers at {at} — is the host's game open?"
    if isinstance(exc, TimeoutError):
        return f"No answer from {at}: is the host's computer on, and on your network?"
    if exc.errno in _UNREACHABLE:
        return f"{host} cannot be reached from here: are you on the host's network?"
    why = exc.strerror or str(exc) or type(exc).__name__
    return f"Could not reach {at} ({why})."


def not_a_table(host: str, port: int, exc: BaseException) -> str:
    """Why the connection to ``host``:``port`` could not be sealed (``exc`` from the TLS
    handshake): something answered, but not as a table does."""
    at = joinable(host, port)
    if isinstance(exc, TimeoutError):
        return f"No answer from {at} in time: is it the host's game, on the right port?"
    return f"Something answers at {at}, but not as a Seventh Street table: check the port."


def refusal_words(code: str, message: str) -> str:
    """A table's refusal of our ``hello`` as the player reads it."""
    return WRONG_PASSWORD if code == "bad_password" else message
