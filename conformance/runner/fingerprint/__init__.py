"""Fingerprinting: which convention a target follows on each open point (spec CONF-FINGERPRINT).

Each :class:`Point` is a question of the edge-case registry (spec 06) with diagnostic inputs
and the conventions known for it. A convention predicts the target's answer on every
diagnostic: a score, computed by the reference under the convention's options, or
``"error"``. The target is asked the diagnostics and a convention is named only when it
predicts every answer. A point's conventions are listed (the diagnostics make them predict
pairwise different answers) or searched over the registry (every combination of its axes'
values, matched fewest axes moved first; its diagnostics tell apart any two that score
differently): tests/test_conform.py proves both, so no convention is ever guessed. Points are settled in
order, each under the conventions already found (the scale first: every later answer is read
on it). What matches nothing is reported as "matches no known convention" with the evidence.

The points live one group of axes a module: :mod:`.scale` (FP-SCALE, FP-PRECISION),
:mod:`.text` (FP-TEXT; FP-CASE for token targets), :mod:`.ref_length` (FP-REF-LENGTH), :mod:`.aggregation`
(FP-AGGREGATION), :mod:`.zero` (FP-ZERO with the smoothing parameter's solver, FP-UNDEFINED)
and :mod:`.domain` (FP-EMPTY-HYPOTHESIS, FP-EMPTY-REFERENCE, FP-NO-REFERENCE,
FP-EMPTY-CORPUS), all made of :mod:`.base`'s diagnostics, conventions and predictions. This
module orders them, settles each, and adds the findings up to a :class:`Fingerprint`.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from conformance.runner.client import SCORE_TOLERANCE, ProtocolTarget
from conformance.runner.fingerprint import (
    aggregation,
    brevity,
    domain,
    ref_length,
    scale,
    text,
    weights,
    zero,
)
from conformance.runner.fingerprint.base import (
    BINARY32_TOLERANCE,
    SKIPPED,
    Answer,
    Config,
    Convention,
    Corpus,
    Finding,
    Point,
    Text,
    agrees,
    ask,
    seen,
)
from conformance.runner.references import takes
from conformance.suite.resolution import IN_FULL, Resolution
from reference_bleu.conventions.registry import BY_NAME

#: The points, in the order they are asked: each is settled under the conventions found before it.
POINTS: tuple[Point, ...] = (
    scale.SCALE,
    text.TEXT,
    text.CASE,
    weights.WEIGHTS,
    brevity.BREVITY,
    scale.PRECISION,
    ref_length.REF_LENGTH,
    aggregation.AGGREGATION,
    zero.ZERO,
    zero.UNDEFINED,
    domain.EMPTY_HYPOTHESIS,
    domain.EMPTY_REFERENCE,
    domain.NO_REFERENCE,
    domain.EMPTY_CORPUS,
)
BY_ID = {p.id: p for p in POINTS}
#: Asked right after FP-SCALE for the rounding (when the target declares no digits): scores that
#: are BP alone, irrational under every convention, printed in full with 12 or more decimals. They
#: are FP-BP's and FP-PRECISION's own first diagnostics, so their answers are kept and are those
#: points' evidence (never asked twice, never lost).
ROUNDING_PROBES = (*brevity.BREVITY.diagnostics, *scale.PRECISION.diagnostics[:2])


def _key(corpus: Corpus) -> str:
    return json.dumps(corpus)


#: The evidence of a point searched over the registry shows the predictions of the paper's value and
#: of each single value (and of those that match), not of every combination the search tried.
EVIDENCE_RANK = 1


def settle(
    point: Point, answers: Sequence[Answer], config: Config, tolerance: float, resolution: Resolution
) -> Finding:
    """Match the answers to every convention of ``point`` under ``config``; spec conventions first.

    A point searched over the registry (:func:`.base.registry_conventions`) is matched rank by rank:
    the conventions that move fewest axes off the paper's value and predict every answer are found,
    and none of a higher rank is tried (its diagnostics tell apart every two registry points that
    give different scores: tests/test_conform.py).

    A convention matches within its own tolerance, or ``tolerance`` when that is larger (the
    target's precision, once FP-PRECISION has found binary32), and at the answers' ``resolution``
    (CONF-PROTOCOL's digits). When a convention without a
    divergence matches, those marked as divergences that agree as well (FP-PRECISION's binary32,
    EC-013) are not reported.
    """
    if all(answer == SKIPPED for answer in answers):  # not asked: no evidence, no convention
        return Finding(point, (), tuple(answers), ())
    matched: list[Convention] = []
    predictions: list[tuple[str, tuple[Answer, ...]]] = []
    for rank, ranked in itertools.groupby(point.conventions(config), key=lambda c: c.rank):
        evidence = rank <= EVIDENCE_RANK  # every prediction kept; above, one stops at the first miss
        for c in ranked:
            within, predicted = max(c.tolerance, tolerance), []
            for answer, diagnostic in zip(answers, point.diagnostics, strict=True):
                predicted.append(c.predict(config, diagnostic.corpus))
                if not agrees(answer, predicted[-1], within, resolution) and not evidence:
                    break
            hit = len(predicted) == len(answers) and all(
                agrees(a, b, within, resolution) for a, b in zip(answers, predicted, strict=True)
            )
            matched += [c] if hit else []
            if hit or evidence:
                predictions.append((c.name, tuple(predicted)))
        if matched:  # a registry search stops at the fewest axes moved that explain every answer
            break
    if any(not c.divergence for c in matched):
        matched = [c for c in matched if not c.divergence]
    if not matched and point.solve is not None:
        matched = list(point.solve(answers, config, point, tolerance, resolution))
    return Finding(point, tuple(matched), tuple(answers), tuple(predictions))


@dataclass(frozen=True)
class Fingerprint:
    """Every point's finding, and the reference options they add up to."""

    findings: tuple[Finding, ...]
    config: Config
    flags: frozenset[str]
    #: How finely the target's answers are known (CONF-PROTOCOL ``digits``): every later comparison
    #: of its answers (the judge's, the verdict's) is made at it.
    resolution: Resolution = IN_FULL

    @property
    def scale(self) -> float:
        """100 for a percent target, else 1."""
        return 100.0 if "percent" in self.flags else 1.0

    @property
    def tolerance(self) -> float:
        """How close two of the target's scores must be to be the same (judge, invariants)."""
        return _tolerance(self.flags)

    @property
    def text(self) -> Text:
        """A text target's tokenizer, case folding and split rule (FP-TEXT), if found."""
        return text_of(self.flags)

    def battery(self) -> list[tuple[Corpus, Answer]]:
        """Every diagnostic of the battery's points (as the target was asked it) with its answer:
        the verdict's battery (CONF-VERDICT) and the late questions of CONF-SIZE."""
        return [
            (diagnostic.corpus, answer)
            for finding in self.findings
            if finding.point.battery
            for diagnostic, answer in zip(finding.point.diagnostics, finding.answers, strict=True)
        ]


def unobservable(findings: Sequence[Finding], kind: str) -> tuple[str, ...]:
    """CONF-PROTOCOL. The axes no answer of a target taking ``kind`` references per segment can show:
    those of the points none of whose diagnostics it can be asked. With one reference per segment
    every reference-length rule (EC-001) gives the same r, and a segment without references
    (EC-006) cannot be given: the report says so rather than claim a value."""
    hidden = (f.point for f in findings if not any(takes(kind, d.corpus[1]) for d in f.point.diagnostics))
    return tuple(dict.fromkeys(axis for point in hidden for axis in point.axes))


def text_values(flags: frozenset[str] | set[str]) -> dict[str, str]:
    """The text conventions an FP-TEXT or FP-CASE convention's flags name (``tokenize``,
    ``lowercase``, ``split``), those it names."""
    return dict(
        flag.split(":", 1) for flag in flags if flag.startswith(("tokenize:", "lowercase:", "split:"))
    )


def text_of(flags: frozenset[str] | set[str]) -> Text:
    """The (tokenizer, case folding, split rule) an FP-TEXT convention's flags name, or None; the
    split rule is Python's ``str.split()`` (``unicode``) unless a flag names another."""
    found = text_values(flags)
    if "tokenize" not in found or "lowercase" not in found:
        return None
    return (found["tokenize"], found["lowercase"], found.get("split", "unicode"))


def _tolerance(flags: set[str] | frozenset[str]) -> float:
    """The relative tolerance of the target's precision: binary32 once FP-PRECISION found it."""
    return BINARY32_TOLERANCE if "binary32" in flags else SCORE_TOLERANCE


def as_seen(point: Point, text: Text) -> Point:
    """``point`` with its diagnostics as a text target with conventions ``text`` sees them (FP-TEXT
    found a tokenizer that splits words, or a case folding): asked and predicted on those tokens."""
    if text is None or point.raw or point.text_axes:
        return point
    return replace(
        point, diagnostics=tuple(replace(d, corpus=seen(d.corpus, text)) for d in point.diagnostics)
    )


def _adopted(finding: Finding, again: Finding, config: Config, flags: set[str]) -> Finding:
    """``again`` in place of ``finding`` when it names a convention, whose options and flags are
    then the target's too; else ``finding`` as it was."""
    if again.convention is None:
        return finding
    flags |= again.convention.flags
    config.update(again.convention.options)
    return replace(again, declined=finding.declined, unasked=finding.unasked)


def _settled_last(finding: Finding, config: Config, flags: set[str], resolution: Resolution) -> Finding:
    """A point settled again on every answer, those of its ``settled_last`` diagnostics included,
    under every convention found: FP-PRECISION's precisions probe (a smoothing may change such
    precisions; binary32 precisions show there only). Kept as first settled, on BP alone, when
    nothing explains the probe (the verdict's search, which combines every axis, still sees the
    answer)."""
    again = settle(finding.point, finding.answers, config, SCORE_TOLERANCE, resolution)
    return _adopted(finding, again, config, flags)


def _settled_again(finding: Finding, config: Config, flags: set[str], resolution: Resolution) -> Finding:
    """A point that matched nothing, settled again under every convention found since: FP-TEXT,
    asked second under the paper's conventions (a smoothing that changes even non-zero precisions,
    such as add-k, hides the tokenizer at first), and any point asked before binary32 precisions
    were found (they move every precision by some 1e-8: ignite's zero point)."""
    if not finding.asked or finding.convention is not None or finding.point.raw:
        return finding
    again = settle(finding.point, finding.answers, config, _tolerance(flags), resolution)
    return _adopted(finding, again, config, flags)


def _rounding(
    target: ProtocolTarget, finding: Finding, kept: dict[str, Answer]
) -> tuple[Finding, int | None]:
    """CONF-FINGERPRINT, rounding: the decimals the target rounds to, right after FP-SCALE. Declared
    digits win: from here on answers are divided by the scale and rounded as declared (CONF-PROTOCOL).
    Else they are inferred from the raw answers to the rounding probes (kept in ``kept`` for the
    points whose diagnostics they are): half a unit's window then, never the rounding's fault. The
    target's ``resolution`` is set accordingly."""
    digits, source = target.digits, "declared"
    if digits is None:
        raw: list[Answer] = []
        for probe in ROUNDING_PROBES:
            kept[_key(probe.corpus)] = answer = ask(target, probe.corpus)
            raw.append(
                target.last_raw if isinstance(answer, float) and target.last_raw is not None else answer
            )
        digits, source = scale.inferred_digits(raw), "inferred"
        if digits is not None:
            target.resolution = Resolution.inferred(digits, target.scale)
    else:
        target.resolution = Resolution.declared(digits, target.scale)
    return (finding if digits is None else scale.with_rounding(finding, digits, source)), digits


def fingerprint(target: ProtocolTarget) -> Fingerprint:
    """Ask every point's diagnostics in order, each under the conventions found before (CONF-FINGERPRINT)."""
    config: Config = {}
    flags: set[str] = set()
    findings = []
    target.count_errors = False
    kept: dict[str, Answer] = {}  # the rounding probes' answers, until their points ask them
    target.resolution = Resolution.declared(target.digits, 1.0)  # FP-SCALE reads raw answers
    for listed in POINTS:
        if listed.input and listed.input != target.capabilities.input:
            continue  # FP-TEXT for text targets, FP-CASE for token targets
        point = as_seen(listed, text_of(flags))  # its diagnostics as the target sees them
        skipped, not_asked = target.skipped, target.not_asked  # undeclared skips, limits spent so far
        answers = [
            kept.pop(_key(d.corpus)) if _key(d.corpus) in kept else ask(target, d.corpus, raw=point.raw)
            for d in point.diagnostics
        ]
        early = [  # what waits for the points after it (_settled_last) is no evidence yet
            SKIPPED if d.name in point.settled_last else a
            for d, a in zip(point.diagnostics, answers, strict=True)
        ]
        settled = settle(point, early, config, _tolerance(flags), target.resolution)
        finding = replace(settled, answers=tuple(answers))
        finding = replace(finding, declined=target.skipped - skipped, unasked=target.not_asked - not_asked)
        if finding.convention is not None:
            config.update(finding.convention.options)
            flags |= finding.convention.flags
            if point.raw:  # the scale every later answer is read on
                target.scale = 100.0 if "percent" in finding.convention.flags else 1.0
        if point.raw:  # then the rounding, from raw answers (declared digits win)
            finding = _rounding(target, finding, kept)[0]
        findings.append(finding)
    resolution = target.resolution
    findings = [_settled_last(f, config, flags, resolution) if f.point.settled_last else f for f in findings]
    findings = [_settled_again(f, config, flags, resolution) for f in findings]
    target.count_errors = True
    target.score_tolerance = _tolerance(flags)
    # the paper's values are the defaults: the options (and the report's reference_options) name
    # only what the target does otherwise (a searched point sets every field of its axes)
    config = {
        name: value for name, value in config.items() if name not in BY_NAME or value != BY_NAME[name].paper
    }
    return Fingerprint(tuple(findings), config, frozenset(flags), resolution)
