"""Time ``compare`` and ``identify`` on the shipped WMT17 en-de data (spec ATTR-COST).

Usage (from the project root)::

    python benchmarks/attribution.py                  # compare sacrebleu/nltk, 1 and 4 systems; identify
    python benchmarks/attribution.py --points 2000    # identify with a larger budget

Each measure runs in this process from a fresh ``CountedCorpus`` (the files read and every
text convention counted inside the timing) and reports CPU seconds (``time.process_time``,
one core) and wall seconds: the machine may be shared, and CPU time is the figure to compare.
Nothing is asserted: the numbers are reported.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from conformance.data import WMT17
from reference_bleu.analysis.attribution import Comparison, compare
from reference_bleu.analysis.counted import CountedCorpus
from reference_bleu.analysis.identification import identify, parse_reported
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
    parser.add_argument("--points", type=int, default=1000, help="identify's budget (1000)")
    args = parser.parse_args()
    a, b = profile_point("sacrebleu"), profile_point("nltk")
    for count in (1, 4):
        systems = list(WMT17.systems[:count])
        result: Comparison = timed(
            f"compare sacrebleu nltk, {count} system(s), 3,004 segments",
            lambda: compare(corpus(systems), a, b),  # noqa: B023 -- called at once
        )
        print(f"  {result.mixtures} mixtures scored, {len(result.players)} axes")
    uedin = corpus(["hyp.uedin-nmt.4722.de"])
    found = timed(
        f"identify 0.2892 (mteval-v13a.pl's number) on uedin-nmt, budget {args.points}",
        lambda: identify(uedin, [parse_reported("0.2892")], budget=args.points),
    )
    print(
        f"  {sum(found.tried.values())} points tried {found.tried}, {len(found.matches)} print it, ", end=""
    )
    print(f"{found.refused} refused, {found.countings} text conventions counted")


if __name__ == "__main__":
    main()
