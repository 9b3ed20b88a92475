"""What the client knows of its table: the server's last messages, checked and typed.

``Session.apply(msg)`` takes one decoded server message (a dict) and updates
the session; anything malformed raises ``ProtocolError`` and changes nothing the
drawing code relies on.  Every value the scenes read has been type-checked
(the table view and the seats by ``common.schema``'s ``decode``, the rest by
``common.reading``), so nothing the server sends can make the drawing code crash.
The log's words come from ``client.wording``.

The model is pure: no pygame, no sockets, no clock (``now`` is passed in).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Any

from client.handbook import HandBook
from client.night import Night, parse_night
from client.wording import (
    STREET_NAMES,
    LogLine,
    act_line,
    act_words,
    award_lines,
    describe_event,
)
from common.events import ProtocolError
from common.presence import Presence, from_wire
from common.reading import as_dict, as_int, as_list, as_seat, as_seconds, as_str, opt_int
from common.schema import LegalAction, LobbySeat, SeatView, decode_legal, decode_lobby_seats

__all__ = ["Player", "Session"]

MAX_LOG = 300


@dataclass(frozen=True, slots=True)
class Player:
    """A filled seat as the client knows it (a ``common.schema.LobbySeat`` read)."""

    seat: int
    name: str
    kind: str = "human"  # "human" or "computer"
    host: bool = False
    level: str = ""  # a computer seat's level id ("" when the server does not say)
    level_name: str = ""
    presence: Presence = Presence.PLAYING
    """Where its person is (``common.presence``), read from the seat's wire fields."""
    stand_in: bool = False
    """A computer plays the seat while it is away: the table's stand-in option (R-C3)
    applied to an away presence, as the server says it."""
    sealed: bool | None = None
    """Its person's connection is sealed (TLS), as the server says it (``"sealed": true``;
    absent: plain, or not connected); None where nobody said (a replayed hand)."""

    @classmethod
    def of(cls, seat: LobbySeat, *, sealed: bool | None = None) -> Player:
        computer = seat.kind == "computer"
        return cls(
            sealed=sealed,
            seat=seat.seat,
            name=seat.name,
            kind=seat.kind,
            host=seat.host,
            level=(seat.level or "") if computer else "",
            level_name=(seat.level_name or "") if computer else "",
            presence=seat.presence,
            stand_in=seat.stand_in,
        )

    @property
    def away(self) -> bool:
        """Its turns are played for it (R-C2, R-C3)."""
        return self.presence.away

    @property
    def away_why(self) -> str | None:
        """``asked``, ``clock``, ``dropped`` or ``taken`` while away, else None."""
        return self.presence.away_why

    @property
    def next(self) -> bool:
        """Seated during a match: plays from the next one."""
        return self.presence is Presence.NEXT_MATCH

    @property
    def connected(self) -> bool:
        """Not known to be cut off: neither dropped nor away after a drop (an away seat's
        link is not in its presence; ``Session.presence`` has every seat said dropped)."""
        return self.presence is not Presence.DROPPED and self.presence is not Presence.AWAY_DROPPED


def sealed_seats(items: Any) -> set[int]:
    """The seats of a ``seats``/``players`` list whose connection is sealed (``"sealed":
    true``, issue 18; absent on a plain, computer or unconnected seat)."""
    return {
        item["seat"]
        for item in as_list(items)[:7]
        if isinstance(item, dict)
        and item.get("sealed") is True
        and as_seat(item.get("seat")) is not None
    }


WAITING_WORDS = {
    "disk_full": "The host's disk is full: the table waits until it can save",
    "cannot_save": "The host cannot save the match: the table waits until it can",
}
"""Why the table waits (the ``waiting`` message's ``why``), in the game's words."""

AWAY_WORDS = {
    "asked": "stepped away",
    "clock": "ran out of time and is away",
    "dropped": "is away (connection lost)",
    "taken": "had the seat taken away by the host",
}


@dataclass(frozen=True, slots=True)
class SeatClock:
    """A person's turn clock as the server last said it (R-C4)."""

    seat: int
    turn: int
    time_left: float
    bank: float
    running: bool
    at: float  # when it was said (the session's clock)


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
        self.welcomed_once = False
        self.lobby: dict[str, Any] | None = None
        self.lobby_seats: list[Player] = []
        self.running = False
        self.match_id: str | None = None
        self.players: dict[int, Player] = {}
        self.start_stacks: dict[int, int] = {}
        self.view: SeatView | None = None
        self.hand = 0
        self.turn: int | None = None
        self.legal: list[LegalAction] = []
        self.time_left: float | None = None
        self.turn_at = 0.0
        self.hand_end: dict[str, Any] | None = None
        self.standings: list[dict[str, Any]] | None = None
        self.hands_played = 0
        # Dropped seats only: the grace the server announced (None: unknown) and when.
        self.presence: dict[int, tuple[float | None, float]] = {}
        self.clock: SeatClock | None = None  # the seat to act's turn clock, if it has one
        self.bank: float | None = None  # our own bank, as our last ``turn`` said
        self.paused = False
        self.paused_by = ""
        self.waiting: str | None = None
        """Why the table waits for the host's disk (``server.saving``), while it does."""
        self.options: dict[str, Any] = {}  # the table's clock and stand-in (lobby)
        self.log: deque[LogLine] = deque(maxlen=MAX_LOG)
        self.recent: dict[int, tuple[str, float]] = {}
        self.error: tuple[str, str] | None = None
        self.bye: str | None = None
        self.table_name = ""
        self.night: Night | None = None  # the night's scoreboard (client.night)
        self._street_logged = (0, 0)
        self._hand_logged = 0
        # (hand, how many of its events were applied): a comeback's replay of the hand
        # so far skips what the log already holds.
        self._seen = (0, 0)
        self._rejoining = False
        self._shown_hands: dict[int, str] = {}  # this hand's shows, for the winner lines
        # This hand's events as received (a comeback's replay gives them whole): the
        # coach reads them (client.coach), with the view.
        self.hand_events: list[dict[str, Any]] = []
        self.book = HandBook()  # this match's hands for the replayer and the recap
        self.open_books = False  # the host opens the books after the match (lobby)
        self.plain_refused = False  # the table takes only sealed connections (lobby "plain")
        self.plain_open = False  # plain ones let into a table with a password ("allow")
        self.odds_allowed = False  # the host allows odds on request (lobby "odds")
        self.books_to_watchers = False
        # A seat asked back by name (docs/protocol.md): the host's open asks (seat ->
        # name); a refused join's lost seat, which may be asked for; the seat to ask for
        # once welcomed as a watcher; and our own ask's (seat, answer, words).
        self.asks: dict[int, str] = {}
        self.lost_seat: int | None = None
        self.asking: int | None = None
        self.ask: tuple[int, str, str] | None = None
        self._lobby_host: int | None = None
        self._lobby_seen = False  # a lobby came: a change of host after it is news
        self.host_from: int | None = None  # the seat the host's role came to us from

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

    def sits_out(self) -> bool:
        """Seated for the next match while this one is played without us."""
        v = self.view
        return bool(
            self.seat is not None and v is not None and v.seats and self.seat not in v.seats
        )

    def my_turn(self) -> bool:
        v = self.view
        return bool(
            v is not None
            and self.seat is not None
            and v.to_act == self.seat
            and self.turn is not None
            and self.legal
        )

    def actions(self) -> list[LegalAction]:
        """The buttons to show: exactly what the server offered for our turn."""
        return list(self.legal) if self.my_turn() else []

    def seconds_left(self, now: float) -> float | None:
        if self.time_left is None or not self.my_turn():
            return None
        return max(0.0, self.time_left - (now - self.turn_at))

    def clock_left(self, seat: int, now: float) -> tuple[float, float] | None:
        """(decision seconds, bank seconds) left to ``seat``, the seat to act, or None.

        The decision's seconds go first, then the bank (R-C4); both stand still
        while the table is paused (R-C3)."""
        c = self.clock
        v = self.view
        if (
            c is None
            or c.seat != seat
            or v is None
            or v.to_act != seat
            or v.over
            or c.turn != (v.turn_id or 0)
        ):
            return None
        spent = (now - c.at) if c.running and not self.paused else 0.0
        decision = c.time_left - spent
        bank = c.bank + min(0.0, decision)
        return max(0.0, decision), max(0.0, bank)

    def me(self) -> Player | None:
        return self.players.get(self.seat) if self.seat is not None else None

    def away(self) -> bool:
        """Our seat is away (R-C2): the server plays its turns until we are back."""
        me = self.me()
        return bool(me and me.away)

    def grace_left(self, seat: int, now: float) -> float | None:
        """Seconds until a dropped seat's person loses the turn; None while connected."""
        grace, at = self.presence.get(seat, (None, now))
        return None if grace is None else max(0.0, grace - (now - at))

    # ---- applying messages

    def apply(self, msg: Any, now: float = 0.0) -> str:
        """Take one server message; returns its type.  Raises ``ProtocolError``."""
        msg = as_dict(msg)
        kind = msg.get("type")
        if not isinstance(kind, str):
            raise ProtocolError("message without a type")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise ProtocolError(f"unknown message type {kind[:30]!r}")
        handler(msg, now)
        self.book.take(kind, msg)
        return kind

    def _on_welcome(self, msg: dict[str, Any], now: float) -> None:
        self.seat = as_seat(msg.get("seat"))
        token = msg.get("token")
        if isinstance(token, str) and token:
            self.token = token[:128]
        self.name = as_str(msg.get("name"), self.name, 20) or self.name
        self.host = msg.get("host") is True
        self.watch = msg.get("watch") is True
        self.hands = as_int(msg.get("hands"), self.hands, lo=1, hi=99)
        if self._rejoining and self.welcomed_once:
            self.log.append(LogLine("Reconnected: back at the table", "info"))
        self.welcomed = self.welcomed_once = True
        self.error = None

    def _on_error(self, msg: dict[str, Any], now: float) -> None:
        self.error = (as_str(msg.get("code"), "error", 40), as_str(msg.get("message"), "", 200))
        self.log.append(LogLine(f"Server: {self.error[1] or self.error[0]}", "info"))
        if self.error[0] == "name_taken" and not self.welcomed:
            self.lost_seat = as_seat(msg.get("seat"))  # that seat may be asked back (v2)
        if msg.get("ref") == "ask_seat":  # our ask was refused outright: say why
            seat = self.ask[0] if self.ask is not None else (self.asking or 0)
            self.ask = (seat, "failed", self.error[1] or self.error[0])

    def _on_seat_asked(self, msg: dict[str, Any], now: float) -> None:
        """To the host: someone asks for a lost seat back (``open``), or that ask is over."""
        seat = as_seat(msg.get("seat"))
        if seat is None:
            raise ProtocolError("seat_asked without a seat")
        name = as_str(msg.get("name"), "", 20) or self.name_of(seat)
        if msg.get("open") is not False:
            if seat not in self.asks:
                self.log.append(LogLine(f"{name} asks for the seat back", "info"))
            self.asks[seat] = name
        else:
            self.asks.pop(seat, None)

    def _on_ask_answer(self, msg: dict[str, Any], now: float) -> None:
        """Our own ask for a seat back: waiting, given, refused or unanswered."""
        seat = as_seat(msg.get("seat"))
        answer = as_str(msg.get("answer"), "", 20)
        if seat is None or answer not in ("waiting", "given", "refused", "unanswered"):
            raise ProtocolError("ask_answer without a seat or an answer")
        words = as_str(msg.get("message"), "", 200)
        self.ask = (seat, answer, words)
        self.asking = None
        if words:
            self.log.append(LogLine(words, "info"))

    def _players_from(self, items: Any) -> list[Player]:
        sealed = sealed_seats(items)
        return [Player.of(seat, sealed=seat.seat in sealed) for seat in decode_lobby_seats(items)]

    def _on_lobby(self, msg: dict[str, Any], now: float) -> None:
        self.lobby = {
            "host": as_seat(msg.get("host")),
            "hands": as_int(msg.get("hands"), 8, lo=1, hi=99),
            "can_start": msg.get("can_start") is True,
            "start_when": opt_int(msg.get("start_when")),
            "running": msg.get("running") is True,
        }
        self.lobby_seats = self._players_from(msg.get("seats"))
        self._follow_host(self.lobby["host"])
        self.table_name = as_str(msg.get("table"), self.table_name, 40)
        self.night = parse_night(msg.get("night")) or self.night
        self.open_books = msg.get("open_books") is True
        self.books_to_watchers = msg.get("books_to_watchers") is True
        self.plain_refused = msg.get("plain") == "never"  # absent: plain connections allowed
        self.plain_open = msg.get("plain") == "allow"  # at a table with a password
        self.odds_allowed = msg.get("odds") is True  # absent: the host has the odds off
        self.running = self.lobby["running"]
        if self.running and self.players:
            # Mid-match a lobby lists the seats as the table's ``players`` do, and comes
            # before any new ``table`` (the host's role passed on, a late arrival): the
            # plates follow it now, not at the next step.
            self.players = {p.seat: p for p in self.lobby_seats}
        if not self.running:
            self._rejoining = False  # no hand to replay
        opts: dict[str, Any] = msg["options"] if isinstance(msg.get("options"), dict) else {}
        self.options = {
            "turn_time": as_seconds(opts.get("turn_time")),
            "time_bank": as_seconds(opts.get("time_bank")) or 0.0,
            "stand_in": opts.get("stand_in") is True,
        }
        if "paused" in msg:
            self.paused = msg.get("paused") is True and self.running
        if not self.running and self.view is not None and self.standings is None:
            self.view = None  # a match ended without standings (e.g. cancelled)

    def _follow_host(self, host: int | None) -> None:
        """The host's role as every lobby says it: our controls come and go with it."""
        before, self._lobby_host = self._lobby_host, host
        seen, self._lobby_seen = self._lobby_seen, True
        self.host = host is not None and host == self.seat
        if not self.host:
            self.asks.clear()
            self.host_from = None
        if not seen or before == host or host is None:
            return
        if self.host:
            self.host_from = before
        name = next((p.name for p in self.lobby_seats if p.seat == host), self.name_of(host))
        who = "You are" if self.host else f"{name} is"
        self.log.append(LogLine(f"{who} the host now", "info"))

    def _on_match_start(self, msg: dict[str, Any], now: float) -> None:
        match = as_str(msg.get("match"), "", 80)
        same = self._rejoining and bool(match) and match == self.match_id
        self.match_id = match
        self.hands = as_int(msg.get("hands"), self.hands, lo=1, hi=99)
        players = self._players_from(msg.get("seats"))
        self.players = {p.seat: p for p in players}
        self.running = True
        if same:
            self.clock = None  # the comeback's own ``clock`` (or ``table``) says it again
            return  # a comeback to the match we were in: its log goes on where it stopped
        stack = as_int(msg.get("stack"), 600, lo=0)
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
        self._seen = (0, 0)
        self.clock = None
        self.log.append(LogLine(f"A match of {self.hands} hands begins", "street"))

    def _on_table(self, msg: dict[str, Any], now: float) -> None:
        view = SeatView.decode(msg.get("view"))
        hand = as_int(msg.get("hand"), self.hand)
        self.hands = as_int(msg.get("hands"), self.hands, lo=1, hi=99)
        seats = decode_lobby_seats(msg.get("players"))
        if seats:
            sealed = sealed_seats(msg.get("players"))
            self.players = {p.seat: Player.of(p, sealed=p.seat in sealed) for p in seats}
            for p in seats:  # the wire's own word on the link, whatever the presence
                if p.connected:
                    self.presence.pop(p.seat, None)
                elif p.seat not in self.presence:
                    self.presence[p.seat] = (None, now)
        if hand != self.hand:
            self.hand_end = None  # (``recent`` was renewed by this step's ``events``)
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
        seat = as_seat(msg.get("seat"))
        if seat is None or seat != self.seat:
            return
        self.turn = as_int(msg.get("turn"))
        self.legal = decode_legal(msg.get("legal"))
        self.time_left = as_seconds(msg.get("time_left"))
        self.bank = as_seconds(msg.get("bank"))
        self.turn_at = now
        if self.time_left is not None and self.view is not None:
            # A protocol 2 server also says it in a ``clock``; this one is our own,
            # keyed like a ``clock`` by the view's turn id.
            turn_id = self.view.turn_id or 0
            self.clock = SeatClock(
                seat, turn_id, self.time_left, self.bank or 0.0, not self.paused, now
            )

    def _log_hand(self, hand: int) -> None:
        if hand != self._hand_logged and hand > 0:
            self._hand_logged = hand
            self.log.append(LogLine(f"Hand {hand} of {self.hands}", "street"))

    def _on_events(self, msg: dict[str, Any], now: float) -> None:
        hand = as_int(msg.get("hand"), self.hand)
        events = as_list(msg.get("events"))[:200]
        seen_hand, seen = self._seen
        if hand != seen_hand:
            seen = 0
            self._shown_hands = {}
            self.recent.clear()
            self.hand_events = []
        if self._rejoining and hand == seen_hand:
            self.hand_events = []  # the comeback's events are the whole hand so far
        self.hand_events += [ev for ev in events if isinstance(ev, dict)]
        if self._rejoining:
            # A comeback's first ``events`` is the whole hand so far: only what came
            # while we were away is new.
            self._rejoining = False
            events = events[seen:] if hand == seen_hand else events
        self._seen = (hand, seen + len(events))
        self._log_hand(hand)
        awards: list[tuple[int, int, int]] = []
        for ev in events:
            if not isinstance(ev, dict):
                continue
            street = opt_int(ev.get("street"))
            if (
                ev.get("ev") == "deal"
                and street is not None
                and (hand, street) != self._street_logged
            ):
                self._street_logged = (hand, street)
                self.recent.clear()  # each street starts clean: no last street's words
                if street in STREET_NAMES:
                    self.log.append(LogLine(STREET_NAMES[street], "street"))
            seat = as_seat(ev.get("seat"))
            if ev.get("ev") == "show" and seat is not None:
                self._shown_hands[seat] = as_str(ev.get("hand"), "", 60)
            if ev.get("ev") == "award":
                if seat is not None:
                    awards.append((seat, as_int(ev.get("amount"), 0, lo=0),
                                   as_int(ev.get("pot"), 0, lo=0)))  # fmt: skip
                continue
            if ev.get("ev") == "act":
                # One set of words for the log line and the label over the seat.
                words = act_words(ev)
                self.log.append(
                    act_line(self.name_of(seat), words, all_in=ev.get("all_in") is True)
                )
                if seat is not None:
                    self.recent[seat] = (words, now)
            else:
                line = describe_event(ev, self.name_of)
                if line is not None:
                    self.log.append(line)
            if ev.get("ev") == "act" and seat == self.seat:
                self.turn, self.legal = None, []
        for line in award_lines(awards, self._shown_hands, self.name_of):
            self.log.append(LogLine(line, "win"))

    def _on_hand_end(self, msg: dict[str, Any], now: float) -> None:
        awards = []
        for a in as_list(msg.get("awards"))[:16]:
            if isinstance(a, dict) and as_seat(a.get("seat")) is not None:
                awards.append({"seat": a["seat"], "amount": as_int(a.get("amount"), 0, lo=0),
                               "pot": as_int(a.get("pot"), 0, lo=0)})  # fmt: skip
        self.hand_end = {"hand": as_int(msg.get("hand"), self.hand), "awards": awards}
        self.turn, self.legal = None, []

    def _on_standings(self, msg: dict[str, Any], now: float) -> None:
        rows = []
        for r in as_list(msg.get("standings"))[:7]:
            if not isinstance(r, dict) or as_seat(r.get("seat")) is None:
                continue
            rows.append(
                {
                    "place": as_int(r.get("place"), len(rows) + 1, lo=1, hi=7),
                    "seat": r["seat"],
                    "name": as_str(r.get("name"), self.name_of(r["seat"]), 20),
                    "stack": as_int(r.get("stack"), 0, lo=0),
                    "net": as_int(r.get("net"), 0),
                    "winner": r.get("winner") is True,
                }
            )
        self.standings = rows
        self.night = parse_night(msg.get("night")) or self.night
        self.hands_played = as_int(msg.get("hands_played"), self.hand, lo=0)
        self.running = False
        self.paused = False
        self.clock = None
        self.turn, self.legal = None, []
        winners = [r["name"] for r in rows if r["winner"]]
        if winners:
            self.log.append(LogLine(f"{' and '.join(winners)} won the match", "win"))

    def _on_presence(self, msg: dict[str, Any], now: float) -> None:
        seat = as_seat(msg.get("seat"))
        if seat is None:
            raise ProtocolError("presence without a seat")
        connected = msg.get("connected") is not False
        grace = as_seconds(msg.get("grace"))
        if connected:
            self.presence.pop(seat, None)
        else:
            self.presence[seat] = (grace, now)
        word = "is back" if connected else "dropped"
        self.log.append(LogLine(f"{self.name_of(seat)} {word}", "info"))

    def _on_seat_away(self, msg: dict[str, Any], now: float) -> None:
        seat = as_seat(msg.get("seat"))
        if seat is None:
            raise ProtocolError("seat_away without a seat")
        away = msg.get("away") is True
        why = (as_str(msg.get("why"), limit=12) or None) if away else None
        stand_in = away and msg.get("stand_in") is True
        p = self.players.get(seat) or next((q for q in self.lobby_seats if q.seat == seat), None)
        if p is not None:
            presence = from_wire(
                connected=seat not in self.presence, away=away, away_why=why, next_match=p.next
            )
            self.players[seat] = replace(p, presence=presence, stand_in=stand_in)
        name = self.name_of(seat)
        if away:
            words = AWAY_WORDS.get(why or "", "is away")
            extra = " — a computer plays the seat" if stand_in else ""
            self.log.append(LogLine(f"{name} {words}{extra}", "info"))
        else:
            self.log.append(LogLine(f"{name} is back", "info"))

    def _on_paused(self, msg: dict[str, Any], now: float) -> None:
        paused = msg.get("paused") is True
        by = as_str(msg.get("name"), "", 20)
        if paused == self.paused:
            return
        c = self.clock
        if c is not None:  # stop (or restart) our idea of the clock where it stands
            left = self.clock_left(c.seat, now)
            if left is not None:
                self.clock = SeatClock(c.seat, c.turn, left[0], left[1], not paused, now)
        self.paused, self.paused_by = paused, by
        who = by or "The host"
        self.log.append(
            LogLine(f"{who} paused the table" if paused else f"{who} resumed the table", "info")
        )

    def _on_waiting(self, msg: dict[str, Any], now: float) -> None:
        """The table stopped (or goes on) because the host cannot save the match."""
        if msg.get("waiting") is not True:
            if self.waiting is not None:
                self.log.append(LogLine("The host can save again: the table plays on", "info"))
            self.waiting = None
            return
        why = as_str(msg.get("why"), "", 20)
        words = WAITING_WORDS.get(why, WAITING_WORDS["cannot_save"])
        if words != self.waiting:
            self.log.append(LogLine(words, "info"))
        self.waiting = words

    def _on_clock(self, msg: dict[str, Any], now: float) -> None:
        seat = as_seat(msg.get("seat"))
        left = as_seconds(msg.get("time_left"))
        if seat is None or left is None:
            raise ProtocolError("clock without a seat or time")
        self.clock = SeatClock(
            seat,
            as_int(msg.get("turn"), 0),
            left,
            as_seconds(msg.get("bank")) or 0.0,
            msg.get("running") is not False,
            now,
        )

    def _on_chat(self, msg: dict[str, Any], now: float) -> None:
        name = as_str(msg.get("name"), "?", 20)
        if msg.get("watching") is True or ("watching" not in msg and msg.get("seat") is None):
            name += " (watching)"
        text = as_str(msg.get("text"), "", 200)
        if text:
            self.log.append(LogLine(f"{name}: {text}", "chat"))

    def _on_pong(self, msg: dict[str, Any], now: float) -> None:
        pass

    def _on_books(self, msg: dict[str, Any], now: float) -> None:
        """Open the books: a hand's full record, after the match (``HandBook`` keeps it)."""
        if not isinstance(msg.get("record"), dict):
            raise ProtocolError("books without a record")

    def _on_bye(self, msg: dict[str, Any], now: float) -> None:
        self.bye = as_str(msg.get("reason"), "the server closed", 200) or "the server closed"

    def reset_for_reconnect(self) -> None:
        """Forget the handshake but keep token, name, view and log for the way back.

        The server greets a comeback with the match and the hand so far; the log
        takes only what is new from them (``_on_match_start``, ``_on_events``).
        """
        self.welcomed = False
        self._rejoining = True
