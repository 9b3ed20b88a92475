"""Joining: what the address and port boxes accept, and what they say when it is wrong.

Issue 9, point 3: "127.0.0.1:99999" joined port 7777, "abc" in the port box
became 7777, the port box could disagree with a port typed in the address,
and a bad address was kept as a "recent" button.
"""

from __future__ import annotations

import pytest

from client.address import AddressError, joinable, parse_address, parse_port, split_port


@pytest.mark.parametrize(
    ("address", "port", "want"),
    [
        ("192.168.1.20", "7777", ("192.168.1.20", 7777)),
        ("192.168.1.20", "7790", ("192.168.1.20", 7790)),  # the port box
        ("192.168.1.20:7788", "7790", ("192.168.1.20", 7788)),  # the address's port wins
        ("[fd00::2]:7788", "7777", ("fd00::2", 7788)),
        ("[::1]", "7789", ("::1", 7789)),
        ("::1", "7789", ("::1", 7789)),  # a bare IPv6 address has no port
        ("tablehost", 7777, ("tablehost", 7777)),
        ("table-host.local.", "1", ("table-host.local.", 1)),
        ("  10.0.0.5:65535 ", "7777", ("10.0.0.5", 65535)),
        # No port box: 7777 unless the address says another.
        ("10.0.0.5", None, ("10.0.0.5", 7777)),
        ("10.0.0.5:8000", None, ("10.0.0.5", 8000)),
        ("[::1]:9000", None, ("::1", 9000)),
        ("box.local", None, ("box.local", 7777)),
        ("fd00::2", None, ("fd00::2", 7777)),
        (" [fd00::2] ", None, ("fd00::2", 7777)),
    ],
)
def test_good_addresses(address: str, port: str | None, want: tuple[str, int]) -> None:
    assert (parse_address(address) if port is None else parse_address(address, port)) == want


@pytest.mark.parametrize(
    ("address", "port", "field", "words"),
    [
        ("127.0.0.1:99999", "7777", "address", "65535"),
        ("127.0.0.1:", "7777", "address", "port"),
        ("127.0.0.1:abc", "7777", "address", "not a port"),
        ("tablehost", "abc", "port", "not a port"),
        ("tablehost", "", "port", "port"),
        ("tablehost", "0", "port", "65535"),
        ("tablehost", "٣٣", "port", "not a port"),  # digits, but not ASCII ones
        ("", "7777", "address", "address"),
        ("   ", "7777", "address", "address"),
        ("my table", "7777", "address", "spaces"),
        ("300.1.2.3", "7777", "address", "0-255"),
        ("1.2.3", "7777", "address", "0-255"),
        ("fd00::zz", "7777", "address", "IPv6"),
        ("fd00::2:x:7777", "7777", "address", "IPv6"),
        ("[fd00::2", "7777", "address", "[address]:port"),
        ("[tablehost]:7777", "7777", "address", "IPv6"),
        ("table_host", "7777", "address", "letters"),
        ("-host", "7777", "address", "letters"),
        # A port in the address that is not one used to become 7777 without a word.
        ("10.0.0.5:70000", None, "address", "65535"),
        ("[::1]:70000", None, "address", "65535"),
        ("[::1]:" + "9" * 30, None, "address", ""),
        ("10.0.0.5:0", None, "address", ""),
        ("10.0.0.5:x", None, "address", ""),
    ],
)
def test_bad_addresses_say_what_is_wrong_and_where(
    address: str, port: str | None, field: str, words: str
) -> None:
    with pytest.raises(AddressError) as err:
        parse_address(address) if port is None else parse_address(address, port)
    assert err.value.field == field
    assert words in str(err.value)


def test_one_port_the_address_or_the_box() -> None:
    assert split_port("box:7788") == ("box", "7788")
    assert split_port("[fd00::2]:7788") == ("[fd00::2]", "7788")
    assert split_port("fd00::2") == ("fd00::2", None)
    assert split_port("box") == ("box", None)
    assert parse_port("7788") == 7788
    assert joinable("fd00::2", 7788) == "[fd00::2]:7788"
    assert joinable("10.0.0.5", 7777) == "10.0.0.5:7777"
    # What joinable writes, parse_address reads back to the same place.
    for host, port in (("fd00::2", 7788), ("10.0.0.5", 7777), ("tablehost", 1)):
        assert parse_address(joinable(host, port), "9") == (host, port)


def test_join_on_the_command_line_refuses_a_bad_address(capsys) -> None:
    from client.__main__ import main

    assert main(["--join", "127.0.0.1:99999"]) == 2  # before any window opens
    assert "65535" in capsys.readouterr().err
