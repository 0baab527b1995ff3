"""Confidence intervals and paired significance tests (spec SIG-BOOTSTRAP, SIG-PAIRED-BS, SIG-PAIRED-AR).

BLEU is a corpus statistic, so its sampling distribution is estimated by resampling the
segments' sufficient statistics: bootstrap resampling with replacement (Koehn 2004) for a
confidence interval and for the paired bootstrap test, and approximate randomization
(Riezler and Maxwell 2005) for the paired permutation test. The procedures, the interval and
the p-values are those of sacrebleu 2.6 (``sacrebleu/significance.py``), so that a sacrebleu
user reads the same quantities; the random numbers are Python's seeded Mersenne Twister, not
numpy's PCG64, so individual resamples differ and the results agree within sampling error.

Each resample's statistics are summed exactly (integers); its score is evaluated in binary64
by the canonical floating-point procedure of CONV-ARITH (the point's own arithmetic when it
has one): 1e-13 relative from the exact value, far below any sampling error, and four times
faster than exact evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import compress
from math import lcm

from reference_bleu.api import float_value, needs_segments, scored_units
from reference_bleu.errors import BleuOptionError
from reference_bleu.options import BleuOptions
from reference_bleu.statistics import Statistics

#: sacrebleu's default seed (``SACREBLEU_SEED``, sacrebleu/significance.py:72).
DEFAULT_SEED = 12345
#: sacrebleu's default numbers of resamples: --confidence-n, --paired-bs-n, --paired-ar-n.
CONFIDENCE_SAMPLES = 1000
PAIRED_BS_SAMPLES = 1000
PAIRED_AR_SAMPLES = 10000
#: Bounds on the number of resamples (SIG-BOOTSTRAP): enough for any use, never unbounded work.
MAX_SAMPLES = 1_000_000


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


class _Packed:
    """Segment statistics as one integer each (fields side by side), so that a sum of segments is one
    integer sum; the fields are read back from the total. Exact: every field gets enough bits for
    ``len(segments)`` times its largest value."""

    def __init__(self, segments: Sequence[Sequence[Statistics]]) -> None:
        every = [s for system in segments for s in system]
        self.orders = len(every[0].totals)
        self.scale = lcm(*(s.ref_len.denominator for s in every if isinstance(s.ref_len, Fraction)))
        columns = [self._fields(s) for s in every]
        largest = max(max(row) for row in columns)
        self.width = (largest * max(len(system) for system in segments)).bit_length() + 1
        self.mask = (1 << self.width) - 1
        self.systems = [[self._pack(self._fields(s)) for s in system] for system in segments]

    def _fields(self, s: Statistics) -> list[int]:
        ref_len = s.ref_len * self.scale
        return [*s.matches, *s.totals, s.hyp_len, int(ref_len)]

    def _pack(self, fields: Sequence[int]) -> int:
        value = 0
        for field in reversed(fields):
            value = (value << self.width) | field
        return value

    def unpack(self, total: int) -> Statistics:
        fields = [(total >> (self.width * k)) & self.mask for k in range(2 * self.orders + 2)]
        ref_len = Fraction(fields[-1], self.scale) if self.scale > 1 else fields[-1]
        return Statistics(
            tuple(fields[: self.orders]), tuple(fields[self.orders : 2 * self.orders]), fields[-2], ref_len
        )


def _scorer(options: BleuOptions) -> Callable[[Statistics], float]:
    """A resample's score in binary64 (or the point's arithmetic), on the point's scale."""
    if needs_segments(options):
        raise BleuOptionError(
            "SIG-BOOTSTRAP",
            "resampling needs conventions scored from corpus totals (micro aggregation, l_n "
            "denominators, no smoothing that reads the last segment)",
        )
    floating = options if options.arithmetic != "exact" else replace(options, arithmetic="binary64")
    factor = 100.0 if options.scale == "percent" else 1.0

    def score(stats: Statistics) -> float:
        return factor * float_value(scored_units([stats], floating), floating)

    return score


def _check_samples(samples: int) -> None:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise BleuOptionError("SIG-BOOTSTRAP", f"the number of resamples must lie in 1..{MAX_SAMPLES}")


def _generator(seed: int) -> random.Random:
    """SIG-BOOTSTRAP's generator: Python's MT19937 seeded with ``seed`` (random.seed of an int)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise BleuOptionError("SIG-BOOTSTRAP", f"the seed must be an int in 0..2^64-1, got {seed!r}")
    return random.Random(seed)  # noqa: S311 -- reproducible resampling, not secrecy


def _resample_indices(generator: random.Random, segments: int, samples: int) -> list[list[int]]:
    """``samples`` lists of ``segments`` indices drawn with replacement: index = floor(U * segments)."""
    population = range(segments)
    return [generator.choices(population, k=segments) for _ in range(samples)]


def interval(scores: Sequence[float]) -> Interval:
    """SIG-BOOTSTRAP. The mean and the 95% half-width of resampled scores, as sacrebleu computes them.

    Sorted scores s_0 <= ... <= s_{B-1}; lower = s_{floor(B/40)}, upper = s_{B-1-floor(B/40)};
    the half-width is (upper - lower) / 2 and the mean the arithmetic mean (sacrebleu 2.6
    sacrebleu/significance.py:38-55, ``estimate_ci``).

    >>> interval([float(k) for k in range(40)])
    Interval(mean=19.5, half_width=18.5, samples=40)
    """
    ordered = sorted(scores)
    cut = len(ordered) // 40
    lower, upper = ordered[cut], ordered[len(ordered) - cut - 1]
    return Interval(sum(ordered) / len(ordered), 0.5 * (upper - lower), len(ordered))


def _bootstrap_scores(
    packed: Sequence[int],
    unpack: Callable[[int], Statistics],
    score: Callable[[Statistics], float],
    indices: Sequence[Sequence[int]],
) -> list[float]:
    return [score(unpack(sum(map(packed.__getitem__, sample)))) for sample in indices]


def bootstrap_interval(
    segments: Sequence[Statistics],
    options: BleuOptions,
    samples: int = CONFIDENCE_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> Interval:
    """SIG-BOOTSTRAP. Bootstrap confidence interval of corpus BLEU (Koehn 2004, sec. 3).

    ``samples`` test sets of ``len(segments)`` segments drawn with replacement; each is scored
    from its summed statistics; :func:`interval` of the scores.
    """
    _check_samples(samples)
    if not segments:
        raise BleuOptionError("SIG-BOOTSTRAP", "resampling needs at least one segment")
    score = _scorer(options)
    packed = _Packed([segments])
    indices = _resample_indices(_generator(seed), len(segments), samples)
    return interval(_bootstrap_scores(packed.systems[0], packed.unpack, score, indices))


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


def paired_bootstrap(
    baseline: Sequence[Statistics],
    system: Sequence[Statistics],
    options: BleuOptions,
    samples: int = PAIRED_BS_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> PairedResult:
    """SIG-PAIRED-BS. Paired bootstrap resampling (Koehn 2004, sec. 4), as sacrebleu and Moses' script.

    The same ``samples`` resampled test sets score both systems; with d_k = |s_sys,k - s_base,k|
    the statistics t_k = d_k - mean(d) are centred (the null hypothesis of no difference) and
    compared with the observed |s_sys - s_base| by :func:`p_value`. Also the system's
    bootstrap interval over the same resamples.
    """
    _check_samples(samples)
    _same_segments(baseline, system)
    score = _scorer(options)
    packed = _Packed([baseline, system])
    indices = _resample_indices(_generator(seed), len(baseline), samples)
    base_scores = _bootstrap_scores(packed.systems[0], packed.unpack, score, indices)
    system_scores = _bootstrap_scores(packed.systems[1], packed.unpack, score, indices)
    observed_base = score(packed.unpack(sum(packed.systems[0])))
    observed = score(packed.unpack(sum(packed.systems[1])))
    differences = [abs(s - b) for s, b in zip(system_scores, base_scores, strict=True)]
    centre = sum(differences) / len(differences)
    return PairedResult(
        observed,
        p_value([d - centre for d in differences], abs(observed_base - observed)),
        interval(system_scores),
    )


def paired_randomization(
    baseline: Sequence[Statistics],
    system: Sequence[Statistics],
    options: BleuOptions,
    *,
    samples: int = PAIRED_AR_SAMPLES,
    seed: int = DEFAULT_SEED,
    confidence_samples: int = 0,
) -> PairedResult:
    """SIG-PAIRED-AR. Paired approximate randomization (Riezler and Maxwell 2005, sec. 3), as sacrebleu.

    In each of ``samples`` trials every segment's pair of outputs is swapped with probability 1/2
    (one bit of the generator per segment: ``getrandbits(len(segments))``, bit i for segment i);
    the statistic is |s_A - s_B| of the two shuffled systems, compared with the observed
    |s_sys - s_base| by :func:`p_value`. With ``confidence_samples`` > 0 the system's bootstrap
    interval is computed as well, from the same generator after the trials.
    """
    _check_samples(samples)
    _same_segments(baseline, system)
    score = _scorer(options)
    packed = _Packed([baseline, system])
    base, other = packed.systems
    grand_total = sum(base) + sum(other)
    generator = _generator(seed)
    segments = len(baseline)
    keep, swap = bytes.maketrans(b"01", b"\x00\x01"), bytes.maketrans(b"01", b"\x01\x00")
    statistics = []
    for _ in range(samples):
        bits = format(generator.getrandbits(segments), f"0{segments}b").encode()[::-1]
        first = sum(compress(base, bits.translate(keep))) + sum(compress(other, bits.translate(swap)))
        statistics.append(abs(score(packed.unpack(first)) - score(packed.unpack(grand_total - first))))
    observed_base, observed = score(packed.unpack(sum(base))), score(packed.unpack(sum(other)))
    estimate = None
    if confidence_samples > 0:
        _check_samples(confidence_samples)
        indices = _resample_indices(generator, segments, confidence_samples)
        estimate = interval(_bootstrap_scores(other, packed.unpack, score, indices))
    return PairedResult(observed, p_value(statistics, abs(observed_base - observed)), estimate)


def _same_segments(baseline: Sequence[Statistics], system: Sequence[Statistics]) -> None:
    if len(baseline) != len(system) or not baseline:
        raise BleuOptionError("SIG-PAIRED-BS", "paired tests need two systems on the same non-empty test set")
