"""The computer seats' brain: one policy, parameterised by level.

Its modules, each importing only public names of those before it: ``reading`` (the
one place that reads a seat's view), ``starting`` (third-street classes), ``rivals``
(what a seat learns of each rival, and their ranges), ``equity``, ``style`` (the
policy's knobs), ``policy`` (``choose_action``, the plain player) and ``levels``
(``brain(level)``).  A chooser is any ``(view, rng) -> action name`` callable.
"""

from server.brain.equity import equity, exact_seventh
from server.brain.levels import DEFAULT_LEVEL, LEVELS, Brain, brain, level_id
from server.brain.policy import choose_action
from server.brain.rivals import Range
from server.brain.starting import starting_class
from server.brain.style import SOLID, STYLES, Style

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "SOLID",
    "STYLES",
    "Brain",
    "Range",
    "Style",
    "brain",
    "choose_action",
    "equity",
    "exact_seventh",
    "level_id",
    "starting_class",
]
