"""Guesses at a GM's password, counted before they are checked.

A login and a password change each check a password someone typed. Each check first takes one
attempt from every limit it falls under (the account's, and for a login the client address's);
past a limit it is refused with ``TooManyGuesses`` before any password is checked. A right password
gives its attempt back, so only wrong ones count. Taking the attempt first is what makes it hold
under concurrency: ten wrong guesses sent at once against a limit of three are three checks and
seven refusals, never ten checks counted afterwards.

The counters are the ``limits`` library's (the one Flask-Limiter counts with), on the storage the
web configures (memory by default, ``TOUCHE_RATELIMIT_STORAGE`` for several processes): a fixed
window per limit, the increment atomic in every storage, so a reservation is never lost or doubled.
"""
from __future__ import annotations

import contextlib
import time
from typing import Callable, Iterator

from limits import parse_many
from limits.strategies import FixedWindowRateLimiter

from tracker.rules.text import Text


class TooManyGuesses(Exception):
    """Past a limit: nothing was checked. ``retry_after``: seconds until the window resets."""

    def __init__(self, message: Text, retry_after: int, field: str = ""):
        super().__init__(str(message))
        self.message, self.retry_after, self.field = message, retry_after, field


class Attempt:
    """One password check under way: say ``right()`` when the password was the GM's."""

    def __init__(self):
        self.was_right = False

    def right(self) -> None:
        self.was_right = True


def account_key(username: str) -> str:
    """The counter of one account's guesses, however the name was typed (a login, a password change)."""
    return "account:" + username.strip().casefold()


class Guesses:
    """The limits on password guesses. ``per_account`` and ``per_address`` give the current
    limits in Flask-Limiter's notation (``10 per 10 minutes``), read at each attempt."""

    def __init__(self, storage, per_account: Callable[[], str], per_address: Callable[[], str]):
        self.limiter = FixedWindowRateLimiter(storage)
        self.per_account, self.per_address = per_account, per_address

    @contextlib.contextmanager
    def attempt(self, message: Text, account: str, address: str | None = None,
                field: str = "") -> Iterator[Attempt]:
        """Take an attempt from the account's limit (and the address's), or raise TooManyGuesses;
        the attempt is given back when the password was right or the check did not finish."""
        limits = [(item, account_key(account)) for item in parse_many(self.per_account())]
        if address is not None:
            limits += [(item, "address:" + address) for item in parse_many(self.per_address())]
        taken = []
        for item, key in limits:
            taken.append((item, key))
            if not self.limiter.hit(item, key):
                reset = self.limiter.get_window_stats(item, key).reset_time
                self._give_back(taken)
                raise TooManyGuesses(message, max(1, int(reset - time.time()) + 1), field)
        attempt = Attempt()
        try:
            yield attempt
        except BaseException:
            self._give_back(taken)
            raise
        if attempt.was_right:
            self._give_back(taken)

    def _give_back(self, taken) -> None:
        for item, key in taken:
            self.limiter.storage.incr(item.key_for(key), item.get_expiry(), amount=-1)


@contextlib.contextmanager
def unlimited() -> Iterator[Attempt]:
    """No limit (the command line, which holds the database anyway)."""
    yield Attempt()
