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

The decision is :func:`verdict_of`, read top to bottom: faults first, then coverage, the placement
on the score axes (:mod:`.placement`) and what the placed point accounts for (:mod:`.accounting`),
the text axes, the name the point is called by, and the questions a run limit left unasked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from conformance.peers.divergences import REGISTRY as DIVERGENCES
from conformance.runner.accounting import (
    ACCOUNTABLE_FAULTS,
    STATISTICS_UNACCOUNTED,
    accounted,
    point_reply,
    same_reply,
)
from conformance.runner.client import ProtocolTarget
from conformance.runner.diagnosis import Diagnosis, diagnose, evidence_of
from conformance.runner.expectation import (
    DOMAIN_AXES,
    FINGERPRINT_POINT,
    TEXT_AXES,
    AxisDifference,
    Candidate,
    Expectation,
)
from conformance.runner.fingerprint import Fingerprint, settle, text_of, text_values, unobservable
from conformance.runner.fingerprint.base import (
    MATCH_TOLERANCE,
    Answer,
    Corpus,
    Finding,
    Reply,
    Text,
    agrees,
    ask,
    reference_prediction,
    reply_of,
    seen,
)
from conformance.runner.fingerprint.brevity import BUG
from conformance.runner.judge.base import MIN_ANSWERED_SHARE, Check
from conformance.runner.placement import (
    SEPARATING,
    Battery,
    Separation,
    ask_battery,
    candidates,
    consistent,
    domain_fit,
    evidenced,
    generate_for,
    profile_named,
    registry_search,
    separate,
    tool_of,
)
from conformance.suite.resolution import Resolution
from reference_bleu.conventions.registry import AXES, BY_NAME
from reference_bleu.errors import BleuError

#: The levels of a verdict (spec CONF-VERDICT); only ``conformant`` exits 0.
CONFORMANT, VARIANT, NOT_CONFORMANT, INSUFFICIENT = (
    "conformant",
    "variant",
    "not conformant",
    "insufficient evidence",
)


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """Where the target stands against the expectation (spec CONF-VERDICT)."""

    level: str  # CONFORMANT, VARIANT, NOT_CONFORMANT or INSUFFICIENT
    expected: str
    #: The name of the point the target is placed at ("" when none).
    point: str = ""
    #: Every candidate that predicts every answer.
    matched: tuple[str, ...] = ()
    #: The axes the answers show differ from the expectation to a value not acceptable.
    differs: tuple[AxisDifference, ...] = ()
    #: The checks no point accounts for (or, for insufficient evidence, those short of answers).
    unaccounted: tuple[str, ...] = ()
    #: How many questions the battery holds.
    battery: int = 0
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
    #: ``--accept`` added): reported, never making a variant.
    choices: tuple[AxisDifference, ...] = ()
    #: Axes no answer of the target can show, given the references it takes (CONF-PROTOCOL: the
    #: reference length of a one-reference tool): no value is claimed on them.
    unobservable: tuple[str, ...] = ()
    #: The text rule (FP-TEXT's or FP-CASE's convention) found only once the answers were settled
    #: under the placed point: the report's row of that point then passes, saying so.
    settled: str = ""
    #: Which bug a not-conformant target has (spec CONF-DIAGNOSIS); None for every other verdict.
    diagnosis: Diagnosis | None = None

    def as_json(self) -> dict[str, Any]:
        """The verdict in the JSON report."""
        return {
            "level": self.level,
            "expected": self.expected,
            "point": self.point,
            "matched": list(self.matched),
            "differs": [d.as_json() for d in self.differs],
            "unaccounted": list(self.unaccounted),
            "battery": self.battery,
            "text": None if self.text is None else dict(zip(TEXT_AXES, self.text, strict=True)),
            "questions": [q.as_json() for q in self.questions],
            "ambiguous": list(self.ambiguous),
            "accounted": list(self.accounted),
            "choices": [d.as_json() for d in self.choices],
            "unobservable": list(self.unobservable),
            "diagnosis": None if self.diagnosis is None else self.diagnosis.as_json(),
        }

    def headline(self) -> str:
        """One line: the level, and what differs or what is wrong."""
        if self.level == CONFORMANT:
            chosen = ", ".join(f"{d.axis}={d.found}" for d in self.choices)
            return f"conformant to {self.expected}" + (f" (with {chosen})" if chosen else "")
        if self.level == VARIANT:
            axes = ", ".join(f"{d.axis}={d.found} ({d.spec}; expected {d.expected})" for d in self.differs)
            like = f" (behaves as {self.point})" if self.point else ""
            chosen = ", ".join(f"{d.axis}={d.found}" for d in self.choices)  # accepted: named too
            return f"a variant of {self.expected}{like}: {axes or 'differs'}" + (
                f"; accepted: {chosen}" if chosen else ""
            )
        if self.level == INSUFFICIENT:
            return "insufficient evidence: too few answers to judge " + ", ".join(self.unaccounted)
        if self.diagnosis is not None and self.diagnosis.found:
            return "not conformant: " + self.diagnosis.headline()
        axes = "".join(f"; {d.axis}: {d.found} ({d.spec}; expected {d.expected})" for d in self.differs)
        return "not conformant: " + (", ".join(self.unaccounted) or "no known convention explains it") + axes


def verdict_of(
    target: ProtocolTarget,
    fingerprint: Fingerprint,
    checks: Sequence[Check],
    expectation: Expectation,
    seed: int,
) -> Verdict:
    """CONF-VERDICT. Place the target in the convention space and compare it with the expectation.

    In order: a fault no point can account for (a crash, a hang, NaN, a mutation, a protocol
    violation) makes it not conformant; a check short of answers leaves insufficient evidence;
    the points that predict every answer of the battery are found (the listed candidates, else a
    search over the registry, and the domain axes fitted) and questions asked to separate them;
    the nearest that accounts for every open check is the target's point: the expected one makes
    it conformant, another a variant naming the axes the answers show, none not conformant. The
    text axes are read next (FP-TEXT, FP-CASE), the point is named (a profile's name where it is
    that profile's point), and a verdict resting on questions a run limit left unasked is
    insufficient evidence.
    """
    battery = ask_battery(target, fingerprint, seed)
    label = expectation.name
    tolerance, resolution = fingerprint.tolerance, fingerprint.resolution
    matched = _matching_points(expectation, fingerprint, battery)
    names = tuple(dict.fromkeys(c.name for c in matched))

    def finished(found: Verdict, point: Candidate | None = None) -> Verdict:
        return _finished(found, point, target, fingerprint, expectation)

    faults = tuple(
        c.id for c in checks if c.fault and c.fault not in ACCOUNTABLE_FAULTS and c.status == "fail"
    )
    if faults:
        return finished(
            Verdict(
                level=NOT_CONFORMANT, expected=label, matched=names, unaccounted=faults, battery=len(battery)
            )
        )
    thin = _short_of_answers(checks)
    if thin:  # coverage is a verdict input (spec CONF-VERDICT): no verdict on skipped questions
        return finished(
            Verdict(level=INSUFFICIENT, expected=label, matched=names, unaccounted=thin, battery=len(battery))
        )

    def ask_target(corpus: Corpus) -> Answer:  # (its corpora are already as the target sees them)
        return ask(target, corpus)

    further = generate_for(target, fingerprint, seed + 1, SEPARATING)
    matched, questions = separate(matched, ask_target, further, tolerance, resolution)

    def diagnosed(found: Verdict) -> Verdict:  # which bug (CONF-DIAGNOSIS), asked only now
        return replace(
            found, diagnosis=_diagnosis(target, fingerprint, checks, expectation, battery, seed=seed)
        )

    if not matched and questions:
        unaccounted: tuple[str, ...] = ("SEPARATING-QUESTIONS: no known point predicts the answers",)
        found = Verdict(
            level=NOT_CONFORMANT,
            expected=label,
            unaccounted=unaccounted,
            battery=len(battery),
            questions=questions,
        )
        return finished(diagnosed(found))

    replies: dict[str, Reply] = {}

    def ask_reply(level: str, corpus: Corpus) -> Reply:  # asked once per question, then remembered
        key = json.dumps([level, corpus])
        if key not in replies:
            replies[key] = reply_of(target, level, corpus)
        return replies[key]

    caps = target.capabilities
    sends_statistics = caps.statistics and "corpus" in caps.levels

    def statistics_differ(point: Candidate) -> bool:
        """A target that sends statistics sends the point's on every corpus of the battery, exactly:
        the placed point's statistics are compared, not only the fingerprinted conventions'."""
        limit = max(point.tolerance, tolerance)
        return sends_statistics and not all(
            same_reply(ask_reply("corpus", c), point_reply(point.options, "corpus", c), limit, resolution)
            for c in battery.corpora
        )

    def unaccounted_by(point: Candidate) -> bool:
        return statistics_differ(point) or any(
            not accounted(
                c,
                point,
                ask_target,
                tolerance,
                resolution,
                fault_inputs=target.first_input,
                text=fingerprint.text,
                ask_reply=ask_reply,
            )
            for c in checks
            if c.status not in ("pass", "n/a")
        )

    placed = _placed(matched, expectation, unaccounted_by, battery, label=label, rows=_row_axes(fingerprint))
    if placed.point is None:
        bugs = _named_bugs(fingerprint)
        open_checks = tuple(bugs) + tuple(
            c.id
            for c in checks
            if c.status not in ("pass", "n/a") and not any(b.startswith(f"{c.id} (") for b in bugs)
        )
        if matched and all(statistics_differ(c) for c in matched):
            open_checks += (STATISTICS_UNACCOUNTED,)
        unaccounted = open_checks or ("no known point predicts its answers",)
        return finished(diagnosed(replace(placed.verdict, unaccounted=unaccounted, questions=questions)))
    point = placed.point
    hidden = unobservable(fingerprint.findings, target.references)

    def shown(candidate: Candidate) -> dict[str, str]:  # its values on the axes answers can show
        return {axis: value for axis, value in candidate.axes.items() if axis not in hidden}

    found = replace(
        placed.verdict,
        questions=questions,
        ambiguous=tuple(dict.fromkeys(c.name for c in matched if shown(c) != shown(point))),
        accounted=tuple(c.id for c in checks if c.status == "fail"),
        point_axes=tuple(shown(point).items()),
        point_tool=tool_of(point.name),
        unobservable=hidden,
    )
    return finished(found, point)


def _diagnosis(
    target: ProtocolTarget,
    fingerprint: Fingerprint,
    checks: Sequence[Check],
    expectation: Expectation,
    battery: Battery,
    *,
    seed: int,
) -> Diagnosis:
    """CONF-DIAGNOSIS. The catalogue's faults searched alone (at the expected point, with the choices
    outside BLEU's domain the verdict accepts fitted to the answers, then as it is) and with the
    conventions the fingerprint found (at its point), on every answer the verdict rests on."""
    bases = [_with_choices(expectation, battery), expectation.candidate]
    bases.append(Candidate(FINGERPRINT_POINT, dict(fingerprint.config)))
    bases = [b for i, b in enumerate(bases) if all(b.options != a.options for a in bases[:i])]

    def ask_target(corpus: Corpus) -> Answer:
        return ask(target, corpus)

    evidence = evidence_of(
        list(zip(battery.corpora, battery.answers, strict=True)), checks, ask_target, fingerprint.text
    )
    return diagnose(
        bases,
        evidence,
        ask_target,
        tolerance=fingerprint.tolerance,
        resolution=fingerprint.resolution,
        text=fingerprint.text,
        references=target.references,
        seed=seed,
    )


def _with_choices(expectation: Expectation, battery: Battery) -> Candidate:
    """The expected point with the values of the domain axes the answers show, where the verdict
    accepts them (CONF-VERDICT: any, unless the domain is strict): a fault is found alone when the
    target made those choices, as the verdict does not count them against it."""
    fit = domain_fit(expectation.candidate, battery)
    acceptable = expectation.acceptable()
    options = dict(expectation.candidate.options)
    changes = []
    for axis in DOMAIN_AXES:
        value = fit.axes[axis]
        if value != expectation.candidate.axes[axis] and value in acceptable.get(axis, ()):
            options.update({k: v for k, v in fit.options.items() if k in AXES[axis].fields})
            changes.append(f"{axis}={value}")
    if not changes:
        return expectation.candidate
    return Candidate(f"{expectation.candidate.name} with {', '.join(changes)}", options)


def _matching_points(expectation: Expectation, fingerprint: Fingerprint, battery: Battery) -> list[Candidate]:
    """The points that predict every answer of the battery: the listed candidates (the expected
    point, its one-axis changes, the profiles, the fingerprint's point), else those a search over
    the registry's values finds, and the expected (and accepted) points with their domain axes
    fitted to the answers."""
    pool = candidates(expectation, fingerprint.config)
    matched = [c for c in pool if consistent(c, battery)]
    if not matched:  # no listed point: a search over the registry's values (CONF-VERDICT)
        matched = registry_search(pool, battery)
    known = [c.options for c in matched]
    for start in (expectation.candidate, *expectation.accepted_points()):  # the domain's choices, combined
        fit = domain_fit(start, battery)
        if fit is start or not consistent(fit, battery):
            continue
        if fit.options in known:  # a named point beats the fingerprint's (CONF-VERDICT, the name)
            matched = [
                fit if c.options == fit.options and c.name == FINGERPRINT_POINT else c for c in matched
            ]
        else:
            matched.append(fit)
            known.append(fit.options)
    return matched


#: The axes on which a placed point must agree with the fingerprint's rows before anything else.
_ROWS_FIRST = ("arithmetic",)


def _row_axes(fingerprint: Fingerprint) -> dict[str, str]:
    """The value the fingerprint's rows found on each axis of a point that found a convention (the
    conventions they add up to): what a placed point, and the label that names it, should agree
    with (CONF-VERDICT)."""
    found = Candidate("", dict(fingerprint.config)).axes
    return {
        axis: found[axis]
        for finding in fingerprint.findings
        if finding.convention is not None and finding.asked
        for axis in finding.point.axes
        if axis in found
    }


def _short_of_answers(checks: Sequence[Check]) -> tuple[str, ...]:
    """The checks with insufficient evidence: one short of answers by its ID; one insufficient for
    another reason with it (SKIPPED: the class of the questions the target skipped, CONF-ROBUST)."""
    return tuple(
        c.id
        if c.family != "robustness" and c.asked and (c.answered or 0) < MIN_ANSWERED_SHARE * c.asked
        else f"{c.id} ({c.detail})"  # a robustness row's reason is its own (SKIPPED: the class skipped)
        for c in checks
        if c.status == "insufficient"
    )


@dataclass(frozen=True)
class _Placement:
    """The verdict on the score axes, and the point the target is placed at (None: no point)."""

    verdict: Verdict
    point: Candidate | None


def _placed(
    matched: Sequence[Candidate],
    expectation: Expectation,
    unaccounted_by: Callable[[Candidate], bool],
    battery: Battery,
    *,
    label: str,
    rows: Mapping[str, str],
) -> _Placement:
    """The point among ``matched`` that accounts for every open check: the expected one, else the
    one that agrees with the fingerprint's arithmetic row (``rows``: a binary32 profile predicts a
    binary64 target's answers within its tolerance, yet FP-PRECISION found binary64), then the
    nearest (fewest axes changed to a value not acceptable, then fewest changed); conformant
    when every axis the answers show differs only to an acceptable value (reported as a choice),
    a variant otherwise. No such point: not conformant (the caller names the checks)."""
    expected, acceptable = expectation.candidate, expectation.acceptable()
    names = tuple(dict.fromkeys(c.name for c in matched))
    if expected in matched and not unaccounted_by(expected):
        found = Verdict(
            level=CONFORMANT, expected=label, point=expected.name, matched=names, battery=len(battery)
        )
        return _Placement(found, expected)
    expected_axes = expected.axes

    def rank(c: Candidate) -> tuple[int, bool, int, int, bool]:
        # the rows' arithmetic first (a tolerance can hide it: a binary32 profile predicts a binary64
        # target's answers, yet FP-PRECISION found binary64); nearest then, a tool's profile before a
        # change of the expected point at the same distance; the fingerprint's own point after every
        # named one (on other axes, names that predict the same answers may differ: sacrebleu's exp
        # smoothing with its early return is the rows' chen-cherry-3 with no-unigram-match)
        changed = [(a, v) for a, v in c.axes.items() if v != expected_axes[a]]
        unacceptable = sum(v not in acceptable.get(a, ()) for a, v in changed)
        return (
            sum(c.axes[a] != v for a, v in rows.items() if a in _ROWS_FIRST),
            c.name.startswith(FINGERPRINT_POINT),  # the search may extend it: "... with ..."
            unacceptable,
            len(changed),
            c.name.startswith(f"{expected.name} with "),
        )

    for candidate in sorted((c for c in matched if c is not expected), key=rank):
        if unaccounted_by(candidate):
            continue
        shown = evidenced(candidate, expected, battery, unaccounted_by)
        differs = tuple(d for d in shown if d.found not in acceptable.get(d.axis, ()))
        choices = tuple(d for d in shown if d not in differs)
        level = VARIANT if differs else CONFORMANT  # no axis shown: the same point, another name
        found = Verdict(
            level=level,
            expected=label,
            point=candidate.name,
            matched=names,
            differs=differs,
            battery=len(battery),
            choices=choices,
        )
        return _Placement(found, candidate)
    return _Placement(
        Verdict(level=NOT_CONFORMANT, expected=label, matched=names, battery=len(battery)), None
    )


def _finished(
    found: Verdict,
    point: Candidate | None,
    target: ProtocolTarget,
    fingerprint: Fingerprint,
    expectation: Expectation,
) -> Verdict:
    """The verdict with its text axes read (:func:`with_text`), its point named as a profile where it
    is one (with the tool's divergences on the differing axes), and insufficient evidence where it
    rests on questions a run limit left unasked."""
    found = with_text(found, fingerprint, expectation, point)
    if point is not None and found.point:
        name = profile_named(replace(point, name=found.point), found.text)
        tool = tool_of(name)
        found = replace(found, point=name, point_tool=tool, differs=_with_divergences(found.differs, tool))
    if target.not_asked and found.level in (CONFORMANT, VARIANT):  # none on questions never asked
        found = replace(
            found,
            level=INSUFFICIENT,
            unaccounted=(f"the questions not asked once {target.not_asked_because}",),
        )
    return found


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
    if finding is None or verdict.level == INSUFFICIENT or not finding.asked or finding.unasked:
        return verdict  # no text axis to read (a run limit left its diagnostics unasked)
    if verdict.level == NOT_CONFORMANT:  # other checks too; a text rule no convention explains is named
        named_bug = any(f.convention is not None and BUG in f.convention.flags for f in fingerprint.findings)
        # a fault is the robustness checks'; a named bug (BP's lengths in characters) moves every
        # answer, and leaves no text rule to read
        if finding.convention is not None or finding.faults or named_bug:
            return verdict

        missed = _text_axes_missed(
            finding, expectation.text, dict(fingerprint.config), fingerprint.resolution
        )
        unaccounted = verdict.unaccounted
        if not any(u.startswith(finding.point.id) for u in unaccounted):
            unaccounted = (finding.point.id, *unaccounted)
        return replace(verdict, differs=(*missed, *verdict.differs), unaccounted=unaccounted)
    options = dict(point.options) if point is not None else dict(fingerprint.config)
    convention, settled = finding.convention, ""
    if convention is None and point is not None:
        convention = settle(
            finding.point, finding.answers, options, point.tolerance, fingerprint.resolution
        ).convention
        settled = convention.name if convention is not None else ""
    expected, acceptable = expectation.text, expectation.acceptable()
    if convention is None:
        return replace(  # no point: nothing is accounted for by one
            verdict,
            level=NOT_CONFORMANT,
            point="",
            differs=_text_axes_missed(finding, expected, options, fingerprint.resolution),
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
        AxisDifference(axis, TEXT_AXES[axis].field.spec_id, expected[axis], found[axis])
        for axis in finding.point.text_axes
        if found[axis] != expected[axis]
    )
    differs = tuple(d for d in shown if d.found not in acceptable.get(d.axis, ()))
    chosen = (*(d for d in shown if d not in differs), *verdict.choices)
    if not differs:
        return replace(verdict, text=text, choices=chosen, settled=settled)
    differs = (*differs, *verdict.differs)
    return replace(verdict, level=VARIANT, differs=differs, text=text, choices=chosen, settled=settled)


def _text_axes_missed(
    finding: Finding, expected: Mapping[str, str], options: Mapping[str, Any], resolution: Resolution
) -> tuple[AxisDifference, ...]:
    """The text axes whose diagnostics the expected text conventions do not predict (each
    diagnostic names the axis it probes), answers compared at their ``resolution``. Found is the
    first registry value of the axis that, the others as expected, predicts every diagnostic probing
    it (a Unicode lower-casing beside a tokenizer no rule explains), else "no known rule"."""
    probing = [
        (d, answer) for d, answer in zip(finding.point.diagnostics, finding.answers, strict=True) if d.probes
    ]

    def predicts(text: Mapping[str, str], axis: str) -> bool:
        try:
            want = retokenized_predictor(text, options)
            return all(
                agrees(answer, want(d.corpus), MATCH_TOLERANCE, resolution)
                for d, answer in probing
                if d.probes == axis
            )
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
    return tuple(
        AxisDifference(axis, TEXT_AXES[axis].field.spec_id, expected[axis], found[axis]) for axis in missed
    )


def retokenized_predictor(text: Mapping[str, str], options: Mapping[str, Any]) -> Callable[[Corpus], Answer]:
    """The reference's prediction at ``options`` for a text target with the ``text`` conventions."""
    triple = (text["tokenize"], text["lowercase"], text["split"])
    return lambda corpus: reference_prediction(dict(options), seen(corpus, triple))


def _with_divergences(differs: tuple[AxisDifference, ...], tool: str) -> tuple[AxisDifference, ...]:
    """Each differing axis's spec entry followed by the registered divergences of the placed point's
    tool that take that value (spec 10, ``Divergence.axes``): nltk's sentinel is DIV-NLTK-002."""

    def entries(axis: str, spec: str, found: str) -> str:
        ids = [
            d.id
            for d in DIVERGENCES
            if d.peer == tool and any(a == axis and found.startswith(v) for a, v in d.axes)
        ]
        return ", ".join([spec, *ids])

    return tuple(replace(d, spec=entries(d.axis, d.spec, d.found)) for d in differs)


def _named_bugs(fingerprint: Fingerprint) -> tuple[str, ...]:
    """The fingerprint rows that found a known bug, first and by name: "FP-BP (BP lengths are not
    token counts)" (CONF-VERDICT): the cause the other rows' failures follow from."""
    return tuple(
        f"{f.point.id} ({f.convention.name.split(': ')[0]})"
        for f in fingerprint.findings
        if f.convention is not None and BUG in f.convention.flags
    )
