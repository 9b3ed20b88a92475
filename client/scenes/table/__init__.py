"""The table scene (``scene``) and its parts: the side panel (``panel``) and its rows
(``controls``, ``asks``, ``coachbox``, ``oddsbox``), what flies (``motion``) and the action
bar (``actionbar``)."""

from client.scenes.table.scene import TableScene

__all__ = ["TableScene"]
