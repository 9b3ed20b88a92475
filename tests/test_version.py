"""The game's version (issue 36, point 5): said in one place, ``common.version``, and read
from there by the package, both commands and the wire; a game that cannot play at a table
is told both versions and who updates (docs/protocol.md, ``protocol_version``)."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import common.protocol as protocol_module
import server.hello as hello_module
from client.__main__ import main as stud
from common.protocol import PROTOCOL_VERSION
from common.version import __version__
from server.__main__ import main as stud_server
from tests import clientkit
from tests.clientkit import hosting
from tests.serverkit import Link, clocked_table, config, run

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_reads_the_version_from_common_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "common.version.__version__"}
    assert metadata.version("seventh-street") == __version__  # as .venv installed it


@pytest.mark.parametrize("main", [stud, stud_server], ids=["stud", "stud-server"])
def test_both_commands_print_the_version(main, capsys) -> None:
    with pytest.raises(SystemExit) as end:
        main(["--version"])
    assert end.value.code == 0 and capsys.readouterr().out == f"Seventh Street {__version__}\n"


NEWER_TABLE = {"version": "0.3.0", "protocols": (3,)}  # a table of a later release
REFUSALS = {
    # the table (None: this one), the hello's protocol and version, what its person reads
    "a newer game here": (
        None, 3, "0.3.0",
        f"The table runs Seventh Street {__version__}; this game is 0.3.0: ask the host to"
        " update the table's game to play there",
    ),
    "a newer game that does not say its version": (
        None, 3, None, f"The table runs Seventh Street {__version__}; this game is newer: ask",
    ),
    "a long version, cut": (None, 3, "0.3.0" + "-rc" * 9, "this game is 0.3.0-rc-rc-rc-rc-rc:"),
    "a version not printable": (None, 3, "0.3\x00", "; this game is newer: ask"),
    "this game at a newer table": (
        NEWER_TABLE, PROTOCOL_VERSION, __version__,
        f"The table runs Seventh Street 0.3.0; this game is {__version__}: update your game to"
        " play there",
    ),
    "a protocol 1 game at a newer table": (
        NEWER_TABLE, 1, None, "The table runs Seventh Street 0.3.0; this game is older: update",
    ),
    "a protocol 1 game here, as before": (None, 1, None, None),
    "this game here": (None, PROTOCOL_VERSION, __version__, None),
}  # fmt: skip


@pytest.mark.parametrize("case", REFUSALS)
@run
async def test_a_game_refused_for_its_version_is_told_which_versions_meet(
    tmp_path, monkeypatch, case
) -> None:
    table_is, protocol, version, words = REFUSALS[case]
    if table_is is not None:
        monkeypatch.setattr(hello_module, "__version__", table_is["version"])
        monkeypatch.setattr(protocol_module, "PROTOCOLS", table_is["protocols"])
    table, _clock = await clocked_table(config(tmp_path))
    link = Link(table)
    hello = {"type": "hello", "protocol": protocol, "name": "Ann"}
    link.send(hello if version is None else {**hello, "version": version})
    said = link.log[0]
    if words is None:  # let in: a protocol 1 game gets what it always got
        assert said["type"] == "welcome" and said["protocol"] == protocol
        return
    assert (said["type"], said["code"], said["ref"]) == ("error", "protocol_version", "hello")
    assert words in said["message"] and link.log == [said] and link.transport.closed


def test_this_game_refused_by_a_newer_table_says_so_by_the_join_box(make_client, monkeypatch):
    host = hosting(make_client("Hana"))
    monkeypatch.setattr(hello_module, "__version__", NEWER_TABLE["version"])
    monkeypatch.setattr(protocol_module, "PROTOCOLS", NEWER_TABLE["protocols"])
    guest = make_client("Gus", offscreen=True)
    guest.connect("127.0.0.1", host.server.port)
    assert clientkit.run([host, guest], lambda: guest.session is None)
    said = guest.top().errors["join"]
    assert said.startswith(f"The table runs Seventh Street 0.3.0; this game is {__version__}:")
