"""Fingerprinting: which convention a target follows on each open point (spec CONF-FINGERPRINT).

Each :class:`Point` is a question of the edge-case registry (spec 06) with diagnostic inputs
and the conventions known for it. A convention predicts the target's answer on every
diagnostic: a score, computed by the reference under the convention's options (or by a
peer's model, for a registered divergence), or ``"error"``. The target is asked the
diagnostics and a convention is named only when it predicts every answer; the diagnostics
are chosen so that the conventions of a point predict pairwise different answers
(tests/test_conform.py proves it), so no convention is ever guessed. Points are settled in
order, each under the conventions already found (the scale first: every later answer is read
on it). What matches nothing is reported as "matches no known convention" with the evidence.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from conformance.client import (
    ANSWER_RESOLUTION,
    SCORE_TOLERANCE,
    ProtocolTarget,
    TargetFaultError,
    TargetSkippedError,
    absolute_tolerance,
)
from conformance.divergences import REGISTRY, SACREBLEU_CONFIGS
from conformance.models import Case, PeerTarget, model, reference_options
from conformance.targets import NltkTarget
from reference_bleu import corpus_bleu
from reference_bleu.errors import BleuError
from reference_bleu.length import REF_LENGTH_RULES
from reference_bleu.smoothing import SMOOTHING_METHODS
from reference_bleu.tokenizers import CASE_FOLDINGS, TOKENIZERS, tokenize_line

Corpus = tuple[list[list[str]], list[list[list[str]]]]
Answer = float | str  # a score on [0, 1] (or raw, for the scale), "error", or "fault:<kind>"
Config = dict[str, Any]

#: Relative tolerance when matching an answer to a prediction (far below the gaps between
#: conventions on the diagnostics, which tests show exceed BINARY32_TOLERANCE; far above
#: binary64 rounding).
MATCH_TOLERANCE = 1e-9
#: The same for a target that computes in binary32 (a tensor library's default dtype): its
#: logs, sums and exponentials each round to 2^-24, and a score is off by up to some 1e-6.
BINARY32_TOLERANCE = 1e-5


def words(text: str) -> list[str]:
    """Tokens of a diagnostic written as a string."""
    return text.split()


def _alphabet(n: int, start: int = 0) -> list[str]:
    return [f"w{k}" for k in range(start, start + n)]


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic input: a name for reports and the corpus."""

    name: str
    corpus: Corpus


@dataclass(frozen=True)
class Convention:
    """A named way to settle a point: what it predicts, and what it sets in the reference's options."""

    name: str
    predict: Callable[[Config, Corpus], Answer]
    options: Config = field(default_factory=dict)
    divergence: tuple[str, ...] = ()  # registered divergences this convention is (not a spec choice)
    spec: str = ""  # the spec section naming it
    flags: frozenset[str] = frozenset()  # e.g. "error-on-empty-hypothesis", read by the judge
    tolerance: float = MATCH_TOLERANCE  # how close an answer must be to the prediction
    breaks: frozenset[str] = frozenset()  # invariants (spec 09) this behaviour is known to break


@dataclass(frozen=True)
class Point:
    """An open point of the spec, its diagnostics and its known conventions (preferred first)."""

    id: str
    ec: tuple[str, ...]
    question: str
    diagnostics: tuple[Diagnostic, ...]
    conventions: Callable[[Config], tuple[Convention, ...]]
    level: str = "corpus"


@dataclass(frozen=True)
class Finding:
    """What the target does on one point: the matching conventions and the evidence."""

    point: Point
    matched: tuple[Convention, ...]
    answers: tuple[Answer, ...]
    predictions: tuple[tuple[str, tuple[Answer, ...]], ...]

    @property
    def convention(self) -> Convention | None:
        """The preferred matching convention, or None."""
        return self.matched[0] if self.matched else None

    @property
    def status(self) -> str:
        """``spec`` (a spec convention), ``divergence`` (a registered peer behaviour) or ``unknown``."""
        if self.convention is None:
            return "unknown"
        return "divergence" if self.convention.divergence else "spec"

    def evidence(self) -> list[dict[str, Any]]:
        """Each diagnostic with the target's answer and every convention's prediction."""
        rows = []
        for k, diagnostic in enumerate(self.point.diagnostics):
            rows.append(
                {
                    "diagnostic": diagnostic.name,
                    "hypotheses": diagnostic.corpus[0],
                    "references": diagnostic.corpus[1],
                    "answer": _show(self.answers[k]),
                    "predictions": {name: _show(values[k]) for name, values in self.predictions},
                }
            )
        return rows


def _show(answer: Answer) -> Answer:
    return answer if isinstance(answer, str) else float(f"{answer:.15g}")


# --- predictions -----------------------------------------------------------------------------


def reference_prediction(config: Config, corpus: Corpus, **overrides: Any) -> Answer:
    """The reference's score under ``config`` updated by ``overrides``, or "error"."""
    try:
        return corpus_bleu(*corpus, **{**config, **overrides}).score
    except BleuError:
        return "error"


def _by_reference(name: str, spec: str, flags: frozenset[str] = frozenset(), **options: Any) -> Convention:
    return Convention(
        name, lambda config, corpus: reference_prediction(config, corpus, **options), options, (), spec, flags
    )


def _error(name: str, spec: str, flag: str) -> Convention:
    return Convention(name, lambda config, corpus: "error", {}, (), spec, frozenset({flag}))


def _constant(name: str, value: float, spec: str) -> Convention:
    return Convention(name, lambda config, corpus: value, {}, (), spec)


def _transformed(name: str, spec: str, change: Callable[[Corpus], Corpus]) -> Convention:
    return Convention(name, lambda config, corpus: reference_prediction(config, change(corpus)), {}, (), spec)


def peer_name(peer: PeerTarget) -> str:
    """``nltk method0``, ``sacrebleu exp``: the peer and its options, as reports show them."""
    return f"{'nltk' if isinstance(peer, NltkTarget) else 'sacrebleu'} {peer.configuration}"


def _peer(peer: PeerTarget, keys: tuple[str, ...]) -> Convention:
    """A peer's behaviour as a convention: predicted by its model; divergent where entries apply."""

    def predict(config: Config, corpus: Corpus) -> Answer:
        try:
            value = model(peer, Case.of(corpus))
        except BleuError:
            return "error"
        return value if isinstance(value, float) else "error"

    options = {k: v for k, v in reference_options(peer).items() if k in keys}
    return Convention(peer_name(peer), predict, options, ("peer",), "10-divergences")


def _peers_apply(config: Config) -> bool:
    """Peer models assume the closest reference length and micro aggregation."""
    return bool(
        config.get("ref_length", "closest") == "closest" and config.get("aggregation", "micro") == "micro"
    )


PEERS: tuple[PeerTarget, ...] = (
    *(NltkTarget(m, reweigh) for m in range(8) for reweigh in (False, True)),
    *(p for p in SACREBLEU_CONFIGS if p.level == "corpus"),
)


# --- the points ------------------------------------------------------------------------------

#: A perfect match, and one with all precisions 1 and BP = exp(1 - 8/6).
_SCALE = (
    Diagnostic("perfect match", ([_alphabet(6)], [[_alphabet(6)]])),
    Diagnostic("all p_n = 1, c=6 < r=8", ([_alphabet(6)], [[_alphabet(8)]])),
)


def _scale(config: Config) -> tuple[Convention, ...]:
    """Unit or percent: a factor of 100 apart, told apart at any precision (FP-PRECISION follows)."""
    return (
        Convention(
            "unit: BLEU in [0, 1]",
            reference_prediction,
            tolerance=BINARY32_TOLERANCE,
            spec="EC-013",
        ),
        Convention(
            "percent: 100 x BLEU",
            lambda c, corpus: _times(reference_prediction(c, corpus), 100),
            spec="EC-013",
            flags=frozenset({"percent"}),
            tolerance=BINARY32_TOLERANCE,
        ),
    )


#: Irrational scores that every other convention leaves alone (one segment, one reference,
#: every p_n = 1, which every smoothing keeps at 1): the score is BP = exp(1 - r/c).
_PRECISION = (
    Diagnostic("BP = exp(1 - 8/6), every p_n = 1", ([_alphabet(6)], [[_alphabet(8)]])),
    Diagnostic("BP = exp(1 - 13/7), every p_n = 1", ([_alphabet(7)], [[_alphabet(13)]])),
)


def _precision(config: Config) -> tuple[Convention, ...]:
    """binary64 (or exact) to MATCH_TOLERANCE; binary32, a known way to fall short (EC-013)."""
    return (
        Convention("binary64: within 1e-9 of the exact score", reference_prediction, spec="EC-013"),
        Convention(
            "binary32: within 1e-5 only (float32 arithmetic)",
            reference_prediction,
            divergence=("EC-013",),
            spec="EC-013",
            flags=frozenset({"binary32"}),
            tolerance=BINARY32_TOLERANCE,
        ),
    )


def _times(answer: Answer, factor: float) -> Answer:
    return answer * factor if isinstance(answer, float) else answer


#: Every precision 1 (the candidate is a piece of a reference): the score is BP, so r shows.
_TWELVE = _alphabet(12)
_REF_LENGTH = (
    Diagnostic("c=12; refs of 13 then 11", ([_TWELVE], [[_alphabet(13), _alphabet(11)]])),
    Diagnostic("c=12; refs of 11 then 13", ([_TWELVE], [[_alphabet(11), _alphabet(13)]])),
    Diagnostic("c=12; refs of 20, 13, 8", ([_TWELVE], [[_alphabet(20), _alphabet(13), _alphabet(8, 50)]])),
)

_RULE_NAMES = {
    "closest": "closest, ties to the shorter",
    "closest-longer": "closest, ties to the longer",
    "closest-first": "closest, ties to the first listed",
    "shortest": "shortest reference",
    "longest": "longest reference",
    "average": "average reference length",
}


def _ref_length(config: Config) -> tuple[Convention, ...]:
    return tuple(_by_reference(_RULE_NAMES[rule], "EC-001", ref_length=rule) for rule in REF_LENGTH_RULES)


#: Two segments, every precision 1: micro pools c and r (BP = e^-0.5), macro averages BPs.
_AGGREGATION = (
    Diagnostic("c=4,r=4 and c=4,r=8", ([_alphabet(4), _alphabet(4)], [[_alphabet(4)], [_alphabet(8)]])),
)


def _aggregation(config: Config) -> tuple[Convention, ...]:
    return (
        _by_reference("micro: corpus statistics, then one score", "EC-009", aggregation="micro"),
        _by_reference("macro: mean of sentence scores", "EC-009", aggregation="macro"),
    )


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


def _zero(config: Config) -> tuple[Convention, ...]:
    found: list[Convention] = [
        _by_reference("limit: a zero precision gives 0", "EC-002", smoothing="none", zero_precision="limit"),
        _by_reference(
            "skip: zero orders left out, weights kept", "EC-002", smoothing="none", zero_precision="skip"
        ),
    ]
    found += [
        _by_reference(f"smoothing {name}", method.spec_id, smoothing=name, zero_precision="limit")
        for name, method in SMOOTHING_METHODS.items()
        if name != "none" and not method.tool
    ]
    if _peers_apply(config):
        # A peer's own zero behaviour (nltk's log-0 sentinel, DIV-NLTK-002) is what INV-ZERO
        # tests; it is reported here, on FP-ZERO, and not again as a failed invariant.
        found += [
            replace(_peer(p, ("smoothing", "smoothing_value")), breaks=frozenset({"INV-ZERO"})) for p in PEERS
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
        _by_reference(
            "zero: an order without n-grams counts as p_n = 0", "EC-003", undefined_precision="zero"
        ),
        _by_reference("effective order: dropped, weights renormalised", "EC-003", effective_order=True),
        _by_reference("skip: dropped, weights kept", "EC-003", undefined_precision="skip"),
        Convention(
            "error: refuses an order without n-grams",
            lambda c, corpus: reference_prediction(c, corpus, undefined_precision="error"),
            {},
            (),
            "EC-003",
            frozenset({"error-on-undefined"}),
        ),
    ]
    return (*found, *_same_peers(config, ("effective_order",)))


def _same_peers(
    config: Config, keys: tuple[str, ...], breaks: frozenset[str] = frozenset()
) -> tuple[Convention, ...]:
    """Peer conventions that agree with the smoothing (and effective order) already found.

    ``breaks``: the invariants the peers' behaviour on this point is known to break.
    """
    if not _peers_apply(config):
        return ()
    settled = ("smoothing", "smoothing_value") + (() if "effective_order" in keys else ("effective_order",))

    def same(peer: PeerTarget) -> bool:
        options = {"smoothing": "none", "effective_order": False, **reference_options(peer)}
        wanted = {"smoothing": "none", "effective_order": False, **config}
        return all(options.get(k) == wanted.get(k) for k in settled)

    return tuple(replace(_peer(p, keys), breaks=breaks) for p in PEERS if same(p))


_EMPTY_HYP = (
    Diagnostic("one empty candidate", ([[]], [[words("a b c d")]])),
    Diagnostic(
        "a corpus with an empty candidate", ([words("a b c d"), []], [[words("a b c d")], [words("a b c d")]])
    ),
)


def _drop_empty_candidates(corpus: Corpus) -> Corpus:
    kept = [(h, r) for h, r in zip(*corpus, strict=True) if h]
    return [h for h, _ in kept], [r for _, r in kept]


def _empty_hyp(config: Config) -> tuple[Convention, ...]:
    return (
        _by_reference("scored: c = 0 counts like any length (BP -> 0)", "EC-004"),
        _error("error", "EC-004", "error-on-empty-hypothesis"),
        _transformed(
            "dropped: segments with an empty candidate are left out", "EC-004", _drop_empty_candidates
        ),
        # nltk counts an empty candidate's n-grams as max(1, 0) (DIV-NLTK-001): appending an
        # empty segment changes its score.
        *_same_peers(config, (), frozenset({"INV-EMPTY-SEGMENT"})),
    )


_EMPTY_REF = (
    Diagnostic(
        "c=4; refs of 0 and 10 tokens",
        ([words("a b c d")], [[[], words("q r s t u v a b c d")]]),
    ),
)


def _drop_empty_references(corpus: Corpus) -> Corpus:
    return corpus[0], [[r for r in rs if r] for rs in corpus[1]]


def _empty_ref(config: Config) -> tuple[Convention, ...]:
    return (
        _by_reference("allowed: its length 0 takes part", "EC-005"),
        _transformed("ignored: empty references are left out", "EC-005", _drop_empty_references),
        _error("error", "EC-005", "error-on-empty-reference"),
        *_same_peers(config, ()),
    )


_NO_REF = (
    Diagnostic("one candidate, no reference", ([words("a b c d")], [[]])),
    Diagnostic(
        "a corpus with a segment without references",
        ([words("a b c d"), words("a b c d")], [[words("a b c d")], []]),
    ),
)


def _as_empty_reference(corpus: Corpus) -> Corpus:
    return corpus[0], [rs or [[]] for rs in corpus[1]]


def _drop_unreferenced(corpus: Corpus) -> Corpus:
    kept = [(h, r) for h, r in zip(*corpus, strict=True) if r]
    return [h for h, _ in kept], [r for _, r in kept]


def _no_ref(config: Config) -> tuple[Convention, ...]:
    return (
        _error("error", "EC-006", "error-on-no-reference"),
        _transformed("as one empty reference", "EC-006", _as_empty_reference),
        _transformed("segment dropped", "EC-006", _drop_unreferenced),
    )


_EMPTY_CORPUS = (Diagnostic("no segments", ([], [])),)


def _empty_corpus(config: Config) -> tuple[Convention, ...]:
    return (_error("error", "EC-012", "error-on-empty-corpus"), _constant("zero", 0.0, "EC-012"))


#: Text targets (``input: "text"``) get each token list joined with spaces; these lines tell the
#: tokenizers and case foldings apart (each of the 15 pairs gives another answer vector under the
#: paper's conventions, every order matching in every line so that no zero hides a difference).
_TEXT = (
    Diagnostic("case", ([words("The Cat sat on the mat today")], [[words("the cat sat on the mat today")]])),
    Diagnostic(
        "case beyond ASCII",
        ([words("Été was hot on the beach today")], [[words("été was hot on the beach today")]]),
    ),
    Diagnostic(
        "punctuation", ([words("the cat sat on the mat today.")], [[words("the cat sat on the mat today .")]])
    ),
    Diagnostic(
        "hyphen",
        ([words("the cat-dog sat on the mat today")], [[words("the cat - dog sat on the mat today")]]),
    ),
    Diagnostic(
        "Chinese characters",
        (
            [words("我爱北京天安门 and the cat sat on it")],
            [[words("我 爱 北京 天安门 and the cat sat on it")]],
        ),
    ),
    Diagnostic("characters", ([words("the cat sat on the mat")], [[words("the cta sat on the mat")]])),
)


def retokenized(corpus: Corpus, tokenize: str, lowercase: str) -> Corpus:
    """The corpus as a text target sees it: each token list joined with spaces, then tokenized."""
    hypotheses, references = corpus

    def again(tokens: Sequence[str]) -> list[str]:
        return tokenize_line(" ".join(tokens), tokenize, lowercase)

    return [again(h) for h in hypotheses], [[again(r) for r in rs] for rs in references]


def _text_predictor(tokenize: str, lowercase: str) -> Callable[[Config, Corpus], Answer]:
    return lambda config, corpus: reference_prediction(config, retokenized(corpus, tokenize, lowercase))


def _text(config: Config) -> tuple[Convention, ...]:
    """Every tokenizer of chapter 11 with every case folding; whitespace splitting, no folding first."""
    return tuple(
        Convention(
            f"tokenize {tokenize}, case {lowercase}",
            _text_predictor(tokenize, lowercase),
            {},
            (),
            "TOK-PIPELINE",
            frozenset({f"tokenize:{tokenize}", f"lowercase:{lowercase}"}),
        )
        for tokenize in TOKENIZERS
        for lowercase in CASE_FOLDINGS
    )


POINTS: tuple[Point, ...] = (
    Point("FP-SCALE", ("EC-013",), "on what scale is the score?", _SCALE, _scale),
    Point(
        "FP-TEXT",
        ("EC-010", "TOK-PIPELINE"),
        "how does a text target tokenize and fold case?",
        _TEXT,
        _text,
    ),
    Point("FP-PRECISION", ("EC-013",), "to what precision is the score computed?", _PRECISION, _precision),
    Point(
        "FP-REF-LENGTH",
        ("EC-001",),
        "which reference length r, and how are ties broken?",
        _REF_LENGTH,
        _ref_length,
    ),
    Point("FP-AGGREGATION", ("EC-009",), "how is a corpus aggregated?", _AGGREGATION, _aggregation),
    Point(
        "FP-ZERO",
        ("EC-002", "SMOOTH", "EC-011"),
        "what does a zero precision give: smoothing method and parameter?",
        _ZERO,
        _zero,
    ),
    Point(
        "FP-UNDEFINED",
        ("EC-003",),
        "what does an order without n-grams give (effective order)?",
        _UNDEFINED,
        _undefined,
    ),
    Point("FP-EMPTY-HYPOTHESIS", ("EC-004",), "what does an empty candidate give?", _EMPTY_HYP, _empty_hyp),
    Point("FP-EMPTY-REFERENCE", ("EC-005",), "what does an empty reference do?", _EMPTY_REF, _empty_ref),
    Point("FP-NO-REFERENCE", ("EC-006",), "what does a segment without references give?", _NO_REF, _no_ref),
    Point("FP-EMPTY-CORPUS", ("EC-012",), "what does an empty corpus give?", _EMPTY_CORPUS, _empty_corpus),
)
BY_ID = {p.id: p for p in POINTS}


# --- asking and matching ---------------------------------------------------------------------


def ask(target: ProtocolTarget, corpus: Corpus, raw: bool = False, level: str = "corpus") -> Answer:
    """The target's answer: its score, "error" (an error or a skip), or "fault:<kind>"."""
    try:
        return target.score(level, corpus[0], corpus[1], raw=raw).score
    except TargetSkippedError:
        return "error"
    except TargetFaultError as fault:
        return "error" if fault.kind == "error" else f"fault:{fault.kind}"


def agrees(answer: Answer, prediction: Answer, tolerance: float = MATCH_TOLERANCE) -> bool:
    """An answer matches a prediction: the same error, or the same number within ``tolerance``."""
    if isinstance(answer, str) or isinstance(prediction, str):
        return answer == prediction
    return math.isclose(answer, prediction, rel_tol=tolerance, abs_tol=absolute_tolerance())


def settle(point: Point, answers: Sequence[Answer], config: Config, tolerance: float = 0.0) -> Finding:
    """Match the answers to every convention of ``point`` under ``config``; spec conventions first.

    A convention matches within its own tolerance, or ``tolerance`` when that is larger (the
    target's precision, once FP-PRECISION has found binary32). When a spec convention
    matches, peer behaviours that happen to agree on these diagnostics are not reported.
    """
    conventions = point.conventions(config)
    predictions = tuple(
        (c.name, tuple(c.predict(config, d.corpus) for d in point.diagnostics)) for c in conventions
    )
    matched = [
        c
        for c, (_, p) in zip(conventions, predictions, strict=True)
        if all(agrees(a, b, max(c.tolerance, tolerance)) for a, b in zip(answers, p, strict=True))
    ]
    if any(not c.divergence for c in matched):
        matched = [c for c in matched if not c.divergence]
    if not matched and point.id == "FP-ZERO":
        matched = [c for c in _solved_parameters(answers, config, point, tolerance) if c]
    return Finding(
        point, tuple(_explain_peer(m, point, config) for m in matched), tuple(answers), predictions
    )


def _explain_peer(convention: Convention, point: Point, config: Config) -> Convention:
    """A peer convention names the registered divergences its model shows on the diagnostics."""
    if "peer" not in convention.divergence:
        return convention
    peer = next(p for p in PEERS if peer_name(p) == convention.name)
    applied = sorted(
        {ident for diag in point.diagnostics for ident in applied_divergences(peer, diag.corpus)}
    )
    return replace(convention, divergence=tuple(applied) or ("peer",))


def applied_divergences(peer: PeerTarget, corpus: Corpus | Case) -> list[str]:
    """The IDs of the registered divergences whose predicate holds for ``peer`` on ``corpus``."""
    try:
        case = corpus if isinstance(corpus, Case) else Case.of(corpus)
    except BleuError:
        return []
    return [d.id for d in REGISTRY if d.applies(peer, case)]


def _predictor(options: Config) -> Callable[[Config, Corpus], Answer]:
    def predict(config: Config, corpus: Corpus) -> Answer:
        return reference_prediction(config, corpus, **options)

    return predict


def _solved_parameters(
    answers: Sequence[Answer], config: Config, point: Point, tolerance: float
) -> list[Convention]:
    """For each one-parameter smoothing, the parameter that explains the first diagnostic, if it explains all.

    The parameter is found by bisection on a log scale over [1e-6, 1e6] (the score is monotone
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
            value = Fraction(math.exp(log_value)).limit_denominator(10**9)
            answer = reference_prediction(config, corpus, smoothing=name, smoothing_value=value)
            return answer if isinstance(answer, float) else math.nan

        low, high = math.log(1e-6), math.log(1e6)
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


@dataclass(frozen=True)
class Fingerprint:
    """Every point's finding, and the reference options they add up to."""

    findings: tuple[Finding, ...]
    config: Config
    flags: frozenset[str]

    @property
    def scale(self) -> float:
        """100 for a percent target, else 1."""
        return 100.0 if "percent" in self.flags else 1.0

    @property
    def tolerance(self) -> float:
        """How close two of the target's scores must be to be the same (judge, invariants)."""
        return _tolerance(self.flags)

    @property
    def text(self) -> tuple[str, str] | None:
        """A text target's tokenizer and case folding (FP-TEXT), if found."""
        return text_of(self.flags)


def text_of(flags: frozenset[str] | set[str]) -> tuple[str, str] | None:
    """The (tokenizer, case folding) an FP-TEXT convention's flags name, or None."""
    found = dict(flag.split(":", 1) for flag in flags if flag.startswith(("tokenize:", "lowercase:")))
    return (found["tokenize"], found["lowercase"]) if len(found) == 2 else None


def _tolerance(flags: set[str] | frozenset[str]) -> float:
    """The relative tolerance of the target's precision: binary32 once FP-PRECISION found it."""
    return BINARY32_TOLERANCE if "binary32" in flags else SCORE_TOLERANCE


def _settled_text(finding: Finding, config: Config, flags: set[str]) -> Finding:
    """FP-TEXT is asked second (the scale known) and settled under the paper's conventions; when no
    tokenizer matches there, it is settled again under every convention found since (a smoothing
    that changes even non-zero precisions, such as add-k, hides the tokenizer at first)."""
    if finding.convention is not None:
        return finding
    return settle(finding.point, finding.answers, config, _tolerance(flags))


def fingerprint(target: ProtocolTarget) -> Fingerprint:
    """Ask every point's diagnostics, in order, each under the conventions found before it."""
    config: Config = {}
    flags: set[str] = set()
    findings = []
    target.count_errors = False
    text = target.capabilities.input == "text"
    digits = target.digits
    if digits is not None:  # FP-SCALE reads raw answers: one unit of their last decimal
        ANSWER_RESOLUTION.set(10.0**-digits)
    for point in POINTS:
        if point.id == "FP-TEXT" and not text:
            continue  # token targets get tokens: tokenization and case are the caller's
        if point.id == "FP-SCALE":
            answers = [ask(target, d.corpus, raw=True) for d in point.diagnostics]
        elif point.id == "FP-TEXT":  # one-segment lines: a sentence-only target answers them too
            level = "corpus" if "corpus" in target.capabilities.levels else "sentence"
            answers = [ask(target, d.corpus, level=level) for d in point.diagnostics]
        else:
            answers = [ask(target, d.corpus) for d in point.diagnostics]
        finding = settle(point, answers, config, _tolerance(flags))
        findings.append(finding)
        if finding.convention is not None:
            config.update(finding.convention.options)
            flags |= finding.convention.flags
            if point.id == "FP-SCALE":
                target.scale = 100.0 if "percent" in finding.convention.flags else 1.0
                if digits is not None:  # from here on answers are divided by the scale
                    ANSWER_RESOLUTION.set(10.0**-digits / target.scale)
    findings = [_settled_text(f, config, flags) if f.point.id == "FP-TEXT" else f for f in findings]
    flags |= next((f.convention.flags for f in findings if f.point.id == "FP-TEXT" and f.convention), set())
    target.count_errors = True
    target.score_tolerance = _tolerance(flags)
    if config.get("smoothing") == "none":
        del config["smoothing"]
    return Fingerprint(tuple(findings), config, frozenset(flags))
