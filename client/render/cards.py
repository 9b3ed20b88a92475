"""Playing cards, card backs, chips and the dealer button, drawn by code at any size,
three times larger and smoothed down, and cached by size (call after the display exists)."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from client.render.text import font

__all__ = ["CardArt", "draw_suit"]

SS = 3  # supersampling factor

RED = (200, 24, 36)
BLACK = (24, 24, 30)
FOUR = {"s": BLACK, "h": RED, "d": (22, 86, 200), "c": (18, 130, 52)}
TWO = {"s": BLACK, "h": RED, "d": RED, "c": BLACK}
RANK_TEXT = {"T": "10"}


def draw_suit(surf: pygame.Surface, suit: str, cx: float, cy: float, s: float, color) -> None:
    """A suit symbol of height ``s`` centred on (cx, cy), from circles and polygons."""

    def circle(x: float, y: float, r: float) -> None:
        pygame.draw.circle(surf, color, (round(x), round(y)), max(1, round(r)))

    def poly(points: list[tuple[float, float]]) -> None:
        pygame.draw.polygon(surf, color, [(round(x), round(y)) for x, y in points])

    if suit == "d":
        poly([(cx, cy - 0.5 * s), (cx + 0.37 * s, cy), (cx, cy + 0.5 * s), (cx - 0.37 * s, cy)])
    elif suit == "h":
        r = 0.26 * s
        circle(cx - 0.235 * s, cy - 0.2 * s, r)
        circle(cx + 0.235 * s, cy - 0.2 * s, r)
        poly([(cx - 0.485 * s, cy - 0.12 * s), (cx + 0.485 * s, cy - 0.12 * s),
              (cx, cy + 0.47 * s)])  # fmt: skip
    elif suit == "s":
        r = 0.24 * s
        circle(cx - 0.22 * s, cy + 0.1 * s, r)
        circle(cx + 0.22 * s, cy + 0.1 * s, r)
        poly([(cx - 0.455 * s, cy + 0.04 * s), (cx + 0.455 * s, cy + 0.04 * s), (cx, cy - 0.5 * s)])
        poly([(cx, cy + 0.05 * s), (cx - 0.17 * s, cy + 0.5 * s), (cx + 0.17 * s, cy + 0.5 * s)])
    elif suit == "c":
        r = 0.21 * s
        circle(cx, cy - 0.26 * s, r)
        circle(cx - 0.25 * s, cy + 0.07 * s, r)
        circle(cx + 0.25 * s, cy + 0.07 * s, r)
        circle(cx, cy, 0.12 * s)
        poly([(cx, cy - 0.05 * s), (cx - 0.16 * s, cy + 0.5 * s), (cx + 0.16 * s, cy + 0.5 * s)])


def _rounded(size: tuple[int, int], color, radius: int, border=None, bw: int = 0) -> pygame.Surface:
    surf = pygame.Surface(size, pygame.SRCALPHA)
    rect = surf.get_rect()
    if border is not None:
        pygame.draw.rect(surf, border, rect, border_radius=radius)
        rect = rect.inflate(-2 * bw, -2 * bw)
        radius = max(0, radius - bw)
    pygame.draw.rect(surf, color, rect, border_radius=radius)
    return surf


class CardArt:
    """Card faces, backs and chips for one window; everything cached by size."""

    def __init__(self) -> None:
        self._cache: dict[tuple, pygame.Surface] = {}
        self.four_color = False

    def clear(self) -> None:
        self._cache.clear()

    def _kept(self, key: tuple, draw: Callable[[], pygame.Surface]) -> pygame.Surface:
        surf = self._cache.get(key)
        if surf is None:
            surf = self._cache[key] = draw()
        return surf

    def face(self, code: str, w: int, *, hole: bool = False, dim: bool = False) -> pygame.Surface:
        def draw() -> pygame.Surface:
            surf = self._draw_face(code, w, hole=hole)
            return self._dimmed(surf) if dim else surf

        return self._kept(("face", code, w, self.four_color, hole, dim), draw)

    def back(self, w: int, *, dim: bool = False) -> pygame.Surface:
        def draw() -> pygame.Surface:
            return self._dimmed(self._draw_back(w)) if dim else self._draw_back(w)

        return self._kept(("back", w, dim), draw)

    def chip(self, d: int, color=(200, 40, 40)) -> pygame.Surface:
        def draw() -> pygame.Surface:
            big = pygame.Surface((d * SS, d * SS), pygame.SRCALPHA)
            c = d * SS // 2
            pygame.draw.circle(big, (30, 30, 30, 120), (c, c + SS), c - SS)
            pygame.draw.circle(big, color, (c, c), c - SS)
            for i in range(6):
                v = pygame.math.Vector2(1, 0).rotate(i * 60)
                p = (c + v.x * c * 0.78, c + v.y * c * 0.78)
                pygame.draw.circle(big, (245, 245, 240), p, c * 0.14)
            pygame.draw.circle(big, (245, 245, 240), (c, c), c * 0.55, max(1, SS))
            return pygame.transform.smoothscale(big, (d, d)).convert_alpha()

        return self._kept(("chip", d, color), draw)

    def button(self, d: int) -> pygame.Surface:
        """The dealer button: a white disc with a D."""

        def draw() -> pygame.Surface:
            big = pygame.Surface((d * SS, d * SS), pygame.SRCALPHA)
            c = d * SS // 2
            pygame.draw.circle(big, (40, 40, 40), (c, c), c)
            pygame.draw.circle(big, (250, 250, 245), (c, c), c - 2 * SS)
            t = font(int(d * SS * 0.7), bold=True).render("D", True, (20, 20, 20))
            big.blit(t, t.get_rect(center=(c, c + SS)))
            return pygame.transform.smoothscale(big, (d, d)).convert_alpha()

        return self._kept(("dealer", d), draw)

    @staticmethod
    def height(w: int) -> int:
        return round(w * 1.4)

    def _draw_face(self, code: str, w: int, *, hole: bool) -> pygame.Surface:
        h = self.height(w)
        W, H = w * SS, h * SS
        paper = (226, 236, 250) if hole else (252, 252, 248)
        big = _rounded((W, H), paper, int(W * 0.09), border=(90, 90, 90), bw=max(SS, W // 60))
        rank, suit = code[0], code[1]
        color = (FOUR if self.four_color else TWO).get(suit, BLACK)
        text = RANK_TEXT.get(rank, rank)
        f = font(int(W * 0.5), bold=True)
        img = f.render(text, True, color)
        if img.get_width() > W * 0.52:
            img = pygame.transform.smoothscale(img, (int(W * 0.52), int(img.get_height() * 0.92)))
        x0 = int(W * 0.07)
        big.blit(img, (x0, int(H * 0.035)))
        ix = x0 + int(W * 0.2) if img.get_width() < W * 0.4 else x0 + img.get_width() // 2
        draw_suit(big, suit, ix, H * 0.42, W * 0.28, color)
        draw_suit(big, suit, W * 0.64, H * 0.7, W * 0.52, color)
        if hole:
            # A small "eye closed" bar along the bottom: only you see this card.
            bar = pygame.Rect(int(W * 0.06), int(H * 0.9), int(W * 0.88), int(H * 0.06))
            pygame.draw.rect(big, (70, 110, 190), bar, border_radius=bar.height // 2)
        return pygame.transform.smoothscale(big, (w, h)).convert_alpha()

    def _draw_back(self, w: int) -> pygame.Surface:
        h = self.height(w)
        W, H = w * SS, h * SS
        big = _rounded((W, H), (250, 250, 246), int(W * 0.09), border=(90, 90, 90),
                       bw=max(SS, W // 60))  # fmt: skip
        inner = pygame.Rect(0, 0, int(W * 0.8), int(H * 0.86))
        inner.center = (W // 2, H // 2)
        pygame.draw.rect(big, (150, 28, 40), inner, border_radius=int(W * 0.05))
        step = max(4, W // 7)
        clip = big.get_clip()
        big.set_clip(inner.inflate(-SS * 4, -SS * 4))
        for i in range(-H, W + H, step):
            pygame.draw.line(big, (190, 60, 70), (i, inner.top), (i + H, inner.top + H), SS)
            pygame.draw.line(big, (190, 60, 70), (i + H, inner.top), (i, inner.top + H), SS)
        big.set_clip(clip)
        pygame.draw.rect(big, (230, 200, 120), inner, max(SS, W // 40), border_radius=int(W * 0.05))
        return pygame.transform.smoothscale(big, (w, h)).convert_alpha()

    @staticmethod
    def _dimmed(surf: pygame.Surface) -> pygame.Surface:
        out = surf.copy()
        shade = pygame.Surface(out.get_size(), pygame.SRCALPHA)
        shade.fill((120, 124, 128, 255))
        out.blit(shade, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        return out
