"""The zoo's report: every entry with its truth, its kept run and where the two differ, as JSON
(schema ``report.schema.json`` beside this file) and as a static page (spec CONF-ZOO, CONF-REPORT).

The page is the runner's own HTML report (:mod:`conformance.runner.html`) of the kept runs, one
row per entry, each annotated with what the zoo knows beside the runner: the package, language
and call, the truth and its source lines, the checks where the runner differs from it.
"""

from __future__ import annotations

import json
import platform
from pathlib import Path
from typing import Any

from conformance.runner.html import GOALS, Annotation, changes_to, placeholder, write_page
from conformance.runner.report import REPORT_FORMAT
from conformance.zoo.entries import Entry
from conformance.zoo.running import Kept, kept_run
from conformance.zoo.truth import differences
from reference_bleu.conventions.options import VERSION
from reference_bleu.conventions.profiles import resolve

ZOO_REPORT_FORMAT = "reference-bleu-zoo"
ZOO_REPORT_VERSION = 1


def _evidence(entry: Entry) -> list[dict[str, Any]]:
    """Every axis with the source line behind it: the entry's own, or its profile's evidence."""
    if entry.truth.profile:
        return [
            {"axis": "", "value": "", "evidence": line, "registry": True}
            for line in resolve(entry.truth.profile).evidence
        ]
    return [
        {"axis": e.axis, "value": e.value, "evidence": e.evidence, "registry": e.registry}
        for e in entry.truth.evidence
    ]


def entry_document(entry: Entry, kept: Kept | None) -> dict[str, Any]:
    """One entry of the zoo report: the data, the truth, the run and the differences."""
    target = kept.target if kept else None
    run = None
    if kept is not None:
        report = kept.report or {}
        run = {
            "date": kept.date,
            "seconds": kept.seconds,
            "exit": kept.exit,
            "stale": kept.digest != entry.digest,
            "error": kept.error,
            "examples": report.get("examples"),
            "seed": report.get("seed"),
            "versions": report.get("versions", {}),
            "target": target,
        }
    return {
        "name": entry.name,
        "package": entry.package,
        "version": entry.version,
        "registry": entry.registry,
        "language": entry.language,
        "kind": entry.kind,
        "summary": entry.summary,
        "call": entry.call,
        "environment": entry.environment.name,
        "input": entry.input,
        "levels": list(entry.levels),
        "references": entry.references,
        "truth": {
            "level": entry.truth.level,
            "point": entry.truth.point,
            "summary": entry.truth.summary,
            "conventions": entry.truth.conventions,
            "evidence": _evidence(entry),
            "outside": list(entry.truth.outside),
            "to_match": {
                goal: [list(c) for c in changes_to(entry.truth.conventions, goal)] for goal in GOALS
            },
        },
        "gaps": entry.gaps,
        "run": run,
        "differences": differences(entry, target),
    }


def zoo_document(entries: list[Entry], cache: Path) -> dict[str, Any]:
    """The zoo report: the runner's side's versions, the newest run's date, every entry."""
    items = [entry_document(e, kept_run(cache, e.name)) for e in entries]
    dates = [i["run"]["date"] for i in items if i["run"]]
    return {
        "format": ZOO_REPORT_FORMAT,
        "version": ZOO_REPORT_VERSION,
        "date": max(dates) if dates else "",
        "versions": {"reference-bleu": VERSION, "python": platform.python_version()},
        "entries": items,
    }


def zoo_json(entries: list[Entry], cache: Path) -> str:
    return json.dumps(zoo_document(entries, cache), indent=1, sort_keys=True, ensure_ascii=False)


def _annotation(item: dict[str, Any]) -> Annotation:
    truth = item["truth"]
    return Annotation(
        ident=item["name"],
        language=item["language"],
        kind=item["kind"],
        package=f"{item['package']} {item['version']} ({item['registry']})",
        call=item["call"],
        summary=item["summary"],
        truth_level=truth["level"],
        truth_point=truth["point"],
        truth_summary=truth["summary"],
        truth_conventions=tuple(truth["conventions"].items()),
        evidence=tuple((e["axis"], e["value"], e["evidence"]) for e in truth["evidence"]),
        outside=tuple(truth["outside"]),
        to_match=tuple(
            (goal, tuple(tuple(c) for c in changes)) for goal, changes in truth["to_match"].items()
        ),
        differences=tuple((check, tuple(lines)) for check, lines in item["differences"].items() if lines),
        gaps=tuple(item["gaps"].items()),
        run_date=item["run"]["date"] if item["run"] else "",
    )


def write_zoo_page(entries: list[Entry], cache: Path, folder: Path) -> Path:
    """The page of the zoo's kept runs, ``folder/index.html``; its path."""
    document = zoo_document(entries, cache)
    targets = [
        (i["run"] or {}).get("target")
        or placeholder(i["name"], "not run here: reference-bleu zoo run " + i["name"])
        for i in document["entries"]
    ]
    versions: dict[str, str] = dict(document["versions"])
    report = {"format": REPORT_FORMAT, "versions": versions, "targets": targets}
    annotations = [_annotation(i) for i in document["entries"]]
    title = f"BLEU implementations judged: {len(targets)} in the zoo"
    return write_page(folder / "index.html", report, annotations, title=title, date=document["date"])
