"""Issue 9, "At the table": what a player sees through a hand, headless (SDL dummy driver).

Tables are built from ``tests.demo``'s hand-made server messages (shaped as
``docs/protocol.md`` says the server sends them) and driven through the real loop;
assertions look at the scene's state (chips on the felt, flights, buttons, tags, the
log), not at pixels.  Each test names the point of the issue it covers.  (Against a real
server: the final pause, tests/test_server_clocked.py; the log after a comeback,
tests/test_client_app.py's dropped connection.)
"""

from __future__ import annotations

import array
import random
import re

import pygame
import pytest

from client import sound
from client.app import App
from client.model import Session
from client.render.layout import TableLayout
from client.render.picture import picture_of
from client.render.tablepaint import TablePainter, seat_tags
from client.settings import Settings
from client.wording import award_lines, with_hand
from common.events import Award
from tests import demo
from tests.clientkit import advance, feed, key, post, resize
from tests.demo import act

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def played(monkeypatch) -> list[str]:
    """The names of the sounds the table played, in order."""
    names: list[str] = []
    monkeypatch.setattr(sound, "play", lambda name: names.append(name) or True)
    return names


def first_deal(*, ours: bool = False) -> list[dict]:
    """The first step of a match's first hand at the computer table (``demo.coached``):
    antes and third street, nobody has acted; Bo (seat 1) shows the lowest up card, the
    two of clubs, and so brings in (R-O1), or we do, dealt his cards (``ours``), with 20 s
    on our clock."""
    if not ours:
        return demo.coached("")
    swapped = {0: demo.COACH_CARDS[1], 1: demo.COACH_CARDS[0], 2: demo.COACH_CARDS[2]}
    *msgs, turn = demo.coached("", cards=swapped)
    return [*msgs, {**turn, "time_left": 20.0}]


# ------------------------------------------------------------------ 6: bets and the pot


def test_6_12_bets_are_swept_into_the_pot_when_the_hand_ends_and_re_laid_on_a_resize(app) -> None:
    msgs = demo.river_end()
    feed(app, msgs[:-3])
    scene = app.top()
    scene.motion.anims.clear()
    assert sorted(amount for _, amount in scene.felt_chips()) == [20, 20]  # Ada bet, Eve called
    feed(app, msgs[-3:])  # our call ends the hand: the view still holds the street's bets
    sweeps = [a for a in scene.motion.anims if a.kind == "chips" and a.index == 0]
    assert sorted(a.seat for a in sweeps) == [0, 1, 6]
    assert all(a.src == ("bet", a.seat) and a.dst == ("pot",) for a in sweeps)
    assert scene.felt_chips() == []  # in flight to the pot, not also lying on the felt
    advance(app, 0.1)
    resize(app, (1920, 1200))  # chips in flight are re-laid
    lay = scene.lay
    assert lay.size == (1920, 1200) and scene.motion.anims
    for a in scene.motion.anims:
        if a.kind == "chips" and a.index == 0:
            assert a.start == lay.spots[a.seat].bet_at and a.end == lay.pot_at
        elif a.kind == "chips":
            assert a.start == lay.pot_at and a.end == lay.won_at(a.seat)
    advance(app, 4.0)
    assert not scene.motion.anims
    # Nothing is left at anyone's bet: only the pot won, in front of its winner.
    assert scene.felt_chips() == [(lay.won_at(1), 164)]
    assert scene.pot_paid()


@pytest.mark.parametrize("size", [(1280, 800), (800, 500), (1920, 1080)], ids=str)
@pytest.mark.parametrize("which", ["river_end", "showdown"])
def test_6_won_chips_cover_no_name_plate_and_no_hand_name(app, size, which) -> None:
    resize(app, size)
    feed(app, getattr(demo, which)())
    scene = app.top()
    advance(app, 4.0)
    lay, painter, view = scene.lay, scene.painter, app.session.view
    chips = scene.felt_chips()
    assert chips and {amount for _, amount in chips} <= {a for _, a, _ in view.awards} | {
        sum(a for s, a, _ in view.awards if s == seat) for seat, _, _ in view.awards
    }
    for at, amount in chips:
        r = painter.chips_rect(lay, at, amount)
        assert lay.area.contains(r)
        for seat, spot in lay.spots.items():
            assert not r.colliderect(spot.plate_rect()), (at, seat)
            sv = view.seats.get(seat)
            if sv is not None and sv.shown is not None:
                assert not r.colliderect(painter.shown_box(lay, spot, sv)), (at, seat)


@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (1000, 900), (2560, 1440)], ids=str)
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
def test_6_bets_in_front_of_seats_cover_no_plate_and_no_cards(app, size, seats) -> None:
    lay = TableLayout(size, list(range(seats)), 0)
    painter = TablePainter(app.art)
    for spot in lay.spots.values():
        r = painter.chips_rect(lay, spot.bet_at, 120)
        assert lay.felt.inflate(lay.px(40), lay.px(40)).contains(r)
        for other in lay.spots.values():
            assert not r.colliderect(other.plate_rect()), (spot.seat, other.seat)
            cards = other.card_rects(7)
            assert not r.colliderect(cards[0].union(cards[-1])), (spot.seat, other.seat)


@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (1920, 1080), (2560, 1440)], ids=str)
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
@pytest.mark.parametrize("you", [0, None], ids=["seated", "watching"])
def test_6_a_pot_won_rests_clear_of_every_plate_and_card(size, seats, you) -> None:
    lay = TableLayout(size, list(range(seats)), you)
    for seat in lay.spots:
        box = lay.chip_box(lay.won_at(seat))
        assert lay.felt.contains(box)
        assert box.collidelist([lay.seat_box(other) for other in lay.spots]) < 0, seat


# ------------------------------------------------------------------ 7, 8: the words on the plates


def words(app: App, seat: int) -> list[str]:
    return [
        w for w, _ in seat_tags(picture_of(app.session, 0.0), seat, own=seat == app.session.seat)
    ]


def test_7_each_street_starts_clean(app) -> None:
    feed(app, demo.mid_hand())
    assert "bets 20" in words(app, 1)  # fifth street: Ada bet
    deal = [{"ev": "deal", "seat": s, "street": 6, "up": True, "card": c}
            for s, c in ((5, "2d"), (6, "4s"), (0, "9h"), (1, "Jc"))]  # fmt: skip
    feed(app, [{"type": "events", "hand": 3, "step": 2, "events": deal}])
    for seat in (0, 1, 3, 5, 6):
        assert not [w for w in words(app, seat) if w.split()[0] in ("bets", "calls", "checks")]
    feed(app, [{"type": "events", "hand": 3, "step": 3, "events": [act(6, 6, "check")]}])
    assert "checks" in words(app, 6) and "bets 20" not in words(app, 1)


def test_8_the_bring_in_is_named_once_and_only_when_made(app) -> None:
    feed(app, first_deal())
    assert app.session.view.bring_in == 1
    assert not [w for w in words(app, 1) if "bring" in w or "brought" in w]
    assert words(app, 1) == ["to act"]
    feed(app, [{"type": "events", "hand": 1, "step": 2, "events": [act(1, 3, "bring_in", 4)]}])
    assert [w for w in words(app, 1) if "bring" in w or "brought" in w] == ["brings in for 4"]


# ------------------------------------------------------------------ 9, 15: dealing


def test_15_the_first_hand_of_a_match_is_dealt_too(app) -> None:
    feed(app, first_deal())
    scene = app.top()
    cards = [a for a in scene.motion.anims if a.kind == "card"]
    assert sorted((a.seat, a.index) for a in cards) == [(s, i) for s in (0, 1, 2) for i in range(3)]
    assert all(a.src == ("deck",) for a in cards)


def test_15_a_hand_under_way_is_shown_as_it_is(app) -> None:
    feed(app, demo.mid_hand())  # joining (or coming back) mid-hand: nothing replayed
    assert not [a for a in app.top().motion.anims if a.kind == "card"]


def test_9_buttons_and_clock_wait_until_our_cards_have_landed(app, played) -> None:
    feed(app, first_deal(ours=True))
    scene = app.top()
    s = app.session
    assert s.my_turn() and [a.action for a in s.actions()] == ["bring_in", "complete"]
    assert scene.buttons() == []  # our cards are still in the air
    assert "your turn" not in " ".join(words_with_clock(app, scene))
    key(app, pygame.K_b)
    assert scene.bar.sent_turn is None  # a key in the dark does nothing
    assert "turn" not in played
    advance(app, 3.0)
    assert [b.id for b in scene.buttons()] == ["bring_in", "complete"]
    clock = [w for w in words_with_clock(app, scene) if w.startswith("your turn")]
    assert re.fullmatch(r"your turn \d+s", clock[0])  # the clock, once the cards are down
    assert played.count("turn") == 1  # the chime comes with the buttons


def words_with_clock(app: App, scene) -> list[str]:
    pic = picture_of(app.session, app.now())
    return [w for w, _ in seat_tags(pic, 0, own=True, clock=not scene._cards_landing())]


# ------------------------------------------------------------------ 10: the final showdown


def test_10_the_last_hand_says_the_standings_come_next(app) -> None:
    feed(app, demo.river_end())
    assert app.top().between_hands() == "Next hand soon…"
    app.link.session = Session("Ann")
    feed(app, demo.final_showdown())
    table = app.top()
    assert table.name == "table"
    assert "standings come next" in table.between_hands()
    feed(app, [demo.standings()])
    assert app.top().name == "results" and table.between_hands() == "The match is over"


# ------------------------------------------------------------------ 11: the log after a comeback


def comeback(s: Session, msgs: list[dict]) -> None:
    s.reset_for_reconnect()
    feed(s, msgs)


def test_11_a_comeback_continues_the_log_where_it_stopped() -> None:
    s = Session("Ann")
    msgs = first_deal()
    feed(s, msgs)
    feed(s, [{"type": "events", "hand": 1, "step": 2, "events": [act(1, 3, "bring_in", 4)]}])
    before = [line.text for line in s.log.lines]
    assert before.count("A match of 8 hands begins") == 1
    # The link goes; meanwhile Cy completes.  Back: welcome, lobby, the match, the
    # whole hand so far in one ``events``, the table.
    whole = msgs[2]["events"] + [act(1, 3, "bring_in", 4), act(2, 3, "complete", 10)]
    comeback(s, [msgs[0], {"type": "lobby", "seats": [], "host": 0, "hands": 8,
                           "can_start": False, "start_when": None, "running": True},
                 msgs[1], {"type": "events", "hand": 1, "step": 3, "events": whole},
                 {**msgs[3], "step": 3}])  # fmt: skip
    after = [line.text for line in s.log.lines]
    assert after[: len(before)] == before
    assert after[len(before) :] == ["Reconnected: back at the table", "Cy completes to 10"]
    assert s.log.recent[2] == "completes to 10" and s.log.recent[1] == "brings in for 4"


def test_11_a_comeback_into_a_later_hand_logs_that_hand_once() -> None:
    s = Session("Ann")
    msgs = first_deal()
    feed(s, msgs)
    whole = msgs[2]["events"] + [act(1, 3, "bring_in", 4)]  # hand 2 dealt the same
    comeback(s, [msgs[0], msgs[1], {"type": "events", "hand": 2, "step": 9, "events": whole}])
    log = [line.text for line in s.log.lines]
    assert log.count("A match of 8 hands begins") == 1
    assert log.count("Hand 1 of 8") == 1 and log.count("Hand 2 of 8") == 1
    assert log[-1] == "Bo brings in for 4"


# ------------------------------------------------------------------ 12: resizing


def test_12_cards_in_flight_are_re_laid_after_a_resize(app) -> None:
    feed(app, first_deal())
    scene = app.top()
    resize(app, (1024, 640))
    for a in scene.motion.anims:
        assert a.kind == "card"
        assert a.end == scene.lay.spots[a.seat].card_rects(3)[a.index].topleft


@pytest.mark.parametrize(
    ("asked", "size"),
    [((640, 400), (800, 500)), ((1024, 640), (1024, 640)), ((1920, 1200), (1920, 1200)),
     ((1280, 800), (1280, 800))],
    ids=str,
)  # fmt: skip
def test_12_the_table_rescales_whole_and_keeps_a_minimum_size_legible(app, asked, size) -> None:
    feed(app, demo.mid_hand())
    table = app.top()
    resize(app, asked)
    assert app.screen.get_size() == size
    lay = table.lay
    assert lay.size == size and lay.s == pytest.approx(min(size[0] / 1280, size[1] / 800))
    window = pygame.Rect(0, 0, *size)
    assert len(lay.spots) == 7
    for spot in lay.spots.values():
        assert spot.card_w >= 30  # a card's corner index stays readable
        assert window.contains(spot.plate_rect())
        assert all(window.contains(r) for r in spot.card_rects(7))
    assert lay.font(20) >= 12 and table.panel.log.size >= 12
    assert [b.label for b in table.buttons()] == ["Fold", "Call 20", "Raise to 40"]
    assert all(lay.bar.contains(b.rect) for b in table.buttons())
    assert lay.panel.contains(table.panel.volume.rect) and lay.panel.contains(table.panel.chat.rect)


# ------------------------------------------------------------------ 13: the winner line


@pytest.mark.parametrize(
    ("awards", "hands", "want"),
    [
        ([(1, 164, 0)], {1: "full house, nines full of fours", 0: "two pair, kings and fives"},
         ["Ada wins 164 with a full house, nines full of fours"]),
        ([(0, 20, 0)], {}, ["Ann wins 20 uncontested"]),
        ([(0, 41, 0), (3, 40, 0)], {0: "flush, ace high", 3: "flush, ace high"},
         ["Ann and Cy split 81 (Ann 41, Cy 40) with a flush, ace high"]),
        ([(0, 40, 0), (3, 40, 0), (6, 40, 0)], {0: "straight, ten high", 3: "straight, ten high",
                                                6: "straight, ten high"},
         ["Ann, Cy and Eve split 120 (40 each) with a straight, ten high"]),
        ([(3, 180, 0), (1, 126, 1)], {3: "straight flush, eight high",
                                      1: "full house, nines full of fours"},
         ["Main pot: Cy wins 180 with a straight flush, eight high",
          "Side pot 1: Ada wins 126 with a full house, nines full of fours"]),
        ([(3, 90, 0), (1, 90, 0), (1, 60, 1)], {3: "two pair, kings and fives",
                                                1: "two pair, kings and fives"},
         ["Main pot: Cy and Ada split 180 (90 each) with two pair, kings and fives",
          "Side pot 1: Ada wins 60 with two pair, kings and fives"]),
    ],
    ids=["one", "uncontested", "split-odd-chip", "three-way", "side-pot", "split-and-side"],
)  # fmt: skip
def test_13_R_S3_winner_lines_name_the_hand_and_every_winner(awards, hands, want) -> None:
    names = dict(enumerate(demo.NAMES))
    assert award_lines(awards, hands, names.get) == want


@pytest.mark.parametrize(
    ("name", "want"),
    [("royal flush", " with a royal flush"),
     ("four of a kind, nines", " with four of a kind, nines"),
     ("one pair, queens", " with one pair, queens"), ("high card, ace", " with high card, ace"),
     ("straight, five high", " with a straight, five high"), ("", "")],
)  # fmt: skip
def test_13_hand_names_read_as_words(name, want) -> None:
    assert with_hand(name) == want


def test_13_the_log_and_the_table_say_who_won_with_what(app) -> None:
    feed(app, demo.river_end())
    assert app.session.log.lines[-1].text == "Ada wins 164 with a full house, nines full of fours"
    app.link.session = Session("Ann")
    feed(app, demo.showdown())
    log = [line.text for line in app.session.log.lines]
    assert log[-2:] == [
        "Main pot: Cy wins 180 with a straight flush, eight high",
        "Side pot 1: Ada wins 126 with a full house, nines full of fours",
    ]


# ------------------------------------------------------------------ 14: sounds


@pytest.mark.parametrize("name", sorted(sound.SOUNDS))
def test_14_each_sound_is_short_and_audible(name) -> None:
    pcm = array.array("h", sound.samples(name, 22050, 1))
    assert 0.03 < len(pcm) / 22050 < 1.0
    assert max(abs(v) for v in pcm) > 3000
    assert sound.samples(name, 22050, 2)[:4] == bytes(pcm[:1]) * 2  # both channels alike


def test_14_the_table_plays_cards_chips_check_fold_and_a_win(app, played) -> None:
    feed(app, first_deal())
    advance(app, 3.0)
    assert played.count("card") == 9
    played.clear()
    for step, ev in enumerate([act(1, 3, "bring_in", 4), act(2, 3, "fold"), act(0, 3, "call", 4)]):
        feed(app, [{"type": "events", "hand": 1, "step": 2 + step, "events": [ev]}])
    assert played == ["chips", "fold", "chips"]
    played.clear()
    feed(app, [{"type": "events", "hand": 1, "step": 9, "events": [act(0, 4, "check")]}])
    assert played == ["check"]
    # A pot we win.
    app.link.session = Session("Ann")
    msgs = demo.river_end()
    feed(app, msgs[:-3])
    app.top().motion.anims.clear()
    last = msgs[-2]
    won = {**last, "view": {**last["view"], "awards": [Award(0, 164, 0).to_dict()]}}
    played.clear()
    feed(app, [msgs[-3], won])
    advance(app, 4.0)
    assert "win" in played and played[0] == "chips"


def test_14_volume_and_mute_are_set_at_the_table_and_remembered(app, tmp_path) -> None:
    app.save_settings = True
    feed(app, demo.mid_hand())
    table = app.top()
    track = table.panel.volume.track
    post(app, pygame.MOUSEBUTTONDOWN, pos=(track.x + track.w // 4, track.centery), button=1)
    assert 20 <= app.settings.volume <= 30
    assert sound.state()[0] == app.settings.volume
    key(app, pygame.K_m)
    assert app.settings.sound is False and sound.state()[1] is True
    assert sound.play("chips") is False  # muted: nothing plays
    saved = Settings.load()
    assert saved.volume == app.settings.volume and saved.sound is False
    post(app, pygame.MOUSEBUTTONDOWN, pos=table.panel.volume.speaker.center, button=1)
    assert Settings.load().sound is True and sound.state()[1] is False


# ------------------------------------------------------------------ a whole deal, randomly


def test_draw_changes_nothing_through_a_hand_end(app) -> None:
    feed(app, demo.river_end())
    scene = app.top()
    rng = random.Random(3)
    for _ in range(20):
        advance(app, rng.random() * 0.3)
        state = ([(a.t, a.start, a.end) for a in scene.motion.anims], scene.felt_chips())
        app.draw()
        assert ([(a.t, a.start, a.end) for a in scene.motion.anims], scene.felt_chips()) == state
