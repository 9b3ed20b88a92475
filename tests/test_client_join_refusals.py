"""A join that does not get in, as a newcomer reads it (issue 33): a mistyped password is
said as one ("Wrong password: check it with the host"), someone in the middle only when the
table's proof shows a relay; a table that cannot be reached is said in the game's words by
the Join box, not in the system's under the Host panel.  Every word inside its box at
800x500, 1280x800 and 1600x1000 (the rectangles as drawn)."""

from __future__ import annotations

import errno
import socket

import pygame
import pytest

from client import reach
from client.net import Connection
from client.render import tablelist
from client.render.tablelist import PasswordPrompt
from client.scenes import start as start_scene
from common.proof import ClientProof, ProofFailed, Relayed, TableProof, WrongPassword
from tests.clientkit import (
    closed_port,
    failed,
    found_at,
    hosting,
    in_the_clear,
    key,
    polled,
    resize,
    run,
)
from tests.drawn import words_drawn

SIZES = [(800, 500), (1280, 800), (1600, 1000)]
BINDING = bytes(range(32))


# ------------------------------------------------------------------ a typo or a relay


def finish(client_pw: str, table_pw: str, *, relayed: bool = False, pw_mac: bool = True):
    """The client's side of one proof against a table with ``table_pw``; ``relayed``: the
    table's TLS channel is not the client's (a man in the middle relays the messages)."""
    client = ClientProof(client_pw, BINDING)
    table = TableProof(table_pw, b"M" * 32 if relayed else BINDING)
    pake_b, mac = table.answer(client.start())
    return client.finish(pake_b, mac, table.password_mac() if pw_mac else None)


def test_the_proof_tells_a_typo_from_a_relay() -> None:
    """The table's ``pw_mac`` proves the SPAKE2 key on no channel: right with a wrong
    channel binding is a relay; wrong is another password.  A table that sends none
    leaves it open, as before."""
    assert finish("swordfish", "swordfish")  # the right password, one channel: in
    with pytest.raises(WrongPassword):
        finish("swordfihs", "swordfish")
    with pytest.raises(Relayed):
        finish("swordfish", "swordfish", relayed=True)
    for relayed in (False, True):  # an older table: a failed proof, neither of the two
        with pytest.raises(ProofFailed) as failed:
            finish("swordfihs" if not relayed else "swordfish", "swordfish",
                   relayed=relayed, pw_mac=False)  # fmt: skip
        assert type(failed.value) is ProofFailed


def prompt_words(prompt: PasswordPrompt, size) -> list[tuple[str, pygame.Rect]]:
    prompt.layout(pygame.Rect((0, 0), size), min(size[0] / 1280, size[1] / 800))
    with words_drawn(tablelist) as drawn:
        prompt.draw(pygame.Surface(size))
    return drawn


def between_box_and_buttons(prompt: PasswordPrompt) -> pygame.Rect:
    """The dialog's room for a refusal: under the password box, over the buttons."""
    top, box = prompt.input.rect.bottom, prompt.box
    return pygame.Rect(box.x, top, box.w, prompt.join.rect.top - top)


def under_the_address(start) -> pygame.Rect:
    """The Join column's room under the address and port, over the password box."""
    column, top = start.columns[2], start.address.rect.bottom
    return pygame.Rect(column.x, top, column.w, start.join_password.rect.top - top)


def said_whole(drawn, box: pygame.Rect, words: str, size) -> None:
    """``words`` are drawn whole (no ellipsis), every line of them inside ``box``."""
    lines = [(w, r) for w, r in drawn if box.contains(r) or r.colliderect(box)]
    assert " ".join(w for w, _r in lines) == words, (size, lines)
    for w, r in lines:
        assert box.contains(r), (size, w, r, box)


def test_a_typo_says_wrong_password_whole_at_every_size_a_name_taken_by_the_join_box(make_client):
    """A friend clicks the table, types the password wrong: the same dialog stays open,
    emptied, and says "Wrong password: check it with the host", all of it, inside its box;
    nothing of someone in the middle.  The right one then gets in.  A wrong password with
    the address typed is said by the Join box; so is a name already at the table."""
    host = hosting(make_client("Hana"), password="secret")
    twin = make_client(" hana ", offscreen=True)
    twin.connect("127.0.0.1", host.server.port, password="secret")
    assert run([host, twin], lambda: twin.session is None)
    said = twin.top().errors["join"]
    assert twin.top().name == "start" and "Hana is already at the table" in said
    assert "another name" in said
    twin.draw()
    assert [p.name for p in host.session.lobby.seats if p.kind == "human"] == ["Hana"]
    guest = make_client("Gus", offscreen=True)
    start = guest.top()
    start.join_found(found_at(host.server.port, seats=3, free=1, password=True))
    prompt = start.prompt
    assert prompt is not None and prompt.error == ""

    def typed(text: str) -> None:
        guest.inbox.append(pygame.event.Event(pygame.TEXTINPUT, text=text))
        guest.step(max_wait=0.01)
        key(guest, pygame.K_RETURN, step=False)

    typed("secert")
    assert run([host, guest], lambda: start.prompt is not None and start.prompt.error != "")
    assert start.prompt is prompt and guest.top() is start and prompt.input.value == ""
    assert prompt.error == "Wrong password: check it with the host."
    assert prompt.error == reach.WRONG_PASSWORD and "middle" not in prompt.error
    assert guest.notice == "" and "join" not in start.errors
    for size in SIZES:
        drawn = prompt_words(prompt, size)
        said_whole(drawn, between_box_and_buttons(prompt), reach.WRONG_PASSWORD, size)
        for w, r in drawn:  # and nothing else of the dialog leaves it
            assert prompt.box.contains(r), (size, w, r, prompt.box)
    typed("secret")
    assert run([host, guest], lambda: guest.top().name == "lobby")
    assert start.prompt is None and start.asked is None
    typist = make_client("Cy", offscreen=True)
    typist.connect("127.0.0.1", host.server.port, password="nope")
    assert run([host, typist], lambda: typist.session is None)
    assert typist.top().errors["join"] == "Wrong password: check it with the host."


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    "words",
    [reach.WRONG_PASSWORD, reach.NO_PROOF,
     "Too many wrong passwords from your address: try again in 12 s"],
    ids=["typo", "older-table", "password-wait"],
)  # fmt: skip
def test_every_refusal_the_dialog_says_fits_its_box(app, words: str, size) -> None:
    prompt = PasswordPrompt(found_at(7777, key="T", host="192.168.100.200", password=True))
    prompt.error = words
    drawn = prompt_words(prompt, size)
    said_whole(drawn, between_box_and_buttons(prompt), words, size)


# ------------------------------------------------------------------ by the Join box


def join_box_words(app, size) -> tuple[list[tuple[str, pygame.Rect]], pygame.Rect]:
    resize(app, size)
    start = app.top()
    with words_drawn(start_scene) as drawn:
        start.draw(app.screen)
    return drawn, under_the_address(start)


def test_a_table_that_does_not_answer_is_said_by_the_join_box(make_client) -> None:
    """A typed address where no game listens: "No table answers at 127.0.0.1:PORT — is the
    host's game open?", by the Join box (inside the Join column, above the password box),
    never the system's "Connection refused" at the bottom of the screen."""
    app = make_client("Gus")
    start = app.top()
    port = closed_port()
    start.address.value = f"127.0.0.1:{port}"
    start.update(0.0)
    start.choose("join")
    assert run([app], lambda: app.top() is start and "join" in start.errors, timeout=10)
    assert app.session is None
    words = f"No table answers at 127.0.0.1:{port} — is the host's game open?"
    assert start.errors["join"] == words
    assert app.notice == "" and "refused" not in words.lower()
    for size in SIZES:
        drawn, box = join_box_words(app, size)
        said_whole(drawn, box, words, size)
    # Another address typed takes it back.
    start.address.value = "127.0.0.1"
    start.update(0.0)
    assert "join" not in start.errors


LONG = "fd00:1234:5678:9abc:def0:1234:5678:9abc"


@pytest.mark.parametrize(
    ("exc", "host", "want"),
    [
        (socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution"),
         "tablehost", "No computer called tablehost on this network"),
        (socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
         "ann-laptop-in-the-kitchen.local", "No computer called ann-laptop-in-the-kitchen"),
        (ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"), LONG,
         f"No table answers at [{LONG}]:7777"),
        (TimeoutError("timed out"), "192.168.1.20", "No answer from 192.168.1.20:7777"),
        (OSError(errno.ENETUNREACH, "Network is unreachable"), "10.0.0.5",
         "10.0.0.5 cannot be reached from here"),
        (OSError(errno.EHOSTUNREACH, "No route to host"), "10.0.0.5",
         "10.0.0.5 cannot be reached from here"),
    ],
    ids=["name-lookup", "no-such-name", "refused", "timeout", "net-unreachable", "no-route"],
)  # fmt: skip
def test_connect_errors_are_said_in_the_games_words_and_fit_the_join_box(
    app, exc: OSError, host: str, want: str
) -> None:
    words = reach.unreachable(host, 7777, exc)
    assert words.startswith(want), words
    assert exc.strerror is None or exc.strerror not in words  # not the system's words
    app.join_refusal = ("unreachable", words)
    start = app.top()
    start.enter()
    assert start.errors["join"] == words
    for size in SIZES:
        drawn, box = join_box_words(app, size)
        said_whole(drawn, box, words, size)


def test_something_that_is_not_a_table_is_said_so_not_in_tls_words() -> None:
    """A web server on the port typed: it answers the game's TLS hello with plain HTTP.
    The game says something answers there, but not as a table, and to check the port."""
    hello = lambda: {"type": "hello", "protocol": 2, "name": "Ann"}  # noqa: E731
    with in_the_clear(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
                      read_first=True) as port:  # fmt: skip
        conn = Connection("127.0.0.1", port, hello, retry_for=0.0)
        conn.start()
        seen = polled(conn, lambda s: failed(s) is not None)
        conn.close()
    status = failed(seen)
    assert status is not None, seen
    assert status.message == (
        f"Something answers at 127.0.0.1:{port}, but not as a Seventh Street table: check the port."
    )
