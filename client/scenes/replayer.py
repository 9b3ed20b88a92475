"""The hand replayer: step through a hand action by action and street by street, drawn by
the live table's painter from ``common.replay.table_after``.  It replays what it was given
(our seat's view, or the full hands after open books or from a file), through
``common.history.clean_record``.  The analysis after the match (``client.analysing``, worked
between frames) adds each seat's chance bar and marks our decisions worth a look.

Keys: Left/Right a step, Up/Down a street, Home/End, P play or pause, PageUp/PageDown (or
[ and ]) the hand before and after, V the next decision worth a look, X export to PHH, O
the recap, Esc close.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pygame

from client.analysing import analysis_for
from client.handbook import full_record
from client.host import Host
from client.i18n import gettext as _
from client.i18n import ngettext
from client.keys import SCENES, key_of
from client.lobbystate import Player
from client.render import chances
from client.render.layout import TableLayout
from client.render.picture import TablePicture
from client.render.tablepaint import TablePainter
from client.render.text import blit_text, fit
from client.render.widgets import GOLD, INK, MUTED, Button, button_width, panel
from client.scenes.base import Scene
from client.tablewords import hand_label, stop_words
from client.wording import act_words
from common.analysis import Chance, Mark
from common.events import Act
from common.history import decode_event
from common.replay import Position, positions, street_starts, table_after
from server import folders
from server.exports import table_of, write_exports

__all__ = ["ReplayerScene"]

log = logging.getLogger("client.replayer")
PLAY_STEP = 1.0  # seconds per stop while playing
KEYS = {
    pygame.K_RIGHT: "next",
    pygame.K_SPACE: "next",
    pygame.K_LEFT: "back",
    pygame.K_DOWN: "street_next",
    pygame.K_UP: "street_back",
    pygame.K_PAGEUP: "prev_hand",
    pygame.K_LEFTBRACKET: "prev_hand",
    pygame.K_PAGEDOWN: "next_hand",
    pygame.K_RIGHTBRACKET: "next_hand",
    pygame.K_ESCAPE: "close",
}


class ReplayerScene(Scene):
    name = "replayer"

    def __init__(
        self,
        host: Host,
        records: list[dict[str, Any]],
        *,
        viewer: int | None = None,
        start: int = 0,
        title: str = "",
        event: int | None = None,
    ) -> None:
        super().__init__(host)
        assert records
        self.records = records
        self.viewer = viewer
        full = all(full_record(rec) for rec in records)
        self.title = title or (_("Every hole card shown") if full else _("As your seat saw it"))
        self.painter = TablePainter(host.art)
        self.lay = TableLayout(host.window_size, [], None)
        self.hand_i = 0
        self.pos_i = 0
        self.stops: list[Position] = []
        self.starts: list[int] = []
        self.shown = TablePicture(None)
        self.notice = ""
        self.bar_buttons = [
            Button("street_back", _("Prev street"), "Up"),
            Button("back", _("Back"), "Left"),
            Button("play", _("Play"), key_of("replayer", "play")),
            Button("next", _("Next"), "Right", style="primary"),
            Button("street_next", _("Next street"), "Down"),
        ]
        self.playing = False
        self.clock = 0.0
        self.panel_buttons = [
            Button("prev_hand", _("Prev hand"), "["),
            Button("next_hand", _("Next hand"), "]"),
            Button("export", _("Export PHH"), key_of("replayer", "export")),
            Button("recap", _("Recap"), key_of("replayer", "recap")),
            Button("close", _("Close"), "Esc", style="danger"),
        ]
        self.look = Button("next_mark", _("Next worth a look"), key_of("replayer", "next_mark"))
        self.analysing = analysis_for(records, viewer, session=host.session)
        self.hand_rows: list[tuple[int, pygame.Rect]] = []
        self.steps_rect = pygame.Rect(0, 0, 0, 0)
        self.turn_rect = pygame.Rect(0, 0, 0, 0)
        self.status_rect = pygame.Rect(0, 0, 0, 0)  # what the chances know, how far along
        self.why_rect = pygame.Rect(0, 0, 0, 0)  # why the decision on screen is marked
        self.slots: dict[int, pygame.Rect] = {}  # each seat's chance bar
        self.goto(min(max(0, start), len(records) - 1), 0)
        if event is not None:
            self.goto_event(self.hand_i, event)

    @property
    def record(self) -> dict[str, Any]:
        return self.records[self.hand_i]

    def goto(self, hand_i: int, pos_i: int) -> None:
        """Show hand ``hand_i`` (index into the records) at stop ``pos_i`` (-1: the last)."""
        hand_i = max(0, min(hand_i, len(self.records) - 1))
        if hand_i != self.hand_i or not self.stops:
            self.hand_i = hand_i
            self.stops = positions(self.record)
            self.starts = street_starts(self.stops)
            self._layout()
        if not self.stops:
            self.pos_i = 0
        else:
            last = len(self.stops) - 1
            self.pos_i = last if pos_i < 0 else max(0, min(pos_i, last))
        self.analysing.job.prefer(self.hand_i)  # the hand on screen is counted first
        self._build()

    def goto_event(self, hand_i: int, event: int) -> None:
        """Show hand ``hand_i`` at the stop of its ``event``-th event (a decision)."""
        self.goto(hand_i, 0)
        k = next((i for i, p in enumerate(self.stops) if p.upto > event), len(self.stops) - 1)
        self.goto(hand_i, k)

    def marks_of(self, hand_i: int) -> dict[int, Mark]:
        """A hand's marked decisions by the index of their stop."""
        hand = self.analysing.job.hands[hand_i]
        if not hand.marks:
            return {}
        stops = self.stops if hand_i == self.hand_i else positions(self.records[hand_i])
        at = {p.upto: i for i, p in enumerate(stops)}
        return {at[m.event + 1]: m for m in hand.marks if m.event + 1 in at}

    def mark_here(self) -> Mark | None:
        """The marked decision on screen, if this stop is one."""
        return self.marks_of(self.hand_i).get(self.pos_i)

    def next_mark(self) -> None:
        """On to the next decision worth a look, from the first again after the last."""
        found = [(k, i) for k in range(len(self.records)) for i in sorted(self.marks_of(k))]
        if self.analysing.held:
            self.notice = self.analysing.knowledge()
            return
        if not found:
            done = self.analysing.job.decisions_done
            looking = _("Still looking over your decisions…")
            self.notice = _("No decision worth a second look") if done else looking
            return
        here = (self.hand_i, self.pos_i)
        k, i = next((f for f in found if f > here), found[0])
        self.goto(k, i)

    def chance_bars(self) -> list[tuple[int, pygame.Rect, Chance]]:
        """The chances at the deal of the street on screen, each at its seat's slot; a seat
        that has folded since keeps its bar, dimmed, so the bars still add up."""
        if not self.stops or self.shown.view is None:
            return []
        st = self.analysing.job.hands[self.hand_i].chances_at(self.stops[self.pos_i].upto)
        if st is None:
            return []
        out = []
        for c in st.chances:
            if c.seat in self.slots and c.seat in self.shown.view.seats:
                out.append((c.seat, self.slots[c.seat], c))
        return out

    def match_hands(self) -> int:
        """The match's length: the table's when these are the hands of the match being
        played (mid-match the file holds only the hands so far), else the hands written."""
        written = max(int(r.get("hand", 0)) for r in self.records)
        s = self.host.session
        if s is not None and s.match_id and self.record.get("match") == s.match_id:
            return max(written, int(s.hands))
        return written

    def _build(self) -> None:
        """The picture the painter reads: the replayed view, the names, the last action."""
        rec = self.record
        upto = self.stops[self.pos_i].upto if self.stops else 0
        last = decode_event(rec["events"][upto - 1]) if upto else None
        recent = {last.seat: act_words(last)} if isinstance(last, Act) else {}  # stays up
        players = {
            x["seat"]: Player(x["seat"], x["name"], x.get("kind", "human")) for x in rec["seats"]
        }
        self.shown = TablePicture(
            view=table_after(rec, upto, self.viewer),
            players=players,
            hand=int(rec.get("hand", 0)),
            hands=self.match_hands(),
            recent=recent,
        )

    def pause(self) -> None:
        self.playing = False
        self.bar_buttons[2].label = _("Play")

    def update(self, dt: float) -> None:
        self.analysing.work()
        if not self.playing:
            return
        self.clock += dt
        if self.clock >= PLAY_STEP - 1e-6:  # sixty 1/60 s steps make a second
            self.clock = 0.0
            if self.pos_i >= len(self.stops) - 1:
                self.pause()
            else:
                self.step(1)

    def animating(self) -> bool:
        return self.playing or not self.analysing.done  # the loop runs while it counts

    def step(self, d: int) -> None:
        self.goto(self.hand_i, self.pos_i + d)

    def street(self, d: int) -> None:
        if d > 0:
            nxt = [k for k in self.starts if k > self.pos_i]
            self.goto(self.hand_i, nxt[0] if nxt else len(self.stops) - 1)
        else:
            before = [k for k in self.starts if k < self.pos_i]
            self.goto(self.hand_i, before[-1] if before else 0)

    def hand(self, d: int) -> None:
        self.goto(self.hand_i + d, 0)

    def choose(self, what: str) -> None:
        if what != "play":
            self.pause()
        if what.startswith("hand:"):
            self.goto(int(what[5:]), 0)
            return
        {
            "play": self.play,
            "next": lambda: self.step(1),
            "back": lambda: self.step(-1),
            "street_next": lambda: self.street(1),
            "street_back": lambda: self.street(-1),
            "prev_hand": lambda: self.hand(-1),
            "next_hand": lambda: self.hand(1),
            "next_mark": self.next_mark,
            "export": self.export,
            "recap": lambda: self.host.open("recap", records=self.records, viewer=self.viewer),
            "close": lambda: self.host.pop(self),
        }[what]()

    def play(self) -> None:
        """Play a step a second from here (from the start again at the end), or pause."""
        self.playing = not self.playing and bool(self.stops)
        self.clock = 0.0
        if self.playing and self.pos_i == len(self.stops) - 1:
            self.goto(self.hand_i, 0)
        self.bar_buttons[2].label = _("Pause") if self.playing else _("Play")

    def export(self, where: Path | None = None) -> Path | None:
        """Write every hand here to ``where`` (default ``exports`` next to the histories): one
        .phh each, and the lot as PokerStars-style text in one .txt for tracking software."""
        where = where or folders.exports_dir()
        table = table_of(str(self.records[0].get("match", "")), folders.history_dir())
        try:
            write_exports(self.records, where, table=table)  # 0600 files in a 0700 folder
        except OSError as exc:
            log.warning("export failed: %s", exc)
            self.notice = _("Could not export: {why}").format(why=exc)
            return None
        n = len(self.records)
        words = ngettext("Wrote {n} .phh file and a .txt to {where}",
                         "Wrote {n} .phh files and a .txt to {where}", n)  # fmt: skip
        self.notice = words.format(n=len(self.records), where=where)
        return where

    def buttons(self) -> list[Button]:
        return [*self.bar_buttons, *self.panel_buttons, self.look]

    def resize(self, size: tuple[int, int]) -> None:
        self._layout(size)

    def _layout(self, size: tuple[int, int] | None = None) -> None:
        size = size or self.lay.size
        seats = [s["seat"] for s in self.record["seats"]]
        self.lay = lay = TableLayout(size, seats, self.viewer)
        h, gap = lay.px(52), lay.px(8)
        for b in self.bar_buttons:
            b.size = lay.font(22)
        # Each as wide as its words need (150 at least), the row kept inside the bar: a
        # longer language's labels stay whole where the bar has the room.
        needs = [max(lay.px(150), button_width(b)) for b in self.bar_buttons]
        room = lay.bar.w - lay.px(16) - gap * (len(needs) - 1)
        if sum(needs) > room:
            needs = [n * room // sum(needs) for n in needs]
        x = lay.bar.centerx - (sum(needs) + gap * (len(needs) - 1)) // 2
        for b, w in zip(self.bar_buttons, needs, strict=True):
            b.rect = pygame.Rect(x, lay.bar.centery - h // 2, w, h)
            x += w + gap
        p, px = lay.panel, lay.px
        left, width = p.x + px(12), p.w - px(24)

        def strip(top: int, h: int) -> pygame.Rect:
            return pygame.Rect(left, top, width, h)

        bw = (p.w - px(36)) // 2
        y = p.y + px(58)
        for i, b in enumerate(self.panel_buttons[:4]):
            b.rect = pygame.Rect(left + (i % 2) * (bw + px(12)), y + (i // 2) * px(46), bw, px(38))
            b.size = lay.font(20)
        close = self.panel_buttons[4]
        close.rect = strip(p.bottom - px(54), px(42))
        close.size = lay.font(22)
        self.look.rect = strip(y + 2 * px(46), px(38))
        self.look.size = lay.font(20)
        line = max(lay.font(18) + 2, px(21))
        self.status_rect = strip(self.look.rect.bottom + px(8), 3 * line)
        self.why_rect = strip(self.status_rect.bottom + px(6), chances.WHY_LINES * line + px(12))
        self.slots = {seat: self._slot(spot) for seat, spot in lay.spots.items()}
        self.turn_rect = strip(close.rect.top - px(44), px(36))  # above Close: "your turn"
        top = self.why_rect.bottom + px(12)
        row = px(30)
        # The hands take at most half the room; the rest lists this hand's stops.
        room = max(1, min(len(self.records), (close.rect.top - px(10) - top) // row // 2))
        first = max(0, min(self.hand_i - room // 2, len(self.records) - room))
        steps_top = top + room * row + px(14)
        self.steps_rect = strip(steps_top, self.turn_rect.top - px(8) - steps_top)
        self.hand_rows = [
            (k, strip(top + (k - first) * row, row - 2))
            for k in range(first, min(len(self.records), first + room))
        ]

    def _slot(self, spot: Any) -> pygame.Rect:
        """Where a seat's chance bar goes: under its plate, or over it for a seat at the top
        (its cards are under the plate), at the plate's outer end; clear of every card."""
        lay = self.lay
        plate = spot.plate_rect()
        r = pygame.Rect(0, 0, lay.px(112), max(15, lay.px(22)))
        if not spot.top:
            r.midtop = (plate.centerx, plate.bottom + lay.px(3))
            return r
        r.bottom = plate.top - lay.px(3)
        if spot.center[0] > lay.area.centerx + lay.px(20):
            r.right = plate.right
        else:
            r.left = plate.left
        return r

    def bar_slots(self) -> list[pygame.Rect]:
        """The slots a bar may fill in this hand: every seat's with the books open, else
        our own (the stop's banner keeps clear of them, so it never moves)."""
        hand = self.analysing.job.hands[self.hand_i]
        if hand.full:
            return list(self.slots.values())
        mine = self.slots.get(self.viewer) if self.viewer is not None else None
        return [mine] if mine is not None and self.analysing.judged() else []

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_HOME, pygame.K_END):
                self.pause()
                self.goto(self.hand_i, 0 if event.key == pygame.K_HOME else -1)
            elif event.key in KEYS:
                self.choose(KEYS[event.key])
            elif (name := pygame.key.name(event.key).upper()) in SCENES["replayer"]:
                self.choose(SCENES["replayer"][name])  # one key, one meaning (client.keys)
            return
        for b in self.buttons():
            if b.handle_event(event):
                self.choose(b.id)
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for k, r in self.hand_rows:
                if r.collidepoint(event.pos):
                    self.choose(f"hand:{k}")
                    return
            if self.steps_rect.collidepoint(event.pos):  # a stop in the list: go there
                line, first, _ = self._steps_window()
                k = first + (event.pos[1] - self.steps_rect.y) // line
                if 0 <= k < len(self.stops):
                    self.pause()
                    self.goto(self.hand_i, k)
                return
        if event.type == pygame.MOUSEWHEEL:
            self.step(-event.y)

    def draw(self, surf: pygame.Surface) -> None:
        lay = self.lay
        s = self.shown
        view = s.view
        surf.blit(self.painter.background(lay), (0, 0))
        self.painter.centre(surf, lay, s, pot_hidden=False)
        self.painter.seats(surf, lay, s, hidden={}, books=True)
        # At the showdown the last street's bets are in the pot, as the live table sweeps them.
        swept = bool(view and view.over) or bool(self.stops and self.stops[self.pos_i].street == 8)
        for seat, spot in lay.spots.items():
            sv = view.seats.get(seat) if view else None
            if sv is not None and sv.bet and not swept:
                self.painter.chips(surf, lay, spot.bet_at, sv.bet)
        for seat, r, chance in self.chance_bars():
            folded = view is not None and view.seats[seat].folded
            chances.draw_bar(surf, self.lay, r, chance, own=seat == self.viewer, dim=folded)
        # What just happened, over the table.
        if self.stops:
            stop = self.stops[self.pos_i]
            said = stop_words(self.records[self.hand_i], stop)
            words = f"{self.pos_i + 1}/{len(self.stops)}  ·  {said}"
            img_size = lay.font(26)
            box = self.stop_box()
            panel(surf, box, (8, 20, 16, 225), lay.px(10))
            edge = chances.MARK if self.mark_here() is not None else GOLD
            pygame.draw.rect(surf, edge, box, 2, border_radius=lay.px(10))
            blit_text(
                surf,
                fit(words, img_size, box.w - lay.px(20), bold=True),
                img_size,
                box.center,
                INK,
                bold=True,
                anchor="center",
            )
        for b in self.bar_buttons:
            b.draw(surf)
        self._draw_panel(surf)
        session = self.host.session
        if session is not None and session.my_turn():
            # In the panel, above Close: on the table it would cover a seat's plate.
            msg = _("Your turn at the table: Esc to go back")
            box = self.turn_rect
            size = lay.font(20)
            panel(surf, box, (250, 190, 80, 240), lay.px(10))
            blit_text(
                surf,
                fit(msg, size, box.w - lay.px(12), bold=True),
                size,
                box.center,
                (30, 20, 0),
                bold=True,
                anchor="center",
            )

    def banners(self) -> list[pygame.Rect]:
        """The banners ``draw`` paints: what just happened, and our turn at the table."""
        session = self.host.session
        out = [self.stop_box()] if self.stops else []
        return out + ([self.turn_rect] if session is not None and session.my_turn() else [])

    def stop_box(self) -> pygame.Rect:
        """The banner of what just happened: along the top, in the widest stretch that no
        seat's plate or cards reach into, so a top seat's name and chips stay in view."""
        lay = self.lay
        band = pygame.Rect(lay.area.x, lay.px(8), lay.area.w, lay.px(40))
        rects = [r for spot in lay.spots.values() for r in (spot.plate_rect(), *spot.card_rects(7))]
        taken = sorted((r.left, r.right) for r in rects + self.bar_slots() if r.colliderect(band))
        gaps, x = [], band.left
        for left, right in taken:
            if left > x:
                gaps.append((x, left))
            x = max(x, right)
        gaps.append((x, band.right))
        left, right = max(gaps, key=lambda g: g[1] - g[0])
        margin = lay.px(20)
        w = max(1, min(lay.px(640), right - left - 2 * margin))
        box = pygame.Rect(0, band.y, w, band.h)
        box.centerx = (left + right) // 2
        return box

    def _steps_window(self) -> tuple[int, int, int]:
        """(line height, first stop shown, stops shown) of the panel's list of stops."""
        line = self.lay.px(22)
        room = max(1, self.steps_rect.h // line)
        first = max(0, min(self.pos_i - room + 2, len(self.stops) - room))
        return line, first, room

    def _draw_steps(self, surf: pygame.Surface) -> None:
        """This hand's stops around the current one: where we are, what came, what comes."""
        lay = self.lay
        r = self.steps_rect
        if r.h < lay.px(60) or not self.stops:
            return
        pygame.draw.line(surf, (60, 70, 70), (r.x, r.y - lay.px(6)), (r.right, r.y - lay.px(6)))
        size = lay.font(18)
        line, first, room = self._steps_window()
        marks = self.marks_of(self.hand_i)
        y = r.y
        indent = lay.px(18)  # the column of the markers: a decision worth a look
        for k in range(first, min(len(self.stops), first + room)):
            stop = self.stops[k]
            color = GOLD if k == self.pos_i else (INK if k < self.pos_i else MUTED)
            if k in marks:
                pygame.draw.circle(surf, chances.MARK, (r.x + lay.px(7), y + line // 2), lay.px(5))
                color = chances.MARK if k != self.pos_i else GOLD
            said = stop_words(self.records[self.hand_i], stop)
            words = fit(said, size, r.w - indent - lay.px(6), bold=k == self.pos_i)
            blit_text(surf, words, size, (r.x + indent, y), color, bold=k == self.pos_i)
            y += line

    def why_lines(self) -> tuple[list[str], bool]:
        """The words in the why box: the marked decision's (True), or a hint (False)."""
        lay = self.lay
        return chances.why_lines(
            self.analysing,
            self.mark_here(),
            self.look.key,
            lay.font(18),
            self.why_rect.w - lay.px(16),
        )

    def _draw_panel(self, surf: pygame.Surface) -> None:
        lay = self.lay
        p = lay.panel
        blit_text(
            surf,
            _("Hand replayer"),
            lay.font(28),
            (p.x + lay.px(14), p.y + lay.px(18)),
            GOLD,
            bold=True,
            anchor="midleft",
        )
        blit_text(
            surf,
            fit(self.title, lay.font(19), p.w - lay.px(28)),
            lay.font(19),
            (p.x + lay.px(14), p.y + lay.px(42)),
            MUTED,
            anchor="midleft",
        )
        for b in self.panel_buttons:
            b.draw(surf)
        self.look.draw(surf)
        chances.draw_status(
            surf, lay, self.status_rect, self.why_rect, self.analysing, self.why_lines()
        )
        size = lay.font(19)
        for k, r in self.hand_rows:
            current = k == self.hand_i
            if current:
                pygame.draw.rect(surf, (60, 78, 60), r, border_radius=lay.px(6))
                pygame.draw.rect(surf, GOLD, r, 1, border_radius=lay.px(6))
            marked = bool(self.analysing.job.hands[k].marks)
            if marked:
                pygame.draw.circle(surf, chances.MARK, (r.right - lay.px(10), r.centery), lay.px(5))
            label = hand_label(self.records[k])
            room = r.w - lay.px(12) - (lay.px(18) if marked else 0)
            blit_text(
                surf,
                fit(label, size, room),
                size,
                (r.x + lay.px(6), r.centery),
                GOLD if current else INK,
                anchor="midleft",
            )
        self._draw_steps(surf)
        if self.notice:
            blit_text(
                surf,
                fit(self.notice, lay.font(17), p.w - lay.px(24)),
                lay.font(17),
                (p.x + lay.px(12), self.turn_rect.centery),
                (220, 200, 150),
                anchor="midleft",
            )
