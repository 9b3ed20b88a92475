#!/usr/bin/env python3
"""Play at a Seventh Street table through the wire protocol, as a person's client would.

    scripts/bot_client.py --host 127.0.0.1 --port 7777 --name Zed

It says hello, keeps the latest ``table`` view, and answers each ``turn`` with
one of the offered actions (with ``server.brain`` when it can, else at random).
It exits 0 after the match's ``standings`` (or plays on with --matches N,
starting the next match when it is the host), 1 on an error that closes it.
For tests, filling a table over the network, and load.

``--keep-token FILE`` keeps the seat's token in FILE (the game's own
``seats.json`` format, ``client.seatkeys``): a bot killed and started again the
same way takes its seat back, cards and chips (R-C1); a token the server no
longer knows is dropped and the bot sits down anew.  ``--retry-for SECONDS``
makes it come back by itself when the link is lost or the server says ``bye``
in the middle of a match (a server that resumes its match), as the game does.

``--tls`` seals the link as the game does: it prints the table's short key, and with
``--password`` proves the password (``common.proof``) instead of sending it; ``--key
XXXX-XXXX-XXXX-XXXX`` (implies ``--tls``) refuses a table whose key is not that one,
before any hello.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client.seatkeys import SeatKey, SeatKeys, normal_ip  # noqa: E402
from common.proof import ClientProof, ProofFailed  # noqa: E402
from common.protocol import (  # noqa: E402
    DEFAULT_PORT,
    PROTOCOL_VERSION,
    Act,
    FrameDecoder,
    Hello,
    Start,
    encode_frame,
)
from common.seal import (  # noqa: E402
    certificate_name,
    channel_binding,
    client_context,
    key_fingerprint,
    same_key,
    short_key,
)

log = logging.getLogger("bot_client")


def _chooser() -> Any:
    try:
        from server.brain import choose_action
    except ImportError:
        return None
    return choose_action


class Lost(Exception):
    """The link went without the match being over: come back if asked to."""


class Refused(Exception):
    """The table is not the one asked for, or could not prove the password: no retry."""


class Bot:
    """One bot's seat across its connections: the token, the view, the matches played."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.choose = None if args.random else _chooser()
        self.keys = SeatKeys(Path(args.keep_token)) if args.keep_token else None
        self.token: str | None = args.token
        self.match: str | None = None
        self.matches = 0
        self.mid_match = False
        self.stale = False  # the server did not know our token

    def _kept(self, ip: str) -> str | None:
        if self.keys is None or self.args.watch:
            return None
        a = self.args
        key = self.keys.find(host=a.host, ip=ip, port=a.port, name=a.name)
        return key.token if key is not None else None

    def _keep(self, ip: str, seat: int | None) -> None:
        if self.keys is None or self.token is None or seat is None:
            return
        a = self.args
        self.keys.keep(
            SeatKey(host=a.host, ip=ip, port=a.port, name=a.name, token=self.token,
                    match=self.match, seat=seat, password=a.password or "")
        )  # fmt: skip

    async def play(self) -> int:
        """Connections until the matches are played; with --retry-for, a lost link (or a
        bye mid-match) is tried again for that long."""
        down_since: float | None = None
        while True:
            try:
                return await self.connection()
            except Refused as exc:
                log.error("%s: %s", self.args.name, exc)
                return 1
            except (Lost, OSError) as exc:
                if self.args.retry_for <= 0:
                    log.error("%s: %s", self.args.name, exc)
                    return 1
                now = time.monotonic()
                down_since = down_since if down_since is not None else now
                if now - down_since > self.args.retry_for:
                    log.error("%s: the table is gone (%s)", self.args.name, exc)
                    return 1
                log.info("%s: %s; trying again", self.args.name, exc)
                await asyncio.sleep(1.0)
            else:
                down_since = None

    async def connection(self) -> int:
        a, rng, choose = self.args, self.rng, self.choose
        sealed = a.tls or a.key is not None
        reader, writer = await asyncio.open_connection(
            a.host, a.port, ssl=client_context() if sealed else None
        )
        ip = normal_ip(str(writer.get_extra_info("peername", ("",))[0])) or normal_ip(a.host)
        proof: ClientProof | None = None
        password = a.password
        if sealed:
            binding = self._check_key(writer)
            if password is not None:  # proven, never sent
                proof, password = ClientProof(password, binding), None
        token = self.token or self._kept(ip)
        hello = Hello(
            name=a.name,
            token=token,
            password=password,
            watch=a.watch,
            pake=proof.start() if proof is not None else None,
        )
        hello_msg = hello.encode()
        hello_msg["protocol"] = PROTOCOL_VERSION
        writer.write(encode_frame(hello_msg))
        proven = proof is None
        decoder = FrameDecoder()
        view: dict[str, Any] = {}
        seat = None
        host = False
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    raise Lost("server closed the connection")
                for msg in decoder.feed(data):
                    kind = msg.get("type")
                    if kind == "proof" and proof is not None and not proven:
                        try:
                            mac = proof.finish(msg.get("pake"), msg.get("mac"))
                        except ProofFailed:
                            raise Refused(
                                "wrong password, or someone may be in the middle:"
                                " the table could not prove it knows the password"
                            ) from None
                        writer.write(encode_frame({"type": "proof", "mac": mac}))
                        proven = True
                    elif kind == "welcome" and not proven:
                        raise Refused(
                            "welcomed without a password proof: someone may be in the middle"
                        )
                    elif kind == "welcome":
                        seat, host = msg["seat"], msg["host"]
                        self.token = msg.get("token") or None
                        log.info("%s: seat %s, token %s", a.name, seat, msg["token"])
                        self._keep(ip, seat)
                    elif kind == "lobby":
                        host = msg["host"] == seat and seat is not None
                        self.mid_match = msg.get("running") is True
                        ready = a.start_with and len(msg["seats"]) >= a.start_with
                        if host and ready and msg["can_start"]:
                            writer.write(encode_frame(Start().encode()))
                    elif kind == "match_start":
                        self.match, self.mid_match = msg.get("match"), True
                        self._keep(ip, seat)
                    elif kind == "table":
                        view = msg["view"]
                    elif kind == "turn":
                        legal = msg["legal"]
                        names = [x["action"] for x in legal]
                        choice = rng.choice(names)
                        if choose is not None and view.get("to_act") == seat and view.get("legal"):
                            try:
                                choice = choose(view, rng)
                            except Exception:
                                log.exception("bots failed; picking at random")
                        if a.delay:
                            await asyncio.sleep(rng.uniform(0, a.delay))
                        writer.write(encode_frame(Act(msg["turn"], choice).encode()))
                    elif kind == "hand_end":
                        log.info("%s: hand %s over, stacks %s", a.name, msg["hand"], msg["stacks"])
                    elif kind == "standings":
                        self.matches += 1
                        self.mid_match = False
                        if self.keys is not None and self.token:
                            self.keys.forget(self.token, match=self.match)
                        for row in msg["standings"]:
                            log.info("%s: %s", a.name, row)
                        if self.matches >= a.matches:
                            return 0
                    elif kind == "error" and msg.get("code") == "bad_token" and token:
                        log.info("%s: the server no longer knows our seat: joining anew", a.name)
                        if self.keys is not None:
                            self.keys.forget(token)
                        self.token, self.stale = None, True
                        raise Lost("a stale token")  # (said again at once, without it)
                    elif kind == "error":
                        log.warning("%s: error %s: %s", a.name, msg["code"], msg["message"])
                    elif kind == "bye":
                        log.info("%s: server says bye: %s", a.name, msg.get("reason"))
                        if self.mid_match and a.retry_for > 0:
                            raise Lost(f"bye mid-match: {msg.get('reason')}")
                        return 0
        finally:
            writer.close()

    def _check_key(self, writer: asyncio.StreamWriter) -> bytes:
        """Print the table's key; refuse it unless it is ``--key``'s.  Returns the TLS
        channel's binding (for the password proof)."""
        sslobj = writer.get_extra_info("ssl_object")
        cert = sslobj.getpeercert(binary_form=True) if sslobj is not None else None
        if not cert:
            raise Refused("the table showed no key")
        fingerprint = key_fingerprint(cert)
        name = certificate_name(cert)
        print(f"{self.args.name}: table {name!r} key {short_key(fingerprint)}", flush=True)
        if self.args.key is not None and not same_key(self.args.key, fingerprint):
            raise Refused(
                f"the table's key is {short_key(fingerprint)}, not {self.args.key}: not joining"
            )
        return channel_binding(cert)


async def play(args: argparse.Namespace) -> int:
    bot = Bot(args)
    code = await bot.play()
    if code == 1 and bot.stale and args.retry_for <= 0:
        args.token = None
        return await Bot(args).play()  # once more as a newcomer
    return code


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=DEFAULT_PORT)
    ap.add_argument("--name", default="Bot")
    ap.add_argument("--token", default=None, help="take back a seat after a drop")
    ap.add_argument(
        "--keep-token",
        metavar="FILE",
        default=None,
        help="keep the seat's token in FILE and take the seat back from it when started again",
    )
    ap.add_argument(
        "--retry-for",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="when the link is lost (or a bye comes mid-match) try again for this long",
    )
    ap.add_argument("--password", default=None)
    ap.add_argument("--tls", action="store_true", help="seal the link (TLS), as the game does")
    ap.add_argument(
        "--key",
        default=None,
        metavar="XXXX-XXXX-XXXX-XXXX",
        help="join only a table with this short key (implies --tls)",
    )
    ap.add_argument("--watch", action="store_true", help="watch without a seat")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--delay", type=float, default=0.0, help="max think time in seconds")
    ap.add_argument("--random", action="store_true", help="pick uniformly among offered actions")
    ap.add_argument("--matches", type=int, default=1, help="matches to play before leaving")
    ap.add_argument(
        "--start-with",
        type=int,
        default=0,
        metavar="N",
        help="as host, start the match once N seats are filled",
    )
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args()
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    try:
        return asyncio.run(play(args))
    except (OSError, KeyboardInterrupt) as exc:
        log.error("%s: %s", args.name, exc)
        return 1


if __name__ == "__main__":
    sys.exit(main())
