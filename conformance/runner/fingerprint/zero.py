"""FP-ZERO and FP-UNDEFINED: what a zero precision gives (the limit, a skip, a smoothing method and its
parameter, solved over its range, or a peer's behaviour) and what an order without n-grams gives
(spec EC-002, EC-003, SMOOTH)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from conformance.runner.fingerprint.base import (
    MATCH_TOLERANCE,
    PEERS,
    Answer,
    Config,
    Convention,
    Corpus,
    Diagnostic,
    Point,
    agrees,
    by_reference,
    peer_convention,
    peers_apply,
    reference_prediction,
    same_peers,
    words,
)
from reference_bleu.smoothing import SMOOTHING_METHODS

#: Zero precisions and smoothing: single segments with c >= r or known BP.
_ZERO = (
    Diagnostic(
        "p_4 = 0 only",
        ([words("a b c d e f")], [[words("a b c x d e f y")]]),
    ),
    Diagnostic("p_3 = p_4 = 0", ([words("a b c d e f g")], [[words("a b x c d y e f")]])),
    Diagnostic("every p_n in (0, 1)", ([words("a b c d e x a b c d")], [[words("a b c d e a b c d")]])),
    Diagnostic("no match at all", ([words("a b c d e")], [[words("v w x y z")]])),
    Diagnostic(
        "two segments, the last without 4-grams",
        ([words("a b c d e f"), words("a b")], [[words("a b c x d e f")], [words("a b")]]),
    ),
)


#: What a peer's zero behaviour sets, from its profile (spec CONV-PROFILES): the later points are
#: predicted at the peer's whole point on zero counts (nltk's early return and max(1, l_n) too).
PEER_ZERO_OPTIONS = (
    "smoothing",
    "smoothing_value",
    "zero_precision",
    "zero_value",
    "early_return",
    "denominator",
)


#: The early returns of EC-016 that FP-ZERO combines with each smoothing method.
EARLY_RETURNS = {
    "no-unigram-match": "0 first when no unigram matches",
    "any-zero": "0 first when any order has no match",
}


#: The smoothing methods an early return changes (spec SMOOTH, EC-016). With no unigram match, a
#: method that leaves p_1 unsmoothed (CC2, add-k, CC6) gives 0 anyway; on any zero count, only a
#: method that also changes precisions that are not zero (torchmetrics' add-one) is left with
#: something to do (CC7 does there what CC5 does). The others are the plain method or the limit.
_SPEC_SMOOTHING = frozenset(n for n, m in SMOOTHING_METHODS.items() if n != "none" and not m.tool)
EARLY_RETURN_MATTERS = {
    "no-unigram-match": _SPEC_SMOOTHING - {"chen-cherry-2", "add-k", "chen-cherry-6"},
    "any-zero": frozenset({"chen-cherry-2", "chen-cherry-5", "chen-cherry-6", "add-k", "add-one"}),
}


def _zero(config: Config) -> tuple[Convention, ...]:
    found: list[Convention] = [
        by_reference("limit: a zero precision gives 0", "EC-002", smoothing="none", zero_precision="limit"),
        by_reference(
            "skip: zero orders left out, weights kept", "EC-002", smoothing="none", zero_precision="skip"
        ),
    ]
    found += [
        by_reference(f"smoothing {name}", method.spec_id, smoothing=name, zero_precision="limit")
        for name, method in SMOOTHING_METHODS.items()
        if name != "none" and not method.tool
    ]
    # The early return (EC-016) combines with smoothing: a tool that returns 0 before smoothing
    # when nothing matches (ignite, sacrebleu) or when any order is zero (torchmetrics) is the
    # smoothing method and that rule together, not a smoothing method of its own.
    found += [
        by_reference(
            f"smoothing {name}, {EARLY_RETURNS[rule]}",
            method.spec_id,
            smoothing=name,
            zero_precision="limit",
            early_return=rule,
        )
        for rule in EARLY_RETURNS
        for name, method in SMOOTHING_METHODS.items()
        if name != "none" and not method.tool and name in EARLY_RETURN_MATTERS[rule]
    ]
    if peers_apply(config):
        # A peer's own zero behaviour (nltk's log-0 sentinel, DIV-NLTK-002) is what INV-ZERO
        # tests; it is reported here, on FP-ZERO, and not again as a failed invariant.
        found += [
            replace(peer_convention(p, PEER_ZERO_OPTIONS), breaks=frozenset({"INV-ZERO"})) for p in PEERS
        ]
    return tuple(found)


#: Undefined precisions: a two-token candidate (orders 3 and 4 have no n-grams), alone and in
#: a corpus whose pooled p_1 = 2/3.
_UNDEFINED = (
    Diagnostic("c=2 < r=3, p_1 = p_2 = 1", ([words("a b")], [[words("a b c")]])),
    Diagnostic(
        "corpus of 2- and 1-token candidates", ([words("a b"), words("x")], [[words("a b")], [words("y")]])
    ),
)


def _undefined(config: Config) -> tuple[Convention, ...]:
    found: list[Convention] = [
        by_reference(
            "zero: an order without n-grams counts as p_n = 0", "EC-003", undefined_precision="zero"
        ),
        by_reference("effective order: dropped, weights renormalised", "EC-003", effective_order=True),
        by_reference("skip: dropped, weights kept", "EC-003", undefined_precision="skip"),
        by_reference("error: refuses an order without n-grams", "EC-003", undefined_precision="error"),
    ]
    if config.get("smoothing", "none") != "none":
        # max(1, l_n) (EC-015): an order without n-grams is 0/1, a zero count that the smoothing
        # then treats as any other (nltk per segment, ignite over the corpus); without smoothing
        # 0/1 is the paper's p_n = 0
        found += [
            by_reference("max(1, l_n) per segment: 0/1, a zero count", "EC-015", denominator="max1-segment"),
            by_reference("max(1, total l_n): 0/1, a zero count", "EC-015", denominator="max1-total"),
        ]
    return (*found, *same_peers(config, ("effective_order",)))


#: Where a smoothing parameter is looked for: far beyond any value in use (sacrebleu's floor
#: 0.1, add-k 1, nltk's epsilon 0.1, coco's 1e-9 and 1e-15 live inside it).
SOLVED_RANGE = (1e-12, 1e12)


def _predictor(options: Config) -> Callable[[Config, Corpus], Answer]:
    def predict(config: Config, corpus: Corpus) -> Answer:
        return reference_prediction(config, corpus, **options)

    return predict


def solved_parameters(
    answers: Sequence[Answer], config: Config, point: Point, tolerance: float
) -> list[Convention]:
    """For each one-parameter smoothing, the parameter that explains the first diagnostic, if it explains all.

    The parameter is found by bisection on a log scale over SOLVED_RANGE (the score is monotone
    in it), then written with 6 significant digits and checked on every diagnostic.
    """
    first = answers[0]
    if not isinstance(first, float):
        return []
    corpus = point.diagnostics[0].corpus
    found = []
    for name, method in SMOOTHING_METHODS.items():
        if method.parameter is None or method.tool:
            continue

        def at(log_value: float, name: str = name) -> float:
            value = Fraction(math.exp(log_value))  # exact: no rounding to 0 at the small end
            answer = reference_prediction(config, corpus, smoothing=name, smoothing_value=value)
            return answer if isinstance(answer, float) else math.nan

        low, high = math.log(SOLVED_RANGE[0]), math.log(SOLVED_RANGE[1])
        f_low, f_high = at(low) - first, at(high) - first
        if math.isnan(f_low) or math.isnan(f_high) or f_low * f_high > 0:
            continue
        for _ in range(80):
            mid = (low + high) / 2
            f_mid = at(mid) - first
            if (f_mid < 0) == (f_low < 0):
                low, f_low = mid, f_mid
            else:
                high = mid
        value = f"{math.exp((low + high) / 2):.6g}"
        options = {"smoothing": name, "smoothing_value": value, "zero_precision": "limit"}
        predicted = [reference_prediction(config, d.corpus, **options) for d in point.diagnostics]
        if all(
            agrees(a, b, max(MATCH_TOLERANCE, tolerance)) for a, b in zip(answers, predicted, strict=True)
        ):
            found.append(
                Convention(
                    f"smoothing {name}, {method.parameter} = {value}",
                    _predictor(options),
                    options,
                    (),
                    method.spec_id,
                )
            )
    return found


ZERO = Point(
    "FP-ZERO",
    ("EC-002", "SMOOTH", "EC-011"),
    "what does a zero precision give: smoothing method and parameter?",
    _ZERO,
    _zero,
    axes=("zero_precision", "smoothing", "early_return", "denominator"),
    solve=solved_parameters,
)
UNDEFINED = Point(
    "FP-UNDEFINED",
    ("EC-003",),
    "what does an order without n-grams give (effective order)?",
    _UNDEFINED,
    _undefined,
    axes=("undefined_precision",),
)
