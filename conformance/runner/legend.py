"""The matrix readable at 100 columns, its legend, and ``conform --explain ID`` (spec CONF-REPORT).

A cell too wide for the terminal is wrapped inside its column (the check column stays whole),
so that five targets fit 100 columns. The legend under the matrix says what the ID families,
the levels, "n/a" and "the fingerprint's point" mean. ``--explain ID`` prints the meaning of any
ID a report shows: a spec section (its heading and text, read from the spec), a fingerprint
point (its question and spec IDs, from the runner's data), or a check row (the spec text that
defines it).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

from conformance.runner.client import FAULT_KINDS
from conformance.runner.fingerprint import BY_ID

#: The widest report line (a terminal's 100 columns).
WIDTH = 100
#: The narrowest a wrapped column becomes.
MIN_COLUMN = 10
SPEC = Path(__file__).resolve().parent.parent.parent / "spec"
_HEADING = re.compile(r"^## ([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)\b(?: — (.*))?$", re.MULTILINE)

LEGEND = (
    "Rows: FP-* the fingerprint (which convention the target computes on each open point of the "
    "spec; the cell names the convention found), INV-* invariants (spec 09), VECTORS the test "
    "vectors, DIFF-* scores and statistics against the reference, SIZE-* questions of real size "
    "(the shipped test sets, long segments, eight references, late questions), ROB-* robustness "
    "(errors, hangs, crashes, bad answers), SKIPPED the class of questions the target skipped. "
    "In a cell: EC-* an edge case (spec 06), DIV-* a known "
    "divergence of a real tool (spec 10).",
    "Cells: pass; FAIL a disagreement no known convention explains; DIVERGES a known divergence "
    "(named); INSUFFICIENT too few answers to judge; n/a the check does not apply to the target "
    "(it lacks the entry point, e.g. statistics or sentence scores, or the invariant does not hold "
    "at its conventions).",
    "verdict: conformant to the BLEU expected (--expect, the paper by default; exit 0), VARIANT "
    "(another known point), NOT CONFORMANT, INSUFFICIENT EVIDENCE (each exit 1). behaves as: the "
    "profile at the target's point; \"the fingerprint's point\" when no profile is that point (the "
    "conventions the FP rows found, which the judge then checks against).",
    "The meaning of any ID: reference-bleu conform --explain ID.",
)


def _fitted_widths(widths: Sequence[int], width: int) -> list[int]:
    """Column widths within ``width`` (two spaces between columns), the first column kept whole."""
    room = width - widths[0] - 2 * (len(widths) - 1)
    natural = list(widths[1:])
    if sum(natural) <= room:
        return list(widths)
    fitted = [0] * len(natural)
    left, open_columns = room, sorted(range(len(natural)), key=natural.__getitem__)
    while open_columns:
        share = max(MIN_COLUMN, left // len(open_columns))
        k = open_columns.pop(0)
        fitted[k] = min(natural[k], share)
        left -= fitted[k]
    return [widths[0], *fitted]


def column_widths(rows: Sequence[Sequence[str]], width: int = WIDTH) -> list[int]:
    """The widths :func:`table` gives the columns of ``rows``."""
    return _fitted_widths([max(len(row[k]) for row in rows) for k in range(len(rows[0]))], width)


def table(rows: Sequence[Sequence[str]], width: int = WIDTH) -> list[str]:
    """``rows`` aligned in columns, cells wrapped so that no line is wider than ``width``
    (unless the check column alone and MIN_COLUMN per target do not fit)."""
    widths = column_widths(rows, width)
    lines = []
    for row in rows:
        wrapped = [
            textwrap.wrap(cell, w, break_on_hyphens=False) or [""] if k else [cell]
            for k, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        for depth in range(max(len(cell) for cell in wrapped)):
            parts = [cell[depth] if depth < len(cell) else "" for cell in wrapped]
            lines.append("  ".join(p.ljust(w) for p, w in zip(parts, widths, strict=True)).rstrip())
    return lines


def fitted(text: str, width: int = WIDTH) -> str:
    """``text`` with every line longer than ``width`` wrapped, its continuation indented four more
    spaces than the line (a report's details: verdicts, reasons, abbreviated counterexamples)."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
    return "\n".join(out)


def legend(width: int = WIDTH) -> list[str]:
    """The legend under the matrix, wrapped to ``width``."""
    return [line for paragraph in LEGEND for line in textwrap.wrap(paragraph, width, break_on_hyphens=False)]


def spec_sections(spec: Path = SPEC) -> dict[str, tuple[str, str, str]]:
    """Every ``## ID — title`` section of the spec: ID -> (file name, title, text below the heading)."""
    sections: dict[str, tuple[str, str, str]] = {}
    for path in sorted(spec.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        starts = list(_HEADING.finditer(text))
        ends = [m.start() for m in starts[1:]] + ([len(text)] if starts else [])
        for match, end in zip(starts, ends, strict=True):
            body = text[match.end() : end].strip()
            body = body.split("\n## ")[0].split("\n# ")[0].strip()
            title = match.group(2) or body.split("\n")[0].strip("*").split(".**")[0].strip("* ")
            sections.setdefault(match.group(1), (path.name, title, body))
    return sections


def _mentions(ident: str, spec: Path = SPEC) -> list[tuple[str, str, str]]:
    """The spec paragraphs or bullets that name ``ident`` in backquotes: (file, section, text)."""
    found = []
    for path in sorted(spec.glob("*.md")):
        section = ""
        for block in re.split(r"\n(?=- |\n)", path.read_text(encoding="utf-8")):
            heading = _HEADING.search(block)
            if heading:
                section = heading.group(1)
            if re.search(rf"`{re.escape(ident)}[`( /]", block):
                found.append((path.name, section, " ".join(block.split())))
    return found


def explain_id(ident: str) -> str | None:
    """What ``ident`` means, from the spec's text and the runner's data; None if nothing names it."""
    ident = ident.strip()
    parts: list[str] = []
    point = BY_ID.get(ident)
    if point is not None:
        parts.append(f"{ident}: a fingerprint point: {point.question}")
        parts.append(
            f"  spec: {', '.join(point.ec)}; axes of the convention space: "
            f"{', '.join((*point.axes, *point.text_axes)) or '-'}"
        )
    if ident.startswith("ROB-") and ident[4:].lower() in FAULT_KINDS:
        parts.append(f"{ident}: a robustness row: no {ident[4:].lower()} on valid input (spec CONF-ROBUST)")
    if not SPEC.is_dir():
        return "\n".join(parts) or None
    sections = spec_sections()
    if ident in sections:
        name, title, body = sections[ident]
        parts.append(f"{ident} — {title} (spec/{name})" if title else f"{ident} (spec/{name})")
        parts.append(body)
    else:
        for name, section, text in _mentions(ident):
            where = f"spec/{name}, {section}" if section else f"spec/{name}"
            parts.append(f"{where}:\n" + textwrap.fill(text, WIDTH, break_on_hyphens=False))
    if point is not None:
        for spec_id in point.ec:
            if spec_id in sections:
                parts.append(f"{spec_id} — {sections[spec_id][1]} (spec/{sections[spec_id][0]})")
    return "\n".join(parts) or None
