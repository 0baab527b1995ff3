"""Time the reference against sacrebleu, nltk, bleuscore and fast-bleu on the same real data, side by side.

Usage (from the project root; data: the shipped conformance/data/wmt17-en-de; peers from
``pip install -e '.[test,zoo]'``)::

    python benchmarks/bench.py                       # everything at 1x, 10x, 100x, 1 and 4 refs
    python benchmarks/bench.py --sizes 1 10          # a quicker run
    python benchmarks/bench.py --million --conform   # also: 1,000,000 streamed lines; a conform run

Three tables, each measured in one run, every tool in a fresh process:

1. **In-process scoring of pre-tokenized input** (the data is in memory; only the scoring is
   timed, the median of ``--repeat`` runs): the reference's API on tokens; sacrebleu with
   ``tokenize='none'`` on the tokens joined by spaces; nltk's ``corpus_bleu`` on tokens;
   bleuscore (Rust) on the joined tokens (it always runs its own 13a, which is in its time);
   fast-bleu (C++) on tokens, whose only mode is a *sentence* score of every hypothesis
   against the pooled references, a different quantity, timed for what it does. CPU seconds
   (``time.process_time``) and wall seconds; ratios are tool / reference.
2. **Whole process** (``reference-bleu score -tok 13a`` and ``sacrebleu -tok 13a -b`` on files,
   start-up and reading included): CPU of the child (user + system, ``RUSAGE_CHILDREN``), wall,
   peak memory; on one system and on all 16 WMT17 systems in one call.
3. ``--million``: ``reference-bleu score`` on 1,000,000 streamed lines, ``--jobs 1`` and
   ``--jobs 2``; ``--conform``: ``reference-bleu conform --target sacrebleu`` at the default budget.

The 10x and 100x corpora repeat the WMT17 lines; sacrebleu's tokenizers memoize lines
(``lru_cache`` of 2^16 entries), which flatters it on repeated text in table 2 (not in table 1:
``none`` does not tokenize). sacrebleu-mojo requires Python 3.12 or later and is measured
only where it installs. "refs" is the number of references per segment: the reference
translation plus other systems' outputs. Nothing here is asserted: the numbers are reported.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from conformance.data import plain_root

if TYPE_CHECKING:
    from reference_bleu.scoring.score import BleuResult

ROOT = Path(__file__).resolve().parent.parent
WMT17 = plain_root() / "wmt17-en-de"  # the shipped test set, decompressed (conformance/data/README.md)
#: fast-bleu holds every hypothesis's n-grams: 2 GB at 10x with 4 references, so it stops there.
FAST_BLEU_MAX = 10
IN_PROCESS = (
    "reference",
    "reference-python",
    "sacrebleu",
    "sacrebleu-mojo",
    "bleuscore",
    "nltk",
    "fast-bleu",
)
#: Per-row sentence scoring (table 4): the reference's batch path with and without the kernel, its
#: per-row ``sentence_bleu`` (the double decided in binary64 where NUM-SENTENCE can, ``score_decimal``
#: left uncomputed) and the same reading ``score_decimal`` (the exact path's cost), and the peers'
#: sentence functions.
SENTENCE = (
    "reference",
    "reference-python",
    "reference-row",
    "reference-row-decimal",
    "sacrebleu",
    "bleuscore",
    "nltk",
    "fast-bleu",
)
#: The tools run with REFERENCE_BLEU_PURE_PYTHON=1: the reference without its compiled kernel.
PURE_PYTHON = ("reference-python",)
#: The module each peer needs; a peer that does not import here is reported as not installed.
MODULES = {
    "sacrebleu": "sacrebleu",
    "sacrebleu-mojo": "sacrebleu_mojo",
    "bleuscore": "bleuscore",
    "nltk": "nltk",
    "fast-bleu": "fast_bleu",
}


def read(path: Path) -> list[str]:
    """Lines of ``path`` split at "\\n" only."""
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def systems() -> list[Path]:
    return sorted(WMT17.glob("hyp.*.de"))


def write_corpus(folder: Path, size: int, refs: int) -> list[Path]:
    """WMT17 en-de repeated ``size`` times, written as files: the hypotheses, then ``refs`` references."""
    found = systems()
    paths = []
    for k, source in enumerate([found[0], WMT17 / "ref.de", *found[1:refs]]):
        path = folder / f"f{k}"
        with path.open("w", encoding="utf-8") as out:
            for _ in range(size):
                out.writelines(line + "\n" for line in read(source))
        paths.append(path)
    return paths


def installed(tool: str) -> bool:
    return tool not in MODULES or importlib.util.find_spec(MODULES[tool]) is not None


# --- table 1: in-process, on tokens ----------------------------------------------------------


def scorer(tool: str, hyps: list[list[str]], refs: list[list[list[str]]]) -> Callable[[], float]:
    """A function that scores the tokenized corpus with ``tool``; everything it needs is prepared here."""
    joined_hyps = [" ".join(h) for h in hyps]
    streams = [[" ".join(r[k]) for r in refs] for k in range(len(refs[0]))]
    if tool in ("reference", "reference-python"):
        from reference_bleu import corpus_bleu  # noqa: PLC0415

        return lambda: corpus_bleu(hyps, refs).score
    if tool in ("sacrebleu", "sacrebleu-mojo"):
        module = __import__(MODULES[tool])
        metric = module.BLEU(tokenize="none", smooth_method="none", force=True)
        return lambda: cast(float, metric.corpus_score(joined_hyps, streams).score) / 100
    if tool == "bleuscore":
        import bleuscore  # noqa: PLC0415

        per_segment = [list(r) for r in zip(*streams, strict=True)]
        return lambda: cast(float, bleuscore.compute(per_segment, joined_hyps, 4, False)["bleu"])
    if tool == "nltk":
        from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu  # noqa: PLC0415

        return lambda: cast(float, nltk_corpus_bleu(refs, hyps))
    from fast_bleu import BLEU  # noqa: PLC0415

    pooled = [r for rs in refs for r in rs]
    # fast-bleu's one mode: each hypothesis's sentence BLEU against the pooled references.
    return lambda: statistics.fmean(BLEU(pooled, {"bleu": (0.25,) * 4}).get_score(hyps)["bleu"])


def sentence_scorer(tool: str, hyps: list[list[str]], refs: list[list[list[str]]]) -> Callable[[], float]:
    """A function that scores every row alone with ``tool`` and returns the mean sentence score.

    The reference and sacrebleu at sacrebleu's sentence point (exp smoothing, effective order);
    nltk with its method 3 (the same NIST smoothing, without effective order); bleuscore and
    fast-bleu at their one point (add-one smoothing; fast-bleu's own smoothing), timed for
    what they do. Peers take joined tokens where they take text (no tokenization: ``none``).
    """
    joined_hyps = [" ".join(h) for h in hyps]
    joined_refs = [[" ".join(r) for r in rs] for rs in refs]
    if tool in ("reference", "reference-python"):
        from reference_bleu import sentence_scores  # noqa: PLC0415

        return lambda: statistics.fmean(sentence_scores(hyps, refs, smoothing="exp", effective_order=True))
    if tool in ("reference-row", "reference-row-decimal"):
        return row_scorer(hyps, refs, decimal=tool == "reference-row-decimal")
    if tool == "sacrebleu":
        import sacrebleu  # noqa: PLC0415

        metric = sacrebleu.BLEU(tokenize="none", smooth_method="exp", effective_order=True)
        return lambda: statistics.fmean(
            metric.sentence_score(h, r).score / 100 for h, r in zip(joined_hyps, joined_refs, strict=True)
        )
    if tool == "bleuscore":
        import bleuscore  # noqa: PLC0415

        return lambda: statistics.fmean(
            cast(float, bleuscore.compute([r], [h], 4, True)["bleu"])
            for h, r in zip(joined_hyps, joined_refs, strict=True)
        )
    if tool == "nltk":
        from nltk.translate.bleu_score import SmoothingFunction  # noqa: PLC0415
        from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu  # noqa: PLC0415

        method3 = SmoothingFunction().method3
        return lambda: statistics.fmean(
            nltk_sentence_bleu(r, h, smoothing_function=method3) for h, r in zip(hyps, refs, strict=True)
        )
    from fast_bleu import BLEU as FastBleu  # noqa: PLC0415, N811

    weights = {"bleu": (0.25,) * 4}
    return lambda: statistics.fmean(
        FastBleu(r, weights).get_score([h])["bleu"][0] for h, r in zip(hyps, refs, strict=True)
    )


def row_scorer(hyps: list[list[str]], refs: list[list[list[str]]], *, decimal: bool) -> Callable[[], float]:
    """``sentence_bleu`` per row at sacrebleu's sentence point: its ``score``, or its ``score_decimal``."""
    from reference_bleu import sentence_bleu  # noqa: PLC0415

    def rows() -> Iterator[BleuResult]:
        return (
            sentence_bleu(h, r, smoothing="exp", effective_order=True)
            for h, r in zip(hyps, refs, strict=True)
        )

    if decimal:
        return lambda: statistics.fmean(float(result.score_decimal) for result in rows())
    return lambda: statistics.fmean(result.score for result in rows())


def in_process(tool: str, paths: list[str], repeat: int, *, sentence: bool = False) -> dict[str, float]:
    """Median CPU and wall seconds of ``repeat`` scorings with ``tool`` (run in a child process)."""
    from reference_bleu.text.tokenizers import tokenize_line  # noqa: PLC0415

    hyps, *streams = ([tokenize_line(line, "13a") for line in read(Path(p))] for p in paths)
    refs = [list(rs) for rs in zip(*streams, strict=True)]
    run = (sentence_scorer if sentence else scorer)(tool, hyps, refs)
    cpu, wall, score = [], [], 0.0
    for _ in range(repeat):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        score = run()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return {"cpu": statistics.median(cpu), "wall": statistics.median(wall), "score": score}


def child(arguments: list[str]) -> dict[str, Any]:
    """Run this script with ``--one ARGUMENTS`` in a fresh process; its JSON line, with its peak memory.

    The ``reference-python`` tool runs with REFERENCE_BLEU_PURE_PYTHON=1 (no compiled kernel).
    """
    env = dict(os.environ)
    if arguments[1] in PURE_PYTHON:
        env["REFERENCE_BLEU_PURE_PYTHON"] = "1"
    out = subprocess.run(  # noqa: S603 -- our own interpreter and script, no shell
        [sys.executable, __file__, "--one", *arguments], capture_output=True, text=True, check=True, env=env
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


# --- table 2 and 3: whole processes ----------------------------------------------------------


def whole(command: list[str]) -> dict[str, float]:
    """CPU (user + system), wall seconds and peak MB of one command, run under a fresh watcher process.

    The watcher (this script with ``--watch``) waits for the command alone, so the peak
    resident memory of its children is the command's, not that of earlier measurements.
    """
    out = subprocess.run(  # noqa: S603 -- our own interpreter and script, no shell
        [sys.executable, __file__, "--watch", *command], capture_output=True, text=True, check=True
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def watch(command: list[str]) -> dict[str, float]:
    """Run ``command`` to completion; its CPU (user + system, children included), wall, peak MB, exit code."""
    start = time.perf_counter()
    done = subprocess.run(command, check=False, stdout=subprocess.DEVNULL)  # noqa: S603 -- our commands
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    return {"cpu": cpu, "wall": wall, "peak_mb": usage.ru_maxrss / 1024, "exit": done.returncode}


def tool_command(name: str) -> list[str]:
    """The console script ``name`` of this interpreter's environment."""
    return [str(Path(sys.executable).parent / name)]


def whole_commands(hyps: list[str], ref: str) -> dict[str, list[str]]:
    return {
        "reference": [*tool_command("reference-bleu"), "score", "-tok", "13a", "-r", ref, "-i", *hyps],
        "sacrebleu": [*tool_command("sacrebleu"), ref, "-i", *hyps, "-tok", "13a", "-b"],
    }


def million_lines(folder: Path) -> tuple[str, str]:
    """1,000,000 lines of hypotheses and references, WMT17 repeated, written to ``folder``."""
    ref_lines, hyp_lines = read(WMT17 / "ref.de"), read(systems()[0])
    hyp, ref = folder / "hyp", folder / "ref"
    with hyp.open("w", encoding="utf-8") as h, ref.open("w", encoding="utf-8") as r:
        for k in range(1_000_000):
            h.write(hyp_lines[k % len(hyp_lines)] + "\n")
            r.write(ref_lines[k % len(ref_lines)] + "\n")
    return str(hyp), str(ref)


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b > 0 else "-"


def table_in_process(sizes: list[int], refs_list: list[int], tools: list[str], repeat: int) -> None:
    segments = len(read(WMT17 / "ref.de"))
    print(
        f"\n## In-process scoring of pre-tokenized input (median of {repeat} runs at {sizes[0]}x, 1 above)\n"
    )
    print("| segments | refs | tool | CPU s | wall s | CPU / reference | peak MB | BLEU |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|")
    base_cpu: dict[tuple[str, int], float] = {}
    growth: list[str] = []
    for size in sizes:
        for refs in refs_list:
            with tempfile.TemporaryDirectory() as folder:
                paths = [str(p) for p in write_corpus(Path(folder), size, refs)]
                runs = repeat if size == sizes[0] else 1  # one run of the larger sizes: minutes already
                chosen = [t for t in tools if installed(t) and (t != "fast-bleu" or size <= FAST_BLEU_MAX)]
                rows = {t: child(["corpus", t, str(runs), *paths]) for t in chosen}
            reference = rows["reference"]["cpu"]
            for tool, row in rows.items():
                print(
                    f"| {segments * size:,} | {refs} | {tool} | {row['cpu']:.3f} | {row['wall']:.3f} "
                    f"| {ratio(row['cpu'], reference)} | {row['peak_mb']:.0f} | {100 * row['score']:.4f} |",
                    flush=True,
                )
                first = base_cpu.setdefault((tool, refs), row["cpu"])
                if size != sizes[0]:
                    growth.append(
                        f"{tool} {refs} ref: {size // sizes[0]}x data, {ratio(row['cpu'], first)}x CPU"
                    )
    missing = [t for t in tools if not installed(t)]
    if missing:
        print(f"\nNot installed here (not measured): {', '.join(missing)}.")
    if growth:
        print("\nGrowth with size: " + "; ".join(growth) + ".")


def table_sentence(refs_list: list[int], tools: list[str], repeat: int) -> None:
    """Table 4: every WMT17 segment of one system scored alone, per row, side by side in one run."""
    segments = len(read(WMT17 / "ref.de"))
    print(f"\n## Sentence level: each of {segments:,} rows scored alone (median of {repeat} runs)\n")
    print("| refs | tool | µs / row (CPU) | CPU / sacrebleu | CPU / reference-python | mean score |")
    print("|---:|---|---:|---:|---:|---:|")
    for refs in refs_list:
        with tempfile.TemporaryDirectory() as folder:
            paths = [str(p) for p in write_corpus(Path(folder), 1, refs)]
            chosen = [t for t in tools if installed(t)]
            rows = {}
            for tool in chosen:
                rows[tool] = child(["sentence", tool, str(repeat), *paths])
        base = rows.get("sacrebleu", {}).get("cpu", 0.0)
        python = rows.get("reference-python", {}).get("cpu", 0.0)
        for tool, row in rows.items():
            print(
                f"| {refs} | {tool} | {1e6 * row['cpu'] / segments:.1f} | {ratio(row['cpu'], base)} "
                f"| {ratio(row['cpu'], python)} | {100 * row['score']:.4f} |",
                flush=True,
            )


def table_fallback() -> None:
    """How often NUM-SENTENCE leaves a row to the exact path: every WMT17 system, sentence level."""
    from reference_bleu.api import sentence_scores  # noqa: PLC0415
    from reference_bleu.scoring.sentences import SentenceCounter  # noqa: PLC0415
    from reference_bleu.text.tokenizers import tokenize_line  # noqa: PLC0415

    ref = [[tokenize_line(line, "13a")] for line in read(WMT17 / "ref.de")]
    hyps = [tokenize_line(line, "13a") for system in systems() for line in read(system)]
    refs = ref * len(systems())
    shorter = sum(len(h) < len(r[0]) for h, r in zip(hyps, refs, strict=True))
    print(
        f"\n## NUM-SENTENCE's fallback: {len(hyps):,} WMT17 rows, 13a, 1 reference ({shorter:,} with c < r)\n"
    )
    print("| options | rows the exact path scored | fraction |")
    print("|---|---:|---:|")
    points: list[dict[str, Any]] = [
        {"smoothing": "exp", "effective_order": True},
        {},
        {"smoothing": "floor"},
        {"smoothing": "add-k"},
        {"smoothing": "exp", "weights": ["1/2", "1/4", "1/8", "1/8"]},
        {"smoothing": "chen-cherry-5"},
    ]
    for point in points:
        counter = SentenceCounter()
        sentence_scores(hyps, refs, counter=counter, **point)
        exact = counter.fallback + counter.unsupported
        print(f"| {point or 'the paper'} | {exact} | {exact / counter.rows:.6f} |", flush=True)


def table_whole(show: Callable[[str], None]) -> None:
    found = [str(p) for p in systems()]
    ref = str(WMT17 / "ref.de")
    show("\n## Whole process, 13a from files\n")
    show("| input | tool | CPU s | wall s | CPU / reference | peak MB |")
    show("|---|---|---:|---:|---:|---:|")
    for label, hyps in (("1 system", found[:1]), (f"{len(found)} systems, one call", found)):
        rows = {tool: whole(command) for tool, command in whole_commands(hyps, ref).items()}
        for tool, row in rows.items():
            show(
                f"| {label} | {tool} | {row['cpu']:.2f} | {row['wall']:.2f} "
                f"| {ratio(row['cpu'], rows['reference']['cpu'])} | {row['peak_mb']:.0f} |"
            )


def table_million() -> None:
    print("\n## 1,000,000 streamed lines (13a, 1 reference)\n")
    print("| jobs | CPU s | wall s | wall / jobs 1 | peak MB |")
    print("|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        hyp, ref = million_lines(Path(folder))
        rows = {}
        for jobs in (1, 2):
            command = [*tool_command("reference-bleu"), "score", "-q", "-tok", "13a", "--jobs", str(jobs)]
            rows[jobs] = row = whole([*command, "-r", ref, "-i", hyp])
            print(
                f"| {jobs} | {row['cpu']:.1f} | {row['wall']:.1f} | {ratio(row['wall'], rows[1]['wall'])} "
                f"| {row['peak_mb']:.0f} |",
                flush=True,
            )


def table_conform() -> None:
    row = whole([*tool_command("reference-bleu"), "conform", "--target", "sacrebleu", "--quiet"])
    print("\n## `reference-bleu conform --target sacrebleu` (default budget)\n")
    print(
        f"CPU {row['cpu']:.1f} s (runner and target), wall {row['wall']:.1f} s, peak {row['peak_mb']:.0f} MB"
    )


def main(argv: list[str]) -> int:
    """Print Markdown tables of times, ratios to the reference and peak memory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[1, 10, 100])
    parser.add_argument("--refs", nargs="+", type=int, default=[1, 4])
    parser.add_argument("--tools", nargs="+", default=list(IN_PROCESS), choices=IN_PROCESS)
    parser.add_argument("--repeat", type=int, default=5, help="runs per in-process measurement (median)")
    parser.add_argument("--million", action="store_true")
    parser.add_argument("--sentence", action="store_true", help="table 4: per-row sentence scores")
    parser.add_argument("--fallback", action="store_true", help="NUM-SENTENCE's fallback rate on WMT17")
    parser.add_argument("--sentence-tools", nargs="+", default=list(SENTENCE), choices=SENTENCE)
    parser.add_argument("--conform", action="store_true")
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--watch", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.watch:
        print(json.dumps(watch(args.watch)))
        return 0
    if args.one:
        kind, tool, repeat, *paths = args.one
        result: dict[str, Any] = in_process(tool, paths, int(repeat), sentence=kind == "sentence")
        result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(result))
        return 0
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"WMT17 en-de ({len(read(WMT17 / 'ref.de'))} segments a copy)"
    )
    if args.sizes:
        table_in_process(args.sizes, args.refs, args.tools, args.repeat)
        table_whole(lambda line: print(line, flush=True))
    if args.sentence:
        table_sentence(args.refs, args.sentence_tools, args.repeat)
    if args.fallback:
        table_fallback()
    if args.million:
        table_million()
    if args.conform:
        table_conform()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
