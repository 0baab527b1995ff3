"""The diagnosis sweep (spec CONF-DIAGNOSIS): the whole runner on every fault of the catalogue.

Usage (from the project root)::

    python -m benchmarks.diagnosis                    # every fault, both targets, default budget
    python -m benchmarks.diagnosis -n 10 --only FAULT-BP-TWICE --only FAULT-NO-CLIP
    python -m benchmarks.diagnosis --json sweep.json  # the rows as JSON too

Each fault is judged twice, each time by ``reference-bleu conform --json`` in a process of its
own: as the built-in ``reference[fault=FAULT-ID]`` (the reference with the fault's computation,
conformance/faults/computations.py) and as ``tests.targets.faulty:NAME`` (the same bug written
again independently, with the standard library only). At most ``--jobs`` (1 or 2) runs at a time:
the project's machine has 2 cores. Each row gives the diagnosis' level (found, ambiguous, none;
"-" where the verdict was not "not conformant"), the faults it names (for none: the nearest,
only as information), whether it is right, and the run's CPU seconds (runner and target, from
the child's resource usage). Right: found and naming exactly that fault; an ambiguous diagnosis
that includes it is marked "ambiguous" (acceptable only where the faults named are truly
indistinguishable through the protocol: docs/faults.md says which). Nothing is asserted: the
table is printed, dated, with the machine's load, and copied into docs/faults.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from conformance.faults.catalogue import catalogue
from tests.targets.faulty import FAULTS


@dataclass(frozen=True)
class Row:
    """One run: the fault, the target, what the runner said, and its CPU seconds."""

    fault: str
    target: str
    verdict: str
    level: str
    named: tuple[str, ...]
    right: str
    cpu: float
    #: CPU seconds of the runner's process inside the diagnosis (the questions' answers included
    #: only as far as the runner computes them; a subprocess target's own share is in ``cpu``).
    diagnosis_cpu: float


def targets(fault: str) -> list[str]:
    """The two targets of a fault: the reference with it, and faulty.py's independent function."""
    return [f"reference[fault={fault}]", f"tests.targets.faulty:{FAULTS[fault].__name__}"]


def judged(fault: str, report: dict[str, Any]) -> tuple[str, str, tuple[str, ...], str]:
    """(verdict level, diagnosis level, faults named, right) of a run's JSON report."""
    verdict = report["targets"][0]["verdict"]
    diagnosis = verdict.get("diagnosis")
    if diagnosis is None:
        return verdict["level"], "-", (), "no"
    level = diagnosis["level"]
    if level == "none":
        nearest = diagnosis["nearest"]
        return verdict["level"], level, ((f"(nearest {nearest})",) if nearest else ()), "no"
    named = tuple(diagnosis["found"])
    where = "" if diagnosis["alone"] else f" at {diagnosis['at']}"
    if named == (fault,):
        return verdict["level"], level, (fault + where,), "yes"
    if fault in named:
        return verdict["level"], level, named, "ambiguous"
    return verdict["level"], level, named, "no"


def _timed(command: list[str]) -> tuple[int, str, str, float]:
    """Run ``command``; (exit code, stdout, stderr, CPU seconds of it and its children)."""
    wrapper = [
        sys.executable,
        "-c",
        "import resource, subprocess, sys;"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN);"
        "sys.stderr.write(p.stderr + f'\\n@cpu {u.ru_utime + u.ru_stime:.3f}\\n');"
        "sys.stdout.write(p.stdout); sys.exit(p.returncode)",
        *command,
    ]
    done = subprocess.run(wrapper, capture_output=True, text=True, check=False)  # noqa: S603 -- our own interpreter, no shell
    cpu = float(done.stderr.rsplit("@cpu ", 1)[1].split()[0])
    return done.returncode, done.stdout, done.stderr.rsplit("\n@cpu ", 1)[0], cpu


def judge_timed(argv: list[str]) -> None:
    """``reference-bleu conform ARGV`` in this process, the CPU seconds spent in the diagnosis
    (conformance.runner.verdict._diagnosis) measured apart: the report's JSON on standard output,
    then a line ``@diagnosis SECONDS``."""
    from conformance.runner import conform, verdict  # noqa: PLC0415 -- only in the child

    spent = [0.0]
    diagnosis = verdict._diagnosis

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return diagnosis(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - start

    verdict._diagnosis = timed
    code = conform.main(argv)
    print(f"\n@diagnosis {spent[0]:.3f}", flush=True)
    sys.exit(code)


def sweep_one(fault: str, target: str, examples: int | None) -> Row:
    """One run of the runner on ``target``, judged against ``fault``."""
    command = [sys.executable, "-m", "benchmarks.diagnosis", "--judge", "--json", "-q", "--target", target]
    if examples is not None:
        command += ["-n", str(examples)]
    code, out, err, cpu = _timed(command)
    try:
        text, spent = out.rsplit("\n@diagnosis ", 1)
        report = json.loads(text)
    except (ValueError, json.JSONDecodeError):
        failed = f"runner failed (exit {code}): {err.strip()[-200:]}"
        return Row(fault, target, failed, "-", (), "no", cpu, 0.0)
    verdict, level, named, right = judged(fault, report)
    row = Row(fault, target, verdict, level, named, right, cpu, float(spent))
    print(json.dumps(asdict(row)), file=sys.stderr, flush=True)  # each row as it ends: a JSON line
    return row


def table(rows: list[Row]) -> str:
    """The Markdown table of the rows."""
    lines = [
        "| fault | target | verdict | diagnosis | named | right | CPU s | of which diagnosis |",
        "|---|---|---|---|---|---|---:|---:|",
    ]
    for row in rows:
        kind = "reference" if row.target.startswith("reference[") else "faulty.py"
        lines.append(
            f"| {row.fault} | {kind} | {row.verdict} | {row.level} | {', '.join(row.named) or '-'} "
            f"| {row.right} | {row.cpu:.1f} | {row.diagnosis_cpu:.1f} |"
        )
    return "\n".join(lines)


def summary(rows: list[Row]) -> str:
    """Counts of the rows by target kind and result."""
    out = []
    for kind, prefix in (("reference[fault=...]", "reference["), ("faulty.py", "tests.")):
        mine = [r for r in rows if r.target.startswith(prefix)]
        counts = {k: sum(r.right == k for r in mine) for k in ("yes", "ambiguous", "no")}
        cpu, spent = [r.cpu for r in mine], [r.diagnosis_cpu for r in mine]
        out.append(
            f"{kind}: {len(mine)} runs, right {counts['yes']}, ambiguous {counts['ambiguous']}, "
            f"wrong or missing {counts['no']}; CPU {sum(cpu):.0f} s in all, "
            f"max {max(cpu, default=0):.1f} s; in the diagnosis {sum(spent):.0f} s in all, "
            f"max {max(spent, default=0):.1f} s"
        )
    return "\n".join(out)


def main() -> None:
    """Run the sweep and print the table (``--judge ARGS...``: one timed run, see judge_timed)."""
    if sys.argv[1:2] == ["--judge"]:
        judge_timed(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", "-n", type=int, default=None, help="the runner's -n (its default)")
    parser.add_argument("--jobs", type=int, choices=(1, 2), default=2, help="runs at a time (2)")
    parser.add_argument("--only", action="append", default=[], help="this fault (repeatable, in order)")
    parser.add_argument("--kind", choices=("both", "reference", "faulty"), default="both")
    parser.add_argument("--json", dest="json_path", help="also write the rows here as JSON")
    args = parser.parse_args()
    faults = args.only or [f.id for f in catalogue()]  # in the order given
    jobs = [
        (fault, target)
        for fault in faults
        for i, target in enumerate(targets(fault))
        if args.kind == "both" or (args.kind == "reference") == (i == 0)
    ]
    start, load = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda job: sweep_one(job[0], job[1], args.examples), jobs))
    end_load = os.getloadavg()
    print(
        f"diagnosis sweep, {start}, runner -n {args.examples or 'default'}, {args.jobs} at a time; "
        f"load average {load[0]:.2f} at the start, {end_load[0]:.2f} at the end\n"
    )
    print(table(rows))
    print()
    print(summary(rows))
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as out:
            json.dump([asdict(r) for r in rows], out, indent=1)


if __name__ == "__main__":
    main()
