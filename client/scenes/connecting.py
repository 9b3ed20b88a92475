"""Connecting to a table: where to, the tries so far, and Cancel."""

from __future__ import annotations

import pygame

from client.host import Host
from client.net import BUSY
from client.render.layout import base_scale
from client.render.text import blit_text
from client.render.widgets import INK, Button
from client.scenes.base import Scene

__all__ = ["ConnectingScene"]


class ConnectingScene(Scene):
    name = "connecting"

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.cancel = Button("cancel", "Cancel", "Esc", style="danger")
        self.s = 1.0

    def buttons(self) -> list[Button]:
        return [self.cancel]

    def resize(self, size: tuple[int, int]) -> None:
        s, ox, oy = base_scale(size)
        self.s = s
        self.cancel.rect = pygame.Rect(
            round(ox + 540 * s), round(oy + 470 * s), round(200 * s), round(56 * s)
        )
        self.cancel.size = max(14, round(26 * s))

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.cancel.handle_event(event) or (
            event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
        ):
            self.host.leave_table(notice="", send_leave=True)

    def draw(self, surf: pygame.Surface) -> None:
        surf.fill((14, 40, 30))
        w, h = surf.get_size()
        at = self.host.address
        where = f"{at[0]}:{at[1]}" if at else ""
        st = self.host.status
        msg = "Connecting to " + where + "…"
        if st.state == "retrying" and st.message == BUSY:  # a comeback, the seat kept
            msg = f"The table is busy — trying again ({st.attempt})…"
        elif st.state == "retrying":
            msg = f"Trying {where} again ({st.attempt})…"
        blit_text(
            surf,
            msg,
            max(14, round(40 * self.s)),
            (w // 2, h // 2 - round(60 * self.s)),
            INK,
            bold=True,
            anchor="center",
        )
        self.cancel.draw(surf)
