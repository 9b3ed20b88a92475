"""A computer match survives a crash of the game (issue 16): the computer table journals
its match, the start screen offers the unfinished one, *Resume* sits us back in our seat
by the token kept on disk, and a new match drops it on purpose.

The crash is made in process: the game's link closes without a ``leave`` and its server
thread stops without ending the match (no ``forget``), as a killed process leaves it.
One test kills the real game (`stud --computer 3`, headless, its own folders) with
SIGKILL instead.  Only 127.0.0.1 is used.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pygame
import pytest

from client.localserver import COMPUTER_TABLE
from client.overlays import ConfirmDialog
from client.render.text import font
from client.scenes.start import offer_words
from client.seatkeys import SeatKeys, default_path
from common.match import SeatKind
from server.journal import journal_path, unfinished
from server.seats import token_digest
from tests.clientkit import (
    SIZES,
    apart,
    click,
    crash,
    game_process,
    key,
    processes,
    resize,
    run,
    started,
)
from tests.serverkit import wait_until
from tests.test_journal import NAME, _half_match

pytestmark = pytest.mark.timeout(90)


# ------------------------------------------------------------------ the summary


def test_no_journal_reads_as_none(tmp_path: Path) -> None:
    assert unfinished(tmp_path, COMPUTER_TABLE) is None
    assert unfinished(tmp_path / "nowhere", COMPUTER_TABLE) is None


def test_a_real_journal_says_its_hand_its_seats_and_their_levels(tmp_path: Path) -> None:
    async def scenario() -> None:
        table, _links = await _half_match(tmp_path)
        before = journal_path(tmp_path, NAME).read_bytes()
        found = unfinished(tmp_path, NAME)
        assert found is not None
        match = table.dealer.match
        assert (found.table, found.match) == (NAME, table.records.match_id)
        assert found.hands == table.options.hands
        assert (found.hand, found.in_play) == (table.dealer.hand_no, True) and found.hand >= 2
        assert found.hands_played == found.hand - 1
        assert match is not None and found.hands_played == match.hands_played
        got = [(s.seat, s.name, s.kind) for s in found.seats]
        assert got == [(n, s.name, s.kind) for n, s in sorted(table.seats.items())]
        assert [s.name for s in found.people] == ["Ann", "Bob"]
        (computer,) = found.computers
        assert computer.kind is SeatKind.COMPUTER and found.levels == (computer.level,)
        assert computer.level == table.seats[computer.seat].level
        assert all(s.token_sha256 for s in found.people)  # a hash, never the token
        tokens = {s.token for s in table.seats.values() if s.token}
        assert not any(s.token_sha256 in tokens for s in found.seats)
        assert journal_path(tmp_path, NAME).read_bytes() == before  # only read
        table.shutdown()

    asyncio.run(scenario())


def _bytes_of_a_real_journal(tmp_path: Path) -> bytes:
    async def scenario() -> bytes:
        table, _links = await _half_match(tmp_path)
        table.shutdown()
        return journal_path(tmp_path, NAME).read_bytes()

    return asyncio.run(scenario())


@pytest.mark.parametrize("how", ["garbage", "another version", "an illegal action"])
def test_a_broken_journal_reads_as_none_and_stays_where_it_is(tmp_path: Path, how) -> None:
    data = _bytes_of_a_real_journal(tmp_path / "real")
    if how == "garbage":
        data = b"\x00not a journal\n" + os.urandom(64) + b"\n"
    elif how == "another version":
        data = data.replace(b'"version":1', b'"version":99', 1)
    else:  # whole lines that do not replay: a card played twice, a seat that is none
        data += b'{"t":"act","seat":6,"action":"call","turn":99,"step":99,"banks":{}}\n'
    path = journal_path(tmp_path, NAME)
    path.write_bytes(data)
    assert unfinished(tmp_path, NAME) is None
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name, "real"]  # nothing moved


# ------------------------------------------------------------------ the game


def _our_turn(app: Any) -> bool:
    """Our turn, its buttons up and not answered yet."""
    s, scene = app.session, app.top()
    return bool(s and s.view and s.my_turn() and scene.name == "table" and scene.buttons()
                and scene.bar.sent_turn != s.turn)  # fmt: skip


def _play_some(app: Any, *, turns: int) -> None:
    """A computer match, ``turns`` of our turns answered (check or call, never fold); then
    it waits on our next one (nobody's clock runs at the computer table, R-C4)."""
    answered = [0]

    def player() -> None:
        if answered[0] < turns and _our_turn(app):
            buttons = app.top().buttons()
            key(app, next((b for b in buttons if b.id in ("check", "call")), buttons[0]).key,
                step=False)  # fmt: skip
            answered[0] += 1

    assert run([app], lambda: answered[0] >= turns, players=[player])
    assert run([app], lambda: _our_turn(app))


def _seat_view(app: Any) -> tuple[Any, ...]:
    s = app.session
    return (s.seat, s.token, s.match_id, s.hand, s.hands, s.view, s.legal)


def _crashed_match(make_client, *, computers: int = 3) -> tuple[dict[int, Any], tuple[Any, ...]]:
    """A computer match played a few turns, then the game crashes: the seats it saw, and
    its seat's view of the table at the moment."""
    app = make_client("Ann")
    app.play_computer(computers, 8)
    assert run([app], lambda: app.session and app.session.running and app.session.view)
    _play_some(app, turns=3)
    before = _seat_view(app)
    players = dict(app.session.players)
    assert unfinished(app.local.history_dir(), COMPUTER_TABLE) is not None
    crash(app)
    return players, before


def test_a_crashed_computer_match_is_resumed_by_a_click(make_client) -> None:
    first_players, before = _crashed_match(make_client)
    seat, token, match_id, hand, hands, view, legal = before
    computers = [p.name for _, p in sorted(first_players.items()) if p.kind == "computer"]
    again = make_client("Ann")  # the game started again: the same folders
    again.step(max_wait=0.01)
    start = again.top()
    assert start.name == "start" and start.offer is not None
    assert start.offer.match == match_id and start.offer.hands == hands == 8
    words = offer_words(start.offer)
    assert words.startswith(f"Your unfinished match: hand {hand} of 8 against ")
    assert sorted(computers) == ["Ada", "Babbage", "Cray"]
    assert words.endswith(" against Ada, Babbage and Cray (Regular)")
    assert "resume" in {b.id for b in start.buttons()} and start.play.label == "New match"
    offer_never_overlaps(start, again)
    click(again, start.resume.rect)  # a real click, through the loop's events
    assert run([again], lambda: _our_turn(again), timeout=20)
    assert again.server_kind == "computer" and again.server.server.resumed
    assert _seat_view(again) == before  # hole and up cards, stacks, pot, turn: all of it
    mine = again.session.view.seats[seat]
    assert mine.hole and mine.hole == view.seats[seat].hole and legal
    # The match plays on from there, and ends: nothing left to offer afterwards.
    _play_some(again, turns=1)
    again.leave_table(notice="", send_leave=True)  # left on purpose: it ends
    assert unfinished(again.local.history_dir(), COMPUTER_TABLE) is None
    assert again.top().offer is None


def test_stud_computer_stops_at_the_offer_and_a_new_match_drops_it_after_asking_once(
    make_client, monkeypatch, tmp_path
) -> None:
    _first, before = _crashed_match(make_client)
    token = before[1]
    argv = ["--computer", "1", "--name", "Ann"]
    app = started(monkeypatch, argv, server_overrides={"history_dir": tmp_path / "hh"})
    try:  # ``stud --computer`` stops at the offer, rather than drop the match unasked
        assert app.server is None and app.top().name == "start"
        assert app.top().offer is not None and app.top().offer.match == before[2]
        assert "unfinished" in app.notice
    finally:
        app.leave_table(notice="", send_leave=True)
    again = make_client("Ann")
    again.step(max_wait=0.01)
    start = again.top()
    assert start.offer is not None
    journal = journal_path(again.local.history_dir(), COMPUTER_TABLE)
    start.computers.value = 1  # new settings for the new match
    key(again, "d")  # D, play the computer (issue 17)
    assert isinstance(again.modal, ConfirmDialog) and again.modal.kind == "new_match"
    assert "Your match against Ada, Babbage and Cray (hand " in again.modal.body()
    click(again, again.modal.no.rect)  # "Keep it": nothing happens
    assert again.modal is None and again.top().name == "start" and journal.exists()
    assert again.unfinished_match() is not None
    click(again, start.play.rect)
    click(again, again.modal.yes.rect)  # "New match"
    assert run([again], lambda: again.session and again.session.running and again.session.view)
    s = again.session
    assert s.match_id != before[2] and s.token != token
    assert len(s.view.seats) == 2  # the new settings: one computer seat
    assert not again.server.server.resumed
    assert token not in [k.token for k in SeatKeys(default_path()).entries()]
    found = unfinished(again.local.history_dir(), COMPUTER_TABLE)
    assert found is not None and found.match == s.match_id  # the new match's own journal


def test_the_game_going_down_by_an_exception_keeps_the_match(make_client, monkeypatch) -> None:
    app = make_client("Ann")
    app.step(max_wait=0.01)
    start = app.top()  # nothing unfinished yet: no offer
    assert start.offer is None and app.unfinished_match() is None
    assert "resume" not in {b.id for b in start.buttons()}
    assert start.play.label == "Play the computer"
    app.play_computer(2, 8)
    assert run([app], lambda: _our_turn(app))
    match_id = app.session.match_id

    def broken(max_wait: float = 1.0) -> None:
        raise RuntimeError("a bug in the loop")

    monkeypatch.setattr(app, "step", broken)
    with pytest.raises(RuntimeError):
        app.run()
    assert app.server is None  # its table is stopped, and its match kept for a Resume
    app.scenes, app.screen = [], None  # (the window is gone with it)
    found = unfinished(app.local.history_dir(), COMPUTER_TABLE)
    assert found is not None and found.match == match_id and found.hand == 1
    again = make_client("Ann")
    assert again.top().offer == found


# ------------------------------------------------------------------ on screen


def _title_rect(start: Any, size: tuple[int, int]) -> pygame.Rect:
    """Where the start screen draws its title (``StartScene.draw``)."""
    from client.render.layout import BASE_H

    s = start.s
    px = max(14, round(72 * s))
    w, h = font(px, bold=True).size("SEVENTH STREET")
    rect = pygame.Rect(0, 0, w, h)
    rect.center = (size[0] // 2, round((size[1] - BASE_H * s) / 2 + 70 * s))
    return rect


def _name_label(start: Any) -> pygame.Rect:
    s = start.s
    w, h = font(max(14, round(24 * s))).size("Your name")
    rect = pygame.Rect(0, 0, w, h)
    rect.midright = (start.name_in.rect.x - round(14 * s), start.name_in.rect.centery)
    return rect


def offer_never_overlaps(start: Any, app: Any) -> None:
    """The offer, whole, and its Resume button clear of the start screen at every size."""
    for size in SIZES:
        resize(app, size)
        words, px, text = start.offer_line()
        assert words == offer_words(start.offer), (size, words)  # whole: nothing cut
        assert px >= 13, size
        box = start.offer_box
        assert box.contains(text) and box.contains(start.resume.rect), size
        assert not text.colliderect(start.resume.rect), size
        parts = [("title", _title_rect(start, size)), ("offer", box),
                 ("name", start.name_in.rect), ("name label", _name_label(start)),
                 ("rules", start.rules.rect)]  # fmt: skip
        parts += [(f"column {i}", c) for i, c in enumerate(start.columns)]
        apart(parts, pygame.Rect(0, 0, *size), size)
    resize(app, (1280, 800))
    assert not app._faults


# ------------------------------------------------------------------ a real process


def test_the_game_killed_mid_match_offers_it_and_resumes_it(
    make_client, tmp_path, monkeypatch
) -> None:
    """``stud --computer 3`` killed with SIGKILL in its first hand: the game started again
    on the same folders offers the match, and *Resume* sits us in the same seat by the
    token the killed game kept, in the same hand, every chip there."""
    from server import folders

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    keys = SeatKeys(default_path())

    def seated() -> Any:
        found = unfinished(folders.history_dir(), COMPUTER_TABLE)
        key = next((k for k in keys.entries() if k.match), None)
        return found is not None and key is not None and found.match == key.match and key

    with processes() as procs:
        procs.append(game_process(["--computer", "3", "--name", "Ann", "--hands", "4"], tmp_path))
        key = wait_until(seated, timeout=30)
        assert key, "the game never sat down at its computer table"
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(10)
    found = unfinished(folders.history_dir(), COMPUTER_TABLE)
    assert found is not None and found.match == key.match
    assert token_digest(key.token) in {s.token_sha256 for s in found.people}
    app = make_client("Ann", history_dir=folders.history_dir())  # the same folders
    start = app.top()
    assert start.offer == found
    click(app, start.resume.rect)
    assert run([app], lambda: app.session and app.session.view and app.session.welcomed)
    s = app.session
    assert (s.seat, s.token, s.match_id) == (key.seat, key.token, key.match)
    assert s.hand == found.hand and s.view.seats[s.seat].hole
    assert sum(t.stack + t.in_pot for t in s.view.seats.values()) == 4 * 600
