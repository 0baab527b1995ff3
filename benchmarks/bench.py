"""Time the reference against sacrebleu, nltk and bleuscore on the same real test set, side by side.

Usage (from the project root, ../shared/data beside it; peers from ``pip install -e '.[peers]'``)::

    python benchmarks/bench.py                 # sizes 1x, 10x, 100x of WMT17 en-de (3,004 segments)
    python benchmarks/bench.py --sizes 1 10    # a quicker run
    python benchmarks/bench.py --million       # also: `reference-bleu score` on 1,000,000 lines

Each measurement runs in a fresh process, which reports its wall time and its peak resident
memory (``ru_maxrss``). Every tool gets the same detokenized lines, written to files first,
and computes corpus BLEU (no smoothing): ``reference`` streams them from the files and
tokenizes with its 13a, as ``reference-bleu score -tok 13a`` does (``reference-j2``: on two
processes); sacrebleu and bleuscore get the lines as lists and tokenize with their own 13a;
nltk, which has no 13a, gets the reference's 13a tokens, and so does ``reference-tokens`` (the
API on tokens): tokenizing is not in their time. The corpora 10x and 100x larger repeat the
WMT17 lines, which flatters sacrebleu: its tokenizers memoize lines (``lru_cache`` of 2^16
entries), so a repeated line is tokenized once. "refs" is the number of references
per segment: the reference translation, plus other systems' outputs as extra references.
Nothing here is asserted: the numbers are reported (spec: performance is measured).
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
WMT17 = ROOT.parent / "shared" / "data" / "wmt17-en-de"
TOOLS = ("reference", "reference-j2", "reference-tokens", "sacrebleu", "bleuscore", "nltk")


def read(path: Path) -> list[str]:
    """Lines of ``path`` split at "\\n" only."""
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def write_corpus(folder: Path, size: int, refs: int) -> list[Path]:
    """WMT17 en-de repeated ``size`` times, written as files: the hypotheses, then ``refs`` references."""
    systems = sorted(WMT17.glob("hyp.*.de"))
    paths = []
    for k, source in enumerate([systems[0], WMT17 / "ref.de", *systems[1:refs]]):
        path = folder / f"f{k}"
        with path.open("w", encoding="utf-8") as out:
            for _ in range(size):
                out.writelines(line + "\n" for line in read(source))
        paths.append(path)
    return paths


def run_tool(tool: str, paths: list[Path]) -> dict[str, float]:
    """Score once with ``tool``; returns seconds and the score (this runs in a child process)."""
    if tool.startswith("reference") and tool != "reference-tokens":  # streamed from the files
        start = time.perf_counter()
        score = _reference([str(p) for p in paths], jobs=2 if tool.endswith("j2") else 1)
        return {"seconds": time.perf_counter() - start, "score": score}
    hyps, *streams = (read(p) for p in paths)  # the peers take lists of lines: loading is not timed
    if tool == "nltk":  # nltk has no 13a: give it the reference's tokens, outside its time
        from nltk.translate.bleu_score import corpus_bleu  # noqa: PLC0415

        from reference_bleu.tokenizers import tokenize_line  # noqa: PLC0415

        tok_hyps = [tokenize_line(h, "13a") for h in hyps]
        tok_refs = [[tokenize_line(r, "13a") for r in rs] for rs in zip(*streams, strict=True)]
        start = time.perf_counter()
        score = cast(float, corpus_bleu(tok_refs, tok_hyps))  # one weight vector: one float
    elif tool == "sacrebleu":
        from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

        start = time.perf_counter()
        score = BLEU(tokenize="13a", smooth_method="none", force=True).corpus_score(hyps, streams).score / 100
    elif tool == "bleuscore":
        import bleuscore  # noqa: PLC0415

        start = time.perf_counter()
        per_segment = [list(r) for r in zip(*streams, strict=True)]
        score = cast(float, bleuscore.compute(per_segment, hyps, 4, False)["bleu"])
    else:  # reference-tokens: the API on the same tokens nltk gets
        from reference_bleu import corpus_bleu  # noqa: PLC0415
        from reference_bleu.tokenizers import tokenize_line  # noqa: PLC0415

        tok_hyps = [tokenize_line(h, "13a") for h in hyps]
        tok_refs = [[tokenize_line(r, "13a") for r in rs] for rs in zip(*streams, strict=True)]
        start = time.perf_counter()
        score = corpus_bleu(tok_hyps, tok_refs).score
    return {"seconds": time.perf_counter() - start, "score": float(score)}


def _reference(paths: list[str], jobs: int) -> float:
    from reference_bleu.api import score_segments  # noqa: PLC0415
    from reference_bleu.files import Counting, file_statistics  # noqa: PLC0415
    from reference_bleu.options import make_options  # noqa: PLC0415

    segments, _ = file_statistics(paths[0], paths[1:], Counting(4, "closest", "13a"), jobs=jobs)
    return score_segments(segments, make_options()).score


def measure(tool: str, paths: list[Path]) -> dict[str, float]:
    """Run one measurement in a fresh process; add its peak memory in MB."""
    out = subprocess.run(  # noqa: S603 -- our own interpreter and script, no shell
        [sys.executable, __file__, "--one", tool, *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def million() -> dict[str, float]:
    """Peak memory and time of ``reference-bleu score`` (streamed) on a generated 1,000,000-line set.

    Runs in a fresh process (``--one million``), so the peak is of this command alone.
    """
    lines = read(WMT17 / "ref.de")
    hyp_lines = read(sorted(WMT17.glob("hyp.*.de"))[0])
    with tempfile.TemporaryDirectory() as folder:
        hyp, ref = Path(folder) / "hyp", Path(folder) / "ref"
        with hyp.open("w", encoding="utf-8") as h, ref.open("w", encoding="utf-8") as r:
            for k in range(1_000_000):
                h.write(hyp_lines[k % len(hyp_lines)] + "\n")
                r.write(lines[k % len(lines)] + "\n")
        start = time.perf_counter()
        command = [
            sys.executable,
            "-m",
            "reference_bleu",
            "score",
            "-q",
            "-tok",
            "13a",
            "-i",
            str(hyp),
            "-r",
            str(ref),
        ]
        subprocess.run(command, check=True, capture_output=True)  # noqa: S603
        seconds = time.perf_counter() - start
    return {"seconds": seconds, "score": 0.0}


def main(argv: list[str]) -> int:
    """Print a Markdown table of times, ratios to the reference and peak memory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[1, 10, 100])
    parser.add_argument("--refs", nargs="+", type=int, default=[1, 4])
    parser.add_argument("--tools", nargs="+", default=list(TOOLS), choices=TOOLS)
    parser.add_argument("--million", action="store_true")
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        tool, *paths = args.one
        result = million() if tool == "million" else run_tool(tool, [Path(p) for p in paths])
        result["peak_mb"] = max(
            resource.getrusage(who).ru_maxrss / 1024
            for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        )
        print(json.dumps(result))
        return 0
    segments = len(read(WMT17 / "ref.de"))
    print(f"Python {platform.python_version()} on {platform.machine()}, WMT17 en-de ({segments} segments)\n")
    print("| segments | refs | tool | seconds | time / reference | peak MB | BLEU |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    for size in args.sizes:
        for refs in args.refs:
            with tempfile.TemporaryDirectory() as folder:
                paths = write_corpus(Path(folder), size, refs)
                rows = {tool: measure(tool, paths) for tool in args.tools}
            base = rows.get("reference", next(iter(rows.values())))["seconds"]
            for tool, row in rows.items():
                print(
                    f"| {segments * size:,} | {refs} | {tool} | {row['seconds']:.2f} "
                    f"| {row['seconds'] / base:.2f} "
                    f"| {row['peak_mb']:.0f} | {100 * row['score']:.4f} |",
                    flush=True,
                )
    if args.million:
        row = measure("million", [])
        print(f"\n1,000,000 lines, 13a, streamed: {row['seconds']:.1f} s, peak {row['peak_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
