"""The one locked singleton: a value made on first use, once per process, under a lock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Lazy"]

T = TypeVar("T")


class Lazy(Generic[T]):
    """A process-wide value built by ``factory`` on the first :meth:`get`, then reused.

    Concurrent first calls build it once (the others wait on the lock); a factory that
    raises leaves nothing behind, so the next call tries again.

    Parameters
    ----------
    factory : callable
        Builds the value (no arguments).

    Examples
    --------
    >>> shared = Lazy(dict)
    >>> shared.get() is shared.get()
    True
    """

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        """Return the value, building it on the first call.

        Returns
        -------
        T
            The one value of this process.
        """
        value = self._value
        if value is not None:
            return value
        with self._lock:
            if self._value is None:
                self._value = self._factory()
            return self._value
