"""What the client knows of its table: the server's last messages, checked and typed.

``Session.apply(msg)`` takes one decoded server message (a dict) and updates
the session; anything malformed raises ``BadMessage`` and changes nothing the
drawing code relies on.  Every value the scenes read has been type-checked
here, so nothing the server sends can make the drawing code crash.

The model is pure: no pygame, no sockets, no clock (``now`` is passed in).
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "BadMessage",
    "Legal",
    "LogLine",
    "Player",
    "SeatView",
    "Session",
    "Shown",
    "TableView",
    "action_label",
    "action_key",
    "describe_event",
    "parse_view",
]

CARD_RE = re.compile(r"^[2-9TJQKA][cdhs]$")
STREET_NAMES = {3: "Third street", 4: "Fourth street", 5: "Fifth street", 6: "Sixth street",
                7: "Seventh street"}  # fmt: skip
MAX_LOG = 300


class BadMessage(ValueError):
    """A server message that does not have the shape the protocol promises."""


# ------------------------------------------------------------------ checking helpers


def _int(value: Any, default: int | None = None, *, lo: int = -(10**9), hi: int = 10**9) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if default is None:
            raise BadMessage(f"expected an int, got {type(value).__name__}")
        return default
    return max(lo, min(hi, value))


def _opt_int(value: Any, *, lo: int = -(10**9), hi: int = 10**9) -> int | None:
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        return None
    return max(lo, min(hi, value))


def _seat(value: Any) -> int | None:
    s = _opt_int(value)
    return s if s is not None and 0 <= s <= 6 else None


def _str(value: Any, default: str = "", limit: int = 200) -> str:
    if not isinstance(value, str):
        return default
    return "".join(ch for ch in value[:limit] if ch.isprintable())


def _cards(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [c for c in value[:7] if isinstance(c, str) and CARD_RE.match(c)]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _seconds(value: Any) -> float | None:
    """A finite, non-negative number of seconds, else ``None``: ``int(inf)`` or ``int(nan)``
    in the drawing code would raise on every frame."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value < 10**6 else None


def _dict(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadMessage(f"expected a map, got {type(value).__name__}")
    return value


# ------------------------------------------------------------------ values


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
    for item in _list(value)[:8]:
        if not isinstance(item, dict) or item.get("action") not in ACTIONS:
            continue
        out.append(
            Legal(
                action=item["action"],
                put=_int(item.get("put"), 0, lo=0),
                to=_int(item.get("to"), 0, lo=0),
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
    v = _dict(value)
    seats: dict[int, SeatView] = {}
    for item in _list(v.get("seats"))[:7]:
        if not isinstance(item, dict):
            continue
        s = _seat(item.get("seat"))
        if s is None:
            continue
        shown = None
        if isinstance(item.get("shown"), dict):
            sh = item["shown"]
            shown = Shown(_cards(sh.get("cards")), _cards(sh.get("best")), _str(sh.get("hand")))
        hole = _cards(item["hole"]) if "hole" in item else None
        seats[s] = SeatView(
            seat=s,
            stack=_int(item.get("stack"), 0, lo=0),
            bet=_int(item.get("bet"), 0, lo=0),
            in_pot=_int(item.get("in_pot"), 0, lo=0),
            folded=item.get("folded") is True,
            all_in=item.get("all_in") is True,
            up=_cards(item.get("up"))[:4],
            down=_int(item.get("down"), 0, lo=0, hi=3),
            hole=hole[:3] if hole is not None else None,
            shown=shown,
            last_action=_str(item.get("last_action"), limit=20) or None,
        )
    pots = []
    for p in _list(v.get("pots"))[:8]:
        if isinstance(p, dict):
            pots.append(
                (
                    _int(p.get("amount"), 0, lo=0),
                    [s for s in _list(p.get("seats")) if _seat(s) is not None],
                )
            )
    awards = []
    for a in _list(v.get("awards"))[:16]:
        if isinstance(a, dict) and _seat(a.get("seat")) is not None:
            awards.append((a["seat"], _int(a.get("amount"), 0, lo=0), _int(a.get("pot"), 0, lo=0)))
    order = [s for s in _list(v.get("order")) if _seat(s) is not None and s in seats]
    order += [s for s in sorted(seats) if s not in order]
    return TableView(
        street=_int(v.get("street"), 0, lo=0, hi=7),
        button=_seat(v.get("button")),
        order=order,
        bring_in=_seat(v.get("bring_in")),
        to_act=_seat(v.get("to_act")),
        turn=_int(v.get("turn"), 0),
        high=_int(v.get("high"), 0, lo=0),
        pot=_int(v.get("pot"), 0, lo=0),
        pots=pots,
        over=v.get("over") is True,
        seats=seats,
        awards=awards,
        you=_seat(v.get("you")),
        legal=parse_legal(v.get("legal")),
    )


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    name: str
    kind: str = "human"  # "human" or "computer"
    connected: bool = True
    host: bool = False


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    kind: str = "action"  # action, street, chat, info, win


def _verb(action: str, put: int, to: int) -> str:
    return {
        "fold": "folds",
        "check": "checks",
        "call": f"calls {put}",
        "bet": f"bets {put}",
        "bring_in": f"brings in for {put}",
        "complete": f"completes to {to}",
        "raise": f"raises to {to}",
    }.get(action, action)


def describe_event(ev: Any, name_of: Any) -> LogLine | None:
    """One ``stud-hh/1`` event in plain words ("Ann completes to 10"); None to skip it."""
    if not isinstance(ev, dict):
        return None
    kind = ev.get("ev")
    seat = _seat(ev.get("seat"))
    who = name_of(seat) if seat is not None else "?"
    if kind == "act":
        text = (
            f"{who} {_verb(_str(ev.get('action')), _int(ev.get('put'), 0), _int(ev.get('to'), 0))}"
        )
        return LogLine(text + (" and is all in" if ev.get("all_in") is True else ""))
    if kind == "ante" and ev.get("all_in") is True:
        return LogLine(f"{who} antes {_int(ev.get('amount'), 0)} and is all in")
    if kind == "return":
        return LogLine(f"{_int(ev.get('amount'), 0)} uncalled goes back to {who}", "info")
    if kind == "show":
        return LogLine(f"{who} shows {_str(ev.get('hand'))}", "info")
    if kind == "award":
        pot = _int(ev.get("pot"), 0)
        where = "the pot" if pot == 0 else f"side pot {pot}"
        return LogLine(f"{who} wins {_int(ev.get('amount'), 0)} from {where}", "win")
    return None


# ------------------------------------------------------------------ the session


class Session:
    """Everything the server has told this connection, plus the log and chat."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self.seat: int | None = None
        self.token: str | None = None
        self.host = False
        self.watch = False
        self.hands = 8
        self.welcomed = False
        self.lobby: dict[str, Any] | None = None
        self.lobby_seats: list[Player] = []
        self.running = False
        self.match_id: str | None = None
        self.players: dict[int, Player] = {}
        self.start_stacks: dict[int, int] = {}
        self.view: TableView | None = None
        self.hand = 0
        self.turn: int | None = None
        self.legal: list[Legal] = []
        self.time_left: float | None = None
        self.turn_at = 0.0
        self.hand_end: dict[str, Any] | None = None
        self.standings: list[dict[str, Any]] | None = None
        self.hands_played = 0
        # Dropped seats only: the grace the server announced (None: unknown) and when.
        self.presence: dict[int, tuple[float | None, float]] = {}
        self.log: deque[LogLine] = deque(maxlen=MAX_LOG)
        self.recent: dict[int, tuple[str, float]] = {}
        self.error: tuple[str, str] | None = None
        self.bye: str | None = None
        self._street_logged = (0, 0)
        self._hand_logged = 0

    # ---- queries

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        p = self.players.get(seat)
        return p.name if p else f"Seat {seat + 1}"

    @property
    def phase(self) -> str:
        """connecting, lobby, playing or standings: which scene fits."""
        if self.standings is not None:
            return "standings"
        if self.running or self.view is not None:
            return "playing"
        if self.lobby is not None:
            return "lobby"
        return "lobby" if self.welcomed else "connecting"

    def my_turn(self) -> bool:
        v = self.view
        return bool(
            v is not None
            and self.seat is not None
            and v.to_act == self.seat
            and self.turn is not None
            and self.legal
        )

    def actions(self) -> list[Legal]:
        """The buttons to show: exactly what the server offered for our turn."""
        return list(self.legal) if self.my_turn() else []

    def seconds_left(self, now: float) -> float | None:
        if self.time_left is None or not self.my_turn():
            return None
        return max(0.0, self.time_left - (now - self.turn_at))

    def grace_left(self, seat: int, now: float) -> float | None:
        """Seconds until a dropped seat's person loses the turn; None while connected."""
        grace, at = self.presence.get(seat, (None, now))
        return None if grace is None else max(0.0, grace - (now - at))

    # ---- applying messages

    def apply(self, msg: Any, now: float = 0.0) -> str:
        """Take one server message; returns its type.  Raises ``BadMessage``."""
        msg = _dict(msg)
        kind = msg.get("type")
        if not isinstance(kind, str):
            raise BadMessage("message without a type")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise BadMessage(f"unknown message type {kind[:30]!r}")
        handler(msg, now)
        return kind

    def _on_welcome(self, msg: dict[str, Any], now: float) -> None:
        self.seat = _seat(msg.get("seat"))
        token = msg.get("token")
        if isinstance(token, str) and token:
            self.token = token[:128]
        self.name = _str(msg.get("name"), self.name, 20) or self.name
        self.host = msg.get("host") is True
        self.watch = msg.get("watch") is True
        self.hands = _int(msg.get("hands"), self.hands, lo=1, hi=99)
        self.welcomed = True
        self.error = None

    def _on_error(self, msg: dict[str, Any], now: float) -> None:
        self.error = (_str(msg.get("code"), "error", 40), _str(msg.get("message"), "", 200))
        self.log.append(LogLine(f"Server: {self.error[1] or self.error[0]}", "info"))

    def _players_from(self, items: Any) -> list[Player]:
        out = []
        for item in _list(items)[:7]:
            if not isinstance(item, dict) or _seat(item.get("seat")) is None:
                continue
            kind = item.get("kind")
            out.append(
                Player(
                    seat=item["seat"],
                    name=_str(item.get("name"), f"Seat {item['seat'] + 1}", 20),
                    kind="computer" if kind == "computer" else "human",
                    connected=item.get("connected") is not False,
                    host=item.get("host") is True,
                )
            )
        return out

    def _on_lobby(self, msg: dict[str, Any], now: float) -> None:
        self.lobby = {
            "host": _seat(msg.get("host")),
            "hands": _int(msg.get("hands"), 8, lo=1, hi=99),
            "can_start": msg.get("can_start") is True,
            "start_when": _opt_int(msg.get("start_when")),
            "running": msg.get("running") is True,
        }
        self.lobby_seats = self._players_from(msg.get("seats"))
        self.running = self.lobby["running"]
        if not self.running and self.view is not None and self.standings is None:
            self.view = None  # a match ended without standings (e.g. cancelled)

    def _on_match_start(self, msg: dict[str, Any], now: float) -> None:
        self.match_id = _str(msg.get("match"), "", 80)
        self.hands = _int(msg.get("hands"), self.hands, lo=1, hi=99)
        players = self._players_from(msg.get("seats"))
        self.players = {p.seat: p for p in players}
        stack = _int(msg.get("stack"), 600, lo=0)
        self.start_stacks = {p.seat: stack for p in players}
        self.running = True
        self.standings = None
        self.hand_end = None
        self.view = None
        self.hand = 0
        self.turn = None
        self.legal = []
        self.recent.clear()
        self._hand_logged = 0
        self.log.append(LogLine(f"A match of {self.hands} hands begins", "street"))

    def _on_table(self, msg: dict[str, Any], now: float) -> None:
        view = parse_view(msg.get("view"))
        hand = _int(msg.get("hand"), self.hand)
        self.hands = _int(msg.get("hands"), self.hands, lo=1, hi=99)
        players = self._players_from(msg.get("players"))
        if players:
            self.players = {p.seat: p for p in players}
            for p in players:
                if p.connected:
                    self.presence.pop(p.seat, None)
                elif not p.connected and p.seat not in self.presence:
                    self.presence[p.seat] = (None, now)
        if hand != self.hand:
            self.hand_end = None
            self.recent.clear()
        self._log_hand(hand)
        self.hand = hand
        self.running = True
        self.view = view
        if self.standings is not None and not view.over:
            self.standings = None
        if view.you is not None:
            self.seat = view.you
        # Only a ``turn`` message (sent after this table) names the turn id to answer.
        if view.to_act is None or view.to_act != self.seat or view.over:
            self.turn, self.legal, self.time_left = None, [], None

    def _on_turn(self, msg: dict[str, Any], now: float) -> None:
        seat = _seat(msg.get("seat"))
        if seat is None or seat != self.seat:
            return
        self.turn = _int(msg.get("turn"))
        self.legal = parse_legal(msg.get("legal"))
        self.time_left = _seconds(msg.get("time_left"))
        self.turn_at = now

    def _log_hand(self, hand: int) -> None:
        if hand != self._hand_logged and hand > 0:
            self._hand_logged = hand
            self.log.append(LogLine(f"Hand {hand} of {self.hands}", "street"))

    def _on_events(self, msg: dict[str, Any], now: float) -> None:
        hand = _int(msg.get("hand"), self.hand)
        self._log_hand(hand)
        for ev in _list(msg.get("events"))[:200]:
            if not isinstance(ev, dict):
                continue
            street = _opt_int(ev.get("street"))
            if (
                ev.get("ev") == "deal"
                and street is not None
                and (hand, street) != self._street_logged
            ):
                self._street_logged = (hand, street)
                if street in STREET_NAMES:
                    self.log.append(LogLine(STREET_NAMES[street], "street"))
            line = describe_event(ev, self.name_of)
            if line is not None:
                self.log.append(line)
            seat = _seat(ev.get("seat"))
            if ev.get("ev") == "act" and seat is not None:
                words = _verb(_str(ev.get("action")), _int(ev.get("put"), 0), _int(ev.get("to"), 0))
                self.recent[seat] = (words, now)
            if ev.get("ev") == "act" and seat == self.seat:
                self.turn, self.legal = None, []

    def _on_hand_end(self, msg: dict[str, Any], now: float) -> None:
        awards = []
        for a in _list(msg.get("awards"))[:16]:
            if isinstance(a, dict) and _seat(a.get("seat")) is not None:
                awards.append({"seat": a["seat"], "amount": _int(a.get("amount"), 0, lo=0),
                               "pot": _int(a.get("pot"), 0, lo=0)})  # fmt: skip
        self.hand_end = {"hand": _int(msg.get("hand"), self.hand), "awards": awards}
        self.turn, self.legal = None, []

    def _on_standings(self, msg: dict[str, Any], now: float) -> None:
        rows = []
        for r in _list(msg.get("standings"))[:7]:
            if not isinstance(r, dict) or _seat(r.get("seat")) is None:
                continue
            rows.append(
                {
                    "place": _int(r.get("place"), len(rows) + 1, lo=1, hi=7),
                    "seat": r["seat"],
                    "name": _str(r.get("name"), self.name_of(r["seat"]), 20),
                    "stack": _int(r.get("stack"), 0, lo=0),
                    "net": _int(r.get("net"), 0),
                    "winner": r.get("winner") is True,
                }
            )
        self.standings = rows
        self.hands_played = _int(msg.get("hands_played"), self.hand, lo=0)
        self.running = False
        self.turn, self.legal = None, []
        winners = [r["name"] for r in rows if r["winner"]]
        if winners:
            self.log.append(LogLine(f"{' and '.join(winners)} won the match", "win"))

    def _on_presence(self, msg: dict[str, Any], now: float) -> None:
        seat = _seat(msg.get("seat"))
        if seat is None:
            raise BadMessage("presence without a seat")
        connected = msg.get("connected") is not False
        grace = _seconds(msg.get("grace"))
        if connected:
            self.presence.pop(seat, None)
        else:
            self.presence[seat] = (grace, now)
        word = "is back" if connected else "dropped"
        self.log.append(LogLine(f"{self.name_of(seat)} {word}", "info"))

    def _on_chat(self, msg: dict[str, Any], now: float) -> None:
        name = _str(msg.get("name"), "?", 20)
        text = _str(msg.get("text"), "", 200)
        if text:
            self.log.append(LogLine(f"{name}: {text}", "chat"))

    def _on_pong(self, msg: dict[str, Any], now: float) -> None:
        pass

    def _on_bye(self, msg: dict[str, Any], now: float) -> None:
        self.bye = _str(msg.get("reason"), "the server closed", 200) or "the server closed"

    def reset_for_reconnect(self) -> None:
        """Forget the handshake but keep token, name, view and log for the way back."""
        self.welcomed = False
