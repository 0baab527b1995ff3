"""Verdicts against an expected profile: conformant, a variant, or not conformant (spec CONF-VERDICT).

The fingerprint (CONF-FINGERPRINT) settles the paper's open points one at a time; this module
places the target in the whole convention space of chapter 13. The target's answers on a
battery (every fingerprint diagnostic and a fixed set of generated corpora) are compared with
the reference's predictions at candidate points: every profile with its score-affecting
parameters, the expected profile with one axis changed, and the point the fingerprint found.
The points that predict every answer are the target's possible conventions; when there are
several, the report says so.

The verdict compares that point with the expectation (``--expect PROFILE``, default
``paper``, with ``--accept AXIS=VALUE`` changes):

- **conformant**: the expected point predicts every answer, and every check that did not pass
  is accounted for by it (a fingerprint row it predicts, an invariant the reference at that
  point breaks on the same example, a difference it predicts on the counterexample);
- **variant**: another point does that; the report names the axes where it differs from the
  expectation (each an entry of the spec) and the invariants its values break;
- **not conformant**: no point accounts for the behaviour, or a fault (crash, hang, NaN,
  mutation, protocol) happened: a bug, with its shrunk counterexample.

Only ``conformant`` exits 0. A variant is a documented BLEU, but not the one expected.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from conformance.peers.divergences import REGISTRY as DIVERGENCES
from conformance.peers.targets import Outcome, ReferenceTarget
from conformance.runner.client import ProtocolTarget
from conformance.runner.fingerprint import Fingerprint, settle, text_of, text_values, unobservable
from conformance.runner.fingerprint.base import (
    MATCH_TOLERANCE,
    SKIPPED,
    Answer,
    Corpus,
    Finding,
    Reply,
    Text,
    agrees,
    ask,
    options_key,
    reference_prediction,
    reply_of,
    seen,
)
from conformance.runner.fingerprint.brevity import BUG
from conformance.runner.judge.base import MIN_ANSWERED_SHARE, Check
from conformance.runner.references import expressible
from conformance.suite.invariants import BY_ID, InvariantViolationError, same_statistics, statistics_of
from conformance.suite.loader import load_vectors
from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.profiles import PROFILES, Profile, option_axes, resolve
from reference_bleu.conventions.registry import (
    AXES,
    BY_NAME,
    OPTION_FIELDS,
    Axis,
    axes_in,
    axis_of,
    canonical,
)
from reference_bleu.conventions.space import named_points, profile_point
from reference_bleu.errors import BleuError, BleuInputError, BleuOptionError

#: The axes the battery observes on token input (spec CONF-VERDICT): the registry's score and domain
#: axes with declared values (N and the weights are the paper's in every question), each with the
#: spec entry that defines it.
OBSERVED: tuple[Axis, ...] = tuple(a for a in axes_in("score", "domain") if a.field.values)
AXIS_SPEC = {axis.name: axis.field.spec_id for axis in OBSERVED}
#: The axes outside BLEU's domain (spec CONF-VERDICT): what a tool does where the paper defines
#: nothing (no reference, an empty candidate, c = 0 or r = 0, an empty corpus), with every value.
#: Any value is acceptable under every expectation unless ``--strict-domain`` pins them.
DOMAIN_AXES: dict[str, tuple[str, ...]] = {a.name: tuple(a.field.values) for a in axes_in("domain")}
#: The text axes a text target is judged on (FP-TEXT): the tokenizer and the case folding.
TEXT_AXES = {name: AXES[name] for name in ("tokenize", "lowercase", "split")}


def _assignment_of(field: str, value: str) -> dict[str, Any]:
    """``--accept FIELD=VALUE`` for a field (its registry name) that refines an axis
    (``effective_order=true``): the assignment of the axis's fields it makes, the others at the paper's."""
    declared = BY_NAME[field]
    axis = axis_of(declared.name)
    parsed: Any = value.strip().lower() == "true" if declared.kind == "flag" else value
    return {**{f: BY_NAME[f].paper for f in axis.fields}, declared.name: parsed}


def one_axis_changes() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every value of every observed axis, as (``axis=value``, the assignment of its fields): the
    one-axis changes of the expected point that the search tries (the registry's, all of them)."""
    for axis in OBSERVED:
        for assignment in axis.assignments():
            yield f"{axis.name}={axis.shown(assignment)}", assignment


#: Generated corpora in the battery, beside the fingerprint's diagnostics.
GENERATED = 24
#: Further generated corpora (another seed) searched for a question that separates two points the
#: battery left together; at most this many are asked.
SEPARATING = 96
MAX_SEPARATING_QUESTIONS = 6
#: The name of the candidate made of the fingerprint's findings (the search's last resort for a name).
FINGERPRINT_POINT = "the fingerprint's point"


@dataclass(frozen=True)
class Candidate:
    """A point of the convention space: a name and the reference's options there."""

    name: str
    options: Mapping[str, Any]

    @property
    def axes(self) -> dict[str, str]:
        """Its value on every observable axis (exact and binary64 are one value: they agree to 1e-13)."""
        values = option_axes(self.options)
        if values["arithmetic"] == "exact":
            values["arithmetic"] = "binary64"
        return {axis: values[axis] for axis in AXIS_SPEC}

    def predict(self, corpus: Corpus) -> Answer:
        """The reference's score at this point, or "error"."""
        return reference_prediction(self.options, corpus)

    @property
    def tolerance(self) -> float:
        """How close an answer must be: binary32 points are compared at binary32's precision."""
        return 1e-5 if self.options.get("arithmetic") == "binary32" else MATCH_TOLERANCE


@dataclass(frozen=True)
class Expectation:
    """``--expect PROFILE`` with the values ``--accept AXIS=VALUE`` adds (spec CONF-VERDICT).

    An accepted value is acceptable *beside* the profile's own: the expected point stays the
    profile's, and a target placed where only accepted values differ from it is conformant.
    """

    profile: Profile
    #: (axis, value) pairs, in the order given; an axis may take several values.
    accepted: tuple[tuple[str, str], ...] = ()
    #: ``--strict-domain``: the domain axes (DOMAIN_AXES) must take the profile's (or an accepted) value.
    strict_domain: bool = False

    @classmethod
    def parse(cls, profile: str, accepted: Sequence[str] = (), *, strict_domain: bool = False) -> Expectation:
        """The expectation from the command line; a bad name or axis is a BleuOptionError."""
        changes: list[tuple[str, str]] = []
        known = [*TEXT_AXES, *AXIS_SPEC]
        for item in accepted:
            name, sep, value = item.partition("=")
            field = axis = canonical(name.strip(), "--accept", stacklevel=2)
            if field in BY_NAME and field not in known:
                axis = axis_of(field).name  # a field that refines an axis: effective_order=true
                value = AXES[axis].shown(_assignment_of(field, value))
            if not sep or axis not in known:
                raise BleuOptionError(
                    "CONF-VERDICT", f"--accept takes AXIS=VALUE with AXIS one of {', '.join(known)}"
                )
            if axis in TEXT_AXES and value not in TEXT_AXES[axis].field.values:
                raise BleuOptionError(
                    "CONF-VERDICT",
                    f"--accept {axis}= takes one of {', '.join(TEXT_AXES[axis].field.values)}",
                )
            if (axis, value) not in changes:
                changes.append((axis, value))
        expectation = cls(resolve(profile), tuple(changes), strict_domain)
        expectation.accepted_points()  # validates the accepted values now
        return expectation

    @property
    def name(self) -> str:
        """The profile's name, with what is accepted beside it."""
        return self.profile.name + "".join(f" +{k}={v}" for k, v in self.accepted)

    @property
    def candidate(self) -> Candidate:
        """The expected point: the profile's (accepted values are added beside it, not put in)."""
        return Candidate(self.profile.name, dict(self.profile.options))

    def _changed(self, changes: Sequence[tuple[str, str]]) -> Candidate:
        """The profile's point with each (axis, value) set: every field of the axis takes the value's
        assignment (a refinement at the paper's value is the default: the profile's own is dropped,
        so accepting undefined_precision=zero on sacrebleu-sentence leaves no effective order)."""
        options = dict(self.profile.options)
        for axis, value in changes:
            assignment = next(
                (a for a in AXES[axis].assignments() if value in (AXES[axis].shown(a), a[axis])),
                {axis: value},
            )
            for name, set_to in assignment.items():
                if set_to is None:
                    options.pop(name, None)
                else:
                    options[name] = set_to
        try:
            option_axes(options)  # the accepted values are valid options
        except BleuError as error:
            raise BleuOptionError("CONF-VERDICT", f"--accept: {error}") from None
        name = self.profile.name + "".join(f" +{k}={v}" for k, v in changes)
        return Candidate(name, options)

    def accepted_points(self) -> list[Candidate]:
        """The points the accepted values make: each value alone on the profile, and (when several
        axes are accepted) the last value of every axis together."""
        score = [(axis, value) for axis, value in self.accepted if axis not in TEXT_AXES]
        points = [self._changed([change]) for change in score]
        together = list(dict(score).items())
        if len(together) > 1:
            points.append(self._changed(together))
        return points

    def acceptable(self) -> dict[str, frozenset[str]]:
        """Every axis's acceptable values beyond the profile's: the accepted ones, as the axes read them,
        and every value of a domain axis unless the domain is strict."""
        values: dict[str, set[str]] = {}
        if not self.strict_domain:
            values.update({axis: set(domain) for axis, domain in DOMAIN_AXES.items()})
        for axis, value in self.accepted:
            if axis in TEXT_AXES:
                values.setdefault(axis, set()).add(value)
            else:
                values.setdefault(axis, set()).add(self._changed([(axis, value)]).axes[axis])
        return {axis: frozenset(found) for axis, found in values.items()}

    @property
    def text(self) -> dict[str, str]:
        """The expected tokenizer and case folding of a text target: the profile's."""
        return {name: self.profile.text[name] for name in TEXT_AXES}


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


@dataclass(frozen=True)
class Verdict:
    """Where the target stands against the expectation."""

    level: str  # "conformant", "variant", "not conformant", "insufficient evidence"
    expected: str
    point: str  # the name of the point the target is placed at ("" when none)
    matched: tuple[str, ...]  # every candidate that predicts every answer
    differs: tuple[tuple[str, str, str, str], ...]  # (axis, spec entry, expected value, found value)
    unaccounted: tuple[str, ...]  # checks no point accounts for
    battery: int
    #: A text target's (tokenizer, case folding, split rule), when FP-TEXT found them (text targets only).
    text: Text = None
    #: The separating questions asked after the battery: each with the target's answer and the
    #: prediction of every point still in the running (spec CONF-VERDICT).
    questions: tuple[Separation, ...] = ()
    #: Points with other axis values that still predict every answer and agree with the point on
    #: every further corpus tried: equivalent on such inputs, or told apart only by inputs the
    #: pool lacks (an empty reference, say). Reported, never hidden.
    ambiguous: tuple[str, ...] = ()
    #: Checks that did not pass but that the point accounts for: its conventions give the same
    #: (the reference there breaks the same invariant, gives the same number): not bugs.
    accounted: tuple[str, ...] = ()
    #: The placed point's value on every observable axis, and the tool whose profile it is ("" for
    #: a point that is no tool's): what the report explains the target's rows by.
    point_axes: tuple[tuple[str, str], ...] = ()
    point_tool: str = ""
    #: Axes where the point differs from the expected profile on a value that is acceptable (one
    #: ``--accept`` added): reported, never making a variant. (axis, spec entry, expected, found).
    choices: tuple[tuple[str, str, str, str], ...] = ()
    #: Axes no answer of the target can show, given the references it takes (CONF-PROTOCOL: the
    #: reference length of a one-reference tool): no value is claimed on them.
    unobservable: tuple[str, ...] = ()
    #: The text rule (FP-TEXT's or FP-CASE's convention) found only once the answers were settled
    #: under the placed point: the report's row of that point then passes, saying so.
    settled: str = ""

    def as_json(self) -> dict[str, Any]:
        """The verdict in the JSON report."""
        return {
            "level": self.level,
            "expected": self.expected,
            "point": self.point,
            "matched": list(self.matched),
            "differs": [{"axis": a, "spec": s, "expected": e, "found": f} for a, s, e, f in self.differs],
            "unaccounted": list(self.unaccounted),
            "battery": self.battery,
            "text": None if self.text is None else dict(zip(TEXT_AXES, self.text, strict=True)),
            "questions": [q.as_json() for q in self.questions],
            "ambiguous": list(self.ambiguous),
            "accounted": list(self.accounted),
            "choices": [{"axis": a, "spec": s, "expected": e, "found": f} for a, s, e, f in self.choices],
            "unobservable": list(self.unobservable),
        }

    def headline(self) -> str:
        """One line: the level, and what differs or what is wrong."""
        if self.level == "conformant":
            chosen = ", ".join(f"{a}={f}" for a, _s, _e, f in self.choices)
            return f"conformant to {self.expected}" + (f" (with {chosen})" if chosen else "")
        if self.level == "variant":
            axes = ", ".join(f"{a}={f} ({s}; expected {e})" for a, s, e, f in self.differs)
            like = f" (behaves as {self.point})" if self.point else ""
            return f"a variant of {self.expected}{like}: {axes or 'differs'}"
        if self.level == "insufficient evidence":
            return "insufficient evidence: too few answers to judge " + ", ".join(self.unaccounted)
        axes = "".join(f"; {a}: {f} ({s}; expected {e})" for a, s, e, f in self.differs)
        return "not conformant: " + (", ".join(self.unaccounted) or "no known convention explains it") + axes


# --- the battery and the candidates -------------------------------------------------------------


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
    unique: dict[tuple[tuple[str, Any], ...], Candidate] = {}
    for candidate in found_points:
        try:
            key = tuple(sorted(candidate.options.items(), key=lambda item: item[0]))
            hash(key)
            option_axes(candidate.options)
        except (BleuError, TypeError):
            continue
        unique.setdefault(key, candidate)
    return list(unique.values())


def battery_answers(
    target: ProtocolTarget, fingerprint: Fingerprint, seed: int
) -> tuple[list[Corpus], list[Answer]]:
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
    for corpus in _generated(target, fingerprint, seed):
        corpora.append(corpus)
        answers.append(ask(target, corpus))
    return corpora, answers


def _generated(
    target: ProtocolTarget, fingerprint: Fingerprint, seed: int, count: int = GENERATED
) -> list[Corpus]:
    """Generated corpora as the target sees them (a text target's tokenizer applied), cut to their
    first segment for a target without a corpus entry point."""
    kind = target.references  # only corpora it can express (conformance.runner.references)
    corpora = [seen(expressible(kind, c), fingerprint.text) for c in generated_corpora(seed, count)]
    if "corpus" in target.capabilities.levels:
        return corpora
    return [(h[:1], r[:1]) for h, r in corpora]


def matches(answer: Answer, prediction: Answer, tolerance: float) -> bool:
    """An answer agrees with a point's prediction. A score above 1 is a fault for the client
    (ROB-OUT-OF-RANGE) but the point's own value under Chen and Cherry's methods 5 and 7, whose
    averaged counts can exceed l_n: a point predicting it accounts for that answer."""
    if answer == "fault:out-of-range":
        return isinstance(prediction, float) and not 0 <= prediction <= 1
    return agrees(answer, prediction, tolerance)


def _apart(a: Answer, b: Answer, tolerance: float) -> bool:
    """Two predictions no single answer can match both of (ten times the matching tolerance apart)."""
    return not agrees(a, b, 10 * tolerance)


def separate(
    points: Sequence[Candidate],
    ask_target: Callable[[Corpus], Answer],
    pool: Sequence[Corpus],
    tolerance: float,
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
            if any(_apart(predictions[0][1], b, limit) for _, b in predictions[1:]):
                found = corpus, predictions
                break
        if found is None:
            break
        corpus, predictions = found
        unused.remove(corpus)
        answer = ask_target(corpus)
        asked.append(Separation(corpus, answer, tuple((p.name, b) for p, b in predictions)))
        remaining = [p for p, b in predictions if matches(answer, b, max(p.tolerance, tolerance))]
    return remaining, tuple(asked)


def consistent(candidate: Candidate, corpora: Sequence[Corpus], answers: Sequence[Answer]) -> bool:
    """Whether the candidate predicts every answer, within its own arithmetic's precision.

    A binary64 point must agree to 1e-9 and a binary32 point to 1e-5, so a binary32 target
    matches binary32 points only (faults are never predicted, but see :func:`matches`).
    """
    return all(
        matches(a, candidate.predict(c), candidate.tolerance) for c, a in zip(corpora, answers, strict=True)
    )


def _misses(
    candidate: Candidate, corpora: Sequence[Corpus], answers: Sequence[Answer], bound: int | None = None
) -> int:
    """How many answers the point does not predict (CONF-VERDICT); counting stops at ``bound``."""
    missed = 0
    for corpus, answer in zip(corpora, answers, strict=True):
        missed += not matches(answer, candidate.predict(corpus), candidate.tolerance)
        if bound is not None and missed >= bound:
            break
    return missed


#: The registry search (CONF-VERDICT): how many of the best points each round moves, and how many
#: rounds (each moves a point along one more axis).
SEARCH_BEAM = 3
SEARCH_ROUNDS = 4


def registry_search(
    start: Sequence[Candidate], corpora: Sequence[Corpus], answers: Sequence[Answer]
) -> list[Candidate]:
    """CONF-VERDICT. The points that predict every answer, found by a search over the registry when
    no listed point does: the points predicting the most answers are moved one axis at a time to
    every value the registry declares on the observed axes (:func:`one_axis_changes`); a round keeps
    the ``SEARCH_BEAM`` moves that predict strictly more answers than the best so far, and the
    search stops at a point predicting them all, when no move improves, or after ``SEARCH_ROUNDS``
    rounds. Each axis decides the answers on its own inputs (zero counts, empty references, ties of
    reference lengths, ...), so a combination of values is reached one axis at a time.
    """
    ranked = sorted(start, key=lambda c: _misses(c, corpora, answers))
    beam = ranked[:SEARCH_BEAM]
    best = _misses(beam[0], corpora, answers) if beam else 0
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
                missed = _misses(trial, corpora, answers, bound=best)
                if missed < best:
                    moves.append((missed, trial))
        if not moves:
            break
        moves.sort(key=lambda move: move[0])
        best, beam = moves[0][0], [trial for _, trial in moves[:SEARCH_BEAM]]
    found = [c for c in beam if best == 0 and consistent(c, corpora, answers)]
    return sorted(found, key=lambda c: c.name.startswith(FINGERPRINT_POINT))  # a named path first


def domain_fit(start: Candidate, corpora: Sequence[Corpus], answers: Sequence[Answer]) -> Candidate:
    """CONF-VERDICT. ``start`` with its domain axes (DOMAIN_AXES) set to the values that predict the
    most answers: one axis at a time, a value kept when it predicts strictly more of them, and
    the axes gone over again while that changes something (a segment without references scored
    against an empty reference shows only once an error on r = 0 is set, say).

    The domain axes are observed on nearly disjoint inputs (no reference, an empty candidate,
    c = 0 or r = 0, no segment), so the combination a tool chose is found without trying every
    product of their values.
    """
    point, best, changes = start, _misses(start, corpora, answers), list[str]()
    improved = True
    while improved and best:
        improved = False
        for axis, values in DOMAIN_AXES.items():
            for value in values:
                if best == 0 or point.axes[axis] == value:
                    continue
                trial = Candidate(point.name, {**point.options, axis: value})
                misses = _misses(trial, corpora, answers)
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
    corpora: Sequence[Corpus],
    answers: Sequence[Answer],
    unaccounted_by: Callable[[Candidate], bool] = lambda _: False,
) -> tuple[tuple[str, str, str, str], ...]:
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
            if consistent(back, corpora, answers) and not unaccounted_by(back):
                continue
        except BleuError:
            pass
        shown.append((axis, AXIS_SPEC[axis], theirs[axis], value))
    return tuple(shown)


# --- accounting for the checks --------------------------------------------------------------------


def _is_corpus(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and isinstance(value[0], list)
        and isinstance(value[1], list)
        and len(value[0]) == len(value[1])
    )


#: Kinds of fault a point can account for: an error it raises too (EC-003's "error"), a score
#: above 1 it gives too (SMOOTH-CC5, SMOOTH-CC7). A crash, a hang, NaN or a mutation never.
ACCOUNTABLE_FAULTS = frozenset({"error", "out-of-range"})


#: What the verdict names when the statistics a target sends on the battery are those of no point
#: that predicts its scores (spec CONF-VERDICT).
STATISTICS_UNACCOUNTED = "statistics: no point that predicts the scores gives the statistics sent"

AskReply = Callable[[str, Corpus], Reply]


def point_reply(options: Mapping[str, Any], level: str, corpus: Corpus) -> Reply:
    """The reference's whole answer at a point: its outcome, or "error" where it refuses the input."""
    reference = ReferenceTarget(dict(options))
    try:
        if level == "sentence":
            return reference.sentence(corpus[0][0], corpus[1][0])
        return reference.corpus(*corpus)
    except BleuError:
        return "error"


def same_reply(reply: Reply, point: Reply, tolerance: float) -> bool:
    """A target's answer is the point's: the same error, or the same score (``matches``) and, when
    it sends statistics, the point's statistics exactly (spec CONF-VERDICT). Skipped: no evidence."""
    if reply == SKIPPED:
        return True
    prediction = point.score if isinstance(point, Outcome) else point
    if isinstance(reply, str):
        return matches(reply, prediction, tolerance)
    if not matches(reply.score, prediction, tolerance):
        return False
    if not reply.has_statistics:
        return True
    if not isinstance(point, Outcome) or point.matches is None:
        return False
    return same_statistics(statistics_of(reply, len(point.matches)), statistics_of(point))


def accounted(
    check: Check,
    candidate: Candidate,
    ask_target: Callable[[Corpus], Answer],
    tolerance: float,
    *,
    fault_inputs: Mapping[str, Any] | None = None,
    text: Text = None,
    ask_reply: AskReply | None = None,
) -> bool:
    """Whether the point ``candidate`` accounts for a check that did not pass.

    ``fault_inputs`` are the first inputs of each kind of fault (the client's ``first_input``),
    the evidence for a ROB-* row whose own counterexample is another check's example; ``text``
    a text target's conventions, under which each input is asked and predicted; ``ask_reply``
    the target's whole answer (statistics included): a check that compared statistics, and an
    invariant, are accounted for only by a point whose statistics and scores the target gives.
    """
    if check.status in ("pass", "n/a") or check.family == "fingerprint":
        return True  # a fingerprint row's diagnostics are in the battery, which the point predicts
    limit = max(candidate.tolerance, tolerance)
    if check.family == "invariant":
        return _breaks_too(check, candidate, ask_reply, limit, text)
    corpora: list[Corpus] = []
    if check.family == "vectors":  # a sentence-only target skips those of several segments
        corpora = [(v.data["hypotheses"], v.data["references"]) for v in load_vectors() if v.scored]
    elif check.fault in ACCOUNTABLE_FAULTS:
        first: Any = (fault_inputs or {}).get(check.fault)
        corpora = [(list(first[0]), list(first[1]))] if _is_corpus(first) else []
    elif _is_corpus(check.counterexample) and not check.fault:
        corpora = [(list(check.counterexample[0]), list(check.counterexample[1]))]
    corpora = [seen(c, text) for c in corpora]  # as a text target sees them
    if check.compared == "statistics":  # the statistics too, exactly: a score alone says nothing of r
        return (
            bool(corpora)
            and ask_reply is not None
            and all(
                same_reply(ask_reply("corpus", c), point_reply(candidate.options, "corpus", c), limit)
                for c in corpora
            )
        )
    return bool(corpora) and all(matches(ask_target(c), candidate.predict(c), limit) for c in corpora)


@dataclass
class _Recorder:
    """The reference at a point as a target of the invariants, recording each question it is asked
    (on the tokens a text target sees) with its answer."""

    options: Mapping[str, Any]
    text: Text = None
    asked: list[tuple[str, Corpus, Reply]] = field(default_factory=list)

    @property
    def max_order(self) -> int:
        """N at the point (INV-IDENTITY reads it)."""
        return ReferenceTarget(dict(self.options)).max_order

    def _ask(
        self, level: str, hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]]
    ) -> Outcome:
        copied: Corpus = ([list(h) for h in hypotheses], [[list(r) for r in rs] for rs in references])
        reply = point_reply(self.options, level, seen(copied, self.text))
        self.asked.append((level, copied, reply))
        if not isinstance(reply, Outcome):
            raise BleuInputError("CONF-VERDICT", "the point refuses this input")
        return reply

    def corpus(
        self, hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]]
    ) -> Outcome:
        """Corpus BLEU at the point."""
        return self._ask("corpus", hypotheses, references)

    def sentence(self, hypothesis: Sequence[str], references: Sequence[Sequence[str]]) -> Outcome:
        """Sentence BLEU at the point."""
        return self._ask("sentence", [hypothesis], [references])


def _breaks_too(
    check: Check, candidate: Candidate, ask_reply: AskReply | None, tolerance: float, text: Text
) -> bool:
    """An invariant the target broke is accounted for when the reference at the point breaks it too
    on the same example, and the target gives the point's answers (scores, and statistics when it
    sends them) on every question the invariant asks there: it breaks the invariant because it is
    that point, not for a cause of its own (spec CONF-VERDICT)."""
    if check.counterexample is None:
        return False
    recorder = _Recorder(candidate.options, text)
    try:
        BY_ID[check.id].check(recorder, check.counterexample)  # type: ignore[arg-type]
    except InvariantViolationError:
        return ask_reply is not None and all(
            same_reply(ask_reply(level, seen(corpus, text)), reply, tolerance)
            for level, corpus, reply in recorder.asked
        )
    except BleuError:
        return True  # the point refuses this example (EC-003's "error"): so may the target
    except (TypeError, ValueError, KeyError, IndexError):
        return False
    return False


def with_text(
    verdict: Verdict, fingerprint: Fingerprint, expectation: Expectation, point: Candidate | None
) -> Verdict:
    """The verdict with a text target's tokenizer, case folding and split rule (FP-TEXT), or a token
    target's case folding (FP-CASE), compared with the expected: the text axes the point observes.

    When the fingerprint's own conventions did not explain the point's answers, they are settled
    again under the point the target was placed at (which predicts every other answer). A
    tokenizer, case folding or split rule no known one explains leaves the target not conformant
    (FP-TEXT or FP-CASE unaccounted), naming the axes of the diagnostics the expected text
    conventions miss; a known one other than the expected makes a conformant target a variant,
    with the axis listed beside the score axes.
    """
    finding = next((f for f in fingerprint.findings if f.point.text_axes), None)
    if finding is None or verdict.level == "insufficient evidence" or not finding.asked or finding.unasked:
        return verdict  # no text axis to read (a run limit left its diagnostics unasked)
    if verdict.level == "not conformant":  # other checks too; a text rule no convention explains is named
        named_bug = any(f.convention is not None and BUG in f.convention.flags for f in fingerprint.findings)
        # a fault is the robustness checks'; a named bug (BP's lengths in characters) moves every
        # answer, and leaves no text rule to read
        if finding.convention is not None or finding.faults or named_bug:
            return verdict

        missed = _text_axes_missed(finding, expectation.text, dict(fingerprint.config))
        unaccounted = verdict.unaccounted
        if not any(u.startswith(finding.point.id) for u in unaccounted):
            unaccounted = (finding.point.id, *unaccounted)
        return replace(verdict, differs=(*missed, *verdict.differs), unaccounted=unaccounted)
    options = dict(point.options) if point is not None else dict(fingerprint.config)
    convention, settled = finding.convention, ""
    if convention is None and point is not None:
        convention = settle(finding.point, finding.answers, options, point.tolerance).convention
        settled = convention.name if convention is not None else ""
    expected, acceptable = expectation.text, expectation.acceptable()
    if convention is None:
        return replace(  # no point: nothing is accounted for by one
            verdict,
            level="not conformant",
            point="",
            differs=_text_axes_missed(finding, expected, options),
            unaccounted=(finding.point.id,),
            accounted=(),
            point_axes=(),
            point_tool="",
        )
    values = {"split": BY_NAME["split"].paper, **text_values(convention.flags)}
    found = {axis: values.get(axis, "") for axis in TEXT_AXES}
    # a text target's tokenizer, folding and split (FP-TEXT); a token target's folding alone (FP-CASE)
    text = text_of(convention.flags) if "tokenize" in finding.point.text_axes else verdict.text
    shown = tuple(
        (axis, TEXT_AXES[axis].field.spec_id, expected[axis], found[axis])
        for axis in finding.point.text_axes
        if found[axis] != expected[axis]
    )
    differs = tuple(d for d in shown if d[3] not in acceptable.get(d[0], ()))
    chosen = (*(d for d in shown if d not in differs), *verdict.choices)
    if not differs:
        return replace(verdict, text=text, choices=chosen, settled=settled)
    differs = (*differs, *verdict.differs)
    return replace(verdict, level="variant", differs=differs, text=text, choices=chosen, settled=settled)


def _text_axes_missed(
    finding: Finding, expected: Mapping[str, str], options: Mapping[str, Any]
) -> tuple[tuple[str, str, str, str], ...]:
    """The text axes whose diagnostics the expected text conventions do not predict (each
    diagnostic names the axis it probes): (axis, spec entry, expected value, found). Found is the
    first registry value of the axis that, the others as expected, predicts every diagnostic probing
    it (a Unicode lower-casing beside a tokenizer no rule explains), else "no known rule"."""
    probing = [
        (d, answer) for d, answer in zip(finding.point.diagnostics, finding.answers, strict=True) if d.probes
    ]

    def predicts(text: Mapping[str, str], axis: str) -> bool:
        try:
            want = retokenized_predictor(text, options)
            return all(agrees(answer, want(d.corpus)) for d, answer in probing if d.probes == axis)
        except BleuError:  # a value this installation cannot compute (MeCab's tokenizers without MeCab)
            return False

    missed = dict.fromkeys(
        d.probes for d, _ in probing if d.probes in TEXT_AXES and not predicts(expected, d.probes)
    )
    found = {
        axis: next(
            (v for v in TEXT_AXES[axis].field.values if predicts({**expected, axis: v}, axis)),
            "no known rule",
        )
        for axis in missed
    }
    return tuple((axis, TEXT_AXES[axis].field.spec_id, expected[axis], found[axis]) for axis in missed)


def retokenized_predictor(text: Mapping[str, str], options: Mapping[str, Any]) -> Callable[[Corpus], Answer]:
    """The reference's prediction at ``options`` for a text target with the ``text`` conventions."""
    triple = (text["tokenize"], text["lowercase"], text["split"])
    return lambda corpus: reference_prediction(dict(options), seen(corpus, triple))


def judge_expectation(
    target: ProtocolTarget,
    fingerprint: Fingerprint,
    checks: Sequence[Check],
    expectation: Expectation,
    seed: int,
) -> Verdict:
    """CONF-VERDICT. Place the target in the convention space and compare with the expectation."""
    verdict, point = _score_verdict(target, fingerprint, checks, expectation, seed)
    verdict = with_text(verdict, fingerprint, expectation, point)
    if point is None or not verdict.point:
        return verdict
    name = profile_named(replace(point, name=verdict.point), verdict.text)
    tool = _tool_of(name)
    return replace(verdict, point=name, point_tool=tool, differs=_with_divergences(verdict.differs, tool))


def _with_divergences(
    differs: tuple[tuple[str, str, str, str], ...], tool: str
) -> tuple[tuple[str, str, str, str], ...]:
    """Each differing axis's spec entry followed by the registered divergences of the placed point's
    tool that take that value (spec 10, ``Divergence.axes``): nltk's sentinel is DIV-NLTK-002."""

    def entries(axis: str, spec: str, found: str) -> str:
        ids = [
            d.id
            for d in DIVERGENCES
            if d.peer == tool and any(a == axis and found.startswith(v) for a, v in d.axes)
        ]
        return ", ".join([spec, *ids])

    return tuple((a, entries(a, s, f), e, f) for a, s, e, f in differs)


def _score_key(options: Mapping[str, Any], domain: bool = True) -> tuple[Any, ...]:
    """What a point computes on tokens: its value on every observable axis (``domain`` False: the
    score axes only, inside BLEU's domain), and the order and weights."""
    validated = make_options(**options)
    axes = Candidate("", options).axes
    return (
        tuple(sorted((axis, value) for axis, value in axes.items() if domain or axis not in DOMAIN_AXES)),
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
    named = [
        (name, whole, score) for name, whole, score, named_text in _named_keys() if text in (None, named_text)
    ]
    # equal on every axis first; else inside BLEU's domain, whose choices outside it are acceptable
    # under every expectation (a tool scoring c = 0 as 0 where nmt raises is still nmt's BLEU)
    equal = [name for name, whole, _ in named if whole == key] or [
        name for name, _, score in named if score == inside
    ]
    return equal[0] if equal else point.name


def _score_verdict(
    target: ProtocolTarget,
    fingerprint: Fingerprint,
    checks: Sequence[Check],
    expectation: Expectation,
    seed: int,
) -> tuple[Verdict, Candidate | None]:
    """The verdict on the score axes (the battery against the candidate points), and the point."""
    corpora, answers = battery_answers(target, fingerprint, seed)
    tolerance = fingerprint.tolerance
    expected, label = expectation.candidate, expectation.name

    def ask_target(corpus: Corpus) -> Answer:  # (its corpora are already as the target sees them)
        return ask(target, corpus)

    replies: dict[str, Reply] = {}

    def ask_reply(level: str, corpus: Corpus) -> Reply:  # asked once per question, then remembered
        key = json.dumps([level, corpus])
        if key not in replies:
            replies[key] = reply_of(target, level, corpus)
        return replies[key]

    faults = [c.id for c in checks if c.fault and c.fault not in ACCOUNTABLE_FAULTS and c.status == "fail"]
    pool = candidates(expectation, fingerprint.config)
    matched = [c for c in pool if consistent(c, corpora, answers)]
    if not matched:  # no listed point: a search over the registry's values (CONF-VERDICT)
        matched = registry_search(pool, corpora, answers)
    known = [c.options for c in matched]
    for start in (expected, *expectation.accepted_points()):  # the domain's choices, combined
        fit = domain_fit(start, corpora, answers)
        if fit is start or not consistent(fit, corpora, answers):
            continue
        if fit.options in known:  # a named point beats the fingerprint's (CONF-VERDICT, the name)
            matched = [
                fit if c.options == fit.options and c.name == FINGERPRINT_POINT else c for c in matched
            ]
        else:
            matched.append(fit)
            known.append(fit.options)
    names = tuple(dict.fromkeys(c.name for c in matched))
    if faults:
        return Verdict("not conformant", label, "", names, (), tuple(faults), len(corpora)), None
    # a check short of answers is named; one insufficient for another reason says why (SKIPPED: the
    # class of the questions the target skipped, spec CONF-ROBUST)
    thin = tuple(
        c.id
        if c.family != "robustness" and c.asked and (c.answered or 0) < MIN_ANSWERED_SHARE * c.asked
        else f"{c.id} ({c.detail})"  # a robustness row's reason is its own (SKIPPED: the class skipped)
        for c in checks
        if c.status == "insufficient"
    )
    if thin:  # coverage is a verdict input (spec CONF-VERDICT): no verdict on skipped questions
        return Verdict("insufficient evidence", label, "", names, (), thin, len(corpora)), None
    further = _generated(target, fingerprint, seed + 1, SEPARATING)
    matched, questions = separate(matched, ask_target, further, tolerance)
    if not matched and questions:
        unaccounted: tuple[str, ...] = ("SEPARATING-QUESTIONS: no known point predicts the answers",)
        verdict = Verdict("not conformant", label, "", (), (), unaccounted, len(corpora))
        return replace(verdict, questions=questions), None

    caps = target.capabilities
    sends_statistics = caps.statistics and "corpus" in caps.levels

    def statistics_differ(point: Candidate) -> bool:
        """A target that sends statistics sends the point's on every corpus of the battery, exactly:
        the placed point's statistics are compared, not only the fingerprinted conventions'."""
        limit = max(point.tolerance, tolerance)
        return sends_statistics and not all(
            same_reply(ask_reply("corpus", c), point_reply(point.options, "corpus", c), limit)
            for c in corpora
        )

    def unaccounted_by(point: Candidate) -> bool:
        return statistics_differ(point) or any(
            not accounted(
                c,
                point,
                ask_target,
                tolerance,
                fault_inputs=target.first_input,
                text=fingerprint.text,
                ask_reply=ask_reply,
            )
            for c in checks
            if c.status not in ("pass", "n/a")
        )

    verdict, point = _placed(
        matched, expected, unaccounted_by, corpora, answers, acceptable=expectation.acceptable(), label=label
    )
    if point is None:
        bugs = _named_bugs(fingerprint)
        open_checks = tuple(bugs) + tuple(
            c.id
            for c in checks
            if c.status not in ("pass", "n/a") and not any(b.startswith(f"{c.id} (") for b in bugs)
        )
        if matched and all(statistics_differ(c) for c in matched):
            open_checks += (STATISTICS_UNACCOUNTED,)
        verdict = replace(verdict, unaccounted=open_checks or ("no known point predicts its answers",))
        return replace(verdict, questions=questions), None
    hidden = unobservable(fingerprint.findings, target.references)

    def shown(candidate: Candidate) -> dict[str, str]:  # its values on the axes answers can show
        return {axis: value for axis, value in candidate.axes.items() if axis not in hidden}

    others = tuple(dict.fromkeys(c.name for c in matched if shown(c) != shown(point)))
    open_checks = tuple(c.id for c in checks if c.status == "fail")
    return (
        replace(
            verdict,
            questions=questions,
            ambiguous=others,
            accounted=open_checks,
            point_axes=tuple(shown(point).items()),
            point_tool=_tool_of(point.name),
            unobservable=hidden,
        ),
        point,
    )


def _named_bugs(fingerprint: Fingerprint) -> tuple[str, ...]:
    """The fingerprint rows that found a known bug, first and by name: "FP-BP (BP lengths are not
    token counts)" (CONF-VERDICT): the cause the other rows' failures follow from."""
    return tuple(
        f"{f.point.id} ({f.convention.name.split(': ')[0]})"
        for f in fingerprint.findings
        if f.convention is not None and BUG in f.convention.flags
    )


def _tool_of(name: str) -> str:
    """The tool whose profile ``name`` is, or "" (a change of the expectation, the fingerprint's point)."""
    try:
        return resolve(name).tool
    except BleuError:
        return ""


def _placed(
    matched: Sequence[Candidate],
    expected: Candidate,
    unaccounted_by: Callable[[Candidate], bool],
    corpora: Sequence[Corpus],
    answers: Sequence[Answer],
    *,
    acceptable: Mapping[str, frozenset[str]] | None = None,
    label: str = "",
) -> tuple[Verdict, Candidate | None]:
    """The point among ``matched`` that accounts for every open check: the expected one, else the
    nearest (fewest axes changed to a value not ``acceptable``, then fewest changed); conformant
    when every axis the answers show differs only to an acceptable value (reported as a choice),
    a variant otherwise. No such point: not conformant (the caller names the checks)."""
    label, acceptable = label or expected.name, acceptable or {}
    names = tuple(dict.fromkeys(c.name for c in matched))
    if expected in matched and not unaccounted_by(expected):
        return Verdict("conformant", label, expected.name, names, (), (), len(corpora)), expected
    expected_axes = expected.axes

    def rank(c: Candidate) -> tuple[bool, int, int, bool]:
        # nearest first, a tool's profile before a change of the expected point at the same
        # distance; the fingerprint's own point after every named one
        changed = [(a, v) for a, v in c.axes.items() if v != expected_axes[a]]
        unacceptable = sum(v not in acceptable.get(a, ()) for a, v in changed)
        return (
            c.name.startswith(FINGERPRINT_POINT),  # the search may extend it: "... with ..."
            unacceptable,
            len(changed),
            c.name.startswith(f"{expected.name} with "),
        )

    ranked = sorted((c for c in matched if c is not expected), key=rank)
    for candidate in ranked:
        if unaccounted_by(candidate):
            continue
        shown = evidenced(candidate, expected, corpora, answers, unaccounted_by)
        differs = tuple(d for d in shown if d[3] not in acceptable.get(d[0], ()))
        choices = tuple(d for d in shown if d not in differs)
        level = "variant" if differs else "conformant"  # no axis shown: the same point, another name
        verdict = Verdict(level, label, candidate.name, names, differs, (), len(corpora), choices=choices)
        return verdict, candidate
    return Verdict("not conformant", label, "", names, (), (), len(corpora)), None
