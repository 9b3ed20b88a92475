"""Buttons, text boxes, choice rows and checkboxes.  A widget holds its rect (set by the
scene's layout) and state; ``handle_event`` returns True when it used the event."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from client.render.text import blit_text, fit, font, text
from common.version import __version__

__all__ = ["Button", "Checkbox", "Choice", "TextInput", "button_width", "panel", "version_mark"]

GOLD = (236, 196, 92)
INK = (245, 245, 238)
MUTED = (170, 180, 175)
PASSED_ON = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB, pygame.K_ESCAPE)  # to the scene
BUTTON_COLORS = {"primary": (46, 128, 74), "danger": (150, 52, 48), "normal": (52, 66, 78)}


def panel(
    surf: pygame.Surface, rect: pygame.Rect, color=(16, 28, 24, 215), radius: int = 12
) -> None:
    """A rounded box of ``color`` (translucent where its alpha says) over what is there."""
    surf.blit(_fill(tuple(rect.size), tuple(color), radius), rect.topleft)


def version_mark(surf: pygame.Surface, size: int) -> pygame.Rect:
    """The game's version, small and dim in the window's bottom right corner (the start
    screen and every lobby show it: friends compare it when they cannot join)."""
    w, h = surf.get_size()
    at = (w - size // 2, h - size // 4)
    words = f"Seventh Street {__version__}"
    return blit_text(surf, words, size, at, (115, 145, 130), anchor="bottomright")


@functools.lru_cache(maxsize=256)
def _fill(size: tuple[int, int], color: tuple[int, ...], radius: int) -> pygame.Surface:
    tmp = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(tmp, color, tmp.get_rect(), border_radius=radius)
    return tmp


@dataclass
class Button:
    id: str
    label: str
    key: str = ""  # shortcut letter shown on the button
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    enabled: bool = True
    style: str = "normal"  # normal, primary, danger
    hover: bool = False
    size: int = 26
    _picture: tuple[tuple[object, ...], pygame.Surface] | None = field(
        default=None, repr=False, compare=False
    )
    """The button as last drawn, and what it showed: drawn again from it while it looks
    the same (a table frame holds a dozen buttons)."""

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.rect.collidepoint(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self.hit(event.pos)
        return False

    def shown(self) -> tuple[str, int]:
        """The label as drawn and its size: shrunk to fit beside the key (14 px at least),
        then cut with an ellipsis if it still does not."""
        size, w = self.size, self.rect.w

        def key_w(at: int) -> int:
            return font(int(at * 0.8), bold=True).size(self.key)[0] + at // 2 if self.key else 0

        while size > 14 and font(size, bold=True).size(self.label)[0] + key_w(size) + 16 > w:
            size -= 1
        return fit(self.label, size, w - key_w(size) - 12, bold=True), size

    def draw(self, surf: pygame.Surface) -> None:
        look = (self.label, self.key, self.style, self.enabled, self.hover, self.size,
                self.rect.size)  # fmt: skip
        if self._picture is None or self._picture[0] != look:
            picture = pygame.Surface((self.rect.w, self.rect.h + 3), pygame.SRCALPHA)
            self._paint(picture, pygame.Rect((0, 0), self.rect.size))
            self._picture = (look, picture)
        surf.blit(self._picture[1], self.rect.topleft)

    def _paint(self, surf: pygame.Surface, r: pygame.Rect) -> None:
        base = BUTTON_COLORS[self.style]
        if not self.enabled:
            base = (60, 62, 64)
        elif self.hover:
            base = tuple(min(255, c + 28) for c in base)
        pygame.draw.rect(surf, (0, 0, 0), r.move(0, 3), border_radius=10)
        pygame.draw.rect(surf, base, r, border_radius=10)
        edge = (255, 255, 255) if self.hover else (120, 130, 130)
        pygame.draw.rect(surf, edge, r, 2, border_radius=10)
        color = INK if self.enabled else MUTED
        label, size = self.shown()
        key_w = 0
        if self.key:
            kimg = text(self.key, int(size * 0.8), (20, 20, 20), bold=True)
            key_w = kimg.get_width() + size // 2
        img = text(label, size, color, bold=True)
        total = img.get_width() + key_w
        x = r.centerx - total // 2
        surf.blit(img, img.get_rect(midleft=(x, r.centery + 1)))
        if self.key:
            kimg = text(self.key, int(size * 0.8), (20, 20, 20), bold=True)
            kr = kimg.get_rect()
            box = pygame.Rect(0, 0, max(kr.w, kr.h) + 8, kr.h + 4)
            box.midleft = (x + img.get_width() + size // 3, r.centery)
            pygame.draw.rect(surf, GOLD if self.enabled else MUTED, box, border_radius=5)
            surf.blit(kimg, kimg.get_rect(center=box.center))


@dataclass
class TextInput:
    """One line of text: a cursor (a click, the arrows, Home, End), a selection (Ctrl+A,
    Shift with the arrows) that typing replaces, and ``select_first``: the whole value
    selected the first time the field has focus (typing replaces a default "Player")."""

    id: str
    value: str = ""
    placeholder: str = ""
    max_len: int = 20
    secret: bool = False
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    focused: bool = False
    size: int = 26
    enabled: bool = True  # False: shown greyed, takes no typing (its value is set elsewhere)
    select_first: bool = False
    cursor: int | None = None  # where typing goes (None: the end)
    anchor: int | None = None  # the selection's other end (None: nothing selected)
    _had_focus: bool = field(default=False, repr=False)

    def at(self) -> int:
        """The cursor, within the value."""
        n = len(self.value)
        return n if self.cursor is None else max(0, min(self.cursor, n))

    def selection(self) -> tuple[int, int]:
        """The selected span (start, end); empty when nothing is selected."""
        at = self.at()
        if self.anchor is None:
            return at, at
        other = max(0, min(self.anchor, len(self.value)))
        return min(at, other), max(at, other)

    def select_all(self) -> None:
        self.anchor, self.cursor = 0, len(self.value)

    def _first_focus(self) -> None:
        if self.focused and not self._had_focus:
            self._had_focus = True
            if self.select_first and self.value:
                self.select_all()

    def _replace(self, text: str) -> None:
        lo, hi = self.selection()
        room = self.max_len - (len(self.value) - (hi - lo))
        text = text[: max(0, room)]
        self.value = self.value[:lo] + text + self.value[hi:]
        self.cursor, self.anchor = lo + len(text), None

    def _shown(self) -> tuple[str, int]:
        """The text drawn and how many characters are scrolled off its left."""
        shown = "•" * len(self.value) if self.secret else self.value
        f, room, cut = font(self.size), self.rect.w - 24, 0
        while cut < len(shown) and f.size(shown[cut:])[0] > room:
            if cut >= self.at():  # the cursor stays in sight
                break
            cut += 1
        return shown[cut:], cut

    def index_at(self, x: int) -> int:
        """The place between characters nearest to ``x`` (a click)."""
        shown, cut = self._shown()
        f, left = font(self.size), self.rect.x + 10
        best, gap = 0, abs(x - left)
        for i in range(1, len(shown) + 1):
            d = abs(x - (left + f.size(shown[:i])[0]))
            if d < gap:
                best, gap = i, d
        return cut + best

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.enabled:
            self.focused = False
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.focused = self.rect.collidepoint(event.pos)
            if self.focused:
                self.cursor, self.anchor = self.index_at(event.pos[0]), None
                self._first_focus()
            return self.focused
        if not self.focused:
            return False
        self._first_focus()
        if event.type == pygame.TEXTINPUT:
            self._replace("".join(c for c in event.text if c.isprintable()))
            return True
        if event.type == pygame.KEYDOWN:
            mod = getattr(event, "mod", 0)
            at, n = self.at(), len(self.value)
            lo, hi = self.selection()
            if event.key == pygame.K_a and mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.select_all()
                return True
            if event.key in (pygame.K_BACKSPACE, pygame.K_DELETE):
                back = event.key == pygame.K_BACKSPACE
                if lo == hi:  # nothing selected: the character before, or after
                    lo, hi = (max(0, lo - 1), hi) if back else (lo, min(n, hi + 1))
                self.anchor, self.cursor = lo, hi
                self._replace("")
                return True
            moves = {pygame.K_LEFT: at - 1, pygame.K_RIGHT: at + 1, pygame.K_HOME: 0,
                     pygame.K_END: n}  # fmt: skip
            if event.key in moves:
                if mod & pygame.KMOD_SHIFT:
                    self.anchor = at if self.anchor is None else self.anchor
                elif lo != hi and event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                    self.cursor, self.anchor = (lo if event.key == pygame.K_LEFT else hi), None
                    return True
                else:
                    self.anchor = None
                self.cursor = max(0, min(moves[event.key], n))
                return True
            # Typing letters must not trigger shortcuts; these keys go on to the scene.
            return event.key not in PASSED_ON
        return False

    def draw(self, surf: pygame.Surface) -> None:
        self._first_focus()
        r = self.rect
        pygame.draw.rect(surf, (250, 250, 246) if self.enabled else (190, 196, 192), r,
                         border_radius=8)  # fmt: skip
        edge = GOLD if self.focused else (110, 120, 120)
        pygame.draw.rect(surf, edge, r, 3 if self.focused else 2, border_radius=8)
        if not self.value and not self.focused:
            at = (r.x + 10, r.centery)
            blit_text(surf, self.placeholder, self.size, at, (140, 140, 140), anchor="midleft")
            return
        shown, cut = self._shown()
        f, left = font(self.size), r.x + 10
        lo, hi = self.selection()
        if self.focused and lo != hi:
            x0 = left + f.size(shown[: max(0, lo - cut)])[0]
            x1 = left + f.size(shown[: max(0, hi - cut)])[0]
            pygame.draw.rect(surf, (170, 200, 250), pygame.Rect(x0, r.y + 7, x1 - x0, r.h - 14))
        blit_text(surf, shown, self.size, (left, r.centery), (20, 20, 20), anchor="midleft")
        if self.focused:
            x = left + f.size(shown[: max(0, self.at() - cut)])[0] + 1
            pygame.draw.line(surf, (20, 20, 20), (x, r.y + 8), (x, r.bottom - 8), 2)


@dataclass
class Choice:
    """A row of mutually exclusive options, like 4 / 8 / 12 hands."""

    id: str
    options: Sequence[object]
    value: object
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    size: int = 26
    words: dict[object, str] = field(default_factory=dict)  # an option's words, if not str(it)

    def said(self, opt: object) -> str:
        return self.words.get(opt, str(opt))

    def cells(self) -> list[pygame.Rect]:
        r, n = self.rect, max(1, len(self.options))
        return [pygame.Rect(r.x + i * (r.w // n), r.y, r.w // n - 4, r.h) for i in range(n)]

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for opt, cell in zip(self.options, self.cells(), strict=False):
                if cell.collidepoint(event.pos):
                    self.value = opt
                    return True
        return False

    def draw(self, surf: pygame.Surface) -> None:
        for opt, cell in zip(self.options, self.cells(), strict=False):
            on = opt == self.value
            pygame.draw.rect(surf, GOLD if on else (52, 66, 78), cell, border_radius=8)
            pygame.draw.rect(surf, (120, 130, 130), cell, 2, border_radius=8)
            ink = (20, 20, 20) if on else INK
            size = self.size  # the words shrink to fit their cell, as a button's do
            while size > 12 and font(size, bold=True).size(self.said(opt))[0] > cell.w - 8:
                size -= 1
            words = fit(self.said(opt), size, cell.w - 8, bold=True)
            blit_text(surf, words, size, cell.center, ink, bold=True, anchor="center")


@dataclass
class Checkbox:
    id: str
    label: str
    value: bool = False
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 10, 10))
    size: int = 22

    def handle_event(self, event: pygame.event.Event) -> bool:
        clicked = event.type == pygame.MOUSEBUTTONDOWN and event.button == 1
        if clicked and self.rect.collidepoint(event.pos):
            self.value = not self.value
            return True
        return False

    def draw(self, surf: pygame.Surface) -> None:
        r = self.rect
        box = pygame.Rect(r.x, r.centery - r.h // 2 + 2, r.h - 4, r.h - 4)
        pygame.draw.rect(surf, (250, 250, 246), box, border_radius=5)
        pygame.draw.rect(surf, GOLD if self.value else (110, 120, 120), box, 2, border_radius=5)
        if self.value:
            a = (box.x + box.w * 0.2, box.y + box.h * 0.55)
            b = (box.x + box.w * 0.42, box.y + box.h * 0.78)
            c = (box.x + box.w * 0.82, box.y + box.h * 0.22)
            pygame.draw.lines(surf, (30, 120, 60), False, [a, b, c], max(2, box.w // 7))
        room = r.right - box.right - 10
        size = self.size  # the label shrinks to fit the box's row, then is cut
        while size > 12 and font(size).size(self.label)[0] > room:
            size -= 1
        label = fit(self.label, size, room)
        blit_text(surf, label, size, (box.right + 10, r.centery), INK, anchor="midleft")


def button_width(b: Button) -> int:
    """The width ``b``'s label and key need at its size (``Button.shown`` cuts past it)."""
    key = font(int(b.size * 0.8), bold=True).size(b.key)[0] + b.size // 2 if b.key else 0
    return font(b.size, bold=True).size(b.label)[0] + key + 18
