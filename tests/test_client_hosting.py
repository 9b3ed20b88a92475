"""Hosting and joining from the pygame client, headless, through the real loop (issue 9).

Point 2: the host's match length is the match length, and guests see it.
Point 3: addresses and ports are checked, with the words next to the box;
only addresses that worked are remembered.
Point 4: leaving asks first where it costs something, and tells the host
that leaving closes the table for everyone.
Point 5: the lobby's words never overlap, whatever the window size.
Only 127.0.0.1 is used.
"""

from __future__ import annotations

import dataclasses
import socket

import pygame
import pytest

from client.net import TableKey
from client.overlays import ConfirmDialog, RulesOverlay
from client.seatkeys import SeatKey, SeatKeys, default_path
from client.settings import Settings
from client.wording import LogLine, describe_event
from common.history import decode_event
from common.protocol.server_messages import TableOptions
from common.seal import short_key
from tests import demo
from tests.clientkit import (
    SIZES,
    apart,
    click,
    closed_port,
    feed,
    host_with_guest,
    hosting,
    key,
    post,
    resize,
    run,
    showing,
)
from tests.drawn import lobby_words_never_overlap

pytestmark = pytest.mark.timeout(90)


# ------------------------------------------------------------------ point 2


def test_the_hosts_match_length_odds_and_clock_are_the_tables_and_guests_see_them(make_client):
    host, guest = host_with_guest(make_client, hands=12, computers=1)
    lobby = host.top()
    assert host.settings.hands == 8  # the computer table's choice is not the host's
    hands = lambda app: app.session.lobby.said.hands  # noqa: E731
    assert lobby.choices.hands.value == 12 and hands(host) == 12
    assert hands(guest) == 12
    assert "A match of 12 hands." in guest.top().side_lines()
    # Issue 17 point 2: the Give seat button sits on the computer seat's row, moved there
    # at once when the guest joined.
    rows = {r.mark: r for r in lobby.seat_rows}
    (give,) = lobby.give
    row = rows["computer"].rect
    assert give.rect.top <= row.centery <= give.rect.bottom, (give.rect, row)
    others = [r.rect for r in lobby.seat_rows if r.mark != "computer"]
    assert all(not (give.rect.top <= r.centery <= give.rect.bottom) for r in others)
    # The host clicks 4 in the lobby: the guest's lobby follows.
    host.draw()
    click(host, lobby.choices.hands.cells()[0])
    assert run([host, guest], lambda: hands(guest) == 4)
    assert "A match of 4 hands." in guest.top().side_lines()
    assert host.settings.host_hands == 4
    click(host, lobby.choices.hands.cells()[2])  # and back to 12
    assert run([host, guest], lambda: hands(guest) == 12)
    # Issue 19 point 2: the odds, off by default at a friends' table, allowed by a click.
    assert "Odds: off" in guest.top().side_lines() and not lobby.choices.odds.value
    click(host, lobby.choices.odds.rect)
    allowed = lambda app: app.session.lobby.odds_allowed  # noqa: E731
    assert run([host, guest], lambda: allowed(guest) and allowed(host))
    assert host.settings.host_odds and lobby.choices.odds.value  # remembered for next time
    guest.top().update(0)
    assert "Odds: allowed (W at the table)" in guest.top().side_lines()
    # R-C3, R-C4: the clock's choices are the table's; the guest reads the host's clicks.
    assert lobby.choices.turn_time.value == 30 and lobby.choices.time_bank.value == 90
    assert guest.session.lobby.options == TableOptions(30.0, 90.0, stand_in=False)
    click(host, lobby.choices.time_bank.cells()[1])  # 30 s
    click(host, lobby.choices.stand_in.rect)
    assert run([host, guest], lambda: guest.session.lobby.options == TableOptions(30.0, 30.0, True))
    assert host.settings.host_time_bank == 30 and host.settings.host_stand_in
    host.draw(), guest.draw()
    assert not host._faults and not guest._faults
    key(host, "s", step=False)
    assert run([host, guest], lambda: host.session.running and guest.session.running)
    assert host.session.hands == 12 and guest.session.hands == 12
    assert host.server.server.table.dealer.match.hands == 12


# ------------------------------------------------------------------ point 3


def test_a_port_out_of_range_or_in_letters_is_refused_next_to_its_box(make_client) -> None:
    app = make_client()
    start = app.top()
    start.address.value = "127.0.0.1:99999"
    start.choose("join")
    assert app.link.conn is None and app.session is None  # no join to 7777 or anywhere
    assert "65535" in start.errors["address"] and "port" not in start.errors
    app.step(max_wait=0.01)  # drawn without a fault
    assert not app._faults
    start.address.value = "127.0.0.1:9999"  # an edit takes the words back
    assert run([app], lambda: "address" not in start.errors)
    assert app.settings.recent == []
    # Letters in the port box are refused next to it.
    start.address.value = "127.0.0.1"
    start.port.value = "abc"
    start.choose("watch")
    assert app.link.conn is None and "not a port" in start.errors["port"]
    start.remember()
    assert Settings.load().join_port == 7777  # "abc" is not kept as a port


def test_the_port_box_shows_the_port_typed_in_the_address(make_client) -> None:
    app = make_client()
    start = app.top()
    start.port.value = "7777"
    start.address.value = "[::1]:7788"
    assert run([app], lambda: start.port.value == "7788" and not start.port.enabled)
    start.port.focused = True
    post(app, pygame.TEXTINPUT, text="9")
    assert start.port.value == "7788"  # locked while the address names it
    start.address.value = "::1"
    assert run([app], lambda: start.port.enabled)
    assert start.port.value == "7788"


def test_a_taken_port_is_said_as_the_one_that_listens_only_addresses_that_worked_kept(
    make_client,
) -> None:
    with socket.socket() as squatter:  # point 1: the port asked for is taken
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        host = make_client("Hana")
        host.host_table(hands=4, computers=1, password="", port=taken, bind="127.0.0.1")
        assert run([host], lambda: host.top().name == "lobby" and host.session.seat == 0)
    assert host.server.port != taken
    shown = [t for t, *_ in host.top().header()]
    assert shown == ["Friends join at", f"127.0.0.1:{host.server.port}"]  # what listens
    app = make_client("Gus", offscreen=True)
    start = app.top()
    nobody = closed_port()
    start.address.value = f"127.0.0.1:{nobody}"
    start.choose("join")
    assert run([app], lambda: app.session is None and bool(start.errors.get("join")), timeout=15)
    assert app.settings.recent == []  # refused: not a "recent" button
    start.address.value = "127.0.0.1"
    start.port.value = str(host.server.port)
    start.choose("join")
    assert run([host, app], lambda: app.top().name == "lobby" and app.session.welcomed)
    want = f"127.0.0.1:{host.server.port}"  # with its port: a recent button is one place
    assert app.settings.recent == [want]
    assert Settings.load().recent == [want]


# ------------------------------------------------------------------ point 4


def test_leaving_mid_match_asks_first_and_the_seat_can_be_taken_back(make_client) -> None:
    """A seat's token on disk that the table does not know (stale) is dropped and the join
    goes on; leaving the lobby, where nothing is lost, is not asked and forgets the seat's
    token; leaving mid-match asks first and keeps it; joining again gives the seat back."""
    host = hosting(make_client("Hana"), computers=0)
    port = host.server.port
    keys = SeatKeys(default_path())
    keys.keep(SeatKey(host="127.0.0.1", ip="loopback", port=port, name="Gus", token="stale"))
    guest = make_client("Gus", offscreen=True)
    guest.connect("127.0.0.1", port)
    assert run([host, guest], lambda: guest.status.state == "connected" and guest.session.seat)
    tokens = lambda: [k.token for k in keys.entries() if k.name == "Gus"]  # noqa: E731
    assert guest.session.token != "stale" and tokens() == [guest.session.token]
    click(guest, guest.top().leave.rect, step=False)  # in the lobby: not asked, seat freed
    assert run([host, guest], lambda: guest.top().name == "start")
    assert guest.modal is None and tokens() == []
    assert run([host], lambda: [p.name for p in host.session.lobby.seats if p.kind == "human"]
               == ["Hana"])  # fmt: skip
    guest.connect("127.0.0.1", port)
    assert run([host, guest], lambda: guest.top().name == "lobby" and guest.session.seat)
    key(host, "s", step=False)
    assert run([host, guest], lambda: guest.top().name == "table" and guest.session.view)
    seat, token = guest.session.seat, guest.session.token
    table = guest.top()
    table.resize(guest.screen.get_size())
    click(guest, table.panel.leave.rect)
    assert isinstance(guest.modal, ConfirmDialog)  # asked, not gone
    assert guest.top().name == "table" and guest.link.conn is not None
    _title, body, _yes = guest.modal.title, guest.modal.body(), guest.modal.yes.label
    assert "goes on without you" in body and "take your seat back" in body
    guest.draw()
    key(guest, pygame.K_ESCAPE)  # stay
    assert guest.modal is None and guest.top().name == "table"
    click(guest, table.panel.leave.rect)
    key(guest, pygame.K_RETURN, step=False)  # leave
    assert run([host, guest], lambda: guest.top().name == "start")
    assert guest.notice == "You left the table." and tokens() == [token]  # kept
    assert run([host], lambda: seat in host.session.clocks.dropped)  # dropped, seat kept
    # Joining the same table again during the match gives the seat back (R-C1).
    guest.connect("127.0.0.1", port)
    assert run([host, guest], lambda: guest.top().name == "table" and guest.session.view)
    assert guest.session.seat == seat


def test_the_host_is_told_that_leaving_closes_the_table_for_everyone(make_client) -> None:
    host, guest = host_with_guest(make_client, hands=4)
    host.running = True
    post(host, pygame.QUIT)  # closing the window asks too, and a second close quits
    assert host.running and isinstance(host.modal, ConfirmDialog)
    assert "Closing the window closes it for everyone" in host.modal.body()
    post(host, pygame.QUIT)
    assert not host.running
    key(host, pygame.K_ESCAPE)  # (the loop stopped; the dialog put away to go on)
    lobby = host.top()
    host.draw()
    click(host, lobby.leave.rect)
    dialog = host.modal
    assert isinstance(dialog, ConfirmDialog)
    assert dialog.title == "Close your table?" and dialog.yes.label == "Close the table"
    assert "closes it for everyone" in dialog.body() and "Gus" in dialog.body()
    host.draw()
    assert not host._faults
    click(host, dialog.yes.rect)
    assert run([host, guest], showing("start", host, guest))
    assert host.server is None and host.notice == "You closed your table."
    assert guest.notice == "Hana closed the table"  # the guests are told who and why


def test_the_host_alone_before_the_match_leaves_unasked(make_client) -> None:
    host = hosting(make_client("Hana"))  # alone with a computer seat: nothing is lost
    host.ask_leave()
    assert host.modal is None and host.top().name == "start"


# ------------------------------------------------------------------ point 5


def test_the_lobby_never_overlaps_itself_at_any_size(make_client) -> None:
    """All a host's lobby holds: two long addresses (IPv4 and IPv6), the password, the
    open-books line, the table's key large (issue 18), every choice, chat lines and the
    seats' padlocks."""
    host, guest = host_with_guest(make_client, hands=4, password="swordfish")
    host.link.conn.key = TableKey("a1" * 32, "Hana's table", "127.0.0.1", host.link.conn.port)
    lobby = host.top()
    lobby.addresses = ["192.168.100.200", "fd12:3456:789a:1:2:3:4:5"]
    for _ in range(4):  # chat lines above the chat box
        host.session.log.say("Gus: hello there, a long line of chat to see it cut", "chat")
    for size in SIZES:
        resize(host, size)
        # Said after the step: a lobby message meanwhile says them again as the table has them.
        lob = host.session.lobby
        lob.said = dataclasses.replace(lob.said, open_books=True)
        lob.seats = [dataclasses.replace(p, sealed=True) for p in lob.seats]
        lobby.update(0.0)
        header = lobby.header()
        words = [t for t, *_ in header]
        assert words[0] == "Friends join at" and words[-2] == "Password: swordfish", words
        assert words[-1].startswith("Open books:")
        assert f"[fd12:3456:789a:1:2:3:4:5]:{host.server.port}" in words
        assert min(s for _t, s, *_ in header[1:-2]) >= 24, (size, header)  # addresses big
        block = lobby.key_block()
        assert [t for t, *_ in block][1] == short_key("a1" * 32), size
        seats = lobby.boxes["seats"]
        parts = [("header " + t, r) for t, _s, _c, _b, r in header]
        parts += [("seats", seats), ("side", lobby.boxes["side"])]
        for b in lobby.buttons():  # a computer seat's "Give seat" sits on its row
            if b.id.startswith("give:"):
                assert seats.contains(b.rect), (size, b.id)
            else:
                parts.append((b.id, b.rect))
        c = lobby.choices
        parts += [(w.id, w.rect) for w in (c.hands, c.turn_time, c.time_bank, c.stand_in,
                                           c.plain, c.odds)]  # fmt: skip
        parts += [("option " + t, r) for t, r in c.labels]
        parts += [("chat " + t, r) for t, r in lobby.chat_lines()] + [("chat", lobby.chat.rect)]
        apart([*parts, *[("key " + t, r) for t, _s, _c, _b, r in block]],
              pygame.Rect(0, 0, *size), size)  # fmt: skip
        locks = [r.lock for r in lobby.seat_rows if r.lock is not None]
        assert locks and all(seats.contains(k) for k in locks)
        assert all(not r.lock.colliderect(r.rect) for r in lobby.seat_rows if r.lock)
        lobby_words_never_overlap(lobby, size, parts)
    assert not host._faults


# ------------------------------------------------------------------ the rules (F1)


def test_f1_shows_the_rules_anywhere_and_esc_closes_them(app) -> None:
    feed(app, demo.host_lobby())  # the host's lobby, where S starts the match
    key(app, pygame.K_F1)
    assert isinstance(app.modal, RulesOverlay) and app.top().name == "lobby"
    key(app, pygame.K_s)  # keys go to the rules, not to the lobby's Start
    assert not [m for m in app.sent if m["type"] == "start"]
    key(app, pygame.K_ESCAPE)
    assert app.modal is None
    click(app, app.top().rules.rect)
    assert isinstance(app.modal, RulesOverlay)
    key(app, pygame.K_F1)
    assert app.modal is None


def test_the_host_screen_opens_the_books_and_to_watchers_only_when_chosen(make_client) -> None:
    # Issue 12: the host chooses open books, and watchers too, when setting up the table;
    # the watchers' box is offered only with the books open, and both reach the server.
    app = make_client("Hana", host="127.0.0.1", port=0)
    start = app.top()
    assert start.books_watchers not in start.widgets()
    start.books_watchers.value = True  # left on from another night, books closed
    start.choose("host")
    assert app.server is not None
    cfg = app.server.server.config
    assert not cfg.open_books and not cfg.books_to_watchers
    app.leave_table(notice="", send_leave=True)
    app.scenes[:] = app.scenes[:1]
    start.open_books.value = True
    assert start.books_watchers in start.widgets()
    start.choose("host")
    cfg = app.server.server.config
    assert cfg.open_books and cfg.books_to_watchers
    assert app.settings.host_books_to_watchers


def test_the_lobby_chat_strip_after_a_match_shows_only_chat_and_notices(app) -> None:
    # Issue 17 point 13: back in the lobby after a match, no game-log lines in the strip.
    feed(app, demo.host_lobby())
    log = app.session.log.lines
    names = {0: "Hana", 6: "Ada"}.get
    log.append(LogLine("Gus: good luck", "chat"))
    cards = ["As", "Ad", "Kc", "Kd", "2h", "7s", "9c"]
    for ev in ({"ev": "act", "seat": 6, "action": "bet", "put": 10, "to": 10},
               {"ev": "return", "seat": 6, "amount": 10},
               {"ev": "show", "seat": 0, "hand": "two pair", "cards": cards, "best": cards[:5]},
               {"ev": "award", "seat": 0, "pot": 0, "amount": 40}):  # fmt: skip
        line = describe_event(decode_event(ev), lambda seat: names(seat) or "?")
        if line is not None:
            log.append(line)
    assert any(line.kind == "info" for line in list(log)[-4:])  # the hand's own notices
    log.append(LogLine("Gus is back", "info"))
    log.append(LogLine("Gus: gg", "chat"))
    app.top().resize((800, 500))
    shown = [t for t, _r in app.top().chat_lines()]
    assert shown == ["Gus: good luck", "Gus is back", "Gus: gg"][-len(shown) :] and shown
    app.top().resize((1280, 800))
    assert [t for t, _r in app.top().chat_lines()] == ["Gus: good luck", "Gus is back", "Gus: gg"]
