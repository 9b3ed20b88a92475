"""The computer seats' choices in seeded matches, recorded so that a rewrite of the brain
can be checked to play exactly as before (``tests/test_brain_decisions.py``).

    .venv/bin/python -m tests.record_decisions     # rewrite tests/data/decisions.json

A *session* is a few matches at one table (2, 4 or 7 seats) with the same player objects
in every seat, called as the table calls them (``server/table.py``, ``server/lobby.py``):
a session is one night, so each player starts it fresh and is never reset; ``meet(names)``
(seat -> name) at each match start, the seat's own view and its own seeded RNG at each
of its turns, and ``observe(view)`` of the seat's view when each hand ends.  So a level's
memory of its rivals is built over every match of the session.  (The first match of each
session plays as it did when memory lasted one match; the later ones were re-recorded
when memory came to last the night.)  Now and then the
driver plays a random legal action instead of the chosen one (from an RNG of its own),
so the hands reach spots the players would not steer into; the chosen action is still
the one recorded.  *Points* are single decisions from random spots of random hands
(short stacks, all-ins), each asked of a fresh player of every kind.

The fixture names each session's seed, players and lengths (and the points' count),
and keeps per decision the chosen action (one letter), a CRC of the view it was given
and a CRC of the seat RNG's state after the choice (so a rewrite must draw the same
random numbers, not only pick the same action); per hand end a CRC of every level's
memory.  The views themselves are not stored: the same seeds deal the same hands, and
their CRCs say whether they did.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from common.cards import full_deck
from common.engine import Hand
from common.match import Match, SeatInfo, SeatKind
from common.views import seat_view
from server.brain import SOLID, brain, choose_action

FIXTURE = Path(__file__).resolve().parent / "data" / "decisions.json"

Player = Callable[[Any, random.Random], str]

_LETTERS = {
    "fold": "f",
    "check": "k",
    "call": "c",
    "bet": "b",
    "raise": "r",
    "complete": "o",
    "bring_in": "i",
}
_BLUNDER = replace(SOLID, name="blunder", blunder=0.25)


def letter(action: str) -> str:
    """One letter for an action name ("?" for anything else)."""
    return _LETTERS.get(action, "?")


def make_player(kind: str) -> Player:
    """A fresh player: a level (``newcomer``, ``regular``, ``shark``) or a plain style of
    ``choose_action`` (``solid``, the default; ``blunder``, solid with random mistakes)."""
    if kind == "solid":
        return choose_action
    if kind == "blunder":
        return lambda view, rng: choose_action(view, rng, _BLUNDER)
    return brain(kind)


def _plain(view: Any) -> Any:
    """The view as the dict of ``common.views.seat_view`` (a typed view encodes to it)."""
    encode = getattr(view, "encode", None)
    return encode() if encode is not None else view


def view_crc(view: Any) -> int:
    return zlib.crc32(json.dumps(_plain(view), sort_keys=True).encode())


def rng_crc(rng: random.Random) -> int:
    return zlib.crc32(repr(rng.getstate()).encode())


def memory_crc(players: dict[int, Player]) -> int:
    """A CRC of every player's memory of its rivals (players without one are skipped),
    each rival listed by the seat its name sits in."""
    out = []
    for s, p in sorted(players.items()):
        mem = getattr(p, "memory", None)
        if mem is None:
            continue
        seat_of = {name: seat for seat, name in mem.names.items()}
        rivals = [
            [
                r,
                m.dealt,
                m.entered,
                m.shown,
                m.shown_trash,
                m.shown_weak,
                m.wagers,
                m.calls,
                m.faced,
                m.folded_to_us,
                sorted(m.river.items()),
            ]
            for r, m in sorted(
                ((seat_of.get(key, key), m) for key, m in mem.rivals.items()), key=lambda x: x[0]
            )
        ]
        out.append([s, mem.hands, rivals])
    return zlib.crc32(json.dumps(out).encode())


@dataclass(frozen=True, slots=True)
class Session:
    name: str
    seed: int
    players: tuple[tuple[int, str], ...]
    """(seat, kind) for every seat."""
    matches: int
    hands: int
    detour: float = 0.1
    """Chance that the driver plays a random legal action instead of the choice."""


def _session(name: str, seed: int, seats: str, matches: int, hands: int, detour: float) -> Session:
    """A session whose ``seats`` are written ``"0:shark 4:regular"``."""
    players = tuple(
        (int(seat), kind) for seat, _, kind in (p.partition(":") for p in seats.split())
    )
    return Session(name, seed, players, matches, hands, detour)


SESSIONS: tuple[Session, ...] = tuple(
    _session(*row)
    for row in (
        ("hu-shark-regular", 1, "0:shark 4:regular", 5, 12, 0.1),
        ("hu-shark-newcomer", 2, "2:newcomer 5:shark", 5, 12, 0.1),
        ("hu-regular-solid", 3, "1:regular 6:solid", 4, 12, 0.1),
        ("hu-shark-shark", 4, "0:shark 1:shark", 4, 12, 0.2),
        ("hu-newcomer-blunder", 5, "3:newcomer 6:blunder", 3, 8, 0.1),
        ("four-mixed", 6, "0:shark 2:regular 4:newcomer 6:solid", 4, 8, 0.1),
        ("four-sharks-and-blunder", 7, "1:shark 2:shark 3:blunder 5:regular", 3, 8, 0.1),
        (
            "seven-mixed",
            8,
            "0:shark 1:regular 2:newcomer 3:solid 4:shark 5:regular 6:newcomer",
            3,
            8,
            0.1,
        ),
        ("seven-sharks", 9, " ".join(f"{s}:shark" for s in range(7)), 1, 4, 0.15),
    )
)

POINTS = 250
"""Random decision points, each asked of a fresh player of every kind in ``POINT_KINDS``."""
POINT_KINDS = ("newcomer", "regular", "shark", "solid")


def session_of(entry: Mapping[str, Any]) -> Session:
    """The ``Session`` a fixture entry was recorded from."""
    return Session(
        name=entry["name"],
        seed=entry["seed"],
        players=tuple((int(s), str(kind)) for s, kind in entry["players"]),
        matches=entry["matches"],
        hands=entry["hands"],
        detour=entry["detour"],
    )


def play_session(session: Session) -> Iterator[tuple[str, Any, str, random.Random | None]]:
    """Play ``session``; yields ("turn", view, action, seat rng after the choice) at every
    decision and ("end", players, "", None) once every player has observed a hand's end."""
    players = {s: make_player(kind) for s, kind in session.players}
    deal_rng = random.Random(session.seed)
    detour_rng = random.Random(session.seed + 10_000)
    seat_rngs = {s: random.Random(session.seed * 100 + s) for s in players}
    infos = {s: SeatInfo(f"p{s}", SeatKind.COMPUTER) for s in players}
    names = {s: info.name for s, info in infos.items()}
    for _ in range(session.matches):
        for p in players.values():
            meet = getattr(p, "meet", None)
            if meet is not None:
                meet(names)  # a match of the night starts: who sits where
        match = Match(seats=infos, rng=deal_rng, hands=session.hands)
        while not match.is_over:
            hand = match.next_hand(rng=deal_rng)
            while not hand.is_over:
                s = hand.to_act
                assert s is not None
                view = seat_view(hand, s)
                rng = seat_rngs[s]
                action = players[s](view, rng)
                yield "turn", view, action, rng
                if detour_rng.random() < session.detour:
                    action = detour_rng.choice([a["action"] for a in _plain(view)["legal"]])
                match.apply(s, action)
            for s, p in players.items():
                observe = getattr(p, "observe", None)
                if observe is not None:
                    observe(seat_view(hand, s))
            yield "end", players, "", None


def random_point(seed: int) -> tuple[Hand, int]:
    """A real hand, 2 to 7 seats, played by random legal moves to a random decision."""
    rng = random.Random(seed)
    n = rng.randint(2, 7)
    seats = sorted(rng.sample(range(7), n))
    stacks = {s: rng.choice([600, 600, 600, 45, 12, 3]) for s in seats}
    deck = full_deck()
    rng.shuffle(deck)
    hand = Hand(stacks=stacks, button=rng.choice(seats), deck=deck)
    hand.start()
    stop = rng.randint(0, 25)
    steps = 0
    while not hand.is_over and steps < stop:
        s = hand.to_act
        assert s is not None
        hand.apply(s, rng.choice(hand.legal_actions(s)).kind)
        steps += 1
    return hand, rng.randint(0, 2**32)


def play_points(
    count: int = POINTS, kinds: Sequence[str] = POINT_KINDS
) -> Iterator[tuple[Any, str, str, random.Random]]:
    """(view, kind, action, rng after) for each decision point and kind of player."""
    seed = 0
    made = 0
    while made < count:
        hand, rng_seed = random_point(seed)
        seed += 1
        if hand.is_over:
            continue
        made += 1
        s = hand.to_act
        assert s is not None
        view = seat_view(hand, s)
        for kind in kinds:
            rng = random.Random(rng_seed)
            yield view, kind, make_player(kind)(view, rng), rng


def record() -> dict[str, Any]:
    sessions = []
    for session in SESSIONS:
        actions, views, rngs, memories = [], [], [], []
        for what, obj, action, rng in play_session(session):
            if what == "turn":
                assert rng is not None
                actions.append(letter(action))
                views.append(f"{view_crc(obj):08x}")
                rngs.append(f"{rng_crc(rng):08x}")
            else:
                memories.append(f"{memory_crc(obj):08x}")
        sessions.append(
            {
                "name": session.name,
                "seed": session.seed,
                "players": [list(p) for p in session.players],
                "matches": session.matches,
                "hands": session.hands,
                "detour": session.detour,
                "actions": "".join(actions),
                "views": "".join(views),
                "rngs": "".join(rngs),
                "memories": "".join(memories),
            }
        )
    actions, views, rngs = [], [], []
    last = None
    for view, _kind, action, rng in play_points():
        if view is not last:
            views.append(f"{view_crc(view):08x}")
            last = view
        actions.append(letter(action))
        rngs.append(f"{rng_crc(rng):08x}")
    points = {
        "count": POINTS,
        "kinds": list(POINT_KINDS),
        "actions": "".join(actions),
        "views": "".join(views),
        "rngs": "".join(rngs),
    }
    return {"format": 2, "sessions": sessions, "points": points}


def main() -> None:
    data = record()
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(data, indent=1) + "\n")
    turns = sum(len(s["actions"]) for s in data["sessions"]) + len(data["points"]["actions"])
    print(f"{FIXTURE.name}: {turns} decisions, {FIXTURE.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
