"""The table's budget of password guesses: few wrong passwords a minute, from everyone together.

The per-address back-off (``server.guard``) makes one address slow; addresses are cheap
(a home network's IPv6 gives a guest any number of them), so the table also counts the
passwords it checks in all.  Invariants:

- Every password check (a ``hello``'s ``password``, or the table's ``proof`` to a
  ``pake``) takes a *turn* first; a right one gives it back (``right``), so only wrong
  passwords use the budget.
- Turns come from two token buckets: strangers' (``STRANGERS``: 4 at once, then 10 a
  minute, one every 6 s) and friends' (``FRIENDS``: 2 at once, then 4 a minute).  A
  bucket of ``burst`` refilled at ``per_minute`` gives at most ``burst + per_minute``
  turns in any minute, so the table checks at most 14 + 6 = **20 wrong passwords in any
  minute**, however many addresses ask.
- A *friend* is one of the last ``MAX_FRIENDS`` addresses that gave the right password
  (or a seat's token); a guesser can neither become one nor push one out, and
  strangers never take friends' turns.
- A turn that is not there now is *booked*: the hello waits for it (``take`` says how
  long) and is checked then; a turn further off than ``within`` seconds
  (``server.hello.MAX_HOLD``) is not booked and the hello is refused (``password_wait``,
  with the time).  Booked turns come in the order asked, at the bucket's rate, so the
  waits never break the bound; one whose hello goes away meanwhile is spent.
- A seat's comeback with its token takes no turn: it is checked at once, whatever the
  budget (``server.hello``).

Why friends: before it is checked a right guess looks like a wrong one, so an attacker
asking faster than the budget refills spends it alone, and a newcomer never seen before
may be told ``password_wait`` while the guessing lasts: the price of online guessing
being hopeless (about 10,000 a night, against a password SPAKE2 keeps from offline
guessing).  What the attacker has not got keeps everyone else in: a seat's token, or
an address that gave the right password before.  The host's log says when the
strangers' turns run out.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

__all__ = ["FRIENDS", "MAX_FRIENDS", "STRANGERS", "Guesses", "Rate"]

MAX_FRIENDS = 256


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` turns at once, then ``per_minute``: at most their sum in any minute."""

    burst: float
    per_minute: float

    @property
    def most_a_minute(self) -> float:
        return self.burst + self.per_minute


STRANGERS = Rate(4, 10)
FRIENDS = Rate(2, 4)


@dataclass(slots=True)
class _Bucket:
    """A token bucket whose tokens may be booked ahead: ``tokens`` below 0 are turns
    promised to hellos that wait for them.

    >>> b = _Bucket(Rate(1, 6))  # one now, then one every 10 s
    >>> b.book(0.0, 8.0), b.book(0.0, 8.0), b.book(5.0, 8.0)
    (0.0, None, 5.0)
    """

    rate: Rate
    tokens: float = field(init=False)
    checked: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.tokens = self.rate.burst

    def _fill(self, now: float) -> None:
        if self.checked is not None:
            gained = (now - self.checked) * self.rate.per_minute / 60
            self.tokens = min(self.rate.burst, self.tokens + gained)
        self.checked = now

    def book(self, now: float, horizon: float) -> float | None:
        """Book a turn: seconds until it is due, or None (not booked) past ``horizon``."""
        self._fill(now)
        wait = self.wait(now)
        if wait > horizon:
            return None
        self.tokens -= 1
        return wait

    def wait(self, now: float) -> float:
        self._fill(now)
        return max(0.0, (1 - self.tokens) * 60 / self.rate.per_minute)

    def give_back(self) -> None:
        self.tokens = min(self.rate.burst, self.tokens + 1)


class Guesses:
    """The turns of every address's password checks, and the table's friends."""

    def __init__(self, strangers: Rate = STRANGERS, friends: Rate = FRIENDS) -> None:
        self._strangers = _Bucket(strangers)
        self._friends = _Bucket(friends)
        self._known: OrderedDict[str, None] = OrderedDict()

    @property
    def most_a_minute(self) -> float:
        return self._strangers.rate.most_a_minute + self._friends.rate.most_a_minute

    def _bucket(self, address: str) -> _Bucket:
        return self._friends if address in self._known else self._strangers

    def take(self, address: str, now: float, *, within: float) -> float | None:
        """Seconds until a password from ``address`` may be checked, or None when no turn
        comes ``within`` that long."""
        return self._bucket(address).book(now, within)

    def wait(self, address: str, now: float) -> float:
        return self._bucket(address).wait(now)

    def give_back(self, address: str) -> None:
        self._bucket(address).give_back()

    def right(self, address: str, *, turn: bool) -> None:
        """``address`` gave the right password: a friend from now on."""
        if turn:
            self.give_back(address)
        self._known.pop(address, None)
        self._known[address] = None
        while len(self._known) > MAX_FRIENDS:
            self._known.popitem(last=False)
