"""The invariants BLEU promises, as properties any target can be checked against (spec 09).

Each invariant has a stable ID, a statement, the capabilities it needs from a target
(``statistics``, ``sentence``, ``brevity_penalty``), a hypothesis strategy that draws its
examples, and a check that raises :class:`InvariantViolationError` when the target breaks it.
Which invariants hold under which conventions is written in ``spec/09-invariants.md`` and
tested: a property that is false for an option is shown false, not skipped.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from conformance.peers.targets import Outcome, Target
from conformance.suite.resolution import IN_FULL, Resolution
from conformance.suite.strategies import VOCABULARY, corpora, mutated, sentences
from reference_bleu.formulas.length import REF_LENGTH_RULES
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS

Corpus = tuple[list[list[str]], list[list[list[str]]]]


class InvariantViolationError(AssertionError):
    """A target broke an invariant; the message names it and shows the evidence.

    ``values``: for a metamorphic invariant, (the score after the change, the score before it,
    what the second is): the two numbers a report shows side by side.
    """

    values: tuple[object, object, str] | None = None


#: Needs that are premises rather than capabilities, each with what it asks of the target: a
#: property whose premise a target does not meet says nothing about it (n/a, spec CONF-JUDGE).
PREMISES = {
    "references as given": "a segment's references sent as the example makes them (permuted, duplicated)",
    "tokens as given": "the tokens scored as given (a renaming of the vocabulary kept apart)",
    "empty segment": "a segment with an empty candidate and an empty reference in its domain",
}


@dataclass(frozen=True)
class Invariant:
    """One property: ID, statement, needed capabilities, example strategy and check."""

    id: str
    statement: str
    #: What the property needs of a target: capabilities (``statistics``, ``sentence``,
    #: ``brevity_penalty``) and premises about what it is given (:data:`PREMISES`).
    needs: frozenset[str]
    strategy: st.SearchStrategy[Any]
    check: Callable[[Target, Any], None]


def _fail(ident: str, message: str, **evidence: object) -> None:
    shown = "; ".join(f"{k}={v!r}" for k, v in evidence.items())
    error = InvariantViolationError(f"{ident}: {message} ({shown})")
    if "before" in evidence and "after" in evidence:
        error.values = (evidence["after"], evidence["before"], "the target's own score before the change")
    raise error


def _unchanged(
    ident: str, message: str, target: Target, original: Corpus, transformed: Corpus, **evidence: object
) -> None:
    """A metamorphic check: the score of ``transformed`` must equal that of ``original``."""
    before, after = target.corpus(*original).score, target.corpus(*transformed).score
    if not same_score(target, before, after):
        _fail(ident, message, before=before, after=after, corpus=original, **evidence)


def same_score(target: Target, a: float, b: float) -> bool:
    """Equal scores: exactly, unless the target declares a ``score_tolerance`` (relative).

    The peers and the reference compute from integer statistics, so a metamorphic change
    leaves their score bit for bit the same. A target under the runner may sum floats in
    another order (a macro average of sentence scores does): a few ulp apart is then the
    same score, as in the differential checks (spec CONF-JUDGE). Bounds (0, 1, BP = 1) stay
    exact.
    """
    tolerance = float(getattr(target, "score_tolerance", 0.0))
    resolution: Resolution = getattr(target, "resolution", IN_FULL)
    if (tolerance == 0.0 and resolution.window == 0.0) or not (isinstance(a, float) and isinstance(b, float)):
        return a == b
    return math.isclose(a, b, rel_tol=tolerance, abs_tol=resolution.absolute_tolerance())


def _max_order(target: Target) -> int:
    return int(getattr(target, "max_order", 4))


# --- INV-RANGE -------------------------------------------------------------------------------


def _check_range(target: Target, corpus: Corpus) -> None:
    """INV-RANGE: the property of spec 09, checked on one example."""
    score = target.corpus(*corpus).score
    # above 1 by the target's own rounding (a percent round trip in binary64: 1.0000000000000004)
    # is its arithmetic (CONV-ARITH), never a fault; an exact target is held to 1 exactly
    if not (isinstance(score, float) and score >= 0.0 and (score <= 1.0 or same_score(target, score, 1.0))):
        _fail("INV-RANGE", "score outside [0, 1]", score=score, corpus=corpus)


# --- INV-IDENTITY ----------------------------------------------------------------------------


@st.composite
def _identical(draw: st.DrawFn) -> Corpus:
    """Each hypothesis equals one of its references and has at least 4 tokens."""
    hyps, refs = [], []
    for _ in range(draw(st.integers(1, 4))):
        hyp = draw(sentences(min_size=4, max_size=10))
        others = draw(st.lists(mutated(hyp), max_size=3))
        position = draw(st.integers(0, len(others)))
        hyps.append(hyp)
        refs.append([*others[:position], list(hyp), *others[position:]])
    return hyps, refs


def _check_identity(target: Target, corpus: Corpus) -> None:
    """INV-IDENTITY: the property of spec 09, checked on one example."""
    hyps, _refs = corpus
    if min(len(h) for h in hyps) < _max_order(target):
        return  # not long enough for every order of this target
    score = target.corpus(*corpus).score
    if not (isinstance(score, float) and same_score(target, score, 1.0)):
        _fail(
            "INV-IDENTITY",
            "a hypothesis equal to one of its references must score exactly 1",
            score=score,
            corpus=corpus,
        )


# --- INV-CLIP --------------------------------------------------------------------------------


def _clip_bound(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], n: int) -> int:
    """Σ over segments and distinct candidate n-grams g of max over one reference of its count of g."""
    bound = 0
    for hyp, segment_refs in zip(hyps, refs, strict=True):
        grams = {tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1)}
        ref_counts = [Counter(tuple(r[i : i + n]) for i in range(len(r) - n + 1)) for r in segment_refs]
        bound += sum(max(c[g] for c in ref_counts) for g in grams)
    return bound


def _check_clip(target: Target, corpus: Corpus) -> None:
    """INV-CLIP: the property of spec 09, checked on one example."""
    out = target.corpus(*corpus)
    if out.matches is None or out.totals is None:
        return
    for n, (m, t) in enumerate(zip(out.matches, out.totals, strict=True), start=1):
        if not 0 <= m <= t:
            _fail("INV-CLIP", f"order {n} needs 0 <= matches <= totals", matches=m, totals=t, corpus=corpus)
        if m > _clip_bound(*corpus, n):
            _fail(
                "INV-CLIP",
                f"order {n} matches exceed the clipping bound",
                matches=m,
                bound=_clip_bound(*corpus, n),
                corpus=corpus,
            )


# --- INV-BP ----------------------------------------------------------------------------------


@st.composite
def _bp_pair(draw: st.DrawFn) -> tuple[list[str], int, int]:
    """A reference and two candidate lengths c1 < c2 (candidates are prefixes of the reference, repeated)."""
    reference = draw(sentences(min_size=1, max_size=10))
    c1 = draw(st.integers(1, 2 * len(reference) + 2))
    c2 = draw(st.integers(c1 + 1, 2 * len(reference) + 3))
    return reference, c1, c2


def _check_bp(target: Target, example: tuple[list[str], int, int]) -> None:
    """INV-BP: the property of spec 09, checked on one example."""
    reference, c1, c2 = example
    outs: list[Outcome] = []
    for c in (c1, c2):
        hyp = (reference * (c // len(reference) + 1))[:c]
        out = target.corpus([hyp], [[reference]])
        if out.brevity_penalty is None:
            return
        r = len(reference)
        bp = out.brevity_penalty
        if not 0.0 < bp <= 1.0:
            _fail("INV-BP", "0 < BP <= 1 when c > 0", bp=bp, c=c, r=r)
        if (bp == 1.0) != (c >= r):
            _fail("INV-BP", "BP = 1 exactly when c >= r", bp=bp, c=c, r=r)
        outs.append(out)
    if (outs[0].brevity_penalty or 0.0) > (outs[1].brevity_penalty or 0.0):
        _fail("INV-BP", "BP must not decrease as c grows", bp=[o.brevity_penalty for o in outs], c=(c1, c2))


# --- order, duplication, renaming ------------------------------------------------------------


@st.composite
def _with_permutation(draw: st.DrawFn) -> tuple[Corpus, list[int]]:
    corpus = draw(corpora())
    return corpus, draw(st.permutations(range(len(corpus[0]))))


def _check_segment_order(target: Target, example: tuple[Corpus, list[int]]) -> None:
    """INV-SEGMENT-ORDER: the property of spec 09, checked on one example."""
    (hyps, refs), order = example
    permuted = ([hyps[i] for i in order], [refs[i] for i in order])
    _unchanged(
        "INV-SEGMENT-ORDER",
        "permuting segments changed the score",
        target,
        (hyps, refs),
        permuted,
        order=order,
    )


@st.composite
def _with_ref_permutations(draw: st.DrawFn) -> tuple[Corpus, list[list[int]]]:
    hyps, refs = draw(corpora())
    return (hyps, refs), [draw(st.permutations(range(len(rs)))) for rs in refs]


def _check_ref_order(target: Target, example: tuple[Corpus, list[list[int]]]) -> None:
    """INV-REF-ORDER: the property of spec 09, checked on one example."""
    (hyps, refs), orders = example
    permuted = [[rs[i] for i in order] for rs, order in zip(refs, orders, strict=True)]
    _unchanged(
        "INV-REF-ORDER", "permuting references changed the score", target, (hyps, refs), (hyps, permuted)
    )


@st.composite
def _with_duplicate(draw: st.DrawFn) -> tuple[Corpus, int, int]:
    hyps, refs = draw(corpora())
    segment = draw(st.integers(0, len(hyps) - 1))
    return (hyps, refs), segment, draw(st.integers(0, len(refs[segment]) - 1))


def _check_ref_dup(target: Target, example: tuple[Corpus, int, int]) -> None:
    """INV-REF-DUP: the property of spec 09, checked on one example."""
    (hyps, refs), segment, k = example
    doubled = [list(rs) for rs in refs]
    doubled[segment] = [*doubled[segment], refs[segment][k]]
    _unchanged(
        "INV-REF-DUP",
        "duplicating a reference changed the score",
        target,
        (hyps, refs),
        (hyps, doubled),
        segment=segment,
    )


def statistics_of(outcome: Outcome, orders: int | None = None) -> tuple[Any, ...]:
    """(matches, totals, c, r) of ``outcome``, the counts cut to the first ``orders`` orders (a
    target may send more orders than the reference computes): what DIFF-STATS compares."""
    matches, totals = outcome.matches, outcome.totals
    if orders is not None:
        matches = matches[:orders] if matches else matches
        totals = totals[:orders] if totals else totals
    return (matches, totals, outcome.hyp_len, outcome.ref_len)


def same_statistics(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """(matches, totals, c, r) equal: counts exactly; r exactly when both are integers, else to
    1e-12 relative (a rational r under the ``average`` rule travels as a binary64 number)."""
    if a[:3] != b[:3]:
        return False
    r_a, r_b = a[3], b[3]
    if isinstance(r_a, int) and isinstance(r_b, int):
        return r_a == r_b
    if r_a is None or r_b is None:
        return r_a is r_b
    return math.isclose(float(r_a), float(r_b), rel_tol=1e-12, abs_tol=1e-12)


def _check_additive(target: Target, corpus: Corpus) -> None:
    """INV-ADDITIVE: the property of spec 09, checked on one example."""
    hyps, refs = corpus
    whole = target.corpus(hyps, refs)
    if not whole.has_statistics:
        return
    parts = [target.corpus([h], [r]) for h, r in zip(hyps, refs, strict=True)]
    summed = (
        tuple(map(sum, zip(*(p.matches or () for p in parts), strict=True))),
        tuple(map(sum, zip(*(p.totals or () for p in parts), strict=True))),
        sum(p.hyp_len or 0 for p in parts),
        sum(p.ref_len or 0 for p in parts),
    )
    got = (whole.matches, whole.totals, whole.hyp_len, whole.ref_len)
    if not same_statistics(got, summed):
        _fail(
            "INV-ADDITIVE",
            "corpus statistics are not the sum of segment statistics",
            corpus_stats=got,
            summed=summed,
            corpus=corpus,
        )


def _check_corpus_dup(target: Target, corpus: Corpus) -> None:
    """INV-CORPUS-DUP: the property of spec 09, checked on one example."""
    hyps, refs = corpus
    _unchanged(
        "INV-CORPUS-DUP", "doubling the corpus changed the score", target, corpus, (hyps * 2, refs * 2)
    )


def _check_empty_segment(target: Target, corpus: Corpus) -> None:
    """INV-EMPTY-SEGMENT: the property of spec 09, checked on one example."""
    hyps, refs = corpus
    _unchanged(
        "INV-EMPTY-SEGMENT",
        "a segment with empty candidate and reference changed the score",
        target,
        corpus,
        ([*hyps, []], [*refs, [[]]]),
    )


#: Vocabulary renamings: a bijection onto other strings, some differing only in case.
_RENAMED = ("The", "the", "CAT", "ß", "ss", "mät", "Dog")


@st.composite
def _with_renaming(draw: st.DrawFn) -> tuple[Corpus, dict[str, str]]:
    corpus = draw(corpora())
    images = draw(st.permutations(_RENAMED))
    return corpus, dict(zip(VOCABULARY, images, strict=True))


def _check_rename(target: Target, example: tuple[Corpus, dict[str, str]]) -> None:
    """INV-RENAME: the property of spec 09, checked on one example."""
    (hyps, refs), mapping = example
    # a token outside the vocabulary keeps its name: the one a text target's split makes of an empty
    # line ("" under split(" "), TOK-SPLIT-RULE) is no image of the renaming, so it stays one-to-one
    renamed = (
        [[mapping.get(t, t) for t in h] for h in hyps],
        [[[mapping.get(t, t) for t in r] for r in rs] for rs in refs],
    )
    _unchanged(
        "INV-RENAME",
        "renaming the vocabulary one-to-one changed the score",
        target,
        (hyps, refs),
        renamed,
        mapping=mapping,
    )


def _check_no_mutation(target: Target, corpus: Corpus) -> None:
    """INV-NO-MUTATION: the property of spec 09, checked on one example."""
    hyps, refs = corpus
    before = copy.deepcopy(corpus)
    target.corpus(hyps, refs)
    if (hyps, refs) != before:
        _fail("INV-NO-MUTATION", "the target changed its input", before=before, after=(hyps, refs))


def _check_sentence(target: Target, corpus: Corpus) -> None:
    """INV-SENTENCE: the property of spec 09, checked on one example."""
    hyps, refs = corpus
    sentence = target.sentence(hyps[0], refs[0])
    if sentence is None:
        return
    one = target.corpus(hyps[:1], refs[:1]).score
    if not same_score(target, sentence.score, one):
        _fail(
            "INV-SENTENCE",
            "sentence BLEU differs from corpus BLEU of one segment",
            sentence=sentence.score,
            corpus_of_one=one,
            segment=(hyps[0], refs[0]),
        )


def _zero_order(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], N: int) -> int | None:
    """An order n <= N whose corpus matches are 0 while it has candidate n-grams, if any."""
    for n in range(1, N + 1):
        total = sum(max(0, len(h) - n + 1) for h in hyps)
        if total and _clip_bound(hyps, refs, n) == 0:
            return n
    return None


def _check_zero(target: Target, corpus: Corpus) -> None:
    """INV-ZERO: the property of spec 09, checked on one example."""
    hyps, refs = corpus
    n = _zero_order(hyps, refs, _max_order(target))
    if n is None:
        return
    score = target.corpus(hyps, refs).score
    if score != 0.0:
        _fail(
            "INV-ZERO",
            f"order {n} has no match, the unsmoothed score must be exactly 0",
            score=score,
            corpus=corpus,
        )


def _check_determinism(target: Target, corpus: Corpus) -> None:
    """INV-DETERMINISM: the property of spec 09, checked on one example."""
    first, second = target.corpus(*corpus), target.corpus(*corpus)
    if first != second:
        _fail(
            "INV-DETERMINISM", "two calls on the same input differ", first=first, second=second, corpus=corpus
        )


INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "INV-RANGE", "0 <= score <= 1, within the target's arithmetic", frozenset(), corpora(), _check_range
    ),
    Invariant(
        "INV-IDENTITY",
        "a hypothesis equal to one of its references, long enough for every order, scores exactly 1",
        frozenset(),
        _identical(),
        _check_identity,
    ),
    Invariant(
        "INV-CLIP",
        "0 <= m_n <= l_n, and m_n <= Σ_g max_R Count_R(g)",
        frozenset({"statistics"}),
        corpora(),
        _check_clip,
    ),
    Invariant(
        "INV-BP",
        "0 < BP <= 1 for c > 0; BP = 1 iff c >= r; BP non-decreasing in c",
        frozenset({"brevity_penalty"}),
        _bp_pair(),
        _check_bp,
    ),
    Invariant(
        "INV-SEGMENT-ORDER",
        "permuting segments leaves the corpus score unchanged",
        frozenset(),
        _with_permutation(),
        _check_segment_order,
    ),
    Invariant(
        "INV-REF-ORDER",
        "permuting a segment's references leaves the score unchanged",
        frozenset({"references as given"}),
        _with_ref_permutations(),
        _check_ref_order,
    ),
    Invariant(
        "INV-REF-DUP",
        "duplicating a reference leaves the score unchanged",
        frozenset({"references as given"}),
        _with_duplicate(),
        _check_ref_dup,
    ),
    Invariant(
        "INV-ADDITIVE",
        "corpus statistics equal the sum of segment statistics",
        frozenset({"statistics"}),
        corpora(),
        _check_additive,
    ),
    Invariant(
        "INV-CORPUS-DUP",
        "doubling the corpus leaves the score unchanged",
        frozenset(),
        corpora(),
        _check_corpus_dup,
    ),
    Invariant(
        "INV-EMPTY-SEGMENT",
        "a segment with empty candidate and empty reference leaves the score unchanged",
        frozenset({"empty segment"}),
        corpora(),
        _check_empty_segment,
    ),
    Invariant(
        "INV-RENAME",
        "a one-to-one renaming of the vocabulary changes nothing",
        frozenset({"tokens as given"}),
        _with_renaming(),
        _check_rename,
    ),
    Invariant(
        "INV-NO-MUTATION", "inputs are unchanged after the call", frozenset(), corpora(), _check_no_mutation
    ),
    Invariant(
        "INV-SENTENCE",
        "sentence BLEU equals corpus BLEU of a one-segment corpus",
        frozenset({"sentence"}),
        corpora(),
        _check_sentence,
    ),
    Invariant(
        "INV-ZERO",
        "with no smoothing, an order with zero matches gives exactly 0",
        frozenset(),
        corpora(),
        _check_zero,
    ),
    Invariant(
        "INV-DETERMINISM", "the same input gives the same output", frozenset(), corpora(), _check_determinism
    ),
)

BY_ID = {inv.id: inv for inv in INVARIANTS}

#: Every smoothing method of the spec but none. The tools' own formulas (CONV-SMOOTH) are
#: conventions of their profiles, not choices the spec offers: spec 09 lists what they break.
SMOOTHED = tuple(name for name, m in SMOOTHING_METHODS.items() if name != "none" and not m.tool)

#: Where an invariant is false for the reference under an option: (invariant, options, why).
#: Everything not listed holds for every option (spec/09-invariants.md); tests show both.
DOES_NOT_HOLD: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("INV-REF-ORDER", {"ref_length": "closest-first"}, "ties go to the reference listed first"),
    ("INV-IDENTITY", {"ref_length": "longest"}, "a longer reference than the matching one sets r > c"),
    ("INV-IDENTITY", {"ref_length": "average"}, "the mean reference length can exceed c"),
    ("INV-REF-DUP", {"ref_length": "average"}, "a duplicate shifts the mean reference length"),
    (
        "INV-IDENTITY",
        {"smoothing": "chen-cherry-5"},
        "averaging counts across orders lowers p_n below 1 on a corpus",
    ),
    ("INV-IDENTITY", {"smoothing": "chen-cherry-7"}, "as method 5"),
    *(
        ("INV-RANGE", {"smoothing": name}, "its smoothed p_n can exceed 1 (SmoothingMethod.bounded)")
        for name, method in SMOOTHING_METHODS.items()
        if not method.bounded
    ),
    *(
        (inv, {"smoothing": method}, "smoothing depends on absolute counts or gives zero orders a value")
        for method in SMOOTHED
        for inv in ("INV-CORPUS-DUP", "INV-ZERO")
    ),
    ("INV-ZERO", {"zero_precision": "skip"}, "zero orders are dropped from the mean"),
    ("INV-ZERO", {"zero_precision": "renormalize"}, "zero orders are dropped, the mean taken over the rest"),
    ("INV-ZERO", {"zero_precision": "sentinel"}, "a zero precision is a tiny number, so BLEU is tiny, not 0"),
    ("INV-EMPTY-SEGMENT", {"aggregation": "macro"}, "the empty segment's sentence score 0 enters the mean"),
)

#: One value of each option, as the grid of tested configurations.
OPTION_GRID: tuple[dict[str, Any], ...] = (
    {},
    *({"ref_length": r} for r in REF_LENGTH_RULES if r != "closest"),
    *({"smoothing": s} for s in SMOOTHED),
    {"effective_order": True},
    {"zero_precision": "skip"},
    {"undefined_precision": "skip"},
    {"aggregation": "macro"},
)


#: The fields each premise of :data:`PREMISES` rests on: a target whose convention on them is unknown
#: may break the premise for a reason of its own.
PREMISE_FIELDS: dict[str, tuple[str, ...]] = {
    "tokens as given": ("tokenize", "lowercase", "split"),
    "references as given": ("ref_length", "empty_references"),
    "empty segment": ("empty_candidates", "empty_references", "zero_length"),
}


def rests_on(invariant: Invariant) -> frozenset[str]:
    """The option and text fields whose convention decides whether ``invariant`` holds: those that
    :data:`DOES_NOT_HOLD` names for it, and those its premises rest on (spec 09, CONF-JUDGE)."""
    fields = {name for i, options, _why in DOES_NOT_HOLD if i == invariant.id for name in options}
    for need in invariant.needs & set(PREMISE_FIELDS):
        fields.update(PREMISE_FIELDS[need])
    return frozenset(fields)


def holds(invariant_id: str, options: dict[str, Any]) -> bool:
    """Whether the reference keeps ``invariant_id`` under ``options`` (one option set at a time)."""
    return not any(i == invariant_id and o.items() <= options.items() for i, o, _why in DOES_NOT_HOLD)
