"""``stud`` / ``python -m client``: open the Seventh Street window.

``stud`` opens the start screen; ``--join HOST[:PORT]`` (``--key``: only if the table
shows that key), ``--computer N`` and ``--host`` go straight to a table.  A seat's token
kept under the name takes that seat back, asking nothing; an unfinished computer match
stops ``--computer`` at the start screen, which offers it.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from client.i18n import LANGUAGES, PSEUDO, set_language, system_language
from client.i18n import gettext as _
from common.levels import LEVEL_IDS
from common.version import __version__

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="stud", description=_("Seven card stud with friends."))
    ap.add_argument("--version", action="version", version=f"Seventh Street {__version__}")
    way = ap.add_mutually_exclusive_group()
    join = _("join the table at this address")
    way.add_argument("--join", metavar="HOST[:PORT]", help=join)
    computer = _("play 1 to 3 computer seats")
    way.add_argument("--computer", type=int, choices=(1, 2, 3), help=computer)
    way.add_argument("--host", action="store_true", help=_("host a friends' table"))
    levels = _("computer seats' level with --computer or --host (remembered)")
    ap.add_argument("--level", choices=LEVEL_IDS, help=levels)
    ap.add_argument("--name", help=_("your name at the table (remembered)"))
    ap.add_argument("--hands", type=int, choices=(4, 8, 12), help=_("hands in the match"))
    ap.add_argument(
        "--password",
        default=os.environ.get("SEVENTH_STREET_PASSWORD", ""),
        help=_("table password, to join or to host (default: $SEVENTH_STREET_PASSWORD)"),
    )
    watch = _("with --join: watch without a seat")
    ap.add_argument("--watch", action="store_true", help=watch)
    key = _("with --join: the table's key as the host's lobby shows it (checked first)")
    ap.add_argument("--key", metavar="XXXX-XXXX-XXXX-XXXX", help=key)
    ap.add_argument("--four-color", action="store_true", help=_("four-colour deck"))
    ap.add_argument("--size", metavar="WxH", help=_("window size, e.g. 1280x800"))
    # Translators: {codes} are the language codes: en, de, fr, es (qps: the test language).
    lang = _("the game's language for this run: {codes} (default: the one chosen on the start"
             " screen, else the system's)").format(codes=", ".join(LANGUAGES))  # fmt: skip
    ap.add_argument("--lang", choices=[*LANGUAGES, PSEUDO], metavar="CODE", help=lang)
    ap.add_argument("-v", "--verbose", action="store_true", help=_("log more"))
    smoke = _("no person needed: our seat checks or calls, the window closes at the standings")
    ap.add_argument("--smoke", action="store_true", help=smoke)
    menu = _("add the game to this desktop's menu (Linux: ~/.local/share) and quit")
    ap.add_argument("--install-menu-entry", action="store_true", help=menu)
    return ap


def _refuse(words: str) -> int:
    print(f"stud: {words}", file=sys.stderr)
    return 2


def _said(record: logging.LogRecord) -> bool:
    """Whether the player's terminal shows a record: the game's own (``client``), and the
    warnings of everything else (its own server's talk of each connection is in the lobby)."""
    return record.name.partition(".")[0] == "client" or record.levelno >= logging.WARNING


def _terminal(verbose: bool) -> None:
    """What the game says on its terminal: with ``--verbose`` everything, stamped with its
    time and source; else only ``_said``, in its own words, one a line (no sound, say)."""
    if verbose:
        fmt = "%(asctime)s %(name)s %(levelname)s %(message)s"
        logging.basicConfig(level=logging.DEBUG, format=fmt)
        return
    said = logging.StreamHandler()
    said.setFormatter(logging.Formatter("%(message)s"))
    said.addFilter(_said)
    logging.basicConfig(level=logging.INFO, handlers=[said])


def main(argv: Sequence[str] | None = None) -> int:
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    set_language(early.parse_known_args(argv)[0].lang or system_language())  # for --help
    args = _parser().parse_args(argv)
    _terminal(args.verbose)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner in the player's terminal
    if args.install_menu_entry:
        if sys.platform in ("win32", "darwin"):
            return _refuse("--install-menu-entry is for Linux desktops (XDG menus)")
        from client.desktop import install_menu_entry

        print(f"stud: wrote {install_menu_entry()[-1]}")
        return 0
    from client.address import AddressError, joinable, parse_address
    from client.app import App
    from client.settings import Settings
    from common.seal import normal_short_key

    settings = Settings.load()
    set_language(args.lang or settings.language or system_language())
    if args.name:
        settings.name = args.name.strip()[:20] or settings.name
    if args.four_color:
        settings.four_color = True
    if args.hands:
        settings.hands = args.hands
    if args.level:
        settings.level = settings.host_level = args.level
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            size = (w, h)
        except ValueError:
            return _refuse(_("--size wants WxH, like 1280x800"))
    key = "" if args.key is None else normal_short_key(args.key)
    if key is None or (key and not args.join):
        return _refuse(_("--key goes with --join, and a table key is 16 letters and digits,"
                         " like {key}").format(key="7QKM-D2XA-PF4Z-LW3B"))  # fmt: skip
    where = None
    if args.join:
        try:
            where = parse_address(args.join)
        except AddressError as exc:
            return _refuse(f"--join {args.join}: {exc}")
    app = App(settings, size=size)
    app.init_display()
    smoke = None
    if args.smoke:
        from client.smoke import Smoke

        smoke = Smoke(app, table=bool(args.computer))
        smoke.first_frame()
    if where is not None:
        host, port = where
        app.connect(host, port, password=args.password, watch=args.watch,
                    remember=joinable(host, port), key=key)  # fmt: skip
    elif args.computer and app.unfinished_match() is not None:
        app.notice = _("Your match against the computer is unfinished: Resume it, or a New"
                       " match.")  # fmt: skip
    elif args.computer:
        app.play_computer(args.computer, settings.hands, level=settings.level)
    elif args.host:
        app.host_table(hands=args.hands or settings.host_hands, password=args.password,
                       computers=settings.host_computers, level=settings.host_level)  # fmt: skip
    if smoke is None:
        app.run()
    else:
        app.run(after_step=smoke.after_step)
    return 0


if __name__ == "__main__":
    sys.exit(main())
