"""Write the README's screenshots: the start screen, a seven-seat table mid-hand, a showdown.

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
    ap.add_argument("--lobby", action="store_true", help="also the host's lobby (lobby.png)")
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
    shots = [("table.png", demo.mid_hand()), ("showdown.png", demo.showdown())]
    if args.lobby:
        shots.append(("lobby.png", demo.lobby()))
    for name, msgs in shots:
        app.session = Session("Ann")
        for m in msgs:
            app.on_message(m)
        for scene in app.scenes:
            scene.resize(app.screen.get_size())
            if hasattr(scene, "anims"):
                scene.anims.clear()
        shot(name)
    app.session = None
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
