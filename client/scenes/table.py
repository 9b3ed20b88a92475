"""The table scene: the hand as our seat sees it, the action buttons, the log and chat.

The scene keeps only what the server's messages do not: animations (cards
flying from the deck, chips sliding to the pot and to the winners), the
pre-action checkboxes, the chat line being typed and how far the log is
scrolled back (``client.render.logview``).  Buttons are exactly the
``legal`` list of our ``turn``; pressing one (or its key) sends ``act`` once.
"""

from __future__ import annotations

import time
from dataclasses import replace
from math import ceil
from typing import Any

import pygame

from client import sound
from client.host import Host
from client.render.layout import TableLayout
from client.render.logview import LogView
from client.render.motion import Anim
from client.render.picture import picture_of
from client.render.seenpanel import SeenPanel
from client.render.tablepaint import ORANGE, TablePainter
from client.render.text import blit_text, text
from client.render.volume import VolumeControl
from client.render.widgets import GOLD, MUTED, Button, Checkbox, TextInput, panel
from client.scenes.base import Scene
from client.view import Legal, TableView
from common.protocol import MAX_CHAT, Act, Away, Back, Chat, Pause, Resume, TakeSeat

__all__ = ["TableScene"]

DEAL_GAP = 0.06
DEAL_TIME = 0.28
CHIP_TIME = 0.45


def _fresh_deal(view: TableView) -> bool:
    """Whether ``view`` is a hand's first deal, before anyone has acted (R-D1, R-D2).

    The first hand of a match is shown dealt like every other; a hand already
    under way when we arrive is shown as it is.
    """
    return (
        view.street == 3
        and not view.over
        and all(sv.last_action is None and not sv.bet for sv in view.seats.values())
    )


class TableScene(Scene):
    name = "table"

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.painter = TablePainter(host.art)
        self.lay = TableLayout(host.window_size, [], None)
        self.anims: list[Anim] = []
        self.prev: TableView | None = None
        self.prev_hand = -1
        self.sent_turn: int | None = None
        self.pre_fold = Checkbox("pre_fold", "Check/Fold")
        self.pre_call = Checkbox("pre_call", "Call any")
        self.chat = TextInput("chat", placeholder="Enter to chat", max_len=MAX_CHAT, size=22)
        self.leave = Button("leave", "Leave", size=22, style="danger")
        self.four = Checkbox("four", "4 colours", value=host.settings.four_color, size=20)
        self.rules = Button("rules", "Rules", size=20)  # the house rules (also F1)
        self.log = LogView()
        self.volume = VolumeControl(value=host.settings.volume, muted=not host.settings.sound)
        self._buttons: list[Button] = []
        self._landing = False  # our cards are still flying in: no buttons, no clock yet
        self._notify_on_landing = False
        # The cards-seen panel and the way to the replayer (client.render.seenpanel).
        self.seen = SeenPanel()
        self.seen_box = Checkbox("seen", "Cards seen (S)", value=host.settings.seen_panel, size=20)
        self.replay = Button("replay", "Replay (H)", size=20)
        self.seen_rect = pygame.Rect(0, 0, 0, 0)
        # Away and back (R-C2) and the host's controls at the table (R-C3).
        self.away = Button("away", "Step away", "A", size=22)
        self.back = Button("back", "I'm back", "A", style="primary")
        self.pause = Button("pause", "Pause", "P", size=22)
        self.take = Button("take", "Take a seat…", size=22)
        self.taking = False  # the host is choosing a seat to take away
        self.confirm: int | None = None  # the seat a second press takes away
        self._take_buttons: list[Button] = []
        self._controls_pic: tuple[tuple[Any, ...], pygame.Surface] | None = None

    # ------------------------------------------------------------ layout

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
        lay = self.lay
        p = lay.panel
        self.leave.rect = pygame.Rect(
            p.right - lay.px(104), p.y + lay.px(12), lay.px(92), lay.px(38)
        )
        self.four.rect = pygame.Rect(p.x + lay.px(14), p.y + lay.px(16), lay.px(170), lay.px(30))
        self.four.size = lay.font(20)
        self.leave.size = lay.font(22)
        self.rules.rect = pygame.Rect(0, 0, lay.px(68), self.leave.rect.h)
        self.rules.rect.topright = (self.leave.rect.x - lay.px(8), self.leave.rect.y)
        self.rules.size = lay.font(20)
        self.four.rect.w = min(self.four.rect.w, self.rules.rect.x - lay.px(6) - self.four.rect.x)
        self.chat.rect = pygame.Rect(
            p.x + lay.px(12), p.bottom - lay.px(54), p.w - lay.px(24), lay.px(42)
        )
        self.chat.size = lay.font(22)
        self.seen_box.rect = pygame.Rect(
            p.x + lay.px(14), p.y + lay.px(58), lay.px(150), lay.px(30)
        )
        self.seen_box.size = lay.font(20)
        self.replay.rect = pygame.Rect(
            p.right - lay.px(130), p.y + lay.px(56), lay.px(118), lay.px(34)
        )
        self.replay.size = lay.font(20)
        self.volume.rect = pygame.Rect(
            p.x + lay.px(14), p.y + lay.px(98), p.w - lay.px(28), lay.px(26)
        )
        top = self._layout_controls(p.y + lay.px(134))
        self.seen_rect = pygame.Rect(
            p.x + lay.px(10), top, p.w - lay.px(20), SeenPanel.height(lay.s)
        )
        if self.host.settings.seen_panel:
            top = self.seen_rect.bottom + lay.px(12)
        self.log.area = p
        self.log.rect = pygame.Rect(
            p.x + lay.px(14), top, p.w - lay.px(28), self.chat.rect.top - lay.px(10) - top
        )
        self.log.size = lay.font(21)
        self._sync_log()
        bar = lay.bar
        self.pre_fold.rect = pygame.Rect(
            bar.x + lay.px(30), bar.centery - lay.px(16), lay.px(180), lay.px(32)
        )
        self.pre_call.rect = self.pre_fold.rect.move(lay.px(200), 0)
        for cb in (self.pre_fold, self.pre_call):
            cb.size = lay.font(22)
        for a in self.anims:
            a.place(lay)  # whatever is in flight lands where it belongs in the new window
        self._layout_buttons()

    # ---- away, back and the host's controls

    def _seated(self) -> bool:
        s = self.host.session
        return bool(s is not None and s.seat is not None and not s.watch and s.running)

    def _hosting(self) -> bool:
        s = self.host.session
        return bool(self._seated() and s is not None and s.host)

    def _takeable(self) -> list[Any]:
        """People's seats the host may take away: not its own, not taken already."""
        s = self.host.session
        if s is None:
            return []
        return [
            p
            for seat, p in sorted(s.players.items())
            if p.kind == "human" and seat != s.seat and p.away_why != "taken"
        ]

    def _layout_controls(self, y: int) -> int:
        """Place the panel's away and host rows from ``y`` down; returns where they end."""
        lay = self.lay
        p = lay.panel
        s = self.host.session
        x, w = p.x + lay.px(12), p.w - lay.px(24)
        self.away.rect = pygame.Rect(x, y, w, lay.px(38))
        self.away.label = "I'm back" if s is not None and s.away() else "Step away"
        self.away.style = "primary" if s is not None and s.away() else "normal"
        self.away.size = self.pause.size = self.take.size = lay.font(22)
        if self._seated():
            y += lay.px(46)
        if self._hosting():
            half = (w - lay.px(8)) // 2
            self.pause.rect = pygame.Rect(x, y, half, lay.px(38))
            self.take.rect = pygame.Rect(x + half + lay.px(8), y, w - half - lay.px(8), lay.px(38))
            self.pause.label = "Resume" if s is not None and s.paused else "Pause"
            self.pause.style = "primary" if s is not None and s.paused else "normal"
            y += lay.px(46)
            old = {b.id: b for b in self._take_buttons}
            self._take_buttons = []
            if self.taking:
                for player in [*self._takeable(), None]:
                    if player is None:
                        b = Button("take:cancel", "Cancel", size=lay.font(20))
                    elif self.confirm == player.seat:
                        b = Button(f"take:{player.seat}", f"Take {player.name}'s seat?",
                                   style="danger", size=lay.font(20))  # fmt: skip
                    else:
                        b = Button(f"take:{player.seat}", player.name, size=lay.font(20))
                    if b.id in old:
                        b.hover = old[b.id].hover
                    b.rect = pygame.Rect(x, y, w, lay.px(34))
                    self._take_buttons.append(b)
                    y += lay.px(40)
        else:
            self.taking, self.confirm, self._take_buttons = False, None, []
        back_w = lay.px(200)
        self.back.rect = pygame.Rect(
            lay.bar.right - back_w - lay.px(24), lay.bar.centery - lay.px(27), back_w, lay.px(54)
        )
        self.back.size = lay.font(26)
        return y + lay.px(4)

    def _control_buttons(self) -> list[Button]:
        s = self.host.session
        out: list[Button] = []
        if self._seated() and s is not None and not s.sits_out():  # not for a late arrival
            me = s.me()
            if me is None or me.away_why != "taken":
                out.append(self.away)
                if s.away():
                    out.append(self.back)
        if self._hosting():
            out += [self.pause, self.take, *self._take_buttons]
        return out

    def control(self, what: str) -> bool:
        """Press one of the away or host buttons (also what tests call)."""
        s = self.host.session
        if s is None:
            return False
        sent = False
        me = s.me()
        if what in ("away", "back"):
            if self._seated() and (me is None or me.away_why != "taken"):
                sent = self.host.send((Back() if s.away() else Away()).encode())
        elif what == "pause" and self._hosting():
            sent = self.host.send((Resume() if s.paused else Pause()).encode())
        elif what == "take" and self._hosting():
            self.taking, self.confirm = not self.taking, None
        elif what == "take:cancel":
            self.taking, self.confirm = False, None
        elif what.startswith("take:") and self._hosting():
            seat = int(what.split(":", 1)[1])
            if self.confirm != seat:
                self.confirm = seat
            else:
                sent = self.host.send(TakeSeat(seat).encode())
                self.taking, self.confirm = False, None
        self.resize(self.lay.size)
        return sent

    def _layout_buttons(self) -> None:
        s = self.host.session
        legal: list[Legal] = s.actions() if s is not None else []
        if s is not None and s.turn is not None and s.turn == self.sent_turn:
            legal = []
        if self._landing:
            legal = []  # decide once you have seen your cards
        lay = self.lay
        old = {b.id: b for b in self._buttons}
        buttons = []
        for a in legal:
            style = (
                "danger"
                if a.action == "fold"
                else "primary"
                if a.action in ("call", "check")
                else "normal"
            )
            b = Button(a.action, a.label, a.key, style=style, size=lay.font(26))
            if a.action in old:
                b.hover = old[a.action].hover
            buttons.append(b)
        w, h, gap = lay.px(215), lay.px(56), lay.px(14)
        total = len(buttons) * w + max(0, len(buttons) - 1) * gap
        x = lay.bar.centerx - total // 2
        for b in buttons:
            b.rect = pygame.Rect(x, lay.bar.centery - h // 2 - lay.px(4), w, h)
            x += w + gap
        self._buttons = buttons

    def buttons(self) -> list[Button]:
        return list(self._buttons)

    # ------------------------------------------------------------ input

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.chat.handle_event(event):
            return
        if event.type == pygame.KEYDOWN:
            if self.chat.focused:
                if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    self._send_chat()
                elif event.key == pygame.K_ESCAPE:
                    self.chat.focused = False
                return
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.chat.focused = True
                return
            if event.key == pygame.K_s:
                self.toggle_seen()
                return
            if event.key == pygame.K_h:
                self.open_replayer()
                return
            if self.log.handle_event(event):
                return
            if event.key == pygame.K_m:
                self.volume.toggle()
                self._sound_changed()
                return
            name = pygame.key.name(event.key).upper()
            if name == "A" and self._seated():
                self.control("away")
                return
            if name == "P" and self._hosting():
                self.control("pause")
                return
            if name == "ESCAPE" and self.taking:
                self.control("take:cancel")
                return
            for i, b in enumerate(self._buttons):
                if name == b.key or name == str(i + 1):
                    self.press(b.id)
                    return
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.chat.focused = False
        if self.volume.handle_event(event):
            self._sound_changed()
            return
        if self.log.handle_event(event):
            return
        for b in self._buttons:
            if b.handle_event(event):
                self.press(b.id)
                return
        for b in self._control_buttons():
            if b.handle_event(event):
                self.control(b.id)
                return
        if self.leave.handle_event(event):
            self.host.ask_leave()
            return
        if self.four.handle_event(event):
            self.host.set_four_color(self.four.value)
            return
        if self.rules.handle_event(event):
            self.host.show_rules()
            return
        if self.seen_box.handle_event(event):
            self.seen_box.value = not self.seen_box.value  # toggle_seen flips it back
            self.toggle_seen()
            return
        if self.replay.handle_event(event):
            self.open_replayer()
            return
        if self.pre_fold.handle_event(event):
            self.pre_call.value = self.pre_call.value and not self.pre_fold.value
        elif self.pre_call.handle_event(event):
            self.pre_fold.value = self.pre_fold.value and not self.pre_call.value

    def _sound_changed(self) -> None:
        """One volume and a mute for every sound, remembered in the settings."""
        st = self.host.settings
        st.volume, st.sound = self.volume.value, not self.volume.muted
        sound.set_volume(st.volume)
        sound.set_muted(not st.sound)
        if self.host.save_settings:
            st.save()

    def toggle_seen(self) -> None:
        """Show or hide the cards-seen panel; the setting is remembered."""
        st = self.host.settings
        st.seen_panel = not st.seen_panel
        self.seen_box.value = st.seen_panel
        if self.host.save_settings:
            st.save()
        self.resize(self.lay.size)

    def open_replayer(self) -> None:
        """The replayer over the table: this match's hands, the last one first."""
        s = self.host.session
        records = s.book.best() if s is not None else []
        if records:
            self.host.open("replayer", records=records, viewer=s.seat, start=len(records) - 1)

    def press(self, action: str) -> bool:
        """Send ``action`` for the current turn if it was offered (once per turn)."""
        s = self.host.session
        if s is None or s.turn is None or s.turn == self.sent_turn:
            return False
        if action not in {a.action for a in s.actions()}:
            return False
        if self.host.send(Act(s.turn, action).encode()):
            self.sent_turn = s.turn
            self._layout_buttons()
            return True
        return False

    def _send_chat(self) -> None:
        msg = self.chat.value.strip()
        if msg:
            self.host.send(Chat(msg[:MAX_CHAT]).encode())
        self.chat.value = ""
        self.chat.focused = False

    # ------------------------------------------------------------ messages

    def on_message(self, kind: str, msg: dict[str, Any]) -> None:
        s = self.host.session
        if s is None:
            return
        self._sync_log()  # now, not at the next update: draw may come first
        if kind in ("table", "match_start", "welcome") and set(self.lay.spots) != set(
            self._seats()
        ):
            self.resize(self.lay.size)
        if kind == "table":
            self.seen.update(s.view)
        if kind == "table" and s.view is not None:
            self._animate(self.prev if s.hand == self.prev_hand else None, s.view)
            self.prev, self.prev_hand = s.view, s.hand
        if kind == "events":
            self._act_sound(msg)
        self._landing = self._cards_landing()
        if kind == "turn" and s.my_turn() and not self._pre_act():
            if self._landing:
                self._notify_on_landing = True
            else:
                self.host.notify_turn()
        if kind in ("table", "turn", "events", "hand_end", "standings"):
            self._layout_buttons()
        if kind in ("seat_away", "paused", "lobby", "match_start", "welcome", "standings"):
            self.resize(self.lay.size)  # the away and host rows follow the state

    def _pre_act(self) -> bool:
        s = self.host.session
        offered = {a.action for a in s.actions()}
        choice = None
        if self.pre_fold.value:
            choice = "check" if "check" in offered else "fold"
        elif self.pre_call.value:
            choice = "call" if "call" in offered else "check" if "check" in offered else None
        self.pre_fold.value = self.pre_call.value = False
        return bool(choice and self.press(choice))

    def _act_sound(self, msg: dict[str, Any]) -> None:
        """The sound of one action as it happens (a comeback's replay of many stays quiet)."""
        events = msg.get("events")
        acts = (
            [e for e in events if isinstance(e, dict) and e.get("ev") == "act"]
            if isinstance(events, list)
            else []
        )
        if len(acts) != 1:
            return
        action = acts[0].get("action")
        if action in ("check", "fold"):
            sound.play(str(action))
        elif action in ("bring_in", "complete", "bet", "raise", "call"):
            sound.play("chips")

    def _cards_landing(self) -> bool:
        """Whether any of our own cards is still flying in from the deck."""
        s = self.host.session
        me = s.seat if s is not None else None
        return me is not None and any(
            a.kind == "card" and a.seat == me and a.progress < 1 for a in self.anims
        )

    def _add(self, anim: Anim) -> None:
        self.anims.append(anim.place(self.lay))

    def _animate(self, prev: TableView | None, view: TableView) -> None:
        lay = self.lay
        if prev is None and self.prev_hand != -1:
            # A new hand: clear the last hand's chips, keep nothing flying.
            self.anims = [a for a in self.anims if a.kind == "card" and a.progress < 1]
        if prev is None and self.prev is None and not _fresh_deal(view):
            return  # first sight of a hand under way (joining, reconnecting): no replay
        order = [s for s in view.order if s in lay.spots]
        base = 0.0
        # Bets swept into the pot when a betting round ends (the street or the hand).
        if prev is not None and (view.street != prev.street or (view.over and not prev.over)):
            # At a hand's end the view still holds its last street's bets; a new street's
            # view has none, so the round's bets are the previous view's.
            bets = view.seats if view.over else prev.seats
            for seat, sv in bets.items():
                if sv.bet and seat in lay.spots:
                    self._add(Anim("chips", seat, 0, ("bet", seat), ("pot",), 0, CHIP_TIME, sv.bet))
            if any(sv.bet for sv in bets.values()):
                base = CHIP_TIME * 0.6
        # New cards fly from the deck, one at a time in deal order (R-D2).
        counts = {
            s: (len(prev.seats[s].cards()) if prev is not None and s in prev.seats else 0)
            for s in order
        }
        new = {s: len(view.seats[s].cards()) for s in order if s in view.seats}
        k = 0
        for rnd in range(7):
            for seat in order:
                n0, n1 = counts.get(seat, 0), new.get(seat, 0)
                if n0 <= rnd < n1 and not (
                    view.seats[seat].shown and prev is not None and seat in prev.seats
                ):
                    self._add(
                        Anim(
                            "card",
                            seat,
                            rnd,
                            ("deck",),
                            ("card", seat, rnd, n1),
                            base + k * DEAL_GAP,
                            DEAL_TIME,
                        )
                    )
                    k += 1
        # The pot goes to the winners, to rest in front of them (not on their plates).
        if view.awards and (prev is None or not prev.awards):
            delay = base + k * DEAL_GAP + 0.5
            won: dict[int, int] = {}
            for seat, amount, _pot in view.awards:
                if seat in lay.spots and amount:
                    won[seat] = won.get(seat, 0) + amount
            for seat, amount in won.items():
                self._add(Anim("chips", seat, 1, ("pot",), ("won", seat), delay, 0.7, amount))

    # ------------------------------------------------------------ time

    def _sync_log(self) -> None:
        s = self.host.session
        self.log.sync(s.log if s is not None else ())

    def update(self, dt: float) -> None:
        # The setting may change elsewhere (start screen, App.set_four_color).
        self.four.value = self.host.settings.four_color
        if not self.volume.dragging:
            self.volume.value = self.host.settings.volume
            self.volume.muted = not self.host.settings.sound
        s = self.host.session
        self.replay.enabled = bool(s is not None and s.book.best())
        self.seen.update(s.view if s is not None else None)
        self._sync_log()
        me = self.host.session.seat if self.host.session is not None else None
        sounds: list[str] = []  # each at most once a step: three bets swept make one sound
        for a in self.anims:
            a.t += dt
            if a.started and not a.heard:
                a.heard = True
                if a.kind == "card":
                    sounds.append("card")
                else:
                    sounds.append("win" if a.index == 1 and a.seat == me else "chips")
        for name in dict.fromkeys(sounds):
            sound.play(name)
        self.anims = [a for a in self.anims if a.t < a.delay + a.dur]
        landing = self._cards_landing()
        if landing != self._landing:
            self._landing = landing
            self._layout_buttons()
            if not landing and self._notify_on_landing:
                self._notify_on_landing = False
                s = self.host.session
                if s is not None and s.my_turn():
                    self.host.notify_turn()

    def animating(self) -> bool:
        return bool(self.anims)

    def wake_in(self) -> float | None:
        s = self.host.session
        if s is None:
            return None
        if s.my_turn() and s.time_left is not None:
            return 0.25
        view = s.view
        if s.clock is not None and view is not None and view.to_act == s.clock.seat:
            return 0.25
        if s.presence:
            return 0.5
        return None

    # ------------------------------------------------------------ drawing

    def pot_paid(self) -> bool:
        """The hand is over and its pot has left the middle for the winners."""
        view = self.host.session.view if self.host.session is not None else None
        return bool(
            view
            and view.over
            and not any(a.kind == "chips" and a.index == 1 and not a.started for a in self.anims)
        )

    def felt_chips(self) -> list[tuple[tuple[int, int], int]]:
        """The chips lying still on the felt (not the pot's): where and how many.

        During a street, each seat's bet in front of it.  Once a hand is over its
        bets have been swept into the pot, and once the pot is paid each winner's
        chips rest in front of it, past its hand's name and off its name plate,
        until the next deal.
        """
        s = self.host.session
        view = s.view if s is not None else None
        if view is None:
            return []
        lay = self.lay
        if not view.over:
            return [
                (lay.spots[seat].bet_at, sv.bet)
                for seat, sv in view.seats.items()
                if sv.bet and seat in lay.spots
            ]
        if not self.pot_paid():
            return []
        flying = {a.seat for a in self.anims if a.kind == "chips" and a.index == 1}
        won: dict[int, int] = {}
        for seat, amount, _pot in view.awards:
            won[seat] = won.get(seat, 0) + amount
        return [
            (lay.won_at(seat), amount)
            for seat, amount in won.items()
            if amount and seat in lay.spots and seat not in flying
        ]

    def draw(self, surf: pygame.Surface) -> None:
        lay = self.lay
        s = self.host.session
        surf.blit(self.painter.background(lay), (0, 0))
        if s is None:
            return
        now = time.monotonic()
        view = s.view
        hidden: dict[int, set[int]] = {}
        for a in self.anims:
            if a.kind == "card" and a.progress < 1:
                hidden.setdefault(a.seat, set()).add(a.index)
        pic = picture_of(s, now)
        self.painter.centre(surf, lay, pic, pot_hidden=self.pot_paid())
        if any(a.kind == "card" and a.progress < 0 for a in self.anims):
            back = self.host.art.back(lay.px(50))
            for i in range(3):
                surf.blit(
                    back, back.get_rect(center=(lay.deck_at[0] + i * 2, lay.deck_at[1] - i * 2))
                )
        showdown = bool(view and view.over)
        winners = {seat for seat, _, _ in view.awards} if view else set()
        for seat, spot in lay.spots.items():
            sv = view.seats.get(seat) if view else None
            player = s.players.get(seat)
            if sv is not None:
                self.painter.seat_cards(
                    surf, spot, sv, hidden=hidden.get(seat, set()), showdown=showdown
                )
            self.painter.plate(surf, lay, spot, sv, player, pic=pic, clock=not self._landing)
            if sv is not None and sv.shown is not None and showdown:
                self.painter.shown_name(surf, lay, spot, sv, seat in winners)
            if view is not None and view.button == seat:
                self.painter.dealer_button(surf, lay, spot)
        for at, amount in self.felt_chips():
            self.painter.chips(surf, lay, at, amount)
        for a in self.anims:
            if a.progress < 0:
                continue
            if a.kind == "card" and a.progress < 1:
                spot = lay.spots.get(a.seat)
                if spot is not None:
                    surf.blit(self.host.art.back(spot.card_w), a.pos())
            elif a.kind == "chips":
                x, y = a.pos()
                self.painter.chips(surf, lay, (round(x), round(y)), a.amount, label=a.index == 1)
        self._draw_bar(surf, s, now)
        self._draw_panel(surf)
        self._draw_banner(surf)

    def _draw_bar(self, surf: pygame.Surface, s: Any, now: float) -> None:
        lay = self.lay
        if self._buttons:
            for b in self._buttons:
                b.draw(surf)
            self._draw_clock(surf, s, now)
            return
        me = s.me()
        if me is not None and me.away and not s.watch:
            if me.away_why == "taken":
                msg = "The host took your seat away for this match: you are watching"
                blit_text(surf, msg, lay.font(24), lay.bar.center, ORANGE, anchor="center")
                return
            doing = "a computer plays your seat" if me.stand_in else "your seat checks or folds"
            blit_text(
                surf,
                f"You are away: {doing}",
                lay.font(26),
                (lay.bar.x + lay.px(30), lay.bar.centery),
                ORANGE,
                bold=True,
                anchor="midleft",
            )
            self.back.draw(surf)
            return
        view = s.view
        me = view.seats.get(s.seat) if view and s.seat is not None else None
        if s.watch or s.seat is None:
            msg = "Watching"
        elif view is None:
            msg = "Waiting for the first deal…"
        elif s.sits_out():
            msg = "You sit in at the next match: watching this one"
        elif view.over:
            msg = self.between_hands()
        elif me is None or me.folded:
            msg = "You are out of this hand"
        elif me.all_in:
            msg = "You are all in"
        elif s.my_turn() and self._landing:
            msg = "Your cards are coming…"  # the buttons follow once they are down
        else:
            self.pre_fold.draw(surf)
            self.pre_call.draw(surf)
            waiting = s.name_of(view.to_act) if view.to_act is not None else ""
            if s.turn is not None and s.turn == self.sent_turn:
                waiting = "the server"
            if waiting:
                blit_text(
                    surf,
                    f"Waiting for {waiting}…",
                    lay.font(24),
                    (lay.bar.right - lay.px(24), lay.bar.centery),
                    MUTED,
                    anchor="midright",
                )
            return
        blit_text(surf, msg, lay.font(26), lay.bar.center, MUTED, anchor="center")

    def between_hands(self) -> str:
        """The bar's words while a hand's end shows: the next hand, or the standings."""
        s = self.host.session
        if s is not None and s.standings is not None:
            return "The match is over"
        if s is not None and s.hand >= s.hands:
            return "That was the last hand: the standings come next…"
        return "Next hand soon…"

    def _draw_clock(self, surf: pygame.Surface, s: Any, now: float) -> None:
        """Our turn's clock at the bar's right: the decision's seconds, then the bank (R-C4)."""
        lay = self.lay
        at = (lay.bar.right - lay.px(20), lay.bar.centery)
        left = s.clock_left(s.seat, now) if s.seat is not None else None
        if left is None:
            secs = s.seconds_left(now)
            if secs is not None:
                blit_text(surf, f"{ceil(secs)}s", lay.font(30), at, GOLD, bold=True,
                          anchor="midright")  # fmt: skip
            return
        decision, bank = left
        if decision > 0:
            main, col = f"{ceil(decision)}s", GOLD
            # (a protocol 1 server says nothing of a bank)
            sub = (
                f"bank {ceil(bank)}s" if bank > 0 else "no bank left" if s.bank is not None else ""
            )
        else:
            main, col, sub = f"bank {ceil(bank)}s", ORANGE, "time bank"
        if s.paused:
            col, sub = MUTED, "paused"
        r = blit_text(surf, main, lay.font(30), (at[0], at[1] - lay.px(10)), col, bold=True,
                      anchor="midright")  # fmt: skip
        blit_text(surf, sub, lay.font(18), (at[0], r.bottom + lay.px(8)), MUTED, anchor="midright")

    def _draw_controls(self, surf: pygame.Surface) -> None:
        """The panel's away and host buttons, drawn once into a cached picture: they change
        only when pressed, hovered or relabelled, and the table draws 60 times a second."""
        buttons = [b for b in self._control_buttons() if b is not self.back]
        if not buttons:
            return
        area = buttons[0].rect.unionall([b.rect for b in buttons]).inflate(0, 8)
        key = (tuple(area),) + tuple(
            (b.id, b.label, b.style, b.hover, b.enabled, b.size, tuple(b.rect)) for b in buttons
        )
        if self._controls_pic is None or self._controls_pic[0] != key:
            pic = pygame.Surface(area.size, pygame.SRCALPHA)
            for b in buttons:
                replace(b, rect=b.rect.move(-area.x, -area.y)).draw(pic)
            self._controls_pic = (key, pic)
        surf.blit(self._controls_pic[1], area.topleft)

    def _draw_panel(self, surf: pygame.Surface) -> None:
        lay = self.lay
        p = lay.panel
        self.four.draw(surf)
        self.rules.draw(surf)
        self.leave.draw(surf)
        self.volume.draw(surf)
        self.seen_box.draw(surf)
        self.replay.draw(surf)
        self._draw_controls(surf)
        if self.host.settings.seen_panel:
            self.seen.draw(surf, self.seen_rect, self.lay.s, four=self.host.settings.four_color)
        top = self.log.rect.top
        pygame.draw.line(
            surf,
            (60, 70, 70),
            (p.x + lay.px(10), top - lay.px(6)),
            (p.right - lay.px(10), top - lay.px(6)),
        )
        self.log.draw(surf)
        self.chat.draw(surf)

    def _draw_paused(self, surf: pygame.Surface, s: Any) -> None:
        """R-C3: the table is paused; the hand in play is played out first."""
        lay = self.lay
        view = s.view
        who = s.paused_by or "the host"
        if view is not None and not view.over:
            msg = f"Paused by {who}: this hand is played out, then the table waits"
        else:
            msg = f"Paused by {who}: no new hand until the host resumes"
        img = text(msg, lay.font(26), (20, 20, 30), bold=True)
        box = img.get_rect().inflate(lay.px(40), lay.px(18))
        box.center = (lay.center[0], lay.center[1] + lay.px(100))
        panel(surf, box, (170, 200, 250, 235), lay.px(10))
        surf.blit(img, img.get_rect(center=box.center))

    def _draw_banner(self, surf: pygame.Surface) -> None:
        s = self.host.session
        if s is not None and s.paused:
            self._draw_paused(surf, s)
        st = self.host.status
        if st.state not in ("retrying", "connecting"):
            return
        lay = self.lay
        lost = "The server went silent" if st.message.startswith("no word") else "Connection lost"
        msg = f"{lost}: reconnecting" + (f" (try {st.attempt})" if st.attempt else "") + "…"
        img = text(msg, lay.font(28), (30, 20, 0), bold=True)
        box = img.get_rect().inflate(lay.px(40), lay.px(20))
        box.midtop = (lay.area.centerx, lay.px(12))
        panel(surf, box, (250, 190, 80, 240), lay.px(10))
        surf.blit(img, img.get_rect(center=box.center))
