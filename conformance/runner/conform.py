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
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from conformance.runner.channel import MAX_LINE_BYTES, Limits, limits_supported
from conformance.runner.client import MAX_RESTARTS, TIME_LIMIT, python_command
from conformance.runner.expectation import Expectation
from conformance.runner.html import write_page
from conformance.runner.legend import explain_id, fitted
from conformance.runner.protocol import MAX_DIGITS
from conformance.runner.references import REFERENCE_KINDS
from conformance.runner.report import details, matrix, report_json
from conformance.runner.run import CommandError, RunSettings, command_argv, run_target
from reference_bleu.errors import BleuError
from reference_bleu.formulas.numbers import accept_negative_numbers

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
    parser.add_argument(
        "--html", metavar="FILE", default=None, help="also write the report as one static page (CONF-REPORT)"
    )
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
    if args.html:
        write_page(Path(args.html), json.loads(report_json(reports, args.seed, args.examples)))
    if args.json:
        print(report_json(reports, args.seed, args.examples))
    else:
        print(matrix(reports, args.markdown))
        for report in reports:
            if report.available:  # a conformant target too: what its verdict rests on (CONF-OPEN)
                print()
                text = details(report, args.markdown)
                print(text if args.markdown else fitted(text))  # within 100 columns (CONF-REPORT)
    if any(r.runner_error for r in reports):
        return EXIT_RUNNER
    return EXIT_OK if all(r.conformant for r in reports if r.available) else EXIT_NOT_CONFORMANT


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
