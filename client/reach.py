"""Why a join did not reach its table, in the game's own words (shown by the Join box).

A system's words ("Temporary failure in name resolution", "Connection refused") tell a
player nothing to do; these say what it means at a friends' table and what to check.
The system's own reason goes to the log (``client.net``).  A wrong password is told
apart from someone in the middle by the table's password proof (``common.proof``):
the middle is mentioned only when the proof shows a relay, or cannot tell.
"""

from __future__ import annotations

import errno
import socket

__all__ = [
    "NO_PROOF",
    "NO_PROOF_WELCOME",
    "RELAYED",
    "WRONG_PASSWORD",
    "not_a_table",
    "refusal_words",
    "unreachable",
    "where",
]

WRONG_PASSWORD = "Wrong password: check it with the host."
"""The table proved another password than the one typed (or refused ours): a typo."""
RELAYED = "Not joined: someone in the middle relays the link to this table (the password is right)."
"""The table knows the password typed, but proved it over another link: a relay."""
NO_PROOF = "Wrong password, or someone in the middle: the table could not prove it knows it."
"""A table that sends no ``pw_mac`` (older) cannot be told apart from a relay."""
NO_PROOF_WELCOME = (
    "Not joined: the table let us in without proving it knows the password"
    " (someone may be in the middle)."
)
"""A welcome to a proof's hello before the table proved the password."""

_UNREACHABLE = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN, errno.EHOSTDOWN}


def where(host: str, port: int) -> str:
    """``192.168.1.20:7777``, an IPv6 address in brackets: ``[fd00::2]:7777``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def unreachable(host: str, port: int, exc: OSError) -> str:
    """Why ``host``:``port`` could not be reached (``exc`` from ``create_connection``)."""
    at = where(host, port)
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
    at = where(host, port)
    if isinstance(exc, TimeoutError):
        return f"No answer from {at} in time: is it the host's game, on the right port?"
    return f"Something answers at {at}, but not as a Seventh Street table: check the port."


def refusal_words(code: str, message: str) -> str:
    """What a table's refusal of our ``hello`` says to the player (its ``error`` code and
    message): a wrong password in the game's words, the rest as the table said it."""
    if code == "bad_password":
        return WRONG_PASSWORD
    return message
