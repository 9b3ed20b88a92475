"""What a module draws, as drawn: its ``blit_text`` calls recorded with their rects
(``words_drawn``), its padlocks (``locks_drawn``), and the cards blitted on a surface, in
order (``cards_drawn``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

import pygame

from client.render.cards import CardArt


@contextmanager
def words_drawn(module: ModuleType) -> Iterator[list[tuple[str, pygame.Rect]]]:
    """Inside the block, every ``module.blit_text`` call is recorded: (text, rect)."""
    drawn: list[tuple[str, pygame.Rect]] = []
    real = module.blit_text

    def record(surf, s, *a, **k):
        rect = real(surf, s, *a, **k)
        drawn.append((s, rect))
        return rect

    module.blit_text = record
    try:
        yield drawn
    finally:
        module.blit_text = real


def locks_drawn(monkeypatch, module: ModuleType) -> list[tuple[bool, pygame.Rect]]:  # noqa: ANN001
    """From now on, every padlock ``module`` draws is recorded: (closed, the rect drawn)."""
    drawn: list[tuple[bool, pygame.Rect]] = []
    real = module.draw_lock

    def record(surf, rect, *, closed, color):
        drawn.append((closed, real(surf, rect, closed=closed, color=color)))
        return drawn[-1][1]

    monkeypatch.setattr(module, "draw_lock", record)
    return drawn


class BlitLog(pygame.Surface):
    """A surface that keeps every blit made on it: (the source, the rect it landed in)."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.blits: list[tuple[pygame.Surface, pygame.Rect]] = []

    def blit(self, source, dest, area=None, special_flags=0):  # type: ignore[override]
        rect = super().blit(source, dest, area, special_flags)
        self.blits.append((source, rect))
        return rect


@contextmanager
def cards_drawn(art: CardArt, surf: BlitLog) -> Iterator[list[tuple[str, pygame.Rect]]]:
    """Inside the block, every card ``art`` makes and ``surf`` gets, in the order drawn:
    (its code, or "back", and the rect it covers).  Filled in when the block ends."""
    made: dict[int, tuple[str, pygame.Surface]] = {}  # the image kept: its id stays its own
    face, back = art.face, art.back

    def record_face(code: str, *a, **k):
        img = face(code, *a, **k)
        made[id(img)] = (code, img)
        return img

    def record_back(*a, **k):
        img = back(*a, **k)
        made[id(img)] = ("back", img)
        return img

    art.face, art.back = record_face, record_back  # type: ignore[method-assign]
    out: list[tuple[str, pygame.Rect]] = []
    start = len(surf.blits)
    try:
        yield out
    finally:
        del art.face, art.back  # the class's own again
        out += [(made[id(img)][0], r) for img, r in surf.blits[start:] if id(img) in made]


def lobby_words_never_overlap(lobby, size, parts) -> None:  # noqa: ANN001
    """Each word the lobby draws against every other drawn word and element: inside the
    window, clear of every widget and word unless it sits inside that element (a label
    in its chip, a row in the seats panel)."""
    from client.scenes import lobby as lobby_module

    window = pygame.Rect(0, 0, *size)
    with words_drawn(lobby_module) as drawn:
        lobby.draw(pygame.Surface(lobby.size))
    words = [(t, r) for t, r in drawn if t]
    widgets = [(n, r) for n, r in parts if not n.startswith(("header ", "chat "))]
    widgets += [(f"chip {r.level}", r.chip) for r in lobby.seat_rows if r.chip is not None]
    for i, (t, r) in enumerate(words):
        assert window.contains(r), (size, t, r)
        for n, wr in widgets:
            assert wr.contains(r) or not wr.colliderect(r), (size, t, r, n, wr)
        for t2, r2 in words[i + 1 :]:
            assert t2 == t or not r.colliderect(r2), (size, t, r, t2, r2)
