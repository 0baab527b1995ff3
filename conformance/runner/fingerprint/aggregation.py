"""FP-AGGREGATION: micro (corpus statistics, one score) or macro (a mean of sentence scores), EC-009."""

from __future__ import annotations

from conformance.runner.fingerprint.base import (
    Config,
    Convention,
    Diagnostic,
    Point,
    alphabet,
    registry_conventions,
)

#: Two segments, every precision 1: micro pools c and r (BP = e^-0.5), macro averages BPs;
#: then three, where micro's BP is exp(1 - 17/12) and macro's mean is (1 + e^-1 + e^-1/4) / 3.
_AGGREGATION = (
    Diagnostic("c=4,r=4 and c=4,r=8", ([alphabet(4), alphabet(4)], [[alphabet(4)], [alphabet(8)]])),
    Diagnostic(
        "c=4,r=4; c=4,r=8; c=4,r=5",
        ([alphabet(4), alphabet(4), alphabet(4)], [[alphabet(4)], [alphabet(8)], [alphabet(5)]]),
    ),
)


def _aggregation(config: Config) -> tuple[Convention, ...]:
    return registry_conventions(("aggregation",), config)


AGGREGATION = Point(
    "FP-AGGREGATION",
    ("EC-009",),
    "how is a corpus aggregated?",
    _AGGREGATION,
    _aggregation,
    axes=("aggregation",),
)
