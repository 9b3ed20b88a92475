"""A token bucket: what every message a connection sends costs, and the chat lines.

A bucket holds at most ``burst`` tokens, refills at ``per_second`` and starts full; a
refused ``spend`` takes nothing, so a sender that keeps going is refused until it refills.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["TokenBucket"]


@dataclass(slots=True)
class TokenBucket:
    """``burst`` at once, then ``per_second`` on average.

    >>> b = TokenBucket(2, 1.0)
    >>> b.spend(10.0), b.spend(10.0), b.spend(10.0), b.spend(11.0)
    (True, True, False, True)
    """

    burst: float
    per_second: float
    tokens: float = field(init=False)
    checked: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def spend(self, now: float) -> bool:
        """Take one token at ``now`` (the connection's clock); False if none."""
        if self.checked is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.per_second)
        self.checked = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refund(self) -> None:
        """Give one token back (a message whose pace the table itself sets)."""
        self.tokens = min(self.burst, self.tokens + 1)
