"""Time exact BLEU over processes: each engine beside ``reference-bleu score --jobs``, in one run.

Usage (from the project root; the extras ``dask``, ``torchmetrics``, ``spark``, ``ray``,
``beam`` and ``datasets`` for the engines; an absent one is reported, not run)::

    python benchmarks/engines.py                    # 100,000 pairs (WMT17 lines repeated)
    python benchmarks/engines.py --pairs 1000000    # the 1M-pair run of benchmarks/README.md

Every engine scores the same N (hypothesis, reference) pairs of text with 13a on 2 workers,
in a fresh process, reading the same files as each engine's users read them: the CLI from its
two text files (``--jobs 1`` and ``--jobs 2``); ``multiprocessing`` (2 processes, each streaming
every other pair from the text files into a partial); the guide's ``datasets.map`` recipe
(``num_proc=2`` over ``Dataset.from_json``); Dask (``read_json`` in 16 MB blocks on a
``LocalCluster`` of 2 worker processes); torch.distributed (2 gloo processes, each streaming
half the pairs, one int64 all-reduce); Spark in ``local[2]`` and through a Spark Connect server
started for the run (``read.json``); Ray Data (``read_json`` on a local cluster of 2 CPUs); Beam
(``ReadFromText`` of the JSON lines on the DirectRunner, 2 processes). Start-up is included.

Measured for the whole process tree of the run (the engine's driver and everything it starts:
workers, a JVM, a Ray cluster, a Connect server): wall seconds; CPU seconds, the larger of what
the finished processes report to their parents (``RUSAGE_CHILDREN``) and the sum over every
process of the tree of its own user + system time last seen by a sampler reading ``/proc`` every
0.1 s (processes the parent does not wait for, such as Spark's JVM, are only seen so; the last
0.1 s of each is missed: lower bounds); and the peak of the tree's summed resident memory as the
sampler saw it (Linux only). Each engine prints its statistics; the table says whether they
equal the CLI's. Nothing is asserted: the numbers are reported.
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
import threading
import time
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from conformance.data import WMT17, read_lines

ROOT = Path(__file__).resolve().parent.parent
ENGINES = (
    "cli-1",
    "cli",
    "multiprocessing",
    "datasets",
    "dask",
    "torch",
    "spark",
    "spark-connect",
    "ray",
    "beam",
)
NEEDS = {
    "datasets": "datasets",
    "dask": "distributed",
    "torch": "torch",
    "spark": "pyspark",
    "spark-connect": "grpc",
    "ray": "ray",
    "beam": "apache_beam",
}
LABELS = {
    "cli-1": "`reference-bleu score --jobs 1`",
    "cli": "`reference-bleu score --jobs 2`",
    "multiprocessing": "`multiprocessing`, 2 processes",
    "datasets": "`datasets.map`, `num_proc=2`",
    "dask": "Dask `LocalCluster`, 2 processes",
    "torch": "torch.distributed, 2 gloo processes",
    "spark": "Spark `local[2]`",
    "spark-connect": "Spark Connect server, `local[2]`",
    "ray": "Ray Data, 2 CPUs",
    "beam": "Beam DirectRunner, 2 processes",
}
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def write_pairs(folder: Path, pairs: int) -> tuple[Path, Path, Path]:
    """N pairs: the 16 WMT17 systems' lines against the reference, repeated as needed.

    Written line by line, as two text files and as JSON lines: this process stays small.
    """
    refs = read_lines(WMT17, "ref.de")
    hyp, ref, both = folder / "hyp.txt", folder / "ref.txt", folder / "pairs.jsonl"
    written = 0
    with (
        hyp.open("w", encoding="utf-8") as h,
        ref.open("w", encoding="utf-8") as r,
        both.open("w", encoding="utf-8") as j,
    ):
        while written < pairs:
            for name in WMT17.systems:
                for line, reference in zip(read_lines(WMT17, name), refs, strict=True):
                    if written == pairs:
                        return hyp, ref, both
                    h.write(line + "\n")
                    r.write(reference + "\n")
                    j.write(json.dumps({"hyp": line, "ref": reference}, ensure_ascii=False) + "\n")
                    written += 1
    return hyp, ref, both


def pairs_of(hyp: str, ref: str) -> Iterator[tuple[str, str]]:
    """The pairs of the two text files, streamed."""
    with open(hyp, encoding="utf-8") as h, open(ref, encoding="utf-8") as r:
        for line, reference in zip(h, r, strict=True):
            yield line.rstrip("\n"), reference.rstrip("\n")


def summary(result: Any) -> dict[str, Any]:
    return {
        "matches": list(result.matches),
        "totals": list(result.totals),
        "score": str(result.score_decimal),
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the engines: each runs in its own fresh process (``--one``) --------------------------------


def run_cli(files: dict[str, str], jobs: int = 2) -> dict[str, Any]:
    from reference_bleu.cli.main import main  # noqa: PLC0415

    out = Path(tempfile.mkdtemp()) / "out.json"
    with out.open("w", encoding="utf-8") as stream:
        saved, sys.stdout = sys.stdout, stream
        try:
            main(
                [
                    "score",
                    "--json",
                    "-q",
                    "--jobs",
                    str(jobs),
                    "-tok",
                    "13a",
                    "-r",
                    files["ref"],
                    "-i",
                    files["hyp"],
                ]
            )
        finally:
            sys.stdout = saved
    system = json.loads(out.read_text(encoding="utf-8"))["systems"][0]
    return {"matches": system["matches"], "totals": system["totals"], "score": system["score_decimal"]}


def _share(hyp: str, ref: str, k: int, of: int) -> Any:
    """One process's partial: every ``of``-th pair from the ``k``-th, streamed from the files."""
    from reference_bleu import make_conventions, partial_statistics  # noqa: PLC0415

    return partial_statistics(islice(pairs_of(hyp, ref), k, None, of), make_conventions(tokenize="13a"))


def run_multiprocessing(files: dict[str, str]) -> dict[str, Any]:
    from multiprocessing import get_context  # noqa: PLC0415

    with get_context("spawn").Pool(2) as pool:
        parts = pool.starmap(_share, [(files["hyp"], files["ref"], k, 2) for k in range(2)])
    return summary(sum(parts).score())


def run_datasets(files: dict[str, str]) -> dict[str, Any]:
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    datasets: Any = importlib.import_module("datasets")
    dataset = datasets.Dataset.from_json(files["jsonl"], cache_dir=tempfile.mkdtemp())
    guide = (ROOT / "docs" / "beyond-one-machine.md").read_text(encoding="utf-8")
    recipe = guide.split("<!-- recipe: datasets -->\n```python\n", 1)[1].split("\n```", 1)[0]
    recipe = recipe.replace('make_conventions("sacrebleu")', 'make_conventions(tokenize="13a")')
    namespace: dict[str, Any] = {"dataset": dataset}
    exec(recipe, namespace)  # noqa: S102 -- the guide's own recipe, with 13a as every engine here
    return summary(namespace["result"])


def run_dask(files: dict[str, str]) -> dict[str, Any]:
    dd: Any = importlib.import_module("dask.dataframe")
    distributed: Any = importlib.import_module("distributed")
    from reference_bleu.integrations.dask import corpus_bleu  # noqa: PLC0415

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as c,
        distributed.Client(c),
    ):
        frame = dd.read_json(files["jsonl"], lines=True, blocksize=2**24, dtype={"hyp": str, "ref": str})
        return summary(corpus_bleu(frame, "hyp", "ref", tokenize="13a"))


def _torch_rank(rank: int, port: int, hyp: str, ref: str, out: str) -> None:
    dist: Any = importlib.import_module("torch.distributed")
    from reference_bleu.integrations.torch import sync_partial  # noqa: PLC0415

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=2)
    try:
        result = sync_partial(_share(hyp, ref, rank, 2)).score()
        if rank == 0:
            Path(out).write_text(json.dumps(summary(result)), encoding="utf-8")
    finally:
        dist.destroy_process_group()


def run_torch(files: dict[str, str]) -> dict[str, Any]:
    mp: Any = importlib.import_module("torch.multiprocessing")
    out = Path(tempfile.mkdtemp()) / "rank0.json"
    mp.spawn(_torch_rank, args=(_free_port(), files["hyp"], files["ref"], str(out)), nprocs=2, join=True)
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def _spark_bleu(spark: Any, files: dict[str, str]) -> dict[str, Any]:
    from reference_bleu.integrations.spark import corpus_bleu  # noqa: PLC0415

    frame = spark.read.schema("hyp string, ref string").json(files["jsonl"])
    return summary(corpus_bleu(frame, "hyp", "ref", tokenize="13a"))


def run_spark(files: dict[str, str]) -> dict[str, Any]:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the executors import reference_bleu
    sql: Any = importlib.import_module("pyspark.sql")
    spark = sql.SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
    try:
        return _spark_bleu(spark, files)
    finally:
        spark.stop()


def run_spark_connect(files: dict[str, str]) -> dict[str, Any]:
    home = importlib.import_module("pyspark.find_spark_home")._find_spark_home()
    port, log = _free_port(), Path(tempfile.mkdtemp()) / "server.log"
    command = [
        str(Path(home, "bin", "spark-submit")), "--master", "local[2]",
        "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
        "--conf", f"spark.connect.grpc.binding.port={port}", "--conf", "spark.ui.enabled=false",
    ]  # fmt: skip
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_HOME": home}
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)  # noqa: S603
    try:
        while b"Spark Connect server started" not in log.read_bytes():
            if server.poll() is not None:
                raise RuntimeError("the Spark Connect server did not start")
            time.sleep(0.5)
        sql: Any = importlib.import_module("pyspark.sql")
        spark = sql.SparkSession.builder.remote(f"sc://127.0.0.1:{port}").getOrCreate()
        try:
            return _spark_bleu(spark, files)
        finally:
            spark.stop()
    finally:
        server.terminate()
        server.wait(timeout=60)


def run_ray(files: dict[str, str]) -> dict[str, Any]:
    ray: Any = importlib.import_module("ray")
    from reference_bleu.integrations.ray import corpus_bleu  # noqa: PLC0415

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        dataset = importlib.import_module("ray.data").read_json(
            files["jsonl"], lines=True, override_num_blocks=8
        )
        return summary(corpus_bleu(dataset, "hyp", "ref", tokenize="13a"))
    finally:
        ray.shutdown()


def _keep(folder: str) -> Callable[[Any], None]:
    def write(result: Any) -> None:
        Path(folder, "result.json").write_text(json.dumps(summary(result)), encoding="utf-8")

    return write


def run_beam(files: dict[str, str]) -> dict[str, Any]:
    beam: Any = importlib.import_module("apache_beam")
    options: Any = importlib.import_module("apache_beam.options.pipeline_options")
    from reference_bleu.integrations.beam import BleuCombineFn  # noqa: PLC0415

    folder = tempfile.mkdtemp()
    settings = options.PipelineOptions(direct_num_workers=2, direct_running_mode="multi_processing")
    with beam.Pipeline(runner="DirectRunner", options=settings) as pipeline:
        _ = (
            pipeline
            | beam.io.ReadFromText(files["jsonl"])
            | beam.Map(lambda line: tuple(json.loads(line).values()))
            | beam.CombineGlobally(BleuCombineFn(tokenize="13a"))
            | beam.Map(_keep(folder))
        )
    result: dict[str, Any] = json.loads(Path(folder, "result.json").read_text(encoding="utf-8"))
    return result


RUNS: dict[str, Callable[[dict[str, str]], dict[str, Any]]] = {
    "cli-1": lambda files: run_cli(files, jobs=1),
    "cli": run_cli,
    "multiprocessing": run_multiprocessing,
    "datasets": run_datasets,
    "dask": run_dask,
    "torch": run_torch,
    "spark": run_spark,
    "spark-connect": run_spark_connect,
    "ray": run_ray,
    "beam": run_beam,
}


def one(engine: str, hyp: str, ref: str, jsonl: str) -> None:
    """Run one engine in this process; print its statistics and wall time as JSON (the parent's child)."""
    start = time.perf_counter()
    result = RUNS[engine]({"hyp": hyp, "ref": ref, "jsonl": jsonl})
    print(json.dumps({"wall": time.perf_counter() - start, **result}))


# --- measuring a process tree -----------------------------------------------------------------------


def _processes() -> dict[int, tuple[int, float, int]]:
    """Every process: pid -> (parent pid, own user + system CPU seconds, resident bytes)."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            resident = int(Path(entry.path, "statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
        found[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS, resident)
    return found


class TreeSampler(threading.Thread):
    """Samples the process tree under ``root`` every 0.1 s: peak summed memory, CPU last seen per process."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True)
        self.root, self.peak = root, 0
        self.cpu: dict[int, float] = {}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            processes = _processes()
            children: dict[int, list[int]] = {}
            for pid, (parent, _, _) in processes.items():
                children.setdefault(parent, []).append(pid)
            tree, todo = [], [self.root]
            while todo:
                pid = todo.pop()
                if pid in processes:
                    tree.append(pid)
                    todo.extend(children.get(pid, []))
            self.peak = max(self.peak, sum(processes[pid][2] for pid in tree))
            for pid in tree:
                self.cpu[pid] = processes[pid][1]
            self.done.wait(0.1)


def measured(engine: str, files: tuple[Path, Path, Path]) -> dict[str, Any]:
    """One engine in a fresh child: its printed figures, the CPU and peak memory of its process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(  # noqa: S603 -- this very script
        [sys.executable, __file__, "--one", engine, *map(str, files)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    sampler = TreeSampler(child.pid)
    sampler.start()
    stdout, stderr = child.communicate()
    sampler.done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if child.returncode != 0:
        return {"error": stderr.strip().splitlines()[-1] if stderr.strip() else "failed"}
    figures: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    waited = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    figures["cpu"] = max(waited, sum(sampler.cpu.values()))
    figures["peak_mb"] = sampler.peak / 2**20
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES)
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        one(*args.one)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        files = write_pairs(Path(folder), args.pairs)
        started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        print(f"{args.pairs:,} pairs of WMT17 en-de text, 13a, on {os.cpu_count()} CPUs; 2 workers each")
        print(f"started {started}, load average {Path('/proc/loadavg').read_text().split()[:3]}\n")
        print("| engine | wall s | CPU s, process tree | peak MB, process tree | statistics = CLI's | BLEU |")
        print("|---|---:|---:|---:|---|---:|")
        baseline: dict[str, Any] | None = None
        for engine in args.engines:
            if engine in NEEDS and importlib.util.find_spec(NEEDS[engine]) is None:
                print(f"| {LABELS[engine]} | not installed | | | | |", flush=True)
                continue
            figures = measured(engine, files)
            if "error" in figures:
                print(f"| {LABELS[engine]} | failed: {figures['error'][:80]} | | | | |", flush=True)
                continue
            baseline = baseline or figures
            same = all(figures[k] == baseline[k] for k in ("matches", "totals", "score"))
            score = float(figures["score"]) * 100
            wall, cpu, peak = figures["wall"], figures["cpu"], figures["peak_mb"]
            row = f"| {LABELS[engine]} | {wall:.1f} | {cpu:.1f} | {peak:.0f} |"
            print(f"{row} {'yes' if same else 'NO'} | {score:.4f} |", flush=True)
        print(
            f"\nended {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
            f"{Path('/proc/loadavg').read_text().split()[:3]}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
