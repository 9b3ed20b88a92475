"""Hand-made server messages for a seven-seat table: screenshots, the benchmark, tests.

They go through ``Session.apply`` like real ones, so what they show is what a
player would see from the same messages.  The views, seats and actions in them are
``common.schema`` values' ``encode()``, as the server sends them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from common.events import ActionKind, Award
from common.schema import LegalAction, LobbySeat, Pot, SeatView, Shown, TableSeat

NAMES = ["Ann", "Ada", "Babbage", "Cy", "Cray", "Dijkstra", "Eve"]
KINDS = ["human", "computer", "computer", "human", "computer", "computer", "human"]
LEVELS = {1: ("shark", "Shark"), 2: ("regular", "Regular"), 4: ("newcomer", "Newcomer"),
          5: ("regular", "Regular")}  # fmt: skip


def lobby_seat(seat: int, name: str, kind: str = "human", **kw: Any) -> dict[str, Any]:
    fields: dict[str, Any] = dict(connected=True, host=False, away=False, away_why=None,
                                  stand_in=False)  # fmt: skip
    fields.update(kw)
    return LobbySeat(seat, name, kind, **fields).encode()


def _players(n: int = 7) -> list[dict[str, Any]]:
    out = []
    for s in range(n):
        level, level_name = LEVELS.get(s, (None, None))
        # The people's links are sealed but Eve's: an older game, plain (issue 18).
        sealed = KINDS[s] == "human" and s not in (3, 6)  # Cy (3) is not connected
        out.append(lobby_seat(s, NAMES[s], KINDS[s], connected=s != 3, host=s == 0,
                               level=level, level_name=level_name,
                               sealed=sealed))  # fmt: skip
    return out


def _seat(seat: int, stack: int, bet: int, up: list[str], down: int, **kw: Any) -> TableSeat:
    return TableSeat(seat, stack, bet, bet + 15, up=up, down=down, **kw)


def _shown(cards: str, best: str, hand: str) -> Shown:
    return Shown(cards.split(), best.split(), hand)


def _legal(*actions: tuple[str, int]) -> list[LegalAction]:
    """Actions by word and chips put (``to`` is the same on a fresh street)."""
    return [LegalAction(ActionKind(word), put, put) for word, put in actions]


WELCOME = {"type": "welcome", "protocol": 1, "seat": 0, "token": "demo", "name": "Ann",
           "host": True, "watch": False, "hands": 8}  # fmt: skip


def match_start(match: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    stakes = {"ante": 1, "bring_in": 4, "small_bet": 10, "big_bet": 20}
    return {"type": "match_start", "match": match, "hands": 8, "seats": seats, "stakes": stakes,
            "stack": 600}  # fmt: skip


def act(seat: int, street: int, action: str, put: int = 0, all_in: bool = False) -> dict[str, Any]:
    """An act whose ``to`` is its ``put`` (the first chips of the street)."""
    return {"ev": "act", "seat": seat, "street": street, "action": action, "put": put,
            "to": put, "all_in": all_in}  # fmt: skip


def _view(seats: list[TableSeat], **kw: Any) -> dict[str, Any]:
    """A seven-seat view with seat 0 ours (``you``), encoded as the server sends it."""
    fields: dict[str, Any] = dict(button=4, order=[5, 6, 0, 1, 2, 3, 4], bring_in=2, awards=[],
                                  you=0, legal=[])  # fmt: skip
    fields.update(kw)
    return SeatView(seats={sv.seat: sv for sv in seats}, **fields).encode()


def mid_hand() -> list[dict[str, Any]]:
    """Fifth street, seven seats, our turn facing a bet, one seat dropped, one all in."""
    seats = [
        _seat(0, 512, 0, ["Kh", "Kd", "7s"], 2, hole=["Ac", "Qs"]),
        _seat(1, 468, 20, ["9c", "9s", "4d"], 2, last_action="bet"),
        _seat(2, 575, 0, ["2h", "Jd"], 2, folded=True, last_action="fold"),
        _seat(3, 0, 18, ["5s", "6s", "8s"], 2, all_in=True, last_action="call"),
        _seat(4, 590, 0, ["Tc"], 2, folded=True, last_action="fold"),
        _seat(5, 431, 20, ["Qd", "Jc", "Th"], 2, last_action="call"),
        _seat(6, 541, 0, ["Ah", "3c", "3d"], 2),
    ]
    view = _view(
        seats, street=5, to_act=0, turn_id=9, high=20, pot=246, over=False,
        pots=[Pot(180, [0, 1, 3, 5, 6]), Pot(66, [0, 1, 5, 6])],
        legal=_legal(("fold", 0), ("call", 20), ("raise", 40)),
    )  # fmt: skip
    events = [
        act(2, 3, "bring_in", 4),
        act(3, 3, "complete", 10),
        act(4, 3, "fold", 0),
        {"ev": "deal", "seat": 0, "street": 5, "card": "7s", "up": True},
        act(1, 5, "bet", 20),
        act(3, 5, "call", 18, True),
        act(5, 5, "call", 20),
    ]  # fmt: skip
    return [
        WELCOME,
        match_start("demo", _players()),
        {"type": "table", "match": "demo", "hand": 3, "hands": 8, "step": 1, "view": view,
         "players": _players()},
        {"type": "events", "hand": 3, "step": 1, "events": events},
        {"type": "chat", "seat": 3, "name": "Cy", "text": "back in a sec, phone"},
        {"type": "presence", "seat": 3, "connected": False, "grace": 30},
        {"type": "turn", "turn": 41, "seat": 0, "legal": view["legal"], "time_left": 25.0},
    ]  # fmt: skip


def showdown() -> list[dict[str, Any]]:
    """The end of a hand: three seats show, the best five lifted, the pot awarded."""
    seats = [
        _seat(0, 512, 0, ["Kh", "Kd", "7s", "5c"], 3, hole=["Ac", "Qs", "5h"],
              shown=_shown("Ac Qs Kh Kd 7s 5c 5h", "Kh Kd 5c 5h Ac", "two pair, kings and fives")),
        _seat(1, 737, 0, ["9c", "9s", "4d", "4c"], 3,
              shown=_shown("9d 2s 9c 9s 4d 4c Jh", "9d 9c 9s 4d 4c",
                           "full house, nines full of fours")),
        _seat(2, 575, 0, ["2h", "Jd"], 2, folded=True),
        _seat(3, 0, 0, ["5s", "6s", "8s", "2s"], 3, all_in=True,
              shown=_shown("4s 7s 5s 6s 8s 2s Kc", "8s 7s 6s 5s 4s", "straight flush, eight high")),
        _seat(4, 590, 0, ["Tc"], 2, folded=True),
        _seat(5, 431, 0, ["Qd", "Jc", "Th"], 2, folded=True),
        _seat(6, 541, 0, ["Ah", "3c", "3d"], 2, folded=True),
    ]  # fmt: skip
    awards = [Award(3, 180, 0), Award(1, 126, 1)]
    view = _view(seats, street=7, to_act=None, turn_id=20, high=0, pot=0, pots=[], over=True,
                 awards=awards)  # fmt: skip
    msgs = mid_hand()[:2]
    msgs.append({"type": "table", "match": "demo", "hand": 3, "hands": 8, "step": 9,
                 "view": view, "players": _players()})  # fmt: skip
    shows = [_show(seats[s]) for s in (3, 0, 1)]
    msgs.append({"type": "events", "hand": 3, "step": 9,
                 "events": shows + [a.to_dict() for a in awards]})  # fmt: skip
    return msgs


def river_end(*, hand: int = 3) -> list[dict[str, Any]]:
    """Seventh street: Ada bets, Eve calls, then our call ends the hand at a showdown.

    The last ``table`` is what the server sends at a hand's end: the street's bets
    are still in the view (``bet``), the pot is whole and the awards are listed.
    """
    folded = [
        _seat(2, 575, 0, ["2h", "Jd"], 2, folded=True, last_action="fold"),
        _seat(3, 560, 0, ["5s", "6s", "8s"], 2, folded=True, last_action="fold"),
        _seat(4, 590, 0, ["Tc"], 2, folded=True, last_action="fold"),
        _seat(5, 531, 0, ["Qd", "Jc", "Th"], 2, folded=True, last_action="fold"),
    ]
    ann: dict[str, Any] = dict(hole=["Ac", "Qs", "5h"])
    before = [
        _seat(0, 452, 0, ["Kh", "Kd", "7s", "5c"], 3, **ann),
        _seat(1, 432, 20, ["9c", "9s", "4d", "4c"], 3, last_action="bet"),
        *folded,
        _seat(6, 461, 20, ["Ah", "3c", "3d", "Js"], 3, last_action="call"),
    ]
    after = [
        _seat(0, 432, 20, ["Kh", "Kd", "7s", "5c"], 3, last_action="call", **ann,
              shown=_shown("Ac Qs Kh Kd 7s 5c 5h", "Kh Kd 5c 5h Ac", "two pair, kings and fives")),
        _seat(1, 596, 20, ["9c", "9s", "4d", "4c"], 3, last_action="bet",
              shown=_shown("9d 2s 9c 9s 4d 4c Jh", "9d 9c 9s 4d 4c",
                          "full house, nines full of fours")),
        *folded,
        _seat(6, 441, 20, ["Ah", "3c", "3d", "Js"], 3, last_action="call"),
    ]  # fmt: skip
    legal = _legal(("fold", 0), ("call", 20), ("raise", 40))

    def view(seats: list[TableSeat], **kw: Any) -> dict[str, Any]:
        fields: dict[str, Any] = dict(street=7, to_act=0, turn_id=30, high=20, pot=144,
                                      pots=[Pot(144, [0, 1, 6])], over=False,
                                      legal=legal)  # fmt: skip
        fields.update(kw)
        return _view(seats, **fields)

    won = Award(1, 164, 0)

    def msg(kind: str, step: int, **kw: Any) -> dict[str, Any]:
        return {"type": kind, "match": "demo", "hand": hand, "hands": 8, "step": step, **kw}

    return [
        *mid_hand()[:2],
        msg("events", 20, events=[act(1, 7, "bet", 20), act(6, 7, "call", 20)]),
        msg("table", 20, view=view(before), players=_players()),
        {"type": "turn", "turn": 30, "seat": 0, "legal": [a.encode() for a in legal],
         "time_left": None},
        msg("events", 21, events=[
            act(0, 7, "call", 20),
            _show(after[1]),
            _show(after[0]),
            won.to_dict()]),
        msg("table", 21, view=view(after, to_act=None, turn_id=None, pot=164, pots=[], over=True,
                                   awards=[won], legal=[]), players=_players()),
        {"type": "hand_end", "hand": hand, "awards": [won.to_dict()],
         "shows": [], "stacks": [{"seat": sv.seat, "stack": sv.stack} for sv in after]},
    ]  # fmt: skip


def _show(seat: TableSeat) -> dict[str, Any]:
    assert seat.shown is not None
    return {"ev": "show", "seat": seat.seat, **seat.shown.encode()}


def final_showdown() -> list[dict[str, Any]]:
    """The match's last hand at its showdown, before the standings come."""
    return river_end(hand=8)


def standings() -> dict[str, Any]:
    """The standings after ``final_showdown``: Ada wins the match."""
    ada = {"place": 1, "seat": 1, "name": "Ada", "stack": 764, "net": 164, "winner": True}
    return {"type": "standings", "match": "demo", "hands_played": 8, "standings": [ada]}


OPTIONS = {"turn_time": 30.0, "time_bank": 90.0, "stand_in": True}


def _lobby(running: bool, **kw: Any) -> dict[str, Any]:
    return {"type": "lobby", "seats": _players(), "host": 0, "hands": 8, "can_start": not running,
            "start_when": None, "running": running, "max_seats": 7, "options": OPTIONS,
            "paused": False, **kw}  # fmt: skip


def away_and_clock() -> list[dict[str, Any]]:
    """Protocol 2 at the table: our turn on the time bank (R-C4), Cy away with a computer
    standing in, Eve stepped away (R-C2), and the host's controls (R-C3)."""
    msgs = mid_hand()
    msgs.insert(1, _lobby(True))
    msgs = [m for m in msgs if m["type"] not in ("presence", "turn")]
    msgs += [
        {"type": "seat_away", "seat": 3, "away": True, "why": "dropped", "stand_in": True},
        {"type": "seat_away", "seat": 6, "away": True, "why": "asked", "stand_in": True},
        {"type": "turn", "turn": 41, "seat": 0, "legal": msgs[3]["view"]["legal"],
         "time_left": 0.0, "bank": 62.0},
        {"type": "clock", "seat": 0, "turn": 9, "time_left": 0.0, "bank": 62.0, "running": True},
    ]  # fmt: skip
    return msgs


def paused() -> list[dict[str, Any]]:
    """The host paused mid-hand (R-C3): the hand is played out, Eve's clock stands still."""
    msgs = away_and_clock()[:4]  # welcome, lobby, match_start, table
    table = dict(msgs[3])
    table["view"] = replace(SeatView.decode(table["view"]), to_act=6, legal=[], turn_id=10).encode()
    msgs[3] = table
    msgs += [
        {"type": "paused", "paused": True, "name": "Ann"},
        {"type": "clock", "seat": 6, "turn": 10, "time_left": 17.0, "bank": 90.0,
         "running": False},
    ]  # fmt: skip
    return msgs


def you_are_away() -> list[dict[str, Any]]:
    """We stepped away (R-C2): the bar says so and offers "I'm back"."""
    msgs = paused()[:4]
    table = dict(msgs[3])
    table["view"] = replace(SeatView.decode(table["view"]), to_act=5, turn_id=11).encode()
    msgs[3] = table
    msgs.append({"type": "seat_away", "seat": 0, "away": True, "why": "asked", "stand_in": False})
    return msgs


def watching(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``msgs`` as a watcher is sent them: welcomed to no seat, nobody's own view, no
    face-down card."""
    out = []
    for m in msgs:
        if m["type"] == "welcome":
            m = {**m, "seat": None, "watch": True}
        if m["type"] == "table":
            v = SeatView.decode(m["view"])
            seats = {k: replace(sv, hole=[]) for k, sv in v.seats.items()}
            m = dict(m, view=replace(v, you=None, legal=[], seats=seats).encode())
        out.append(m)
    return out


def host_lobby() -> list[dict[str, Any]]:
    """The host's lobby: who is in, and the clock, bank and stand-in to set (R-C3, R-C4)."""
    return [WELCOME, _lobby(False)]


def night_lobby() -> list[dict[str, Any]]:
    """The lobby between matches on a friends' night: three matches played, a late
    arrival seated, the night's scoreboard (as ``server.night`` sends it)."""
    seats = [
        lobby_seat(0, "Ann", host=True, sealed=True),
        lobby_seat(1, "Cy", sealed=True),
        lobby_seat(2, "Eve", sealed=True),
        lobby_seat(3, "Dan", next=True),  # an older game: a plain link (issue 18)
        lobby_seat(6, "Ada", "computer"),
    ]
    night = {
        "night": "2026-11-27", "label": "Friday 27 November", "table": "Friday", "played": 3,
        "matches": [
            {"number": 1, "match": "2026-11-27-203015-3fa2", "hands": 8, "winners": ["Cy"]},
            {"number": 2, "match": "2026-11-27-211502-09c1", "hands": 8, "winners": ["Ann"]},
            {"number": 3, "match": "2026-11-27-220148-77d0", "hands": 8, "winners": ["Ann"]},
        ],
        "totals": [
            {"name": "Ann", "kind": "human", "matches": 3, "wins": 2, "net": 312},
            {"name": "Cy", "kind": "human", "matches": 3, "wins": 1, "net": 145},
            {"name": "Ada", "kind": "computer", "matches": 3, "wins": 0, "net": -96},
            {"name": "Eve", "kind": "human", "matches": 3, "wins": 0, "net": -361},
        ],
    }  # fmt: skip
    return [
        WELCOME,
        {"type": "lobby", "seats": seats, "host": 0, "hands": 8, "can_start": True,
         "start_when": None, "running": False, "max_seats": 7, "table": "Friday", "night": night},
    ]  # fmt: skip


def found_tables() -> list[Any]:
    """Two tables as the Join panel lists them: one mid-match, one with a password."""
    from client.discovery import FoundTable
    from common.protocol import PROTOCOL_VERSION

    return [
        FoundTable("Friday._seventh-street._tcp.local.", "Friday", "192.168.1.20", 7777,
                   seats=5, free=2, people=3, password=False, running=True, hand=3, hands=8,
                   protocol=PROTOCOL_VERSION, version="0.1.0", short_key="H6ND-7GR7-TI7Z-UP42"),
        FoundTable("Den of Cards._seventh-street._tcp.local.", "Den of Cards", "192.168.1.31",
                   7777, seats=2, free=5, people=1, password=True, running=False, hand=0,
                   hands=12, protocol=PROTOCOL_VERSION, version="0.1.0"),
    ]  # fmt: skip


class DemoFinder:
    """Stands in for ``client.discovery.TableFinder`` in pictures and tests: still looking
    (no tables yet), the two tables of ``found_tables``, or the tables given."""

    running = True
    error = ""

    def __init__(self, found: bool | list[Any] = True) -> None:
        self.found = found

    def tables(self) -> list[Any]:
        if isinstance(self.found, list):
            return list(self.found)
        return found_tables() if self.found else []

    def close(self) -> None:
        pass


# ------------------------------------------------------------------ the coach (issue 19)

COACH_SEATS = {0: "Ann", 1: "Bo", 2: "Cy"}
# Each seat's cards in the order it gets them (down, down, up, up, up, up, down).
COACH_CARDS = {
    0: "Ac Qs Kh Kd 7s 9h 4c",
    1: "Jh Jc 2c 9c 9s Td 3h",
    2: "5h 6h 2h 8h 3d 4d Qc",
}


def coach_deck(button: int = 2, cards: dict[int, str] = COACH_CARDS) -> list[Any]:
    """The pack that deals ``cards`` (by default ``COACH_CARDS``): one card a seat a round,
    clockwise after the button (R-D2, R-D3)."""
    from common.cards import full_deck, parse

    order = [(button + 1 + i) % 3 for i in range(3)]
    dealt = {s: cards[s].split() for s in order}
    deck = [parse(dealt[s][i]) for i in range(7) for s in order]
    return deck + [c for c in full_deck() if c not in set(deck)]


def coached(
    steps: str, *, stacks: dict[int, int] | None = None, cards: dict[int, str] = COACH_CARDS
) -> list[dict[str, Any]]:
    """Three seats at the computer table (Ann, ours, against Bo and Cy), a real hand dealt
    ``cards`` and played by the engine to ``steps`` ("1:bring_in 2:complete"): the
    messages seat 0 gets."""
    from common.engine import Hand
    from common.views import event_view, seat_view

    chips = {0: 600, 1: 600, 2: 600, **(stacks or {})}
    hand = Hand(stacks=chips, button=2, deck=coach_deck(2, cards))
    hand.start()
    for token in steps.split():
        seat, _, kind = token.partition(":")
        hand.apply(int(seat), kind)
    players = [lobby_seat(s, n, "human" if s == 0 else "computer", host=s == 0,
                               sealed=s == 0)
               for s, n in COACH_SEATS.items()]  # fmt: skip
    view = seat_view(hand, 0).encode()
    out: list[dict[str, Any]] = [
        WELCOME,
        match_start("coach", players),
        {"type": "events", "hand": 1, "step": 1,
         "events": [event_view(e, 0).to_dict() for e in hand.events]},
        {"type": "table", "match": "coach", "hand": 1, "hands": 8, "step": 1, "view": view,
         "players": players},
    ]  # fmt: skip
    if hand.to_act == 0:
        out.append({"type": "turn", "turn": hand.turn, "seat": 0, "legal": view["legal"],
                    "time_left": None})  # fmt: skip
    return out
