"""reference-bleu: a literal, exact reference implementation of BLEU (Papineni et al., 2002).

Every formula of the paper is one function named after it, citing its spec ID (see
``spec/``). Counts are ints, ratios Fractions; only the final exp/log leaves the
rationals, in a high-precision decimal context, and the float score is rounded once.

>>> from reference_bleu import sentence_bleu
>>> result = sentence_bleu("the cat sat on the mat".split(), ["the cat sat on a mat".split()], max_order=2)
>>> result.precisions  # p_1 = 5/6 ("the" clipped to 1), p_2 = 3/5 ("on the", "the mat" unmatched)
(Fraction(5, 6), Fraction(3, 5))
>>> result.score  # sqrt(5/6 * 3/5) = sqrt(1/2)
0.7071067811865476
"""

from reference_bleu.api import corpus_bleu, score_statistics, sentence_bleu, sentence_scores
from reference_bleu.conventions.options import VERSION, BleuOptions, make_options
from reference_bleu.errors import BleuError, BleuInputError, BleuOptionError, UndefinedPrecisionError
from reference_bleu.formulas.statistics import Statistics, segment_statistics
from reference_bleu.partial import BLEU, Conventions, Partial, make_conventions, partial_statistics
from reference_bleu.scoring.score import BleuResult

__version__ = VERSION

__all__ = [
    "BLEU",
    "BleuError",
    "BleuInputError",
    "BleuOptionError",
    "BleuOptions",
    "BleuResult",
    "Conventions",
    "Partial",
    "Statistics",
    "UndefinedPrecisionError",
    "__version__",
    "corpus_bleu",
    "make_conventions",
    "make_options",
    "partial_statistics",
    "score_statistics",
    "segment_statistics",
    "sentence_bleu",
    "sentence_scores",
]
