"""The seats' tokens on disk (client.seatkeys): 0600, written whole, a bad file is empty,
keyed by the table and the name, and forgotten by the rules of R-C1 (issue 16, item 1)."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import replace

import pytest

from client.link import TableLink
from client.model import Session
from client.net import Connection
from client.seatkeys import MAX_AGE, SeatKey, SeatKeys, normal_ip
from client.settings import Settings
from tests.clientkit import decoded

KEY = SeatKey(host="ann-laptop.local", ip="192.168.1.20", port=7777, name="Bob", token="tok-1")


@pytest.fixture
def path(tmp_path):
    return tmp_path / "cfg" / "seventh-street" / "seats.json"


def test_a_kept_key_is_on_disk_0600_and_found_again_by_another_store(path) -> None:
    SeatKeys(path).keep(replace(KEY, match="m-1", seat=2))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    found = SeatKeys(path).find(host="ann-laptop.local", ip="", port=7777, name="Bob")
    assert found is not None and (found.token, found.match, found.seat) == ("tok-1", "m-1", 2)
    assert [p.name for p in path.parent.iterdir()] == ["seats.json"]  # no temp file left


def test_the_same_table_by_address_or_by_the_name_typed(path) -> None:
    keys = SeatKeys(path)
    keys.keep(KEY)
    # The Join panel's click (an address), a typed name, a different spelling of the address.
    assert keys.find(host="192.168.1.20", ip="192.168.1.20", port=7777, name="Bob")
    assert keys.find(host="ANN-LAPTOP.local", ip="", port=7777, name="bob")
    assert keys.find(host="x", ip=normal_ip("::ffff:192.168.1.20"), port=7777, name="Bob")
    # Another port, another name, another address: not ours.
    assert keys.find(host="192.168.1.20", ip="192.168.1.20", port=7778, name="Bob") is None
    assert keys.find(host="192.168.1.20", ip="192.168.1.20", port=7777, name="Cy") is None
    assert keys.find(host="10.0.0.9", ip="10.0.0.9", port=7777, name="Bob") is None


def test_loopback_is_one_address_and_our_own_server_any_port() -> None:
    assert normal_ip("127.0.0.1") == normal_ip("::1") == normal_ip("[::1]") == "loopback"
    assert normal_ip("localhost") == "" and normal_ip("fe80::1%eth0") == "fe80::1"
    keys = SeatKeys(None)
    keys.keep(SeatKey(host="127.0.0.1", ip="loopback", port=40001, name="Ann", token="own",
                      own=True))  # fmt: skip
    assert keys.find(host="127.0.0.1", ip="loopback", port=40002, name="Ann", own=True)
    assert keys.find(host="127.0.0.1", ip="loopback", port=40002, name="Ann") is None


def test_our_computer_table_and_our_hosted_table_keep_apart_keys(path) -> None:
    """Both are our own server on any port, but not the same table: hosting friends after
    a crashed computer match must not write over that match's key, nor the other way."""
    own = SeatKey(host="127.0.0.1", ip="loopback", port=40001, name="Ann", token="solo", own=True)
    keys = SeatKeys(path)
    keys.keep(replace(own, table="Computer table"))
    keys.keep(replace(own, port=7777, token="friends", table="Ann's table"))
    assert sorted(k.token for k in SeatKeys(path).entries()) == ["friends", "solo"]
    found = {
        table: keys.find(host="127.0.0.1", ip="loopback", port=5, name="Ann", own=True, table=table)
        for table in ("Computer table", "Ann's table", "Friday")
    }
    assert found["Computer table"] is not None and found["Computer table"].token == "solo"
    assert found["Ann's table"] is not None and found["Ann's table"].token == "friends"
    assert found["Friday"] is None


def test_two_names_at_one_table_keep_their_own_keys(path) -> None:
    keys = SeatKeys(path)
    keys.keep(KEY)
    keys.keep(replace(KEY, name="Cy", token="tok-2"))
    keys.keep(replace(KEY, token="tok-3"))  # Bob's new seat replaces his old one
    assert sorted((k.name, k.token) for k in keys.entries()) == [("Bob", "tok-3"), ("Cy", "tok-2")]


def test_bad_entries_are_skipped_good_ones_kept(path) -> None:
    path.parent.mkdir(parents=True)
    good = {"host": "h", "ip": "", "port": 1, "name": "Bob", "token": "t", "own": False}
    bad = [{**good, "port": 0}, {**good, "port": "x"}, {**good, "token": ""},
           {**good, "seat": True}, "x", None]  # fmt: skip
    path.write_text(json.dumps({"version": 1, "seats": [*bad, good]}))
    assert [k.token for k in SeatKeys(path).entries()] == ["t"]


def test_an_unreadable_file_reads_as_empty(path) -> None:
    path.mkdir(parents=True)  # a folder where the file should be: reading it fails
    keys = SeatKeys(path)
    assert keys.entries() == []
    keys.keep(KEY)  # cannot be written either: kept in memory for this run
    assert [k.token for k in keys.entries()] == ["tok-1"]


def test_writing_is_atomic_and_the_mode_is_set_before_the_data(path, monkeypatch) -> None:
    keys = SeatKeys(path)
    keys.keep(KEY)
    before = path.read_bytes()
    seen: list[int] = []
    real_fdopen = os.fdopen

    def fdopen(fd, *a, **kw):
        seen.append(stat.S_IMODE(os.fstat(fd).st_mode))
        f = real_fdopen(fd, *a, **kw)

        class Boom:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                f.close()
                return False

            def write(self, data):
                f.write(data[:10])
                raise OSError("disk full")

        return Boom()

    monkeypatch.setattr(os, "fdopen", fdopen)
    keys.keep(replace(KEY, token="tok-2"))  # fails half-way: the old file stays whole
    monkeypatch.undo()
    assert seen == [0o600]
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == ["seats.json"]


def test_forget_rules(path) -> None:
    keys = SeatKeys(path)
    keys.keep(replace(KEY, match="m-1"))
    assert not keys.forget("tok-1", match="m-2")  # the end of another match: kept
    assert keys.forget("tok-1", match="m-1")  # the end of its match
    assert keys.entries() == []
    keys.keep(KEY)
    assert keys.forget("tok-1", match="m-9")  # no match known yet: its match ended
    keys.keep(KEY)
    keys.keep(replace(KEY, match="m-3"))
    assert keys.entries()[0].match == "m-3"
    assert keys.forget("tok-1") and not keys.forget("tok-1")


def test_old_keys_go_at_the_next_write(path) -> None:
    clock = [1000.0]
    keys = SeatKeys(path, now=lambda: clock[0])
    keys.keep(KEY)
    clock[0] += MAX_AGE + 1
    keys.keep(replace(KEY, port=7778, token="tok-2"))
    assert [k.token for k in keys.entries()] == ["tok-2"]


# ------------------------------------------------------------------ the link's rules


def take(link, msg: dict) -> None:
    link.apply(decoded(msg), 0.0)


def _link(tmp_path):
    keys = SeatKeys(tmp_path / "seats.json")
    link = TableLink(Settings(name="Bob"), retry_for=120.0, wake=lambda: None, keys=keys)
    link.session = Session("Bob")
    link.conn = Connection("Table.Local", 7777, lambda: {})  # never started
    link.conn.peer = "::ffff:192.168.1.20"
    return link, keys


WELCOME = {"type": "welcome", "seat": 2, "token": "tok", "name": "Bob", "host": False,
           "watch": False, "hands": 4, "protocol": 2}  # fmt: skip
SEATS = [{"seat": 0, "name": "Ann", "kind": "human", "connected": True, "host": True},
         {"seat": 2, "name": "Bob", "kind": "human", "connected": True, "host": False}]  # fmt: skip


def _lobby(seats, *, running: bool) -> dict:
    return {"type": "lobby", "seats": seats, "host": 0, "hands": 4, "can_start": True,
            "start_when": None, "running": running, "max_seats": 7}  # fmt: skip


def test_the_link_keeps_the_key_from_welcome_and_names_the_match(tmp_path) -> None:
    link, keys = _link(tmp_path)
    take(link, WELCOME)
    (key,) = keys.entries()
    got = (key.host, key.ip, key.port, key.name, key.token, key.seat, key.match)
    assert got == ("table.local", "192.168.1.20", 7777, "Bob", "tok", 2, None)
    take(link, _lobby(SEATS, running=True))
    take(link, {"type": "match_start", "match": "m-7", "hands": 4, "stakes": {}, "stack": 600,
                "seats": [{"seat": 0, "name": "Ann", "kind": "human"},
                          {"seat": 2, "name": "Bob", "kind": "human"}]})  # fmt: skip
    assert [k.match for k in keys.entries()] == ["m-7"]
    # The next game finds it by the address connected, under our name, whatever was typed.
    assert keys.find(host="192.168.1.20", ip="192.168.1.20", port=7777, name="Bob")
    take(link, {"type": "standings", "match": "m-7", "hands_played": 4, "standings": []})
    assert keys.entries() == []  # the match is over


def test_the_link_forgets_a_freed_seat_and_a_leave_between_matches(tmp_path) -> None:
    link, keys = _link(tmp_path)
    take(link, WELCOME)
    take(link, _lobby(SEATS, running=False))
    assert len(keys.entries()) == 1
    take(link, _lobby(SEATS[:1], running=False))  # our seat is gone from the table
    assert keys.entries() == []
    take(link, WELCOME)
    link.conn.close()
    link.hang_up(send_leave=False)  # left in the lobby
    assert keys.entries() == []


def test_every_hello_takes_the_kept_token_and_password(tmp_path) -> None:
    """Issue 33 point 7: the game started again finds its seat without the password typed;
    the reconnects' hellos (the table restarted) say the kept password too."""
    link, keys = _link(tmp_path)
    keys.keep(SeatKey(host="x", ip="192.168.1.20", port=7777, name="bob", token="tok",
                      password="pw"))  # fmt: skip
    hello = link.hello()
    assert (hello["token"], hello["password"], hello.get("watch", False)) == ("tok", "pw", False)
    link.watch = True  # watching asks for no seat: no token
    assert "token" not in link.hello() or link.hello()["token"] is None
    link.watch = False
    take(link, WELCOME)  # our seat back: the session has its token now
    link.session.reset_for_reconnect()  # the link is lost; the thread says hello again
    hello = link.hello()
    assert (hello["token"], hello["password"]) == ("tok", "pw")
