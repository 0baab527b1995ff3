"""Command line: ``reference-bleu score``, ``stats`` and ``explain`` (spec CLI, CLI-FILES).

Exit codes: 0 done; 2 usage or input error (one line on stderr, never a traceback).
Text is read as UTF-8, one segment per line, tokenized by ``--tokenize`` (spec TOK-PIPELINE; by
default split on whitespace) after optional case folding (``--lowercase``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, get_args

from reference_bleu.api import BleuResult, needs_segments, score_segments
from reference_bleu.errors import BleuError
from reference_bleu.explain import explain
from reference_bleu.files import Counting, read_statistics, statistics_document, systems_statistics
from reference_bleu.inputs import EMPTY_REFERENCE_RULES
from reference_bleu.length import REF_LENGTH_RULES
from reference_bleu.options import (
    VERSION,
    Aggregation,
    Arithmetic,
    BleuOptions,
    BrevityPenaltyRule,
    Denominator,
    EarlyReturn,
    Scale,
    UndefinedPrecision,
    ZeroPrecision,
    make_options,
)
from reference_bleu.profiles import (
    PROFILES,
    Profile,
    describe_profile,
    profile_options,
    profile_table,
    resolve,
)
from reference_bleu.smoothing import SMOOTHING_METHODS
from reference_bleu.statistics import Statistics
from reference_bleu.tokenizers import CASE_FOLDINGS, SPLIT_RULES, TOKENIZERS, tokenize_line

EXIT_USAGE = 2


#: A system to score: its name, its statistics (one sum, or every segment's) and its segments.
System = tuple[str, list[Statistics], int]


class CliError(Exception):
    """A usage or input error: printed as one line, exit code 2."""


def _option_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("BLEU options (spec API-OPTIONS; each overrides --profile)")
    group.add_argument(
        "--profile",
        "-p",
        default=None,
        metavar="NAME",
        help="a tool's conventions, e.g. sacrebleu, nltk[method=3], multi-bleu "
        "(list: reference-bleu profiles; spec CONV-PROFILES)",
    )
    group.add_argument("--max-order", "-N", type=int, default=None, help="N, the largest n-gram order (4)")
    group.add_argument(
        "--weights", "-w", nargs="+", default=None, metavar="W", help='w_1..w_N, e.g. "1/4" (uniform)'
    )
    group.add_argument("--ref-length", choices=REF_LENGTH_RULES, default=None, help="EC-001 (closest)")
    group.add_argument(
        "--smoothing", "-s", choices=tuple(SMOOTHING_METHODS), default=None, help="SMOOTH (none)"
    )
    group.add_argument("--smoothing-value", default=None, help="epsilon, k, K or alpha of the smoothing")
    group.add_argument(
        "--effective-order", action="store_true", default=None, help="EC-003: drop orders with no n-grams"
    )
    group.add_argument(
        "--zero-precision", choices=get_args(ZeroPrecision), default=None, help="EC-002 (limit)"
    )
    group.add_argument(
        "--zero-value", default=None, help="EC-002: the sentinel p_n, or the constant for log 0"
    )
    group.add_argument(
        "--undefined-precision", choices=get_args(UndefinedPrecision), default=None, help="EC-003 (zero)"
    )
    group.add_argument("--aggregation", choices=get_args(Aggregation), default=None, help="EC-009 (micro)")
    group.add_argument(
        "--unnormalized-weights", action="store_true", default=None, help="EC-007: weights as given"
    )
    group.add_argument("--denominator", choices=get_args(Denominator), default=None, help="EC-015 (l_n)")
    group.add_argument("--early-return", choices=get_args(EarlyReturn), default=None, help="EC-016 (none)")
    group.add_argument(
        "--brevity-penalty", choices=get_args(BrevityPenaltyRule), default=None, help="EC-017 (paper)"
    )
    group.add_argument("--arithmetic", choices=get_args(Arithmetic), default=None, help="CONV-ARITH (exact)")
    group.add_argument("--scale", choices=get_args(Scale), default=None, help="EC-013: unit or percent")
    group.add_argument("--round-digits", type=int, default=None, help="EC-013: decimals printed (all)")


#: Command-line options that are API options, by their argparse destination.
_API_OPTIONS = (
    "max_order",
    "weights",
    "ref_length",
    "smoothing",
    "smoothing_value",
    "effective_order",
    "zero_precision",
    "zero_value",
    "undefined_precision",
    "aggregation",
    "unnormalized_weights",
    "denominator",
    "early_return",
    "brevity_penalty",
    "arithmetic",
    "scale",
    "round_digits",
)


def _text_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("text (spec TOK-PIPELINE, chapter 11; each overrides --profile)")
    group.add_argument(
        "--tokenize", "-tok", choices=TOKENIZERS, default=None, help="tokenizer (none: split on whitespace)"
    )
    group.add_argument(
        "--lowercase",
        "-lc",
        nargs="?",
        const="unicode",
        default=None,
        choices=CASE_FOLDINGS,
        help="case folding: unicode (str.lower, sacrebleu's -lc; the default of the flag) or ascii (A-Z)",
    )
    group.add_argument(
        "--split",
        choices=SPLIT_RULES,
        default=None,
        help="TOK-SPLIT-RULE: unicode (str.split), ascii (Perl), space",
    )
    group.add_argument(
        "--empty-references",
        choices=EMPTY_REFERENCE_RULES,
        default=None,
        help="EC-005: keep (default), drop or refuse empty references",
    )


def _run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", "-j", type=int, default=1, help="processes counting statistics (1)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")


def _profile(args: argparse.Namespace) -> Profile | None:
    name = getattr(args, "profile", None)
    return None if name is None else resolve(name)


def _text(args: argparse.Namespace) -> dict[str, str]:
    """The text conventions: the flags given, else the profile's, else the paper's (str.split)."""
    profile = _profile(args)
    base = profile.text if profile else {"tokenize": "none", "lowercase": "none", "split": "unicode"}
    given = {k: getattr(args, k) for k in base if getattr(args, k, None) is not None}
    return {**base, **given}


def _options(args: argparse.Namespace, ref_length: str | None = None) -> BleuOptions:
    given: dict[str, Any] = {k: getattr(args, k) for k in _API_OPTIONS if getattr(args, k, None) is not None}
    if "weights" in given:
        given["weights"] = list(given["weights"])
    if getattr(args, "empty_references", None) is not None:
        given["empty_references"] = args.empty_references
    if ref_length is not None:
        given["ref_length"] = ref_length
    profile = _profile(args)
    merged = profile_options(profile, given)[0] if profile else given
    return make_options(**merged)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reference-bleu",
        description="Exact reference BLEU (Papineni et al., 2002): every convention named.",
    )
    parser.add_argument("--version", action="version", version=f"reference-bleu {VERSION}")
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser("score", help="score hypothesis files (one system each) against references")
    score.add_argument("-r", "--refs", nargs="+", metavar="REF", help="reference files, one per reference")
    score.add_argument(
        "-i", "--input", nargs="+", default=["-"], metavar="HYP", help="hypothesis files (default stdin)"
    )
    score.add_argument("--stats", nargs="+", metavar="JSON", help="score merged statistics files instead")
    score.add_argument("--json", action="store_true", help="print JSON")
    _text_arguments(score)
    _run_arguments(score)
    _option_arguments(score)

    stats = commands.add_parser("stats", help="write the statistics of a hypothesis file as JSON")
    stats.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF", help="reference files")
    stats.add_argument("-i", "--input", default="-", metavar="HYP", help="hypothesis file (default stdin)")
    stats.add_argument("--orders", type=int, default=5, help="n-gram orders to count (5: enough for N=4)")
    stats.add_argument("--ref-length", choices=REF_LENGTH_RULES, default="closest", help="EC-001")
    _text_arguments(stats)
    _run_arguments(stats)

    exp = commands.add_parser("explain", help="show the computation for one sentence, order by order")
    exp.add_argument("hypothesis", help="the candidate, as text")
    exp.add_argument("references", nargs="+", help="its references, as text")
    _text_arguments(exp)
    _option_arguments(exp)

    listing = commands.add_parser(
        "profiles",
        help="the conventions of real tools: every profile, or one with its evidence (spec CONV-PROFILES)",
    )
    listing.add_argument(
        "name", nargs="?", help="a profile, e.g. nltk[method=3]: its every axis and evidence"
    )

    commands.add_parser(
        "conform",
        help="validate a BLEU implementation: fingerprint and checks (spec CONF-RUNNER; conform --help)",
        add_help=False,
    )
    return parser


def _conform(argv: Sequence[str]) -> int:
    """``reference-bleu conform ...``: the conformance runner, which needs the [conform] extra."""
    try:
        from conformance.conform import main as conform_main  # noqa: PLC0415 -- needs hypothesis
    except ImportError as error:
        raise CliError(
            f"conform needs {error.name}: pip install 'reference-bleu[conform]' (spec CONF-RUNNER)"
        ) from None
    return conform_main(list(argv))


def _progress(name: str, quiet: bool) -> Callable[[int], None] | None:
    if quiet or not sys.stderr.isatty():
        return None

    def report(done: int) -> None:
        print(f"\r{name}: {done} segments", end="", file=sys.stderr, flush=True)

    return report


def _count(
    args: argparse.Namespace, hyp_paths: Sequence[str], counting: Counting, macro: bool
) -> tuple[list[list[Statistics]], int]:
    """Each hypothesis file's statistics against ``args.refs``, all files read in one pass."""
    label = hyp_paths[0] if len(hyp_paths) == 1 else f"{len(hyp_paths)} systems"
    report = _progress(label, args.quiet)
    per_system, count = systems_statistics(
        hyp_paths, args.refs, counting, keep_segments=macro, jobs=args.jobs, progress=report
    )
    if report is not None:
        print(file=sys.stderr)
    return per_system, count


def _precision_text(result: BleuResult) -> str:
    return " ".join(f"{m}/{t}" for m, t in zip(result.matches, result.totals, strict=True))


def _signature(nrefs: int, counting: Counting, result: BleuResult) -> str:
    return f"nrefs:{nrefs if nrefs > 0 else 'var'}|{counting.signature()}|{result.signature}"


def _as_json(result: BleuResult, signature: str, name: str, segments: int) -> dict[str, Any]:
    return {
        "input": name,
        "segments": segments,
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
        "signature": signature,
    }


def _render(result: BleuResult, signature: str) -> str:
    ratio = "undefined" if result.ratio is None else f"{float(result.ratio):.6f}"
    p = "  ".join(
        f"p_{n}={'undef' if x is None else f'{float(x):.6f}'}" for n, x in enumerate(result.precisions, 1)
    )
    return "\n".join(
        [
            f"BLEU = {result.reported_text}" + (f"  ({result.profile})" if result.profile else ""),
            f"  {p}",
            f"  matches/totals = {_precision_text(result)}",
            f"  BP = {result.brevity_penalty!r}  ratio = {ratio}  c = {result.hyp_len}  r = {result.ref_len}",
            f"  signature: {signature}",
        ]
    )


def _table(rows: Sequence[tuple[str, BleuResult]], signature: str) -> str:
    """One line per system: BLEU (x100, as papers print it, and exact on [0, 1]), p_n, BP, c, r."""
    order = len(rows[0][1].precisions)
    header = ["system", "BLEU", *(f"p_{n}" for n in range(1, order + 1)), "BP", "ratio", "c", "r", "score"]
    lines = []
    for name, result in rows:
        ratio = "-" if result.ratio is None else f"{float(result.ratio):.4f}"
        p = ["undef" if x is None else f"{100 * float(x):.2f}" for x in result.precisions]
        cells = [name, f"{100 * result.score:.2f}", *p, f"{result.brevity_penalty:.4f}", ratio]
        lines.append([*cells, str(result.hyp_len), str(result.ref_len), repr(result.score)])
    widths = [max(len(str(r[k])) for r in [header, *lines]) for k in range(len(header))]
    text = [
        "  ".join(
            str(c).ljust(w) if k == 0 else str(c).rjust(w)
            for k, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in [header, *lines]
    ]
    return "\n".join([*text, f"signature: {signature}"])


def _counting(orders: int, ref_length: str, text: dict[str, str], empty_references: str) -> Counting:
    return Counting(orders, ref_length, text["tokenize"], text["lowercase"], text["split"], empty_references)  # type: ignore[arg-type]


def _merged_statistics(args: argparse.Namespace) -> tuple[BleuOptions, Counting, int, list[System]]:
    """``score --stats``: the options, counting, nrefs and the one system of merged statistics files."""
    if args.refs:
        raise CliError("give either --stats or -r/--refs, not both")
    merged, counting, nrefs, count = read_statistics(args.stats)
    if args.ref_length not in (None, counting.ref_length):
        raise CliError(f"the statistics were counted with --ref-length {counting.ref_length}")
    options = _options(args, counting.ref_length)
    if needs_segments(options):
        raise CliError(
            "these conventions need each segment's statistics, not merged ones (spec EC-009, EC-015)"
        )
    if counting.orders < options.statistics_orders:
        raise CliError(
            f"the statistics have {counting.orders} orders; these options need {options.statistics_orders}"
        )
    return (
        options,
        counting,
        nrefs,
        [(",".join(args.stats), [merged.truncated(options.statistics_orders)], count)],
    )


def _file_statistics(args: argparse.Namespace) -> tuple[BleuOptions, Counting, int, list[System]]:
    """``score -r REF -i HYP...``: the options, counting, nrefs and each hypothesis file's statistics."""
    if not args.refs:
        raise CliError("the following arguments are required: -r/--refs (or --stats)")
    options = _options(args)
    counting = _counting(options.statistics_orders, options.ref_length, _text(args), options.empty_references)
    per_system, count = _count(args, args.input, counting, needs_segments(options))
    systems: list[System] = [
        (hyp_path, segments, count) for hyp_path, segments in zip(args.input, per_system, strict=True)
    ]
    return options, counting, len(args.refs), systems


def _score(args: argparse.Namespace) -> int:
    profile = _profile(args)
    options, counting, nrefs, systems = _merged_statistics(args) if args.stats else _file_statistics(args)
    results = []
    for name, segments, count in systems:
        result = score_segments(segments, options)
        if profile is not None:
            result = replace(
                result, profile=profile.name, overridden=profile_options(profile, _given(args))[1]
            )
        results.append((name, result, count))
    signature = _signature(nrefs, counting, results[0][1])
    if args.json:
        documents = [_as_json(result, signature, name, count) for name, result, count in results]
        print(json.dumps(documents[0] if len(documents) == 1 else documents, indent=2))
    elif len(results) == 1:
        print(_render(results[0][1], signature))
    else:
        print(_table([(name, result) for name, result, _ in results], signature))
    return 0


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The API options given on the command line (to name those that override a profile)."""
    given = {k: getattr(args, k) for k in _API_OPTIONS if getattr(args, k, None) is not None}
    return {k: list(v) if k == "weights" else v for k, v in given.items()}


def _stats(args: argparse.Namespace) -> int:
    counting = _counting(args.orders, args.ref_length, _text(args), args.empty_references or "keep")
    (segments,), count = _count(args, [args.input], counting, macro=False)
    print(json.dumps(statistics_document(segments[0], counting, len(args.refs), count), indent=2))
    return 0


def _profiles(args: argparse.Namespace) -> int:
    """``reference-bleu profiles [NAME]``: every profile's point, or one profile with its evidence."""
    if args.name:
        print(describe_profile(resolve(args.name)))
    else:
        print(profile_table([resolve(name) for name in PROFILES]))
    return 0


def _run(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["conform"]:
        return _conform(argv[1:])
    args = _parser().parse_args(argv)
    if args.command == "explain":
        options = _options(args)
        text = _text(args)
        hypothesis = tokenize_line(args.hypothesis, **text)
        references = [tokenize_line(r, **text) for r in args.references]
        print(explain(hypothesis, references, options))
        return 0
    if args.command == "stats":
        return _stats(args)
    if args.command == "profiles":
        return _profiles(args)
    return _score(args)


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
