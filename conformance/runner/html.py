"""The runner's report as one static HTML page (spec CONF-REPORT): ``conform --html FILE`` for the
targets of a run, and the zoo's page (``reference-bleu zoo report --html DIR``) for every entry.

The page is rendered from the JSON report (``report_json``'s document, schema
``report.schema.json``), never from the runner's objects, so a kept report renders the same later.
It is self-contained: no script, style, font or image is loaded from anywhere (it works from
``file://`` with no network), and it reads without colour, every cell carrying its text. It has
the matrix of targets against the convention axes and the checks (a row per target), filters by
language, verdict and axis (a short script; without it every row shows), a section per target
(its verdict, the conventions with the source lines behind them where an annotation gives them,
its failures with their counterexamples, what it would take to be the paper's BLEU or
sacrebleu's), the spec IDs it links to with their text, the run's versions and date.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from html import escape
from pathlib import Path
from typing import Any

from conformance.runner.legend import LEGEND, explain_id
from conformance.runner.report import REPORT_FORMAT, abbreviated
from reference_bleu.conventions.profiles import AXIS_ENTRIES, axis_values, resolve

#: The profiles the page says how to reach: the paper's BLEU and the one most papers report.
GOALS = ("paper", "sacrebleu")
#: Axes left out of "what it would take": how a number is printed, not what it is.
_NOT_A_CONVENTION = ("scale", "level")
#: The spec text shown for an ID, in characters (the rest is ``conform --explain ID``'s).
_SPEC_TEXT = 1200
_STATUS_TEXT = {
    "pass": "pass",
    "fail": "FAIL",
    "explained": "DIVERGES",
    "n/a": "n/a",
    "insufficient": "INSUFF.",
}


@dataclass(frozen=True)
class Annotation:
    """What is known of a target beside the runner's report (the zoo's data): who it is, and the
    truth from its source. Every field is optional; ``ident`` names the target's anchors."""

    ident: str = ""
    language: str = ""
    kind: str = ""
    package: str = ""
    call: str = ""
    summary: str = ""
    truth_level: str = ""
    truth_point: str = ""
    truth_summary: str = ""
    #: The conventions the truth expects the runner to name (axis, value).
    truth_conventions: tuple[tuple[str, str], ...] = ()
    #: Every axis with its source line (axis, value, evidence); an empty axis: a line of evidence.
    evidence: tuple[tuple[str, str, str], ...] = ()
    outside: tuple[str, ...] = ()
    #: For each goal profile, the changes that reach it (axis, value, the goal's value, spec entry).
    to_match: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()
    #: Where the runner differs from the truth, by check.
    differences: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Known gaps of today's runner, by check, with the reason.
    gaps: tuple[tuple[str, str], ...] = ()
    run_date: str = ""


def changes_to(conventions: dict[str, str], profile: str) -> list[tuple[str, str, str, str]]:
    """What a BLEU at ``conventions`` (axis -> value where it is not the paper) would change to be
    ``profile``: (axis, its value, the profile's, the spec entry); the printed scale is left out, and
    the paper's exact arithmetic and binary64 count as one (they give the same double).

    >>> changes_to({"ref_length": "shortest"}, "paper")
    [('ref_length', 'shortest', 'closest', 'EC-001')]
    >>> [axis for axis, *_ in changes_to({"tokenize": "13a", "smoothing": "exp"}, "sacrebleu")]
    ['early_return', 'zero_precision']
    """
    paper = axis_values(resolve("paper"))
    goal = axis_values(resolve(profile))
    tool = {**paper, **conventions}
    same = {"exact": "binary64"}
    return [
        (axis, tool[axis], goal[axis], AXIS_ENTRIES.get(axis, ""))
        for axis in goal
        if axis not in _NOT_A_CONVENTION
        and same.get(tool[axis], tool[axis]) != same.get(goal[axis], goal[axis])
    ]


def found_conventions(target: dict[str, Any]) -> dict[str, str]:
    """The conventions the runner names for a target: each axis where it placed it off the expected
    profile (the verdict's ``differs`` and ``choices``), axis -> value found."""
    verdict = target.get("verdict") or {}
    return {d["axis"]: d["found"] for d in [*verdict.get("differs", []), *verdict.get("choices", [])]}


def placeholder(target: str, why: str) -> dict[str, Any]:
    """A target of the report that was not run, with why (a row of the page all the same)."""
    return {
        "target": target,
        "name": target,
        "available": False,
        "unavailable": why,
        "conformant": False,
        "reference_options": {},
        "versions": {},
        "checks": [],
        "verdict": None,
    }


# --- pieces --------------------------------------------------------------------------------------


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in text).strip("-") or "target"


class _Page:
    """The page's parts, with the spec IDs it links to collected on the way."""

    def __init__(self, report: dict[str, Any], annotations: Sequence[Annotation | None]) -> None:
        self.report = report
        self.targets: list[dict[str, Any]] = list(report["targets"])
        self.notes = list(annotations) + [None] * (len(self.targets) - len(annotations))
        self.ids: list[str] = []
        self.spec_ids: dict[str, str] = {}
        for index, (target, note) in enumerate(zip(self.targets, self.notes, strict=True)):
            base = _slug(note.ident if note and note.ident else target["name"])
            ident = base if base not in self.ids else f"{base}-{index}"
            self.ids.append(ident)

    def spec(self, ident: str) -> str:
        """An ID as a link to its text on the page (plain text where the spec has no such ID)."""
        if ident not in self.spec_ids:
            text = explain_id(ident)
            self.spec_ids[ident] = text or ""
        if not self.spec_ids[ident]:
            return escape(ident)
        return f'<a class="spec" href="#spec-{_slug(ident)}">{escape(ident)}</a>'

    # -- the matrix --

    def level(self, target: dict[str, Any]) -> str:
        if not target["available"]:
            return "not run"
        if target.get("runner_error"):
            return "runner error"
        return str((target.get("verdict") or {}).get("level", "none"))

    def check_ids(self) -> list[str]:
        ids: list[str] = []
        for target in self.targets:
            ids += [c["id"] for c in target["checks"] if c["id"] not in ids]
        return ids

    def axes(self) -> list[str]:
        named: set[str] = set()
        for target, note in zip(self.targets, self.notes, strict=True):
            named |= set(found_conventions(target))
            named |= {axis for axis, _ in (note.truth_conventions if note else ())}
        order = list(AXIS_ENTRIES)
        return sorted(named, key=lambda a: (order.index(a) if a in order else len(order), a))

    def row_axes(self, target: dict[str, Any], note: Annotation | None) -> list[str]:
        return sorted(
            set(found_conventions(target)) | {a for a, _ in (note.truth_conventions if note else ())}
        )

    def matrix(self) -> str:
        checks, axes = self.check_ids(), self.axes()
        annotated = any(self.notes)
        head = ["implementation", "language", "verdict", "behaves as"]
        head += ["truth", "runner vs truth"] if annotated else []
        cells = [f'<th scope="col">{escape(h)}</th>' for h in head]
        cells += [f'<th scope="col" class="axis">{escape(a)}</th>' for a in axes]
        cells += [f'<th scope="col" class="check">{self.spec(c)}</th>' for c in checks]
        rows = [f"<thead><tr>{''.join(cells)}</tr></thead>", "<tbody>"]
        for ident, target, note in zip(self.ids, self.targets, self.notes, strict=True):
            level = self.level(target)
            found = found_conventions(target)
            truth = dict(note.truth_conventions) if note else {}
            # the truth's conventions are compared only where it places the tool at a point
            compared = annotated and note is not None and note.truth_level in ("conformant", "variant")
            language = note.language if note else ""
            data = (
                f'data-language="{escape(language)}" data-verdict="{escape(level)}" '
                f'data-axes="{escape(" ".join(self.row_axes(target, note)))}"'
            )
            row = [
                f'<th scope="row"><a href="#impl-{ident}">{escape(_name(target, note))}</a></th>',
                f"<td>{escape(language)}</td>",
                f'<td class="{_level_class(level)}">{escape(level)}</td>',
                f'<td class="point">{escape(str((target.get("verdict") or {}).get("point") or ""))}</td>',
            ]
            if annotated:
                row.append(
                    f'<td class="{_level_class(note.truth_level if note else "")}">'
                    f"{escape(note.truth_level if note else '')}</td>"
                )
                row.append(_agreement_cell(note))
            for axis in axes:
                value = found.get(axis, "")
                expected = truth.get(axis, "")
                mark = " differs-from-truth" if compared and value != expected else ""
                shown = value or ("·" if not expected else "paper")
                title = (
                    f"the runner: {value or 'paper'}; the truth: {expected or 'paper'}"
                    if annotated
                    else value
                )
                row.append(
                    f'<td class="axis{" off" if value else ""}{mark}" title="{escape(title)}">'
                    f"{escape(shown)}</td>"
                )
            by_id = {c["id"]: c for c in target["checks"]}
            for ident_check in checks:
                check = by_id.get(ident_check)
                if check is None:
                    row.append('<td class="st-none">—</td>')
                    continue
                text = _STATUS_TEXT.get(check["status"], check["status"])
                row.append(
                    f'<td class="st-{_slug(check["status"])}" title="{escape(check["detail"])}">'
                    f"{escape(text)}</td>"
                )
            rows.append(f'<tr id="row-{ident}" class="entry" {data}>{"".join(row)}</tr>')
        rows.append("</tbody>")
        return f'<div class="scroll"><table id="matrix">{"".join(rows)}</table></div>'

    # -- the filters --

    def filters(self) -> str:
        languages = sorted({n.language for n in self.notes if n and n.language})
        levels = sorted({self.level(t) for t in self.targets})
        axes = self.axes()

        def select(name: str, label: str, values: list[str]) -> str:
            options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
            return (
                f'<label>{escape(label)} <select id="filter-{name}" data-filter="{name}">'
                f'<option value="">any</option>{options}</select></label>'
            )

        return (
            '<form id="filters" class="filters">'
            + select("language", "language", languages)
            + select("verdict", "verdict", levels)
            + select("axes", "axis named", axes)
            + f' <output id="shown">{len(self.targets)} of {len(self.targets)} shown</output></form>'
        )

    # -- a section per target --

    def section(self, ident: str, target: dict[str, Any], note: Annotation | None) -> str:
        name = _name(target, note)
        parts = [f'<section id="impl-{ident}" class="impl"><h2>{escape(name)}</h2>']
        facts = []
        if note:
            facts += [
                ("package", note.package),
                ("language", note.language),
                ("kind", note.kind),
                ("called as", note.call),
            ]
        facts += [("target", target["target"]), ("name it gives", target["name"])]
        facts += [(f"version of {k}", v) for k, v in sorted(target.get("versions", {}).items())]
        if note and note.run_date:
            facts.append(("run", note.run_date))
        parts.append(
            "<dl>" + "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts if v) + "</dl>"
        )
        if note and note.summary:
            parts.append(f"<p>{escape(note.summary)}</p>")
        parts.append(self.verdict(target))
        if note and note.truth_level:
            parts.append(self.truth(note))
        parts.append(self.goals(target, note))
        parts.append(self.failures(target))
        parts.append('<p><a href="#matrix">back to the matrix</a></p></section>')
        return "".join(parts)

    def verdict(self, target: dict[str, Any]) -> str:
        level = self.level(target)
        if not target["available"]:
            return f'<p class="verdict"><strong>{escape(level)}</strong>: {escape(target["unavailable"])}</p>'
        if target.get("runner_error"):
            return f'<p class="verdict"><strong>runner error</strong>: {escape(target["runner_error"])}</p>'
        verdict = target.get("verdict") or {}
        point = verdict.get("point") or ""
        lines = [
            f'<p class="verdict">The runner: <strong class="{_level_class(level)}">{escape(level)}</strong> '
            f"against {escape(verdict.get('expected', 'paper'))}"
            + (f"; behaves as <code>{escape(point)}</code>" if point else "")
            + "</p>"
        ]
        named = [*verdict.get("differs", []), *verdict.get("choices", [])]
        if named:
            items = "".join(
                f"<li><code>{escape(d['axis'])}={escape(d['found'])}</code> "
                f"(expected {escape(d['expected'])}; "
                f"{self.spec(d['spec'])})</li>"
                for d in named
            )
            lines.append(f"<p>Conventions it follows where it is not the expected BLEU:</p><ul>{items}</ul>")
        for key, label in (
            ("unaccounted", "unaccounted for"),
            ("unobservable", "not observable"),
            ("ambiguous", "as well as"),
        ):
            if verdict.get(key):
                shown = ", ".join(self.spec(v) if key == "unaccounted" else escape(v) for v in verdict[key])
                lines.append(f"<p>{escape(label)}: {shown}</p>")
        lines += [f"<p>hint: {escape(h)}</p>" for h in target.get("hints", [])]
        return "".join(lines)

    def truth(self, note: Annotation) -> str:
        parts = [
            f'<h3>The truth, from its source</h3><p><strong class="{_level_class(note.truth_level)}">'
            f"{escape(note.truth_level)}</strong>"
            + (f", at <code>{escape(note.truth_point)}</code>" if note.truth_point else "")
            + f": {escape(note.truth_summary)}</p>"
        ]
        if note.truth_conventions:
            shown = ", ".join(f"<code>{escape(a)}={escape(v)}</code>" for a, v in note.truth_conventions)
            parts.append(f"<p>Conventions the runner must name: {shown}</p>")
        if note.differences:
            gaps = dict(note.gaps)
            items = ""
            for check, lines in note.differences:
                why = f" <em>Known gap of today's runner: {escape(gaps[check])}</em>" if check in gaps else ""
                items += f"<li>{escape(check)}: {escape('; '.join(lines))}.{why}</li>"
            parts.append(f'<p class="disagrees">The runner differs from the truth:</p><ul>{items}</ul>')
        elif note.run_date:
            parts.append('<p class="agrees">The runner agrees with the truth.</p>')
        if note.evidence:
            rows = "".join(
                f"<tr><td>{escape(axis)}</td><td><code>{escape(value)}</code></td><td>{escape(line)}</td></tr>"
                for axis, value, line in note.evidence
            )
            parts.append(
                "<details open><summary>Every axis, with the source line behind it (pinned version)</summary>"
                f'<table class="evidence"><thead><tr><th>axis</th><th>value</th><th>source</th></tr></thead>'
                f"<tbody>{rows}</tbody></table></details>"
            )
        if note.outside:
            parts.append(
                "<p>Outside the registry:</p><ul>"
                + "".join(f"<li>{escape(o)}</li>" for o in note.outside)
                + "</ul>"
            )
        return "".join(parts)

    def goals(self, target: dict[str, Any], note: Annotation | None) -> str:
        if note and note.to_match:
            goals = note.to_match
        elif target["available"] and target.get("verdict"):
            conventions = found_conventions(target)
            goals = tuple((g, tuple(tuple(c) for c in changes_to(conventions, g))) for g in GOALS)
        else:
            return ""
        parts = ["<h3>What it would take</h3><ul>"]
        for goal, changes in goals:
            if not changes:
                parts.append(f"<li>to be <code>{escape(goal)}</code>: nothing, it is that point</li>")
                continue
            shown = "; ".join(
                f"<code>{escape(axis)}</code> {escape(value)} → {escape(wanted)} ({self.spec(entry)})"
                for axis, value, wanted, entry in changes
            )
            parts.append(f"<li>to be <code>{escape(goal)}</code>: {shown}</li>")
        return "".join(parts) + "</ul>"

    def failures(self, target: dict[str, Any]) -> str:
        failed = [c for c in target["checks"] if c["status"] in ("fail", "insufficient", "explained")]
        if not failed:
            return ""
        parts = ["<h3>Checks that did not pass, with counterexamples</h3>"]
        for check in failed:
            ids = ", ".join(self.spec(s) for s in check["spec_ids"])
            body = [
                f"<p><strong>{self.spec(check['id'])}</strong> "
                f'<span class="st-{_slug(check["status"])}">'
                f"{escape(_STATUS_TEXT.get(check['status'], ''))}</span>"
                + (f" [{ids}]" if ids else "")
                + f": {escape(check['detail'])}</p>"
            ]
            if check.get("expected_by"):
                body.append(
                    f"<p>target {escape(_number(check.get('target_value')))}; expected "
                    f"{escape(_number(check.get('expected_value')))}, from {escape(check['expected_by'])}</p>"
                )
            if check.get("counterexample") is not None:
                shown, whole = abbreviated(check["counterexample"])
                note = "" if whole else " (abbreviated; the JSON report has it whole)"
                body.append(f"<p>counterexample{escape(note)}:</p><pre>{escape(shown)}</pre>")
            parts.append(f'<div class="failure">{"".join(body)}</div>')
        return "".join(parts)

    # -- the spec IDs linked --

    def glossary(self) -> str:
        items = []
        for ident, text in sorted(self.spec_ids.items()):
            if not text:
                continue
            head, _, body = text.partition("\n")
            short = body if len(body) <= _SPEC_TEXT else body[:_SPEC_TEXT] + " …"
            items.append(
                f'<dt id="spec-{_slug(ident)}">{escape(head)}</dt><dd><pre>{escape(short)}</pre></dd>'
            )
        note = "<p>The whole text of any ID: <code>reference-bleu conform --explain ID</code>.</p>"
        heading = "<h2>The spec IDs this page names</h2>"
        return f'<section id="spec">{heading}{note}<dl>{"".join(items)}</dl></section>'


def _name(target: dict[str, Any], note: Annotation | None) -> str:
    return note.ident if note and note.ident else str(target["name"])


def _level_class(level: str) -> str:
    return "lv-" + _slug(level or "none")


def _agreement_cell(note: Annotation | None) -> str:
    if note is None or not note.run_date:
        return '<td class="st-none">not run</td>'
    if not note.differences:
        return '<td class="st-pass">agrees</td>'
    gaps = dict(note.gaps)
    known = all(check in gaps for check, _ in note.differences)
    text = "known gap" if known else "DIFFERS"
    title = "; ".join(f"{check}: {'; '.join(lines)}" for check, lines in note.differences)
    return f'<td class="{"st-insufficient" if known else "st-fail"}" title="{escape(title)}">{text}</td>'


def _number(value: Any) -> str:
    return f"{value:.12g}" if isinstance(value, float) else str(value)


_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#111;background:#fff}
h1{font-size:1.6em;margin:0 0 .3em}h2{margin-top:2em;border-top:1px solid #ccc;padding-top:.6em}
code,pre{font:12px/1.35 ui-monospace,monospace}pre{white-space:pre-wrap;background:#f6f6f6;padding:.4em}
.scroll{overflow-x:auto;border:1px solid #ccc}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 5px;text-align:left;white-space:nowrap}
#matrix thead th{position:sticky;top:0;background:#eee}#matrix th.axis,#matrix th.check{font-weight:normal}
td.point{white-space:normal;min-width:12em;max-width:22em}
.st-pass{background:#d9f2d9}.st-fail{background:#f8c9c9;font-weight:bold}.st-n-a,.st-none{color:#777}
.st-insufficient,.st-explained{background:#fbe6b4}
.lv-conformant{background:#bfe8bf}.lv-variant{background:#cfe0fb}.lv-not-conformant{background:#f8c9c9;font-weight:bold}
.lv-insufficient-evidence{background:#fbe6b4}.lv-not-run,.lv-runner-error{background:#e4e4e4}
td.axis{color:#888}td.axis.off{color:#003a8c;background:#eef4ff}td.differs-from-truth{outline:2px solid #c00}
.filters{margin:1em 0;display:flex;gap:1em;flex-wrap:wrap;align-items:center}
.agrees{color:#185c18}.disagrees{color:#8c1010;font-weight:bold}
table.evidence td{white-space:normal;vertical-align:top}
.failure{border-left:4px solid #c66;padding-left:.6em;margin:.6em 0}
#spec dt{font-weight:bold;margin-top:.8em}
.impl dl{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em}.impl dd{margin:0}
"""

_SCRIPT = """
(function () {
  var selects = document.querySelectorAll('#filters select');
  var rows = document.querySelectorAll('#matrix tbody tr.entry');
  function apply() {
    var shown = 0;
    rows.forEach(function (row) {
      var keep = true;
      selects.forEach(function (select) {
        var want = select.value, key = select.getAttribute('data-filter');
        if (!want) { return; }
        var have = row.getAttribute('data-' + key) || '';
        if (key === 'axes' ? have.split(' ').indexOf(want) < 0 : have !== want) { keep = false; }
      });
      row.hidden = !keep;
      var section = document.getElementById('impl-' + row.id.slice(4));
      if (section) { section.hidden = !keep; }
      if (keep) { shown += 1; }
    });
    document.getElementById('shown').textContent = shown + ' of ' + rows.length + ' shown';
  }
  selects.forEach(function (select) { select.addEventListener('change', apply); });
})();
"""


def page(
    report: dict[str, Any],
    annotations: Sequence[Annotation | None] = (),
    title: str = "BLEU conformance report",
    date: str = "",
) -> str:
    """The page of a JSON report (``report_json``'s document), one row and section per target (spec
    CONF-REPORT)."""
    if report.get("format") != REPORT_FORMAT:
        raise ValueError(f"not a {REPORT_FORMAT} report: format {report.get('format')!r} (spec CONF-REPORT)")
    built = _Page(report, annotations)
    matrix = built.matrix()
    sections = "".join(
        built.section(i, t, n) for i, t, n in zip(built.ids, built.targets, built.notes, strict=True)
    )
    versions = ", ".join(f"{escape(k)} {escape(v)}" for k, v in sorted(report.get("versions", {}).items()))
    when = date or datetime.now(timezone.utc).isoformat(timespec="seconds")
    budget = f"; seed {report['seed']}, {report['examples']} examples per check" if "seed" in report else ""
    legend = "".join(f"<li>{escape(p)}</li>" for p in LEGEND)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<header><h1>{escape(title)}</h1><p>Run {escape(when)}{escape(budget)}. "
        f"The runner's side: {versions}. "
        "Each row is a target; a cell says its value in words, so the page reads without colour. "
        'Spec IDs link to <a href="#spec">their text</a> below.</p></header>'
        f"{built.filters()}{matrix}<details><summary>Legend</summary><ul>{legend}</ul></details>"
        f"{sections}{built.glossary()}<script>{_SCRIPT}</script></body></html>\n"
    )


def write_page(
    path: Path,
    report: dict[str, Any],
    annotations: Sequence[Annotation | None] = (),
    title: str = "BLEU conformance report",
    date: str = "",
) -> Path:
    """Write :func:`page` to ``path`` (its folder made); the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page(report, annotations, title, date), encoding="utf-8")
    return path
