"""A join refused for the table's key, said large (``client.link.KeyProblem``).

The dialog names the table, says what is wrong with its key, shows the key expected and
the key the table showed side by side, large enough to read aloud, and what it may mean.
Only a changed key may be trusted (``Host.trust_new_key``), and only by a click: Esc is
*Back*.  Everything is laid out in ``resize`` (``words``: each text and its rect).
"""

from __future__ import annotations

import pygame

from client.host import Host
from client.i18n import N_
from client.i18n import gettext as _
from client.link import KeyProblem
from client.overlays import Overlay, scale, shade
from client.render.text import blit_text, font, wrap
from client.render.widgets import GOLD, INK, MUTED, Button, panel

__all__ = ["KeyDialog", "WORDS", "headline", "notice", "show"]

WARN = (255, 190, 120)

# Translators: a table's key is the code that proves a table is the one the player means
# (like a fingerprint); the host reads it from their lobby.
WORDS = {
    "changed": (N_("This table's key has changed"), N_("Known key"), N_("Key shown now"),
                N_("Either the host's computer or its data folder is new, or someone on the"
                   " network is pretending to be the table: ask the host to read their table"
                   " key from their lobby."),
                N_("Not joined: this table's key has changed.")),
    "typed": (N_("This table's key is not the one typed"), N_("Key typed"),
              N_("The table's key"),
              N_("Either the key was typed wrong, or someone on the network is pretending to"
                 " be the table: ask the host to read their table key from their lobby."),
              N_("Not joined: this table's key is not the one typed.")),
    "announced": (N_("This table's key is not the one it announced"), N_("Key announced"),
                  N_("The table's key"),
                  N_("Someone on the network may be pretending to be the table: ask the host"
                     " to read their table key from their lobby, and type it with the"
                     " address."),
                  N_("Not joined: this table's key is not the one it announced.")),
}  # fmt: skip
"""Each kind of key problem: (headline, label of the key expected, label of the key shown,
meaning, the start screen's line under the dialog), each translated where it is shown."""


def headline(problem: KeyProblem) -> str:
    return _(WORDS[problem.kind][0])


def notice(problem: KeyProblem) -> str:
    """The start screen's line under the dialog."""
    return _(WORDS[problem.kind][4])


def show(host: Host, problem: KeyProblem) -> None:
    host.modal = KeyDialog(host, problem)
    host.dirty = True


class KeyDialog(Overlay):
    kind = "key"
    keep_off_table = True  # shown once the table is gone: on the start screen

    def __init__(self, host: Host, problem: KeyProblem) -> None:
        super().__init__(host)
        self.problem = problem
        self.trust = Button("trust", _("Trust the new key"), style="danger")
        self.back = Button("back", _("Back"), _("Esc"), style="primary")
        self.box = pygame.Rect(0, 0, 10, 10)
        self.words: list[tuple[str, int, tuple[int, int, int], bool, pygame.Rect]] = []
        self.resize(host.window_size)

    def buttons(self) -> list[Button]:
        return [self.trust, self.back] if self.problem.trustable else [self.back]

    def resize(self, size: tuple[int, int]) -> None:
        w, h = size
        s = scale(size)
        f = lambda v, lo=17: max(lo, round(v * s))  # noqa: E731
        bw = min(w - 20, max(720, round(900 * s)))
        pad = f(30)
        inner = bw - 2 * pad
        half = (inner - pad) // 2
        p = self.problem
        known_label, new_label, meaning = (_(w) for w in WORDS[p.kind][1:4])
        keys = [*p.known[:2], p.new]
        key_size = f(44, 30)
        while key_size > 16 and max(font(key_size, bold=True).size(k)[0] for k in keys) > half:
            key_size -= 1
        Row = list[tuple[str, int, tuple[int, int, int], bool, int]]  # (.., x offset)
        rows: list[tuple[Row, bool]] = []  # each row, and whether air follows it
        title = p.table or _("The table")
        title_size = f(34, 24)
        while title_size > 14 and font(title_size, bold=True).size(title)[0] > inner:
            title_size -= 1
        rows.append(([(title, title_size, GOLD, True, 0)], False))
        rows.append(([(headline(p), f(28, 21), INK, True, 0)], True))
        label = f(20, 18)
        rows.append(([(known_label, label, MUTED, False, 0),
                      (new_label, label, MUTED, False, half + pad)], False))  # fmt: skip
        known = list(p.known[:2]) or ["?"]
        for i, k in enumerate(known):
            row: Row = [(k, key_size, GOLD, True, 0)]
            if i == 0:
                row.append((p.new, key_size, WARN, True, half + pad))
            rows.append((row, i == len(known) - 1))
        body = f(22, 19)
        rows += [([(line, body, INK, False, 0)], False) for line in wrap(meaning, body, inner)]
        gap = f(10, 4)
        heights = [max(font(sz, bold=b).size(t)[1] for t, sz, _c, b, _x in r) for r, _air in rows]
        btn_h = max(40, round(60 * s))
        words_h = sum(heights) + gap * (len(rows) + 2) + gap * sum(air for _r, air in rows)
        bh = min(h - 20, pad + words_h + btn_h + pad)
        self.box = pygame.Rect(0, 0, bw, bh)
        self.box.center = (w // 2, h // 2)
        y = self.box.y + pad
        self.words = []
        for (r, air), rh in zip(rows, heights, strict=True):
            for t, sz, c, b, dx in r:
                tw, th = font(sz, bold=b).size(t)
                self.words.append((t, sz, c, b, pygame.Rect(self.box.x + pad + dx, y, tw, th)))
            y += rh + gap + (gap if air else 0)
        bottom = self.box.bottom - pad
        btn_w = (inner - pad) // 2
        if p.trustable:
            self.trust.rect = pygame.Rect(self.box.x + pad, bottom - btn_h, btn_w, btn_h)
            self.back.rect = pygame.Rect(self.box.right - pad - btn_w, bottom - btn_h, btn_w, btn_h)
        else:
            self.back.rect = pygame.Rect(0, bottom - btn_h, btn_w, btn_h)
            self.back.rect.centerx = self.box.centerx
        for button in (self.trust, self.back):
            button.size = max(16, round(26 * s))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.close()
            return
        if self.problem.trustable and self.trust.handle_event(event):
            self.close()
            self.host.trust_new_key()
        elif self.back.handle_event(event):
            self.close()

    def draw(self, surf: pygame.Surface) -> None:
        shade(surf, 160)
        radius = max(8, self.box.h // 30)
        panel(surf, self.box, (12, 28, 23, 250), radius)
        pygame.draw.rect(surf, WARN, self.box, 3, border_radius=radius)
        for t, size, color, bold, rect in self.words:
            blit_text(surf, t, size, rect.topleft, color, bold=bold, shadow=bold and size > 30)
        for b in self.buttons():
            b.draw(surf)
