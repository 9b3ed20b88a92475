"""Hand histories in the public ``stud-hh/1`` format (``../shared/hand-history.md``).

One JSON object per hand, one hand per line.  The engine's events already
carry the format's words and fields; this module adds the header and the
``final`` stacks and writes the line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from common.engine import Hand
from common.match import SeatInfo

__all__ = ["FORMAT", "dumps", "hand_record", "load", "main"]

FORMAT = "stud-hh/1"


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
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("format") == FORMAT:
            out.append(record)
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m common.history export FILE.jsonl --to phh|pokerstars DIR``."""
    import argparse
    from pathlib import Path

    from common.phh import phh_name, to_phh, to_pokerstars

    ap = argparse.ArgumentParser(prog="python -m common.history")
    sub = ap.add_subparsers(dest="command", required=True)
    exp = sub.add_parser("export", help="write a match's hands in another format")
    exp.add_argument("file", type=Path, help="a stud-hh/1 history file (.jsonl)")
    exp.add_argument("--to", choices=("phh", "pokerstars"), default="phh")
    exp.add_argument("dir", type=Path, help="where to write (made if missing)")
    args = ap.parse_args(argv)
    try:
        records = load(args.file.read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"cannot read {args.file}: {exc}")
        return 1
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.to == "phh":
        for record in records:
            (args.dir / phh_name(record)).write_text(to_phh(record), encoding="utf-8")
        print(f"wrote {len(records)} .phh files to {args.dir}")
    else:
        name = args.dir / (args.file.stem + ".txt")
        name.write_text("".join(to_pokerstars(r) for r in records), encoding="utf-8")
        print(f"wrote {len(records)} hands to {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
