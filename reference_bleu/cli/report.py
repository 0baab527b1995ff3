"""What ``reference-bleu score`` prints: text, JSON, Markdown, LaTeX, score only (spec CLI-OUTPUT).

One system or several, the same columns: the score as the point reports it (scale and
decimals of EC-013, so one system and a table of several never disagree), p_1..p_N on
[0, 1], BP, c/r, c, r, and the signature; a confidence interval and paired p-values
when asked. ``--json`` is always one object with a ``systems`` list.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reference_bleu.analysis.significance import Interval
from reference_bleu.scoring.score import BleuResult
from reference_bleu.text.markdown import markdown_text

FORMATS = ("text", "json", "markdown", "latex")


@dataclass(frozen=True)
class Row:
    """One system's line: its name, result, segment count, and resampling results if any."""

    name: str
    result: BleuResult
    segments: int
    interval: Interval | None = None
    p_value: float | None = None


def _number(value: float, result: BleuResult) -> str:
    """A value on the result's scale, printed with its decimals (all digits when none are set)."""
    digits = result.options.round_digits
    return repr(value) if digits is None else f"{value:.{digits}f}"


def _interval_text(row: Row) -> str:
    if row.interval is None:
        return ""
    return f"μ = {_number(row.interval.mean, row.result)} ± {_number(row.interval.half_width, row.result)}"


def _precisions(result: BleuResult) -> list[str]:
    return ["undef" if x is None else f"{float(x):.4f}" for x in result.precisions]


def _smoothed(result: BleuResult) -> str:
    """The smoothed p_n that make the score (SMOOTH, CLI-OUTPUT), when smoothing changed some p_n;
    "" otherwise. Methods 5 to 7 can take a p_n above 1, and BLEU above 1 with it (INV-RANGE)."""
    exact = tuple(None if p is None else float(p) for p in result.precisions)
    if result.smoothed_precisions == exact:
        return ""
    cells = ["undef" if x is None else f"{x:.4f}" for x in result.smoothed_precisions]
    return "  smoothed " + "  ".join(f"p_{n}={x}" for n, x in enumerate(cells, 1))


def _ratio(result: BleuResult) -> str:
    return "-" if result.ratio is None else f"{float(result.ratio):.4f}"


def render_one(row: Row, signature: str) -> str:
    """The text report of one system: score, p_n, counts, BP and lengths, signature."""
    result = row.result
    p = "  ".join(f"p_{n}={x}" for n, x in enumerate(_precisions(result), 1))
    counts = " ".join(f"{m}/{t}" for m, t in zip(result.matches, result.totals, strict=True))
    ci = f"  ({_interval_text(row)})" if row.interval else ""
    return "\n".join(
        [
            f"BLEU = {result.reported_text}{ci}" + (f"  ({result.profile})" if result.profile else ""),
            f"  {p}",
            *filter(None, [_smoothed(result)]),
            f"  matches/totals = {counts}",
            f"  BP = {result.brevity_penalty!r}  ratio = {_ratio(result)}"
            f"  c = {result.hyp_len}  r = {result.ref_len}",
            f"  signature: {signature}",
        ]
    )


def _cells(rows: Sequence[Row]) -> tuple[list[str], list[list[str]]]:
    order = len(rows[0].result.precisions)
    paired = any(row.p_value is not None for row in rows)
    intervals = any(row.interval is not None for row in rows)
    header = ["system", "BLEU", *(["95% CI"] if intervals else []), *(["p-value"] if paired else [])]
    header += [*(f"p_{n}" for n in range(1, order + 1)), "BP", "ratio", "c", "r"]
    lines = []
    for row in rows:
        result = row.result
        cells = [row.name, result.reported_text]
        if intervals:
            cells.append(_interval_text(row) or "-")
        if paired:
            cells.append("-" if row.p_value is None else f"{row.p_value:.4f}")
        cells += [*_precisions(result), f"{result.brevity_penalty:.4f}", _ratio(result)]
        lines.append([*cells, str(result.hyp_len), str(result.ref_len)])
    return header, lines


def render_table(rows: Sequence[Row], signature: str) -> str:
    """Several systems, one line each, aligned; the signature below."""
    header, lines = _cells(rows)
    widths = [max(len(r[k]) for r in [header, *lines]) for k in range(len(header))]
    text = [
        "  ".join(
            c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in [header, *lines]
    ]
    return "\n".join([*text, f"signature: {signature}"])


def render_markdown(rows: Sequence[Row], signature: str) -> str:
    """A Markdown table of the systems, the signature below it; names escaped (:func:`markdown_text`)."""
    header, lines = _cells(rows)
    table = [
        "| " + " | ".join(markdown_text(c) for c in header) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|",
        *("| " + " | ".join(markdown_text(c) for c in line) + " |" for line in lines),
    ]
    return "\n".join([*table, "", f"signature: `{signature}`"])


_LATEX_SPECIAL = {c: f"\\{c}" for c in "&%$#_{}"} | {
    "~": r"\textasciitilde{}",
    "^": r"\^{}",
    "\\": r"\textbackslash{}",
}


def render_latex(rows: Sequence[Row], signature: str) -> str:
    """A LaTeX tabular of the systems (booktabs rules), the signature as a comment."""
    header, lines = _cells(rows)
    escape = str.maketrans(_LATEX_SPECIAL)
    body = [
        " & ".join(c.translate(escape).replace("μ", r"$\mu$").replace("±", r"$\pm$") for c in line) + r" \\"
        for line in lines
    ]
    return "\n".join(
        [
            f"% signature: {signature}",
            r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
            r"\toprule",
            " & ".join(c.translate(escape) for c in header) + r" \\",
            r"\midrule",
            *body,
            r"\bottomrule",
            r"\end{tabular}",
        ]
    )


def system_json(row: Row) -> dict[str, Any]:
    """One system as JSON: every number of the text report, exact values as strings."""
    result = row.result
    document: dict[str, Any] = {
        "input": row.name,
        "segments": row.segments,
        "score": result.score,
        "score_decimal": str(result.score_decimal),
        "reported": result.reported,
        "reported_text": result.reported_text,
        "profile": result.profile,
        "overridden": list(result.overridden),
        "precisions": [None if p is None else str(p) for p in result.precisions],
        "smoothed_precisions": list(result.smoothed_precisions),
        "brevity_penalty": result.brevity_penalty,
        "brevity_penalty_decimal": str(result.brevity_penalty_decimal),
        "ratio": None if result.ratio is None else str(result.ratio),
        **result.statistics.to_json(),
    }
    if row.interval is not None:
        document["confidence"] = {
            "mean": row.interval.mean,
            "half_width": row.interval.half_width,
            "samples": row.interval.samples,
        }
    if row.p_value is not None:
        document["p_value"] = row.p_value
    return document


def render(
    rows: Sequence[Row], signature: str, output: str, score_only: bool, extra: dict[str, Any] | None = None
) -> str:
    """The report in ``output`` format; ``score_only`` prints each system's score alone, one per line.

    Spec CLI-OUTPUT.
    """
    if output == "json":
        document = {"signature": signature, **(extra or {}), "systems": [system_json(row) for row in rows]}
        return json.dumps(document, indent=2, ensure_ascii=False)
    if score_only:
        return "\n".join(
            row.result.reported_text + (f" ({_interval_text(row)})" if row.interval else "") for row in rows
        )
    if output == "markdown":
        return render_markdown(rows, signature)
    if output == "latex":
        return render_latex(rows, signature)
    return render_one(rows[0], signature) if len(rows) == 1 else render_table(rows, signature)
