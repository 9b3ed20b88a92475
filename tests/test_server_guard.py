"""The table's door: hostile connections, floods, passwords, names, chat and files.

Real sockets on loopback; Linux routes all of 127.0.0.0/8 to ``lo``, so a
client bound to 127.0.0.2 is "another machine" for the per-address limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import struct
from pathlib import Path

import msgpack
import pytest

from common.protocol import Chat, Hello, Ping, Start
from server.chat import clean_text
from tests.serverkit import UNIT, Client, config, frame, run, running, until

HOSTILE = "127.0.0.2"
FRIEND = "127.0.0.3"


async def _hostile(port: int, kind: str, stop: asyncio.Event) -> None:
    """One of the 200: silent, watching, trickling or re-opening, again and again."""
    while not stop.is_set():
        lurker = Client("lurker")
        try:
            await lurker.connect(port, source=HOSTILE)
        except OSError:
            await asyncio.sleep(UNIT / 5)  # (the door's backlog is full: knock again)
            continue
        try:
            if kind == "watching":
                lurker.send(Hello(name="lurker", watch=True).encode())
            elif kind == "trickling":
                for byte in frame(Hello(name="drip" * 4).encode())[:-1]:
                    lurker.send_raw(bytes([byte]))
                    await asyncio.sleep(UNIT)  # the pace of the trickle
                    if stop.is_set() or lurker.closed:
                        break
            if kind != "reopening":
                with contextlib.suppress(TimeoutError):
                    await lurker.wait_closed(400 * UNIT)
        except (ConnectionError, OSError):
            pass
        finally:
            await lurker.close()


@run
async def test_R_C1_no_one_can_lock_a_seated_player_out(tmp_path: Path) -> None:
    """80 hostile connections from one address (silent, watching, trickling and
    re-opening), ten times what the door lets one address hold; still every comeback by
    token gets in, 9 of 9, and a new friend from a third address sits down."""
    cfg = config(
        tmp_path,
        computer=1,
        hands=12,
        grace=1000 * UNIT,  # the seats never act: the match stays running
        # Long enough that a friend's hello is read in time while 200 hostile tasks
        # share this test's event loop on a busy machine; the caps, not the timeout,
        # are what keep the door open.
        handshake_timeout=20 * UNIT,
        frame_timeout=20 * UNIT,
        heartbeat_every=4 * UNIT,
    )
    async with running(cfg) as (server, port):
        ann, bob = Client("Ann"), Client("Bob")
        await ann.hello(port)
        await bob.hello(port)
        stop = asyncio.Event()
        kinds = ["silent", "watching", "trickling", "reopening"]
        hostiles = [
            asyncio.get_running_loop().create_task(_hostile(port, kinds[i % 4], stop))
            for i in range(80)
        ]
        try:
            limits = server.table.door.limits

            def crowd() -> int:
                return sum(1 for c in server.table.conns if c.address == HOSTILE)

            assert await until(lambda: crowd() >= limits.pending_per_address)
            most = 0
            cy = Client("Cy")
            assert (await cy.hello(port, source=FRIEND))["seat"] == 2
            ann.send(Start().encode())
            await ann.seen("match_start")
            seated = {"Ann": ann, "Bob": bob, "Cy": cy}
            back = 0
            for i in range(9):
                name = ("Ann", "Bob", "Cy")[i % 3]
                old = seated[name]
                await old.close()
                new = Client(name)
                welcome = await new.hello(port, token=old.token)
                assert welcome["type"] == "welcome" and welcome["seat"] == old.seat, welcome
                back += 1
                seated[name] = new
                most = max(most, crowd())
            assert back == 9
            assert 0 < most <= limits.pending_per_address + limits.watchers_per_address
            assert server.table.dealer.life.running
        finally:
            stop.set()
            for task in hostiles:
                task.cancel()
            await asyncio.gather(*hostiles, return_exceptions=True)


@run
async def test_watchers_are_capped_per_address_and_in_all(tmp_path: Path) -> None:
    cfg = config(tmp_path, watchers_per_address=2, max_watchers=3)
    async with running(cfg) as (_server, port):
        for i in range(2):
            welcome = await Client(f"w{i}").hello(port, source=HOSTILE, watch=True)
            assert welcome["type"] == "welcome"
        third = Client("w2")
        refused = await third.hello(port, source=HOSTILE, watch=True)
        assert refused["code"] == "server_busy" and "address" in refused["message"]
        await third.wait_closed()
        friend = Client("f")
        assert (await friend.hello(port, source=FRIEND, watch=True))["type"] == "welcome"
        full = Client("x")
        assert (await full.hello(port, watch=True))["code"] == "server_busy"
        # Sitting down is not watching: a person still gets a seat.
        assert (await Client("Ann").hello(port))["seat"] == 0


@run
async def test_a_flooding_connection_is_closed_and_the_match_finishes(tmp_path: Path) -> None:
    """Every message costs, pings included: a connection over its budget gets ``flood``
    and is closed; the table plays on to the standings."""
    cfg = config(tmp_path, computer=2, start_when=3, budget_burst=30, budget_per_second=10)
    async with running(cfg) as (server, port):
        ann = Client("Ann")
        await ann.hello(port)
        flood = Client("Flood")
        await flood.hello(port, source=HOSTILE, watch=True)
        flood.send_raw(frame(Ping(1).encode()) * 5000)
        error = await flood.expect("error")
        assert error["code"] == "flood" and error["ref"] == "ping"
        await flood.wait_closed()
        assert len(flood.of_type("pong")) <= 30
        standings = await ann.play()
        assert standings["hands_played"] == 4
        assert [c.name for c in server.table.conns] == ["Ann"]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"\x82\xa4type\xa4ping\xa1x" + b"\x91" * 40 + b"\xc0", "nested deeper"),
        (msgpack.packb({"type": "ping", "x": [0] * 5000}), "more than"),
        (msgpack.packb({"type": "ping", "x": [[[[[]]]]] * 1000}), "more than"),
    ],
    ids=["deep", "wide", "many-small-lists"],
)
@run
async def test_a_frames_shape_is_bounded_before_it_is_built(
    tmp_path: Path, body: bytes, why: str
) -> None:
    async with running(config(tmp_path)) as (_server, port):
        other = Client("Other")
        await other.hello(port)
        c = Client("Ann")
        await c.hello(port)
        c.send_raw(struct.pack(">I", len(body)) + body)
        error = await c.expect("error")
        assert error["code"] == "bad_frame" and why in error["message"]
        await c.wait_closed()
        other.send(Ping(5).encode())
        assert (await other.expect("pong"))["id"] == 5


@run
async def test_names_are_unique_at_the_table(tmp_path: Path) -> None:
    """Compared without case, width or surrounding spaces; computer seats' too."""
    cfg = config(tmp_path, computer=1, hands=12, grace=1000 * UNIT)
    async with running(cfg) as (server, port):
        assert server.table.seats[6].name == "Ada"
        ann = Client("Ann")
        await ann.hello(port)
        for name in ("Ann", "ann", " ANN ", "ＡＮＮ", "ada", "Ada"):
            dup = Client(name)
            error = await dup.hello(port)
            assert error["code"] == "name_taken" and error["ref"] == "hello", name
            assert "choose another name" in error["message"]
            await dup.wait_closed()
        assert sorted(s.name for s in server.table.seats.values()) == ["Ada", "Ann"]
        # The seat's own comeback keeps its name whatever the hello says.
        ann.send(Start().encode())
        await ann.seen("match_start")
        await ann.close()
        back = Client(" ANN ")
        welcome = await back.hello(port, token=ann.token)
        assert welcome["seat"] == 0 and welcome["name"] == "Ann"
        # Watching is not sitting: a watcher may share a name, and its chat says so.
        watcher = Client("ＡＮＮ")
        assert (await watcher.hello(port, watch=True))["type"] == "welcome"
        watcher.send(Chat("hi").encode())
        said = await back.expect("chat")
        assert said["seat"] is None and said["watching"] is True


CHAT = [
    ("red \x1b[31mALERT\x1b[0m", "red ALERT"),
    ("title\x1b]0;pwned\x07 bar", "title bar"),
    ("link \x1b]8;;http://x\x1b\\here\x1b]8;;\x1b\\", "link here"),
    ("c1 \x9b2J csi", "c1 csi"),
    ("bell\x07\x08\x00 nul", "bell nul"),
    ("two\nlines\r\nhere", "two lines here"),
    ("\u202eevil\u202c", "evil"),
    ("tab\there", "tab here"),
    ("é ü 🂡 ok", "é ü 🂡 ok"),
]


@pytest.mark.parametrize(
    ("text", "shown"),
    CHAT,
    ids=["csi", "osc-title", "osc-link", "c1-csi", "c0", "newlines", "bidi", "tab", "unicode"],
)
def test_chat_is_stripped_of_control_characters_and_escapes(text: str, shown: str) -> None:
    assert clean_text(text, limit=200) == shown


@run
async def test_chat_is_relayed_as_it_may_be_shown(tmp_path: Path) -> None:
    async with running(config(tmp_path, chat_burst=len(CHAT) + 1)) as (_server, port):
        ann, bob = Client("Ann"), Client("Bob")
        await ann.hello(port)
        await bob.hello(port)
        for text, shown in CHAT:
            ann.send(Chat(text).encode())
            assert (await bob.expect("chat"))["text"] == shown
        ann.send(Chat("\x1b[2J\x07\n").encode())  # nothing left to say
        assert (await ann.expect("error"))["code"] == "bad_message"


def test_clean_text_caps_the_line() -> None:
    assert clean_text("x" * 500, limit=200) == "x" * 200
    assert clean_text("\x1b[1m" * 100 + "y", limit=200) == "y"


@run
async def test_history_files_are_private(tmp_path: Path) -> None:
    """Every hole card is in them: 0600 files in a 0700 folder, whatever the umask, and
    a folder that was there before with looser modes is tightened."""
    folder = tmp_path / "hh"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    old = os.umask(0)
    try:
        async with running(config(folder, computer=1, start_when=2)) as (_server, port):
            ann = Client("Ann")
            await ann.hello(port)
            await ann.play()
    finally:
        os.umask(old)
    (path,) = folder.glob("*.jsonl")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_password_need_not_be_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from server.__main__ import _parser, config_from_args

    def password(*argv: str) -> str | None:
        return config_from_args(_parser().parse_args(list(argv))).password

    monkeypatch.delenv("SEVENTH_STREET_PASSWORD", raising=False)
    assert password() is None
    secret = tmp_path / "pw"
    secret.write_text("swordfish \nsecond line\n")
    assert password("--password-file", str(secret)) == "swordfish"
    monkeypatch.setenv("SEVENTH_STREET_PASSWORD", "marlin")
    assert password() == "marlin"
    assert password("--password-file", str(secret)) == "swordfish"
    assert password("--password", "tuna") == "tuna"
    (tmp_path / "empty").write_text("\n")
    for bad in ("empty", "missing"):
        with pytest.raises(ValueError, match="password"):
            password("--password-file", str(tmp_path / bad))
