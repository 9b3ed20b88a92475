"""The keyboard: one key, one meaning, in every scene (issue 17).

``MEANING`` is what each letter does wherever it does something (the rules overlay lists
it, with ``OTHER``'s keys); ``SCENES`` is each scene's own table, key to the button or
action it presses there: a scene binds no letter outside it.
"""

from __future__ import annotations

__all__ = ["MEANING", "OTHER", "SCENES", "key_of", "lines"]

MEANING: dict[str, str] = {
    "F": "Fold",
    "C": "Check or call",
    "B": "Bet or bring in",
    "R": "Raise or complete",
    "A": "Step away / I'm back",
    "P": "Pause / play on (the host's table; a replay)",
    "M": "Sound off / on",
    "U": "The cards-seen panel (up cards)",
    "I": "The coach at the table: a line on each rule as it applies",
    "W": "Your odds: the chance to win and the pot odds (where the host allows them)",
    "H": "The hands: replay them (the hand histories on the start screen)",
    "O": "The match's recap",
    "K": "Rematch",
    "L": "Back to the lobby",
    "S": "Start the match (the host's lobby)",
    "D": "Play the computer",
    "T": "Host a table",
    "J": "Join",
    "E": "Resume the unfinished match",
    "X": "Export the hands to PHH",
    "G": "Give a seat back",
    "N": "No: refuse",
    "Y": "Yes",
    "V": "The next decision worth a look (a replay's analysis)",
}

OTHER: dict[str, str] = {
    "F1": "The rules",
    "Esc": "Back, close or cancel",
    "Enter": "Send the chat line, or confirm",
    "Tab": "The next field",
    "1–8": "The table's action buttons, by place",
    "Left / Right, Space": "A replay's step back / on",
    "Up / Down": "A replay's street back / on",
    "[ / ], Page Up / Down": "The hand before / after",
    "Home / End": "The start / end of the hand",
}

SCENES: dict[str, dict[str, str]] = {
    "start": {"D": "play", "T": "host", "J": "join", "H": "histories", "E": "resume"},
    "lobby": {"S": "start"},
    "table": {"F": "fold", "C": "check", "B": "bet", "R": "raise", "A": "away", "P": "pause",
              "M": "mute", "U": "seen", "I": "coach", "W": "odds", "H": "replay", "G": "ask:give",
              "N": "ask:refuse"},
    "results": {"K": "rematch", "L": "lobby", "H": "replay", "O": "recap"},
    "replayer": {"P": "play", "X": "export", "O": "recap", "V": "next_mark"},
    "recap": {"H": "replay"},
    "histories": {},
    "confirm": {"Y": "yes", "N": "no"},
}  # fmt: skip


def key_of(scene: str, action: str) -> str:
    """The letter that presses ``action`` in ``scene`` ("" for none)."""
    return next((k for k, a in SCENES[scene].items() if a == action), "")


def lines() -> list[tuple[str, str]]:
    """Every key and its meaning, as the rules overlay lists them."""
    return list(MEANING.items()) + list(OTHER.items())
