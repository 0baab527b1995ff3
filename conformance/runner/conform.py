"""``reference-bleu conform``: validate anyone's BLEU, and report (spec CONF-RUNNER, CONF-REPORT).

    reference-bleu conform                                  # every built-in peer: one matrix
    reference-bleu conform --target nltk[method=3]          # one built-in, configured
    reference-bleu conform --target mypkg.metrics:bleu      # a Python callable or adapter
    reference-bleu conform --command "perl my_bleu.pl"      # any program speaking the protocol

Exit codes: 0 every target conformant to the expected profile (``--expect``, default paper,
with ``--accept`` changes), 1 some target a variant of it, not conformant or with insufficient
evidence, 2 usage or input error (including a single target that cannot run here), 3 the
runner itself failed on some target (a bug of ours: the report of every target is still
printed, that target's row says what failed). The same seed gives the same report.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import platform
import shlex
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from conformance.peers.divergences import BY_ID as DIVERGENCES
from conformance.peers.models import NLTK_VERSION, SACREBLEU_VERSION
from conformance.runner.channel import MAX_LINE_BYTES, Limits, limits_supported
from conformance.runner.client import (
    ANSWER_QUANTUM,
    ANSWER_RESOLUTION,
    MAX_RESTARTS,
    TIME_LIMIT,
    ProtocolTarget,
    TargetUnavailableError,
    printable,
    python_command,
)
from conformance.runner.expectation import AXIS_SPEC, Expectation, Verdict, judge_expectation
from conformance.runner.fingerprint import BY_ID as FINGERPRINT_POINTS
from conformance.runner.fingerprint import fingerprint
from conformance.runner.fingerprint.base import Point
from conformance.runner.judge import Judge
from conformance.runner.judge.base import Check
from conformance.runner.legend import LEGEND, explain_id, fitted, legend, table
from conformance.runner.protocol import MAX_DIGITS
from conformance.runner.references import REFERENCE_KINDS, undeclared_kind_hints
from reference_bleu.conventions.options import VERSION
from reference_bleu.errors import BleuError
from reference_bleu.formulas.numbers import accept_negative_numbers
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS
from reference_bleu.text.markdown import markdown_text

REPORT_FORMAT = "reference-bleu-conform"
REPORT_VERSION = 1
#: The built-in targets of the matrix, in column order.
MATRIX = ("reference", "nltk", "sacrebleu", "bleuscore", "torchmetrics")
EXIT_OK, EXIT_NOT_CONFORMANT, EXIT_USAGE, EXIT_RUNNER = 0, 1, 2, 3
#: The longest --timeout or --startup-timeout accepted, in seconds (a day).
MAX_TIMEOUT = 86400.0
#: Bounds of the other numeric options (spec CONF-RUNNER).
MAX_EXAMPLES = 100_000
MAX_SEED = 2**63 - 1
MIN_ANSWER_BYTES, MAX_ANSWER_BYTES = 1024, 1 << 30
#: The smallest --memory-limit: a Python interpreter with the harness needs about this much.
MIN_MEMORY_MB = 64


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
        }


def _check_json(check: Check) -> dict[str, Any]:
    data = asdict(check)
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
    """The target's report, its answers compared at its resolution (set by the fingerprint, reset here)."""
    token, quantum = ANSWER_RESOLUTION.set(0.0), ANSWER_QUANTUM.set(None)
    try:
        return _judged_at_resolution(spec, target, settings)
    finally:
        ANSWER_RESOLUTION.reset(token)
        ANSWER_QUANTUM.reset(quantum)


def _judged_at_resolution(spec: str, target: ProtocolTarget, settings: RunSettings) -> TargetReport:
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
    verdict = judge_expectation(target, found, judge.checks, expectation, settings.seed)
    if target.not_asked and verdict.level in ("conformant", "variant"):  # none on questions never asked
        verdict = replace(
            verdict,
            level="insufficient evidence",
            unaccounted=(f"the questions not asked once {target.not_asked_because}",),
        )
    return TargetReport(
        spec,
        caps.name,
        True,
        verdict.level == "conformant",
        _accounted_rows(_with_text_row(judge.checks, verdict), verdict),
        found.config,
        dict(caps.versions),
        verdict=verdict,
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


def versions() -> dict[str, str]:
    """The versions of everything involved on the runner's side."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    found = {
        "reference-bleu": VERSION,
        "python": platform.python_version(),
        "nltk-modelled": NLTK_VERSION,
        "sacrebleu-modelled": SACREBLEU_VERSION,
    }
    with contextlib.suppress(PackageNotFoundError):
        found["hypothesis"] = version("hypothesis")
    return found


def report_json(reports: list[TargetReport], seed: int, examples: int) -> str:
    """The JSON report (schema: conformance/runner/report.schema.json)."""
    document = {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "seed": seed,
        "examples": examples,
        "versions": versions(),
        "conformant": all(r.conformant for r in reports if r.available),
        "targets": [r.as_json() for r in reports],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False, default=str)


_MARK = {
    "pass": "pass",
    "fail": "FAIL",
    "explained": "DIVERGES",
    "n/a": "n/a",
    "insufficient": "INSUFFICIENT",
}


def _cell(check: Check | None) -> str:
    if check is None:
        return ""
    mark = _MARK[check.status]
    divergences = [d for d in check.explained_by if d in DIVERGENCES]
    why = f" ({', '.join(divergences)})" if divergences else ""
    if check.family == "fingerprint" and check.status != "fail":
        # the convention's name, without its gloss or its equals (": ...", " (...)"); what it
        # means is --explain's and the details' (CONF-REPORT)
        return f"{mark}: {check.detail.split(' (')[0].split(': ')[0]}{why}"
    return mark + why


def _level(report: TargetReport) -> str:
    if not report.available:
        return "not installed"
    if report.runner_error:
        return "RUNNER ERROR"
    if report.verdict is None:
        return "NO"
    return {
        "conformant": "conformant",
        "variant": "VARIANT",
        "not conformant": "NOT CONFORMANT",
        "insufficient evidence": "INSUFFICIENT EVIDENCE",
    }[report.verdict.level]


def _rows(reports: list[TargetReport]) -> list[str]:
    ids: list[str] = []
    for report in reports:
        ids += [c.id for c in report.checks if c.id not in ids]
    return ids


def matrix(reports: list[TargetReport], markdown: bool) -> str:
    """Checks as rows, targets as columns, within 100 columns; the legend under it (CONF-REPORT)."""
    header = ["check", *(r.name for r in reports)]
    body = []
    for ident in _rows(reports):
        body.append([ident, *(_cell(next((c for c in r.checks if c.id == ident), None)) for r in reports)])
    body.append(["verdict", *(_level(r) for r in reports)])
    body.append(["behaves as", *((r.verdict.point or "-") if r.verdict else "" for r in reports)])
    if markdown:
        lines = [
            "| " + " | ".join(markdown_text(cell) for cell in header) + " |",
            "|" + "---|" * len(header),
        ]
        lines += ["| " + " | ".join(markdown_text(cell) for cell in row) + " |" for row in body]
    else:
        lines = table([header, *body])  # cells wrapped to 100 columns
    notes = [fitted(f"{r.name}: {r.unavailable}") for r in reports if not r.available]
    key = legend() if not markdown else [f"- {paragraph}" for paragraph in LEGEND]
    return "\n".join(lines + (["", *notes] if notes else []) + ["", *key])


#: Longest counterexample a report line shows; a longer one is abbreviated, never cut mid-structure.
SHOWN_CHARACTERS = 600
#: The abbreviations tried in turn: at most so many items of a list and characters of a string.
_ABBREVIATIONS = ((12, 120), (6, 60), (3, 30), (2, 16), (1, 8))


def _shortened(value: Any, items: int, characters: int) -> Any:
    """``value`` with lists cut to ``items`` (then a "... N more" string) and strings to ``characters``."""
    if isinstance(value, str):
        return value if len(value) <= characters else f"{value[:characters]}... ({len(value)} characters)"
    if isinstance(value, list | tuple):
        kept = [_shortened(v, items, characters) for v in value[:items]]
        return kept + ([f"... {len(value) - items} more"] if len(value) > items else [])
    if isinstance(value, dict):
        return {k: _shortened(v, items, characters) for k, v in value.items()}
    return value


def abbreviated(value: Any) -> tuple[str, bool]:
    """A counterexample as JSON of at most SHOWN_CHARACTERS where it can be, and whether it is whole.

    Long lists and strings are shortened inside the structure (CONF-REPORT): the text is always
    valid JSON, never a prefix cut in the middle of a token.

    >>> abbreviated({"hypotheses": [["a"] * 3]})
    ('{"hypotheses": [["a", "a", "a"]]}', True)
    >>> text, whole = abbreviated(["x" * 1000])
    >>> whole, json.loads(text) == ["x" * 120 + "... (1000 characters)"]
    (False, True)
    """
    text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) <= SHOWN_CHARACTERS:
        return text, True
    for items, characters in _ABBREVIATIONS:
        text = json.dumps(_shortened(value, items, characters), ensure_ascii=False, default=str)
        if len(text) <= SHOWN_CHARACTERS:
            break
    return text, False


def describe(check: Check, markdown: bool = False) -> list[str]:
    """A failed or explained check: its IDs, the reason, and the counterexample or evidence."""
    why = f" (explained by {', '.join(check.explained_by)})" if check.explained_by else ""
    bullet, indent = ("- ", "  ") if markdown else ("", "    ")
    ids = ", ".join(check.spec_ids)
    lines = [f"{bullet}{check.id} [{ids}] {_MARK[check.status]}: {check.detail}{why}"]
    if check.expected_by:
        got, wanted = _value(check.target_value), _value(check.expected_value)
        lines.append(f"{indent}target {got}; expected {wanted}, from {check.expected_by}")
    if check.counterexample is not None and check.family != "fingerprint":  # else a point's evidence
        shown, whole = abbreviated(check.counterexample)
        note = "" if whole else " (abbreviated; the JSON report, --json, has it whole)"
        lines.append(f"{indent}counterexample{note}: {shown}")
    elif check.counterexample is not None:
        for row in check.counterexample:
            lines.append(f"{indent}{row['diagnostic']}: target {row['answer']!r}")
    return lines


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


def details(report: TargetReport, markdown: bool) -> str:
    """Every failure and divergence of one target, grouped by root cause, with its counterexample."""
    indent = "  " if markdown else "    "
    lines: list[str] = []
    for headline_check, explained in causes(report.checks):
        lines += describe(headline_check, markdown)
        if explained:
            same = ", ".join(c.id for c in explained)
            lines.append(f"{indent}the same input also fails (same cause): {same}")
    if report.not_asked:
        lines.append(f"{indent}{report.not_asked} questions not asked: {report.not_asked_because}")
    lines[:0] = [f"{indent}hint: {hint}" for hint in report.hints]  # before the failures it explains
    headline = report.verdict.headline() if report.verdict else "not conformant"
    if report.runner_error:  # the runner's own bug, not the target's (exit 3): say so, and what it was
        headline = f"the runner failed on this target (exit 3), no verdict: {report.runner_error}"
    title = f"{report.name}: {headline}"
    if report.verdict and report.verdict.ambiguous:
        lines.append(
            f"{indent}as well as (agreeing on every input tried): {', '.join(report.verdict.ambiguous)}"
        )
    if report.verdict and report.verdict.unobservable:
        hidden = ", ".join(f"{axis} ({AXIS_SPEC[axis]})" for axis in report.verdict.unobservable)
        lines.append(f"{indent}not observable with the references it takes (CONF-PROTOCOL): {hidden}")
    for question in report.verdict.questions if report.verdict else ():
        theirs = ", ".join(f"{name} {_short(value)}" for name, value in question.predictions)
        asked = abbreviated(list(question.corpus))[0]
        lines.append(f"{indent}separating question {asked}: target {_short(question.answer)}; {theirs}")
    if markdown:  # a target's name and errors are text, never markup (CONF-ROBUST)
        return "\n".join([f"## {markdown_text(title)}", *(_markdown_line(line) for line in lines)])
    return "\n".join([title, *lines])


def _markdown_line(line: str) -> str:
    """A line of the details in Markdown: its bullet or indent kept, the rest escaped."""
    body = line.lstrip(" ")
    lead = line[: len(line) - len(body)] + ("- " if body.startswith("- ") else "")
    return lead + markdown_text(line[len(lead) :])


def _value(value: Any) -> str:
    """A row's value as the report prints it: a number to 12 digits, anything else as it is."""
    return f"{value:.12g}" if isinstance(value, float) else str(value)


def _short(answer: float | str) -> str:
    return answer if isinstance(answer, str) else f"{answer:.12g}"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reference-bleu conform",
        description="validate a BLEU implementation against the spec",
        allow_abbrev=False,  # no flag by a prefix (spec CLI-SACREBLEU)
    )
    accept_negative_numbers(parser)  # --timeout -1e3 is a bad value, not a missing one
    parser.add_argument(
        "--target",
        "-t",
        action="append",
        default=[],
        help="a built-in (reference, nltk, sacrebleu, bleuscore, torchmetrics; name[key=value,...]) "
        "or module:attr",
    )
    parser.add_argument(
        "--command",
        "-c",
        action="append",
        default=[],
        help='a program speaking the bleu-conform protocol, e.g. "perl bleu.pl" (run without a shell)',
    )
    parser.add_argument(
        "--input",
        choices=("tokens", "text"),
        default="tokens",
        help="what a module:attr callable takes (text: space-joined strings)",
    )
    parser.add_argument(
        "--scale",
        choices=("unit", "percent"),
        default=None,
        help="the declared score scale (the fingerprint checks it)",
    )
    parser.add_argument(
        "--references",
        choices=REFERENCE_KINDS,
        default=None,
        help="the references per segment the target takes: one, the same number for every segment, "
        "or any (default: what it declares, else any); it is asked only corpora it can express",
    )
    parser.add_argument(
        "--digits",
        type=int,
        default=None,
        metavar="K",
        help="the decimals the target's scores are rounded to on its scale, e.g. 2 for 28.30: answers "
        "are then compared to within half a unit of the last decimal (protocol version 2 lets a "
        "target declare it; otherwise they are inferred from its answers)",
    )
    parser.add_argument(
        "--expect",
        default="paper",
        metavar="PROFILE",
        help="the BLEU you expect: a profile (reference-bleu profiles), e.g. sacrebleu, nltk[method=3] "
        "(default paper; spec CONF-VERDICT)",
    )
    parser.add_argument(
        "--accept",
        action="append",
        default=[],
        metavar="AXIS=VALUE",
        help="also accept this value on an axis, e.g. ref_length=closest-first, aggregation=macro, "
        "arithmetic=binary32, tokenize=13a, lowercase=unicode, split=ascii (text targets)",
    )
    parser.add_argument(
        "--strict-domain",
        action="store_true",
        help="pin the choices outside BLEU's domain (no_ref, empty_hyps, zero_length, empty_corpus) to "
        "the expected profile's, instead of accepting any (spec CONF-VERDICT)",
    )
    parser.add_argument("--examples", "-n", type=int, default=100, help="generated examples per check (100)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the generated examples (0)")
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds per call before the target is killed (10)"
    )
    parser.add_argument(
        "--startup-timeout",
        type=float,
        default=120.0,
        help="seconds for a target's first answer after it starts (120: torch imports are slow)",
    )
    parser.add_argument(
        "--max-restarts",
        type=int,
        default=MAX_RESTARTS,
        help=f"restarts of a target that crashes or hangs; then nothing more is asked ({MAX_RESTARTS})",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=TIME_LIMIT,
        metavar="SECONDS",
        help=f"seconds for each target in all; later questions are not asked ({TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--max-answer-bytes",
        type=int,
        default=MAX_LINE_BYTES,
        help=f"the longest answer line read, in bytes; a longer one is a protocol fault ({MAX_LINE_BYTES})",
    )
    parser.add_argument(
        "--memory-limit",
        type=int,
        default=0,
        metavar="MB",
        help="address-space limit of a target's process, in MB (0: none; POSIX only)",
    )
    parser.add_argument(
        "--cpu-limit",
        type=int,
        default=0,
        metavar="SECONDS",
        help="CPU-time limit of a target's process, in seconds (0: none; POSIX only)",
    )
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="the JSON report")
    out.add_argument("--markdown", action="store_true", help="the report as Markdown")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    parser.add_argument(
        "--explain",
        metavar="ID",
        default=None,
        help="what an ID of a report means (a check, a fingerprint point, a spec ID), and exit",
    )
    return parser


def _settings(args: argparse.Namespace) -> RunSettings:
    """The validated settings of a run; a :class:`RunnerUsageError` names the first bad option."""
    for name, value in (
        ("--timeout", args.timeout),
        ("--startup-timeout", args.startup_timeout),
        ("--time-limit", args.time_limit),
    ):
        if not (math.isfinite(value) and 0 < value <= MAX_TIMEOUT):
            raise RunnerUsageError(f"{name} must be a number of seconds in (0, {MAX_TIMEOUT:g}], not {value}")
    bounded = (
        ("--examples", args.examples, 1, MAX_EXAMPLES),
        ("--seed", args.seed, 0, MAX_SEED),
        ("--max-answer-bytes", args.max_answer_bytes, MIN_ANSWER_BYTES, MAX_ANSWER_BYTES),
        ("--memory-limit", args.memory_limit, 0, 1 << 30),
        ("--max-restarts", args.max_restarts, 0, 1 << 20),
        ("--cpu-limit", args.cpu_limit, 0, 1 << 30),
        ("--digits", 0 if args.digits is None else args.digits, 0, MAX_DIGITS),
    )
    for name, value, low, high in bounded:
        if not low <= value <= high:
            raise RunnerUsageError(f"{name} must be in [{low}, {high}], not {value}")
    if args.memory_limit and args.memory_limit < MIN_MEMORY_MB:
        raise RunnerUsageError(f"--memory-limit below {MIN_MEMORY_MB} MB leaves no room for an interpreter")
    if (args.memory_limit or args.cpu_limit) and not limits_supported():
        raise RunnerUsageError(
            "--memory-limit and --cpu-limit need POSIX setrlimit, which this platform lacks"
        )
    try:
        expectation = Expectation.parse(args.expect, args.accept, strict_domain=args.strict_domain)
    except BleuError as error:
        raise RunnerUsageError(str(error)) from None
    return RunSettings(
        examples=args.examples,
        seed=args.seed,
        timeout=args.timeout,
        startup_timeout=args.startup_timeout,
        declared_scale=args.scale,
        declared_digits=args.digits,
        declared_references=args.references,
        progress=not args.quiet,
        expectation=expectation,
        max_answer_bytes=args.max_answer_bytes,
        limits=Limits(args.memory_limit, args.cpu_limit),
        max_restarts=args.max_restarts,
        time_limit=args.time_limit,
    )


@contextlib.contextmanager
def _private_hypothesis_home() -> Iterator[None]:
    """hypothesis keeps its database and caches in ``.hypothesis/`` of the working directory; a run
    keeps them in a temporary folder instead, removed at the end (CONF-ROBUST): the user's folder
    is left as it was. The previous home is restored (the runner may run inside a test session)."""
    from hypothesis import configuration  # noqa: PLC0415 -- the [conform] extra, imported already

    previous = configuration.storage_directory(intent_to_write=False).home_directory
    with tempfile.TemporaryDirectory(prefix="reference-bleu-conform-") as home:
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(previous)


class RunnerUsageError(Exception):
    """A bad option of ``conform`` (exit 2, one line)."""


def _explain(ident: str) -> int:
    """``--explain ID``: the meaning of an ID of a report, or exit 2 when nothing names it."""
    meaning = explain_id(ident)
    if meaning is None:
        print(
            f"reference-bleu conform: no check, point or spec ID {ident!r} (spec CONF-REPORT)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    print(meaning)
    return EXIT_OK


def main(argv: list[str]) -> int:
    """Run the checks; print the report; exit 0, 1, 2 or 3 (spec CONF-RUNNER, CONF-VERDICT)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return EXIT_USAGE if stop.code else EXIT_OK
    if args.explain is not None:
        return _explain(args.explain)
    try:
        settings = _settings(args)
        jobs: list[tuple[str, list[str]]] = [(t, python_command(t, args.input)) for t in args.target]
        jobs += [(command, command_argv(command)) for command in args.command]
    except (RunnerUsageError, CommandError) as error:
        print(f"reference-bleu conform: {error} (spec CONF-RUNNER)", file=sys.stderr)
        return EXIT_USAGE
    single = bool(jobs)
    if not jobs:
        jobs = [(t, python_command(t)) for t in MATRIX]
    with _private_hypothesis_home():
        reports = [run_target(spec, command, settings) for spec, command in jobs]
    if single and len(reports) == 1 and not reports[0].available:
        print(
            f"reference-bleu conform: {reports[0].target}: {reports[0].unavailable} (spec CONF-RUNNER)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.json:
        print(report_json(reports, args.seed, args.examples))
    else:
        print(matrix(reports, args.markdown))
        for report in reports:
            if report.available and not report.conformant:
                print()
                text = details(report, args.markdown)
                print(text if args.markdown else fitted(text))  # within 100 columns (CONF-REPORT)
    if any(r.runner_error for r in reports):
        return EXIT_RUNNER
    return EXIT_OK if all(r.conformant for r in reports if r.available) else EXIT_NOT_CONFORMANT


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
