"""Confidence intervals and paired significance tests (spec SIG-BOOTSTRAP, SIG-PAIRED-BS, SIG-PAIRED-AR).

BLEU is a corpus statistic, so its sampling distribution is estimated by resampling the
segments' sufficient statistics: bootstrap resampling with replacement (Koehn 2004) for a
confidence interval and for the paired bootstrap test, and approximate randomization
(Riezler and Maxwell 2005) for the paired permutation test. The procedures, the interval and
the p-values are those of sacrebleu 2.6 (``sacrebleu/significance.py``), draw for draw: the
resamples come from numpy's ``default_rng(seed)`` (PCG64) exactly as sacrebleu draws them
(numpy is the optional extra ``significance``), so the same seed gives sacrebleu's numbers.

At a point sacrebleu computes (the sacrebleu profile, any smoothing and N) each resample is
scored with sacrebleu's own arithmetic, float32 sums included (:func:`sacrebleu_compute_bleu`);
at any other point the resample's statistics are summed exactly (integers) and scored in
binary64 by the canonical floating-point procedure of CONV-ARITH (the point's own arithmetic
when it has one): 1e-13 relative from the exact value, far below any sampling error.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import Any

from reference_bleu.conventions.options import BleuOptions
from reference_bleu.conventions.profiles import resolve
from reference_bleu.conventions.space import resolve_point
from reference_bleu.errors import BleuOptionError
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.floating import SACREBLEU_SMOOTHING, sacrebleu_compute_bleu
from reference_bleu.scoring.score import float_value, needs_segments, scored_units

#: sacrebleu's default seed (``SACREBLEU_SEED``, sacrebleu/significance.py:72).
DEFAULT_SEED = 12345
#: sacrebleu's default numbers of resamples: --confidence-n, --paired-bs-n, --paired-ar-n.
CONFIDENCE_SAMPLES = 1000
PAIRED_BS_SAMPLES = 1000
PAIRED_AR_SAMPLES = 10000
#: Bounds on the number of resamples (SIG-BOOTSTRAP): enough for any use, never unbounded work.
MAX_SAMPLES = 1_000_000
#: The extra that brings numpy, which draws the resamples as sacrebleu draws them.
SIGNIFICANCE_EXTRA = "pip install 'reference-bleu[significance]'"


@dataclass(frozen=True)
class Interval:
    """SIG-BOOTSTRAP's estimate: the mean of the resampled scores and the half-width of the 95% interval."""

    mean: float
    half_width: float
    samples: int


@dataclass(frozen=True)
class PairedResult:
    """A system against the baseline: its score, the p-value, and its bootstrap interval if computed."""

    score: float
    p_value: float
    interval: Interval | None


def _numpy() -> Any:
    """numpy, which draws the resamples (an optional extra: SIG-BOOTSTRAP)."""
    try:
        import numpy  # noqa: PLC0415 -- an optional extra, loaded only when resampling
    except ImportError:
        raise BleuOptionError(
            "SIG-BOOTSTRAP",
            "confidence intervals and paired tests draw sacrebleu's resamples with numpy, which is not "
            f"installed: {SIGNIFICANCE_EXTRA}",
        ) from None
    return numpy


def _generator(seed: int) -> Any:
    """SIG-BOOTSTRAP's generator: numpy's ``default_rng(seed)`` (PCG64), as sacrebleu seeds it."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise BleuOptionError("SIG-BOOTSTRAP", f"the seed must be an int in 0..2^64-1, got {seed!r}")
    return _numpy().random.default_rng(seed)


def _resample_indices(generator: Any, segments: int, samples: int) -> Any:
    """``samples`` rows of ``segments`` indices drawn with replacement, as sacrebleu draws them
    (``rng.choice(S, size=(B, S), replace=True)``, significance.py:76 and :232)."""
    return generator.choice(segments, size=(samples, segments), replace=True)


def sacrebleu_point(options: BleuOptions) -> bool:
    """Whether ``options`` are a point sacrebleu's ``compute_bleu`` computes: the sacrebleu profile
    with its smoothing, effective order and N (the profile's data decides, not a list here)."""
    if options.smoothing not in SACREBLEU_SMOOTHING:
        return False
    eff = "true" if options.effective_order else "false"
    profile = resolve(f"sacrebleu[smooth={options.smoothing},eff={eff}]")
    kept = ("max_order", "smoothing_value", "round_digits", "empty_references", "empty_candidates")
    point = resolve_point(profile, {name: getattr(options, name) for name in kept})
    return point.options == options


#: Whole numbers up to these bounds are exact in binary32 and binary64: a sum of resampled rows that
#: cannot exceed the bound is the exact integer sum in that format, in any order of addition.
_EXACT_BINARY32 = 2**24
_EXACT_BINARY64 = 2**53
#: Rows of a selector or count matrix converted to floating point at once (memory: this many x S).
_BLOCK = 1024


def sacrebleu_scores(sums: Any, options: BleuOptions, *, binary32: bool = False) -> Any:
    """:func:`sacrebleu_compute_bleu`'s score of every row of ``sums`` at once, the same doubles bit for bit.

    Spec SIG-BOOTSTRAP, SIG-PAIRED-AR. ``sums`` is a numpy array of rows ``[c, r, m_1..m_N, l_1..l_N]``
    (exact integer sums, or binary32 sums when ``binary32``, which then also holds the counts and
    precisions in binary32 as sacrebleu's bootstrap does). The operations IEEE 754 rounds correctly
    (+, -, x, / in the rows' format) run in numpy, column by column, each the one the row function
    does; ``log`` and ``exp`` are the platform's ``math.log`` and ``math.exp`` and the sum of the logs
    Python's own ``sum``, applied to every row's values (numpy's SIMD ``log`` and ``exp`` may differ in
    the last bit). Branches become masks: the early return when no n-gram matched (0), the ``break``
    at a zero total (the rows left behind keep their precisions at 0), effective order (each row's
    last order reached), ``exp`` smoothing's per-row doubling. A row with a zero precision among its
    first ``eff_order`` scores sacrebleu's ``BP · exp((log 0 + ...) / eff_order)`` with log 0 =
    -9999999999, which is 0.0 (each other log is at most log 100).
    """
    np = _numpy()
    order = options.max_order
    method = options.smoothing
    default = SACREBLEU_SMOOTHING[method]
    value = float(options.smoothing_value) if options.smoothing_value is not None else default
    kind = np.float32 if binary32 else np.float64
    rows = np.asarray(sums)
    count = len(rows)
    sys_len, ref_len = rows[:, 0].astype(np.float64), rows[:, 1].astype(np.float64)
    correct = rows[:, 2 : 2 + order].astype(kind)
    total = rows[:, 2 + order : 2 + 2 * order].astype(kind)
    hundred = kind(100.0)
    precisions = np.zeros((count, order))
    alive = np.ones(count, dtype=bool)
    eff_order = np.full(count, order)
    smooth = np.ones(count)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for n in range(order):
            c, t = correct[:, n], total[:, n]
            if method == "add-k" and n > 0 and value is not None:
                step = kind(value)
                c, t = c + step, t + step
            alive &= t != 0
            if options.effective_order:
                eff_order[alive] = n + 1
            matched = alive & (c != 0)
            p = np.where(matched, hundred * c / t, 0.0)
            missing = alive & ~matched
            if method == "exp":
                smooth[missing] *= 2
                p = np.where(missing, hundred / (smooth.astype(kind) * t), p)
            elif method == "floor" and value is not None:
                p = np.where(missing, kind(100.0 * value) / t, p)
            precisions[:, n] = p
    logged = np.arange(order) < eff_order[:, None]
    scored = (correct != 0).any(axis=1) & ~((precisions == 0.0) & logged).any(axis=1)
    scores = np.zeros(count)
    for eff in np.unique(eff_order[scored]).tolist():
        chosen = np.flatnonzero(scored & (eff_order == eff))
        logs = [list(map(math.log, precisions[chosen, n].tolist())) for n in range(eff)]
        means = np.array(list(map(sum, zip(*logs, strict=True)))) / eff
        scores[chosen] = list(map(math.exp, means.tolist()))
    short = scored & (sys_len < ref_len)
    exponents = 1 - ref_len[short] / sys_len[short]  # sys_len > 0: some n-gram matched
    scores[short] *= np.array(list(map(math.exp, exponents.tolist())))
    return scores


class _Resampler:
    """The segments' statistics of every system as sacrebleu holds them, one row each,
    ``[c, r, m_1..m_N, l_1..l_N]`` (metrics/bleu.py:360), their resampled sums, and the scores of sums.

    The sums of all resamples (all systems at once) are integer matrix products over the
    segments' rows: a resample's multiplicities times the rows (SIG-BOOTSTRAP), the swapped
    differences of a randomization (SIG-PAIRED-AR), computed in binary32 or binary64 where every
    partial sum is a whole number the format holds exactly (so the product is the integer sum,
    whatever order BLAS adds in), else in int64. At a sacrebleu point the scores are sacrebleu's
    own arithmetic on those sums, all rows at once (:func:`sacrebleu_scores`: its float32 bootstrap
    sums are the exact sums when they stay below 2^24, else summed as sacrebleu sums them; integer
    AR sums); at any other point each row's statistics are scored by the point's floating procedure
    (CONV-ARITH; binary64 when the point is exact), a reference length that is a ratio scaled to
    an integer."""

    def __init__(self, systems: Sequence[Sequence[Statistics]], options: BleuOptions) -> None:
        if needs_segments(options):
            raise BleuOptionError(
                "SIG-BOOTSTRAP",
                "resampling needs conventions scored from corpus totals (micro aggregation, l_n "
                "denominators, no smoothing that reads the last segment)",
            )
        np = _numpy()
        self.options = options
        self.sacrebleu = sacrebleu_point(options)
        self.orders = options.statistics_orders
        every = [s for system in systems for s in system]
        self.scale = lcm(*(s.ref_len.denominator for s in every if isinstance(s.ref_len, Fraction)))
        #: (systems, segments, columns): every system's rows.
        self.rows = np.array([[self._row(s) for s in system] for system in systems], dtype=np.int64)
        floating = options if options.arithmetic != "exact" else replace(options, arithmetic="binary64")
        self.floating = floating
        self.factor = 100.0 if options.scale == "percent" else 1.0

    def _row(self, s: Statistics) -> list[int]:
        return [s.hyp_len, int(s.ref_len * self.scale), *s.matches[: self.orders], *s.totals[: self.orders]]

    def score(self, row: Sequence[Any]) -> float:
        """The score of summed statistics (a row of sacrebleu's layout, exact integers)."""
        if self.sacrebleu:
            return sacrebleu_compute_bleu([float(x) for x in row], self.options).score
        n = self.orders
        ref_len: Fraction | int = Fraction(int(row[1]), self.scale) if self.scale > 1 else int(row[1])
        stats = Statistics(
            tuple(int(x) for x in row[2 : 2 + n]),
            tuple(int(x) for x in row[2 + n : 2 + 2 * n]),
            int(row[0]),
            ref_len,
        )
        return self.factor * float_value(scored_units([stats], self.floating), self.floating)

    def scores(self, sums: Any, *, binary32: bool = False) -> Any:
        """The score of each row of summed statistics, as a numpy array (``binary32``: sacrebleu's
        float32 bootstrap sums, at a sacrebleu point)."""
        np = _numpy()
        if self.sacrebleu:
            return sacrebleu_scores(sums, self.options, binary32=binary32)
        return np.array([self.score(row) for row in sums.tolist()], dtype=np.float64)

    def observed(self, system: int) -> float:
        """A system's score from its integer totals."""
        return self.score([int(x) for x in self.rows[system].sum(0)])

    def bootstrap(self, indices: Any) -> Callable[[int], Any]:
        """The resampled scores of each system over the resamples ``indices`` (a row of segment
        indices each): a function from a system's index to its scores, in the resamples' order.

        Every system's sums are computed here at once, as sacrebleu sums them at a sacrebleu point
        (float32, significance.py:80-84: the exact sums when no sum can reach 2^24), else as exact
        integers; each system is scored when asked."""
        np = _numpy()
        samples, segments = indices.shape
        systems = len(self.rows)
        if self.sacrebleu and segments * int(self.rows.max(initial=0)) > _EXACT_BINARY32:
            binary32 = self.rows.astype(np.float32)  # sums that may round: sacrebleu's additions
            rounded = [np.array([matrix[row].sum(0) for row in indices]) for matrix in binary32]
            return lambda k: self.scores(rounded[k], binary32=True)
        offsets = indices + segments * np.arange(samples)[:, None]
        counts = np.bincount(offsets.ravel(), minlength=samples * segments).reshape(samples, segments)
        sums = _exact_product(counts, self._columns(self.rows), segments)
        return lambda k: self.scores(sums[:, k::systems], binary32=self.sacrebleu)

    def randomization(self, swap: Any, system: int) -> Any:
        """The two pseudo-systems' sums of each trial of SIG-PAIRED-AR for the baseline (0) and ``system``:
        with ``swap`` true a segment's outputs change places, so the first pseudo-system sums to the
        baseline's total plus the swapped segments' differences (system - baseline) and the second to
        the system's total minus them (exact integers): (trials, columns) each."""
        differences = self.rows[system] - self.rows[0]
        swapped = _exact_product(swap, differences, len(differences))
        totals = self.rows.sum(axis=1)
        return totals[0] + swapped, totals[system] - swapped

    @staticmethod
    def _columns(rows: Any) -> Any:
        """(segments, columns x systems): each segment's rows of every system side by side, interleaved
        by column (column j of system k at j x systems + k)."""
        systems, segments, width = rows.shape
        return rows.transpose(1, 2, 0).reshape(segments, width * systems)


def _exact_product(weights: Any, rows: Any, segments: int) -> Any:
    """``weights @ rows`` as exact integers (int64): weights (non-negative whole numbers summing to at
    most ``segments`` per row: bootstrap multiplicities, or AR selectors) times integer rows, computed
    in the narrowest of binary32, binary64 and int64 in which no partial sum can leave the exactly
    representable whole numbers (|partial| <= segments x max |row value|), in blocks of rows."""
    np = _numpy()
    largest = segments * int(np.abs(rows).max(initial=0))
    kind = (
        np.float32 if largest <= _EXACT_BINARY32 else np.float64 if largest <= _EXACT_BINARY64 else np.int64
    )
    matrix = rows.astype(kind)
    out = np.empty((len(weights), rows.shape[1]), dtype=np.int64)
    for start in range(0, len(weights), _BLOCK):
        block = weights[start : start + _BLOCK].astype(kind) @ matrix
        out[start : start + _BLOCK] = block if kind is np.int64 else np.rint(block)
    return out


def _check_samples(samples: int) -> None:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise BleuOptionError("SIG-BOOTSTRAP", f"the number of resamples must lie in 1..{MAX_SAMPLES}")


def interval(scores: Sequence[float], *, pairwise: bool = False) -> Interval:
    """SIG-BOOTSTRAP. The mean and the 95% half-width of resampled scores, as sacrebleu computes them.

    Sorted scores s_0 <= ... <= s_{B-1}; lower = s_{floor(B/40)}, upper = s_{B-1-floor(B/40)};
    the half-width is (upper - lower) / 2. The mean is ``statistics.mean`` (correctly rounded), as
    sacrebleu's one-system interval (metrics/base.py:105-120, ``Score.estimate_ci``), or with
    ``pairwise`` numpy's mean of the sorted array, as its paired tests (significance.py:38-55,
    ``estimate_ci``).

    >>> interval([float(k) for k in range(40)])
    Interval(mean=19.5, half_width=18.5, samples=40)
    """
    ordered = sorted(scores)
    cut = len(ordered) // 40
    lower, upper = ordered[cut], ordered[len(ordered) - cut - 1]
    mean = float(_numpy().array(ordered).mean()) if pairwise else statistics.mean(ordered)
    return Interval(mean, 0.5 * (upper - lower), len(ordered))


def bootstrap_interval(
    segments: Sequence[Statistics],
    options: BleuOptions,
    samples: int = CONFIDENCE_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> Interval:
    """SIG-BOOTSTRAP. Bootstrap confidence interval of corpus BLEU (Koehn 2004, sec. 3).

    ``samples`` test sets of ``len(segments)`` segments drawn with replacement by numpy's
    ``default_rng(seed)``; each is scored from its summed statistics; :func:`interval` of the
    scores (sacrebleu 2.6.0 significance.py:58-86, ``_bootstrap_resample``).
    """
    _check_samples(samples)
    if not segments:
        raise BleuOptionError("SIG-BOOTSTRAP", "resampling needs at least one segment")
    resampler = _Resampler([segments], options)
    indices = _resample_indices(_generator(seed), len(segments), samples)
    return interval(resampler.bootstrap(indices)(0).tolist())


def p_value(statistics: Sequence[float], observed: float) -> float:
    """The p-value of sacrebleu's paired tests: (c + 1) / (B + 1), c = #{t in statistics : t > observed}.

    Spec SIG-PAIRED-BS, SIG-PAIRED-AR.

    Strictly greater, as sacrebleu 2.6 sacrebleu/significance.py:89-109 (after multeval): the +1
    keeps the probability of a false rejection at most the level of the test.

    >>> p_value([0.0, 1.0, 2.0, 3.0], 1.5)
    0.6
    """
    above = sum(1 for t in statistics if t > observed)
    return (above + 1) / (len(statistics) + 1)


#: Told which system a long paired test has reached (the CLI prints it on standard error).
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class PairedTests:
    """Every system against the baseline: the baseline's score and interval (if the test gives one),
    and each other system's result, in order."""

    baseline_score: float
    baseline_interval: Interval | None
    systems: tuple[PairedResult, ...]


def paired_bootstrap_tests(
    baseline: Sequence[Statistics],
    systems: Sequence[Sequence[Statistics]],
    options: BleuOptions,
    *,
    samples: int = PAIRED_BS_SAMPLES,
    seed: int = DEFAULT_SEED,
    progress: Progress | None = None,
) -> PairedTests:
    """SIG-PAIRED-BS. Paired bootstrap resampling (Koehn 2004, sec. 4), as sacrebleu and Moses' script.

    The same ``samples`` resampled test sets (sacrebleu draws them again from the same seed for
    each system, significance.py:231-234; here once) score the baseline, once, and each system:
    with d_k = |s_sys,k - s_base,k| the statistics t_k = d_k - mean(d) are centred (the null
    hypothesis of no difference) and compared with the observed |s_sys - s_base| by
    :func:`p_value`. Each system's interval is over the same resamples; so is the baseline's
    (sacrebleu's ``PairedTest`` draws the baseline's with ``_bootstrap_resample`` from the same seed:
    the same rows).
    """
    _check_samples(samples)
    for system in systems:
        _same_segments(baseline, system)
    resampler = _Resampler([baseline, *systems], options)
    indices = _resample_indices(_generator(seed), len(baseline), samples)
    scores = resampler.bootstrap(indices)
    base_scores = scores(0)
    observed_base = resampler.observed(0)
    results = []
    for k in range(1, len(systems) + 1):
        if progress is not None:
            progress(k, len(systems))
        system_scores = scores(k)
        observed = resampler.observed(k)
        differences = abs(system_scores - base_scores)
        centred = differences - differences.mean()
        results.append(
            PairedResult(
                observed,
                p_value(centred.tolist(), abs(observed_base - observed)),
                interval(system_scores.tolist(), pairwise=True),
            )
        )
    return PairedTests(observed_base, interval(base_scores.tolist(), pairwise=True), tuple(results))


def paired_bootstrap(
    baseline: Sequence[Statistics],
    system: Sequence[Statistics],
    options: BleuOptions,
    samples: int = PAIRED_BS_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> PairedResult:
    """SIG-PAIRED-BS for one system against the baseline (:func:`paired_bootstrap_tests`)."""
    return paired_bootstrap_tests(baseline, [system], options, samples=samples, seed=seed).systems[0]


def paired_randomization_tests(
    baseline: Sequence[Statistics],
    systems: Sequence[Sequence[Statistics]],
    options: BleuOptions,
    *,
    samples: int = PAIRED_AR_SAMPLES,
    seed: int = DEFAULT_SEED,
    confidence_samples: int = 0,
    progress: Progress | None = None,
) -> PairedTests:
    """SIG-PAIRED-AR. Paired approximate randomization (Riezler and Maxwell 2005, sec. 3), as sacrebleu.

    In each of ``samples`` trials every segment's pair of outputs is swapped with probability 1/2:
    ``default_rng(seed).integers(2, size=(trials, segments), dtype=bool)``, true keeping the
    baseline's output in the first pseudo-system (sacrebleu 2.6.0 significance.py:140-175; the
    same selectors for every system, drawn once here). The statistic is |s_A - s_B| of the two
    pseudo-systems, compared with the observed |s_sys - s_base| by :func:`p_value`. With
    ``confidence_samples`` > 0 each system's bootstrap interval too, its rows drawn from the same
    generator after the selectors (sacrebleu's ``n_ar_confidence``; its command line never asks).
    """
    _check_samples(samples)
    for system in systems:
        _same_segments(baseline, system)
    resampler = _Resampler([baseline, *systems], options)
    generator = _generator(seed)
    keep = generator.integers(2, size=(samples, len(baseline)), dtype=bool)
    indices = None
    if confidence_samples > 0:
        _check_samples(confidence_samples)
        indices = _resample_indices(generator, len(baseline), confidence_samples)
    swap = ~keep
    observed_base = resampler.observed(0)
    estimates = None if indices is None else resampler.bootstrap(indices)
    results = []
    for k in range(1, len(systems) + 1):
        if progress is not None:
            progress(k, len(systems))
        first, second = resampler.randomization(swap, k)
        trials = abs(resampler.scores(first) - resampler.scores(second))
        observed = resampler.observed(k)
        estimate = None if estimates is None else interval(estimates(k).tolist(), pairwise=True)
        results.append(
            PairedResult(observed, p_value(trials.tolist(), abs(observed_base - observed)), estimate)
        )
    return PairedTests(observed_base, None, tuple(results))


def paired_randomization(
    baseline: Sequence[Statistics],
    system: Sequence[Statistics],
    options: BleuOptions,
    *,
    samples: int = PAIRED_AR_SAMPLES,
    seed: int = DEFAULT_SEED,
    confidence_samples: int = 0,
) -> PairedResult:
    """SIG-PAIRED-AR for one system against the baseline (:func:`paired_randomization_tests`)."""
    tests = paired_randomization_tests(
        baseline, [system], options, samples=samples, seed=seed, confidence_samples=confidence_samples
    )
    return tests.systems[0]


def _same_segments(baseline: Sequence[Statistics], system: Sequence[Statistics]) -> None:
    if len(baseline) != len(system) or not baseline:
        raise BleuOptionError("SIG-PAIRED-BS", "paired tests need two systems on the same non-empty test set")
