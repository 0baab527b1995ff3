"""Each formula function against values computed by hand, written out here (spec BLEU-*, SMOOTH-*)."""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

import mpmath
import pytest

from reference_bleu.errors import BleuOptionError
from reference_bleu.formulas.combination import (
    bleu,
    cumulative_weights,
    effective_order_weights,
    individual_weights,
    log_bleu,
    weights_w_n,
)
from reference_bleu.formulas.counting import (
    NGramCounts,
    corpus_modified_precision,
    count,
    count_clip,
    max_ref_count,
    modified_precision,
    ngrams,
)
from reference_bleu.formulas.length import (
    best_match_length,
    brevity_penalty,
    candidate_length,
    effective_reference_length,
    log_brevity_penalty,
)
from reference_bleu.formulas.smoothing import (
    add_k_smoothing,
    add_one_smoothing,
    exp_smoothing,
    floor_smoothing,
    no_smoothing,
    smoothing_method_1,
    smoothing_method_2,
    smoothing_method_3,
    smoothing_method_4,
    smoothing_method_5,
    smoothing_method_6,
    smoothing_method_7,
)
from reference_bleu.formulas.statistics import Statistics, corpus_statistics, segment_statistics

F = Fraction


def close(value: Decimal | Fraction, expected: str, digits: int = 40) -> bool:
    """``value`` equals mpmath's evaluation of ``expected`` to ``digits`` digits."""
    with mpmath.workdps(digits + 10):
        target = mpmath.mpf(eval(expected, {"log": mpmath.log, "exp": mpmath.exp, "mpf": mpmath.mpf}))  # noqa: S307
        return bool(abs(mpmath.mpf(str(value)) - target) <= mpmath.mpf(10) ** (-digits))


# BLEU-NGRAM, BLEU-COUNT ------------------------------------------------------------------------


def test_ngrams_are_the_len_minus_n_plus_1_windows() -> None:
    assert ngrams(["a", "b", "c", "d"], 3) == [("a", "b", "c"), ("b", "c", "d")]
    assert ngrams(["a", "b"], 2) == [("a", "b")]
    assert ngrams(["a", "b"], 3) == []
    assert ngrams([], 1) == []


def test_count_counts_repeated_ngrams() -> None:
    assert count("a b a b a".split(), 2) == {("a", "b"): 2, ("b", "a"): 2}


# BLEU-MAX-REF-COUNT, BLEU-CLIP -----------------------------------------------------------------


def test_max_ref_count_is_the_maximum_over_single_references_not_the_sum() -> None:
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    # "the": 2 in the first, 1 in the second -> 2 (not 3); "cat": 1 and 1 -> 1 (not 2).
    assert max_ref_count(refs, 1)[("the",)] == 2
    assert max_ref_count(refs, 1)[("cat",)] == 1
    assert max_ref_count(refs, 1)[("dog",)] == 0


def test_count_clip_is_the_minimum() -> None:
    assert count_clip(7, 2) == 2
    assert count_clip(1, 3) == 1
    assert count_clip(4, 0) == 0


# BLEU-PREC, BLEU-PREC-CORPUS -------------------------------------------------------------------


def test_modified_precision_of_the_papers_example_2() -> None:
    # Seven "the" against "the cat is on the mat" / "there is a cat on the mat": 2/7.
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    assert modified_precision(["the"] * 7, refs, 1) == (2, 7)
    assert modified_precision(["the"] * 7, refs, 2) == (0, 6)


def test_modified_precision_keeps_0_of_0() -> None:
    assert modified_precision(["a"], [["a", "b"]], 2) == NGramCounts(0, 0)


def test_corpus_precision_sums_numerators_and_denominators() -> None:
    # Paper sec. 2.1.1: 17/18 and 8/14 give 25/32, not the mean of 0.944 and 0.571.
    assert corpus_modified_precision([NGramCounts(17, 18), NGramCounts(8, 14)]) == (25, 32)
    assert corpus_modified_precision([]) == (0, 0)


# BLEU-LEN-C, BLEU-LEN-BEST, BLEU-LEN-R ---------------------------------------------------------


def test_candidate_length_counts_tokens() -> None:
    assert candidate_length([]) == 0
    assert candidate_length("a b c".split()) == 3


@pytest.mark.parametrize(
    ("rule", "lengths", "expected"),
    [
        ("closest", [13, 11], 11),  # tie 11/13 against 12: the shorter
        ("closest-longer", [11, 13], 13),
        ("closest-first", [13, 11], 13),
        ("closest-first", [11, 13], 11),
        ("shortest", [13, 11, 20], 11),
        ("longest", [13, 11, 20], 20),
        ("average", [11, 13, 14], F(38, 3)),
        ("closest", [7, 16, 20], 16),  # no tie: every closest rule agrees
        ("closest-longer", [7, 16, 20], 16),
    ],
)
def test_best_match_length_rules(rule: str, lengths: list[int], expected: int | Fraction) -> None:
    c = 15 if lengths == [7, 16, 20] else 12
    assert best_match_length(c, lengths, rule) == expected  # type: ignore[arg-type]


def test_effective_reference_length_is_the_sum() -> None:
    assert effective_reference_length([18, 16]) == 34
    assert effective_reference_length([F(1, 2), 3]) == F(7, 2)


# BLEU-BP-LOG, BLEU-BP ------------------------------------------------------------------------


def test_log_brevity_penalty() -> None:
    assert log_brevity_penalty(32, 34) == F(-1, 16)  # 1 - 34/32
    assert log_brevity_penalty(20, 18) == 0  # c > r
    assert log_brevity_penalty(18, 18) == 0  # c = r: both branches give 0 (EC-008)
    assert log_brevity_penalty(0, 5) is None  # -infinity (EC-004)
    assert log_brevity_penalty(0, 0) == 0


def test_brevity_penalty_is_exp_of_the_log_form() -> None:
    with localcontext() as ctx:
        ctx.prec = 50
        assert close(brevity_penalty(14, 16), "exp(mpf(-1)/7)")
        assert brevity_penalty(16, 14) == 1
        assert brevity_penalty(0, 1) == 0


# BLEU-WEIGHTS, BLEU-INDIVIDUAL, BLEU-CUMULATIVE, BLEU-EFFECTIVE-ORDER -------------------------


def test_weights_default_to_uniform() -> None:
    assert weights_w_n(3) == (F(1, 3),) * 3
    assert weights_w_n(1) == (F(1),)


def test_weights_accept_exact_strings_and_float_thirds() -> None:
    assert weights_w_n(3, ["1/3", "1/3", "1/3"]) == (F(1, 3),) * 3
    thirds = weights_w_n(3, [1 / 3, 1 / 3, 1 / 3])
    assert thirds == (F(1 / 3),) * 3  # used at their exact binary value, not renormalised
    assert sum(thirds) != 1


@pytest.mark.parametrize(
    ("N", "weights"),
    [
        (0, None),
        (-1, None),
        (True, None),
        (2.0, None),
        (2, ["1/2"]),
        (2, ["1/2", "1/4"]),
        (2, ["3/2", "-1/2"]),
        (2, [0, 0]),
        (1, [float("nan")]),
        (1, [float("inf")]),
        (1, ["one"]),
        (1, [None]),
        (1, "1"),
    ],
)
def test_invalid_n_or_weights_raise_naming_bleu_weights(N: object, weights: object) -> None:
    with pytest.raises(BleuOptionError, match=r"spec BLEU-WEIGHTS"):
        weights_w_n(N, weights)  # type: ignore[arg-type]


def test_unnormalized_weights_are_used_as_given() -> None:
    assert weights_w_n(2, ["0.33", "0.33"], sum_to_one=False) == (F(33, 100), F(33, 100))


def test_individual_and_cumulative_weights() -> None:
    assert individual_weights(3, 4) == (F(0), F(0), F(1), F(0))
    assert cumulative_weights(3, 4) == (F(1, 3), F(1, 3), F(1, 3), F(0))
    with pytest.raises(BleuOptionError, match="BLEU-INDIVIDUAL"):
        individual_weights(5, 4)
    with pytest.raises(BleuOptionError, match="BLEU-CUMULATIVE"):
        cumulative_weights(0, 4)


def test_effective_order_drops_orders_without_ngrams_and_renormalises() -> None:
    assert effective_order_weights((F(1, 4),) * 4, [2, 1, 0, 0]) == (F(1, 2), F(1, 2), F(0), F(0))
    # Non-uniform weights keep their proportions: 1/10 and 3/10 -> 1/4 and 3/4.
    w = (F(1, 10), F(3, 10), F(6, 10))
    assert effective_order_weights(w, [3, 2, 0]) == (F(1, 4), F(3, 4), F(0))
    assert effective_order_weights(w, [0, 0, 0]) == (F(0), F(0), F(0))


# BLEU-SCORE, BLEU-LOG ------------------------------------------------------------------------


def test_bleu_of_paper_example_1_candidate_1() -> None:
    p = [F(17, 18), F(10, 17), F(7, 16), F(4, 15)]
    with localcontext() as ctx:
        ctx.prec = 60
        score = bleu(18, 18, p, [F(1, 4)] * 4)
        assert close(score, "(mpf(17)/18 * mpf(10)/17 * mpf(7)/16 * mpf(4)/15) ** (mpf(1)/4)", 50)
        assert abs(log_bleu(18, 18, p, [F(1, 4)] * 4).exp() - score) < Decimal("1e-55")


def test_bleu_is_exactly_0_or_1_at_the_limits() -> None:
    quarter = [F(1, 4)] * 4
    assert bleu(4, 4, [F(1)] * 4, quarter) == 1
    assert bleu(4, 4, [F(1), F(1), F(0), F(1)], quarter) == 0
    assert bleu(0, 4, [F(1)] * 4, quarter) == 0
    assert log_bleu(4, 4, [F(0)] * 4, quarter) == Decimal("-Infinity")


def test_a_zero_weight_ignores_a_zero_precision() -> None:
    # 0 · log 0 is taken as 0 (p^0 = 1, EC-007): BP · p_2 = 3/5.
    score = bleu(6, 6, [F(5, 6), F(3, 5), F(1, 4), F(0)], [F(0), F(1), F(0), F(0)])
    assert abs(score - Decimal("0.6")) < Decimal("1e-25")  # within the default 28-digit context


# SMOOTH-* --------------------------------------------------------------------------------------

COUNTS = [NGramCounts(4, 5), NGramCounts(2, 4), NGramCounts(1, 3), NGramCounts(0, 2)]


def test_no_smoothing() -> None:
    assert no_smoothing(COUNTS) == (F(4, 5), F(1, 2), F(1, 3), F(0))


def test_method_1_and_floor() -> None:
    assert smoothing_method_1(COUNTS) == (F(4, 5), F(1, 2), F(1, 3), F(1, 20))  # 0.1/2
    assert floor_smoothing(COUNTS, F(1, 5)) == (F(4, 5), F(1, 2), F(1, 3), F(1, 10))


def test_method_2_add_k_and_add_one() -> None:
    assert smoothing_method_2(COUNTS) == (F(4, 5), F(3, 5), F(2, 4), F(1, 3))
    assert add_k_smoothing(COUNTS, 2) == (F(4, 5), F(4, 6), F(3, 5), F(2, 4))
    assert add_one_smoothing(COUNTS) == (F(5, 6), F(3, 5), F(2, 4), F(1, 3))


def test_method_3_and_exp_halve_at_each_zero_order() -> None:
    counts = [NGramCounts(3, 5), NGramCounts(0, 4), NGramCounts(0, 3), NGramCounts(0, 2)]
    # k = 1, 2, 3 for the three zero orders: 1/(2·4), 1/(4·3), 1/(8·2).
    expected = (F(3, 5), F(1, 8), F(1, 12), F(1, 16))
    assert smoothing_method_3(counts) == expected
    assert exp_smoothing(counts) == expected


def test_method_4_multiplies_invcnt_by_k_over_ln_t() -> None:
    counts = [NGramCounts(3, 5), NGramCounts(0, 4), NGramCounts(0, 3)]
    with localcontext() as ctx:
        ctx.prec = 60
        p = smoothing_method_4(counts, T=5, K=5)
        assert p[0] == F(3, 5)
        assert close(p[1], "1 / ((5 / log(5)) * 4)", 50)  # invcnt = 5/ln 5
        assert close(p[2], "1 / ((5 / log(5))**2 * 3)", 50)  # invcnt = (5/ln 5)^2
        assert smoothing_method_4([NGramCounts(0, 1)], T=1) == (F(0),)


def test_method_5_averages_counts_with_neighbours() -> None:
    # m' = 5, then (5 + 4 + 2)/3 = 11/3, (11/3 + 2 + 1)/3 = 20/9, (20/9 + 1 + 0)/3 = 29/27,
    # (29/27 + 0 + m_5)/3 with m_5 = 0: 29/81.
    assert smoothing_method_5(COUNTS, next_matches=0) == (F(11, 15), F(20, 36), F(29, 81), F(29, 162))
    # With m_5 = 1 the last count becomes (29/27 + 0 + 1)/3 = 56/81.
    assert smoothing_method_5(COUNTS, next_matches=1)[3] == F(56, 162)


def test_methods_5_and_7_have_nothing_to_smooth_for_an_empty_candidate() -> None:
    assert smoothing_method_5([], next_matches=0) == ()
    assert smoothing_method_7([], T=0, next_matches=0) == ()


def test_method_6_interpolates_with_the_prior() -> None:
    # p_3: pi_0 = (1/2)^2 / (4/5) = 5/16, (1 + 5·5/16)/(3 + 5) = 41/128.
    # p_4: pi_0 = (41/128)^2 / (1/2) = 1681/8192, (0 + 5·1681/8192)/(2 + 5) = 8405/57344.
    assert smoothing_method_6(COUNTS) == (F(4, 5), F(1, 2), F(41, 128), F(8405, 57344))
    assert smoothing_method_6([NGramCounts(0, 3), NGramCounts(0, 2), NGramCounts(0, 1)])[2] == 0


def test_method_7_is_method_5_over_method_4_counts() -> None:
    with localcontext() as ctx:
        ctx.prec = 60
        p = smoothing_method_7(COUNTS, T=5, next_matches=0)
        assert close(p[0], "mpf(11)/15", 50)
        assert close(p[1], "mpf(20)/36", 50)
        m3 = "((mpf(20)/9 + 1 + log(5)/5) / 3)"
        assert close(p[2], f"{m3} / 3", 50)
        assert close(p[3], f"(({m3} + log(5)/5) / 3) / 2", 50)


# BLEU-STATS, BLEU-CORPUS -----------------------------------------------------------------------


def test_segment_statistics_of_a_short_sentence() -> None:
    stats = segment_statistics(
        "it is ship".split(), ["this is a ship".split(), "it is ship".split()], 4, "closest"
    )
    assert stats == Statistics((3, 2, 1, 0), (3, 2, 1, 0), 3, 3)


def test_corpus_statistics_are_sums_and_addition_agrees() -> None:
    a = Statistics((17, 10, 7, 4), (18, 17, 16, 15), 18, 18)
    b = Statistics((8, 1, 0, 0), (14, 13, 12, 11), 14, 16)
    total = Statistics((25, 11, 7, 4), (32, 30, 28, 26), 32, 34)
    assert corpus_statistics([a, b], 4) == total
    assert a + b == total
    assert Statistics.zero(4) + a == a
    assert corpus_statistics([], 4) == Statistics.zero(4)


def test_average_reference_lengths_add_as_fractions() -> None:
    a = Statistics((1,), (1,), 1, F(3, 2))
    b = Statistics((1,), (1,), 1, F(1, 2))
    assert (a + b).ref_len == 2
    assert isinstance((a + b).ref_len, int)
