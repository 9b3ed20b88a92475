"""The client's model: server messages in, buttons, log lines and card rows out (no pygame)."""

from __future__ import annotations

import json

import pytest

from client.model import Session
from client.settings import Settings
from client.wording import describe_event
from common.events import Award, ProtocolError
from common.history import decode_event
from common.presence import Presence
from common.schema import LegalAction, SeatView
from tests import demo
from tests.clientkit import decoded, feed, session_from


@pytest.mark.parametrize(
    ("legal", "label", "key"),
    [(LegalAction("bring_in", 4, 4), "Bring in 4", "B"),
     (LegalAction("complete", 10, 10), "Complete to 10", "R"),
     (LegalAction("call", 10, 10), "Call 10", "C"),
     (LegalAction("raise", 26, 30), "Raise to 30", "R"),
     (LegalAction("check", 0, 0), "Check", "C"), (LegalAction("bet", 20, 20), "Bet 20", "B"),
     (LegalAction("fold", 0, 0), "Fold", "F"),
     (LegalAction("call", 7, 7, all_in=True), "Call 7 (all in)", "C")],
    ids=lambda v: v if isinstance(v, str) else None,
)  # fmt: skip
def test_R_B1_buttons_name_their_amount(legal: LegalAction, label: str, key: str) -> None:
    assert legal.label == label
    assert legal.key == key


def test_buttons_are_exactly_the_offered_actions_on_our_turn_until_we_act() -> None:
    s = session_from(demo.mid_hand())
    assert s.my_turn()
    assert [a.label for a in s.actions()] == ["Fold", "Call 20", "Raise to 40"]
    assert s.turn == 41  # the turn message's id, not the hand's counter
    call = {"ev": "act", "seat": 0, "street": 5, "action": "call", "put": 20, "to": 20}
    feed(s, [{"type": "events", "hand": 3, "step": 2, "events": [{**call, "all_in": False}]}])
    assert s.actions() == []  # our own act clears the buttons
    assert s.log.recent[0] == "calls 20"


def test_no_buttons_without_a_turn_message() -> None:
    msgs = [m for m in demo.mid_hand() if m["type"] != "turn"]
    s = session_from(msgs)
    assert s.view is not None and s.view.to_act == 0
    assert s.actions() == []


def test_cards_in_deal_order_with_backs_and_marked_hole_cards() -> None:
    s = session_from(demo.mid_hand())
    assert s.view is not None
    mine = s.view.seats[0].cards()
    assert mine == [("Ac", True), ("Qs", True), ("Kh", False), ("Kd", False), ("7s", False)]
    theirs = s.view.seats[1].cards()
    assert theirs == [(None, True), (None, True), ("9c", False), ("9s", False), ("4d", False)]


def test_R_D3_seventh_street_card_goes_last() -> None:
    view = SeatView.decode({"seats": [{"seat": 2, "up": ["2c", "3c", "4c", "5c"], "down": 3}]})
    cards = view.seats[2].cards()
    assert [c for c, _ in cards] == [None, None, "2c", "3c", "4c", "5c", None]


@pytest.mark.parametrize(
    ("event", "words"),
    [({"action": "complete"}, "Ann completes to 10"),
     ({"seat": 1, "action": "bring_in", "put": 4, "to": 4}, "Bot 2 brings in for 4"),
     ({"action": "call", "put": 7, "all_in": True}, "Ann calls 7 and is all in"),
     ({"ev": "award", "seat": 1, "amount": 66, "pot": 1}, "Bot 2 wins 66 from side pot 1")],
)  # fmt: skip
def test_log_reads_in_plain_words(event: dict, words: str) -> None:
    act = {"ev": "act", "seat": 0, "street": 3, "put": 10, "to": 10, "all_in": False}
    line = describe_event(decode_event({**act, **event}), {0: "Ann", 1: "Bot 2"}.__getitem__)
    assert line is not None and line.text == words


def test_showdown_view_keeps_seven_cards_best_five_and_name() -> None:
    s = session_from(demo.showdown())
    sv = s.view.seats[1]
    assert sv.shown is not None
    assert len(sv.cards()) == 7 and len(sv.shown.best) == 5
    assert sv.shown.hand == "full house, nines full of fours"
    assert s.view.awards == [Award(3, 180, 0), Award(1, 126, 1)]


GARBAGE = [None, [], "table", {}, {"type": 7}, {"type": "no_such_type"},
           {"type": "table", "view": None}, {"type": "table", "view": "x"},
           {"type": "presence"}]  # fmt: skip


@pytest.mark.parametrize("msg", GARBAGE, ids=[repr(m)[:30] for m in GARBAGE])
def test_malformed_messages_raise_ProtocolError_before_the_session(msg: object) -> None:
    with pytest.raises(ProtocolError):
        decoded(msg)  # type: ignore[arg-type]


def test_odd_fields_are_cleaned_not_trusted() -> None:
    view = SeatView.decode({
        "street": "five", "seats": [
            {"seat": 9, "up": ["Ah"]},  # no such seat
            {"seat": 1, "up": ["Zz", 5, "Ah"], "down": 99, "stack": -5, "hole": "AcKd"},
            "junk",
        ], "legal": [{"action": "explode"}, {"action": "fold", "put": "x"}], "pots": [7],
    })  # fmt: skip
    assert list(view.seats) == [1]
    sv = view.seats[1]
    assert sv.up == ["Ah"] and sv.down == 3 and sv.stack == 0 and sv.hole == []
    assert [a.action for a in view.legal] == ["fold"] and view.street == 0


def test_phases_follow_the_messages() -> None:
    s = Session("Ann")
    assert s.phase == "connecting"
    feed(s, [{"type": "welcome", "seat": 0, "token": "t", "name": "Ann", "host": True,
              "watch": False, "hands": 8},
             {"type": "lobby", "seats": [{"seat": 0, "name": "Ann", "kind": "human"}],
              "host": 0, "hands": 8, "can_start": False, "start_when": None,
              "running": False}])  # fmt: skip
    assert s.phase == "lobby" and s.host and s.token == "t"
    feed(s, demo.mid_hand()[1:3])
    assert s.phase == "playing"
    feed(s, [demo.standings()])
    assert s.phase == "standings"


def test_presence_counts_down_the_grace_period() -> None:
    s = session_from(demo.mid_hand())
    assert s.clocks.grace_left(3, now=10.0) == pytest.approx(20.0)
    feed(s, [{"type": "presence", "seat": 3, "connected": True, "grace": None}], now=11.0)
    assert s.clocks.grace_left(3, now=11.0) is None


@pytest.mark.parametrize("bad", [float("inf"), float("nan"), -1.0, True, "5"])
def test_clock_times_that_cannot_be_drawn_are_dropped(bad: object) -> None:
    """The plates draw ``int(seconds)``: an infinite or NaN time would fail every frame."""
    s = session_from(demo.mid_hand())
    feed(s, [{"type": "presence", "seat": 3, "connected": False, "grace": bad}], now=10.0)
    assert s.clocks.grace_left(3, now=11.0) is None
    feed(s, [{"type": "turn", "turn": 9, "seat": s.seat, "legal": [], "time_left": bad}])
    assert s.clocks.ours is None


def test_settings_round_trip(tmp_path) -> None:
    path = tmp_path / "s.json"
    assert Settings().coach is False and Settings().coach_first is False
    st = Settings(name="Zoë", four_color=True, coach=True, coach_first=True)
    st.remember_address("10.0.0.5")
    st.remember_address("10.0.0.6")
    st.remember_address("10.0.0.5")
    st.save(path)
    back = Settings.load(path)
    assert back.name == "Zoë" and back.four_color and back.recent == ["10.0.0.5", "10.0.0.6"]
    assert back.coach and back.coach_first


@pytest.mark.parametrize(
    "bad, field, want",
    [({"volume": 250, "sound": False}, "volume", 100),  # out of range: clamped
     ({"volume": "loud"}, "volume", Settings().volume),  # the wrong type: the default
     *[({"window": w}, "window", Settings().window)  # a window that cannot open
       for w in ([], [800], ["1280", "800"], [1280, 800, 1])]],
)  # fmt: skip
def test_a_bad_setting_takes_its_default_and_the_rest_is_kept(tmp_path, bad, field, want) -> None:
    """One bad setting is no reason to forget the player's name."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"name": "Zoë", "hands": 12, **bad}))
    back = Settings.load(path)
    assert getattr(back, field) == want
    assert (back.name, back.hands, back.sound) == ("Zoë", 12, bad.get("sound", True))
    assert path.exists()  # not set aside


def test_R_C2_a_player_holds_one_presence_read_from_its_lobby_seat() -> None:
    seat = {"seat": 1, "name": "Cy", "kind": "human", "connected": True, "host": False,
            "away": False, "away_why": None, "stand_in": False}  # fmt: skip
    s = session_from([{"type": "lobby", "seats": [
        seat,
        {**seat, "seat": 2, "connected": False},
        {**seat, "seat": 3, "away": True, "away_why": "taken", "stand_in": True},
        {**seat, "seat": 4, "away": True, "away_why": "dropped", "connected": False},
        {**seat, "seat": 5, "next": True},
    ], "host": None, "hands": 8, "can_start": False, "start_when": None,
        "running": False}])  # fmt: skip
    got = {p.seat: p for p in s.lobby.seats}
    assert [got[n].presence for n in (1, 2, 3, 4, 5)] == [
        Presence.PLAYING, Presence.DROPPED, Presence.TAKEN, Presence.AWAY_DROPPED,
        Presence.NEXT_MATCH,
    ]  # fmt: skip
    assert got[3].away and got[3].away_why == "taken" and got[3].stand_in and got[3].connected
    assert not got[2].connected and not got[4].connected and got[4].away_why == "dropped"
    assert got[5].next and not got[5].away and not got[1].next
