"""Fast sentence scores are the exact path's correctly rounded doubles (spec NUM-SENTENCE).

The oracle is the exact path, ``sentence_bleu(...).score`` with the API's own binary64 decision
switched off (:func:`exact_path`; NUM-EXACT: 50- and 80-digit decimal arithmetic, rounded
once), and for the plain points also mpmath at 300 bits, an
independent evaluation of the same formula. Inputs: generated corpora under many points of the
option space (every reference length rule, several smoothings, effective order, other weights,
tools' profiles), every WMT17 segment of the 16 shipped systems (slow), and values built to
lie on or within 10^-80 of a rounding boundary, which must go to the exact path. The API's
results whose double NUM-SENTENCE decided, with ``score_decimal`` computed on first access, are
the exact path's results, field by field.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import FrozenInstanceError
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.data import WMT17, read_lines
from conformance.suite.strategies import corpora
from reference_bleu import corpus_bleu, sentence_bleu
from reference_bleu.api import sentence_scores
from reference_bleu.cli.main import main
from reference_bleu.conventions.options import BleuOptions, make_options
from reference_bleu.conventions.space import Point
from reference_bleu.errors import BleuError
from reference_bleu.fast.counts import fast_statistics
from reference_bleu.formulas.exact import correctly_rounded, published
from reference_bleu.formulas.length import REF_LENGTH_RULES
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring import score as scoring_pass
from reference_bleu.scoring.decide import decide, decided_score, exp_bounds, plain_point
from reference_bleu.scoring.evaluation import conventional_bp
from reference_bleu.scoring.score import BleuResult, score
from reference_bleu.scoring.sentences import SentenceCounter
from reference_bleu.text.tokenizers import tokenize_line

Corpus = tuple[list[list[str]], list[list[list[str]]]]

#: Points of the option space: the integer path's (plain), the general decided path's and the exact path's.
POINTS: list[dict[str, Any]] = [
    {},
    {"smoothing": "exp"},
    {"smoothing": "exp", "effective_order": True},
    {"smoothing": "floor", "smoothing_value": "1/3"},
    {"smoothing": "add-k", "smoothing_value": 2},
    {"smoothing": "add-one", "max_order": 2},
    {"smoothing": "chen-cherry-1", "max_order": 5},
    {"smoothing": "chen-cherry-2", "effective_order": True, "max_order": 3},
    {"smoothing": "chen-cherry-3", "max_order": 1},
    {"smoothing": "chen-cherry-4"},
    {"smoothing": "chen-cherry-5"},
    {"smoothing": "chen-cherry-6"},
    {"smoothing": "chen-cherry-7", "effective_order": True},
    {"smoothing": "exp", "weights": ["1/2", "1/4", "1/8", "1/8"]},
    {"smoothing": "floor", "weights": [0.1, 0.2, 0.3, 0.4]},
    {"smoothing": "add-one", "weights": [0, 1, 0, 0]},
    {"zero_precision": "skip"},
    {"zero_precision": "sentinel"},
    {"zero_precision": "log-constant"},
    {"undefined_precision": "skip"},
    {"zero_length": "error", "smoothing": "exp"},
    {"empty_references": "drop", "smoothing": "floor"},
    {"undefined_precision": "one", "smoothing": "exp"},
    {"aggregation": "macro", "smoothing": "floor"},
    {"profile": "sacrebleu"},
    {"profile": "nltk"},
    {"profile": "nltk[method=4]"},
    {"profile": "coco"},
    {"profile": "sacrebleu-sentence"},
    {"profile": "nltk-sentence"},
    {"profile": "ignite"},
    {"profile": "mteval-13a"},
    {"profile": "torchmetrics"},
]


@contextmanager
def exact_path() -> Iterator[None]:
    """The API's results by the exact path alone (NUM-EXACT): its binary64 decision switched off, and
    BP evaluated in decimal even where it is exp(0) = 1."""

    def evaluated_bp(total: Statistics, options: BleuOptions) -> tuple[float, Decimal]:
        bp = correctly_rounded(lambda: conventional_bp(total, options))
        return float(bp), published(bp)

    with (
        mock.patch.object(scoring_pass, "_decided", return_value=None),
        mock.patch.object(scoring_pass, "_brevity_penalty", evaluated_bp),
    ):
        yield


def expected(hyps: list[list[str]], refs: list[list[list[str]]], **options: Any) -> list[float]:
    with exact_path():
        return [sentence_bleu(h, r, **options).score for h, r in zip(hyps, refs, strict=True)]


@given(corpora(max_segments=4), st.sampled_from(POINTS), st.sampled_from(REF_LENGTH_RULES))
def test_sentence_scores_equal_the_exact_path(corpus: Corpus, point: dict[str, Any], rule: str) -> None:
    hyps, refs = corpus
    options = point if "profile" in point else {**point, "ref_length": rule}
    try:
        want: list[float] | str = expected(hyps, refs, **options)
    except BleuError as error:  # a row the point refuses (EC-004's zero length): the batch refuses it too
        want = error.spec_id
    try:
        got: list[float] | str = sentence_scores(hyps, refs, **options)
    except BleuError as error:
        got = error.spec_id
    assert got == want


@pytest.mark.parametrize("point", POINTS, ids=[str(p) for p in POINTS])
def test_every_point_on_real_sentences(point: dict[str, Any]) -> None:
    """The first 150 WMT17 segments of one system, every point (the slow test runs them all)."""
    refs = [[tokenize_line(line, "13a")] for line in read_lines(WMT17, "ref.de")[:150]]
    hyps = [tokenize_line(line, "13a") for line in read_lines(WMT17, WMT17.systems[0])[:150]]
    assert sentence_scores(hyps, refs, **point) == expected(hyps, refs, **point)


@cache
def wmt17_tokens() -> tuple[list[list[list[str]]], list[list[str]]]:
    """Each WMT17 system's segments and the reference's, 13a-tokenized once per test process."""
    others = [[tokenize_line(x, "13a") for x in read_lines(WMT17, name)] for name in WMT17.systems]
    return others, [tokenize_line(x, "13a") for x in read_lines(WMT17, "ref.de")]


@cache
def wmt17(references: int) -> tuple[list[list[str]], list[list[list[str]]]]:
    """Every segment of every WMT17 system, against the reference and ``references - 1`` other systems."""
    others, ref = wmt17_tokens()
    hyps: list[list[str]] = []
    refs: list[list[list[str]]] = []
    for k, system in enumerate(others):
        extra = [others[(k + j) % len(others)] for j in range(1, references)]
        hyps.extend(system)
        refs.extend([r, *(e[i] for e in extra)] for i, r in enumerate(ref))
    return hyps, refs


def expected_by_statistics(hyps: list[list[str]], refs: list[list[list[str]]], **options: Any) -> list[float]:
    """:func:`expected`, with the exact path run once per distinct segment statistics.

    ``sentence_bleu`` scores a row from its statistics alone (the counts of BLEU-EVAL, which
    ``bleu_at`` takes from ``fast_statistics``), so rows with the same statistics have
    the same exact score: the first of them is scored by ``sentence_bleu`` itself, and its score
    is the expected value of each. Of WMT17's 48,064 rows about 26,000 have statistics of their
    own (25,000 with 4 references), so the exact path, this test's cost, runs about half as
    often. The repeated rows at every 97th index are still scored by ``sentence_bleu``, a check
    of that premise on the data.
    """
    opts = make_options(**options)
    segments = fast_statistics(
        hyps, refs, opts.statistics_orders, opts.ref_length, rules=opts.segment_rules, keep_segments=True
    )
    assert len(segments) == len(hyps)
    scores: dict[Statistics, float] = {}
    result = []
    with exact_path():
        for i, (hyp, row, stats) in enumerate(zip(hyps, refs, segments, strict=True)):
            if stats not in scores:
                scores[stats] = sentence_bleu(hyp, row, **options).score
            elif i % 97 == 0:
                assert sentence_bleu(hyp, row, **options).score == scores[stats], i
            result.append(scores[stats])
    return result


@pytest.mark.slow
@pytest.mark.parametrize(
    ("point", "references"),
    [
        ({"smoothing": "exp", "effective_order": True}, 1),
        ({"smoothing": "exp", "effective_order": True}, 4),
        ({}, 1),
        ({"smoothing": "floor"}, 4),
        ({"smoothing": "add-k", "weights": ["1/2", "1/4", "1/8", "1/8"]}, 1),
    ],
    ids=str,
)
def test_all_wmt17_segments(point: dict[str, Any], references: int) -> None:
    """All 48,064 segments of the 16 systems: no row differs from the exact path, and none falls back."""
    hyps, refs = wmt17(references)
    counter = SentenceCounter()
    want = expected_by_statistics(hyps, refs, **point)
    assert sentence_scores(hyps, refs, counter=counter, **point) == want
    assert counter.rows == len(hyps)
    assert counter.unsupported == 0


def mp_bleu(hyp: list[str], refs: list[list[str]]) -> float:
    """sacrebleu's sentence point (exp smoothing, effective order) by mpmath at 300 bits, from the counts."""
    result = sentence_bleu(hyp, refs, smoothing="exp", effective_order=True)
    p = exact_plain_precisions(result.matches, result.totals)
    c, r = result.hyp_len, result.ref_len
    with mpmath.workprec(300):
        total = mpmath.mpf(0) if c >= r else 1 - mpmath.mpf(r) / c
        for p_n in p:  # the weights are 1/k over the k orders with n-grams (effective order)
            total += (mpmath.log(p_n.numerator) - mpmath.log(p_n.denominator)) / len(p)
        return float(mpmath.exp(total))


def exact_plain_precisions(matches: tuple[int, ...], totals: tuple[int, ...]) -> list[Fraction]:
    """sacrebleu's exp smoothing written out (Chen and Cherry's method 3): the k-th zero order is 1/(2^k l_n)."""
    p, k = [], 0
    for m, t in zip(matches, totals, strict=True):
        if t == 0:
            break
        if m:
            p.append(Fraction(m, t))
        else:
            k += 1
            p.append(Fraction(1, 2**k * t))
    return p


def test_sentence_scores_equal_mpmath_on_real_sentences() -> None:
    refs = [[tokenize_line(line, "13a")] for line in read_lines(WMT17, "ref.de")[:200]]
    hyps = [tokenize_line(line, "13a") for line in read_lines(WMT17, WMT17.systems[3])[:200]]
    scores = sentence_scores(hyps, refs, smoothing="exp", effective_order=True)
    assert scores == [mp_bleu(h, r) for h, r in zip(hyps, refs, strict=True)]


# --- rounding boundaries ------------------------------------------------------------------------


def test_a_value_on_a_midpoint_rounds_to_even() -> None:
    """(1 - 2^-54)^4 under four orders with weight 1/4: BLEU = 1 - 2^-54, halfway between 1 - 2^-53 and 1.

    The integers show it is the midpoint exactly, so the tie goes to the even neighbour, 1.0
    (1.0's significand is 2^52; that of 1 - 2^-53 is 2^53 - 1). The decimal evaluation of
    the exact path never lands on a midpoint; it cannot settle this input, which no text
    produces (a denominator of 2^54 n-grams).
    """
    N = 2**54 - 1
    stats = Statistics((N,) * 4, (2**54,) * 4, 2**54, 2**54)
    assert decided_score(stats, make_options()) == 1.0
    assert decide(0.0, 4, N**4, 2**216, None) == 1.0
    # One unit more in the numerator of one precision, and the value is just above the midpoint:
    # decided exactly (integers), it rounds up; one unit less, it rounds down.
    assert decide(0.0, 4, N**3 * (N + 1), 2**216, None) == 1.0
    assert decide(0.0, 4, N**3 * (N - 1), 2**216, None) == 1 - 2**-53
    # 3/2^54 + ... : a tie between two odd-and-even neighbours above 1/2, from the other side.
    odd = 2**53 + 1  # (2^53 + 1)·2^-53 = 1 + 2^-53 is a midpoint between 1 and 1 + 2^-52
    assert decide(0.0, 1, odd, 2**53, None) == 1.0
    odd = 2**53 + 3  # 1 + 3·2^-53: between 1 + 2^-52 (odd significand) and 1 + 2^-51 (even)
    assert decide(0.0, 1, odd, 2**53, None) == 1 + 2**-51


def test_a_value_within_the_exp_interval_of_a_midpoint_goes_to_the_exact_path() -> None:
    """BLEU = exp(1 - 2/1) · p_1 with p_1 = floor(m·e·2^400) / 2^400: BLEU lies below the midpoint m, within 2^-400.

    The correctly rounded double is therefore 0.3 (m lies between 0.3 and the next double up).
    """
    midpoint = Fraction(0.3) + Fraction(2**-55)  # 0.3's double is in [1/4, 1/2): ulp 2^-54
    with mpmath.workprec(600):
        target = mpmath.mpf(midpoint.numerator) / midpoint.denominator * mpmath.e  # p_1 = m / e^-1
        numerator = int(mpmath.floor(target * 2**400))
    stats = Statistics((numerator,), (2**400,), 1, 2)
    options = make_options(max_order=1)
    assert decided_score(stats, options) is None
    # The exact path decides it: its digits rise until the value is clear of the midpoint.
    assert score(Point.of(options), [stats]).score == 0.3
    bounds = exp_bounds(-1, 1)  # the interval around e^-1 is about 10^-38 wide, relative
    assert bounds is not None
    low, high, scale = bounds
    assert Fraction(high - low, scale) < Fraction(1, 10**37)


def test_exp_bounds_hold_exp() -> None:
    """The interval holds e^x, checked at 300 bits by mpmath, for arguments from -1/1000 to -4,000."""
    for numerator, denominator in [(-1, 1000), (-1, 3), (-7, 2), (-200, 7), (-4000, 1), (-3, 17)]:
        bounds = exp_bounds(numerator, denominator)
        assert bounds is not None
        low, high, scale = bounds
        with mpmath.workprec(300):
            value = mpmath.exp(mpmath.mpf(numerator) / denominator)
            assert mpmath.mpf(low) / scale < value < mpmath.mpf(high) / scale


def test_the_fallback_runs_when_the_interval_is_too_wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 16 digits the exp interval spans several doubles: rows with BP < 1 fall back, still exact."""
    import reference_bleu.scoring.decide as module  # noqa: PLC0415

    def forget() -> None:  # every value remembered from exp_bounds
        for cached in (module.exp_bounds, module.powered_bounds, module.exp_rounded):
            cached.cache_clear()

    monkeypatch.setattr(module, "EXP_DIGITS", 16)
    forget()
    try:
        refs = [[tokenize_line(line, "13a")] for line in read_lines(WMT17, "ref.de")[:200]]
        hyps = [tokenize_line(line, "13a") for line in read_lines(WMT17, WMT17.systems[1])[:200]]
        counter = SentenceCounter()
        options: dict[str, Any] = {"smoothing": "exp", "effective_order": True}
        assert sentence_scores(hyps, refs, counter=counter, **options) == expected(hyps, refs, **options)
        shorter = sum(len(h) < len(r[0]) for h, r in zip(hyps, refs, strict=True))
        assert 0 < counter.fallback <= shorter  # only rows with BP < 1 take exp
    finally:
        forget()


# --- the API around it ----------------------------------------------------------------------------


def test_plain_points() -> None:
    assert plain_point(make_options(smoothing="exp", effective_order=True)) is not None
    assert plain_point(make_options(smoothing="chen-cherry-4")) is None
    assert plain_point(make_options(weights=["1/2", "1/2", 0, 0])) is None


def test_errors_name_the_row_and_inputs_are_not_changed() -> None:
    hyps = [["a", "b"], ["c"]]
    refs = [[["a", "b"]], []]
    with pytest.raises(ValueError, match=r"BLEU-INPUT|EC-006"):
        sentence_scores(hyps, refs)
    assert hyps == [["a", "b"], ["c"]]
    assert refs == [[["a", "b"]], []]


def test_an_empty_reference_is_an_error_where_the_point_says_so() -> None:
    """EC-004 under ``zero_length="error"``: r = 0 makes r / c meaningless for the tool; the row names it."""
    with pytest.raises(ValueError, match="EC-004"):
        sentence_scores([["a"], ["b"]], [[["a"]], [[]]], zero_length="error")
    assert sentence_scores([["a"]], [[[]]]) == expected([["a"]], [[[]]])


def test_an_empty_batch_has_no_scores() -> None:
    assert sentence_scores([], []) == []


@pytest.mark.parametrize(
    "flags",
    [
        [],
        ["-s", "exp", "--effective-order", "--scale", "percent"],
        ["-s", "floor", "-w", "3"],
        ["-s", "chen-cherry-4"],
    ],
    ids=str,
)
def test_score_sl_prints_each_rows_exact_result(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``score -sl`` (spec CLI-OUTPUT) on the batch path prints what each row's exact result prints."""
    ref_lines = read_lines(WMT17, "ref.de")[:200]
    hyp_lines = read_lines(WMT17, WMT17.systems[2])[:200]
    ref, hyp = tmp_path / "ref", tmp_path / "hyp"
    ref.write_text("".join(line + "\n" for line in ref_lines), encoding="utf-8")
    hyp.write_text("".join(line + "\n" for line in hyp_lines), encoding="utf-8")
    assert main(["score", "-sl", "-b", "-tok", "13a", "-r", str(ref), "-i", str(hyp), *flags]) == 0
    printed = capsys.readouterr().out.splitlines()
    options: dict[str, Any] = {}
    if "exp" in flags:
        options = {"smoothing": "exp", "effective_order": True, "scale": "percent"}
    elif "floor" in flags:
        options = {"smoothing": "floor", "round_digits": 3}
    elif "chen-cherry-4" in flags:
        options = {"smoothing": "chen-cherry-4"}
    with exact_path():
        expected_texts = [
            sentence_bleu(tokenize_line(h, "13a"), [tokenize_line(r, "13a")], **options).reported_text
            for h, r in zip(hyp_lines, ref_lines, strict=True)
        ]
    assert printed == expected_texts


# --- BleuResult: the double decided in binary64, score_decimal computed on first access -----------


def fields_of(result: BleuResult) -> tuple[object, ...]:
    """Every value a result shows, score_decimal included (equality leaves it out: it follows)."""
    decimals = (str(result.score_decimal), str(result.brevity_penalty_decimal))  # their digits as printed
    return (
        result,
        result.score,
        result.score_decimal,
        decimals,
        result.reported_text,
        result.smoothed_precisions,
    )


@given(corpora(max_segments=4), st.sampled_from(POINTS), st.booleans())
def test_api_results_equal_the_exact_paths_field_by_field(
    corpus: Corpus, point: dict[str, Any], whole_corpus: bool
) -> None:
    """corpus_bleu and sentence_bleu with the decision (and a lazy score_decimal) give the exact path's
    results: the same double, the same 40 digits, BP, precisions, weights, reported text and errors."""
    hyps, refs = corpus

    def results() -> list[object]:
        try:
            if whole_corpus:
                return [fields_of(corpus_bleu(hyps, refs, **point))]
            return [fields_of(sentence_bleu(h, r, **point)) for h, r in zip(hyps, refs, strict=True)]
        except BleuError as error:
            return [error.spec_id]

    with exact_path():
        want = results()
    assert results() == want


def test_score_decimal_is_computed_on_first_access_once_and_cannot_be_set() -> None:
    result = sentence_bleu(
        "the cat sat on a mat".split(), ["the cat sat on the mat".split()], smoothing="exp"
    )
    assert callable(result._score_decimal)  # decided in binary64: no decimal evaluation yet
    value = result.score_decimal
    assert isinstance(value, Decimal)
    assert isinstance(result._score_decimal, Decimal)  # kept: the evaluation runs once
    assert result.score_decimal is value
    with exact_path():
        exact = sentence_bleu(
            "the cat sat on a mat".split(), ["the cat sat on the mat".split()], smoothing="exp"
        )
    assert isinstance(exact._score_decimal, Decimal)
    assert (value, result.score) == (exact.score_decimal, exact.score)
    with pytest.raises(FrozenInstanceError):
        result.score_decimal = Decimal(1)
    with pytest.raises(FrozenInstanceError):
        result._score_decimal = Decimal(1)


def test_a_result_pickles_with_its_score_decimal() -> None:
    """A result not yet asked for its decimal holds a closure; pickling computes the value first."""
    result = corpus_bleu([["a", "b", "c"]], [[["a", "b", "d"]]], smoothing="floor")
    assert callable(result._score_decimal)
    copy = pickle.loads(pickle.dumps(result))  # noqa: S301 -- our own bytes
    assert isinstance(copy._score_decimal, Decimal)
    assert fields_of(copy) == fields_of(result)


# --- per-call costs: BP decided from the interval, options validated once ----------------------------


def test_bp_from_the_interval_is_the_correctly_rounded_double_and_decimal() -> None:
    """exp(q) for log BP = q = 1 - r/c: the double and the 40 significant digits are those mpmath gives at
    300 bits, correctly rounded (half-even), for every ratio of lengths up to 60 and a few extremes."""
    from reference_bleu.scoring.decide import exp_rounded  # noqa: PLC0415

    ratios = {Fraction(c - r, c) for c in range(1, 61) for r in range(c + 1, 61)}
    ratios |= {Fraction(-1, 10**6), Fraction(-3999, 1), Fraction(-12345, 678)}
    decided = 0
    for q in sorted(ratios):
        rounded = exp_rounded(q.numerator, q.denominator)
        if rounded is None:
            continue
        decided += 1
        double, digits = rounded
        with mpmath.workprec(300):
            value = mpmath.exp(mpmath.mpf(q.numerator) / q.denominator)
            assert double == float(value)  # mpmath's float() of a 300-bit value: round to nearest
            exact = Decimal(mpmath.nstr(value, 80, min_fixed=1, max_fixed=0).replace("e", "E"))
        assert digits == published(exact), q
        assert len(digits.as_tuple().digits) == 40, q
    assert decided == len(ratios) - 1  # the 10^-48 interval decides all but exp(-3999), below a double


def test_options_and_points_are_validated_once_per_distinct_set() -> None:
    """make_options and resolve_point remember their answers by value and type: the same set gives the
    same object; True and 1, a list and its tuple of other types, are told apart; a former name still
    warns at every call; refused values still raise at every call."""
    from reference_bleu.conventions.space import resolve_point  # noqa: PLC0415

    first = make_options(smoothing="exp", weights=[0.5, 0.5])
    assert make_options(smoothing="exp", weights=[0.5, 0.5]) is first
    assert make_options(smoothing="exp", weights=(0.5, 0.5)) == first  # the same value, another key
    assert make_options(effective_order=True).effective_order is True
    for _ in range(2):
        with pytest.raises(BleuError, match="True or False"):
            make_options(effective_order=1)
        with pytest.warns(DeprecationWarning, match="'empty_refs' is now called"):
            make_options(empty_refs="drop")
    point = resolve_point("sacrebleu", {"smoothing": "floor"}, {"lowercase": "unicode"})
    assert resolve_point("sacrebleu", {"smoothing": "floor"}, {"lowercase": "unicode"}) is point
    assert resolve_point("sacrebleu", {"smoothing": "floor"}).text_conventions["lowercase"] == "none"
    assert resolve_point("nltk", {"smoothing": "floor"}).profile == "nltk"
