"""The keyboard: one key, one meaning, in every scene (issue 17).

``MEANING`` is what each letter does wherever it does something (the rules overlay lists
it, with ``OTHER``'s keys); ``SCENES`` is each scene's own table, key to the button or
action it presses there: a scene binds no letter outside it.
"""

from __future__ import annotations

from client.i18n import N_
from client.i18n import gettext as _

__all__ = ["MEANING", "OTHER", "SCENES", "key_of", "lines"]

# Translators: what each key does, in the key help (the letters stay: F folds in every
# language).  "Step away / I'm back": leave the seat for a while, and come back to it.
MEANING: dict[str, str] = {
    "F": N_("Fold"),
    "C": N_("Check or call"),
    "B": N_("Bet or bring in"),
    "R": N_("Raise or complete"),
    "A": N_("Step away / I'm back"),
    "P": N_("Pause / play on (the host's table; a replay)"),
    "M": N_("Sound off / on"),
    "U": N_("The cards-seen panel (up cards)"),
    "I": N_("The coach at the table: a line on each rule as it applies"),
    "W": N_("Your odds: the chance to win and the pot odds (where the host allows them)"),
    "H": N_("The hands: replay them (the hand histories on the start screen)"),
    "O": N_("The match's recap"),
    "K": N_("Rematch"),
    "L": N_("Back to the lobby"),
    "S": N_("Start the match (the host's lobby)"),
    "D": N_("Play the computer"),
    "T": N_("Host a table"),
    "J": N_("Join"),
    "E": N_("Resume the unfinished match"),
    "X": N_("Export the hands to PHH"),
    "G": N_("Give a seat back"),
    "N": N_("No: refuse"),
    "Y": N_("Yes"),
    "V": N_("The next decision worth a look (a replay's analysis)"),
}

OTHER: dict[str, str] = {
    "F1": N_("The rules"),
    N_("Esc"): N_("Back, close or cancel"),
    N_("Enter"): N_("Send the chat line, or confirm"),
    N_("Tab"): N_("The next field"),
    "1–8": N_("The table's action buttons, by place"),
    N_("Left / Right, Space"): N_("A replay's step back / on"),
    N_("Up / Down"): N_("A replay's street back / on"),
    N_("[ / ], Page Up / Down"): N_("The hand before / after"),
    N_("Home / End"): N_("The start / end of the hand"),
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
    """Every key and its meaning, as the rules overlay lists them, in the player's words
    (the keys' names too: "Esc", "Home / End"; the letters stay the letters)."""
    return [(k if len(k) == 1 else _(k), _(v)) for k, v in [*MEANING.items(), *OTHER.items()]]
