"""Time ``compare`` and ``identify`` on the shipped WMT17 en-de data (spec ATTR-COST).

Usage (from the project root)::

    python benchmarks/attribution.py                  # compare sacrebleu/nltk, 1 and 4 systems; identify
    python benchmarks/attribution.py --points 5000    # identify with a larger budget

Each measure runs in this process from a fresh ``CountedCorpus`` (the files read and every
text convention counted inside the timing) and reports CPU seconds (``time.process_time``,
one core) and wall seconds: the machine may be shared, and CPU time is the figure to compare.
``identify`` is also timed as a whole command (``reference-bleu identify``, a fresh process: its
start-up included), from the CPU its child used (user and system). Nothing is asserted: the
numbers are reported.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from conformance.data import WMT17
from reference_bleu.analysis.attribution import Comparison, compare
from reference_bleu.analysis.counted import CountedCorpus
from reference_bleu.analysis.identification import DEFAULT_BUDGET, identify, most_likely, parse_reported
from reference_bleu.conventions.space import profile_point

FOLDER = WMT17.compressed


def timed(label: str, work: Callable[[], Any]) -> Any:
    """Run ``work`` and print its CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = work()
    print(f"{label}: {time.process_time() - cpu:.2f} s CPU, {time.perf_counter() - wall:.2f} s wall")
    return result


def corpus(systems: list[str]) -> CountedCorpus:
    """The systems' files and the reference, read from the shipped .xz files."""
    return CountedCorpus.from_files([str(FOLDER / f"{s}.xz") for s in systems], [str(FOLDER / "ref.de.xz")])


def main() -> None:
    """Print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--points",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"identify's budget ({DEFAULT_BUDGET}, its default)",
    )
    args = parser.parse_args()
    a, b = profile_point("sacrebleu"), profile_point("nltk")
    for count in (1, 4):
        systems = list(WMT17.systems[:count])
        result: Comparison = timed(
            f"compare sacrebleu nltk, {count} system(s), 3,004 segments",
            lambda: compare(corpus(systems), a, b),  # noqa: B023 -- called at once
        )
        print(f"  {result.mixtures} mixtures scored, {len(result.players)} axes")
    for number, whose in NUMBERS:
        uedin = corpus(["hyp.uedin-nmt.4722.de"])
        found = timed(
            f"identify {number} ({whose}) on uedin-nmt, budget {args.points}",
            lambda: identify(uedin, [parse_reported(number)], budget=args.points),  # noqa: B023
        )
        print(
            f"  {sum(found.tried.values())} points screened {found.tried}, {len(found.matches)} print it, ",
            end="",
        )
        print(f"{found.refused} refused, {found.countings} text conventions counted")
        print(f"  {most_likely(found)}")
        whole_command(number, args.points)


#: The numbers identified: sacrebleu's full-precision score, mteval-v13a.pl's printed one, sacrebleu's
#: printed one, all on uedin-nmt (tests/test_identification.py, tests/test_profiles.py).
NUMBERS = (
    ("28.301225088283296", "sacrebleu's BLEU().corpus_score(...).score"),
    ("0.2892", "mteval-v13a.pl's number"),
    ("28.3", "sacrebleu's printed number"),
)


def whole_command(number: str, points: int) -> None:
    """``reference-bleu identify`` in a fresh process: the CPU it used, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    files = ["-r", str(FOLDER / "ref.de.xz"), "-i", str(FOLDER / "hyp.uedin-nmt.4722.de.xz")]
    command = [sys.executable, "-m", "reference_bleu", "identify", *files, "--reported", number]
    subprocess.run([*command, "--max-points", str(points)], check=True, capture_output=True)  # noqa: S603
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    print(
        f"  whole command: {user:.2f} s user + {system:.2f} s system, {time.perf_counter() - wall:.2f} s wall"
    )


if __name__ == "__main__":
    main()
