"""Time exact BLEU over processes: ``reference-bleu score --jobs 2`` beside Dask, torch.distributed, Spark.

Usage (from the project root; extras ``dask``, ``torchmetrics``, ``spark`` for the engines)::

    python benchmarks/engines.py                  # 100,000 pairs (WMT17 lines repeated)
    python benchmarks/engines.py --pairs 1000000  # the 1M-pair run of benchmarks/README.md

Every engine scores the same N (hypothesis, reference) pairs of text with 13a in a fresh
process, reading the same files, on 2 workers: the CLI with ``--jobs 2``; Dask on a
``LocalCluster`` of 2 worker processes (one thread each), the frame built from the lines in the
client and sent to them (8 partitions), grouped by nothing; torch.distributed
with 2 gloo processes each counting half the lines and one int64 all-reduce; Spark in
``local[2]``. Wall seconds, CPU seconds of the process and every descendant it waited for
(``RUSAGE_CHILDREN``: user + system), and the peak resident memory of the largest single process
the engine's driver waited for (``ru_maxrss``), engine start-up included. Spark's JVM outlives
its Python driver, so neither its CPU nor its memory is counted: Spark's figures are lower
bounds. Each engine prints its statistics; the table says
whether they equal the CLI's. Nothing is asserted: the numbers are reported.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from conformance.data import WMT17, read_lines

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ("cli", "dask", "torch", "spark")
NEEDS = {"dask": "distributed", "torch": "torch", "spark": "pyspark"}


def write_pairs(folder: Path, pairs: int) -> tuple[Path, Path]:
    """N pairs: the 16 WMT17 systems' lines against the reference, repeated as needed.

    Written line by line: this process stays small, so the peak memory the engines' children
    report is theirs (Linux keeps a process's peak across exec: a child started from a large
    parent reported the parent's peak, 709 MB for the CLI at 1M pairs before this was streamed).
    """
    refs = read_lines(WMT17, "ref.de")
    hyp, ref = folder / "hyp.txt", folder / "ref.txt"
    written = 0
    with hyp.open("w", encoding="utf-8") as h, ref.open("w", encoding="utf-8") as r:
        while written < pairs:
            for name in WMT17.systems:
                for line, reference in zip(read_lines(WMT17, name), refs, strict=True):
                    if written == pairs:
                        return hyp, ref
                    h.write(line + "\n")
                    r.write(reference + "\n")
                    written += 1
    return hyp, ref


def lines(path: str) -> list[str]:
    text = Path(path).read_text(encoding="utf-8")
    return text[:-1].split("\n")


def run_cli(hyp: str, ref: str) -> dict[str, Any]:
    from reference_bleu.cli.main import main  # noqa: PLC0415

    out = Path(tempfile.mkdtemp()) / "out.json"
    with out.open("w", encoding="utf-8") as stream:
        saved, sys.stdout = sys.stdout, stream
        try:
            main(["score", "--json", "-q", "--jobs", "2", "-tok", "13a", "-r", ref, "-i", hyp])
        finally:
            sys.stdout = saved
    system = json.loads(out.read_text(encoding="utf-8"))["systems"][0]
    return {"matches": system["matches"], "totals": system["totals"], "score": system["score_decimal"]}


def summary(result: Any) -> dict[str, Any]:
    return {
        "matches": list(result.matches),
        "totals": list(result.totals),
        "score": str(result.score_decimal),
    }


def run_dask(hyp: str, ref: str) -> dict[str, Any]:
    dd: Any = importlib.import_module("dask.dataframe")
    pd: Any = importlib.import_module("pandas")
    distributed: Any = importlib.import_module("distributed")
    from reference_bleu.integrations.dask import corpus_bleu  # noqa: PLC0415

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as c,
        distributed.Client(c),
    ):
        frame = dd.from_pandas(pd.DataFrame({"hyp": lines(hyp), "ref": lines(ref)}), npartitions=8)
        return summary(corpus_bleu(frame, "hyp", "ref", tokenize="13a"))


def _torch_rank(rank: int, port: int, hyp: str, ref: str, out: str) -> None:
    dist: Any = importlib.import_module("torch.distributed")
    from reference_bleu.integrations.torch import distributed_bleu  # noqa: PLC0415

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=2)
    try:
        hyps, refs = lines(hyp), lines(ref)
        half = (len(hyps) + 1) // 2
        share = slice(rank * half, (rank + 1) * half)
        result = distributed_bleu(hyps[share], refs[share], tokenize="13a")
        if rank == 0:
            Path(out).write_text(json.dumps(summary(result)), encoding="utf-8")
    finally:
        dist.destroy_process_group()


def run_torch(hyp: str, ref: str) -> dict[str, Any]:
    mp: Any = importlib.import_module("torch.multiprocessing")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    out = Path(tempfile.mkdtemp()) / "rank0.json"
    mp.spawn(_torch_rank, args=(port, hyp, ref, str(out)), nprocs=2, join=True)
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def run_spark(hyp: str, ref: str) -> dict[str, Any]:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the executors import reference_bleu
    sql: Any = importlib.import_module("pyspark.sql")
    from reference_bleu.integrations.spark import corpus_bleu  # noqa: PLC0415

    spark = sql.SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
    try:
        frame = spark.createDataFrame(list(zip(lines(hyp), lines(ref), strict=True)), ["hyp", "ref"])
        return summary(corpus_bleu(frame, "hyp", "ref", tokenize="13a"))
    finally:
        spark.stop()


def one(engine: str, hyp: str, ref: str) -> None:
    """Run one engine in this process; print its figures as JSON (the parent's child)."""
    start = time.perf_counter()
    result = {"cli": run_cli, "dask": run_dask, "torch": run_torch, "spark": run_spark}[engine](hyp, ref)
    wall = time.perf_counter() - start
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(json.dumps({"wall": wall, "peak_mb": peak / 1024, **result}))


def measured(engine: str, hyp: Path, ref: Path) -> dict[str, Any]:
    """One engine in a fresh child: its printed figures, CPU of it and its descendants, peak memory."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(  # noqa: S603 -- this very script
        [sys.executable, __file__, "--one", engine, str(hyp), str(ref)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    figures["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES)
    parser.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        one(*args.one)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        hyp, ref = write_pairs(Path(folder), args.pairs)
        print(f"{args.pairs:,} pairs of WMT17 en-de text, 13a, on {os.cpu_count()} CPUs; 2 workers each\n")
        print("| engine | wall s | CPU s | peak MB (largest process) | statistics = CLI's | BLEU |")
        print("|---|---:|---:|---:|---|---:|")
        baseline: dict[str, Any] | None = None
        for engine in args.engines:
            if engine in NEEDS and importlib.util.find_spec(NEEDS[engine]) is None:
                print(f"| {engine} | not installed | | | | |")
                continue
            figures = measured(engine, hyp, ref)
            if "error" in figures:
                print(f"| {engine} | failed: {figures['error'][:80]} | | | | |")
                continue
            baseline = baseline or figures
            same = all(figures[k] == baseline[k] for k in ("matches", "totals", "score"))
            score = float(figures["score"]) * 100
            row = f"| {engine} | {figures['wall']:.1f} | {figures['cpu']:.1f} | {figures['peak_mb']:.0f} |"
            print(f"{row} {'yes' if same else 'NO'} | {score:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
