"""Issue 33 point 6: a damaged or hostile file never stops the table.

Every file the server reads when it starts (the journal of the match in play, the
night's scoreboard, the table's key) is damaged in each way the issue names, and a
``TableServer`` is started on it as ``stud-server`` starts one: the file is set aside as
``<name>.broken-<time>`` with one log line, and the table is up (a person says hello
and is welcomed) and clean.  A journal naming another file as its match's history is
set aside too, and the table's key lives in the server's own data folder, moved there
from the histories folder people share.  The damages are the tables below, file by file.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import stat
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from common import seal
from server.histories import history_name
from server.identity import KEY_FILE, load_identity
from server.journal import journal_path, parse, unfinished
from server.night import FORMAT as NIGHT_FORMAT
from server.night import evening_of, night_path
from tests.serverkit import Client, clocked_table, config, drive, running, seated

pytestmark = pytest.mark.timeout(60)
POSIX = pytest.mark.skipif(os.name != "posix", reason="pipes and file modes are POSIX's")

NAME = "Friday"
DEEP = 5000
"""Past Python's recursion limit: ``json.loads`` raised ``RecursionError`` at start-up."""

Damage = Callable[[Path], None]


def _deep() -> bytes:
    return b"[" * DEEP + b"]" * DEEP


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text("a file in it")


def _pipe(path: Path) -> None:
    os.mkfifo(path)  # reading it waited for a writer forever


class Started:
    """A table started on ``tmp``'s folders: its log lines, its key and the first lobby
    a person who says hello is sent (it is up)."""

    def __init__(self, tmp: Path, caplog: pytest.LogCaptureFixture, **options: Any) -> None:
        options.setdefault("data_dir", _kept(tmp))
        cfg = config(tmp / "histories", name=NAME, computer=1, **options)
        with caplog.at_level(logging.INFO, logger="server"):
            self.lobby, self.short = asyncio.run(self._hello(cfg))
        self.lines = [r.getMessage() for r in caplog.records]

    async def _hello(self, cfg: Any) -> tuple[dict[str, Any], str]:
        async with running(cfg) as (server, port):
            ann = Client("Ann")
            assert (await ann.hello(port))["type"] == "welcome"
            lobby = await ann.expect("lobby")
            await ann.close()
            return lobby, server.identity.short

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def set_aside_once(self, path: Path) -> Path:
        """The one log line that sets ``path`` aside, and the file it went to."""
        said = [line for line in self.lines if "set aside" in line and str(path) in line]
        assert len(said) == 1, self.lines
        aside = list(path.parent.glob(f"{path.name}.broken-*"))
        assert len(aside) == 1 and aside[0].name in said[0]
        return aside[0]


def _kept(tmp: Path) -> Path:
    """The server's own data folder (``--data-dir``)."""
    return tmp / "data" / "seventh-street" / "server"


# ------------------------------------------------------------------ the journal


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A good journal of table NAME: a match in its first hand, a few actions in."""
    folder = tmp_path_factory.mktemp("journal")

    async def play() -> bytes:
        table, clock = await clocked_table(config(folder, name=NAME, computer=1, start_when=3))
        links = seated(table, "Ann", "Bob")
        await drive(table, clock, links, random.Random(1), until=lambda: table.dealer.step >= 6)
        data = table.journal.path.read_bytes()
        table.shutdown()
        return data

    data = asyncio.run(play())
    assert unfinished(folder, NAME) is not None  # it resumes as it is
    return data


def _edit_match(data: bytes, **fields: Any) -> bytes:
    """``data`` with the ``match`` record's ``fields`` replaced (the raw text of each)."""
    lines = data.split(b"\n")
    record = json.loads(lines[1])
    assert record["t"] == "match"
    text = json.dumps(record, separators=(",", ":"))
    for key, raw in fields.items():
        text = text.replace(f'"{key}":{json.dumps(record[key])}', f'"{key}":{raw}', 1)
    lines[1] = text.encode()
    return b"\n".join(lines)


JOURNAL_DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "too deep": lambda good: good + b'{"t":"act","seat":1,"action":' + _deep() + b"}\n",
    "Infinity": lambda good: good.replace(b'"time_bank":90.0', b'"time_bank":Infinity', 1),
    "a number too large": lambda good: good.replace(
        b'"time_bank":90.0', b'"time_bank":1' + b"0" * 400, 1
    ),
    "history: table.key": lambda good: _edit_match(good, history='"table.key"'),
    "history: ../escape.jsonl": lambda good: _edit_match(good, history='"../escape.jsonl"'),
    "history: another match's": lambda good: _edit_match(
        good, history='"2020-01-01-200000-abcd.jsonl"'
    ),
}


@pytest.mark.parametrize("damage", JOURNAL_DAMAGES, ids=list(JOURNAL_DAMAGES))
def test_a_damaged_journal_is_set_aside_and_the_server_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, journal: bytes, damage: str
) -> None:
    path = journal_path(tmp_path / "histories", NAME)
    path.parent.mkdir(mode=0o700)
    bad = JOURNAL_DAMAGES[damage](journal)
    assert bad != journal
    path.write_bytes(bad)
    server = Started(tmp_path, caplog)
    aside = server.set_aside_once(path)
    assert aside.read_bytes() == bad  # kept to be looked at
    assert server.lobby["running"] is False  # a clean table: no match resumed
    assert not server.said("resumed match")
    # No file of the histories folder was written but the one set aside.
    assert [f.name for f in path.parent.iterdir()] == [aside.name]


FOLDER_OR_PIPE = [
    pytest.param(_folder, id="a folder"),
    pytest.param(_pipe, id="a pipe", marks=POSIX),
]


@pytest.mark.parametrize("damage", FOLDER_OR_PIPE)
def test_a_folder_or_a_pipe_for_a_journal_is_set_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: Damage
) -> None:
    path = journal_path(tmp_path / "histories", NAME)
    path.parent.mkdir(mode=0o700)
    damage(path)
    server = Started(tmp_path, caplog)
    aside = server.set_aside_once(path)
    assert not os.path.lexists(path)
    assert aside.is_dir() == (damage is _folder)
    assert server.lobby["running"] is False


@pytest.mark.parametrize(
    ("recorded", "name"),
    [
        ("2024-05-01-203015-3fa2.jsonl", "2024-05-01-203015-3fa2.jsonl"),
        ("/home/ann/.local/share/seventh-street/histories/2024-05-01-203015-3fa2.jsonl",
         "2024-05-01-203015-3fa2.jsonl"),  # an older version's: its last part counts
        ("C:\\Users\\ann\\histories\\2024-05-01-203015-3fa2.jsonl",
         "2024-05-01-203015-3fa2.jsonl"),
        ("", ""),
        ("table.key", None),
        ("../2024-05-01-203015-3fa2.jsonl", None),
        ("sub/2024-05-01-203015-3fa2.jsonl", None),
        ("2024-05-01-203015-3fa2.json", None),
        ("2020-01-01-200000-abcd.jsonl", None),
        (5, None),
    ],
)  # fmt: skip
def test_a_history_named_by_a_journal_is_its_own_match_file(
    recorded: object, name: str | None
) -> None:
    if name is None:
        with pytest.raises(ValueError):
            history_name(recorded, "2024-05-01-203015-3fa2")
    else:
        assert history_name(recorded, "2024-05-01-203015-3fa2") == name


@pytest.mark.parametrize("match_id", ["../x", "a/b", "..", "", "x.y", 5, "a" * 81])
def test_a_match_id_that_is_not_a_plain_name_is_refused(match_id: object) -> None:
    with pytest.raises(ValueError):
        history_name("", match_id)


def test_the_journal_names_its_history_by_its_plain_name(journal: bytes) -> None:
    history = str(parse(journal, NAME)[0]["history"])
    assert "/" not in history and "\\" not in history and history.endswith(".jsonl")


# ------------------------------------------------------------------ the night


def _night(evening: str, **raw: str) -> bytes:
    """A good scoreboard of tonight with one match, its totals' fields as ``raw`` text."""
    total = {"name": "Ann", "kind": "human", "matches": 1, "wins": 1, "net": 50}
    data = {
        "format": NIGHT_FORMAT, "evening": evening, "table": NAME, "played": 1,
        "totals": [total],
        "matches": [{"match": "m-1", "ended": "", "hands": 4, "results": [
            {"name": "Ann", "kind": "human", "place": 1, "net": 50, "winner": True}]}],
    }  # fmt: skip
    text = json.dumps(data)
    for key, value in raw.items():
        text = text.replace(f'"{key}": {json.dumps(total[key])}', f'"{key}": {value}', 1)
    return text.encode()


NIGHT_DAMAGES: dict[str, Callable[[str], bytes]] = {
    "too deep": lambda evening: _deep(),
    "net: Infinity": lambda evening: _night(evening, net="Infinity"),
    "net: NaN": lambda evening: _night(evening, net="NaN"),
    'net: "50"': lambda evening: _night(evening, net='"50"'),
    "cut short": lambda evening: _night(evening)[:60],
}


def _tonight(tmp: Path) -> tuple[str, Path]:
    evening = evening_of(datetime.now().astimezone())
    path = night_path(tmp / "histories", evening, NAME)
    path.parent.mkdir(mode=0o700)
    return evening, path


@pytest.mark.parametrize(
    "damage", [*NIGHT_DAMAGES, *FOLDER_OR_PIPE], ids=[*NIGHT_DAMAGES, "a folder", "a pipe"]
)
def test_a_damaged_night_is_set_aside_and_a_new_night_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str | Damage
) -> None:
    evening, path = _tonight(tmp_path)
    if callable(damage):
        damage(path)
    else:
        path.write_bytes(NIGHT_DAMAGES[damage](evening))
    server = Started(tmp_path, caplog)
    aside = server.set_aside_once(path)
    if not callable(damage):
        assert aside.read_bytes() == NIGHT_DAMAGES[damage](evening)
    assert server.said("a new night starts")
    assert server.lobby["night"]["played"] == 0


def test_a_good_night_carries_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The control: the same file, undamaged, is read."""
    evening, path = _tonight(tmp_path)
    path.write_bytes(_night(evening))
    server = Started(tmp_path, caplog)
    assert server.lobby["night"]["played"] == 1
    assert not server.said("set aside")


# ------------------------------------------------------------------ the table's key


def _key_of_another_kind() -> bytes:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP384R1())
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


KEY_DAMAGES: dict[str, bytes | Damage] = {
    "a folder": _folder,
    "a pipe": _pipe,
    "not a key": b"not a key at all",
    "empty": b"",
    "bad pem": b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    "another kind": _key_of_another_kind(),
    "200 KB": b"-----BEGIN PRIVATE KEY-----\n" + b"A" * 200_000,
}


@pytest.mark.parametrize(
    "damage", [pytest.param(d, marks=POSIX if d == "a pipe" else ()) for d in KEY_DAMAGES]
)
def test_a_damaged_key_is_set_aside_and_a_new_one_made(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    path = _kept(tmp_path) / KEY_FILE
    path.parent.mkdir(parents=True)
    broken = KEY_DAMAGES[damage]
    if callable(broken):
        broken(path)
    else:
        path.write_bytes(broken)
    server = Started(tmp_path, caplog)
    aside = server.set_aside_once(path)
    assert server.said("cannot be read")
    assert callable(broken) or aside.read_bytes() == broken
    assert stat.S_ISREG(path.stat().st_mode)
    assert os.name != "posix" or stat.S_IMODE(path.stat().st_mode) == 0o600
    assert server.short == seal.short_key(load_identity(path.parent).fingerprint)


def test_a_data_folder_that_cannot_be_one_gives_a_key_for_this_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Not "cannot listen": a key that cannot be kept serves this start, and says so."""
    blocked = tmp_path / "a-file"
    blocked.write_text("in the way")
    server = Started(tmp_path, caplog, data_dir=blocked)
    assert server.said("a key for this start only") and server.short
    assert blocked.read_text() == "in the way"


def test_the_key_moves_from_the_histories_folder_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A key an older version kept among the histories (the folder people zip and send)
    moves to the server's own folder, 0600, with a log line; the table keeps its key."""
    old = tmp_path / "histories" / KEY_FILE
    old.parent.mkdir(mode=0o700)
    made = load_identity(old.parent)  # as the older version made it
    os.chmod(old, 0o644)
    before = old.read_bytes()
    server = Started(tmp_path, caplog)
    assert server.said("moved the table's key")
    assert server.short == seal.short_key(made.fingerprint)
    new = _kept(tmp_path) / KEY_FILE
    assert not old.exists() and new.read_bytes() == before
    if os.name == "posix":
        assert stat.S_IMODE(new.stat().st_mode) == 0o600
        assert stat.S_IMODE(new.parent.stat().st_mode) == 0o700
    caplog.clear()
    again = Started(tmp_path, caplog)  # and once only
    assert again.short == seal.short_key(made.fingerprint)
    assert not again.said("moved the table's key")


def test_a_key_already_in_the_data_folder_is_never_replaced(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    old = tmp_path / "histories" / KEY_FILE
    old.parent.mkdir(mode=0o700)
    load_identity(old.parent)
    mine = load_identity(_kept(tmp_path))
    before_old, before_mine = old.read_bytes(), (_kept(tmp_path) / KEY_FILE).read_bytes()
    server = Started(tmp_path, caplog)
    assert server.short == seal.short_key(mine.fingerprint)
    assert server.said("an older copy of the table's key is still in")
    assert old.read_bytes() == before_old
    assert (_kept(tmp_path) / KEY_FILE).read_bytes() == before_mine


def test_the_games_tables_keep_one_key_apart_from_the_histories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer table and a hosted table, each started twice: one key, kept in the
    server's own data folder, none in the histories folder the game lists and exports."""
    from client.localserver import LocalServer
    from client.settings import Settings

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    histories = tmp_path / "histories"
    seen = []
    for kind in ("computer", "host", "computer", "host"):
        local = LocalServer({"history_dir": histories, "announce": False, "bot_delay": 0})
        if kind == "computer":
            local.start_computer(1, 4, "regular")
        else:
            assert local.start_host(Settings(name="Ann"), hands=4, computers=1, password="",
                                    port=0, bind="127.0.0.1") is None  # fmt: skip
        seen.append(local.handle.server.identity.fingerprint)
        local.stop("Ann")
    assert len(set(seen)) == 1
    assert (_kept(tmp_path) / KEY_FILE).exists()
    assert not (histories / KEY_FILE).exists()
    assert load_identity(_kept(tmp_path)).fingerprint == seen[0]
