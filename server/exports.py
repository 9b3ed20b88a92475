"""Hand histories exported to other formats, on disk: the replayer's *X* and a command.

``python -m server.exports FILE.jsonl... --to phh|pokerstars DIR`` writes one ``.phh``
per hand, or each file's hands as one PokerStars ``.txt``; a folder stands for its
``.jsonl`` files.  The formats are ``common.phh``'s.  An export holds every hole card,
so its files are 0600 in a 0700 folder (``server.files.write_private``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from common.history import FORMAT, load
from common.phh import phh_name, to_phh, to_pokerstars
from common.safejson import loads
from server.files import read_bytes, write_private
from server.night import MAX_BYTES as MAX_NIGHT

__all__ = ["main", "table_of", "write_exports"]


def table_of(match_id: str, folder: Path) -> str | None:
    """The name of the table that played ``match_id``, from a night's scoreboard in
    ``folder`` (``server.night``) that lists it."""
    try:
        nights = sorted(folder.glob("night-*.json"), reverse=True)
    except OSError:
        return None
    for path in nights:
        try:  # a plain file of a bounded size, parsed within bounds; read only
            data = read_bytes(path, limit=MAX_NIGHT)
            if data is None:
                continue
            night = loads(data, max_bytes=MAX_NIGHT)
            if any(m.get("match") == match_id for m in night["matches"]):
                table = night["table"]
                return table if isinstance(table, str) and table else None
        except (ValueError, KeyError, TypeError, AttributeError):  # Unreadable too
            continue
    return None


def write_exports(
    records: Sequence[Mapping[str, Any]], where: Path, *, table: str | None = None
) -> Path:
    """Every hand to ``where`` (the replayer's export): one ``.phh`` each and the lot as
    PokerStars text in ``<match>.txt``, whose path is returned."""
    for rec in records:
        write_private(where / phh_name(rec), to_phh(rec))
    text = "".join(to_pokerstars(rec, table=table) for rec in records)
    match = phh_name(records[0]).rsplit("-", 1)[0] if records else "hands"
    name = where / f"{match}.txt"
    write_private(name, text)
    return name


def _hands_of(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The hands of a history file that export, and one line for each that does not."""
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
    """A file or hand that cannot be exported is a line on stderr and exit status 1;
    the others are exported all the same."""
    ap = argparse.ArgumentParser(
        prog="python -m server.exports", description="write matches' hands in another format"
    )
    ap.add_argument(
        "paths",
        nargs="+",
        metavar="FILE",
        help="stud-hh/1 history files (.jsonl) or folders of them, then where to write "
        "(a folder, made if missing)",
    )
    ap.add_argument("--to", choices=("phh", "pokerstars"), default="phh")
    ap.add_argument("--table", help="the table's name for the PokerStars header")
    # The paths may come on both sides of the options (FILE --to phh DIR).
    args, rest = ap.parse_known_args(argv)
    if any(r.startswith("-") for r in rest):
        ap.error(f"unrecognized arguments: {' '.join(rest)}")
    paths = [Path(p) for p in [*args.paths, *rest]]
    if len(paths) < 2:
        ap.error("export needs a history file and the folder to write to")
    *sources, where = paths
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
                    write_private(where / phh_name(record), to_phh(record))
                print(f"wrote {len(records)} .phh files to {where}")
            else:
                name = where / (path.stem + ".txt")
                table = args.table or table_of(str(records[0].get("match", "")), path.parent)
                write_private(name, "".join(to_pokerstars(r, table=table) for r in records))
                print(f"wrote {len(records)} hands to {name}")
        except OSError as exc:
            print(f"cannot write to {where}: {exc}", file=sys.stderr)
            return 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
