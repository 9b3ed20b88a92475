"""The table's words in the four languages (issue 37): hand names from their category and
ranks with each language's grammar, buttons with their amounts, error codes worded by the
game with the server's message as the fallback for a code it does not know."""

from __future__ import annotations

import pytest

from client import i18n
from client.errorwords import error_words
from client.handwords import hand_words, with_hand_words
from client.scenes.table.actionbar import button_words
from common.cards import parse_many
from common.events import ActionKind
from common.hands import evaluate, hand_name
from common.schema import LegalAction


@pytest.fixture
def speak():
    def set_to(code: str) -> None:
        i18n.set_language(code)

    yield set_to
    i18n.set_language("en")


# (the hand history's name, then de, fr, es as a player of each says it)
HANDS = [
    ("full house, kings full of fours", "Full House, Könige über Vieren",
     "full aux rois par les quatre", "full de reyes con cuatros"),
    ("full house, fours full of aces", "Full House, Vieren über Assen",
     "full aux quatre par les as", "full de cuatros con ases"),
    ("two pair, aces and nines", "zwei Paare, Asse und Neunen", "deux paires, as et neuf",
     "doble pareja, ases y nueves"),
    ("one pair, aces", "ein Paar Asse", "paire d'as", "pareja de ases"),
    ("three of a kind, eights", "Drilling Achten", "brelan de huit", "trío de ochos"),
    ("straight, queen high", "Straße, Dame hoch", "quinte hauteur dame", "escalera a la reina"),
    ("flush, ace high", "Flush, Ass hoch", "couleur hauteur as", "color al as"),
    ("straight flush, five high", "Straight Flush, Fünf hoch", "quinte flush hauteur cinq",
     "escalera de color al cinco"),
    ("royal flush", "Royal Flush", "quinte flush royale", "escalera real"),
    ("four of a kind, jacks", "Vierling Buben", "carré de valets", "póker de jotas"),
    ("high card, king", "höchste Karte König", "hauteur roi", "carta alta, rey"),
]  # fmt: skip


@pytest.mark.parametrize("row", HANDS, ids=[r[0] for r in HANDS])
def test_hand_names_in_each_language(speak, row) -> None:
    for code, want in zip(("en", "de", "fr", "es"), row, strict=True):
        speak(code)
        assert hand_words(row[0]) == want


def test_hands_won_with_take_each_language_s_article_and_case(speak) -> None:
    said = {}
    for code in ("en", "de", "fr", "es"):
        speak(code)
        said[code] = [
            with_hand_words(n) for n in ("two pair, aces and nines", "straight, queen high")
        ]
    assert said == {
        "en": ["with two pair, aces and nines", "with a straight, queen high"],
        "de": ["mit zwei Paaren, Asse und Neunen", "mit einer Straße, Dame hoch"],
        "fr": ["avec deux paires, as et neuf", "avec une quinte hauteur dame"],
        "es": ["con doble pareja, ases y nueves", "con escalera a la reina"],
    }


def test_every_hand_name_the_evaluator_gives_is_read_back() -> None:
    hands = ["As Ks Qs Js Ts", "5h 4h 3h 2h Ah", "9c 9d 9h 9s 2c", "Kc Kd Kh 4s 4c",
             "Ac 9c 7c 4c 2c", "5d 4c 3h 2s Ad", "8c 8d 8h Kc 2d", "Jc Jd 4h 4s 9c",
             "6c 6d Ah 9s 2c", "Ac Qd 9h 6s 3c"]  # fmt: skip
    for cards in hands:
        name = hand_name(evaluate(parse_many(cards)))
        assert hand_words(name) == name  # English: the history's own words, parsed back
    assert hand_words("a hand from a newer server") == "a hand from a newer server"


def test_buttons_name_their_amounts_in_each_language(speak) -> None:
    act = LegalAction
    offered = [act(ActionKind.RAISE, 20, 12400), act(ActionKind.CALL, 7, 7, True),
               act(ActionKind.BRING_IN, 3, 3), act(ActionKind.CHECK, 0, 0)]  # fmt: skip
    want = {
        "en": ["Raise to 12,400", "Call 7 (all in)", "Bring in 3", "Check"],
        "de": ["Erhöhen auf 12.400", "Mitgehen 7 (all-in)", "Bring-in 3", "Checken"],
        "fr": ["Relancer à 12\u202f400", "Suivre 7 (tapis)", "Bring-in 3", "Parole"],
        "es": ["Subir a 12.400", "Igualar 7 (all-in)", "Bring-in 3", "Pasar"],
    }
    for code, words in want.items():
        speak(code)
        assert [button_words(a) for a in offered] == words


def test_error_codes_are_worded_by_the_game_the_server_s_words_only_for_an_unknown_one(
    speak,
) -> None:
    speak("de")
    assert error_words("not_your_turn", "not your turn") == "Du bist nicht dran."
    assert error_words("new_code", "something new went wrong") == "something new went wrong"
    assert error_words("new_code", "") == "new_code"
    wait = "too many wrong passwords from your address: try again in 9 s"
    assert error_words("password_wait", wait).endswith("versuch es in 9\u00a0s noch einmal")
