"""docs/rules.md: the house rules for players, in the repository, with the ids tests cite,
and the same text in the client (a Rules button and F1), scrollable and legible.

Issue 9, "The rules, for players": the README sent readers to ../shared/RULES.md,
a file outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from client import i18n
from client.overlays import RulesOverlay, load_rules, rules_path
from client.render.text import font
from tests import demo
from tests.clientkit import click, feed, key, post

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
ID = re.compile(r"\bR-[A-Z]\d+\b")


def _doc_ids() -> list[str]:
    return re.findall(r"^- \*\*(R-[A-Z]\d+)\*\*", RULES.read_text(encoding="utf-8"), re.M)


def test_every_rule_id_cited_in_the_code_and_tests_is_in_docs_rules() -> None:
    ids = _doc_ids()
    assert len(ids) == len(set(ids)) == 40  # each rule once: T0-T7, D1-D6, O1-O4, B1-B9, ...
    cited: set[str] = set()
    for folder in ("common", "server", "client", "tests", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            cited |= set(ID.findall(path.read_text(encoding="utf-8")))
    assert cited <= set(ids), sorted(cited - set(ids))


def test_the_readme_links_the_rules_in_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/rules.md)" in readme
    assert "../shared" not in readme
    assert rules_path() == RULES


def test_the_rules_say_what_a_first_night_asks() -> None:
    text = " ".join(RULES.read_text(encoding="utf-8").split())
    for words in (
        "lowest card showing must start the betting",  # who brings in (R-O1)
        "best hand showing",
        "acts first",  # who opens (R-O2)
        "The cap",
        "three raises",  # R-B6
        "The half rule",  # R-A2
        "If your connection drops",
        "grace period",  # R-C1
        "*away*",
        "I'm back",
        "pause the table",
        "turn clock",
        "time bank",
    ):  # R-C2-4
        assert words in text, words


@pytest.mark.parametrize("lang", ["de", "fr", "es"])
def test_each_translation_has_the_rule_ids_and_sections_of_the_english(lang: str) -> None:
    english = load_rules(RULES)
    own = load_rules(ROOT / "client" / "assets" / f"rules.{lang}.md")
    assert [(b.kind, b.rid) for b in own] == [(b.kind, b.rid) for b in english]  # R-xx, in order
    assert not {b.text for b in own} & {b.text for b in english}  # every block translated


@pytest.mark.parametrize(("lang", "title"), [("fr", "Les règles de la maison"),
    ("it", "The house rules"), ("qps", i18n.pseudo("The house rules"))])  # fmt: skip
def test_the_overlay_reads_the_rules_in_the_games_language(
    lang: str, title: str, monkeypatch
) -> None:
    monkeypatch.setattr(i18n, "_current", lang)  # "it" has no file of its own: English
    blocks = load_rules()
    assert blocks[0].text == title and len(blocks) == len(load_rules(RULES))
    assert (rules_path() == RULES) is (lang != "fr")


def test_the_client_shows_the_same_text() -> None:
    blocks = load_rules()
    assert [b.rid for b in blocks if b.rid] == _doc_ids()
    r_b6 = next(b for b in blocks if b.rid == "R-B6")
    assert r_b6.text.startswith("The cap: while more than two players") and "**" not in r_b6.text
    assert blocks[0].kind == "title" and blocks[0].text == "The house rules"


@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (2560, 1440)])
def test_the_rules_window_is_legible_and_scrolls_to_the_end(make_client, size) -> None:
    app = make_client(size=size)
    pygame.display.set_mode(size, pygame.RESIZABLE)
    app.resized()
    key(app, pygame.K_F1)
    rules = app.modal
    assert isinstance(rules, RulesOverlay)
    assert rules.body >= 18  # never small print
    window = pygame.Rect(0, 0, *size)
    assert window.contains(rules.box) and rules.box.contains(rules.view)
    assert rules.box.contains(rules.close_button.rect)
    for s, px, _color, bold, dx, _dy in rules.lines:
        assert dx + font(px, bold=bold).size(s)[0] <= rules.view.w, s  # no line runs off
    shown = [ln[0] for ln in rules.visible()]
    assert "The house rules" in shown and "R-C4" not in shown
    key(app, pygame.K_END)
    assert rules.offset == rules.max_offset > 0
    assert "R-C4" in [ln[0] for ln in rules.visible()]
    post(app, pygame.MOUSEWHEEL, x=0, y=2, flipped=False)
    assert 0 < rules.offset < rules.max_offset
    app.draw()
    assert not app._faults
    key(app, pygame.K_ESCAPE)
    assert app.modal is None and app.top().name == "start"  # Esc closed the rules, not the game


def test_the_rules_button_on_the_start_screen_and_at_the_table(app) -> None:
    app.top().choose("rules")
    assert isinstance(app.modal, RulesOverlay)
    app.modal.close()
    feed(app, demo.mid_hand())
    app.step(max_wait=0.001)
    p = app.top().panel
    assert p.rules.rect.w > 0 and p.rules.rect.collidelist([p.leave.rect, p.four.rect]) == -1
    click(app, p.rules.rect)
    assert isinstance(app.modal, RulesOverlay)
    assert app.top().name == "table"
