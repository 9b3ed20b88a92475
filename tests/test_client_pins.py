"""The client's trust on first use (issue 18 point 3): the pins on disk, and the link's
key check before any hello (typed, announced, pinned, new); a key is kept only once the
table welcomes us (issue 33 point 5)."""

from __future__ import annotations

import json
import stat
from types import SimpleNamespace

import pytest

from client import link as link_module
from client.app import App
from client.link import TableLink
from client.net import TableKey
from client.pins import Pin, Pins, pin_host
from client.settings import Settings
from common.seal import short_key

OLD = "a1" * 32
NEW = "b2" * 32
OTHER = "c3" * 32


def key(fp: str = OLD, *, name: str = "Hana's table", host: str = "10.0.0.5", port: int = 7777):
    return TableKey(fingerprint=fp, name=name, host=host, port=port)


# ------------------------------------------------------------------ the pins


def test_first_use_pins_and_the_same_key_is_then_ok_in_a_private_whole_file(tmp_path) -> None:
    path = tmp_path / "cfg" / "pins.json"
    pins = Pins(path, now=lambda: 1000.0)
    assert pins.check(key()).state == "new"
    assert pins.pin(key())
    assert pins.check(key()).ok
    assert not pins.pin(key(NEW))  # a table already pinned is not pinned over
    (entry,) = json.loads(path.read_text())["pins"]
    assert entry == {"name": "Hana's table", "host": "10.0.0.5", "port": 7777,
                     "fingerprint": OLD, "first_seen": 1000.0}  # fmt: skip
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["pins.json"]  # no temporary left
    assert Pins(path).check(key()).ok  # read back by another window


def test_another_key_at_the_same_address_or_the_same_name_is_a_mismatch(tmp_path) -> None:
    pins = Pins(tmp_path / "pins.json")
    pins.pin(key())
    same_port = pins.check(key(NEW, name="Someone else"))
    assert same_port.state == "mismatch" and same_port.known == (OLD,)
    moved = pins.check(key(NEW, port=7778))  # the same table name on that host, another port
    assert moved.state == "mismatch" and moved.known == (OLD,)
    assert pins.check(key(OLD, port=7778)).ok  # the table moved: its key is its own
    assert pins.check(key(NEW, name="Gus's table", port=7778)).state == "new"
    assert pins.check(key(NEW, host="10.0.0.6")).state == "new"  # another machine


def test_trusting_replaces_every_pin_of_that_table(tmp_path) -> None:
    pins = Pins(tmp_path / "pins.json")
    pins.pin(key())
    pins.pin(key(OTHER, name="Gus's table", port=7000))
    pins.pin(key(OTHER, host="10.0.0.9"))
    trusted = pins.trust(key(NEW))
    assert trusted.fingerprint == NEW and pins.check(key(NEW)).ok
    fps = sorted((p.host, p.port, p.fingerprint) for p in pins.entries())
    assert fps == [("10.0.0.5", 7000, OTHER), ("10.0.0.5", 7777, NEW), ("10.0.0.9", 7777, OTHER)]


def test_loopback_and_mapped_addresses_are_one_host() -> None:
    assert pin_host("::ffff:10.0.0.5") == "10.0.0.5"
    assert pin_host("127.0.0.1") == pin_host("::1") == "loopback"
    assert pin_host(" Table.Local ") == "table.local"


def test_bad_entries_are_skipped_good_ones_kept(tmp_path) -> None:
    path = tmp_path / "pins.json"
    good = {"name": "T", "host": "10.0.0.5", "port": 7777, "fingerprint": OLD, "first_seen": 1}
    bad = [{"name": "T", "host": "10.0.0.5", "port": 0, "fingerprint": OLD},
           {"name": "T", "host": "10.0.0.5", "port": 7777, "fingerprint": "zz"},
           {"name": 3, "host": "10.0.0.5", "port": 7777, "fingerprint": OLD},
           "x", None]  # fmt: skip
    path.write_text(json.dumps({"version": 1, "pins": [*bad, good]}))
    assert Pins(path).entries() == [Pin("T", "10.0.0.5", 7777, OLD, 1.0)]


def test_a_folder_that_cannot_be_written_keeps_the_pins_in_memory(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    pins = Pins(blocker / "pins.json")  # its folder is a file: nothing can be written there
    assert pins.pin(key())
    assert pins.check(key()).ok


# ------------------------------------------------------------------ the link's check


def unstarted(host: str, port: int, hello, **kw) -> SimpleNamespace:
    """``client.net.Connection`` as the link makes it (its keywords in ``kw``), no thread."""
    return SimpleNamespace(host=host, port=port, peer="", kw=kw, key=None, start=lambda: None,
                           close=lambda: None, send=lambda msg: True)  # fmt: skip


@pytest.fixture
def link(monkeypatch, tmp_path):
    monkeypatch.setattr(link_module, "Connection", unstarted)
    return TableLink(Settings(name="Ann"), retry_for=1.0, wake=lambda: None,
                     pins=Pins(tmp_path / "pins.json"))  # fmt: skip


def join(link, *, host="10.0.0.5", port=7777, peer="10.0.0.5", **kw):
    kw = {"password": "", "watch": False, "remember": "", **kw}
    link.connect(host, port, **kw)
    conn = link.conn
    conn.peer = peer
    return lambda seen: conn.kw["check_key"](seen)


def welcomed(link, seen) -> None:
    """The table of the last join welcomed us (its password proof checked, if any)."""
    link.conn.kw["on_welcome"](seen)


def met(link, seen, **kw) -> None:
    """A join whose table shows ``seen``, passes the check and welcomes us."""
    assert join(link, **kw)(seen) is None
    welcomed(link, seen)


def test_a_new_table_is_pinned_under_the_name_known_for_the_join(link) -> None:
    check = join(link, table="Hana's table")
    assert check(key(name="Some CN")) is None and link.key_problem is None
    assert link.pins.entries() == []  # not before the table has let us in
    welcomed(link, key(name="Some CN"))
    (pin,) = link.pins.entries()
    assert (pin.name, pin.host, pin.port) == ("Hana's table", "10.0.0.5", 7777)
    assert pin.fingerprint == OLD


def test_without_a_name_the_certificates_is_taken(link) -> None:
    check = join(link, host="hana.local")
    assert check(key(name="Hana's table", host="hana.local")) is None
    welcomed(link, key(name="Hana's table", host="hana.local"))
    (pin,) = link.pins.entries()
    assert (pin.name, pin.host) == ("Hana's table", "10.0.0.5")  # the address connected to


def test_a_changed_key_is_refused_with_both_short_keys_and_may_be_trusted(link) -> None:
    met(link, key())
    check = join(link, password="pw")
    refusal = check(key(NEW))
    assert refusal is not None
    assert short_key(OLD) in refusal and short_key(NEW) in refusal
    problem = link.key_problem
    assert problem.kind == "changed" and problem.trustable
    assert problem.known == (short_key(OLD),) and problem.new == short_key(NEW)
    assert problem.table == "Hana's table"
    again = link.trust_new_key()
    assert again is not None and again["host"] == "10.0.0.5" and again["password"] == "pw"
    assert again["trusted"] == NEW and link.key_problem is None
    assert link.trust_new_key() is None  # nothing left to trust
    # The join made again lets the new key through; it replaces the old once welcomed.
    assert join(link, **again)(key(NEW)) is None
    assert link.pins.check(key(NEW)).state == "mismatch"
    welcomed(link, key(NEW))
    assert link.pins.check(key(NEW)).ok


def test_a_trusted_key_whose_join_fails_replaces_nothing(link) -> None:
    """Issue 33 point 5: trusting a key, then a table that fails its password proof
    (someone in the middle), leaves the old pin: the real table is not "changed"."""
    met(link, key())
    join(link, password="pw")(key(NEW))
    again = link.trust_new_key()
    assert join(link, **again)(key(NEW)) is None  # then no_proof: never welcomed
    assert link.pins.check(key()).ok
    assert join(link, password="pw")(key()) is None and link.key_problem is None


def test_a_typed_key_that_differs_is_refused_and_cannot_be_trusted(link) -> None:
    check = join(link, key=short_key(OTHER).lower().replace("-", " "))
    refusal = check(key(NEW))
    assert refusal is not None and short_key(OTHER) in refusal and short_key(NEW) in refusal
    assert link.key_problem.kind == "typed" and not link.key_problem.trustable
    assert link.trust_new_key() is None
    assert link.pins.entries() == []  # nothing pinned from a refused join


def test_a_typed_key_that_matches_replaces_the_pin(link) -> None:
    join(link)(key())
    check = join(link, key=short_key(NEW))
    assert check(key(NEW)) is None  # the person read it off the host's screen
    welcomed(link, key(NEW))
    assert link.pins.check(key(NEW)).ok


def test_an_announced_key_must_match_and_the_pins_still_count(link) -> None:
    check = join(link, announced=short_key(OTHER), table="Hana's table")
    assert check(key(NEW)) is not None and link.key_problem.kind == "announced"
    met(link, key(), announced=short_key(OLD), table="Hana's table")  # matches: pinned
    check = join(link, announced=short_key(NEW), table="Hana's table")
    refusal = check(key(NEW))  # announced and shown agree, but the pin does not
    assert refusal is not None and link.key_problem.kind == "changed"


def test_our_own_server_is_not_pinned(link) -> None:
    link.connect("127.0.0.1", 5000, password="", watch=False, remember="", own=True,
                 own_table="Computer table")  # fmt: skip
    assert link.conn.kw["check_key"](key(host="127.0.0.1", port=5000)) is None
    welcomed(link, key(host="127.0.0.1", port=5000))
    assert link.pins.entries() == []


def test_a_bug_in_the_check_refuses(link, monkeypatch) -> None:
    check = join(link)
    monkeypatch.setattr(link.pins, "check", lambda k: 1 / 0)
    assert check(key()) is not None


def test_the_app_passes_the_join_lists_key_and_name(monkeypatch, tmp_path) -> None:
    seen = {}
    app = App(Settings(name="Ann"), save_settings=False)
    monkeypatch.setattr(app.link, "connect", lambda *a, **kw: seen.update(kw))
    monkeypatch.setattr(app, "sync_scenes", lambda: None)
    app.connect("10.0.0.5", 7777, announced=short_key(OLD), table="Hana's table")
    assert seen["announced"] == short_key(OLD) and seen["table"] == "Hana's table"
    assert not seen["own"]


def test_each_join_keeps_its_own_expectations(link) -> None:
    first = join(link, key=short_key(OTHER))
    second = join(link)  # a new join meanwhile: the first one's check is still its own
    assert first(key(NEW)) is not None and link.key_problem is None  # given up: says nothing
    assert second(key(NEW)) is None
