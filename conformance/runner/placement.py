"""Where the target stands in the convention space: the battery, the candidate points, the search
(spec CONF-VERDICT).

The target's answers on a battery (every fingerprint diagnostic and a fixed set of generated
corpora) are compared with the reference's predictions at candidate points: every profile with its
score-affecting parameters, the expected profile with one axis changed, and the point the
fingerprint found; where none predicts every answer, a search over the registry's values moves the
best ones an axis at a time, and the domain axes are fitted one by one. The points that predict
every answer are the target's possible conventions; questions asked afterwards separate them.
Every comparison of an answer is made at the battery's resolution (CONF-PROTOCOL).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from conformance.runner.client import ProtocolTarget
from conformance.runner.expectation import (
    AXIS_SPEC,
    DOMAIN_AXES,
    FINGERPRINT_POINT,
    INSIDE_DOMAIN,
    TEXT_AXES,
    AxisDifference,
    Candidate,
    Expectation,
    one_axis_changes,
)
from conformance.runner.fingerprint import Fingerprint
from conformance.runner.fingerprint.base import Answer, Corpus, Text, agrees, ask, options_key, seen
from conformance.runner.references import expressible
from conformance.suite.resolution import Resolution
from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.profiles import PROFILES, option_axes, resolve
from reference_bleu.conventions.registry import AXES, OPTION_FIELDS
from reference_bleu.conventions.space import named_points, profile_point
from reference_bleu.errors import BleuError

#: Generated corpora in the battery, beside the fingerprint's diagnostics.
GENERATED = 24


#: Further generated corpora (another seed) searched for a question that separates two points the
#: battery left together; at most this many are asked.
SEPARATING = 96


MAX_SEPARATING_QUESTIONS = 6


@dataclass(frozen=True)
class Separation:
    """A question asked to tell points apart: the corpus, the target's answer, each point's prediction."""

    corpus: Corpus
    answer: Answer
    predictions: tuple[tuple[str, Answer], ...]

    def as_json(self) -> dict[str, Any]:
        """The question in the JSON report."""
        return {
            "hypotheses": self.corpus[0],
            "references": self.corpus[1],
            "answer": self.answer,
            "predictions": dict(self.predictions),
        }


def generated_corpora(seed: int, count: int = GENERATED) -> list[Corpus]:
    """Small corpora over a five-word vocabulary (so that n-grams match), short segments included."""
    rng = random.Random(seed)  # noqa: S311 -- reproducible test data, not a secret
    vocabulary = ["a", "b", "c", "d", "e"]
    corpora: list[Corpus] = []
    for _ in range(count):
        hyps, refs = [], []
        for _segment in range(rng.randint(1, 4)):
            hyp = [rng.choice(vocabulary) for _ in range(rng.randint(1, 9))]
            segment_refs = []
            for _ref in range(rng.randint(1, 3)):
                ref = list(hyp)
                for _edit in range(rng.randint(0, 4)):
                    position = rng.randint(0, len(ref))
                    action = rng.random()
                    if action < 0.4 and ref:
                        ref[min(position, len(ref) - 1)] = rng.choice(vocabulary)
                    elif action < 0.7:
                        ref.insert(position, rng.choice(vocabulary))
                    elif ref:
                        ref.pop(min(position, len(ref) - 1))
                segment_refs.append(ref or [rng.choice(vocabulary)])
            hyps.append(hyp)
            refs.append(segment_refs)
        corpora.append((hyps, refs))
    return corpora


@cache
def _moves_the_score(name: str, parameter: str) -> bool:
    """Whether a profile family's parameter changes the number on tokens (not only the text or the
    printed decimals): some value of it moves an observed axis away from the family's defaults."""
    family = PROFILES[name]

    def observed(params: Mapping[str, str]) -> dict[str, str] | None:
        try:
            return Candidate("", dict(family(params).options)).axes
        except BleuError:
            return None

    base = observed(family.defaults)
    return any(observed({**family.defaults, parameter: v}) != base for v in family.parameters[parameter])


def _parameter_grid(profile: str) -> list[dict[str, str]]:
    family = PROFILES[profile]
    names = [p for p in family.parameters if _moves_the_score(profile, p)]
    return [
        dict(zip(names, values, strict=True))
        for values in itertools.product(*(family.parameters[n] for n in names))
    ]


def candidates(expectation: Expectation, found: Mapping[str, Any]) -> list[Candidate]:
    """The points the search tries: the expected one first, its one-axis changes, every profile
    with every score-affecting parameter, and the fingerprint's point."""
    expected = expectation.candidate
    found_points = [expected, *expectation.accepted_points()]
    for change, assignment in one_axis_changes():
        changed = {**expected.options, **assignment}
        found_points.append(Candidate(f"{expected.name} with {change}", changed))
    for name in PROFILES:
        for params in _parameter_grid(name):
            spec = name + ("[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]" if params else "")
            profile = resolve(spec)
            found_points.append(Candidate(profile.name, dict(profile.options)))
    # last: where a profile is the same point, the profile's name is the one reported
    found_points.append(Candidate(FINGERPRINT_POINT, dict(found)))
    unique: dict[Any, Candidate] = {}
    for candidate in found_points:
        try:
            option_axes(candidate.options)
        except BleuError:
            continue
        unique.setdefault(options_key(candidate.options), candidate)
    return list(unique.values())


@dataclass(frozen=True)
class Battery:
    """CONF-VERDICT. The questions every candidate point is checked on, the target's answers to them,
    and the resolution those answers are known to (CONF-PROTOCOL)."""

    corpora: tuple[Corpus, ...]
    answers: tuple[Answer, ...]
    resolution: Resolution

    def __len__(self) -> int:
        return len(self.corpora)


def ask_battery(target: ProtocolTarget, fingerprint: Fingerprint, seed: int) -> Battery:
    """The battery and the target's answers: the fingerprint's diagnostics (answers already given)
    and the generated corpora, asked now.

    A target without a corpus entry point (``levels`` in its capabilities) skips the diagnostics of
    several segments (no evidence, never an error) and is asked the first segment of each
    generated corpus.
    """
    corpora, answers = [], []
    for finding in fingerprint.findings:
        # the points asked otherwise (Point.battery), and the text axes' (placed by with_text); the
        # inputs outside BLEU's domain are in it: a profile says what its tool answers there
        if not finding.point.battery or finding.point.text_axes:
            continue
        for diagnostic, answer in zip(finding.point.diagnostics, finding.answers, strict=True):
            corpora.append(diagnostic.corpus)
            answers.append(answer)
    for corpus in generate_for(target, fingerprint, seed):
        corpora.append(corpus)
        answers.append(ask(target, corpus))
    return Battery(tuple(corpora), tuple(answers), fingerprint.resolution)


def generate_for(
    target: ProtocolTarget, fingerprint: Fingerprint, seed: int, count: int = GENERATED
) -> list[Corpus]:
    """Generated corpora as the target sees them (a text target's tokenizer applied), cut to their
    first segment for a target without a corpus entry point."""
    kind = target.references  # only corpora it can express (conformance.runner.references)
    corpora = [seen(expressible(kind, c), fingerprint.text) for c in generated_corpora(seed, count)]
    if "corpus" in target.capabilities.levels:
        return corpora
    return [(h[:1], r[:1]) for h, r in corpora]


def matches(answer: Answer, prediction: Answer, tolerance: float, resolution: Resolution) -> bool:
    """An answer agrees with a point's prediction. A score above 1 is a fault for the client
    (ROB-OUT-OF-RANGE) but the point's own value under Chen and Cherry's methods 5 and 7, whose
    averaged counts can exceed l_n: a point predicting it accounts for that answer."""
    if answer == "fault:out-of-range":
        return isinstance(prediction, float) and not 0 <= prediction <= 1
    return agrees(answer, prediction, tolerance, resolution)


def _apart(a: Answer, b: Answer, tolerance: float, resolution: Resolution) -> bool:
    """Two predictions no single answer can match both of (ten times the matching tolerance apart)."""
    return not agrees(a, b, 10 * tolerance, resolution)


def separate(
    points: Sequence[Candidate],
    ask_target: Callable[[Corpus], Answer],
    pool: Sequence[Corpus],
    tolerance: float,
    resolution: Resolution,
) -> tuple[list[Candidate], tuple[Separation, ...]]:
    """CONF-VERDICT. Ask the questions that tell apart points the battery left together.

    While observably different points remain (different axes), the first corpus of ``pool`` on
    which two of them predict answers no single answer can match is asked, and the points whose
    prediction the answer does not match are dropped. At most MAX_SEPARATING_QUESTIONS are
    asked; what no corpus of the pool separates stays an ambiguity.
    """
    remaining, asked = list(points), list[Separation]()
    unused = list(pool)
    while (
        len({tuple(sorted(p.axes.items())) for p in remaining}) > 1 and len(asked) < MAX_SEPARATING_QUESTIONS
    ):
        found = None
        limit = max(tolerance, *(p.tolerance for p in remaining))  # the same for every corpus tried
        for corpus in unused:
            predictions = [(p, p.predict(corpus)) for p in remaining]
            if any(_apart(predictions[0][1], b, limit, resolution) for _, b in predictions[1:]):
                found = corpus, predictions
                break
        if found is None:
            break
        corpus, predictions = found
        unused.remove(corpus)
        answer = ask_target(corpus)
        asked.append(Separation(corpus, answer, tuple((p.name, b) for p, b in predictions)))
        remaining = [p for p, b in predictions if matches(answer, b, max(p.tolerance, tolerance), resolution)]
    return remaining, tuple(asked)


def consistent(candidate: Candidate, battery: Battery) -> bool:
    """Whether the candidate predicts every answer, within its own arithmetic's precision.

    A binary64 point must agree to 1e-9 and a binary32 point to 1e-5, so a binary32 target
    matches binary32 points only (faults are never predicted, but see :func:`matches`).
    """
    return _misses(candidate, battery, bound=1) == 0


def _misses(candidate: Candidate, battery: Battery, bound: int | None = None) -> int:
    """How many answers the point does not predict (CONF-VERDICT); counting stops at ``bound``."""
    missed = 0
    for corpus, answer in zip(battery.corpora, battery.answers, strict=True):
        missed += not matches(answer, candidate.predict(corpus), candidate.tolerance, battery.resolution)
        if bound is not None and missed >= bound:
            break
    return missed


#: The registry search (CONF-VERDICT): how many of the best points each round moves, and how many
#: rounds (each moves a point along one more axis).
SEARCH_BEAM = 3


SEARCH_ROUNDS = 4


def registry_search(start: Sequence[Candidate], battery: Battery) -> list[Candidate]:
    """CONF-VERDICT. The points that predict every answer, found by a search over the registry when
    no listed point does: the points predicting the most answers are moved one axis at a time to
    every value the registry declares on the observed axes (:func:`one_axis_changes`); a round keeps
    the ``SEARCH_BEAM`` moves that predict strictly more answers than the best so far, and the
    search stops at a point predicting them all, when no move improves, or after ``SEARCH_ROUNDS``
    rounds. Each axis decides the answers on its own inputs (zero counts, empty references, ties of
    reference lengths, ...), so a combination of values is reached one axis at a time.
    """
    ranked = sorted(start, key=lambda c: _misses(c, battery))
    beam = ranked[:SEARCH_BEAM]
    best = _misses(beam[0], battery) if beam else 0
    seen = {options_key(c.options) for c in start}
    for _ in range(SEARCH_ROUNDS):
        if best == 0 or not beam:
            break
        moves: list[tuple[int, Candidate]] = []
        for point in beam:
            for change, assignment in one_axis_changes():
                options = {**point.options, **assignment}
                if options_key(options) in seen:
                    continue
                seen.add(options_key(options))
                trial = Candidate(f"{point.name} with {change}", options)
                try:
                    option_axes(options)
                except BleuError:
                    continue
                missed = _misses(trial, battery, bound=best)
                if missed < best:
                    moves.append((missed, trial))
        if not moves:
            break
        moves.sort(key=lambda move: move[0])
        best, beam = moves[0][0], [trial for _, trial in moves[:SEARCH_BEAM]]
    found = [c for c in beam if best == 0 and consistent(c, battery)]
    return sorted(found, key=lambda c: c.name.startswith(FINGERPRINT_POINT))  # a named path first


def domain_fit(start: Candidate, battery: Battery) -> Candidate:
    """CONF-VERDICT. ``start`` with its domain axes (DOMAIN_AXES) set to the values that predict the
    most answers: one axis at a time, a value kept when it predicts strictly more of them, and
    the axes gone over again while that changes something (a segment without references scored
    against an empty reference shows only once an error on r = 0 is set, say).

    The domain axes are observed on nearly disjoint inputs (no reference, an empty candidate,
    c = 0 or r = 0, no segment), so the combination a tool chose is found without trying every
    product of their values.
    """
    point, best, changes = start, _misses(start, battery), list[str]()
    improved = True
    while improved and best:
        improved = False
        for axis, values in DOMAIN_AXES.items():
            for value in values:
                if best == 0 or point.axes[axis] == value:
                    continue
                trial = Candidate(point.name, {**point.options, axis: value})
                misses = _misses(trial, battery)
                if misses < best:
                    point, best, improved = trial, misses, True
                    changes = [*(c for c in changes if not c.startswith(f"{axis}=")), f"{axis}={value}"]
    if not changes:
        return start
    return Candidate(f"{start.name} with {', '.join(changes)}", point.options)


def with_axis(candidate: Candidate, other: Candidate, axis: str) -> Candidate:
    """``candidate`` with ``axis`` set to ``other``'s value."""
    options = {k: v for k, v in candidate.options.items() if k not in AXES[axis].fields}
    options.update({k: v for k, v in other.options.items() if k in AXES[axis].fields})
    return Candidate(f"{candidate.name} with {axis} as {other.name}", options)


def evidenced(
    candidate: Candidate,
    expected: Candidate,
    battery: Battery,
    unaccounted_by: Callable[[Candidate], bool] = lambda _: False,
) -> tuple[AxisDifference, ...]:
    """The axes where ``candidate`` differs from ``expected`` *and* the answers show it.

    An axis whose expected value also predicts every answer (set alone on the candidate) and
    accounts for every open check is not shown: the target may well take the expected value
    there. The open checks count: a target wrong only on questions of real size (CONF-SIZE) is
    placed where those answers are predicted (binary32's tolerance takes a relative error of
    1e-6), and that axis is then shown by them, never waved through as the expected value.
    """
    mine, theirs = candidate.axes, expected.axes
    shown = []
    for axis, value in mine.items():
        if value == theirs[axis]:
            continue
        try:
            back = with_axis(candidate, expected, axis)
            if consistent(back, battery) and not unaccounted_by(back):
                continue
        except BleuError:
            pass
        shown.append(AxisDifference(axis, AXIS_SPEC[axis], theirs[axis], value))
    return tuple(shown)


def _score_key(options: Mapping[str, Any], domain: bool = True) -> tuple[Any, ...]:
    """What a point computes on tokens: its value on every observable axis (``domain`` False: the
    score axes only, inside BLEU's domain), and the order and weights."""
    validated = make_options(**options)
    axes = Candidate("", options).axes
    return (
        tuple(
            sorted(
                (axis, value)
                for axis, value in axes.items()
                if domain or axis not in DOMAIN_AXES or value in INSIDE_DOMAIN[axis]
            )
        ),
        validated.max_order,
        validated.weights,
        validated.unnormalized_weights,
    )


@cache
def _named_keys() -> tuple[tuple[str, tuple[Any, ...], tuple[Any, ...], Text], ...]:
    """Every named profile point (reference_bleu.conventions.space.named_points): its name, its key
    on every axis and on the score axes, and its text."""
    named = []
    for point in named_points():
        text = dict(point.text)
        options = {name: getattr(point.options, name) for name in OPTION_FIELDS}
        triple = (text["tokenize"], text["lowercase"], text["split"])
        named.append((point.name, _score_key(options), _score_key(options, domain=False), triple))
    return tuple(named)


def profile_named(point: Candidate, text: Text) -> str:
    """CONF-VERDICT. The name a placed point is called by: a named profile's when the point is that
    profile's point, never a one-axis change, a domain choice or "the fingerprint's point" that
    happens to equal it, nor a peer with other text conventions.

    The point keeps its own name when it is a profile's whose text is the target's (``text``, a text
    target's tokenizer, folding and split rule; None for a token target, which is given tokens); else it takes
    the name of the first named profile point (CONV-PROFILES) equal to it on every observable axis
    (score and domain) or, failing that, on every score axis, and, for a text target, with its
    text; else its own.
    """
    try:
        own = profile_point(point.name)
    except BleuError:  # not a profile's name
        pass
    else:
        if text is None or tuple(dict(own.text)[axis] for axis in TEXT_AXES) == text:
            return point.name
    try:
        key, inside = _score_key(point.options), _score_key(point.options, domain=False)
    except BleuError:
        return point.name
    # a token target is given tokens: a profile with the paper's text (none of a tool's tokenizer or
    # folding) names it first, then any; a text target's profile has its text
    plain = ("none", "none", "unicode")
    rows = [row for row in _named_keys() if text in (None, row[3])]
    named = [
        (n, whole, score) for n, whole, score, named_text in rows if text is not None or named_text == plain
    ]
    named += [
        (n, whole, score) for n, whole, score, named_text in rows if text is None and named_text != plain
    ]
    # equal on every axis first; else inside BLEU's domain, whose choices outside it are acceptable
    # under every expectation (a tool scoring c = 0 as 0 where nmt raises is still nmt's BLEU)
    equal = [name for name, whole, _ in named if whole == key] or [
        name for name, _, score in named if score == inside
    ]
    return equal[0] if equal else point.name


def tool_of(name: str) -> str:
    """The tool whose profile ``name`` is, or "" (a change of the expectation, the fingerprint's point)."""
    try:
        return resolve(name).tool
    except BleuError:
        return ""
