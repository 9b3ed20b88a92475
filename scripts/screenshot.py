"""Write the README's screenshots: the start screen, the Join panel listing two tables found on
the network, a seven-seat table mid-hand (with the cards-seen panel), a showdown, the
replayer on a showdown, the recap, opened books, the turn clock's bank with away seats and
the host's controls, a paused table, our own seat away, the host's lobby, the lobby with the
night's scoreboard, a hand's end with the bets swept and the pot paid, the match's last
showdown before the standings, the standings, and a table in the smallest window (800x500);
and issue 9's moments: the host's lobby with its addresses and password, the rules (F1), the
"leave?" question at the table, the host's "close your table?" and an address refused; and
issue 16's: a lost seat asked back, and a table whose link is lost; and issue 18's: the
padlocks of sealed and plain links, the table's key in the host's lobby, and a known table
showing another key; and issue 19's coach at the table (third and fourth street), its odds
readout facing a bet, and its analysis after the match: the replayer's chance bars on a
decision worth a look, and the recap's summary of them.

    .venv/bin/python scripts/screenshot.py [--out docs/screenshots] [--size 1280x800] [--lang de]

Uses the dummy video driver unless a display is set up; the table pictures
come from hand-made server messages (``tests.demo``) fed through the model,
and the tables found from ``tests.demo.DemoFinder`` (nothing is announced or
browsed: ``STUD_MDNS=off``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def lobby_messages() -> list[dict]:
    """Ann hosts 4 hands; Cy and Eve have joined, and a computer seat fills one more."""
    seats = [
        {"seat": 0, "name": "Ann", "kind": "human", "connected": True, "host": True},
        {"seat": 1, "name": "Cy", "kind": "human", "connected": True, "host": False},
        {"seat": 2, "name": "Eve", "kind": "human", "connected": True, "host": False},
        {"seat": 6, "name": "Ada", "kind": "computer", "connected": True, "host": False},
    ]
    return [
        {"type": "welcome", "seat": 0, "token": "t", "name": "Ann", "host": True,
         "watch": False, "hands": 4, "protocol": 1},
        {"type": "lobby", "seats": seats, "host": 0, "hands": 4, "can_start": True,
         "start_when": None, "running": False, "max_seats": 7},
        {"type": "chat", "seat": 1, "name": "Cy", "text": "in! deal me in"},
    ]  # fmt: skip


class Hosted:
    """What the lobby reads of our own server (``client.app.App.server``) on a home network."""

    port = 7777
    every_interface = True

    def join_addresses(self) -> list[str]:
        return ["192.168.1.20", "fd00::2"]

    def stop(self, timeout: float = 5.0, *, reason: str = "") -> None:
        pass


def hosting_moments(app: Any, shot: Callable[[str], None]) -> None:
    """Issue 9's pictures: a refused address, "leave?" mid-hand, the host's lobby with a
    password, the rules over it and the host's "close your table?"."""
    from client.model import Session
    from tests import demo
    from tests.clientkit import feed

    app.local.handle, app.local.kind = None, ""
    app.leave_table(notice="", send_leave=False)
    start = app.top()
    start.address.value = "127.0.0.1:99999"  # a port that is not one, said next to the box
    start.update(0.0)
    start.choose("join")
    shot("start-bad-address.png")
    start.address.value, start.port.value = "", "7777"
    start.errors.clear()

    app.link.session = Session("Ann")
    feed(app, demo.mid_hand())
    for scene in app.scenes:
        scene.resize(app.screen.get_size())
    app.top().motion.anims.clear()
    app.ask_leave()  # a seat in a match being played: asked first
    shot("leave.png")
    app.modal = None

    app.link.session = None
    app.local.handle, app.local.kind, app.link.password = Hosted(), "host", "swordfish"
    app.link.session = Session("Ann")
    feed(app, lobby_messages())
    shot("lobby-password.png")
    app.show_rules()
    shot("rules.png")
    app.modal = None
    app.ask_leave()  # the host: leaving closes the table for everyone
    shot("close-table.png")
    app.modal = None
    app.link.session, app.local.handle, app.local.kind = None, None, ""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--four-color", action="store_true")
    ap.add_argument("--lang", default="en", help="the game's language: en, de, fr, es (qps)")
    args = ap.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["STUD_MDNS"] = "off"  # pictures only: nothing goes on the network
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()  # default settings, nothing saved
    import pygame

    from client import i18n
    from client.app import App
    from client.model import Session
    from client.settings import Settings
    from tests import demo
    from tests.clientkit import feed

    w, h = (int(v) for v in args.size.split("x"))
    settings = Settings(name="Ann", recent=["192.168.1.20:7777", "tablehost:7788"])
    settings.four_color = args.four_color
    settings.language = i18n.set_language(args.lang)
    app = App(settings, size=(w, h), save_settings=False)
    app.init_display()
    args.out.mkdir(parents=True, exist_ok=True)

    def shot(name: str) -> None:
        app.draw()
        pygame.image.save(app.screen, str(args.out / name))
        print("wrote", args.out / name)

    app.finder = demo.DemoFinder(found=False)  # looking, nothing found yet
    app.scenes[0].enter()
    app.scenes[0].update(0)
    shot("start.png")
    app.finder = demo.DemoFinder()  # two tables "found on the network"
    app.scenes[0].update(0)
    shot("join.png")

    def table(msgs: list[dict], *, settle: float = 0.0) -> None:
        """Feed ``msgs`` to a fresh session; ``settle``: let that many seconds of animation
        play out (bets swept, the pot paid), else show the table with nothing in flight."""
        app.link.session = Session("Ann")
        feed(app, msgs)
        for scene in app.scenes:
            scene.resize(app.screen.get_size())
            if scene.name == "table" and not settle:
                scene.motion.anims.clear()
        for _ in range(round(settle * 60)):
            for scene in app.scenes:
                scene.update(1 / 60)

    moments = (
        ("table.png", demo.mid_hand()),
        ("showdown.png", demo.showdown()),
        ("away.png", demo.away_and_clock()),  # R-C2..R-C4: bank, away seats, host controls
        ("paused.png", demo.paused()),
        ("you-away.png", demo.you_are_away()),
        ("host-lobby.png", demo.host_lobby()),
    )
    for name, msgs in moments:
        table(msgs)
        shot(name)
    # Issue 19: the coach on third street, the pointer on the raise button.
    app.settings.coach = True
    table(demo.coached("1:bring_in 2:complete"))
    for button in app.top().bar.buttons:
        button.hover = button.id == "raise"
    shot("coach.png")
    # And on fourth street: who opens and why (R-O2), the raise's price under the pointer.
    table(demo.coached("1:bring_in 2:complete 0:call 1:call 0:bet 1:call 2:raise"))
    for button in app.top().bar.buttons:
        button.hover = button.id == "raise"
    shot("coach-later.png")
    app.settings.coach = False
    _odds(app, shot, table)
    # Issue 16: the host asked for a lost seat back, and a table whose link is lost.
    from client.net import Status

    table(demo.away_and_clock())
    feed(app, [{"type": "seat_asked", "seat": 2, "name": "Eve", "open": True}])
    shot("seat-asked.png")
    table(demo.mid_hand())
    app.link.status = Status("retrying", "connection lost", 3, until=app.now() + 107.5)
    for scene in app.scenes:
        scene.resize(app.screen.get_size())
    shot("lost-table.png")
    app.link.status = Status("idle")
    # The lobby between matches on a friends' night, as the host sees it.
    from types import SimpleNamespace

    app.link.session = Session("Ann")
    app.local.kind = "host"
    app.local.handle = SimpleNamespace(  # type: ignore[assignment]
        port=7777, stop=lambda: None, server=SimpleNamespace(announcer=1)
    )
    feed(app, demo.night_lobby())
    # Issue 18: the table's key as our link met it, large for the host to read out.
    from client.net import TableKey

    key = TableKey("3f9a" * 16, "Friday", "192.168.1.20", 7777)
    app.link.conn = SimpleNamespace(key=key, host="192.168.1.20", port=7777)  # type: ignore
    app.top().addresses = ["192.168.1.20"]
    app.top().update(0)
    shot("lobby.png")
    app.link.conn = None
    app.local.handle = None
    # Issue 18: a table we know showing another key, refused until trusted.
    from client import keywarn
    from client.link import KeyProblem
    from client.pins import Pin
    from common.seal import short_key

    new_key = "b7c4" * 16
    pin = Pin("Hana's table", "192.168.1.31", 7777, new_key)
    join = dict(host="192.168.1.31", port=7777, password="", watch=False, remember="",
                key="", announced="", table="Hana's table")  # fmt: skip
    keywarn.show(app, KeyProblem("changed", "Hana's table", (short_key("3f9a" * 16),),
                                 short_key(new_key), pin, join))  # fmt: skip
    shot("key-changed.png")
    app.modal = None
    # A hand's end: the last bets swept into the pot, the pot paid in front of the
    # winner (off the name plates) and the winner line naming the hand.
    table(demo.river_end(), settle=4.0)
    shot("hand-end.png")
    # The match's last showdown, left on the table before the standings.
    table(demo.final_showdown(), settle=4.0)
    shot("final-showdown.png")
    # Then the standings: the match's results over the table.
    table([*demo.final_showdown(), demo.standings()], settle=4.0)
    shot("results.png")
    app.link.session = None
    _replays(app, shot)
    _analysis(app, shot)
    hosting_moments(app, shot)
    # The smallest window the game allows.
    if not app.offscreen:
        app.screen = pygame.display.set_mode((800, 500), pygame.RESIZABLE)
    table(demo.mid_hand())
    shot("table-800x500.png")
    app.link.session = None
    pygame.quit()
    return 0


def _odds(app: Any, shot: Callable[[str], None], table: Callable[..., None]) -> None:
    """Issue 19: the odds on request facing a bet (call 20 to win 246), mid-hand, with
    the cards-seen panel open, at a friends' table whose host allows them."""
    from tests import demo

    msgs = demo.mid_hand()
    table([*msgs[:2], demo._lobby(True, odds=True), *msgs[2:]])
    scene = app.top()
    box = scene.panel.odds
    box.on = True
    box.follow(app.session, allowed=scene.odds_allowed())
    scene.resize(app.screen.get_size())
    while box.running():
        scene.spare(1.0)
    shot("odds.png")
    box.on = False
    box.follow(app.session, allowed=False)
    scene.resize(app.screen.get_size())


def _replays(app, shot) -> None:
    """The replayer, the recap and the opened books, over a seeded match of the bots."""
    from client.analysing import analysis_for
    from client.scenes.recap import RecapScene
    from client.scenes.replayer import ReplayerScene
    from common.replay import seen_record
    from scripts.demo_hands import demo_match

    records = demo_match()
    ann = 0
    mine = [seen_record(r, ann) for r in records]
    for hands in (mine, records):  # the analysis done, as the window ends up with it
        analysis_for(hands, ann).job.run()
    # The replayer on a showdown, as Ann's seat saw the hand.
    k = next(i for i, r in enumerate(records) if r["hand"] == 3)
    rep = ReplayerScene(app, mine, viewer=ann, start=k)
    rep.goto(k, -1)
    app.push(rep)
    shot("replayer.png")
    app.pop(rep)
    recap = RecapScene(app, mine, viewer=ann)
    app.push(recap)
    shot("recap.png")
    app.pop(recap)
    # Opened books: the same match with every hole card, folded hands too, mid-hand.
    k = next(i for i, r in enumerate(records) if r["hand"] == 1)
    books = ReplayerScene(app, records, viewer=ann, start=k)
    stops = books.stops
    books.goto(k, next(i for i, p in enumerate(stops) if p.street == 5))
    app.push(books)
    shot("books.png")
    app.pop(books)


def _analysis(app, shot) -> None:
    """Issue 19's analysis after the match: a seeded match with every hole card (the
    computer table's books), Ann playing as a newcomer.  The replayer at her fold of
    three sevens on fifth street, with every seat's chance at that street's deal; then
    the recap's decisions worth a look."""
    from client.analysing import analysis_for
    from client.scenes.recap import RecapScene
    from client.scenes.replayer import ReplayerScene
    from scripts.demo_hands import demo_match

    records = demo_match(8, learner=0)
    analysis_for(records, 0).job.run()  # the whole analysis, as the window ends up with it
    rep = ReplayerScene(app, records, viewer=0)
    mark = next(m for m in rep.analysing.job.marks() if m.hand == 7)
    rep.goto_event(next(i for i, r in enumerate(records) if r["hand"] == 7), mark.event)
    app.push(rep)
    shot("analysis.png")
    app.pop(rep)
    recap = RecapScene(app, records, viewer=0)
    recap.update(0.0)
    app.push(recap)
    shot("recap-analysis.png")
    app.pop(recap)


if __name__ == "__main__":
    sys.exit(main())
