"""Computer levels in the window: picked on the start screen and shown on the seat plates
(issue 10; changed per seat in the host's lobby: tests/test_client_night.py)."""

from __future__ import annotations

from client.render.picture import picture_of
from client.render.tablepaint import seat_tags
from tests.clientkit import run


def test_the_start_screen_level_plays_the_computer_table(make_client) -> None:
    app = make_client("Ann")
    start = app.top()
    assert start.name == "start" and start.level.value == "Regular"
    start.level.value = "Shark"
    start.computers.value = 2
    start.choose("play")

    def seated() -> list:
        s = app.session
        return [p for p in s.players.values() if p.kind == "computer"] if s is not None else []

    # The table scene can come before the seats' message: wait for both.
    assert run([app], lambda: app.top().name == "table" and len(seated()) == 2)
    table = app.server.server.table
    assert sorted(s.level for s in table.seats.values() if s.level) == ["shark", "shark"]
    computers = seated()
    assert [p.level_name for p in computers] == ["Shark", "Shark"]
    seat = computers[0].seat
    assert ("Shark", (140, 190, 215)) in seat_tags(picture_of(app.session, 0.0), seat, own=False)
    assert app.settings.level == "shark"  # remembered for next time
