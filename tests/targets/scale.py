"""Python targets that are the paper's BLEU on small inputs and wrong at real size (spec CONF-SIZE).

Each is written from a bug's description, on top of ``independent_bleu`` (the
floating-point BLEU of tests/targets/conform.py, written from the paper without reference_bleu):
the bugs real implementations have, batching, fixed-width counters, truncation to a model's
length, n-grams keyed by joined strings, state that changes after many calls. Small generated
inputs (a dozen segments and tokens, four references, seven public words) never show them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from tests.targets.conform import _score, _statistics, independent_bleu

Hypotheses = Sequence[Sequence[str]]
References = Sequence[Sequence[Sequence[str]]]

#: What the generic bugs do to the score when their condition holds: a thousandth off, far beyond
#: any rounding of binary64 or binary32 (the runner compares to 1e-11, a binary32 point to 1e-5),
#: close enough to pass for right on a glance (28.30 for 28.33).
OFF = 1 - 1e-3


def wrong_above_12_segments(hyps: Hypotheses, refs: References) -> float:
    """A thousandth off on a corpus of more than 12 segments."""
    return independent_bleu(hyps, refs) * (OFF if len(hyps) > 12 else 1.0)


def a_millionth_off_above_12_segments(hyps: Hypotheses, refs: References) -> float:
    """A millionth off on a corpus of more than 12 segments: within binary32's tolerance (1e-5), so
    only a point in binary32 arithmetic predicts it, far outside binary64's (a few ulp)."""
    return independent_bleu(hyps, refs) * (1 - 1e-6 if len(hyps) > 12 else 1.0)


def wrong_above_20_tokens(hyps: Hypotheses, refs: References) -> float:
    """A thousandth off when a hypothesis has more than 20 tokens."""
    return independent_bleu(hyps, refs) * (OFF if any(len(h) > 20 for h in hyps) else 1.0)


def wrong_on_long_tokens(hyps: Hypotheses, refs: References) -> float:
    """A thousandth off when a token has more than 11 characters."""
    long = any(len(t) > 11 for h in hyps for t in h) or any(len(t) > 11 for rs in refs for r in rs for t in r)
    return independent_bleu(hyps, refs) * (OFF if long else 1.0)


def wrong_with_six_references(hyps: Hypotheses, refs: References) -> float:
    """A thousandth off when a segment has six references or more."""
    return independent_bleu(hyps, refs) * (OFF if any(len(rs) >= 6 for rs in refs) else 1.0)


def wrong_above_100_tokens(hyps: Hypotheses, refs: References) -> float:
    """A thousandth off when the corpus's hypotheses hold more than 100 tokens in all."""
    return independent_bleu(hyps, refs) * (OFF if sum(len(h) for h in hyps) > 100 else 1.0)


def _int16(value: int) -> int:
    """``value`` as a 16-bit signed counter holds it (two's complement wrap-around)."""
    return (value + 2**15) % 2**16 - 2**15


def int16_counters(hyps: Hypotheses, refs: References) -> float:
    """Matches, totals and lengths summed in int16 (numpy.int16 arrays): on a real test set the
    unigram total passes 32,767, wraps to a negative number, and the log of a negative ratio is NaN."""
    stats = _statistics(hyps, refs)
    wrapped = {
        "matches": [_int16(m) for m in stats["matches"]],
        "totals": [_int16(t) for t in stats["totals"]],
        "hyp_len": _int16(stats["hyp_len"]),
        "ref_len": _int16(stats["ref_len"]),
    }
    counters = [*stats["matches"], *stats["totals"], stats["hyp_len"], stats["ref_len"]]
    counters = [_int16(value) for value in counters]
    if min(counters) < 0:
        return math.nan  # what numpy.log gives for a negative ratio
    return _score(wrapped)


def uint8_counters(hyps: Hypotheses, refs: References) -> float:
    """Matches, totals and lengths summed in uint8 (numpy.uint8 arrays): each count wraps modulo 256.
    Never negative, so never NaN as int16's: past 255 the score is the formula's value on the counts
    left over, a wrong number that may look plausible, or exceed 1 (matches left over above their
    total), or be 0 (a match count wrapped to 0); a total wrapped to 0 divides by zero (an error)."""
    stats = _statistics(hyps, refs)
    wrapped = {
        "matches": [m % 2**8 for m in stats["matches"]],
        "totals": [t % 2**8 for t in stats["totals"]],
        "hyp_len": stats["hyp_len"] % 2**8,
        "ref_len": stats["ref_len"] % 2**8,
    }
    return _score(wrapped)


def _joined_grams(tokens: Sequence[str], n: int) -> Counter[str]:
    return Counter("".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def joined_ngrams(hyps: Hypotheses, refs: References) -> float:
    """N-grams keyed by ``"".join`` of their tokens: ("ab", "c") and ("a", "bc") are one key."""
    matches, totals, c, r = [0] * 4, [0] * 4, 0, 0
    for hyp, segment_refs in zip(hyps, refs, strict=True):
        c += len(hyp)
        r += min((abs(len(x) - len(hyp)), len(x)) for x in segment_refs)[1]
        for n in range(1, 5):
            ref_counts = [_joined_grams(x, n) for x in segment_refs]
            for gram, count in _joined_grams(hyp, n).items():
                matches[n - 1] += min(count, max(rc[gram] for rc in ref_counts))
                totals[n - 1] += count
    return _score({"matches": matches, "totals": totals, "hyp_len": c, "ref_len": r})


def batched_mean(hyps: Hypotheses, refs: References) -> float:
    """The mean of corpus BLEU over batches of 32 segments (as an evaluation loop over a data
    loader reports it), not BLEU of the whole corpus."""
    batches = [(hyps[k : k + 32], refs[k : k + 32]) for k in range(0, len(hyps), 32)]
    return sum(independent_bleu(h, r) for h, r in batches) / len(batches)


def truncated_to_32(hyps: Hypotheses, refs: References) -> float:
    """Hypotheses cut to their first 32 tokens (a model's maximum length), references whole."""
    return independent_bleu([h[:32] for h in hyps], refs)


#: Questions answered so far by this process (a target keeps its process for the whole run).
_CALLS = [0]


def wrong_after_2000_calls(hyps: Hypotheses, refs: References) -> float:
    """Right for its first 2,000 questions, a thousandth off from the 2,001st (a cache that fills
    up, a counter that overflows, a leak)."""
    _CALLS[0] += 1
    return independent_bleu(hyps, refs) * (OFF if _CALLS[0] > 2000 else 1.0)
