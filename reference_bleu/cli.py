"""Command line: ``reference-bleu score`` and ``reference-bleu explain`` (spec CLI).

Exit codes: 0 done; 2 usage or input error (one line on stderr, never a traceback).
Text is read as UTF-8, one segment per line, tokens split on whitespace (spec EC-010).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from itertools import zip_longest
from typing import Any, TextIO, get_args

from reference_bleu.api import BleuResult, score_segments
from reference_bleu.errors import BleuError
from reference_bleu.explain import explain
from reference_bleu.length import REF_LENGTH_RULES
from reference_bleu.options import (
    VERSION,
    Aggregation,
    BleuOptions,
    UndefinedPrecision,
    ZeroPrecision,
    make_options,
)
from reference_bleu.smoothing import SMOOTHING_METHODS
from reference_bleu.statistics import Statistics, segment_statistics

EXIT_USAGE = 2


class CliError(Exception):
    """A usage or input error: printed as one line, exit code 2."""


def _option_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("BLEU options (spec API-OPTIONS)")
    group.add_argument("--max-order", "-N", type=int, default=None, help="N, the largest n-gram order (4)")
    group.add_argument(
        "--weights", "-w", nargs="+", default=None, metavar="W", help='w_1..w_N, e.g. "1/4" (uniform)'
    )
    group.add_argument("--ref-length", choices=REF_LENGTH_RULES, default="closest", help="EC-001")
    group.add_argument("--smoothing", "-s", choices=tuple(SMOOTHING_METHODS), default="none", help="SMOOTH")
    group.add_argument("--smoothing-value", default=None, help="epsilon, k, K or alpha of the smoothing")
    group.add_argument("--effective-order", action="store_true", help="EC-003: drop orders with no n-grams")
    group.add_argument("--zero-precision", choices=get_args(ZeroPrecision), default="limit", help="EC-002")
    group.add_argument(
        "--undefined-precision", choices=get_args(UndefinedPrecision), default="zero", help="EC-003"
    )
    group.add_argument("--aggregation", choices=get_args(Aggregation), default="micro", help="EC-009")
    group.add_argument("--unnormalized-weights", action="store_true", help="EC-007: weights as given")


def _options(args: argparse.Namespace) -> BleuOptions:
    kwargs: dict[str, Any] = {
        "ref_length": args.ref_length,
        "smoothing": args.smoothing,
        "smoothing_value": args.smoothing_value,
        "effective_order": args.effective_order,
        "zero_precision": args.zero_precision,
        "undefined_precision": args.undefined_precision,
        "aggregation": args.aggregation,
        "unnormalized_weights": args.unnormalized_weights,
    }
    if args.max_order is not None:
        kwargs["max_order"] = args.max_order
    if args.weights is not None:
        kwargs["weights"] = list(args.weights)
    return make_options(**kwargs)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reference-bleu",
        description="Exact reference BLEU (Papineni et al., 2002): every convention named.",
    )
    parser.add_argument("--version", action="version", version=f"reference-bleu {VERSION}")
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser("score", help="score a hypothesis file against reference files")
    score.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF", help="reference files")
    score.add_argument("-i", "--input", default="-", metavar="HYP", help="hypothesis file (default stdin)")
    score.add_argument("--json", action="store_true", help="print JSON")
    _option_arguments(score)

    exp = commands.add_parser("explain", help="show the computation for one sentence, order by order")
    exp.add_argument("hypothesis", help="the candidate, as text (split on whitespace)")
    exp.add_argument("references", nargs="+", help="its references, as text")
    _option_arguments(exp)
    return parser


def _open(path: str, stack: ExitStack) -> TextIO:
    if path == "-":
        return sys.stdin
    try:
        return stack.enter_context(open(path, encoding="utf-8", errors="strict"))
    except OSError as error:
        raise CliError(f"cannot read {path}: {error.strerror or error}") from None


def _lines(stream: TextIO, name: str) -> Iterator[list[str]]:
    number = 0
    try:
        for number, line in enumerate(stream, start=1):  # noqa: B007
            yield line.split()
    except UnicodeDecodeError:
        raise CliError(f"{name}: not valid UTF-8 (after line {number})") from None
    except OSError as error:
        raise CliError(f"cannot read {name}: {error.strerror or error}") from None


def _segments(hyp_path: str, ref_paths: Sequence[str], options: BleuOptions) -> list[Statistics]:
    """Read the files in step, one segment at a time; statistics are summed unless macro."""
    kept: list[Statistics] = []
    total = Statistics.zero(options.statistics_orders)
    with ExitStack() as stack:
        streams = [_lines(_open(hyp_path, stack), hyp_path)]
        streams += [_lines(_open(p, stack), p) for p in ref_paths]
        names = [hyp_path, *ref_paths]
        line = 0
        for line, row in enumerate(zip_longest(*streams), start=1):
            if any(cell is None for cell in row):
                short = [n for n, cell in zip(names, row, strict=True) if cell is None]
                raise CliError(f"line counts differ: {', '.join(short)} end(s) at line {line - 1}")
            hypothesis, *references = [cell for cell in row if cell is not None]
            stats = segment_statistics(hypothesis, references, options.statistics_orders, options.ref_length)
            if options.aggregation == "macro":
                kept.append(stats)
            else:
                total = total + stats
        if line == 0:
            raise CliError(f"{hyp_path} is empty: BLEU needs at least one segment (spec EC-012)")
    return kept if options.aggregation == "macro" else [total]


def _precision_text(result: BleuResult) -> str:
    return " ".join(f"{m}/{t}" for m, t in zip(result.matches, result.totals, strict=True))


def _as_json(result: BleuResult, nrefs: int) -> dict[str, Any]:
    return {
        "score": result.score,
        "score_decimal": str(result.score_decimal),
        "precisions": [None if p is None else str(p) for p in result.precisions],
        "smoothed_precisions": list(result.smoothed_precisions),
        "brevity_penalty": result.brevity_penalty,
        "brevity_penalty_decimal": str(result.brevity_penalty_decimal),
        "ratio": None if result.ratio is None else str(result.ratio),
        "nrefs": nrefs,
        **result.statistics.to_json(),
        "signature": f"nrefs:{nrefs}|tok:whitespace|{result.signature}",
    }


def _render(result: BleuResult, nrefs: int) -> str:
    ratio = "undefined" if result.ratio is None else f"{float(result.ratio):.6f}"
    p = "  ".join(
        f"p_{n}={'undef' if x is None else f'{float(x):.6f}'}" for n, x in enumerate(result.precisions, 1)
    )
    return "\n".join(
        [
            f"BLEU = {result.score!r}",
            f"  {p}",
            f"  matches/totals = {_precision_text(result)}",
            f"  BP = {result.brevity_penalty!r}  ratio = {ratio}  c = {result.hyp_len}  r = {result.ref_len}",
            f"  signature: nrefs:{nrefs}|tok:whitespace|{result.signature}",
        ]
    )


def _run(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    options = _options(args)
    if args.command == "explain":
        print(explain(args.hypothesis.split(), [r.split() for r in args.references], options))
        return 0
    result = score_segments(_segments(args.input, args.refs, options), options)
    nrefs = len(args.refs)
    print(json.dumps(_as_json(result, nrefs), indent=2) if args.json else _render(result, nrefs))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``reference-bleu`` command; returns the exit code."""
    try:
        return _run(argv)
    except (CliError, BleuError) as error:
        print(f"reference-bleu: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
