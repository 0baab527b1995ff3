"""From sufficient statistics to the score: the order in which conventions apply (spec BLEU-EVAL).

1. Undefined orders (l_n = 0, spec EC-003): dropped with renormalised weights under
   ``effective_order``; else counted as a zero precision (``undefined_precision="zero"``),
   dropped without renormalising (``"skip"``), or an error (``"error"``).
2. Smoothing (spec SMOOTH) of the defined orders.
3. Zero precisions (m_n = 0 after smoothing, spec EC-002): the paper's limit, score 0
   (``zero_precision="limit"``), or the order is dropped without renormalising (``"skip"``).
4. BLEU-SCORE on what remains. An order whose weight is 0 never matters (EC-007); when no
   weighted order remains, the candidate has no n-gram that could match, and the score is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from reference_bleu.combination import bleu, effective_order_weights
from reference_bleu.errors import UndefinedPrecisionError
from reference_bleu.exact import Real
from reference_bleu.options import BleuOptions
from reference_bleu.smoothing import smooth
from reference_bleu.statistics import Statistics


class Evaluation(NamedTuple):
    """The score in the current decimal context, with the p_n and w_n that produced it.

    ``p[n-1]`` is the (smoothed) precision of order n, ``None`` where it is undefined;
    ``w[n-1]`` the weight it finally carried (0 for a dropped order).
    """

    score: Decimal
    p: tuple[Real | None, ...]
    w: tuple[Fraction, ...]


def evaluate(stats: Statistics, options: BleuOptions) -> Evaluation:
    """BLEU-EVAL. BLEU of ``stats`` under ``options``, in the current decimal context.

    Papineni et al. 2002, sec. 2.3 for the formula; spec EC-002, EC-003, EC-007 and SMOOTH
    for the steps the paper leaves open, applied in the order of this module's docstring.

    >>> from reference_bleu.options import make_options
    >>> evaluate(Statistics((3, 2, 1), (3, 2, 1), 3, 3), make_options(max_order=3)).score
    Decimal('1')
    """
    N = options.max_order
    counts = stats.counts[:N]
    w = list(options.weights)

    # 1. Undefined orders (EC-003).
    if options.effective_order:
        w = list(effective_order_weights(w, [pair.total for pair in counts]))
    for n, pair in enumerate(counts):
        if pair.total == 0 and w[n]:
            if options.undefined_precision == "error":
                raise UndefinedPrecisionError(
                    "EC-003", f"p_{n + 1} is 0/0: the candidate has no {n + 1}-grams"
                )
            if options.undefined_precision == "skip":
                w[n] = Fraction(0)

    # 2. Smoothing of the defined orders (a prefix: l_n never grows with n).
    defined = [pair for pair in counts if pair.total > 0]
    next_matches = stats.matches[N] if len(defined) == N and len(stats.matches) > N else 0
    smoothed = smooth(options.smoothing, defined, stats.hyp_len, next_matches, options.smoothing_value)
    p: list[Real | None] = [*smoothed, *([None] * (N - len(defined)))]

    # 3. Zero precisions (EC-002); an undefined order still weighted counts as zero here.
    values: list[Real] = [Fraction(0) if p_n is None else p_n for p_n in p]
    if options.zero_precision == "skip":
        w = [Fraction(0) if v == 0 else w_n for v, w_n in zip(values, w, strict=True)]

    # 4. BLEU-SCORE.
    score = bleu(stats.hyp_len, stats.ref_len, values, w) if any(w) else Decimal(0)
    return Evaluation(score, tuple(p), tuple(w))


def macro_average(segments: Sequence[Statistics], options: BleuOptions) -> Decimal:
    """BLEU-MACRO. The arithmetic mean of the segments' sentence BLEU (spec EC-009).

    Not the paper's corpus BLEU (which is BLEU-CORPUS, a micro-average); what averaging
    ``sentence_bleu`` over a test set computes. In the current decimal context.

    >>> from reference_bleu.options import make_options
    >>> one = Statistics((1,), (1,), 1, 1)
    >>> zero = Statistics((0,), (1,), 1, 1)
    >>> macro_average([one, zero], make_options(max_order=1))
    Decimal('0.5')
    """
    total = sum((evaluate(s, options).score for s in segments), Decimal(0))
    return total / len(segments)
