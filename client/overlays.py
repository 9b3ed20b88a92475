"""Windows over every scene: the house rules (F1, a "Rules" button) and "are you sure?".

The app holds at most one (``App.modal``): it gets every event and is drawn over the
scenes, whose game goes on underneath.  ``RulesOverlay`` shows ``docs/rules.md``, or its
translation ``client/assets/rules.<language>.md`` in the game's language, laid out from a
small part of Markdown (``#``, ``##``, paragraphs and ``- **R-XX** ...`` items), and
scrolls.  ``ConfirmDialog`` asks one question: Enter (or Y) does it, Esc (or N) does not;
its words follow the game, its box fitting them again at the next ``update``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import pygame

from client.host import Host
from client.i18n import PSEUDO, language, pseudo
from client.i18n import gettext as _
from client.keys import lines
from client.render.layout import scale
from client.render.text import blit_text, font, text, wrap
from client.render.widgets import GOLD, INK, MUTED, Button, panel

__all__ = ["ConfirmDialog", "Overlay", "RulesOverlay", "load_rules", "packaged_rules", "rules_path",
           "scale", "shade"]  # fmt: skip


class Overlay:
    """One modal window (a ``client.host.Modal``); ``close()`` asks the app to take it away."""

    keep_off_table = True  # stays open when the table goes; a question about it does not
    kind = ""

    def __init__(self, host: Host) -> None:
        self.host = host

    def close(self) -> None:
        if self.host.modal is self:
            self.host.modal = None
            self.host.dirty = True

    def update(self, dt: float) -> None:
        pass


def shade(surf: pygame.Surface, alpha: int = 150) -> None:
    veil = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, alpha))
    surf.blit(veil, (0, 0))


# ------------------------------------------------------------------ the rules


_SOURCE_RULES = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def packaged_rules() -> Traversable:
    """The copy of ``docs/rules.md`` an installed game reads (package data)."""
    return resources.files("client").joinpath("assets", "rules.md")


def rules_path(lang: str | None = None) -> Path | Traversable:
    """The rules in ``lang`` (by default the game's language): ``client/assets/rules.de.md``
    and so on.  English, and a language without its own file: ``docs/rules.md`` when the
    game runs from its source folder, else the package's copy."""
    lang = language() if lang is None else lang
    own = resources.files("client").joinpath("assets", f"rules.{lang}.md")
    if lang != "en" and own.is_file():
        return own
    return _SOURCE_RULES if _SOURCE_RULES.is_file() else packaged_rules()


@dataclass(frozen=True, slots=True)
class Block:
    kind: str  # "title", "heading", "para", "item"
    text: str
    rid: str = ""  # the rule id of an item ("R-B6")


_HEADS = {"# ": "title", "## ": "heading", "- ": "item"}
_INLINE = re.compile(r"\*\*|`|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)")


def _plain(s: str) -> str:
    """Markdown emphasis and code marks taken out: the words as a player reads them."""
    return _INLINE.sub("", s).strip()


def load_rules(path: Path | Traversable | None = None) -> list[Block]:
    """The rules as blocks, in order.  A missing file gives a block saying where it should be."""
    path = path or rules_path()
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        return [
            Block("title", _("The house rules")),
            Block("para", _("The rules file is missing: {path}").format(path=path)),
        ]
    parts: list[list[str]] = []  # [kind, text] of each block
    open_block = False  # the last block takes the next line of text
    for raw in source.splitlines():
        line = raw.strip()
        head = next((h for h in _HEADS if raw.startswith(h)), None)
        if head is not None:
            parts.append([_HEADS[head], raw[len(head) :].strip()])
        elif line and open_block:
            parts[-1][1] += " " + line
        elif line:
            parts.append(["para", line])
        open_block = bool(line) and _HEADS.get(head or "") not in ("title", "heading")
    blocks = []
    for kind, joined in parts:
        rule = re.match(r"\*\*(R-[A-Z]\d+)\*\*\s*(.*)", joined) if kind == "item" else None
        rid, words = (rule.group(1), rule.group(2)) if rule else ("", joined)
        blocks.append(Block(kind, _plain(words), rid))
    if language() == PSEUDO and path == rules_path("en"):  # the layout checks' language
        blocks = [Block(b.kind, _pseudo_words(b.text), b.rid) for b in blocks]
    return blocks


def _pseudo_words(s: str) -> str:
    """``s`` in the pseudo-language four words at a time, so that it still wraps."""
    words = s.split(" ")
    return " ".join(pseudo(" ".join(words[i : i + 4])) for i in range(0, len(words), 4))


Line = tuple[str, int, tuple[int, int, int], bool, int, int]  # text, size, colour, bold, x, y


class RulesOverlay(Overlay):
    """The house rules in a scrolled panel."""

    def __init__(self, host: Host, *, at: str | None = None) -> None:
        super().__init__(host)
        rules = load_rules()  # the keys (client.keys) under the title, the rules after them
        heading = [Block("heading", _("Keys"))]
        # Translators: one line of the key help: the key, then what it does ("F: Fold").
        keys = [
            Block("item", _("{key}: {meaning}").format(key=k, meaning=say)) for k, say in lines()
        ]
        self.blocks = rules[:1] + heading + keys + rules[1:]
        self.close_button = Button("close", _("Close"), _("Esc"), style="primary")
        self.box = pygame.Rect(0, 0, 10, 10)
        self.view = pygame.Rect(0, 0, 10, 10)  # the scrolled text area
        self.lines: list[Line] = []
        self.height = 0  # of all the laid-out text
        self.offset = 0  # pixels scrolled
        self.body = 22
        self.anchors: dict[str, int] = {}  # a rule id's line, in pixels from the top
        self.at = at
        self.resize(host.window_size)
        if at is not None:
            self.go_to(at)

    def go_to(self, rule: str) -> bool:
        """Scroll to rule ``rule`` (``"R-A2"``): its line at the top.  False if unknown."""
        if rule not in self.anchors:
            return False
        self.at = rule
        self.offset = min(max(0, self.anchors[rule]), self.max_offset)
        self.host.dirty = True
        return True

    def buttons(self) -> list[Button]:
        return [self.close_button]

    @property
    def max_offset(self) -> int:
        return max(0, self.height - self.view.h)

    def resize(self, size: tuple[int, int]) -> None:
        w, h = size
        s = scale(size)
        # Legible first: the body never goes under 18 px, the line under ~95 characters.
        self.body = max(18, round(25 * s))
        margin = max(8, round(24 * s))
        bw = min(w - 2 * margin, self.body * 40)
        self.box = pygame.Rect(0, 0, bw, h - 2 * margin)
        self.box.center = (w // 2, h // 2)
        pad = max(10, round(24 * s))
        bh = max(36, round(self.body * 2.0))
        self.close_button.rect = pygame.Rect(0, 0, max(120, self.body * 6), bh)
        self.close_button.rect.bottomright = (self.box.right - pad, self.box.bottom - pad // 2)
        self.close_button.size = self.body
        self.view = pygame.Rect(
            self.box.x + pad,
            self.box.y + pad // 2,
            self.box.w - 2 * pad - 14,
            self.close_button.rect.top - pad // 2 - (self.box.y + pad // 2),
        )
        old = self.height
        self._layout()
        if old:
            self.offset = round(self.offset * self.height / old)
        self.offset = min(max(0, self.offset), self.max_offset)

    def _layout(self) -> None:
        body = self.body
        lines: list[Line] = []
        y = 0
        width = self.view.w
        id_w = font(body, bold=True).size("R-B9")[0] + body
        anchors: dict[str, int] = {}
        for block in self.blocks:
            if block.kind in ("title", "heading"):
                title = block.kind == "title"
                size = round(body * (1.7 if title else 1.3))
                y += 0 if title else body // 2
                for part in wrap(block.text, size, width):
                    lines.append((part, size, GOLD, True, 0, y))
                    y += round(size * 1.05)
                y += body // 2 if title else body // 4
            else:  # an item, its rule id or a bullet in the margin, or a paragraph
                item = block.kind == "item"
                indent = (id_w if block.rid else body) if item else 0
                if block.rid:
                    anchors[block.rid] = y
                    lines.append((block.rid, body, GOLD, True, 0, y))
                elif item:
                    lines.append(("•", body, GOLD, True, body // 3, y))
                for part in wrap(block.text, body, width - indent):
                    lines.append((part, body, INK, False, indent, y))
                    y += round(body * 1.15)
                y += body // 3 if item else body // 2
        self.lines = lines
        self.height = y
        self.anchors = anchors

    def scroll(self, pixels: int) -> None:
        self.offset = min(max(0, self.offset + pixels), self.max_offset)
        self.host.dirty = True

    def handle_event(self, event: pygame.event.Event) -> None:
        step = round(self.body * 1.15)
        if event.type == pygame.MOUSEWHEEL:
            self.scroll(-event.y * 3 * step)
        elif event.type == pygame.KEYDOWN:
            page = max(step, self.view.h - 2 * step)
            moves = {pygame.K_UP: -step, pygame.K_DOWN: step, pygame.K_PAGEUP: -page,
                     pygame.K_PAGEDOWN: page, pygame.K_SPACE: page, pygame.K_HOME: -self.height,
                     pygame.K_END: self.height}  # fmt: skip
            if event.key in moves:
                self.scroll(moves[event.key])
            elif event.key in (pygame.K_ESCAPE, pygame.K_F1, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.close()
        elif self.close_button.handle_event(event):
            self.close()

    def visible(self) -> list[Line]:
        """The lines on screen now (wholly inside the text area)."""
        top, bottom = self.offset, self.offset + self.view.h
        return [ln for ln in self.lines if ln[5] >= top and ln[5] + ln[1] <= bottom]

    def draw(self, surf: pygame.Surface) -> None:
        shade(surf)
        radius = max(8, self.body // 2)
        panel(surf, self.box, (10, 26, 21, 255), radius)
        pygame.draw.rect(surf, GOLD, self.box, 2, border_radius=radius)
        clip = surf.get_clip()
        surf.set_clip(self.view)
        top = self.offset
        for s, size, color, bold, dx, dy in self.lines:
            y = self.view.y + dy - top
            if y + size < self.view.y or y > self.view.bottom:
                continue
            surf.blit(text(s, size, color, bold=bold), (self.view.x + dx, y))
        surf.set_clip(clip)
        if self.max_offset:  # the scroll bar
            track = pygame.Rect(self.view.right + 6, self.view.y, 8, self.view.h)
            pygame.draw.rect(surf, (40, 60, 52), track, border_radius=4)
            th = max(24, track.h * self.view.h // max(1, self.height))
            ty = track.y + (track.h - th) * self.offset // self.max_offset
            pygame.draw.rect(surf, GOLD, (track.x, ty, track.w, th), border_radius=4)
        hint_at = (self.view.x, self.close_button.rect.centery)
        hint = _("scroll: wheel, arrows, Page Up/Down")
        blit_text(surf, hint, max(14, self.body - 4), hint_at, MUTED, anchor="midleft")
        self.close_button.draw(surf)


# ------------------------------------------------------------------ are you sure?


class ConfirmDialog(Overlay):
    """A question with a yes (Enter/Y) and a no (Esc/N); ``on_yes`` runs on yes."""

    keep_off_table = False

    def __init__(
        self,
        host: Host,
        *,
        title: str,
        body: Callable[[], str],
        yes: str,
        on_yes: Callable[[], None],
        no: str = "",
        kind: str = "",
    ) -> None:
        super().__init__(host)
        self.kind = kind
        self.title = title
        self.body = body
        self.on_yes = on_yes
        self.yes = Button("yes", yes, _("Enter"), style="danger")
        self.no = Button("no", no or _("Stay"), _("Esc"), style="primary")
        self.resize(host.window_size)

    def buttons(self) -> list[Button]:
        return [self.yes, self.no]

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        w, h = size
        s = scale(size)
        self.pad, self.radius = max(14, round(30 * s)), max(18, round(16 * s))
        self.title_size, self.body_size = max(18, round(36 * s)), max(18, round(25 * s))
        pad = self.pad
        bw, btn_h = min(w - 20, max(420, round(720 * s))), max(40, round(60 * s))
        self._words = self.body()
        lines = len(wrap(self._words, self.body_size, bw - 2 * pad))
        words_h = round(self.title_size * 1.4) + lines * round(self.body_size * 1.2)
        self.box = pygame.Rect(0, 0, bw, min(h - 20, words_h + btn_h + 3 * pad))
        self.box.center = (w // 2, h // 2)
        btn_w, btn_y = (bw - 3 * pad) // 2, self.box.bottom - pad - btn_h
        self.yes.rect = pygame.Rect(self.box.x + pad, btn_y, btn_w, btn_h)
        self.no.rect = pygame.Rect(self.box.right - pad - btn_w, btn_y, btn_w, btn_h)
        for b in (self.yes, self.no):
            b.size = max(18, round(26 * s))

    def answer(self, yes: bool) -> None:
        self.close()
        if yes:
            self.on_yes()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y):
                self.answer(True)
            elif event.key in (pygame.K_ESCAPE, pygame.K_n):
                self.answer(False)
            return
        if self.yes.handle_event(event):
            self.answer(True)
        elif self.no.handle_event(event):
            self.answer(False)

    def update(self, dt: float) -> None:
        if self.body() != self._words:  # the game went on: fit the box to the new words
            self.resize(self.size)

    def draw(self, surf: pygame.Surface) -> None:
        shade(surf)
        box, pad, size = self.box, self.pad, self.body_size
        panel(surf, box, (12, 28, 23, 250), self.radius)
        pygame.draw.rect(surf, GOLD, box, 3, border_radius=self.radius)
        blit_text(surf, self.title, self.title_size, (box.x + pad, box.y + pad), GOLD, bold=True)
        y = box.y + pad + round(self.title_size * 1.4)
        for line in wrap(self.body(), size, box.w - 2 * pad):
            if y + size > self.yes.rect.top - pad // 2:
                break
            blit_text(surf, line, size, (box.x + pad, y), INK)
            y += round(size * 1.2)
        self.yes.draw(surf)
        self.no.draw(surf)
