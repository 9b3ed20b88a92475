"""The computer seats' brain: one policy, parameterised by level.

- ``reading``: the one place that reads a seat's view.
- ``starting``: third-street starting-hand classes.
- ``rivals``: what a seat learns of each rival over a night, and the ranges it reads.
- ``equity``: showdown equity, sampled (random or ranged rivals) or counted.
- ``style``: the policy's knobs, ``Style`` (and ``Reads`` for a player that models
  its rivals); ``SOLID`` is the plain player's.
- ``policy``: the one policy (third street, later streets) a ``Style`` drives;
  ``choose_action`` is the plain player.
- ``levels``: the levels a person picks, as ``Style``s, and ``brain(level)``.

A chooser is any ``(view, rng) -> action name`` callable: ``choose_action`` and every
``Brain`` are.  A module imports only public names, and only from the modules listed
before it (no circle).
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
