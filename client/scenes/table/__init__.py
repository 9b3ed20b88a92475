"""The table scene, in four parts with one job each.

- ``scene``: ``TableScene`` itself, which takes events and messages and puts
  the parts together (the seats and the centre are the painter's);
- ``layout``: where the side panel's widgets go for one window size;
- ``panel``: the side panel (settings, log, chat, cards seen) and its
  ``controls`` rows (away and back, the host's pause and take-a-seat);
- ``motion``: cards and chips flying, and the chips at rest on the felt;
- ``actionbar``: the bar under the table: the action buttons, the pre-action
  boxes, our turn's clock and what the bar says while we wait.
"""

from client.scenes.table.scene import TableScene

__all__ = ["TableScene"]
