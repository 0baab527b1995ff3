"""``reference-bleu compare`` and ``reference-bleu identify`` (spec ATTR-CLI): registered by the CLI.

Each subcommand sets ``run`` on its parsed arguments; errors are BleuErrors, which the CLI
prints as one line with exit status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from reference_bleu.analysis.attribution import SCALES, compare, render
from reference_bleu.analysis.counted import CountedCorpus
from reference_bleu.analysis.identification import DEFAULT_BUDGET, identify, parse_reported
from reference_bleu.analysis.identification import render as render_identification
from reference_bleu.conventions.space import profile_point
from reference_bleu.errors import BleuOptionError
from reference_bleu.scoring.files import MAX_LINE_BYTES, Reading

FORMATS = ("text", "json", "markdown")


def _files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF", help="reference files")
    parser.add_argument(
        "-i", "--input", nargs="+", required=True, metavar="HYP", help="hypothesis files, one per system"
    )
    parser.add_argument("--format", "-f", choices=FORMATS, default="text", help="text, json or markdown")
    parser.add_argument("--strip-bom", action="store_true", help="remove a byte-order mark starting a file")
    parser.add_argument("--max-line-bytes", type=int, default=MAX_LINE_BYTES, metavar="BYTES")


def register(commands: Any) -> None:
    """Add ``compare`` and ``identify`` to the CLI's subcommands (spec ATTR-CLI)."""
    cmp = commands.add_parser(
        "compare",
        help="why two BLEU numbers differ: the difference attributed to each axis (spec ATTR)",
        description="Score the files at two points and attribute the difference to the axes where they "
        "differ: a path (one axis at a time) and exact Shapley values.",
    )
    _files(cmp)
    cmp.add_argument(
        "--profile",
        "-p",
        action="append",
        required=True,
        metavar="NAME",
        help="a point: give it twice (A, B)",
    )
    cmp.add_argument(
        "--order", default=None, metavar="AXES", help="axes to change first on the path, a,b,..."
    )
    cmp.add_argument("--scale", choices=SCALES, default="percent", help="the one scale of both scores")
    cmp.add_argument("--digits", type=int, default=4, help="decimals printed (4); JSON also has exact values")
    cmp.set_defaults(run=_compare)

    ident = commands.add_parser(
        "identify",
        help="which BLEU produced a number: the points that print it on these files (spec IDENT)",
        description="List the points of the convention space that print the reported number(s) on the files.",
    )
    _files(ident)
    ident.add_argument(
        "--reported", nargs="+", required=True, metavar="X", help="the number reported for each first system"
    )
    ident.add_argument("--scale", choices=SCALES, default=None, help="the number's scale (default: inferred)")
    ident.add_argument(
        "--max-points", type=int, default=DEFAULT_BUDGET, help=f"points screened at most ({DEFAULT_BUDGET})"
    )
    ident.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="every value that prints it, every name, each match's conventions (text: 100 columns without)",
    )
    ident.set_defaults(run=_identify)


def _corpus(args: argparse.Namespace) -> CountedCorpus:
    if not 1 <= args.max_line_bytes <= 2**40:
        raise BleuOptionError("CLI-INPUT", f"--max-line-bytes must lie in 1..2^40, not {args.max_line_bytes}")
    reading = Reading(strip_bom=args.strip_bom, max_line_bytes=args.max_line_bytes)
    return CountedCorpus.from_files(args.input, args.refs, reading)


def _compare(args: argparse.Namespace) -> int:
    if len(args.profile) != 2:
        raise BleuOptionError(
            "ATTR-CLI", f"compare needs two points: --profile A --profile B, not {len(args.profile)}"
        )
    if not 0 <= args.digits <= 20:
        raise BleuOptionError("ATTR-CLI", f"--digits must lie in 0..20, not {args.digits}")
    a, b = (profile_point(name) for name in args.profile)
    order = [x.strip() for x in args.order.split(",") if x.strip()] if args.order else None
    result = compare(_corpus(args), a, b, order=order, scale=args.scale)
    print(render(result, args.format, args.digits))
    return 0


def _identify(args: argparse.Namespace) -> int:
    reported = [parse_reported(x, args.scale) for x in args.reported]
    result = identify(_corpus(args), reported, budget=args.max_points)
    print(render_identification(result, args.format, verbose=args.verbose))
    return 0
