"""FP-WEIGHTS: the order N and the weights w_n a target combines its precisions with (spec BLEU-WEIGHTS,
EC-007): uniform 1/N of any N, non-uniform, or an unnormalised sum used as given.

The diagnostics are single segments whose every order up to 6 matches in part (no zero count, no
order without n-grams) with the candidate one token longer than its reference (BP = 1 under every
rule), so that log BLEU = Σ w_n log p̃_n exactly, where p̃_n is the precision after the target's
smoothing. The paper's weights are tried first; else, for each smoothing of the registry (the
target's is found only later, FP-ZERO, and some change every precision: add-k, chen-cherry-2,
...), each p̃_n is predicted by the reference with the one-hot weight on order n, the weights are
solved from the answers by least squares and written as the simplest fractions (denominators up to
1000) with which the reference predicts every answer. The words are plain lower-case
letters without punctuation, the same tokens under every tokenizer but ``char``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from conformance.runner.fingerprint.base import (
    Answer,
    Config,
    Convention,
    Corpus,
    Diagnostic,
    Point,
    agrees,
    reference_prediction,
    words,
)
from conformance.suite.resolution import Resolution
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS

#: Orders the solver allows for (N-gram BLEU with N up to 6; N = 4 for nltk's methods 5 to 7).
MOST_ORDERS = 6
#: The denominators solved weights are written with, the simplest first: the first that predicts every
#: answer is kept (1/3 rather than 333/1000 from rounded answers; 0.33 is 33/100). Up to 24, the
#: nearest fraction of at most that denominator; 100 and 1000 are decimals as people write weights
#: (0.33, 0.333), exactly that denominator: never a fraction such as 333/998, which seven equations
#: in six weights can fit to any noise (a target off by a unit of its last printed digit).
DENOMINATORS = (*range(1, 13), 16, 20, 24, 100, 1000)
#: From this denominator on, weights are decimals (exactly that denominator).
DECIMAL_DENOMINATORS = 100


def _diagnostic(name: str, hypothesis: str, replaced: Sequence[int]) -> Diagnostic:
    """A 17-token candidate and its reference: the candidate without its last token, the tokens at
    ``replaced`` changed (a run of 6 left untouched, so that order 6 matches), so that each order's
    matches fall by the n-grams covering them."""
    hyp = words(hypothesis)
    ref = list(hyp[:-1])
    for k in replaced:
        ref[k] = "z" + ref[k]
    return Diagnostic(name, ([hyp], [[ref]]))


_BASE = "p q r s t u v w x y m n o k l j i"
_WEIGHTS = (
    _diagnostic("one token changed at 2", _BASE, (2,)),
    _diagnostic("one token changed at 9", _BASE, (9,)),
    _diagnostic("two tokens changed, 1 and 12", _BASE, (1, 12)),
    _diagnostic("two tokens changed, 0 and 7", _BASE, (0, 7)),
    _diagnostic("two tokens changed, 2 and 10", _BASE, (2, 10)),
    _diagnostic("one token changed at 14", _BASE, (14,)),
    _diagnostic("two tokens changed, 3 and 13", _BASE, (3, 13)),
)

#: The paper's N and weights.
PAPER = Convention(
    "the paper's: N = 4, uniform weights 1/4",
    lambda config, corpus: reference_prediction(config, corpus, max_order=4, weights=None),
    {},
    spec="BLEU-WEIGHTS",
)


def _weights(config: Config) -> tuple[Convention, ...]:
    return (PAPER,)


def _one_hot(orders: int, n: int) -> list[str]:
    return ["1" if k == n else "0" for k in range(orders)]


def _solve(matrix: list[list[float]], values: list[float]) -> list[float] | None:
    """The least-squares solution of ``matrix`` x = ``values`` (normal equations, Gaussian elimination
    with partial pivoting), or None when the system is singular."""
    size = len(matrix[0])
    normal = [[sum(row[i] * row[j] for row in matrix) for j in range(size)] for i in range(size)]
    right = [sum(row[i] * v for row, v in zip(matrix, values, strict=True)) for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(normal[r][col]))
        if abs(normal[pivot][col]) < 1e-12:
            return None
        normal[col], normal[pivot] = normal[pivot], normal[col]
        right[col], right[pivot] = right[pivot], right[col]
        for r in range(col + 1, size):
            factor = normal[r][col] / normal[col][col]
            for c in range(col, size):
                normal[r][c] -= factor * normal[col][c]
            right[r] -= factor * right[col]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        x[r] = (right[r] - sum(normal[r][c] * x[c] for c in range(r + 1, size))) / normal[r][r]
    return x


def _written(weights: Sequence[float], denominator: int) -> list[Fraction]:
    """Solved weights as the nearest fractions of denominator at most ``denominator`` (a decimal of
    exactly that denominator from DECIMAL_DENOMINATORS on), zeros exact."""
    if denominator >= DECIMAL_DENOMINATORS:
        return [
            Fraction(round(w * denominator), denominator) if abs(w) > 1e-6 else Fraction(0) for w in weights
        ]
    return [Fraction(w).limit_denominator(denominator) if abs(w) > 1e-6 else Fraction(0) for w in weights]


def _options(weights: Sequence[Fraction]) -> dict[str, Any] | None:
    """The reference's options for solved weights: N up to the last weighted order, the weights
    themselves unless uniform (unnormalised when they do not sum to 1); None for weights no BLEU
    takes (negative, or none weighted)."""
    if any(w < 0 for w in weights) or not any(weights):
        return None
    orders = max(k for k, w in enumerate(weights) if w) + 1
    kept = list(weights[:orders])
    total = sum(kept, Fraction(0))
    if total == 1 and all(w == kept[0] for w in kept):
        return {"max_order": orders}
    options: dict[str, Any] = {"max_order": orders, "weights": [str(w) for w in kept]}
    if total != 1:
        options["unnormalized_weights"] = True
    return options


def _shown(value: Any) -> str:
    """An option's value as the row shows it: weights joined by commas."""
    return ",".join(value) if isinstance(value, list) else str(value)


def _predicted(options: Config, config: Config, corpus: Corpus) -> Answer:
    return reference_prediction(config, corpus, **options)


def _log_precisions(config: Config, point: Point, smoothing: str) -> list[list[float]] | None:
    """Each diagnostic's log p̃_n for n = 1 .. N (N = 6, or 4 under a smoothing written for 4-gram BLEU),
    as the reference computes them under ``smoothing``; None when one is zero or undefined."""
    orders = 4 if SMOOTHING_METHODS[smoothing].needs_last_segment else MOST_ORDERS
    matrix = []
    for diagnostic in point.diagnostics:
        row = []
        for n in range(orders):
            p = reference_prediction(
                config, diagnostic.corpus, smoothing=smoothing, max_order=orders, weights=_one_hot(orders, n)
            )
            if not isinstance(p, float) or p <= 0:
                return None
            row.append(math.log(p))
        matrix.append(row)
    return matrix


def _written_options(solution: Sequence[float]) -> list[Config]:
    """The options the solved weights may stand for, the simplest fractions first (DENOMINATORS)."""
    found: list[Config] = []
    for denominator in DENOMINATORS:
        options = _options(_written(solution, denominator))
        if options == {"max_order": 4}:
            options = {}  # the paper's, under a smoothing that moves every precision (add-k)
        if options is not None and options not in found:
            found.append(options)
    return found


def solved_weights(
    answers: Sequence[Answer], config: Config, point: Point, tolerance: float, resolution: Resolution
) -> list[Convention]:
    """The N and weights that explain every answer, under some smoothing of the registry (the first
    that does, no smoothing first); the convention sets the weights alone (FP-ZERO finds the smoothing)."""
    if not all(isinstance(a, float) and a > 0 for a in answers):
        return []
    values = [math.log(a) for a in answers if isinstance(a, float)]
    for smoothing in ["none", *(name for name in SMOOTHING_METHODS if name != "none")]:
        matrix = _log_precisions(config, point, smoothing)
        solution = None if matrix is None else _solve(matrix, values)
        for options in [] if solution is None else _written_options(solution):
            predicted = [
                reference_prediction(config, d.corpus, smoothing=smoothing, **options)
                for d in point.diagnostics
            ]
            if all(agrees(a, b, tolerance, resolution) for a, b in zip(answers, predicted, strict=True)):
                shown = ", ".join(f"{k}={_shown(v)}" for k, v in options.items()) or PAPER.name
                if smoothing != "none":
                    shown += f" (solved under smoothing={smoothing})"
                return [
                    Convention(shown, functools.partial(_predicted, options), options, spec="BLEU-WEIGHTS")
                ]
    return []


WEIGHTS = Point(
    "FP-WEIGHTS",
    ("BLEU-WEIGHTS", "EC-007"),
    "which order N and weights w_n combine the precisions?",
    _WEIGHTS,
    _weights,
    axes=("max_order", "weights"),
    solve=solved_weights,
)
