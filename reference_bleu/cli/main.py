"""Command line: ``reference-bleu score``, ``stats`` and ``explain`` (spec CLI, CLI-FILES).

Exit codes: 0 done; 2 usage or input error (one line on stderr, never a traceback).
Text is read as UTF-8, one segment per line, tokenized by ``--tokenize`` (spec TOK-PIPELINE; by
default split on whitespace) after optional case folding (``--lowercase``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from reference_bleu.analysis.explain import explain
from reference_bleu.analysis.significance import (
    MAX_SAMPLES,
    Interval,
    PairedTests,
    bootstrap_interval,
    paired_bootstrap_tests,
    paired_randomization_tests,
)
from reference_bleu.cli.arguments import CliError, parser
from reference_bleu.cli.flags import refuse_sentencepiece
from reference_bleu.cli.printing import (
    LANGUAGE_TOKENIZERS,
    Rendering,
    Resampling,
    SacrebleuForm,
    SacrebleuRun,
    colors_on,
    language_advice,
    printed_form,
    sacrebleu_stderr,
    target_language,
    tokenized_line,
)
from reference_bleu.cli.report import Row, render
from reference_bleu.cli.toolforms import tool_form
from reference_bleu.conventions.options import BleuOptions
from reference_bleu.conventions.profiles import (
    PROFILES,
    Profile,
    describe_profile,
    profile_table,
    resolve,
)
from reference_bleu.conventions.registry import OPTION_FIELDS, PAPER_OPTIONS, PAPER_TEXT
from reference_bleu.conventions.space import Point, resolve_point
from reference_bleu.errors import BleuError
from reference_bleu.formulas.statistics import MAX_STATISTICS_ORDERS, Statistics
from reference_bleu.interrupts import Interrupted, exit_code, signals_interrupt
from reference_bleu.scoring.evaluation import conventional_total
from reference_bleu.scoring.files import (
    COUNTING_OPTIONS,
    Counting,
    InputDigest,
    Reading,
    Source,
    read_statistics,
    statistics_document,
    systems_statistics,
)
from reference_bleu.scoring.score import BleuResult, needs_segments, printed, score
from reference_bleu.scoring.sentences import segment_scores
from reference_bleu.text.tokenizers import tokenize_line

EXIT_USAGE = 2


#: A system to score: its name, its statistics (one sum, or every segment's) and its segments.
System = tuple[str, list[Statistics], int]


#: Flags that are a parameter of the profile's family (sacrebleu's ``-s`` is ``sacrebleu[smooth=...]``):
#: under a profile with a tool's printed form they re-resolve the profile, so that the tool's own rules
#: for that value apply (sacrebleu's add-k also makes 0/0 k/k: CLI-PRINTED).
_FAMILY_PARAMETERS = {"smoothing": "smooth"}


def _resolve_profile(args: argparse.Namespace) -> Profile | None:
    """The profile ``--profile`` names (with a family parameter the flags set), resolved once per run
    (:func:`_run` keeps it as ``args.resolved``)."""
    name = getattr(args, "profile", None)
    if name is None:
        return None
    profile = resolve(name)
    for dest, parameter in _FAMILY_PARAMETERS.items():
        value = getattr(args, dest, None)
        if value is None or printed_form(profile) is None:
            continue
        family, _, inside = name.strip().partition("[")
        params = [p for p in inside.rstrip("]").split(",") if p and not p.startswith(f"{parameter}=")]
        try:
            profile = resolve(f"{family}[{','.join([*params, f'{parameter}={value}'])}]")
        except BleuError:
            continue  # not a value of the family: the flag overrides the option alone
    return profile


def _profile(args: argparse.Namespace) -> Profile | None:
    """The run's profile, as :func:`_run` resolved it."""
    profile: Profile | None = getattr(args, "resolved", None)
    return profile


def _text(args: argparse.Namespace) -> dict[str, str]:
    """The text conventions: the flags given, else the profile's, else the paper's (str.split).

    ``-l SRC-TRG`` without ``-tok`` chooses sacrebleu's tokenizer for a Chinese, Japanese or Korean
    target (CLI-SACREBLEU-FLAGS), over the profile's."""
    refuse_sentencepiece(getattr(args, "tokenize", None))
    profile = _profile(args)
    base = profile.text if profile else PAPER_TEXT
    given = {k: getattr(args, k) for k in base if getattr(args, k, None) is not None}
    pair = getattr(args, "language_pair", None)
    if pair is not None and "tokenize" not in given:
        chosen = LANGUAGE_TOKENIZERS.get(target_language(pair))
        if chosen is not None:
            given["tokenize"] = chosen
    return {**base, **given}


def _point(args: argparse.Namespace, ref_length: str | None = None) -> Point:
    """The run's point of the convention space (CONV-PROFILES): the profile, the options given beside
    it (``ref_length``: the one statistics were counted with), the text conventions of :func:`_text`."""
    given = _given(args)
    if ref_length is not None:
        given["ref_length"] = ref_length
    return resolve_point(_profile(args), given, _text(args))


def _conform(argv: Sequence[str]) -> int:
    """``reference-bleu conform ...`` (the conformance runner) and ``reference-bleu zoo ...`` (the
    runner on real implementations, spec CONF-ZOO), which need the [conform] extra."""
    try:
        from conformance.runner.conform import main as conform_main  # noqa: PLC0415 -- needs hypothesis
        from conformance.zoo.command import main as zoo_main  # noqa: PLC0415 -- the same
    except ImportError as error:
        raise CliError(
            f"conform needs {error.name}: pip install 'reference-bleu[conform]' (spec CONF-RUNNER)"
        ) from None
    return zoo_main(list(argv[1:])) if argv[0] == "zoo" else conform_main(list(argv[1:]))


def _advice(args: argparse.Namespace) -> str | None:
    """sacrebleu's advice when ``-tok`` is not its tokenizer for ``-l``'s target language."""
    return language_advice(getattr(args, "language_pair", None), getattr(args, "tokenize", None))


def _progress(name: str, quiet: bool) -> Callable[[int], None] | None:
    if quiet or not sys.stderr.isatty():
        return None

    def report(done: int) -> None:
        print(f"\r{name}: {done} segments", end="", file=sys.stderr, flush=True)

    return report


def _warn(args: argparse.Namespace, message: str) -> None:
    """A warning about the data or the files: printed whatever ``-q`` says (CLI-INPUT)."""
    print(f"reference-bleu: {message}", file=sys.stderr)


def _note(args: argparse.Namespace, message: str) -> None:
    """A note about the conventions: ``-q`` hides it."""
    if not getattr(args, "quiet", False):
        print(f"reference-bleu: {message}", file=sys.stderr)


def _reading(args: argparse.Namespace) -> Reading:
    if not 1 <= args.max_line_bytes <= 2**40:
        raise CliError(f"--max-line-bytes must lie in 1..2^40, not {args.max_line_bytes} (spec CLI-INPUT)")
    return Reading(strip_bom=args.strip_bom, max_line_bytes=args.max_line_bytes)


def _hypotheses(args: argparse.Namespace, refs: Sequence[str]) -> list[str]:
    """The hypothesis paths: ``-i``, else standard input, which must not be a terminal (CLI-INPUT)."""
    if args.input is not None:
        return list(args.input) if isinstance(args.input, list) else [args.input]
    if sys.stdin is None or sys.stdin.isatty():
        raise CliError(
            "no hypotheses: give them with -i HYP (standard input is a terminal, and reading it "
            "would wait for typing) (spec CLI-INPUT)"
        )
    if len(refs) > 1:
        _warn(
            args,
            f"warning: {len(refs)} reference files and no -i: the hypotheses are read from standard "
            f"input; if {refs[-1]} is the hypothesis, give it with -i (spec CLI-INPUT)",
        )
    return ["-"]


def _warn_self_reference(args: argparse.Namespace, hyps: Sequence[str], refs: Sequence[str]) -> None:
    """CLI-INPUT: a hypothesis file that is also a reference file scores itself (1 under the paper)."""
    for hyp in hyps:
        for ref in refs:
            with contextlib.suppress(OSError):
                if hyp != "-" and ref != "-" and os.path.samefile(hyp, ref):
                    _warn(args, f"warning: {hyp} is also the reference file {ref}: it scores itself")
                    break


def _count(
    args: argparse.Namespace,
    hyp_paths: Sequence[str],
    refs: Sequence[str],
    counting: Counting,
    *,
    keep: bool,
    digests: dict[str, str] | None = None,
    allow_empty: bool = False,
) -> tuple[list[list[Statistics]], int]:
    """Each hypothesis file's statistics against ``refs``, all files read in one pass (empty files
    an error unless ``allow_empty``: EC-012's ``empty_corpus="zero"``)."""
    label = hyp_paths[0] if len(hyp_paths) == 1 else f"{len(hyp_paths)} systems"
    report = _progress(label, args.quiet)
    per_system, count = systems_statistics(
        hyp_paths,
        refs,
        counting,
        keep_segments=keep,
        jobs=args.jobs,
        progress=report,
        reading=_reading(args),
        digests=digests,
        allow_empty=allow_empty,
    )
    if report is not None:
        print(file=sys.stderr)
    return per_system, count


def _signature(nrefs: int, counting: Counting, result: BleuResult) -> str:
    return f"nrefs:{nrefs if nrefs > 0 else 'var'}|{counting.signature()}|{result.signature}"


def _merged_statistics(args: argparse.Namespace) -> tuple[Point, Counting, int, list[System]]:
    """``score --stats``: the point, counting, nrefs and the one system of merged statistics files."""
    if args.refs or args.positional_refs or args.input:
        raise CliError("give either --stats or reference and hypothesis files, not both")
    merged, counting, nrefs, count = read_statistics(args.stats)
    if args.ref_length not in (None, counting.ref_length):
        raise CliError(f"the statistics were counted with --ref-length {counting.ref_length}")
    _check_stats_text(args, counting)
    point = _point(args, counting.ref_length)
    options = point.options
    if needs_segments(options) or args.sentence_level or args.confidence:
        raise CliError(
            "these options need each segment's statistics, not merged ones "
            "(spec EC-009, EC-015, SIG-BOOTSTRAP)"
        )
    if counting.orders < options.statistics_orders:
        raise CliError(
            f"the statistics have {counting.orders} orders; these options need {options.statistics_orders}"
        )
    return (
        point,
        counting,
        nrefs,
        [(",".join(args.stats), [merged.truncated(options.statistics_orders)], count)],
    )


def _check_stats_text(args: argparse.Namespace, counting: Counting) -> None:
    """CLI-STATS: ``-tok``, ``-lc`` and the other text options given with ``--stats`` must be those the
    statistics were counted with: they cannot be applied to counts. A profile's own text conventions
    give way to the counts' (its printed form then names what they were counted with)."""
    wanted = {k: getattr(args, k) for k in PAPER_TEXT if getattr(args, k, None) is not None}
    for name in ("empty_references", "empty_candidates"):
        if getattr(args, name, None) is not None:
            wanted[name] = getattr(args, name)
    for name, value in wanted.items():
        if getattr(counting, name) != value:
            raise CliError(
                f"the statistics were counted with {COUNTING_OPTIONS[name]} {getattr(counting, name)}, "
                f"not {value}: count them again with it (spec CLI-STATS)"
            )


def _references(args: argparse.Namespace) -> list[str]:
    if args.refs and args.positional_refs:
        raise CliError("references given twice: as arguments and with -r (spec CLI)")
    refs = list(args.refs or args.positional_refs)
    if not refs:
        swallowed = f" (-i took {', '.join(args.input)}: put references before -i)" if args.input else ""
        raise CliError(f"no reference files: give them as arguments or with -r REF (or --stats){swallowed}")
    return refs


def _file_statistics(
    args: argparse.Namespace, keep: bool, point: Point | None = None, orders: int = 0
) -> tuple[Point, Counting, int, list[System]]:
    """``score -r REF -i HYP...``: the point (given, else the command line's), counting (at least
    ``orders`` orders), nrefs and each hypothesis file's statistics."""
    refs = _references(args)
    hyps = _hypotheses(args, refs)
    point = point or _point(args)
    options = point.options
    counting = Counting.at(point)
    if orders > counting.orders:
        counting = replace(counting, orders=orders)
    per_system, count = _count(
        args,
        hyps,
        refs,
        counting,
        keep=keep or needs_segments(options),
        allow_empty=options.empty_corpus != "error",
    )
    _warn_self_reference(args, hyps, refs)  # once counted: an error stays the one line
    systems: list[System] = [(hyp, segments, count) for hyp, segments in zip(hyps, per_system, strict=True)]
    return point, counting, len(refs), systems


def _notice(args: argparse.Namespace) -> None:
    """CLI-SACREBLEU: one line when the paper's defaults give another number than sacrebleu's would."""
    if args.profile is not None or args.quiet:
        return
    differing = []
    if args.tokenize is None and not args.stats:
        differing.append("no tokenizer (sacrebleu: 13a)")
    if args.smoothing is None:
        differing.append("no smoothing (sacrebleu: exp)")
    if args.scale is None:
        differing.append("BLEU on [0, 1] (sacrebleu: x100)")
    if differing:
        _note(
            args,
            f"note: the paper's defaults: {', '.join(differing)}; --profile sacrebleu gives "
            "sacrebleu's number (-q hides this note; spec CLI-SACREBLEU)",
        )


def _sentence_point(args: argparse.Namespace, profile: Profile | None) -> Point:
    """-sl: the point with the options the profile's tool changes when it scores each segment alone
    (its ``sentence_options``: sacrebleu turns effective order on), unless given on the command line."""
    point = _point(args)
    if profile is None:
        return point
    changed = {k: v for k, v in profile.sentence_options.items() if getattr(args, k, None) is None}
    return replace(point, options=replace(point.options, **changed)) if changed else point


def _output(args: argparse.Namespace, form: SacrebleuForm | None) -> str:
    """The format asked for, else the printed form's default (sacrebleu's: json), else text; a printed
    form's environment variable overrides both, as in its tool (SACREBLEU_FORMAT: CLI-PRINTED)."""
    forced = form.forced_format() if form is not None else None
    if forced is not None:
        return forced
    if args.format is not None:
        return str(args.format)
    return form.default_format if form is not None else "text"


def _rendering(args: argparse.Namespace, form: SacrebleuForm, options: BleuOptions) -> Rendering:
    width = options.round_digits if options.round_digits is not None else 1
    return Rendering(_output(args, form), args.score_only, width, args.short, colors_on(args.no_color))


def _counted_text(counting: Counting) -> dict[str, str]:
    """The text conventions the statistics were counted with (a statistics file's, under --stats)."""
    return {name: str(getattr(counting, name)) for name in PAPER_TEXT}


def _tool_form(
    args: argparse.Namespace, profile: Profile | None, options: BleuOptions, text: dict[str, str]
) -> SacrebleuForm | None:
    """The profile's printed form, when it prints this format and its tool computes these options
    on text read this way."""
    form = printed_form(profile)
    if form is None or _output(args, form) not in form.formats or not form.applies(options, text):
        return None
    return form


def _sentence_level(args: argparse.Namespace, profile: Profile | None) -> int:
    if (
        args.stats
        or (args.input and len(args.input) > 1)
        or args.confidence
        or args.paired_bs
        or args.paired_ar
    ):
        raise CliError(
            "-sl scores one system's segments, without --stats or statistical tests (spec CLI-OUTPUT)"
        )
    point, counting, nrefs, [(_, segments, _)] = _file_statistics(
        args, keep=True, point=_sentence_point(args, profile)
    )
    options = point.options
    text = _counted_text(counting)
    form = _tool_form(args, profile, options, text)
    advice = _advice(args)
    if form is not None:
        rendering = _rendering(args, form, options)
        # -sl scores one line at a time: sacrebleu's check for tokenized input never reaches 100 lines
        sys.stderr.write(sacrebleu_stderr(SacrebleuRun(("",), (None,), advice=advice), args.quiet))
        # sacrebleu sets effective order for -sl even under add-k, where it changes no number (0/0 is k/k)
        signature = form.signature(replace(options, effective_order=True), text, nrefs, args.short)
        print(form.sentences([form.score(s, options) for s in segments], rendering, signature))
        sys.stdout.write(form.epilogue(rendering))
        return 0
    if advice is not None:
        _warn(args, f"warning: {advice} (spec CLI-SACREBLEU-FLAGS)")
    # Each row's reported number, decided fast (spec NUM-SENTENCE); the first row's full result signs.
    texts = [printed(value, options.round_digits) for value in segment_scores(segments, options)]
    if _output(args, None) == "json":
        first = score(point, segments[:1])
        signature = _signature(nrefs, counting, first)
        print(json.dumps({"signature": signature, "scores": texts}))
    else:
        print("\n".join(line if args.score_only else f"BLEU = {line}" for line in texts))
    return 0


def _check_score_args(args: argparse.Namespace) -> None:
    unknown = [m for m in args.metrics if m.lower() != "bleu"]
    if unknown:
        raise CliError(f"reference-bleu computes BLEU only, not {', '.join(unknown)} (spec CLI-SACREBLEU)")
    for name in ("confidence_n", "paired_bs_n", "paired_ar_n"):
        if not 1 <= getattr(args, name) <= MAX_SAMPLES:
            raise CliError(f"--{name.replace('_', '-')} must lie in 1..{MAX_SAMPLES} (spec SIG-BOOTSTRAP)")
    if not 0 <= args.seed < 2**64:
        raise CliError("--seed must lie in 0..2^64-1 (spec SIG-BOOTSTRAP)")


def _distinct_systems(systems: list[System], paired: bool) -> tuple[list[System], list[str]]:
    """Systems are named by their files, so a file given twice is an error; in a paired test the
    baseline given again is skipped, as sacrebleu does (sacrebleu.py:400-412; CLI-SACREBLEU): the
    systems kept, and the names skipped."""
    kept: list[System] = []
    skipped: list[str] = []
    for system in systems:
        names = [name for name, _, _ in kept]
        if system[0] in names:
            if paired and system[0] == names[0]:
                skipped.append(system[0])
                continue
            raise CliError(f"{system[0]} is given twice: each -i file names a system (spec CLI-SACREBLEU)")
        kept.append(system)
    return kept, skipped


def _tool_lines(args: argparse.Namespace, profile: Profile | None) -> bool:
    """The tool's own lines (multi-bleu.perl's, mteval's, nltk's repr: spec chapter 16) when the
    profile has such a form, the point and the text are the profile's, and the text report of
    files is asked for; False (nothing printed) otherwise."""
    form = tool_form(profile)
    asked = not (args.stats or args.confidence or args.paired_bs or args.paired_ar or args.score_only)
    if form is None or profile is None or not asked or _output(args, None) != "text":
        return False
    point = _point(args)
    if point.overridden or point.text_conventions != profile.text:
        return False
    point, _, _, systems = _file_statistics(
        args, keep=form.needs_segments(point.options), point=point, orders=form.orders
    )
    systems, _ = _distinct_systems(systems, paired=False)
    sys.stdout.write(form.report([(name, segments) for name, segments, _ in systems], point.options))
    return True


def _score(args: argparse.Namespace) -> int:
    _check_score_args(args)
    profile = _profile(args)
    if args.sentence_level:
        return _sentence_level(args, profile)
    if _tool_lines(args, profile):
        return 0
    paired = args.paired_bs or args.paired_ar
    resampling = args.confidence or paired
    point, counting, nrefs, systems = (
        _merged_statistics(args) if args.stats else _file_statistics(args, keep=resampling)
    )
    options = point.options
    systems, skipped = _distinct_systems(systems, paired)
    if paired and len(systems) < 2:
        raise CliError(
            "paired tests compare systems: give a baseline and at least one more with -i (spec SIG-PAIRED-BS)"
        )
    if args.confidence and len(systems) > 1:
        raise CliError(
            "--confidence scores one system; for several use --paired-bs (each system's interval) or "
            "--paired-ar, as sacrebleu (spec SIG-BOOTSTRAP)"
        )
    segments = [s for _, s, _ in systems]
    text = _counted_text(counting)
    form = _tool_form(args, profile, options, text)
    names = [n for n, _, _ in systems]
    if form is not None:
        report = _tool_report(
            args, form, options=options, text=text, nrefs=nrefs, names=names, segments=segments
        )
        sys.stderr.write(sacrebleu_stderr(_sacrebleu_run(args, names, skipped), args.quiet))  # once computed
        print(report)
        sys.stdout.write(form.epilogue(_rendering(args, form, options)))
        return 0
    if _advice(args) is not None:
        _warn(args, f"warning: {_advice(args)} (spec CLI-SACREBLEU-FLAGS)")
    rows = [Row(name, score(point, s), count) for name, s, count in systems]
    rows = _resampled(args, rows, segments, options)
    signature = _signature(nrefs, counting, rows[0].result)
    extra: dict[str, Any] = {"seed": args.seed} if resampling else {}
    report = render(rows, signature, _output(args, None), args.score_only, extra)
    _notice(args)
    print(report)
    return 0


def _sacrebleu_run(args: argparse.Namespace, names: list[str], skipped: list[str]) -> SacrebleuRun:
    """What sacrebleu would log for this command line: its systems, each one's tokenized lines
    (counted in a second pass over its file, unless ``--force`` or standard input), the paired test."""
    paired = None
    if args.paired_bs or args.paired_ar:
        kind = "bs" if args.paired_bs else "ar"
        paired = Resampling(kind, args.paired_bs_n if args.paired_bs else args.paired_ar_n, args.seed)
    force = getattr(args, "force", False)
    counts = tuple(None if force or name == "-" else _tokenized_lines(name, args) for name in names)
    return SacrebleuRun(tuple(names), counts, tuple(skipped), paired, _advice(args))


def _tokenized_lines(path: str, args: argparse.Namespace) -> int:
    """The lines of a hypothesis file that sacrebleu counts as tokenized (a second pass, streamed)."""
    reading = replace(_reading(args), warn=False)  # the first pass warned already
    with contextlib.ExitStack() as stack:
        return sum(1 for line in Source(path, stack, reading) if tokenized_line(line))


def _tool_report(
    args: argparse.Namespace,
    form: SacrebleuForm,
    *,
    options: BleuOptions,
    text: dict[str, str],
    nrefs: int,
    names: list[str],
    segments: list[list[Statistics]],
) -> str:
    """The tool's own report of these systems, in its printed form (CLI-PRINTED)."""
    rendering = _rendering(args, form, options)
    scores = [form.score(conventional_total(s, options), options) for s in segments]
    if args.paired_bs or args.paired_ar:
        kind = "bs" if args.paired_bs else "ar"
        samples = args.paired_bs_n if args.paired_bs else args.paired_ar_n
        paired = Resampling(kind, samples, args.seed)
        tests = _paired_tests(args, segments, options)
        return form.paired(
            names, tests, rendering, form.signature(options, text, nrefs, args.short, paired), paired
        )
    if len(segments) > 1:
        return form.systems(names, scores, rendering, form.signature(options, text, nrefs, args.short))
    estimate: Interval | None = None
    test: Resampling | None = None
    if args.confidence and args.confidence_n > 1:  # sacrebleu resamples when n_bootstrap > 1 (base.py:445)
        estimate = bootstrap_interval(segments[0], options, args.confidence_n, args.seed)
        test = Resampling("bs", args.confidence_n, args.seed)
    short = args.short and rendering.output != "json"
    return form.single(scores[0], rendering, form.signature(options, text, nrefs, short, test), estimate)


def _paired_tests(
    args: argparse.Namespace, segments: list[list[Statistics]], options: BleuOptions
) -> PairedTests:
    """SIG-PAIRED-BS or SIG-PAIRED-AR of every system against the first, with progress on standard error."""
    progress = None
    if not args.quiet and sys.stderr.isatty():

        def progress(done: int, total: int) -> None:
            print(f"\rpaired test: system {done} of {total}", end="", file=sys.stderr, flush=True)

    if args.paired_bs:
        tests = paired_bootstrap_tests(
            segments[0], segments[1:], options, samples=args.paired_bs_n, seed=args.seed, progress=progress
        )
    else:
        tests = paired_randomization_tests(
            segments[0], segments[1:], options, samples=args.paired_ar_n, seed=args.seed, progress=progress
        )
    if progress is not None:
        print(file=sys.stderr)
    return tests


def _resampled(
    args: argparse.Namespace, rows: list[Row], segments: list[list[Statistics]], options: BleuOptions
) -> list[Row]:
    """The rows with their bootstrap intervals and paired p-values, as asked (SIG-*)."""
    if args.paired_bs or args.paired_ar:
        tests = _paired_tests(args, segments, options)
        out = [replace(rows[0], interval=tests.baseline_interval)]
        for row, result in zip(rows[1:], tests.systems, strict=True):
            out.append(replace(row, p_value=result.p_value, interval=result.interval))
        return out
    if args.confidence:
        return [
            replace(rows[0], interval=bootstrap_interval(segments[0], options, args.confidence_n, args.seed))
        ]
    return rows


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The API options given on the command line (to name those that override a profile)."""
    given = {k: getattr(args, k) for k in OPTION_FIELDS if getattr(args, k, None) is not None}
    return {k: list(v) if k == "weights" else v for k, v in given.items()}


def _stats(args: argparse.Namespace) -> int:
    if not 1 <= args.orders <= MAX_STATISTICS_ORDERS:
        raise CliError(f"--orders must lie in 1..{MAX_STATISTICS_ORDERS} (spec CLI-STATS)")
    paper = PAPER_OPTIONS
    counting = Counting(
        args.orders,
        args.ref_length or paper["ref_length"],
        empty_references=args.empty_references or paper["empty_references"],
        empty_candidates=args.empty_candidates or paper["empty_candidates"],
        **_text(args),
    )
    hyp = _hypotheses(args, args.refs)[0]
    digests: dict[str, str] = {}
    (segments,), count = _count(args, [hyp], args.refs, counting, keep=False, digests=digests)
    _warn_self_reference(args, [hyp], args.refs)
    inputs = [InputDigest(path, digests[path], count) for path in [hyp, *args.refs]]
    print(json.dumps(statistics_document(segments[0], counting, inputs[0], inputs[1:], count), indent=2))
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
    if argv[:1] in (["conform"], ["zoo"]):
        return _conform(argv)
    args = parser().parse_args(argv)
    args.resolved = _resolve_profile(args) if getattr(args, "resolve_profile", False) else None
    if args.command == "explain":
        point = _point(args)
        hypothesis = tokenize_line(args.hypothesis, **point.text_conventions)
        references = [tokenize_line(r, **point.text_conventions) for r in args.references]
        print(explain(hypothesis, references, point))
        return 0
    if args.command == "stats":
        return _stats(args)
    if args.command == "profiles":
        return _profiles(args)
    if hasattr(args, "run"):
        return int(args.run(args))
    return _score(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``reference-bleu`` command; returns the exit code (CLI)."""
    try:
        with signals_interrupt():  # SIGTERM and SIGHUP clean up as Ctrl-C does
            return _run(argv)
    except (CliError, BleuError) as error:
        print(f"reference-bleu: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as interrupt:
        how = f" ({interrupt.args[0]})" if isinstance(interrupt, Interrupted) else ""
        print(f"reference-bleu: interrupted{how}", file=sys.stderr)
        return exit_code(interrupt)
    except BrokenPipeError:
        return 0
    except MemoryError:  # one line, not a traceback: memory is bounded by the longest line (CLI-INPUT)
        print(
            "reference-bleu: error: out of memory (a line of many tokens? --max-line-bytes bounds it; "
            "spec CLI-INPUT)",
            file=sys.stderr,
        )
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
