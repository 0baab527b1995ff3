"""An entry's truth against the runner's report: where they differ, and what the implementation
would have to change to be the paper's BLEU or sacrebleu's (spec CONF-ZOO).

The runner's answer is read from its JSON report (``conformance/runner/report.schema.json``): the
verdict's level and point, and the conventions it names, ``differs`` and ``choices`` (axis ->
value found). Two checks per entry: the **verdict** (level, and the point: the profile the truth
names, or none of the profiles where the truth names none) and the **conventions** (the axes
named, with their values). Each returns the
differences as lines, empty when the runner agrees with the truth.
"""

from __future__ import annotations

from typing import Any

from conformance.runner.html import found_conventions
from conformance.zoo.entries import Entry
from reference_bleu.conventions.profiles import resolve
from reference_bleu.errors import BleuError

#: The levels at which the runner places a target at a point (whose conventions it then names).
PLACED = ("conformant", "variant")


def _unrun(target: dict[str, Any] | None) -> list[str]:
    if target is None:
        return ["not run (reference-bleu zoo run NAME)"]
    if not target["available"]:
        return [f"unavailable: {target['unavailable']}"]
    if target.get("runner_error"):
        return [f"the runner failed: {target['runner_error']}"]
    return []


def verdict_differences(entry: Entry, target: dict[str, Any] | None) -> list[str]:
    """The verdict's level (and point, where the truth names one) against the truth."""
    lines = _unrun(target)
    if lines or target is None:
        return lines
    verdict = target.get("verdict") or {}
    if verdict.get("level") != entry.truth.level:
        lines.append(f"level: the runner says {verdict.get('level')!r}, the truth {entry.truth.level!r}")
    point = verdict.get("point") or ""
    if entry.truth.point and point != entry.truth.point:
        lines.append(f"point: the runner says {point!r}, the truth {entry.truth.point!r}")
    elif not entry.truth.point and entry.truth.level in PLACED and _profile(point):
        lines.append(f"point: the runner names the profile {point!r}, but no profile is this point")
    return lines


def _profile(name: str) -> bool:
    """Whether ``name`` names a profile (a point the runner may call by a tool's name)."""
    try:
        resolve(name)
    except BleuError:
        return False
    return bool(name)


def convention_differences(entry: Entry, target: dict[str, Any] | None) -> list[str]:
    """The conventions the runner names against the truth's, axis by axis; none for a truth the runner
    cannot place (not conformant: its conventions are the page's, not a check)."""
    lines = _unrun(target)
    if lines or target is None or entry.truth.level not in PLACED:
        return lines
    found, truth = found_conventions(target), entry.truth.conventions
    for axis in sorted(set(found) | set(truth)):
        if found.get(axis) != truth.get(axis):
            theirs = found.get(axis, "the paper's value")
            ours = truth.get(axis, "the paper's value")
            lines.append(f"{axis}: the runner says {theirs}, the truth {ours}")
    return lines


def differences(entry: Entry, target: dict[str, Any] | None) -> dict[str, list[str]]:
    """Both checks' differences, by check (``entries.CHECKS``; spec CONF-ZOO)."""
    return {
        "verdict": verdict_differences(entry, target),
        "conventions": convention_differences(entry, target),
    }
