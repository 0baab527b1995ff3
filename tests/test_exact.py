"""Exactness: rationals to the end, one rounding, and limits as values (spec NUM-EXACT)."""

from __future__ import annotations

import ast
import importlib
import inspect
from decimal import Context, Decimal, getcontext, localcontext
from fractions import Fraction

import mpmath
from hypothesis import given
from hypothesis import strategies as st

import reference_bleu
from reference_bleu import Statistics, score_statistics
from reference_bleu.formulas.exact import correctly_rounded, ln

MODULES = [
    "formulas.counting",
    "formulas.length",
    "formulas.combination",
    "formulas.smoothing",
    "formulas.statistics",
    "scoring.evaluation",
    "formulas.inputs",
    "conventions.options",
]


@st.composite
def statistics(draw: st.DrawFn) -> Statistics:
    totals = [draw(st.integers(1, 60))]
    for _ in range(3):
        totals.append(draw(st.integers(max(0, totals[-1] - 8), totals[-1])))
    matches = [draw(st.integers(1, t)) if t else 0 for t in totals]
    c = totals[0]
    return Statistics(tuple(matches), tuple(totals), c, draw(st.integers(1, 2 * c)))


def mpmath_bleu(stats: Statistics) -> float:
    with mpmath.workdps(80):
        log = mpmath.mpf(0)
        for m, t in zip(stats.matches, stats.totals, strict=True):
            if t == 0:
                return 0.0
            log += mpmath.log(mpmath.mpf(m) / t) / 4
        c, r = stats.hyp_len, stats.ref_len
        if c < r:
            log += 1 - mpmath.mpf(r) / c
        return float(mpmath.exp(log))


@given(statistics())
def test_float_score_is_the_correctly_rounded_exact_value(stats: Statistics) -> None:
    assert score_statistics([stats]).score == mpmath_bleu(stats)


def test_a_perfect_corpus_scores_exactly_one_not_one_plus_epsilon() -> None:
    result = reference_bleu.corpus_bleu([["a", "b", "c", "d"]] * 3, [[["a", "b", "c", "d"]]] * 3)
    assert result.score == 1.0
    assert result.score_decimal == 1


def test_ln_of_zero_is_minus_infinity_not_a_sentinel() -> None:
    assert ln(Fraction(0)) == Decimal("-Infinity")
    assert Decimal("-Infinity").exp() == 0


def test_correctly_rounded_raises_precision_until_two_runs_agree() -> None:
    seen: list[int] = []

    def unstable() -> Decimal:
        # Differs in the 30th digit between 50 and 80 digits; agrees from 80 digits on.
        precision = getcontext().prec
        seen.append(precision)
        return Decimal(1) / 3 + (Decimal("1e-30") if precision < 80 else 0)

    with localcontext(Context(prec=28)):
        value = correctly_rounded(unstable)
    assert seen == [50, 80, 110]
    assert float(value) == 1 / 3


def test_no_float_literal_or_float_call_before_the_final_rounding() -> None:
    # The formula modules build no float: no float literal, no float() call. Floats appear
    # only where the API and CLI present a finished result.
    for name in MODULES:
        module = importlib.import_module(f"reference_bleu.{name}")
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            assert not (isinstance(node, ast.Constant) and isinstance(node.value, float)), (name, node.lineno)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float":
                # Only an error message of BLEU-WEIGHTS prints a sum of weights as a float.
                assert name == "formulas.combination", (name, node.lineno)
