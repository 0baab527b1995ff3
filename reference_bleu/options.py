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
from reference_bleu.inputs import EmptyCandidates, EmptyReferences, NoReference, SegmentRules
from reference_bleu.length import REF_LENGTH_RULES, RefLengthRule
from reference_bleu.numbers import exact_number, number_text
from reference_bleu.smoothing import SMOOTHING_METHODS

ZeroPrecision = Literal["limit", "skip", "sentinel", "log-constant"]
UndefinedPrecision = Literal["zero", "skip", "error", "one", "smoothed", "reweigh-by-length"]
#: Smoothing methods defined on 0/0, which ``undefined_precision="smoothed"`` may pass it to.
SMOOTHING_OF_UNDEFINED = ("coco", "add-one")
Aggregation = Literal["micro", "macro"]
Denominator = Literal["l_n", "max1-segment", "max1-total"]
EarlyReturn = Literal["none", "no-unigram-match", "no-match", "any-zero"]
BrevityPenaltyRule = Literal["paper", "coco", "plus-one"]
Arithmetic = Literal["exact", "binary64", "binary32", "binary32-precisions"]
Scale = Literal["unit", "percent"]
#: EC-004: c = 0 or r = 0 in a scored unit takes BP's limit (the paper) or is an error (a tool
#: that divides by them: tensorflow/nmt's ``ratio = c / r`` then ``1 / ratio``).
ZeroLength = Literal["limit", "error"]
#: EC-012: an empty corpus is an error, or scores 0.
EmptyCorpus = Literal["error", "zero"]

#: The value a zero precision takes under ``zero_precision="sentinel"`` unless ``zero_value``
#: says otherwise: the smallest normal double, ``sys.float_info.min`` = 2^-1022 (nltk 3.10).
DEFAULT_SENTINEL = Fraction(1, 2**1022)
#: log p_n of a zero precision under ``zero_precision="log-constant"``: multi-bleu.perl's and
#: sacrebleu's -9999999999.
DEFAULT_LOG_CONSTANT = Fraction(-9999999999)
#: The most decimals ``round_digits`` may ask for (a double has 17 significant digits).
MAX_ROUND_DIGITS = 20

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
    # Conventions of real tools beyond the paper's open points (spec chapter 13, CONV).
    denominator: Denominator = "l_n"
    early_return: EarlyReturn = "none"
    zero_value: Fraction | None = None
    brevity_penalty: BrevityPenaltyRule = "paper"
    empty_references: EmptyReferences = "keep"
    no_reference: NoReference = "error"
    empty_candidates: EmptyCandidates = "keep"
    zero_length: ZeroLength = "limit"
    empty_corpus: EmptyCorpus = "error"
    arithmetic: Arithmetic = "exact"
    scale: Scale = "unit"
    round_digits: int | None = None

    @property
    def zero_constant(self) -> Fraction:
        """The sentinel p_n (``sentinel``) or the constant log p_n (``log-constant``) of EC-002."""
        if self.zero_value is not None:
            return self.zero_value
        return DEFAULT_LOG_CONSTANT if self.zero_precision == "log-constant" else DEFAULT_SENTINEL

    @property
    def segment_rules(self) -> SegmentRules:
        """What empty candidates, empty references and missing references become (EC-004 to EC-006)."""
        return SegmentRules(self.empty_references, self.no_reference, self.empty_candidates)

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
            shown = "None" if value is None else number_text(value, short=True)
            smooth += f"[{method.parameter}={shown}]"
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
                *self.convention_fields(),
                f"version:{VERSION}",
            ]
        )

    def convention_fields(self) -> list[str]:
        """``name:value`` for every convention of chapter 13 that is not the paper's default."""
        names = (
            "denominator",
            "early_return",
            "brevity_penalty",
            "empty_references",
            "no_reference",
            "empty_candidates",
            "zero_length",
            "empty_corpus",
            "arithmetic",
            "scale",
        )
        default = BleuOptions()
        shown = [f"{n}:{getattr(self, n)}" for n in names if getattr(self, n) != getattr(default, n)]
        if self.zero_precision in ("sentinel", "log-constant"):
            value = self.zero_constant
            text = (
                str(value)
                if value.denominator == 1
                else f"{Decimal(value.numerator) / value.denominator:.6e}"
            )
            shown.append(f"zero_value:{text}")
        if self.round_digits is not None:
            shown.append(f"round:{self.round_digits}")
        return shown


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
    undefined = options.get("undefined_precision", "zero")
    if undefined == "smoothed" and smoothing not in SMOOTHING_OF_UNDEFINED:
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
        denominator=_choice(  # type: ignore[arg-type]
            "denominator", options.get("denominator", "l_n"), get_args(Denominator), "EC-015"
        ),
        early_return=_choice(  # type: ignore[arg-type]
            "early_return", options.get("early_return", "none"), get_args(EarlyReturn), "EC-016"
        ),
        zero_value=_zero_value(options.get("zero_value"), options.get("zero_precision", "limit")),
        brevity_penalty=_choice(  # type: ignore[arg-type]
            "brevity_penalty", options.get("brevity_penalty", "paper"), get_args(BrevityPenaltyRule), "EC-017"
        ),
        empty_references=_choice(  # type: ignore[arg-type]
            "empty_references", options.get("empty_references", "keep"), get_args(EmptyReferences), "EC-005"
        ),
        no_reference=_choice(  # type: ignore[arg-type]
            "no_reference", options.get("no_reference", "error"), get_args(NoReference), "EC-006"
        ),
        empty_candidates=_choice(  # type: ignore[arg-type]
            "empty_candidates", options.get("empty_candidates", "keep"), get_args(EmptyCandidates), "EC-004"
        ),
        zero_length=_choice(  # type: ignore[arg-type]
            "zero_length", options.get("zero_length", "limit"), get_args(ZeroLength), "EC-004"
        ),
        empty_corpus=_choice(  # type: ignore[arg-type]
            "empty_corpus", options.get("empty_corpus", "error"), get_args(EmptyCorpus), "EC-012"
        ),
        arithmetic=_choice(  # type: ignore[arg-type]
            "arithmetic", options.get("arithmetic", "exact"), get_args(Arithmetic), "EC-013"
        ),
        scale=_choice("scale", options.get("scale", "unit"), get_args(Scale), "EC-013"),  # type: ignore[arg-type]
        round_digits=_round_digits(options.get("round_digits")),
    )
