"""``reference-bleu zoo``: the real BLEU implementations, run and published (spec CONF-ZOO).

    reference-bleu zoo list                     # every entry: package, version, truth
    reference-bleu zoo setup [NAMES]            # make the environments (cached)
    reference-bleu zoo run [NAMES]              # make them, run the runner on each, keep the reports
    reference-bleu zoo report --html DIR        # the page of the kept reports (DIR/index.html)
    reference-bleu zoo report --json            # the same as JSON (schema conformance/zoo/report.schema.json)

The cache (environments, kept reports) is ``--cache DIR``, else ``$REFERENCE_BLEU_ZOO_CACHE``, else
``.zoo`` in the working directory. Exit codes: 0 done (``run``: every entry ran and agrees with its
truth, or differs only where a known gap of the runner is recorded); 1 ``run``: some entry differs
from its truth where no gap is recorded (each difference printed); 2 usage; 3 an environment
could not be made or the runner gave no report.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.zoo.entries import Entry, ZooDataError, load, select
from conformance.zoo.environments import cache_folder
from conformance.zoo.report import write_zoo_page, zoo_json
from conformance.zoo.running import Kept, Settings, make_environments, run
from conformance.zoo.truth import differences

EXIT_OK, EXIT_DIFFERS, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reference-bleu zoo",
        description="real BLEU implementations: run the runner on each and publish the reports",
        allow_abbrev=False,
    )
    parser.add_argument(
        "--cache", default=None, metavar="DIR", help="environments and kept reports (default .zoo)"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="every entry: package, version, environment, truth")
    setup = commands.add_parser(
        "setup", help="make the environments of the entries named (every entry by default)"
    )
    setup.add_argument("names", nargs="*", metavar="NAME")
    running = commands.add_parser(
        "run", help="make the environments, run the runner on each entry, keep the reports"
    )
    running.add_argument("names", nargs="*", metavar="NAME")
    running.add_argument("--examples", "-n", type=int, default=100, help="generated examples per check (100)")
    running.add_argument("--seed", type=int, default=0, help="the seed of the generated examples (0)")
    running.add_argument("--jobs", "-j", type=int, default=2, help="entries run at a time (2)")
    report = commands.add_parser("report", help="the kept reports as a page or as JSON")
    out = report.add_mutually_exclusive_group(required=True)
    out.add_argument("--html", metavar="DIR", help="write the page DIR/index.html")
    out.add_argument("--json", action="store_true", help="print the zoo report as JSON")
    return parser


def _truth(entry: Entry) -> str:
    truth = entry.truth
    named = ", ".join(f"{a}={v}" for a, v in truth.conventions.items())
    at = f" {truth.point}" if truth.point else ""
    return f"{truth.level}{at}" + (f": {named}" if named else "")


def _list() -> int:
    entries = load()
    print(f"{len(entries)} implementations (reference-bleu zoo run NAME runs one):")
    for entry in entries:
        gaps = f"  [known runner gap: {', '.join(entry.gaps)}]" if entry.gaps else ""
        print(
            f"{entry.name}: {entry.package}=={entry.version} "
            f"({entry.registry}, {entry.language}; {entry.kind})"
        )
        print(
            f"    {entry.call}  [{entry.input}; {', '.join(entry.levels)}; "
            f"environment {entry.environment.name}]"
        )
        print(f"    truth: {_truth(entry)}{gaps}")
    return EXIT_OK


def _outcome(entry: Entry, kept: Kept) -> tuple[str, bool]:
    """One line on how the entry's run compares with its truth; and whether it differs unexpectedly."""
    target = kept.target
    if target is None:
        return f"{entry.name}: no report from the runner (exit {kept.exit}): {kept.error}", True
    verdict = target.get("verdict") or {}
    said = f"{verdict.get('level', target.get('unavailable') or 'no verdict')}"
    point = f" ({verdict['point']})" if verdict.get("point") else ""
    lines, unexpected = [], False
    for check, found in differences(entry, target).items():
        if found and check in entry.gaps:
            lines.append(f"    {check}: a known gap ({entry.gaps[check]}): {'; '.join(found)}")
        elif found:
            lines.append(f"    {check}: DIFFERS FROM ITS TRUTH: {'; '.join(found)}")
            unexpected = True
        elif check in entry.gaps:
            lines.append(f"    {check}: agrees although a gap is recorded: remove it from zoo.json")
    head = f"{entry.name}: {said}{point} [{kept.seconds:.1f} s] " + (
        "agrees with its truth" if not lines else ""
    )
    return "\n".join([head.rstrip(), *lines]), unexpected


def _run(entries: list[Entry], cache: Path, settings: Settings) -> int:
    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    kept, failed = run(entries, cache, settings, say)
    status = EXIT_OK
    for name, why in failed.items():
        print(f"environment {name} could not be made: {why}")
        status = EXIT_FAILED
    for entry, one in zip([e for e in entries if e.environment.name not in failed], kept, strict=True):
        line, unexpected = _outcome(entry, one)
        print(line)
        if one.target is None:
            status = EXIT_FAILED
        elif unexpected and status == EXIT_OK:
            status = EXIT_DIFFERS
    return status


def main(argv: list[str]) -> int:
    """Run ``reference-bleu zoo``; exit 0, 1, 2 or 3 (see the module's text; spec CONF-ZOO)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:
        return EXIT_USAGE if stop.code else EXIT_OK
    cache = cache_folder(args.cache)
    try:
        if args.command == "list":
            return _list()
        entries = select(getattr(args, "names", []))
        if args.command == "setup":
            failed = make_environments(entries, cache, lambda line: print(line, flush=True))
            for name, why in failed.items():
                print(f"environment {name} could not be made: {why}")
            return EXIT_FAILED if failed else EXIT_OK
        if args.command == "run":
            if not 1 <= args.examples <= 100_000 or args.jobs < 1:
                raise ZooDataError("--examples must be in [1, 100000] and --jobs at least 1")
            return _run(entries, cache, Settings(examples=args.examples, seed=args.seed, jobs=args.jobs))
        if args.html:
            path = write_zoo_page(entries, cache, Path(args.html))
            print(path)
        else:
            print(zoo_json(entries, cache))
    except ZooDataError as error:
        print(f"reference-bleu zoo: {error} (spec CONF-ZOO)", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
