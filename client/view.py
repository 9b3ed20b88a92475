"""The table as one seat sees it: ``common.schema``'s types, by the client's old names.

``parse_view`` (``SeatView.decode``) is the only way a ``TableView`` is made from the
wire.  Invariants (``common.schema`` holds them):

- Every field has been checked: seats are 0 to 6, card codes are well formed,
  numbers are clamped, lists are capped (seven seats, eight pots, eight actions),
  so the drawing code never sees a value it cannot draw.
- ``legal`` holds only the actions ``ACTIONS`` names, exactly as the server
  offered them (R-B1); the client never works out an action of its own.
- ``order`` lists every seat in ``seats`` once, the server's order first.
- Other seats' down cards are a count (``down``); only our own are ``hole``.

The names here are older than the schema: a ``TableView`` is ``common.schema.SeatView``
(the whole table as our seat sees it), a ``SeatView`` is ``common.schema.TableSeat``
(one seat of it) and a ``Legal`` is ``common.schema.LegalAction``.
"""

from __future__ import annotations

from typing import Any

from common.events import ActionKind
from common.schema import LegalAction as Legal
from common.schema import SeatView as TableView
from common.schema import Shown, action_key, action_label
from common.schema import TableSeat as SeatView
from common.schema import decode_legal as parse_legal

__all__ = [
    "ACTIONS",
    "Legal",
    "SeatView",
    "Shown",
    "TableView",
    "action_key",
    "action_label",
    "parse_legal",
    "parse_view",
]

ACTIONS = tuple(kind.value for kind in ActionKind)


def parse_view(value: Any) -> TableView:
    """Check a ``table`` message's ``view`` (``common/views.py``) and type it."""
    return TableView.decode(value)
