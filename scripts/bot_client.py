#!/usr/bin/env python3
"""Play at a Seventh Street table through the wire protocol, as a person's client would.

    scripts/bot_client.py --host 127.0.0.1 --port 7777 --name Zed

It says hello, keeps the latest ``table`` view, and answers each ``turn`` with
one of the offered actions (with ``server.brain`` when it can, else at random).
It exits 0 after the match's ``standings`` (or plays on with --matches N,
starting the next match when it is the host), 1 on an error that closes it.
For tests, filling a table over the network, and load.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common.protocol import (  # noqa: E402
    DEFAULT_PORT,
    PROTOCOL_VERSION,
    Act,
    FrameDecoder,
    Hello,
    Start,
    encode_frame,
)

log = logging.getLogger("bot_client")


def _chooser() -> Any:
    try:
        from server.brain import choose_action
    except ImportError:
        return None
    return choose_action


async def play(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    choose = None if args.random else _chooser()
    reader, writer = await asyncio.open_connection(args.host, args.port)
    hello = Hello(name=args.name, token=args.token, password=args.password, watch=args.watch)
    hello_msg = hello.encode()
    hello_msg["protocol"] = PROTOCOL_VERSION
    writer.write(encode_frame(hello_msg))
    decoder = FrameDecoder()
    view: dict[str, Any] = {}
    seat = None
    host = False
    matches = 0
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                log.error("%s: server closed the connection", args.name)
                return 1
            for msg in decoder.feed(data):
                kind = msg.get("type")
                if kind == "welcome":
                    seat, host = msg["seat"], msg["host"]
                    log.info("%s: seat %s, token %s", args.name, seat, msg["token"])
                elif kind == "lobby":
                    host = msg["host"] == seat and seat is not None
                    ready = args.start_with and len(msg["seats"]) >= args.start_with
                    if host and ready and msg["can_start"]:
                        writer.write(encode_frame(Start().encode()))
                elif kind == "table":
                    view = msg["view"]
                elif kind == "turn":
                    legal = msg["legal"]
                    names = [a["action"] for a in legal]
                    choice = rng.choice(names)
                    if choose is not None and view.get("to_act") == seat and view.get("legal"):
                        try:
                            choice = choose(view, rng)
                        except Exception:
                            log.exception("bots failed; picking at random")
                    if args.delay:
                        await asyncio.sleep(rng.uniform(0, args.delay))
                    writer.write(encode_frame(Act(msg["turn"], choice).encode()))
                elif kind == "hand_end":
                    log.info("%s: hand %s over, stacks %s", args.name, msg["hand"], msg["stacks"])
                elif kind == "standings":
                    matches += 1
                    for row in msg["standings"]:
                        log.info("%s: %s", args.name, row)
                    if matches >= args.matches:
                        return 0
                elif kind == "error":
                    log.warning("%s: error %s: %s", args.name, msg["code"], msg["message"])
                elif kind == "bye":
                    log.info("%s: server says bye: %s", args.name, msg.get("reason"))
                    return 0
    finally:
        writer.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=DEFAULT_PORT)
    ap.add_argument("--name", default="Bot")
    ap.add_argument("--token", default=None, help="take back a seat after a drop")
    ap.add_argument("--password", default=None)
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
