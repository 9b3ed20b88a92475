"""Hand histories in the public ``stud-hh/1`` format (``../shared/hand-history.md``).

One JSON object per hand, one hand per line.  The engine's events already
carry the format's words and fields; this module adds the header and the
``final`` stacks and writes the line.  Reading one back (``load``) skips any line
that is not a hand, and refuses a line past ``MAX_LINE`` bytes, nested too deep or
holding NaN or Infinity (``common.safejson``): histories are shared between friends.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from common.engine import Hand
from common.match import SeatInfo
from common.safejson import loads

__all__ = ["FORMAT", "MAX_LINE", "dumps", "hand_record", "load", "main"]

FORMAT = "stud-hh/1"
MAX_LINE = 1024 * 1024
"""The longest line read as a hand: a hand of seven seats is a few KiB."""


def hand_record(
    *,
    match_id: str,
    number: int,
    time: str,
    hand: Hand,
    seats: Mapping[int, SeatInfo],
) -> dict[str, Any]:
    """The ``stud-hh/1`` object for a finished ``hand``; ``time`` is ISO 8601 with offset."""
    if not hand.is_over:
        raise ValueError("a hand is written only once it is over")
    return {
        "format": FORMAT,
        "match": match_id,
        "hand": number,
        "time": time,
        "stakes": hand.stakes.to_dict(),
        "button": hand.button,
        "seats": [
            {
                "seat": s,
                "name": seats[s].name,
                "kind": seats[s].kind.value,
                "stack": hand.seats[s].start_stack,
            }
            for s in hand.order
        ],
        "events": [event.to_dict() for event in hand.events],
        "final": [{"seat": s, "stack": hand.seats[s].stack} for s in hand.order],
    }


def dumps(record: Mapping[str, Any]) -> str:
    """One line of JSON for the file, newline included."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def load(text: str) -> list[dict[str, Any]]:
    """The ``stud-hh/1`` hands of a history file's text; other lines are skipped."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            record = loads(line, max_bytes=MAX_LINE)
        except ValueError:  # common.safejson.Unreadable
            continue
        if isinstance(record, dict) and record.get("format") == FORMAT:
            out.append(record)
    return out


def _hands_of(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The hands of a history file that export, and one line for each thing that does not:
    a file that is not a ``stud-hh/1`` history, or a hand in it that cannot be exported."""
    from common.phh import to_phh, to_pokerstars

    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        return [], [f"{path}: cannot read it ({exc.strerror or exc})"]
    except UnicodeDecodeError:
        return [], [f"{path}: not a {FORMAT} hand history (not text)"]
    hands: list[dict[str, Any]] = []
    bad: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        found = load(line)
        if not found:
            continue
        try:
            to_phh(found[0])
            to_pokerstars(found[0])
        except KeyError as exc:
            bad.append(f"{path}: line {n} is a {FORMAT} hand without {exc.args[0]!r}")
        except (TypeError, ValueError, AttributeError, IndexError) as exc:
            bad.append(f"{path}: line {n} is a {FORMAT} hand that cannot be read ({exc})")
        else:
            hands.append(found[0])
    if not hands and not bad:
        bad.append(f"{path}: not a {FORMAT} hand history (no hand in it)")
    return hands, bad


def main(argv: list[str] | None = None) -> int:
    """``python -m common.history export FILE.jsonl... --to phh|pokerstars DIR``.

    A folder stands for its ``.jsonl`` files.  A file that is not a history, or a
    hand that cannot be exported, is one line on standard error and the exit status 1;
    the other files are exported all the same.  The files written are 0600 in a 0700
    folder (``common.exports``): they hold every hole card.
    """
    import argparse
    import sys

    from common.exports import table_of, write_private
    from common.phh import phh_name, to_phh, to_pokerstars

    ap = argparse.ArgumentParser(prog="python -m common.history")
    sub = ap.add_subparsers(dest="command", required=True)
    exp = sub.add_parser("export", help="write matches' hands in another format")
    exp.add_argument(
        "paths",
        nargs="+",
        metavar="FILE",
        help="stud-hh/1 history files (.jsonl) or folders of them, then where to write "
        "(a folder, made if missing)",
    )
    exp.add_argument("--to", choices=("phh", "pokerstars"), default="phh")
    exp.add_argument("--table", help="the table's name for the PokerStars header")
    # The paths may come on both sides of the options (FILE --to phh DIR).
    args, rest = ap.parse_known_args(argv)
    if any(r.startswith("-") for r in rest):
        ap.error(f"unrecognized arguments: {' '.join(rest)}")
    paths = [Path(p) for p in [*args.paths, *rest]]
    if len(paths) < 2:
        ap.error("export needs a history file and the folder to write to")
    *sources, args.dir = paths
    files: list[Path] = []
    for f in sources:
        files += sorted(f.glob("*.jsonl")) if f.is_dir() else [f]
    failed = False
    for path in files:
        records, bad = _hands_of(path)
        for line in bad:
            print(line, file=sys.stderr)
        failed = failed or bool(bad)
        if not records:
            continue
        try:
            if args.to == "phh":
                for record in records:
                    write_private(args.dir / phh_name(record), to_phh(record))
                print(f"wrote {len(records)} .phh files to {args.dir}")
            else:
                name = args.dir / (path.stem + ".txt")
                table = args.table or table_of(str(records[0].get("match", "")), path.parent)
                write_private(name, "".join(to_pokerstars(r, table=table) for r in records))
                print(f"wrote {len(records)} hands to {name}")
        except OSError as exc:
            print(f"cannot write to {args.dir}: {exc}", file=sys.stderr)
            return 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
