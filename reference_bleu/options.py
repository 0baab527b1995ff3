"""The options: every convention the paper leaves open, named (spec API-OPTIONS).

Defaults are the paper's: N = 4, uniform weights, the closest reference length with ties
to the shorter, no smoothing, corpus micro-average; a zero precision gives a score of 0.
Each option names the edge-case entry (EC-xxx) that documents it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, get_args

from reference_bleu.combination import WeightLike, weights_w_n
from reference_bleu.errors import BleuOptionError
from reference_bleu.length import REF_LENGTH_RULES, RefLengthRule
from reference_bleu.smoothing import SMOOTHING_METHODS

ZeroPrecision = Literal["limit", "skip"]
UndefinedPrecision = Literal["zero", "skip", "error"]
Aggregation = Literal["micro", "macro"]

VERSION = "0.1.0"


@dataclass(frozen=True)
class BleuOptions:
    """A validated, immutable set of options. Build one with :func:`make_options`."""

    max_order: int = 4
    weights: tuple[Fraction, ...] = (Fraction(1, 4),) * 4
    ref_length: RefLengthRule = "closest"
    smoothing: str = "none"
    smoothing_value: Fraction | None = None
    effective_order: bool = False
    zero_precision: ZeroPrecision = "limit"
    undefined_precision: UndefinedPrecision = "zero"
    aggregation: Aggregation = "micro"
    unnormalized_weights: bool = False

    @property
    def statistics_orders(self) -> int:
        """Orders to count: N, plus N + 1 when the smoothing needs m_{N+1} (methods 5 and 7)."""
        return self.max_order + int(SMOOTHING_METHODS[self.smoothing].needs_next_order)

    def signature(self) -> str:
        """A short string naming every option that can change the number."""
        uniform = self.weights == (Fraction(1, self.max_order),) * self.max_order
        w = "uniform" if uniform else ",".join(str(x) for x in self.weights)
        smooth = self.smoothing
        method = SMOOTHING_METHODS[self.smoothing]
        if method.parameter is not None:
            value = self.smoothing_value if self.smoothing_value is not None else method.default
            smooth += f"[{method.parameter}={value}]"
        return "|".join(
            [
                f"N:{self.max_order}",
                f"w:{w}",
                f"r:{self.ref_length}",
                f"smooth:{smooth}",
                f"eff:{'yes' if self.effective_order else 'no'}",
                f"zero:{self.zero_precision}",
                f"undef:{self.undefined_precision}",
                f"agg:{self.aggregation}",
                f"version:{VERSION}",
            ]
        )


OPTION_NAMES = tuple(f.name for f in fields(BleuOptions))


def _choice(name: str, value: object, allowed: tuple[str, ...], spec_id: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise BleuOptionError(spec_id, f"{name} must be one of {', '.join(allowed)}; got {value!r}")
    return value


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise BleuOptionError("API-OPTIONS", f"{name} must be True or False, got {value!r}")
    return value


def _smoothing_value(value: object, smoothing: str) -> Fraction | None:
    if value is None:
        return None
    method = SMOOTHING_METHODS[smoothing]
    if method.parameter is None:
        raise BleuOptionError(method.spec_id, f"smoothing {smoothing!r} takes no smoothing_value")
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction | Decimal | str):
        raise BleuOptionError(method.spec_id, f"smoothing_value must be a number, got {value!r}")
    try:
        number = Fraction(value)
    except (ValueError, ZeroDivisionError, ArithmeticError):
        raise BleuOptionError(method.spec_id, f"smoothing_value is not a number: {value!r}") from None
    if number <= 0:
        raise BleuOptionError(method.spec_id, f"{method.parameter} must be positive, got {value!r}")
    return number


def make_options(**options: Any) -> BleuOptions:
    """Validate keyword options (spec API-OPTIONS) and return them as :class:`BleuOptions`.

    ``max_order`` defaults to ``len(weights)`` when only weights are given, else 4.
    Unknown names and values out of their domain raise :class:`BleuOptionError`.
    """
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise BleuOptionError(
            "API-OPTIONS", f"unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTION_NAMES)}"
        )
    raw_weights: list[WeightLike] | None = options.get("weights")
    max_order = options.get("max_order")
    if max_order is None:
        max_order = len(raw_weights) if isinstance(raw_weights, list | tuple) else 4
    unnormalized = _flag("unnormalized_weights", options.get("unnormalized_weights", False))
    weights = weights_w_n(max_order, raw_weights, sum_to_one=not unnormalized)
    smoothing = _choice("smoothing", options.get("smoothing", "none"), tuple(SMOOTHING_METHODS), "SMOOTH")
    return BleuOptions(
        max_order=max_order,
        weights=weights,
        ref_length=_choice("ref_length", options.get("ref_length", "closest"), REF_LENGTH_RULES, "EC-001"),  # type: ignore[arg-type]
        smoothing=smoothing,
        smoothing_value=_smoothing_value(options.get("smoothing_value"), smoothing),
        effective_order=_flag("effective_order", options.get("effective_order", False)),
        zero_precision=_choice(  # type: ignore[arg-type]
            "zero_precision", options.get("zero_precision", "limit"), get_args(ZeroPrecision), "EC-002"
        ),
        undefined_precision=_choice(  # type: ignore[arg-type]
            "undefined_precision",
            options.get("undefined_precision", "zero"),
            get_args(UndefinedPrecision),
            "EC-003",
        ),
        aggregation=_choice(  # type: ignore[arg-type]
            "aggregation", options.get("aggregation", "micro"), get_args(Aggregation), "EC-009"
        ),
        unnormalized_weights=unnormalized,
    )
