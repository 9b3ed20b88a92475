"""The table as one seat sees it: ``parse_view`` types a ``table`` message's ``view``.

``parse_view`` is the only way a ``TableView`` is made from the wire.  Invariants:

- Every field has been through ``client.checks``: seats are 0 to 6, card codes
  are well formed, numbers are clamped, lists are capped (seven seats, eight pots,
  eight actions), so the drawing code never sees a value it cannot draw.
- ``legal`` holds only the actions ``ACTIONS`` names, exactly as the server
  offered them (R-B1); the client never works out an action of its own.
- ``order`` lists every seat in ``seats`` once, the server's order first.
- Other seats' down cards are a count (``down``); only our own are ``hole``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from client.checks import as_cards, as_dict, as_int, as_list, as_seat, as_str

__all__ = [
    "Legal",
    "SeatView",
    "Shown",
    "TableView",
    "action_key",
    "action_label",
    "parse_legal",
    "parse_view",
]


@dataclass(frozen=True, slots=True)
class Legal:
    """One action the server offered (R-B1)."""

    action: str
    put: int
    to: int
    all_in: bool = False

    @property
    def label(self) -> str:
        return action_label(self)

    @property
    def key(self) -> str:
        return action_key(self.action)


ACTIONS = ("bring_in", "complete", "bet", "raise", "call", "check", "fold")


def action_label(a: Legal) -> str:
    """Button words naming the amount: ``"Complete to 10"``, ``"Call 7 (all in)"``."""
    text = {
        "fold": "Fold",
        "check": "Check",
        "call": f"Call {a.put}",
        "bet": f"Bet {a.put}",
        "bring_in": f"Bring in {a.put}",
        "complete": f"Complete to {a.to}",
        "raise": f"Raise to {a.to}",
    }.get(a.action, a.action)
    return text + " (all in)" if a.all_in else text


def action_key(action: str) -> str:
    """Keyboard shortcut: F fold, C check/call, B bring in/bet, R complete/raise."""
    return {"fold": "F", "check": "C", "call": "C", "bring_in": "B", "bet": "B",
            "complete": "R", "raise": "R"}.get(action, "")  # fmt: skip


def parse_legal(value: Any) -> list[Legal]:
    out: list[Legal] = []
    for item in as_list(value)[:8]:
        if not isinstance(item, dict) or item.get("action") not in ACTIONS:
            continue
        out.append(
            Legal(
                action=item["action"],
                put=as_int(item.get("put"), 0, lo=0),
                to=as_int(item.get("to"), 0, lo=0),
                all_in=item.get("all_in") is True,
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class Shown:
    cards: list[str]
    best: list[str]
    hand: str


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    stack: int = 0
    bet: int = 0
    in_pot: int = 0
    folded: bool = False
    all_in: bool = False
    up: list[str] = field(default_factory=list)
    down: int = 0
    hole: list[str] | None = None
    shown: Shown | None = None
    last_action: str | None = None

    def cards(self) -> list[tuple[str | None, bool]]:
        """The seat's cards in deal order (R-D3) as (code or None for a back, is a hole card).

        Other seats' hole cards are only a count; ours are known and marked.
        """
        if self.shown is not None and self.shown.cards:
            hole = set(self.shown.cards) - set(self.up)
            return [(c, c in hole) for c in self.shown.cards]
        if self.hole is not None:
            hole: list[str | None] = list(self.hole)
        else:
            hole = [None] * max(0, min(3, self.down))
        first, last = hole[:2], hole[2:]
        out: list[tuple[str | None, bool]] = [(c, True) for c in first]
        out += [(c, False) for c in self.up]
        out += [(c, True) for c in last]
        return out


@dataclass(frozen=True, slots=True)
class TableView:
    street: int
    button: int | None
    order: list[int]
    bring_in: int | None
    to_act: int | None
    turn: int
    high: int
    pot: int
    pots: list[tuple[int, list[int]]]
    over: bool
    seats: dict[int, SeatView]
    awards: list[tuple[int, int, int]]
    you: int | None
    legal: list[Legal]


def parse_view(value: Any) -> TableView:
    """Check a ``table`` message's ``view`` (``common/views.py``) and type it."""
    v = as_dict(value)
    seats: dict[int, SeatView] = {}
    for item in as_list(v.get("seats"))[:7]:
        if not isinstance(item, dict):
            continue
        s = as_seat(item.get("seat"))
        if s is None:
            continue
        shown = None
        if isinstance(item.get("shown"), dict):
            sh = item["shown"]
            shown = Shown(
                as_cards(sh.get("cards")), as_cards(sh.get("best")), as_str(sh.get("hand"))
            )
        hole = as_cards(item["hole"]) if "hole" in item else None
        seats[s] = SeatView(
            seat=s,
            stack=as_int(item.get("stack"), 0, lo=0),
            bet=as_int(item.get("bet"), 0, lo=0),
            in_pot=as_int(item.get("in_pot"), 0, lo=0),
            folded=item.get("folded") is True,
            all_in=item.get("all_in") is True,
            up=as_cards(item.get("up"))[:4],
            down=as_int(item.get("down"), 0, lo=0, hi=3),
            hole=hole[:3] if hole is not None else None,
            shown=shown,
            last_action=as_str(item.get("last_action"), limit=20) or None,
        )
    pots = []
    for p in as_list(v.get("pots"))[:8]:
        if isinstance(p, dict):
            pots.append(
                (
                    as_int(p.get("amount"), 0, lo=0),
                    [s for s in as_list(p.get("seats")) if as_seat(s) is not None],
                )
            )
    awards = []
    for a in as_list(v.get("awards"))[:16]:
        if isinstance(a, dict) and as_seat(a.get("seat")) is not None:
            awards.append(
                (a["seat"], as_int(a.get("amount"), 0, lo=0), as_int(a.get("pot"), 0, lo=0))
            )
    order = [s for s in as_list(v.get("order")) if as_seat(s) is not None and s in seats]
    order += [s for s in sorted(seats) if s not in order]
    return TableView(
        street=as_int(v.get("street"), 0, lo=0, hi=7),
        button=as_seat(v.get("button")),
        order=order,
        bring_in=as_seat(v.get("bring_in")),
        to_act=as_seat(v.get("to_act")),
        turn=as_int(v.get("turn"), 0),
        high=as_int(v.get("high"), 0, lo=0),
        pot=as_int(v.get("pot"), 0, lo=0),
        pots=pots,
        over=v.get("over") is True,
        seats=seats,
        awards=awards,
        you=as_seat(v.get("you")),
        legal=parse_legal(v.get("legal")),
    )
