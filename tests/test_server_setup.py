"""The match length is the host's choice (R-T4), and everyone sees it in the lobby.

Issue 9, point 2: hosting 4 hands (``serve --hands 4`` or the start screen)
dealt 8, because the host's client sent its own default with ``start``.
The lobby's ``hands`` is the table's setting; the host changes it with
``options`` (``hands``) and every lobby follows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from common.protocol import MessageError, Options, Start, decode_client
from tests.serverkit import Client, config, run, running

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(
    ("msg", "options"),
    [
        ({"type": "options"}, Options()),
        ({"type": "options", "hands": 4}, Options(hands=4)),
        ({"type": "options", "hands": 12}, Options(hands=12)),
        ({"type": "options", "plain": "never"}, Options(plain="never")),
        ({"type": "options", "plain": "allow"}, Options(plain="allow")),
        ({"type": "options", "odds": True}, Options(odds=True)),
        ({"type": "options", "odds": False}, Options(odds=False)),
    ],
    ids=["left-out", "hands-4", "hands-12", "plain-never", "plain-allow", "odds-on", "odds-off"],
)
def test_the_options_message_round_trips(msg: dict[str, object], options: Options) -> None:
    """The host's choices (R-T4's hands, plain connections, odds): each key only if said."""
    assert decode_client(msg) == options and options.encode() == msg


@pytest.mark.parametrize(
    ("key", "bad"),
    [("hands", 5), ("hands", "4"), ("hands", True), ("plain", "sometimes"), ("plain", 1),
     ("plain", True), ("odds", "yes"), ("odds", 1), ("odds", 0), ("odds", [True])],
)  # fmt: skip
def test_a_bad_options_value_is_refused(key: str, bad: object) -> None:
    with pytest.raises(MessageError) as err:
        decode_client({"type": "options", key: bad})
    assert err.value.code == "bad_message"
    if key == "odds":
        assert "'odds' of options must be bool" in str(err.value)


@run
async def test_the_lobby_says_the_hosts_match_length_and_follows_options(tmp_path: Path) -> None:
    async with running(config(tmp_path, hands=4, computer=1)) as (server, port):
        host, guest = Client("Hana"), Client("Gus")
        await host.hello(port)
        await guest.hello(port)
        assert (await guest.expect("lobby"))["hands"] == 4  # R-T4: the host's --hands
        guest.send(Options(hands=12).encode())
        err = await guest.expect("error")
        assert (err["code"], err["ref"]) == ("not_host", "options")
        host.send(Options(hands=12).encode())
        assert (await guest.expect("lobby", hands=12))["hands"] == 12
        assert (await host.expect("lobby", hands=12))["hands"] == 12
        host.send(Start().encode())  # no hands: the table's setting
        start = await guest.expect("match_start")
        assert start["hands"] == 12 and server.table.options.hands == 12
        host.send(Options(hands=4).encode())
        err = await host.expect("error")
        assert (err["code"], err["ref"]) == ("match_running", "options")
        assert server.table.dealer.match is not None and server.table.dealer.match.hands == 12
        await host.close()
        await guest.close()
