"""Running one target: start it, fingerprint it, judge it, give the verdict (spec CONF-RUNNER).

The runner's settings (:class:`RunSettings`, the command line's options validated) are passed to
every step; the target's report (:class:`TargetReport`) is what the renderers print
(:mod:`.report`). Every misbehaviour of the target is a fault inside its report.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from conformance.peers.divergences import BY_ID as DIVERGENCES
from conformance.runner.channel import MAX_LINE_BYTES, Limits
from conformance.runner.client import (
    MAX_RESTARTS,
    TIME_LIMIT,
    ProtocolTarget,
    TargetUnavailableError,
    printable,
)
from conformance.runner.expectation import Expectation
from conformance.runner.fingerprint import BY_ID as FINGERPRINT_POINTS
from conformance.runner.fingerprint import fingerprint
from conformance.runner.fingerprint.base import Point
from conformance.runner.judge import Judge
from conformance.runner.judge.base import Check
from conformance.runner.references import undeclared_kind_hints
from conformance.runner.verdict import CONFORMANT, Verdict, verdict_of
from reference_bleu.errors import BleuError
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS


@dataclass
class TargetReport:
    """One target's result: its capabilities, fingerprint and checks (or why it could not run)."""

    target: str
    name: str
    available: bool
    conformant: bool
    checks: list[Check]
    config: dict[str, Any]
    versions: dict[str, str]
    unavailable: str = ""
    verdict: Verdict | None = None
    #: The runner's own failure on this target (exit 3), as one line; "" when there was none.
    runner_error: str = ""
    #: Questions not asked because a run limit (``--time-limit``, ``--max-restarts``) was spent.
    not_asked: int = 0
    #: Which limit, with its option ("" when none was).
    not_asked_because: str = ""
    #: What to run again with, where the answers suggest a capability the target did not declare.
    hints: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """Stable keys; no timings, so the same seed gives the same report."""
        return {
            "target": self.target,
            "name": self.name,
            "available": self.available,
            "unavailable": self.unavailable,
            "conformant": self.conformant,
            "reference_options": {k: str(v) for k, v in self.config.items()},
            "versions": self.versions,
            "checks": [_check_json(c) for c in self.checks],
            "verdict": self.verdict.as_json() if self.verdict else None,
            "runner_error": self.runner_error,
            "not_asked": self.not_asked,
            "not_asked_because": self.not_asked_because,
            "hints": list(self.hints),
            "causes": [
                {"headline": head.id, "also": [c.id for c in others]} for head, others in causes(self.checks)
            ],
            "coverage": [row.as_json() for row in self.coverage()],
            "rests_on": self.rests_on(),
        }

    def coverage(self) -> list[Coverage]:
        """CONF-OPEN. Each feature of the open input model: its row, how many questions carried it and
        how many were answered, or why it was not asked."""
        return [
            Coverage(
                c.id,
                c.title,
                c.status,
                c.asked or 0,
                c.answered or 0,
                c.detail if c.status == "n/a" else "",
            )
            for c in self.checks
            if c.family == "open"
        ]

    def rests_on(self) -> str:
        """What the verdict rests on, in one line: the battery, the checks, the features asked and
        those not asked, with why (CONF-OPEN); "" without a verdict."""
        if self.verdict is None:
            return ""
        judged = [c for c in self.checks if c.status != "n/a"]
        rows = self.coverage()
        asked = [row.feature for row in rows if not row.not_asked_because]
        missing = [f"{row.feature} ({row.not_asked_because})" for row in rows if row.not_asked_because]
        said = (
            f"{self.verdict.battery} battery questions, {len(judged)} checks run, "
            f"{len(asked)} of {len(rows)} input features asked"
        )
        return said + (f"; not asked: {'; '.join(missing)}" if missing else "")


@dataclass(frozen=True)
class Coverage:
    """CONF-OPEN. One feature of the open input model as the report's coverage shows it."""

    feature: str
    statement: str
    status: str
    asked: int
    answered: int
    not_asked_because: str

    def as_json(self) -> dict[str, Any]:
        """The row in the JSON report."""
        return {
            "feature": self.feature,
            "statement": self.statement,
            "status": self.status,
            "asked": self.asked,
            "answered": self.answered,
            "not_asked_because": self.not_asked_because,
        }


def _check_json(check: Check) -> dict[str, Any]:
    data = asdict(replace(check, evidence=None))
    del data["evidence"]
    data["spec_ids"] = list(check.spec_ids)
    data["explained_by"] = list(check.explained_by)
    return data


class CommandError(BleuError):
    """A target command that cannot be split into an argument list."""


def command_argv(command: str) -> list[str]:
    """A target command as the argument list it is run with (shell-like quoting, never a shell)."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise CommandError("CONF-RUNNER", f"bad command {command!r}: {error}") from None
    if not argv:
        raise CommandError("CONF-RUNNER", "empty command")
    return argv


@dataclass(frozen=True)
class RunSettings:
    """How targets are run and judged (spec CONF-RUNNER): the command line's options, validated."""

    examples: int = 100
    seed: int = 0
    timeout: float = 10.0
    startup_timeout: float = 120.0
    declared_scale: str | None = None
    #: Decimals the target's scores are rounded to (``--digits``), when it does not declare them.
    declared_digits: int | None = None
    #: References per segment the target takes (``--references``), when it does not declare it.
    declared_references: str | None = None
    progress: bool = False
    expectation: Expectation | None = None
    max_answer_bytes: int = MAX_LINE_BYTES
    limits: Limits = field(default_factory=Limits)
    max_restarts: int = MAX_RESTARTS
    time_limit: float = TIME_LIMIT


def run_target(spec: str, command: list[str], settings: RunSettings) -> TargetReport:
    """Fingerprint and judge one target, then place it against the expectation (default: paper).

    Every misbehaviour of the target is a fault inside the report. An exception that escapes
    here anyway is the runner's own bug: it is caught for this target only, named in its
    report (``runner_error``) and makes the run exit 3, so that other targets' reports are kept.
    """
    target = ProtocolTarget(
        command,
        timeout=settings.timeout,
        startup_timeout=settings.startup_timeout,
        max_answer_bytes=settings.max_answer_bytes,
        limits=settings.limits,
        max_restarts=settings.max_restarts,
        time_limit=settings.time_limit,
    )
    try:
        return _judged(spec, target, settings)
    except Exception as error:  # the runner's own failure, reported for this target (exit 3)
        detail = printable(f"{type(error).__name__}: {error}")[:500]
        return TargetReport(spec, spec, True, False, [], {}, {}, runner_error=detail)
    finally:
        target.close()


def _judged(spec: str, target: ProtocolTarget, settings: RunSettings) -> TargetReport:
    """Fingerprint the target, judge it, and place it against the expectation
    (:func:`.verdict.verdict_of`)."""
    try:
        caps = target.capabilities
    except TargetUnavailableError as error:
        return TargetReport(spec, spec, False, False, [], {}, {}, printable(str(error)))

    def say(stage: str) -> None:
        if settings.progress:
            print(f"conform: {caps.name}: {stage}", file=sys.stderr, flush=True)

    say("fingerprinting")
    target.digits = settings.declared_digits if settings.declared_digits is not None else caps.digits
    target.references = settings.declared_references or caps.references
    found = fingerprint(target)
    method = SMOOTHING_METHODS.get(str(found.config.get("smoothing", "none")))
    target.bounded = method is None or method.bounded  # a score above 1 may be its point's (INV-RANGE)
    judge = Judge(target, found, examples=settings.examples, seed=settings.seed)
    judge.run(settings.declared_scale or caps.scale, say)
    say("placing it in the convention space")
    expectation = settings.expectation or Expectation.parse("paper")
    placed = verdict_of(target, found, judge.checks, expectation, settings.seed)
    return TargetReport(
        spec,
        caps.name,
        True,
        placed.level == CONFORMANT,
        _accounted_rows(_with_text_row(judge.checks, placed), placed),
        found.config,
        dict(caps.versions),
        verdict=placed,
        not_asked=target.not_asked,
        not_asked_because=target.not_asked_because,
        hints=undeclared_kind_hints(
            target.references, target.several_refused, target.several_scored, target.one_reference_scored
        ),
    )


def _point_of(check: Check) -> Point | None:
    """The fingerprint point a fingerprint row reports (its ID is the point's), else None."""
    return FINGERPRINT_POINTS[check.id] if check.family == "fingerprint" else None


def _accounted_rows(checks: list[Check], verdict: Verdict) -> list[Check]:
    """Rows explained by the point the target is placed at, not by anything else (CONF-VERDICT).

    A failed row the placed point accounts for is explained by it: the per-point fingerprint and
    the checks judge under the conventions found one point at a time, while the verdict's search
    places the target in the whole space, where axes combine (an early return with a smoothing,
    say). A fingerprint row that a peer of another tool happened to match (ignite's smoothing
    read as "sacrebleu floor") is explained by the point's own values on that row's axes.
    """
    if not verdict.point_axes:
        return checks
    axes = dict(verdict.point_axes)
    by = f"the point {verdict.point}"

    def explained(check: Check) -> Check:
        point = _point_of(check)
        if point is not None and point.axes and check.status in ("fail", "explained"):
            own = [d in DIVERGENCES and DIVERGENCES[d].peer == verdict.point_tool for d in check.explained_by]
            if check.status == "explained" and all(own):
                return check  # a divergence of the point's own tool: its registered entry says it
            values = ", ".join(f"{a}={axes[a]}" for a in point.axes if a in axes)
            return replace(
                check, status="explained", detail=f"as {verdict.point}: {values}", explained_by=(by,)
            )
        if check.id in verdict.accounted and check.status == "fail":
            detail = f"{check.detail} (as the reference at {verdict.point} does)"
            return replace(check, status="explained", detail=detail, explained_by=(by, *check.explained_by))
        return check

    return [explained(c) for c in checks]


def _with_text_row(checks: list[Check], verdict: Verdict) -> list[Check]:
    """The row of the text axes (FP-TEXT for a text target, FP-CASE for a token target) whose rule
    was found only under the placed point (CONF-VERDICT) passes, saying so."""
    if not verdict.settled:
        return checks
    settled = f"{verdict.settled} (under the point the target is placed at)"

    def failed_text_row(check: Check) -> bool:
        point = _point_of(check)
        return point is not None and bool(point.text_axes) and check.status == "fail"

    return [replace(c, status="pass", detail=settled) if failed_text_row(c) else c for c in checks]


def causes(checks: list[Check]) -> list[tuple[Check, list[Check]]]:
    """The reported checks grouped by root cause (CONF-REPORT): each headline with the checks it explains.

    Checks of the same status whose shrunk counterexample is the same input fail for the same
    reason (hypothesis shrinks each to its minimal failing input: one bug, one minimal input);
    the first in report order is the headline, the others are listed under it. A check
    without a counterexample is its own headline.
    """
    groups: list[tuple[Check, list[Check]]] = []
    leaders: dict[tuple[str, str], int] = {}
    for check in checks:
        if check.status not in ("fail", "explained", "insufficient"):
            continue
        if check.counterexample is None or check.family == "fingerprint":
            groups.append((check, []))
            continue
        key = (check.status, json.dumps(check.counterexample, sort_keys=True, default=str))
        if key in leaders:
            groups[leaders[key]][1].append(check)
        else:
            leaders[key] = len(groups)
            groups.append((check, []))
    return groups
