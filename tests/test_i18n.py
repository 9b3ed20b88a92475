"""The game in the players' language (issue 37): the catalogs complete, the pseudo-language,
the language picked and remembered, numbers and dates, the fonts.

Every string of the source (extracted by Babel as ``scripts/i18n.py`` does) is in each
catalog and translated in German, French and Spanish, none fuzzy, with the same
placeholders; the pseudo-language (``qps``) makes the catalogs' strings longer and
accented and leaves the rest as it is; the bundled font draws every character of the four
languages.  Every screen drawn in the pseudo-language: ``tests/test_i18n_screens.py``.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pygame
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from client import i18n
from client.render.text import font
from client.settings import Settings
from tests.clientkit import click, started

ROOT = Path(__file__).resolve().parent.parent
CODES = ("de", "fr", "es")
FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def _key(msgid: str | tuple[str, ...], context: str | None) -> tuple[str | None, str]:
    return context, msgid if isinstance(msgid, str) else msgid[0]


def _source() -> dict[tuple[str | None, str], str | tuple[str, ...]]:
    """Every string of the source: (context, msgid) -> msgid (singular and plural)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as fp:
        methods, options = parse_mapping_cfg(fp)
    found = extract_from_dir(ROOT, methods, options)
    return {_key(msg, ctx): msg for _f, _l, msg, _c, ctx in found}


def _catalog(path: Path, code: str | None = None) -> dict[tuple[str | None, str], object]:
    with path.open("rb") as fp:
        return {_key(m.id, m.context): m for m in read_po(fp, locale=code) if m.id}


def _fields(words: str | tuple[str, ...]) -> set[str]:
    return {f for w in ([words] if isinstance(words, str) else words) for f in FIELD.findall(w)}


SOURCE = _source()


@pytest.mark.parametrize("code", CODES)
def test_every_string_is_translated_whole_with_the_same_placeholders(code: str) -> None:
    po = _catalog(i18n.po_path(code), code)
    missing = [k for k in SOURCE if k not in po]
    assert missing == [], f"not in {code}'s catalog: run python scripts/i18n.py"
    stale = [k for k in po if k not in SOURCE]
    assert stale == [], "no longer in the source: run python scripts/i18n.py"
    for key, msgid in SOURCE.items():
        m = po[key]
        forms = m.string if isinstance(m.string, tuple) else (m.string,)  # type: ignore[attr-defined]
        assert not m.fuzzy and all(forms), (code, key, "fuzzy or untranslated")  # type: ignore[attr-defined]
        for form in forms:
            assert _fields(form) == _fields(msgid), (code, key, form)


def test_the_pseudo_language_lengthens_and_accents_the_catalog_and_leaves_the_rest() -> None:
    assert i18n.pseudo("Raise to {amount}") == "[Ŕàîšé ţö {amount} ·····]"
    i18n.set_language("qps")
    english = "Could not reach {address} ({error})."
    reach = i18n.gettext(english)
    assert reach == i18n.pseudo(english) and len(reach) >= 1.4 * len(english)
    said = reach.format(address="10.0.0.9:7777", error="timed out")
    assert said == "[Çöüld ñöţ ŕéàçh 10.0.0.9:7777 (timed out). ·············]"
    hands = i18n.ngettext("after {n} hand", "after {n} hands", 3)
    assert "{n}" in hands and "hàñdš" in hands
    assert i18n.gettext("Words no catalog holds") == "Words no catalog holds"
    assert i18n.pgettext("button", "Join") == i18n.pseudo("Join")
    assert i18n.set_language("xx") == "en" and i18n.gettext("Hands") == "Hands"


@pytest.mark.parametrize(
    ("code", "chips", "night"),
    [("en", "1,240 12,500", "Monday, December 7, 2026"),
     ("de", "1.240 12.500", "Montag, 7. Dezember 2026"),
     ("fr", "1\u202f240 12\u202f500", "lundi 7 décembre 2026"),
     ("es", "1240 12.500", "lunes, 7 de diciembre de 2026")],  # (es: CLDR's minimum grouping)
)  # fmt: skip
def test_chip_counts_and_the_nights_date_as_each_language_writes_them(code, chips, night) -> None:
    i18n.set_language(code)
    said = f"{i18n.chips(1240)} {i18n.chips(12500)}"
    assert (said, i18n.evening("2026-12-07", "?")) == (chips, night)
    assert i18n.day(datetime.date(2026, 12, 7), "short") != "" and i18n.evening("", "?") == "?"


@pytest.mark.parametrize(
    ("env", "code"),
    [({"LANG": "de_DE.UTF-8"}, "de"), ({"LC_ALL": "fr_CA", "LANG": "de_DE"}, "fr"),
     ({"LANGUAGE": "pt:es"}, "es"), ({"LANG": "pt_BR.UTF-8"}, "en"), ({"LANG": "C"}, "en"),
     ({}, "en")],
)  # fmt: skip
def test_the_default_is_the_systems_language_where_it_is_one_of_ours(env, code) -> None:
    assert i18n.system_language(env) == code


def test_the_start_screen_picks_the_language_by_its_own_name_and_remembers_it(
    app, tmp_path, monkeypatch
) -> None:
    start = app.top()
    assert start.language.options == ["English", "Deutsch", "Français", "Español"]
    saved: list[str] = []
    monkeypatch.setattr(Settings, "save", lambda self, path=None: saved.append(self.language))
    app.save_settings = True
    cells = dict(zip(start.language.options, start.language.cells(), strict=True))
    click(app, cells["Deutsch"])
    start = app.top()  # the start screen, made anew in German
    assert (i18n.language(), app.settings.language, saved[-1]) == ("de", "de", "de")
    assert start.play.label == "Gegen den Computer" and start.language.value == "Deutsch"
    monkeypatch.undo()
    for kept, read in (("fr", "fr"), ("xx", "")):  # the file read back; a wrong code: none
        Settings(language=kept).save(tmp_path / "settings.json")
        assert Settings.load(tmp_path / "settings.json").language == read


def test_stud_lang_speaks_the_language_for_this_run(monkeypatch) -> None:
    app = started(monkeypatch, ["--lang", "es"])
    assert i18n.language() == "es" and app.settings.language == ""


def test_the_font_draws_every_character_of_the_four_languages() -> None:
    chars = set("".join(i18n.LANGUAGES.values()) + "\u202f\u00a0")  # (French numbers)
    for code in (*CODES, "qps"):
        path = i18n.po_path("de" if code == "qps" else code)
        for m in _catalog(path, None if code == "qps" else code).values():
            if all(f == "client/window.py" for f, _n in m.locations):  # type: ignore[attr-defined]
                continue  # the window's title: the system draws it
            forms = m.string if isinstance(m.string, tuple) else (m.string,)  # type: ignore[attr-defined]
            ids = (m.id,) if isinstance(m.id, str) else m.id  # type: ignore[attr-defined]
            chars.update(*(i18n.pseudo(w) for w in ids) if code == "qps" else forms)
    for bold in (False, True):
        f = font(20, bold=bold)
        missing = pygame.image.tobytes(f.render("\U0010fffd", True, (255, 255, 255)), "RGBA")
        lacking = [c for c in sorted(chars) if c.strip() and pygame.image.tobytes(
            f.render(c, True, (255, 255, 255)), "RGBA") == missing]  # fmt: skip
        assert lacking == [], f"the font has no glyph for {lacking}"
