"""Checking one value of a server message: ``common.reading``'s helpers, by their old names.

The checks live in ``common.reading`` now, beside the typed schema that uses them
(``common.schema``); this module keeps the names the client's modules import.
``BadMessage`` is ``common.events.ProtocolError``: what ``common.schema`` raises for a
value it cannot read is what ``Session.apply`` raises for a message.
"""

from __future__ import annotations

from common.events import ProtocolError as BadMessage
from common.reading import (
    CARD_RE,
    as_cards,
    as_dict,
    as_int,
    as_list,
    as_seat,
    as_seconds,
    as_str,
    opt_int,
)

__all__ = [
    "CARD_RE",
    "BadMessage",
    "as_cards",
    "as_dict",
    "as_int",
    "as_list",
    "as_seat",
    "as_seconds",
    "as_str",
    "opt_int",
]
