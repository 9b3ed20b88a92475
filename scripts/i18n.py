"""The catalogs' one command: ``python scripts/i18n.py [extract|update|compile|init CODE]``.

With no argument it does the three steps a changed string needs, in order:

* ``extract``: the strings of ``client/`` (``babel.cfg``), with their ``# Translators:``
  comments, into the template ``client/locale/stud.pot`` (made for this step, not kept);
* ``update``: each ``client/locale/<code>/LC_MESSAGES/stud.po`` brought up to the
  template (new strings empty, changed ones marked fuzzy for the translator);
* ``compile``: each ``.po`` into its ``.mo`` (install and bundle time; never committed).

A new language: ``python scripts/i18n.py init it``, translate ``client/locale/it/...stud.po``,
add ``"it": "Italiano"`` to ``client.i18n.LANGUAGES`` and the rules as
``client/assets/rules.it.md``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "client" / "locale"
POT = LOCALE / "stud.pot"
COMMON = ["--domain", "stud", "--input-file", str(POT), "--output-dir", str(LOCALE)]


def pybabel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "--quiet", *args])


def extract() -> None:
    LOCALE.mkdir(parents=True, exist_ok=True)
    pybabel("extract", "--mapping-file", str(ROOT / "babel.cfg"), "--output-file", str(POT),
            "--add-comments", "Translators:", "--sort-by-file", "--add-location", "file",
            "--omit-header", "--no-wrap", "--project", "Seventh Street",
            ".")  # fmt: skip


def update() -> None:
    pybabel("update", *COMMON, "--no-wrap", "--ignore-obsolete", "--ignore-pot-creation-date")


def compile_() -> None:
    if any(LOCALE.glob("*/LC_MESSAGES/stud.po")):
        pybabel("compile", "--domain", "stud", "--directory", str(LOCALE), "--statistics")


def main(argv: list[str]) -> int:
    steps = {"extract": extract, "update": update, "compile": compile_}
    if argv[:1] == ["init"] and len(argv) == 2:
        pybabel("init", *COMMON, "--locale", argv[1], "--no-wrap")
        return 0
    if any(a not in steps for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    os.chdir(ROOT)  # the catalogs name the source files from the project's folder
    for name in argv or list(steps):
        steps[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
