"""FP-ZERO and FP-UNDEFINED: what a zero precision gives (every registry point on the zero precision,
smoothing, early return, denominator and undefined precision axes, and a smoothing parameter solved
over its range) and what an order without n-grams gives (spec EC-002, EC-003, SMOOTH)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

from conformance.runner.fingerprint.base import (
    MATCH_TOLERANCE,
    Answer,
    Config,
    Convention,
    Corpus,
    Diagnostic,
    Point,
    agrees,
    reference_prediction,
    registry_conventions,
    registry_name,
    words,
)
from conformance.suite.resolution import Resolution
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS

#: Zero precisions and smoothing: single segments with c >= r or known BP.
_ZERO = (
    Diagnostic(
        "p_4 = 0 only",
        ([words("a b c d e f")], [[words("a b c x d e f y")]]),
    ),
    Diagnostic("p_3 = p_4 = 0", ([words("a b c d e f g")], [[words("a b x c d y e f")]])),
    Diagnostic("every p_n in (0, 1)", ([words("a b c d e x a b c d")], [[words("a b c d e a b c d")]])),
    Diagnostic("no match at all", ([words("a b c d e")], [[words("v w x y z")]])),
    Diagnostic(
        "two segments, the last without 4-grams",
        ([words("a b c d e f"), words("a b")], [[words("a b c x d e f")], [words("a b")]]),
    ),
    # max(1, l_n) per segment (EC-015) shows only beside a segment without n-grams of some order, and
    # only when no precision is 0; no registry point scores this above 1 (an answer above 1 on the
    # unit scale is a fault: CONF-ROBUST)
    Diagnostic(
        "every order matches in part, beside a one-token segment",
        ([words("a b c d e f g"), words("x")], [[words("a b c d x f g")], [words("x")]]),
    ),
)


#: Undefined precisions: a two-token candidate (orders 3 and 4 have no n-grams), alone and in
#: a corpus whose pooled p_1 = 2/3; a three-token candidate matching at every order it has (only
#: order 4 without n-grams: nltk's method 6 needs a trigram match to score at all).
_UNDEFINED = (
    Diagnostic("c=2 < r=3, p_1 = p_2 = 1", ([words("a b")], [[words("a b c")]])),
    Diagnostic(
        "corpus of 2- and 1-token candidates", ([words("a b"), words("x")], [[words("a b")], [words("y")]])
    ),
    Diagnostic("c=3 < r=4, p_1 = p_2 = p_3 = 1", ([words("a b c")], [[words("a b c d")]])),
)

#: The axes FP-ZERO observes: its conventions are every registry point on them (CONF-FINGERPRINT's
#: search: a peer's zero behaviour, nltk's sentinel with its early return and max(1, l_n), is one).
#: What an order without n-grams gives is searched with them: a smoothing or max(1, l_n) makes such
#: an order a zero count, and a mean of sentence scores (EC-009's macro) meets one in every short
#: segment, so neither question can be read without the other's axes.
ZERO_AXES = ("zero_precision", "smoothing", "early_return", "denominator", "undefined_precision")


def _zero(config: Config) -> tuple[Convention, ...]:
    return registry_conventions(ZERO_AXES, config)


#: Every order 0/0 at once: an empty candidate with an empty reference (c = r = 0, outside BLEU's
#: domain). Only there do an undefined order counted as 1 (``one``: the score is BP = 1) and one left
#: out (``skip``, or effective order: no weighted order remains, 0) differ; a tool refusing c = 0
#: or r = 0 answers an error (``zero_length``, searched with it and settled again by FP-EMPTY-*).
_EVERY_ORDER_UNDEFINED = Diagnostic("c = r = 0: every order 0/0", ([[]], [[[]]]))
#: The axes FP-UNDEFINED observes.
UNDEFINED_AXES = ("undefined_precision", "zero_length")


def _undefined(config: Config) -> tuple[Convention, ...]:
    return registry_conventions(UNDEFINED_AXES, config)


#: Where a smoothing parameter is looked for: far beyond any value in use (sacrebleu's floor
#: 0.1, add-k 1, nltk's epsilon 0.1, coco's 1e-9 and 1e-15, a tensor library's 1e-13 live inside it).
SOLVED_RANGE = (1e-30, 1e30)


def _predictor(options: Config) -> Callable[[Config, Corpus], Answer]:
    def predict(config: Config, corpus: Corpus) -> Answer:
        return reference_prediction(config, corpus, **options)

    return predict


def solved_parameters(
    answers: Sequence[Answer], config: Config, point: Point, tolerance: float, resolution: Resolution
) -> list[Convention]:
    """For each one-parameter smoothing, the parameter that explains the first diagnostic, if it explains all.

    The parameter is found by bisection on a log scale over SOLVED_RANGE (the score is monotone
    in it), then written with 6 significant digits and checked on every diagnostic.
    """
    first = answers[0]
    if not isinstance(first, float):
        return []
    corpus = point.diagnostics[0].corpus
    found = []
    for name, method in SMOOTHING_METHODS.items():
        if method.parameter is None or method.tool:
            continue

        def at(log_value: float, name: str = name) -> float:
            value = Fraction(math.exp(log_value))  # exact: no rounding to 0 at the small end
            answer = reference_prediction(config, corpus, smoothing=name, smoothing_value=value)
            return answer if isinstance(answer, float) else math.nan

        low, high = math.log(SOLVED_RANGE[0]), math.log(SOLVED_RANGE[1])
        f_low, f_high = at(low) - first, at(high) - first
        if math.isnan(f_low) or math.isnan(f_high) or f_low * f_high > 0:
            continue
        for _ in range(80):
            mid = (low + high) / 2
            f_mid = at(mid) - first
            if (f_mid < 0) == (f_low < 0):
                low, f_low = mid, f_mid
            else:
                high = mid
        value = f"{math.exp((low + high) / 2):.6g}"
        options = {"smoothing": name, "smoothing_value": value, "zero_precision": "limit"}
        predicted = [reference_prediction(config, d.corpus, **options) for d in point.diagnostics]
        if all(
            agrees(a, b, max(MATCH_TOLERANCE, tolerance), resolution)
            for a, b in zip(answers, predicted, strict=True)
        ):
            found.append(
                Convention(
                    registry_name(("smoothing",), {"smoothing": name, "smoothing_value": value}),
                    _predictor(options),
                    options,
                    (),
                    method.spec_id,
                )
            )
    return found


ZERO = Point(
    "FP-ZERO",
    ("EC-002", "SMOOTH", "EC-011", "EC-003"),
    "what does a zero precision give: smoothing method and parameter?",
    _ZERO + _UNDEFINED,
    _zero,
    axes=ZERO_AXES,
    solve=solved_parameters,
)
UNDEFINED = Point(
    "FP-UNDEFINED",
    ("EC-003",),
    "what does an order without n-grams give (effective order)?",
    (*_UNDEFINED, _EVERY_ORDER_UNDEFINED),
    _undefined,
    axes=UNDEFINED_AXES,
)
