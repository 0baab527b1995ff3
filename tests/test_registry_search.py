"""The verdict's search over the registry places the reference configured at registry values (CONF-VERDICT).

The answers are the reference's at a configured point (every value of every observed axis, and
pairs of values drawn with a fixed seed), on the battery the runner asks: the fingerprint's
diagnostics and the generated corpora. The candidates the runner lists for ``--expect paper``, and
the registry search when none of them predicts every answer, must find a point that predicts every
answer *and* the configured point's answers on 96 further corpora, on the configured axes.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from conformance.runner.expectation import OBSERVED, Candidate, Expectation, one_axis_changes
from conformance.runner.fingerprint import POINTS
from conformance.runner.placement import (
    Battery,
    candidates,
    consistent,
    generated_corpora,
    matches,
    registry_search,
)
from conformance.suite.resolution import IN_FULL
from reference_bleu.conventions.profiles import option_axes
from reference_bleu.errors import BleuError

BATTERY = [
    d.corpus for p in POINTS if p.battery for d in p.diagnostics if p.level == "corpus"
] + generated_corpora(0)
FURTHER = generated_corpora(1, 96)


def _valid(assignment: dict[str, Any]) -> bool:
    try:
        option_axes(assignment)
    except BleuError:
        return False
    return True


SINGLE = [(change, a) for change, a in one_axis_changes() if _valid(a)]
_RNG = random.Random(2026)  # noqa: S311 -- a fixed sample of pairs, not a secret
PAIRS = [
    (f"{c1} + {c2}", {**a1, **a2})
    for (c1, a1), (c2, a2) in (_RNG.sample(SINGLE, 2) for _ in range(12))
    if set(a1).isdisjoint(a2) and _valid({**a1, **a2})
]


@pytest.fixture(scope="module")
def pool() -> list[tuple[Candidate, list[Any]]]:
    """The runner's candidates for ``--expect paper``, each with its predictions on the battery
    (computed once for every configured point)."""
    return [(c, [c.predict(x) for x in BATTERY]) for c in candidates(Expectation.parse("paper"), {})]


def _placed(pool: list[tuple[Candidate, list[Any]]], configured: dict[str, Any]) -> list[Candidate]:
    """As the verdict places a target answering as the reference at ``configured``: the listed points
    predicting every answer, else the registry search; then those agreeing on the further corpora."""
    truth = Candidate("configured", configured)
    answers = [truth.predict(c) for c in BATTERY]
    matched = [
        c
        for c, said in pool
        if all(matches(a, p, c.tolerance, IN_FULL) for a, p in zip(answers, said, strict=True))
    ] or registry_search([c for c, _ in pool], Battery(tuple(BATTERY), tuple(answers), IN_FULL))
    further = [truth.predict(c) for c in FURTHER]
    return [c for c in matched if consistent(c, Battery(tuple(FURTHER), tuple(further), IN_FULL))]


@pytest.mark.slow
def test_the_reference_at_every_registry_value_and_sampled_pairs_is_placed_there(
    pool: list[tuple[Candidate, list[Any]]],
) -> None:
    observed = [axis.name for axis in OBSERVED]
    wrong = []
    for change, assignment in SINGLE + PAIRS:
        truth = Candidate("configured", assignment)
        placed = _placed(pool, assignment)
        if not placed:
            wrong.append(f"{change}: no point predicts its answers")
        # every value alone is found on its axis; a pair may be placed at an equal BLEU (one value can
        # mask the other: an early return on any zero precision leaves no zero for a sentinel), which
        # _placed has checked on the battery and 96 further corpora
        elif (change, assignment) in SINGLE and not any(
            all(p.axes[a] == truth.axes[a] for a in observed) for p in placed
        ):
            wrong.append(f"{change}: placed at {[p.name for p in placed]}")
    assert not wrong, "\n".join(wrong)
