"""The options: every convention the paper leaves open, named (spec API-OPTIONS).

Defaults are the paper's: N = 4, uniform weights, the closest reference length with ties
to the shorter, no smoothing, corpus micro-average; a zero precision gives a score of 0.
Each option names the edge-case entry (EC-xxx) that documents it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from reference_bleu.conventions.registry import (
    BY_NAME,
    OPTION_FIELDS,
    PAPER_OPTIONS,
    Aggregation,
    Arithmetic,
    BrevityPenaltyRule,
    Denominator,
    EarlyReturn,
    EmptyCorpus,
    Scale,
    UndefinedPrecision,
    ZeroLength,
    ZeroPrecision,
    canonical,
    constant_text,
    zero_constant,
)
from reference_bleu.errors import BleuOptionError
from reference_bleu.formulas.combination import WeightLike, weights_w_n
from reference_bleu.formulas.inputs import EmptyCandidates, EmptyReferences, NoReference, SegmentRules
from reference_bleu.formulas.length import RefLengthRule
from reference_bleu.formulas.numbers import exact_number, number_text
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS

__all__ = [
    "Aggregation",
    "Arithmetic",
    "BleuOptions",
    "BrevityPenaltyRule",
    "Denominator",
    "EarlyReturn",
    "EmptyCorpus",
    "Scale",
    "UndefinedPrecision",
    "ZeroLength",
    "ZeroPrecision",
    "make_options",
]

#: Smoothing methods defined on 0/0, which ``undefined_precision="smoothed"`` may pass it to.
SMOOTHING_OF_UNDEFINED = ("coco", "add-one")

#: The most decimals ``round_digits`` may ask for (a double has 17 significant digits).
MAX_ROUND_DIGITS = 20

VERSION = "0.1.0"


def _paper(name: str) -> Any:
    """The paper's value of an option (the registry's)."""
    return PAPER_OPTIONS[name]


@dataclass(frozen=True)
class BleuOptions:
    """A validated, immutable set of options (the registry's option fields, typed). Build one with
    :func:`make_options`; every default is the paper's value in :mod:`reference_bleu.conventions.registry`."""

    ref_length: RefLengthRule = _paper("ref_length")
    empty_references: EmptyReferences = _paper("empty_references")
    no_reference: NoReference = _paper("no_reference")
    empty_candidates: EmptyCandidates = _paper("empty_candidates")
    zero_length: ZeroLength = _paper("zero_length")
    empty_corpus: EmptyCorpus = _paper("empty_corpus")
    denominator: Denominator = _paper("denominator")
    early_return: EarlyReturn = _paper("early_return")
    undefined_precision: UndefinedPrecision = _paper("undefined_precision")
    effective_order: bool = _paper("effective_order")
    zero_precision: ZeroPrecision = _paper("zero_precision")
    zero_value: Fraction | None = _paper("zero_value")
    smoothing: str = _paper("smoothing")
    smoothing_value: Fraction | None = _paper("smoothing_value")
    brevity_penalty: BrevityPenaltyRule = _paper("brevity_penalty")
    aggregation: Aggregation = _paper("aggregation")
    arithmetic: Arithmetic = _paper("arithmetic")
    scale: Scale = _paper("scale")
    round_digits: int | None = _paper("round_digits")
    max_order: int = _paper("max_order")
    weights: tuple[Fraction, ...] = _paper("weights")
    unnormalized_weights: bool = _paper("unnormalized_weights")

    @property
    def zero_constant(self) -> Fraction:
        """The sentinel p_n (``sentinel``) or the constant log p_n (``log-constant``) of EC-002."""
        return zero_constant(self.zero_precision, self.zero_value)

    @property
    def segment_rules(self) -> SegmentRules:
        """What empty candidates, empty references and missing references become (EC-004 to EC-006)."""
        return SegmentRules(self.empty_references, self.no_reference, self.empty_candidates)

    @property
    def statistics_orders(self) -> int:
        """Orders to count: N, plus N + 1 when the smoothing needs m_{N+1} (methods 5 and 7)."""
        return self.max_order + int(SMOOTHING_METHODS[self.smoothing].needs_next_order)

    def signature(self) -> str:
        """A short string naming every option that can change the number (spec API-OPTIONS): the
        registry's signature fields in their places, then :meth:`convention_fields`, then the version."""
        head = sorted((f.signature, f.name) for f in BY_NAME.values() if f.signature is not None)
        return "|".join(
            [
                *(f"{key}:{self._signed(name)}" for (_, key), name in head),
                *self.convention_fields(),
                f"version:{VERSION}",
            ]
        )

    def _signed(self, name: str) -> str:
        if name == "weights":
            uniform = self.weights == (Fraction(1, self.max_order),) * self.max_order
            return "uniform" if uniform else ",".join(str(x) for x in self.weights)
        if name == "effective_order":
            return "yes" if self.effective_order else "no"
        if name == "smoothing":
            method = SMOOTHING_METHODS[self.smoothing]
            if method.parameter is None:
                return self.smoothing
            value = self.smoothing_value if self.smoothing_value is not None else method.default
            shown = "None" if value is None else number_text(value, short=True)
            return f"{self.smoothing}[{method.parameter}={shown}]"
        return str(getattr(self, name))

    def convention_fields(self) -> list[str]:
        """``name:value`` for every convention of chapter 13 that is not the paper's (the registry's
        fields outside the signature's head, refinements apart), then EC-002's constant and the decimals."""
        shown = [
            f"{f.name}:{getattr(self, f.name)}"
            for f in BY_NAME.values()
            if f.name in OPTION_FIELDS
            and f.signature is None
            and f.kind == "choice"
            and getattr(self, f.name) != f.paper
        ]
        if self.zero_precision in ("sentinel", "log-constant"):
            shown.append(f"zero_value:{constant_text(self.zero_constant)}")
        if self.round_digits is not None:
            shown.append(f"round:{self.round_digits}")
        return shown


if {f.name for f in fields(BleuOptions)} != set(OPTION_FIELDS):
    raise TypeError("BleuOptions' fields must be the registry's option fields")
OPTION_NAMES = OPTION_FIELDS


def _choice(name: str, value: object) -> str:
    """A value of a choice field, or the BleuOptionError naming the field's spec entry."""
    allowed = tuple(BY_NAME[name].values)
    if not isinstance(value, str) or value not in allowed:
        raise BleuOptionError(
            BY_NAME[name].spec_id, f"{name} must be one of {', '.join(allowed)}; got {value!r}"
        )
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
    number = exact_number(value, "smoothing_value", method.spec_id)
    if number <= 0:
        raise BleuOptionError(method.spec_id, f"{method.parameter} must be positive, got {value!r}")
    return number


def _zero_value(value: object, zero_precision: str) -> Fraction | None:
    if value is None:
        return None
    if zero_precision not in ("sentinel", "log-constant"):
        raise BleuOptionError(
            "EC-002", f"zero_value needs zero_precision sentinel or log-constant, not {zero_precision!r}"
        )
    number = exact_number(value, "zero_value", "EC-002")
    if zero_precision == "sentinel" and not 0 < number < 1:
        raise BleuOptionError("EC-002", f"a sentinel precision must lie in (0, 1), got {value!r}")
    if zero_precision == "log-constant" and number >= 0:
        raise BleuOptionError("EC-002", f"a constant for log 0 must be negative, got {value!r}")
    return number


def _round_digits(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ROUND_DIGITS:
        raise BleuOptionError(
            "EC-013", f"round_digits must be an int in 0..{MAX_ROUND_DIGITS}, got {value!r}"
        )
    return value


#: The most distinct sets of options (or points) remembered once validated; the memory is cleared when full.
MAX_REMEMBERED = 1024


def frozen_value(value: object) -> object:
    """A hashable key that is equal for two option values exactly when they are the same value of the same
    type (``True`` and ``1`` differ, ``-0.0`` and ``0.0`` differ; lists and tuples element by element);
    TypeError for a value that cannot be a key. What :func:`make_options` and
    ``conventions.space.resolve_point`` remember their answers by (API-OPTIONS)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return (kind, value)
    if isinstance(value, list | tuple):
        return (kind, tuple(frozen_value(item) for item in value))
    if isinstance(value, float):
        return (float, value.hex())
    hash(value)
    return (kind, value)


def options_key(options: Mapping[str, Any]) -> tuple[object, ...] | None:
    """:func:`frozen_value` of every option, by name, in the order given (the same set given in another
    order is another key, remembered apart); ``None`` when one cannot be remembered (a former name,
    whose DeprecationWarning each call must give, or a value that cannot be a key)."""
    if not _OPTION_NAME_SET.issuperset(options):
        return None
    try:
        return tuple([(name, frozen_value(value)) for name, value in options.items()])
    except TypeError:
        return None


_OPTION_NAME_SET = frozenset(OPTION_NAMES)
_REMEMBERED: dict[tuple[object, ...], BleuOptions] = {}


def make_options(**options: Any) -> BleuOptions:
    """Validate keyword options (spec API-OPTIONS) and return them as :class:`BleuOptions`.

    Every option is a field of :mod:`reference_bleu.conventions.registry`, at the paper's value when not
    given; a former name (``empty_refs``, ``bp``, ...) still works, with a DeprecationWarning.
    ``max_order`` defaults to ``len(weights)`` when only weights are given, else 4.
    Unknown names and values out of their domain raise :class:`BleuOptionError`.

    The validated options of each distinct set given are remembered (:func:`options_key`; the
    result is immutable): a caller scoring one row at a time validates its options once.
    """
    key = options_key(options)
    remembered = None if key is None else _REMEMBERED.get(key)
    if remembered is not None:
        return remembered
    validated = _validated(options)
    if key is not None:
        if len(_REMEMBERED) >= MAX_REMEMBERED:
            _REMEMBERED.clear()
        _REMEMBERED[key] = validated
    return validated


def _validated(options: dict[str, Any]) -> BleuOptions:
    """:func:`make_options`'s validation, every time."""
    options = {canonical(name, "make_options", stacklevel=4): value for name, value in options.items()}
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise BleuOptionError(
            "API-OPTIONS", f"unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTION_NAMES)}"
        )
    given = {**PAPER_OPTIONS, **options}
    raw_weights: list[WeightLike] | None = options.get("weights")
    max_order = options.get("max_order")
    if max_order is None:
        max_order = len(raw_weights) if isinstance(raw_weights, list | tuple) else PAPER_OPTIONS["max_order"]
    unnormalized = _flag("unnormalized_weights", given["unnormalized_weights"])
    weights = weights_w_n(max_order, raw_weights, sum_to_one=not unnormalized)
    choices: dict[str, Any] = {
        f.name: _choice(f.name, given[f.name])
        for f in BY_NAME.values()
        if f.name in OPTION_FIELDS and f.kind == "choice"
    }
    smoothing = choices["smoothing"]
    if choices["undefined_precision"] == "smoothed" and smoothing not in SMOOTHING_OF_UNDEFINED:
        raise BleuOptionError(
            "EC-003",
            "undefined_precision='smoothed' needs a smoothing defined on 0/0 "
            f"({', '.join(SMOOTHING_OF_UNDEFINED)})",
        )
    if SMOOTHING_METHODS[smoothing].needs_last_segment and max_order != 4:
        raise BleuOptionError(
            SMOOTHING_METHODS[smoothing].spec_id, f"nltk's {smoothing} is defined for N = 4 only"
        )
    return BleuOptions(
        **choices,
        max_order=max_order,
        weights=weights,
        smoothing_value=_smoothing_value(given["smoothing_value"], smoothing),
        effective_order=_flag("effective_order", given["effective_order"]),
        unnormalized_weights=unnormalized,
        zero_value=_zero_value(given["zero_value"], choices["zero_precision"]),
        round_digits=_round_digits(given["round_digits"]),
    )
