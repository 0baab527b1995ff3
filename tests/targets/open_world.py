"""Targets of the open world (spec CONF-OPEN, CONF-VERDICT): each written here from a description of
what real code does, on top of ``independent_bleu`` (the paper's BLEU, written without the reference),
never copied from a tool. Each docstring says what the runner must conclude.
"""

from __future__ import annotations

import math
import os
import threading
import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from tests.targets.conform import _score, _statistics, independent_bleu

Hyps = Sequence[Sequence[str]]
Refs = Sequence[Sequence[Sequence[str]]]


def join_split_tokens(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU on tokens that were joined with spaces and split again, as code that takes
    token lists but passes ``" ".join(tokens)`` through a whitespace tokenizer does: a token with a
    space inside becomes two. Not conformant (OPEN-WHITESPACE)."""

    def again(tokens: Sequence[str]) -> list[str]:
        return " ".join(tokens).split()

    return independent_bleu([again(h) for h in hyps], [[again(r) for r in rs] for rs in refs])


def unk_never_matches(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU, except that ``<unk>`` in a reference never matches (a toolkit's rule: an
    unknown word of the reference is no evidence): the reference's ``<unk>`` is replaced by a token
    no hypothesis holds. Not conformant (OPEN-SPECIAL)."""
    return independent_bleu(
        hyps, [[["\x00unk" if t == "<unk>" else t for t in r] for r in rs] for rs in refs]
    )


def nfkc_tokens(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU on NFKC-normalised tokens, as code that "cleans" Unicode first: a ligature, a
    full-width form and a decomposed accent each match their plain form. Not conformant
    (OPEN-NORMALISATION, OPEN-COMPATIBILITY)."""

    def clean(tokens: Sequence[str]) -> list[str]:
        return [unicodedata.normalize("NFKC", t) for t in tokens]

    return independent_bleu([clean(h) for h in hyps], [[clean(r) for r in rs] for rs in refs])


def lowercase_hypotheses_only(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU with the hypotheses lower-cased and the references left as they are (a
    model's output normalised, the gold data not). Never the variant lowercase=unicode: not
    conformant (FP-CASE matches no folding of both sides)."""
    return independent_bleu([[t.lower() for t in h] for h in hyps], refs)


#: The segments a batch-sized buffer holds.
FIRST_SEGMENTS = 4096


def first_4096_segments(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU of the first 4,096 segments only (a fixed-size buffer, silently full). Right
    on every small question; not conformant (OPEN-LARGE)."""
    return independent_bleu(hyps[:FIRST_SEGMENTS], refs[:FIRST_SEGMENTS])


_SETTINGS = threading.local()
_SETTINGS.max_order = 4  # configured when the module is imported: in that thread only


def thread_local_config(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU with N read from thread-local state set at import: called from another thread,
    the setting is missing and it falls back to 2-gram BLEU. Not conformant (OPEN-CONTEXT)."""
    n = getattr(_SETTINGS, "max_order", 2)
    stats = _statistics(hyps, refs)
    if not all(stats["matches"][:n]):
        return 0.0
    log = sum(math.log(m / t) / n for m, t in zip(stats["matches"][:n], stats["totals"][:n], strict=True))
    c, r = stats["hyp_len"], stats["ref_len"]
    return (1.0 if c >= r else math.exp(1 - r / c)) * math.exp(log)


#: The process that imported the module, where the pool's workers were started.
_POOL_PROCESS = os.getpid()


def hangs_after_fork(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU computed by a pool of worker threads started in the process that imported it
    (a compiled extension's global pool): in a child forked after that, the workers are gone and a
    call waits for them forever. Its BLEU is the paper's: conformant, OPEN-CONTEXT saying it does not
    survive a fork, and no ROB-TIMEOUT (a hang after a fork says nothing of its BLEU)."""
    if os.getpid() != _POOL_PROCESS:
        threading.Event().wait()  # the workers this call waits for did not survive the fork
    return independent_bleu(hyps, refs)


def uint8_counters(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU with n-gram counts kept in 8 bits (a counter that wraps at 256, as a compact
    array type does): a token repeated 300 times counts 44. Not conformant (OPEN-REPEATS)."""
    matches, totals, c, r = [0] * 4, [0] * 4, 0, 0
    for hyp, segment in zip(hyps, refs, strict=True):
        c += len(hyp)
        r += min((abs(len(x) - len(hyp)), len(x)) for x in segment)[1]
        for n in range(1, 5):
            counts = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
            ref_counts = [Counter(tuple(x[i : i + n]) for i in range(len(x) - n + 1)) for x in segment]
            for g, k in counts.items():
                matches[n - 1] += min(k % 256, max(rc[g] % 256 for rc in ref_counts))
                totals[n - 1] += k % 256
    return _score({"matches": matches, "totals": totals, "hyp_len": c, "ref_len": r})


def drop_zero_orders(hyps: Hyps, refs: Refs) -> float:
    """BLEU over the orders that matched: an order with no match is left out and the geometric mean
    taken over the rest (``exp(mean(log p for p in precisions if p > 0))``), a convention real
    metric code takes. A variant of paper: zero_precision=renormalize."""
    stats = _statistics(hyps, refs)
    logs = [math.log(m / t) for m, t in zip(stats["matches"], stats["totals"], strict=True) if m and t]
    if not logs:
        return 0.0
    c, r = stats["hyp_len"], stats["ref_len"]
    bp = 1.0 if c >= r else (math.exp(1 - r / c) if c else 0.0)
    return bp * math.exp(sum(logs) / len(logs))


def empty_corpus_scores_one(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU, and an empty corpus scores 1 (its BP starts at 1 and every order's 0/0 is
    counted as 1). Outside BLEU's domain: conformant, the choice named (empty_corpus=one)."""
    if not hyps:
        return 1.0
    return independent_bleu(hyps, refs)


def percent_then_divide(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU computed on the percent scale and divided by 100 at the end, in binary64:
    100 · p_n per order, so a perfect match gives 1.0000000000000004. Its arithmetic, within a few
    ulps: conformant."""
    stats = _statistics(hyps, refs)
    if not all(stats["matches"]):
        return 0.0
    log = sum(0.25 * math.log(100 * m / t) for m, t in zip(stats["matches"], stats["totals"], strict=True))
    c, r = stats["hyp_len"], stats["ref_len"]
    return (1.0 if c >= r else math.exp(1 - r / c)) * math.exp(log) / 100


def fewest_references(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU with every segment's references cut to as many as the segment with the fewest
    has (references read as parallel streams, the shortest stream deciding). Not conformant."""
    fewest = min((len(rs) for rs in refs), default=0)
    return independent_bleu(hyps, [list(rs)[:fewest] for rs in refs])


def weights_033(hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """Sentence BLEU with the weights (0.33, 0.33, 0.33, 0) used as given (their sum, 0.99, not
    renormalised), as a user calling a sentence BLEU with 3-gram BLEU's weights writes it. A variant of
    paper: weights=0.33,0.33,0.33,0 with unnormalized_weights."""
    stats = _statistics([hyp], [refs])
    weights = (0.33, 0.33, 0.33, 0.0)
    if not all(m for m, w in zip(stats["matches"], weights, strict=True) if w):
        return 0.0
    log = sum(
        w * math.log(m / t) for m, t, w in zip(stats["matches"], stats["totals"], weights, strict=True) if w
    )
    c, r = stats["hyp_len"], stats["ref_len"]
    return (1.0 if c >= r else math.exp(1 - r / c)) * math.exp(log)


class SentenceWeights033:
    """:func:`weights_033` as a sentence-level adapter (its only entry point)."""

    capabilities: ClassVar[dict[str, Any]] = {
        "name": "sentence BLEU with weights 0.33,0.33,0.33,0",
        "levels": ["sentence"],
    }

    def sentence(self, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
        """Sentence BLEU."""
        return weights_033(hyp, refs)


sentence_weights_033 = SentenceWeights033()


def undefined_orders_count_one(hyps: Hyps, refs: Refs) -> float:
    """The paper's BLEU with an order that has no n-gram at all (l_n = 0, 0/0) counted as a precision
    of 1, its weight 1/4 kept, as code that guards a division with ``if total else 1.0`` writes it:
    an exact match of two tokens scores 1, and an empty candidate with an empty reference (c = r = 0,
    every order 0/0) scores 1 with BP 1. A variant of paper: undefined_precision=one."""
    stats = _statistics(hyps, refs)
    log = 0.0
    for m, t in zip(stats["matches"], stats["totals"], strict=True):
        if t == 0:
            continue  # log 1
        if m == 0:
            return 0.0
        log += 0.25 * math.log(m / t)
    c, r = stats["hyp_len"], stats["ref_len"]
    if c == 0:
        return 1.0 if r == 0 else 0.0
    return (1.0 if c >= r else math.exp(1 - r / c)) * math.exp(log)
