"""The host's odds option (issue 19 point 2): whether odds on request are allowed.

Off by default at a friends' table (``stud-server --odds`` allows them); the host
changes it between matches with ``options`` ``odds`` or the terminal's ``odds on|off``;
every lobby says ``"odds": true`` while allowed and leaves the key out otherwise, so
that a lobby's bytes, the journal and every recorded frame stay as they were.  A
protocol 1 client reads the lobby and plays as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from common import protocol as p
from server.console import HELP
from tests.serverkit import Link, clocked_table, config, run, seated, settle

pytestmark = pytest.mark.timeout(60)


async def _lobby(tmp_path: Path, **over: Any) -> tuple[Any, ...]:
    table, clock = await clocked_table(config(tmp_path, computer=1, **over))
    (host,) = seated(table, "host")
    old = Link(table, "old")  # a protocol 1 client
    old.hello(protocol=1)
    await settle(table, host, old)
    return table, host, old


@run
async def test_the_lobby_says_odds_only_when_allowed(tmp_path: Path) -> None:
    table, host, old = await _lobby(tmp_path)
    lobby = host.last("lobby")
    assert "odds" not in lobby and "odds" not in lobby["options"]
    table.shutdown()
    table, host, old = await _lobby(tmp_path / "on", odds=True)
    assert host.last("lobby")["odds"] is True
    assert old.last("lobby")["odds"] is True  # an ignorable key for protocol 1
    assert "odds" not in host.last("lobby")["options"]
    journaled = table.turns.options.to_dict()
    assert list(journaled) == ["turn_time", "time_bank", "stand_in"]  # not in the journal's
    table.shutdown()


@run
async def test_the_host_changes_odds_between_matches(tmp_path: Path) -> None:
    table, host, old = await _lobby(tmp_path)
    old.send(p.Options(odds=True).encode())  # not the host
    assert old.last("error")["code"] == "not_host"
    host.send(p.Options(odds=True).encode())
    await settle(table, host, old)
    assert host.last("lobby")["odds"] is True and old.last("lobby")["odds"] is True
    assert table.turns.options.odds is True
    host.send(p.Options(odds=False).encode())
    await settle(table, host, old)
    assert "odds" not in host.last("lobby")
    # Refused during a match, as the other options are; nothing changes.
    host.send(p.Start().encode())
    await settle(table, host, old)
    assert table.dealer.life.running
    host.send(p.Options(odds=True).encode())
    err = host.last("error")
    assert (err["code"], err["ref"]) == ("match_running", "options")
    assert table.turns.options.odds is False
    assert table.console("odds on").startswith("refused")
    # The protocol 1 client plays on as before: it was dealt in and sees its table.
    assert old.of_type("match_start") and old.of_type("table")
    table.shutdown()


@run
async def test_the_terminal_sets_odds(tmp_path: Path) -> None:
    table, host, old = await _lobby(tmp_path)
    assert "odds on|off" in HELP
    assert table.console("odds maybe") == HELP
    assert table.console("odds on") == "ok"
    await settle(table, host, old)
    assert host.last("lobby")["odds"] is True
    assert "odds allowed" in table.console("status")
    assert table.console("odds off") == "ok"
    await settle(table, host, old)
    assert "odds" not in host.last("lobby")
    assert "odds" not in table.console("status")
    table.shutdown()
