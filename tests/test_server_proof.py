"""The way in over a sealed connection: the password proof (``server.hello``) and the
plain connections a table that takes only sealed ones refuses.

A table on a fake clock with ``Link`` clients: ``sealed`` and ``binding`` are set on the
link's connection as the TLS layer (``server.net``) sets them, so the flow is tested on
its own, exactly, without a socket or a certificate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from common.proof import ClientProof, ProofFailed
from tests.serverkit import Link, advance, clocked_table, config, run, settle

pytestmark = pytest.mark.timeout(60)

BINDING = b"\x07" * 32


def sealed(link: Link, binding: bytes = BINDING) -> Link:
    link.conn.sealed = True  # type: ignore[attr-defined]
    link.conn.binding = binding  # type: ignore[attr-defined]
    return link


def pake_hello(link: Link, password: str, **kw: Any) -> ClientProof:
    proof = ClientProof(password, BINDING)
    link.send({"type": "hello", "protocol": 2, "name": link.name, "pake": proof.start(), **kw})
    return proof


def finish(link: Link, proof: ClientProof) -> None:
    answer = link.last("proof")
    link.send({"type": "proof", "mac": proof.finish(answer["pake"], answer["mac"])})


async def proven(table: Any, link: Link, **kw: Any) -> Link:
    """``link`` says a hello with the password's proof, then its own proof once the
    table's has come."""
    proof = pake_hello(link, "swordfish", **kw)
    await settle(table, link)
    finish(link, proof)
    await settle(table, link)
    return link


def errors(link: Link) -> list[tuple[str, str | None]]:
    return [(m["code"], m.get("ref")) for m in link.of_type("error")]


@run
async def test_the_right_password_proven_seats_then_comes_back(tmp_path: Path) -> None:
    table, clock = await clocked_table(config(tmp_path, password="swordfish"))
    ann = sealed(Link(table, "Ann"))
    proof = pake_hello(ann, "swordfish")
    await settle(table, ann)
    assert [m["type"] for m in ann.log] == ["proof"]  # nothing else before the proof
    assert table.door.wait_left(ann.conn.address, clock.now()) > 0  # a miss until...
    finish(ann, proof)
    await settle(table, ann)
    welcome = ann.last("welcome")
    assert welcome["seat"] == 0 and not errors(ann)
    assert table.door.wait_left(ann.conn.address, clock.now()) == 0  # ...the right mac
    # The token's comeback (another window of Ann's) proves the password too.
    back = await proven(table, sealed(Link(table, "Ann")), token=welcome["token"])
    assert back.last("welcome")["seat"] == 0 and not errors(back)
    assert errors(ann) == [("taken_over", None)]
    eve = await proven(table, sealed(Link(table, "Eve")), watch=True)  # and a watcher
    assert eve.last("welcome")["watch"] is True


@run
async def test_a_wrong_password_is_refused_and_counted_once(tmp_path: Path) -> None:
    table, clock = await clocked_table(config(tmp_path, password="swordfish"))
    bob = sealed(Link(table, "Bob"))
    proof = pake_hello(bob, "marlin")
    await settle(table, bob)
    answer = bob.last("proof")
    with pytest.raises(ProofFailed):  # the game's client hangs up here
        proof.finish(answer["pake"], answer["mac"])
    bob.send({"type": "proof", "mac": b"\0" * 32})  # a client that goes on anyway
    await settle(table, bob)
    assert errors(bob) == [("bad_password", "hello")] and bob.transport.closed
    assert not bob.of_type("welcome")
    assert table.door.wait_left(bob.conn.address, clock.now()) == pytest.approx(1.0)


@run
async def test_an_unfinished_proof_counts_in_the_back_off(tmp_path: Path) -> None:
    """A guesser that takes the table's proof and hangs up has still used a guess."""
    cfg = config(tmp_path, password="swordfish", handshake_timeout=10.0)
    table, clock = await clocked_table(cfg)
    first = backoff = 0.0
    for n in range(3):
        guess = sealed(Link(table, f"G{n}"))
        pake_hello(guess, "guess")
        await settle(table, guess)
        assert guess.of_type("proof")
        wait = table.door.wait_left(guess.conn.address, clock.now())
        first = first or wait
        assert wait > backoff  # 1, 2, 4 s: doubling
        backoff = wait
        guess.drop()
        await advance(table, clock, wait)
    assert first == pytest.approx(1.0) and backoff == pytest.approx(4.0)


@pytest.mark.parametrize("held", [False, True], ids=["at-once", "held-out-its-wait"])
@run
async def test_the_handshake_time_bounds_the_proof(tmp_path: Path, held: bool) -> None:
    """Also for a hello held out its address's back-off (the handshake timer stood in for
    the wait): the proof that follows is bounded all the same."""
    cfg = config(tmp_path, password="swordfish", handshake_timeout=5.0)
    table, clock = await clocked_table(cfg)
    if held:
        table.door.password_failed("127.0.0.1", clock.now())  # 1 s to wait
    slow = sealed(Link(table, "Slow"))
    pake_hello(slow, "swordfish")
    before, after = (1.5, 5.0) if held else (4.9, 0.2)  # open until the time is up
    await advance(table, clock, before, slow)
    assert slow.of_type("proof") and not slow.transport.closed
    await advance(table, clock, after, slow)
    assert slow.transport.closed and errors(slow) == [("handshake_timeout", None)]
    assert not slow.of_type("welcome")


@pytest.mark.parametrize(
    ("pake", "code"),
    [
        (b"A" + b"\xff" * 32, "bad_password"),
        (b"B" + b"\x01" * 32, "bad_password"),
        (b"A" + bytes(32), "bad_password"),
        (b"A" * 32, "bad_message"),
        ("A" * 33, "bad_message"),
        (33, "bad_message"),
    ],
    ids=["not-a-point", "wrong-side", "zero", "short", "text", "a-number"],
)
@run
async def test_a_pake_that_is_no_point_is_a_wrong_password_and_not_bytes_a_bad_message(
    tmp_path: Path, pake: Any, code: str
) -> None:
    table, clock = await clocked_table(config(tmp_path, password="swordfish"))
    bad = sealed(Link(table, "Bad"))
    bad.send({"type": "hello", "protocol": 2, "name": "Bad", "pake": pake})
    await settle(table, bad)
    assert errors(bad) == [(code, "hello")]
    assert not bad.of_type("proof") and not bad.of_type("welcome")
    if code == "bad_password":  # a guess: closed, and counted in the back-off
        assert bad.transport.closed
        assert table.door.wait_left(bad.conn.address, clock.now()) > 0


@run
async def test_the_client_proof_is_checked_like_every_message(tmp_path: Path) -> None:
    table, _ = await clocked_table(config(tmp_path, password="swordfish"))
    ann = sealed(Link(table, "Ann"))
    proof = pake_hello(ann, "swordfish")
    await settle(table, ann)
    for bad in (
        {"type": "proof"},
        {"type": "proof", "mac": b"x"},
        {"type": "proof", "mac": "m"},
    ):
        ann.send(bad)
    await settle(table, ann)
    assert errors(ann) == [("bad_message", "proof")] * 3 and not ann.transport.closed
    finish(ann, proof)  # the pending proof is still there
    await settle(table, ann)
    assert ann.last("welcome")["seat"] == 0
    ann.send({"type": "proof", "mac": b"\0" * 32})  # none waits now
    await settle(table, ann)
    assert errors(ann)[-1] == ("bad_message", "proof") and not ann.transport.closed


@run
async def test_a_proof_before_any_hello_is_no_hello_and_a_second_hello_waits(
    tmp_path: Path,
) -> None:
    table, _ = await clocked_table(config(tmp_path, password="swordfish"))
    early = sealed(Link(table, "Early"))
    early.send({"type": "proof", "mac": b"\0" * 32})
    await settle(table, early)
    assert errors(early) == [("no_hello", "proof")] and early.transport.closed
    twice = sealed(Link(table, "Twice"))
    proof = pake_hello(twice, "swordfish")
    pake_hello(twice, "swordfish")
    await settle(table, twice)
    assert errors(twice) == [("already_hello", "hello")] and len(twice.of_type("proof")) == 1
    finish(twice, proof)
    await settle(table, twice)
    assert twice.last("welcome")["seat"] == 0


@run
async def test_a_protocol_1_connection_has_no_proof(tmp_path: Path) -> None:
    table, clock = await clocked_table(config(tmp_path, password="swordfish"))
    old = sealed(Link(table, "Old"))
    pake = ClientProof("swordfish", BINDING).start()
    old.send({"type": "hello", "protocol": 1, "name": "Old", "pake": pake})
    await settle(table, old)
    assert errors(old) == [("bad_password", "hello")] and not old.of_type("proof")
    cy = sealed(Link(table, "Cy"))
    cy.send({"type": "hello", "protocol": 1, "name": "Cy", "password": "swordfish"})
    await advance(table, clock, 1.5, cy)  # Old's miss: the address waits a second
    assert cy.last("welcome")["protocol"] == 1
    cy.send({"type": "proof", "mac": b"\0" * 32})
    await settle(table, cy)
    assert errors(cy) == [("unknown_type", "proof")] and not cy.transport.closed


@run
async def test_pake_on_a_plain_connection_is_refused(tmp_path: Path) -> None:
    table, _ = await clocked_table(config(tmp_path, password="swordfish", plain="allow"))
    plain = Link(table, "Plain")
    pake_hello(plain, "swordfish")
    await settle(table, plain)
    error = plain.last("error")
    assert (error["code"], error["ref"]) == ("bad_message", "hello")
    assert error["message"] == "a password proof needs a sealed connection"
    assert not plain.transport.closed and not plain.of_type("proof")
    # As after any bad_message, a corrected hello may follow.
    plain.send({"type": "hello", "protocol": 2, "name": "Plain", "password": "swordfish"})
    await settle(table, plain)
    assert plain.last("welcome")["seat"] == 0


@run
async def test_a_table_without_a_password_ignores_pake(tmp_path: Path) -> None:
    table, _ = await clocked_table(config(tmp_path))
    ann = sealed(Link(table, "Ann"))
    pake_hello(ann, "anything")
    await settle(table, ann)
    assert [m["type"] for m in ann.log][:1] == ["welcome"] and not ann.of_type("proof")


@run
async def test_a_password_field_still_works_sealed_or_plain(tmp_path: Path) -> None:
    """Plain too where the host allows it (by default a table with a password does not)."""
    table, _ = await clocked_table(config(tmp_path, password="swordfish", plain="allow"))
    ann = sealed(Link(table, "Ann"))
    assert ann.hello(password="swordfish")["seat"] == 0
    bob = Link(table, "Bob")
    assert bob.hello(password="swordfish")["seat"] == 1
    await settle(table, ann, bob)


@run
async def test_plain_never_refuses_a_plain_hello_and_takes_a_sealed_one(tmp_path: Path) -> None:
    table, _ = await clocked_table(config(tmp_path, plain="never"))
    plain = Link(table, "Plain")
    error = plain.hello()
    assert (error["code"], error["ref"]) == ("tls_required", "hello")
    assert error["message"] == (
        "this table takes only sealed (encrypted) connections: use the game's own"
        " client, or one that speaks TLS"
    )
    assert plain.transport.closed
    old = Link(table, "Old")
    assert old.hello(protocol=1)["code"] == "tls_required"
    ann = sealed(Link(table, "Ann"))
    assert ann.hello()["seat"] == 0
    assert ann.last("lobby")["plain"] == "never"  # as the table started, said in its lobby
    assert table.turns.options.plain == "never"
