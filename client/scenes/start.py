"""The start screen: your name and the ways to a table.

Play the computer, host a friends' table, or join or watch one: found on the network (its
password asked if it needs one) or typed (the recent addresses offered), with the table's
key checked before any hello (``client.link``).  Settings are saved as a way in is chosen.
A computer match left unfinished is offered under the title with *Resume*; *New match*
then asks once before dropping it for good.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import pygame

from client.address import AddressError, joinable, parse_address, parse_port, split_port
from client.errorwords import version_words
from client.host import Host
from client.i18n import LANGUAGES, N_, language, listing, ngettext, pgettext
from client.i18n import gettext as _
from client.keys import SCENES, key_of
from client.levels import level_description, level_name
from client.overlays import ConfirmDialog
from client.render.layout import BASE_H
from client.render.tablelist import PasswordPrompt, TableList
from client.render.text import blit_text, fit, fit_lines, font, line_height, shrunk, wrap
from client.render.widgets import (
    GOLD,
    INK,
    MUTED,
    Button,
    Checkbox,
    Choice,
    TextInput,
    panel,
    version_mark,
)
from client.scenes.base import Scene
from client.scenes.joinnotes import KeptSeats, place
from client.settings import Settings
from common.levels import LEVEL_INFO
from common.protocol.server_messages import ServerMessage, Welcome
from common.seal import normal_short_key

if TYPE_CHECKING:
    from server.journal import Unfinished

__all__ = ["StartScene", "offer_words", "parse_address"]

WARN = (255, 190, 120)
NOT_LOOKING = N_("Not looking: type the address below")


def _id_of(name: object) -> str:
    return next((lv.id for lv in LEVEL_INFO if level_name(lv.id) == name), LEVEL_INFO[1].id)


def _where(found: Unfinished) -> str:
    if found.in_play:
        return _("hand {hand} of {hands}").format(hand=found.hand, hands=found.hands)
    return ngettext(
        "{played} of {hands} hand played", "{played} of {hands} hands played", found.hands
    ).format(played=found.hands_played, hands=found.hands)


def _computers(found: Unfinished) -> str:
    names = sorted((s.name for s in found.computers), key=str.casefold)
    return listing(names) if names else _("nobody")


def offer_words(found: Unfinished) -> str:
    """The start screen's line about an unfinished computer match (the computer seats by
    name)."""
    levels = list(dict.fromkeys(level_name(lv) for lv in found.levels))
    if not levels:
        return _("Your unfinished match: {where} against {names}").format(
            where=_where(found), names=_computers(found)
        )
    # Translators: {levels} are the computer seats' levels, like "Regular, Shark".
    return _("Your unfinished match: {where} against {names} ({levels})").format(
        where=_where(found), names=_computers(found), levels=", ".join(levels)
    )


class StartScene(Scene):
    name = "start"

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        st = host.settings
        default = st.name == Settings().name  # "Player", in the player's words; typing replaces it
        name = _("Player") if default else st.name
        self.name_in = TextInput("name", name, _("Your name"), max_len=20)
        self.name_in.select_first = default
        self.computers = Choice("computers", [1, 2, 3], st.computers)
        self.hands = Choice("hands", [4, 8, 12], st.hands)
        names = [level_name(lv.id) for lv in LEVEL_INFO]
        self.level = Choice("level", names, level_name(st.level))
        # The language, each by its own name (client.i18n): a click speaks it at once.
        self.language = Choice("language", list(LANGUAGES.values()), LANGUAGES.get(
            language(), LANGUAGES["en"]))  # fmt: skip
        play = _("Play the computer")
        self.play = Button("play", play, key_of("start", "play"), style="primary")
        # A computer match left unfinished, offered under the title (read in ``enter``).
        self.offer: Unfinished | None = None
        self.resume = Button("resume", _("Resume"), key_of("start", "resume"), style="primary")
        self.offer_box = pygame.Rect(0, 0, 0, 0)
        self.host_hands = Choice("host_hands", [4, 8, 12], st.host_hands)
        self.host_computers = Choice("host_computers", [0, 1, 2, 3, 4, 5], st.host_computers)
        no_password = _("no password")
        self.host_password = TextInput("host_password", st.host_password, no_password, max_len=40)
        self.table_name = TextInput("table_name", st.table_name, "", max_len=40)
        self.found = TableList("found")
        self.prompt: PasswordPrompt | None = None
        self.asked: PasswordPrompt | None = None  # the dialog whose password is being tried
        hosting = _("Host a table")
        self.host_button = Button("host", hosting, key_of("start", "host"), style="primary")
        # Translators: the host shows every hand's cards (the "books") once the match ends.
        books = _("Open the books after the match")
        self.open_books = Checkbox("open_books", books, st.host_open_books)
        watchers = st.host_books_to_watchers
        self.books_watchers = Checkbox("books_watchers", _("… and to watchers"), watchers)
        histories = _("Hand histories")
        self.histories = Button("histories", histories, key_of("start", "histories"))
        like = _("like {address}").format(address="192.168.1.20:7777")
        self.address = TextInput("address", st.join_address, like, max_len=80)
        self.port = TextInput("port", str(st.join_port), "7777", max_len=5)
        self.join_password = TextInput("join_password", "", "", max_len=40, secret=True)
        self.join_key = TextInput("join_key", "", _("Table key (optional)"), max_len=24)
        # Translators: join a table (take a seat), a button.
        self.join = Button("join", pgettext("button", "Join"), key_of("start", "join"),
                           style="primary")  # fmt: skip
        # Translators: watch a table without a seat, a button.
        self.watch = Button("watch", pgettext("button", "Watch"))
        self.four = Checkbox("four", _("Four-colour deck"), st.four_color)
        self.sound = Checkbox("sound", _("Sound"), st.sound)
        self.quit = Button("quit", _("Quit"), style="danger")
        self.rules = Button("rules", _("Rules"), "F1")
        self.recent: list[Button] = []
        self.errors: dict[str, str] = {}  # box id -> what is wrong with it, shown next to it
        self._seen = (self.address.value, self.port.value)
        self._seen_key = ""
        self.kept = KeptSeats(host)  # the tables found where a join takes our seat back
        self.columns: list[pygame.Rect] = []
        self._placeholders()

    def _placeholders(self) -> None:
        """The table's name follows ours until one is typed (laid out in ``update``)."""
        name = self.name_in.value.strip() or _("Player")
        self.table_name.placeholder = _("{name}'s table").format(name=name)
        self.join_password.placeholder = _("password, if any")

    def inputs(self) -> list[TextInput]:
        return [
            self.name_in,
            self.table_name,
            self.host_password,
            self.address,
            self.port,
            self.join_password,
            self.join_key,
        ]

    def widgets(self) -> list[Any]:
        return [
            *self.inputs(),
            self.computers,
            self.hands,
            self.level,
            self.language,
            self.host_hands,
            self.host_computers,
            self.four,
            self.sound,
            self.open_books,
            *([self.books_watchers] if self.open_books.value else []),
        ]

    def buttons(self) -> list[Button]:
        return [
            self.play,
            self.host_button,
            self.join,
            self.watch,
            self.quit,
            self.histories,
            self.rules,
            *([self.resume] if self.offer is not None else []),
            *([] if self.errors else self.recent),
        ]

    def enter(self) -> None:
        pygame.key.start_text_input()
        self.prompt = None
        asked, self.asked = self.asked, None
        # The last join never got in: said in its password dialog, or by the Join box.
        self.prompt, said = place(self.host.join_refusal, asked)
        self.host.join_refusal = None
        self.errors.pop("join", None)
        if said:
            self.errors["join"] = said
        if self.prompt is not None:
            self.prompt.layout(pygame.Rect((0, 0), self.host.window_size), self.s)
        self.host.look_for_tables()
        self.kept.forget()
        finder = self.host.finder
        looking = finder is not None and finder.running
        self.found.empty = _("Looking for tables… (none yet)") if looking else _(NOT_LOOKING)
        # An unfinished computer match to offer (a journal on disk), looked for again.
        self.offer = self.host.unfinished_match()
        self.play.label = _("New match") if self.offer is not None else _("Play the computer")
        self.host.dirty = True

    def on_message(self, msg: ServerMessage) -> None:
        if isinstance(msg, Welcome):
            self.asked = None  # the password was right

    def offer_line(self) -> tuple[str, int, pygame.Rect]:
        """The offer's words, their size and where they are drawn (left of *Resume*)."""
        if self.offer is None:
            return "", 0, pygame.Rect(0, 0, 0, 0)
        words = offer_words(self.offer)
        box, pad = self.offer_box, self.px(20)
        width = self.resume.rect.x - pad - (box.x + pad)
        size = self.font(24)
        while size > 12 and font(size, bold=True).size(words)[0] > width:
            size -= 1
        words = fit(words, size, width, bold=True)
        w, h = font(size, bold=True).size(words)
        return words, size, pygame.Rect(box.x + pad, box.centery - h // 2, w, h)

    def resize(self, size: tuple[int, int]) -> None:
        self.scale_to(size)
        R, f = self.rect, self.font
        self.name_in.rect = R(490, 170, 300, 48)
        self.offer_box = R(60, 104, 1160, 54)
        self.resume.rect = R(1040, 110, 164, 42)
        cols = [R(60 + i * 395, 250, 370, 430) for i in range(3)]
        self.columns = cols
        x0 = [60 + i * 395 + 24 for i in range(3)]
        self.computers.rect = R(x0[0], 340, 322, 46)
        self.hands.rect = R(x0[0], 418, 322, 46)
        self.level.rect = R(x0[0], 496, 322, 46)
        self.play.rect = R(x0[0], 604, 322, 56)
        self.table_name.rect = R(x0[1], 334, 322, 38)
        self.host_hands.rect = R(x0[1], 398, 322, 42)
        self.host_computers.rect = R(x0[1], 466, 322, 42)
        self.host_password.rect = R(x0[1], 534, 322, 38)
        self.host_button.rect = R(x0[1], 580, 322, 48)
        self.found.rect = R(x0[2], 336, 322, 116)
        self.found.row_h = self.px(50)
        self.found.size = f(21, 13)
        self.found.clamp()
        self.address.rect = R(x0[2], 476, 212, 38)
        self.port.rect = R(x0[2] + 222, 476, 100, 38)
        self.join_password.rect = R(x0[2], 554, 322, 34)
        self.join_key.rect = R(x0[2], 594, 322, 34)
        self.join.rect = R(x0[2], 634, 200, 42)
        self.watch.rect = R(x0[2] + 212, 634, 110, 42)
        self.four.rect = R(60, 712, 260, 34)
        self.sound.rect = R(340, 712, 160, 34)
        self.quit.rect = R(1100, 706, 120, 48)
        self.rules.rect = R(1080, 24, 160, 48)
        self.language.rect = R(512, 712, 360, 34)
        self.histories.rect = R(890, 706, 196, 48)
        self.open_books.rect = R(x0[1], 634, 322, 22)
        self.books_watchers.rect = R(x0[1] + 30, 657, 292, 20)
        for wdg in self.widgets():
            wdg.size = f(26)
        self.level.size = f(21, 12)
        self.language.size = f(20, 12)
        for wdg in (self.table_name, self.address, self.port, self.join_password, self.join_key):
            wdg.size = f(22)
        for b in self.buttons():
            b.size = f(26)
        self.open_books.size = self.histories.size = f(21)
        self.resume.size = f(24)  # (a button only while offered)
        self.books_watchers.size = f(18, 13)
        self.recent = []
        for i, addr in enumerate(self.host.settings.recent[:2]):
            small = f(18, 12)
            b = Button("recent:" + addr, fit(addr, small, self.px(140)), size=small)
            b.rect = R(x0[2] + i * 166, 520, 156, 28)
            self.recent.append(b)
        if self.prompt is not None:
            self.prompt.layout(pygame.Rect((0, 0), size), self.s)

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.prompt is not None:
            answer = self.prompt.handle_event(event)
            if answer == "join":
                prompt, self.prompt = self.prompt, None
                self.join_found(prompt.table, password=prompt.input.value)
                self.asked = prompt  # shown again should the password be refused
            elif answer == "cancel":
                self.prompt = None
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            ins = [t for t in self.inputs() if t.enabled]
            cur = next((i for i, t in enumerate(ins) if t.focused), -1)
            for t in ins:
                t.focused = False
            ins[(cur + 1) % len(ins)].focused = True
            return
        for t in self.inputs():
            if t.handle_event(event):
                return
        if event.type == pygame.KEYDOWN:
            focused = next((t for t in self.inputs() if t.focused), None)
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and focused is not None:
                focused.focused = False
                if focused.id in ("address", "port", "join_password", "join_key"):
                    self.choose("join")
                elif focused.id == "host_password":
                    self.choose("host")
                return
            if focused is None:
                keys = dict(SCENES["start"])  # one key, one meaning (client.keys)
                if self.offer is None:
                    del keys[key_of("start", "resume")]
                name = pygame.key.name(event.key).upper()
                if name in keys:
                    self.choose(keys[name])
                elif event.key == pygame.K_ESCAPE:
                    self.host.running = False
            return
        for wdg in self.widgets():
            if not isinstance(wdg, TextInput) and wdg.handle_event(event):
                if wdg is self.four:
                    self.host.set_four_color(self.four.value)
                elif wdg is self.language:
                    self.remember()  # what is typed here stays on the start screen made anew
                    code = next(c for c, n in LANGUAGES.items() if n == self.language.value)
                    self.host.set_language(code)
                return
        for b in self.buttons():
            if b.handle_event(event):
                self.choose(b.id)
                return
        clicked = self.found.handle_event(event)
        if clicked is not None:
            self.join_found(clicked)

    def update(self, dt: float) -> None:
        # The deck can be switched at a table too: show the setting as it is now.
        self.four.value = self.host.settings.four_color
        finder = self.host.finder
        tables = finder.tables() if finder is not None else []
        self.found.show(
            tables, self.kept.of(tables, self.name_in.value.strip()[:20] or _("Player"))
        )
        self._placeholders()
        # One port: one written in the address is the port, shown (locked) in the port box.
        _host, in_address = split_port(self.address.value)
        self.port.enabled = in_address is None
        if in_address is not None:
            self.port.focused = False
            try:
                self.port.value = str(parse_port(in_address, "address"))
            except AddressError:
                self.port.value = in_address.strip()[:5]  # what is wrong is said at the address
        seen = (self.address.value, self.port.value)
        if seen != self._seen:  # an edit takes back what was said about that box
            if seen[0] != self._seen[0]:  # (and about the join made with it)
                self.errors.pop("address", None)
                self.errors.pop("join", None)
            if seen[1] != self._seen[1]:
                self.errors.pop("port", None)
                if self.port.enabled:  # typed, not read from the address
                    self.errors.pop("join", None)
            self._seen = seen
        if self.join_key.value != self._seen_key:
            self.errors.pop("key", None)
            self._seen_key = self.join_key.value

    def join_found(self, table: Any, *, password: str | None = None) -> None:
        """Join a table found on the network: its password asked first if it needs one; a full
        table is watched; one where we keep a seat's token takes us back to that seat."""
        self.host.notice = ""
        self.errors.pop("join", None)
        if not table.compatible:  # (an older table: a newer one takes us)
            self.errors["join"] = version_words(table.version, game_newer=True)
            return
        self.remember()
        # Our seat's token kept for this table (client.seatkeys): back to it, asking nothing.
        key = self.host.seat_key(table.host, table.port)
        if table.password and password is None and key is None:
            self.prompt = PasswordPrompt(table)
            self.prompt.layout(pygame.Rect((0, 0), self.host.window_size), self.s)
            return
        watch = table.free == 0 and key is None
        self.host.connect(
            table.host,
            table.port,
            password=password or "",
            watch=watch,
            announced=getattr(table, "short_key", ""),
            table=table.name,
        )

    def remember(self) -> None:
        st = self.host.settings
        st.name = self.name_in.value.strip()[:20] or _("Player")
        st.computers = int(self.computers.value)
        st.hands = int(self.hands.value)
        st.host_computers = int(self.host_computers.value)
        st.level = _id_of(self.level.value)
        st.host_hands = int(self.host_hands.value)
        st.host_password = self.host_password.value
        st.table_name = self.table_name.value.strip()
        st.host_open_books = self.open_books.value
        st.host_books_to_watchers = self.books_watchers.value
        st.sound = self.sound.value  # (four_color is saved as it is toggled, here or at a table)
        st.join_address = self.address.value.strip()
        with contextlib.suppress(AddressError):  # a port that is not one is not kept
            st.join_port = parse_port(self.port.value)
        if self.host.save_settings:
            st.save()

    def where(self) -> tuple[str, int] | None:
        """The table to join, from the address and port boxes; None (and the words next to
        the box that is wrong) when they don't make one."""
        try:
            found = parse_address(self.address.value, self.port.value)
        except AddressError as exc:
            self.errors[exc.field] = str(exc)[:1].upper() + str(exc)[1:] + "."
            self._seen = (self.address.value, self.port.value)  # said of these very words
            return None
        typed = self.join_key.value.strip()
        if typed and normal_short_key(typed) is None:
            self.errors["key"] = _("A table key is 16 letters and digits, like {key}.").format(
                key="7QKM-D2XA-PF4Z-LW3B"
            )
            self._seen_key = self.join_key.value
            return None
        self.errors.clear()
        self._seen = (self.address.value, self.port.value)  # what a refusal will be said of
        return found

    def choose(self, what: str) -> None:
        """Take one of the ways in (also what tests call)."""
        self.host.notice = ""
        if what.startswith("recent:"):
            self.address.value = what.split(":", 1)[1]
            return
        if what == "quit":
            self.host.running = False
            return
        if what == "rules":
            self.host.show_rules()
            return
        if what == "histories":
            self.host.open("histories")
            return
        self.remember()
        from client import sound

        sound.init(enabled=self.sound.value)
        if what == "resume" and self.offer is not None:
            self.host.resume_computer()
        elif what == "play" and self.offer is not None:
            self.ask_new_match(self.offer)
        elif what == "play":
            self.new_match()
        elif what == "host":
            self.host.host_table(
                hands=int(self.host_hands.value),
                computers=int(self.host_computers.value),
                password=self.host_password.value,
                name=self.table_name.value,
                level=self.host.settings.host_level,
                open_books=self.open_books.value,
                books_to_watchers=self.books_watchers.value,
            )
        elif what in ("join", "watch"):
            found = self.where()
            if found is None:
                return
            host, port = found
            # Kept among the recent addresses only once the table has welcomed us.
            key = normal_short_key(self.join_key.value) or ""
            self.host.connect(
                host,
                port,
                password=self.join_password.value,
                watch=what == "watch",
                remember=joinable(host, port),
                key=key,
            )

    def new_match(self) -> None:
        level = _id_of(self.level.value)
        self.host.play_computer(int(self.computers.value), int(self.hands.value), level=level)

    def ask_new_match(self, found: Unfinished) -> None:
        """A new computer match drops the unfinished one for good: asked once."""
        body = _(
            "Your match against {names} ({where}) is dropped for good if a new one starts: "
            "it can no longer be resumed."
        ).format(names=_computers(found), where=_where(found))
        self.host.modal = ConfirmDialog(
            self.host,
            title=_("Drop the unfinished match?"),
            body=lambda: body,
            yes=_("New match"),
            on_yes=self.new_match,
            no=_("Keep it"),
            kind="new_match",
        )
        self.host.dirty = True

    def error_box(self) -> pygame.Rect:
        """Where what is wrong with the address, the port, the key or the last join is said:
        under the address and port, down to the password box (the recent addresses hide)."""
        col = self.columns[2] if self.columns else self.address.rect
        pad = self.px(24)
        top = self.address.rect.bottom + self.px(2)
        return pygame.Rect(col.x + pad, top, col.w - 2 * pad, self.join_password.rect.y - top)

    def error_lines(self) -> tuple[list[str], int]:
        """What ``error_box`` says, in lines that fit it, and their size."""
        said = next(
            (self.errors[k] for k in ("address", "port", "key", "join") if self.errors.get(k)), ""
        )
        if not said:
            return [], 0
        box = self.error_box()
        return fit_lines(said, self.font(17, 12), box.size)

    def draw(self, surf: pygame.Surface) -> None:
        px, f = self.px, self.font
        surf.fill((14, 40, 30))
        w, h = surf.get_size()
        pygame.draw.ellipse(surf, (18, 58, 40), (-w * 0.1, h * 0.15, w * 1.2, h * 1.1))
        cx = w // 2
        oy = (h - BASE_H * self.s) / 2
        at = (cx, round(oy + 70 * self.s))
        # Translators: the game's name, as the title of the start screen (a name: kept or not).
        title = _("SEVENTH STREET")
        blit_text(surf, title, f(72), at, GOLD, bold=True, anchor="center", shadow=True)
        if self.offer is None:
            words, at = (
                _("seven card stud for a night with friends"),
                (cx, round(oy + 122 * self.s)),
            )
            blit_text(surf, words, f(26), at, (190, 215, 200), anchor="center")
        else:
            box = self.offer_box
            panel(surf, box, (8, 22, 18, 220), px(12))
            pygame.draw.rect(surf, GOLD, box, 2, border_radius=px(12))
            words, size, where = self.offer_line()
            blit_text(surf, words, size, where.topleft, INK, bold=True)
        at = (self.name_in.rect.x - px(14), self.name_in.rect.centery)
        blit_text(surf, _("Your name"), f(24), at, INK, anchor="midright")
        titles = (_("Play the computer"), _("Host a friends' table"), _("Join a table"))
        for rect, title in zip(self.columns, titles, strict=True):
            panel(surf, rect, (8, 22, 18, 200), px(16))
            pygame.draw.rect(surf, (70, 110, 90), rect, 2, border_radius=px(16))
            at = (rect.centerx, rect.y + px(40))
            blit_text(surf, title, f(32), at, GOLD, bold=True, anchor="center")
        labels = [
            (self.computers, _("Computer seats")),
            (self.hands, _("Hands")),
            (self.level, _("Level")),
            (self.host_hands, _("Hands")),
            (self.host_computers, _("Computer seats to fill")),
            (self.host_password, _("Password (optional)")),
            (self.table_name, _("Table name")),
            (self.address, _("Or type the host's address")),
            (self.port, _("Port")),
            (self.found, _("Tables on your network")),
        ]
        for wdg, label in labels:  # each over its box, no wider (the address's by the port's)
            at = (wdg.rect.x, wdg.rect.y - px(6))
            words, size = shrunk(label, f(22), wdg.rect.w)
            blit_text(surf, words, size, at, (190, 210, 200), anchor="bottomleft")
        yy = self.level.rect.bottom + px(8)
        for line in wrap(level_description(_id_of(self.level.value)), f(18), self.level.rect.w)[:2]:
            blit_text(surf, line, f(18), (self.level.rect.x, yy), MUTED)
            yy += f(21)
        for wdg in self.widgets():
            wdg.draw(surf)
        self.found.draw(surf)
        for b in self.buttons():
            b.draw(surf)
        lines, size = self.error_lines()
        box = self.error_box()
        for i, line in enumerate(lines):
            blit_text(surf, line, size, (box.x, box.y + i * line_height(size)), WARN)
        version_mark(surf, f(18, 12))
        if self.host.notice:
            at = (cx, round(oy + 696 * self.s))
            blit_text(surf, self.host.notice, f(24), at, WARN, bold=True, anchor="center")
        if self.prompt is not None:
            self.prompt.draw(surf)
