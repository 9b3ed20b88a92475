"""Chat lines' rate limit: a token bucket per connection.

Invariants:

- A connection's bucket holds at most ``burst`` lines and refills at
  ``per_second`` lines a second; its first line finds the bucket full.
- Each line said spends one; a line refused spends nothing, so a connection
  that keeps talking is refused until the bucket refills.
- The bucket lives on the ``Connection`` (``chat_allowance`` and
  ``chat_checked``, the ``time.monotonic()`` of its last line, 0.0 before
  any), so it ends with the connection.
"""

from __future__ import annotations

import time

from server.net import Connection

__all__ = ["spend_line"]


def spend_line(conn: Connection, *, burst: float, per_second: float) -> bool:
    """Spend one of ``conn``'s chat lines; False when it has none left just now."""
    now = time.monotonic()
    allowance = min(burst, conn.chat_allowance + (now - conn.chat_checked) * per_second)
    if conn.chat_checked == 0.0:
        allowance = burst
    conn.chat_checked = now
    if allowance < 1:
        conn.chat_allowance = allowance
        return False
    conn.chat_allowance = allowance - 1
    return True
