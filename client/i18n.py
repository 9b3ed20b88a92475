"""The game's words in the player's language: English (the source), German, French, Spanish.

Every string a player reads goes through one of the standard gettext names, which Babel's
extractor finds by default (``scripts/i18n.py``)::

    from client.i18n import gettext as _, ngettext, pgettext
    _("Raise to {amount}").format(amount=chips(30))
    ngettext("{n} card seen", "{n} cards seen", n).format(n=n)
    pgettext("action", "Call")          # the context tells translators which "Call"

A string kept in a constant is marked with ``N_`` (found, not translated) and translated
where it is shown: ``_(LABEL)``.  A ``# Translators:`` comment just above a call goes to
the translators with the string.

The catalogs are ``client/locale/<code>/LC_MESSAGES/stud.po`` (sources, in the repository)
and their ``.mo`` (compiled at install and bundle time, never committed).  A ``.mo`` that
is missing or older than its ``.po`` is compiled here in memory from the ``.po``, so a
fresh checkout shows today's words.  A missing or broken catalog gives English.

The pseudo-language ``qps`` is made on the fly from the English, for the layout checks:
every string of the catalogs comes out about 40% longer with accents,
``[Ŕàîšé ţö {amount} ····]``; a string missing from them comes out as itself,
unaccented, so a test finds it on screen.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import functools
import gettext as _gettext
import io
import locale as _locale
import logging
import math
import os
import re
from pathlib import Path

__all__ = ["LANGUAGES", "PSEUDO", "N_", "chips", "day", "evening", "gettext", "language",
           "listing", "ngettext", "npgettext", "number", "pgettext", "pseudo", "set_language",
           "system_language"]  # fmt: skip

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "stud"
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español"}
"""The languages a player picks, each by its own name, in the picker's order."""
PSEUDO = "qps"

_current = "en"
_catalog: _gettext.NullTranslations = _gettext.NullTranslations()


def N_(message: str) -> str:  # noqa: N802 - the standard name Babel extracts
    """Mark ``message`` for the catalogs without translating it (a constant's words)."""
    return message


def gettext(message: str) -> str:
    return _catalog.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _catalog.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _catalog.npgettext(context, singular, plural, n)


def language() -> str:
    """The language the game speaks now: ``'en'``, ``'de'``, ``'fr'``, ``'es'`` or ``'qps'``."""
    return _current


def set_language(code: str | None) -> str:
    """Speak ``code`` from now on (an unknown code gives English); the code in force."""
    global _current, _catalog
    code = (code or "en").strip().lower()
    if code == PSEUDO:
        _catalog = _Pseudo(_catalog_ids())
    elif code in LANGUAGES and code != "en":
        _catalog = _load(code)
    else:
        code, _catalog = "en", _gettext.NullTranslations()
    _current = code
    return code


def system_language(env: dict[str, str] | None = None) -> str:
    """The system's language where it is one of ours (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, then the platform's locale), else English."""
    env = os.environ if env is None else env
    found: list[str] = []
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        found += env.get(name, "").split(":")
    if env is os.environ:
        with contextlib.suppress(ValueError):
            found.append(_locale.getlocale()[0] or "")
    for tag in found:
        code = tag.split("_")[0].split(".")[0].split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


# -- numbers and dates ------------------------------------------------------------------


def _babel_locale() -> str:
    return "en" if _current == PSEUDO else _current


MIN_GROUPING = {"es": 2}
"""CLDR's minimum grouping digits where it is not 1 (Babel does not apply it): Spanish
writes 1240 but 12.500."""


def number(n: float) -> str:
    """``n`` as the language writes it: ``12,500`` (en), ``12.500`` (de), ``12 500`` (fr)."""
    return _number(n, _babel_locale())


@functools.lru_cache(maxsize=4096)
def _number(n: float, code: str) -> str:  # every frame draws the stacks and the pot
    from babel.numbers import format_decimal

    grouped = abs(n) >= 10 ** (2 + MIN_GROUPING.get(code, 1))
    return format_decimal(n, locale=code, group_separator=grouped)


def chips(n: int) -> str:
    """A chip count: a whole number with the language's thousands mark."""
    return number(int(n))


def listing(items: list[str]) -> str:
    """``"Ann, Cy and Eve"`` as the language joins a list (``"Ann, Cy et Eve"``)."""
    from babel.lists import format_list

    code = _babel_locale()  # English as the game writes it: no comma before "and"
    return format_list(list(items), locale="en_GB" if code == "en" else code) if items else ""


def day(when: _dt.date, form: str = "long") -> str:
    """A date as the language writes it: ``December 7, 2026``, ``7. Dezember 2026``."""
    from babel.dates import format_date

    return format_date(when, format=form, locale=_babel_locale())


def evening(iso: str, fallback: str = "", form: str = "full") -> str:
    """The night's date as people say it (``Monday, December 7, 2026``, ``Montag,
    7. Dezember 2026``, ``lundi 7 décembre 2026``) from its ISO form; ``fallback`` if it
    is not one."""
    try:
        when = _dt.date.fromisoformat(iso[:10])
    except (TypeError, ValueError):
        return fallback
    return day(when, form)


# -- catalogs ---------------------------------------------------------------------------


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def _load(code: str) -> _gettext.NullTranslations:
    po = po_path(code)
    mo = po.with_suffix(".mo")
    try:
        if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
            with mo.open("rb") as fp:
                return _gettext.GNUTranslations(fp)
        if po.is_file():
            return _gettext.GNUTranslations(io.BytesIO(compile_po(po, code)))
        log.warning("no catalog for %r at %s: the game speaks English", code, po)
    except Exception as exc:  # a broken catalog must not stop the game: English instead
        log.warning("the %r catalog could not be read (%s): the game speaks English", code, exc)
    return _gettext.NullTranslations()


def compile_po(po: Path, code: str) -> bytes:
    """The ``.mo`` bytes of ``po`` (fuzzy entries left out, as ``pybabel compile`` does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fp:
        catalog = read_po(fp, locale=code)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@functools.cache
def _catalog_ids() -> frozenset:
    """The catalogs' messages as ``(context, msgid)``, a plural's by its singular: those of
    German's ``.po``, which holds the same ones as every language's (``tests/test_i18n.py``)."""
    from babel.messages.pofile import read_po

    ids: set = set()
    try:
        with po_path("de").open("rb") as fp:
            for m in read_po(fp):
                if m.id:
                    ids.add((m.context, m.id[0] if isinstance(m.id, tuple) else m.id))
    except Exception as exc:
        log.warning("no catalog at %s (%s)", po_path("de"), exc)
    return frozenset(ids)


# -- the pseudo-language ----------------------------------------------------------------

_ACCENTS = str.maketrans(
    "aceinorstuyzACEINORSTUYZ",
    "àçéîñöŕšţüýžÀÇÉÎÑÖŔŠŢÜÝŽ",
)
_FIELD = re.compile(r"(\{[^{}]*\})")


def pseudo(s: str) -> str:
    """``s`` accented (its ``{placeholders}`` kept) and padded about 40% longer, in brackets."""
    parts = _FIELD.split(s)
    body = "".join(p if i % 2 else p.translate(_ACCENTS) for i, p in enumerate(parts))
    pad = "·" * max(1, math.ceil(len(s) * 0.4) - 2)
    return f"[{body} {pad}]"


class _Pseudo(_gettext.NullTranslations):
    def __init__(self, known: frozenset) -> None:
        super().__init__()
        self._known = known

    def _say(self, context: str | None, message: str, said: str | None = None) -> str:
        said = message if said is None else said
        return pseudo(said) if (context, message) in self._known else said

    def gettext(self, message: str) -> str:
        return self._say(None, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._say(None, singular, singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self._say(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._say(context, singular, singular if n == 1 else plural)
