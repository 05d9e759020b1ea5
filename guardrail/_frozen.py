"""Read-only mappings for the frozen result models (``GuardResult.detector_scores``, ``timings``...).

:class:`FrozenDict` is a ``dict`` whose mutating methods raise
:class:`~guardrail.errors.ReadOnlyError` (a :class:`TypeError`), so a
result's mappings serialise, compare, pickle and copy as dicts do, but cannot be changed in
place. :data:`ReadOnlyFloats` and :data:`ReadOnlyDetails` are the pydantic field types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, NoReturn, TypeVar

from pydantic import AfterValidator

from guardrail.errors import ReadOnlyError

__all__ = ["FrozenDict", "freeze", "ReadOnlyFloats", "ReadOnlyDetails"]

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A read-only ``dict``: reading, iterating, ``==``, JSON and pickling as a dict; any change
    raises :class:`~guardrail.errors.ReadOnlyError`, a :class:`TypeError` (``dict(frozen)`` or
    ``frozen.copy()`` gives a mutable copy).

    Examples
    --------
    >>> d = FrozenDict({"verifier": 0.2})
    >>> d["verifier"], d == {"verifier": 0.2}
    (0.2, True)
    >>> d["entity"] = 1.0
    Traceback (most recent call last):
    ...
    guardrail.errors.ReadOnlyError: FrozenDict is read-only
    """

    def _readonly(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise ReadOnlyError(f"{type(self).__name__} is read-only")

    __setitem__ = __delitem__ = __ior__ = _readonly
    clear = pop = popitem = setdefault = update = _readonly

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type[FrozenDict[K, V]], tuple[dict[K, V]]]:
        return type(self), (dict(self),)

    def copy(self) -> dict[K, V]:
        """A mutable ``dict`` copy."""
        return dict(self)


def freeze(value: Mapping[K, V]) -> FrozenDict[K, V]:
    """``value`` as a :class:`FrozenDict` (itself when it already is one)."""
    return value if isinstance(value, FrozenDict) else FrozenDict(value)


#: A field holding ``{name: float}``, read-only once validated.
ReadOnlyFloats = Annotated[Mapping[str, float], AfterValidator(freeze)]
#: A field holding ``{name: JSON value}``, read-only at the top level once validated.
ReadOnlyDetails = Annotated[Mapping[str, Any], AfterValidator(freeze)]
