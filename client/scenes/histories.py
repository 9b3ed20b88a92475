"""The hand histories on this machine, newest first, each a click from its replay (every
hole card shown) or its recap.  A file that is not a plain file, is too large or holds no
good hand is left out (``server.files``, ``common.history.load``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from client.host import Host
from client.i18n import gettext as _
from client.i18n import ngettext
from client.render.text import blit_text, fit
from client.render.widgets import GOLD, INK, MUTED, Button, panel
from client.scenes.base import Scene
from common.history import clean_record, load
from server import folders
from server.files import read_bytes

__all__ = ["HistoriesScene", "MatchFile", "history_dir", "list_matches"]

log = logging.getLogger("client.histories")
MAX_FILES = 200
MAX_BYTES = 16 * 1024 * 1024  # a 12-hand match is ~60 KB; anything this big is not ours


def history_dir(host: Host) -> Path:
    """The histories the table this game starts writes (``server.folders``, or where a
    test or the command line put them)."""
    return Path(host.server_overrides.get("history_dir") or folders.history_dir())


@dataclass(frozen=True, slots=True)
class MatchFile:
    path: Path
    records: tuple[dict[str, Any], ...]

    @property
    def names(self) -> list[str]:
        seen: dict[int, str] = {}
        for r in self.records:
            for s in r["seats"]:
                seen.setdefault(s["seat"], s["name"])
        return [seen[s] for s in sorted(seen)]


def list_matches(folder: Path) -> list[MatchFile]:
    """The match files in ``folder`` that hold at least one good hand, newest first."""
    out: list[MatchFile] = []
    try:
        files = sorted(folder.glob("*.jsonl"), key=lambda p: p.name, reverse=True)[:MAX_FILES]
    except OSError:
        return out
    for path in files:
        try:
            data = read_bytes(path, limit=MAX_BYTES)  # never waits on a pipe
        except (OSError, ValueError):  # server.files.Unreadable
            continue
        if data is None:
            continue
        text = data.decode("utf-8", errors="replace")
        records = []
        for raw in load(text):
            try:
                records.append(clean_record(raw))
            except ValueError:
                continue
        if records:
            out.append(MatchFile(path, tuple(records)))
    return out


class HistoriesScene(Scene):
    name = "histories"

    def __init__(self, host: Host, folder: Path | None = None) -> None:
        super().__init__(host)
        self.folder = folder or history_dir(host)
        self.matches = list_matches(self.folder)
        self.first = 0
        self.rows: list[tuple[int, pygame.Rect, Button, Button]] = []
        self.close = Button("close", _("Back"), _("Esc"), style="danger")

    def buttons(self) -> list[Button]:
        return [b for _k, _r, r, c in self.rows for b in (r, c)] + [self.close]

    def resize(self, size: tuple[int, int]) -> None:
        w, h = size
        self.scale_to(size)
        px = self.px
        self.close.rect = pygame.Rect(w - px(220), h - px(76), px(180), px(54))
        self.close.size = self.font(24)
        top, row = px(130), px(58)
        room = max(1, (h - px(100) - top) // row)
        self.first = max(0, min(self.first, len(self.matches) - room))
        self.rows = []
        for k in range(self.first, min(len(self.matches), self.first + room)):
            r = pygame.Rect(px(60), top + (k - self.first) * row, w - px(120), row - px(8))
            replay = Button(f"replay:{k}", _("Replay"), style="primary", size=self.font(22))
            recap = Button(f"recap:{k}", _("Recap"), size=self.font(22))
            replay.rect = pygame.Rect(r.right - px(290), r.y + px(6), px(140), r.h - px(12))
            recap.rect = pygame.Rect(r.right - px(140), r.y + px(6), px(130), r.h - px(12))
            self.rows.append((k, r, replay, recap))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.choose("close")
            return
        if event.type == pygame.MOUSEWHEEL:
            self.first = max(0, self.first - event.y)
            self.resize(self.host.window_size)
            return
        for b in self.buttons():
            if b.handle_event(event):
                self.choose(b.id)
                return

    def _viewer(self, m: MatchFile) -> int | None:
        """Our seat in that match, found by name, so the replay puts us at the bottom."""
        me = self.host.settings.name
        for s in m.records[0]["seats"]:
            if s["name"] == me:
                return int(s["seat"])
        return None

    def choose(self, what: str) -> None:
        if what == "close":
            self.host.pop(self)
            return
        kind, _sep, k = what.partition(":")
        m = self.matches[int(k)]
        records = list(m.records)
        if kind == "replay":
            self.host.open("replayer", records=records, viewer=self._viewer(m), title=m.path.name)
        elif kind == "recap":
            self.host.open("recap", records=records, viewer=self._viewer(m))

    def draw(self, surf: pygame.Surface) -> None:
        px, f = self.px, self.font
        surf.fill((14, 40, 30))
        at = (px(60), px(56))
        blit_text(surf, _("Hand histories"), f(44), at, GOLD, bold=True, anchor="midleft")
        folder = fit(str(self.folder), f(20, 12), surf.get_width() - px(120))
        blit_text(surf, folder, f(20, 12), (px(60), px(96)), MUTED, anchor="midleft")
        if not self.matches:
            empty = _("No hand histories yet: every match played or hosted here is written here.")
            blit_text(surf, empty, f(24), (px(60), px(160)), INK)
        for k, r, replay, recap in self.rows:
            m = self.matches[k]
            panel(surf, r, (8, 22, 18, 220), px(10))
            pygame.draw.rect(surf, (70, 110, 90), r, 1, border_radius=px(10))
            n = len(m.records)
            title = ngettext("{match}  ·  {n} hand", "{match}  ·  {n} hands", n).format(
                match=m.path.stem, n=n
            )
            blit_text(surf, title, f(24), (r.x + px(16), r.y + px(8)), INK, bold=True)
            who = fit(", ".join(m.names), f(19, 12), replay.rect.x - r.x - px(30))
            blit_text(surf, who, f(19, 12), (r.x + px(16), r.y + px(32)), MUTED)
            replay.draw(surf)
            recap.draw(surf)
        self.close.draw(surf)
