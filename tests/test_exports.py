"""Exports that other programs read: PokerStars hand numbers and header, the export
command on files that are not histories, and the modes of what is written.

Tracking software keys hands by the number after ``PokerStars Hand #`` (digits; the
readers keep it as a 64-bit integer), and reads the table's name between the quotes
of the ``Table '...' 7-max`` line.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

from common.history import load
from common.phh import phh_name, pokerstars_number, to_pokerstars
from scripts.simulate import simulate
from server.exports import main, table_of, write_exports

ROOT = Path(__file__).resolve().parent.parent

# A PokerStars stud hand's first two lines, as tracking software reads them.
HEADER = re.compile(
    r"PokerStars Hand #(?P<number>[1-9][0-9]{0,18}):  7 Card Stud Limit "
    r"\((?P<small>\d+)/(?P<big>\d+)\) - \d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}\n"
    r"Table '(?P<table>[^'\n]+)' (?P<max>\d+)-max\n"
)


def _matches(hands: int, seed: int = 7) -> list[dict]:
    """``hands`` simulated hands, in matches of 8 (each match numbers its hands 1 to 8)."""
    text = io.StringIO()
    simulate(seats=3, hands=hands, seed=seed, out=text)
    return load(text.getvalue())


def test_1500_hands_over_many_matches_carry_1500_distinct_stable_numbers(tmp_path) -> None:
    records = _matches(1500)
    assert len(records) == 1500 and len({r["match"] for r in records}) >= 150
    texts = [to_pokerstars(r) for r in records]
    numbers = []
    for text in texts:
        head = HEADER.match(text)
        assert head, text[:200]
        assert int(head["number"]) < 2**53  # exact as a 64-bit integer and as a JS number
        numbers.append(int(head["number"]))
    assert len(set(numbers)) == 1500
    assert [to_pokerstars(r) for r in records] == texts  # re-export: the same numbers
    assert numbers == [pokerstars_number(r) for r in records]


def test_the_header_names_the_table_quoted_as_readers_read_it(tmp_path) -> None:
    rec = _matches(1)[0]
    head = HEADER.match(to_pokerstars(rec, table="Ann's table"))
    assert head and head["table"] == "Ann\u2019s table" and head["max"] == "7"
    assert (head["small"], head["big"]) == ("10", "20")
    # The table's name comes from the night's scoreboard beside the history.
    (tmp_path / "night-2026-11-27-friday.json").write_text(
        json.dumps({"table": "Friday", "matches": [{"match": rec["match"]}]})
    )
    assert table_of(rec["match"], tmp_path) == "Friday"
    assert table_of("another", tmp_path) is None
    where = write_exports([rec], tmp_path / "out", table="Friday")
    assert HEADER.match(where.read_text())["table"] == "Friday"  # type: ignore[index]


def _folder_of_files(folder: Path) -> Path:
    folder.mkdir()
    (folder / "a-notes.jsonl").write_text("just some notes\nnot a history\n")
    (folder / "b-blob.jsonl").write_bytes(bytes(range(256)) * 4)
    (folder / "c-header.jsonl").write_text('{"format":"stud-hh/1"}\n')
    good = _matches(3)
    (folder / "d-good.jsonl").write_text("".join(json.dumps(r) + "\n" for r in good))
    return folder


def _export(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.exports", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_export_says_which_files_are_not_histories_and_exports_the_others(tmp_path) -> None:
    folder = _folder_of_files(tmp_path / "h")
    for to, written in (("phh", "*.phh"), ("pokerstars", "*.txt")):
        out = tmp_path / to
        done = _export(*sorted(str(p) for p in folder.iterdir()), "--to", to, str(out))
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        errors = done.stderr.splitlines()
        assert len(errors) == 3, done.stderr
        for name, why in (
            ("a-notes.jsonl", "no hand in it"),
            ("b-blob.jsonl", "not text"),
            ("c-header.jsonl", "without 'stakes'"),
        ):
            (line,) = [e for e in errors if name in e]
            assert why in line and str(folder / name) in line
        assert len(list(out.glob(written))) == (3 if to == "phh" else 1)
    # A folder stands for its .jsonl files: the same answer.
    assert main([str(folder), "--to", "phh", str(tmp_path / "again")]) == 1
    assert len(list((tmp_path / "again").glob("*.phh"))) == 3
    # Only good files: exit 0.
    assert main([str(folder / "d-good.jsonl"), str(tmp_path / "ok")]) == 0


def test_exports_are_0600_in_0700_folders(tmp_path) -> None:
    """They hold every hole card, like the histories."""
    folder = _folder_of_files(tmp_path / "h")
    good = str(folder / "d-good.jsonl")
    for to in ("phh", "pokerstars"):
        out = tmp_path / "exports" / to
        assert main([good, "--to", to, str(out)]) == 0
        assert {p.stat().st_mode & 0o777 for p in out.iterdir()} == {0o600}
        assert out.stat().st_mode & 0o777 == 0o700
    # The replayer's writer (server.exports), into a folder there before as 0755.
    there = tmp_path / "there"
    there.mkdir()
    there.chmod(0o755)
    records = load((folder / "d-good.jsonl").read_text())
    txt = write_exports(records, there)
    assert txt.name == phh_name(records[0]).rsplit("-", 1)[0] + ".txt"
    assert len(list(there.iterdir())) == len(records) + 1
    assert {p.stat().st_mode & 0o777 for p in there.iterdir()} == {0o600}
    assert there.stat().st_mode & 0o777 == 0o700
