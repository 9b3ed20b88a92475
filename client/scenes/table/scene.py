"""The table scene: turns events and messages into calls on its parts (``motion``,
``actionbar``, ``panel``, ``controls``) and draws the seats and the centre with the painter.
It keeps only what the messages do not: animations, pre-action boxes, the turn answered,
the chat being typed, the log's scroll and the host's half-made choice of a seat."""

from __future__ import annotations

from typing import Any

import pygame

from client import sound
from client.asking import ask_once_welcomed
from client.host import Host
from client.i18n import gettext as _
from client.keys import key_of
from client.model import Session
from client.render.layout import TableLayout
from client.render.picture import TablePicture, picture_of
from client.render.tablepaint import TablePainter
from client.render.text import text, wrap
from client.render.widgets import Button, panel
from client.scenes.base import Scene
from client.scenes.reconnect import ReconnectBanner
from client.scenes.table.actionbar import ActionBar, between_hands
from client.scenes.table.controls import hosting, seated
from client.scenes.table.motion import Motion
from client.scenes.table.panel import SidePanel
from common.events import Act, Event
from common.protocol import MAX_CHAT, Chat
from common.protocol import server_messages as r

__all__ = ["TableScene"]

Color = tuple[int, ...]


class TableScene(Scene):
    name = "table"

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.painter = TablePainter(host.art)
        self.lay = TableLayout(host.window_size, [], None)
        self.motion = Motion()
        self.bar = ActionBar()
        self.panel = SidePanel(host.settings)
        self.controls = self.panel.controls
        self._landing = False  # our cards are still flying in: no buttons, no clock yet
        self.lost = ReconnectBanner()  # the link is lost: the countdown and Stop trying
        self._notify_on_landing = False
        self.coach_match: str | None = None  # the first computer-table match: coach on
        self._felt: tuple[tuple[Any, ...], pygame.Surface] | None = None  # ``_draw_felt``
        self._coach_follow()

    def _seats(self) -> list[int]:
        s = self.host.session
        if s is None:
            return []
        if s.view is not None and s.view.seats:
            return sorted(set(s.view.seats) | set(s.players))
        return sorted(s.players)

    def resize(self, size: tuple[int, int]) -> None:
        s = self.host.session
        you = s.seat if s is not None else None
        self.lay = TableLayout(size, self._seats(), you)
        self.panel.solo = self.host.server_kind == "computer"
        self.panel.layout(self.lay, s, seen_shown=self.host.settings.seen_panel)
        self.bar.resize(self.lay)
        self.motion.place(self.lay)
        self._layout_buttons()
        self.lost.layout(self.lay.bar, self.lay.s)  # the lost-table banner: over the bar

    def _layout_buttons(self) -> None:
        self.bar.layout(self.lay, self.host.session, landing=self._landing)
        self.panel.bar_buttons = self.bar.buttons

    def coach_on(self) -> bool:
        """The person turned the coach on, or this is their first computer-table match."""
        s = self.host.session
        first = s is not None and s.match_id is not None and s.match_id == self.coach_match
        return self.host.settings.coach or first

    def _coach_follow(self) -> bool:
        """The first match at the computer table has the coach on (then the setting says);
        returns whether the coach's state changed."""
        s, st = self.host.session, self.host.settings
        in_match = s is not None and s.match_id and s.seat is not None
        if not st.coach_first and in_match and self.host.server_kind == "computer":
            st.coach_first = True
            self.coach_match = s.match_id
            self._save()
        on = self.coach_on()
        changed = on != self.panel.coach_on
        self.panel.coach_on = on
        return changed

    def _save(self) -> None:
        if self.host.save_settings:
            self.host.settings.save()

    def toggle_coach(self) -> None:
        """The coach on or off (its box, or key I); the choice is remembered."""
        st = self.host.settings
        on = not self.coach_on()
        st.coach = on
        if not on:
            self.coach_match = None
        self._save()
        self._coach_follow()
        self.resize(self.lay.size)

    def coach_lines(self) -> list[Any]:
        """The coach's lines as drawn now (empty while it is off)."""
        if not self.panel.coach_on:
            return []
        s = self.host.session
        return self.panel.coach.lines(s, self.panel.focus(s))

    def odds_allowed(self) -> bool:
        """The computer table always allows them; a friends' table as its host chose."""
        s = self.host.session
        return self.host.server_kind == "computer" or (s is not None and s.lobby.odds_allowed)

    def toggle_odds(self) -> None:
        """The odds readout on or off (its box, or key W); the choice is remembered."""
        st = self.host.settings
        st.odds = not st.odds
        self.panel.odds.on = st.odds
        self._save()
        self.panel.odds.follow(self.host.session, allowed=self.odds_allowed())
        self.resize(self.lay.size)

    def odds_lines(self) -> list[str]:
        """The readout's lines as drawn now (empty while it is off)."""
        return self.panel.odds.lines(self.host.session) if self.panel.odds.on else []

    def buttons(self) -> list[Button]:
        return list(self.bar.buttons)

    def _control_buttons(self) -> list[Button]:
        s = self.host.session
        return self.controls.buttons(s) + self.panel.asks.buttons(s)

    def control(self, what: str) -> bool:
        """Press one of the away or host buttons (also what tests call)."""
        s = self.host.session
        if s is None:
            return False
        if what.startswith(("ask:", "host:")):  # a seat asked back, the host's role
            sent = self.panel.asks.press(what, s, self.host.send)
        else:
            sent = self.controls.press(what, s, self.host.send)
        self.resize(self.lay.size)
        return sent

    def handle_event(self, event: pygame.event.Event) -> None:
        if lost := self.lost.handle_event(event, self.host.status):
            if lost == "stop":
                self.host.stop_trying()
            return
        chat = self.panel.chat
        if not self.panel.solo and chat.handle_event(event):
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            chat.focused = False
        p = self.panel
        if p.volume.handle_event(event):
            self._sound_changed()
            return
        if p.log.handle_event(event):
            return
        action = self.bar.handle_event(event)
        if action is not None:
            self.press(action)
            return
        for b in self._control_buttons():
            if b.handle_event(event):
                self.control(b.id)
                return
        if p.leave.handle_event(event):
            self.host.ask_leave()
            return
        if p.four.handle_event(event):
            self.host.set_four_color(p.four.value)
            return
        if p.rules.handle_event(event):
            self.host.show_rules()
            return
        for box, toggle in (
            (p.coach.box, self.toggle_coach),
            (p.odds.box, self.toggle_odds),
            (p.seen_box, self.toggle_seen),
        ):
            if box.handle_event(event):
                box.value = not box.value  # the toggle flips it back
                toggle()
                return
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and (rule := p.coach.rule_at(event.pos, self.coach_lines())) is not None
        ):
            self.host.show_rules(at=rule)
            return
        if p.replay.handle_event(event):
            self.open_replayer()
            return
        self.bar.handle_boxes(event)

    def _key(self, event: pygame.event.Event) -> None:
        chat = self.panel.chat
        if chat.focused:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self._send_chat()
            elif event.key == pygame.K_ESCAPE:
                chat.focused = False
            return
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            chat.focused = not self.panel.solo
            return
        name = pygame.key.name(event.key).upper()  # one key, one meaning (client.keys)
        toggles = {
            "seen": self.toggle_seen,
            "coach": self.toggle_coach,
            "odds": self.toggle_odds,
            "replay": self.open_replayer,
            "mute": self.toggle_mute,
        }
        toggle = next((t for what, t in toggles.items() if name == key_of("table", what)), None)
        if toggle is not None:
            toggle()
            return
        if self.panel.log.handle_event(event):
            return
        s = self.host.session
        if name == key_of("table", "away") and seated(s):
            self.control("away")
            return
        if name == key_of("table", "pause") and hosting(s):
            self.control("pause")
            return
        asked = self.panel.asks.key(name, s)
        if asked is not None:
            self.control(asked)
            return
        if name == "ESCAPE" and self.controls.taking:
            self.control("take:cancel")
            return
        action = self.bar.key(name)
        if action is not None:
            self.press(action)

    def toggle_mute(self) -> None:
        self.panel.volume.toggle()
        self._sound_changed()

    def _sound_changed(self) -> None:
        """One volume and a mute for every sound, remembered in the settings."""
        st = self.host.settings
        st.volume, st.sound = self.panel.volume.value, not self.panel.volume.muted
        sound.set_volume(st.volume)
        sound.set_muted(not st.sound)
        self._save()

    def toggle_seen(self) -> None:
        """Show or hide the cards-seen panel; the setting is remembered."""
        st = self.host.settings
        st.seen_panel = not st.seen_panel
        self.panel.seen_box.value = st.seen_panel
        self._save()
        self.resize(self.lay.size)

    def open_replayer(self) -> None:
        """The replayer over the table: this match's hands, the last one first."""
        s = self.host.session
        records = s.book.best() if s is not None else []
        if records:
            self.host.open("replayer", records=records, viewer=s.seat, start=len(records) - 1)

    def press(self, action: str) -> bool:
        """Send ``action`` for the current turn if it was offered (once per turn)."""
        if self.bar.press(action, self.host.session, self.host.send):
            self._layout_buttons()
            return True
        return False

    def _send_chat(self) -> None:
        chat = self.panel.chat
        msg = chat.value.strip()
        if msg:
            self.host.send(Chat(msg[:MAX_CHAT]).encode())
        chat.value = ""
        chat.focused = False

    def on_message(self, msg: r.ServerMessage) -> None:
        s = self.host.session
        if s is None:
            return
        self.panel.sync_log(s)  # now, not at the next update: draw may come first
        seats_may_change = isinstance(msg, r.Table | r.MatchStart | r.Welcome)
        if seats_may_change and set(self.lay.spots) != set(self._seats()):
            self.resize(self.lay.size)
        if isinstance(msg, r.Table):
            self.panel.seen.update(s.view)
        if isinstance(msg, r.Table | r.Lobby):  # a new card or a fold: the odds start again
            self.panel.odds.follow(s, allowed=self.odds_allowed())
        if isinstance(msg, r.Table) and s.view is not None:
            self.motion.on_view(s.view, s.hand, self.lay)
        if isinstance(msg, r.Events):
            _act_sound(msg.events)
        self._landing = self._cards_landing()
        if isinstance(msg, r.Turn) and s.my_turn() and not self._pre_act():
            if self._landing:
                self._notify_on_landing = True
            else:
                self.host.notify_turn()
        if isinstance(msg, r.Table | r.Turn | r.Events | r.HandEnd | r.Standings):
            self._layout_buttons()
        if isinstance(msg, r.Welcome):
            ask_once_welcomed(s, self.host.send)
        back = isinstance(msg, r.Presence) and s.host
        back = back or (isinstance(msg, r.Error) and msg.ref == "ask_seat")  # the asker's word
        if back or isinstance(msg, _ROWS_FOLLOW):
            self.resize(self.lay.size)  # the away, host and ask rows follow the state

    def _pre_act(self) -> bool:
        s = self.host.session
        assert s is not None
        choice = self.bar.pre_choice(s)
        return bool(choice and self.press(choice))

    def _cards_landing(self) -> bool:
        """Whether any of our own cards is still flying in from the deck."""
        s = self.host.session
        return self.motion.landing(s.seat if s is not None else None)

    def update(self, dt: float) -> None:
        settings = self.host.settings
        self.panel.follow(settings)
        s = self.host.session
        self.panel.replay.enabled = bool(s is not None and s.book.best())
        self.panel.seen.update(s.view if s is not None else None)
        self.panel.odds.follow(s, allowed=self.odds_allowed())
        self.panel.sync_log(s)
        if self._coach_follow():
            self.resize(self.lay.size)
        for name in self.motion.step(dt, s.seat if s is not None else None):
            sound.play(name)
        landing = self._cards_landing()
        if landing != self._landing:
            self._landing = landing
            self._layout_buttons()
            if not landing and self._notify_on_landing:
                self._notify_on_landing = False
                if s is not None and s.my_turn():
                    self.host.notify_turn()

    def spare(self, seconds: float) -> None:
        self.panel.odds.work(seconds)  # the frame's slice of the odds, within what is left

    def animating(self) -> bool:
        return self.motion.moving() or self.panel.odds.running()  # 60 fps while working

    def wake_in(self) -> float | None:
        s = self.host.session
        if s is None:
            return None
        c, view = s.clocks, s.view
        if s.my_turn() and c.ours is not None:
            return 0.25
        if c.turn is not None and view is not None and view.to_act == c.turn.seat:
            return 0.25
        if c.dropped:
            return 0.5
        return None

    def between_hands(self) -> str:
        """The bar's words while a hand's end shows: the next hand, or the standings."""
        return between_hands(self.host.session)

    def pot_paid(self) -> bool:
        """The hand is over and its pot has left the middle for the winners."""
        s = self.host.session
        return self.motion.pot_paid(s.view if s is not None else None)

    def felt_chips(self) -> list[tuple[tuple[int, int], int]]:
        """The chips lying still on the felt (not the pot's): where and how many."""
        s = self.host.session
        return self.motion.felt_chips(s.view if s is not None else None, self.lay)

    def draw(self, surf: pygame.Surface) -> None:
        lay = self.lay
        s = self.host.session
        if s is None:
            surf.blit(self.painter.background(lay), (0, 0))
            return
        now = self.host.now()
        pic = picture_of(s, now)
        self._draw_felt(surf, s, pic)
        self.motion.draw_flying(surf, lay, self.painter, self.host.art)
        self.bar.draw(surf, lay, s, now, landing=self._landing, back=self.controls.back)
        self.panel.draw(surf, lay, s, self.host.settings)
        self._draw_banner(surf)

    def _draw_felt(self, surf: pygame.Surface, s: Session, pic: TablePicture) -> None:
        """The felt and all that lies still on it.  While nothing flies it is kept, and blitted
        again while all it shows is the same: a table waiting on a seat is one blit a frame
        instead of some 300 drawing calls (``scripts/bench_client.py``)."""
        lay, view = self.lay, s.view
        looks = {
            seat: self.painter.plate_look(
                lay,
                spot,
                view.seats.get(seat) if view else None,
                s.players.get(seat),
                pic=pic,
                clock=not self._landing,
            )
            for seat, spot in lay.spots.items()
        }
        key = (lay, view, pic.hand, pic.hands, looks, self.host.art.four_color)
        if self._felt is not None and self._felt[0] == key and not self.motion.anims:
            surf.blit(self._felt[1], (0, 0))
            return
        hidden = self.motion.hidden()
        surf.blit(self.painter.background(lay), (0, 0))
        self.painter.centre(surf, lay, pic, pot_hidden=self.pot_paid())
        self.motion.draw_deck(surf, lay, self.host.art)
        self.painter.seats(surf, lay, pic, hidden=hidden, looks=looks)
        for at, amount in self.felt_chips():
            self.painter.chips(surf, lay, at, amount)
        self._felt = None if self.motion.anims else (key, surf.copy())

    def _draw_notice(
        self, surf: pygame.Surface, words: str, ink: Color, fill: Color, *, bold: bool = False
    ) -> None:
        """A box of words over the middle of the table, under the pot."""
        lay = self.lay
        lines = wrap(words, lay.font(26), lay.felt.w - lay.px(40))
        imgs = [text(line, lay.font(26), ink, bold=bold) for line in lines]
        h = sum(img.get_height() for img in imgs)
        box = pygame.Rect(0, 0, max(img.get_width() for img in imgs), h)
        box = box.inflate(lay.px(40), lay.px(18))
        box.center = (lay.center[0], lay.center[1] + lay.px(100))
        panel(surf, box, fill, lay.px(10))
        y = box.centery - h // 2
        for img in imgs:
            surf.blit(img, img.get_rect(midtop=(box.centerx, y)))
            y += img.get_height()

    def _draw_banner(self, surf: pygame.Surface) -> None:
        s = self.host.session
        if s is not None and s.clocks.waiting:  # the host cannot save (server.saving)
            self._draw_notice(surf, s.clocks.waiting, (40, 16, 10), (250, 196, 120, 240))
        elif s is not None and s.clocks.paused:  # R-C3: the hand in play is played out first
            who = s.clocks.paused_by
            if s.view is not None and not s.view.over:
                msg = (
                    _("Paused by {who}: this hand is played out, then the table waits")
                    if who
                    else _("Paused by the host: this hand is played out, then the table waits")
                )
            else:
                msg = (
                    _("Paused by {who}: no new hand until the host resumes")
                    if who
                    else _("Paused by the host: no new hand until the host resumes")
                )
            msg = msg.format(who=who)
            self._draw_notice(surf, msg, (20, 20, 30), (170, 200, 250, 235), bold=True)
        self.lost.draw(surf, self.host.status, self.host.now())


_ROWS_FOLLOW = (
    r.SeatAway,
    r.Paused,
    r.Lobby,
    r.MatchStart,
    r.Welcome,
    r.Standings,
    r.SeatAsked,
    r.AskAnswer,
    r.Waiting,
)
"""Messages after which the away, host and ask rows are laid out again."""


def _act_sound(events: list[Event]) -> None:
    """The sound of one action as it happens (a comeback's replay of many stays quiet)."""
    acts = [e for e in events if isinstance(e, Act)]
    if len(acts) == 1:
        action = acts[0].action
        sound.play(action.value if action in ("check", "fold") else "chips")
