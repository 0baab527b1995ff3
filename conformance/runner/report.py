"""What ``reference-bleu conform`` prints: the matrix, each target's details, the JSON report
(spec CONF-REPORT).

Checks as rows and targets as columns within 100 columns, with the legend; under it each target's
verdict, its failures grouped by root cause with their counterexamples (abbreviated, never cut
mid-structure), the separating questions; and the JSON report (schema
``conformance/runner/report.schema.json``). No timings: the same seed gives the same report.
"""

from __future__ import annotations

import contextlib
import json
import platform
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from conformance.peers.divergences import BY_ID as DIVERGENCES
from conformance.peers.models import NLTK_VERSION, SACREBLEU_VERSION
from conformance.runner.expectation import AXIS_SPEC
from conformance.runner.judge.base import Check
from conformance.runner.legend import LEGEND, fitted, legend, table
from conformance.runner.run import TargetReport, causes
from reference_bleu.conventions.options import VERSION
from reference_bleu.text.markdown import markdown_text

REPORT_FORMAT = "reference-bleu-conform"


REPORT_VERSION = 1


def versions() -> dict[str, str]:
    """The versions of everything involved on the runner's side."""

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
    if report.verdict and report.verdict.diagnosis:  # which bug (CONF-DIAGNOSIS), first after the title
        said = report.verdict.diagnosis.lines()
        lines[:0] = [f"{indent}{said[0]}", *(indent + line for line in said[1:])]
    if report.verdict and report.verdict.ambiguous:
        lines.append(
            f"{indent}as well as (agreeing on every input tried): {', '.join(report.verdict.ambiguous)}"
        )
    if report.verdict is not None:  # what the verdict rests on (CONF-OPEN), every feature included
        lines.append(f"{indent}rests on: {report.rests_on()}")
        shown = [
            f"{row.feature} {row.answered}/{row.asked} answered"
            + (f" ({row.status})" if row.status != "pass" else "")
            for row in report.coverage()
            if not row.not_asked_because
        ]
        if shown:
            lines.append(f"{indent}coverage: {'; '.join(shown)}")
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
