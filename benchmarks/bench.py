"""Time the reference beside its peers and a C floor, side by side in one run (benchmarks/README.md).

Usage (from the project root; data: the shipped conformance/data/wmt17-en-de; peers from
``pip install -e '.[test,zoo]'``)::

    python benchmarks/bench.py                        # in process and whole process, 3 rounds
    python benchmarks/bench.py --sizes 1 --refs 1     # the smallest run (CI)
    python benchmarks/bench.py --rounds 5 --startup --sentence --tokenizers --significance \\
        --identify --million                          # every table of benchmarks/README.md

Every measure is one fresh process doing one thing once: a *first* scoring (no string hash
cached by an earlier scoring of the same token lists, no memo warm), its CPU (user + system,
``RUSAGE_CHILDREN`` of a watcher, so children count) or, in process, ``time.process_time`` around
the one call, its wall time and peak memory. The tools of a table are interleaved round by round
(round 1: each tool once; round 2: each tool once; ...), so that the machine's load changes every
tool alike; each figure is the median of the rounds with its spread (min-max). The date and the
load average are printed with each table: the machine has 2 cores and is often busy, CPU time is
the steadier figure, and a ratio of two tools in the same run is steadier than either time.

Tables: in-process corpus scoring of pre-tokenized WMT17 (the reference's API on tokens;
sacrebleu with ``tokenize='none'`` on the tokens joined; nltk on tokens; bleuscore (Rust) on the
joined tokens, its own 13a included; fast-bleu (C++), whose only mode is a sentence score of each
hypothesis against the pooled references, timed for what it does); whole process with 13a from
files, 1 and 16 systems; ``--startup`` (a one-line file); ``--sentence`` (each row scored alone:
the batch ``sentence_scores``, one ``sentence_bleu`` call per row, sacrebleu's ``sentence_score``
per row); ``--tokenizers`` (each tokenizer's ``line_tokenizer`` over every WMT17 line, with and
without the compiled kernel, and ``score -tok`` of 16 systems); ``--significance`` (``-par`` and
``-pbs`` on 4 systems against sacrebleu, their printed bytes compared); ``--identify``;
``--million`` (1,000,000 streamed 13a lines: the C floor ``floor.c``, compiled here, the
reference with ``--jobs 1`` and ``2``, sacrebleu; the floor's statistics compared with the
reference's); ``--conform``; ``--fallback`` (NUM-SENTENCE's exact-path rate). Nothing here is
asserted: the numbers are reported. The project's modules are byte-compiled first, as an
installed package's are (an editable install under PYTHONDONTWRITEBYTECODE=1 has no ``.pyc``).
"""

from __future__ import annotations

import argparse
import compileall
import datetime
import importlib.util
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from functools import partial
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
#: Per-row sentence scoring: the reference's batch path with and without the kernel, one
#: ``sentence_bleu`` call per row (its ``score``; ``score_decimal`` left uncomputed), and the peers'.
SENTENCE = ("reference", "reference-python", "reference-row", "sacrebleu", "bleuscore", "nltk")
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
#: The systems of the significance table (sacrebleu's -par and -pbs compare them with the first).
SIGNIFICANCE_SYSTEMS = 4

Result = dict[str, Any]


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


def now() -> str:
    """The date, time and load average, for a table's heading."""
    one, five, _ = os.getloadavg()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"{stamp}, load average {one:.1f} (5 min: {five:.1f}) on {os.cpu_count()} CPUs"


def spread(values: list[float], digits: int = 3) -> str:
    """The median and the range of the rounds: ``median (min-max)``."""
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b > 0 else "-"


def interleaved(measures: Mapping[str, Callable[[], Result]], rounds: int) -> dict[str, list[Result]]:
    """Each measure once per round, every measure in turn, ``rounds`` times."""
    results: dict[str, list[Result]] = {label: [] for label in measures}
    for _ in range(rounds):
        for label, run in measures.items():
            results[label].append(run())
    return results


def medians(rows: list[Result], key: str) -> float:
    return float(statistics.median(row[key] for row in rows))


# --- one process, one thing: the children ---------------------------------------------------------


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
    nltk with its method 3 (the same NIST smoothing, without effective order); bleuscore at its one
    point (add-one smoothing), timed for what it does. Peers take joined tokens where they take text.
    """
    joined_hyps = [" ".join(h) for h in hyps]
    joined_refs = [[" ".join(r) for r in rs] for rs in refs]
    if tool in ("reference", "reference-python"):
        from reference_bleu import sentence_scores  # noqa: PLC0415

        return lambda: statistics.fmean(sentence_scores(hyps, refs, smoothing="exp", effective_order=True))
    if tool == "reference-row":
        from reference_bleu import sentence_bleu  # noqa: PLC0415

        def rows() -> Iterator[BleuResult]:
            return (
                sentence_bleu(h, r, smoothing="exp", effective_order=True)
                for h, r in zip(hyps, refs, strict=True)
            )

        return lambda: statistics.fmean(result.score for result in rows())
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
    from nltk.translate.bleu_score import SmoothingFunction  # noqa: PLC0415
    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu  # noqa: PLC0415

    method3 = SmoothingFunction().method3
    return lambda: statistics.fmean(
        nltk_sentence_bleu(r, h, smoothing_function=method3) for h, r in zip(hyps, refs, strict=True)
    )


def one_scoring(kind: str, tool: str, paths: list[str]) -> Result:
    """In this fresh process: the corpus read and tokenized (not timed), then one first scoring, timed."""
    from reference_bleu.text.tokenizers import tokenize_line  # noqa: PLC0415

    hyps, *streams = ([tokenize_line(line, "13a") for line in read(Path(p))] for p in paths)
    refs = [list(rs) for rs in zip(*streams, strict=True)]
    run = (sentence_scorer if kind == "sentence" else scorer)(tool, hyps, refs)
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    score = run()
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    return {"cpu": cpu, "wall": wall, "score": score, "rows": len(hyps)}


def one_tokenizing(name: str) -> Result:
    """In this fresh process: every WMT17 line (16 systems and the reference) through ``line_tokenizer``
    once, timed (the lines read first, not timed)."""
    from reference_bleu.text.tokenizers import line_tokenizer  # noqa: PLC0415

    lines = [line for path in [WMT17 / "ref.de", *systems()] for line in read(path)]
    tokens = line_tokenizer(name)
    start = time.process_time()
    count = sum(len(tokens(line)) for line in lines)
    return {"cpu": time.process_time() - start, "rows": len(lines), "tokens": count}


def child(arguments: list[str], pure_python: bool = False) -> Result:
    """Run this script with ``--one ARGUMENTS`` in a fresh process; its JSON line, with its peak memory.
    ``pure_python``: with REFERENCE_BLEU_PURE_PYTHON=1 (no compiled kernel)."""
    env = dict(os.environ)
    if pure_python:
        env["REFERENCE_BLEU_PURE_PYTHON"] = "1"
    out = subprocess.run(  # noqa: S603 -- our own interpreter and script, no shell
        [sys.executable, __file__, "--one", *arguments], capture_output=True, text=True, check=True, env=env
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def whole(command: list[str], env: dict[str, str] | None = None) -> Result:
    """CPU (user + system), wall seconds, peak MB and standard output of one command, run under a fresh
    watcher process, which waits for the command alone: its children's peak memory is the command's."""
    out = subprocess.run(  # noqa: S603 -- our own interpreter and script, no shell
        [sys.executable, __file__, "--watch", *command],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def watch(command: list[str]) -> Result:
    """Run ``command`` to completion: its CPU (children included), wall, peak MB, exit code, output."""
    start = time.perf_counter()
    done = subprocess.run(command, check=False, capture_output=True)  # noqa: S603 -- our commands
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "cpu": usage.ru_utime + usage.ru_stime,
        "wall": wall,
        "peak_mb": usage.ru_maxrss / 1024,
        "exit": done.returncode,
        "stdout": done.stdout.decode("utf-8", "replace")[-100_000:],
    }


def tool_command(name: str) -> list[str]:
    """The console script ``name`` of this interpreter's environment."""
    return [str(Path(sys.executable).parent / name)]


# --- the tables -------------------------------------------------------------------------------------


def table_in_process(sizes: list[int], refs_list: list[int], tools: list[str], rounds: int) -> None:
    segments = len(read(WMT17 / "ref.de"))
    print(f"\n## In-process scoring of pre-tokenized input: a first scoring, {rounds} rounds ({now()})\n")
    print("| segments | refs | tool | CPU s, median (range) | wall s | CPU / reference | peak MB | BLEU |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|")
    for size in sizes:
        for refs in refs_list:
            with tempfile.TemporaryDirectory() as folder:
                paths = [str(p) for p in write_corpus(Path(folder), size, refs)]
                chosen = [t for t in tools if installed(t) and (t != "fast-bleu" or size <= FAST_BLEU_MAX)]
                measures = {t: partial(child, ["corpus", t, *paths], t in PURE_PYTHON) for t in chosen}
                results = interleaved(measures, rounds)
            base = medians(results["reference"], "cpu")
            for tool, rows in results.items():
                cpu = [r["cpu"] for r in rows]
                print(
                    f"| {segments * size:,} | {refs} | {tool} | {spread(cpu)} | {medians(rows, 'wall'):.3f} "
                    f"| {ratio(statistics.median(cpu), base)} | {medians(rows, 'peak_mb'):.0f} "
                    f"| {100 * rows[-1]['score']:.4f} |",
                    flush=True,
                )
    missing = [t for t in tools if not installed(t)]
    if missing:
        print(f"\nNot installed here (not measured): {', '.join(missing)}.")


Measures = dict[str, Callable[[], Result]]


def whole_table(title: str, measures: Measures, rounds: int, base: str = "") -> dict[str, list[Result]]:
    """A table of whole processes: CPU median (range), wall, peak memory, CPU / ``base``."""
    print(f"\n## {title}, {rounds} rounds ({now()})\n")
    print(f"| measure | CPU s, median (range) | wall s | peak MB | CPU / {base or '-'} |")
    print("|---|---:|---:|---:|---:|")
    results = interleaved(measures, rounds)
    reference = medians(results[base], "cpu") if base in results else 0.0
    for label, rows in results.items():
        cpu = [r["cpu"] for r in rows]
        failed = " (failed)" if any(r.get("exit") for r in rows) else ""
        wall, peak = medians(rows, "wall"), medians(rows, "peak_mb")
        print(
            f"| {label}{failed} | {spread(cpu, 2)} | {wall:.2f} | {peak:.0f} "
            f"| {ratio(statistics.median(cpu), reference)} |",
            flush=True,
        )
    return results


def reference_bleu(*arguments: str) -> list[str]:
    """The ``reference-bleu`` command line with ``arguments``."""
    return [*tool_command("reference-bleu"), *arguments]


def table_whole(rounds: int) -> None:
    found = [str(p) for p in systems()]
    ref = str(WMT17 / "ref.de")
    for label, hyps in (("1 system", found[:1]), (f"{len(found)} systems, one call", found)):
        measures: Measures = {
            "reference": partial(whole, reference_bleu("score", "-tok", "13a", "-r", ref, "-i", *hyps)),
            "sacrebleu": partial(whole, [*tool_command("sacrebleu"), ref, "-i", *hyps, "-tok", "13a", "-b"]),
        }
        whole_table(f"Whole process, 13a from files, {label}", measures, rounds, "sacrebleu")


def table_startup(rounds: int) -> None:
    """Start-up: a one-line file scored by each command line, and the interpreter alone."""
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "one.txt"
        one.write_text("The cat sat on the mat.\n", encoding="utf-8")
        line = str(one)
        measures: Measures = {
            "reference-bleu score": partial(whole, reference_bleu("score", "-r", line, "-i", line)),
            "reference-bleu score --profile sacrebleu": partial(
                whole, reference_bleu("score", "--profile", "sacrebleu", "-r", line, "-i", line)
            ),
            "sacrebleu": partial(whole, [*tool_command("sacrebleu"), line, "-i", line]),
            "python -c pass": partial(whole, [sys.executable, "-c", "pass"]),
        }
        whole_table("Start-up: a one-line file", measures, rounds, "sacrebleu")


def table_sentence(refs_list: list[int], tools: list[str], rounds: int) -> None:
    """Every WMT17 segment of one system scored alone, a first pass per process, side by side."""
    segments = len(read(WMT17 / "ref.de"))
    print(f"\n## Sentence level: each of {segments:,} rows scored alone, {rounds} rounds ({now()})\n")
    print("| refs | tool | µs / row (CPU), median (range) | CPU / sacrebleu | mean score |")
    print("|---:|---|---:|---:|---:|")
    for refs in refs_list:
        with tempfile.TemporaryDirectory() as folder:
            paths = [str(p) for p in write_corpus(Path(folder), 1, refs)]
            chosen = [t for t in tools if installed(t)]
            measures = {t: partial(child, ["sentence", t, *paths], t in PURE_PYTHON) for t in chosen}
            results = interleaved(measures, rounds)
        base = medians(results["sacrebleu"], "cpu") if "sacrebleu" in results else 0.0
        for tool, rows in results.items():
            per_row = [1e6 * r["cpu"] / segments for r in rows]
            print(
                f"| {refs} | {tool} | {spread(per_row, 1)} | {ratio(medians(rows, 'cpu'), base)} "
                f"| {100 * rows[-1]['score']:.4f} |",
                flush=True,
            )


#: The tokenizers compared with and without the kernel.
TOKENIZER_NAMES = ("13a", "intl", "zh", "char", "none")


def table_tokenizers(rounds: int) -> None:
    """Each tokenizer in process with and without the kernel, then whole-process scoring with it."""
    measures: Measures = {}
    for name in TOKENIZER_NAMES:
        measures[f"{name}, kernel"] = partial(child, ["tokens", name])
        measures[f"{name}, pure Python"] = partial(child, ["tokens", name], True)
    lines = sum(len(read(path)) for path in [WMT17 / "ref.de", *systems()])
    heading = f"Tokenizers: every WMT17 line ({lines:,}) through line_tokenizer once, {rounds} rounds"
    print(f"\n## {heading} ({now()})\n")
    print("| tokenizer | µs / line (CPU), median (range) | pure Python / kernel |")
    print("|---|---:|---:|")
    results = interleaved(measures, rounds)
    for name in TOKENIZER_NAMES:
        kernel, python = results[f"{name}, kernel"], results[f"{name}, pure Python"]
        for label, rows in ((f"{name}, kernel", kernel), (f"{name}, pure Python", python)):
            per_line = [1e6 * r["cpu"] / r["rows"] for r in rows]
            shown = ratio(medians(python, "cpu"), medians(kernel, "cpu")) if rows is kernel else ""
            print(f"| {label} | {spread(per_line, 2)} | {shown} |", flush=True)
    found = [str(p) for p in systems()]
    ref = str(WMT17 / "ref.de")
    scoring: Measures = {}
    for name in TOKENIZER_NAMES:
        command = reference_bleu("score", "-q", "-b", "-tok", name, "-r", ref, "-i", *found)
        scoring[f"score -tok {name}, kernel"] = partial(whole, command)
        scoring[f"score -tok {name}, pure Python"] = partial(
            whole, command, {"REFERENCE_BLEU_PURE_PYTHON": "1"}
        )
    whole_table("Whole process with each tokenizer, 16 systems", scoring, rounds, "score -tok 13a, kernel")


def table_significance(rounds: int) -> None:
    """sacrebleu's paired tests on 4 WMT17 systems: the reference against sacrebleu, the same bytes."""
    found = [str(p) for p in systems()[:SIGNIFICANCE_SYSTEMS]]
    ref = str(WMT17 / "ref.de")
    measures: Measures = {}
    for flag in ("-par", "-pbs"):
        ours = reference_bleu("score", "--profile", "sacrebleu", "-q", "-r", ref, "-i", *found, flag)
        measures[f"reference {flag}"] = partial(whole, ours)
        theirs = [*tool_command("sacrebleu"), ref, "-i", *found, "-q", flag]
        measures[f"sacrebleu {flag}"] = partial(whole, theirs, {"SACREBLEU_SEED": "12345"})
    results = whole_table(
        f"Paired significance tests, {SIGNIFICANCE_SYSTEMS} WMT17 systems", measures, rounds
    )
    for flag in ("-par", "-pbs"):
        ours_rows, theirs_rows = results[f"reference {flag}"], results[f"sacrebleu {flag}"]
        same = all(a["stdout"] == b["stdout"] for a, b in zip(ours_rows, theirs_rows, strict=True))
        cpu = ratio(medians(ours_rows, "cpu"), medians(theirs_rows, "cpu"))
        print(
            f"\n{flag}: reference / sacrebleu CPU {cpu}; printed bytes {'the same' if same else 'DIFFERENT'}"
        )


def table_identify(rounds: int) -> None:
    """``identify`` of mteval-v13a.pl's number for uedin-nmt at its default budget, a whole process."""
    hyp, ref = str(WMT17 / "hyp.uedin-nmt.4722.de"), str(WMT17 / "ref.de")
    command = reference_bleu("identify", "-r", ref, "-i", hyp, "--reported", "0.2892")
    measures: Measures = {"reference-bleu identify": partial(whole, command)}
    whole_table("identify 0.2892 on uedin-nmt, default budget", measures, rounds)


def million_lines(folder: Path) -> tuple[str, str]:
    """1,000,000 lines of hypotheses and references, WMT17 repeated, written to ``folder``."""
    ref_lines, hyp_lines = read(WMT17 / "ref.de"), read(systems()[0])
    hyp, ref = folder / "hyp", folder / "ref"
    with hyp.open("w", encoding="utf-8") as h, ref.open("w", encoding="utf-8") as r:
        for k in range(1_000_000):
            h.write(hyp_lines[k % len(hyp_lines)] + "\n")
            r.write(ref_lines[k % len(ref_lines)] + "\n")
    return str(hyp), str(ref)


def compile_floor(folder: Path) -> str | None:
    """benchmarks/floor.c compiled with the platform's compiler at -O2; ``None`` without one."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    target = folder / "floor"
    source = str(ROOT / "benchmarks" / "floor.c")
    done = subprocess.run([compiler, "-O2", "-o", str(target), source], check=False, capture_output=True)  # noqa: S603
    return str(target) if done.returncode == 0 else None


FLOOR = "C floor (benchmarks/floor.c, cc -O2)"


def table_million(rounds: int, sacrebleu: bool) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        hyp, ref = million_lines(folder)
        floor = compile_floor(folder)
        measures: Measures = {}
        if floor is not None:
            measures[FLOOR] = partial(whole, [floor, hyp, ref])
        for jobs in (1, 2):
            command = reference_bleu(
                "score", "--json", "-q", "-tok", "13a", "--jobs", str(jobs), "-r", ref, "-i", hyp
            )
            measures[f"reference --jobs {jobs}"] = partial(whole, command)
        if sacrebleu:
            measures["sacrebleu"] = partial(
                whole, [*tool_command("sacrebleu"), ref, "-i", hyp, "-tok", "13a", "-b"]
            )
        base = FLOOR if floor is not None else "reference --jobs 1"
        results = whole_table("1,000,000 streamed lines, 13a, 1 reference", measures, rounds, base)
        if floor is not None:
            system = json.loads(results["reference --jobs 1"][-1]["stdout"])["systems"][0]
            ours = [*system["matches"], *system["totals"], system["hyp_len"], system["ref_len"]]
            theirs = [int(word) for word in results[FLOOR][-1]["stdout"].split() if word.isdigit()]
            verdict = "equal" if ours == theirs else "DIFFER FROM"
            print(f"\nThe floor's statistics {verdict} the reference's: {theirs}")


def table_conform(rounds: int) -> None:
    command = reference_bleu("conform", "--target", "sacrebleu", "--quiet")
    whole_table(
        "`reference-bleu conform --target sacrebleu` (default budget)",
        {"conform": partial(whole, command)},
        rounds,
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


def byte_compiled() -> None:
    """The project's modules compiled to bytecode first, as ``pip install`` does for an installed
    package: an editable install under PYTHONDONTWRITEBYTECODE=1 writes no ``.pyc``, and each
    whole-process measure would then pay compiling every module (about 0.1 s a command here),
    which the peers, installed from wheels, do not."""
    for package in ("reference_bleu", "conformance"):
        compileall.compile_dir(ROOT / package, quiet=1)


def main(argv: list[str]) -> int:
    """Print Markdown tables of times, ratios and peak memory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[1, 10])
    parser.add_argument("--refs", nargs="+", type=int, default=[1, 4])
    parser.add_argument("--tools", nargs="+", default=list(IN_PROCESS), choices=IN_PROCESS)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every measure (median, range)")
    parser.add_argument("--startup", action="store_true")
    parser.add_argument("--sentence", action="store_true", help="per-row sentence scores")
    parser.add_argument("--sentence-tools", nargs="+", default=list(SENTENCE), choices=SENTENCE)
    parser.add_argument("--tokenizers", action="store_true")
    parser.add_argument("--significance", action="store_true")
    parser.add_argument("--identify", action="store_true")
    parser.add_argument("--million", action="store_true")
    parser.add_argument("--million-sacrebleu", action="store_true", help="sacrebleu on the million lines too")
    parser.add_argument("--conform", action="store_true")
    parser.add_argument("--fallback", action="store_true", help="NUM-SENTENCE's fallback rate on WMT17")
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--watch", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.watch:
        print(json.dumps(watch(args.watch)))
        return 0
    if args.one:
        kind, tool, *paths = args.one
        result = one_tokenizing(tool) if kind == "tokens" else one_scoring(kind, tool, paths)
        result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(result))
        return 0
    byte_compiled()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"WMT17 en-de ({len(read(WMT17 / 'ref.de'))} segments a copy); {now()}"
    )
    if args.sizes:
        table_in_process(args.sizes, args.refs, args.tools, args.rounds)
        table_whole(args.rounds)
    if args.startup:
        table_startup(args.rounds)
    if args.sentence:
        table_sentence(args.refs, args.sentence_tools, args.rounds)
    if args.tokenizers:
        table_tokenizers(args.rounds)
    if args.significance:
        table_significance(args.rounds)
    if args.identify:
        table_identify(args.rounds)
    if args.million:
        table_million(args.rounds, args.million_sacrebleu)
    if args.conform:
        table_conform(args.rounds)
    if args.fallback:
        table_fallback()
    print(f"\nEnd: {now()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
