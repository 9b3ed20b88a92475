"""Issue 33 point 6, the game's side: a damaged or hostile file never stops the window.

The settings, the tables' keys met (``pins.json``) and the seats' tokens
(``seats.json``) are each damaged in every way below; loading them gives the defaults
(or nothing kept), the file is set aside as ``<name>.broken-<time>`` with one log line,
and the next save writes a clean file that reads back.  The computer table's journal
read by the start screen, and the histories and scoreboards the game lists and exports
(the folder friends send each other), are read without a fall too.

The damages: nested too deep, ``Infinity`` (or ``NaN``), the wrong type, empty, not JSON, a
list, binary junk, a folder in the file's place, a pipe in its place.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from client.pins import Pin, Pins
from client.seatkeys import SeatKey, SeatKeys
from client.settings import Settings

pytestmark = pytest.mark.timeout(30)
POSIX = pytest.mark.skipif(os.name != "posix", reason="pipes are POSIX's")

DEEP = 5000
"""Past Python's recursion limit: ``json.loads`` raised ``RecursionError``."""
FP = "ab" * 32
KEY = SeatKey(host="ann-laptop.local", ip="192.168.1.20", port=7777, name="Bob", token="t-1")


class Seen:
    """A key as a link meets it (``client.pins.KeySeen``)."""

    fingerprint, name, host, port = FP, "Friday", "192.168.1.20", 7777


# Each file: its name, a good record with one field to damage, how it is wrapped, and
# how the game loads it, saves something and reads it back.
def _pins(text: str) -> str:
    return f'{{"version": 1, "pins": [{text}]}}'


def _seats(text: str) -> str:
    return f'{{"version": 1, "seats": [{text}]}}'


PIN = ('{"name": "Friday", "host": "192.168.1.20", "port": 7777, "fingerprint": "%s",'
       ' "first_seen": %s}')  # fmt: skip
SEAT = ('{"host": "x", "ip": "", "port": 7777, "name": "Bob", "token": "t-0", "own": false,'
        ' "saved": %s}')  # fmt: skip


def _load_settings(path: Path) -> Any:
    return Settings.load(path)


def _roundtrip_settings(path: Path) -> bool:
    Settings(name="Bob").save(path)
    return Settings.load(path).name == "Bob"


def _roundtrip_pins(path: Path) -> bool:
    Pins(path).pin(Seen())
    return Pins(path).check(Seen()).ok


def _roundtrip_seats(path: Path) -> bool:
    SeatKeys(path).keep(KEY)
    return SeatKeys(path).find(host=KEY.host, ip="", port=7777, name="Bob") is not None


FILES: dict[str, tuple[str, Callable[[Path], Any], Callable[[Path], bool], Any, dict[str, str]]]
FILES = {
    "settings": (
        "settings.json",
        _load_settings,
        _roundtrip_settings,
        Settings(),
        {
            "deep": '{"name": "Ann", "recent": ' + "[" * DEEP + "]" * DEEP + "}",
            "Infinity": '{"name": "Ann", "volume": Infinity}',
            "NaN": '{"name": "Ann", "volume": NaN}',
            "wrong type": '["name", "Ann"]',
        },
    ),
    "pins": (
        "pins.json",
        lambda path: Pins(path).entries(),
        _roundtrip_pins,
        [],
        {
            "deep": _pins(PIN % (FP, "[" * DEEP + "]" * DEEP)),
            "Infinity": _pins(PIN % (FP, "Infinity")),
            "NaN": _pins(PIN % (FP, "NaN")),
            "wrong type": '{"version": 1, "pins": {"Friday": 1}}',
        },
    ),
    "seats": (
        "seats.json",
        lambda path: SeatKeys(path).entries(),
        _roundtrip_seats,
        [],
        {
            "deep": _seats(SEAT % ("[" * DEEP + "]" * DEEP)),
            "Infinity": _seats(SEAT % "1e999"),
            "NaN": _seats(SEAT % "NaN"),
            "wrong type": '{"version": 1, "seats": "Bob"}',
        },
    ),
}


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text("a file in it")


def _damage(path: Path, kind: str, texts: dict[str, str]) -> None:
    if kind == "a folder":
        _folder(path)
    elif kind == "a pipe":
        os.mkfifo(path)  # reading it waited for a writer forever
    elif kind == "binary":
        path.write_bytes(b"\xff\xfe\x00\x01 not text \x80")
    elif kind in SAME_TEXT:
        path.write_text(SAME_TEXT[kind])
    else:
        path.write_text(texts[kind], encoding="utf-8")


SAME_TEXT = {"empty": "", "not json": "{not json", "a list": "[1, 2]"}
DAMAGES = ["deep", "Infinity", "NaN", "wrong type", *SAME_TEXT, "binary", "a folder", "a pipe"]


@pytest.mark.parametrize(
    "damage", [pytest.param(d, marks=POSIX if d == "a pipe" else ()) for d in DAMAGES]
)
@pytest.mark.parametrize("which", list(FILES))
def test_a_damaged_file_is_set_aside_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, which: str, damage: str
) -> None:
    name, load, roundtrip, empty, texts = FILES[which]
    path = tmp_path / "config" / name
    path.parent.mkdir()
    _damage(path, damage, texts)
    with caplog.at_level(logging.WARNING):
        assert load(path) == empty
    aside = list(path.parent.glob(f"{name}.broken-*"))
    assert len(aside) == 1 and not os.path.lexists(path)
    said = [r.getMessage() for r in caplog.records if aside[0].name in r.getMessage()]
    assert len(said) == 1 and "set aside" in said[0]
    assert roundtrip(path)  # the next save makes a clean file
    assert len(list(path.parent.glob(f"{name}.broken-*"))) == 1  # and sets nothing more aside


def test_the_set_aside_files_are_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "pins.json"
    for n in range(3):
        path.write_text(f"{{not json {n}")
        assert Pins(path).entries() == []
    kept = sorted(p.read_text() for p in tmp_path.glob("pins.json.broken-*"))
    assert kept == ["{not json 0", "{not json 1", "{not json 2"]


def test_a_good_pin_and_seat_still_read(tmp_path: Path) -> None:
    """The controls: the same records, undamaged, are read."""
    (tmp_path / "pins.json").write_text(_pins(PIN % (FP, "1.5")))
    assert Pins(tmp_path / "pins.json").entries() == [Pin("Friday", "192.168.1.20", 7777, FP, 1.5)]
    (tmp_path / "seats.json").write_text(_seats(SEAT % "1.5"))
    assert [k.token for k in SeatKeys(tmp_path / "seats.json").entries()] == ["t-0"]


# ------------------------------------------------------------------ the computer table's journal


JOURNAL_DAMAGES = {
    "deep": lambda path: path.write_bytes(
        b'{"format":"stud-journal","version":1,"table":"Computer table"}\n'
        + b"[" * DEEP
        + b"]" * DEEP
        + b"\n"
    ),
    "a pipe": lambda path: os.mkfifo(path),
}


@pytest.mark.parametrize(
    "damage", [pytest.param(d, marks=POSIX if d == "a pipe" else ()) for d in JOURNAL_DAMAGES]
)
def test_the_start_screen_reads_a_damaged_computer_journal_as_none(
    tmp_path: Path, damage: str
) -> None:
    """The start screen asks whether there is a match to resume, and a new computer
    match drops the old one: neither falls over, and the file stays for the table to
    set aside with its log line."""
    from client.localserver import COMPUTER_TABLE, LocalServer
    from server.journal import journal_path, recorded_port

    local = LocalServer({"history_dir": tmp_path})
    path = journal_path(tmp_path, COMPUTER_TABLE)
    JOURNAL_DAMAGES[damage](path)
    assert local.unfinished_computer() is None
    assert recorded_port(tmp_path, COMPUTER_TABLE) is None
    local.drop_computer()
    assert os.path.lexists(path)


# ------------------------------------------------------------------ the histories folder


def _hand(match: str = "2024-05-01-203015-3fa2") -> dict[str, Any]:
    from common.history import FORMAT

    return {"format": FORMAT, "match": match, "hand": 1, "time": "", "button": 0,
            "seats": [{"seat": 0, "name": "Ann", "kind": "human", "stack": 600},
                      {"seat": 1, "name": "Bob", "kind": "human", "stack": 600}],
            "events": [],
            "final": [{"seat": 0, "stack": 600}, {"seat": 1, "stack": 600}]}  # fmt: skip


@POSIX
def test_a_hostile_history_line_is_skipped_where_the_game_reads_histories(
    tmp_path: Path,
) -> None:
    """Histories are sent between friends: a line nested 5000 deep, or holding NaN, is
    skipped by the histories list, the export's table lookup, and a resumed table's
    count of the hands its file holds; the good hand beside it is read.  A pipe or a
    folder named like a history is left out of the list."""
    from client.scenes.histories import list_matches
    from common.history import load
    from server.exports import table_of
    from server.histories import hand_numbers

    good = json.dumps(_hand())
    bad = [b"[" * DEEP + b"]" * DEEP, b'{"format": "stud-hh/1", "hand": NaN}']
    path = tmp_path / "2024-05-01-203015-3fa2.jsonl"
    path.write_bytes(b"\n".join([*bad, good.encode(), b""]))
    os.mkfifo(tmp_path / "2024-05-02-203015-3fa2.jsonl")  # listing it waited forever
    (tmp_path / "2024-05-03-203015-3fa2.jsonl").mkdir()
    assert [r["hand"] for r in load(path.read_text())] == [1]
    assert [(m.path, len(m.records)) for m in list_matches(tmp_path)] == [(path, 1)]
    assert hand_numbers(path, "2024-05-01-203015-3fa2") == {1}
    (tmp_path / "night-2024-05-01-friday.json").write_bytes(b"[" * DEEP + b"]" * DEEP)
    assert table_of("2024-05-01-203015-3fa2", tmp_path) is None
