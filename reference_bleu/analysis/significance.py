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
from reference_bleu.scoring.floating import SACREBLEU_SMOOTHING, sacrebleu_compute_bleu, to_binary32
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


class _Resampler:
    """The segments' statistics as sacrebleu holds them, one row each, ``[c, r, m_1..m_N, l_1..l_N]``
    (metrics/bleu.py:360), and the score of a sum of rows.

    At a sacrebleu point the arithmetic is sacrebleu's own (:func:`sacrebleu_compute_bleu`: float32
    bootstrap sums, integer AR sums); at any other point the sums are exact integers (a reference
    length that is a ratio is scaled to an integer) and the score the point's floating procedure
    (CONV-ARITH; binary64 when the point is exact)."""

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
        rows = [[self._row(s) for s in system] for system in systems]
        self.exact = [np.array(r, dtype=np.int64) for r in rows]
        self.binary32 = [np.array(r, dtype=np.float32) for r in rows]
        floating = options if options.arithmetic != "exact" else replace(options, arithmetic="binary64")
        self.floating = floating
        self.factor = 100.0 if options.scale == "percent" else 1.0

    def _row(self, s: Statistics) -> list[int]:
        return [s.hyp_len, int(s.ref_len * self.scale), *s.matches[: self.orders], *s.totals[: self.orders]]

    def score(self, row: Sequence[Any], *, binary32: bool = False) -> float:
        """The score of summed statistics (a row of sacrebleu's layout)."""
        if self.sacrebleu:
            return sacrebleu_compute_bleu(
                [float(x) for x in row], self.options, to_binary32 if binary32 else float
            ).score
        n = self.orders
        ref_len: Fraction | int = Fraction(int(row[1]), self.scale) if self.scale > 1 else int(row[1])
        stats = Statistics(
            tuple(int(x) for x in row[2 : 2 + n]),
            tuple(int(x) for x in row[2 + n : 2 + 2 * n]),
            int(row[0]),
            ref_len,
        )
        return self.factor * float_value(scored_units([stats], self.floating), self.floating)

    def observed(self, system: int) -> float:
        """A system's score from its integer totals."""
        return self.score([int(x) for x in self.exact[system].sum(0)])

    def bootstrap(self, system: int, indices: Any) -> list[float]:
        """The scores of each resample (a row of segment indices) of ``system``, summed as sacrebleu sums
        them (float32 at a sacrebleu point, significance.py:80-84; else exact integers)."""
        matrix = self.binary32[system] if self.sacrebleu else self.exact[system]
        return [self.score(matrix[row].sum(0), binary32=self.sacrebleu) for row in indices]


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
    return interval(resampler.bootstrap(0, indices))


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
    np = _numpy()
    base_scores = np.array(resampler.bootstrap(0, indices))
    observed_base = resampler.observed(0)
    results = []
    for k in range(1, len(systems) + 1):
        if progress is not None:
            progress(k, len(systems))
        system_scores = np.array(resampler.bootstrap(k, indices))
        observed = resampler.observed(k)
        differences = np.abs(system_scores - base_scores)
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
    base = resampler.exact[0]
    observed_base = resampler.observed(0)
    results = []
    for k in range(1, len(systems) + 1):
        if progress is not None:
            progress(k, len(systems))
        other = resampler.exact[k]
        first, second = keep @ base + swap @ other, swap @ base + keep @ other
        trials = [
            abs(resampler.score(a.tolist()) - resampler.score(b.tolist()))
            for a, b in zip(first, second, strict=True)
        ]
        observed = resampler.observed(k)
        estimate = None if indices is None else interval(resampler.bootstrap(k, indices), pairwise=True)
        results.append(PairedResult(observed, p_value(trials, abs(observed_base - observed)), estimate))
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
