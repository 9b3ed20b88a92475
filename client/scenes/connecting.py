"""Connecting to a table: where to, the tries so far, and Cancel."""

from __future__ import annotations

import pygame

from client.host import Host
from client.i18n import gettext as _
from client.net import BUSY
from client.render.text import blit_text
from client.render.widgets import INK, Button
from client.scenes.base import Scene

__all__ = ["ConnectingScene"]


class ConnectingScene(Scene):
    name = "connecting"

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.cancel = Button("cancel", _("Cancel"), _("Esc"), style="danger")

    def buttons(self) -> list[Button]:
        return [self.cancel]

    def resize(self, size: tuple[int, int]) -> None:
        self.scale_to(size)
        self.cancel.rect = self.rect(540, 470, 200, 56)
        self.cancel.size = self.font(26)

    def handle_event(self, event: pygame.event.Event) -> None:
        escape = event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
        if self.cancel.handle_event(event) or escape:
            self.host.leave_table(notice="", send_leave=True)

    def draw(self, surf: pygame.Surface) -> None:
        surf.fill((14, 40, 30))
        w, h = surf.get_size()
        at = self.host.address
        where = f"{at[0]}:{at[1]}" if at else ""
        st = self.host.status
        msg = _("Connecting to {address}…").format(address=where)
        if st.state == "retrying" and st.message == _(BUSY):  # a comeback, the seat kept
            msg = _("The table is busy — trying again ({attempt})…").format(attempt=st.attempt)
        elif st.state == "retrying":
            msg = _("Trying {address} again ({attempt})…").format(address=where, attempt=st.attempt)
        at_middle = (w // 2, h // 2 - round(60 * self.s))
        blit_text(surf, msg, self.font(40), at_middle, INK, bold=True, anchor="center")
        self.cancel.draw(surf)
