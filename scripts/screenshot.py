"""Write the README's screenshots: the start screen, a seven-seat table mid-hand (with the
cards-seen panel), a showdown, the replayer on a showdown, the recap, opened books, the turn
clock's bank with away seats and the host's controls, a paused table, our own seat away, and
the host's lobby.

    .venv/bin/python scripts/screenshot.py [--out docs/screenshots] [--size 1280x800]

Uses the dummy video driver unless a display is set up; the table pictures
come from hand-made server messages (``client.demo``) fed through the model.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--four-color", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()  # default settings, nothing saved
    import pygame

    from client import demo
    from client.app import App
    from client.model import Session
    from client.settings import Settings

    w, h = (int(v) for v in args.size.split("x"))
    settings = Settings(name="Ann", recent=["192.168.1.20", "tablehost:7788"])
    settings.four_color = args.four_color
    app = App(settings, size=(w, h), save_settings=False)
    app.init_display()
    args.out.mkdir(parents=True, exist_ok=True)

    def shot(name: str) -> None:
        app.draw()
        pygame.image.save(app.screen, str(args.out / name))
        print("wrote", args.out / name)

    shot("start.png")
    moments = (
        ("table.png", demo.mid_hand()),
        ("showdown.png", demo.showdown()),
        ("away.png", demo.away_and_clock()),  # R-C2..R-C4: bank, away seats, host controls
        ("paused.png", demo.paused()),
        ("you-away.png", demo.you_are_away()),
        ("host-lobby.png", demo.host_lobby()),
    )
    for name, msgs in moments:
        app.session = Session("Ann")
        for m in msgs:
            app.on_message(m)
        for scene in app.scenes:
            scene.resize(app.screen.get_size())
            if hasattr(scene, "anims"):
                scene.anims.clear()
        shot(name)
    app.session = None
    _replays(app, shot)
    pygame.quit()
    return 0


def _replays(app, shot) -> None:
    """The replayer, the recap and the opened books, over a seeded match of the bots."""
    from client.demo_hands import demo_match
    from client.scenes.recap import RecapScene
    from client.scenes.replayer import ReplayerScene
    from common.replay import seen_record

    records = demo_match()
    ann = 0
    mine = [seen_record(r, ann) for r in records]
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


if __name__ == "__main__":
    sys.exit(main())
