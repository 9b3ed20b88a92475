"""The computer seats' levels in the player's words (``common.levels`` keeps the ids and the
English, which the server and the files use)."""

from __future__ import annotations

from client.i18n import N_
from client.i18n import gettext as _
from common.levels import LEVEL_INFO

__all__ = ["level_description", "level_name"]

_WORDS = {
    # Translators: the computer seats' levels: a beginner, a steady club player, the best.
    "newcomer": (N_("Newcomer"), N_(
        "Plays too many hands and calls too much; bets only good hands, never bluffs.")),
    "regular": (N_("Regular"), N_(
        "A solid club player: good starting hands and honest bets, but pays off too often.")),
    "shark": (N_("Shark"), N_(
        "The strongest: defends its antes, reads your board and betting, adapts to you.")),
}  # fmt: skip


def level_name(level: str) -> str:
    """The level's name as the player reads it (an unknown id: the middle level's)."""
    return _(_WORDS.get(level, _WORDS[LEVEL_INFO[1].id])[0])


def level_description(level: str) -> str:
    return _(_WORDS[level][1]) if level in _WORDS else ""
