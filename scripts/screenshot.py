"""Write the README's screenshots: the start screen, the Join panel listing two tables found
on the network, a seven-seat table mid-hand, a showdown, the lobby with the night's scoreboard.

    .venv/bin/python scripts/screenshot.py [--out docs/screenshots] [--size 1280x800]

Uses the dummy video driver unless a display is set up; the table pictures
come from hand-made server messages (``client.demo``) fed through the model,
and the tables found from ``client.demo.DemoFinder`` (nothing is announced or
browsed: ``STUD_MDNS=off``).
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
    os.environ["STUD_MDNS"] = "off"  # pictures only: nothing goes on the network
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

    app.finder = demo.DemoFinder(found=False)  # looking, nothing found yet
    app.scenes[0].enter()
    app.scenes[0].update(0)
    shot("start.png")
    app.finder = demo.DemoFinder()  # two tables "found on the network"
    app.scenes[0].update(0)
    shot("join.png")
    for name, msgs in (("table.png", demo.mid_hand()), ("showdown.png", demo.showdown())):
        app.session = Session("Ann")
        for m in msgs:
            app.on_message(m)
        for scene in app.scenes:
            scene.resize(app.screen.get_size())
            if hasattr(scene, "anims"):
                scene.anims.clear()
        shot(name)
    # The lobby between matches on a friends' night, as the host sees it.
    from types import SimpleNamespace

    app.session = Session("Ann")
    app.server_kind = "host"
    app.server = SimpleNamespace(port=7777, stop=lambda: None, server=SimpleNamespace(announcer=1))
    for m in demo.night_lobby():
        app.on_message(m)
    app.top().addresses = ["192.168.1.20"]
    app.top().update(0)
    shot("lobby.png")
    app.server = None
    app.session = None
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
