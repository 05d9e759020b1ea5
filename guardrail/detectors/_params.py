"""One parameter check for every detector (scikit-learn's ``_parameter_constraints`` pattern).

Each detector class declares its constructor's parameters once, as a class-level mapping
``_parameter_constraints``: parameter name -> list of constraints, any one of which the value
must satisfy. A constraint is

* an :class:`Interval` (``Interval(Real, 0, 1, closed="both")``; ``Integral`` rejects floats,
  both reject ``bool``),
* :class:`StrOptions` / :class:`Options` (a closed set of values),
* a type (``bool``, ``str``, ``Path``: an ``isinstance`` check; ``int``/``float`` never
  accept a ``bool``),
* ``None`` (the value ``None``), or
* ``"no_validation"`` (any object: a model, a tokenizer).

Pairs of parameters that must be strictly ordered (``low < threshold``) are listed in
``_parameter_order``. :func:`validate_params` checks a mapping of parameters against both,
and :func:`validated` wraps a constructor so that it runs the check on its bound arguments
before its body. The constructor of a registered detector, the detector registry and the
config (``detector_params``) all check parameters through :func:`validate_params`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

from guardrail.errors import ConfigError, GuardrailError, InvalidInputError

__all__ = ["Interval", "Options", "StrOptions", "Constraint", "validate_params", "validated"]

_P = ParamSpec("_P")
_S = TypeVar("_S")


@dataclass(frozen=True)
class Interval:
    """A real or integral number in a range.

    Parameters
    ----------
    type : numbers.Integral or numbers.Real
        ``Integral`` accepts ints only (not floats, not bools); ``Real`` accepts ints and
        floats (not bools).
    left, right : float or None
        The bounds; ``None`` leaves that side open (unbounded).
    closed : {"both", "left", "right", "neither"}
        Which bounds belong to the interval (default ``"both"``).
    """

    type: type
    left: float | None
    right: float | None
    closed: Literal["both", "left", "right", "neither"] = "both"

    def is_satisfied_by(self, value: Any) -> bool:
        """Whether ``value`` has the type and lies in the range."""
        if isinstance(value, bool) or not isinstance(value, self.type):
            return False
        num: Any = value  # an Integral or a Real
        if num != num:  # NaN lies in no interval
            return False
        if self.left is not None:
            if num < self.left or (num == self.left and self.closed in ("right", "neither")):
                return False
        if self.right is not None:
            if num > self.right or (num == self.right and self.closed in ("left", "neither")):
                return False
        return True

    def __str__(self) -> str:
        kind = "an int" if self.type is Integral else "a number"
        lo = "-inf" if self.left is None else f"{self.left:g}"
        hi = "inf" if self.right is None else f"{self.right:g}"
        lb = "[" if self.closed in ("both", "left") and self.left is not None else "("
        rb = "]" if self.closed in ("both", "right") and self.right is not None else ")"
        return f"{kind} in {lb}{lo}, {hi}{rb}"


@dataclass(frozen=True)
class Options:
    """One of a closed set of values of a type (``Options(Integral, {1, 2})``).

    Parameters
    ----------
    type : type
        The values' type (``bool`` is never an ``Integral`` here).
    options : frozenset
        The allowed values.
    """

    type: type
    options: frozenset[Any]

    def is_satisfied_by(self, value: Any) -> bool:
        """Whether ``value`` has the type and is one of the options."""
        return not isinstance(value, bool) and isinstance(value, self.type) and value in self.options

    def __str__(self) -> str:
        return f"one of {sorted(self.options, key=repr)}"


class StrOptions(Options):
    """One of a closed set of strings (``StrOptions({"min", "mean"})``).

    Parameters
    ----------
    options : iterable of str
        The allowed strings.
    """

    def __init__(self, options: Iterable[str]) -> None:
        super().__init__(str, frozenset(options))


#: What a constraint list may hold (see the module docstring).
Constraint = Interval | Options | type | None | str


def _satisfies(constraint: Constraint, value: Any) -> bool:
    if constraint == "no_validation":
        return True
    if constraint is None:
        return value is None
    if isinstance(constraint, Interval | Options):
        return constraint.is_satisfied_by(value)
    if isinstance(constraint, type):
        if constraint in (int, float) and isinstance(value, bool):
            return False
        return isinstance(value, constraint)
    raise ConfigError(f"unknown parameter constraint {constraint!r}")  # a bug in a declaration


def _describe(constraint: Constraint) -> str:
    if constraint is None:
        return "None"
    if isinstance(constraint, type):
        return f"a {constraint.__name__}"
    return str(constraint)


def _defaults(cls: type) -> dict[str, Any]:
    """The constructor's parameters that have a default, with it."""
    return {k: p.default for k, p in inspect.signature(cls).parameters.items()
            if p.default is not inspect.Parameter.empty}


def _check_names(cls: type, params: Mapping[str, Any], error: type[GuardrailError], where: str) -> None:
    sig = inspect.signature(cls).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.values()):
        return
    takes = {k for k, p in sig.items() if p.kind in (
        inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)}
    unknown = sorted(set(params) - takes)
    if unknown:
        raise error(f"{where}: unknown parameter(s) {unknown}; it takes {sorted(takes)}")


def validate_params(cls: type, params: Mapping[str, Any], *, error: type[GuardrailError] = InvalidInputError,
                    where: str | None = None, values: bool = True) -> None:
    """Check ``params`` against ``cls._parameter_constraints`` and ``cls._parameter_order``.

    Parameters
    ----------
    cls : type
        The detector class (its constructor's signature names the parameters it takes).
    params : mapping of str to object
        Keyword arguments for the constructor (a subset; the order checks fill in the
        constructor's defaults).
    error : type
        The error raised: :class:`~guardrail.errors.InvalidInputError` (default, a
        constructor's argument) or :class:`~guardrail.errors.ConfigError` (a config's
        ``detector_params``).
    where : str or None
        Prefix of the message (default: the class name).
    values : bool
        Check the values too (default); ``False`` checks only that the constructor takes
        every name (a config's check when it loads, see
        :func:`~guardrail.detectors.validate_detector_params`).

    Raises
    ------
    InvalidInputError or ConfigError
        A parameter the constructor does not take, a value that satisfies none of its
        constraints (the message names the parameter, the value and what is allowed), or
        an ordered pair out of order. Parameters without a declared constraint are not
        checked.
    """
    where = where or cls.__name__
    _check_names(cls, params, error, where)
    if not values:
        return
    constraints: Mapping[str, list[Constraint]] = getattr(cls, "_parameter_constraints", {})
    for name, value in params.items():
        allowed = constraints.get(name)
        if allowed is None or any(_satisfies(c, value) for c in allowed):
            continue
        options = " or ".join(_describe(c) for c in allowed)
        raise error(f"{where}: parameter {name!r} must be {options}, got {value!r}")
    order: Iterable[tuple[str, str]] = getattr(cls, "_parameter_order", ())
    if order:
        full = {**_defaults(cls), **params}
        for lo, hi in order:
            if not full[lo] < full[hi]:
                raise error(f"{where}: parameter {lo!r} must be below {hi!r}, got {lo}={full[lo]!r}, "
                            f"{hi}={full[hi]!r}")


def validated(init: Callable[Concatenate[_S, _P], None]) -> Callable[Concatenate[_S, _P], None]:
    """Wrap a detector's ``__init__`` so that :func:`validate_params` checks its arguments first.

    The check uses the constraints of the instance's class (a subclass that adds parameters
    extends its parent's mapping) and raises :class:`~guardrail.errors.InvalidInputError`.

    Parameters
    ----------
    init : callable
        The constructor.

    Returns
    -------
    callable
        The constructor, checking its arguments (its signature is kept for introspection).
    """
    sig = inspect.signature(init)

    @functools.wraps(init)
    def wrapper(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> None:
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        given = {k: v for k, v in bound.arguments.items() if k != "self"}
        validate_params(type(self), given)
        init(self, *args, **kwargs)

    return wrapper
