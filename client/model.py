"""The session: everything the server has told this connection, one message at a time.

``Session.apply(msg, now)`` takes one message as ``common.protocol.server_messages`` decoded it
(every field checked and typed there) and updates who we are at the table (the
``welcome``) and the match as our seat sees it (players, the last ``SeatView``, our turn
and its buttons, this hand's events, the standings).  Its parts hold the rest, one job
each: ``lobby`` (``client.lobbystate``), ``clocks`` (``client.clocks``), ``log``
(``client.tablelog``) and ``book`` (``client.handbook``).  Pure: ``now`` is passed in.
"""

from __future__ import annotations

from client.clocks import Clocks
from client.errorwords import error_words
from client.handbook import HandBook
from client.i18n import gettext as _
from client.i18n import ngettext
from client.lobbystate import LobbyState, Player
from client.tablelog import TableLog
from client.wording import and_names
from common.events import Act, Event
from common.match import Standing
from common.presence import from_wire
from common.protocol import server_messages as r
from common.schema import LegalAction, SeatView

__all__ = ["Session", "away_words"]


def away_words(name: str, why: str, *, stand_in: bool) -> str:
    """The log's line for a seat gone away (R-C2, R-C3): why, and who plays it."""
    if stand_in:
        words = {
            "asked": _("{who} stepped away — a computer plays the seat"),
            "clock": _("{who} ran out of time and is away — a computer plays the seat"),
            "dropped": _("{who} is away (connection lost) — a computer plays the seat"),
            "taken": _("{who} had the seat taken away by the host — a computer plays the seat"),
        }.get(why, _("{who} is away — a computer plays the seat"))
    else:
        words = {
            "asked": _("{who} stepped away"),
            "clock": _("{who} ran out of time and is away"),
            "dropped": _("{who} is away (connection lost)"),
            "taken": _("{who} had the seat taken away by the host"),
        }.get(why, _("{who} is away"))
    return words.format(who=name)


class Session:
    """Everything the server has told this connection."""

    def __init__(self, name: str = "") -> None:
        # Who we are at the table: the welcome.
        self.name = name
        self.seat: int | None = None
        self.token: str | None = None
        self.host = False
        self.watch = False
        self.welcomed = False
        self.welcomed_once = False
        self.error: tuple[str, str] | None = None  # the last refusal: (code, words)
        # The match as our seat sees it.
        self.match_id: str | None = None
        self.running = False
        self.hands = 8
        self.hand = 0
        self.players: dict[int, Player] = {}
        self.view: SeatView | None = None
        self.turn: int | None = None  # the turn id our ``act`` names, on our turn
        self.legal: list[LegalAction] = []
        self.hand_events: list[Event] = []  # this hand's, as received (the coach's)
        self.standings: list[Standing] | None = None
        self.hands_played = 0
        # The parts.
        self.lobby = LobbyState()
        self.clocks = Clocks()
        self.log = TableLog()
        self.book = HandBook()  # this match's hands for the replayer and the recap
        # A comeback: its first ``events`` is the hand so far, of which the log holds
        # the first ``_seen[1]`` events of hand ``_seen[0]``.
        self._rejoining = False
        self._seen = (0, 0)

    # ---- queries

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        p = self.players.get(seat)
        return p.name if p else _("Seat {number}").format(number=seat + 1)

    @property
    def phase(self) -> str:
        """connecting, lobby, playing or standings: which scene fits."""
        if self.standings is not None:
            return "standings"
        if self.running or self.view is not None:
            return "playing"
        return "lobby" if self.lobby.said is not None or self.welcomed else "connecting"

    def sits_out(self) -> bool:
        """Seated for the next match while this one is played without us."""
        v = self.view
        return (
            self.seat is not None and v is not None and bool(v.seats) and self.seat not in v.seats
        )

    def my_turn(self) -> bool:
        v = self.view
        ours = v is not None and self.seat is not None and v.to_act == self.seat
        return ours and self.turn is not None and bool(self.legal)

    def actions(self) -> list[LegalAction]:
        """The buttons to show: exactly what the server offered for our turn."""
        return list(self.legal) if self.my_turn() else []

    def seconds_left(self, now: float) -> float | None:
        """Our turn's seconds (a server without clocks says only those), else None."""
        return self.clocks.seconds_left(now) if self.my_turn() else None

    def clock_left(self, seat: int, now: float) -> tuple[float, float] | None:
        """(decision seconds, bank seconds) left to ``seat``, the seat to act (R-C4)."""
        return self.clocks.clock_left(seat, self.view, now)

    def me(self) -> Player | None:
        return self.players.get(self.seat) if self.seat is not None else None

    def away(self) -> bool:
        """Our seat is away (R-C2): the server plays its turns until we are back."""
        me = self.me()
        return bool(me and me.away)

    # ---- applying messages

    def apply(self, msg: r.ServerMessage, now: float) -> None:
        """Take one server message, decoded (``common.protocol.server_messages``)."""
        say = self.log.say
        match msg:
            case r.Welcome():
                self._welcome(msg)
            case r.Error():
                self.error = (msg.code, msg.message)
                say(_("Server: {words}").format(words=error_words(msg.code, msg.message)))
                if msg.code == "name_taken" and not self.welcomed:
                    self.lobby.lost_seat = msg.seat  # that seat may be asked back (v2)
                if msg.ref == "ask_seat":  # our ask was refused outright: say why
                    self.lobby.refused(error_words(msg.code, msg.message))
            case r.Lobby():
                self._lobby(msg)
            case r.MatchStart():
                self._match_start(msg)
            case r.Table():
                self._table(msg, now)
            case r.Turn() if msg.seat is not None and msg.seat == self.seat:
                self.turn, self.legal = msg.turn, msg.legal
                self.clocks.our_turn(msg.seat, msg.time_left, msg.bank, self.view, now)
            case r.Events():
                self._events(msg)
            case r.HandEnd():
                self.turn, self.legal = None, []
            case r.Standings():
                self.standings = msg.standings
                self.lobby.night = r.Night.of(msg.night) or self.lobby.night
                self.hands_played = self.hand if msg.hands_played is None else msg.hands_played
                self.running = False
                self.clocks.stop()
                self.turn, self.legal = None, []
                winners = [row.name for row in msg.standings if row.winner]
                if winners:
                    say(ngettext("{names} won the match", "{names} won the match", len(winners))
                        .format(names=and_names(winners)), "win")  # fmt: skip
            case r.Presence():
                self.clocks.presence(msg, now)
                words = _("{who} is back") if msg.connected else _("{who} dropped")
                say(words.format(who=self.name_of(msg.seat)))
            case r.SeatAway():
                self._seat_away(msg)
            case r.Paused():
                say(self.clocks.pause(msg, self.view, now))
            case r.Waiting():
                say(self.clocks.wait(msg))
            case r.Clock():
                self.clocks.clock(msg, now)
            case r.ChatSaid() if msg.text:
                # Translators: a chat line; "(watching)": said by someone without a seat.
                words = _("{name} (watching): {text}") if msg.watching else _("{name}: {text}")
                say(words.format(name=msg.name, text=msg.text), "chat")
            case r.SeatAsked():
                say(self.lobby.asked(msg, self.name_of(msg.seat)))
            case r.AskAnswer():
                say(self.lobby.answered(msg))
        self.book.take(msg)

    def _welcome(self, m: r.Welcome) -> None:
        self.seat = m.seat
        self.token = m.token or self.token
        self.name = m.name or self.name
        self.host, self.watch = m.host, m.watch
        self.hands = m.hands or self.hands
        if self._rejoining and self.welcomed_once:
            self.log.say(_("Reconnected: back at the table"))
        self.welcomed = self.welcomed_once = True
        self.error = None

    def _lobby(self, m: r.Lobby) -> None:
        self.host, words = self.lobby.take(m, self.seat, self.name_of)
        self.log.say(words)
        self.running = m.running
        if self.running and self.players:
            # Mid-match a lobby lists the seats as the table's ``players`` do, and comes
            # before any new ``table`` (the host's role passed on, a late arrival): the
            # plates follow it now, not at the next step.
            self.players = {p.seat: p for p in self.lobby.seats}
        if not self.running:
            self._rejoining = False  # no hand to replay
        if m.paused is not None:
            self.clocks.paused = m.paused and self.running
        if not self.running and self.view is not None and self.standings is None:
            self.view = None  # a match ended without standings (e.g. cancelled)

    def _match_start(self, m: r.MatchStart) -> None:
        same = self._rejoining and bool(m.match) and m.match == self.match_id
        self.match_id = m.match
        self.hands = m.hands or self.hands
        self.players = {seat.seat: Player.of(seat) for seat in m.seats}
        self.running = True
        self.clocks.turn = None  # a comeback's own ``clock`` (or ``table``) says it again
        if same:
            return  # a comeback to the match we were in: its log goes on where it stopped
        self.standings = None
        self.view = None
        self.hand = 0
        self.turn, self.legal = None, []
        self._seen = (0, 0)
        self.log.new_match(self.hands)

    def _table(self, m: r.Table, now: float) -> None:
        self.hands = m.hands or self.hands
        if m.players:
            self.players = {seat.seat: Player.of(seat) for seat in m.players}
            for seat in m.players:  # the wire's own word on the link, whatever the presence
                self.clocks.linked(seat.seat, seat.connected, now)
        hand = self.hand if m.hand is None else m.hand
        self.log.hand(hand, self.hands)
        self.hand = hand
        self.running = True
        self.view = view = m.view
        if self.standings is not None and not view.over:
            self.standings = None
        if view.you is not None:
            self.seat = view.you
        # Only a ``turn`` message (sent after this table) names the turn id to answer.
        if view.to_act is None or view.to_act != self.seat or view.over:
            self.turn, self.legal, self.clocks.ours = None, [], None

    def _events(self, m: r.Events) -> None:
        hand = self.hand if m.hand is None else m.hand
        events = m.events
        seen_hand, seen = self._seen
        if hand != seen_hand:
            seen = 0
            self.hand_events = []
        if self._rejoining and hand == seen_hand:
            self.hand_events = []  # the comeback's events are the whole hand so far
        self.hand_events += events
        if self._rejoining:
            # A comeback's first ``events`` is the whole hand so far: only what came
            # while we were away is new.
            self._rejoining = False
            events = events[seen:] if hand == seen_hand else events
        self._seen = (hand, seen + len(events))
        self.log.hand(hand, self.hands)
        self.log.events(hand, events, self.name_of)
        if any(isinstance(ev, Act) and ev.seat == self.seat for ev in events):
            self.turn, self.legal = None, []

    def _seat_away(self, m: r.SeatAway) -> None:
        p = self.players.get(m.seat) or self.lobby.player(m.seat)
        if p is not None:
            presence = from_wire(
                connected=m.seat not in self.clocks.dropped,
                away=m.away,
                away_why=m.why,
                next_match=p.next,
            )
            self.players[m.seat] = p.moved(presence, stand_in=m.stand_in)
        name = self.name_of(m.seat)
        if m.away:
            self.log.say(away_words(name, m.why or "", stand_in=m.stand_in))
        else:
            self.log.say(_("{who} is back").format(who=name))

    def back_to_lobby(self) -> None:
        """A guest done with the standings goes to the lobby, ready for the next match."""
        self.standings, self.view, self.running = None, None, False

    def reset_for_reconnect(self) -> None:
        """Forget the handshake, keeping the rest: the log takes only what is new from the
        match and the hand so far that greet a comeback (``_match_start``, ``_events``)."""
        self.welcomed = False
        self._rejoining = True
