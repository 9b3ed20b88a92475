"""What a player and a host see of the sealed wire (issue 18): the key-changed dialog and
its trust button, the padlocks on the seat plates and the lobby's rows, the table's key in
the lobby, the host's choice of plain connections, the Join list's announced key and the
optional key with a typed address.  Nothing overlaps at 800x500 or 1280x800."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pygame
import pytest

from client import keywarn
from client.__main__ import main
from client.discovery import FoundTable, parse_facts
from client.keywarn import KeyDialog
from client.link import KeyProblem
from client.lobbystate import Player
from client.net import Status, TableKey
from client.pins import Pin
from client.render import tablelist, tablepaint
from client.render.layout import TableLayout
from client.render.picture import TablePicture
from client.scenes import lobby as lobby_module
from client.scenes.lobby import PLAIN_COST
from common.seal import short_key
from tests import demo
from tests.clientkit import (
    apart,
    click,
    decoded,
    feed,
    host_with_guest,
    resize,
    run,
    session_from,
)
from tests.drawn import lobby_words_never_overlap, locks_drawn, words_drawn

OLD, NEW = "a1" * 32, "b2" * 32
SHORT_OLD, SHORT_NEW = short_key(OLD), short_key(NEW)


def problem(kind: str = "changed") -> KeyProblem:
    pin = Pin("Hana's table", "10.0.0.5", 7777, NEW)
    join = dict(host="10.0.0.5", port=7777, password="pw", watch=False, remember="",
                key="", announced="", table="Hana's table")  # fmt: skip
    return KeyProblem(kind, "Hana's table", (SHORT_OLD,), SHORT_NEW, pin, join)


def words_of(dialog: KeyDialog, size) -> list[tuple[str, pygame.Rect]]:
    with words_drawn(keywarn) as drawn:
        dialog.draw(pygame.Surface(size))
    return drawn


# ------------------------------------------------------------------ the key-changed dialog


@pytest.mark.parametrize("kind", ["changed", "typed", "announced"])
@pytest.mark.parametrize("size", [(800, 500), (1280, 800)])
def test_the_dialog_shows_both_keys_large_and_nothing_overlaps(app, kind, size) -> None:
    app.size = size
    dialog = KeyDialog(app, problem(kind))
    dialog.resize(size)
    drawn = words_of(dialog, size)
    texts = [t for t, _r in drawn]
    assert "Hana's table" in texts and SHORT_OLD in texts and SHORT_NEW in texts
    assert keywarn.headline(dialog.problem) in texts
    assert ("This table's key has changed" in texts) == (kind == "changed")
    sizes = {t: sz for t, sz, *_ in dialog.words}
    assert sizes[SHORT_OLD] >= 30 and sizes[SHORT_NEW] >= 30  # large enough to read out
    old_r = next(r for t, r in drawn if t == SHORT_OLD)
    new_r = next(r for t, r in drawn if t == SHORT_NEW)
    assert old_r.y == new_r.y and old_r.right < new_r.x  # side by side
    assert [b.id for b in dialog.buttons()] == (
        ["trust", "back"] if kind == "changed" else ["back"]
    )
    parts = drawn + [(b.id, b.rect) for b in dialog.buttons()]
    apart(parts, pygame.Rect(0, 0, *size), size)
    assert all(dialog.box.contains(r) for _, r in parts), size


def test_a_refused_key_opens_the_dialog_and_trust_joins_again(app, monkeypatch) -> None:
    joins = []
    monkeypatch.setattr(app, "connect", lambda host, port, **kw: joins.append((host, port, kw)))
    app.link.key_problem = problem()
    app.link.conn = SimpleNamespace(host="10.0.0.5", port=7777, close=lambda: None,
                                    send=lambda m: True)  # fmt: skip
    app.on_status(Status("failed", "the key changed", code="key"))
    dialog = app.modal
    assert isinstance(dialog, KeyDialog) and dialog.problem.new == SHORT_NEW
    assert "key has changed" in app.notice
    click(app, dialog.trust.rect)
    assert app.modal is None
    assert len(joins) == 1 and joins[0][:2] == ("10.0.0.5", 7777)  # the same table again
    assert joins[0][2]["password"] == "pw" and joins[0][2]["table"] == "Hana's table"
    # Let through, and pinned in place of the old key once that table has let us in
    # (issue 33 point 5: tests/test_client_pins.py).
    assert joins[0][2]["trusted"] == NEW


def test_back_trusts_nothing_a_typed_mismatch_has_no_trust_another_refusal_no_dialog(
    app, monkeypatch
) -> None:
    joins = []
    monkeypatch.setattr(app, "connect", lambda *a, **kw: joins.append(a))
    for kind in ("changed", "typed"):
        app.link.key_problem = problem(kind)
        app.on_status(Status("failed", "refused", code="key"))
        dialog = app.modal
        assert isinstance(dialog, KeyDialog)
        if kind == "typed":
            assert dialog.trust not in dialog.buttons()
            click(app, dialog.trust.rect)  # where it would be: nothing there
        click(app, dialog.back.rect)
        assert app.modal is None
    assert joins == [] and app.link.pins.entries() == []
    app.link.key_problem = problem()
    app.on_status(Status("failed", "wrong password", code="bad_password"))
    assert app.modal is None  # another refusal opens no dialog


# ------------------------------------------------------------------ the padlocks


@pytest.mark.parametrize("size", [(800, 500), (1280, 800)])
def test_each_persons_plate_shows_a_lock_and_a_computer_seat_none(app, size, monkeypatch) -> None:
    locks = locks_drawn(monkeypatch, tablepaint)
    players = {0: Player(0, "Ann", sealed=True), 1: Player(1, "Bob", sealed=False),
               2: Player(2, "Ada", kind="computer", level="shark", sealed=False),
               3: Player(3, "Old", sealed=None)}  # fmt: skip
    lay = TableLayout(size, list(players), you=0)
    pic = TablePicture(view=None, players=players)
    painter = tablepaint.TablePainter(app.art)
    surf = pygame.Surface(size)
    by_seat = {}
    for spot in lay.spots.values():
        before = len(locks)
        sv = SimpleNamespace(stack=600, folded=False, all_in=False)
        with words_drawn(tablepaint) as words:
            painter.plate(surf, lay, spot, sv, players[spot.seat], pic=pic)  # type: ignore[arg-type]
        by_seat[spot.seat] = locks[before:]
        for _closed, rect in locks[before:]:
            assert spot.plate_rect().contains(rect), (size, spot.seat, rect)
            for t, r in words:
                assert not r.colliderect(rect), (size, t, r, rect)
    assert [c for c, _r in by_seat[0]] == [True]  # sealed: closed
    assert [c for c, _r in by_seat[1]] == [False]  # plain: open
    assert by_seat[2] == [] and by_seat[3] == []  # a computer seat; nobody said (a replay)
    # A person whose link is down shows none either.
    dropped = TablePicture(view=None, players=players, dropped={0: 10.0})
    before = len(locks)
    painter.plate(surf, lay, lay.spots[0], None, players[0], pic=dropped)
    assert locks[before:] == []


def lobby_msg(**extra) -> dict:
    seats = [
        demo.lobby_seat(0, "Hana", host=True, sealed=True),
        demo.lobby_seat(1, "Gus"),
        demo.lobby_seat(2, "Ada", "computer", level="regular", level_name="Regular"),
    ]
    return {"type": "lobby", "seats": seats, "host": 0, "hands": 4, "can_start": True,
            "start_when": None, "running": False, "table": "Hana's table", **extra}  # fmt: skip


def test_the_lobby_rows_draw_a_lock_per_person_and_the_tables_choice(app, monkeypatch) -> None:
    drawn = locks_drawn(monkeypatch, lobby_module)
    app.link.session = s = session_from(
        [{"type": "welcome", "seat": 1, "token": "t", "name": "Gus"}, lobby_msg()], "Gus"
    )
    assert [p.sealed for p in s.lobby.seats] == [True, False, False]
    assert not s.lobby.plain_refused
    feed(s, [lobby_msg(plain="never")])
    assert s.lobby.plain_refused
    bad = lobby_msg()
    bad["seats"][1]["sealed"] = "yes"  # only true is sealed
    feed(s, [bad])
    assert [p.sealed for p in s.lobby.seats] == [True, False, False]
    lobby = app.registry.make("lobby", app)
    lobby.resize((1280, 800))
    lobby.on_message(decoded(lobby_msg()))
    lobby.draw(pygame.Surface((1280, 800)))
    assert [c for c, _r in drawn] == [True, False]  # Hana sealed, Gus plain, Ada none
    rows = lobby.seat_rows
    assert rows[0].lock is not None and rows[2].lock is None
    assert not rows[0].lock.colliderect(rows[0].rect)


# ------------------------------------------------------------------ the lobby


def fake_key(app) -> None:
    app.link.conn.key = TableKey(OLD, "Hana's table", "127.0.0.1", app.link.conn.port)


def test_a_password_table_refuses_plain_until_its_host_allows_them_at_a_said_cost(
    make_client,
) -> None:
    """Issue 33 point 4: a table hosted with a password starts with plain connections
    refused, and every lobby says so (a guest's with the table's key, small: large only for
    the host who runs the table); the host's click allows them, and then the host's lobby
    and every guest's say what that costs, clear of everything at every size."""
    host, guest = host_with_guest(make_client, hands=4, password="swordfish")
    fake_key(guest)
    fake_key(host)
    lobby = host.top()
    assert run([host], lambda: lobby.key_block())
    words = [t for t, *_ in lobby.key_block()]
    assert words == ["Table key", SHORT_OLD, "friends check that their screen shows the same"]
    sent = []
    real = host.send
    host.send = lambda msg: sent.append(msg) or real(msg)  # type: ignore[method-assign]

    def header(app) -> list[str]:
        return [t for t, *_ in app.top().header()]

    def never_overlap(sizes) -> None:
        for size in sizes:
            for app in (host, guest):
                resize(app, size)
                lobby_words_never_overlap(app.top(), size, [("seats", app.top().boxes["seats"])])

    assert run([host, guest], lambda: lobby.choices.plain.value == "refused")
    assert host.session.lobby.plain_refused
    assert {"Plain (unsealed) connections: refused", f"Table key {SHORT_OLD}"} <= set(header(guest))
    assert guest.top().key_block() == [] and guest.top().choices.plain not in guest.top().buttons()
    assert PLAIN_COST not in header(host)
    never_overlap([(800, 500), (1280, 800)])
    click(host, lobby.choices.plain.cells()[0])  # allowed
    assert sent[-1] == {"type": "options", "plain": "allow"}
    open_ = lambda app: app.session.lobby.plain_open  # noqa: E731
    assert run([host, guest], lambda: open_(host) and open_(guest))
    assert lobby.choices.plain.value == "allowed" and not host.session.lobby.plain_refused
    never_overlap([(800, 500), (1280, 800), (1920, 1080)])
    for app in (host, guest):
        assert PLAIN_COST in header(app), header(app)
        assert "Plain (unsealed) connections: allowed" not in header(app)
    click(host, lobby.choices.plain.cells()[1])  # refused again: the cost is no longer said
    assert {"type": "options", "plain": "never"} in sent
    assert run([host, guest], lambda: guest.session.lobby.plain_refused)
    assert run([host], lambda: lobby.choices.plain.value == "refused")  # the table's own word
    assert PLAIN_COST not in header(guest)
    assert not host._faults and not guest._faults


def test_the_computer_table_shows_neither_key_nor_choice(app) -> None:
    app.local.kind = "computer"
    app.link.conn = SimpleNamespace(key=TableKey(OLD, "Computer table", "127.0.0.1", 5000),
                                    host="127.0.0.1", port=5000)  # fmt: skip
    feed(app.session, [{"type": "welcome", "seat": 0, "token": "t", "name": "Hana"}, lobby_msg()])
    lobby = app.registry.make("lobby", app)
    lobby.resize((1280, 800))
    assert lobby.key_words() == "" and lobby.key_block() == []
    assert "plain" not in [label for label, _r in lobby.choices.labels]
    where = lobby.choices.plain.rect.center
    press = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=where)
    assert lobby.choices.handle_event(press, app.settings) is None  # no such choice: nothing sent


# ------------------------------------------------------------------ the ways in


def test_the_announcement_gives_the_key_when_it_reads_as_one() -> None:
    props = {b"seats": b"2", b"free": b"5", b"hands": b"8", b"proto": b"2", b"name": b"Den"}
    found = parse_facts("Den._x", {**props, b"key": SHORT_OLD.lower().encode()}, ["10.0.0.5"], 7777)
    assert found is not None and found.short_key == SHORT_OLD
    junk = parse_facts("Den._x", {**props, b"key": b"not a key"}, ["10.0.0.5"], 7777)
    assert junk is not None and junk.short_key == ""
    none = parse_facts("Den._x", props, ["10.0.0.5"], 7777)
    assert none is not None and none.short_key == ""


def found_table(short: str = "") -> FoundTable:
    return FoundTable("Den._x", "Den", "10.0.0.5", 7777, 2, 5, 2, False, False, 0, 8, 2, "1",
                      short_key=short)  # fmt: skip


def test_the_join_list_locks_a_table_that_announces_its_key_and_checks_it(app, monkeypatch):
    locks = locks_drawn(monkeypatch, tablelist)
    start = app.top()
    start.found.show(
        [found_table(SHORT_OLD), dataclasses.replace(found_table(), key="b", name="B")]
    )
    with words_drawn(tablelist) as words:
        start.found.draw(pygame.Surface((1280, 800)))
    (drawn,) = [rect for _closed, rect in locks]
    name = next(r for t, r in words if t == "Den")
    assert drawn.right < name.x and start.found.rect.contains(drawn)
    joins = []  # joining from the list checks the announced key
    monkeypatch.setattr(app, "connect", lambda host, port, **kw: joins.append(kw))
    start.join_found(found_table(SHORT_OLD))
    assert joins[0]["announced"] == SHORT_OLD and joins[0]["table"] == "Den"


def test_a_typed_key_goes_with_the_address_and_a_bad_one_is_said(app, monkeypatch) -> None:
    joins = []
    monkeypatch.setattr(app, "connect", lambda host, port, **kw: joins.append((host, port, kw)))
    start = app.top()
    start.address.value = "10.0.0.5:7777"
    start.join_key.value = SHORT_OLD.lower().replace("-", " ")
    start.update(0.0)
    start.choose("join")
    assert joins == [("10.0.0.5", 7777, joins[0][2])] and joins[0][2]["key"] == SHORT_OLD
    start.join_key.value = "7QKM"
    start.update(0.0)
    start.choose("join")
    assert len(joins) == 1 and "table key" in start.errors["key"]
    start.join_key.value = ""
    start.update(0.0)
    assert "key" not in start.errors


@pytest.mark.parametrize("size", [(800, 500), (1280, 800)])
def test_the_join_column_never_overlaps(app, size) -> None:
    app.settings.recent = ["192.168.100.200:7777", "10.0.0.5:7777"]
    pygame.display.set_mode(size)
    app.resized()
    start = app.top()
    assert len(start.recent) == 2
    start.update(0.0)
    col = start.columns[2]
    parts = [("found", start.found.rect), ("address", start.address.rect),
             ("port", start.port.rect), ("password", start.join_password.rect),
             ("key", start.join_key.rect), ("join", start.join.rect),
             ("watch", start.watch.rect)]  # fmt: skip
    parts += [(b.id, b.rect) for b in start.recent]
    for i, (a, ra) in enumerate(parts):
        assert col.contains(ra), (size, a, ra, col)
        for b, rb in parts[i + 1 :]:
            assert not ra.colliderect(rb), (size, a, ra, b, rb)


def test_stud_key_wants_join_and_a_key(capsys) -> None:
    assert main(["--key", SHORT_OLD]) == 2
    assert main(["--join", "127.0.0.1:1", "--key", "nope"]) == 2
    assert "table key" in capsys.readouterr().err
