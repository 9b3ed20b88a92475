"""``stud-server`` / ``python -m server``: host a Seventh Street table headless."""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from common.protocol import DEFAULT_PORT, HAND_COUNTS, MAX_FRAME
from common.version import __version__
from server.app import CannotStart, TableServer
from server.brain import LEVELS
from server.config import PLAIN_CHOICES, ServerConfig, default_data_dir, default_history_dir
from server.console import HELP
from server.hostctl import PLAIN_COST
from server.listen import shown_address

log = logging.getLogger("server")

PASSWORD_ENV = "SEVENTH_STREET_PASSWORD"


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="stud-server",
        description="Host a seven card stud table for friends on the local network.",
    )
    ap.add_argument("--version", action="version", version=f"Seventh Street {__version__}")
    ap.add_argument("--host", default=None, help="address to listen on (default: all interfaces)")
    ap.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"TCP port, 0 for any (default {DEFAULT_PORT})",
    )
    ap.add_argument("--hands", type=int, choices=HAND_COUNTS, default=8, help="hands per match")
    ap.add_argument("--computer", type=int, default=0, metavar="N", help="computer seats to add")
    ap.add_argument(
        "--computer-level",
        default="regular",
        metavar="LEVEL[,LEVEL...]",
        help="computer seats' level: "
        + "; ".join(f"{lv.id} ({lv.description.rstrip('.')})" for lv in LEVELS.values())
        + ". A comma list sets each seat in turn, seat 6 first (default regular)",
    )
    ap.add_argument(
        "--password",
        help="password people must give to join (shows in the process list: prefer "
        f"--password-file or the {PASSWORD_ENV} environment variable)",
    )
    ap.add_argument(
        "--password-file",
        type=Path,
        metavar="FILE",
        help="read the password from the first line of FILE",
    )
    ap.add_argument(
        "--start-when",
        type=int,
        metavar="N",
        help="start once N seats are filled (default: the host starts from the client)",
    )
    ap.add_argument(
        "--grace",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="a dropped seat checks or folds after this long (R-C1, default 30)",
    )
    ap.add_argument(
        "--turn-time",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="R-C4: seconds for each of a person's decisions (default 30, 0 turns the clock off)",
    )
    ap.add_argument(
        "--time-bank",
        type=float,
        default=90.0,
        metavar="SECONDS",
        help="R-C4: a person's time bank for the match, spent after a decision's seconds"
        " (default 90, 0 for none); when both run out the seat is away (R-C2)",
    )
    ap.add_argument(
        "--stand-in",
        action="store_true",
        help="R-C3: a computer plays away seats, with their chips, until their person is back",
    )
    ap.add_argument(
        "--history-dir",
        type=Path,
        help=f"where hand histories go (default {default_history_dir()})",
    )
    ap.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="where the table's key is kept, apart from the histories people share"
        f" (default {default_data_dir()})",
    )
    ap.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="mean pause before a computer seat acts (default 0.8, 0 for none)",
    )
    ap.add_argument(
        "--hand-pause",
        type=float,
        default=4.0,
        metavar="SECONDS",
        help="pause after each hand, the last one too, to read the showdown (default 4)",
    )
    ap.add_argument(
        "--name",
        default="",
        metavar="TEXT",
        help="the table's name on the network (default: \"<this machine>'s table\")",
    )
    ap.add_argument(
        "--no-announce",
        action="store_true",
        help="do not announce the table on the network (DNS-SD/mDNS); friends type the address",
    )
    ap.add_argument(
        "--plain",
        choices=PLAIN_CHOICES,
        default="auto",
        help="plain (unencrypted) connections: auto (the default) refuses them at a table"
        " with a password, whose plain hello would carry it in the clear, and allows them"
        " at one without, so that older clients still join; allow or never decide it"
        " (the game's own client always encrypts)",
    )
    ap.add_argument(
        "--odds",
        action="store_true",
        help="allow odds on request: each player's client may show their chance of winning"
        " and the pot odds, from what their seat has seen (off by default)",
    )
    ap.add_argument("--max-connections", type=int, default=32, help="connection limit")
    ap.add_argument(
        "--max-frame",
        type=int,
        default=MAX_FRAME,
        metavar="BYTES",
        help=f"largest frame accepted (default {MAX_FRAME})",
    )
    ap.add_argument(
        "--open-books",
        action="store_true",
        help="when a match ends, everyone seated may replay it with every hole card shown",
    )
    ap.add_argument(
        "--books-to-watchers", action="store_true", help="with --open-books: watchers may too"
    )
    ap.add_argument("--seed", type=int, default=None, help="fixed shuffle seed (tests only)")
    ap.add_argument(
        "--log-level",
        default="INFO",
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        help="stderr log level (default INFO)",
    )
    return ap


def password_from(args: argparse.Namespace) -> str | None:
    """``--password``, else the first line of ``--password-file``, else the environment's
    ``SEVENTH_STREET_PASSWORD``; None (no password) when none of them says one."""
    if args.password is not None:
        return str(args.password)
    if args.password_file is not None:
        try:
            lines = args.password_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeError) as exc:
            raise ValueError(f"cannot read the password file: {exc}") from None
        if not lines or not lines[0].strip():
            raise ValueError(f"{args.password_file} has no password on its first line")
        return lines[0].strip()
    return os.environ.get(PASSWORD_ENV) or None


_SAME = (
    "host", "port", "hands", "computer", "start_when", "grace", "turn_time", "time_bank",
    "stand_in", "seed", "bot_delay", "hand_pause", "max_connections", "max_frame", "open_books",
    "name", "plain", "odds",
)  # fmt: skip
"""The options whose value is the ``ServerConfig`` field of the same name."""


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        **{name: getattr(args, name) for name in _SAME},
        computer_levels=tuple(lv for lv in args.computer_level.split(",") if lv.strip()),
        password=password_from(args),
        history_dir=args.history_dir or default_history_dir(),
        data_dir=args.data_dir or default_data_dir(),
        books_to_watchers=args.books_to_watchers and args.open_books,
        announce=not args.no_announce,
    )


async def serve(config: ServerConfig) -> None:
    """Run until SIGINT or SIGTERM, then say bye to everyone and return."""
    server = TableServer(config)
    port = await server.start()
    log.info("table %r", server.table.name)
    where = ", ".join(shown_address(a, port) for a in server.listening)
    log.info("listening on port %d (%s); friends join with one of:", port, where)
    joins = server.join_addresses()
    for addr in joins:
        log.info("    %s", shown_address(addr, port))
    if server.identity is not None:
        log.info(
            "table key %s: friends see it on their screen when they join", server.identity.short
        )
    if all(a in ("127.0.0.1", "::1") for a in joins) and server.listening != joins:
        log.warning("no network address found: only this machine can join for now")
    if config.plain_at_start == "never":
        log.info("plain (unencrypted) connections are refused: only sealed ones join")
    elif config.password is not None:
        log.warning("plain (unencrypted) connections allowed: %s", PLAIN_COST)
    log.info("a %d-hand match", config.hands)
    log.info("hand histories go to %s", config.history_dir)
    if config.journal:
        log.info("the match in play is kept in %s (killed, the table resumes it)",
                 server.table.journal.path)  # fmt: skip
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    _listen_to_terminal(server, loop)
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # Windows
            signal.signal(sig, lambda *_: loop.call_soon_threadsafe(stop.set))
    await stop.wait()
    log.info("shutting down")
    await server.stop()


def _listen_to_terminal(server: TableServer, loop: asyncio.AbstractEventLoop) -> None:
    """The host's controls (R-C3): each line of stdin, a terminal or a pipe, goes to
    ``Table.console``, read from the descriptor itself so two lines arriving together
    are both read; where the loop cannot watch stdin the log says so."""
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):
        log.info("no host commands: this server has no standard input to read them from")
        return
    pending = bytearray()

    def ready() -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # end of input: stop listening
            loop.remove_reader(fd)
            if pending:
                _command(server, pending.decode("utf-8", "replace"))
                pending.clear()
            log.info("standard input closed: no more host commands are read")
            return
        pending.extend(data)
        while (cut := pending.find(b"\n")) >= 0:
            line = pending[:cut].decode("utf-8", "replace")
            del pending[: cut + 1]
            _command(server, line)

    try:
        loop.add_reader(fd, ready)
    except (NotImplementedError, RuntimeError, OSError, ValueError):
        log.info(
            "no host commands: standard input is not a terminal or a pipe the server can watch"
        )
        return
    how = "on this terminal" if sys.stdin.isatty() else "one a line on standard input"
    log.info("host commands %s: %s", how, HELP.removeprefix("commands: "))


def _command(server: TableServer, line: str) -> None:
    reply = server.table.console(line)
    if reply:
        log.info("%s", reply)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    try:
        config = config_from_args(args)
    except ValueError as exc:
        print(f"stud-server: {exc}", file=sys.stderr)
        return 2
    if args.password is not None:
        log.warning(
            "--password shows in the process list; --password-file or %s keep it private",
            PASSWORD_ENV,
        )
    try:
        asyncio.run(serve(config))
    except CannotStart as exc:
        log.error("cannot start: %s", exc)
        return 1
    except OSError as exc:
        log.error("cannot listen: %s", exc)
        if exc.errno == errno.EADDRINUSE:
            log.error(
                "port %d is taken (another stud-server, or another program, listens on it):"
                " start with --port 0 for any free port, or --port N for another one",
                config.port,
            )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
